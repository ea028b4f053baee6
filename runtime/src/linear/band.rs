//! The band LU of an iteration matrix with many unknowns and a narrow band: partial pivoting within the band, in LAPACK's `dgbtf2` storage, and its solves, each in one fixed order of operations.

use super::{LinearError, row};

/// The number of cells of a band matrix of order `n` with `kl` sub- and `ku`
/// super-diagonals in the storage of [`band_factor_real`]: `n·(2·kl + ku + 1)`.
pub const fn band_len(n: usize, kl: usize, ku: usize) -> usize {
    n * (2 * kl + ku + 1)
}

/// Factorises the `n × n` band matrix with `kl` sub- and `ku` super-diagonals held in
/// `a` in place, with partial pivoting within the band, as LAPACK's `dgbtf2` does in
/// its own storage.
///
/// **Storage** (row-major, shifted): row `i` has `w = 2·kl + ku + 1` cells, cell
/// `a[i·w + (j − i + kl)]` holding the entry of column `j` for `i − kl ≤ j ≤ i + kl +
/// ku`. On entry the entries `A_ij` with `i − kl ≤ j ≤ i + ku` are read; the `kl` cells
/// after them in each row (columns `i + ku + 1 … i + kl + ku`, where the row swaps
/// widen the upper band of `U` to `kl + ku`) are set to 0 first, and cells of columns
/// outside `0 … n−1` are never read nor written.
///
/// **Elimination**, column `k = 0 … n−1` in order: the row of largest `|a_ik|` for
/// `k ≤ i ≤ min(k + kl, n−1)`, the first such row at a tie, is the pivot row `p`;
/// `piv[k] = p` (the index as `f64`, exact); rows `k` and `p` swap their cells of
/// columns `k … min(k + kl + ku, n−1)`; then for each row `i = k+1 … min(k + kl, n−1)`
/// in order the multiplier `l_ik = a_ik / a_kk` is stored in the cell of `a_ik` and the
/// row is updated `a_ij = a_ij − l_ik·a_kj` for `j = k+1 … min(k + kl + ku, n−1)`, in
/// that order; then the diagonal cell is replaced by its reciprocal `1/u_kk` (as
/// [`super::lu_factor`] does, which the solve multiplies by). On return the cells
/// above the diagonal (columns `i + 1 … i + kl + ku`) hold `U`, the diagonal `1/u_ii`,
/// those below it the multipliers of each column's elimination. Unlike
/// [`lu_factor_real`](super::lu_factor_real), a swap leaves the multipliers of earlier columns where they are
/// (they are applied in order by [`band_solve_real`], each after its swap: `A =
/// P_0·L_0·P_1·L_1 ⋯ U`).
///
/// ```
/// use sit_runtime::linear::{band_factor_real, band_len, band_solve_real};
///
/// // The tridiagonal [2 −1 0; −1 2 −1; 0 −1 2] (kl = ku = 1, w = 4 cells a row:
/// // columns i−1, i, i+1 and the fill-in i+2) and x = [1, 2, 3]: b = [0, 0, 4].
/// let (n, kl, ku) = (3, 1, 1);
/// let mut a = [
///     0.0, 2.0, -1.0, 0.0, // row 0 (its column −1 is never read)
///     -1.0, 2.0, -1.0, 0.0, // row 1
///     -1.0, 2.0, 0.0, 0.0, // row 2 (its columns 3 and 4 are never read)
/// ];
/// assert_eq!(a.len(), band_len(n, kl, ku));
/// let mut piv = [0.0; 3];
/// band_factor_real(n, kl, ku, &mut a, &mut piv).unwrap();
/// let mut b = [0.0, 0.0, 4.0];
/// band_solve_real(n, kl, ku, &a, &piv, &mut b).unwrap();
/// assert!((0..3).all(|i| (b[i] - [1.0, 2.0, 3.0][i]).abs() < 1e-15));
/// ```
///
/// # Errors
///
/// [`LinearError::Shape`] when `a` does not have [`band_len`]`(n, kl, ku)` cells or
/// `piv` not `n`; [`LinearError::Singular`] at the first column without a nonzero
/// finite pivot in the band (`a` is then partly eliminated).
#[inline]
pub fn band_factor_real(
    n: usize,
    kl: usize,
    ku: usize,
    a: &mut [f64],
    piv: &mut [f64],
) -> Result<(), LinearError> {
    let w = 2 * kl + ku + 1;
    if a.len() != band_len(n, kl, ku) || piv.len() != n {
        return Err(LinearError::Shape);
    }
    let at = |i: usize, j: usize| i * w + j + kl - i;
    for i in 0..n {
        for j in i + ku + 1..(i + kl + ku + 1).min(n) {
            a[at(i, j)] = 0.0;
        }
    }
    for k in 0..n {
        let last = (k + kl).min(n - 1);
        let right = (k + kl + ku).min(n - 1);
        let mut p = k;
        let mut best = crate::math::abs(a[at(k, k)]);
        for i in k + 1..=last {
            let v = crate::math::abs(a[at(i, k)]);
            if v > best {
                best = v;
                p = i;
            }
        }
        if best == 0.0 || !best.is_finite() {
            return Err(LinearError::Singular(k));
        }
        piv[k] = p as f64;
        if p != k {
            for j in k..=right {
                a.swap(at(k, j), at(p, j));
            }
        }
        let pivot = a[at(k, k)];
        for i in k + 1..=last {
            let l = a[at(i, k)] / pivot;
            a[at(i, k)] = l;
            for j in k + 1..=right {
                a[at(i, j)] -= l * a[at(k, j)];
            }
        }
        // Held as its reciprocal, which every solve multiplies by (as the dense LU).
        a[at(k, k)] = 1.0 / pivot;
    }
    Ok(())
}

/// Solves `A·x = b` in place (`b` becomes `x`) with the factors of
/// [`band_factor_real`] (same `n`, `kl`, `ku`): for each column `k = 0 … n−1` in
/// order, `b_k` and `b_piv[k]` swap, then `b_i = b_i − l_ik·b_k` for `i = k+1 …
/// min(k + kl, n−1)` in order; then back substitution `x_i = (b_i − Σ_j u_ij·x_j)·(1/u_ii)`
/// (the reciprocal as the factorisation left it on the diagonal)
/// for `i = n−1 … 0`, the sum over `j = i+1 … min(i + kl + ku, n−1)` subtracted term by
/// term in decreasing `j` (as in [`lu_solve`](super::lu_solve): the unknown found last subtracted last).
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths or a pivot that is not a row index of its
/// column's band (`k ≤ piv[k] ≤ k + kl`, an integer).
#[inline]
pub fn band_solve_real(
    n: usize,
    kl: usize,
    ku: usize,
    lu: &[f64],
    piv: &[f64],
    b: &mut [f64],
) -> Result<(), LinearError> {
    let w = 2 * kl + ku + 1;
    let row = |k: usize| {
        let p = piv[k];
        row(p, n).is_some_and(|r| r >= k && r <= k + kl)
    };
    if lu.len() != band_len(n, kl, ku) || piv.len() != n || b.len() != n || !(0..n).all(row) {
        return Err(LinearError::Shape);
    }
    let at = |i: usize, j: usize| i * w + j + kl - i;
    for k in 0..n {
        b.swap(k, piv[k] as usize);
        let bk = b[k];
        for i in k + 1..=(k + kl).min(n - 1) {
            b[i] -= lu[at(i, k)] * bk;
        }
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in (i + 1..=(i + kl + ku).min(n - 1)).rev() {
            s -= lu[at(i, j)] * b[j];
        }
        b[i] = s * lu[at(i, i)];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::tests::next;
    use crate::linear::{lu_factor_real, lu_solve_real};
    use std::vec::Vec;

    /// A random `n × n` band matrix (`kl`, `ku`) with a weighted diagonal, dense
    /// (row-major) and in the storage of [`band_factor_real`].
    fn banded(seed: &mut u64, n: usize, kl: usize, ku: usize) -> (Vec<f64>, Vec<f64>) {
        let w = 2 * kl + ku + 1;
        let mut dense = std::vec![0.0; n * n];
        let mut band = std::vec![0.0; band_len(n, kl, ku)];
        for i in 0..n {
            for j in i.saturating_sub(kl)..(i + ku + 1).min(n) {
                let mut v = next(seed);
                if i == j {
                    // Small diagonals too, so that the pivoting swaps rows.
                    v *= 0.5 + (kl + ku) as f64 * f64::from(u8::from(next(seed) > 0.0));
                }
                dense[i * n + j] = v;
                band[i * w + j + kl - i] = v;
            }
            // Garbage in the fill-in cells, which the factorisation must clear.
            for j in i + ku + 1..(i + kl + ku + 1).min(n) {
                band[i * w + j + kl - i] = 7.0;
            }
        }
        (dense, band)
    }

    /// Random band matrices of 1 to 30 unknowns and bandwidths 0 to 4: the band
    /// factors give the dense LU's solution to rounding, and both the known solution
    /// to the matrices' condition.
    #[test]
    fn band_matches_dense_on_random_band_matrices() {
        let mut seed = 0xba4d_u64;
        let mut swaps = 0;
        for n in 1..=30 {
            for (kl, ku) in [(0, 0), (1, 1), (1, 0), (0, 2), (2, 1), (3, 4), (4, 2)] {
                let (dense, mut band) = banded(&mut seed, n, kl, ku);
                let x: Vec<f64> = (0..n).map(|_| next(&mut seed)).collect();
                let b: Vec<f64> = (0..n)
                    .map(|i| (0..n).map(|j| dense[i * n + j] * x[j]).sum())
                    .collect();
                let mut lu = dense.clone();
                let mut p = std::vec![0.0; n];
                if lu_factor_real(n, &mut lu, &mut p).is_err() {
                    continue;
                }
                let mut xd = b.clone();
                lu_solve_real(n, &lu, &p, &mut xd).unwrap();
                let mut bp = std::vec![0.0; n];
                band_factor_real(n, kl, ku, &mut band, &mut bp).expect("regular as dense");
                assert_eq!(p, bp, "n = {n}, kl = {kl}, ku = {ku}: the same pivots");
                swaps += (0..n).filter(|&k| bp[k] != k as f64).count();
                let mut xb = b.clone();
                band_solve_real(n, kl, ku, &band, &bp, &mut xb).unwrap();
                let scale = xd.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
                for i in 0..n {
                    assert!(
                        (xb[i] - xd[i]).abs() <= 1e-12 * scale,
                        "n = {n}, kl = {kl}, ku = {ku}: x{i} = {} vs dense {}",
                        xb[i],
                        xd[i]
                    );
                }
                let res: f64 = (0..n).map(|i| (xd[i] - x[i]).abs()).fold(0.0, f64::max);
                if res < 1e-8 {
                    let err = (0..n).map(|i| (xb[i] - x[i]).abs()).fold(0.0, f64::max);
                    assert!(err < 1e-8, "n = {n}, kl = {kl}, ku = {ku}: error {err}");
                }
            }
        }
        assert!(
            swaps > 100,
            "only {swaps} row swaps: the pivoting is not tested"
        );
    }

    /// The discrete heat equation's implicit Euler matrix `I + c·tridiag(−1, 2, −1)`
    /// times a sine mode is the mode times `1 + 4c·sin²(πk/(2(n+1)))`: the band solve
    /// gives the mode back to rounding.
    #[test]
    fn band_solves_the_heat_equations_eigenmode() {
        let (n, c) = (50, 1e4);
        let (kl, ku) = (1, 1);
        let w = 2 * kl + ku + 1;
        let mut a = std::vec![0.0; band_len(n, kl, ku)];
        for i in 0..n {
            a[i * w + kl] = 1.0 + 2.0 * c;
            if i > 0 {
                a[i * w] = -c;
            }
            if i + 1 < n {
                a[i * w + kl + 1] = -c;
            }
        }
        let mut piv = std::vec![0.0; n];
        band_factor_real(n, kl, ku, &mut a, &mut piv).unwrap();
        let k = 3.0;
        let theta = core::f64::consts::PI * k / (n + 1) as f64;
        let mode: Vec<f64> = (0..n).map(|i| (theta * (i + 1) as f64).sin()).collect();
        let lambda = 1.0 + 4.0 * c * (theta / 2.0).sin().powi(2);
        let mut b: Vec<f64> = mode.iter().map(|v| v * lambda).collect();
        band_solve_real(n, kl, ku, &a, &piv, &mut b).unwrap();
        for i in 0..n {
            assert!(
                (b[i] - mode[i]).abs() < 1e-12,
                "x{i} = {} vs {}",
                b[i],
                mode[i]
            );
        }
    }

    #[test]
    fn singular_and_malformed_band_systems_are_reported() {
        // Column 1 of [1 1 0; 1 1 0; 0 0 1] has no pivot after the first elimination.
        let mut a = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let mut piv = [0.0; 3];
        assert_eq!(
            band_factor_real(3, 1, 1, &mut a, &mut piv),
            Err(LinearError::Singular(1))
        );
        assert_eq!(
            band_factor_real(3, 1, 1, &mut [1.0; 11], &mut piv),
            Err(LinearError::Shape)
        );
        let mut b = [1.0; 3];
        // A pivot outside its column's band.
        assert_eq!(
            band_solve_real(3, 1, 1, &[1.0; 12], &[2.0, 1.0, 2.0], &mut b),
            Err(LinearError::Shape)
        );
        assert_eq!(
            band_solve_real(3, 1, 1, &[1.0; 12], &[0.5, 1.0, 2.0], &mut b),
            Err(LinearError::Shape)
        );
        assert_eq!(b, [1.0; 3]);
    }
}
