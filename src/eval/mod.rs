//! Position evaluation: the input encoding, the fast network, the model
//! file, the exact bear-off database, the class dispatch that ties them
//! together, and PubEval, Tesauro's public linear evaluator kept as a
//! fixed baseline opponent.

pub mod bearoff;
pub mod bearoff_two_sided;
pub mod encoding;
mod evaluator;
pub mod fast_net;
pub mod game_net;
pub mod game_plan;
pub mod model_file;
pub mod network;
mod probs;
pub mod prune_net;
pub mod pubeval;
mod shipped;

pub use encoding::NetKind;
pub use evaluator::{Evaluator, PositionClass, contact_net};
pub use fast_net::FirstLayerMemo;
pub use model_file::{Model, ModelError, ModelMeta};
pub use probs::Probs;
pub use shipped::{model_or_shipped, shipped_model};
