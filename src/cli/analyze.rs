//! `kotra-ai analyze`: ranks every legal move of a roll with the network
//! (the shipped one unless `--model` names another), like gnubg's hint:
//! equity, difference to the best, and the five probabilities.

use crate::backgammon::{MoveList, legal_moves};
use crate::eval::{Evaluator, Probs, model_or_shipped};
use crate::notation::{ascii, move_text, position_id};
use std::path::Path;

pub fn run(
    position: &str,
    dice: Option<&str>,
    ply: u8,
    model: Option<&Path>,
    json: bool,
) -> anyhow::Result<()> {
    if ply > 3 {
        anyhow::bail!("--ply must be 0 to 3");
    }
    let mut setup = super::setup_arg(position)?;
    let eval = Evaluator::new(model_or_shipped(model)?);
    let Some(dice) = super::roll_arg(dice, &setup, "").ok() else {
        return position_only(&setup, &eval, json);
    };
    setup.info.dice = [dice.high(), dice.low()];
    let before = &setup.position;
    let mut list = MoveList::new();
    legal_moves(before, dice, &mut list);
    let mut ranked: Vec<(String, String, Probs)> = list
        .iter()
        .map(|c| {
            let text = if c.play.is_empty() {
                String::new()
            } else {
                move_text::format(before, &c.play)
            };
            let probs = crate::search::after_move(&eval, &c.position, ply);
            (text, position_id::encode(&c.position), probs)
        })
        .collect();
    ranked.sort_by(|a, b| b.2.equity().total_cmp(&a.2.equity()));
    if json {
        let moves: Vec<_> = ranked
            .iter()
            .filter(|(m, _, _)| !m.is_empty())
            .map(|(m, id, p)| {
                serde_json::json!({
                    "move": m,
                    "position_id": id,
                    "equity": round(p.equity()),
                    "probs": p.0.map(round),
                })
            })
            .collect();
        println!("{}", serde_json::json!({ "ply": ply, "moves": moves }));
        return Ok(());
    }
    print!("{}", ascii::render(&setup));
    if list.is_forfeit() {
        println!("No legal move with {dice}: the turn is forfeited.");
        return Ok(());
    }
    let best = ranked[0].2.equity();
    println!(
        "{} legal moves with {dice}, best first ({ply}-ply cubeless money equity):",
        ranked.len()
    );
    println!(
        "{:>4}  {:<26} {:>7} {:>7}   win    wg    wbg |  lose    lg   lbg",
        "", "move", "equity", "diff"
    );
    for (i, (m, _, p)) in ranked.iter().enumerate() {
        println!(
            "{:>4}. {m:<26} {:>+7.3} {:>7}   {}",
            i + 1,
            p.equity(),
            if i == 0 {
                String::new()
            } else {
                format!("{:+.3}", p.equity() - best)
            },
            probs_line(p)
        );
    }
    Ok(())
}

/// Without dice: the cubeless evaluation of the position for the side on roll.
fn position_only(
    setup: &crate::backgammon::Setup,
    eval: &Evaluator,
    json: bool,
) -> anyhow::Result<()> {
    let p = eval.probs(&setup.position);
    if json {
        println!(
            "{}",
            serde_json::json!({"equity": round(p.equity()), "probs": p.0.map(round)})
        );
        return Ok(());
    }
    print!("{}", ascii::render(setup));
    println!("Cubeless evaluation for the side on roll (0-ply; give --dice 31 to rank moves):");
    println!("  equity {:+.3}   {}", p.equity(), probs_line(&p));
    Ok(())
}

fn probs_line(p: &Probs) -> String {
    let [w, wg, wbg, lg, lbg] = p.0.map(|v| v * 100.0);
    format!(
        "{w:5.1} {wg:5.1} {wbg:5.1} | {:5.1} {lg:5.1} {lbg:5.1}",
        100.0 - w
    )
}

fn round(v: f32) -> f64 {
    (v as f64 * 1e6).round() / 1e6
}
