//! The unit of a variable, read from its one-line doc comment (`/// Speed, m/s.`).
//!
//! `.sit` has no unit syntax; the model library writes the unit after the last comma of
//! a one-line doc comment: `Height of the ball, m.`, `Vertical speed, m/s (positive
//! upwards).`, `Gravity, m/s²; set to 0 when ...`. A unit is only taken when every factor
//! of it is a known symbol (`m`, `s`, `kg`, `N`, `rad`, ...), so ordinary words after a
//! comma are never taken for one.

/// Unit symbols accepted as factors (SI and CGS, the library's angle and time units).
const SYMBOLS: &[&str] = &[
    "m", "cm", "mm", "km", "um", "µm", "s", "ms", "min", "h", "kg", "g", "t", "N", "kN", "J", "kJ",
    "W", "kW", "MW", "Pa", "kPa", "MPa", "bar", "rad", "deg", "°", "K", "°C", "A", "mA", "V", "mV",
    "kV", "Ohm", "Ω", "F", "H", "C", "Hz", "dyn", "erg", "mol", "L", "l", "rpm",
];

/// Whether `unit` is a product/quotient of known symbols with exponents (`m/s²`,
/// `kg·m^2`, `rad/s`, `N*m`).
fn is_unit(unit: &str) -> bool {
    !unit.is_empty()
        && unit.split(['/', '·', '*']).all(|factor| {
            let base = factor.trim_end_matches(|c: char| "²³⁻¹^-0123456789".contains(c));
            SYMBOLS.contains(&base)
        })
}

/// The unit of a one-line doc comment, if it follows the library's convention.
pub fn unit_of(doc: &[String]) -> Option<String> {
    let lines: Vec<&str> = doc
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let [line] = lines.as_slice() else {
        return None;
    };
    line.match_indices(", ").find_map(|(at, _)| {
        let rest = &line[at + 2..];
        let end = rest.find([' ', ';', ',']).unwrap_or(rest.len());
        let (token, after) = rest.split_at(end);
        let (token, after) = match token.strip_suffix('.') {
            Some(t) if after.is_empty() => (t, ""),
            _ => (token, after),
        };
        let ends = after.is_empty() || after.starts_with(" (") || after.starts_with(';');
        (ends && is_unit(token)).then(|| token.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::unit_of;

    fn unit(line: &str) -> Option<String> {
        unit_of(&[line.to_string()])
    }

    #[test]
    fn the_library_convention() {
        assert_eq!(
            unit("Height of the ball above the floor, m.").as_deref(),
            Some("m")
        );
        assert_eq!(
            unit("Vertical speed, m/s (positive upwards).").as_deref(),
            Some("m/s")
        );
        assert_eq!(
            unit("Gravity, m/s²; set to 0 when the ball stops for good.").as_deref(),
            Some("m/s²")
        );
        assert_eq!(
            unit("Force on the cart at the current instant, N (F0·sin(0) = 0 at t = 0).")
                .as_deref(),
            Some("N")
        );
        assert_eq!(unit("Angular velocity, rad/s.").as_deref(), Some("rad/s"));
        assert_eq!(unit("Inertia, kg·m^2").as_deref(), Some("kg·m^2"));
    }

    #[test]
    fn words_and_several_lines_are_not_units() {
        assert_eq!(unit("The state, starting at 1."), None);
        assert_eq!(unit("Position, relative."), None);
        assert_eq!(unit("Position (m) and speed (m/s) of the roll."), None);
        assert_eq!(unit("Brake: while true the speed is held at zero."), None);
        // A doc shared by several declarations over two lines names several units.
        let doc = [
            "Weight, reaction and net force, dyn;",
            "vertical acceleration, cm/s².",
        ];
        assert_eq!(unit_of(&doc.map(String::from)), None);
    }
}
