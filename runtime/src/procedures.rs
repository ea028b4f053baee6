//! Transitive τ procedures: functional converters, dynamic links and event edges.
//!
//! The dynamic links take the target's current value `y` (and `dt`) and return its next
//! value; [`Deriv`] and [`rising`] keep a hidden memory of their own, which the generated
//! code stores next to the model's states and clears on `reset`.

/// Ideal relay: `relay(x, a) = a·sign(x)`, that is `a` if `x > 0`, `-a` if `x < 0`,
/// and `+0.0` if `x = ±0` (whatever `a` is, so a negative `a` never gives `-0.0`).
///
/// NaN `x` gives NaN.
#[inline]
pub fn relay(x: f64, a: f64) -> f64 {
    if x > 0.0 {
        a
    } else if x < 0.0 {
        -a
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// Saturation: `limit(x, lo, hi) = max(lo, min(x, hi))`, evaluated in that order:
/// first `m = hi if x > hi else x`, then `lo if m < lo else m`.
///
/// Never panics. With `lo > hi` the result is `lo` (the lower bound wins). NaN `x`
/// gives NaN; a NaN bound is ignored (no limit on that side).
#[inline]
pub fn limit(x: f64, lo: f64, hi: f64) -> f64 {
    let m = if x > hi { hi } else { x };
    if m < lo { lo } else { m }
}

/// Dead zone: `deadzone(x, w) = x − w` if `x > w`, `x + w` if `x < −w`, `0` if `|x| <= w`
/// (so `deadzone(±w, w) = 0`).
///
/// Evaluated as `x - w if x > w, else 0.0 if abs(x) <= w, else x + w`, so NaN `x` or
/// NaN `w` gives NaN. With `w < 0` the zero band is empty and the same order applies
/// (`x > w` first), which is not a meaningful dead zone: keep `w >= 0`.
#[inline]
pub fn deadzone(x: f64, w: f64) -> f64 {
    if x > w {
        x - w
    } else if crate::math::abs(x) <= w {
        0.0
    } else {
        x + w
    }
}

/// Integrator (forward Euler over the step): `integral(y, x, dt) = y + x * dt`, exactly
/// this expression.
///
/// Because δ rules read the newest values, `v = integral(a); x = integral(v);` is
/// semi-implicit (symplectic) Euler.
#[inline]
pub fn integral(y: f64, x: f64, dt: f64) -> f64 {
    y + x * dt
}

/// Integrator with saturation: `integral_limited(y, x, lo, hi, dt) = limit(y + x * dt, lo, hi)`
/// (see [`limit`] for `lo > hi` and NaN).
#[inline]
pub fn integral_limited(y: f64, x: f64, lo: f64, hi: f64, dt: f64) -> f64 {
    limit(y + x * dt, lo, hi)
}

/// First-order lag (aperiodic link) `t·y' + y = k·x`, solved exactly for an input held
/// over the step: `lag(y, x, t, k, dt) = y + (k·x − y)·(1 − e^(−dt/t))`.
///
/// Computed as `a = -expm1(-dt / t)` (the same `1 − e^(−dt/t)`, accurate also when
/// `dt/t` is small), then `k * x` if `a == 1.0`, else `y + (k * x - y) * a`.
/// The `a == 1.0` case makes the result exactly `k * x` when the lag has settled within
/// the step: `t = ±0` (a pure gain, for any `dt`, including `dt = 0`),
/// `dt/t = +inf`, or `dt/t` so large that `e^(−dt/t)` is below rounding (`dt/t > ~37`).
/// With `dt = 0` and `t ≠ 0` it returns `y` (for finite values).
/// With `t < 0` the same formula is the exact solution of the unstable link: `y` runs
/// away from `k·x` exponentially (`a < 0`); it is applied as is, not rejected.
#[inline]
pub fn lag(y: f64, x: f64, t: f64, k: f64, dt: f64) -> f64 {
    let target = k * x;
    if t == 0.0 {
        return target;
    }
    let a = -libm::expm1(-dt / t);
    if a == 1.0 {
        target
    } else {
        y + (target - y) * a
    }
}

/// Differentiator with its own memory: `next(x, dt) = (x − x_prev) / dt`, then `x_prev = x`.
///
/// The first call after [`Deriv::new`] or [`Deriv::reset`] has no previous input: it
/// returns `0.0` and stores `x`. `dt = 0` divides by zero (±inf, or NaN if `x = x_prev`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Deriv {
    prev: Option<f64>,
}

impl Deriv {
    /// A differentiator with no previous input (`Deriv::default()` is the same).
    #[inline]
    pub const fn new() -> Deriv {
        Deriv { prev: None }
    }

    /// Next output: `(x − x_prev) / dt`, or `0.0` on the first call; stores `x` as `x_prev`.
    #[inline]
    pub fn next(&mut self, x: f64, dt: f64) -> f64 {
        let out = match self.prev {
            Some(prev) => (x - prev) / dt,
            None => 0.0,
        };
        self.prev = Some(x);
        out
    }

    /// Forgets the previous input: the next call to [`Deriv::next`] returns `0.0`.
    #[inline]
    pub fn reset(&mut self) {
        self.prev = None;
    }

    /// The stored previous input, `None` after [`Deriv::new`] or [`Deriv::reset`].
    #[inline]
    pub const fn previous(&self) -> Option<f64> {
        self.prev
    }
}

/// Relay with hysteresis whose memory is the target's current value `y`:
/// `hysteresis(y, x, lo, hi, a) = a` if `x >= hi`, else `-a` if `x <= lo`, else `y`.
///
/// Between the thresholds the output is held: it is `y` returned unchanged (bit for bit),
/// so a target starting at `0` means "off" and stays `0` until `x` first reaches `hi`
/// or `lo`; after that it latches at `a` or `-a`. A change of `a` takes effect at the
/// next crossing. The `x >= hi` test comes first, so with `lo > hi` an `x` satisfying
/// both gives `a`. NaN `x` satisfies neither and holds `y`.
#[inline]
pub fn hysteresis(y: f64, x: f64, lo: f64, hi: f64, a: f64) -> f64 {
    if x >= hi {
        a
    } else if x <= lo {
        -a
    } else {
        y
    }
}

/// Rising-edge detection for events: returns `cond && !*prev`, then sets `*prev = cond`.
///
/// `prev` is the event's memory (`false` initially and after reset), so an event that is
/// true from the very first step fires on that step.
#[inline]
pub fn rising(cond: bool, prev: &mut bool) -> bool {
    let edge = cond && !*prev;
    *prev = cond;
    edge
}

/// Keeps [`crate::math::sign`] the one definition of the sign used by [`relay`]: for every `x`
/// and a finite `a`, `relay(x, a) == a * sign(x)` (up to the sign of a zero result).
#[cfg(test)]
fn relay_by_sign(x: f64, a: f64) -> f64 {
    a * crate::math::sign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAN: f64 = f64::NAN;
    const INF: f64 = f64::INFINITY;

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits()
    }

    #[test]
    fn relay_values() {
        assert_eq!(relay(0.3, 2.0), 2.0);
        assert_eq!(relay(-0.3, 2.0), -2.0);
        assert!(same(relay(0.0, 2.0), 0.0));
        assert!(same(relay(-0.0, 2.0), 0.0));
        assert!(same(relay(0.0, -2.0), 0.0));
        assert!(relay(NAN, 2.0).is_nan());
        for x in [-3.0, -1e-300, 0.0, 2.0, INF] {
            assert_eq!(relay(x, 1.5), relay_by_sign(x, 1.5));
        }
    }

    #[test]
    fn limit_values() {
        assert_eq!(limit(5.0, -1.0, 1.0), 1.0);
        assert_eq!(limit(-5.0, -1.0, 1.0), -1.0);
        assert_eq!(limit(0.5, -1.0, 1.0), 0.5);
        assert_eq!(limit(1.0, -1.0, 1.0), 1.0);
        assert!(limit(NAN, -1.0, 1.0).is_nan());
        // lo > hi: the lower bound wins, like max(lo, min(x, hi)).
        assert_eq!(limit(0.0, 1.0, -1.0), 1.0);
        assert_eq!(limit(5.0, 1.0, -1.0), 1.0);
        assert_eq!(limit(-5.0, 1.0, -1.0), 1.0);
        // A NaN bound is no bound.
        assert_eq!(limit(5.0, NAN, 1.0), 1.0);
        assert_eq!(limit(5.0, -1.0, NAN), 5.0);
        assert_eq!(limit(INF, -1.0, 1.0), 1.0);
    }

    #[test]
    fn deadzone_values() {
        assert_eq!(deadzone(0.5, 1.0), 0.0);
        assert_eq!(deadzone(1.0, 1.0), 0.0);
        assert_eq!(deadzone(-1.0, 1.0), 0.0);
        assert_eq!(deadzone(3.0, 1.0), 2.0);
        assert_eq!(deadzone(-3.0, 1.0), -2.0);
        assert_eq!(deadzone(3.0, 0.0), 3.0);
        assert!(same(deadzone(0.0, 0.0), 0.0));
        assert!(deadzone(NAN, 1.0).is_nan());
        assert!(deadzone(0.5, NAN).is_nan());
    }

    #[test]
    fn integral_is_euler() {
        assert_eq!(integral(1.0, 2.0, 0.5), 2.0);
        assert_eq!(integral(0.1, 0.2, 1.0), 0.1 + 0.2);
        let (mut v, mut h) = (0.0, 10.0);
        for _ in 0..3 {
            v = integral(v, -9.81, 0.01);
            h = integral(h, v, 0.01);
        }
        assert_eq!(v, ((0.0 + -9.81 * 0.01) + -9.81 * 0.01) + -9.81 * 0.01);
        assert_eq!(h, 10.0 + -0.0981 * 0.01 + -0.1962 * 0.01 + v * 0.01);
    }

    #[test]
    fn integral_limited_clamps() {
        assert_eq!(integral_limited(0.9, 1.0, 0.0, 1.0, 0.5), 1.0);
        assert_eq!(integral_limited(0.1, -1.0, 0.0, 1.0, 0.5), 0.0);
        assert_eq!(integral_limited(0.5, 0.2, 0.0, 1.0, 0.5), 0.6);
        assert!(integral_limited(NAN, 0.2, 0.0, 1.0, 0.5).is_nan());
    }

    #[test]
    fn lag_formula() {
        let (y, x, t, k, dt) = (1.0, 3.0, 0.5, 2.0, 0.1);
        let expected = y + (k * x - y) * (1.0 - libm::exp(-dt / t));
        assert!((lag(y, x, t, k, dt) - expected).abs() < 1e-15);
        assert_eq!(lag(y, x, t, k, dt), y + (k * x - y) * -libm::expm1(-dt / t));
        // Held input: two half steps equal one whole step (up to rounding).
        let two = lag(lag(y, x, t, k, dt / 2.0), x, t, k, dt / 2.0);
        assert!((two - lag(y, x, t, k, dt)).abs() < 1e-14);
        // No time: no change.
        assert_eq!(lag(y, x, t, k, 0.0), y);
    }

    #[test]
    fn lag_settles_exactly() {
        // t = 0: a pure gain, exactly k * x, whatever y and dt.
        assert_eq!(lag(0.1, 0.3, 0.0, 1.0, 0.01), 0.3);
        assert_eq!(lag(0.1, 0.3, -0.0, 1.0, 0.01), 0.3);
        assert_eq!(lag(0.1, 0.3, 0.0, 1.0, 0.0), 0.3);
        assert_eq!(lag(1e300, 0.3, 0.0, 2.0, 0.01), 0.6);
        // Very large dt/t: settled to the bit (0.1 + (0.3 - 0.1) would not be 0.3).
        assert_eq!(lag(0.1, 0.3, 1e-3, 1.0, 1.0), 0.3);
        assert_eq!(lag(0.1, 0.3, 1.0, 1.0, INF), 0.3);
        assert_eq!(lag(0.1, 0.3, 1.0, 1.0, 1e6), 0.3);
    }

    #[test]
    fn lag_negative_time_constant_runs_away() {
        let (y, x, t, dt) = (1.0, 0.0, -1.0, 1.0);
        let next = lag(y, x, t, 1.0, dt);
        assert!((next - core::f64::consts::E).abs() < 1e-15);
    }

    #[test]
    fn deriv_memory() {
        let mut d = Deriv::new();
        assert_eq!(d, Deriv::default());
        assert_eq!(d.previous(), None);
        assert_eq!(d.next(5.0, 0.1), 0.0);
        assert_eq!(d.previous(), Some(5.0));
        assert_eq!(d.next(5.5, 0.1), (5.5 - 5.0) / 0.1);
        assert_eq!(d.next(5.5, 0.1), 0.0);
        assert_eq!(d.next(4.5, 0.5), -2.0);
        d.reset();
        assert_eq!(d.next(100.0, 0.1), 0.0);
        assert_eq!(d.next(101.0, 0.0), INF);
        const D: Deriv = Deriv::new();
        assert_eq!(D.previous(), None);
    }

    #[test]
    fn hysteresis_latches() {
        let (lo, hi, a) = (-1.0, 1.0, 2.0);
        let mut y = 0.0;
        // Starts off and stays off inside the band.
        for x in [0.0, 0.9, -0.9] {
            y = hysteresis(y, x, lo, hi, a);
            assert!(same(y, 0.0));
        }
        // Latches up at hi, holds inside the band.
        y = hysteresis(y, 1.0, lo, hi, a);
        assert_eq!(y, 2.0);
        for x in [0.5, -0.99, 0.0] {
            y = hysteresis(y, x, lo, hi, a);
            assert_eq!(y, 2.0);
        }
        // Latches down at lo, holds inside the band.
        y = hysteresis(y, -1.0, lo, hi, a);
        assert_eq!(y, -2.0);
        for x in [0.99, -0.5] {
            y = hysteresis(y, x, lo, hi, a);
            assert_eq!(y, -2.0);
        }
        y = hysteresis(y, 5.0, lo, hi, a);
        assert_eq!(y, 2.0);
        // NaN input holds; lo > hi gives a when both hold.
        assert_eq!(hysteresis(y, NAN, lo, hi, a), 2.0);
        assert_eq!(hysteresis(-2.0, 0.0, 1.0, -1.0, a), 2.0);
        // A negative amplitude latches just as well.
        let y = hysteresis(0.0, 2.0, lo, hi, -3.0);
        assert_eq!(hysteresis(y, 0.0, lo, hi, -3.0), -3.0);
    }

    #[test]
    fn rising_edges() {
        let mut prev = false;
        let seq = [false, true, true, false, true, false, false];
        let fired: [bool; 7] = seq.map(|c| rising(c, &mut prev));
        assert_eq!(fired, [false, true, false, false, true, false, false]);
        assert!(!prev);
        let mut prev = false;
        assert!(rising(true, &mut prev));
        assert!(prev);
    }
}
