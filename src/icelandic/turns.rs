//! Legal turns of Icelandic Kotra: every step sequence, depth first, then
//! the duties of §4.3 (most dice, the higher die, game-ending sequences
//! exempt), each distinct result once.
//!
//! Step by step, because the special rules change in the middle of a turn:
//! landing on track 12 unlocks stacking for the next step, the fifth stone
//! leaving the start opens the crossing, a hit can break a six-point block.

use super::outcome::{Win, WinKind, bonus_pattern, completed_after_step, decide, jan_against};
use super::position::{POINTS, Position, letter_of, other_track};
use rustc_hash::FxHashSet;

/// Where a step starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum From {
    Bar,
    Track(u8),
}

/// Where a step ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum To {
    Track(u8),
    Off,
}

/// One die's worth of movement by one stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: From,
    pub to: To,
    pub die: u8,
    /// Opposing stones sent to the bar.
    pub hits: u8,
}

impl Step {
    /// `a-d(3)`, `bar-c*(3)`, `t-off(5)` in the mover's letters.
    pub fn text(&self, white: bool) -> String {
        let from = match self.from {
            From::Bar => "bar".to_string(),
            From::Track(t) => letter_of(white, t as usize).to_string(),
        };
        let to = match self.to {
            To::Off => "off".to_string(),
            To::Track(t) => letter_of(white, t as usize).to_string(),
        };
        let hit = if self.hits > 0 { "*" } else { "" };
        format!("{from}-{to}{hit}({})", self.die)
    }
}

/// The steps of one turn (at most four), without allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Steps {
    items: [Step; 4],
    len: u8,
}

impl Steps {
    const NONE: Step = Step {
        from: From::Bar,
        to: To::Off,
        die: 0,
        hits: 0,
    };

    pub const fn new() -> Steps {
        Steps {
            items: [Self::NONE; 4],
            len: 0,
        }
    }

    fn push(&mut self, step: Step) {
        self.items[self.len as usize] = step;
        self.len += 1;
    }
}

impl Default for Steps {
    fn default() -> Self {
        Steps::new()
    }
}

impl std::ops::Deref for Steps {
    type Target = [Step];
    fn deref(&self) -> &[Step] {
        &self.items[..self.len as usize]
    }
}

/// Rules that change how turns are generated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnRules {
    /// Lítill meistari counts as a win (optional rule, default off).
    pub little_master: bool,
    /// The extra throws of §8.1: no bearing off, and only Langi munkur,
    /// Stutti munkur and Meistari count, at full value.
    pub bonus_throws: bool,
}

/// One legal turn: its steps, the position after it (still from the
/// mover's view, his first turn over) and the win it ends the game with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub steps: Steps,
    pub position: Position,
    pub win: Option<Win>,
}

impl Turn {
    /// The steps joined by spaces, or `(no move)`.
    pub fn text(&self, white: bool) -> String {
        if self.steps.is_empty() {
            return "(no move)".into();
        }
        let parts: Vec<String> = self.steps.iter().map(|s| s.text(white)).collect();
        parts.join(" ")
    }
}

/// A step sequence before the duties are applied.
struct Sequence {
    position: Position,
    steps: Steps,
    hit: bool,
    completed: Option<WinKind>,
}

/// Every legal turn for the roll `d1`-`d2`. Never empty: a forfeited throw
/// is one turn without steps.
pub fn legal_turns(pos: &Position, d1: u8, d2: u8, rules: TurnRules) -> Vec<Turn> {
    let mut seqs = Vec::new();
    if d1 == d2 && d1 == 6 && pos.mover.first_turn {
        seqs.extend(opening_six_six(pos));
    } else {
        let mut search = Search {
            rules,
            out: &mut seqs,
        };
        let lock = if d1 == d2 && pos.mover.first_turn {
            Lock::AnyStone
        } else {
            Lock::None
        };
        if d1 == d2 {
            search.dfs(pos, &[d1; 4], Steps::new(), false, lock);
        } else {
            search.dfs(pos, &[d1, d2], Steps::new(), false, lock);
            search.dfs(pos, &[d2, d1], Steps::new(), false, lock);
        }
    }
    let most = seqs.iter().map(|s| s.steps.len()).max().unwrap_or(0);
    let higher = d1.max(d2);
    let higher_alone = d1 != d2
        && most == 1
        && seqs
            .iter()
            .any(|s| s.completed.is_none() && s.steps.len() == 1 && s.steps[0].die == higher);
    let keep = |s: &Sequence| {
        s.completed.is_some()
            || (s.steps.len() == most && (!higher_alone || s.steps[0].die == higher))
    };
    let mut seen = FxHashSet::default();
    let mut turns = Vec::new();
    for s in seqs.into_iter().filter(keep) {
        let turn = finish(s);
        if seen.insert((turn.position, turn.win)) {
            turns.push(turn);
        }
    }
    if turns.is_empty() {
        turns.push(finish(Sequence {
            position: *pos,
            steps: Steps::new(),
            hit: false,
            completed: None,
        }));
    }
    turns
}

/// The end-of-turn procedure: jan against the other side, the win, the
/// mover's first turn over.
fn finish(s: Sequence) -> Turn {
    let mut position = s.position;
    position.mover.first_turn = false;
    let jan = jan_against(available_entries(&position), position.other.bar);
    Turn {
        win: decide(s.completed, jan, s.hit),
        steps: s.steps,
        position,
    }
}

/// Entry points open to the side not moving: none of his own stones and at
/// most one of the mover's.
pub fn available_entries(pos: &Position) -> u8 {
    (1..=6)
        .filter(|&t| pos.other.at(t) == 0 && pos.mover.at(other_track(t)) <= 1)
        .count() as u8
}

/// Rule 1 on a first-turn 6-6: four stones from the start to track 7, as
/// the group of rule 2. If that cannot be done the throw is lost.
fn opening_six_six(pos: &Position) -> Option<Sequence> {
    if pos.mover.at(1) < 4 || pos.other_at(7) > 1 || pos.mover.bar > 0 {
        return None;
    }
    let mut p = *pos;
    let mut steps = Steps::new();
    for _ in 0..4 {
        let hits = apply(&mut p, From::Track(1), To::Track(7));
        steps.push(Step {
            from: From::Track(1),
            to: To::Track(7),
            die: 6,
            hits,
        });
    }
    p.mover.group = true;
    let hit = steps.iter().any(|s| s.hits > 0);
    Some(Sequence {
        position: p,
        steps,
        hit,
        completed: None,
    })
}

/// Rule 1 on first-turn doubles: one stone plays them all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lock {
    None,
    AnyStone,
    Stone(u8),
}

struct Search<'a> {
    rules: TurnRules,
    out: &'a mut Vec<Sequence>,
}

impl Search<'_> {
    fn dfs(&mut self, pos: &Position, dice: &[u8], steps: Steps, hit: bool, lock: Lock) {
        let Some((&die, rest)) = dice.split_first() else {
            self.record(pos, steps, hit, None);
            return;
        };
        let mut targets = [(From::Bar, To::Off); POINTS + 1];
        let n = step_targets(pos, die, lock, !self.rules.bonus_throws, &mut targets);
        if n == 0 {
            self.record(pos, steps, hit, None);
            return;
        }
        for &(from, to) in &targets[..n] {
            let mut next = *pos;
            let hits = apply(&mut next, from, to);
            let mut steps = steps;
            steps.push(Step {
                from,
                to,
                die,
                hits,
            });
            let hit = hit || hits > 0;
            let dice_left = !rest.is_empty();
            let completed = if self.rules.bonus_throws {
                bonus_pattern(&next.mover)
            } else {
                completed_after_step(&next.mover, self.rules.little_master, dice_left)
            };
            if let Some(kind) = completed {
                self.record(&next, steps, hit, Some(kind));
                continue;
            }
            let lock = match (lock, to) {
                (Lock::None, _) => Lock::None,
                (_, To::Track(t)) => Lock::Stone(t),
                (_, To::Off) => Lock::Stone(0),
            };
            self.dfs(&next, rest, steps, hit, lock);
        }
    }

    fn record(&mut self, pos: &Position, steps: Steps, hit: bool, completed: Option<WinKind>) {
        self.out.push(Sequence {
            position: *pos,
            steps,
            hit,
            completed,
        });
    }
}

/// Every legal single step with `die`, written into `out`; returns how
/// many.
fn step_targets(
    pos: &Position,
    die: u8,
    lock: Lock,
    bear_off: bool,
    out: &mut [(From, To); POINTS + 1],
) -> usize {
    let me = &pos.mover;
    let d = die as usize;
    let mut n = 0;
    let mut push = |step: (From, To)| {
        out[n] = step;
        n += 1;
    };
    if me.bar > 0 {
        if me.at(d) == 0 && pos.other_at(d) <= 1 {
            push((From::Bar, To::Track(d as u8)));
        }
        return n;
    }
    for t in 1..=POINTS {
        if me.at(t) == 0 {
            continue;
        }
        if let Lock::Stone(s) = lock
            && s as usize != t
        {
            continue;
        }
        let dest = t + d;
        if dest <= POINTS {
            if may_land(pos, t, dest) {
                push((From::Track(t as u8), To::Track(dest as u8)));
            }
        } else if bear_off && me.all_home() {
            let rearmost = (1..=POINTS).find(|&u| me.at(u) > 0).unwrap_or(t);
            if dest == POINTS + 1 || t == rearmost {
                push((From::Track(t as u8), To::Off));
            }
        }
    }
    n
}

/// §4.2 for a step from track `t` to track `dest` on the board.
fn may_land(pos: &Position, t: usize, dest: usize) -> bool {
    let me = &pos.mover;
    if t <= 12 && dest >= 13 && !me.five_out {
        return false;
    }
    if me.at(dest) > 0 && !me.unlocked {
        return false;
    }
    match pos.other_at(dest) {
        0 | 1 => true,
        _ => (pos.other.group && dest == other_track(7)) || block_run(pos, dest) >= 6,
    }
}

/// Length of the run of points holding two or more opposing stones that
/// contains the mover's track `dest` (rule 5).
fn block_run(pos: &Position, dest: usize) -> usize {
    let closed = |t: usize| pos.other_at(t) >= 2;
    let mut lo = dest;
    while lo > 1 && closed(lo - 1) {
        lo -= 1;
    }
    let mut hi = dest;
    while hi < POINTS && closed(hi + 1) {
        hi += 1;
    }
    hi - lo + 1
}

/// Makes one step and returns how many opposing stones it hit. Keeps the
/// flags of rules 2–4 up to date.
fn apply(pos: &mut Position, from: From, to: To) -> u8 {
    match from {
        From::Bar => pos.mover.bar -= 1,
        From::Track(t) => {
            pos.mover.points[t as usize - 1] -= 1;
            if t == 7 {
                pos.mover.group = false;
            }
        }
    }
    let mut hits = 0;
    match to {
        To::Off => pos.mover.off += 1,
        To::Track(t) => {
            let t = t as usize;
            let theirs = other_track(t);
            hits = pos.other.points[theirs - 1];
            if hits > 0 {
                pos.other.points[theirs - 1] = 0;
                pos.other.bar += hits;
                if theirs == 7 {
                    pos.other.group = false;
                }
            }
            if t == 7 {
                pos.mover.group = false;
            }
            pos.mover.points[t - 1] += 1;
            if t == 12 {
                pos.mover.unlocked = true;
            }
        }
    }
    if pos.mover.at(1) <= 10 {
        pos.mover.five_out = true;
    }
    hits
}
