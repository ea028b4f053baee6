//! `prev(x)`, the written delay (issue 28): the value `x` had at the start of the step, wherever
//! it is read, and a marker that changes no bit of what the unmarked read computed.

use sit_interp::Instance;
use sit_runtime::Model;

/// The lowered program of `src` (one file, no errors).
fn lowered(src: &str) -> (sit_middle::lower::Lowered, usize) {
    let out = sit_middle::check_source("delays.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let program = out.program.expect("checked");
    let root = program.roots()[0];
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
    (lowered, root)
}

/// Every visible variable of `src`'s root, by name, at t = 0 and after each of `steps`
/// steps of `dt`.
fn trace(src: &str, dt: f64, steps: usize) -> Vec<Vec<(String, u64)>> {
    let (lowered, root) = lowered(src);
    let mut m = Instance::new(&lowered, root);
    let row = |m: &Instance| {
        (0..m.var_count())
            .map(|i| {
                let name = m.var_info(i).expect("info").name.to_string();
                (name, m.get_at(i).expect("value").to_bits())
            })
            .collect::<Vec<_>>()
    };
    let mut rows = vec![row(&m)];
    for _ in 0..steps {
        m.step(dt);
        rows.push(row(&m));
    }
    rows
}

fn column(rows: &[Vec<(String, u64)>], name: &str) -> Vec<f64> {
    rows.iter()
        .map(|r| {
            let (_, bits) = r.iter().find(|(n, _)| n == name).expect("the variable");
            f64::from_bits(*bits)
        })
        .collect()
}

#[test]
fn prev_after_the_rule_is_the_value_at_the_start_of_the_step() {
    // b = 2·t + 3 with t the step's start, also on the first row (the initial pass):
    // b = 3, 3, 5, 7. prev(b) is b's value when each step starts (the row before), so
    // c = prev(b) + b = 3 + 3, 3 + 5, 5 + 7 after the steps; on the first row prev(b)
    // is b's declared initial value (0), so c = 0 + 3.
    let rows = trace(
        "model M {
            output real b, c;
            b = 2 * time + 3;
            c = prev(b) + b;
        }",
        1.0,
        3,
    );
    assert_eq!(column(&rows, "b"), [3.0, 3.0, 5.0, 7.0]);
    assert_eq!(column(&rows, "c"), [3.0, 6.0, 8.0, 12.0]);
}

#[test]
fn events_read_prev_as_the_rules_do() {
    // `x = time + 1` is computed last, from the step's start: the rows read 1 (the
    // initial pass at t = 0), then 1, 2, 3, … The event reads it through a pred, before
    // the rules, as `prev(x)`: the row before the step. It first exceeds 2.5 when the
    // step from t = 3 starts (x = 3), so the event fires in that step and `n` counts it
    // on the row of t = 4.
    let rows = trace(
        "model M {
            output real x, n;
            pred up = prev(x) > 2.5;
            event e = up;
            n = n + 1 when e;
            x = time + 1;
        }",
        1.0,
        6,
    );
    assert_eq!(column(&rows, "x"), [1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(column(&rows, "n"), [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
}

/// `src` with every `prev(NAME)` written as `NAME`, except on the lines that hold one of
/// `keep` (a delay that closes a loop: without `prev` the model is refused).
fn unmarked(src: &str, keep: &[&str]) -> String {
    let line = |l: &str| {
        if keep.iter().any(|k| l.contains(k)) {
            return l.to_string();
        }
        let (mut out, mut rest) = (String::new(), l);
        while let Some(i) = rest.find("prev(") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 5..];
            let close = after.find(')').expect("a closing parenthesis");
            out.push_str(&after[..close]);
            rest = &after[close + 1..];
        }
        out + rest
    };
    src.lines().map(line).collect::<Vec<_>>().join("\n")
}

#[test]
fn marking_the_library_delays_changed_no_bit() {
    // The library's intended delays read before the rule (hoop, Painlevé's compliant
    // rod) or through a pred that events read (cart with limiters): the marked model
    // and the unmarked one (which checks with warnings only) give the same bits.
    let root = sit_tests::repo_root().join("examples/models");
    for (file, dt, steps, keep) in [
        ("hoop.sit", 0.001, 2000, &[][..]),
        ("cart_limiters.sit", 0.01, 500, &[]),
        // u1 = prev(ve1) closes a loop through the sticking rule.
        (
            "painleve/rod_compliant.sit",
            1e-3,
            300,
            &["u1 = prev", "u2 = prev"],
        ),
    ] {
        let src = std::fs::read_to_string(root.join(file)).expect("the model");
        let plain_src = unmarked(&src, keep);
        assert_ne!(src, plain_src, "{file} marks its delays");
        let (marked, plain) = (trace(&src, dt, steps), trace(&plain_src, dt, steps));
        assert_eq!(marked, plain, "{file}");
    }
}
