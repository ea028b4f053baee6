//! Integration methods declared in some models of a random file (each kept only where its rules still split), and a chain-shaped model under `rodas4` or `rodas5p` in some files.

use std::fmt::Write as _;

/// `text` with `method rk4;` or (one time in three) `method dopri5 rtol 1e-4 atol
/// 1e-6;` or its `tsit5` twin (or, for a third of the `dopri5` draws, its `dop853`
/// twin; `method rodas4 rtol 1e-4 atol 1e-6;` for a third of the `rk4` draws, half of
/// them its `rodas5p` twin) declared
/// in about half of its models, each kept only if the file still checks (its rules
/// split; under `rodas4`, also lowers within the lowering's budget), so the random
/// models exercise every method (with the lookup tables their rates read, whose slopes
/// `rodas4`'s Jacobian reads); drawn from a generator of its own, so the rest of the
/// text is the same as without methods.
pub(crate) fn with_methods(seed: u64, mut text: String, models: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed_0018);
    for i in 0..models {
        if !rng.bool() {
            continue;
        }
        let head = format!("model M{i} {{\n");
        let Some(at) = text.find(&head) else { continue };
        let mut tried = text.clone();
        // An adaptive method one time in three: dopri5 or tsit5, told apart by a
        // generator of their own, so that the draws above stay those of before.
        let tsit5 = fastrand::Rng::with_seed(seed ^ 0x7517_0029 ^ i as u64).bool();
        // dop853 for a third of the dopri5 draws, by a generator of its own too.
        let dop853 = fastrand::Rng::with_seed(seed ^ 0xd0_8530_0029 ^ i as u64).u8(..3) == 0;
        // rodas4 for a third of the rk4 draws, by a generator of its own too.
        let rodas4 = fastrand::Rng::with_seed(seed ^ 0x70da_5400_0029 ^ i as u64).u8(..3) == 0;
        // rodas5p for half of the rodas4 draws, by a generator of its own too.
        let rodas5p = fastrand::Rng::with_seed(seed ^ 0x70da_5500_0030 ^ i as u64).bool();
        // radau5 for a quarter of the other rk4 draws, by a generator of its own too.
        let radau5 = fastrand::Rng::with_seed(seed ^ 0x7ad0_5500_0032 ^ i as u64).u8(..4) == 0;
        let method = if rng.u8(..3) == 0 {
            if tsit5 {
                "    method tsit5 rtol 1e-4 atol 1e-6;\n"
            } else if dop853 {
                "    method dop853 rtol 1e-4 atol 1e-6;\n"
            } else {
                "    method dopri5 rtol 1e-4 atol 1e-6;\n"
            }
        } else if rodas4 && rodas5p {
            "    method rodas5p rtol 1e-4 atol 1e-6;\n"
        } else if rodas4 {
            "    method rodas4 rtol 1e-4 atol 1e-6;\n"
        } else if radau5 {
            "    method radau5 rtol 1e-4 atol 1e-6;\n"
        } else {
            "    method rk4;\n"
        };
        tried.insert_str(at + head.len(), method);
        let out = sit_middle::check_source("random.sit", &tried);
        let lowers = || {
            out.program
                .as_ref()
                .is_some_and(|p| sit_middle::lower::Lowered::new(p, Default::default()).is_ok())
        };
        let implicit = method.contains("rodas") || method.contains("radau");
        if !out.has_errors() && (!implicit || lowers()) {
            text = tried;
        }
    }
    text
}

/// `text` beginning with a model `Chain` in one file of ten (by a generator of its
/// own, so the rest of the text is the same as without it): a chain of 8 to 10 real
/// states under `rodas4` (or, one chain in two by a generator of its own, `rodas5p`), each reading its neighbours (diffusion from a fixed value
/// `u` at one end to 0 at the other, with a cubic damping), so that its Jacobian is
/// tridiagonal and `rodas4` holds its iteration matrix as a band (`n ≥ 8`, `4·n`
/// cells ≤ `n²/2`): the random models cover the band's factorisation and solves. In
/// one such file of two a model `Star` follows it (a hub coupled to 3 to 5 leaves,
/// under `rodas4`), whose iteration matrix fills completely and stays dense, as the
/// other random models' sparse ones are held with their pattern.
pub(crate) fn with_chain(seed: u64, text: String) -> String {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0xba4d_0029);
    if rng.u8(..10) != 0 {
        return text;
    }
    let n = rng.usize(8..=13);
    let method = match (
        fastrand::Rng::with_seed(seed ^ 0xba4d_5030).bool(),
        fastrand::Rng::with_seed(seed ^ 0xba4d_5034).u8(..3) == 0,
    ) {
        (_, true) => "radau5",
        (true, false) => "rodas5p",
        (false, false) => "rodas4",
    };
    let mut m = format!("model Chain {{\n    method {method} rtol 1e-4 atol 1e-6;\n");
    let (k, c, u) = (0.5 + 2.0 * rng.f64(), rng.f64(), 2.0 * rng.f64() - 1.0);
    let _ = writeln!(
        m,
        "    param k = {k:.3};\n    param c = {c:.3};\n    param u = {u:.3};"
    );
    for j in 1..=n {
        let _ = writeln!(m, "    output real z{j} = {:.3};", 2.0 * rng.f64() - 1.0);
    }
    for j in 1..=n {
        let left = if j == 1 {
            "u".to_string()
        } else {
            format!("z{}", j - 1)
        };
        let right = if j == n {
            "0".to_string()
        } else {
            format!("z{}", j + 1)
        };
        let _ = writeln!(
            m,
            "    z{j} = integral(k * ({left} - 2 * z{j} + {right}) - c * z{j} * z{j} * z{j});"
        );
    }
    m.push_str("}\n\n");
    // A star beside the chain in one such file of two: a hub coupled to every leaf,
    // first in the order, so that the iteration matrix's LU fills completely and
    // stays dense (a chain's, a pattern or a band).
    if fastrand::Rng::with_seed(seed ^ 0x57a2_0029).bool() {
        let leaves = rng.usize(3..=5);
        m.push_str("model Star {\n    method rodas4 rtol 1e-4 atol 1e-6;\n");
        let _ = writeln!(m, "    output real hub = {:.3};", 2.0 * rng.f64() - 1.0);
        for j in 1..=leaves {
            let _ = writeln!(m, "    output real s{j} = {:.3};", 2.0 * rng.f64() - 1.0);
        }
        let sum: Vec<String> = (1..=leaves).map(|j| format!("s{j}")).collect();
        let _ = writeln!(
            m,
            "    hub = integral({k:.3} * ({} - {leaves} * hub));",
            sum.join(" + ")
        );
        for j in 1..=leaves {
            let _ = writeln!(
                m,
                "    s{j} = integral({k:.3} * (hub - s{j}) - {c:.3} * s{j} * s{j} * s{j});"
            );
        }
        m.push_str("}\n\n");
    }
    let at = text.find('\n').map_or(0, |i| i + 1);
    let mut text = text;
    text.insert_str(at, &m);
    text
}

/// `text` beginning with a model `Spring` in one file of five (by a generator of its
/// own, so the rest of the text is the same as without it): a stiff, overdamped
/// oscillator (`k` from 1e5 to 1e7, `c` from 2 to 10 times `√k`) under `rodas5p` (or,
/// one spring in two, `rodas4`), with one spring in two a third state reading `x`. Once
/// its internal steps pass about `1/(γ·k)`, `k` in column 0 of `W = I/(γh) − J` is larger
/// than the diagonal, the factorisation swaps rows, and the generated step's
/// straight-line LU gives way to the runtime's: the random models cover both paths, for
/// a dense `W` (two states) and one held with its pattern (three).
pub(crate) fn with_spring(seed: u64, text: String) -> String {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5b21_0031);
    if rng.u8(..5) != 0 {
        return text;
    }
    let rodas5p = rng.bool();
    // radau5 for a third of the springs, by a generator of its own.
    let method = match (
        fastrand::Rng::with_seed(seed ^ 0x5b21_0032).u8(..3) == 0,
        rodas5p,
    ) {
        (true, _) => "radau5",
        (false, true) => "rodas5p",
        (false, false) => "rodas4",
    };
    let k = 10f64.powf(5.0 + 2.0 * rng.f64());
    let c = (2.0 + 8.0 * rng.f64()) * k.sqrt();
    let mut m = format!("model Spring {{\n    method {method} rtol 1e-4 atol 1e-6;\n");
    let _ = writeln!(m, "    param k = {k:.4e};\n    param c = {c:.4e};");
    let (x0, v0) = (2.0 * rng.f64() - 1.0, 2.0 * rng.f64() - 1.0);
    let _ = writeln!(m, "    output real x = {x0:.3}, v = {v0:.3};");
    m.push_str("    x = integral(v);\n    v = integral(-k * x - c * v);\n");
    if rng.bool() {
        m.push_str("    output real w = 0;\n    w = integral(x - w);\n");
    }
    m.push_str("}\n\n");
    let at = text.find('\n').map_or(0, |i| i + 1);
    let mut text = text;
    text.insert_str(at, &m);
    text
}

#[cfg(test)]
mod tests {
    use crate::{Size, random_file};

    /// Every method is declared somewhere in the first 40 random files (those that
    /// `tests/build.rs` compiles), `dop853`, `rodas4` and `rodas5p` among them.
    #[test]
    fn random_files_declare_every_method() {
        let texts: Vec<String> = (0..40).map(|s| random_file(s, Size::default())).collect();
        for method in [
            "rk4", "dopri5", "tsit5", "dop853", "rodas4", "rodas5p", "radau5",
        ] {
            let n = texts
                .iter()
                .filter(|t| t.contains(&format!("method {method}")))
                .count();
            assert!(n >= 2, "`method {method}` in {n} of 40 files");
        }
        let springs = texts
            .iter()
            .filter(|t| t.contains("model Spring {"))
            .count();
        assert!(springs >= 2, "a spring in {springs} of 40 files");
        for method in ["rodas4", "rodas5p", "radau5"] {
            let head = format!("model Chain {{\n    method {method} ");
            let chains = texts.iter().filter(|t| t.contains(&head)).count();
            assert!(
                chains >= 1,
                "a chain under {method} in {chains} of 40 files"
            );
        }
    }
}
