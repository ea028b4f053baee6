//! Models whose names, doc comments and literals are hostile to a code generator: Rust
//! keywords (`type`, `fn`, `self`, `Self`, `crate`, `super`, `match`, `async`, `gen`),
//! names of generated items and of the crates the code names (`new`, `step`,
//! `VARIABLES`, `get`, `set`, `Model`, `f64`, `Default`, `sit_runtime`, `core`, `std`),
//! a model and a variable of the same name, doc comments holding `*/`, quotes,
//! backslashes, attributes and code, edge literals (`-0`, subnormals, 300-digit
//! literals) and Cyrillic names.
//!
//! The crate denies every warning and clippy's default lints, so building it checks that
//! the generated code compiles and is warning-free; `tests/hostile.rs` checks that it
//! runs like the interpreter, to the bit.
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// `models/keywords.sit`: the model `type` (struct `r#type`).
pub mod keywords {
    include!(concat!(env!("OUT_DIR"), "/keywords.rs"));
}

/// `models/collisions.sit`: models `sit_runtime`, `Model` and `f64` (struct `f64_`).
pub mod collisions {
    include!(concat!(env!("OUT_DIR"), "/collisions.rs"));
}

/// `models/docs.sit`: hostile doc comments, edge literals and the Cyrillic `Маятник`.
pub mod docs {
    include!(concat!(env!("OUT_DIR"), "/docs.rs"));
}

/// `models/modes.sit`: modes and states named `type`, `self`, `Self`, `a_b` and `aB`,
/// `ящик`, and a mode enum whose name a model already has.
pub mod modes {
    include!(concat!(env!("OUT_DIR"), "/modes.rs"));
}
