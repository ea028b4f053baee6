//! The extension module `sit._sit` as the example target `sit_extension`, which `cargo
//! test --workspace` builds (an example is built, not run): `cli/tests/python.rs` runs the
//! package's tests on it. The same items as the library (`module.rs`).

include!("module.rs");
