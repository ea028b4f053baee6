//! `sitc fmt`: the one canonical layout of `.sit` files.
//!
//! The formatter works on the parser's tokens and the comments between them,
//! not on the syntax tree: every token is kept, in order (declaration groups
//! aside, below), so the formatted file parses to the same tree (the tests
//! check that its checked IR is the same), and a construct the layout has no rule for keeps the spacing of
//! the source around its unfamiliar punctuation. The layout:
//!
//! - one declaration per statement: `real a = 1, b;` is written `real a =
//!   1;` and `real b;`, each with the group's doc comments and attributes
//!   (as the parser reads the group), so each name has its own line, doc and
//!   trailing comment (a `//` comment after a group written on one line is
//!   about the group: it goes on a line of its own above the declarations);
//! - one statement per line; a block's contents indented by four spaces per
//!   level, its `}` on a line of its own; `{}` for an empty block;
//! - one space around binary operators, `=`, `=>` and comparisons, after
//!   `,` and `:`; none inside brackets, around `.`, after a prefix `-` or
//!   `!`, or between a procedure (or `reset`) and its `(`;
//! - a line break inside a statement is kept, the next line indented one
//!   level more (or to the depth of the open brackets); a line longer than
//!   100 columns is broken there too, before a binary operator or after a
//!   `,` (the last such place that fits, see `wrap`);
//! - at most one blank line in a row, none after `{` or before `}`, always
//!   one between top-level models;
//! - comments and doc comments kept where they are: a comment after code on
//!   its line stays there, and the trailing comments of consecutive lines
//!   are aligned two spaces after the longest line; a comment on a line of
//!   its own stays on a line of its own, indented with the code.
//!
//! A file with a syntax error is not formatted: [`format()`] returns the
//! parser's diagnostics.

mod decls;
mod layout;
mod pieces;
mod wrap;

use sit_parser::Diagnostic;
use sit_parser::source::FileId;

/// The canonical layout of `text` (the file `file` of the caller's source
/// map, for the spans of errors), or its syntax errors.
pub fn format(file: FileId, text: &str) -> Result<String, Vec<Diagnostic>> {
    sit_parser::parse::parse_file(file, text)?;
    let tokens = sit_parser::parse::tokenize(file, text).map_err(|d| vec![d])?;
    let pieces = decls::split(&pieces::pieces(text, &tokens));
    Ok(layout::layout(&pieces))
}

/// A unified diff from `old` to `new`, with `name` in its headers (three
/// lines of context), for `sitc fmt --check`.
pub fn diff(name: &str, old: &str, new: &str) -> String {
    let mut out = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    /// The layout of `text` without the parse (for syntax the parser does not
    /// have yet).
    fn lay(text: &str) -> String {
        let tokens = sit_parser::parse::tokenize(0, text).unwrap();
        crate::layout::layout(&crate::pieces::pieces(text, &tokens))
    }

    #[test]
    fn unknown_punctuation_keeps_the_source_spacing() {
        assert_eq!(
            lay("model M{zone a{x=b@c;y=d @ e;}}"),
            "model M {\n    zone a {\n        x = b@c;\n        y = d @ e;\n    }\n}\n"
        );
        assert_eq!(lay(&lay("model M{x=b@c;}")), lay("model M{x=b@c;}"));
    }

    #[test]
    fn a_modes_states_stay_on_its_line() {
        assert_eq!(
            lay("model M{output mode light{red,green ,yellow,}\nlight:red->green when t>1{t=0;}}"),
            "model M {\n    output mode light { red, green, yellow, }\n    \
             light: red -> green when t > 1 {\n        t = 0;\n    }\n}\n"
        );
    }
}
