//! The ten ways to win and what each is worth, in half points so that the
//! half monks (3½, 2½) stay exact.

use super::position::Side;

/// The kinds of win, in the order of the evaluator's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WinKind {
    Uttekt,
    Jan,
    StorJan,
    Meistari,
    StuttiMunkur,
    LangiMunkur,
    HalfStuttiMunkur,
    HalfLangiMunkur,
    LangiHryggur,
    LitillMeistari,
}

impl WinKind {
    pub const ALL: [WinKind; 10] = [
        WinKind::Uttekt,
        WinKind::Jan,
        WinKind::StorJan,
        WinKind::Meistari,
        WinKind::StuttiMunkur,
        WinKind::LangiMunkur,
        WinKind::HalfStuttiMunkur,
        WinKind::HalfLangiMunkur,
        WinKind::LangiHryggur,
        WinKind::LitillMeistari,
    ];

    /// Base value in half points (Mar not included).
    pub fn half_points(self) -> u32 {
        match self {
            WinKind::Uttekt => 4,
            WinKind::Jan | WinKind::StorJan => 30,
            WinKind::Meistari => 26,
            WinKind::StuttiMunkur => 14,
            WinKind::LangiMunkur => 10,
            WinKind::HalfStuttiMunkur => 7,
            WinKind::HalfLangiMunkur => 5,
            WinKind::LangiHryggur | WinKind::LitillMeistari => 6,
        }
    }

    pub fn is_jan(self) -> bool {
        matches!(self, WinKind::Jan | WinKind::StorJan)
    }

    /// The Icelandic name, for display.
    pub fn name(self) -> &'static str {
        match self {
            WinKind::Uttekt => "Úttekt",
            WinKind::Jan => "Jan",
            WinKind::StorJan => "Stór jan",
            WinKind::Meistari => "Meistari",
            WinKind::StuttiMunkur => "Stutti munkur",
            WinKind::LangiMunkur => "Langi munkur",
            WinKind::HalfStuttiMunkur => "Hálfur munkur (stutti)",
            WinKind::HalfLangiMunkur => "Hálfur munkur (langi)",
            WinKind::LangiHryggur => "Langi hryggur",
            WinKind::LitillMeistari => "Lítill meistari",
        }
    }

    /// A plain ASCII key for JSON and files.
    pub fn key(self) -> &'static str {
        match self {
            WinKind::Uttekt => "uttekt",
            WinKind::Jan => "jan",
            WinKind::StorJan => "stor_jan",
            WinKind::Meistari => "meistari",
            WinKind::StuttiMunkur => "stutti_munkur",
            WinKind::LangiMunkur => "langi_munkur",
            WinKind::HalfStuttiMunkur => "half_stutti_munkur",
            WinKind::HalfLangiMunkur => "half_langi_munkur",
            WinKind::LangiHryggur => "langi_hryggur",
            WinKind::LitillMeistari => "litill_meistari",
        }
    }

    /// The half version of a monk completed with dice unplayed.
    fn halved(self) -> WinKind {
        match self {
            WinKind::StuttiMunkur => WinKind::HalfStuttiMunkur,
            WinKind::LangiMunkur => WinKind::HalfLangiMunkur,
            k => k,
        }
    }
}

/// A finished game from the winner's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Win {
    pub kind: WinKind,
    /// The winner hit during the winning turn (+2, never on a jan).
    pub mar: bool,
}

impl Win {
    pub fn half_points(self) -> u32 {
        self.kind.half_points() + if self.mar { 4 } else { 0 }
    }

    /// Points as a number (3½ is 3.5).
    pub fn points(self) -> f32 {
        self.half_points() as f32 / 2.0
    }
}

impl std::fmt::Display for Win {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = self.points();
        if self.mar {
            write!(f, "{} + Mar ({value} points)", self.kind.name())
        } else {
            write!(f, "{} ({value} points)", self.kind.name())
        }
    }
}

/// The exact all-15 pattern a side has formed, if any. Patterns need every
/// stone on the board, none off and none on the bar.
pub fn pattern(side: &Side, little_master: bool) -> Option<WinKind> {
    if side.off != 0 || side.bar != 0 {
        return None;
    }
    let p = &side.points;
    let all = |range: std::ops::Range<usize>, n: u8| p[range].iter().all(|&c| c == n);
    if p[23] == 15 {
        Some(WinKind::Meistari)
    } else if all(21..24, 5) {
        Some(WinKind::StuttiMunkur)
    } else if all(19..24, 3) {
        Some(WinKind::LangiMunkur)
    } else if all(18..23, 3) {
        Some(WinKind::LangiHryggur)
    } else if little_master && p[22] == 7 && p[23] == 8 {
        Some(WinKind::LitillMeistari)
    } else {
        None
    }
}

/// The pattern or Úttekt that a step has just completed, halved for a monk
/// when dice of the throw remain.
pub fn completed_after_step(side: &Side, little_master: bool, dice_left: bool) -> Option<WinKind> {
    if side.off == 15 {
        return Some(WinKind::Uttekt);
    }
    let kind = pattern(side, little_master)?;
    Some(if dice_left { kind.halved() } else { kind })
}

/// The patterns that end the bonus throws of §8.1, always at full value.
pub fn bonus_pattern(side: &Side) -> Option<WinKind> {
    pattern(side, false).filter(|k| {
        matches!(
            k,
            WinKind::Meistari | WinKind::StuttiMunkur | WinKind::LangiMunkur
        )
    })
}

/// Jan against `loser` (the side not moving) at the end of a turn: more
/// stones on the bar than entry points available to him.
pub fn jan_against(available_entries: u8, bar: u8) -> Option<WinKind> {
    if bar == 0 || bar <= available_entries {
        None
    } else if available_entries == 0 {
        Some(WinKind::StorJan)
    } else {
        Some(WinKind::Jan)
    }
}

/// The win when a turn ends with these candidates: the highest base value,
/// a tie going to Jan, Mar added except to a jan.
pub fn decide(completed: Option<WinKind>, jan: Option<WinKind>, hit: bool) -> Option<Win> {
    let kind = match (completed, jan) {
        (None, None) => return None,
        (Some(k), None) | (None, Some(k)) => k,
        (Some(c), Some(j)) => {
            if c.half_points() > j.half_points() {
                c
            } else {
                j
            }
        }
    };
    Some(Win {
        kind,
        mar: hit && !kind.is_jan(),
    })
}
