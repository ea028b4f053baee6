//! What hover and completion say about procedures and built-in names.

/// Signature and meaning of each procedure (from the table of
/// `docs/language.md`, section Procedures).
const PROCS: &[(&str, &str, &str)] = &[
    ("abs", "abs(x)", "the absolute value"),
    (
        "sign",
        "sign(x)",
        "−1, 0 or 1 (`sign(-0) = 0`, `sign(NaN) = NaN`)",
    ),
    ("sqrt", "sqrt(x)", "the square root"),
    ("exp", "exp(x)", "e to the power x"),
    ("ln", "ln(x)", "the natural logarithm"),
    ("log10", "log10(x)", "the base-10 logarithm"),
    ("sin", "sin(x)", "the sine (radians)"),
    ("cos", "cos(x)", "the cosine (radians)"),
    ("tan", "tan(x)", "the tangent (radians)"),
    ("asin", "asin(x)", "the arcsine, in radians"),
    ("acos", "acos(x)", "the arccosine, in radians"),
    ("atan", "atan(x)", "the arctangent, in radians"),
    (
        "atan2",
        "atan2(y, x)",
        "the angle of the point (x, y), in radians",
    ),
    ("sinh", "sinh(x)", "the hyperbolic sine"),
    ("cosh", "cosh(x)", "the hyperbolic cosine"),
    ("tanh", "tanh(x)", "the hyperbolic tangent"),
    (
        "min",
        "min(a, b)",
        "the smaller of a and b (a NaN argument is ignored)",
    ),
    (
        "max",
        "max(a, b)",
        "the larger of a and b (a NaN argument is ignored)",
    ),
    ("pow", "pow(x, y)", "x to the power y (also `x ^ y`)"),
    (
        "sum",
        "sum(e for i in a:b)",
        "the sum of e over the loop variable's range, added pairwise (0 when empty; also `min`, `max`, `prod`)",
    ),
    (
        "prod",
        "prod(e for i in a:b)",
        "the product of e over the loop variable's range, multiplied pairwise (1 when empty)",
    ),
    ("hypot", "hypot(x, y)", "sqrt(x² + y²) without overflow"),
    ("floor", "floor(x)", "the largest integer not above x"),
    ("ceil", "ceil(x)", "the smallest integer not below x"),
    (
        "round",
        "round(x)",
        "the nearest integer, half away from zero",
    ),
    ("relay", "relay(x, a)", "a·sign(x)"),
    (
        "limit",
        "limit(x, lo, hi)",
        "x clamped to [lo, hi] (lo if lo > hi)",
    ),
    (
        "deadzone",
        "deadzone(x, w)",
        "0 if abs(x) <= w, else x − w·sign(x)",
    ),
    (
        "integral",
        "integral(x) | integral(x, lo, hi)",
        "stateful: the target's next value is y + x·dt (clamped to [lo, hi] if given); only as the whole right-hand side of a δ rule",
    ),
    (
        "lag",
        "lag(x, T) | lag(x, T, k)",
        "stateful: the exact first-order lag y + (k·x − y)·(1 − e^(−dt/T)); only as the whole right-hand side of a δ rule",
    ),
    (
        "deriv",
        "deriv(x)",
        "stateful: (x − x_prev)/dt, 0 the first time; only as the whole right-hand side of a δ rule",
    ),
    (
        "hysteresis",
        "hysteresis(x, lo, hi) | hysteresis(x, lo, hi, a)",
        "stateful: a if x >= hi, −a if x <= lo, else the target's value (a latched relay, a = 1 by default)",
    ),
    (
        "prev",
        "prev(x)",
        "the value the variable x had when the step started, before the step's rules: a delay written as one (a read of x before its rule without prev is reported)",
    ),
    (
        "timer",
        "timer(c)",
        "stateful: how long the logical c has held, a whole number of steps counted exactly (0 while c is false); only as the whole right-hand side of a δ rule",
    ),
];

/// The names of every procedure the checker knows.
pub(crate) fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = sit_middle::ir::Func::ALL.iter().map(|f| f.name()).collect();
    v.extend(sit_middle::check::Stateful::ALL.iter().map(|s| s.name()));
    v.extend(
        sit_middle::parse::REDUCTIONS
            .iter()
            .filter(|r| !v.contains(r))
            .copied()
            .collect::<Vec<_>>(),
    );
    v.push("prev");
    v
}

/// The signature and meaning of procedure `name`: from the table, or
/// (for a procedure added since) its name and arity.
pub(crate) fn describe(name: &str) -> Option<(String, String)> {
    if let Some((_, sig, meaning)) = PROCS.iter().find(|p| p.0 == name) {
        return Some((sig.to_string(), meaning.to_string()));
    }
    if let Some(f) = sit_middle::ir::Func::from_name(name) {
        let args = (1..=f.arity())
            .map(|k| format!("x{k}"))
            .collect::<Vec<_>>()
            .join(", ");
        return Some((format!("{name}({args})"), "a pure procedure".into()));
    }
    sit_middle::check::Stateful::from_name(name).map(|s| {
        (
            format!("{name}(…)"),
            format!("a stateful procedure of {} arguments", s.arity()),
        )
    })
}

/// What a built-in name is.
pub(crate) fn builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "time" => "`time`: real, the model's time at the start of the step (s)",
        "dt" => "`dt`: real, the length of the current step (s)",
        "on" => {
            "`sub.on`: flag, whether the submodel steps (`!sub.on` in a σ rule switches it off)"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_described_procedure_exists() {
        let names = super::names();
        for (name, sig, _) in super::PROCS {
            assert!(names.contains(name), "{name} is a procedure");
            assert!(sig.starts_with(name));
        }
        for name in names {
            assert!(super::describe(name).is_some(), "{name}");
        }
    }
}
