//! A Sit model embedded with the proc-macro: `sit_macros::include_model!` compiles
//! `examples/models/hoop.sit` when this crate is compiled, and any edit of the model
//! rebuilds the crate. `include_model!(PATH, batch)` adds the batch form of each model.
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// The elastic hoop of `examples/models/hoop.sit`.
pub mod hoop {
    sit_macros::include_model!("../models/hoop.sit");
}

/// The Van der Pol oscillator of `examples/models/van_der_pol.sit`, with its batch form
/// `VanDerPolBatch<N>`.
pub mod van_der_pol {
    sit_macros::include_model!("../models/van_der_pol.sit", batch);
}
