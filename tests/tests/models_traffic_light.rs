//! The traffic light written with a mode: each phase lasts its param's time, and a
//! mode takes at most one transition per step.

use sit_runtime::Model;
use sit_tests::models::{get, load, run, set};

/// The states of `light`, in declaration order (its value is the index).
const STATES: [&str; 3] = ["red", "green", "yellow"];

/// The phases of a run of `n` steps of `dt` as (state, length in s), the last one cut
/// by the end of the run; `params` set before the run.
fn phases(dt: f64, n: usize, params: &[(&str, f64)]) -> Result<Vec<(&'static str, f64)>, String> {
    let mut m = load("traffic_light.sit", "TrafficLight")?;
    for (name, value) in params {
        set(&mut m, name, *value)?;
    }
    m.reset();
    let state = |m: &dyn Model| -> Result<usize, String> {
        let v = get(m, "light")?;
        let k = v as usize;
        if k as f64 != v || k >= STATES.len() {
            return Err(format!("`light` is {v}, not the index of a state"));
        }
        Ok(k)
    };
    let mut seen = vec![state(&m)?];
    let mut bad = None;
    run(&mut m, dt, n, |m| match state(m) {
        Ok(k) => seen.push(k),
        Err(e) => bad = Some(e),
    });
    if let Some(e) = bad {
        return Err(e);
    }
    // The row of time t·dt shows the state after t steps; a state that first shows
    // at row a and last at row b - 1 lasted (b - a)·dt.
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=seen.len() {
        if i == seen.len() || seen[i] != seen[start] {
            out.push((STATES[seen[start]], (i - start) as f64 * dt));
            start = i;
        }
    }
    Ok(out)
}

#[test]
fn phases_last_their_params_time() -> Result<(), String> {
    // 0.5 and 0.25 are exact in binary: `elapsed` reaches each threshold exactly.
    for dt in [0.5, 0.25] {
        let n = (300.0 / dt) as usize;
        let got = phases(dt, n, &[])?;
        let cycle = [("red", 30.0), ("green", 25.0), ("yellow", 5.0)];
        // Five whole cycles of 60 s, then the red of the sixth starts at 300 s.
        assert_eq!(got.len(), 16, "dt = {dt}: {got:?}");
        for (i, phase) in got[..15].iter().enumerate() {
            assert_eq!(*phase, cycle[i % 3], "dt = {dt}, phase {i}: {got:?}");
        }
        assert_eq!(got[15], ("red", dt), "dt = {dt}: {got:?}");
    }
    Ok(())
}

#[test]
fn phases_follow_changed_params() -> Result<(), String> {
    let params = [("t_red", 4.0), ("t_green", 2.0), ("t_yellow", 1.0)];
    let got = phases(0.5, 28, &params)?;
    let want = [
        ("red", 4.0),
        ("green", 2.0),
        ("yellow", 1.0),
        ("red", 4.0),
        ("green", 2.0),
        ("yellow", 1.0),
        ("red", 0.5),
    ];
    assert_eq!(got, want);
    Ok(())
}

/// With every phase 0 s long, every transition's guard holds in every step: the light
/// still moves one state per step (red → green → yellow → red would otherwise all
/// happen in the first step, and it would stay red forever).
#[test]
fn one_transition_per_step() -> Result<(), String> {
    let params = [("t_red", 0.0), ("t_green", 0.0), ("t_yellow", 0.0)];
    let got = phases(1.0, 7, &params)?;
    let want: Vec<(&str, f64)> = (0..8).map(|i| (STATES[i % 3], 1.0)).collect();
    assert_eq!(got, want);
    Ok(())
}

#[test]
fn a_mode_cannot_be_set_from_outside() -> Result<(), String> {
    let mut m = load("traffic_light.sit", "TrafficLight")?;
    let err = set(&mut m, "light", 1.0).expect_err("a mode is not settable");
    assert!(err.contains("changed only by its transitions"), "{err}");
    Ok(())
}
