//! Tests of the lowered programs: every operand form, every function and comparison, on
//! the IEEE edge values, against plain Rust and against the tree walk of reads.
//!
//! Each expression is written three times: as a rule (run by the programs of
//! `crate::ops`, whose operand forms depend on its shape), as a derived param (read
//! by walking the tree, `crate::code`), and as a Rust closure with the same operations
//! in the same order. All three must agree to the bit (so `-0.0` differs from `0.0`),
//! except that a NaN only has to be a NaN: its sign and payload are not specified by
//! Rust (LLVM may swap the operands of `+` and `*`), the bit-identity guarantee's one
//! exception.

use crate::Instance;
use sit_runtime::{Model, math};

/// NaN, ±0, ±∞, the extremes and ordinary values.
const EDGES: [f64; 10] = [
    0.0,
    -0.0,
    1.5,
    -2.25,
    3.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MAX,
    f64::MIN_POSITIVE / 4.0,
];

/// An instance with params `a`, `b`, `c`, the derived param `p = expr`, and the rules
/// `rules` (over `a`, `b`, `c`; they assign `y`, `z`, `w`).
fn model(expr: &str, rules: &str) -> Instance {
    let src = format!(
        "model T {{ param a = 0; param b = 0; param c = 0; param p = {expr}; \
         output real y; output real z; output real w; {rules} }}"
    );
    let out = sit_middle::check_source("ops.sit", &src);
    assert!(!out.has_errors(), "{src}\n{}", out.render());
    let p = out.program.expect("checked program");
    Instance::new(
        &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
        p.model("T").expect("model T"),
    )
}

/// For every `(a, b, c)` of edge values: one unchecked and one checked step of `m`
/// (rules see `a`, `b`, `c`), then `check(a, b, c, m)`.
///
/// Each case runs twice: over the arrays of `crate::ops::SMALL` slots (these models are
/// small) and over slices, as a model with more slots would.
fn each(m: &Instance, check: impl Fn(f64, f64, f64, &Instance)) {
    each_bank(m, &check);
    each_bank(&m.clone().over_slices(), &check);
}

/// [`each`] on one instance.
fn each_bank(m: &Instance, check: &impl Fn(f64, f64, f64, &Instance)) {
    for a in EDGES {
        for b in EDGES {
            for c in [EDGES[2], EDGES[1], EDGES[7]] {
                let mut i = m.clone();
                for (name, v) in [("a", a), ("b", b), ("c", c)] {
                    i.set(name, v).expect("settable param");
                }
                let mut checked = i.clone();
                i.step(0.5);
                check(a, b, c, &i);
                // A checked step that succeeds gives the same values.
                if checked.step_checked(0.5).is_ok() {
                    check(a, b, c, &checked);
                }
            }
        }
    }
}

fn same(what: &str, got: Option<f64>, want: f64, (a, b, c): (f64, f64, f64)) {
    let got = got.unwrap_or_else(|| panic!("no value for {what}"));
    if want.is_nan() {
        assert!(
            got.is_nan(),
            "{what} at a = {a:?}, b = {b:?}, c = {c:?}: {got:?}"
        );
        return;
    }
    assert_eq!(
        got.to_bits(),
        want.to_bits(),
        "{what} at a = {a:?}, b = {b:?}, c = {c:?}: {got:?} != {want:?}"
    );
}

/// `y = expr` by the rule, `p = expr` by the tree walk, and `f(a, b, c)` all agree.
fn agree(expr: &str, f: impl Fn(f64, f64, f64) -> f64) {
    let m = model(expr, &format!("y = {expr};"));
    each(&m, |a, b, c, i| {
        let want = f(a, b, c);
        same(&format!("rule y = {expr}"), i.get("y"), want, (a, b, c));
        same(&format!("param p = {expr}"), i.get("p"), want, (a, b, c));
    });
}

/// A function or operator with its name in Sit.
type Named<F> = (&'static str, F);
/// A function of one real.
type F1 = fn(f64) -> f64;
/// A function of two reals.
type F2 = fn(f64, f64) -> f64;
/// A comparison.
type Cmp = fn(f64, f64) -> bool;

#[test]
fn arithmetic_in_every_operand_form() {
    // Slot op slot, accumulator op slot, slot op accumulator, and both sides
    // operations (the left one spilled to a temporary), for each operator.
    agree("a + b", |a, b, _| a + b);
    agree("a - b", |a, b, _| a - b);
    agree("a * b", |a, b, _| a * b);
    agree("a / b", |a, b, _| a / b);
    agree("a * b + c", |a, b, c| a * b + c);
    agree("a / b - c", |a, b, c| a / b - c);
    agree("c - a * b", |a, b, c| c - a * b);
    agree("c / (a - b)", |a, b, c| c / (a - b));
    agree("(a - b) * (b + c)", |a, b, c| (a - b) * (b + c));
    agree("(a / b) / (c * a)", |a, b, c| (a / b) / (c * a));
    agree("-a", |a, _, _| -a);
    agree("-(a - b)", |a, b, _| -(a - b));
    agree("-a * -b", |a, b, _| -a * -b);
    // Literals, including -0.0 and a literal on either side.
    agree("a * 0 + -0.0", |a, _, _| a * 0.0 + -0.0);
    agree("1 / a", |a, _, _| 1.0 / a);
    agree("(a + 1) * (1 - a) / 3", |a, _, _| {
        (a + 1.0) * (1.0 - a) / 3.0
    });
    // A long left-deep chain (all in the accumulator) and a right-deep one (all
    // spilled but the last).
    agree("((((a + b) * c) - a) / b) + c", |a, b, c| {
        ((((a + b) * c) - a) / b) + c
    });
    agree("a - (b * (c + (a / (b - c))))", |a, b, c| {
        a - (b * (c + (a / (b - c))))
    });
}

#[test]
fn every_function_with_leaf_and_computed_arguments() {
    let one: [Named<F1>; 18] = [
        ("abs", math::abs),
        ("sign", math::sign),
        ("sqrt", math::sqrt),
        ("exp", math::exp),
        ("ln", math::ln),
        ("log10", math::log10),
        ("sin", math::sin),
        ("cos", math::cos),
        ("tan", math::tan),
        ("asin", math::asin),
        ("acos", math::acos),
        ("atan", math::atan),
        ("sinh", math::sinh),
        ("cosh", math::cosh),
        ("tanh", math::tanh),
        ("floor", math::floor),
        ("ceil", math::ceil),
        ("round", math::round),
    ];
    for (name, f) in one {
        agree(&format!("{name}(a)"), |a, _, _| f(a));
        agree(&format!("{name}(a * b)"), |a, b, _| f(a * b));
        agree(&format!("c + {name}(a - b)"), |a, b, c| c + f(a - b));
    }
    let two: [Named<F2>; 7] = [
        ("atan2", math::atan2),
        ("min", math::min),
        ("max", math::max),
        ("pow", math::pow),
        ("hypot", math::hypot),
        ("relay", sit_runtime::relay),
        ("deadzone", sit_runtime::deadzone),
    ];
    for (name, f) in two {
        agree(&format!("{name}(a, b)"), |a, b, _| f(a, b));
        agree(&format!("{name}(a + c, b * c)"), |a, b, c| f(a + c, b * c));
    }
    agree("a ^ b", |a, b, _| math::pow(a, b));
    agree("limit(a, b, c)", sit_runtime::limit);
    agree("limit(a * c, b - c, c + 1)", |a, b, c| {
        sit_runtime::limit(a * c, b - c, c + 1.0)
    });
}

#[test]
fn comparisons_in_every_operand_form_and_polarity() {
    let ops: [Named<Cmp>; 6] = [
        ("<", |x, y| x < y),
        ("<=", |x, y| x <= y),
        (">", |x, y| x > y),
        (">=", |x, y| x >= y),
        ("==", |x, y| x == y),
        ("!=", |x, y| x != y),
    ];
    for (op, cmp) in ops {
        // Operands: two slots; an operation on the left (accumulator, slot); on the
        // right (slot, accumulator); the left one the value just stored (held in the
        // accumulator). Each guard jumps on false, its negation on true.
        let rules = format!(
            "pred q = a {op} b; y = 1 when a {op} b; y = 2 otherwise; \
             z = 1 when !(a * c {op} b); z = 2 otherwise; \
             w = a - c; w = 7 when b {op} a + c | w {op} b; \
             real s, u, e, g; s = a - c; u = 1 when s {op} b; u = 2 otherwise; \
             e = b * c; g = 1 when !(e {op} a); g = 2 otherwise;"
        );
        let m = model("a", &rules);
        each(&m, |a, b, c, i| {
            let at = (a, b, c);
            let bit = |x: bool| if x { 1.0 } else { 0.0 };
            let pick = |x: bool| if x { 1.0 } else { 2.0 };
            same(&format!("q = a {op} b"), i.get("q"), bit(cmp(a, b)), at);
            same(&format!("y, a {op} b"), i.get("y"), pick(cmp(a, b)), at);
            same(
                &format!("z, !(a*c {op} b)"),
                i.get("z"),
                pick(!cmp(a * c, b)),
                at,
            );
            let w = a - c;
            let w = if cmp(b, a + c) || cmp(w, b) { 7.0 } else { w };
            same(&format!("w, b {op} a+c | w {op} b"), i.get("w"), w, at);
            same(&format!("u, s {op} b"), i.get("u"), pick(cmp(a - c, b)), at);
            same(
                &format!("g, !(e {op} a)"),
                i.get("g"),
                pick(!cmp(b * c, a)),
                at,
            );
        });
    }
}

#[test]
fn integrals_read_the_value_just_computed() {
    // `v` is computed into the accumulator and `x = integral(v)` reads it there;
    // `y = integral(a)` reads a slot; the guard then reads `x` from the accumulator.
    let m = model(
        "a",
        "real v, x; v = integral(a * b); x = integral(v); y = integral(a); \
         z = 1 when x > c; z = 0 otherwise; w = x + v;",
    );
    each(&m, |a, b, c, i| {
        let at = (a, b, c);
        let v = 0.0 + a * b * 0.5;
        let x = 0.0 + v * 0.5;
        same("v", i.get("v"), v, at);
        same("x", i.get("x"), x, at);
        same("y", i.get("y"), 0.0 + a * 0.5, at);
        same("z", i.get("z"), if x > c { 1.0 } else { 0.0 }, at);
        same("w", i.get("w"), x + v, at);
    });
}

#[test]
fn otherwise_copies_and_flags_read_later() {
    // `y`'s flag is read by its `otherwise` only (a one-operation copy); `z`'s
    // `otherwise` assigns a computed value; the `otherwise` of `w` follows two rules.
    let m = model(
        "a",
        "y = a when a > b; y = -0.0 otherwise; z = b when a < 0; z = a * c otherwise; \
         w = 1 when a > 0; w = 2 when b > 0; w = c otherwise;",
    );
    each(&m, |a, b, c, i| {
        let at = (a, b, c);
        same("y", i.get("y"), if a > b { a } else { -0.0 }, at);
        same("z", i.get("z"), if a < 0.0 { b } else { a * c }, at);
        let w = if b > 0.0 {
            2.0
        } else if a > 0.0 {
            1.0
        } else {
            c
        };
        same("w", i.get("w"), w, at);
    });
}

#[test]
fn division_by_zero_is_caught_by_the_checked_step_in_every_form() {
    for rule in [
        "y = a / b",
        "y = (a + c) / b",
        "y = c / (b * a)",
        "y = integral(a / b)",
    ] {
        let mut m = model("a", &format!("{rule};"));
        m.set("a", 1.0).unwrap();
        m.set("c", 1.0).unwrap();
        let fault = m.step_checked(0.5).unwrap_err();
        assert_eq!(fault.var, "y", "{rule}");
        assert!(fault.value.is_infinite(), "{rule}: {}", fault.value);
        assert!(fault.to_string().contains(rule), "{fault}");
    }
}

#[test]
fn fused_flag_stores_and_flag_jumps() {
    // `f1, !f2` is one store of two flags; `!f1 & !f2` jumps on either flag in one
    // operation; `f1 | f2` jumps on either to the then-branch.
    let m = model(
        "a",
        "flag f1; flag f2 = true; when a > 0 => f1, !f2; when b > 0 => !f1, f2; \
         y = 1 when !f1 & !f2; y = 2 otherwise; z = 3 when f1 | f2; z = 4 otherwise;",
    );
    each(&m, |a, b, c, i| {
        let at = (a, b, c);
        let (mut f1, mut f2) = (false, true);
        if a > 0.0 {
            (f1, f2) = (true, false);
        }
        if b > 0.0 {
            (f1, f2) = (false, true);
        }
        same("y", i.get("y"), if !f1 && !f2 { 1.0 } else { 2.0 }, at);
        same("z", i.get("z"), if f1 || f2 { 3.0 } else { 4.0 }, at);
        same("f1", i.get("f1"), if f1 { 1.0 } else { 0.0 }, at);
    });
}

#[test]
fn repeated_guards_jump_through_each_other() {
    // The guards of `y`, `z` and `w` test `a < b` again right where the previous one
    // jumps to: a jump goes on to the last one's target (same sense) or past it
    // (opposite sense), also when a or b is NaN.
    let m = model(
        "a",
        "y = a when a < b; z = b when a < b; w = c when !(a < b); \
         real k; k = 5 when a < b; k = 6 when a < b; k = 7 otherwise;",
    );
    each(&m, |a, b, c, i| {
        let at = (a, b, c);
        let lt = a < b;
        same("y", i.get("y"), if lt { a } else { 0.0 }, at);
        same("z", i.get("z"), if lt { b } else { 0.0 }, at);
        same("w", i.get("w"), if lt { 0.0 } else { c }, at);
        same("k", i.get("k"), if lt { 6.0 } else { 7.0 }, at);
    });
}

#[test]
fn copies_in_a_row() {
    // Three copies in a row (as input bindings are), the third reading what the
    // first stored, then an operation on the second through the accumulator.
    let m = model("a", "y = a; z = b; w = y; real k; k = z * c;");
    each(&m, |a, b, c, i| {
        let at = (a, b, c);
        same("y", i.get("y"), a, at);
        same("z", i.get("z"), b, at);
        same("w", i.get("w"), a, at);
        same("k", i.get("k"), b * c, at);
    });
}

#[test]
fn guarded_rules_set_their_flag_in_every_form() {
    // A rule read by an `otherwise` sets its flag in its own operation (`..F`): each
    // operand form of each operator, copies and integrals, taken (c < 2) or not (c
    // is NaN), checked against plain Rust on the edge values.
    type Form = (&'static str, &'static str, fn(f64, f64, f64) -> f64);
    let forms: [Form; 15] = [
        ("a", "CopyF", |a, _, _| a),
        ("a + b", "AddSSF", |a, b, _| a + b),
        ("a * b + c", "AddASF", |a, b, c| a * b + c),
        ("c + a * b", "AddSAF", |a, b, c| c + a * b),
        ("a - b", "SubSSF", |a, b, _| a - b),
        ("a * b - c", "SubASF", |a, b, c| a * b - c),
        ("c - a * b", "SubSAF", |a, b, c| c - a * b),
        ("a * b", "MulSSF", |a, b, _| a * b),
        ("(a + b) * c", "MulASF", |a, b, c| (a + b) * c),
        ("c * (a + b)", "MulSAF", |a, b, c| c * (a + b)),
        ("a / b", "DivSSF", |a, b, _| a / b),
        ("(a + b) / c", "DivASF", |a, b, c| (a + b) / c),
        ("c / (a + b)", "DivSAF", |a, b, c| c / (a + b)),
        ("integral(a)", "IntegralSF", |a, _, _| 0.0 + a * 0.5),
        ("integral(a * b)", "IntegralAF", |a, b, _| 0.0 + a * b * 0.5),
    ];
    for (expr, op, f) in forms {
        let m = model("a", &format!("y = {expr} when c < 2; y = -0.0 otherwise;"));
        let program = format!("{:?}", m.machine);
        assert!(program.contains(&format!("{op} {{")), "{expr}: {program}");
        each(&m, |a, b, c, i| {
            let want = if c < 2.0 { f(a, b, c) } else { -0.0 };
            same(
                &format!("y = {expr} when c < 2"),
                i.get("y"),
                want,
                (a, b, c),
            );
        });
    }
}

#[test]
fn small_models_run_over_arrays_and_large_ones_over_slices() {
    let small = model("a", "y = a * b;");
    assert_eq!(small.state.reals.len(), crate::ops::SMALL);
    assert_eq!(small.state.flags.len(), crate::ops::SMALL);
    // 300 params need more real slots than the arrays hold: no padding.
    let params: String = (0..300).map(|i| format!("param q{i} = {i}; ")).collect();
    let large = model("a", &format!("{params} y = a * b + q299;"));
    assert!(large.state.reals.len() > crate::ops::SMALL);
    each(&large, |a, b, c, i| {
        same("y = a * b + q299", i.get("y"), a * b + 299.0, (a, b, c));
    });
}
