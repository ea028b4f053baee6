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

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}
