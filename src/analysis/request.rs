//! What a front end may ask, checked once: the facade owns the limits
//! (the deepest search, a rollout's trials, depth, truncation and
//! candidates), so the command line, the server and the UBGI engine
//! accept and refuse the same requests with the same words. A front end
//! turns its own input (flags, a query string) into these values and
//! calls `check`; it never compares a ply or a trial count itself.

use crate::rollout::RolloutSettings;
use crate::search::{MoveFilter, OnePlyPass};

/// The deepest search a front end asks for.
pub const MAX_PLY: u8 = 3;

/// The deepest search a dev-set score runs (each of thousands of
/// decisions at 3-ply would take an hour).
pub const MAX_SCORE_PLY: u8 = 2;

/// The deepest search for Icelandic and two-player Icehouse Kotra: their
/// generic search allocates turns as it goes, and 2-ply already takes
/// seconds there.
pub const MAX_OTHER_GAME_PLY: u8 = 2;

/// Four-player Icehouse Kotra: 0 is the greedy choice, 1 max-n over the
/// next seat's reply.
pub const MAX_FOUR_PLAYER_PLY: u8 = 1;

/// The deepest checker play inside a rollout's trials: each trial's move
/// costs a search, so deeper would take hours for a default rollout.
pub const MAX_ROLLOUT_PLY: u8 = 2;

/// The most trials one rollout may play (36³, 36 times gnubg's default).
pub const MAX_TRIALS: u32 = 46_656;

/// The most candidate moves one rollout of a roll may play out.
pub const MAX_CANDIDATES: usize = 20;

/// Why a request is refused; the words name the setting as both the
/// command line (`--trials`) and the server (`trials`) spell it, without
/// the dashes.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum RequestError {
    #[error("ply {0}: 0 to {MAX_PLY}")]
    Ply(i64),
    #[error("ply {0}: a rollout's checker play is 0 to {MAX_ROLLOUT_PLY}-ply")]
    RolloutPly(i64),
    #[error("ply {0}: a dev-set score is 0 to {MAX_SCORE_PLY}-ply")]
    ScorePly(i64),
    #[error("ply {ply}: {game} is analysed 0 to {max}-ply")]
    GamePly {
        ply: i64,
        game: &'static str,
        max: u8,
    },
    #[error("filter {0}: at least one move kept, within a window of 0 or more")]
    Filter(String),
    #[error("middle {0}: skip, or at least one move kept within a window of 0 or more")]
    Middle(String),
    #[error("trials {0}: 1 to {MAX_TRIALS}")]
    Trials(u64),
    #[error("candidates {0}: 1 to {MAX_CANDIDATES}")]
    Candidates(u64),
    #[error(
        "truncate 0: at least 1 (truncating before the first move would report the evaluator's own value as a rollout; leave it out to play every trial to the end)"
    )]
    TruncateZero,
}

/// `ply` as a depth, refused (as `error`) beyond `max`.
fn ply_within(ply: i64, max: u8, error: RequestError) -> Result<u8, RequestError> {
    u8::try_from(ply).ok().filter(|&p| p <= max).ok_or(error)
}

/// A search depth as gnubg counts plies, refused beyond [`MAX_PLY`].
pub fn search_ply(ply: i64) -> Result<u8, RequestError> {
    ply_within(ply, MAX_PLY, RequestError::Ply(ply))
}

/// A dev-set score's depth, refused beyond [`MAX_SCORE_PLY`].
pub fn score_ply(ply: i64) -> Result<u8, RequestError> {
    ply_within(ply, MAX_SCORE_PLY, RequestError::ScorePly(ply))
}

/// The depth of an analysis of one of the other two games (`game` its
/// name), refused beyond its limit ([`MAX_OTHER_GAME_PLY`], or
/// [`MAX_FOUR_PLAYER_PLY`] with four players).
pub fn game_ply(ply: i64, game: &'static str, four_players: bool) -> Result<u8, RequestError> {
    let max = if four_players {
        MAX_FOUR_PLAYER_PLY
    } else {
        MAX_OTHER_GAME_PLY
    };
    ply_within(ply, max, RequestError::GamePly { ply, game, max })
}

/// A rollout as asked: with dice, `candidates` moves of the roll; without,
/// the position and its cube decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutRequest {
    pub trials: u64,
    pub ply: i64,
    /// A searching play's first filter (`None`: the rollouts' own for the
    /// ply, [`crate::rollout::rollout_filter`]).
    pub filter: Option<MoveFilter>,
    /// A 2-ply play's 1-ply pass (`None`: the rollouts' own,
    /// [`crate::rollout::rollout_one_ply_pass`]).
    pub middle: Option<OnePlyPass>,
    pub truncate: Option<u32>,
    pub seed: u64,
    pub candidates: u64,
    pub variance_reduction: bool,
}

impl Default for RolloutRequest {
    /// gnubg's defaults: 1296 trials, 0-ply play, no truncation.
    fn default() -> RolloutRequest {
        RolloutRequest {
            trials: 1296,
            ply: 0,
            filter: None,
            middle: None,
            truncate: None,
            seed: 1,
            candidates: 8,
            variance_reduction: true,
        }
    }
}

/// A checked rollout request: its settings and how many candidates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckedRollout {
    pub settings: RolloutSettings,
    pub candidates: usize,
}

impl RolloutRequest {
    pub fn check(&self) -> Result<CheckedRollout, RequestError> {
        let trials = u32::try_from(self.trials)
            .ok()
            .filter(|t| (1..=MAX_TRIALS).contains(t))
            .ok_or(RequestError::Trials(self.trials))?;
        let ply = ply_within(
            self.ply,
            MAX_ROLLOUT_PLY,
            RequestError::RolloutPly(self.ply),
        )?;
        let candidates = usize::try_from(self.candidates)
            .ok()
            .filter(|c| (1..=MAX_CANDIDATES).contains(c))
            .ok_or(RequestError::Candidates(self.candidates))?;
        if self.truncate == Some(0) {
            return Err(RequestError::TruncateZero);
        }
        let filter = self
            .filter
            .map(|f| f.checked().map_err(|_| RequestError::Filter(f.to_string())))
            .transpose()?;
        let middle = self
            .middle
            .map(|p| p.checked().map_err(|_| RequestError::Middle(p.to_string())))
            .transpose()?;
        Ok(CheckedRollout {
            settings: RolloutSettings {
                trials,
                ply,
                filter,
                middle,
                truncate: self.truncate,
                seed: self.seed,
                variance_reduction: self.variance_reduction,
            },
            candidates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_refuse_just_past_them_and_accept_at_them() {
        assert_eq!(search_ply(3), Ok(3));
        assert_eq!(search_ply(4), Err(RequestError::Ply(4)));
        assert_eq!(search_ply(-1), Err(RequestError::Ply(-1)));
        assert_eq!(score_ply(2), Ok(2));
        assert_eq!(score_ply(3), Err(RequestError::ScorePly(3)));
        assert_eq!(game_ply(2, "Icelandic Kotra", false), Ok(2));
        assert!(game_ply(3, "Icelandic Kotra", false).is_err());
        assert_eq!(game_ply(1, "Icehouse Kotra", true), Ok(1));
        assert_eq!(
            game_ply(2, "Icehouse Kotra", true).unwrap_err().to_string(),
            "ply 2: Icehouse Kotra is analysed 0 to 1-ply"
        );
        let ok = RolloutRequest {
            trials: u64::from(MAX_TRIALS),
            ply: 2,
            truncate: Some(1),
            candidates: 20,
            ..RolloutRequest::default()
        };
        let checked = ok.check().unwrap();
        assert_eq!(checked.settings.trials, MAX_TRIALS);
        assert_eq!(checked.candidates, 20);
        for (bad, why) in [
            (RolloutRequest { trials: 0, ..ok }, RequestError::Trials(0)),
            (
                RolloutRequest {
                    trials: u64::from(MAX_TRIALS) + 1,
                    ..ok
                },
                RequestError::Trials(u64::from(MAX_TRIALS) + 1),
            ),
            (RolloutRequest { ply: 3, ..ok }, RequestError::RolloutPly(3)),
            (
                RolloutRequest {
                    middle: Some(OnePlyPass::Filter(MoveFilter {
                        keep: 0,
                        window: 0.1,
                    })),
                    ..ok
                },
                RequestError::Middle("0:0.1".into()),
            ),
            (
                RolloutRequest {
                    candidates: 0,
                    ..ok
                },
                RequestError::Candidates(0),
            ),
            (
                RolloutRequest {
                    truncate: Some(0),
                    ..ok
                },
                RequestError::TruncateZero,
            ),
        ] {
            assert_eq!(bad.check(), Err(why));
        }
    }
}
