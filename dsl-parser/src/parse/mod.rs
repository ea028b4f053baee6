//! Parsing: source text to the syntax tree, with limits and readable syntax errors.
//!
//! A hand-written lexer (`lexer`) and recursive-descent parser
//! (`parser`, `expr`) with one token of lookahead: no backtracking, so
//! parsing is linear in the file's length, and a syntax error is followed by
//! skipping to the end of its statement and going on, so one pass reports up
//! to [`MAX_SYNTAX_ERRORS`] errors. `docs/language.md` describes the
//! language; the doc comment of each parsing function gives the grammar
//! production it reads.

mod error;
mod expr;
mod lexer;
mod parser;

use crate::ast::File;
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// Deepest nesting of brackets and block comments accepted.
pub const MAX_NESTING: usize = 64;
/// Most operators in one expression.
pub const MAX_OPERATORS: usize = 1000;
/// Largest source file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;
/// Most syntax errors reported for one file.
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// Parse one file. `Err` holds its syntax errors (at least one, at most
/// [`MAX_SYNTAX_ERRORS`]), in source order.
pub fn parse_file(file: FileId, text: &str) -> Result<File, Vec<Diagnostic>> {
    if text.len() > MAX_FILE_BYTES {
        return Err(vec![Diagnostic::error(
            "E0003",
            Span::new(file, 0, 0),
            format!(
                "the file is too large ({} bytes; the limit is {} bytes)",
                text.len(),
                MAX_FILE_BYTES
            ),
        )]);
    }
    let lexed = lexer::lex(file, text).map_err(|d| vec![d])?;
    parser::Parser::new(file, text, lexed).file()
}
