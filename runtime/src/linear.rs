//! Dense linear systems of a few unknowns: LU factorisation with partial pivoting and the solve with its factors, in one fixed order of operations, for the stage solves of an implicit method.
//!
//! Every back end calls these two functions (none writes its own elimination), so the
//! solves give the same bits in generated code, the interpreter and the batch form.
//! The matrix is row-major in a slice of `n·n`; nothing allocates, nothing panics on
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
/// for `j = k+1 … n−1`, in that order.
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths, [`LinearError::Singular`] at the first
/// column without a nonzero finite pivot (`a` is then partly eliminated).
pub fn lu_factor(n: usize, a: &mut [f64], piv: &mut [usize]) -> Result<(), LinearError> {
    if a.len() != n * n || piv.len() != n {
        return Err(LinearError::Shape);
    }
    factor(n, a, &mut |k, p| piv[k] = p)
}

/// [`lu_factor`] with the pivots recorded as reals (`piv[k]` the row index as `f64`,
/// exact): for a matrix and pivots held in a model's hidden real states.
///
/// # Errors
///
/// As [`lu_factor`].
pub fn lu_factor_real(n: usize, a: &mut [f64], piv: &mut [f64]) -> Result<(), LinearError> {
    if a.len() != n * n || piv.len() != n {
        return Err(LinearError::Shape);
    }
    factor(n, a, &mut |k, p| piv[k] = p as f64)
}

/// The elimination of [`lu_factor`], each pivot row given to `record(k, p)`.
fn factor(
    n: usize,
    a: &mut [f64],
    record: &mut dyn FnMut(usize, usize),
) -> Result<(), LinearError> {
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
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let pivot = a[k * n + k];
        for i in k + 1..n {
            let l = a[i * n + k] / pivot;
            a[i * n + k] = l;
            for j in k + 1..n {
                a[i * n + j] -= l * a[k * n + j];
            }
        }
    }
    Ok(())
}

/// Solves `A·x = b` in place (`b` becomes `x`) with the factors of [`lu_factor`]: the
/// row swaps of `piv` in order, then forward substitution `y_i = b_i − Σ_{j<i} l_ij·y_j`
/// and back substitution `x_i = (y_i − Σ_{j>i} u_ij·x_j)/u_ii`, each sum subtracted term
/// by term in increasing `j`.
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths.
pub fn lu_solve(n: usize, lu: &[f64], piv: &[usize], b: &mut [f64]) -> Result<(), LinearError> {
    if lu.len() != n * n || piv.len() != n || b.len() != n || piv.iter().any(|&p| p >= n) {
        return Err(LinearError::Shape);
    }
    solve(n, lu, &|k| piv[k], b);
    Ok(())
}

/// [`lu_solve`] with the pivots of [`lu_factor_real`].
///
/// # Errors
///
/// [`LinearError::Shape`] for wrong lengths or a pivot that is not a row index.
pub fn lu_solve_real(n: usize, lu: &[f64], piv: &[f64], b: &mut [f64]) -> Result<(), LinearError> {
    let row =
        |p: f64| (p >= 0.0 && p < n as f64 && p == crate::math::floor(p)).then_some(p as usize);
    if lu.len() != n * n || piv.len() != n || b.len() != n || piv.iter().any(|&p| row(p).is_none())
    {
        return Err(LinearError::Shape);
    }
    solve(n, lu, &|k| piv[k] as usize, b);
    Ok(())
}

/// The substitutions of [`lu_solve`], the pivot row of column `k` given by `pivot(k)`.
fn solve(n: usize, lu: &[f64], pivot: &dyn Fn(usize) -> usize, b: &mut [f64]) {
    for k in 0..n {
        b.swap(k, pivot(k));
    }
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s -= lu[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= lu[i * n + j] * b[j];
        }
        b[i] = s / lu[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A deterministic pseudo-random number in `[-1, 1)` (xorshift).
    fn next(seed: &mut u64) -> f64 {
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
