//! A position of Icehouse Kotra: the board, every seat's stash and scored
//! pieces, who moves, and whether (and by whom) the game was ended.

use super::board::{Cell, SQUARES, Seat};

/// Everything about a game in progress, for two or four players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub cells: [Cell; SQUARES],
    /// Pieces waiting to enter, by seat and size (pawn, drone, queen).
    pub stash: [[u8; 3]; 4],
    /// Pieces scored, by seat and size.
    pub scored: [[u8; 3]; 4],
    /// 2 (South and North) or 4.
    pub players: u8,
    pub to_move: Seat,
    /// The seat whose play ended the game.
    pub ended_by: Option<Seat>,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Seats sharing the win (one bit per seat index); one bit unless tied
    /// leaders of a four-player game share it.
    pub winners: u8,
    pub ended_by: Seat,
}

impl Outcome {
    pub fn is_winner(&self, seat: Seat) -> bool {
        self.winners & (1 << seat.index()) != 0
    }

    /// The share of the win that goes to `seat` (1, ½, ⅓ or 0).
    pub fn share(&self, seat: Seat) -> f32 {
        if self.is_winner(seat) {
            1.0 / self.winners.count_ones() as f32
        } else {
            0.0
        }
    }
}

impl Position {
    /// The start: an empty board and full stashes (5 of each size with two
    /// players, 3 with four), South to move.
    pub fn starting(players: u8) -> Position {
        let n = Self::per_size_for(players);
        let mut stash = [[0; 3]; 4];
        for seat in Self::seats_for(players) {
            stash[seat.index()] = [n; 3];
        }
        Position {
            cells: [Cell::EMPTY; SQUARES],
            stash,
            scored: [[0; 3]; 4],
            players,
            to_move: Seat::South,
            ended_by: None,
        }
    }

    fn per_size_for(players: u8) -> u8 {
        if players == 4 { 3 } else { 5 }
    }

    fn seats_for(players: u8) -> &'static [Seat] {
        if players == 4 {
            &Seat::ALL
        } else {
            &[Seat::South, Seat::North]
        }
    }

    /// Pieces of each size a seat owns.
    pub fn per_size(&self) -> u8 {
        Self::per_size_for(self.players)
    }

    /// The seats in play, in turn order.
    pub fn seats(&self) -> &'static [Seat] {
        Self::seats_for(self.players)
    }

    /// The seat after `seat` in turn order.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        if self.players == 4 {
            Seat::from_index(seat.index() + 1)
        } else {
            Seat::from_index(seat.index() + 2)
        }
    }

    /// Points of a seat: pieces scored, whatever their size.
    pub fn points(&self, seat: Seat) -> u32 {
        self.scored[seat.index()].iter().map(|&n| n as u32).sum()
    }

    pub fn stash_empty(&self, seat: Seat) -> bool {
        self.stash[seat.index()] == [0; 3]
    }

    /// The same position with the next seat to move.
    pub fn passed(&self) -> Position {
        let mut p = *self;
        p.to_move = self.next_seat(self.to_move);
        p
    }

    /// Whether the game is over: ended by a play, or, for a position read
    /// from text (which does not say who ended it), a score that only an
    /// ending play makes (§7: any pawn scored, or every piece of one
    /// size). Such a position has a result, not an analysis.
    pub fn is_finished(&self) -> bool {
        self.ended_by.is_some()
            || self.seats().iter().any(|s| {
                let scored = self.scored[s.index()];
                scored[0] > 0 || scored.contains(&self.per_size())
            })
    }

    /// The result once the game has ended: the most points wins; among tied
    /// leaders the seat that ended the game wins, and if it is not among
    /// them (four players only) the leaders share.
    pub fn outcome(&self) -> Option<Outcome> {
        let ender = self.ended_by?;
        let best = self.seats().iter().map(|&s| self.points(s)).max()?;
        let leaders = self
            .seats()
            .iter()
            .filter(|&&s| self.points(s) == best)
            .fold(0u8, |m, &s| m | 1 << s.index());
        let winners = if leaders & (1 << ender.index()) != 0 {
            1 << ender.index()
        } else {
            leaders
        };
        Some(Outcome {
            winners,
            ended_by: ender,
        })
    }

    /// A seat owns at most its pieces of each size across board, stash
    /// and score.
    pub fn seat_consistent(&self, seat: Seat) -> bool {
        let i = seat.index();
        let mut count = [0u8; 3];
        for c in self.cells {
            if c.seat() == Some(seat) {
                count[c.size() as usize - 1] += 1;
            }
        }
        (0..3).all(|k| count[k] + self.stash[i][k] + self.scored[i][k] <= self.per_size())
    }

    pub fn is_consistent(&self) -> bool {
        self.seats().iter().all(|&s| self.seat_consistent(s))
    }
}
