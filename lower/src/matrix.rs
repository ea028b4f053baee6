//! The iteration matrices of the implicit methods (`rodas4`, `rodas5p`, `radau5`): their cells as hidden states in the storage `super::band` chooses (dense, masked, band or sparse; real or complex), and the statements that fill, factorise and solve with them.

use super::band;
use super::build::assign;
use super::hidden::Hidden;
use super::rewrite::{Rewrite, Stmt, Storage};
use crate::Span;
use crate::ir::{Expr, VarId};

/// How a matrix's hidden states are named and documented.
pub(super) struct Names<'a> {
    /// The integration method.
    pub method: &'static str,
    /// The matrix in names (`W`, `WR`, `WC`).
    pub what: &'a str,
    /// The matrix in documentation (`I/(γh) − J`, `WR`).
    pub doc: &'a str,
    /// The name and documentation of the pivot of column `k` (0-based).
    pub pivot: &'a dyn Fn(usize) -> (String, String),
    /// The name of unknown `k` (a state's).
    pub unknown: &'a dyn Fn(usize) -> String,
}

/// An iteration matrix: its cells in their storage, the storage, the pivots and the
/// order of its rows (and unknowns).
pub(super) struct Matrix {
    cells: Vec<VarId>,
    storage: Storage,
    pivots: Vec<VarId>,
    order: Vec<usize>,
    method: &'static str,
}

impl Matrix {
    /// The real matrix of `size` unknowns with nonzero pattern `pattern` (the diagonal
    /// is added), in the storage [`band::layout`] chooses.
    pub(super) fn new(
        hid: &mut Hidden<'_>,
        size: usize,
        pattern: Vec<(usize, usize)>,
        names: &Names<'_>,
    ) -> Matrix {
        let lay = band::layout(size, pattern);
        Matrix::with(hid, size, lay, names)
    }

    /// The complex matrix of `size` unknowns with nonzero pattern `pattern` held as
    /// complex cells on its sparse LU pattern ([`band::sparse`]) when the real matrix
    /// of twice the order would have more than [`band::PATTERN_UP_TO`] unknowns (`size
    /// ≥ 6`); `None` below (the caller holds it as that real matrix, whose
    /// factorisation is straight-line code with partial pivoting).
    pub(super) fn complex(
        hid: &mut Hidden<'_>,
        size: usize,
        pattern: Vec<(usize, usize)>,
        names: &Names<'_>,
    ) -> Option<Matrix> {
        if 2 * size <= band::PATTERN_UP_TO {
            return None;
        }
        let (order, lu) = band::sparse(size, &pattern);
        let lu = std::sync::Arc::new(lu);
        let (method, span) = (names.method, hid.m.span);
        let what = names.what;
        let mut cells = Vec::with_capacity(2 * lu.cols.len());
        for part in ["re", "im"] {
            for (r, c) in lu.cells() {
                let (row, col) = ((names.unknown)(order[r]), (names.unknown)(order[c]));
                cells.push(hid.new_var(
                    format!("{row}_{method}_{what}_{col}_{part}"),
                    format!(
                        " The {} part of entry ({row}, {col}) of {}, then of its sparse LU \
                         factors ({method}).",
                        if part == "re" { "real" } else { "imaginary" },
                        names.doc
                    ),
                    span,
                ));
            }
        }
        Some(Matrix {
            cells,
            storage: Storage::Sparse { lu, complex: true },
            pivots: Vec::new(),
            order,
            method,
        })
    }

    /// The matrix's hidden states for the layout `lay`.
    fn with(hid: &mut Hidden<'_>, size: usize, lay: band::Layout, names: &Names<'_>) -> Matrix {
        let (method, what, doc) = (names.method, names.what, names.doc);
        let span = hid.m.span;
        let name = names.unknown;
        let cell = |hid: &mut Hidden<'_>, r: usize, c: usize, how: &str| {
            let (row, col) = (name(r), name(c));
            hid.new_var(
                format!("{row}_{method}_{what}_{col}"),
                format!(" Entry ({row}, {col}) of {doc}{how} ({method})."),
                span,
            )
        };
        let cells = match &lay.storage {
            Storage::Dense | Storage::Pattern { .. } => (0..size * size)
                .map(|k| cell(hid, k / size, k % size, ", then of its LU factors"))
                .collect(),
            Storage::Band { kl, ku } => {
                let (kl, ku) = (*kl, *ku);
                let width = 2 * kl + ku + 1;
                (0..size * width)
                    .map(|k| {
                        let (r, d) = (k / width, k % width);
                        match (r + d).checked_sub(kl).filter(|&c| c < size) {
                            Some(c) => cell(
                                hid,
                                lay.order[r],
                                lay.order[c],
                                " in its band, then of its band LU factors",
                            ),
                            None => {
                                let row = name(lay.order[r]);
                                hid.new_var(
                                    format!("{row}_{method}_{what}_pad{}", d + 1),
                                    format!(
                                        " Cell {} of row {row} of the band of {doc}, outside \
                                         the matrix: never read ({method}).",
                                        d + 1
                                    ),
                                    span,
                                )
                            }
                        }
                    })
                    .collect()
            }
            Storage::Sparse { lu, .. } => lu
                .cells()
                .map(|(r, c)| {
                    cell(
                        hid,
                        lay.order[r],
                        lay.order[c],
                        " on its sparse pattern, then of its sparse LU factors",
                    )
                })
                .collect(),
        };
        // The sparse factorisation keeps its pivots on the diagonal: none recorded.
        let pivots = match lay.storage {
            Storage::Sparse { .. } => Vec::new(),
            _ => (0..size)
                .map(|k| {
                    let (name, doc) = (names.pivot)(k);
                    hid.new_var(name, doc, span)
                })
                .collect(),
        };
        Matrix {
            cells,
            storage: lay.storage,
            pivots,
            order: lay.order,
            method,
        }
    }

    /// Whether the matrix is complex (held on its sparse pattern).
    pub(super) fn is_complex(&self) -> bool {
        matches!(self.storage, Storage::Sparse { complex: true, .. })
    }

    /// The statements that fill the matrix of `size` unknowns with `entry(row, col)`
    /// (the band's cells only, for a band: its fill-in cells are cleared by the
    /// factorisation; every cell of the pattern for a sparse one, its fill-in set to 0;
    /// for a complex one `entry` gives the real part and `imag` the imaginary).
    pub(super) fn fill(
        &self,
        size: usize,
        entry: &dyn Fn(usize, usize) -> Expr,
        imag: &dyn Fn(usize, usize) -> Expr,
        span: Span,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        match &self.storage {
            Storage::Dense | Storage::Pattern { .. } => {
                for i in 0..size {
                    for j in 0..size {
                        out.push(assign(self.cells[i * size + j], entry(i, j), None, span));
                    }
                }
            }
            Storage::Band { kl, ku } => {
                let (kl, ku) = (*kl, *ku);
                let width = 2 * kl + ku + 1;
                for r in 0..size {
                    for c in r.saturating_sub(kl)..(r + ku + 1).min(size) {
                        let value = entry(self.order[r], self.order[c]);
                        out.push(assign(
                            self.cells[r * width + c + kl - r],
                            value,
                            None,
                            span,
                        ));
                    }
                }
            }
            Storage::Sparse { lu, complex } => {
                let nnz = lu.cols.len();
                for (p, (r, c)) in lu.cells().enumerate() {
                    let (i, j) = (self.order[r], self.order[c]);
                    out.push(assign(self.cells[p], entry(i, j), None, span));
                    if *complex {
                        out.push(assign(self.cells[nnz + p], imag(i, j), None, span));
                    }
                }
            }
        }
        out
    }

    /// The factorisation.
    pub(super) fn factor(&self, span: Span) -> Stmt {
        Stmt::Added(Rewrite::Factor {
            matrix: self.cells.clone(),
            storage: self.storage.clone(),
            pivots: self.pivots.clone(),
            method: self.method,
            span,
        })
    }

    /// A solve whose right-hand side is `rhs(unknown)` for each unknown, in the
    /// matrix's order (for a complex matrix, `rhs` gives the real parts and `imag` the
    /// imaginary ones, each in that order).
    pub(super) fn solve(
        &self,
        rhs: &dyn Fn(usize) -> VarId,
        imag: &dyn Fn(usize) -> VarId,
        span: Span,
    ) -> Stmt {
        let mut b: Vec<VarId> = self.order.iter().map(|&i| rhs(i)).collect();
        if self.is_complex() {
            b.extend(self.order.iter().map(|&i| imag(i)));
        }
        Stmt::Added(Rewrite::Solve {
            matrix: self.cells.clone(),
            storage: self.storage.clone(),
            pivots: self.pivots.clone(),
            rhs: b,
            span,
        })
    }
}
