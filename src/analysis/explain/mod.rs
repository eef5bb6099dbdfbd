//! Why one move beats another, in facts a player can check: the outcome
//! chances the search gave each, and what differs on the two boards left
//! behind (checkers hit and the opponent's rolls that fail to enter,
//! points made or given up, the longest prime, the blots, direct or
//! indirect, and the number of the opponent's 36 rolls that hit one,
//! checkers back and their escape numbers, the race). Every
//! number is counted from the two positions and the search's values,
//! never guessed from a template, and nothing is said of a difference
//! too small to matter.

mod cube;

pub use cube::{CubeExplanation, explain_cube};

use crate::backgammon::{BAR, Dice, MoveList, OPP_BAR, Position, legal_moves};
use serde::Serialize;

/// The most hitting rolls a sentence lists by name.
const ROLLS_WORTH_NAMING: usize = 4;

/// The smallest difference in a chance worth a word (half a percent).
const CHANCE_WORTH_SAYING: f32 = 0.005;

/// The smallest difference in the race worth a word, in pips.
const PIPS_WORTH_SAYING: i32 = 5;

/// How far behind in the race a side holding a point in the opponent's
/// home board plays a holding game (nearer, as after the opening rolls,
/// it is still racing for position and its timing means little).
pub const HOLDING_GAME_DEFICIT: i32 = 15;

/// The smallest difference in a holding game's timing worth a word, in
/// pips.
const TIMING_WORTH_SAYING: u32 = 4;

/// The smallest difference in escape numbers worth a word, in rolls.
const ESCAPES_WORTH_SAYING: u8 = 3;

/// What a position left by a move offers, from the mover's view with the
/// opponent to roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardFacts {
    /// The mover's points held by two or more, in its own numbering.
    pub points: Vec<u8>,
    /// The mover's points held by exactly one.
    pub blots: Vec<u8>,
    /// The opponent's rolls that hit at least one of the mover's
    /// checkers (the rules' legal moves: blocked paths and the bar's
    /// duty to enter counted), and how many of the 36 they are.
    pub hitting_rolls: Vec<Dice>,
    pub shots: u8,
    /// The longest run of consecutive points held.
    pub prime: u8,
    /// The opponent's checkers on the bar.
    pub opponent_on_bar: u8,
    /// The opponent's rolls (of 36) that enter no checker, while it has
    /// one on the bar.
    pub dances: Option<u8>,
    /// Blots an opponent checker (or the bar) lies 1 to 6 pips behind:
    /// a direct shot; the other blots can be hit by combinations only.
    pub direct_blots: Vec<u8>,
    /// The mover's checkers in the opponent's home board or on the bar.
    pub back: u8,
    /// While checkers are back: the mover's rolls (of 36, as if it rolled
    /// again on this board) with which a legal play brings a checker past
    /// the opponent's blockade. See [`blockade_front`].
    pub escapes: Option<u8>,
    /// The race: the opponent's pip count less the mover's.
    pub race_lead: i32,
    /// In a holding or back game (the mover holds a point in the
    /// opponent's home board and trails the race by
    /// [`HOLDING_GAME_DEFICIT`] pips or more): its timing, the pips
    /// its other checkers can play before all are in its home board.
    pub timing: Option<u32>,
}

impl BoardFacts {
    pub fn of(after: &Position) -> BoardFacts {
        let points_where = |keep: fn(u8) -> bool| -> Vec<u8> {
            (1..=24u8)
                .filter(|&p| keep(after.mover_at(p as usize)))
                .collect()
        };
        let points = points_where(|n| n >= 2);
        let mut prime = 0u8;
        let mut run = 0u8;
        for p in 1..=24usize {
            run = if after.mover_at(p) >= 2 { run + 1 } else { 0 };
            prime = prime.max(run);
        }
        let opponent_on_bar = after.opponent_at(OPP_BAR);
        let (hitting_rolls, shots, dances) = opponent_rolls(after, opponent_on_bar > 0);
        let blots = points_where(|n| n == 1);
        let direct_blots = blots
            .iter()
            .copied()
            .filter(|&p| (p.saturating_sub(6)..p).any(|q| after.opponent_at(q as usize) > 0))
            .collect();
        let back = (19..=BAR).map(|p| after.mover_at(p)).sum();
        let (mover_pips, opponent_pips) = after.pip_counts();
        let race_lead = opponent_pips as i32 - mover_pips as i32;
        let holds_anchor = (19..=24).any(|p| after.mover_at(p) >= 2);
        BoardFacts {
            points,
            blots,
            hitting_rolls,
            shots,
            prime,
            opponent_on_bar,
            dances,
            direct_blots,
            back,
            escapes: (back > 0).then(|| escapes(after)),
            race_lead,
            timing: (holds_anchor && race_lead <= -HOLDING_GAME_DEFICIT).then(|| timing(after)),
        }
    }
}

/// The pips the mover's checkers outside its home board can play before
/// they are all in it, the checkers on its anchors (points held in the
/// opponent's home board) left out: what a holding or back game waits on.
fn timing(after: &Position) -> u32 {
    (7..=24usize)
        .filter(|&p| !(p >= 19 && after.mover_at(p) >= 2))
        .map(|p| u32::from(after.mover_at(p)) * (p as u32 - 6))
        .sum()
}

/// The point a checker must get below to be past the opponent's
/// blockade: the opponent's lowest point on its own side of the board
/// (the mover's 13 to 24), and at least out of its home board (below 19).
pub fn blockade_front(after: &Position) -> usize {
    (13..=18).find(|&p| after.opponent_at(p) >= 2).unwrap_or(19)
}

/// Checkers of the mover behind `front` (the bar included).
fn behind(position: &Position, front: usize) -> u8 {
    (front..=BAR).map(|p| position.mover_at(p)).sum()
}

/// The mover's rolls that get a checker past the opponent's blockade.
fn escapes(after: &Position) -> u8 {
    let front = blockade_front(after);
    let now = behind(after, front);
    let mut list = MoveList::new();
    let mut rolls = 0;
    for (dice, weight) in Dice::all_rolls() {
        legal_moves(after, dice, &mut list);
        if list.iter().any(|c| behind(&c.position, front) < now) {
            rolls += weight;
        }
    }
    rolls
}

/// One walk over the opponent's 21 rolls (the rules' legal moves): those
/// that hit at least one checker of the side that just moved, how many of
/// the 36 they are, and, when `on_bar`, how many of the 36 enter none of
/// its checkers from the bar.
fn opponent_rolls(after: &Position, on_bar: bool) -> (Vec<Dice>, u8, Option<u8>) {
    let roller = after.swap();
    // From the roller's view the other side's bar is slot 0, negative.
    let hit_before = roller.raw()[OPP_BAR];
    let entering = roller.mover_at(BAR);
    let mut list = MoveList::new();
    let (mut rolls, mut shots, mut dances) = (Vec::new(), 0, 0);
    for (dice, weight) in Dice::all_rolls() {
        legal_moves(&roller, dice, &mut list);
        if list.iter().any(|c| c.position.raw()[OPP_BAR] < hit_before) {
            rolls.push(dice);
            shots += weight;
        }
        if on_bar && list.iter().all(|c| c.position.mover_at(BAR) == entering) {
            dances += weight;
        }
    }
    (rolls, shots, on_bar.then_some(dances))
}

/// One checkable difference between two moves, `best` beside `other`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fact {
    /// Chances for the mover after each move (win, win gammon, lose
    /// gammon), as the search valued them, to six decimals (as `f64`, so
    /// that every JSON writer prints the same digits).
    Outcome {
        wins: [f64; 2],
        gammons: [f64; 2],
        gammons_lost: [f64; 2],
    },
    /// Opponent's checkers on the bar after each.
    Hits { best: u8, other: u8 },
    /// Points one move holds and the other does not.
    Points {
        only_best: Vec<u8>,
        only_other: Vec<u8>,
    },
    /// The longest prime after each.
    Prime { best: u8, other: u8 },
    /// Blots and the opponent's hitting rolls (of 36) after each.
    Shots {
        best: u8,
        other: u8,
        best_blots: Vec<u8>,
        other_blots: Vec<u8>,
        /// The hitting rolls, each once ("61" stands for 6-1 and 1-6).
        best_rolls: Vec<String>,
        other_rolls: Vec<String>,
        /// The blots within 6 pips of an opponent checker (direct shots).
        best_direct: Vec<u8>,
        other_direct: Vec<u8>,
    },
    /// The opponent's rolls (of 36) that enter no checker from the bar
    /// after each (`None`: nothing on the bar).
    Entering { best: Option<u8>, other: Option<u8> },
    /// The mover's checkers back (in the opponent's home board or on the
    /// bar) after each, and the rolls (of 36) that get one past the
    /// opponent's blockade (`None`: none back).
    Back {
        best: u8,
        other: u8,
        best_escapes: Option<u8>,
        other_escapes: Option<u8>,
    },
    /// The race after each: the opponent's pip count less the mover's.
    Race { best: i32, other: i32 },
    /// A holding or back game's timing after each (see
    /// [`BoardFacts::timing`]).
    Timing { best: u32, other: u32 },
}

/// Why `best` is ranked above `other`: the facts that differ, and one
/// sentence that says them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The move compared with (the one ranked below, or above for the
    /// best's own explanation against the second).
    pub against: String,
    pub facts: Vec<Fact>,
    pub sentence: String,
}

/// A ranked move as an explanation needs it: how it is written, what
/// the position after it offers and the search's chances. Built once a
/// move, so that the best move's board (its hitting rolls above all) is
/// counted once however many moves it is compared with.
pub struct Ranked<'a> {
    pub text: &'a str,
    pub facts: BoardFacts,
    pub probs: [f32; 5],
}

impl<'a> Ranked<'a> {
    /// `after`: the position after the move, from the mover's view.
    pub fn new(text: &'a str, after: &Position, probs: [f32; 5]) -> Ranked<'a> {
        Ranked {
            text,
            facts: BoardFacts::of(after),
            probs,
        }
    }
}

/// Explains why `best` is ranked above `other`, facts and a sentence,
/// from `best`'s side: what speaks for it, then ("but") what speaks
/// against it, which the search weighed and found smaller.
pub fn explain(best: &Ranked, other: &Ranked, equity_diff: f32) -> Explanation {
    let (a, b) = (&best.facts, &other.facts);
    let mut facts = Vec::new();
    // (for the best move?, words)
    let mut words: Vec<(bool, String)> = Vec::new();
    let (pa, pb) = (&best.probs, &other.probs);
    // Win, win gammon, lose gammon: more of the first two is good.
    let mut chances: Vec<(f32, bool, String)> = [
        (0, "games", true),
        (1, "gammons", true),
        (3, "gammons lost", false),
    ]
    .iter()
    .map(|&(k, what, good)| (pa[k] - pb[k], what, good))
    .filter(|(d, _, _)| d.abs() >= CHANCE_WORTH_SAYING)
    .map(|(d, what, good)| (d.abs(), (d > 0.0) == good, chance_words(d, what)))
    .collect();
    if !chances.is_empty() {
        let both = |k: usize| [pa[k], pb[k]].map(cube::round6);
        facts.push(Fact::Outcome {
            wins: both(0),
            gammons: both(1),
            gammons_lost: both(3),
        });
        chances.sort_by(|x, y| y.0.total_cmp(&x.0));
        words.extend(chances.into_iter().take(2).map(|(_, pro, w)| (pro, w)));
    }
    if a.opponent_on_bar != b.opponent_on_bar {
        facts.push(Fact::Hits {
            best: a.opponent_on_bar,
            other: b.opponent_on_bar,
        });
        words.push((
            a.opponent_on_bar > b.opponent_on_bar,
            format!(
                "puts {} on the bar (against {})",
                checkers(a.opponent_on_bar),
                b.opponent_on_bar
            ),
        ));
    }
    let only = |mine: &[u8], theirs: &[u8]| -> Vec<u8> {
        mine.iter()
            .copied()
            .filter(|p| !theirs.contains(p))
            .collect()
    };
    let (only_best, only_other) = (only(&a.points, &b.points), only(&b.points, &a.points));
    if !only_best.is_empty() || !only_other.is_empty() {
        if !only_best.is_empty() {
            words.push((true, format!("holds {}", point_names(&only_best))));
        }
        if !only_other.is_empty() {
            words.push((false, format!("does not hold {}", point_names(&only_other))));
        }
        facts.push(Fact::Points {
            only_best,
            only_other,
        });
    }
    if a.prime != b.prime && a.prime.max(b.prime) >= 3 {
        facts.push(Fact::Prime {
            best: a.prime,
            other: b.prime,
        });
        words.push((
            a.prime > b.prime,
            format!("a {}-point prime (against {})", a.prime, b.prime),
        ));
    }
    if a.shots != b.shots {
        let rolls = |f: &BoardFacts| -> Vec<String> {
            f.hitting_rolls.iter().map(|d| d.to_string()).collect()
        };
        let (best_rolls, other_rolls) = (rolls(a), rolls(b));
        // A few hitting rolls are worth naming; many are just "most".
        let named = if (1..=ROLLS_WORTH_NAMING).contains(&best_rolls.len()) {
            format!(": {}", best_rolls.join(", "))
        } else {
            String::new()
        };
        words.push((
            a.shots < b.shots,
            format!(
                "{} of the opponent's 36 rolls hit{named}{} (against {})",
                a.shots,
                shot_kind(a),
                b.shots
            ),
        ));
        facts.push(Fact::Shots {
            best: a.shots,
            other: b.shots,
            best_blots: a.blots.clone(),
            other_blots: b.blots.clone(),
            best_rolls,
            other_rolls,
            best_direct: a.direct_blots.clone(),
            other_direct: b.direct_blots.clone(),
        });
    }
    if a.dances != b.dances {
        facts.push(Fact::Entering {
            best: a.dances,
            other: b.dances,
        });
        // Without a checker on the bar on one side, the hit says it all.
        if let (Some(da), Some(db)) = (a.dances, b.dances) {
            words.push((
                da > db,
                format!("the opponent fails to enter with {da} of 36 rolls (against {db})"),
            ));
        }
    }
    let escapes_differ = match (a.escapes, b.escapes) {
        (Some(ea), Some(eb)) => ea.abs_diff(eb) >= ESCAPES_WORTH_SAYING,
        _ => false,
    };
    if a.back != b.back || escapes_differ {
        facts.push(Fact::Back {
            best: a.back,
            other: b.back,
            best_escapes: a.escapes,
            other_escapes: b.escapes,
        });
        if a.back != b.back {
            words.push((
                a.back < b.back,
                format!("leaves {} back (against {})", checkers(a.back), b.back),
            ));
        } else if let (Some(ea), Some(eb)) = (a.escapes, b.escapes) {
            words.push((
                ea > eb,
                format!("the back checkers escape with {ea} of 36 rolls (against {eb})"),
            ));
        }
    }
    if (a.race_lead - b.race_lead).abs() >= PIPS_WORTH_SAYING {
        facts.push(Fact::Race {
            best: a.race_lead,
            other: b.race_lead,
        });
        words.push((
            a.race_lead > b.race_lead,
            race_words(a.race_lead, b.race_lead),
        ));
    }
    if let (Some(ta), Some(tb)) = (a.timing, b.timing)
        && ta.abs_diff(tb) >= TIMING_WORTH_SAYING
    {
        facts.push(Fact::Timing {
            best: ta,
            other: tb,
        });
        words.push((
            ta > tb,
            format!("keeps {ta} pips of timing outside its home board (against {tb})"),
        ));
    }
    let (pros, cons): (Vec<_>, Vec<_>) = words.into_iter().partition(|(pro, _)| *pro);
    let joined = |said: Vec<(bool, String)>| -> String {
        said.into_iter()
            .map(|(_, w)| w)
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut sentence = format!(
        "{} is {:.3} better than {}",
        best.text,
        equity_diff.abs(),
        other.text
    );
    let had_pros = !pros.is_empty();
    if had_pros {
        sentence += &format!(": {}", joined(pros));
    }
    if !cons.is_empty() {
        sentence += if had_pros { "; but " } else { ", though " };
        sentence += &joined(cons);
    }
    Explanation {
        against: other.text.to_string(),
        facts,
        sentence,
    }
}

/// "wins 3.1% more games", "loses 2.4% fewer gammons".
fn chance_words(diff: f32, what: &str) -> String {
    let pct = (diff * 1000.0).round().abs() / 10.0;
    match (what, diff > 0.0) {
        ("gammons lost", true) => format!("loses {pct:.1}% more gammons"),
        ("gammons lost", false) => format!("loses {pct:.1}% fewer gammons"),
        ("games", true) => format!("wins {pct:.1}% more games"),
        ("games", false) => format!("wins {pct:.1}% fewer games"),
        (_, true) => format!("wins {pct:.1}% more gammons"),
        (_, false) => format!("wins {pct:.1}% fewer gammons"),
    }
}

/// ", a direct shot" or ", indirect shots only", when anything hits.
fn shot_kind(f: &BoardFacts) -> &'static str {
    match (f.shots, f.direct_blots.is_empty()) {
        (0, _) => "",
        (_, false) => ", a direct shot",
        (_, true) => ", indirect shots only",
    }
}

/// "leads the race by 29 pips (against 22)", "trails the race by 3 pips
/// (against a lead of 4)", "the race is level (against a lead of 6)".
fn race_words(lead: i32, other: i32) -> String {
    let main = match lead {
        0 => "the race is level".to_string(),
        l if l > 0 => format!("leads the race by {l} pips"),
        l => format!("trails the race by {} pips", -l),
    };
    let against = match other {
        o if o.signum() == lead.signum() => o.abs().to_string(),
        0 => "level".to_string(),
        o if o > 0 => format!("a lead of {o}"),
        o => format!("{} behind", -o),
    };
    format!("{main} (against {against})")
}

fn checkers(n: u8) -> String {
    match n {
        0 => "no checker".to_string(),
        1 => "one checker".to_string(),
        n => format!("{n} checkers"),
    }
}

/// "the 5-point (home board)", "the 20- and 21-points (anchors)".
fn point_names(points: &[u8]) -> String {
    let name = |p: u8| -> String {
        let kind = match p {
            1..=6 => " (home board)",
            7 => " (bar point)",
            19..=24 => " (anchor)",
            _ => "",
        };
        format!("the {p}-point{kind}")
    };
    let names: Vec<String> = points.iter().map(|&p| name(p)).collect();
    names.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::legal_moves_reference;

    /// The mover's blot on `blot` (and `extra` points of two), its other
    /// checkers on its 24-point; one opponent checker on the mover's
    /// 1-point, the rest stuck on the opponent's 2-point (the mover's 23).
    fn blot_facing_one_checker(blot: usize, extra: &[usize]) -> Position {
        let mut mover = vec![(blot, 1)];
        mover.extend(extra.iter().map(|&p| (p, 2)));
        let rest = 15 - 1 - 2 * extra.len() as u8;
        mover.push((24, rest));
        Position::from_points(&mover, &[(24, 1), (2, 14)])
    }

    #[test]
    fn shots_are_the_textbook_numbers() {
        // A direct shot 1 away: the 11 rolls with a 1.
        assert_eq!(BoardFacts::of(&blot_facing_one_checker(2, &[])).shots, 11);
        // 6 away: the 11 sixes, 51, 42, 33 and 22.
        assert_eq!(BoardFacts::of(&blot_facing_one_checker(7, &[])).shots, 17);
        // 7 away: 61, 52, 43.
        let seven = BoardFacts::of(&blot_facing_one_checker(8, &[]));
        assert_eq!(seven.shots, 6);
        let named: Vec<String> = seven.hitting_rolls.iter().map(|d| d.to_string()).collect();
        assert_eq!(named, ["43", "52", "61"]);
        // 12 away: 66, 44, 33.
        assert_eq!(BoardFacts::of(&blot_facing_one_checker(13, &[])).shots, 3);
        // 6 away with the point 3 away held: 33 is blocked (16).
        assert_eq!(BoardFacts::of(&blot_facing_one_checker(7, &[4])).shots, 16);
    }

    /// The independent count: all 36 ordered rolls, the reference move
    /// generator, and a hit seen as the mover's pip count growing.
    fn shots_by_brute_force(after: &Position) -> u8 {
        let roller = after.swap();
        let before = roller.pip_counts().1;
        let mut list = MoveList::new();
        let mut shots = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                legal_moves_reference(&roller, Dice::new(a, b).unwrap(), &mut list);
                if list.iter().any(|c| c.position.pip_counts().1 > before) {
                    shots += 1;
                }
            }
        }
        shots
    }

    /// The other board facts against counts of their own: the dance
    /// numbers against the square of the closed home points, escapes by
    /// the reference generator over the 36 ordered rolls, the race from
    /// the sides' checker lists, direct shots from distances.
    fn check_entering_back_race_and_direct(after: &Position, facts: &BoardFacts) {
        let (mover, opponent) = after.to_sides();
        if after.opponent_at(OPP_BAR) > 0 {
            let closed = (1..=6).filter(|&p| after.mover_at(p) >= 2).count() as u8;
            assert_eq!(facts.dances, Some(closed * closed), "{after:?}");
        } else {
            assert_eq!(facts.dances, None);
        }
        let back: u8 = mover[18..].iter().sum();
        assert_eq!(facts.back, back);
        if back == 0 {
            assert_eq!(facts.escapes, None);
        } else {
            let front = blockade_front(after);
            let count_behind = |sides: &[u8; 25]| -> u8 { sides[front - 1..].iter().sum() };
            let now = count_behind(&mover);
            let mut list = MoveList::new();
            let mut rolls = 0;
            for a in 1..=6 {
                for b in 1..=6 {
                    legal_moves_reference(after, Dice::new(a, b).unwrap(), &mut list);
                    if list
                        .iter()
                        .any(|c| count_behind(&c.position.to_sides().0) < now)
                    {
                        rolls += 1;
                    }
                }
            }
            assert_eq!(facts.escapes, Some(rolls), "{after:?}");
        }
        let pips = |side: &[u8; 25]| -> i32 {
            side.iter()
                .enumerate()
                .map(|(i, &n)| (i as i32 + 1) * n as i32)
                .sum()
        };
        assert_eq!(facts.race_lead, pips(&opponent) - pips(&mover));
        let anchor = mover[18..24].iter().any(|&n| n >= 2);
        let outside: u32 = (7..=24)
            .filter(|&p| p < 19 || mover[p - 1] < 2)
            .map(|p| mover[p - 1] as u32 * (p as u32 - 6))
            .sum();
        let expected = (anchor && facts.race_lead <= -15).then_some(outside);
        assert_eq!(facts.timing, expected, "{after:?}");
        for &blot in &facts.blots {
            // The opponent's own point numbers: the mover's p is its 25 - p;
            // its bar is its 25.
            let their = 25 - blot as usize;
            let direct = (their + 1..=(their + 6).min(25)).any(|q| opponent[q - 1] > 0);
            assert_eq!(facts.direct_blots.contains(&blot), direct, "{after:?}");
        }
        assert!(facts.direct_blots.iter().all(|b| facts.blots.contains(b)));
    }

    #[test]
    fn shots_points_and_primes_match_independent_counts_over_random_play() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(73);
        let mut list = MoveList::new();
        let mut pos = Position::starting();
        let mut checked = 0;
        while checked < 1000 {
            let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
            legal_moves(&pos, dice, &mut list);
            let after = list.as_slice()[rng.random_range(0..list.len())].position;
            if after.is_game_over() {
                pos = Position::starting();
                continue;
            }
            let facts = BoardFacts::of(&after);
            assert_eq!(facts.shots, shots_by_brute_force(&after), "{after:?}");
            let weight = |d: &Dice| if d.is_double() { 1 } else { 2 };
            assert_eq!(
                facts.hitting_rolls.iter().map(weight).sum::<u8>(),
                facts.shots
            );
            for p in 1..=24u8 {
                let n = after.mover_at(p as usize);
                assert_eq!(facts.points.contains(&p), n >= 2);
                assert_eq!(facts.blots.contains(&p), n == 1);
            }
            let longest = (1..=24)
                .filter(|&start| after.mover_at(start) >= 2)
                .map(|start| (start..=24).take_while(|&p| after.mover_at(p) >= 2).count())
                .max()
                .unwrap_or(0);
            assert_eq!(facts.prime as usize, longest);
            assert_eq!(facts.opponent_on_bar, after.opponent_at(OPP_BAR));
            check_entering_back_race_and_direct(&after, &facts);
            pos = after.swap();
            checked += 1;
        }
    }

    #[test]
    fn the_opening_three_one_is_explained_by_the_five_point() {
        let start = Position::starting();
        let mut list = MoveList::new();
        legal_moves(&start, Dice::new(3, 1).unwrap(), &mut list);
        let after = |text: &str| {
            list.iter()
                .find(|c| crate::notation::move_text::format(&start, &c.play) == text)
                .unwrap()
                .position
        };
        let best = Ranked::new(
            "8/5 6/5",
            &after("8/5 6/5"),
            [0.55, 0.17, 0.006, 0.12, 0.005],
        );
        let other = Ranked::new(
            "24/23 13/10",
            &after("24/23 13/10"),
            [0.50, 0.14, 0.005, 0.14, 0.005],
        );
        let e = explain(&best, &other, 0.2);
        assert!(
            e.facts
                .iter()
                .any(|f| matches!(f, Fact::Points { only_best, .. } if only_best.contains(&5)))
        );
        assert!(
            e.facts
                .iter()
                .any(|f| matches!(f, Fact::Shots { best: 0, other, .. } if *other > 0))
        );
        assert!(
            e.sentence.contains("wins 5.0% more games"),
            "{}",
            e.sentence
        );
        assert!(
            e.sentence.contains("holds the 5-point (home board)"),
            "{}",
            e.sentence
        );
        // Splitting leaves the back checkers freer: counted, the search
        // found it smaller.
        assert!(
            e.sentence
                .ends_with("; but the back checkers escape with 15 of 36 rolls (against 22)"),
            "{}",
            e.sentence
        );
        // Equal chances and boards: nothing to say.
        let same = explain(&best, &best, 0.0);
        assert!(same.facts.is_empty());
    }
}
