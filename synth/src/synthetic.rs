//! The one large model of regular shape (`synthetic(rules)`) that the pipeline's growth and speed measurements compile, as against the random files.

use std::fmt::Write as _;

/// A single large model with `rules` δ rules over `rules / 4 + 1` states in
/// a regular pattern (chains of integrators, lags and guarded rules, each state with
/// at most one continuous rule), for measuring how compile times grow with model size.
pub fn synthetic(rules: usize) -> String {
    let states = rules / 4 + 1;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/// Synthetic model with {rules} rules.\nmodel Synthetic{rules} {{"
    );
    let _ = writeln!(s, "    param k = 0.5;\n    param gain = 1.5;");
    for i in 0..states {
        let _ = writeln!(s, "    output real x{i} = {};", (i % 7) as f64 * 0.1);
    }
    let _ = writeln!(s, "    pred hot = x0 > 1;");
    for r in 0..rules {
        let i = r % states;
        let j = (r * 7 + 3) % states;
        // A state has one continuous rule (E0477): the later rules of the kinds of the
        // integrator and the lag for it are their explicit steps, plain rules.
        let first = r < states;
        let line = match r % 4 {
            0 if first => format!("    x{i} = integral(-k * x{i} + 0.1 * x{j});"),
            0 => format!("    x{i} = x{i} + (-k * x{i} + 0.1 * x{j}) * dt;"),
            1 if first => format!("    x{i} = lag(x{j}, 0.2, gain);"),
            1 => format!("    x{i} = x{i} + (gain * x{j} - x{i}) * dt / 0.2;"),
            2 => format!("    x{i} = x{i} * 0.5 + sin(x{j}) when hot;"),
            _ => format!("    x{i} = limit(x{i} + x{j} * dt, -5, 5);"),
        };
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "}}");
    s
}

/// A chain of `depth` models, each holding one instance of the one before
/// (`M{depth-1}` the root, `M0` the leaf), each with a param, an input, an
/// integrated output, a flag and an event: how the generated code of a model grows
/// with the depth of its submodel tree (issue 53).
pub fn chain(depth: usize) -> String {
    let mut s = format!("/// A chain of submodels {depth} deep.\n");
    for i in 0..depth.max(1) {
        let _ = writeln!(s, "model M{i} {{");
        let read = if i == 0 {
            "u".to_string()
        } else {
            let _ = writeln!(s, "    sub s: M{}(u = x);", i - 1);
            "s.x".to_string()
        };
        let _ = writeln!(
            s,
            "    param k = 0.5;\n    input real u = 1;\n    output real x = 1;\n    \
             output flag hi;\n    event up = x > 1.5;\n    \
             x = integral({read} - k * x);\n    when up => hi;\n}}"
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{chain, synthetic};

    #[test]
    fn chains_are_valid() {
        for d in [1, 2, 10] {
            let out = sit_middle::check_source("chain.sit", &chain(d));
            assert!(!out.has_errors(), "{}", out.render());
        }
    }

    #[test]
    fn synthetic_models_are_valid() {
        for n in [1, 10, 100, 1000] {
            let out = sit_middle::check_source("synthetic.sit", &synthetic(n));
            assert!(!out.has_errors(), "{}", out.render());
        }
    }
}
