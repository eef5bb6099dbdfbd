//! The network shipped in models/, compiled into the binary so that
//! `kotra-ai analyze` works from anywhere without a models/ folder.

use super::model_file::{Model, ModelError};

static SHIPPED: &[u8] = include_bytes!("../../models/kotra.net");

/// The shipped model (checked like any model file).
pub fn shipped_model() -> Result<Model, ModelError> {
    Model::from_bytes(SHIPPED)
}

/// The model in `path`, or the shipped one when there is no path.
pub fn model_or_shipped(path: Option<&std::path::Path>) -> Result<Model, ModelError> {
    match path {
        Some(p) => Model::load(p),
        None => shipped_model(),
    }
}
