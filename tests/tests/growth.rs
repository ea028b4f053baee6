//! The front end's cost grows linearly with its input: for each pathological
//! family of inputs, checking (and rendering the diagnostics of) an input
//! twice as large takes at most [`MAX_RATIO`] times as long. Ratios measured
//! in one run, never a wall-clock threshold; each time is the minimum of a
//! few repetitions, and a ratio over the bound is measured again before
//! failing, since the machine may be busy.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The largest accepted time ratio between an input and one half its size.
const MAX_RATIO: f64 = 2.5;
/// Repetitions of each measurement (the minimum is kept).
const REPS: usize = 7;

/// Check `text` and render its diagnostics; the number of diagnostics.
fn check(text: &str) -> usize {
    let out = sit_middle::check_source("growth.sit", text);
    std::hint::black_box(out.render());
    out.diagnostics.len()
}

fn fastest(text: &str) -> Duration {
    (0..REPS)
        .map(|_| {
            let t = Instant::now();
            check(text);
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Held while measuring, so that the tests of this file do not measure
/// each other.
static MEASURING: Mutex<()> = Mutex::new(());

/// Assert that `family(2k)` costs at most [`MAX_RATIO`] times `family(k)`.
fn assert_linear(name: &str, family: impl Fn(usize) -> String, k: usize) {
    let (small, large) = (family(k), family(2 * k));
    let _one_at_a_time = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        large.len() as f64 >= 1.8 * small.len() as f64,
        "{name}: the family does not grow"
    );
    let mut ratios = Vec::new();
    for _ in 0..5 {
        let (a, b) = (fastest(&small), fastest(&large));
        let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-9);
        ratios.push(format!("{a:?} -> {b:?} ({ratio:.2}x)"));
        if ratio <= MAX_RATIO {
            return;
        }
    }
    panic!(
        "{name}: {} bytes -> {} bytes grows faster than linearly: {}",
        small.len(),
        large.len(),
        ratios.join(", ")
    );
}

const MODEL: &str = "model M {\n    output real x = 1;\n    x = integral(-x);\n}\n";

/// The family of issue 21: block comments nested 63 deep holding doc
/// comments (`/*/// A time-optimal (ban` repeated), closed `k` times, then
/// a model and one left unterminated.
#[test]
fn nested_comments_with_doc_comments() {
    let level = "/*/// A time-optimal (ban";
    assert_linear(
        "nested comments",
        |k| {
            let unit = format!("{}{}\n", level.repeat(63), "*/".repeat(63));
            format!("{}{MODEL}{}", unit.repeat(k), level.repeat(63))
        },
        200,
    );
    // At 63 levels the unterminated family alone is rejected at once.
    let out = sit_middle::check_source("slow.sit", &level.repeat(63));
    let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0006"], "{}", out.render());
}

/// `k` expressions in brackets nested just under the limit, then one with
/// an error inside.
#[test]
fn deep_brackets_with_an_error_inside() {
    assert_linear(
        "deep brackets",
        |k| {
            let deep = |inner: &str| format!("{}{inner}{}", "(".repeat(62), ")".repeat(62));
            let mut s = String::from("model M {\n    output real x = 1;\n");
            for _ in 0..k {
                let _ = writeln!(s, "    x = {};", deep("x"));
            }
            let _ = writeln!(s, "    x = {};\n}}", deep("x +"));
            s
        },
        1000,
    );
}

/// A syntax error on each of `k` lines, between valid rules.
#[test]
fn many_syntax_errors() {
    assert_linear(
        "many syntax errors",
        |k| {
            let mut s = String::from("model M {\n    output real x = 1;\n");
            for i in 0..k {
                let _ = writeln!(s, "    x = x * {i} + ;\n    x = integral(-x) when x > {i};");
            }
            s + "}\n"
        },
        10_000,
    );
}

/// `k` rules of 799 operators each, under the limit, so that they are
/// checked, lowered and linted.
#[test]
fn long_operator_chains() {
    assert_linear(
        "long operator chains",
        |k| {
            let chain = vec!["x ^ 2 * 3"; 200].join(" + ");
            let mut s = String::from("model M {\n    output real x = 1;\n    input real u;\n");
            for i in 0..k {
                let _ = writeln!(s, "    x = {chain} when u > {i};");
            }
            s + "}\n"
        },
        40,
    );
}

/// One expression of `300 k` right-associative operators: over the limit,
/// reported without building the tree.
#[test]
fn operator_chain_over_the_limit() {
    assert_linear(
        "operator chain over the limit",
        |k| {
            let chain = vec!["x"; 300 * k].join(" ^ ");
            format!("model M {{\n    output real x = 1;\n    x = {chain};\n}}\n")
        },
        50,
    );
}

/// The synthetic model of `k` rules with all its declarations on one line.
#[test]
fn one_very_long_line() {
    assert_linear(
        "one long line",
        |k| {
            let text = sit_synth::synthetic(k);
            // The first line is the model's doc comment.
            let (doc, rest) = text.split_once('\n').expect("a doc line");
            format!("{doc}\n{}\n", rest.replace('\n', " "))
        },
        500,
    );
}

/// `k` preds, each reading the one before, and guards reading them.
#[test]
fn preds_referring_to_each_other() {
    assert_linear(
        "chained preds",
        |k| {
            let mut s = String::from(
                "model M {\n    output real x = 1;\n    input real u;\n    pred p0 = u > 0;\n",
            );
            for i in 1..k {
                let _ = writeln!(s, "    pred p{i} = p{} & u > {i};", i - 1);
            }
            for i in (0..k).step_by(50) {
                let _ = writeln!(s, "    x = x + {i} when p{i};");
            }
            s + "    x = integral(-x) otherwise;\n}\n"
        },
        500,
    );
}

/// `k` guarded rules for one target.
#[test]
fn many_guarded_rules_for_one_target() {
    assert_linear(
        "guarded rules for one target",
        |k| {
            let mut s = String::from("model M {\n    output real x = 1;\n    input real u;\n");
            for i in 0..k {
                let _ = writeln!(s, "    x = {i} when u > {i} & u <= {};", i + 1);
            }
            s + "    x = integral(-x) otherwise;\n}\n"
        },
        500,
    );
}

/// `k` unread states declared on one line: `k` warnings, each showing a
/// window of the same long line.
#[test]
fn many_warnings_on_one_long_line() {
    assert_linear(
        "warnings on one long line",
        |k| {
            let mut s = String::from("model M {");
            for i in 0..k {
                let _ = write!(s, " real a{i} = 1;");
            }
            s + " }\n"
        },
        2000,
    );
}

/// `k` guards that can never hold: `k` identical warnings, shown
/// [`sit_middle::diag::MAX_IDENTICAL`] times and counted once.
#[test]
fn identical_warnings_are_counted_once() {
    let family = |k: usize| {
        let mut s = String::from("model M {\n    output real x = 1;\n    input real u;\n");
        for i in 0..k {
            let _ = writeln!(s, "    x = {i} when u > 1 & u < 0;");
        }
        s + "    x = integral(-x) otherwise;\n}\n"
    };
    assert_linear("identical warnings", family, 2000);
    let out = sit_middle::check_source("same.sit", &family(5000));
    assert_eq!(check(&family(5000)), 5000);
    let text = out.render();
    let shown = sit_middle::diag::MAX_IDENTICAL;
    assert_eq!(text.matches(": warning[W0205]: ").count(), shown, "{text}");
    assert!(
        text.contains(&format!(
            "warning[W0205]: this guard can never hold ({} more, not shown; the first is at same.sit:4:",
            5000 - shown
        )),
        "{text}"
    );
    assert!(text.ends_with("5000 warnings emitted\n"), "{text}");
}

/// `k` states, each assigned from an unknown name: `k` errors, each looking
/// for a likely typo among `k` declarations (within a budget).
#[test]
fn many_unknown_names() {
    assert_linear(
        "unknown names",
        |k| {
            let mut s = String::from("model M {\n");
            for i in 0..k {
                let _ = writeln!(s, "    real a{i} = 1;");
            }
            for i in 0..k {
                let _ = writeln!(s, "    a{i} = b{i} + 1;");
            }
            s + "}\n"
        },
        1000,
    );
}

/// `k` σ rules in a chain, each making the next one hold in the same step:
/// `k` σ cascades (W0240), each found by looking back a bounded number of
/// actions on its flag.
#[test]
fn many_sigma_cascades() {
    let family = |k: usize| {
        let mut s = String::from("model M {\n    output real t;\n");
        for i in 0..=k {
            let _ = writeln!(s, "    output flag f{i};");
        }
        for i in 0..k {
            let _ = writeln!(s, "    when f{i} & t >= {} => !f{i}, f{};", k - i, i + 1);
        }
        s + "    t = integral(1);\n}\n"
    };
    let out = sit_middle::check_source("cascade.sit", &family(10));
    let cascades = (out.diagnostics.iter())
        .filter(|d| d.code == "W0240")
        .count();
    assert_eq!(cascades, 9, "{}", out.render());
    assert_linear("σ cascades", family, 500);
}

/// `k` reals each assigned under one guard and read after it: `k` stale
/// reads (W0241).
#[test]
fn many_stale_reads() {
    let family = |k: usize| {
        let mut s = String::from("model M {\n    input real u;\n");
        for i in 0..k {
            let _ = writeln!(s, "    real y{i};\n    output real z{i};");
            let _ = writeln!(s, "    y{i} = {i} when u > {i};\n    z{i} = y{i};");
        }
        s + "}\n"
    };
    let out = sit_middle::check_source("stale.sit", &family(10));
    let stale = (out.diagnostics.iter())
        .filter(|d| d.code == "W0241")
        .count();
    assert_eq!(stale, 10, "{}", out.render());
    assert_linear("stale reads", family, 500);
}

/// `k` computed reals each read before its rule (W0207, `k` warnings), and one
/// algebraic loop through `k` rules (E0476, its whole path in one message): the step
/// order analysis is one pass, Tarjan's components and one search per loop.
#[test]
fn many_early_reads_and_a_long_loop() {
    let early = |k: usize| {
        let mut s = String::from("model M {\n");
        for i in 0..k {
            let _ = writeln!(
                s,
                "    output real a{i}, b{i};\n    a{i} = b{i} + 1;\n    b{i} = time + {i};"
            );
        }
        s + "}\n"
    };
    let out = sit_middle::check_source("early.sit", &early(10));
    let found = (out.diagnostics.iter())
        .filter(|d| d.code == "W0207")
        .count();
    assert_eq!(found, 10, "{}", out.render());
    assert_linear("early reads", early, 500);
    let chain = |k: usize| {
        let mut s = String::from("model M {\n");
        for i in 0..k {
            let _ = writeln!(s, "    output real x{i};");
        }
        let _ = writeln!(s, "    x0 = x{} + 1;", k - 1);
        for i in 1..k {
            let _ = writeln!(s, "    x{i} = 0.5 * x{};", i - 1);
        }
        s + "}\n"
    };
    let out = sit_middle::check_source("chain.sit", &chain(10));
    let loops: Vec<_> = (out.diagnostics.iter())
        .filter(|d| d.code == "E0476")
        .collect();
    assert_eq!(loops.len(), 1, "{}", out.render());
    assert_eq!(
        loops[0].related.len(),
        9,
        "every rule of the loop after the first"
    );
    assert_linear("a long loop", chain, 500);
}

/// Units (issue 30): a chain of `k` undeclared variables whose units follow from a
/// declared one at its end, written in the order that needs the most walks (each
/// square is known only once the variable it squares is), and a chain of products
/// whose powers grow past what a unit holds: the check stays linear and never fails.
#[test]
fn unit_inference_chains() {
    let family = |k: usize| {
        let mut s = String::from("model M {\n    input real l [m];\n    param a [1] = 1;\n");
        for i in 0..k {
            let _ = writeln!(s, "    output real x{i}, y{i}, z{i};");
        }
        for i in 0..k {
            // x{i} is learned only after x{i+1}: one variable per walk.
            let next = if i + 1 < k {
                format!("x{}", i + 1)
            } else {
                "l".into()
            };
            let _ = writeln!(s, "    x{i} = {next} * {next} / {next};");
            let zn = if i + 1 < k {
                format!("z{}", i + 1)
            } else {
                "l".into()
            };
            let _ = writeln!(s, "    y{i} = {next} * a + x{i};");
            let _ = writeln!(s, "    z{i} = {zn} * l;");
        }
        s + "}\n"
    };
    // The products past what a unit holds are not followed: no unit error, so the
    // diagnostics (the reads before their rules) grow with the input, not faster.
    let out = sit_middle::check_source("chains.sit", &family(300));
    assert!(
        !out.diagnostics.iter().any(|d| d.is_error()),
        "{}",
        out.render()
    );
    assert_linear("unit inference chains", family, 300);
}

/// Units from the parents' bindings (issue 30): `k` instances of one submodel whose input
/// takes the unit its bindings agree on, each bound to the previous one's output, and a
/// chain of `k` models each binding the next one's input: the check repeats a bounded
/// number of rounds, each one pass over the program.
#[test]
fn unit_seeds_from_bindings() {
    let family = |k: usize| {
        let mut s = String::from(
            "model Leaf { input real u; output real y; y = 2 * u; }
",
        );
        for i in 0..k {
            let next = if i + 1 < k {
                format!("sub c: D{}(u = u); y = c.y;", i + 1)
            } else {
                "y = u;".into()
            };
            let _ = writeln!(s, "model D{i} {{ input real u; output real y; {next} }}");
        }
        s += "model M {\n    input real l [m];\n    sub d: D0(u = l);\n    sub s0: Leaf(u = l);\n";
        for i in 1..k {
            let _ = writeln!(s, "    sub s{i}: Leaf(u = s{}.y);", i - 1);
        }
        let _ = writeln!(
            s,
            "    output real z [m], w [m];\n    z = s{}.y;\n    w = d.y;",
            k - 1
        );
        s + "}\n"
    };
    let out = sit_middle::check_source("seeds.sit", &family(10));
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    let wrong = family(10).replace("output real z [m]", "output real z [s]");
    let out = sit_middle::check_source("seeds.sit", &wrong);
    assert!(out.render().contains("E0481"), "{}", out.render());
    assert_linear("unit seeds from bindings", family, 300);
}

/// `k` submodels, each placed by `step(sK);` below the rule computing what its binding
/// reads: the placement's checks (W0208 against the rules above a step, the order of the
/// steps for `prev`) are one pass over the body.
#[test]
fn many_placed_steps() {
    let family = |k: usize| {
        let mut s = String::from("model Leaf { input real u; output real y; y = u; }\nmodel M {\n");
        for i in 0..k {
            let _ = writeln!(
                s,
                "    output real x{i}, z{i};\n    sub s{i}: Leaf(u = x{i});\n    x{i} = time + {i};\n    step(s{i});\n    z{i} = s{i}.y;"
            );
        }
        s + "}\n"
    };
    let out = sit_middle::check_source("placed.sit", &family(10));
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    assert_linear("placed steps", family, 500);
}
