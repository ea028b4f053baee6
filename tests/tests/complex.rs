//! The two-roll coordination complex and the semantics of submodels: switching, reset, reuse.

use sit_runtime::Model;
use sit_tests::repo_root;

fn load(path: &str, model: &str) -> sit_interp::Instance {
    let out = sit_middle::check_file(repo_root().join(path)).expect("readable");
    assert!(!out.has_errors(), "{}", out.render());
    let program = out.program.expect("checked");
    let root = program.model(model).expect("model exists");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

fn load_str(text: &str, model: &str) -> sit_interp::Instance {
    let out = sit_middle::check_source("inline.sit", text);
    assert!(!out.has_errors(), "{}", out.render());
    let program = out.program.expect("checked");
    let root = program.model(model).expect("model exists");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

fn get(m: &dyn Model, name: &str) -> f64 {
    m.get(name).unwrap_or_else(|| panic!("no variable {name}"))
}

/// Acceleration of a solid roll on a plane tilted by `tilt` (Roll's defaults).
fn accel(tilt: f64) -> f64 {
    9.81 * tilt.sin() / 1.5
}

#[test]
fn both_rolls_arrive_together_from_different_starts() {
    let dt = 1e-3;
    let target = 5.0;
    for (s1, s2) in [(0.0, 3.0), (1.0, 4.5), (4.0, 0.0), (0.0, 8.0), (9.0, 2.5)] {
        let mut m = load("examples/models/complex/coordinator.sit", "Coordinator");
        m.set("start1", s1).unwrap();
        m.set("start2", s2).unwrap();
        m.set("target", target).unwrap();
        m.reset();
        let (d1, d2) = ((target - s1).abs(), (target - s2).abs());
        let far = d1.max(d2);
        let tilt_max = get(&m, "tilt_max");
        // The analytic travel time of the farther roll: T = 2·sqrt(D/a).
        let travel = 2.0 * (far / accel(tilt_max)).sqrt();
        let steps = ((travel * 1.5) / dt) as usize;
        let mut x_at_arrival = [f64::NAN; 2];
        for _ in 0..steps {
            m.step(dt);
            for (i, p) in ["p1", "p2"].iter().enumerate() {
                if x_at_arrival[i].is_nan() && get(&m, &format!("{p}.arrived")) == 1.0 {
                    x_at_arrival[i] = get(&m, &format!("{p}.x"));
                }
            }
        }
        assert_eq!(get(&m, "done"), 1.0, "starts {s1}, {s2}: not both arrived");
        let t1 = get(&m, "p1.t_arrival");
        let t2 = get(&m, "p2.t_arrival");
        // Both arrive at the same time up to 1% of the travel time (the
        // issue's requirement); the discrete switching costs a few steps.
        assert!(
            (t1 - t2).abs() < 0.01 * travel,
            "starts {s1}, {s2}: arrivals {t1} and {t2} (travel {travel})"
        );
        // And at the analytic time, within 1%.
        assert!((t1 - travel).abs() < 0.01 * travel, "t1 {t1} vs {travel}");
        // Both stop at the target: the stop is detected one step late at
        // most, and the midpoint switch one step late at most, so the error
        // is a few v_max·dt (v_max = sqrt(a·D) at the midpoint).
        let vmax = (accel(tilt_max) * far).sqrt();
        for (i, x) in [get(&m, "x1"), get(&m, "x2")].into_iter().enumerate() {
            assert!(
                (x - target).abs() < 4.0 * vmax * dt,
                "starts {s1}, {s2}: roll {} stopped at {x}",
                i + 1
            );
        }
        // The closer roll got the smaller tilt (equal distances: equal tilts).
        let (tilt1, tilt2) = (get(&m, "tilt1"), get(&m, "tilt2"));
        if d1 < d2 {
            assert!(tilt1 < tilt2);
        } else if d2 < d1 {
            assert!(tilt2 < tilt1);
        }
        // Arrived systems are switched off and frozen.
        assert_eq!(get(&m, "p1.on"), 0.0);
        assert_eq!(get(&m, "p2.on"), 0.0);
        assert_eq!(get(&m, "p1.x"), x_at_arrival[0]);
        assert_eq!(get(&m, "p2.x"), x_at_arrival[1]);
        assert_eq!(get(&m, "p1.roll.v"), 0.0);
    }
}

const SWITCHING: &str = r#"
model Counter {
    param step_size = 1.0;
    output real n;
    n = n + step_size;
}

model Host {
    sub c: Counter();
    output real seen;
    event stop_it = time >= 0.45;
    event again = time >= 0.95;
    when stop_it => !c.on;
    when again => reset(c), c.on;
    seen = c.n;
}
"#;

#[test]
fn switched_off_submodel_freezes_and_reset_restores_it() {
    let mut m = load_str(SWITCHING, "Host");
    let dt = 0.1;
    let mut trace = Vec::new();
    for _ in 0..15 {
        m.step(dt);
        trace.push((get(&m, "c.n"), get(&m, "c.on"), m.time()));
    }
    // Steps 1..5 count (time 0..0.4 at their start); at the step starting at
    // time ~0.5 the event switches c off after c has stepped: n = 6.
    let n: Vec<f64> = trace.iter().map(|t| t.0).collect();
    assert_eq!(&n[..6], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    // Frozen while off.
    assert!(n[6..10].iter().all(|&x| x == 6.0), "{n:?}");
    // The step starting at time ~1.0 resets c (n = 0) and switches it on;
    // the next step counts from 0 again.
    let k = 6 + trace[6..]
        .iter()
        .position(|t| t.1 == 1.0)
        .expect("switched on again");
    assert_eq!(
        k, 10,
        "the event `again` fires at the step starting at time ~1.0"
    );
    assert_eq!(trace[k].0, 0.0);
    assert_eq!(trace[k + 1].0, 1.0);
    assert_eq!(n[14], 4.0);
}

const TWO_INSTANCES: &str = r#"
model Osc {
    param k = 1.0;
    param x0 = 1.0;
    output real x = x0;
    output real v;
    real a;
    a = -k * x;
    v = integral(a);
    x = integral(v);
}

model Pair {
    sub a: Osc(k = 1.0, x0 = 1.0);
    sub b: Osc(k = 4.0, x0 = -0.5);
    output real xa, xb;
    xa = a.x;
    xb = b.x;
}
"#;

#[test]
fn two_instances_behave_as_independent_copies() {
    let mut pair = load_str(TWO_INSTANCES, "Pair");
    let mut a = load_str(TWO_INSTANCES, "Osc");
    let mut b = load_str(TWO_INSTANCES, "Osc");
    b.set("k", 4.0).unwrap();
    b.set("x0", -0.5).unwrap();
    b.reset();
    for _ in 0..5000 {
        pair.step(1e-3);
        a.step(1e-3);
        b.step(1e-3);
        // Bit for bit: the same operations on the same values.
        assert_eq!(get(&pair, "a.x").to_bits(), get(&a, "x").to_bits());
        assert_eq!(get(&pair, "b.x").to_bits(), get(&b, "x").to_bits());
    }
    // The two copies really differ (different frequencies).
    assert_ne!(get(&pair, "a.x"), get(&pair, "b.x"));
}
