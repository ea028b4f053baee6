//! Equations (issue 46): loops solved by substitution give the values that satisfy all
//! the equations at once, at every step, under every method.

use sit_runtime::Model;

/// An instance of the model `name` of the source `text`.
fn instance(text: &str, name: &str, method: Option<&str>) -> sit_interp::Instance {
    let out = sit_middle::check_source("equations.sit", text);
    assert!(!out.has_errors(), "{}", out.render());
    let mut program = out.program.expect("a program");
    if let Some(m) = method {
        let m = sit_middle::ir::Method::from_name(m).expect("a method");
        program.set_method(m).expect("the method applies");
    }
    let root = program.model(name).expect("the model");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

fn get(m: &dyn Model, name: &str) -> f64 {
    let i = (0..m.var_count())
        .find(|&i| m.var_info(i).is_some_and(|v| v.name == name))
        .expect("the variable");
    m.get_at(i).expect("a real")
}

/// E0476's feedback loop written as equations: `y = r·gain/(1 + gain)` = 1/3 to the
/// bit (0.5 / 1.5 is rounded once), and `e = r − y`, from the first step on.
#[test]
fn the_feedback_loop_is_one_third() {
    let text = "model Feedback {\n    param r = 1;\n    param gain = 0.5;\n    \
                output real e, y;\n    equation e = r - y;\n    equation y = gain * e;\n}\n";
    for method in [None, Some("rk4"), Some("dopri5"), Some("radau5")] {
        let mut m = instance(text, "Feedback", method);
        for _ in 0..5 {
            m.step(0.1);
            assert_eq!(
                get(&m, "y").to_bits(),
                (1.0f64 / 3.0).to_bits(),
                "{method:?}"
            );
            assert_eq!(get(&m, "e"), 1.0 - 1.0 / 3.0, "{method:?}");
        }
    }
}

/// A loaded voltage divider, a loop of four equations (Kirchhoff's current law at the
/// middle node, three Ohm's laws), against the values solved by hand: within a few
/// ulps (the substitution's order of operations is not the hand's).
#[test]
fn a_loaded_divider_satisfies_all_four_equations() {
    let text = "model Divider {\n    param U = 10, R1 = 100, R2 = 200, RL = 300;\n    \
                output real u2, i1, i2, iL;\n    equation U - u2 = R1 * i1;\n    \
                equation u2 = R2 * i2;\n    equation i1 = i2 + iL;\n    \
                equation u2 = RL * iL;\n}\n";
    let mut m = instance(text, "Divider", None);
    m.step(0.1);
    let (u, r1, r2, rl) = (10.0, 100.0, 200.0, 300.0);
    let rp = r2 * rl / (r2 + rl);
    let u2 = u * rp / (r1 + rp);
    for (name, want) in [
        ("u2", u2),
        ("i1", (u - u2) / r1),
        ("i2", u2 / r2),
        ("iL", u2 / rl),
    ] {
        let got = get(&m, name);
        assert!(
            (got - want).abs() <= 4.0 * f64::EPSILON * want.abs(),
            "{name}: {got} against {want}"
        );
    }
    // And the equations hold, to rounding.
    let (u2, i1, i2, il) = (get(&m, "u2"), get(&m, "i1"), get(&m, "i2"), get(&m, "iL"));
    assert!((i1 - i2 - il).abs() <= 4.0 * f64::EPSILON * i1);
    assert!((u - u2 - r1 * i1).abs() <= 8.0 * f64::EPSILON * u);
}

/// `prev(y)` in an equation is the previous step's value, known: `y = 0.5 * prev(y) + 1`
/// determines `y` (it does not read it twice), and converges to 2 step by step.
#[test]
fn prev_of_an_unknown_is_known() {
    let text = "model Filter {\n    output real y;\n    equation y = 0.5 * prev(y) + 1;\n}\n";
    let mut m = instance(text, "Filter", None);
    let mut want = 0.0;
    for _ in 0..10 {
        m.step(0.1);
        want = 0.5 * want + 1.0;
        assert_eq!(get(&m, "y"), want);
    }
}

/// The root of `f` in `[lo, hi]` (`f(lo)` and `f(hi)` of opposite signs) by bisection
/// to the last bit: an independent solution of a nonlinear equation.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let neg_lo = f(lo) < 0.0;
    assert_ne!(neg_lo, f(hi) < 0.0, "a bracket");
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return mid;
        }
        if (f(mid) < 0.0) == neg_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
}

/// A diode in series with a resistor, driven by a sine: the two equations form a loop
/// that Newton's iteration solves on `v` (the current is put in). At every step, under
/// `euler` and under `rk4` (where the block runs in each stage), `v` is the root of
/// `u − v = R·Is·(exp(v/Vt) − 1)` found by bisection to within 1e-12 V (the residual's
/// slope is at least 1/R, so the check of the residual, 1e-9 of the sides' magnitude,
/// bounds the error far below that), and the forward and reverse regions are both
/// crossed.
#[test]
fn a_diode_and_a_resistor_converge_at_every_step() {
    let text = "model Diode {\n    param Is = 1e-12, Vt = 0.025, R = 1000;\n    \
                output real v, i, u;\n    u = 5 * sin(time);\n    \
                equation i = Is * (exp(v / Vt) - 1);\n    equation u - v = R * i;\n}\n";
    for method in [None, Some("rk4")] {
        let mut m = instance(text, "Diode", method);
        let (mut forward, mut reverse) = (false, false);
        for _ in 0..1300 {
            m.step(0.01);
            let (u, v, i) = (get(&m, "u"), get(&m, "v"), get(&m, "i"));
            let f = |v: f64| u - v - 1000.0 * (1e-12 * ((v / 0.025).exp() - 1.0));
            let want = bisect(f, -6.0, 6.0);
            assert!(
                (v - want).abs() <= 1e-12,
                "{method:?}: v {v} against {want}"
            );
            // The rule as written (the runtime's `exp` is libm's: an ulp apart at most).
            let law = 1e-12 * ((v / 0.025).exp() - 1.0);
            assert!(
                (i - law).abs() <= 1e-14 * law.abs().max(1e-12),
                "{i} against {law}"
            );
            forward |= i > 1e-3;
            reverse |= u < -1.0;
        }
        assert!(forward && reverse);
    }
}

/// The steps Newton's iteration needed (the hidden `v_newton_steps`), against a Newton
/// iteration written here on the same residual from the same start (the previous
/// step's `v`): the first iterate whose residual `|u − v − R·Is·(exp(v/Vt) − 1)|` is
/// within 1e-9 of the magnitude of its terms at the last iterate, `|u| + |v| +
/// R·Is·(exp(v/Vt) + 1)` (the rule of `docs/language.md`). Exact counts: the residual
/// falls by orders of magnitude per step near the root, so rounding apart (the
/// slope's expression is not written as here) moves no residual across the tolerance.
/// The counts are below 12 at every step, and the event log reports each change with
/// the block's equation as its rule. The model is `examples/models/diode_resistor.sit`
/// (`u = 5 sin(t)`, Is = 1e-12 A, Vt = 25 mV, R = 1 kΩ).
#[test]
fn a_diode_reports_the_newton_steps_it_needed() {
    let path = sit_tests::repo_root().join("examples/models/diode_resistor.sit");
    let text = &std::fs::read_to_string(path).unwrap();
    let (is, vt, r) = (1e-12f64, 0.025f64, 1000.0f64);
    // Only a model built for the event log computes the counts.
    let program = sit_middle::check_source("equations.sit", text)
        .program
        .unwrap();
    let root = program.model("DiodeResistor").unwrap();
    let lowered = sit_middle::lower::Lowered::new(
        &program,
        sit_middle::lower::Prepare {
            events: true,
            ..Default::default()
        },
    )
    .expect("lowers");
    let mut m = sit_interp::Instance::with_events(&lowered, root).unwrap();
    let steps = m.hidden_index("v_newton_steps").expect("the count");
    let mut seen = std::collections::BTreeSet::new();
    let mut v_prev = 0.0;
    for k in 0..1300 {
        m.step(0.01);
        let u = get(&m, "u");
        let residual = |v: f64| (u - v) - r * (is * ((v / vt).exp() - 1.0));
        let slope = |v: f64| -1.0 - r * is * (v / vt).exp() / vt;
        let mut iterates = vec![v_prev];
        for _ in 0..12 {
            let v = *iterates.last().unwrap();
            iterates.push(v - residual(v) / slope(v));
        }
        let last = iterates[12];
        let tol = 1e-9 * (u.abs() + last.abs() + r * is * ((last / vt).exp() + 1.0));
        let want = (0..12)
            .find(|&j| residual(iterates[j]).abs() <= tol)
            .unwrap_or(12);
        let got = m.get_at(steps).unwrap();
        assert_eq!(got, want as f64, "step {k}: u {u}, from v {v_prev}");
        assert!(got < 12.0, "step {k}");
        seen.insert(want);
        v_prev = get(&m, "v");
    }
    // From 0 steps (the first, u = 0 at v = 0) to the forward region's several.
    assert!(
        seen.contains(&0) && seen.iter().any(|&n| n >= 4),
        "{seen:?}"
    );
    // The log: a row per change of the count, the block's (last) equation as rule. A
    // model not built for the log leaves the count at 0, its values the same.
    let mut logged = sit_interp::Instance::with_events(&lowered, root).unwrap();
    let mut plain = instance(text, "DiodeResistor", None);
    let plain_steps = plain.hidden_index("v_newton_steps").expect("declared");
    let mut last = 0.0;
    let mut rows = 0;
    for _ in 0..300 {
        logged.step(0.01);
        plain.step(0.01);
        assert_eq!(plain.get_at(plain_steps), Some(0.0));
        assert_eq!(get(&plain, "v").to_bits(), get(&logged, "v").to_bits());
        let now = logged.get_at(steps).unwrap();
        let table = logged.table().clone();
        let events = logged.take_events();
        if now == last {
            assert!(events.is_empty(), "{events:?}");
        } else {
            let [e] = events.as_slice() else {
                panic!("one row: {events:?}")
            };
            assert_eq!(e.name, "v_newton_steps");
            assert_eq!(
                (e.from.clone(), e.to.clone()),
                (format!("{last}"), format!("{now}"))
            );
            assert_eq!(e.rule(&table), "equations.sit:22");
            rows += 1;
        }
        last = now;
    }
    assert!(rows >= 3, "{rows} rows");
}

/// Kepler's equation `E − e·sin(E) = M`, one equation that cannot be rearranged,
/// against bisection, along two orbits of `M`.
#[test]
fn keplers_equation_against_bisection() {
    let text = "model Kepler {\n    param e = 0.7;\n    output real E, M;\n    \
                M = time;\n    equation E - e * sin(E) = M;\n}\n";
    let mut m = instance(text, "Kepler", None);
    for _ in 0..1300 {
        m.step(0.01);
        let (mean, ecc) = (get(&m, "M"), get(&m, "E"));
        let want = bisect(|x| x - 0.7 * x.sin() - mean, mean - 1.0, mean + 1.0);
        // The slope 1 − e·cos(E) ≥ 0.3: the residual's check bounds the error by
        // 1e-9·(|E| + |e·sin E| + |M|)/0.3, below 1e-7 for |M| < 13; Newton's last
        // steps leave far less.
        assert!(
            (ecc - want).abs() <= 1e-13 * (1.0 + want.abs()),
            "M {mean}: E {ecc} against {want}"
        );
    }
}

/// A loop that leaves two tearing unknowns (`x·x + y·y = 4` and `y³ + x = 1`, neither
/// linear in its unknown): Newton's iteration on both at once, against the equations
/// themselves and against the intersection found by bisection along the cubic.
#[test]
fn two_tearing_unknowns_solve_together() {
    let text = "model Meet {\n    output real x = 1.7, y = -0.9;\n    \
                equation x * x + y * y = 4 + 0.1 * sin(time);\n    \
                equation y * y * y + x = 1;\n}\n";
    let mut m = instance(text, "Meet", Some("rk4"));
    for k in 0..200 {
        m.step(0.05);
        let (x, y) = (get(&m, "x"), get(&m, "y"));
        let t = 0.05 * k as f64;
        let r = 4.0 + 0.1 * t.sin();
        // x = 1 − y³ on the cubic; the circle's residual changes sign on y ∈ [−1, −0.8].
        let want_y = bisect(|y| (1.0 - y * y * y).powi(2) + y * y - r, -1.0, -0.8);
        assert!((y - want_y).abs() <= 1e-12, "t {t}: y {y} against {want_y}");
        assert!(
            (x - (1.0 - want_y * want_y * want_y)).abs() <= 1e-11,
            "t {t}: x {x}"
        );
    }
}

/// An equation without a real solution (`x·x + 1 = 0`): the iteration does not
/// converge, the unknown is NaN from the first step, and the checked step (what `sitc
/// run` does) stops at the equation's line naming the iteration; from `x = 0` the
/// slope is 0 and the first step diverges.
#[test]
fn no_solution_is_a_nan_and_a_report() {
    let text = "model None {\n    output real x = 0.3;\n    equation x * x + 1 = 0;\n}\n";
    let mut m = instance(text, "None", None);
    m.step(0.1);
    assert!(get(&m, "x").is_nan());
    let mut m = instance(text, "None", None);
    let fault = m.step_checked(0.1).expect_err("a fault");
    assert_eq!(
        fault.to_string(),
        "equations.sit:3: rule `equation x * x + 1 = 0` made Newton's iteration for `x` end \
         without converging at t = 0 (its residual is still larger than 1e-9 of the \
         equation's terms: the start, the last step's value, was too far from a solution, \
         or there is none)"
    );
    let flat = text.replace("x = 0.3", "x = 0");
    let mut m = instance(&flat, "None", None);
    let fault = m.step_checked(0.1).expect_err("a fault");
    assert!(
        fault
            .to_string()
            .contains("made Newton's iteration for `x` reach -inf at t = 0 (it diverged"),
        "{fault}"
    );
}

/// A prescribed motion (index 3): a mass whose position the equation `x = sin(time)`
/// fixes. The index reduction differentiates the constraint twice, through `time`
/// (`der(x) = cos(time)`, so `v = cos(time)`, then `der(v) = -sin(time)`), and
/// computes `x` and `v` from it (dummy states) instead of integrating them, so the
/// force is `F = -m sin(t)` and all three are the closed form to rounding (1e-15,
/// 4e-15 for `F`: the clock's last bit and the derivatives' own operations), under
/// any method (none integrates anything here).
#[test]
fn a_prescribed_motion_is_differentiated_through_time() {
    let text = "model Driven {\n    param m = 2;\n    output real x = 0, v = 1, F;\n    \
                equation der(x) = v;\n    equation m * der(v) = F;\n    \
                equation x = sin(time);\n}\n";
    for method in ["rk4", "rodas5p", "radau5"] {
        let mut m = instance(text, "Driven", Some(method));
        for _ in 0..50 {
            // A rule reads `time` at the start of its step: the row at `t` holds the
            // values computed from the step's start.
            let t = m.time();
            m.step(0.02);
            // The step's clock and `m.time()` may differ in the last bit.
            assert!((get(&m, "x") - t.sin()).abs() <= 1e-15, "{method} at {t}");
            assert!((get(&m, "v") - t.cos()).abs() <= 1e-15, "{method} at {t}");
            assert!(
                (get(&m, "F") + 2.0 * t.sin()).abs() <= 4e-15,
                "{method} at {t}"
            );
        }
    }
}

/// A constraint among states that reads an input cannot be differentiated (the
/// input's rate is unknown), and one whose every slope depends on the states cannot
/// give a state computed everywhere: both stay E0490, saying why.
#[test]
fn constraints_the_reduction_cannot_take_are_refused() {
    let input = "model M {\n    input real u = 1;\n    output real x = 0, y = 0, f;\n    \
                 equation der(x) = f;\n    equation der(y) = -f;\n    \
                 equation x + y = u;\n}\n";
    let out = sit_middle::check_source("equations.sit", input);
    let d: Vec<_> = (out.diagnostics.iter())
        .filter(|d| d.code == "E0490")
        .collect();
    assert_eq!(d.len(), 1, "{}", out.render());
    assert!(
        d[0].notes.iter().any(|n| n.contains("reads `u`")),
        "{}",
        out.render()
    );
    let pendulum = sit_tests::repo_root().join("tests/malformed/equation_index_three.sit");
    let text = std::fs::read_to_string(&pendulum).unwrap();
    let out = sit_middle::check_source(&pendulum, &text);
    assert!(
        out.diagnostics
            .iter()
            .any(|d| d.code == "E0490" && d.notes.iter().any(|n| n.contains("can vanish"))),
        "{}",
        out.render()
    );
}
