//! `--game icehouse-kotra --players 4`: show, moves, analyze (max-n or
//! greedy) and duel (one seat's share of the wins against three others).
//! Four-player Icehouse has no network: its searcher and players live in
//! `icehouse::maxn` and `players::four_player`.

use super::Command;
use super::other_games::{dice_arg, icehouse_position};
use crate::quoted::Quoted;
use anyhow::{Context, bail};

/// Four-player Icehouse Kotra: show, moves, analyze (max-n) and duel (the
/// win share of one seat against three others).
pub fn run_four(command: Command) -> anyhow::Result<()> {
    use crate::analysis::any_game::rank_four_player_turns;
    use crate::icehouse::maxn::maxn_choice;
    use crate::players::four_player::{FourPlayer, seat_share};
    let parse = |text: &str| {
        icehouse_position(
            text,
            4,
            "--players 4 needs a four-seat position (start4, or S:, W:, N:, E: parts)",
        )
    };
    let game = crate::icehouse::game::IcehouseKotra;
    let position_and_turns = |text: &str, dice: Option<&str>| {
        let p = parse(text)?;
        let (d1, d2) = dice_arg(&game, dice)?;
        anyhow::Ok((p, crate::icehouse::legal_turns(&p, d1, d2)))
    };
    match command {
        Command::Show { position } => {
            let p = parse(&position)?;
            println!(
                "{}\n{}",
                crate::icehouse::ascii_board(&p),
                crate::icehouse::position_text(&p)
            );
            Ok(())
        }
        Command::Moves {
            position,
            dice,
            json,
        } => {
            let (p, turns) = position_and_turns(&position, dice.as_deref())?;
            // The position each turn leaves, with the next seat to move
            // (a turn's own position still has the mover to move).
            let next = |t: &crate::icehouse::Turn| {
                if t.position.outcome().is_some() {
                    t.position
                } else {
                    t.position.passed()
                }
            };
            if json {
                let moves: Vec<_> = turns
                    .iter()
                    .map(|t| {
                        serde_json::json!({
                            "move": t.text(),
                            "position": crate::icehouse::position_text(&next(t)),
                            "game_over": t.position.outcome().is_some(),
                        })
                    })
                    .collect();
                let pick = maxn_choice(&p, &turns);
                println!(
                    "{}",
                    serde_json::json!({ "moves": moves, "maxn_choice": pick })
                );
            } else {
                for (i, t) in turns.iter().enumerate() {
                    println!(
                        "{:>3}. {}  => {}",
                        i + 1,
                        t.text(),
                        crate::icehouse::position_text(&next(t))
                    );
                }
            }
            Ok(())
        }
        Command::Analyze {
            position,
            dice,
            ply,
            model,
            json,
        } => {
            if model.is_some() {
                bail!(
                    "four-player analysis uses no network (max-n over the greedy shares): leave out --model"
                );
            }
            // 0: the greedy choice; 1: max-n, one reply of the next seat deep.
            let ply = ply.unwrap_or(1);
            crate::analysis::game_ply(i64::from(ply), "four-player Icehouse Kotra", true)
                .map_err(|e| anyhow::anyhow!("--{e}"))?;
            let p = parse(&position)?;
            let roll = dice_arg(&game, dice.as_deref())?;
            let r = rank_four_player_turns(&p, roll, ply);
            if json {
                println!("{}", serde_json::to_string(&r)?);
                return Ok(());
            }
            let by = if ply == 0 { "greedy" } else { "max-n" };
            for (i, m) in r.moves.iter().enumerate() {
                println!(
                    "{:>3}. {:<44} share {:.3}{}",
                    i + 1,
                    m.text,
                    m.share,
                    if i == r.choice {
                        format!("  <- {by} choice")
                    } else {
                        String::new()
                    }
                );
            }
            Ok(())
        }
        Command::Duel(args) => {
            args.check(false)?;
            let (a, b, games, seed, json) = (&args.a, &args.b, args.games, args.seed, args.json);
            let player = |s: &str| {
                FourPlayer::parse(s).with_context(|| {
                    format!(
                        "unknown four-player player {} (expected maxn, heuristic or random)",
                        Quoted(s)
                    )
                })
            };
            let (share, se) = seat_share(player(a)?, player(b)?, games, seed);
            if json {
                println!(
                    "{}",
                    serde_json::json!({"games": games, "ppg": share, "se": se, "win_share": share})
                );
            } else {
                println!(
                    "{a} in one seat against three {b}: win share {share:.3} ± {se:.3} over {games} four-player games (0.25 is even; seed {seed})"
                );
            }
            Ok(())
        }
        _ => bail!("four-player Icehouse Kotra supports show, moves, analyze and duel"),
    }
}
