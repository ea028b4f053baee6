//! What the front ends that run Sit models (`sitc run` and `sweep`, the Python package)
//! share around the interpreter: loading a model from a file through the driver into an
//! instance ([`load`]).
#![deny(missing_docs)]

pub mod load;

pub use load::{LoadError, Loaded, load_file, load_file_logged, load_file_with};
pub use sit_driver::{RootError, select_root};
