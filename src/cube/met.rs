//! Match equity tables: the chance of winning the match from a score, the
//! currency every match-play cube and checker decision is paid in.
//!
//! The shipped table is Kazaross-XG2 (`Kazaross-XG2.xml` beside this file,
//! copied verbatim from GNU Backgammon's distribution with its copyright
//! notice kept, as that notice asks). It is read from the gnubg MET XML
//! format, so other tables in that format load the same way.

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
    /// Kazaross-XG2 (25 points), parsed once.
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
        Ok(MatchEquityTable { name, pre, post })
    }

    /// The longest match the table covers.
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
        assert_eq!(met.length(), 25);
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

    #[test]
    fn malformed_tables_are_refused() {
        assert!(MatchEquityTable::from_gnubg_xml("<met></met>").is_err());
        let bad = "<pre-crawford-table><row><me>x</me></row></pre-crawford-table>\
                   <post-crawford-table><me>0.5</me></post-crawford-table>";
        assert!(MatchEquityTable::from_gnubg_xml(bad).is_err());
    }
}
