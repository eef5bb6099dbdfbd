//! `kotra-ai shard`: a distillation's teacher games as shards on many
//! machines (`play`), collected into a run's folder for `train` (`merge`).

use crate::train::TrainConfig;
use crate::train::distill::shards::{merge_shards, play_shard};
use anyhow::Context;
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug)]
pub enum ShardCommand {
    /// Play shard INDEX of COUNT of the config's teacher games into
    /// DIR/chunks/ (chunks already there are kept: run it again after a
    /// crash or a requeue).
    Play {
        /// The distillation's config (JSON, see training/).
        #[arg(long)]
        config: PathBuf,
        /// This shard's number, from 0 (a job array's task id).
        #[arg(long)]
        index: u64,
        /// How many shards share the work.
        #[arg(long)]
        count: u64,
        /// The shared folder every shard writes to.
        #[arg(long)]
        dir: PathBuf,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Put the shards' chunks into a run's folder, where `kotra-ai train
    /// --config CONFIG --out OUT` reads them instead of playing them.
    Merge {
        #[arg(long)]
        config: PathBuf,
        /// The count the shards were played with (to name the unfinished).
        #[arg(long)]
        count: u64,
        #[arg(long)]
        dir: PathBuf,
        /// The run's folder.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(command: ShardCommand) -> anyhow::Result<()> {
    match command {
        ShardCommand::Play {
            config,
            index,
            count,
            dir,
            quiet,
        } => {
            let cfg = TrainConfig::load(&config)?;
            let done = play_shard(&cfg, index, count, &dir, !quiet)
                .with_context(|| format!("shard {index} of {count}"))?;
            println!(
                "shard {index} of {count}: {} chunks played, {} found done",
                done.played, done.found
            );
        }
        ShardCommand::Merge {
            config,
            count,
            dir,
            out,
        } => {
            let cfg = TrainConfig::load(&config)?;
            let done = merge_shards(&cfg, count, &dir, &out).context("merging shards")?;
            println!(
                "merged {} chunks into {} ({} there already); next: kotra-ai train --config {} --out {}",
                done.copied + done.present,
                out.display(),
                done.present,
                config.display(),
                out.display()
            );
        }
    }
    Ok(())
}
