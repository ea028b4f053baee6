//! Levenberg–Marquardt on a box, the textbook algorithm (Marquardt's scaling of the damping by the diagonal of JᵀJ) with a small dense solve: what `fit` minimises with.

/// A least-squares problem: residuals and their Jacobian at a point.
pub trait Problem {
    /// The residuals `r(q)` and the Jacobian `∂r/∂q` (one row per residual), or why the
    /// point cannot be evaluated.
    fn eval(&mut self, q: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), String>;
}

/// How the iteration ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The point found.
    pub q: Vec<f64>,
    /// The residuals there.
    pub r: Vec<f64>,
    /// The Jacobian there.
    pub jac: Vec<Vec<f64>>,
    /// The evaluations made.
    pub evals: usize,
    /// The iterations (accepted or not).
    pub iterations: usize,
    /// Whether a convergence test stopped it (else the iteration limit).
    pub converged: bool,
}

/// `Σ r²`.
pub fn sum_sq(r: &[f64]) -> f64 {
    r.iter().map(|x| x * x).sum()
}

/// `JᵀJ` and `Jᵀr`.
pub fn normal(jac: &[Vec<f64>], r: &[f64], n: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut a = vec![vec![0.0; n]; n];
    let mut g = vec![0.0; n];
    for (row, ri) in jac.iter().zip(r) {
        for i in 0..n {
            g[i] += row[i] * ri;
            for j in 0..n {
                a[i][j] += row[i] * row[j];
            }
        }
    }
    (a, g)
}

/// The solution of `a·x = b` by Gaussian elimination with partial pivoting; `None`
/// when `a` is singular.
pub fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))?;
        if a[p][k] == 0.0 || !a[p][k].is_finite() {
            return None;
        }
        a.swap(k, p);
        b.swap(k, p);
        for i in k + 1..n {
            let (top, bottom) = a.split_at_mut(i);
            let (pivot, row) = (&top[k], &mut bottom[0]);
            let f = row[k] / pivot[k];
            for (x, y) in row[k..].iter_mut().zip(&pivot[k..]) {
                *x -= f * y;
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| a[k][j] * x[j]).sum();
        x[k] = (b[k] - s) / a[k][k];
    }
    Some(x)
}

/// The inverse of `a` (column by column), `None` when singular.
pub fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        cols.push(solve(a.to_vec(), e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

/// Minimises `Σ r(q)²` from `q0` within `[lo, hi]` (each trial point clamped into the
/// box), at most `max_iter` iterations; `each` is called after every accepted step
/// with the iteration and the sum of squares.
pub fn minimise(
    problem: &mut dyn Problem,
    q0: &[f64],
    (lo, hi): (&[f64], &[f64]),
    max_iter: usize,
    each: &mut dyn FnMut(usize, f64),
) -> Result<Outcome, String> {
    let n = q0.len();
    let clamp = |q: Vec<f64>| -> Vec<f64> {
        q.iter()
            .enumerate()
            .map(|(i, &x)| x.clamp(lo[i], hi[i]))
            .collect()
    };
    let mut q = clamp(q0.to_vec());
    let (mut r, mut jac) = problem.eval(&q)?;
    let mut evals = 1;
    let mut cost = sum_sq(&r);
    let mut lambda = 1e-3;
    let mut converged = false;
    let mut iterations = 0;
    while iterations < max_iter {
        iterations += 1;
        let (a, g) = normal(&jac, &r, n);
        let mut damped = a.clone();
        for (i, row) in damped.iter_mut().enumerate() {
            row[i] += lambda * a[i][i].max(1e-300);
        }
        let Some(mut step) = solve(damped.clone(), g.iter().map(|x| -x).collect()) else {
            lambda *= 10.0;
            continue;
        };
        // A param on a bound that the step pushes out of the box is held there and the
        // step solved for the others (an active set), rather than clamped afterwards.
        let held: Vec<usize> = (0..n)
            .filter(|&i| (q[i] <= lo[i] && step[i] < 0.0) || (q[i] >= hi[i] && step[i] > 0.0))
            .collect();
        if !held.is_empty() {
            let mut a = damped;
            let mut rhs: Vec<f64> = g.iter().map(|x| -x).collect();
            for &i in &held {
                a[i].fill(0.0);
                for row in a.iter_mut() {
                    row[i] = 0.0;
                }
                a[i][i] = 1.0;
                rhs[i] = 0.0;
            }
            match solve(a, rhs) {
                Some(s) => step = s,
                None => {
                    lambda *= 10.0;
                    continue;
                }
            }
        }
        let trial = clamp(q.iter().zip(&step).map(|(a, b)| a + b).collect());
        let moved = trial
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs() / (1e-12 + b.abs()))
            .fold(0.0, f64::max);
        let result = problem.eval(&trial);
        evals += 1;
        match result {
            Ok((r2, j2)) if sum_sq(&r2) <= cost => {
                let c2 = sum_sq(&r2);
                let reduction = (cost - c2) / cost.max(1e-300);
                q = trial;
                r = r2;
                jac = j2;
                cost = c2;
                lambda = (lambda / 10.0).max(1e-12);
                each(iterations, cost);
                if reduction < 1e-12 || moved < 1e-12 || cost == 0.0 {
                    converged = true;
                    break;
                }
            }
            // Worse, or a point the model cannot run at: damp more.
            _ => {
                lambda *= 10.0;
                if lambda > 1e16 || moved < 1e-14 {
                    converged = true;
                    break;
                }
            }
        }
    }
    Ok(Outcome {
        q,
        r,
        jac,
        evals,
        iterations,
        converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rosenbrock's valley as residuals `(10·(y − x²), 1 − x)`: the minimum at (1, 1).
    struct Valley;

    impl Problem for Valley {
        fn eval(&mut self, q: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), String> {
            let (x, y) = (q[0], q[1]);
            Ok((
                vec![10.0 * (y - x * x), 1.0 - x],
                vec![vec![-20.0 * x, 10.0], vec![-1.0, 0.0]],
            ))
        }
    }

    #[test]
    fn finds_the_valley_floor_and_respects_bounds() {
        let inf = f64::INFINITY;
        let out = minimise(
            &mut Valley,
            &[-1.2, 1.0],
            (&[-inf, -inf], &[inf, inf]),
            200,
            &mut |_, _| {},
        )
        .unwrap();
        assert!(out.converged);
        assert!(
            (out.q[0] - 1.0).abs() < 1e-8 && (out.q[1] - 1.0).abs() < 1e-8,
            "{:?}",
            out.q
        );
        // With x ≤ 0.5 the best is on the bound: x = 0.5, y = 0.25.
        let out = minimise(
            &mut Valley,
            &[-1.2, 1.0],
            (&[-inf, -inf], &[0.5, inf]),
            200,
            &mut |_, _| {},
        )
        .unwrap();
        assert!(
            (out.q[0] - 0.5).abs() < 1e-8 && (out.q[1] - 0.25).abs() < 1e-6,
            "{:?}",
            out.q
        );
    }

    #[test]
    fn solves_and_inverts() {
        let a = vec![vec![4.0, 1.0], vec![1.0, 3.0]];
        let inv = inverse(&a).unwrap();
        assert!((inv[0][0] - 3.0 / 11.0).abs() < 1e-15 && (inv[0][1] + 1.0 / 11.0).abs() < 1e-15);
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 1.0]).is_none());
    }
}
