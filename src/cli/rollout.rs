//! `kotra-ai rollout`: with dice, roll out the candidate moves of the roll;
//! without, roll out the position and its cube decision (with `--cubeful`
//! the cube is played inside the trials, otherwise the cube model decides
//! on the rolled-out probabilities).

use crate::analysis::{Analyzer, CheckedRollout, PositionRollout, RolledCube, RolloutRequest};
use crate::backgammon::Setup;
use crate::cube::CubeState;
use crate::eval::{Evaluator, Probs, model_or_shipped};
use crate::notation::ascii;
use crate::rollout::RolloutResult;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RolloutArgs {
    /// `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// The roll whose moves to roll out (defaults to the dice in the ID;
    /// without dice the position before the roll is rolled out).
    #[arg(long, allow_hyphen_values = true)]
    pub dice: Option<String>,
    /// Trials (games played out) per candidate or position.
    #[arg(long, default_value_t = 1296, allow_negative_numbers = true)]
    pub trials: u32,
    /// Checker play (and with --cubeful the cube decisions) inside the
    /// rollout, as gnubg counts plies.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub ply: u8,
    /// With --ply 1 or 2: which moves of the 0-ply pass the search values,
    /// at most KEEP within WINDOW of the best (gnubg's move filter;
    /// default 3:0.06 at 1-ply, 8:0.16 at 2-ply).
    #[arg(long, value_name = "KEEP:WINDOW")]
    pub filter: Option<crate::search::MoveFilter>,
    /// With --ply 2: the 1-ply pass between the move filter and the 2-ply
    /// search, `skip` (as gnubg and the analysis do) or KEEP:WINDOW, the
    /// 1-ply ranking's moves that go on to 2-ply (default 5:0.1).
    #[arg(long, value_name = "KEEP:WINDOW|skip")]
    pub middle: Option<crate::search::OnePlyPass>,
    /// Stop each trial after this many half-moves and use the evaluator.
    #[arg(long, allow_negative_numbers = true)]
    pub truncate: Option<u32>,
    /// Seed of the dice; the same seed gives the same numbers on any thread count.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Play the cube inside the rollout (money play) and report cubeful equities.
    #[arg(long)]
    pub cubeful: bool,
    /// How many candidate moves (the best at 0-ply within 0.16) to roll out.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true)]
    pub candidates: usize,
    /// Switch off variance reduction (luck adjustment).
    #[arg(long)]
    pub no_variance_reduction: bool,
    /// Another model file instead of the shipped network.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

impl RolloutArgs {
    /// The request the flags spell, checked by the facade (the server
    /// refuses and accepts the same), the error naming the flag.
    pub fn check(&self) -> anyhow::Result<CheckedRollout> {
        RolloutRequest {
            trials: u64::from(self.trials),
            ply: i64::from(self.ply),
            filter: self.filter,
            middle: self.middle,
            truncate: self.truncate,
            seed: self.seed,
            candidates: self.candidates as u64,
            variance_reduction: !self.no_variance_reduction,
        }
        .check()
        .map_err(|e| anyhow::anyhow!("--{e}"))
    }
}

pub fn run(args: RolloutArgs) -> anyhow::Result<()> {
    let CheckedRollout {
        settings,
        candidates,
    } = args.check()?;
    let mut setup = super::setup_arg(&args.position)?;
    let eval = Evaluator::new(model_or_shipped(args.model.as_deref())?);
    let analyzer = Analyzer::new(&eval);
    let dice = match args.dice.as_deref() {
        Some(_) => Some(super::roll_arg(args.dice.as_deref(), &setup, "")?),
        None => setup.info.rolled(),
    };
    let bar = bar(!args.json, u64::from(settings.trials));
    let Some(dice) = dice else {
        let rolled = analyzer.rollout_position(&setup, &settings, args.cubeful, &bar);
        bar.finish_and_clear();
        return position(&setup, &rolled?, &args);
    };
    setup.info.set_rolled(dice);
    let rows = analyzer.rollout_candidates(&setup, dice, candidates, &settings, args.cubeful, &bar);
    bar.finish_and_clear();
    let rolled = rows?;
    if args.json {
        println!("{}", serde_json::to_string(&rolled)?);
        return Ok(());
    }
    let rows = rolled.moves;
    print!("{}", ascii::render(&setup));
    println!(
        "Rollout of {} candidate moves with {dice}: {} trials each, {}{}{}, seed {}",
        rows.len(),
        args.trials,
        play(&settings),
        truncation(args.truncate),
        if args.cubeful { ", cubeful" } else { "" },
        args.seed
    );
    let best = rows[0].key();
    println!(
        "{:>4}  {:<26} {:>7}   {:>5}  {:>7}  {}",
        "",
        "move",
        if args.cubeful { "cubeful" } else { "equity" },
        "se",
        "diff",
        super::analyze::probs_header()
    );
    for (i, r) in rows.iter().enumerate() {
        let e = r.value();
        println!(
            "{:>4}. {:<26} {:>+7.3} ± {:.3}  {:>7}  {}",
            i + 1,
            r.text,
            e.mean,
            e.se,
            super::analyze::diff_to_best(i, e.mean - best),
            probs_line(&r.result)
        );
    }
    Ok(())
}

fn position(setup: &Setup, rolled: &PositionRollout, args: &RolloutArgs) -> anyhow::Result<()> {
    if args.json {
        println!("{}", serde_json::to_string(rolled)?);
        return Ok(());
    }
    let (settings, result) = (&rolled.settings, &rolled.result);
    print!("{}", ascii::render(setup));
    println!(
        "Rollout for the side on roll: {} trials, {}{}, seed {}",
        settings.trials,
        play(settings),
        truncation(settings.truncate),
        settings.seed
    );
    println!("{:35}{}", "", super::analyze::probs_header());
    println!(
        "  cubeless equity {:+.3} ± {:.3}   {}",
        result.cubeless.mean,
        result.cubeless.se,
        probs_line(result)
    );
    match &rolled.cube {
        Some(RolledCube::InTrials {
            no_double,
            double_take,
            double_pass,
            action,
            take,
        }) => {
            println!(
                "  No double      {:+.3} ± {:.3}",
                no_double.0.mean, no_double.0.se
            );
            println!(
                "  Double, take   {:+.3} ± {:.3}",
                double_take.0.mean, double_take.0.se
            );
            println!("  Double, pass   {:+.3}", double_pass);
            println!("Proper cube action: {action}; the opponent should {take}.");
        }
        Some(RolledCube::FromProbs(report)) => {
            println!(
                "Cube decision from the rolled-out probabilities (cube model; {}):",
                super::analyze::unit(&CubeState::from_setup(setup))
            );
            super::analyze::print_cube_decision(report);
        }
        None => {}
    }
    Ok(())
}

/// What a 2-ply play's 1-ply pass does, to follow its move filter's
/// words; nothing at a ply without one.
pub fn one_ply_pass_words(settings: &crate::rollout::RolloutSettings) -> String {
    match settings.one_ply_pass() {
        Some(crate::search::OnePlyPass::Filter(f)) => format!(", then {f} at 1-ply"),
        Some(crate::search::OnePlyPass::Skip) => ", 1-ply skipped".to_string(),
        None => String::new(),
    }
}

/// The trials' checker play: its ply, and a search's move filters.
fn play(settings: &crate::rollout::RolloutSettings) -> String {
    match settings.ply {
        0 => "0-ply play".to_string(),
        ply => format!(
            "{ply}-ply play (move filter {}{})",
            settings.move_filter(),
            one_ply_pass_words(settings)
        ),
    }
}

fn truncation(t: Option<u32>) -> String {
    t.map(|k| format!(", truncated at {k} half-moves"))
        .unwrap_or_default()
}

fn probs_line(r: &RolloutResult) -> String {
    super::analyze::probs_line(&Probs(r.probs.map(|e| e.mean as f32)))
}

/// The trials' progress bar (hidden for `--json`).
pub(super) fn bar(visible: bool, total: u64) -> indicatif::ProgressBar {
    crate::progress::bar(
        visible,
        total,
        "{elapsed_precise} [{bar:30}] {pos}/{len} trials ({rate}, eta {eta})",
    )
}
