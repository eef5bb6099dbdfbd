//! `kotra-ai rollout`: with dice, roll out the candidate moves of the roll;
//! without, roll out the position and its cube decision (with `--cubeful`
//! the cube is played inside the trials, otherwise the cube model decides
//! on the rolled-out probabilities).

use crate::backgammon::{MoveList, Setup, legal_moves};
use crate::cube::{CubeState, Stakes};
use crate::eval::{Evaluator, Probs, model_or_shipped};
use crate::notation::{ascii, move_text, position_id};
use crate::rollout::{Estimate, RolloutResult, RolloutSettings, cube_rollout, rollout};
use crate::search::{MoveFilter, SearchSettings, Searcher, static_cube_decision};
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
    /// Checker play inside the rollout, as gnubg counts plies.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub ply: u8,
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
    /// The counts every game's rollout needs.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.trials == 0 {
            anyhow::bail!("--trials must be at least 1");
        }
        if self.candidates == 0 {
            anyhow::bail!("--candidates must be at least 1");
        }
        if self.truncate == Some(0) {
            // Truncating before the first move would report the evaluator's
            // own value as a rollout.
            anyhow::bail!(
                "--truncate must be at least 1 (leave it out to play every trial to the end)"
            );
        }
        if self.ply > 2 {
            anyhow::bail!("--ply must be 0 to 2 inside a rollout");
        }
        Ok(())
    }
}

pub fn run(args: RolloutArgs) -> anyhow::Result<()> {
    args.check()?;
    let mut setup = super::setup_arg(&args.position)?;
    let state = CubeState::from_setup(&setup);
    if args.cubeful && !matches!(state.stakes, Stakes::Money { .. }) {
        anyhow::bail!("cubeful rollouts are money play only; leave out --cubeful for match scores");
    }
    let eval = Evaluator::new(model_or_shipped(args.model.as_deref())?);
    // A cubeless rollout has no cube in play, so its searched plays (at
    // `--ply` 1 or more, and the candidates it picks) rank by cubeless
    // equity, as its 0-ply plays do.
    let searcher = Searcher::new(&eval).with_cubeless(!args.cubeful);
    let settings = RolloutSettings {
        trials: args.trials,
        ply: args.ply,
        truncate: args.truncate,
        seed: args.seed,
        variance_reduction: !args.no_variance_reduction,
    };
    let dice = match args.dice.as_deref() {
        Some(_) => Some(super::roll_arg(args.dice.as_deref(), &setup, "")?),
        None => setup.info.rolled(),
    };
    let Some(dice) = dice else {
        return position(&setup, &searcher, &state, &settings, &args);
    };
    setup.info.dice = [dice.high(), dice.low()];
    let mut list = MoveList::new();
    legal_moves(&setup.position, dice, &mut list);
    if list.is_forfeit() {
        anyhow::bail!("no legal move with {dice}: nothing to roll out");
    }
    let filter = SearchSettings {
        first: MoveFilter {
            keep: args.candidates,
            window: 0.16,
        },
        ..SearchSettings::world_class(0)
    };
    let ranked = searcher.rank_moves(&list, &state, &filter);
    let chosen: Vec<_> = ranked
        .iter()
        .take(args.candidates)
        .filter(|r| r.equity >= ranked[0].equity - 0.16)
        .collect();
    let bar = bar(!args.json, args.trials as u64 * chosen.len() as u64);
    let tick = |n| bar.inc(n);
    let states: Vec<CubeState> = if args.cubeful {
        vec![state.swapped()]
    } else {
        vec![]
    };
    let mut rows: Vec<(String, String, RolloutResult)> = chosen
        .iter()
        .map(|r| {
            let result = rollout(
                &searcher,
                &r.position.swap(),
                false,
                &states,
                &settings,
                &tick,
            );
            let text = move_text::format(&setup.position, &list.as_slice()[r.index].play);
            (text, position_id::encode(&r.position), result)
        })
        .collect();
    bar.finish_and_clear();
    let key = |r: &RolloutResult| r.cubeful.first().unwrap_or(&r.cubeless).mean;
    rows.sort_by(|a, b| key(&b.2).total_cmp(&key(&a.2)));
    if args.json {
        let moves: Vec<_> = rows
            .iter()
            .map(|(m, id, r)| {
                let mut v = serde_json::json!({
                    "move": m,
                    "position_id": id,
                    "equity": est(&r.cubeless),
                    "probs": r.probs.iter().map(est).collect::<Vec<_>>(),
                });
                if let Some(c) = r.cubeful.first() {
                    v["cubeful_equity"] = est(c);
                }
                v
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"trials": args.trials, "seed": args.seed, "ply": args.ply, "moves": moves})
        );
        return Ok(());
    }
    print!("{}", ascii::render(&setup));
    println!(
        "Rollout of {} candidate moves with {dice}: {} trials each, {}-ply play{}{}, seed {}",
        rows.len(),
        args.trials,
        args.ply,
        truncation(args.truncate),
        if args.cubeful { ", cubeful" } else { "" },
        args.seed
    );
    let best = key(&rows[0].2);
    println!(
        "{:>4}  {:<26} {:>7}   {:>5}  {:>7}  {}",
        "",
        "move",
        if args.cubeful { "cubeful" } else { "equity" },
        "se",
        "diff",
        super::analyze::probs_header()
    );
    for (i, (m, _, r)) in rows.iter().enumerate() {
        let e = r.cubeful.first().unwrap_or(&r.cubeless);
        println!(
            "{:>4}. {m:<26} {:>+7.3} ± {:.3}  {:>7}  {}",
            i + 1,
            e.mean,
            e.se,
            super::analyze::diff_to_best(i, e.mean - best),
            probs_line(r)
        );
    }
    Ok(())
}

fn position(
    setup: &Setup,
    searcher: &Searcher,
    state: &CubeState,
    settings: &RolloutSettings,
    args: &RolloutArgs,
) -> anyhow::Result<()> {
    let pos = &setup.position;
    let bar = bar(!args.json, settings.trials as u64);
    let tick = |n| bar.inc(n);
    let (decision, result) = if args.cubeful {
        let (d, r) = cube_rollout(searcher, pos, state, settings, &tick);
        (Some(d), r)
    } else {
        (None, rollout(searcher, pos, true, &[], settings, &tick))
    };
    bar.finish_and_clear();
    // Without the cube in the trials, the cube decision is the cube
    // model's on the rolled-out probabilities, as `analyze` takes it from
    // the network's: on the dev cube set our 1,296-trial rollouts' give
    // 3.93 mp against the static network's 7.40 (training/README.md,
    // "Back games by rollouts").
    let from_probs = decision.is_none().then(|| {
        let probs = Probs(result.probs.map(|e| e.mean as f32)).consistent();
        static_cube_decision(pos, &probs, state)
    });
    if args.json {
        let mut v = serde_json::json!({
            "trials": settings.trials,
            "seed": settings.seed,
            "ply": settings.ply,
            "equity": est(&result.cubeless),
            "probs": result.probs.iter().map(est).collect::<Vec<_>>(),
        });
        if let Some(d) = decision {
            v["cube"] = serde_json::json!({
                "no_double": est(&result.cubeful[0]),
                "double_take": est(&result.cubeful[1]),
                "double_pass": 1.0,
                "action": d.action.to_string(),
                "take": d.take.to_string(),
            });
        }
        if let Some(d) = &from_probs {
            v["cube"] = super::analyze::cube_json(d);
        }
        println!("{v}");
        return Ok(());
    }
    print!("{}", ascii::render(setup));
    println!(
        "Rollout for the side on roll: {} trials, {}-ply play{}, seed {}",
        settings.trials,
        settings.ply,
        truncation(settings.truncate),
        settings.seed
    );
    println!("{:35}{}", "", super::analyze::probs_header());
    println!(
        "  cubeless equity {:+.3} ± {:.3}   {}",
        result.cubeless.mean,
        result.cubeless.se,
        probs_line(&result)
    );
    if let Some(d) = decision {
        println!(
            "  No double      {:+.3} ± {:.3}",
            result.cubeful[0].mean, result.cubeful[0].se
        );
        println!(
            "  Double, take   {:+.3} ± {:.3}",
            result.cubeful[1].mean, result.cubeful[1].se
        );
        println!("  Double, pass   {:+.3}", 1.0);
        println!(
            "Proper cube action: {}; the opponent should {}.",
            d.action, d.take
        );
    }
    if let Some(d) = &from_probs {
        println!(
            "Cube decision from the rolled-out probabilities (cube model; {}):",
            super::analyze::unit(state)
        );
        super::analyze::print_cube_decision(d, state);
    }
    Ok(())
}

fn truncation(t: Option<u32>) -> String {
    t.map(|k| format!(", truncated at {k} half-moves"))
        .unwrap_or_default()
}

fn est(e: &Estimate) -> serde_json::Value {
    serde_json::json!({"mean": (e.mean * 1e6).round() / 1e6, "se": (e.se * 1e6).round() / 1e6})
}

fn probs_line(r: &RolloutResult) -> String {
    super::analyze::probs_line(&crate::eval::Probs(r.probs.map(|e| e.mean as f32)))
}

/// The trials' progress bar (hidden for `--json`).
pub(super) fn bar(visible: bool, total: u64) -> indicatif::ProgressBar {
    crate::progress::bar(
        visible,
        total,
        "{elapsed_precise} [{bar:30}] {pos}/{len} trials ({per_sec}, eta {eta})",
    )
}
