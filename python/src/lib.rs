//! `sit._sit`: the extension module of the Python package `sit` (check, load, run, sweep).
//!
//! Every entry point runs its Rust code inside `guard`, which turns a fault of the
//! model into a [`ModelFault`] exception and any other panic into a [`SitError`] naming
//! it as a bug, so that no panic unwinds into the interpreter. Long
//! runs and sweeps release the GIL ([`Python::detach`]) and take it back only to call a
//! progress callback and to check for Ctrl-C.
//!
//! The module's items are in `module.rs`, included here and by the example target
//! `sit_extension` (`extension.rs`, which `cargo test --workspace` builds for
//! `cli/tests/python.rs`): one text, two roots, so cargo sees two files.

include!("module.rs");
