//! Middle end of the Sit compiler under one name: the checker (`sit-check`: names,
//! types, units and rules of parsed `.sit` files into the checked IR, its lints and
//! `#[allow]`) and the lowering (`sit-lower`, as [`lower`]: the methods rewritten into
//! plain rules and the lowered step the back ends run), re-exported for the crates that
//! use both.
//!
//! ```
//! let out = sit_middle::check_source("hoop.sit", "model M { real x = 1; x = integral(-x); }");
//! assert!(!out.has_errors());
//! let program = out.program.unwrap();
//! assert_eq!(program.models[0].name, "M");
//! ```
#![deny(missing_docs)]

pub use sit_check::{
    Diagnostic, Output, ReadError, Report, Severity, SourceMap, Span, allow, ast, check,
    check_bytes, check_bytes_with, check_file, check_source, diag, ir, lint, load, parse, report,
    rows, source, suggest, term,
};
pub use sit_lower as lower;

/// The unit algebra and the unit check (`sit_check::units`), with the units of a lowered
/// variable list (`sit_lower`'s labels).
pub mod units {
    pub use sit_check::units::*;
    pub use sit_lower::{labelled, variable_units, variable_units_with};
}
