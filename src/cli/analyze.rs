//! `kotra-ai analyze`: with dice, every legal move ranked like gnubg's hint
//! (cubeful equity, difference to the best, the five probabilities);
//! without dice, the cube decision before the roll.

use crate::analysis::{Analyzer, CubeReport, EXPLAINED, Equity, explain_top};
use crate::backgammon::Setup;
use crate::cube::{CubeState, Stakes};
use crate::eval::{Evaluator, Probs, model_or_shipped};
use crate::notation::ascii;
use std::path::Path;

pub use crate::analysis::DEFAULT_PLY;

pub fn run(
    position: &str,
    dice: Option<&str>,
    ply: u8,
    model: Option<&Path>,
    json: bool,
) -> anyhow::Result<()> {
    super::search_ply_arg(ply)?;
    let mut setup = super::setup_arg(position)?;
    let eval = Evaluator::new(model_or_shipped(model)?);
    let analyzer = Analyzer::new(&eval);
    if dice.is_none() && setup.info.rolled().is_none() {
        return cube(&setup, &analyzer, ply, json);
    }
    let dice = super::roll_arg(dice, &setup, "")?;
    setup.info.set_rolled(dice);
    let mut report = analyzer.rank_moves(&setup, dice, ply, Equity::Cubeful);
    explain_top(&mut report, EXPLAINED);
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    print!("{}", ascii::render(&setup));
    if report.moves.is_empty() {
        println!("No legal move with {dice}: the turn is forfeited.");
        return Ok(());
    }
    let state = CubeState::from_setup(&setup);
    let best = report.moves[0].equity;
    println!(
        "{} legal moves with {dice}, best first ({}; {ply}-ply, world-class filters):",
        report.moves.len(),
        unit(&state)
    );
    println!(
        "{:>4}  {:<26} {:>4} {:>7} {:>7}   {}",
        "",
        "move",
        "ply",
        "equity",
        "diff",
        probs_header()
    );
    for (i, m) in report.moves.iter().enumerate() {
        let mwc = m
            .mwc
            .map_or(String::new(), |w| format!("  {:5.1}% MWC", 100.0 * w));
        println!(
            "{:>4}. {:<26} {:>4} {:>+7.3} {:>7}   {}{mwc}",
            i + 1,
            m.text,
            m.ply,
            m.equity,
            diff_to_best(i, (m.equity - best) as f64),
            probs_line(&Probs(m.probs))
        );
        if let Some(e) = &m.explanation {
            println!("{:>6}{}", "", e.sentence);
        }
    }
    Ok(())
}

pub(super) fn unit(state: &CubeState) -> &'static str {
    match state.stakes {
        Stakes::Money { .. } => "cubeful money equity per unit of the cube",
        Stakes::Match { .. } => "cubeful match equity, money-normalised",
    }
}

/// Without dice: the cube decision for the side on roll (the doubler, if
/// a double is pending).
fn cube(setup: &Setup, analyzer: &Analyzer, ply: u8, json: bool) -> anyhow::Result<()> {
    let mut report = analyzer.cube_decision(setup, ply);
    analyzer.explain_cube(setup, &mut report);
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    print!("{}", ascii::render(setup));
    println!(
        "Cube decision ({ply}-ply; {}):",
        unit(&CubeState::from_setup(setup))
    );
    println!("{:27}{}", "", probs_header());
    println!(
        "  cubeless equity {:+.3}   {}",
        report.cubeless_equity,
        probs_line(&Probs(report.probs))
    );
    print_cube_decision(&report);
    Ok(())
}

/// The three equities of a cube decision, each against the best, and the
/// proper action.
pub(super) fn print_cube_decision(report: &CubeReport) {
    let d = &report.decision;
    let best = d.optimal();
    for (name, v) in [
        ("No double", d.no_double),
        ("Double, take", d.double_take),
        ("Double, pass", d.double_pass),
    ] {
        let diff = if (v - best).abs() < 1e-7 {
            String::new()
        } else {
            format!("({:+.3})", v - best)
        };
        println!("  {name:<14} {v:>+7.3} {diff}");
    }
    if !report.may_double {
        println!("  The cube is not available to the side on roll.");
    }
    if let Some([nd, dt, dp]) = report.mwc_actions {
        println!(
            "  Match winning chances: no double {:.1}%, double/take {:.1}%, double/pass {:.1}%",
            100.0 * nd,
            100.0 * dt,
            100.0 * dp
        );
    }
    println!(
        "Proper cube action: {}; the opponent should {}.",
        d.action, d.take
    );
    if let Some(e) = &report.explanation {
        println!("{}", e.sentence);
    }
}

/// The "diff" column of a ranking: empty for the best, signed otherwise.
pub(super) fn diff_to_best(rank: usize, diff: f64) -> String {
    if rank == 0 {
        String::new()
    } else {
        format!("{diff:+.3}")
    }
}

/// win, win gammon, win backgammon | lose, lose gammon, lose backgammon, in percent.
pub(super) fn probs_line(p: &Probs) -> String {
    // Held to [0, 100], and +0.0 added, so that float dust never prints as
    // -0.1 or -0.0.
    let pct = |v: f32| (v * 100.0).clamp(0.0, 100.0) + 0.0;
    let [w, wg, wbg, lg, lbg] = p.0.map(pct);
    format!(
        "{w:5.1} {wg:5.1} {wbg:5.1} | {:5.1} {lg:5.1} {lbg:5.1}",
        (100.0 - w).clamp(0.0, 100.0) + 0.0
    )
}

/// The column names over [`probs_line`].
pub(super) fn probs_header() -> String {
    format!(
        "{:>5} {:>5} {:>5} | {:>5} {:>5} {:>5}",
        "win", "wg", "wbg", "lose", "lg", "lbg"
    )
}
