//! Snapshots of the code generated for every example model (`examples/models/*.sit`).

use std::path::{Path, PathBuf};

/// The folder of the example models.
fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models")
}

/// Every example model, sorted, so that new models are picked up.
fn example_models() -> Vec<PathBuf> {
    sit_driver::sit_files(models_dir())
}

#[test]
fn generated_code_of_example_models() {
    let files = example_models();
    assert!(
        files.iter().any(|f| f.ends_with("hoop.sit")),
        "hoop.sit is missing"
    );
    for file in files {
        let source = sit_driver::Source::path(&file);
        let compiled = sit_driver::compile(&source, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let code = &sit_codegen::generate(&compiled.lowered, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            !code.contains("unsafe"),
            "{}: generated code has `unsafe`",
            file.display()
        );
        // `complex/roll.sit` → snapshot `complex__roll`.
        let rel = file.strip_prefix(models_dir()).unwrap().with_extension("");
        let name = rel.to_string_lossy().replace(['/', '\\'], "__");
        // The heat rod's 1 MB of code (40 states under `rodas4`) is pinned by its
        // sparse linear algebra only (`sparse_factor_and_solve`); the rest of its
        // step is written as Robertson's, whose code is pinned here.
        if name == "heat_rod" || name == "heat_rod_array" {
            assert!(code.contains("::sit_runtime::stage_sparse_factor("));
            continue;
        }
        insta::assert_snapshot!(name, code);
    }
}

/// The first `{ … }` block of `code` that holds `call`, from its opening line.
fn block_holding(code: &str, call: &str) -> String {
    let at = code.find(call).unwrap_or_else(|| panic!("no `{call}`"));
    let open = code[..at].rfind("{\n").expect("a block around the call");
    let start = code[..open].rfind('\n').map_or(0, |i| i + 1);
    let mut depth = 0;
    for (i, ch) in code[open..].char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return code[start..=open + i].to_string();
                }
            }
            _ => {}
        }
    }
    panic!("an unbalanced block");
}

/// `rodas4`'s iteration matrix held as a band: a chain of 8 states declared out of
/// the chain's order (a, e, b, f, c, g, d, h), so that the lowering reorders them
/// (reverse Cuthill–McKee) into a tridiagonal band. Pinned: the factorisation (the
/// band's 32 cells in their row order, `kl = ku = 1`) and the first stage's solve (its
/// right-hand sides in the band's order).
#[test]
fn banded_factor_and_solve() {
    let text = "model Chain {\n\
                method rodas4;\n\
                param k = 3;\n\
                output real a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;\n\
                a = integral(k * (1 - 2 * a + e));\n\
                e = integral(k * (a - 2 * e + b));\n\
                b = integral(k * (e - 2 * b + f));\n\
                f = integral(k * (b - 2 * f + c));\n\
                c = integral(k * (f - 2 * c + g));\n\
                g = integral(k * (c - 2 * g + d));\n\
                d = integral(k * (g - 2 * d + h));\n\
                h = integral(k * (d - 2 * h));\n\
                }";
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("chain.sit", text),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let code = sit_codegen::generate(&compiled.lowered, &Default::default()).unwrap();
    assert!(!code.contains("::sit_runtime::stage_factor("), "dense");
    let factor = block_holding(&code, "::sit_runtime::stage_band_factor(");
    let solve = block_holding(&code, "::sit_runtime::stage_band_solve(");
    insta::assert_snapshot!(format!("{factor}\n{solve}"));
}

/// `radau5`'s Newton iteration, a loop inside the internal steps' loop (issue 48).
/// Pinned: from the rate on, its tests (the slow test's power written per iteration,
/// products left to right, as the six unrolled iterations had them), its update and its
/// end: left when `conv ≠ 0`, or after the sixth run without a fault
/// (`AtLimit::Leave`).
#[test]
fn radau5_newton_loop() {
    let text =
        "model D {\n    method radau5;\n    output real x = 1;\n    x = integral(-50 * x);\n}\n";
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("d.sit", text),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let code = sit_codegen::generate(&compiled.lowered, &Default::default()).unwrap();
    assert_eq!(
        code.matches("loop {").count(),
        2,
        "two loops, one in the other"
    );
    let rate = code.find("if self.radau5_it > 1.0 {").expect("the rate");
    let from = code[..rate].rfind('\n').map_or(0, |i| i + 1);
    let limit = code.find("if self.radau5_it >= 6.0 {").expect("the limit");
    // The end of the limit's `if`, then of the loop.
    let mut to = limit;
    for _ in 0..2 {
        to += code[to..].find("}\n").expect("a closing brace") + 2;
    }
    insta::assert_snapshot!(&code[from..to]);
}

/// The sparse iteration matrices (issue 49): a chain of 12 states under `radau5`,
/// declared out of the chain's order. Pinned: the real `WR`'s factorisation written
/// out on its pattern's 34 cells (no fill-in in the order chosen), with the runtime's
/// call after a pivot that is zero or not finite; the complex `WC`'s factorisation and first solve by the runtime's loops over the
/// pattern's index arrays, the cells' real parts then imaginary parts.
#[test]
fn sparse_factor_and_solve() {
    let mut text = String::from("model Chain {\n    method radau5;\n    param k = 3;\n");
    let at = |p: usize| (p * 5) % 12; // the state at chain position p (5 and 12 coprime)
    for p in 0..12 {
        text.push_str(&format!("    output real x{} = 0;\n", at(p)));
    }
    for p in 0..12 {
        let left = if p == 0 {
            "1".to_string()
        } else {
            format!("x{}", at(p - 1))
        };
        let right = if p == 11 {
            "0".to_string()
        } else {
            format!("x{}", at(p + 1))
        };
        text.push_str(&format!(
            "    x{0} = integral(k * ({left} - 2 * x{0} + {right}));\n",
            at(p)
        ));
    }
    text.push_str("}\n");
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("chain.sit", &text),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let code = sit_codegen::generate(&compiled.lowered, &Default::default()).unwrap();
    assert!(!code.contains("::sit_runtime::stage_factor("), "dense");
    let real = block_holding(&code, "'factor: {");
    let complex = block_holding(&code, "::sit_runtime::stage_sparse_complex_factor(");
    let solve = block_holding(&code, "::sit_runtime::stage_sparse_complex_solve(");
    insta::assert_snapshot!(format!("{real}\n{complex}\n{solve}"));
}

/// The code of a model without watched guards (`dahlquist`: the straight-line `rk4`
/// step, the plain `dopri5` loop) and of one with them (`thermostat`: both loops with
/// located events) under each method: the arithmetic that the methods' tableaus write,
/// pinned sum by sum (the example models but `robertson.sit`, which declares `rodas4`,
/// declare no method, so the snapshots above run `euler`).
#[test]
fn generated_code_under_each_method() {
    use sit_middle::ir::Method;
    for model in ["dahlquist", "thermostat"] {
        let file = models_dir().join(format!("{model}.sit"));
        for method in [Method::Rk4, Method::Dopri5(Default::default())] {
            let opts = sit_driver::Options {
                method: Some(method),
                ..Default::default()
            };
            let compiled = sit_driver::compile(&sit_driver::Source::path(&file), &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let code = sit_codegen::generate(&compiled.lowered, &Default::default())
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            insta::assert_snapshot!(format!("{model}__{}", method.name()), code);
        }
    }
}

/// Units are erased: a model whose numbers and tables carry units generates the code of
/// the same model without them, comments (which quote the source) aside.
#[test]
fn units_of_numbers_and_tables_are_erased() {
    let with = "model M { input real v [m/s] = 1; output real x [m], y;\n\
                table g(s [m]) [1/s] = [0, 1] -> [1, 2] clamp;\n\
                x = integral(v + 2 [m/s]); y = g(x + 0.5 [m]) * 3 [s]; }";
    let without = "model M { input real v = 1; output real x, y;\n\
                   table g(s) = [0, 1] -> [1, 2] clamp;\n\
                   x = integral(v + 2); y = g(x + 0.5) * 3; }";
    let code = |text: &str| {
        let compiled = sit_driver::compile(
            &sit_driver::Source::text("m.sit", text),
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let code = sit_codegen::generate(&compiled.lowered, &Default::default()).unwrap();
        (code.lines())
            .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with("#[doc"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (a, b) = (code(with), code(without));
    assert!(a.contains("lookup1"), "the table is read: {a}");
    assert_eq!(a, b);
}
