//! `kotra-ai review FILE`: a played match judged decision by decision.

use crate::analysis::{Analyzer, DecisionKind, MARKS, PlayerSummary, Review, ReviewSettings};
use crate::eval::{Evaluator, model_or_shipped};
use crate::notation::{self, mat};
use anyhow::Context;
use std::path::{Path, PathBuf};

/// How many of the biggest errors the text report lists.
const WORST: usize = 10;

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The match files: Jellyfish .mat (as gnubg, XG and the servers
    /// export it) or gnubg's .sgf. Several are reviewed in the order
    /// given, one report after another (with `--json`, one line each), so
    /// a harness judging thousands of games loads the network once.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Search depth as gnubg counts it (0 to 3; 2 is gnubg's world class).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true)]
    ply: u8,
    /// The doubtful, bad and very bad thresholds in normalised equity
    /// lost (gnubg's by default).
    #[arg(long, value_parser = marks_arg, default_value = "0.03,0.06,0.12")]
    marks: Marks3,
    /// Also write the match as gnubg's .sgf with the review in it (marks,
    /// luck, the best moves and cube equities as comments).
    #[arg(long, value_name = "OUT")]
    sgf: Option<PathBuf>,
    /// Another model file instead of the shipped network.
    #[arg(long)]
    model: Option<PathBuf>,
    /// Print JSON: {"players":[..],"games":[..],"decisions":[..]}, one
    /// line a file.
    #[arg(long)]
    json: bool,
}

/// Three increasing thresholds.
#[derive(Clone, Copy, Debug)]
struct Marks3([f32; 3]);

fn marks_arg(s: &str) -> Result<Marks3, String> {
    let bad = || format!("{s:?}: give three increasing thresholds, e.g. 0.03,0.06,0.12");
    let v: Vec<f32> = s
        .split(',')
        .map(|x| x.trim().parse::<f32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match v[..] {
        [a, b, c] if a.is_finite() && c.is_finite() && 0.0 < a && a < b && b < c => {
            Ok(Marks3([a, b, c]))
        }
        _ => Err(bad()),
    }
}

pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    super::search_ply_arg(args.ply)?;
    if args.sgf.is_some() && args.files.len() > 1 {
        anyhow::bail!("--sgf writes one match: give one FILE with it");
    }
    let eval = Evaluator::new(model_or_shipped(args.model.as_deref())?);
    let analyzer = Analyzer::new(&eval);
    let settings = ReviewSettings {
        ply: args.ply,
        marks: args.marks.0,
    };
    for (i, file) in args.files.iter().enumerate() {
        if i > 0 && !args.json {
            println!();
        }
        review_file(&args, &analyzer, &settings, file)?;
    }
    Ok(())
}

fn review_file(
    args: &ReviewArgs,
    analyzer: &Analyzer<'_>,
    settings: &ReviewSettings,
    file: &Path,
) -> anyhow::Result<()> {
    let text = notation::read_match_file(file)?;
    let record =
        notation::parse_match(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let bar = crate::progress::bar(
        !args.json,
        0,
        "{elapsed_precise} [{bar:30}] {pos} decisions ({rate})",
    );
    let review = analyzer
        .review(&record, settings, &bar)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    bar.finish_and_clear();
    if let Some(out) = &args.sgf {
        let text = notation::sgf::write(&record, &review.sgf_notes())
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        crate::atomic_file::write(out, text.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
        return Ok(());
    }
    print_report(file, &record, &review);
    Ok(())
}

fn print_report(file: &Path, record: &mat::MatchRecord, review: &Review) {
    let kind = if record.length == 0 {
        "money session".to_string()
    } else {
        format!("{}-point match", record.length)
    };
    let marks = if review.marks == MARKS {
        String::new()
    } else {
        format!(", marks at {:?}", review.marks)
    };
    println!(
        "{}: {kind}, {} games; checker play and cube at {}-ply, luck at 0-ply (cubeful, normalised equity{marks})",
        file.display(),
        record.games.len(),
        review.ply
    );
    let summaries: Vec<&PlayerSummary> = review.players.iter().map(|p| &p.summary).collect();
    print_players(&summaries);
    let result = if record.length == 0 {
        "points per game"
    } else {
        "match winning chances"
    };
    println!("\nResult ({result}), and with the luck of the dice taken out:");
    for p in &review.players {
        println!(
            "  {:<16} {:>+8.3}   luck adjusted {:>+8.3}",
            p.summary.name, p.outcome.result, p.outcome.luck_adjusted
        );
    }
    println!("\nPer game (error rate mEMG, luck rate mEMG per roll):");
    for g in &review.games {
        let won = match g.winner {
            Some(w) => format!(
                "{} wins {}",
                review.players[w as usize].summary.name, g.points
            ),
            None => "unfinished".to_string(),
        };
        let cells: Vec<String> = g
            .players
            .iter()
            .map(|p| format!("{} {:.1} (luck {:+.0})", p.name, p.error_rate, p.luck_rate))
            .collect();
        println!(
            "  game {:>2} at {}-{}: {:<22} {}",
            g.number,
            g.score[0],
            g.score[1],
            won,
            cells.join(", ")
        );
    }
    let mut worst: Vec<_> = review.decisions.iter().filter(|d| d.loss > 0.0).collect();
    worst.sort_by(|a, b| b.loss.total_cmp(&a.loss));
    if !worst.is_empty() {
        println!("\nBiggest errors (open one with kotra-ai analyze ID):");
    }
    for d in worst.iter().take(WORST) {
        let what = match d.kind {
            DecisionKind::Checker => format!(
                "{} {:<22} best {:<22}",
                d.dice.as_deref().unwrap_or(""),
                d.played,
                d.best
            ),
            _ => format!(
                "{:<25} best {:<22}",
                format!("{} ({})", d.played, d.cube_error.unwrap_or("")),
                d.best
            ),
        };
        println!(
            "  game {:>2} move {:>3} {:<12} {what} -{:.3}  {}",
            d.game,
            d.move_number,
            review.players[d.player as usize].summary.name,
            d.loss,
            d.gnubg_id
        );
        if let Some(e) = &d.explanation {
            println!("{:>10}{}", "", e.sentence());
        }
    }
}

fn print_players(players: &[&PlayerSummary]) {
    println!(
        "{:<16} {:>9} {:>7} {:>7} {:>6} {:>6}  {:>8} {:>4} {:>8}  {:>6}  rating / luck",
        "player",
        "decisions",
        "checker",
        "cube",
        "mEMG",
        "PR",
        "doubtful",
        "bad",
        "very bad",
        "luck"
    );
    for p in players {
        println!(
            "{:<16} {:>9} {:>7.1} {:>7.1} {:>6.1} {:>6.1}  {:>8} {:>4} {:>8}  {:>+6.1}  {} / {}",
            p.name,
            p.decisions,
            p.checker_error_rate,
            p.cube_error_rate,
            p.error_rate,
            p.pr,
            p.marks.doubtful,
            p.marks.bad,
            p.marks.very_bad,
            p.luck_rate,
            p.rating,
            p.luck_words
        );
    }
    for p in players {
        let c = &p.cube_errors;
        println!(
            "  {}: {} checker plays, {} cube decisions; missed doubles {}, wrong doubles {}, too good {}, wrong takes {}, wrong passes {}",
            p.name,
            p.checker_decisions,
            p.cube_decisions,
            c.missed_doubles,
            c.wrong_doubles,
            c.too_good,
            c.wrong_takes,
            c.wrong_passes
        );
    }
}
