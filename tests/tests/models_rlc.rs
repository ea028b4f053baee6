//! The series RLC circuit against the analytic solution of
//! L·C·E'' + R·C·E' + E = −U, under-, critically and over-damped.

use sit_runtime::Model;
use sit_tests::models::{get, load, set};

/// Capacitor voltage and current of the exact solution at time `t`, for
/// E(0) = e0, I(0) = i0.
fn exact(r: f64, l: f64, c: f64, u: f64, e0: f64, i0: f64, t: f64) -> (f64, f64) {
    // x = E + U obeys x'' + 2·α·x' + ω0²·x = 0, x(0) = e0 + U, x'(0) = i0/C.
    let alpha = r / (2.0 * l);
    let w0sq = 1.0 / (l * c);
    let (x0, v0) = (e0 + u, i0 / c);
    let disc = alpha * alpha - w0sq;
    let (x, v) = if disc < -1e-12 * w0sq {
        let wd = (-disc).sqrt();
        let (a, b) = (x0, (v0 + alpha * x0) / wd);
        let (s, co) = (wd * t).sin_cos();
        let decay = (-alpha * t).exp();
        let x = decay * (a * co + b * s);
        let v = decay * ((b * wd - alpha * a) * co - (a * wd + alpha * b) * s);
        (x, v)
    } else if disc > 1e-12 * w0sq {
        let root = disc.sqrt();
        let (s1, s2) = (-alpha + root, -alpha - root);
        let c2 = (v0 - s1 * x0) / (s2 - s1);
        let c1 = x0 - c2;
        let (e1, e2) = ((s1 * t).exp(), (s2 * t).exp());
        (c1 * e1 + c2 * e2, c1 * s1 * e1 + c2 * s2 * e2)
    } else {
        let (a, b) = (x0, v0 + alpha * x0);
        let decay = (-alpha * t).exp();
        (decay * (a + b * t), decay * (b - alpha * (a + b * t)))
    };
    (x - u, c * v)
}

/// The largest error of `m` (reset, starting from `(E0, I0)`) against the exact solution
/// over `steps` steps of `dt`, each variable relative to its scale: the voltage swings by
/// about |U| + |E0| + |I0|·sqrt(L/C), the current by that over sqrt(L/C).
fn worst_error(
    m: &mut sit_interp::Instance,
    (e0, i0): (f64, f64),
    steps: usize,
    dt: f64,
) -> Result<f64, String> {
    let (r, l, c, u) = (get(m, "R")?, get(m, "L")?, get(m, "C")?, get(m, "U")?);
    let e_scale = u.abs() + e0.abs() + i0.abs() * (l / c).sqrt();
    let i_scale = e_scale / (l / c).sqrt();
    let mut worst: f64 = 0.0;
    for _ in 0..steps {
        m.step(dt);
        let (e_ex, i_ex) = exact(r, l, c, u, e0, i0, m.time());
        let de = (get(m, "E")? - e_ex).abs() / e_scale;
        let di = (get(m, "I")? - i_ex).abs() / i_scale;
        worst = worst.max(de).max(di);
    }
    Ok(worst)
}

fn check(r: f64, e0: f64, i0: f64) -> Result<(), String> {
    let mut m = load("rlc.sit", "Rlc")?;
    set(&mut m, "R", r)?;
    set(&mut m, "E0", e0)?;
    set(&mut m, "I0", i0)?;
    m.reset();
    let (l, c) = (get(&m, "L")?, get(&m, "C")?);
    let dt = 1e-6;
    let w0 = 1.0 / (l * c).sqrt();
    // Semi-implicit Euler is first order here (the damping breaks its
    // symplectic symmetry): the global error grows like t·ω0²·dt·(scale)
    // at most, 0.2 s · 1e4 · 1e-6 = 2e-3 of the scale for the slowest
    // decay, and decays with the solution otherwise. Measured: at most
    // 5e-5 over the six cases; 5e-4 leaves a factor 10. A sign error or a
    // wrong R, L or C changes the solution by O(1) of the scale within one
    // period.
    let tol = 5e-4;
    let worst = worst_error(&mut m, (e0, i0), 200_000, dt)?;
    assert!(
        worst < tol,
        "R = {r}: error {worst:e} of the scale (ω0 = {w0})"
    );
    Ok(())
}

#[test]
fn underdamped() -> Result<(), String> {
    check(2.0, 0.0, 0.0)?;
    check(5.0, 3.0, -0.2)
}

#[test]
fn critically_damped() -> Result<(), String> {
    // R = 2·sqrt(L/C) = 20 Ω with L = 0.1 H, C = 1 mF.
    check(20.0, 0.0, 0.0)?;
    check(20.0, -4.0, 0.5)
}

#[test]
fn overdamped() -> Result<(), String> {
    check(100.0, 0.0, 0.0)?;
    check(60.0, 2.0, 0.1)
}

#[test]
fn underdamped_oscillates_and_overdamped_does_not() -> Result<(), String> {
    // The voltage overshoots −U (starting from 0, U = 10) only if underdamped.
    for (r, overshoots) in [(2.0, true), (20.0, false), (100.0, false)] {
        let mut m = load("rlc.sit", "Rlc")?;
        set(&mut m, "R", r)?;
        m.reset();
        let mut lowest = f64::INFINITY;
        for _ in 0..200_000 {
            m.step(1e-5);
            lowest = lowest.min(get(&m, "E")?);
        }
        // Overshoot below −10 V by more than the integration error.
        assert_eq!(
            lowest < -10.0 - 1e-3,
            overshoots,
            "R = {r}: lowest E = {lowest}"
        );
        // Settled after 2 s (the slowest decay, e^(−10·t) for R = 2 and
        // R = 100 Ω, is 2e-9 by then): I → 0, E → −U.
        let (e, i) = (get(&m, "E")?, get(&m, "I")?);
        assert!(
            (e + 10.0).abs() < 1e-6 && i.abs() < 1e-6,
            "R = {r}: E = {e}, I = {i}"
        );
    }
    Ok(())
}

/// The circuit written as equations (`rlc_equations.sit`, issue 46) under its
/// `rk4`, and under `dopri5` and `radau5`, against the exact solution: the
/// equations are matched, sorted and solved into the exact ODE
/// `L·I' = −(E + R·I + U)`, `C·E' = I`.
#[test]
fn written_as_equations() -> Result<(), String> {
    for (r, e0, i0) in [(2.0, 0.0, 0.0), (20.0, -4.0, 0.5), (100.0, 2.0, 0.1)] {
        for name in [None, Some("dopri5"), Some("radau5")] {
            let method = name.map(|n| sit_middle::ir::Method::from_name(n).expect("a method"));
            let mut m = sit_tests::models::load_with("rlc_equations.sit", "RlcEquations", method)?;
            set(&mut m, "R", r)?;
            set(&mut m, "E0", e0)?;
            set(&mut m, "I0", i0)?;
            m.reset();
            // rk4 at ω0·dt = 100 · 1e-4 = 1e-2: a global error of order
            // (ω0·dt)⁴·ω0·t / 120 ≈ 2e-9 of the scale over 0.2 s; dopri5 and radau5
            // at their default tolerance (1e-6 relative) keep within a few 1e-6.
            // 1e-5 leaves a margin, and a wrong sign, a wrong factor or a one-step
            // delay of any equation is O(1e-2) or more of the scale.
            let tol = if name.is_none() { 1e-7 } else { 1e-5 };
            let worst = worst_error(&mut m, (e0, i0), 2_000, 1e-4)?;
            assert!(
                worst < tol,
                "R = {r}, {name:?}: error {worst:e} of the scale"
            );
        }
    }
    Ok(())
}
