//! Sub-steps at run time, in both back ends: the step divided into `ceil(N)` whole steps
//! of `dt / n` while the situation holds, `dt` and `time` inside them, the host's clock
//! left exact, submodels and phases dividing their own steps, and a count that is not
//! finite or exceeds its limit, which stops both back ends with the same message.

use sit_runtime::Model;
use std::path::PathBuf;

use sit_tests::compiled;

/// Both back ends of the fixture model `Substeps` (`tests/build.rs`): compiled, then
/// interpreted.
fn both() -> [Box<dyn Model>; 2] {
    let (_, _, make) = compiled::all()
        .into_iter()
        .find(|(stem, model, _)| *stem == "random_substeps" && *model == "Substeps")
        .expect("the fixture is compiled");
    let path = PathBuf::from(env!("OUT_DIR")).join("random/random_substeps.sit");
    let interp = sit_host::load_file(&path, Some("Substeps"))
        .map(|l| l.instance)
        .expect("the fixture checks");
    [make(), Box::new(interp)]
}

/// The message of the fault of the model that stops `f`, if one does (any other panic
/// goes on unwinding).
fn fault_of(f: impl FnOnce()) -> Option<String> {
    sit_runtime::catch_fault(f)
        .err()
        .map(|fault| fault.to_string())
}

fn get(m: &dyn Model, name: &str) -> f64 {
    m.get(name)
        .unwrap_or_else(|| panic!("no variable `{name}`"))
}

#[test]
fn the_step_is_divided_while_the_situation_holds() {
    for mut m in both() {
        // At rest (v = 0) the first step is whole.
        m.step(0.25);
        assert_eq!(get(&*m, "steps"), 1.0);
        assert_eq!(get(&*m, "h"), 0.25);
        // v = -4·0.25·x0 → |v| = 0.958…: n = ceil(3·0.958…) = 3 sub-steps of 0.25/3.
        let v = get(&*m, "v");
        assert_eq!((3.0 * v.abs()).ceil(), 3.0);
        m.step(0.25);
        assert_eq!(get(&*m, "steps"), 4.0, "three sub-steps, each a whole step");
        assert_eq!(get(&*m, "h"), 0.25 / 3.0, "dt reads dt / n inside");
        // The last sub-step started at 0.25 + 2·h (the clock's run of steps of h).
        assert_eq!(get(&*m, "t_in"), 0.25 + 2.0 * (0.25 / 3.0));
        // The host's clock advanced by the whole step, exactly.
        assert_eq!(m.time(), 0.5);
    }
}

#[test]
fn the_hosts_clock_stays_exact_through_sub_steps() {
    for mut m in both() {
        let mut divided = 0;
        for k in 1..=400 {
            let before = get(&*m, "steps");
            m.step(0.01);
            divided += usize::from(get(&*m, "steps") - before > 1.0);
            // The double nearest k·0.01, as without sub-steps.
            assert_eq!(m.time(), (k as f64) / 100.0, "step {k}");
        }
        assert!(divided > 100, "only {divided} steps were divided");
    }
}

#[test]
fn submodels_and_phases_divide_their_own_steps() {
    for mut m in both() {
        for _ in 0..400 {
            m.step(0.01);
        }
        assert!(get(&*m, "runs") >= 1.0, "the phase ran");
        // The phase's model divides each of its steps of 0.05 in four while its `y` is
        // far above its drive (0): more steps counted than steps of the phase's clock.
        let (steps, took) = (get(&*m, "settle.steps"), get(&*m, "took"));
        assert!(
            steps > (took / 0.05).round() + 1.0,
            "{steps} steps in {took}"
        );
        // The submodel took its steps with the parent's sub-steps, some divided again.
        let (sub, parent) = (get(&*m, "decay.steps"), get(&*m, "steps"));
        assert!(
            sub >= parent,
            "{sub} steps of the submodel, {parent} of the parent"
        );
    }
}

#[test]
fn a_count_that_is_not_finite_stops_both_back_ends_with_the_same_message() {
    let expected = "the sub-step count of `Substeps` is NaN at t = 0.25, not a number from 1 to its limit of 50";
    for mut m in both() {
        m.set("n", f64::NAN).unwrap();
        m.reset();
        // The first step is whole (v = 0): the count is not evaluated.
        m.step(0.25);
        assert_eq!(fault_of(|| m.step(0.25)).as_deref(), Some(expected));
    }
}

#[test]
fn a_count_over_its_limit_stops_both_back_ends_with_the_same_message() {
    let mut messages = Vec::new();
    for mut m in both() {
        m.set("n", 100.0).unwrap();
        m.reset();
        m.step(0.25);
        let v = get(&*m, "v").abs();
        messages.push((fault_of(|| m.step(0.25)), 100.0 * v));
    }
    for (message, count) in messages {
        let expected = format!(
            "the sub-step count of `Substeps` is {count} at t = 0.25, not a number from 1 to its limit of 50"
        );
        assert_eq!(message, Some(expected));
    }
}

/// A ball on a stiff floor, its step divided in ten always (`divided`) or never.
fn ball(divided: bool) -> sit_interp::Instance {
    let substeps = if divided { "substeps 10 limit 10;" } else { "" };
    let text = format!(
        "model Ball {{
    param k = 1e6, g = 9.81;
    output real h = 1, v, bounces;
    event impact = h < 0;
    {substeps}
    v = integral(-g - k * h) when h < 0;
    v = integral(-g) otherwise;
    h = integral(v);
    bounces = bounces + 1 when impact;
}}
"
    );
    let dir = std::env::temp_dir().join(format!("sit-substeps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("ball_{divided}.sit"));
    std::fs::write(&path, text).unwrap();
    sit_host::load_file(&path, Some("Ball"))
        .map(|l| l.instance)
        .expect("the ball checks")
}

#[test]
fn a_step_divided_in_n_is_n_steps_of_dt_over_n() {
    // Every value but the clock is that of ten steps of dt/10, bit for bit; the clock
    // reads k·dt exactly at the end of each step.
    let (mut divided, mut fine) = (ball(true), ball(false));
    let names = ["h", "v", "bounces", "impact"];
    for k in 1..=2000 {
        divided.step(1e-3);
        for _ in 0..10 {
            fine.step(1e-4);
        }
        for n in names {
            let (a, b) = (get(&divided, n), get(&fine, n));
            assert_eq!(a.to_bits(), b.to_bits(), "`{n}` after step {k}: {a} vs {b}");
        }
        assert_eq!(divided.time(), k as f64 / 1000.0);
    }
    assert!(get(&divided, "bounces") >= 2.0);
}
