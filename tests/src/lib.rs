//! Helpers shared by the workspace-level tests (paths, oracle CSV reading).

use std::path::PathBuf;

pub mod models;
pub mod oracle;
pub mod physics;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}
