//! Unit tests of the interpreter on small inline models.

use crate::Instance;
use sit_middle::lower::Lowered;
use sit_runtime::{Deriv, Model, SetError, ValueType, VarKind, math};

/// An instance of `root` in `src`, which must check without errors.
fn inst(src: &str, root: &str) -> Instance {
    let out = sit_middle::check_source("test.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checked program");
    let lowered = Lowered::new(&p, Default::default()).expect("lowers");
    Instance::new(&lowered, p.model(root).expect("root model"))
}

/// An instance of the first root model of `src` (read as the file `file`), which must
/// check without errors: for the tests of the other modules.
pub(crate) fn first_root(file: &str, src: &str) -> Instance {
    let out = sit_middle::check_source(file, src);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checked program");
    let lowered = Lowered::new(&p, Default::default()).expect("lowers");
    Instance::new(&lowered, p.roots()[0])
}

/// The value of `name`, which must exist.
fn v(m: &Instance, name: &str) -> f64 {
    m.get(name).unwrap_or_else(|| panic!("no variable {name}"))
}

fn names(m: &Instance) -> Vec<String> {
    m.variables().map(|v| v.name.to_string()).collect()
}

#[test]
fn decay_is_the_euler_recurrence_exactly() {
    // x' = -k x with k = 0.5, dt = 0.5: every x_n = 0.75^n = 3^n / 4^n is exact in
    // binary (3^n < 2^53), and so are x·k·dt and the difference: no rounding at all.
    let mut m = inst(
        "model D { param k = 0.5; output real x = 1; x = integral(-k * x); }",
        "D",
    );
    let mut expected = 1.0;
    for n in 1..=30 {
        m.step(0.5);
        expected *= 0.75;
        assert_eq!(v(&m, "x"), expected, "step {n}");
    }
    assert_eq!(m.time(), 15.0);
}

#[test]
fn decay_follows_the_closed_form_with_rounding() {
    // k = 0.3, dt = 0.01: x_n = (1 - k dt)^n up to one rounding per step (n·eps).
    let mut m = inst(
        "model D { param k = 0.3; output real x = 2; x = integral(-k * x); }",
        "D",
    );
    for _ in 0..1000 {
        m.step(0.01);
    }
    let exact = 2.0 * (1.0f64 - 0.3 * 0.01).powi(1000);
    assert!((v(&m, "x") - exact).abs() <= 1000.0 * f64::EPSILON * exact);
}

#[test]
fn events_fire_once_per_rising_edge() {
    // x alternates 0, 1, 0, 1... (after each step); the event reads x before the body.
    let mut m = inst(
        "model E {
            real x;
            real count;
            real level = 2;
            event up = x > 0.5;
            event high = level > 1;
            x = 1 - x;
            count = count + 1 when up;
        }",
        "E",
    );
    let mut ups = Vec::new();
    for _ in 0..6 {
        m.step(1.0);
        ups.push(v(&m, "up"));
        // `high` is true from the initial values: prev is true after reset, no edge.
        assert_eq!(v(&m, "high"), 0.0);
    }
    assert_eq!(ups, [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
    assert_eq!(v(&m, "count"), 3.0);
}

#[test]
fn otherwise_fires_when_no_earlier_rule_did_in_this_step() {
    let mut m = inst(
        "model O {
            input flag c;
            real y;
            real z = 7;
            y = 1 when c;
            y = 2 otherwise;
            z = z + 1 otherwise;
        }",
        "O",
    );
    m.step(1.0);
    assert_eq!((v(&m, "y"), v(&m, "z")), (2.0, 8.0));
    m.set("c", 1.0).unwrap();
    m.step(1.0);
    assert_eq!(v(&m, "y"), 1.0);
    // The bookkeeping is per step: the next step without `c` takes `otherwise` again.
    m.set("c", 0.0).unwrap();
    m.step(1.0);
    assert_eq!((v(&m, "y"), v(&m, "z")), (2.0, 10.0));
}

#[test]
fn block_guards_are_evaluated_once() {
    // The first rule makes the guard false; the second rule still runs.
    let mut m = inst(
        "model B { real x; real y; when x < 1 { x = x + 5; y = y + 1; } }",
        "B",
    );
    m.step(1.0);
    assert_eq!((v(&m, "x"), v(&m, "y")), (5.0, 1.0));
    m.step(1.0);
    assert_eq!((v(&m, "x"), v(&m, "y")), (5.0, 1.0));
}

#[test]
fn rules_read_the_newest_values_and_conds_where_read() {
    // `p` is read after `x` changed within the same step.
    let mut m = inst(
        "model N {
            real x;
            real seen;
            pred p = x > 0.5;
            x = x + 1;
            seen = 1 when p;
        }",
        "N",
    );
    m.step(1.0);
    assert_eq!((v(&m, "x"), v(&m, "seen"), v(&m, "p")), (1.0, 1.0, 1.0));
}

#[test]
fn time_and_dt_read_the_start_of_the_step() {
    let mut m = inst(
        "model T { real t0; real d; real sum; t0 = time; d = dt; sum = sum + dt; }",
        "T",
    );
    assert_eq!((v(&m, "t0"), v(&m, "d")), (0.0, 0.0));
    m.step(0.25);
    assert_eq!((v(&m, "t0"), v(&m, "d"), m.time()), (0.0, 0.25, 0.25));
    m.step(0.5);
    assert_eq!((v(&m, "t0"), v(&m, "d"), m.time()), (0.25, 0.5, 0.75));
    assert_eq!(v(&m, "sum"), 0.75);
}

#[test]
fn derived_params_follow_set() {
    let mut m = inst(
        "model P { param a = 2; param b = a * 3; real x = b; real y; y = b + 1; }",
        "P",
    );
    assert_eq!((v(&m, "b"), v(&m, "x")), (6.0, 6.0));
    m.set("a", 5.0).unwrap();
    assert_eq!(v(&m, "b"), 15.0);
    m.step(1.0);
    assert_eq!(v(&m, "y"), 16.0);
    // Reset keeps params and re-evaluates initial values from them; the initial pass
    // computes `y` from them too.
    m.reset();
    assert_eq!(
        (v(&m, "a"), v(&m, "x"), v(&m, "y"), m.time()),
        (5.0, 15.0, 16.0, 0.0)
    );
    let err = m.set("b", 1.0).unwrap_err();
    assert!(matches!(
        err,
        SetError::NotSettable {
            kind: VarKind::Param,
            ..
        }
    ));
    assert!(err.to_string().contains("derived"), "{err}");
}

const ACC: &str = "model Acc {
    input real u = 0;
    param k = 1;
    output real y;
    y = integral(k * u);
}
";

#[test]
fn submodels_step_in_declaration_order_before_the_parent() {
    let src = format!(
        "{ACC}
        model Fwd {{ sub s1: Acc(u = 1); sub s2: Acc(u = s1.y); real z; z = s1.y + s2.y; }}
        model Bwd {{ sub s2: Acc(u = s1.y); sub s1: Acc(u = 1); }}"
    );
    let mut f = inst(&src, "Fwd");
    f.step(1.0);
    // s2 binds s1.y after s1 stepped; the parent's rules see both new values.
    assert_eq!((v(&f, "s1.y"), v(&f, "s2.y"), v(&f, "z")), (1.0, 1.0, 2.0));
    let mut b = inst(&src, "Bwd");
    b.step(1.0);
    assert_eq!((v(&b, "s1.y"), v(&b, "s2.y")), (1.0, 0.0));
    assert_eq!(v(&b, "s2.u"), 0.0);
    b.step(1.0);
    assert_eq!(
        (v(&b, "s1.y"), v(&b, "s2.y"), v(&b, "s2.u")),
        (2.0, 1.0, 1.0)
    );
}

#[test]
fn param_bindings_are_applied_at_reset() {
    let src = format!("{ACC} model P {{ param a = 2; sub s: Acc(k = 2 * a, u = 1); }}");
    let mut m = inst(&src, "P");
    assert_eq!(v(&m, "s.k"), 4.0);
    m.set("a", 5.0).unwrap();
    assert_eq!(
        v(&m, "s.k"),
        4.0,
        "bindings are applied at reset, not when set"
    );
    m.reset();
    assert_eq!(v(&m, "s.k"), 10.0);
    m.step(0.5);
    assert_eq!(v(&m, "s.y"), 5.0);
    let bound = m.set("s.k", 1.0).unwrap_err();
    assert_eq!(
        bound.to_string(),
        format!("`s.k` is a param: {}", SetError::BOUND)
    );
    assert!(m.set("s.u", 1.0).is_err());
}

#[test]
fn switched_off_submodels_freeze_and_reset_restores_them() {
    let src = "model Clock { param rate = 1; output real c = 0.5; c = integral(rate); }
        model Top {
            input flag run_it = true;
            input flag rst;
            sub k: Clock;
            when !run_it => !k.on;
            when run_it => k.on;
            when rst => reset(k);
        }";
    let mut m = inst(src, "Top");
    m.set("k.rate", 3.0).unwrap();
    for _ in 0..4 {
        m.step(0.25);
    }
    assert_eq!((v(&m, "k.c"), v(&m, "k.on")), (3.5, 1.0));
    m.set("run_it", 0.0).unwrap();
    m.step(0.25); // still on during this step, switched off by the rule
    let frozen = (v(&m, "k.c"), v(&m, "k.on"));
    assert_eq!(frozen, (4.25, 0.0));
    for _ in 0..3 {
        m.step(0.25);
    }
    assert_eq!((v(&m, "k.c"), v(&m, "k.on")), frozen);
    assert_eq!(m.time(), 2.0);
    // reset(k): initial value back, params kept, the submodel's own clock restarts.
    m.set("rst", 1.0).unwrap();
    m.step(0.25);
    assert_eq!((v(&m, "k.c"), v(&m, "k.rate")), (0.5, 3.0));
    m.set("rst", 0.0).unwrap();
    m.set("run_it", 1.0).unwrap();
    m.step(0.25); // switched on by the rule after the submodels' turn
    m.step(0.25);
    assert_eq!(v(&m, "k.c"), 0.5 + 3.0 * 0.25);
}

#[test]
fn submodel_time_stops_while_off() {
    let src = "model Clock { output real t; t = time; }
        model Top { sub k: Clock off; real kt; kt = k.t; }";
    let mut m = inst(src, "Top");
    for _ in 0..3 {
        m.step(1.0);
    }
    assert_eq!((v(&m, "k.t"), v(&m, "k.on"), m.time()), (0.0, 0.0, 3.0));
    m.set("k.on", 1.0).unwrap();
    m.step(1.0);
    m.step(1.0);
    // The submodel's clock counts only its own steps: 0 at the start of the 2nd.
    assert_eq!((v(&m, "k.t"), v(&m, "kt")), (1.0, 1.0));
}

#[test]
fn reset_keeps_params_and_inputs() {
    let mut m = inst(
        "model R { param a = 1; input real u = 3; real x = a + u; flag q; x = x + 1; when x > 0 => q; }",
        "R",
    );
    m.set("a", 10.0).unwrap();
    m.set("u", 20.0).unwrap();
    m.step(1.0);
    assert_eq!((v(&m, "x"), v(&m, "q")), (5.0, 1.0));
    m.reset();
    assert_eq!(
        (v(&m, "a"), v(&m, "u"), v(&m, "x"), v(&m, "q")),
        (10.0, 20.0, 30.0, 0.0)
    );
    assert_eq!(m.time(), 0.0);
}

#[test]
fn variable_list_order_names_and_kinds() {
    let src = format!(
        "{ACC}
        model Top {{
            param a = 1;
            param b = 2 * a;
            input real u;
            output real x;
            flag q;
            pred p = x > a;
            situation s = p & !q;
            output event e = p;
            sub s1: Acc(u = x);
            sub s2: Acc(k = a) off;
        }}"
    );
    let m = inst(&src, "Top");
    assert_eq!(
        names(&m),
        [
            "a", "b", "u", "x", "q", "p", "s", "e", "s1.on", "s1.u", "s1.k", "s1.y", "s2.on",
            "s2.u", "s2.k", "s2.y"
        ]
    );
    let info: Vec<_> = m
        .variables()
        .map(|v| (v.kind, v.ty, v.output, v.settable))
        .collect();
    use ValueType::{Logical, Real};
    use VarKind::*;
    assert_eq!(
        info,
        [
            (Param, Real, false, true),
            (Param, Real, false, false),
            (Input, Real, false, true),
            (State, Real, true, true),
            (State, Logical, false, true),
            (Predicate, Logical, false, false),
            (Situation, Logical, false, false),
            (Event, Logical, true, false),
            (SubmodelOn, Logical, false, true),
            (Input, Real, false, false),
            (Param, Real, false, true),
            (State, Real, true, true),
            (SubmodelOn, Logical, false, true),
            (Input, Real, false, true),
            (Param, Real, false, false),
            (State, Real, true, true),
        ]
    );
    assert_eq!(m.root_outputs(), [3, 7]);
    assert!(m.is_root_var(8) && !m.is_root_var(9) && !m.is_root_var(99));
    assert_eq!((v(&m, "s1.on"), v(&m, "s2.on")), (1.0, 0.0));
    assert_eq!(m.model_name(), "Top");
}

#[test]
fn set_errors() {
    let mut m = inst(
        "model S { flag q; real x; pred p = x > 0; event e = p; }",
        "S",
    );
    let _ = &mut m;
    assert_eq!(
        m.set("nope", 1.0).unwrap_err(),
        SetError::Unknown("nope".into())
    );
    assert_eq!(m.set_at(99, 1.0).unwrap_err(), SetError::Unknown(99.into()));
    assert_eq!(
        m.set("q", 0.5).unwrap_err().to_string(),
        "`q` is logical: expected 0 or 1, got 0.5"
    );
    assert!(matches!(
        m.set("p", 1.0).unwrap_err(),
        SetError::NotSettable {
            kind: VarKind::Predicate,
            ..
        }
    ));
    assert!(m.set("e", 0.0).is_err());
    m.set("q", 1.0).unwrap();
    assert_eq!(v(&m, "q"), 1.0);
    m.set("x", 2.0).unwrap();
    assert_eq!(v(&m, "p"), 1.0);
}

#[test]
fn procedures_match_hand_written_runtime_calls_to_the_bit() {
    // The same rules written by hand against sit_runtime, as generated code would be.
    let mut m = inst(
        "model Q {
            param T = 0.3;
            real u, a, b, c, d, e, f;
            u = sin(time * 3) * 2 + 0.1 ^ 2;
            a = lag(u, T, 2);
            b = deriv(u);
            c = hysteresis(u, -1, 1, 0.5);
            d = integral(u - a, -0.2, 0.2);
            e = limit(relay(u, 3), -2, 2.5) + deadzone(u, 0.5) * atan2(u, 1 + a);
            f = integral(hypot(b, max(a, min(c, d))) / sqrt(abs(u) + 1));
        }",
        "Q",
    );
    let (t_c, dt) = (0.3, 0.01);
    let (mut t, mut a, mut c, mut d, mut f) = (0.0f64, 0.0, 0.0, 0.0, 0.0);
    let mut mem = Deriv::new();
    let mut clock = sit_runtime::Clock::new();
    let (mut latches, mut clamps) = ([false; 2], [false; 2]);
    for _ in 0..500 {
        m.step(dt);
        let u = math::sin(t * 3.0) * 2.0 + math::pow(0.1, 2.0);
        a = sit_runtime::lag(a, u, t_c, 2.0, dt);
        let b = mem.next(u, dt);
        c = sit_runtime::hysteresis(c, u, -1.0, 1.0, 0.5);
        d = sit_runtime::integral_limited(d, u - a, -0.2, 0.2, dt);
        let e = sit_runtime::limit(sit_runtime::relay(u, 3.0), -2.0, 2.5)
            + sit_runtime::deadzone(u, 0.5) * math::atan2(u, 1.0 + a);
        f = sit_runtime::integral(
            f,
            math::hypot(b, math::max(a, math::min(c, d))) / math::sqrt(math::abs(u) + 1.0),
            dt,
        );
        t = clock.advance(dt);
        for (name, want) in [
            ("u", u),
            ("a", a),
            ("b", b),
            ("c", c),
            ("d", d),
            ("e", e),
            ("f", f),
        ] {
            assert_eq!(v(&m, name).to_bits(), want.to_bits(), "{name} at t = {t}");
        }
        assert_eq!(m.time().to_bits(), t.to_bits());
        latches = [latches[0] || c == 0.5, latches[1] || c == -0.5];
        clamps = [clamps[0] || d == 0.2, clamps[1] || d == -0.2];
    }
    // The trajectory visits both latches of the hysteresis and both limits of d.
    assert_eq!((latches, clamps), ([true; 2], [true; 2]));
}

#[test]
fn clones_run_independently() {
    let a = inst("model C { param k = 1; real x; x = integral(k); }", "C");
    let mut b = a.clone();
    b.set("k", 2.0).unwrap();
    b.step(1.0);
    assert_eq!((v(&a, "x"), v(&b, "x")), (0.0, 2.0));
}

/// An instance of the library's hoop.
fn hoop() -> Instance {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/models/hoop.sit");
    let text = std::fs::read_to_string(path).expect("the hoop is readable");
    inst(&text, "Hoop")
}

#[test]
fn hoop_first_contact_is_free_fall() {
    let mut m = hoop();
    assert_eq!(m.model_name(), "Hoop");
    let dt = 1e-4;
    let mut steps = 0u32;
    while v(&m, "contact") == 0.0 && steps < 100_000 {
        m.step(dt);
        steps += 1;
    }
    // Free fall from 400 to R = 30: t = sqrt(2·370/981); semi-implicit Euler reaches
    // the plane within a few steps of it (O(dt) error on a 0.87 s fall).
    let t = f64::from(steps) * dt;
    let exact = (2.0f64 * 370.0 / 981.0).sqrt();
    assert!((t - exact).abs() < 5.0 * dt, "{t} vs {exact}");
    // Each impact loses energy: the first rebound rises to about e²·370 cm with the
    // restitution e ≈ sqrt(45/60) (e² = 0.75): below the drop, above half of it.
    let mut peak = f64::NEG_INFINITY;
    for _ in 0..20_000 {
        m.step(dt);
        if v(&m, "contact") == 0.0 {
            peak = peak.max(v(&m, "h"));
        }
    }
    let fall = 370.0;
    assert!(
        peak - 30.0 < fall && peak - 30.0 > 0.5 * fall,
        "peak {peak}"
    );
}

/// Rough speed of the interpreter on the hoop (run with `--ignored --nocapture` in
/// release mode); prints steps per second, asserts nothing about it.
#[test]
#[ignore]
fn hoop_speed() {
    let mut m = hoop();
    let n = 5_000_000u32;
    let start = std::time::Instant::now();
    for _ in 0..n {
        m.step(1e-4);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "hoop: {:.1} M steps/s (h = {})",
        f64::from(n) / secs / 1e6,
        v(&m, "h")
    );
}

/// The hoop written by hand in Rust, for comparison with [`hoop_speed`].
#[test]
#[ignore]
#[expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "mirrors the IR's `!falling`"
)]
fn hoop_speed_handwritten() {
    let (m, r, g, kp, kr) = (1.0f64, 30.0, 981.0, 60000.0, 45000.0);
    let (mut h, mut vy, mut p, mut fy, mut f, mut ay, mut defl) =
        (400.0f64, 0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0);
    let n = 50_000_000u32;
    let start = std::time::Instant::now();
    for _ in 0..n {
        let dt = std::hint::black_box(1e-4);
        let mut fired = [false; 2];
        p = m * g;
        if h < r && vy < 0.0 {
            fy = kp * defl;
            fired[0] = true;
        }
        if h < r && !(vy < 0.0) {
            fy = kr * defl;
            fired[0] = true;
        }
        if !fired[0] {
            fy = 0.0;
        }
        f = fy - p;
        ay = f / m;
        vy = sit_runtime::integral(vy, ay, dt);
        h = sit_runtime::integral(h, vy, dt);
        if h < r {
            defl = r - h;
            fired[1] = true;
        }
        if !fired[1] {
            defl = 0.0;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "hand: {:.1} M steps/s (h = {h} {p} {f} {ay} {defl} {fy})",
        f64::from(n) / secs / 1e6
    );
}

#[test]
fn instances_can_move_between_threads() {
    fn send_sync<T: Send + Sync + Clone + 'static>() {}
    send_sync::<Instance>();
    let m = inst("model C { real x; x = integral(1); }", "C");
    let mut moved = std::thread::spawn(move || m).join().expect("thread");
    moved.step(0.5);
    assert_eq!(v(&moved, "x"), 0.5);
}
