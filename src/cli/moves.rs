use crate::analysis::legal_moves;

pub fn run(position: &str, dice: Option<&str>, json: bool) -> anyhow::Result<()> {
    let setup = super::setup_arg(position)?;
    let dice = super::roll_arg(
        dice,
        &setup,
        "no dice: give --dice 31 or a Match ID / XGID with dice",
    )?;
    let legal = legal_moves(&setup, dice);
    if json {
        println!("{}", serde_json::to_string(&legal)?);
    } else if legal.moves.is_empty() {
        println!("No legal move with {dice}: the turn is forfeited.");
    } else {
        println!("{} legal moves with {dice}:", legal.moves.len());
        for (i, m) in legal.moves.iter().enumerate() {
            println!("{:>4}. {:<24} {}", i + 1, m.text, m.position_id);
        }
    }
    Ok(())
}
