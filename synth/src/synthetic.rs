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

/// The heat equation `∂T/∂t = ∂²T/∂x²` on `(0, 1)` with `T = 0` at both ends, by the
/// method of lines: `n` nodes `x_i = i·dx`, `dx = 1/(n + 1)`,
/// `T_i' = k·(T_(i−1) − 2·T_i + T_(i+1))`, `k = 1/dx²`, integrated by `method` (`rtol`,
/// `atol`), starting in the
/// slowest sine mode `T_i = sin(π·x_i)`: a stiff linear system with a tridiagonal
/// Jacobian whose solution is known exactly, `T_i(t) = sin(π·x_i)·exp(−λ·t)` with
/// `λ = 4·k·sin²(π·dx/2)` ([`heat_decay`]). Until the language has arrays (issue 49,
/// item 4) a model of many nodes is written out by this function.
pub fn heat(n: usize, method: &str, rtol: f64, atol: f64) -> String {
    let n = n.max(1);
    let dx = 1.0 / (n + 1) as f64;
    let mut s = format!(
        "/// The heat equation by the method of lines, {n} nodes.\nmodel Heat {{\n    \
         method {method} rtol {rtol:e} atol {atol:e};\n    param k = {:?};\n",
        1.0 / (dx * dx)
    );
    for i in 1..=n {
        let init = (std::f64::consts::PI * i as f64 * dx).sin();
        let _ = writeln!(s, "    output real T{i} = {init:?};");
    }
    for i in 1..=n {
        let left = if i == 1 {
            "0".into()
        } else {
            format!("T{}", i - 1)
        };
        let right = if i == n {
            "0".into()
        } else {
            format!("T{}", i + 1)
        };
        let _ = writeln!(s, "    T{i} = integral(k * ({left} - 2 * T{i} + {right}));");
    }
    s.push_str("}\n");
    s
}

/// The decay rate `λ` of the slowest mode of [`heat`] with `n` nodes.
pub fn heat_decay(n: usize) -> f64 {
    let dx = 1.0 / (n.max(1) + 1) as f64;
    4.0 / (dx * dx) * (std::f64::consts::PI * dx / 2.0).sin().powi(2)
}

/// The heat equation on the unit square with `T = 0` on its edges, `side × side` nodes
/// of the 5-point stencil (`T{x}_{y}`, rows of `x`), as [`heat`]: starting in the mode
/// `sin(π·x)·sin(π·y)`, which decays at twice [`heat_decay`]`(side)`.
pub fn heat2(side: usize, method: &str, rtol: f64, atol: f64) -> String {
    let side = side.max(1);
    let dx = 1.0 / (side + 1) as f64;
    let mut s = format!(
        "/// The 2-D heat equation by the method of lines, {side} × {side} nodes.\n\
         model Heat {{\n    method {method} rtol {rtol:e} atol {atol:e};\n    \
         param k = {:?};\n",
        1.0 / (dx * dx)
    );
    let pi = std::f64::consts::PI;
    for x in 1..=side {
        for y in 1..=side {
            let init = (pi * x as f64 * dx).sin() * (pi * y as f64 * dx).sin();
            let _ = writeln!(s, "    output real T{x}_{y} = {init:?};");
        }
    }
    let at = |x: usize, y: usize| {
        if x == 0 || y == 0 || x > side || y > side {
            "0".to_string()
        } else {
            format!("T{x}_{y}")
        }
    };
    for x in 1..=side {
        for y in 1..=side {
            let _ = writeln!(
                s,
                "    T{x}_{y} = integral(k * ({} + {} + {} + {} - 4 * T{x}_{y}));",
                at(x - 1, y),
                at(x + 1, y),
                at(x, y - 1),
                at(x, y + 1)
            );
        }
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::{chain, heat, heat2, synthetic};

    #[test]
    fn chains_are_valid() {
        for d in [1, 2, 10] {
            let out = sit_middle::check_source("chain.sit", &chain(d));
            assert!(!out.has_errors(), "{}", out.render());
        }
    }

    #[test]
    fn heat_models_are_valid() {
        for text in [
            heat(1, "rodas5p", 1e-6, 1e-8),
            heat(50, "radau5", 1e-6, 1e-8),
            heat2(4, "rodas4", 1e-4, 1e-6),
        ] {
            let out = sit_middle::check_source("heat.sit", &text);
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
