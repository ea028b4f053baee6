//! `prev(x)`, the written delay (issue 28): the value `x` had at the start of the step, wherever
//! it is read, and a marker that changes no bit of what the unmarked read computed; and
//! `step(sub);`, a submodel stepped where its parent's rules place it, so that a binding reads
//! the value its parent computed in the same step instead of a step-late one.

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

// `step(sub);`

/// The values of `names` in `src`'s root at t = 0 and after each of `steps` steps of `dt`,
/// by the interpreter.
fn columns(src: &str, dt: f64, steps: usize, names: &[&str]) -> Vec<Vec<f64>> {
    let out = sit_middle::check_source("placement.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let program = out.program.expect("checked");
    let root = program.roots()[0];
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
    let mut m = Instance::new(&lowered, root);
    let index: Vec<usize> = names
        .iter()
        .map(|n| m.var_index(n).unwrap_or_else(|| panic!("no variable {n}")))
        .collect();
    let mut rows = Vec::new();
    for k in 0..=steps {
        if k > 0 {
            m.step(dt);
        }
        rows.push(index.iter().map(|&i| m.get_at(i).expect("value")).collect());
    }
    rows
}

/// A chain parent → relay → relay: each relay copies its input to its output.
const CHAIN: &str = "model Relay { input real u; output real y; y = u; }
    model Chain {
        output real x;
        sub a: Relay(u = x);
        sub b: Relay(u = a.y);
        x = time + 1;
        STEPS
    }";

#[test]
fn placed_submodels_read_the_values_of_this_step() {
    // x = t + 1 computed at each step's start t = 0, 1, 2 (and on the first row by the
    // initial pass). Placed after x's rule, a copies x of the same step and b copies a's
    // output of the same step: both equal x on every row after the first (on the first row
    // they hold their initial 0: a parent binds inputs only when it steps).
    let src = CHAIN.replace("STEPS", "step(a); step(b);");
    let rows = columns(&src, 1.0, 3, &["x", "a.y", "b.y"]);
    assert_eq!(rows[0], [1.0, 0.0, 0.0]);
    for (k, row) in rows.iter().enumerate().skip(1) {
        let x = k as f64; // x of the step that started at t = k - 1
        assert_eq!(row, &[x, x, x], "row {k}");
    }
}

#[test]
fn unplaced_submodels_step_first_and_lag_a_step_per_hop() {
    // Before the rules: a copies the x of the step before, b copies a's output of this
    // step (a stepped first): one step behind x, both. x is read before its rule, so the
    // first row keeps its declared 0 (no initial pass for it) and the first step copies 0.
    let src = CHAIN.replace("STEPS", "");
    let rows = columns(&src, 1.0, 3, &["x", "a.y", "b.y"]);
    assert_eq!(rows[0], [0.0, 0.0, 0.0]);
    assert_eq!(rows[1], [1.0, 0.0, 0.0]);
    assert_eq!(rows[2], [2.0, 1.0, 1.0]);
    assert_eq!(rows[3], [3.0, 2.0, 2.0]);
    // In reverse order of steps, b reads a's output before a steps: two hops behind.
    let src = CHAIN.replace("STEPS", "step(b); step(a);");
    let rows = columns(&src, 1.0, 3, &["x", "a.y", "b.y"]);
    assert_eq!(rows[1], [1.0, 1.0, 0.0]);
    assert_eq!(rows[2], [2.0, 2.0, 1.0]);
    assert_eq!(rows[3], [3.0, 3.0, 2.0]);
}

#[test]
fn a_placed_submodel_steps_by_the_dt_of_the_step_and_only_when_on() {
    // The relay integrates its input: y = ∫u over the steps it takes. Switched off from
    // t = 2 on (the σ rule runs before its step, so the third step is not taken).
    let src = "model Acc { input real u; output real y; y = integral(u); }
        model M {
            output real r;
            sub acc: Acc(u = r);
            r = 2;
            when time >= 2 => !acc.on;
            step(acc);
        }";
    let rows = columns(src, 0.5, 6, &["acc.y"]);
    let y: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    // Steps start at t = 0, 0.5, 1, 1.5 (on: y += 2 · 0.5), then 2, 2.5 (off).
    assert_eq!(y, [0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 4.0]);
}

#[test]
fn the_conveyor_counts_each_box_in_the_row_that_sees_it() {
    // The library's conveyor: boxes every 1 m at 0.5 m/s, the first 0.5 m before the
    // barrier, seen within 0.06 m: at t ≥ 0.88 s, 2.88 s, 4.88 s, so first in the rows
    // 0.9, 2.9, 4.9 at dt = 0.1, where each is counted.
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/models/conveyor.sit"
    ))
    .expect("the example");
    let rows = columns(&src, 0.1, 50, &["count"]);
    let rises: Vec<usize> = (1..rows.len())
        .filter(|&k| rows[k][0] > rows[k - 1][0])
        .collect();
    assert_eq!(rises, [9, 29, 49]);
}

/// `prev` of a flag (issue 53, item 1): a hidden flag copy, taken by σ actions at the end
/// of each step, under every method. `f` is set in the step from t = 0.3 (the first whose
/// start is past 0.2, `time` reading the step's start), after which `n` counts no more:
/// its rule reads `prev(f)`, still false in that step. Before the fix this model failed
/// inside the compiler ("δ rule on `f_prev`, which is not a real state").
#[test]
fn prev_of_a_flag_is_its_value_at_the_start_of_the_step_under_every_method() {
    let src = "model M {\n    flag f;\n    output real n;\n    when time > 0.2 => f;\n    \
               n = n + 1 when !prev(f);\n}\n";
    for method in ["", "method rk4;", "method dopri5;", "method radau5;"] {
        let src = src.replace("flag f;", &format!("{method} flag f;"));
        let rows = trace(&src, 0.1, 6);
        assert_eq!(
            column(&rows, "n"),
            [0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 4.0],
            "{method}"
        );
        assert_eq!(
            column(&rows, "f"),
            [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            "{method}"
        );
    }
}
