//! The iteration matrices of `radau5`: their cells as hidden states in the storage `super::super::band` chooses, and the statements that fill, factorise and solve with them.

use super::super::band;
use super::super::build::assign;
use super::super::hidden::Hidden;
use super::super::rewrite::{Rewrite, Stmt, Storage};
use crate::Span;
use crate::ir::{Expr, VarId};

/// An iteration matrix: its cells in their storage, the storage, the pivots and the
/// order of its rows.
pub(super) struct Matrix {
    cells: Vec<VarId>,
    storage: Storage,
    pivots: Vec<VarId>,
    order: Vec<usize>,
}

impl Matrix {
    /// The matrix of `size` unknowns with nonzero pattern `pattern`, cells named by
    /// `cell(row, col)`.
    pub(super) fn new(
        hid: &mut Hidden<'_>,
        size: usize,
        pattern: Vec<(usize, usize)>,
        name: &dyn Fn(usize) -> String,
        what: &str,
    ) -> Matrix {
        let method = "radau5";
        let span = hid.m.span;
        let lay = band::layout(size, pattern);
        let cells = match lay.storage {
            Storage::Dense | Storage::Pattern { .. } => (0..size * size)
                .map(|k| {
                    let (row, col) = (name(k / size), name(k % size));
                    hid.new_var(
                        format!("{row}_{method}_{what}_{col}"),
                        format!(
                            " Entry ({row}, {col}) of {what}, then of its LU factors ({method})."
                        ),
                        span,
                    )
                })
                .collect(),
            Storage::Band { kl, ku } => {
                let width = 2 * kl + ku + 1;
                (0..size * width)
                    .map(|k| {
                        let (r, d) = (k / width, k % width);
                        let row = name(lay.order[r]);
                        match (r + d).checked_sub(kl).filter(|&c| c < size) {
                            Some(c) => {
                                let col = name(lay.order[c]);
                                hid.new_var(
                                    format!("{row}_{method}_{what}_{col}"),
                                    format!(
                                        " Entry ({row}, {col}) of {what} in its band, then of its \
                                         band LU factors ({method})."
                                    ),
                                    span,
                                )
                            }
                            None => hid.new_var(
                                format!("{row}_{method}_{what}_pad{}", d + 1),
                                format!(
                                    " Cell {} of row {row} of the band of {what}, outside the \
                                     matrix: never read ({method}).",
                                    d + 1
                                ),
                                span,
                            ),
                        }
                    })
                    .collect()
            }
        };
        let pivots = (0..size)
            .map(|k| {
                hid.new_var(
                    format!("{method}_{what}_pivot{}", k + 1),
                    format!(
                        " The pivot row of column {} of {what}'s LU factors ({method}).",
                        k + 1
                    ),
                    span,
                )
            })
            .collect();
        Matrix {
            cells,
            storage: lay.storage,
            pivots,
            order: lay.order,
        }
    }

    /// The statements that fill the matrix with `entry(row, col)` (the band's cells
    /// only, for a band: its fill-in cells are cleared by the factorisation).
    pub(super) fn fill(
        &self,
        size: usize,
        entry: &dyn Fn(usize, usize) -> Expr,
        span: Span,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        match self.storage {
            Storage::Dense | Storage::Pattern { .. } => {
                for i in 0..size {
                    for j in 0..size {
                        out.push(assign(self.cells[i * size + j], entry(i, j), None, span));
                    }
                }
            }
            Storage::Band { kl, ku } => {
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
        }
        out
    }

    pub(super) fn factor(&self, span: Span) -> Stmt {
        Stmt::Added(Rewrite::Factor {
            matrix: self.cells.clone(),
            storage: self.storage,
            pivots: self.pivots.clone(),
            method: "radau5",
            span,
        })
    }

    /// A solve whose right-hand side is `rhs(unknown)` for each unknown, in the
    /// matrix's order.
    pub(super) fn solve(&self, rhs: &dyn Fn(usize) -> VarId, span: Span) -> Stmt {
        Stmt::Added(Rewrite::Solve {
            matrix: self.cells.clone(),
            storage: self.storage,
            pivots: self.pivots.clone(),
            rhs: self.order.iter().map(|&i| rhs(i)).collect(),
            span,
        })
    }
}
