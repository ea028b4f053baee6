//! The partial derivatives of the pure procedures, each the slope of the branch its procedure takes at the same arguments: what a model's exact Jacobian calls.
//!
//! `NAME_dARG(args…)` is `∂NAME(args…)/∂ARG`, written with the same `libm` functions
//! as [`crate::math`] so that every back end gets the same bits. A procedure that is
//! piecewise (`abs`, `min`, `max`, `limit`, `deadzone`) gives the slope of the piece it
//! evaluates at these arguments (the *active branch*: at a tie, the branch the procedure
//! itself returns); a piecewise-constant one (`sign`, `floor`, `ceil`, `round`, `relay`
//! in `x`) has slope 0 and needs no function. The slopes of lookup tables are
//! [`crate::table::slope1`] and [`crate::table::slope2`].
//!
//! ```
//! use sit_runtime::partial;
//!
//! assert_eq!(partial::sin_dx(0.0), 1.0);
//! assert_eq!(partial::min_da(1.0, 2.0), 1.0);
//! assert_eq!(partial::min_db(1.0, 2.0), 0.0);
//! assert_eq!(partial::limit_dx(5.0, 0.0, 1.0), 0.0);
//! ```

use crate::math;

/// `∂|x|/∂x`: 1 for `x > 0`, −1 for `x < 0`, 0 at zero (the subgradient's midpoint),
/// NaN for NaN.
#[inline]
pub fn abs_dx(x: f64) -> f64 {
    math::sign(x)
}

/// `∂√x/∂x = 0.5/√x` (`+inf` at 0).
#[inline]
pub fn sqrt_dx(x: f64) -> f64 {
    0.5 / math::sqrt(x)
}

/// `∂eˣ/∂x = eˣ`.
#[inline]
pub fn exp_dx(x: f64) -> f64 {
    math::exp(x)
}

/// `∂ln x/∂x = 1/x`.
#[inline]
pub fn ln_dx(x: f64) -> f64 {
    1.0 / x
}

/// `∂log10 x/∂x = 1/(x·ln 10)`.
#[inline]
pub fn log10_dx(x: f64) -> f64 {
    1.0 / (x * core::f64::consts::LN_10)
}

/// `∂sin x/∂x = cos x`.
#[inline]
pub fn sin_dx(x: f64) -> f64 {
    math::cos(x)
}

/// `∂cos x/∂x = −sin x`.
#[inline]
pub fn cos_dx(x: f64) -> f64 {
    -math::sin(x)
}

/// `∂tan x/∂x = 1 + tan²x`.
#[inline]
pub fn tan_dx(x: f64) -> f64 {
    let t = math::tan(x);
    1.0 + t * t
}

/// `∂asin x/∂x = 1/√(1 − x²)`.
#[inline]
pub fn asin_dx(x: f64) -> f64 {
    1.0 / math::sqrt(1.0 - x * x)
}

/// `∂acos x/∂x = −1/√(1 − x²)`.
#[inline]
pub fn acos_dx(x: f64) -> f64 {
    -1.0 / math::sqrt(1.0 - x * x)
}

/// `∂atan x/∂x = 1/(1 + x²)`.
#[inline]
pub fn atan_dx(x: f64) -> f64 {
    1.0 / (1.0 + x * x)
}

/// `∂atan2(y, x)/∂y = x/(x² + y²)` (0 at the origin).
#[inline]
pub fn atan2_dy(y: f64, x: f64) -> f64 {
    let r2 = x * x + y * y;
    if r2 == 0.0 { 0.0 } else { x / r2 }
}

/// `∂atan2(y, x)/∂x = −y/(x² + y²)` (0 at the origin).
#[inline]
pub fn atan2_dx(y: f64, x: f64) -> f64 {
    let r2 = x * x + y * y;
    if r2 == 0.0 { 0.0 } else { -y / r2 }
}

/// `∂sinh x/∂x = cosh x`.
#[inline]
pub fn sinh_dx(x: f64) -> f64 {
    math::cosh(x)
}

/// `∂cosh x/∂x = sinh x`.
#[inline]
pub fn cosh_dx(x: f64) -> f64 {
    math::sinh(x)
}

/// `∂tanh x/∂x = 1 − tanh²x`.
#[inline]
pub fn tanh_dx(x: f64) -> f64 {
    let t = math::tanh(x);
    1.0 - t * t
}

/// Whether [`math::min`] returns its first argument: `a < b` or `b` is NaN.
#[inline]
fn min_takes_a(a: f64, b: f64) -> bool {
    a < b || b.is_nan()
}

/// `∂min(a, b)/∂a`: 1 where `min` returns `a`, else 0.
#[inline]
pub fn min_da(a: f64, b: f64) -> f64 {
    if min_takes_a(a, b) { 1.0 } else { 0.0 }
}

/// `∂min(a, b)/∂b`: 1 where `min` returns `b` (ties included), else 0.
#[inline]
pub fn min_db(a: f64, b: f64) -> f64 {
    if min_takes_a(a, b) { 0.0 } else { 1.0 }
}

/// Whether [`math::max`] returns its second argument: `a < b` or `a` is NaN.
#[inline]
fn max_takes_b(a: f64, b: f64) -> bool {
    a < b || a.is_nan()
}

/// `∂max(a, b)/∂a`: 1 where `max` returns `a` (ties included), else 0.
#[inline]
pub fn max_da(a: f64, b: f64) -> f64 {
    if max_takes_b(a, b) { 0.0 } else { 1.0 }
}

/// `∂max(a, b)/∂b`: 1 where `max` returns `b`, else 0.
#[inline]
pub fn max_db(a: f64, b: f64) -> f64 {
    if max_takes_b(a, b) { 1.0 } else { 0.0 }
}

/// `∂xʸ/∂x = y·x^(y−1)`.
#[inline]
pub fn pow_dx(x: f64, y: f64) -> f64 {
    y * math::pow(x, y - 1.0)
}

/// `∂xʸ/∂y = xʸ·ln x` (0 where `xʸ` is 0: the limit at `x = 0` for `y > 0`).
#[inline]
pub fn pow_dy(x: f64, y: f64) -> f64 {
    let p = math::pow(x, y);
    if p == 0.0 { 0.0 } else { p * math::ln(x) }
}

/// `∂hypot(x, y)/∂x = x/hypot(x, y)` (0 at the origin).
#[inline]
pub fn hypot_dx(x: f64, y: f64) -> f64 {
    let h = math::hypot(x, y);
    if h == 0.0 { 0.0 } else { x / h }
}

/// `∂hypot(x, y)/∂y = y/hypot(x, y)` (0 at the origin).
#[inline]
pub fn hypot_dy(x: f64, y: f64) -> f64 {
    hypot_dx(y, x)
}

/// `∂relay(x, a)/∂a = sign(x)` (its slope in `x` is 0).
#[inline]
pub fn relay_da(x: f64, _a: f64) -> f64 {
    math::sign(x)
}

/// `∂limit(x, lo, hi)/∂x`: 1 where [`crate::limit`] returns `x` (neither `x > hi` nor
/// `x < lo`), else 0.
#[inline]
pub fn limit_dx(x: f64, lo: f64, hi: f64) -> f64 {
    if x > hi || x < lo { 0.0 } else { 1.0 }
}

/// `∂limit(x, lo, hi)/∂lo`: 1 where [`crate::limit`] returns `lo`, else 0.
#[inline]
pub fn limit_dlo(x: f64, lo: f64, hi: f64) -> f64 {
    let m = if x > hi { hi } else { x };
    if m < lo { 1.0 } else { 0.0 }
}

/// `∂limit(x, lo, hi)/∂hi`: 1 where [`crate::limit`] returns `hi`, else 0.
#[inline]
pub fn limit_dhi(x: f64, lo: f64, hi: f64) -> f64 {
    if x > hi && hi >= lo { 1.0 } else { 0.0 }
}

/// `∂deadzone(x, w)/∂x`: 1 outside the band, 0 inside (`|x| <= w`).
#[inline]
pub fn deadzone_dx(x: f64, w: f64) -> f64 {
    if x > w || math::abs(x) > w { 1.0 } else { 0.0 }
}

/// `∂deadzone(x, w)/∂w`: −1 above the band, 1 below it, 0 inside.
#[inline]
pub fn deadzone_dw(x: f64, w: f64) -> f64 {
    if x > w {
        -1.0
    } else if math::abs(x) <= w {
        0.0
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The central difference of `f` at `x` with step `h`.
    fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
        (f(x + h) - f(x - h)) / (2.0 * h)
    }

    /// Agreement to what a central difference of step 1e-6 can resolve: its truncation
    /// error `h²·f'''/6` and its rounding error `ε·|f|/h` are both below 1e-8 at these
    /// points (derivatives of order 1 to 3 of size at most 100).
    fn close(exact: f64, fd: f64) -> bool {
        (exact - fd).abs() <= 1e-7 * (1.0 + exact.abs())
    }

    #[test]
    fn one_argument_slopes_match_central_differences() {
        type F = fn(f64) -> f64;
        let cases: [(&str, F, F, f64); 15] = [
            ("abs", math::abs, abs_dx, -0.7),
            ("sqrt", math::sqrt, sqrt_dx, 2.3),
            ("exp", math::exp, exp_dx, 0.4),
            ("ln", math::ln, ln_dx, 1.7),
            ("log10", math::log10, log10_dx, 3.1),
            ("sin", math::sin, sin_dx, 0.9),
            ("cos", math::cos, cos_dx, 0.9),
            ("tan", math::tan, tan_dx, 0.6),
            ("asin", math::asin, asin_dx, 0.3),
            ("acos", math::acos, acos_dx, -0.4),
            ("atan", math::atan, atan_dx, 1.3),
            ("sinh", math::sinh, sinh_dx, 0.8),
            ("cosh", math::cosh, cosh_dx, -0.8),
            ("tanh", math::tanh, tanh_dx, 0.5),
            ("abs+", math::abs, abs_dx, 0.7),
        ];
        for (name, f, d, x) in cases {
            let (exact, fd) = (d(x), central(f, x, 1e-6));
            assert!(close(exact, fd), "{name}'({x}) = {exact}, differences {fd}");
        }
    }

    #[test]
    fn two_argument_slopes_match_central_differences() {
        type F = fn(f64, f64) -> f64;
        let cases: [(&str, F, F, F, f64, f64); 6] = [
            ("atan2", math::atan2, atan2_dy, atan2_dx, 0.7, -1.2),
            ("pow", math::pow, pow_dx, pow_dy, 1.6, 2.5),
            ("hypot", math::hypot, hypot_dx, hypot_dy, -0.6, 1.1),
            ("min", math::min, min_da, min_db, 0.3, 0.9),
            ("max", math::max, max_da, max_db, 0.3, 0.9),
            (
                "deadzone",
                crate::deadzone,
                deadzone_dx,
                deadzone_dw,
                1.5,
                0.5,
            ),
        ];
        for (name, f, d1, d2, a, b) in cases {
            let fd1 = central(|x| f(x, b), a, 1e-6);
            let fd2 = central(|y| f(a, y), b, 1e-6);
            assert!(close(d1(a, b), fd1), "{name}: ∂/∂1 {} vs {fd1}", d1(a, b));
            assert!(close(d2(a, b), fd2), "{name}: ∂/∂2 {} vs {fd2}", d2(a, b));
        }
    }

    #[test]
    fn piecewise_slopes_follow_the_branch_taken() {
        // A tie: `min` returns b, `max` returns a.
        assert_eq!((min_da(1.0, 1.0), min_db(1.0, 1.0)), (0.0, 1.0));
        assert_eq!((max_da(1.0, 1.0), max_db(1.0, 1.0)), (1.0, 0.0));
        // NaN is ignored by min and max: the other argument is returned.
        assert_eq!(min_da(f64::NAN, 1.0), 0.0);
        assert_eq!(max_db(f64::NAN, 1.0), 1.0);
        // limit: each of the three pieces, and hi < lo (lo wins).
        for (x, lo, hi, slopes) in [
            (0.5, 0.0, 1.0, (1.0, 0.0, 0.0)),
            (-1.0, 0.0, 1.0, (0.0, 1.0, 0.0)),
            (2.0, 0.0, 1.0, (0.0, 0.0, 1.0)),
            (2.0, 1.0, 0.0, (0.0, 1.0, 0.0)),
        ] {
            let got = (
                limit_dx(x, lo, hi),
                limit_dlo(x, lo, hi),
                limit_dhi(x, lo, hi),
            );
            assert_eq!(got, slopes, "limit({x}, {lo}, {hi})");
        }
        // deadzone: below, inside, above.
        assert_eq!((deadzone_dx(-2.0, 1.0), deadzone_dw(-2.0, 1.0)), (1.0, 1.0));
        assert_eq!((deadzone_dx(0.5, 1.0), deadzone_dw(0.5, 1.0)), (0.0, 0.0));
        assert_eq!((deadzone_dx(2.0, 1.0), deadzone_dw(2.0, 1.0)), (1.0, -1.0));
        assert_eq!(relay_da(-3.0, 2.0), -1.0);
        assert_eq!(pow_dy(0.0, 2.0), 0.0);
    }
}
