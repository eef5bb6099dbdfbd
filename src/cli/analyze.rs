//! `kotra-ai analyze`: ranks every legal move of a roll. Until the neural
//! network is trained it uses PubEval and says so on every output.

use crate::backgammon::{MoveList, legal_moves};
use crate::eval::pubeval;
use crate::notation::{ascii, move_text, position_id};

const LABEL: &str = "PubEval (Tesauro's linear baseline evaluator; kotra-ai's neural network is not trained yet, \
so this ranking is a baseline, not world-class analysis)";

pub fn run(position: &str, dice: Option<&str>, json: bool) -> anyhow::Result<()> {
    let mut setup = super::setup_arg(position)?;
    let dice = super::roll_arg(
        dice,
        &setup,
        "give --dice 31 (cube decisions need the neural evaluator, which is not built yet)",
    )?;
    setup.info.dice = [dice.high(), dice.low()];
    let before = &setup.position;
    let race = !before.has_contact();
    let mut list = MoveList::new();
    legal_moves(before, dice, &mut list);
    let mut ranked: Vec<(String, String, f32)> = list
        .iter()
        .map(|c| {
            let text = if c.play.is_empty() {
                String::new()
            } else {
                move_text::format(before, &c.play)
            };
            (
                text,
                position_id::encode(&c.position),
                pubeval::score(&c.position, race),
            )
        })
        .collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
    if json {
        let moves: Vec<_> = ranked
            .iter()
            .filter(|(m, _, _)| !m.is_empty())
            .map(|(m, id, s)| serde_json::json!({"move": m, "position_id": id, "score": s}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"evaluator": "pubeval", "note": LABEL, "moves": moves})
        );
        return Ok(());
    }
    print!("{}", ascii::render(&setup));
    println!("Evaluator: {LABEL}");
    if list.is_forfeit() {
        println!("No legal move with {dice}: the turn is forfeited.");
        return Ok(());
    }
    let best = ranked[0].2;
    println!(
        "{} legal moves with {dice}, best first (PubEval score, higher is better):",
        ranked.len()
    );
    for (i, (m, _, s)) in ranked.iter().enumerate() {
        let diff = if best.is_finite() {
            format!("{:+.3}", s - best)
        } else {
            String::new()
        };
        println!("{:>4}. {m:<26} {s:>8.3} {diff:>8}", i + 1);
    }
    Ok(())
}
