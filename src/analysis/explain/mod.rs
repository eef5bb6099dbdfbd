//! Why one move beats another, in facts a player can check: the outcome
//! chances the search gave each, and what differs on the two boards left
//! behind (checkers hit, points made or given up, the longest prime, the
//! blots and the number of the opponent's 36 rolls that hit one). Every
//! number is counted from the two positions and the search's values,
//! never guessed from a template, and nothing is said of a difference
//! too small to matter.

mod cube;

pub use cube::{CubeExplanation, explain_cube};

use crate::backgammon::{Dice, MoveList, OPP_BAR, Position, legal_moves};
use serde::Serialize;

/// The most hitting rolls a sentence lists by name.
const ROLLS_WORTH_NAMING: usize = 4;

/// The smallest difference in a chance worth a word (half a percent).
const CHANCE_WORTH_SAYING: f32 = 0.005;

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
        let (hitting_rolls, shots) = hitting_rolls(after);
        BoardFacts {
            points,
            blots: points_where(|n| n == 1),
            hitting_rolls,
            shots,
            prime,
            opponent_on_bar: after.opponent_at(OPP_BAR),
        }
    }
}

/// The opponent's rolls that hit a checker of the side that just moved.
fn hitting_rolls(after: &Position) -> (Vec<Dice>, u8) {
    let roller = after.swap();
    // From the roller's view the other side's bar is slot 0, negative.
    let on_bar = roller.raw()[OPP_BAR];
    let mut list = MoveList::new();
    let mut rolls = Vec::new();
    let mut shots = 0;
    for (dice, weight) in Dice::all_rolls() {
        legal_moves(&roller, dice, &mut list);
        if list.iter().any(|c| c.position.raw()[OPP_BAR] < on_bar) {
            rolls.push(dice);
            shots += weight;
        }
    }
    (rolls, shots)
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
    },
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
    let only_best: Vec<u8> = a
        .points
        .iter()
        .copied()
        .filter(|p| !b.points.contains(p))
        .collect();
    let only_other: Vec<u8> = b
        .points
        .iter()
        .copied()
        .filter(|p| !a.points.contains(p))
        .collect();
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
                "{} of the opponent's 36 rolls hit{named} (against {})",
                a.shots, b.shots
            ),
        ));
        facts.push(Fact::Shots {
            best: a.shots,
            other: b.shots,
            best_blots: a.blots.clone(),
            other_blots: b.blots.clone(),
            best_rolls,
            other_rolls,
        });
    }
    let side = |pro: bool| -> Vec<String> {
        words
            .iter()
            .filter(|(p, _)| *p == pro)
            .map(|(_, w)| w.clone())
            .collect()
    };
    let (pros, cons) = (side(true), side(false));
    let mut sentence = format!(
        "{} is {:.3} better than {}",
        best.text,
        equity_diff.abs(),
        other.text
    );
    if !pros.is_empty() {
        sentence += &format!(": {}", pros.join("; "));
    }
    if !cons.is_empty() {
        sentence += if pros.is_empty() {
            ", though "
        } else {
            "; but "
        };
        sentence += &cons.join("; ");
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

fn checkers(n: u8) -> String {
    match n {
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
        assert!(!e.sentence.contains("but"), "{}", e.sentence);
        // Equal chances and boards: nothing to say.
        let same = explain(&best, &best, 0.0);
        assert!(same.facts.is_empty());
    }
}
