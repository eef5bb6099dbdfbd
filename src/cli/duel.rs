//! `kotra-ai duel`: mirrored money games between two players.

use crate::cube::CubeTuning;
use crate::eval::Evaluator;
use crate::eval::shipped_model;
use crate::notation::mat::{Action, GameRecord, MatchRecord};
use crate::players::cubeful::{CubefulPlayer, cubeful_duel};
use crate::players::duel::{GameLog, JudgedDuelResult, duel_judged, duel_logged};
use crate::players::{parse_cubeful_player, parse_player};
use crate::search::{DEFAULT_PRESELECTOR, LongLists, MoveFilter, Preselector, Searcher};
use anyhow::Context;

/// `duel`'s arguments, shared by the three games' duels.
#[derive(clap::Args, Debug)]
pub struct DuelArgs {
    /// Player A: net, net:PATH (either with @PLY), pubeval or random.
    #[arg(long)]
    pub a: String,
    /// Player B.
    #[arg(long)]
    pub b: String,
    /// Games to play (rounded up to an even number: each dice sequence is played twice, sides swapped).
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed of the dice; the result depends only on it.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Print {"games":N,"ppg":x,"se":y} (with --luck, also
    /// "luck_adjusted":{"games":N,"ppg":x,"se":y}).
    #[arg(long)]
    pub json: bool,
    /// Save every game into DIR/duel.mat and DIR/duel.sgf (a money
    /// session, player A on the left / White), which gnubg and `kotra-ai`
    /// read back.
    #[arg(long, value_name = "DIR")]
    pub save_games: Option<std::path::PathBuf>,
    /// Backgammon: money games with the cube (no Jacoby, no beavers),
    /// both players networks that double, take and move by their cubeful
    /// search at their ply.
    #[arg(long)]
    pub cube: bool,
    /// With --cube: player A's checker play keeps at most KEEP moves
    /// within WINDOW of the best after the 0-ply pass (KEEP:WINDOW, as
    /// gnubg's move filters), instead of 8:0.16.
    #[arg(long, value_name = "KEEP:WINDOW", requires = "cube")]
    pub filter_a: Option<MoveFilter>,
    /// With --cube: player B's first filter.
    #[arg(long, value_name = "KEEP:WINDOW", requires = "cube")]
    pub filter_b: Option<MoveFilter>,
    /// With --cube, at 2-ply or deeper: player A values the first
    /// filter's moves at 1-ply and keeps at most KEEP within WINDOW for
    /// the deeper pass (by default it skips 1-ply, as gnubg does).
    #[arg(long, value_name = "KEEP:WINDOW", requires = "cube")]
    pub middle_a: Option<MoveFilter>,
    /// With --cube: player B's 1-ply filter.
    #[arg(long, value_name = "KEEP:WINDOW", requires = "cube")]
    pub middle_b: Option<MoveFilter>,
    /// With --cube: inside player A's search, how many of a roll's
    /// replies are pre-selected for the network (0 = all; default: the
    /// pre-selector's own width, 4 for network, 8 for pubeval).
    #[arg(long, value_name = "N", requires = "cube")]
    pub prune_a: Option<usize>,
    /// With --cube: player B's pre-selection.
    #[arg(long, value_name = "N", requires = "cube")]
    pub prune_b: Option<usize>,
    /// With --cube, at 2-ply or deeper: inside player A's search, how
    /// many replies are pre-selected where they are searched deeper (0 =
    /// all; default: as many as --prune-a's), the leaves' replies keeping
    /// --prune-a's.
    #[arg(long, value_name = "N", requires = "cube")]
    pub upper_prune_a: Option<usize>,
    /// With --cube: player B's pre-selection where replies are searched
    /// deeper.
    #[arg(long, value_name = "N", requires = "cube")]
    pub upper_prune_b: Option<usize>,
    /// With --cube: what pre-selects player A's replies, network (the
    /// distilled pre-selection network, the default) or pubeval.
    #[arg(long, requires = "cube")]
    pub preselect_a: Option<Preselector>,
    /// With --cube: what pre-selects player B's replies.
    #[arg(long, requires = "cube")]
    pub preselect_b: Option<Preselector>,
    /// With --cube: what player A's pre-selection does with a list of
    /// over 128 moves: pruned (four times its width kept, the default) or
    /// whole (every move kept).
    #[arg(long, requires = "cube")]
    pub long_lists_a: Option<LongLists>,
    /// With --cube: what player B's pre-selection does with a long list.
    #[arg(long, requires = "cube")]
    pub long_lists_b: Option<LongLists>,
    /// With --cube: player A screens its cube turns as a rollout does,
    /// asking its ply's cube decision only where the static one leaves a
    /// double within reach.
    #[arg(long, requires = "cube")]
    pub cube_screen_a: bool,
    /// With --cube: player B screens its cube turns.
    #[arg(long, requires = "cube")]
    pub cube_screen_b: bool,
    /// With --cube: player A's cube efficiency in contact positions
    /// (Janowski's x, 0 to 1; the cube model's own by default), to tune
    /// the cube model by play.
    #[arg(long, value_name = "X", requires = "cube", value_parser = efficiency)]
    pub efficiency_a: Option<f32>,
    /// With --cube: player B's cube efficiency in contact positions.
    #[arg(long, value_name = "X", requires = "cube", value_parser = efficiency)]
    pub efficiency_b: Option<f32>,
    /// With --cube: player A's cube values the network's winning chance
    /// in contact stretched away from one half, its log-odds times 1 + K
    /// (the gammon shares kept), to tune the cube model by play.
    #[arg(long, value_name = "K", requires = "cube", value_parser = stretch)]
    pub stretch_a: Option<f32>,
    /// With --cube: player B's stretch of the winning chance in contact.
    #[arg(long, value_name = "K", requires = "cube", value_parser = stretch)]
    pub stretch_b: Option<f32>,
    /// Backgammon: also report the points with each roll's luck removed
    /// (the value after the roll's best move less the average roll's,
    /// times the cube, as player B's network judges it at 1-ply; the
    /// shipped network where B is not a network, and cubeless values in
    /// a cubeless duel): the same expectation with a smaller standard
    /// error, as gnubg's rollouts reduce theirs.
    #[arg(long)]
    pub luck: bool,
}

impl DuelArgs {
    /// What every game's duel refuses; `backgammon` says whether this is
    /// backgammon's (whose duels can be saved as `.mat` and played with
    /// the cube).
    pub fn check(&self, backgammon: bool) -> anyhow::Result<()> {
        if self.games == 0 {
            anyhow::bail!("--games must be at least 1");
        }
        if self.save_games.is_some() && !backgammon {
            anyhow::bail!("--save-games writes backgammon games only (.mat)");
        }
        if self.cube && !backgammon {
            anyhow::bail!("--cube is for backgammon duels");
        }
        if self.luck && !backgammon {
            anyhow::bail!("--luck is for backgammon duels");
        }
        if self.cube && self.save_games.is_some() {
            anyhow::bail!("--save-games saves cubeless duels only");
        }
        Ok(())
    }
}

pub fn run(args: DuelArgs) -> anyhow::Result<()> {
    args.check(true)?;
    if args.cube {
        return run_cubeful(&args);
    }
    let DuelArgs {
        a,
        b,
        games,
        seed,
        json,
        save_games,
        luck,
        ..
    } = args;
    let pa = parse_player(&a, shipped_model)?;
    let pb = parse_player(&b, shipped_model)?;
    // B's network judges the luck, or the shipped one where B has none.
    let (judge_eval, judge_name) = match luck.then(|| parse_cubeful_player(&b, shipped_model)) {
        None => (None, ""),
        Some(Ok((eval, _))) => (Some(eval), b.as_str()),
        Some(Err(_)) => (Some(Evaluator::new(shipped_model()?)), "net"),
    };
    let judge = judge_eval
        .as_ref()
        .map(|eval| Searcher::new(eval).with_cubeless(true));
    let bar = games_bar(!json, games);
    let progress = |n| bar.inc(n);
    let r = match save_games.as_deref() {
        None => duel_judged(
            pa.as_ref(),
            pb.as_ref(),
            games,
            seed,
            judge.as_ref(),
            &progress,
        ),
        Some(dir) => {
            let (r, pairs) = duel_logged(
                pa.as_ref(),
                pb.as_ref(),
                games,
                seed,
                judge.as_ref(),
                &progress,
            );
            let record = session([&a, &b], &pairs);
            let sgf = crate::notation::sgf::write(&record, &Default::default())?;
            for (name, text) in [
                ("duel.mat", crate::notation::mat::write(&record)),
                ("duel.sgf", sgf),
            ] {
                let path = dir.join(name);
                crate::atomic_file::write(&path, text.as_bytes())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            r
        }
    };
    bar.finish_and_clear();
    let what = Reported {
        a: &a,
        b: &b,
        judge: judge_name,
        stakes: "cubeless",
        seed,
        json,
    };
    what.print(&r)
}

/// `duel --cube`: two networks, money games with the cube.
fn run_cubeful(args: &DuelArgs) -> anyhow::Result<()> {
    let (ea, ply_a) = parse_cubeful_player(&args.a, shipped_model)?;
    let (eb, ply_b) = parse_cubeful_player(&args.b, shipped_model)?;
    let player = |eval,
                  ply,
                  filters: [Option<MoveFilter>; 2],
                  [prune, upper_prune]: [Option<usize>; 2],
                  (by, long_lists): (Option<Preselector>, Option<LongLists>),
                  screen,
                  tuning| {
        let [first, middle] = filters;
        let mut p = CubefulPlayer::new(eval, ply)
            .with_cube_screen(screen)
            .with_middle_filter(middle)
            .with_cube_tuning(tuning);
        if let Some(f) = first {
            p = p.with_first_filter(f);
        }
        let by = by.unwrap_or(DEFAULT_PRESELECTOR);
        p.with_preselection(by, by.keep(prune))
            .with_upper_prune(upper_prune)
            .with_long_lists(long_lists.unwrap_or_default())
    };
    let (pa, pb) = (
        player(
            &ea,
            ply_a,
            [args.filter_a, args.middle_a],
            [args.prune_a, args.upper_prune_a],
            (args.preselect_a, args.long_lists_a),
            args.cube_screen_a,
            CubeTuning {
                contact_efficiency: args.efficiency_a,
                contact_stretch: args.stretch_a,
            },
        ),
        player(
            &eb,
            ply_b,
            [args.filter_b, args.middle_b],
            [args.prune_b, args.upper_prune_b],
            (args.preselect_b, args.long_lists_b),
            args.cube_screen_b,
            CubeTuning {
                contact_efficiency: args.efficiency_b,
                contact_stretch: args.stretch_b,
            },
        ),
    );
    let judge = args.luck.then(|| Searcher::new(&eb));
    let bar = games_bar(!args.json, args.games);
    let r = cubeful_duel(&pa, &pb, args.games, args.seed, judge.as_ref(), &|n| {
        bar.inc(n)
    });
    bar.finish_and_clear();
    let what = Reported {
        a: &args.a,
        b: &args.b,
        judge: &args.b,
        stakes: "money with the cube",
        seed: args.seed,
        json: args.json,
    };
    what.print(&r)
}

/// How a duel's result is printed: who played, whose network judged the
/// luck, at what stakes.
struct Reported<'a> {
    a: &'a str,
    b: &'a str,
    judge: &'a str,
    stakes: &'a str,
    seed: u64,
    json: bool,
}

impl Reported<'_> {
    fn print(&self, r: &JudgedDuelResult) -> anyhow::Result<()> {
        let Reported { a, b, .. } = self;
        if self.json {
            println!("{}", serde_json::to_string(r)?);
            return Ok(());
        }
        if let Some(adjusted) = r.luck_adjusted {
            println!(
                "{a} vs {b}: {:+.4} ± {:.4} points per game for {a} with the luck removed (as {}'s network judges it at 1-ply)",
                adjusted.ppg, adjusted.se, self.judge
            );
        }
        let played = r.played;
        println!(
            "{a} vs {b}: {:+.3} ± {:.3} points per game for {a} over {} games (mirrored dice, {}, seed {})",
            played.ppg, played.se, played.games, self.stakes, self.seed
        );
        Ok(())
    }
}

/// The games' progress bar on stderr (hidden for `--json`): a duel of
/// searching players runs for minutes.
pub(super) fn games_bar(visible: bool, games: u64) -> indicatif::ProgressBar {
    crate::progress::bar(
        visible,
        games.div_ceil(2) * 2,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games ({rate}, eta {eta})",
    )
}

/// A duel's games as a money session: player A in the left column; each
/// pair's second game has B moving first on the same dice.
fn session(names: [&str; 2], pairs: &[[(GameLog, i32); 2]]) -> MatchRecord {
    let mut games = Vec::with_capacity(2 * pairs.len());
    let mut score = [0u32; 2];
    for (k, pair) in pairs.iter().enumerate() {
        for (g, (log, points)) in pair.iter().enumerate() {
            // Seat 0 is the first mover: A in the pair's first game.
            let column = |seat: u8| if g == 0 { seat } else { 1 - seat };
            let mut actions: Vec<(usize, u32, Action)> = log
                .iter()
                .map(|(seat, dice, before, play)| {
                    let text = crate::notation::move_text::format(before, play);
                    let action = Action::Move {
                        player: column(*seat),
                        dice: *dice,
                        text,
                    };
                    (0, 0, action)
                })
                .collect();
            let winner = column(u8::from(*points < 0));
            actions.push((
                0,
                0,
                Action::Win {
                    player: winner,
                    points: points.unsigned_abs(),
                },
            ));
            games.push(GameRecord {
                number: (2 * k + g + 1) as u32,
                score,
                actions,
            });
            score[winner as usize] += points.unsigned_abs();
        }
    }
    MatchRecord {
        length: 0,
        players: names.map(str::to_string),
        games,
        jacoby: false,
    }
}

/// `--stretch-a` and `-b`: a stretch of the log-odds, −0.5 to 0.5.
fn stretch(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(k) if (-0.5..=0.5).contains(&k) => Ok(k),
        _ => Err("must be a stretch of the log-odds from -0.5 to 0.5".into()),
    }
}

/// `--efficiency-a` and `-b`: a cube efficiency, 0 to 1.
fn efficiency(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("must be a cube efficiency from 0 to 1".into()),
    }
}
