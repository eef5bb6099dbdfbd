//! The network shipped in models/, compiled into the binary so that
//! `kotra-ai analyze` works from anywhere without a models/ folder.

use super::model_file::{Model, ModelError};

static SHIPPED: &[u8] = include_bytes!("../../models/kotra.net");

/// The shipped model (checked like any model file).
pub fn shipped_model() -> Result<Model, ModelError> {
    Model::from_bytes(SHIPPED)
}
