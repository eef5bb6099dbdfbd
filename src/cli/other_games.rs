//! The command line for `--game icelandic-kotra` and `--game
//! icehouse-kotra`: show, moves, analyze, rollout, train and duel over the
//! shared [`Game`] machinery.

use super::Command;
use super::rollout::RolloutArgs;
use super::train::TrainArgs;
use crate::analysis::any_game::{
    AnalysedGame, GameRolloutFigures, best_turns, evaluate_game, rank_game_turns, roll_out_game,
    roll_out_game_turns,
};
use crate::eval::game_net::{GameModel, GameModelError};
use crate::game::{After, Game};
use crate::players::any_game::{duel_game_reporting, parse_game_player};
use crate::quoted::Quoted;
use crate::rollout::any_game::GameRolloutSettings;
use crate::train::any_game::{GameTrainConfig, GameTrainer, checkpoint_path};
use anyhow::{Context, bail};

/// `analyze`'s depth without `--ply`: the deepest that answers at once.
/// These games' turns are many (Icehouse Kotra's opening roll has ~150,
/// a doublet of Icelandic Kotra's middle game hundreds), so 2-ply took
/// 72 s on Icehouse's opening and up to 4 s in Icelandic games, where
/// 1-ply stays under a third of a second. And 1-ply is worth it: against
/// the same network at 0-ply it wins +2.87 ± 0.60 points a game in
/// Icelandic Kotra (400 games) and +0.36 ± 0.06 in Icehouse Kotra (200).
const DEFAULT_PLY: u8 = 1;

/// What the command line needs beyond the facade's [`AnalysedGame`].
pub trait CliGame: AnalysedGame {
    fn parse(&self, text: &str) -> anyhow::Result<Self::State>;
    fn board(&self, state: &Self::State) -> String;
    /// The shipped network's file.
    fn shipped(&self) -> &'static [u8];
}

impl CliGame for crate::icelandic::game::IcelandicKotra {
    fn parse(&self, text: &str) -> anyhow::Result<Self::State> {
        let p = crate::icelandic::parse_position(text)
            .map_err(|e| anyhow::anyhow!("bad position {}: {e}", Quoted(text)))?;
        // A finished game has a result, not an analysis: refused the way
        // backgammon refuses one.
        let stones = crate::icelandic::position::STONES;
        if p.mover.off == stones || p.other.off == stones {
            bail!(
                "bad position {}: the game is over (a side has borne off all {stones} stones)",
                Quoted(text)
            );
        }
        Ok(p)
    }
    fn board(&self, state: &Self::State) -> String {
        crate::icelandic::ascii_board(state)
    }
    fn shipped(&self) -> &'static [u8] {
        include_bytes!("../../models/icelandic-kotra.net")
    }
}

impl CliGame for crate::icehouse::game::IcehouseKotra {
    fn parse(&self, text: &str) -> anyhow::Result<Self::State> {
        icehouse_position(
            text,
            2,
            "four-player positions are analysed with --players 4",
        )
    }
    fn board(&self, state: &Self::State) -> String {
        crate::icehouse::ascii_board(state)
    }
    fn shipped(&self) -> &'static [u8] {
        include_bytes!("../../models/icehouse-kotra.net")
    }
}

/// An Icehouse Kotra position of `players` seats (`wrong` says what to do
/// otherwise), in play: one whose game has ended is refused, as a finished
/// game is in the other games.
pub(super) fn icehouse_position(
    text: &str,
    players: u8,
    wrong: &str,
) -> anyhow::Result<crate::icehouse::Position> {
    let p = crate::icehouse::parse_position(text)
        .map_err(|e| anyhow::anyhow!("bad position {}: {e}", Quoted(text)))?;
    if p.players != players {
        bail!("{wrong}");
    }
    if p.is_finished() {
        bail!(
            "bad position {}: the game is over (a pawn, or every piece of one size, has been scored)",
            Quoted(text)
        );
    }
    Ok(p)
}

fn shipped_model<G: CliGame>(game: &G) -> Result<GameModel, GameModelError> {
    GameModel::from_bytes(game.shipped(), game.name(), game.inputs(), game.outputs())
}

fn model_arg<G: CliGame>(game: &G, path: Option<&std::path::Path>) -> anyhow::Result<GameModel> {
    Ok(match path {
        Some(p) => GameModel::load(p, game.name(), game.inputs(), game.outputs())?,
        None => shipped_model(game)?,
    })
}

pub(super) fn dice_arg<G: Game>(game: &G, dice: Option<&str>) -> anyhow::Result<(u8, u8)> {
    let text = dice.context("--dice is required (e.g. --dice 31)")?;
    let faces = game.die_faces();
    let b = text.as_bytes();
    let ok = |c: u8| (b'1'..=b'0' + faces).contains(&c);
    if b.len() != 2 || !ok(b[0]) || !ok(b[1]) {
        bail!(
            "bad --dice {}: two digits from 1 to {faces}, e.g. 31",
            Quoted(text)
        );
    }
    Ok((b[0] - b'0', b[1] - b'0'))
}

/// Runs a command for one of the two games.
pub fn run<G: CliGame>(game: &G, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Show { position } => {
            let s = game.parse(&position)?;
            println!("{}\n{}", game.board(&s), game.state_text(&s));
            Ok(())
        }
        Command::Moves {
            position,
            dice,
            json,
        } => moves(game, &position, dice.as_deref(), json),
        Command::Analyze {
            position,
            dice,
            ply,
            model,
            json,
        } => analyze(
            game,
            &position,
            dice.as_deref(),
            ply.unwrap_or(DEFAULT_PLY),
            model.as_deref(),
            json,
        ),
        Command::Train(args) => train(game, args),
        Command::Rollout(args) => rollout(game, &args),
        Command::Duel(args) => {
            args.check(false)?;
            let (a, b, games, seed, json) = (&args.a, &args.b, args.games, args.seed, args.json);
            let pa = parse_game_player(game, a, || shipped_model(game))?;
            let pb = parse_game_player(game, b, || shipped_model(game))?;
            let bar = super::duel::games_bar(!json, games);
            let r = duel_game_reporting(game, &pa, &pb, games, seed, &|n| bar.inc(n));
            bar.finish_and_clear();
            if json {
                println!("{}", serde_json::to_string(&r)?);
            } else {
                println!(
                    "{a} vs {b}: {:+.3} ± {:.3} points per game for {a} over {} games of {} (mirrored dice, seed {seed})",
                    r.ppg,
                    r.se,
                    r.games,
                    game.name()
                );
            }
            Ok(())
        }
        Command::Model {
            path,
            race_from: None,
            ..
        } => {
            let m = model_arg(game, path.as_deref())?;
            println!("game: {}", m.game);
            println!("description: {}", m.description);
            println!("self-play games: {}", m.games_trained);
            println!(
                "network: {} inputs, {} hidden, {} outputs",
                m.net.inputs, m.net.hidden, m.net.outputs
            );
            Ok(())
        }
        Command::Bench {
            what:
                super::BenchCommand::Movegen {
                    positions: None,
                    seconds,
                },
        } => {
            use crate::bench::turns::{measure, sample_positions};
            let set = sample_positions(game, 100, 2026);
            let r = measure(game, &set, seconds);
            println!(
                "legal turns of {}: {} positions from 100 heuristic games (seed 2026) x {} distinct rolls, 1 thread",
                game.name(),
                r.positions,
                game.rolls().len()
            );
            println!(
                "{:.0} ns per (position, roll), {:.1} ns per turn, {} turns per pass",
                r.ns_per_pair, r.ns_per_turn, r.turns
            );
            Ok(())
        }
        _ => bail!("this command is for backgammon only (drop --game)"),
    }
}

fn moves<G: CliGame>(
    game: &G,
    position: &str,
    dice: Option<&str>,
    json: bool,
) -> anyhow::Result<()> {
    let s = game.parse(position)?;
    let roll = dice_arg(game, dice)?;
    let turns = game.turns(&s, roll);
    let rows: Vec<(String, String, Option<f32>)> = turns
        .iter()
        .map(|t| match game.after(&s, t) {
            After::Next(next) => (game.turn_text(&s, t), game.state_text(&next), None),
            After::Ended(end) => (game.turn_text(&s, t), "game over".into(), Some(end.points)),
        })
        .collect();
    if json {
        let moves: Vec<_> = rows
            .iter()
            .map(|(m, p, e)| serde_json::json!({"move": m, "position": p, "game_over_points": e}))
            .collect();
        println!("{}", serde_json::json!({ "moves": moves }));
    } else {
        for (i, (m, p, e)) in rows.iter().enumerate() {
            match e {
                Some(points) => println!("{:>3}. {m}  => game over, {points:+} points", i + 1),
                None => println!("{:>3}. {m}  => {p}", i + 1),
            }
        }
    }
    Ok(())
}

fn chances_text(chances: &[(String, f32)]) -> String {
    let parts: Vec<String> = chances
        .iter()
        .filter(|(_, p)| *p >= 0.005)
        .map(|(k, p)| format!("{k} {:.1}%", 100.0 * p))
        .collect();
    parts.join(", ")
}

fn analyze<G: CliGame>(
    game: &G,
    position: &str,
    dice: Option<&str>,
    ply: u8,
    model: Option<&std::path::Path>,
    json: bool,
) -> anyhow::Result<()> {
    crate::analysis::game_ply(i64::from(ply), game.name(), false)
        .map_err(|e| anyhow::anyhow!("--{e}"))?;
    let s = game.parse(position)?;
    let net = model_arg(game, model)?.net;
    let Some(dice) = dice else {
        let r = evaluate_game(game, &net, &s, ply);
        if json {
            println!("{}", serde_json::to_string(&r)?);
        } else {
            println!("{}", game.board(&s));
            println!(
                "equity {:+.3} points for the side to move ({ply}-ply)",
                r.equity
            );
            println!("chances: {}", chances_text(&r.chances));
        }
        return Ok(());
    };
    let roll = dice_arg(game, Some(dice))?;
    let r = rank_game_turns(game, &net, &s, roll, ply);
    if json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        let best = r.moves.first().map_or(0.0, |m| m.equity);
        for (i, m) in r.moves.iter().enumerate() {
            let diff = if i == 0 {
                String::new()
            } else {
                format!(" ({:+.3})", m.equity - best)
            };
            println!(
                "{:>3}. {ply}-ply {:<40} {:+.3}{diff}",
                i + 1,
                m.text,
                m.equity
            );
            println!("       {}", chances_text(&m.chances));
        }
    }
    Ok(())
}

/// `kotra-ai --game G rollout`: the position for the side to move, or
/// with dice the best `--candidates` turns of the roll at 0-ply, each
/// rolled out to the end with the same dice.
fn rollout<G: CliGame>(game: &G, args: &RolloutArgs) -> anyhow::Result<()> {
    let backgammon_only = [
        ("--cubeful", args.cubeful),
        ("--truncate", args.truncate.is_some()),
    ];
    if let Some((option, _)) = backgammon_only.iter().find(|(_, given)| *given) {
        bail!("{option} is for backgammon rollouts only");
    }
    args.check()?;
    let state = game.parse(&args.position)?;
    let net = model_arg(game, args.model.as_deref())?.net;
    let (trials, ply, seed) = (args.trials, args.ply, args.seed);
    let settings = GameRolloutSettings {
        trials,
        ply,
        seed,
        // Only searching trials pay for luck adjustment here
        // (`rollout::any_game`): at 0-ply plain trials are cheaper.
        variance_reduction: !args.no_variance_reduction && ply > 0,
    };
    let text = |r: &GameRolloutFigures| {
        format!(
            "{:+.3} ± {:.3} points, wins {:.1}% ± {:.1}, losses {:.1}% ± {:.1}",
            r.points.mean,
            r.points.se,
            100.0 * r.wins.mean,
            100.0 * r.wins.se,
            100.0 * r.losses.mean,
            100.0 * r.losses.se
        )
    };
    let luck = if settings.variance_reduction {
        ", luck adjusted"
    } else {
        ""
    };
    let Some(dice) = args.dice.as_deref() else {
        let bar = super::rollout::bar(!args.json, trials.into());
        let r = roll_out_game(game, &net, &state, &settings, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        if args.json {
            println!("{}", serde_json::to_string(&r)?);
        } else {
            println!("{}", game.board(&state));
            println!(
                "Rollout for the side to move: {trials} trials, {ply}-ply play{luck}, seed {seed}"
            );
            println!("  {}", text(&r.figures));
        }
        return Ok(());
    };
    let roll = dice_arg(game, Some(dice))?;
    let turns = best_turns(game, &net, &state, roll, args.candidates)?;
    let bar = super::rollout::bar(!args.json, u64::from(trials) * turns.len() as u64);
    let r = roll_out_game_turns(game, &net, &state, &turns, &settings, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!("{}", game.board(&state));
        println!(
            "Rollout of {} candidate turns with {}{}: {trials} trials each, {ply}-ply play{luck}, seed {seed}",
            r.moves.len(),
            roll.0,
            roll.1
        );
        for (i, m) in r.moves.iter().enumerate() {
            println!("{:>3}. {:<40} {}", i + 1, m.text, text(&m.figures));
        }
    }
    Ok(())
}

fn train<G: CliGame>(game: &G, args: TrainArgs) -> anyhow::Result<()> {
    let model_path = args.out.join("model.net");
    let checkpoint = checkpoint_path(&model_path);
    let mut trainer = if args.resume {
        crate::atomic_file::remove_stale_temporaries(&args.out);
        GameTrainer::resume(game, &checkpoint, args.games)?
    } else {
        if checkpoint.exists() || model_path.exists() {
            bail!(
                "{} already holds a training run: pass --resume to continue it, or choose another --out",
                args.out.display()
            );
        }
        let mut config = match &args.config {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("cannot read {}", p.display()))?;
                serde_json::from_str::<GameTrainConfig>(&text)
                    .with_context(|| format!("bad config {}", p.display()))?
            }
            None => GameTrainConfig::default(),
        };
        if let Some(g) = args.games {
            config.games = g;
        }
        config
            .validate()
            .map_err(|why| anyhow::anyhow!("bad config: {why}"))?;
        GameTrainer::new(game, config)
    };
    trainer.model.description = format!(
        "{}: TD(λ={}) self-play at 0-ply, {} hidden units",
        game.name(),
        trainer.config.lambda,
        trainer.config.hidden
    );
    let start = std::time::Instant::now();
    let mut rounds = 0u64;
    while !trainer.done() {
        let loss = trainer.round();
        trainer.save(&model_path)?;
        rounds += 1;
        if !args.quiet && rounds.is_multiple_of(10) {
            let vs = trainer.versus_heuristic(200, rounds);
            eprintln!(
                "{} games, loss {loss:.4}, vs heuristic {:+.3} ± {:.3} ppg (200 games), {:.0} s",
                trainer.model.games_trained,
                vs.ppg,
                vs.se,
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "trained {} games in {:.0} s; model: {}",
        trainer.model.games_trained,
        start.elapsed().as_secs_f64(),
        model_path.display()
    );
    Ok(())
}
