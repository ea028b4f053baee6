//! Helpers shared by the workspace-level tests (paths, oracle CSV reading).

use std::path::PathBuf;

pub mod models;
pub mod oracle;
pub mod physics;

/// Every model `build.rs` compiles with `sit-codegen` (the examples, the random files,
/// their rk4, dopri5 and tsit5 twins), built once here for the test binaries that step
/// them (bit identity, phases, sub-steps) rather than once in each.
#[allow(missing_docs, dead_code)]
pub mod compiled {
    include!(concat!(env!("OUT_DIR"), "/compiled.rs"));
}

/// Some example and random models built for the event log (`build.rs`, `logged`), for
/// `tests/events.rs`: here, built once without optimization, rather than inside that test
/// binary with the test profile's (docs/performance.md, "CI time").
#[allow(missing_docs, dead_code, clippy::all)]
pub mod logged {
    include!(concat!(env!("OUT_DIR"), "/logged.rs"));
}

/// Models built to count their table reads (`build.rs`, `counted`), for
/// `tests/bit_identity.rs`.
#[allow(missing_docs, dead_code)]
pub mod counted {
    include!(concat!(env!("OUT_DIR"), "/counted.rs"));
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}
