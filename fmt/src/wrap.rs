//! Long lines wrapped: where a line longer than the width is broken, before a binary operator or after a `,`.
//!
//! The layout keeps the line breaks of the source inside a statement; this
//! pass adds breaks where a laid-out line is longer than [`WIDTH`]
//! columns, and the layout runs again (the new line is a continuation,
//! indented one level more than the statement, or to the depth of its open
//! brackets). Of the places a line may break that leave its first part
//! within the width, the last of those of the lowest [`rank`] is taken: inside
//! the fewest brackets, and there before the operator that binds least (after
//! a `,`, then before `=>`, `|`, `&`, a comparison, `+`/`-`, `*`/`/`, `^`), so a
//! break splits the outer expression before an inner one and `a + b * (c)`
//! before `+`, not inside the product; or the first place if none fits; a line
//! with no such place (a long number, string or comment) stays long.
//! Formatting the result again finds the same lines: the breaks are kept,
//! and no line is left that this pass would break.

use crate::layout::Line;

/// The width in columns (characters) that lines are wrapped to.
pub(crate) const WIDTH: usize = 100;

/// How tightly the binary operator `op` binds (a break before a looser one is
/// preferred): 0 is a `,` (the break is after it), 1 `=>`, 2 `|`, 3 `&`, 4 a
/// comparison, 5 `+` and `-`, 6 `*` and `/`, 7 `^`.
pub(crate) fn binding(op: &str) -> usize {
    match op {
        "=>" => 1,
        "|" => 2,
        "&" => 3,
        "<" | "<=" | ">" | ">=" | "==" | "!=" => 4,
        "+" | "-" => 5,
        "*" | "/" => 6,
        "^" => 7,
        _ => 0,
    }
}

/// The rank of a place to break: inside `depth` brackets, before an operator
/// binding as tightly as `level` ([`binding`]). Lower ranks are preferred.
pub(crate) fn rank(depth: usize, level: usize) -> usize {
    depth * 8 + level
}

/// The pieces before which to break the lines of `lines` that are too long
/// (one break per line; the caller lays out again and asks again).
pub(crate) fn breaks(lines: &[Line], indent: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for l in lines {
        if l.code.contains('\n') {
            continue;
        }
        let col = |at: usize| l.indent * indent + l.code[..at].trim_end().chars().count();
        if col(l.code.len()) <= WIDTH {
            continue;
        }
        let fitting = || l.breaks.iter().filter(|&&(_, at, _)| col(at) <= WIDTH);
        let outer = fitting().map(|&(_, _, rank)| rank).min();
        let fits = fitting().rfind(|&&(_, _, rank)| Some(rank) == outer);
        if let Some(&(piece, _, _)) = fits.or(l.breaks.first()) {
            out.push(piece);
        }
    }
    out
}
