//! Sit models embedded through a build script: `build.rs` runs `sit_build::Builder`,
//! and each module includes one generated file.
//!
//! The crate denies every warning and clippy's default lints, and forbids `unsafe`, so
//! building it (`cargo build -p embed-build`, `cargo clippy -p embed-build`) checks that
//! generated code is warning-free and safe without any allowance on the including side.
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// The elastic hoop of `examples/models/hoop.sit`.
pub mod hoop {
    include!(concat!(env!("OUT_DIR"), "/hoop.rs"));
}

/// `models/features.sit`: every feature of the language, with its import `parts.sit`.
pub mod features {
    include!(concat!(env!("OUT_DIR"), "/features.rs"));
}

/// Every model of `examples/models`, one module per file (compile check of the
/// generated code of each example).
pub mod all {
    include!(concat!(env!("OUT_DIR"), "/all_models.rs"));
}
