//! Warnings about valid models that are probably not what was meant.

use crate::diag::Diagnostic;
use crate::ir::Program;

/// Append warnings about `program` to `diags`.
pub fn lint(program: &Program, diags: &mut Vec<Diagnostic>) {
    let _ = (program, diags);
}
