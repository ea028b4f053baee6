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

fn get(m: &sit_interp::Instance, name: &str) -> f64 {
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
