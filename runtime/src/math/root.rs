//! `inv_root(x, q) = x^(−1/q)` for the step-size control of the adaptive methods: IEEE operations only (a split of the exponent, a polynomial, two Newton steps), several times faster than `pow` and the same bits wherever the same operations run.
//!
//! The controller of `tsit5`, `dop853`, `rodas4` and `rodas5p` scales the next step by
//! `0.9·err^(−1/q)` once per attempt (`q` = the embedded order + 1: 4, 5 or 8). On a
//! model of two or three states, `libm::pow` was a quarter of the whole attempt
//! (docs/performance.md §19), for a factor that is clamped to `[0.2, 10]` anyway. This
//! computes the same root to within 4 ulp (checked against `libm::pow` below; for
//! `q = 5` it is the closer of the two, pow's exponent `−0.2` being `−1/5` rounded), with one
//! dependent chain of about twenty operations:
//!
//! - `x = m·2^e`, `m ∈ [1, 2)` from the bits, and `e = q·a + b` with `0 ≤ b < q`, so
//!   that `x^(−1/q) = m^(−1/q) · 2^(−b/q) · 2^(−a)`;
//! - `m^(−1/q)` to about 1e-5 by a polynomial of degree 5 in `m − 1` (a Chebyshev fit on
//!   `[1, 2]`), then two Newton steps for `r^(−q) = m`,
//!   `r ← (r·(1/q))·((q + 1) − m·r^q)`, which square the error twice;
//! - times `2^(−b/q)` (a table of correctly rounded constants) and the exact power of
//!   two `2^(−a)`.
//!
//! Every operation is one IEEE operation in a fixed order (no fused multiply-add), so
//! the interpreter, the generated code, the batch and the C of the GPU back end
//! (`gpu/src/prelude.h`, `sit_inv_root`) agree to the bit. Other `q` fall back to
//! `libm::pow(x, −1/q)`. The special values are `pow`'s: `±0 → +∞`, `+∞ → +0`, NaN and
//! negative `x` → NaN.

/// Degree-5 polynomials in `t = m − 1` for `m^(−1/q)` on `[1, 2)` (`q` = 4, 5, 8),
/// lowest coefficient first: Chebyshev fits, relative error at most 8.7e-6, 6.4e-6,
/// 3.5e-6.
const POLY_4: [f64; 6] = [
    0.9999913275141249,
    -0.2496109283233552,
    0.15196824022127461,
    -0.09729472981922811,
    0.046983949971249994,
    -0.011147660617600781,
];
const POLY_5: [f64; 6] = [
    0.999993621700495,
    -0.19971402206608452,
    0.11685557279580751,
    -0.07341159539235523,
    0.03511315882399643,
    -0.008290756832393277,
];
const POLY_8: [f64; 6] = [
    0.9999965041036206,
    -0.12484339723886732,
    0.06859287246441959,
    -0.0418432236497106,
    0.01972042957847278,
    -0.004621664880870638,
];

/// `2^(−b/q)` for `b = 0 … q − 1`, correctly rounded.
const TWO_4: [f64; 4] = [
    1.0,
    0.8408964152537145,
    core::f64::consts::FRAC_1_SQRT_2,
    0.5946035575013605,
];
const TWO_5: [f64; 5] = [
    1.0,
    0.8705505632961241,
    0.757858283255199,
    0.6597539553864471,
    0.5743491774985175,
];
const TWO_8: [f64; 8] = [
    1.0,
    0.9170040432046712,
    0.8408964152537145,
    0.7711054127039704,
    core::f64::consts::FRAC_1_SQRT_2,
    0.6484197773255048,
    0.5946035575013605,
    0.5452538663326288,
];

/// `x^(−1/q)` for the step-size control (see the module's documentation): within 4 ulp
/// of the exact root for `q` = 4, 5, 8, and `libm::pow(x, −1/q)` itself for any other `q`.
#[inline]
pub fn inv_root(x: f64, q: f64) -> f64 {
    let (poly, two, k): (&[f64; 6], &[f64], i64) = if q == 4.0 {
        (&POLY_4, &TWO_4, 4)
    } else if q == 5.0 {
        (&POLY_5, &TWO_5, 5)
    } else if q == 8.0 {
        (&POLY_8, &TWO_8, 8)
    } else {
        return libm::pow(x, -1.0 / q);
    };
    if x == 0.0 {
        // ±0 → +∞ (pow's rule for a negative exponent).
        return f64::INFINITY;
    }
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    // A subnormal x is scaled into the normal range first (exactly: by 2^64).
    let (x, shift) = if x < f64::MIN_POSITIVE {
        (x * 18446744073709551616.0, 64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = (bits >> 52) as i64 - 1023 - shift;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let (a, b) = (e.div_euclid(k), e.rem_euclid(k));
    let t = m - 1.0;
    let t2 = t * t;
    let mut r =
        (poly[0] + poly[1] * t) + t2 * ((poly[2] + poly[3] * t) + t2 * (poly[4] + poly[5] * t));
    let (recip, next) = (1.0 / q, q + 1.0);
    for _ in 0..2 {
        r = (r * recip) * (next - m * power(r, k));
    }
    // 2^(−a) is a normal number: |a| ≤ (1086 + 64)/4.
    r * two[b as usize] * f64::from_bits(((1023 - a) as u64) << 52)
}

/// `r^k` for `k` = 4, 5, 8 by squaring: `(r²)²`, `(r²)²·r`, `((r²)²)²`.
#[inline(always)]
fn power(r: f64, k: i64) -> f64 {
    let r2 = r * r;
    let r4 = r2 * r2;
    match k {
        4 => r4,
        5 => r4 * r,
        _ => r4 * r4,
    }
}

#[cfg(test)]
mod tests {
    use super::inv_root;

    /// The relative error allowed against `libm::pow(x, −1/q)`: 4 units of 2⁻⁵² (the
    /// root's own rounding, and pow's), and for `q = 5` the error of pow's exponent:
    /// `−0.2` is `−1/5` rounded, 1.1e-17 off, which moves `x^y` by `|ln x|·1.1e-17`
    /// (up to 70 ulp for the smallest `x`, where this root is the closer of the two).
    fn allowed(x: f64, q: f64) -> f64 {
        let exponent = if q == 5.0 {
            1.12e-17 * libm::log(x).abs()
        } else {
            0.0
        };
        4.0 * f64::EPSILON + exponent
    }

    #[test]
    fn roots_agree_with_pow_over_the_whole_range() {
        for q in [4.0, 5.0, 8.0] {
            let mut worst: f64 = 0.0;
            // 2^-1074 … 2^1023 in steps that visit every residue of the exponent and
            // many mantissas, and the neighbourhood of each point.
            let mut x = f64::from_bits(1);
            while x < f64::MAX / 1.01 {
                for y in [x, x * 1.000_000_1, x * 0.999_999_9] {
                    let (r, p) = (inv_root(y, q), libm::pow(y, -1.0 / q));
                    let rel = ((r - p) / p).abs();
                    assert!(
                        rel <= allowed(y, q),
                        "q = {q}, x = {y:e}: {r:e} against {p:e}"
                    );
                    worst = worst.max(rel);
                }
                // (next_up: among the smallest subnormals the product rounds back to x)
                x = (x * 1.013_7).max(x.next_up());
            }
            assert!(
                worst > 0.0,
                "q = {q}: a root that never differs was not tested"
            );
        }
    }

    #[test]
    fn exact_powers_give_exact_roots() {
        for (q, k) in [(4.0, 4), (5.0, 5), (8.0, 8)] {
            for a in [-30_i32, -7, -1, 0, 1, 3, 20] {
                let x = libm::pow(2.0, f64::from(k * a));
                assert_eq!(
                    inv_root(x, q),
                    libm::pow(2.0, f64::from(-a)),
                    "q = {q}, 2^{}",
                    k * a
                );
            }
        }
    }

    #[test]
    fn special_values_follow_pow() {
        for q in [4.0, 5.0, 8.0, 3.0] {
            assert_eq!(inv_root(0.0, q), f64::INFINITY);
            assert_eq!(inv_root(-0.0, q), f64::INFINITY);
            assert_eq!(inv_root(f64::INFINITY, q).to_bits(), 0.0f64.to_bits());
            assert!(inv_root(f64::NAN, q).is_nan());
            assert!(inv_root(-1.0, q).is_nan());
            assert_eq!(inv_root(1.0, q), 1.0);
        }
        // Another q is pow's.
        assert_eq!(inv_root(7.0, 3.0), libm::pow(7.0, -1.0 / 3.0));
    }
}
