//! The unit algebra of issue 30: dimensions, scales, and the parser of unit expressions.
//!
//! A [`Unit`] is a dimension (exponents of the SI base dimensions plus the angle) and a
//! scale to the coherent SI unit of that dimension (`cm` is length at 0.01). Units of one
//! dimension at another scale are different units: a checker reports the factor, it never
//! converts. `degC` carries an offset and is only an absolute temperature.
//!
//! ```
//! use sit_check::units::parse_unit;
//! let n = parse_unit("kg*m/s^2").unwrap();
//! assert_eq!(n, parse_unit("N").unwrap());
//! assert_eq!(parse_unit("cm").unwrap().factor_to(&parse_unit("m").unwrap()), Some(0.01));
//! ```

use std::fmt;

mod bindings;
mod calls;
pub mod check;
mod report;
mod show;
pub mod solve;
mod stateful;
mod tables;

pub use check::{ModelUnits, check_models, check_models_in, units_of_sources};
pub use show::show_unit;

/// Names of the dimensions, in the order of [`Unit::dim`].
pub const DIMENSIONS: [&str; 8] = ["m", "kg", "s", "A", "K", "mol", "cd", "rad"];

/// The largest power of a dimension a unit holds. Physical units stay far below it; a
/// chain of products that passes it gives [`Unit::BEYOND`], which is not checked.
pub const MAX_POWER: i8 = 60;

/// A unit: integer exponents of the base dimensions, a scale to SI, an offset (degC).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// Exponents of m, kg, s, A, K, mol, cd and rad (the angle kept apart from 1).
    pub dim: [i8; 8],
    /// The value in coherent SI units of one of this unit.
    pub scale: f64,
    /// The offset of an affine unit (273.15 for degC), 0 otherwise.
    pub offset: f64,
}

impl Unit {
    /// The dimensionless unit 1.
    pub const ONE: Unit = Unit {
        dim: [0; 8],
        scale: 1.0,
        offset: 0.0,
    };

    fn base(i: usize) -> Unit {
        let mut dim = [0; 8];
        dim[i] = 1;
        Unit {
            dim,
            scale: 1.0,
            offset: 0.0,
        }
    }

    /// What an arithmetic whose result has a power past [`MAX_POWER`] gives: a unit no
    /// longer followed (a chain of hundreds of products, or of squares). It stays so
    /// through every product and power, and the check treats it as unknown.
    pub const BEYOND: Unit = Unit {
        dim: [i8::MAX; 8],
        scale: 1.0,
        offset: 0.0,
    };

    /// Whether a power of this unit is past [`MAX_POWER`] ([`Unit::BEYOND`] among them).
    pub fn is_beyond(&self) -> bool {
        self.dim
            .iter()
            .any(|d| !(-MAX_POWER..=MAX_POWER).contains(d))
    }

    /// The product of two units (an affine unit loses its offset); [`Unit::BEYOND`]
    /// if either is, or a power of the product is past [`MAX_POWER`].
    pub fn mul(&self, o: &Unit) -> Unit {
        if self.is_beyond() || o.is_beyond() {
            return Unit::BEYOND;
        }
        let mut dim = self.dim;
        for (d, e) in dim.iter_mut().zip(o.dim) {
            // Both within ±MAX_POWER, so the sum fits an i8.
            *d += e;
        }
        Unit {
            dim,
            scale: self.scale * o.scale,
            offset: 0.0,
        }
        .within()
    }

    /// This unit to an integer power; [`Unit::BEYOND`] past [`MAX_POWER`].
    pub fn pow(&self, n: i8) -> Unit {
        if self.is_beyond() {
            return Unit::BEYOND;
        }
        Unit {
            dim: self.dim.map(|d| d.saturating_mul(n)),
            scale: self.scale.powi(n as i32),
            offset: 0.0,
        }
        .within()
    }

    /// This unit, or [`Unit::BEYOND`] if a power is past [`MAX_POWER`].
    fn within(self) -> Unit {
        if self.is_beyond() { Unit::BEYOND } else { self }
    }

    /// The quotient of two units.
    pub fn div(&self, o: &Unit) -> Unit {
        self.mul(&o.pow(-1))
    }

    /// Whether two units have the same dimension.
    pub fn same_dimension(&self, o: &Unit) -> bool {
        self.dim == o.dim
    }

    /// The factor `f` with `1 self = f other`, when the dimensions agree.
    pub fn factor_to(&self, o: &Unit) -> Option<f64> {
        self.same_dimension(o).then(|| self.scale / o.scale)
    }

    /// Whether the unit has no dimension (the angle counts as a dimension here).
    pub fn is_dimensionless(&self) -> bool {
        self.dim == [0; 8]
    }
}

impl fmt::Display for Unit {
    /// The coherent SI form, e.g. `kg*m^2/s^2`, with the scale in front when not 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |pos: bool| {
            let v: Vec<String> = DIMENSIONS
                .iter()
                .zip(self.dim)
                .filter(|(_, e)| if pos { *e > 0 } else { *e < 0 })
                .map(|(n, e)| {
                    if e.abs() == 1 {
                        n.to_string()
                    } else {
                        format!("{n}^{}", e.abs())
                    }
                })
                .collect();
            v.join("*")
        };
        let (num, den) = (part(true), part(false));
        let mut s = if self.scale != 1.0 {
            format!("{}", self.scale)
        } else {
            String::new()
        };
        if !num.is_empty() {
            if !s.is_empty() {
                s.push('*');
            }
            s.push_str(&num);
        }
        if s.is_empty() {
            s.push('1');
        }
        if !den.is_empty() {
            s.push('/');
            s.push_str(&den);
        }
        write!(f, "{s}")
    }
}

/// A named unit without prefix.
fn named(name: &str) -> Option<Unit> {
    let b = Unit::base;
    let one = Unit::ONE;
    let u = |dim: [i8; 8]| Unit {
        dim,
        scale: 1.0,
        offset: 0.0,
    };
    Some(match name {
        "m" => b(0),
        "g" => Unit {
            scale: 1e-3,
            ..b(1)
        },
        "s" => b(2),
        "A" => b(3),
        "K" => b(4),
        "mol" => b(5),
        "cd" => b(6),
        "rad" => b(7),
        "deg" => Unit {
            scale: std::f64::consts::PI / 180.0,
            ..b(7)
        },
        "min" => Unit {
            scale: 60.0,
            ..b(2)
        },
        "h" => Unit {
            scale: 3600.0,
            ..b(2)
        },
        "degC" => Unit {
            offset: 273.15,
            ..b(4)
        },
        "%" => Unit { scale: 0.01, ..one },
        "1" => one,
        "N" => u([1, 1, -2, 0, 0, 0, 0, 0]),
        "J" => u([2, 1, -2, 0, 0, 0, 0, 0]),
        "W" => u([2, 1, -3, 0, 0, 0, 0, 0]),
        "Pa" => u([-1, 1, -2, 0, 0, 0, 0, 0]),
        "Hz" => u([0, 0, -1, 0, 0, 0, 0, 0]),
        "C" => u([0, 0, 1, 1, 0, 0, 0, 0]),
        "V" => u([2, 1, -3, -1, 0, 0, 0, 0]),
        "Ohm" | "Ω" => u([2, 1, -3, -2, 0, 0, 0, 0]),
        "F" => u([-2, -1, 4, 2, 0, 0, 0, 0]),
        "H" => u([2, 1, -2, -2, 0, 0, 0, 0]),
        "S" => u([-2, -1, 3, 2, 0, 0, 0, 0]),
        "Wb" => u([2, 1, -2, -1, 0, 0, 0, 0]),
        "T" => u([0, 1, -2, -1, 0, 0, 0, 0]),
        "L" => Unit {
            scale: 1e-3,
            ..u([3, 0, 0, 0, 0, 0, 0, 0])
        },
        _ => return None,
    })
}

/// The SI prefixes.
const PREFIXES: [(&str, f64); 12] = [
    ("G", 1e9),
    ("M", 1e6),
    ("k", 1e3),
    ("h", 1e2),
    ("da", 1e1),
    ("d", 1e-1),
    ("c", 1e-2),
    ("m", 1e-3),
    ("u", 1e-6),
    ("µ", 1e-6),
    ("n", 1e-9),
    ("p", 1e-12),
];

/// A unit name, possibly prefixed (`km`, `mA`, `kW`); an exact name wins over a prefix.
pub fn unit_name(name: &str) -> Option<Unit> {
    if let Some(u) = named(name) {
        return Some(u);
    }
    for (p, f) in PREFIXES {
        if let Some(rest) = name.strip_prefix(p)
            && let Some(u) = named(rest).filter(|u| u.offset == 0.0 && rest != "%" && rest != "1")
        {
            return Some(Unit {
                scale: u.scale * f,
                ..u
            });
        }
    }
    None
}

/// Why a unit expression did not parse: the byte offset and what was expected.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitError {
    /// Byte offset in the unit text.
    pub at: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// Parses a unit expression: names joined by `*`, `·` or `/`, powers `^n` (`^-n`), groups.
pub fn parse_unit(text: &str) -> Result<Unit, UnitError> {
    let mut p = P { s: text, i: 0 };
    let u = p.product()?;
    p.ws();
    if p.i < text.len() {
        return Err(p.err("expected `*`, `/` or the closing `]` of the unit"));
    }
    if text.contains("degC") && text.trim() != "degC" {
        return Err(UnitError {
            at: 0,
            message: "`degC` is an absolute temperature and stands alone; use `K` in products"
                .into(),
        });
    }
    Ok(u)
}

/// The error of a power past [`MAX_POWER`], at byte `at` of the unit text.
fn beyond(at: usize) -> UnitError {
    UnitError {
        at,
        message: format!("a power past {MAX_POWER} is more than a unit holds"),
    }
}

struct P<'a> {
    s: &'a str,
    i: usize,
}

impl P<'_> {
    fn rest(&self) -> &str {
        &self.s[self.i..]
    }
    fn ws(&mut self) {
        while self.rest().starts_with(' ') {
            self.i += 1;
        }
    }
    fn err(&self, m: &str) -> UnitError {
        UnitError {
            at: self.i,
            message: m.into(),
        }
    }
    fn product(&mut self) -> Result<Unit, UnitError> {
        let mut u = self.power()?;
        loop {
            self.ws();
            let r = self.rest();
            if let Some(c) = ["*", "·", "/"].iter().find(|c| r.starts_with(**c)) {
                let at = self.i;
                self.i += c.len();
                let v = self.power()?;
                u = if *c == "/" { u.div(&v) } else { u.mul(&v) };
                if u.is_beyond() {
                    return Err(beyond(at));
                }
                continue;
            }
            return Ok(u);
        }
    }
    fn power(&mut self) -> Result<Unit, UnitError> {
        let u = self.atom()?;
        self.ws();
        if !self.rest().starts_with('^') {
            return Ok(u);
        }
        self.i += 1;
        self.ws();
        let start = self.i;
        if self.rest().starts_with('-') {
            self.i += 1;
        }
        let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        self.i += digits;
        match self.s[start..self.i].parse::<i64>() {
            Ok(n) if digits > 0 => match i8::try_from(n).map(|n| u.pow(n)) {
                Ok(p) if !p.is_beyond() => Ok(p),
                _ => Err(beyond(start)),
            },
            _ => Err(UnitError {
                at: start,
                message: "expected an integer power after `^`".into(),
            }),
        }
    }
    fn atom(&mut self) -> Result<Unit, UnitError> {
        self.ws();
        if self.rest().starts_with('(') {
            self.i += 1;
            let u = self.product()?;
            self.ws();
            if !self.rest().starts_with(')') {
                return Err(self.err("expected `)`"));
            }
            self.i += 1;
            return Ok(u);
        }
        let len: usize = self
            .rest()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '%' || *c == 'µ' || *c == 'Ω')
            .map(char::len_utf8)
            .sum();
        if len == 0 {
            return Err(self.err("expected a unit name (like `m`, `kg`, `N`, `degC`, `%` or `1`)"));
        }
        let name = &self.s[self.i..self.i + len];
        let u = unit_name(name).ok_or_else(|| UnitError {
            at: self.i,
            message: format!("unknown unit `{name}`; expected an SI unit, a prefixed one (`km`, `mA`), `rad`, `deg`, `degC`, `%` or `1`"),
        })?;
        self.i += len;
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Unit {
        parse_unit(s).unwrap()
    }

    #[test]
    fn derived_units_are_their_si_products() {
        assert_eq!(u("N"), u("kg*m/s^2"));
        assert_eq!(u("J"), u("N*m"));
        assert_eq!(u("W"), u("J/s"));
        assert_eq!(u("Pa"), u("N/m^2"));
        assert_eq!(u("V"), u("W/A"));
        assert_eq!(u("Ω"), u("Ohm"));
        assert_eq!(u("Ohm"), u("V/A"));
        assert_eq!(u("C"), u("A*s"));
        assert_eq!(u("F"), u("C/V"));
        assert_eq!(u("H"), u("Wb/A"));
        assert_eq!(u("Hz"), u("1/s"));
        assert_eq!(u("m/s^2"), u("m*s^-2"));
        assert_eq!(u("kg·m^2"), u("kg*(m)^2"));
    }

    #[test]
    fn scales_give_factors_never_equality() {
        assert_ne!(u("cm"), u("m"));
        assert_eq!(u("cm").factor_to(&u("m")), Some(0.01));
        assert_eq!(u("kW").factor_to(&u("W")), Some(1000.0));
        assert_eq!(u("km/h").factor_to(&u("m/s")), Some(1000.0 / 3600.0));
        assert!(
            (u("deg").factor_to(&u("rad")).unwrap() - std::f64::consts::PI / 180.0).abs() < 1e-15
        );
        assert_eq!(u("m").factor_to(&u("s")), None);
        assert_eq!(u("%").factor_to(&u("1")), Some(0.01));
        assert_eq!(u("mol").to_string(), "mol");
        assert_eq!(u("N").to_string(), "m*kg/s^2");
        assert_eq!(u("cm").to_string(), "0.01*m");
    }

    #[test]
    fn degc_is_absolute_and_alone() {
        assert_eq!(u("degC").offset, 273.15);
        assert!(parse_unit("degC/s").is_err());
        assert!(parse_unit("kdegC").is_err());
    }

    #[test]
    fn bad_units_say_where_and_what() {
        let e = parse_unit("m/foo").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(e.message.contains("unknown unit `foo`"));
        assert_eq!(parse_unit("m^x").unwrap_err().at, 2);
        assert_eq!(parse_unit("m s").unwrap_err().at, 2);
        assert_eq!(parse_unit("(m").unwrap_err().at, 2);
        assert_eq!(parse_unit("").unwrap_err().at, 0);
        let e = parse_unit("kg*m^61").unwrap_err();
        assert_eq!((e.at, e.message.contains("past 60")), (5, true));
        assert_eq!(parse_unit("m^40*m^40").unwrap_err().at, 4);
        assert_eq!(parse_unit("(m^40)^2").unwrap_err().at, 7);
        assert!(
            parse_unit("s^-200")
                .unwrap_err()
                .message
                .contains("past 60")
        );
        assert!(parse_unit("m^99999999999999999999").is_err());
    }
}
