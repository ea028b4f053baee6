//! Syntax of the Sit compiler: the lexer and parser of `.sit` files, the syntax tree,
//! source files and spans, diagnostics and their rendering, and the loading of a root
//! file with its imports. The checker, the IR and the lowering are in `sit-middle`.
//!
//! ```
//! let file = sit_parser::parse::parse_file(0, "model M { real x = 1; x = integral(-x); }");
//! assert_eq!(file.expect("no syntax error").models[0].name.text, "M");
//! ```
#![deny(missing_docs)]

pub mod ast;
pub mod diag;
pub mod load;
pub mod parse;
pub mod report;
pub mod source;
pub mod suggest;

pub use diag::{Diagnostic, Severity};
pub use report::Report;
pub use source::{SourceMap, Span};

use std::path::PathBuf;

/// The root file could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{path}`: {reason}")]
pub struct ReadError {
    /// The path given.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}
