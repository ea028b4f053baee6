//! Independent references for the model tests: exact pendulum period, zero crossings.

use std::f64::consts::PI;

/// The arithmetic-geometric mean of `a` and `b` (both > 0): iterate
/// `(a, b) → ((a + b)/2, sqrt(a·b))` until the two agree to rounding.
pub fn agm(mut a: f64, mut b: f64) -> f64 {
    // Converges quadratically: 10 iterations reach rounding from any ratio
    // up to 1e30; 64 is a bound that cannot loop forever.
    for _ in 0..64 {
        if (a - b).abs() <= 1e-16 * a.abs() {
            break;
        }
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    a
}

/// The complete elliptic integral of the first kind, K(k) = π / (2·agm(1, sqrt(1 − k²))),
/// for a modulus `0 <= k < 1`.
pub fn elliptic_k(k: f64) -> f64 {
    PI / (2.0 * agm(1.0, (1.0 - k * k).sqrt()))
}

/// The exact period of a rigid pendulum of length `l` under gravity `g`
/// released at rest from `amplitude` (rad, below π): 4·sqrt(l/g)·K(sin(amplitude/2)).
pub fn pendulum_period(l: f64, g: f64, amplitude: f64) -> f64 {
    4.0 * (l / g).sqrt() * elliptic_k((amplitude / 2.0).sin())
}

/// The Jacobi elliptic function sn(u | k²) for a modulus `0 <= k < 1`, by the descending
/// Landen (AGM) transformation (Abramowitz & Stegun 16.4).
pub fn jacobi_sn(u: f64, k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    let mut ratios = Vec::new();
    for _ in 0..64 {
        let c = (a - b) / 2.0;
        if c.abs() <= 1e-17 * a {
            break;
        }
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
        ratios.push(c / a);
    }
    let mut phi = 2f64.powi(ratios.len() as i32) * a * u;
    for r in ratios.iter().rev() {
        phi = (phi + (r * phi.sin()).asin()) / 2.0;
    }
    phi.sin()
}

/// The exact angle at time `t` of a rigid pendulum of length `l` under gravity `g`
/// released at rest from `amplitude` (rad, below π): sin(θ/2) = k·sn(K(k) − ω0·t | k²)
/// with k = sin(amplitude/2) and ω0 = sqrt(g/l).
pub fn pendulum_angle(l: f64, g: f64, amplitude: f64, t: f64) -> f64 {
    let k = (amplitude / 2.0).sin();
    let w0 = (g / l).sqrt();
    2.0 * (k * jacobi_sn(elliptic_k(k) - w0 * t, k)).asin()
}

/// The times at which the sampled signal `x(t)` crosses zero going downwards
/// (from `> 0` to `<= 0`), each linearly interpolated between its two samples.
pub fn downward_crossings(samples: &[(f64, f64)]) -> Vec<f64> {
    samples
        .windows(2)
        .filter(|w| w[0].1 > 0.0 && w[1].1 <= 0.0)
        .map(|w| {
            let ((t0, x0), (t1, x1)) = (w[0], w[1]);
            t0 + (t1 - t0) * x0 / (x0 - x1)
        })
        .collect()
}

/// The mean period of a signal from its successive downward zero crossings
/// (`None` with fewer than two crossings).
pub fn mean_period(samples: &[(f64, f64)]) -> Option<f64> {
    let c = downward_crossings(samples);
    (c.len() >= 2).then(|| (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64)
}
