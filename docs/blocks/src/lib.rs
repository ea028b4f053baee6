//! Every `rust` block of the project's pages, compiled; statement blocks also run as tests.
//!
//! The build script writes each block as a module (see `build.rs`); blocks see the example
//! models through [`prelude`] (`hoop::Hoop`, `VanDerPol`, `VanDerPolBatch`, ...), generated
//! into `OUT_DIR` as a `sit_build::Builder` would. [`page`] reads the blocks and their
//! markers, for the build script and for the docs test of `sitc` (`cli/tests/docs`), which
//! runs the `sh`, `sit` and `toml` blocks.

pub mod page;

/// The example models of `examples/models` (top level), one module each, re-exported.
#[allow(missing_docs)]
pub mod prelude {
    include!(concat!(env!("OUT_DIR"), "/prelude.rs"));
}

include!(concat!(env!("OUT_DIR"), "/blocks.rs"));
