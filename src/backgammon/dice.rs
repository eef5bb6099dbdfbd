//! A roll of two dice.

use crate::quoted::Quoted;
use thiserror::Error;

/// Two dice, each 1..=6, stored high die first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    high: u8,
    low: u8,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DiceError {
    #[error("dice must be two digits 1-6, like 31 or 66; got {}", Quoted(.0))]
    Malformed(String),
}

impl Dice {
    /// Dice in either order; `None` unless both are 1..=6.
    pub fn new(a: u8, b: u8) -> Option<Dice> {
        if (1..=6).contains(&a) && (1..=6).contains(&b) {
            Some(Dice {
                high: a.max(b),
                low: a.min(b),
            })
        } else {
            None
        }
    }

    pub fn high(self) -> u8 {
        self.high
    }

    pub fn low(self) -> u8 {
        self.low
    }

    pub fn is_double(self) -> bool {
        self.high == self.low
    }

    /// All 21 distinct rolls, with how many of the 36 outcomes each stands for.
    pub fn all_rolls() -> impl Iterator<Item = (Dice, u8)> {
        (1..=6u8).flat_map(|a| {
            (1..=a).map(move |b| (Dice { high: a, low: b }, if a == b { 1 } else { 2 }))
        })
    }
}

impl std::str::FromStr for Dice {
    type Err = DiceError;
    /// Accepts "31", "3-1", "3 1", "3,1" or "13": two digits with at most
    /// one separator between them ("-31" is refused, not read as 31).
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        let bad = || DiceError::Malformed(s.to_string());
        let digit = |b: u8| b.is_ascii_digit().then(|| b - b'0');
        let (a, b) = match *s.trim().as_bytes() {
            [a, b] => (a, b),
            [a, b'-' | b' ' | b',', b] => (a, b),
            _ => return Err(bad()),
        };
        let (a, b) = digit(a).zip(digit(b)).ok_or_else(bad)?;
        Dice::new(a, b).ok_or_else(bad)
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.high, self.low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("31".parse::<Dice>().unwrap(), Dice::new(1, 3).unwrap());
        assert_eq!("6-6".parse::<Dice>().unwrap().high(), 6);
        assert!("70".parse::<Dice>().is_err());
        assert!("3".parse::<Dice>().is_err());
        assert!("x1".parse::<Dice>().is_err());
    }

    #[test]
    fn twenty_one_rolls_cover_36_outcomes() {
        assert_eq!(Dice::all_rolls().count(), 21);
        assert_eq!(Dice::all_rolls().map(|(_, w)| w as u32).sum::<u32>(), 36);
    }
}
