//! gnubg's move notation: `24/18 13/11`, `bar/22*`, `6/off`, `8/4(2)`,
//! `24/20*/16`.
//!
//! Conventions (checked against every move of the gnubg-labelled dev set):
//! identical steps are counted first (`13/9(2)`), then the steps of the same
//! checkers are joined into routes that show an intermediate point only where
//! it hit (`24/20*/16`); only the first step onto a blot carries the `*`,
//! and when fewer checkers go on than arrived the route splits
//! (`3/2*/1 3/2`, the continuing part first); routes are listed from the
//! highest start down, and from the same start by the higher landing point
//! of their first step.

use crate::backgammon::{Candidate, MoveList, Play, Position, Step};
use crate::quoted::Quoted;
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MoveTextError {
    #[error("cannot read move {}: {why}", Quoted(.text))]
    Syntax { text: String, why: String },
    #[error("{} is not a legal move with this roll", Quoted(.0))]
    Illegal(String),
}

fn point_name(p: u8) -> String {
    match p {
        25 => "bar".into(),
        0 => "off".into(),
        p => p.to_string(),
    }
}

/// Identical steps, counted; `hit` belongs to the first of them.
#[derive(Clone, Copy)]
struct Group {
    from: u8,
    to: u8,
    hit: bool,
    count: u8,
}

/// A route taken by `count` checkers: the points touched and the hits.
#[derive(Clone)]
struct Route {
    points: Vec<u8>,
    hits: Vec<bool>,
    count: u8,
}

impl Route {
    fn text(&self) -> String {
        let mut s = point_name(self.points[0]);
        let last = self.points.len() - 1;
        for k in 1..=last {
            if k == last || self.hits[k] {
                s.push('/');
                s.push_str(&point_name(self.points[k]));
                if self.hits[k] {
                    s.push('*');
                }
            }
        }
        if self.count > 1 {
            s.push_str(&format!("({})", self.count));
        }
        s
    }
}

/// Formats `play` made from `before` (mover's view) in gnubg notation.
pub fn format(before: &Position, play: &Play) -> String {
    let mut steps: Vec<Step> = play.steps().collect();
    steps.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    // Only the first checker to land on a blot hits it.
    let mut blots: Vec<u8> = (1..=24u8)
        .filter(|&p| before.opponent_at(p as usize) == 1)
        .collect();
    let mut groups: Vec<Group> = Vec::with_capacity(4);
    for s in steps {
        let hit = match blots.iter().position(|&b| b == s.to) {
            Some(i) => {
                blots.swap_remove(i);
                true
            }
            None => false,
        };
        match groups.last_mut() {
            Some(g) if g.from == s.from && g.to == s.to => g.count += 1,
            _ => groups.push(Group {
                from: s.from,
                to: s.to,
                hit,
                count: 1,
            }),
        }
    }
    let mut routes: Vec<Route> = Vec::with_capacity(4);
    for i in 0..groups.len() {
        if groups[i].count == 0 {
            continue;
        }
        let g = groups[i];
        groups[i].count = 0;
        let mut r = Route {
            points: vec![g.from, g.to],
            hits: vec![false, g.hit],
            count: g.count,
        };
        let mut stopped: Vec<Route> = Vec::new();
        // Follow these checkers on to the steps that start where they landed.
        while let Some(k) = (0..groups.len()).find(|&k| {
            groups[k].count > 0
                && groups[k].from == r.points[r.points.len() - 1]
                && r.points[r.points.len() - 1] != 0
        }) {
            let next = groups[k];
            if next.count < r.count {
                // Only some of these checkers go on: the rest stop here.
                let mut rest = r.clone();
                rest.count = r.count - next.count;
                rest.hits.iter_mut().for_each(|h| *h = false);
                stopped.push(rest);
                r.count = next.count;
            }
            groups[k].count -= r.count;
            groups[k].hit = false;
            r.points.push(next.to);
            r.hits.push(next.hit);
        }
        routes.push(r);
        routes.extend(stopped);
    }
    // Stable: from the same start, routes keep the order they were built in.
    routes.sort_by(|a, b| b.points[0].cmp(&a.points[0]));
    routes.iter().map(Route::text).collect::<Vec<_>>().join(" ")
}

/// Parses notation into `(from, to)` jumps (25 = bar, 0 = off). A route
/// `a/b/c` gives `(a, b), (b, c)`; `(n)` repeats a route; `*` is ignored
/// because hits follow from the position.
pub fn parse(text: &str) -> Result<Vec<(u8, u8)>, MoveTextError> {
    let err = |why: &str| MoveTextError::Syntax {
        text: text.to_string(),
        why: why.to_string(),
    };
    let mut out = Vec::new();
    for token in text.split([' ', ',']).filter(|t| !t.is_empty()) {
        let token = token.to_ascii_lowercase();
        let (route, repeat) = match token.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
            Some((r, n)) => (
                r.to_string(),
                n.parse::<usize>().map_err(|_| err("bad repeat count"))?,
            ),
            None => (token.clone(), 1),
        };
        if !(1..=4).contains(&repeat) {
            return Err(err("a repeat count must be 1 to 4"));
        }
        let mut points = Vec::new();
        for part in route.split('/') {
            let part = part.trim_end_matches('*');
            let p = match part {
                "bar" | "b" => 25,
                "off" | "o" => 0,
                n => n
                    .parse::<u8>()
                    .map_err(|_| err("points are 1-24, bar or off"))?,
            };
            if p > 25 {
                return Err(err("points are 1-24, bar or off"));
            }
            points.push(p);
        }
        if points.len() < 2 {
            return Err(err("each part needs a start and an end, like 8/5"));
        }
        for _ in 0..repeat {
            for w in points.windows(2) {
                if w[1] >= w[0] && !(w[1] == 0 && w[0] > 0) {
                    return Err(err("checkers move from higher to lower points"));
                }
                out.push((w[0], w[1]));
            }
        }
    }
    if out.is_empty() {
        return Err(err("empty move"));
    }
    Ok(out)
}

/// Finds the legal candidate that `text` describes, by the position it
/// leads to.
pub fn find<'a>(
    before: &Position,
    moves: &'a MoveList,
    text: &str,
) -> Result<&'a Candidate, MoveTextError> {
    let mut p = *before;
    for (from, to) in parse(text)? {
        let (from, to) = (from as usize, to as usize);
        let raw = p.raw();
        if raw[from] <= 0 || (to > 0 && raw[to] < -1) {
            return Err(MoveTextError::Illegal(text.to_string()));
        }
        p.apply_step(from, to);
    }
    moves
        .iter()
        .find(|c| c.position == p)
        .ok_or_else(|| MoveTextError::Illegal(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_gnubg_writes() {
        assert_eq!(parse("8/5 6/5").unwrap(), vec![(8, 5), (6, 5)]);
        assert_eq!(
            parse("bar/22* 13/9(2)").unwrap(),
            vec![(25, 22), (13, 9), (13, 9)]
        );
        assert_eq!(parse("24/20*/16").unwrap(), vec![(24, 20), (20, 16)]);
        assert_eq!(parse("6/off").unwrap(), vec![(6, 0)]);
        assert!(parse("5/8").is_err());
        assert!(parse("x/y").is_err());
        assert!(parse("").is_err());
    }
}
