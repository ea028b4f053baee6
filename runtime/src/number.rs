//! How every writer of Sit prints an `f64` as text: the shortest decimal that reads back to the same bits.
//!
//! `sitc run`'s CSV, the page's CSV and last row, `sitc sweep`'s table, the event log
//! and the sweep's axis labels all print reals through [`shortest`], so a value reads
//! the same wherever it is written, and parsing the text (Rust's `str::parse`, Python's
//! `float`, a spreadsheet) gives back the very same `f64`.
//!
//! The digits are the fewest that read back to the same bits (Rust's `{}` and `{:e}`
//! both give them); the notation is Python's `repr`'s: plain decimals for magnitudes
//! from `1e-4` up to below `1e16`, an exponent outside that range, where plain decimals
//! would be mostly zeros (`1e-30`, not `0.000…0001` with 30 digits; `2.2250738585072014e-308`,
//! not a 326-character string). Unlike Python, a whole number has no `.0` and the
//! exponent has no sign or padding of its own (`1e16`, `1e-5`), as Rust writes it; zero
//! keeps its sign (`-0`), and the values that are not finite are `NaN`, `inf` and
//! `-inf`, as `{}` writes them.
//!
//! ```
//! use sit_runtime::number::shortest;
//!
//! assert_eq!(shortest(0.1 + 0.2).to_string(), "0.30000000000000004");
//! assert_eq!(shortest(20000.0).to_string(), "20000");
//! assert_eq!(shortest(1e-30).to_string(), "1e-30");
//! assert_eq!(shortest(0.0001).to_string(), "0.0001");
//! assert_eq!(shortest(0.00001).to_string(), "1e-5");
//! assert_eq!(shortest(1e16).to_string(), "1e16");
//! assert_eq!(shortest(-2.5e300).to_string(), "-2.5e300");
//! assert_eq!(shortest(f64::MIN_POSITIVE).to_string(), "2.2250738585072014e-308");
//! assert_eq!(shortest(-0.0).to_string(), "-0");
//! assert_eq!(shortest(f64::NEG_INFINITY).to_string(), "-inf");
//! // The text reads back to the same bits.
//! let x = 5e-324; // the smallest subnormal
//! assert_eq!(shortest(x).to_string().parse::<f64>().unwrap().to_bits(), x.to_bits());
//! ```

use core::fmt;

/// Below this magnitude (and above zero) a value is written with an exponent.
const SMALL: f64 = 1e-4;
/// From this magnitude on a value is written with an exponent.
const LARGE: f64 = 1e16;

/// `x`, written as text by its [`Display`](fmt::Display): see the [module](self).
pub fn shortest(x: f64) -> Shortest {
    Shortest(x)
}

/// An `f64` that displays as the shortest decimal that reads back to it (see the
/// [module](self)); made by [`shortest`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shortest(pub f64);

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        // The magnitudes compared are the `f64`s nearest 1e-4 and 1e16: since parsing
        // rounds monotonically, `x` is below the nearest `f64` to 1e-4 exactly when its
        // shortest decimal is below 1e-4, so the choice follows the decimal exponent.
        let magnitude = if x < 0.0 { -x } else { x };
        if x.is_finite() && x != 0.0 && !(SMALL..LARGE).contains(&magnitude) {
            write!(f, "{x:e}")
        } else {
            write!(f, "{x}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::string::ToString;

    /// The text of `x` parsed back.
    fn back(x: f64) -> f64 {
        let text = shortest(x).to_string();
        text.parse::<f64>()
            .unwrap_or_else(|e| panic!("`{text}` does not parse: {e}"))
    }

    /// Whether the text of `x` reads back to the very same bits (NaN: a NaN).
    fn round_trips(x: f64) -> bool {
        let y = back(x);
        if x.is_nan() {
            y.is_nan()
        } else {
            y.to_bits() == x.to_bits()
        }
    }

    /// The text is `{}`'s or `{:e}`'s: the same shortest digits, in one notation or the other.
    fn one_of_the_two(x: f64) -> bool {
        let text = shortest(x).to_string();
        text == std::format!("{x}") || text == std::format!("{x:e}")
    }

    #[test]
    fn the_edges() {
        let edges = [
            0.0,
            -0.0,
            5e-324,
            -5e-324,
            f64::from_bits(0x000f_ffff_ffff_ffff), // the largest subnormal
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            1e-4,
            f64::from_bits(1e-4f64.to_bits() - 1),
            f64::from_bits(1e-4f64.to_bits() + 1),
            1e16,
            f64::from_bits(1e16f64.to_bits() - 1),
            f64::from_bits(1e16f64.to_bits() + 1),
            9007199254740993.0,
            0.1,
            1.0 / 3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for x in edges {
            assert!(round_trips(x), "{x:e}: `{}`", shortest(x));
            assert!(one_of_the_two(x), "{x:e}: `{}`", shortest(x));
        }
        assert_eq!(shortest(f64::NAN).to_string(), "NaN");
        assert_eq!(shortest(f64::INFINITY).to_string(), "inf");
        assert_eq!(shortest(0.0).to_string(), "0");
        assert_eq!(shortest(-0.0).to_string(), "-0");
        assert_eq!(shortest(1.0).to_string(), "1");
        assert_eq!(shortest(-1.5).to_string(), "-1.5");
        assert_eq!(shortest(19980.0).to_string(), "19980");
        assert_eq!(shortest(1e15).to_string(), "1000000000000000");
        assert_eq!(shortest(1e-30).to_string(), "1e-30");
        // The value just below 1e-4 has five zeros after the point: an exponent.
        assert_eq!(
            shortest(f64::from_bits(1e-4f64.to_bits() - 1)).to_string(),
            "9.999999999999999e-5"
        );
        assert_eq!(
            shortest(f64::from_bits(1e16f64.to_bits() - 1)).to_string(),
            "9999999999999998"
        );
        // The longest text: 17 digits, a sign, a point and a three-digit exponent.
        assert_eq!(
            shortest(-f64::MIN_POSITIVE).to_string(),
            "-2.2250738585072014e-308"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Any bits at all: subnormals, both zeros, the largest and smallest, NaNs.
        #[test]
        fn any_bits_read_back(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assert!(round_trips(x), "{:#x}: `{}`", bits, shortest(x));
            prop_assert!(one_of_the_two(x));
            prop_assert!(shortest(x).to_string().len() <= 24);
        }

        /// Subnormals and values near the notation's two edges, densely.
        #[test]
        fn subnormals_and_edges_read_back(
            mantissa in 0u64..(1 << 52),
            negative: bool,
            near in prop::sample::select(std::vec![0u64, 1e-4f64.to_bits(), 1e16f64.to_bits(), 1u64 << 62]),
            offset in -1000i64..1000,
        ) {
            let sign = u64::from(negative) << 63;
            let sub = f64::from_bits(sign | mantissa);
            prop_assert!(round_trips(sub), "`{}`", shortest(sub));
            let edge = f64::from_bits(sign | near.wrapping_add_signed(offset) & !(1 << 63));
            prop_assert!(round_trips(edge), "`{}`", shortest(edge));
        }
    }
}
