//! Position evaluators. For now only PubEval, Tesauro's public linear
//! evaluator: the fixed baseline opponent, and what `analyze` ranks moves
//! with until our own network is trained.

pub mod pubeval;
