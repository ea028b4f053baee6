//! Linear systems for the stage solves of an implicit method: dense LU factorisation with partial pivoting, band LU with partial pivoting within the band and sparse LU on a fixed pattern (real and complex), and the solves with their factors, each in one fixed order of operations.
//!
//! Every back end calls these two functions (none writes its own elimination), so the
//! solves give the same bits in generated code, the interpreter and the batch form.
//! The dense matrix is row-major in a slice of `n·n`, the band matrix in the shifted
//! row-major storage of [`band_factor_real`] (for many unknowns with a narrow band:
//! `n·(2·kl + ku + 1)` cells and about `n·kl·(kl + ku)` operations instead of `n²` and
//! `n³/3`); nothing allocates, nothing panics on
//! wrong lengths (the functions report them).
//!
//! ```
//! use sit_runtime::linear::{lu_factor, lu_solve};
//!
//! // 2x + y = 3, x + 3y = 5: x = 0.8, y = 1.4.
//! let mut a = [2.0, 1.0, 1.0, 3.0];
//! let mut piv = [0usize; 2];
//! lu_factor(2, &mut a, &mut piv).unwrap();
//! let mut b = [3.0, 5.0];
//! lu_solve(2, &a, &piv, &mut b).unwrap();
//! assert!((b[0] - 0.8).abs() < 1e-15 && (b[1] - 1.4).abs() < 1e-15);
//! ```

mod band;
mod sparse;

pub use band::{band_factor_real, band_len, band_solve_real};
pub use sparse::{
    Symbolic, sparse_factor_complex, sparse_factor_real, sparse_solve_complex, sparse_solve_real,
};

/// Why a system could not be factorised or solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearError {
    /// The slices do not have the lengths `n·n` (matrix) and `n` (pivots, right-hand
    /// side).
    Shape,
    /// No nonzero finite pivot in this column (0-based) at its elimination step: the
    /// matrix is singular, or not finite, to working precision.
    Singular(usize),
}

/// Factorises the `n × n` row-major matrix `a` in place as `P·A = L·U` (Doolittle:
/// `L` unit lower triangular below the diagonal, `U` on and above it), with partial
/// pivoting: at column `k` the row of largest `|a_ik|`, `i >= k`, the first such row at
/// a tie, is swapped into row `k` and `piv[k]` records it. The multipliers are
/// `l_ik = a_ik / a_kk`, and each row `i > k` is updated `a_ij = a_ij − l_ik·a_kj`
/// for `j = k+1 … n−1`, in that order; then the diagonal cell is replaced by its
/// reciprocal `1/u_kk`. On return `a` holds `L` below the diagonal, `U` above it and
/// `1/u_kk` on it: each solve multiplies by those reciprocals, so that the `n`
/// divisions are made once per factorisation, not once per solve.
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths, [`LinearError::Singular`] at the first
/// column without a nonzero finite pivot (`a` is then partly eliminated).
#[inline]
pub fn lu_factor(n: usize, a: &mut [f64], piv: &mut [usize]) -> Result<(), LinearError> {
    if a.len() != n * n || piv.len() != n {
        return Err(LinearError::Shape);
    }
    factor(n, a, None, |k, p| piv[k] = p)
}

/// [`lu_factor`] with the pivots recorded as reals (`piv[k]` the row index as `f64`,
/// exact): for a matrix and pivots held in a model's hidden real states.
///
/// # Errors
///
/// As [`lu_factor`].
#[inline]
pub fn lu_factor_real(n: usize, a: &mut [f64], piv: &mut [f64]) -> Result<(), LinearError> {
    if a.len() != n * n || piv.len() != n {
        return Err(LinearError::Shape);
    }
    factor(n, a, None, |k, p| piv[k] = p as f64)
}

/// The cells `(i, j)` of an `n × n` matrix (`n ≤ 11`) that a pattern `mask` holds:
/// bit `i·n + j` set. The pattern of a factorisation is closed under elimination: with
/// `(i, k)` and `(k, j)` it holds `(i, j)` (the symbolic LU, fill-in included), and it
/// holds the diagonal.
#[inline(always)]
fn holds(mask: u128, n: usize, i: usize, j: usize) -> bool {
    (mask >> (i * n + j)) & 1 == 1
}

/// [`lu_factor_real`] for a matrix whose entries outside the pattern `mask` (see
/// [`lu_solve_masked_real`]) are zero: the same elimination, except that as long as
/// every pivot so far is on the diagonal, the update of row `i` by column `k` is left
/// out when `(i, k)` is outside the pattern (its multiplier is zero) and the update of
/// its cell `(i, j)` when `(k, j)` is (the term is zero). A row swap ends that: from
/// the column of the first off-diagonal pivot on, the elimination is
/// [`lu_factor_real`]'s, and [`lu_solve_masked_real`] sees it in the pivots.
///
/// # Errors
///
/// As [`lu_factor`]; [`LinearError::Shape`] also when `n > 11`.
#[inline]
pub fn lu_factor_masked_real(
    n: usize,
    mask: u128,
    a: &mut [f64],
    piv: &mut [f64],
) -> Result<(), LinearError> {
    if a.len() != n * n || piv.len() != n || n > 11 {
        return Err(LinearError::Shape);
    }
    factor(n, a, Some(mask), |k, p| piv[k] = p as f64)
}

/// The elimination of [`lu_factor`], each pivot row given to `record(k, p)`, the
/// pattern `mask` skipped while the pivots stay on the diagonal
/// ([`lu_factor_masked_real`]): generic and inlined, so that in a caller whose `n` is a
/// constant (the generated step's arrays) the loops have known bounds and no
/// indirect call.
#[inline]
fn factor(
    n: usize,
    a: &mut [f64],
    mask: Option<u128>,
    mut record: impl FnMut(usize, usize),
) -> Result<(), LinearError> {
    let mut pattern = mask;
    for k in 0..n {
        let mut p = k;
        let mut best = crate::math::abs(a[k * n + k]);
        for i in k + 1..n {
            let v = crate::math::abs(a[i * n + k]);
            if v > best {
                best = v;
                p = i;
            }
        }
        if best == 0.0 || !best.is_finite() {
            return Err(LinearError::Singular(k));
        }
        record(k, p);
        if p != k {
            pattern = None;
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let skip = |i: usize, j: usize| pattern.is_some_and(|m| !holds(m, n, i, j));
        let pivot = a[k * n + k];
        for i in k + 1..n {
            if skip(i, k) {
                continue;
            }
            let l = a[i * n + k] / pivot;
            a[i * n + k] = l;
            for j in k + 1..n {
                if !skip(k, j) {
                    a[i * n + j] -= l * a[k * n + j];
                }
            }
        }
        // The diagonal of `U` is held as its reciprocal, which every solve multiplies
        // by: one division per column here instead of one per column in each solve.
        a[k * n + k] = 1.0 / pivot;
    }
    Ok(())
}

/// Solves `A·x = b` in place (`b` becomes `x`) with the factors of [`lu_factor`]: the
/// row swaps of `piv` in order, then forward substitution `y_i = b_i − Σ_{j<i} l_ij·y_j`
/// and back substitution `x_i = (y_i − Σ_{j>i} u_ij·x_j)·(1/u_ii)`, each sum subtracted
/// term by term, the forward one in increasing `j`, the back one in decreasing `j`, the
/// reciprocal `1/u_ii` the one the factorisation left on the diagonal: in both the
/// unknown found last is subtracted last, so the terms of the others are taken while
/// it is computed, and the product by the reciprocal replaces a division: the solves
/// are most of an implicit step's time, and this shortens their chain of dependent
/// operations.
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths.
#[inline]
pub fn lu_solve(n: usize, lu: &[f64], piv: &[usize], b: &mut [f64]) -> Result<(), LinearError> {
    if lu.len() != n * n || piv.len() != n || b.len() != n {
        return Err(LinearError::Shape);
    }
    solve(n, lu, |k| Some(piv[k]).filter(|&p| p < n), b)
}

/// [`lu_solve`] with the pivots of [`lu_factor_real`].
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths or a pivot that is not a row index.
#[inline(always)]
pub fn lu_solve_real(n: usize, lu: &[f64], piv: &[f64], b: &mut [f64]) -> Result<(), LinearError> {
    if lu.len() != n * n || piv.len() != n || b.len() != n {
        return Err(LinearError::Shape);
    }
    solve(n, lu, |k| row(piv[k], n), b)
}

/// The row index that the real `p` names, if it is a whole number in `0 … n−1` (the
/// cast back compares it exactly; NaN fails the first test).
#[inline]
fn row(p: f64, n: usize) -> Option<usize> {
    let r = p as usize;
    (p >= 0.0 && r < n && r as f64 == p).then_some(r)
}

/// [`lu_solve_real`] for a system whose order `N` is known when compiling (the
/// generated step's arrays): the same values to the bit, the row swaps of `piv`
/// composed first into a permutation of indices and `b` gathered through it, so that
/// the substitutions run on a local array of constant indices, held in registers
/// rather than in memory that the swaps index at run time.
///
/// # Errors
///
/// As [`lu_solve_real`] (`b` is left as it is).
#[inline(always)]
pub fn lu_solve_real_fixed<const N: usize>(
    lu: &[f64],
    piv: &[f64; N],
    b: &mut [f64; N],
) -> Result<(), LinearError> {
    if lu.len() != N * N {
        return Err(LinearError::Shape);
    }
    let mut perm: [usize; N] = core::array::from_fn(|i| i);
    for (k, &p) in piv.iter().enumerate() {
        perm.swap(k, row(p, N).ok_or(LinearError::Shape)?);
    }
    let mut x: [f64; N] = core::array::from_fn(|i| b[perm[i]]);
    substitute(N, lu, &mut x);
    *b = x;
    Ok(())
}

/// [`lu_solve_real`] with the factors of [`lu_factor_masked_real`] and the same `mask`:
/// when every pivot is on the diagonal (no row was swapped, so the factors are zero
/// outside the pattern), the substitutions leave out the cells outside it, each sum
/// otherwise in [`lu_solve`]'s order; with a swap, [`lu_solve_real`]'s solve. The
/// pattern is the lowering's, known when compiling: HIRES's iteration matrix of 64
/// cells has 19 off the diagonal in its factors' pattern, against 56.
///
/// # Errors
///
/// As [`lu_solve_real`]; [`LinearError::Shape`] also when `n > 11`.
#[inline(always)]
pub fn lu_solve_masked_real(
    n: usize,
    mask: u128,
    lu: &[f64],
    piv: &[f64],
    b: &mut [f64],
) -> Result<(), LinearError> {
    if lu.len() != n * n || piv.len() != n || b.len() != n || n > 11 {
        return Err(LinearError::Shape);
    }
    if diagonal(piv) {
        substitute_masked(n, mask, lu, b);
        return Ok(());
    }
    solve(n, lu, |k| row(piv[k], n), b)
}

/// Whether every pivot is its own row (`piv[k] = k`): no row was swapped.
#[inline(always)]
fn diagonal(piv: &[f64]) -> bool {
    piv.iter().enumerate().all(|(k, &p)| p == k as f64)
}

/// [`substitute`] leaving out the cells outside `mask`, each sum in the same order.
#[inline(always)]
fn substitute_masked(n: usize, mask: u128, lu: &[f64], b: &mut [f64]) {
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            if holds(mask, n, i, j) {
                s -= lu[i * n + j] * b[j];
            }
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in (i + 1..n).rev() {
            if holds(mask, n, i, j) {
                s -= lu[i * n + j] * b[j];
            }
        }
        b[i] = s * lu[i * n + i];
    }
}

/// The substitutions of [`lu_solve`], the pivot row of column `k` given by `pivot(k)`
/// (`None`: not a row; the swaps made so far are undone, `b` left as it was, and the
/// shape is the error): generic and inlined as [`factor`] is, the pivots checked as
/// they are applied rather than in a pass of their own.
#[inline(always)]
fn solve(
    n: usize,
    lu: &[f64],
    pivot: impl Fn(usize) -> Option<usize>,
    b: &mut [f64],
) -> Result<(), LinearError> {
    for k in 0..n {
        let Some(p) = pivot(k) else {
            for j in (0..k).rev() {
                b.swap(j, pivot(j).unwrap_or(j));
            }
            return Err(LinearError::Shape);
        };
        b.swap(k, p);
    }
    substitute(n, lu, b);
    Ok(())
}

/// The forward and back substitutions of [`lu_solve`] on `b`, its rows already
/// permuted: the one sequence of operations of every dense solve.
#[inline(always)]
fn substitute(n: usize, lu: &[f64], b: &mut [f64]) {
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s -= lu[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in (i + 1..n).rev() {
            s -= lu[i * n + j] * b[j];
        }
        b[i] = s * lu[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A deterministic pseudo-random number in `[-1, 1)` (xorshift).
    pub(super) fn next(seed: &mut u64) -> f64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// Random diagonally weighted systems of 1 to 12 unknowns with a known solution: the
    /// residual is at rounding level (the matrices are well conditioned: a diagonal of
    /// about `n` over entries of size 1, so the error is a few `n·ε`).
    #[test]
    fn random_systems_are_solved() {
        let mut seed = 0x5eed_u64;
        for n in 1..=12 {
            let mut a: Vec<f64> = (0..n * n).map(|_| next(&mut seed)).collect();
            for i in 0..n {
                a[i * n + i] += n as f64 * next(&mut seed).signum();
            }
            let x: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
            let mut b: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
                .collect();
            let mut lu = a.clone();
            let mut piv = std::vec![0; n];
            lu_factor(n, &mut lu, &mut piv).expect("regular");
            lu_solve(n, &lu, &piv, &mut b).expect("shapes");
            for i in 0..n {
                assert!(
                    (b[i] - x[i]).abs() < 1e-13,
                    "n = {n}: x{i} = {} vs {}",
                    b[i],
                    x[i]
                );
            }
        }
    }

    /// The masked factorisation and solves on random sparse matrices with the
    /// symbolic LU of their pattern: the factors are those of the dense functions (the
    /// cells left out hold zeros, whose sign may differ) and the solutions the same to
    /// the bit, with a dominant diagonal (no swap: the pattern is used throughout, the
    /// residual at rounding level) and with a small one (swaps: the dense elimination
    /// from the first and the dense solve); the fixed-order form agrees with the slice
    /// form to the bit.
    #[test]
    fn masked_factors_and_solves_match_the_dense_ones() {
        let mut seed = 0x3a5c_u64;
        let mut swaps = 0;
        for n in 2..=11usize {
            for dominant in [true, false] {
                let mut mask: u128 = 0;
                let mut a = std::vec![0.0; n * n];
                for i in 0..n {
                    for j in 0..n {
                        if i == j || next(&mut seed) > 0.4 {
                            a[i * n + j] = next(&mut seed);
                            mask |= 1 << (i * n + j);
                        }
                    }
                    let d = if dominant { 2.0 * n as f64 } else { 1e-3 };
                    a[i * n + i] = d * next(&mut seed).signum();
                }
                for k in 0..n {
                    for i in k + 1..n {
                        for j in k + 1..n {
                            if mask >> (i * n + k) & 1 == 1 && mask >> (k * n + j) & 1 == 1 {
                                mask |= 1 << (i * n + j);
                            }
                        }
                    }
                }
                let b: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
                let (mut lu, mut piv) = (a.clone(), std::vec![0.0; n]);
                lu_factor_masked_real(n, mask, &mut lu, &mut piv).expect("regular");
                let (mut dense, mut dpiv) = (a.clone(), std::vec![0.0; n]);
                lu_factor_real(n, &mut dense, &mut dpiv).expect("regular");
                let mut x = b.clone();
                lu_solve_masked_real(n, mask, &lu, &piv, &mut x).expect("shapes");
                let swapped = piv.iter().enumerate().any(|(k, &p)| p != k as f64);
                assert!(!(dominant && swapped), "n = {n}: pivots {piv:?}");
                swaps += usize::from(swapped);
                let mut y = b.clone();
                lu_solve_real(n, &dense, &dpiv, &mut y).expect("shapes");
                // Equal as numbers: a multiplier left out stays 0 where the dense
                // elimination writes 0 / pivot, -0 for a negative pivot; after a swap
                // the elimination is the dense one.
                assert_eq!(lu, dense, "n = {n}: factors");
                assert_eq!(piv, dpiv, "n = {n}: pivots");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&x), bits(&y), "n = {n}: solution");
                if dominant {
                    for i in 0..n {
                        let r: f64 = (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>() - b[i];
                        assert!(r.abs() < 1e-13, "n = {n}: residual {r}");
                    }
                }
            }
        }
        assert!(
            swaps >= 7,
            "only {swaps} of 10 small diagonals swapped rows"
        );
        let mut a = [1.0; 144];
        assert_eq!(
            lu_factor_masked_real(12, u128::MAX, &mut a, &mut [0.0; 12]),
            Err(LinearError::Shape),
            "more than 11 unknowns have no mask"
        );
    }

    /// A zero on the diagonal needs the row swap; Robertson's `I − γhJ` at a stiff step
    /// (entries from 1e-2 to 1e7) is solved to its condition.
    #[test]
    fn pivoting_and_stiff_scales() {
        let mut a = [0.0, 1.0, 1.0, 0.0];
        let mut piv = [0; 2];
        lu_factor(2, &mut a, &mut piv).unwrap();
        assert_eq!(piv, [1, 1]);
        let mut b = [2.0, 3.0];
        lu_solve(2, &a, &piv, &mut b).unwrap();
        assert_eq!(b, [3.0, 2.0]);
        let (y2, y3, gh) = (3.6e-5, 0.02, 1e-1);
        let j = [
            [-0.04, 1e4 * y3, 1e4 * y2],
            [0.04, -1e4 * y3 - 6e7 * y2, -1e4 * y2],
            [0.0, 6e7 * y2, 0.0],
        ];
        let mut m = [0.0; 9];
        for i in 0..3 {
            for k in 0..3 {
                m[i * 3 + k] = f64::from(u8::from(i == k)) - gh * j[i][k];
            }
        }
        let orig = m;
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|k| orig[i * 3 + k] * x[k]).sum())
            .collect();
        let mut piv = [0; 3];
        lu_factor(3, &mut m, &mut piv).unwrap();
        lu_solve(3, &m, &piv, &mut b).unwrap();
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-9, "x{i} = {}", b[i]);
        }
    }

    #[test]
    fn singular_and_malformed_systems_are_reported() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let mut piv = [0; 2];
        assert_eq!(
            lu_factor(2, &mut a, &mut piv),
            Err(LinearError::Singular(1))
        );
        let mut a = [f64::NAN, 0.0, 0.0, 1.0];
        assert_eq!(
            lu_factor(2, &mut a, &mut piv),
            Err(LinearError::Singular(0))
        );
        assert_eq!(
            lu_factor(2, &mut [1.0; 3], &mut piv),
            Err(LinearError::Shape)
        );
        let mut b = [1.0, 2.0];
        assert_eq!(
            lu_solve(2, &[1.0; 4], &[0, 5], &mut b),
            Err(LinearError::Shape)
        );
    }
}
