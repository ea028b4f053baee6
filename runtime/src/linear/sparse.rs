//! The sparse LU of an iteration matrix on a pattern fixed when the model is lowered: real and complex numeric factorisations without row swaps over index arrays, and their solves, each in one fixed order of operations.
//!
//! The lowering orders the unknowns for little fill-in and computes the pattern of the
//! factors `L + U` once (the symbolic factorisation); every step then only refactorises
//! numerically on that pattern. The pattern is a [`Symbolic`]: compressed rows (the
//! columns of each row in increasing order) and the position of each row's diagonal.
//! It must be *closed under elimination*: with `(i, k)` and `(k, j)`, `k < min(i, j)`,
//! it holds `(i, j)`; a pattern that is not is reported as [`LinearError::Shape`],
//! never read out of bounds.
//!
//! The pivots are the diagonal of the lowering's order (no row swaps: the iteration
//! matrices `I/(γh) − J` and `μ/h·I − J` are dominated by their diagonal for the steps
//! that stiff problems take). The elimination is [`super::lu_factor_real`]'s without
//! swaps, cell by cell in the same order: for a matrix whose pivots stay on the
//! diagonal under partial pivoting the two give the same bits on the pattern's cells.
//!
//! ```
//! use sit_runtime::linear::{Symbolic, sparse_factor_real, sparse_solve_real};
//!
//! // The tridiagonal [2 −1 0; −1 2 −1; 0 −1 2] and x = [1, 2, 3]: b = [0, 0, 4].
//! let lu = Symbolic {
//!     rows: &[0, 2, 5, 7],
//!     cols: &[0, 1, 0, 1, 2, 1, 2],
//!     diag: &[0, 3, 6],
//! };
//! let mut a = [2.0, -1.0, -1.0, 2.0, -1.0, -1.0, 2.0];
//! sparse_factor_real(&lu, &mut a).unwrap();
//! let mut b = [0.0, 0.0, 4.0];
//! sparse_solve_real(&lu, &a, &mut b).unwrap();
//! assert!((0..3).all(|i| (b[i] - [1.0, 2.0, 3.0][i]).abs() < 1e-15));
//! ```

use super::LinearError;

/// The pattern of the LU factors of a sparse matrix of order `n` (see the module
/// documentation): row `i`'s cells are the positions `rows[i] .. rows[i + 1]` of the
/// matrix's values, `cols[p]` the column of position `p` (increasing within a row),
/// `diag[i]` the position of `(i, i)`. The cells left of the diagonal hold `L` (unit
/// lower triangular, its diagonal not stored) after the factorisation, the others `U`,
/// its diagonal as `1/u_ii`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbolic<'a> {
    /// The first position of each row, and the number of cells last (`n + 1` entries).
    pub rows: &'a [u32],
    /// The column of each cell.
    pub cols: &'a [u32],
    /// The position of each row's diagonal cell (`n` entries).
    pub diag: &'a [u32],
}

impl Symbolic<'_> {
    /// The order `n` of the matrix.
    pub fn order(&self) -> usize {
        self.diag.len()
    }

    /// The number of cells of `L + U` (the length of the values).
    pub fn cells(&self) -> usize {
        self.cols.len()
    }

    /// Whether the arrays are consistent: `n + 1` row starts increasing from 0 to the
    /// number of cells, columns below `n` increasing within each row, each diagonal
    /// position in its row and holding the row's column. Closure under elimination is
    /// checked as the factorisation goes.
    fn valid(&self) -> bool {
        let n = self.order();
        if self.rows.len() != n + 1
            || self.rows.first() != Some(&0)
            || self.rows[n] as usize != self.cols.len()
        {
            return false;
        }
        (0..n).all(|i| {
            let (s, e, d) = (
                self.rows[i] as usize,
                self.rows[i + 1] as usize,
                self.diag[i] as usize,
            );
            s <= d
                && d < e
                && e <= self.cols.len()
                && self.cols[d] as usize == i
                && self.cols[s..e].windows(2).all(|w| w[0] < w[1])
                && (self.cols[e - 1] as usize) < n
        })
    }
}

/// Factorises in place the matrix whose cells on the pattern `lu` are `a` (zero
/// elsewhere; the fill-in cells hold 0 on entry), as `A = L·U` with the pivots on the
/// diagonal. Row `i = 0 … n−1` in order: for each cell `(i, k)` left of the diagonal,
/// `k` increasing, the multiplier `l_ik = a_ik / u_kk` is stored in it and the row
/// updated `a_ij = a_ij − l_ik·u_kj` for the cells `(k, j)`, `j > k`, of row `k`, `j`
/// increasing; then the pivot `a_ii` must be nonzero and finite. After the last row each
/// diagonal cell is replaced by its reciprocal, which the solves multiply by.
///
/// # Errors
///
/// [`LinearError::Shape`] when `a` does not have a value per cell or the pattern is
/// malformed or not closed under elimination; [`LinearError::Singular`] at the first
/// row whose pivot is zero or not finite (`a` is then partly eliminated).
#[inline]
pub fn sparse_factor_real(lu: &Symbolic<'_>, a: &mut [f64]) -> Result<(), LinearError> {
    if a.len() != lu.cells() || !lu.valid() {
        return Err(LinearError::Shape);
    }
    let (rows, cols, diag) = (lu.rows, lu.cols, lu.diag);
    for i in 0..lu.order() {
        let (d, end) = (diag[i] as usize, rows[i + 1] as usize);
        for p in rows[i] as usize..d {
            let k = cols[p] as usize;
            let l = a[p] / a[diag[k] as usize];
            a[p] = l;
            let mut q = p + 1;
            for r in diag[k] as usize + 1..rows[k + 1] as usize {
                q = find(cols, q, end, cols[r])?;
                a[q] -= l * a[r];
            }
        }
        let pivot = a[d];
        if pivot == 0.0 || !pivot.is_finite() {
            return Err(LinearError::Singular(i));
        }
    }
    for &d in diag {
        a[d as usize] = 1.0 / a[d as usize];
    }
    Ok(())
}

/// The position of column `j` in the cells `from .. end` of a row (columns increasing),
/// searched from `from`; [`LinearError::Shape`] when the row does not hold it (a
/// pattern not closed under elimination).
#[inline(always)]
fn find(cols: &[u32], mut from: usize, end: usize, j: u32) -> Result<usize, LinearError> {
    while from < end && cols[from] < j {
        from += 1;
    }
    if from < end && cols[from] == j {
        Ok(from)
    } else {
        Err(LinearError::Shape)
    }
}

/// Solves `A·x = b` in place with the factors of [`sparse_factor_real`]: forward
/// substitution `y_i = b_i − Σ_{j<i} l_ij·y_j`, then back substitution `x_i = (y_i −
/// Σ_{j>i} u_ij·x_j)·(1/u_ii)`, each sum over the row's cells subtracted term by term,
/// the forward one in increasing `j`, the back one in decreasing `j` (the order of
/// [`super::lu_solve_masked_real`]).
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths or a malformed pattern (`b` is then left as
/// it is).
#[inline]
pub fn sparse_solve_real(lu: &Symbolic<'_>, a: &[f64], b: &mut [f64]) -> Result<(), LinearError> {
    if a.len() != lu.cells() || b.len() != lu.order() || !lu.valid() {
        return Err(LinearError::Shape);
    }
    let (rows, cols, diag) = (lu.rows, lu.cols, lu.diag);
    for i in 0..b.len() {
        let mut s = b[i];
        for p in rows[i] as usize..diag[i] as usize {
            s -= a[p] * b[cols[p] as usize];
        }
        b[i] = s;
    }
    for i in (0..b.len()).rev() {
        let d = diag[i] as usize;
        let mut s = b[i];
        for p in (d + 1..rows[i + 1] as usize).rev() {
            s -= a[p] * b[cols[p] as usize];
        }
        b[i] = s * a[d];
    }
    Ok(())
}

/// The quotient `(a + ib)/(c + id)` by Smith's algorithm (the larger of `|c|`, `|d|`
/// divides, so that no square is formed), `|c| ≥ |d|` taking the first branch.
#[inline(always)]
fn cdiv(a: f64, b: f64, c: f64, d: f64) -> (f64, f64) {
    if crate::math::abs(c) >= crate::math::abs(d) {
        let r = d / c;
        let den = c + d * r;
        ((a + b * r) / den, (b - a * r) / den)
    } else {
        let r = c / d;
        let den = c * r + d;
        ((a * r + b) / den, (b * r - a) / den)
    }
}

/// [`sparse_factor_real`] for a complex matrix, its cells' real parts in `re` and
/// imaginary parts in `im`: the same elimination in the same order, each operation
/// complex — the quotient by Smith's algorithm (`cdiv`: `r = d/c`, `den = c + d·r`,
/// `((a + b·r)/den, (b − a·r)/den)` when `|c| ≥ |d|`, else `r = c/d`, `den = c·r + d`,
/// `((a·r + b)/den, (b·r − a)/den)`), the update `a − l·u` as `(a_re − (l_re·u_re −
/// l_im·u_im), a_im − (l_re·u_im + l_im·u_re))`, the diagonal replaced by `1/u_ii`
/// (the quotient of 1). A pivot is refused when both its parts are zero or either is
/// not finite. This is `radau5`'s system `(α + iβ)/h·I − J` held on the pattern of
/// `J` once, instead of a real system of twice the order.
///
/// # Errors
///
/// As [`sparse_factor_real`] (`re` and `im` each one value per cell).
#[inline]
pub fn sparse_factor_complex(
    lu: &Symbolic<'_>,
    re: &mut [f64],
    im: &mut [f64],
) -> Result<(), LinearError> {
    if re.len() != lu.cells() || im.len() != lu.cells() || !lu.valid() {
        return Err(LinearError::Shape);
    }
    let (rows, cols, diag) = (lu.rows, lu.cols, lu.diag);
    for i in 0..lu.order() {
        let (d, end) = (diag[i] as usize, rows[i + 1] as usize);
        for p in rows[i] as usize..d {
            let k = diag[cols[p] as usize] as usize;
            let (lr, li) = cdiv(re[p], im[p], re[k], im[k]);
            (re[p], im[p]) = (lr, li);
            let mut q = p + 1;
            for r in k + 1..rows[cols[p] as usize + 1] as usize {
                q = find(cols, q, end, cols[r])?;
                re[q] -= lr * re[r] - li * im[r];
                im[q] -= lr * im[r] + li * re[r];
            }
        }
        let (pr, pi) = (re[d], im[d]);
        if (pr == 0.0 && pi == 0.0) || !pr.is_finite() || !pi.is_finite() {
            return Err(LinearError::Singular(i));
        }
    }
    for &d in diag {
        let d = d as usize;
        (re[d], im[d]) = cdiv(1.0, 0.0, re[d], im[d]);
    }
    Ok(())
}

/// [`sparse_solve_real`] for the complex factors of [`sparse_factor_complex`], the
/// right-hand side's real parts in `br` and imaginary parts in `bi`: each term
/// subtracted as `(s_re − (a_re·x_re − a_im·x_im), s_im − (a_re·x_im + a_im·x_re))`,
/// the product by the diagonal's reciprocal `(s_re·d_re − s_im·d_im, s_re·d_im +
/// s_im·d_re)`.
///
/// # Errors
///
/// As [`sparse_solve_real`].
#[inline]
pub fn sparse_solve_complex(
    lu: &Symbolic<'_>,
    (re, im): (&[f64], &[f64]),
    br: &mut [f64],
    bi: &mut [f64],
) -> Result<(), LinearError> {
    let n = lu.order();
    if re.len() != lu.cells()
        || im.len() != lu.cells()
        || br.len() != n
        || bi.len() != n
        || !lu.valid()
    {
        return Err(LinearError::Shape);
    }
    let (rows, cols, diag) = (lu.rows, lu.cols, lu.diag);
    for i in 0..n {
        let (mut sr, mut si) = (br[i], bi[i]);
        for p in rows[i] as usize..diag[i] as usize {
            let j = cols[p] as usize;
            sr -= re[p] * br[j] - im[p] * bi[j];
            si -= re[p] * bi[j] + im[p] * br[j];
        }
        (br[i], bi[i]) = (sr, si);
    }
    for i in (0..n).rev() {
        let d = diag[i] as usize;
        let (mut sr, mut si) = (br[i], bi[i]);
        for p in (d + 1..rows[i + 1] as usize).rev() {
            let j = cols[p] as usize;
            sr -= re[p] * br[j] - im[p] * bi[j];
            si -= re[p] * bi[j] + im[p] * br[j];
        }
        (br[i], bi[i]) = (sr * re[d] - si * im[d], sr * im[d] + si * re[d]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::next;
    use super::super::{lu_factor_masked_real, lu_solve_masked_real};
    use super::*;
    use std::vec::Vec;

    /// A random pattern of order `n` (each off-diagonal cell with probability about
    /// `p`), closed under elimination, as the dense mask of bits `i·n + j` and as
    /// compressed rows.
    fn pattern(n: usize, p: f64, seed: &mut u64) -> (Vec<bool>, Vec<u32>, Vec<u32>, Vec<u32>) {
        let mut m = std::vec![false; n * n];
        for i in 0..n {
            for j in 0..n {
                m[i * n + j] = i == j || next(seed) > 1.0 - 2.0 * p;
            }
        }
        for k in 0..n {
            for i in k + 1..n {
                for j in k + 1..n {
                    if m[i * n + k] && m[k * n + j] {
                        m[i * n + j] = true;
                    }
                }
            }
        }
        let (mut rows, mut cols, mut diag) = (std::vec![0u32], Vec::new(), Vec::new());
        for i in 0..n {
            for j in 0..n {
                if m[i * n + j] {
                    if i == j {
                        diag.push(cols.len() as u32);
                    }
                    cols.push(j as u32);
                }
            }
            rows.push(cols.len() as u32);
        }
        (m, rows, cols, diag)
    }

    /// On random diagonally dominant matrices up to 11 unknowns, the sparse factors and
    /// solutions are the masked dense ones (no row swapped) to the bit; at 40 unknowns
    /// the residual is at rounding level.
    #[test]
    fn sparse_factors_are_the_masked_dense_ones() {
        let mut seed = 0x51_u64;
        for n in (1..=11).chain([40]) {
            for p in [0.1, 0.3] {
                let (m, rows, cols, diag) = pattern(n, p, &mut seed);
                let lu = Symbolic {
                    rows: &rows,
                    cols: &cols,
                    diag: &diag,
                };
                let mut dense = std::vec![0.0; n * n];
                let mut a = Vec::new();
                for i in 0..n {
                    for j in 0..n {
                        if m[i * n + j] {
                            let v = if i == j {
                                2.0 * n as f64 * next(&mut seed).signum()
                            } else {
                                next(&mut seed)
                            };
                            dense[i * n + j] = v;
                        }
                    }
                }
                for i in 0..n {
                    for j in 0..n {
                        if m[i * n + j] {
                            a.push(dense[i * n + j]);
                        }
                    }
                }
                let b: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
                sparse_factor_real(&lu, &mut a).expect("regular");
                let mut x = b.clone();
                sparse_solve_real(&lu, &a, &mut x).expect("shapes");
                if n <= 11 {
                    let mask = (0..n * n).filter(|&c| m[c]).fold(0u128, |k, c| k | 1 << c);
                    let (mut lu_d, mut piv) = (dense.clone(), std::vec![0.0; n]);
                    lu_factor_masked_real(n, mask, &mut lu_d, &mut piv).expect("regular");
                    assert!(piv.iter().enumerate().all(|(k, &p)| p == k as f64));
                    let on: Vec<u64> = (0..n * n)
                        .filter(|&c| m[c])
                        .map(|c| lu_d[c].to_bits())
                        .collect();
                    let bits: Vec<u64> = a.iter().map(|v| v.to_bits()).collect();
                    assert_eq!(bits, on, "n = {n}: factors");
                    let mut y = b.clone();
                    lu_solve_masked_real(n, mask, &lu_d, &piv, &mut y).expect("shapes");
                    assert_eq!(
                        x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        "n = {n}: solution"
                    );
                }
                for i in 0..n {
                    let r: f64 = (0..n).map(|j| dense[i * n + j] * x[j]).sum::<f64>() - b[i];
                    assert!(r.abs() < 1e-12, "n = {n}: residual {r}");
                }
            }
        }
    }

    /// The complex factorisation on `(α + iβ)·I − J` for random sparse `J`: the residual
    /// of the complex solve at rounding level, and the same solution (to rounding) as the
    /// real system of twice the order `[[αI − J, −βI], [βI, αI − J]]` solved densely.
    #[test]
    fn complex_solves_match_the_real_system_of_twice_the_order() {
        let mut seed = 0xc0_u64;
        for n in [1, 3, 8, 25] {
            let (m, rows, cols, diag) = pattern(n, 0.2, &mut seed);
            let lu = Symbolic {
                rows: &rows,
                cols: &cols,
                diag: &diag,
            };
            let (alpha, beta) = (3.0 * n as f64, 2.5 * n as f64);
            let mut j = std::vec![0.0; n * n];
            for c in 0..n * n {
                if m[c] {
                    j[c] = next(&mut seed);
                }
            }
            let (mut re, mut im) = (Vec::new(), Vec::new());
            for i in 0..n {
                for k in 0..n {
                    if m[i * n + k] {
                        re.push(f64::from(u8::from(i == k)) * alpha - j[i * n + k]);
                        im.push(f64::from(u8::from(i == k)) * beta);
                    }
                }
            }
            let br: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
            let bi: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
            sparse_factor_complex(&lu, &mut re, &mut im).expect("regular");
            let (mut xr, mut xi) = (br.clone(), bi.clone());
            sparse_solve_complex(&lu, (&re, &im), &mut xr, &mut xi).expect("shapes");
            let n2 = 2 * n;
            let mut big = std::vec![0.0; n2 * n2];
            for i in 0..n {
                for k in 0..n {
                    let d = f64::from(u8::from(i == k));
                    big[i * n2 + k] = d * alpha - j[i * n + k];
                    big[(n + i) * n2 + n + k] = d * alpha - j[i * n + k];
                }
                big[i * n2 + n + i] = -beta;
                big[(n + i) * n2 + i] = beta;
            }
            let mut piv = std::vec![0usize; n2];
            crate::linear::lu_factor(n2, &mut big, &mut piv).expect("regular");
            let mut x: Vec<f64> = br.iter().chain(&bi).copied().collect();
            crate::linear::lu_solve(n2, &big, &piv, &mut x).expect("shapes");
            for i in 0..n {
                assert!((x[i] - xr[i]).abs() < 1e-13, "n = {n}: re {i}");
                assert!((x[n + i] - xi[i]).abs() < 1e-13, "n = {n}: im {i}");
            }
        }
    }

    /// Malformed patterns, a pattern not closed under elimination and a zero pivot are
    /// reported, never a panic.
    #[test]
    fn malformed_and_singular_are_reported() {
        // [[1, 1], [1, 1]]: the second pivot is 0.
        let full = Symbolic {
            rows: &[0, 2, 4],
            cols: &[0, 1, 0, 1],
            diag: &[0, 3],
        };
        let mut a = [1.0, 1.0, 1.0, 1.0];
        assert_eq!(
            sparse_factor_real(&full, &mut a),
            Err(LinearError::Singular(1))
        );
        let (mut re, mut im) = ([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
        assert_eq!(
            sparse_factor_complex(&full, &mut re, &mut im),
            Err(LinearError::Singular(1))
        );
        // (1, 0) and (0, 2) without (1, 2): not closed.
        let open = Symbolic {
            rows: &[0, 2, 4, 5],
            cols: &[0, 2, 0, 1, 2],
            diag: &[0, 3, 4],
        };
        assert_eq!(
            sparse_factor_real(&open, &mut [1.0; 5]),
            Err(LinearError::Shape)
        );
        let bad = [
            Symbolic {
                rows: &[0, 2, 4],
                cols: &[0, 1, 0, 1],
                diag: &[1, 3],
            },
            Symbolic {
                rows: &[0, 2, 9],
                cols: &[0, 1, 0, 1],
                diag: &[0, 3],
            },
            Symbolic {
                rows: &[0, 2, 4],
                cols: &[0, 5, 0, 1],
                diag: &[0, 3],
            },
            Symbolic {
                rows: &[0, 2],
                cols: &[0, 1, 0, 1],
                diag: &[0, 3],
            },
        ];
        for lu in bad {
            assert_eq!(
                sparse_factor_real(&lu, &mut [1.0; 4]),
                Err(LinearError::Shape)
            );
            assert_eq!(
                sparse_solve_real(&lu, &[1.0; 4], &mut [1.0; 2]),
                Err(LinearError::Shape)
            );
        }
        assert_eq!(
            sparse_solve_real(&full, &[1.0; 3], &mut [1.0; 2]),
            Err(LinearError::Shape)
        );
    }
}
