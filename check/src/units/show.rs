//! How units are shown in messages and listings, and the factors the help of E0482 gives.

use super::solve::same;
use super::{Unit, parse_unit};
use crate::Span;
use crate::diag::Diagnostic;

/// Units a conversion factor is written in: `cm/m` for `m` to `cm`.
const CONVERSIONS: &[&str] = &[
    "m", "km", "cm", "mm", "s", "ms", "min", "h", "kg", "g", "W", "kW", "J", "kJ", "Pa", "kPa",
    "rad", "deg", "%", "1", "N", "kN", "A", "mA", "V", "kV", "L",
];

/// The unit `a/b` of a factor from `from` to `to` (`W/kW` from `kW` to `W`, `cm/m` from
/// `m/s` to `cm/s`), when two named units of one dimension have its scale: units of the
/// dimension of `to` first, then of any.
pub(crate) fn conversion(to: &Unit, from: &Unit) -> Option<String> {
    let ratio = to.scale / from.scale;
    let units: Vec<(&str, Unit)> = CONVERSIONS
        .iter()
        .filter_map(|n| parse_unit(n).ok().map(|u| (*n, u)))
        .collect();
    for own_dimension in [true, false] {
        for (a, ua) in &units {
            for (b, ub) in &units {
                if a != b
                    && ua.dim == ub.dim
                    && (!own_dimension || ua.dim == to.dim)
                    && (ua.scale / ub.scale / ratio - 1.0).abs() < 1e-9
                {
                    return Some(format!("{a}/{b}"));
                }
            }
        }
    }
    None
}

/// `u ^ n` when every exponent of the result is whole (`m^2 ^ 0.5` is `m`).
pub(crate) fn root_pow(u: &Unit, n: f64) -> Option<Unit> {
    let mut dim = [0i8; 8];
    for (d, e) in dim.iter_mut().zip(u.dim) {
        let x = e as f64 * n;
        if x.fract() != 0.0 || x.abs() > 100.0 {
            return None;
        }
        *d = x as i8;
    }
    Some(Unit {
        dim,
        scale: u.scale.powf(n),
        offset: 0.0,
    })
}

pub(crate) fn fraction_error(at: Span, shown: &str, op: &str) -> Diagnostic {
    Diagnostic::error(
        "E0484",
        at,
        format!("{op} of a value in `{shown}` leaves a fractional power of a unit"),
    )
    .with_label(format!("`{shown}`"))
    .with_help("the powers of a unit are whole numbers: take the root of a value whose unit is a square (`m^2`), or of a plain number")
}

/// A number of a unit message (a conversion factor, an exponent): a decimal of at most 12
/// significant digits within one unit in the last place of `x` when there is one, else
/// `x`'s shortest round trip. A factor is computed from the units'
/// scales in floating point (`1 / (1000 / 3600)` is 3.5999999999999996), so the last
/// digits of its shortest round trip are rounding noise; the decimal a modeller would
/// write (`3.6`) is within them. A factor that is no short decimal (π/180) is shown to
/// its last digit: its shorter neighbours within an ulp are no truer.
pub(crate) fn fmt_num(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    // One unit in the last place: the rounding of one operation on the scales.
    let ulp = x.abs().next_up() - x.abs();
    let close = |v: f64| (v - x).abs() <= ulp;
    for digits in 1..=12 {
        if let Ok(v) = format!("{:.*e}", digits - 1, x).parse::<f64>()
            && close(v)
        {
            return format!("{v}");
        }
    }
    format!("{x}")
}

/// Names a unit is shown by when nobody wrote it: the common named units. `1/s` comes
/// before `Hz`: a rate inferred from an angle over time (the angle counts as a plain
/// number) is not a frequency.
const SHOWN: &[&str] = &[
    "1", "m", "s", "kg", "A", "K", "mol", "cd", "rad", "deg", "degC", "%", "N", "J", "W", "Pa",
    "1/s", "Hz", "C", "V", "Ohm", "F", "H", "S", "Wb", "T", "L", "g", "min", "h", "km", "cm", "mm",
    "kW", "kJ", "kPa", "ms", "m/s", "m/s^2", "rad/s", "N*m", "kg*m^2", "K/s", "J/K", "W/K", "km/h",
];

/// A unit shown as written (`written`), or by a common name, or in its SI form.
pub fn show_unit(u: &Unit, written: &[(Unit, String)]) -> String {
    if let Some((_, s)) = written.iter().find(|(w, _)| same(w, u) && w.dim == u.dim) {
        return s.clone();
    }
    for n in SHOWN {
        if let Ok(w) = parse_unit(n)
            && same(&w, u)
            && w.dim == u.dim
        {
            return n.to_string();
        }
    }
    u.to_string()
}

#[cfg(test)]
mod tests {
    use super::fmt_num;

    /// km/h against m/s (issue 53, item 8): 3.6, not 3.5999999999999996; exact values
    /// and values with many digits are kept.
    #[test]
    fn factors_are_the_decimals_a_modeller_writes() {
        assert_eq!(fmt_num(1.0 / (1000.0 / 3600.0)), "3.6");
        assert_eq!(fmt_num(1000.0 / 3600.0), "0.2777777777777778");
        assert_eq!(fmt_num(1e-3), "0.001");
        assert_eq!(fmt_num(1000.0), "1000");
        assert_eq!(fmt_num(0.5), "0.5");
        assert_eq!(fmt_num(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(fmt_num(f64::INFINITY), "inf");
        // π/180 to the last digit (its shorter neighbours are more than an ulp away).
        assert_eq!(
            fmt_num(std::f64::consts::PI / 180.0),
            "0.017453292519943295"
        );
    }
}
