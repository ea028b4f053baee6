//! Lookup tables: their data, checked, and what they give beyond their grid.

use crate::source::Span;

/// A lookup table (`table NAME(ARGS) = … CLAMP_OR_EXTRAPOLATE;` or `… from "FILE.csv" …`):
/// constant data read as a pure function of one or two reals, by
/// `sit_runtime::table::lookup1` / `lookup2` (whose documentation states the rule at,
/// between and beyond the grid points). Checked: every grid strictly increasing with at
/// least two points, every number finite, `values.len()` the product of the grids'.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupTable {
    /// The table's name as declared.
    pub name: String,
    /// Where the name is declared.
    pub span: Span,
    /// The argument names as declared (one or two): they name the grids in messages.
    pub args: Vec<String>,
    /// One grid per argument, in argument order (one or two).
    pub grids: Vec<Vec<f64>>,
    /// The values, the first argument's index major: `values[i * m + j]` is the value at
    /// `(grids[0][i], grids[1][j])`, `m = grids[1].len()` (in 1-D, `values[i]`).
    pub values: Vec<f64>,
    /// What the table gives beyond its grid.
    pub beyond: Beyond,
    /// The CSV file the data was read from (as resolved against the `.sit` file's
    /// folder), `None` for an inline table.
    pub file: Option<std::path::PathBuf>,
}

impl LookupTable {
    /// The key naming this declaration in `sit_runtime::table::TableDecl::key`: the
    /// index of its file times 2^32 plus the byte offset of its name, so that two
    /// tables of one name declared in different models count apart.
    pub fn key(&self) -> u64 {
        ((self.span.file as u64) << 32) | (self.span.start as u64 & 0xffff_ffff)
    }
}

/// What a lookup table gives beyond its grid (`sit_runtime::table::Beyond`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Beyond {
    /// `clamp`: the value at the nearest end of the grid.
    Clamp,
    /// `extrapolate`: the outermost segment's straight line, continued.
    Extrapolate,
}

impl Beyond {
    /// The keyword in `.sit` source, which is also the runtime variant's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Beyond::Clamp => "clamp",
            Beyond::Extrapolate => "extrapolate",
        }
    }
}
