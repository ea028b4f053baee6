//! The pendulum models against exact periods: the large-amplitude pendulum
//! (elliptic integral), the elastic thread, the pendulum on a free cart.

use sit_runtime::Model;
use sit_tests::models::{get, load, set};
use sit_tests::physics::{downward_crossings, elliptic_k, mean_period, pendulum_period};
use std::f64::consts::PI;

const L: f64 = 2.0;
const G: f64 = 9.81;

/// Runs `model` for `t_end` with step `dt` and returns the samples of `var`
/// (the initial value included).
fn samples(
    model: &mut dyn Model,
    var: &str,
    dt: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, String> {
    let n = (t_end / dt).round() as usize;
    let mut out = Vec::with_capacity(n + 1);
    out.push((model.time(), get(model, var)?));
    for _ in 0..n {
        model.step(dt);
        out.push((model.time(), get(model, var)?));
    }
    Ok(out)
}

/// The period of `var` over about three swings.
fn period(model: &mut dyn Model, var: &str, dt: f64, expected: f64) -> Result<f64, String> {
    let s = samples(model, var, dt, 3.3 * expected)?;
    mean_period(&s).ok_or_else(|| format!("{var} does not oscillate"))
}

#[test]
fn pendulum_period_follows_the_elliptic_integral() -> Result<(), String> {
    let mut m = load("pendulum.sit", "Pendulum")?;
    // Semi-implicit Euler is symplectic and time-reversible in its period:
    // the error of the period is of second order, about (ω·dt)²/24 for
    // small swings (ω ≈ 2.2 rad/s, dt = 1e-4: 2e-9), larger near the
    // separatrix where the bob crawls over the top. The zero crossings are
    // interpolated where the angle is nearly linear in time (the angular
    // acceleration vanishes at angle = 0): a further error of order dt³.
    // Measured: |rel| <= 2.1e-9 from 3° to 170°, as (ω·dt)²/24 predicts.
    // 1e-7 leaves margin for other platforms' libm and still catches any
    // first-order error (ω·dt = 2e-4) or a wrong length or g.
    let dt = 1e-4;
    for degrees in [3.0, 5.0, 20.0, 45.0, 90.0, 135.0, 170.0] {
        let amplitude = degrees * PI / 180.0;
        set(&mut m, "angle0", amplitude)?;
        m.reset();
        let exact = pendulum_period(L, G, amplitude);
        let measured = period(&mut m, "angle", dt, exact)?;
        let rel = (measured / exact - 1.0).abs();
        assert!(
            rel < 1e-7,
            "{degrees}°: period {measured}, exact {exact}, rel {rel:e}"
        );
    }
    Ok(())
}

#[test]
fn pendulum_at_five_degrees_is_the_small_angle_pendulum() -> Result<(), String> {
    let mut m = load("pendulum.sit", "Pendulum")?;
    set(&mut m, "angle0", 5.0 * PI / 180.0)?;
    m.reset();
    let small = 2.0 * PI * (L / G).sqrt();
    let measured = period(&mut m, "angle", 1e-3, small)?;
    // "To three digits": the large-amplitude correction at 5° is
    // θ²/16 ≈ 4.8e-4 of the period, below 1e-3.
    assert!(
        (measured / small - 1.0).abs() < 1e-3,
        "{measured} vs {small}"
    );
    // ...and not equal to it to 1e-4: the model is the nonlinear pendulum.
    assert!(
        (measured / small - 1.0).abs() > 1e-4,
        "{measured} vs {small}"
    );
    Ok(())
}

#[test]
fn elastic_pendulum_swings_like_a_pendulum_of_the_stretched_length() -> Result<(), String> {
    let mut m = load("pendulum_elastic.sit", "PendulumElastic")?;
    let (mass, amplitude, dt) = (1.0, 0.01, 1e-4);
    for k in [50.0, 200.0, 1000.0] {
        set(&mut m, "k", k)?;
        set(&mut m, "angle0", amplitude)?;
        m.reset();
        // The static stretch m·g/k; over the swing the length also varies
        // (by m·g·(1 − cos θ)/k and m·ω²·L_cur/k, both of order θ0²·m·g/k),
        // which changes the period by a term of order θ0²·m·g/(k·L):
        // measured 1.5e-4 at θ0 = 0.05 for k = 50, so about 6e-6 at
        // θ0 = 0.01. The time step adds (ω·dt)²/24 ≈ 2e-9. 5e-5 bounds them
        // with margin and is far below the effect of the stretch itself
        // (m·g/(2·k·L) ≥ 2.4e-3 here).
        let stretched = L + mass * G / k;
        let exact = pendulum_period(stretched, G, amplitude);
        let measured = period(&mut m, "angle", dt, exact)?;
        let rel = (measured / exact - 1.0).abs();
        assert!(
            rel < 5e-5,
            "k = {k}: period {measured}, expected {exact}, rel {rel:e}"
        );
        let rigid = pendulum_period(L, G, amplitude);
        assert!(measured > rigid, "a stretched thread swings slower");
    }
    Ok(())
}

#[test]
fn elastic_thread_tension_is_weight_plus_centrifugal() -> Result<(), String> {
    // At the lowest point the tension is m·g + m·v²/L_cur, v = ω·L_cur.
    let mut m = load("pendulum_elastic.sit", "PendulumElastic")?;
    set(&mut m, "angle0", 1.0)?;
    m.reset();
    let dt = 1e-4;
    let mut prev = get(&m, "angle")?;
    for _ in 0..100_000 {
        m.step(dt);
        let angle = get(&m, "angle")?;
        if prev > 0.0 && angle <= 0.0 {
            // T and L_cur are computed from the state at the start of the
            // step, at most one step (|ω|·dt ≈ 2.4e-4 rad) before the
            // bottom: the tension differs from its value at the bottom by
            // about m·g·θ²/2 + O(θ) from ω's change: below 1e-3 relative.
            let (t, l_cur) = (get(&m, "T")?, get(&m, "L_cur")?);
            let omega = get(&m, "omega")?;
            let expected = G + omega * omega * l_cur;
            assert!(
                (t / expected - 1.0).abs() < 1e-3,
                "T = {t}, expected {expected}"
            );
            assert!(
                l_cur > L + G / 200.0,
                "stretched beyond the static stretch at the bottom"
            );
            return Ok(());
        }
        prev = angle;
    }
    Err("the pendulum never passed the bottom".into())
}

#[test]
fn cart_pendulum_small_oscillation_period() -> Result<(), String> {
    let mut m = load("cart_pendulum.sit", "CartPendulum")?;
    let (bob, dt) = (1.0, 1e-4);
    for cart in [0.25, 1.0, 2.0, 10.0, 100.0] {
        set(&mut m, "M", cart)?;
        set(&mut m, "m", bob)?;
        set(&mut m, "angle0", 1e-3)?;
        m.reset();
        // Linearised Lagrangian: T = 2π·sqrt((L/g)·M/(M + m)). The nonlinear
        // correction is of order θ0² times a factor that grows with m/M
        // (measured 1.1e-4 at θ0 = 0.01 rad for M/m = 0.25), so θ0 = 1e-3
        // rad makes it about 1e-6; the integrator adds (ω·dt)²/24 < 1e-8
        // even for the fastest case (M/m = 0.25, ω ≈ 5 rad/s). 1e-5 bounds
        // these with margin and is far below the cart's effect
        // (1 − sqrt(M/(M + m)) ≥ 5e-3 for M/m <= 100).
        let expected = 2.0 * PI * ((L / G) * cart / (cart + bob)).sqrt();
        let measured = period(&mut m, "angle", dt, expected)?;
        let rel = (measured / expected - 1.0).abs();
        assert!(
            rel < 1e-5,
            "M = {cart}: period {measured}, expected {expected}, rel {rel:e}"
        );
    }
    Ok(())
}

#[test]
fn cart_pendulum_conserves_horizontal_momentum() -> Result<(), String> {
    // No external force: (M + m)·V + m·L·ω·cos(angle) stays 0 from rest.
    let mut m = load("cart_pendulum.sit", "CartPendulum")?;
    set(&mut m, "angle0", 1.0)?;
    m.reset();
    let (cart, bob, dt) = (get(&m, "M")?, get(&m, "m")?, 1e-4);
    // Scale: the largest term, m·L·ω_max ≈ 1·2·2.1 kg·m/s.
    let mut worst: f64 = 0.0;
    for _ in 0..100_000 {
        m.step(dt);
        let (v, omega, angle) = (get(&m, "V_cart")?, get(&m, "omega")?, get(&m, "angle")?);
        let p = (cart + bob) * v + bob * L * omega * angle.cos();
        worst = worst.max(p.abs());
    }
    // The semi-implicit update conserves it only to O(dt): the speeds are
    // advanced with accelerations from the old angle while the momentum is
    // evaluated with the new one; its drift stays bounded by about
    // m·L·|ω|·|Δangle| ~ m·L·ω²·dt ≈ 2·4.4·1e-4 ≈ 1e-3 kg·m/s per swing and
    // does not accumulate (it oscillates). 1e-2 is a bound that a wrong
    // coupling (e.g. the paper's kinematic correction, off by O(1)) exceeds.
    assert!(worst < 1e-2, "momentum drifted to {worst}");
    Ok(())
}

// The exact solutions' own cases (`sit_tests::physics`, a library built without a test
// harness: see tests/Cargo.toml).

#[test]
fn elliptic_k_known_values() {
    // K(0) = π/2; K(1/√2) = Γ(1/4)²/(4·sqrt(π)) = 1.8540746773013719 (A&S 17.3).
    assert!((elliptic_k(0.0) - PI / 2.0).abs() < 1e-15);
    let k = elliptic_k(std::f64::consts::FRAC_1_SQRT_2);
    assert!((k - 1.854_074_677_301_372).abs() < 1e-14, "{k}");
}

#[test]
fn small_amplitude_period_is_the_linear_one() {
    let t = pendulum_period(2.0, 9.81, 1e-4);
    let t0 = 2.0 * PI * (2.0f64 / 9.81).sqrt();
    // Next term of the series: T0·θ²/16 ≈ 6e-10·T0.
    assert!((t / t0 - 1.0).abs() < 1e-9);
}

#[test]
fn crossings_of_a_sine() {
    let s: Vec<(f64, f64)> = (0..2000)
        .map(|i| {
            let t = i as f64 * 0.01;
            (t, (t * 2.0 * PI / 3.0).cos())
        })
        .collect();
    // Downward crossings at t = 0.75 + 3·n; linear interpolation is exact
    // to (0.01)²·(2π/3)²/8 relative to the slope: far below 1e-4.
    let c = downward_crossings(&s);
    assert!((c[0] - 0.75).abs() < 1e-4, "{c:?}");
    assert!((mean_period(&s).unwrap() - 3.0).abs() < 1e-4);
}
