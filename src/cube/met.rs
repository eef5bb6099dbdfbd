//! Match equity tables: the chance of winning the match from a score, the
//! currency every match-play cube and checker decision is paid in.
//!
//! The shipped table is Kazaross-XG2 (`Kazaross-XG2.xml` beside this file,
//! copied verbatim from GNU Backgammon's distribution with its copyright
//! notice kept, as that notice asks). It is read from the gnubg MET XML
//! format, so other tables in that format load the same way.

use crate::backgammon::MAX_MATCH_LENGTH;
use std::sync::OnceLock;
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MetError {
    #[error("match equity table: {0}")]
    Format(String),
}

/// Match winning chances by score, in "points away" (points still needed).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchEquityTable {
    pub name: String,
    /// `pre[i][j]`: winning chance of a player `i + 1` away against one
    /// `j + 1` away, before the Crawford game has been played (a 1-away
    /// entry is the Crawford game itself).
    pre: Vec<Vec<f32>>,
    /// `post[i]`: winning chance of the trailer `i + 1` away against a
    /// 1-away leader after the Crawford game.
    post: Vec<f32>,
}

impl MatchEquityTable {
    /// Kazaross-XG2 (25 points, extended to [`MAX_MATCH_LENGTH`]), parsed once.
    pub fn kazaross_xg2() -> &'static MatchEquityTable {
        static TABLE: OnceLock<MatchEquityTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            MatchEquityTable::from_gnubg_xml(include_str!("Kazaross-XG2.xml"))
                .expect("the shipped match equity table parses")
        })
    }

    /// Reads gnubg's MET XML: an explicit `pre-crawford-table` (rows of
    /// `<me>` values) and an explicit `post-crawford-table`.
    pub fn from_gnubg_xml(text: &str) -> Result<MatchEquityTable, MetError> {
        let name = between(text, "<name>", "</name>")
            .unwrap_or("unnamed")
            .trim()
            .to_string();
        let pre_text = section(text, "pre-crawford-table")?;
        let pre: Vec<Vec<f32>> = pre_text
            .split("</row>")
            .map(values)
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .filter(|row| !row.is_empty())
            .collect();
        let post = values(section(text, "post-crawford-table")?)?;
        let n = pre.len();
        if n == 0 || pre.iter().any(|r| r.len() != n) || post.len() < n {
            return Err(MetError::Format(format!(
                "expected a square pre-Crawford table and a post-Crawford row as long, got {} rows, {} post-Crawford values",
                n,
                post.len()
            )));
        }
        if pre
            .iter()
            .flatten()
            .chain(&post)
            .any(|v| !(0.0..=1.0).contains(v))
        {
            return Err(MetError::Format("a winning chance outside [0, 1]".into()));
        }
        Ok(MatchEquityTable { name, pre, post }.extended(MAX_MATCH_LENGTH as usize))
    }

    /// The table extended to `length` points, as published tables are
    /// extended for long matches: far from the end of a match, the
    /// leader's chance is close to a normal distribution's in the lead
    /// over the square root of the points left, `Φ((b − a) / (s √(a + b)))`,
    /// with `s` fitted to the table's own entries of 8 points and more
    /// (about 0.004 from every entry at the edge of Kazaross-XG2). The
    /// table's own difference from the formula at the edge entry nearest
    /// an extended one is carried over, fading with the distance, so the
    /// extension meets the table without a step. After
    /// the Crawford game the trailer's chance falls by the table's own
    /// last ratio every two points.
    fn extended(mut self, length: usize) -> MatchEquityTable {
        let n = self.pre.len();
        if length <= n || n < 3 {
            return self;
        }
        let s = fitted_spread(&self.pre);
        let table = self.pre.clone();
        let at = |a: usize, b: usize| table[a - 1][b - 1];
        let formula =
            |a: usize, b: usize| normal_cdf((b as f64 - a as f64) / (s * ((a + b) as f64).sqrt()));
        let mut pre = vec![vec![0f32; length]; length];
        for a in 1..=length {
            for b in 1..=length {
                pre[a - 1][b - 1] = if a <= n && b <= n {
                    at(a, b)
                } else {
                    // Straight in to the table's edge.
                    let k = a.max(b) - n;
                    let (ta, tb) = (a.min(n), b.min(n));
                    let carried = (at(ta, tb) as f64 - formula(ta, tb)) * n as f64 / (n + k) as f64;
                    (formula(a, b) + carried).clamp(0.0, 1.0) as f32
                };
            }
        }
        let ratio = if self.post[n - 3] > 0.0 {
            self.post[n - 1] / self.post[n - 3]
        } else {
            0.0
        };
        self.post.truncate(n);
        while self.post.len() < length {
            let two_back = self.post[self.post.len() - 2];
            self.post.push(two_back * ratio);
        }
        self.pre = pre;
        self
    }

    /// The longest match the table covers (the file's, extended to
    /// [`MAX_MATCH_LENGTH`] where it is shorter).
    pub fn length(&self) -> u32 {
        self.pre.len() as u32
    }

    /// Winning chance of a player `me` away against one `opp` away (0 or
    /// less = that player has won). `post_crawford`: the Crawford game has
    /// been played, which matters only when one player is 1-away. Scores
    /// beyond the table are clamped to its edge.
    pub fn equity(&self, me: i32, opp: i32, post_crawford: bool) -> f32 {
        if me <= 0 {
            return 1.0;
        }
        if opp <= 0 {
            return 0.0;
        }
        let n = self.pre.len() as i32;
        let (i, j) = ((me.min(n) - 1) as usize, (opp.min(n) - 1) as usize);
        if post_crawford && (me == 1 || opp == 1) && me != opp {
            return if opp == 1 {
                self.post[i]
            } else {
                1.0 - self.post[j]
            };
        }
        self.pre[i][j]
    }
}

/// The spread `s` of the normal approximation that fits the table's
/// entries of 8 points and more best (least squares over a grid of 0.01).
fn fitted_spread(pre: &[Vec<f32>]) -> f64 {
    let n = pre.len();
    let from = 8.min(n);
    let error = |s: f64| {
        let mut sum = 0.0;
        for a in from..=n {
            for b in from..=n {
                let f = normal_cdf((b as f64 - a as f64) / (s * ((a + b) as f64).sqrt()));
                sum += (f - pre[a - 1][b - 1] as f64).powi(2);
            }
        }
        sum
    };
    (50..=400)
        .map(|c| c as f64 / 100.0)
        .min_by(|x, y| error(*x).total_cmp(&error(*y)))
        .unwrap_or(1.8)
}

/// The standard normal distribution function, by Abramowitz and Stegun's
/// 7.1.26 for erf (absolute error under 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text[start..].find(close)?;
    Some(&text[start..start + len])
}

/// The body of `<tag ...> ... </tag>`.
fn section<'a>(text: &'a str, tag: &str) -> Result<&'a str, MetError> {
    let open = format!("<{tag}");
    let start = text
        .find(&open)
        .ok_or_else(|| MetError::Format(format!("no <{tag}>")))?;
    let body_start = start
        + text[start..]
            .find('>')
            .ok_or_else(|| MetError::Format(format!("unclosed <{tag}")))?
        + 1;
    let close = format!("</{tag}>");
    let len = text[body_start..]
        .find(&close)
        .ok_or_else(|| MetError::Format(format!("no {close}")))?;
    Ok(&text[body_start..body_start + len])
}

/// Every `<me>` value in `text`, in order.
fn values(text: &str) -> Result<Vec<f32>, MetError> {
    text.split("<me>")
        .skip(1)
        .map(|chunk| {
            let v = chunk.split("</me>").next().unwrap_or("").trim();
            v.parse::<f32>()
                .map_err(|_| MetError::Format(format!("{v:?} is not a number")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kazaross_entries_match_the_table() {
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(met.length(), MAX_MATCH_LENGTH);
        assert!(met.name.contains("Kazaross"));
        // Row 1: 1-away (Crawford) against 2-away; row 2, column 1 is its complement.
        assert_eq!(met.equity(1, 2, false), 0.67736);
        assert_eq!(met.equity(2, 1, false), 0.32264);
        assert_eq!(met.equity(3, 3, false), 0.5);
        assert_eq!(met.equity(2, 4, false), 0.66870);
        // Post-Crawford: the trailer 2-away against 1-away (free drop).
        assert_eq!(met.equity(2, 1, true), 0.48803);
        assert_eq!(met.equity(1, 2, true), 1.0 - 0.48803);
        assert_eq!(met.equity(1, 1, true), 0.5);
        assert_eq!(met.equity(0, 3, false), 1.0);
        assert_eq!(met.equity(5, -1, false), 0.0);
        // Symmetric pre-Crawford table: complements add to one.
        for i in 1..=25 {
            for j in 1..=25 {
                let s = met.equity(i, j, false) + met.equity(j, i, false);
                assert!((s - 1.0).abs() < 2e-5, "{i}-away v {j}-away: {s}");
            }
        }
    }

    /// Beyond the file's 25 points: every score its own value, the
    /// leader ahead, complements adding to one, no step where the
    /// extension meets the table, and the normal approximation's own
    /// figures far out.
    #[test]
    fn the_extension_to_long_matches_is_smooth_and_ordered() {
        let met = MatchEquityTable::kazaross_xg2();
        let n = MAX_MATCH_LENGTH as i32;
        for a in 1..=n {
            for b in 1..=n {
                let e = met.equity(a, b, false);
                assert!((e + met.equity(b, a, false) - 1.0).abs() < 1e-4, "{a} {b}");
                if a > 1 && b > 1 {
                    // Fewer points to go is better (within a hair where
                    // the chance is within 2% of certain).
                    let slack = if (0.02..=0.98).contains(&e) {
                        0.0
                    } else {
                        2e-3
                    };
                    assert!(met.equity(a - 1, b, false) > e - slack, "{a} {b}");
                    assert!(met.equity(a, b - 1, false) < e + slack, "{a} {b}");
                }
            }
        }
        assert!((met.equity(30, 30, false) - 0.5).abs() < 1e-6);
        assert!(met.equity(26, 30, false) > 0.55 && met.equity(26, 30, false) < 0.65);
        // Across the edge, neighbours differ no more than inside the table.
        for b in 2..=n {
            let inside = (met.equity(24, b, false) - met.equity(25, b, false)).abs();
            let across = (met.equity(25, b, false) - met.equity(26, b, false)).abs();
            assert!(across < inside * 1.5 + 1e-3, "{b}: {inside} {across}");
        }
        // Post-Crawford the trailer's chance keeps falling.
        for a in 2..=n {
            assert!(met.equity(a, 1, true) < met.equity(a - 1, 1, true), "{a}");
            assert!(met.equity(a, 1, true) >= 0.0);
        }
        // A hundred points from the end the lead of one point is worth
        // little: the formula's half-percent, not the edge's 50%.
        assert!((met.equity(63, 64, false) - 0.5).abs() < 0.03);
        assert!(met.equity(60, 64, false) > met.equity(63, 64, false));
    }

    #[test]
    fn malformed_tables_are_refused() {
        assert!(MatchEquityTable::from_gnubg_xml("<met></met>").is_err());
        let bad = "<pre-crawford-table><row><me>x</me></row></pre-crawford-table>\
                   <post-crawford-table><me>0.5</me></post-crawford-table>";
        assert!(MatchEquityTable::from_gnubg_xml(bad).is_err());
    }
}
