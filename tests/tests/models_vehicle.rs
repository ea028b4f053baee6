//! The car of `examples/models/vehicle.sit`, whose engine torque is a 2-D lookup table
//! read from `engine_torque.csv`: the torque against bilinear interpolation computed
//! here by hand (weights, not the runtime's formula) from the file's numbers, and the
//! top speed against the root of drive force = resistances found by bisection.

use sit_runtime::Model;
use sit_tests::models::{get, load, set};

const RATIO: f64 = 4.0;
const R_WHEEL: f64 = 0.3;

/// The map of the CSV file: speeds (rows), pedal positions (columns), torques.
fn map() -> (Vec<f64>, Vec<f64>, Vec<Vec<f64>>) {
    let path = sit_tests::repo_root().join("examples/models/engine_torque.csv");
    let text = std::fs::read_to_string(path).expect("the map is readable");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let nums = |l: &str| -> Vec<f64> { l.split(',').map(|c| c.trim().parse().unwrap()).collect() };
    let header = lines.next().expect("a header");
    let pedals = nums(header.split_once(',').expect("a corner cell").1);
    let (mut speeds, mut rows) = (Vec::new(), Vec::new());
    for l in lines {
        let r = nums(l);
        speeds.push(r[0]);
        rows.push(r[1..].to_vec());
    }
    (speeds, pedals, rows)
}

/// Bilinear interpolation as a weighted sum of the four corners of the cell, each
/// argument clamped to its grid first.
fn by_hand(w: f64, p: f64) -> f64 {
    let (ws, ps, z) = map();
    let cell = |g: &[f64], x: f64| -> (usize, f64) {
        let x = x.clamp(g[0], g[g.len() - 1]);
        let i = (0..g.len() - 1).rfind(|&i| g[i] <= x).unwrap_or(0);
        (i, (x - g[i]) / (g[i + 1] - g[i]))
    };
    let ((i, s), (j, t)) = (cell(&ws, w), cell(&ps, p));
    (1.0 - s) * (1.0 - t) * z[i][j]
        + s * (1.0 - t) * z[i + 1][j]
        + (1.0 - s) * t * z[i][j + 1]
        + s * t * z[i + 1][j + 1]
}

#[test]
fn the_torque_is_the_map_interpolated() -> Result<(), String> {
    let mut m = load("vehicle.sit", "Vehicle")?;
    // Inside cells, on grid lines, at corners (speed 0 and 700 with pedal 0 and 1), and
    // beyond the map on each side (clamped).
    let speeds = [0.0, 37.0, 100.0, 250.0, 333.3, 555.5, 700.0, 900.0];
    let pedals = [-0.5, 0.0, 0.1, 0.25, 0.6, 0.9, 1.0, 1.5];
    for w in speeds {
        for p in pedals {
            set(&mut m, "pedal", p)?;
            set(&mut m, "v", w * R_WHEEL / RATIO)?;
            // The torque rule reads the engine speed of the v at the step's start.
            m.step(1e-6);
            let w_engine = get(&m, "w_engine")?;
            let want = by_hand(w_engine, p);
            let got = get(&m, "M")?;
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "w = {w_engine}, pedal = {p}: {got} against {want}"
            );
        }
    }
    Ok(())
}

#[test]
fn the_car_settles_where_drive_force_meets_the_resistances() -> Result<(), String> {
    let (mass, g, c_roll, cda, rho, pedal) = (1200.0, 9.81, 0.012, 0.66, 1.2, 0.6);
    let excess = |v: f64| {
        let drive = by_hand(v * RATIO / R_WHEEL, pedal) * RATIO / R_WHEEL;
        drive - (c_roll * mass * g + 0.5 * rho * cda * v * v)
    };
    // The excess force is positive at rest and negative at 60 m/s: bisect.
    let (mut lo, mut hi) = (1.0, 60.0);
    assert!(excess(lo) > 0.0 && excess(hi) < 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid
        } else {
            hi = mid
        }
    }
    let v_top = 0.5 * (lo + hi);
    let mut m = load("vehicle.sit", "Vehicle")?;
    for _ in 0..40_000 {
        m.step(0.01);
    }
    let v = get(&m, "v")?;
    // The approach is exponential (time constant about 12 s), so after 400 s the
    // speed is the equilibrium to within the integration's rounding.
    assert!((v - v_top).abs() < 1e-6 * v_top, "{v} against {v_top}");
    assert!(v_top > 45.0 && v_top < 55.0, "{v_top}");
    Ok(())
}
