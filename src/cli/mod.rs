//! The `kotra-ai` command line: argument types (parsed by `main.rs`) and
//! the commands, each a thin shell over the library.

mod analyze;
mod bench;
mod campaign;
mod duel;
mod four_player;
mod model_info;
mod moves;
mod other_games;
mod review;
mod rollout;
mod score;
mod shard;
mod show;
pub mod train;
mod train_pruner;

use crate::quoted::Quoted;
use clap::{Parser, Subcommand};

/// Exit code for bad input (a malformed ID, an illegal move, a missing file).
pub const EXIT_BAD_INPUT: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "kotra-ai",
    version,
    about = "Kotra (backgammon) engine: moves, analysis, training"
)]
pub struct Cli {
    /// Which game: backgammon (the default), icelandic-kotra or icehouse-kotra.
    #[arg(long, global = true, value_enum, default_value_t = GameName::Backgammon)]
    pub game: GameName,
    // The games' own options go before the command, like --game, so that
    // each command's help lists only what applies to it.
    /// Lítill meistari (8 and 7 on the last two points) wins 3.
    #[arg(long, help_heading = "Icelandic Kotra (--game icelandic-kotra)")]
    pub little_master: bool,
    /// Extra throws (5, 7 or 13) for a loser with nothing off.
    #[arg(long, value_parser = bonus_throws_arg, help_heading = "Icelandic Kotra (--game icelandic-kotra)")]
    pub bonus_throws: Option<u8>,
    /// One more turn for the second player after an Úttekt.
    #[arg(long, help_heading = "Icelandic Kotra (--game icelandic-kotra)")]
    pub equalizing_throw: bool,
    /// 2 or 4 players (show, moves, analyze and duel with 4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4), help_heading = "Icehouse Kotra (--game icehouse-kotra)")]
    pub players: u8,
    #[command(subcommand)]
    pub command: Command,
}

/// The longest a bench measurement may be asked to run.
const MAX_BENCH_SECONDS: f64 = 600.0;

/// A measurement's duration: a finite number of seconds, more than 0 and
/// at most [`MAX_BENCH_SECONDS`] (`inf` never ended, `nan` and 0 measured
/// nothing).
fn seconds_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_BENCH_SECONDS => Ok(s),
        _ => Err(format!(
            "must be a number of seconds above 0 and at most {MAX_BENCH_SECONDS}"
        )),
    }
}

fn bonus_throws_arg(text: &str) -> Result<u8, String> {
    match text {
        "5" | "7" | "13" => Ok(text.parse().expect("a number")),
        _ => Err("must be 5, 7 or 13".into()),
    }
}

/// The three games.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    Backgammon,
    IcelandicKotra,
    IcehouseKotra,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a position: board, pip counts, who is on roll, cube and score.
    Show {
        /// `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`.
        #[arg(allow_hyphen_values = true)]
        position: String,
    },
    /// List every legal move of a roll.
    Moves {
        /// `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`.
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The roll, e.g. 31 (defaults to the dice in the Match ID / XGID).
        #[arg(long, allow_hyphen_values = true)]
        dice: Option<String>,
        /// Print JSON: {"moves":[{"move":..,"position_id":..}]}.
        #[arg(long)]
        json: bool,
    },
    /// Rank every legal move of a roll with the network (without dice:
    /// evaluate the position for the side on roll).
    Analyze {
        /// `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`.
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The roll, e.g. 31 (defaults to the dice in the Match ID / XGID).
        #[arg(long, allow_hyphen_values = true)]
        dice: Option<String>,
        /// Search depth as gnubg counts it (0 = the network alone; default
        /// 2, gnubg's world class, for backgammon, 1 for the other games).
        #[arg(long, allow_negative_numbers = true)]
        ply: Option<u8>,
        /// Another model file instead of the shipped network.
        #[arg(long)]
        model: Option<std::path::PathBuf>,
        /// Print JSON: {"moves":[{"move":..,"position_id":..,"equity":..,"probs":[..]}]}.
        #[arg(long)]
        json: bool,
    },
    /// Roll out the candidate moves of a roll, or a position and its cube decision.
    Rollout(rollout::RolloutArgs),
    /// Train the networks by self-play (TD(λ), burn), with checkpoints.
    Train(train::TrainArgs),
    /// A distillation's teacher games as shards for a cluster, and their merge.
    #[command(subcommand)]
    Shard(shard::ShardCommand),
    /// The training campaign: grow the position database in training/data/.
    #[command(subcommand)]
    Campaign(campaign::CampaignCommand),
    /// Play mirrored money games between two players and report points per game.
    Duel(duel::DuelArgs),
    /// Distil the search's pre-selection network from a model's 0-ply values.
    TrainPruner(train_pruner::TrainPrunerArgs),
    /// Review played matches (.mat, .sgf): every checker play and cube
    /// decision against the best at a ply, the luck of every roll, gnubg's
    /// marks, error rates and PR per player and per game.
    Review(review::ReviewArgs),
    /// Mean move error on decisions labelled by gnubg (dev-moves format), by phase.
    Score {
        /// The decisions (e.g. tests/data/dev-moves.jsonl).
        #[arg(long, default_value = "tests/data/dev-moves.jsonl")]
        set: std::path::PathBuf,
        /// Another model file instead of the shipped network.
        #[arg(long)]
        model: Option<std::path::PathBuf>,
        /// Search depth as gnubg counts it (0 = the network alone; 0 to 2).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        ply: u8,
        /// Print {"decisions":N,"ply":P,"mean_mp":x,"by_label":{..}}.
        #[arg(long)]
        json: bool,
    },
    /// Describe a model file: how it was trained, network sizes.
    Model {
        /// The model file (default: the shipped network).
        path: Option<std::path::PathBuf>,
        /// Write a copy whose race network comes from this other model
        /// (with --out): each class keeps the network that plays it best.
        #[arg(long, requires = "out")]
        race_from: Option<std::path::PathBuf>,
        /// Where --race-from writes the combined model.
        #[arg(long, requires = "race_from")]
        out: Option<std::path::PathBuf>,
        /// Print the description as the file holds it, every database
        /// file by name (by default a run of one folder's files at one
        /// weight is shown as a count with its first and last).
        #[arg(long)]
        full: bool,
    },
    /// Serve the engine over HTTP: a page for the browser, a JSON API under
    /// /api, and wildbg's GET /move and /eval.
    Serve {
        /// Where to listen (loopback unless told otherwise; port 0 lets the
        /// system choose, and the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Deep analyses (2-ply and deeper, reviews) run at once.
        #[arg(long, default_value_t = 2)]
        workers: usize,
        /// Deep analyses waiting or running before more are refused with
        /// 503 (quick ones, 0- and 1-ply, have a queue four times as long).
        #[arg(long, default_value_t = 64)]
        queue: usize,
        /// Seconds an analysis may take before the answer is 503.
        #[arg(long, default_value_t = 60.0, allow_negative_numbers = true, value_parser = seconds_arg)]
        deadline: f64,
        /// Another model file instead of the shipped network.
        #[arg(long)]
        model: Option<std::path::PathBuf>,
    },
    /// Speak UBGI v0.2 on stdin/stdout (for gnubg's harnesses and other programs).
    Ubgi {
        /// Another model file instead of the shipped network.
        #[arg(long)]
        model: Option<std::path::PathBuf>,
    },
    /// Measure speed.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Network evaluations and 0-ply move choices per second (shipped network).
    Eval {
        /// Seconds to spend on each measurement.
        #[arg(long, default_value_t = 2.0, allow_negative_numbers = true, value_parser = seconds_arg)]
        seconds: f64,
        /// Another network to time (default: the shipped one).
        #[arg(long)]
        model: Option<std::path::PathBuf>,
    },
    /// Time to analyse dev-set decisions (moves and cube) at a ply.
    Analyze {
        /// Decisions in the dev-moves format.
        #[arg(long, default_value = "tests/data/dev-moves.jsonl")]
        set: std::path::PathBuf,
        /// How many decisions to time (spread over the set).
        #[arg(long, default_value_t = 300, allow_negative_numbers = true)]
        positions: usize,
        /// Search depth as gnubg counts it (0 to 3).
        #[arg(long, default_value_t = 2, allow_negative_numbers = true)]
        ply: u8,
        #[command(flatten)]
        pruning: PruningArgs,
    },
    /// Games per second in rollouts of the opening position.
    Rollout {
        /// Trials of the rollout.
        #[arg(long, default_value_t = 1296, allow_negative_numbers = true)]
        trials: u32,
        /// Checker play inside the rollout, as gnubg counts plies (0 to 2).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        ply: i64,
        /// Searching play's first move filter, KEEP:WINDOW (default: the
        /// rollouts' own for the ply).
        #[arg(long, value_name = "KEEP:WINDOW")]
        filter: Option<crate::search::MoveFilter>,
        /// At 2-ply, the 1-ply pass between the filter and the 2-ply
        /// search, skip or KEEP:WINDOW (default: the rollouts' own).
        #[arg(long, value_name = "KEEP:WINDOW|skip")]
        middle: Option<crate::search::OnePlyPass>,
        /// Play the cube inside the trials (money play, centred cube).
        #[arg(long)]
        cubeful: bool,
        #[command(flatten)]
        pruning: PruningArgs,
    },
    /// Legal-move generation over contact and race positions × all 21 rolls.
    Movegen {
        /// Position IDs, one per line (default: the built-in set).
        #[arg(long)]
        positions: Option<std::path::PathBuf>,
        /// Seconds to spend on each class.
        #[arg(long, default_value_t = 2.0, allow_negative_numbers = true, value_parser = seconds_arg)]
        seconds: f64,
    },
}

/// How a timed search pre-selects each roll's replies inside its tree.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct PruningArgs {
    /// How many of a roll's replies are pre-selected for the network (0 =
    /// all; default: the pre-selector's own width, 4 for network, 8 for
    /// pubeval).
    #[arg(long)]
    pub prune: Option<usize>,
    /// What pre-selects them: network or pubeval.
    #[arg(long, default_value_t = crate::search::DEFAULT_PRESELECTOR)]
    pub preselect: crate::search::Preselector,
}

impl PruningArgs {
    /// The width asked for, or the pre-selector's own
    /// ([`crate::search::Preselector::keep`]).
    pub fn prune(&self) -> usize {
        self.preselect.keep(self.prune)
    }
}

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let four_ok = cli.game == GameName::IcehouseKotra && cli.players == 4;
    let icelandic_flag = [
        ("--little-master", cli.little_master),
        ("--bonus-throws", cli.bonus_throws.is_some()),
        ("--equalizing-throw", cli.equalizing_throw),
    ]
    .into_iter()
    .find(|&(_, given)| given)
    .map(|(flag, _)| flag);
    let result = match cli.game {
        _ if cli.players != 2 && !four_ok => Err(anyhow::anyhow!(
            "--players is 2 or 4, and 4 only for icehouse-kotra"
        )),
        GameName::Backgammon | GameName::IcehouseKotra if icelandic_flag.is_some() => {
            Err(anyhow::anyhow!(
                "{} is an Icelandic Kotra rule: it needs --game icelandic-kotra",
                icelandic_flag.unwrap_or_default()
            ))
        }
        GameName::Backgammon => run_backgammon(cli.command),
        GameName::IcelandicKotra => {
            let game = crate::icelandic::game::IcelandicKotra {
                options: crate::icelandic::Options {
                    little_master: cli.little_master,
                    bonus_throws: cli.bonus_throws,
                    equalizing_throw: cli.equalizing_throw,
                },
            };
            other_games::run(&game, cli.command)
        }
        GameName::IcehouseKotra if four_ok => four_player::run_four(cli.command),
        GameName::IcehouseKotra => {
            other_games::run(&crate::icehouse::game::IcehouseKotra, cli.command)
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kotra-ai: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}

fn run_backgammon(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Show { position } => show::run(&position),
        Command::Analyze {
            position,
            dice,
            ply,
            model,
            json,
        } => analyze::run(
            &position,
            dice.as_deref(),
            ply.unwrap_or(analyze::DEFAULT_PLY),
            model.as_deref(),
            json,
        ),
        Command::Moves {
            position,
            dice,
            json,
        } => moves::run(&position, dice.as_deref(), json),
        Command::Train(args) => train::run(args),
        Command::Rollout(args) => rollout::run(args),
        Command::Shard(command) => shard::run(command),
        Command::Campaign(command) => campaign::run(command),
        Command::Duel(args) => duel::run(args),
        Command::Model {
            path,
            race_from,
            out,
            full,
        } => match (race_from, out) {
            (Some(race_from), Some(out)) => model_info::combine(path.as_deref(), &race_from, &out),
            _ => model_info::run(path.as_deref(), full),
        },
        Command::Ubgi { model } => ubgi(model.as_deref()),
        Command::Serve {
            addr,
            workers,
            queue,
            deadline,
            model,
        } => {
            if workers == 0 || queue == 0 {
                anyhow::bail!("--workers and --queue must be at least 1");
            }
            let eval =
                crate::eval::Evaluator::new(crate::eval::model_or_shipped(model.as_deref())?);
            crate::serve::run(
                eval,
                crate::serve::ServeSettings {
                    addr,
                    workers,
                    queue,
                    deadline: std::time::Duration::from_secs_f64(deadline),
                },
            )
        }
        Command::Review(args) => review::run(args),
        Command::TrainPruner(args) => train_pruner::run(&args),
        Command::Score {
            set,
            model,
            ply,
            json,
        } => score::run(&set, model.as_deref(), ply, json),
        Command::Bench {
            what: BenchCommand::Movegen { positions, seconds },
        } => bench::movegen(positions.as_deref(), seconds),
        Command::Bench {
            what: BenchCommand::Eval { seconds, model },
        } => bench::eval(seconds, model.as_deref()),
        Command::Bench {
            what:
                BenchCommand::Analyze {
                    set,
                    positions,
                    ply,
                    pruning,
                },
        } => bench::analyze(&set, positions, ply, pruning),
        Command::Bench {
            what:
                BenchCommand::Rollout {
                    trials,
                    ply,
                    filter,
                    middle,
                    cubeful,
                    pruning,
                },
        } => bench::rollout(trials, ply, filter, middle, cubeful, pruning),
    }
}

fn ubgi(model: Option<&std::path::Path>) -> anyhow::Result<()> {
    let eval = crate::eval::Evaluator::new(crate::eval::model_or_shipped(model)?);
    let stdin = std::io::stdin();
    crate::ubgi::Engine::new(&eval).run(stdin.lock(), std::io::stdout().lock())?;
    Ok(())
}

/// Prints a command-line parse error as one line on stderr (help and
/// version go to stdout whole) and gives the exit code: clap's own report
/// takes three to five lines, with a usage block, where every other bad
/// input here gets one.
pub fn report_parse_error(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            EXIT_BAD_INPUT
        } else {
            0
        };
    }
    eprintln!("kotra-ai: {} (see --help)", parse_error_line(e));
    EXIT_BAD_INPUT
}

/// The first line of clap's report, without its `error: ` prefix and the
/// terminal's styling.
fn parse_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("bad command line");
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // "the following required arguments were not provided:" lists them
    // on the indented lines below: name them on the one line.
    if line.ends_with(':') {
        let missing: Vec<&str> = text
            .lines()
            .skip_while(|l| l.trim() != first)
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        if !missing.is_empty() {
            line.push(' ');
            line.push_str(&missing.join(", "));
        }
    }
    // "unexpected argument" carries its hint on the next lines: keep the
    // tip when it names a real option.
    if let Some(tip) = text.lines().map(str::trim).find(|l| l.starts_with("tip: ")) {
        line.push_str("; ");
        line.push_str(tip.trim_start_matches("tip: "));
    }
    line
}

/// Turns any panic into one line on stderr (no backtrace) and exits; a
/// closed stdout (`kotra-ai ... | head`) ends the program quietly.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("unknown error");
        if msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        eprintln!("kotra-ai: internal error: {msg}");
        std::process::exit(101);
    }));
}

/// The roll to use: `--dice` if given, else the dice in the Match ID or
/// XGID; `missing` is the message when there are neither.
fn roll_arg(
    dice: Option<&str>,
    setup: &crate::backgammon::Setup,
    missing: &str,
) -> anyhow::Result<crate::backgammon::Dice> {
    use anyhow::Context;
    match dice {
        Some(d) => d.parse().context("bad --dice"),
        None => setup
            .info
            .rolled()
            .ok_or_else(|| anyhow::anyhow!("{missing}")),
    }
}

/// Parses a position argument with a message that names the argument.
fn setup_arg(text: &str) -> anyhow::Result<crate::backgammon::Setup> {
    crate::notation::parse_setup(text)
        .map_err(|e| anyhow::anyhow!("bad position {}: {e}", Quoted(text)))
}

/// A `--ply` checked against the facade's limit, the error naming the
/// flag.
fn search_ply_arg(ply: u8) -> anyhow::Result<u8> {
    crate::analysis::search_ply(i64::from(ply)).map_err(|e| anyhow::anyhow!("--{e}"))
}

/// Parses a position to show: a finished game is accepted.
fn setup_to_show(text: &str) -> anyhow::Result<crate::backgammon::Setup> {
    crate::notation::parse_setup_to_show(text)
        .map_err(|e| anyhow::anyhow!("bad position {}: {e}", Quoted(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn pruning(args: &[&str]) -> PruningArgs {
        let line = ["kotra-ai", "bench", "analyze"].iter().chain(args);
        match Cli::try_parse_from(line).unwrap().command {
            Command::Bench {
                what: BenchCommand::Analyze { pruning, .. },
            } => pruning,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_pruning_width_is_the_preselectors_own_unless_given() {
        let default = pruning(&[]);
        assert_eq!(
            (default.preselect, default.prune()),
            (
                crate::search::DEFAULT_PRESELECTOR,
                crate::search::DEFAULT_PRUNE
            )
        );
        assert_eq!(pruning(&["--preselect", "network"]).prune(), 4);
        assert_eq!(pruning(&["--preselect", "pubeval"]).prune(), 8);
        assert_eq!(
            pruning(&["--preselect", "network", "--prune", "6"]).prune(),
            6
        );
        assert_eq!(pruning(&["--prune", "0"]).prune(), 0);
    }
}
