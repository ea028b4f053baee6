//! A Sit model embedded with the proc-macro: `sit_macros::include_model!` compiles
//! `examples/models/hoop.sit` when this crate is compiled, and any edit of the model
//! rebuilds the crate.
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// The elastic hoop of `examples/models/hoop.sit`.
pub mod hoop {
    sit_macros::include_model!("../models/hoop.sit");
}
