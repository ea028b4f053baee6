//! Forward sensitivities (`d(x)/d(k)`, issue 50) against central finite differences of
//! the same runs: every library model with params, every method, and the bit identity
//! of the compiled and interpreted sensitivities.

use sit_interp::Instance;
use sit_middle::ir::Method;
use sit_middle::lower::jacobian::sensitivity::{Column, add};
use sit_runtime::Model;

/// The instance of `file`'s root model (a library file name, or `.sit` text when it
/// holds a `{`) with the sensitivities to `wrt`, under `method` when given.
fn load(file: &str, method: Option<Method>, wrt: &[&str]) -> (Instance, Vec<Column>) {
    let out = if file.contains('{') {
        sit_middle::check_source("m.sit", file)
    } else {
        let path = sit_tests::repo_root().join("examples/models").join(file);
        sit_middle::check_file(&path).expect("reads")
    };
    assert!(!out.has_errors(), "{}", out.render());
    let mut program = out.program.expect("checks");
    if let Some(m) = method {
        program.set_method(m).expect("splits");
    }
    let root = sit_driver::select_root(&program, None).expect("one root");
    let wrt: Vec<String> = wrt.iter().map(|s| s.to_string()).collect();
    let (program, columns) = add(&program, root, &wrt).expect("sensitivities");
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
    (Instance::new(&lowered, root), columns)
}

/// The free params of `file`'s root model.
fn params(file: &str) -> Vec<String> {
    let path = sit_tests::repo_root().join("examples/models").join(file);
    let program = sit_middle::check_file(&path)
        .expect("reads")
        .program
        .expect("checks");
    let root = sit_driver::select_root(&program, None).expect("one root");
    program.models[root]
        .vars
        .iter()
        .filter(|v| v.kind == sit_middle::ir::VarKind::Param { derived: false })
        .map(|v| v.name.clone())
        .collect()
}

/// The values of `names` after every `every` steps of `dt`, `n` steps, after a reset
/// with `perturb` (a param set before the reset, a state's initial value after it).
fn rows(
    m: &mut Instance,
    perturb: Option<(&str, f64, bool)>,
    names: &[&str],
    (dt, n, every): (f64, usize, usize),
) -> Vec<Vec<f64>> {
    let nominal = perturb.map(|(name, _, _)| m.get(name).expect("a variable"));
    if let Some((name, x, false)) = perturb {
        m.set(name, x).expect("settable");
    }
    m.reset();
    if let Some((name, x, true)) = perturb {
        m.set(name, x).expect("settable");
    }
    let mut out = Vec::new();
    for k in 1..=n {
        m.step(dt);
        if k % every == 0 {
            out.push(
                names
                    .iter()
                    .map(|v| m.get(v).expect("a variable"))
                    .collect(),
            );
        }
    }
    if let (Some((name, _, initial)), Some(x)) = (perturb, nominal) {
        if !initial {
            m.set(name, x).expect("settable");
        }
        m.reset();
    }
    out
}

/// The largest error of the sensitivities of `file` (all its free params) against
/// central differences with relative step `rel`, as a fraction of what is allowed: `tol`
/// of the column's largest magnitude over the run (so that a crossing of zero is not a
/// large relative error) plus the differences' own rounding, 1e-12·max|x|/h (ε·|x|/h
/// with a margin for the rounding each run accumulates); and the column where it is.
fn worst(
    file: &str,
    method: Option<Method>,
    run: (f64, usize, usize),
    (rel, tol): (f64, f64),
) -> (f64, String) {
    let wrt = params(file);
    let wrt: Vec<&str> = wrt.iter().map(String::as_str).collect();
    let (mut m, columns) = load(file, method, &wrt);
    let of: Vec<&str> = columns.iter().map(|c| c.of.as_str()).collect();
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let exact = rows(&mut m, None, &names, run);
    let values = rows(&mut m, None, &of, run);
    let mut worst = (0.0, String::new());
    for w in &wrt {
        let p = m.get(w).expect("a param");
        let h = if p == 0.0 { rel } else { rel * p.abs() };
        let up = rows(&mut m, Some((w, p + h, false)), &of, run);
        let down = rows(&mut m, Some((w, p - h, false)), &of, run);
        for (c, col) in columns.iter().enumerate().filter(|(_, c)| c.wrt == *w) {
            let scale = exact.iter().map(|r| r[c].abs()).fold(0.0, f64::max);
            let x = values.iter().map(|r| r[c].abs()).fold(0.0, f64::max);
            let allowed = tol * scale + 1e-12 * x / h;
            for (r, row) in exact.iter().enumerate() {
                let fd = (up[r][c] - down[r][c]) / (2.0 * h);
                let err = (row[c] - fd).abs() / allowed;
                if err > worst.0 {
                    worst = (err, format!("{} at row {r}: {} vs {fd}", col.name, row[c]));
                }
            }
        }
    }
    worst
}

/// Every library model with params whose continuous part is smooth, under `rk4` (a
/// fixed step: the sensitivities are the exact derivatives of the discrete map, so
/// central differences with a relative step of 1e-5 agree to their own error, about
/// h²·|x'''|/6 ≈ 1e-10 of the scale, plus rounding ε/h ≈ 1e-11): to 1e-7 of each
/// column's scale.
#[test]
fn library_models_match_central_differences() {
    // Models whose trajectory has events or guards (a jump of the derivative where a
    // difference straddles it) are checked through their events in `events_*`.
    // The step of each is one that rk4 keeps stable over the 1 000 steps.
    let smooth = [
        ("cart_pendulum.sit", 1e-3, 1e-7),
        ("dahlquist.sit", 1e-3, 1e-7),
        ("hires.sit", 1e-3, 1e-7),
        ("pendulum.sit", 1e-3, 1e-7),
        // `dLdt = deriv(L_cur)` divides the rounding of L_cur (about 2 m, so 4e-16)
        // by dt = 1e-3 and the difference's step h = 2e-3: 2e-10 of 4e-6.
        ("pendulum_elastic.sit", 1e-3, 1e-4),
        ("rlc.sit", 1e-6, 1e-7),
        ("robertson.sit", 1e-4, 1e-7),
        ("van_der_pol.sit", 1e-3, 1e-7),
        ("van_der_pol_scaled.sit", 1e-5, 1e-7),
        ("vehicle.sit", 1e-3, 1e-7),
    ];
    let mut failed = Vec::new();
    for (file, dt, tol) in smooth {
        let (err, at) = worst(file, Some(Method::Rk4), (dt, 1000, 10), (1e-5, tol));
        eprintln!("{file}: worst {err:e} of the allowed ({at})");
        if err > 1.0 || err.is_nan() {
            failed.push(format!("{file}: {err:e} ({at})"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Every method on the pendulum and Van der Pol: the fixed-step ones to 1e-7 as above;
/// the adaptive ones at rtol 1e-10, whose step sizes follow the params (a difference
/// of two runs is that of two step sequences), to 1e-5 of each column's scale.
#[test]
fn every_method_matches_central_differences() {
    use sit_middle::ir::Tolerance;
    let tight = Tolerance {
        rtol: 1e-10,
        atol: 1e-12,
    };
    let mut failed = Vec::new();
    for file in ["pendulum.sit", "van_der_pol.sit"] {
        for method in Method::ALL {
            let (method, tol) = match method.tolerance() {
                Some(_) => (
                    method.with_tolerance(Some(tight.rtol), Some(tight.atol)),
                    1e-5,
                ),
                None => (method, 1e-7),
            };
            let (err, at) = worst(file, Some(method), (0.01, 200, 10), (1e-5, tol));
            eprintln!(
                "{file} {}: worst {err:e} of the allowed ({at})",
                method.name()
            );
            if err > 1.0 || err.is_nan() {
                failed.push(format!("{file} {}: {err:e} ({at})", method.name()));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The library's bouncing ball under `rk4`, `dopri5` and `radau5` (events located):
/// between the first and the second impact, the sensitivities to the restitution `e`,
/// the drop height `h0` and the gravity `g0` against the closed form of the free
/// flight after the jump, `t1 = sqrt(2·h0/g)`, `h = e·g·t1·s − g·s²/2`, `v = e·g·t1 −
/// g·s` with `s = t − t1` (the impact time's own sensitivity, `dt1/dh0 = 1/(g·t1)`, in
/// every term). Free fall is a polynomial the methods reproduce and the impact is
/// located to 2^-50 of the step, so what is left is rounding: 1e-8 relative.
#[test]
fn ball_event_sensitivities_match_the_closed_form() {
    let ball =
        std::fs::read_to_string(sit_tests::repo_root().join("examples/models/bouncing_ball.sit"))
            .expect("the library's ball");
    let tight = sit_middle::ir::Tolerance {
        rtol: 1e-10,
        atol: 1e-12,
    };
    let (g, e, h0) = (9.81f64, 0.7, 1.0);
    let t1 = (2.0 * h0 / g).sqrt();
    for method in [Method::Rk4, Method::Dopri5(tight), Method::Radau5(tight)] {
        let (mut m, _) = load(&ball, Some(method), &["e", "h0", "g0"]);
        for _ in 0..8 {
            m.step(0.1);
        }
        let t = m.time();
        let s = t - t1;
        assert!(s > 0.0 && s < 2.0 * e * t1, "between the impacts");
        // h = e·g·t1·(t − t1) − g·(t − t1)²/2; t1 = sqrt(2·h0/g); g = −g0.
        let h = |e: f64, g: f64, h0: f64| {
            let t1 = (2.0 * h0 / g).sqrt();
            e * g * t1 * (t - t1) - g * (t - t1).powi(2) / 2.0
        };
        let v = |e: f64, g: f64, h0: f64| {
            let t1 = (2.0 * h0 / g).sqrt();
            e * g * t1 - g * (t - t1)
        };
        let dt1_dh0 = 1.0 / (g * t1);
        let dt1_dg = -t1 / (2.0 * g);
        let want = [
            ("d(h)/d(e)", g * t1 * s),
            ("d(h)/d(h0)", (e * g * s - e * g * t1 + g * s) * dt1_dh0),
            ("d(v)/d(e)", g * t1),
            ("d(v)/d(h0)", (e * g + g) * dt1_dh0),
            // d/dg0 = −d/dg: the flight's own g and the impact time's.
            (
                "d(h)/d(g0)",
                -(e * t1 * s - s * s / 2.0 + (e * g * s - e * g * t1 + g * s) * dt1_dg),
            ),
            ("d(v)/d(g0)", -(e * t1 - s + (e * g + g) * dt1_dg)),
        ];
        assert!((m.get("h").unwrap() - h(e, g, h0)).abs() < 1e-9);
        assert!((m.get("v").unwrap() - v(e, g, h0)).abs() < 1e-9);
        for (name, w) in want {
            let got = m.get(name).expect("a sensitivity");
            assert!(
                (got - w).abs() <= 1e-8 * w.abs().max(1.0),
                "{} {name}: {got} vs {w}",
                method.name()
            );
        }
    }
}

/// The thermostat under `dopri5` (its switching instants located): the sensitivities
/// of the temperature to the loss coefficient, the heater's power and the thresholds,
/// through many switchings (the rate jumps, the state does not), against central
/// differences of located runs (the instants found to 2^-50 of a step, so the
/// differences are smooth in the params): to 1e-6 of each column's scale.
#[test]
fn thermostat_event_sensitivities_match_central_differences() {
    let tight = sit_middle::ir::Tolerance {
        rtol: 1e-10,
        atol: 1e-10,
    };
    let (err, at) = worst(
        "thermostat.sit",
        Some(Method::Dopri5(tight)),
        (60.0, 400, 10),
        (1e-6, 1e-6),
    );
    eprintln!("thermostat: worst {err:e} of the allowed ({at})");
    assert!(err <= 1.0, "{err:e}: {at}");
}

/// A guard located inside a step that the saltation does not cover (one nested inside a
/// `when` block) is refused with the line and the fix, rather than giving sensitivities
/// without their jump there; the same switch written as a top-level block gets it: the
/// decay `x = e^(−k t)` that doubles its rate below 0.5 ends at `x(1) = 2·e^(−2k)`, whose
/// derivative is `−4·e^(−2k)` (k = 1), to 1e-8 under `dopri5`.
#[test]
fn a_nested_located_guard_is_refused_and_a_top_level_one_jumps() {
    let nested = "model Nested {\n    method dopri5 rtol 1e-10 atol 1e-12;\n    param k = 1;\n    \
                  output real x = 1;\n    real r = 1;\n    flag armed = true;\n    \
                  x = integral(-k * r * x);\n    when armed {\n        r = 2 when x < 0.5;\n    }\n}\n";
    let path = std::path::Path::new("nested.sit");
    let compile = |text: &str| {
        sit_driver::compile(
            &sit_driver::Source::Text { path, text },
            &sit_driver::Options {
                sensitivities: Some(sit_driver::Sensitivities {
                    model: None,
                    wrt: vec!["k".into()],
                }),
                ..Default::default()
            },
        )
    };
    let err = compile(nested).expect_err("refused").to_string();
    assert!(
        err.starts_with(
            "--sensitivities: model `Nested`'s guard `x < 0.5` (nested.sit:9:20) is located \
             inside a step, but the sensitivities get no jump there"
        ),
        "{err}"
    );
    let flat = nested.replace(
        "    when armed {\n        r = 2 when x < 0.5;\n    }",
        "    when armed & x < 0.5 {\n        r = 2;\n    }",
    );
    let compiled = compile(&flat).expect("a top-level block compiles");
    let root = compiled.root(None).unwrap();
    let mut m = sit_interp::Instance::try_new(&compiled.lowered, root).unwrap();
    m.step(1.0);
    let (x, dx) = (m.get("x").unwrap(), m.get("d(x)/d(k)").unwrap());
    let e = (-2.0f64).exp();
    assert!((x - 2.0 * e).abs() < 1e-9, "{x}");
    assert!((dx + 4.0 * e).abs() < 1e-8, "{dx} against {}", -4.0 * e);
}
