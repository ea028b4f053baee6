//! Pure mathematical τ procedures, all computed by `libm` so results are identical everywhere.
//!
//! Every function here is the single definition used by compiled models and by the
//! interpreter alike: both call these functions, never `f64` methods of `std`, so a
//! compiled and an interpreted run agree to the bit on every platform, with or without
//! `std`. NaN arguments propagate unless a function says otherwise.

mod root;

pub use root::inv_root;

/// Absolute value: `abs(x) = |x|` (`libm::fabs`; `abs(-0.0) = 0.0`, `abs(NaN)` is NaN).
#[inline]
pub fn abs(x: f64) -> f64 {
    libm::fabs(x)
}

/// Sign: `sign(x) = 1.0` if `x > 0`, `-1.0` if `x < 0`, `0.0` if `x = ±0`, NaN if `x` is NaN.
///
/// Both zeros give `+0.0` (`sign(-0.0) = 0.0`), and infinities give `±1.0`.
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// Square root: `sqrt(x) = √x` (`libm::sqrt`, correctly rounded); NaN for `x < 0`.
#[inline]
pub fn sqrt(x: f64) -> f64 {
    libm::sqrt(x)
}

/// Exponential: `exp(x) = eˣ` (`libm::exp`).
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Natural logarithm: `ln(x) = logₑ x` (`libm::log`); `-inf` at 0, NaN for `x < 0`.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Decimal logarithm: `log10(x) = log₁₀ x` (`libm::log10`); `-inf` at 0, NaN for `x < 0`.
#[inline]
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// Sine of `x` radians: `sin(x)` (`libm::sin`).
#[inline]
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}

/// Cosine of `x` radians: `cos(x)` (`libm::cos`).
#[inline]
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// Tangent of `x` radians: `tan(x)` (`libm::tan`).
#[inline]
pub fn tan(x: f64) -> f64 {
    libm::tan(x)
}

/// Arcsine in radians: `asin(x) ∈ [-π/2, π/2]` (`libm::asin`); NaN for `|x| > 1`.
#[inline]
pub fn asin(x: f64) -> f64 {
    libm::asin(x)
}

/// Arccosine in radians: `acos(x) ∈ [0, π]` (`libm::acos`); NaN for `|x| > 1`.
#[inline]
pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}

/// Arctangent in radians: `atan(x) ∈ [-π/2, π/2]` (`libm::atan`).
#[inline]
pub fn atan(x: f64) -> f64 {
    libm::atan(x)
}

/// Four-quadrant arctangent: `atan2(y, x)` = angle of the point `(x, y)`, in `[-π, π]`
/// (`libm::atan2`; note the order: `y` first).
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// Hyperbolic sine: `sinh(x) = (eˣ − e⁻ˣ)/2` (`libm::sinh`).
#[inline]
pub fn sinh(x: f64) -> f64 {
    libm::sinh(x)
}

/// Hyperbolic cosine: `cosh(x) = (eˣ + e⁻ˣ)/2` (`libm::cosh`).
#[inline]
pub fn cosh(x: f64) -> f64 {
    libm::cosh(x)
}

/// Hyperbolic tangent: `tanh(x) = sinh(x)/cosh(x)` (`libm::tanh`).
#[inline]
pub fn tanh(x: f64) -> f64 {
    libm::tanh(x)
}

/// Lesser of two values: `min(a, b) = a if (a < b or b is NaN) else b`
/// (`libm::fmin`, IEEE 754-2008 `minNum`).
///
/// A NaN argument is ignored: `min(NaN, b) = b`, `min(a, NaN) = a`; only `min(NaN, NaN)`
/// is NaN. Equal arguments give `b`, so for zeros of both signs the second one wins:
/// `min(-0.0, 0.0) = 0.0`, `min(0.0, -0.0) = -0.0`.
#[inline]
pub fn min(a: f64, b: f64) -> f64 {
    // libm's own `fmin`, written here so that it inlines (a call into the `libm` crate
    // does not): the same comparison, and the same `· 1.0` that quiets a signalling NaN.
    (if b.is_nan() || a < b { a } else { b }) * 1.0
}

/// Greater of two values: `max(a, b) = b if (a < b or a is NaN) else a`
/// (`libm::fmax`, IEEE 754-2008 `maxNum`).
///
/// A NaN argument is ignored: `max(NaN, b) = b`, `max(a, NaN) = a`; only `max(NaN, NaN)`
/// is NaN. Equal arguments give `a`, so for zeros of both signs the first one wins:
/// `max(0.0, -0.0) = 0.0`, `max(-0.0, 0.0) = -0.0`.
#[inline]
pub fn max(a: f64, b: f64) -> f64 {
    // libm's own `fmax`, inlined as `min` is.
    (if a.is_nan() || a < b { b } else { a }) * 1.0
}

/// Power: `pow(x, y) = xʸ` (`libm::pow`, C99 rules: `pow(x, 0) = 1` and `pow(1, y) = 1`
/// even for NaN, NaN for a negative `x` with a non-integer `y`).
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Length of the vector `(x, y)`: `hypot(x, y) = √(x² + y²)` without intermediate
/// overflow (`libm::hypot`; `+inf` if either argument is infinite, even with a NaN).
#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}

/// Round down: `floor(x)` = the greatest integer `<= x` (`libm::floor`).
#[inline]
pub fn floor(x: f64) -> f64 {
    libm::floor(x)
}

/// Round up: `ceil(x)` = the least integer `>= x` (`libm::ceil`).
#[inline]
pub fn ceil(x: f64) -> f64 {
    libm::ceil(x)
}

/// Round to the nearest integer, halves away from zero: `round(2.5) = 3`,
/// `round(-2.5) = -3` (`libm::round`).
#[inline]
pub fn round(x: f64) -> f64 {
    libm::round(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_values() {
        assert_eq!(sign(3.5), 1.0);
        assert_eq!(sign(-1e-300), -1.0);
        assert_eq!(sign(f64::INFINITY), 1.0);
        assert_eq!(sign(f64::NEG_INFINITY), -1.0);
        assert_eq!(sign(0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(sign(-0.0).to_bits(), 0.0f64.to_bits());
        assert!(sign(f64::NAN).is_nan());
    }

    #[test]
    fn abs_and_roots() {
        assert_eq!(abs(-2.0), 2.0);
        assert_eq!(abs(-0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(sqrt(9.0), 3.0);
        assert!(sqrt(-1.0).is_nan());
        assert_eq!(hypot(3.0, 4.0), 5.0);
        assert_eq!(hypot(f64::INFINITY, f64::NAN), f64::INFINITY);
        assert_eq!(pow(2.0, 10.0), 1024.0);
        assert_eq!(pow(f64::NAN, 0.0), 1.0);
        assert!(pow(-8.0, 1.0 / 3.0).is_nan());
    }

    #[test]
    fn exp_and_logs() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan());
        assert_eq!(log10(1000.0), 3.0);
        assert_eq!(ln(exp(1.0)), 1.0);
    }

    #[test]
    fn trigonometry() {
        assert_eq!(sin(0.0), 0.0);
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(tan(0.0), 0.0);
        assert_eq!(asin(1.0), core::f64::consts::FRAC_PI_2);
        assert_eq!(acos(-1.0), core::f64::consts::PI);
        assert!(asin(2.0).is_nan());
        assert_eq!(atan(f64::INFINITY), core::f64::consts::FRAC_PI_2);
        assert_eq!(atan2(1.0, 0.0), core::f64::consts::FRAC_PI_2);
        assert_eq!(atan2(0.0, -1.0), core::f64::consts::PI);
        assert_eq!(atan2(-1.0, -1.0), -3.0 * core::f64::consts::FRAC_PI_4);
        assert_eq!(sinh(0.0), 0.0);
        assert_eq!(cosh(0.0), 1.0);
        assert_eq!(tanh(f64::INFINITY), 1.0);
    }

    #[test]
    fn min_max_ignore_nan() {
        assert_eq!(min(1.0, 2.0), 1.0);
        assert_eq!(max(1.0, 2.0), 2.0);
        assert_eq!(min(f64::NAN, 2.0), 2.0);
        assert_eq!(min(2.0, f64::NAN), 2.0);
        assert_eq!(max(f64::NAN, -2.0), -2.0);
        assert_eq!(max(-2.0, f64::NAN), -2.0);
        assert!(min(f64::NAN, f64::NAN).is_nan());
        assert!(max(f64::NAN, f64::NAN).is_nan());
        // Tie-breaking between zeros, pinned so that a libm upgrade changing it is noticed.
        assert_eq!(min(-0.0, 0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(min(0.0, -0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(max(0.0, -0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(max(-0.0, 0.0).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn rounding() {
        assert_eq!(floor(-1.5), -2.0);
        assert_eq!(ceil(-1.5), -1.0);
        assert_eq!(round(2.5), 3.0);
        assert_eq!(round(-2.5), -3.0);
        assert_eq!(round(0.49999999999999994), 0.0);
        assert_eq!(floor(1e300), 1e300);
    }
}
