use crate::backgammon::{MoveList, legal_moves};
use crate::notation::{move_text, position_id};

pub fn run(position: &str, dice: Option<&str>, json: bool) -> anyhow::Result<()> {
    let setup = super::setup_arg(position)?;
    let dice = super::roll_arg(
        dice,
        &setup,
        "no dice: give --dice 31 or a Match ID / XGID with dice",
    )?;
    let mut list = MoveList::new();
    legal_moves(&setup.position, dice, &mut list);
    let rows: Vec<(String, String)> = if list.is_forfeit() {
        Vec::new()
    } else {
        list.iter()
            .map(|c| {
                (
                    move_text::format(&setup.position, &c.play),
                    position_id::encode(&c.position),
                )
            })
            .collect()
    };
    if json {
        let moves: Vec<_> = rows
            .iter()
            .map(|(m, id)| serde_json::json!({"move": m, "position_id": id}))
            .collect();
        println!("{}", serde_json::json!({ "moves": moves }));
    } else if rows.is_empty() {
        println!("No legal move with {dice}: the turn is forfeited.");
    } else {
        println!("{} legal moves with {dice}:", rows.len());
        for (i, (m, id)) in rows.iter().enumerate() {
            println!("{:>4}. {m:<24} {id}", i + 1);
        }
    }
    Ok(())
}
