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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elliptic_k_known_values() {
        // K(0) = π/2; K(1/√2) = Γ(1/4)²/(4·sqrt(π)) = 1.8540746773013719 (A&S 17.3).
        assert!((elliptic_k(0.0) - PI / 2.0).abs() < 1e-15);
        let k = elliptic_k(std::f64::consts::FRAC_1_SQRT_2);
        assert!((k - 1.854_074_677_301_372).abs() < 1e-14, "{k}");
    }

    #[test]
    fn small_amplitude_period_is_the_linear_one() {
        let t = pendulum_period(2.0, 9.81, 1e-4);
        let t0 = 2.0 * PI * (2.0f64 / 9.81).sqrt();
        // Next term of the series: T0·θ²/16 ≈ 6e-10·T0.
        assert!((t / t0 - 1.0).abs() < 1e-9);
    }

    #[test]
    fn crossings_of_a_sine() {
        let s: Vec<(f64, f64)> = (0..2000)
            .map(|i| {
                let t = i as f64 * 0.01;
                (t, (t * 2.0 * PI / 3.0).cos())
            })
            .collect();
        // Downward crossings at t = 0.75 + 3·n; linear interpolation is exact
        // to (0.01)²·(2π/3)²/8 relative to the slope: far below 1e-4.
        let c = downward_crossings(&s);
        assert!((c[0] - 0.75).abs() < 1e-4, "{c:?}");
        assert!((mean_period(&s).unwrap() - 3.0).abs() < 1e-4);
    }
}
