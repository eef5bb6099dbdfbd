//! The neural evaluator: picks the exact bear-off database or the network
//! for the position's class and returns the five probabilities.

use super::bearoff::BearoffDb;
use super::encoding::{CONTACT_INPUTS, NetKind, encode};
use super::fast_net::FastNet;
use super::model_file::Model;
use super::probs::Probs;
use crate::backgammon::{GameResult, Position};

/// Which evaluation a position gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionClass {
    /// Both sides have every checker home, no contact: exact database.
    BearOff,
    /// No contact left: race network.
    Race,
    /// Contact network.
    Contact,
}

impl PositionClass {
    pub fn of(pos: &Position) -> PositionClass {
        if pos.has_contact() {
            PositionClass::Contact
        } else if super::bearoff::home_board(pos).is_some()
            && super::bearoff::home_board(&pos.swap()).is_some()
        {
            PositionClass::BearOff
        } else {
            PositionClass::Race
        }
    }

    /// The network that evaluates this class, if one does.
    pub fn net(self) -> Option<NetKind> {
        match self {
            PositionClass::BearOff => None,
            PositionClass::Race => Some(NetKind::Race),
            PositionClass::Contact => Some(NetKind::Contact),
        }
    }
}

/// A model plus the bear-off database: evaluates any position.
pub struct Evaluator {
    model: Model,
    contact: FastNet,
    race: FastNet,
    bearoff: &'static BearoffDb,
}

impl Evaluator {
    pub fn new(model: Model) -> Evaluator {
        Evaluator {
            contact: FastNet::from(&model.contact),
            race: FastNet::from(&model.race),
            model,
            bearoff: BearoffDb::get(),
        }
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Probabilities for the side on roll of `pos` (a game still going).
    #[inline]
    pub fn probs(&self, pos: &Position) -> Probs {
        match PositionClass::of(pos) {
            PositionClass::BearOff => match super::bearoff_two_sided::TwoSidedDb::get().win(pos) {
                // Small endings: exact (no gammons are possible there).
                Some(win) => Probs([win, 0.0, 0.0, 0.0, 0.0]),
                None => self
                    .bearoff
                    .probs(pos)
                    .expect("bear-off class has both home boards"),
            },
            PositionClass::Race => self.net_probs(NetKind::Race, pos),
            PositionClass::Contact => self.net_probs(NetKind::Contact, pos),
        }
    }

    /// The network's own opinion of `pos`, whatever its class.
    #[inline]
    pub fn net_probs(&self, kind: NetKind, pos: &Position) -> Probs {
        let mut buf = [0f32; CONTACT_INPUTS];
        let input = &mut buf[..kind.inputs()];
        encode(pos, kind, input);
        let net = match kind {
            NetKind::Contact => &self.contact,
            NetKind::Race => &self.race,
        };
        Probs(net.forward(input)).consistent()
    }

    /// Probabilities for the side that just moved, `after` being the board
    /// after its move from its own view: exact when the move ended the game.
    #[inline]
    pub fn after_move(&self, after: &Position) -> Probs {
        match GameResult::of_mover_win(after) {
            Some(result) => Probs::won(result),
            None => self.probs(&after.swap()).flip(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(
            PositionClass::of(&Position::starting()),
            PositionClass::Contact
        );
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        me[3] = 5;
        opp[2] = 4;
        let bearoff = Position::from_sides(&me, &opp).unwrap();
        assert_eq!(PositionClass::of(&bearoff), PositionClass::BearOff);
        me[3] = 4;
        me[9] = 1;
        assert_eq!(
            PositionClass::of(&Position::from_sides(&me, &opp).unwrap()),
            PositionClass::Race
        );
    }

    #[test]
    fn finished_games_are_exact() {
        let eval = Evaluator::new(Model::random(16, 8, 1));
        let me = [0u8; 25];
        let mut opp = [0u8; 25];
        opp[20] = 15; // all on the opponent's 21 point = the mover's 4 point
        let after = Position::from_sides(&me, &opp).unwrap();
        assert_eq!(eval.after_move(&after), Probs::won(GameResult::Backgammon));
    }
}
