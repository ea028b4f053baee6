//! The three examples built from parts against independent references.

use super::{close, get, method};
use sit_runtime::Model;
use sit_tests::models::load_with;

/// The series RLC circuit's capacitor voltage and current at `t` from `(e0, i0)`, for
/// `L C E'' + R C E' + E = U` (the source's voltage `U` from `p` to `n`): the exact
/// solution of the under-damped case, `E − U` a damped cosine and sine.
fn rlc_exact(r: f64, l: f64, c: f64, u: f64, e0: f64, i0: f64, t: f64) -> (f64, f64) {
    let alpha = r / (2.0 * l);
    let wd = (1.0 / (l * c) - alpha * alpha).sqrt();
    let (x0, v0) = (e0 - u, i0 / c);
    let (a, b) = (x0, (v0 + alpha * x0) / wd);
    let (s, co) = (wd * t).sin_cos();
    let decay = (-alpha * t).exp();
    let x = decay * (a * co + b * s);
    let v = decay * ((b * wd - alpha * a) * co - (a * wd + alpha * b) * s);
    (x + u, c * v)
}

/// `rlc_parts.sit` (a source, R, L, C and ground joined by `connect`) against the
/// exact solution, under its own `rk4` and under `radau5` and `rodas5p` at tight
/// tolerances. Independent: the solution is the closed form of the circuit's ODE,
/// nothing of Sit's. Tolerances: rk4 at ω0·dt = 1e-2 has a global error of order
/// (ω0·dt)⁴·ω0·t/120 ≈ 2e-9 of the scale over 0.2 s; the implicit methods at
/// rtol 1e-11 stay well within 1e-8 of the scale, the bound. A wrong sign of a
/// flow, a lost alias or a one-step delay is O(1e-2) of the scale or more.
#[test]
fn rlc_from_parts_matches_the_exact_solution() -> Result<(), String> {
    for m_name in [None, Some("radau5"), Some("rodas5p")] {
        let meth = m_name.map(|n| method(n, 1e-11, 1e-13));
        let mut m = load_with("rlc_parts.sit", "RlcParts", meth)?;
        let (e0, i0) = (-2.0, 0.3);
        m.set("c.v0", e0).map_err(|e| e.to_string())?;
        m.set("l.i0", i0).map_err(|e| e.to_string())?;
        m.reset();
        let (r, l, c, u) = (
            get(&m, "r.R"),
            get(&m, "l.L"),
            get(&m, "c.C"),
            get(&m, "src.V"),
        );
        let e_scale = u.abs() + e0.abs() + i0.abs() * (l / c).sqrt();
        let i_scale = e_scale / (l / c).sqrt();
        for _ in 0..2000 {
            m.step(1e-4);
            let (e, i) = rlc_exact(r, l, c, u, e0, i0, m.time());
            let what = format!("{m_name:?} at {}", m.time());
            close(&format!("c.v {what}"), get(&m, "c.v"), e, e_scale, 1e-8);
            close(&format!("l.i {what}"), get(&m, "l.i"), i, i_scale, 1e-8);
        }
    }
    Ok(())
}

/// `exp(a)` of a square matrix by scaling and squaring with a Taylor series (terms
/// to 1e-18 of the scaled norm's series, which converges for norm ≤ 1/2).
fn expm(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let norm = a
        .iter()
        .map(|r| r.iter().map(|x| x.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let mut squarings = 0;
    while norm / 2f64.powi(squarings) > 0.5 {
        squarings += 1;
    }
    let s = 2f64.powi(squarings);
    let scaled: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|x| x / s).collect())
        .collect();
    let mul = |x: &[Vec<f64>], y: &[Vec<f64>]| -> Vec<Vec<f64>> {
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (0..n).map(|k| x[i][k] * y[k][j]).sum())
                    .collect()
            })
            .collect()
    };
    let mut out: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    let mut term = out.clone();
    for k in 1..30 {
        term = mul(&term, &scaled);
        term.iter_mut().flatten().for_each(|x| *x /= f64::from(k));
        for (o, t) in out.iter_mut().flatten().zip(term.iter().flatten()) {
            *o += t;
        }
    }
    for _ in 0..squarings {
        out = mul(&out, &out);
    }
    out
}

/// `dc_motor.sit` (armature R, L, EMF, gear, load inertia, bearing damper, speed
/// sensor and a PI controller, joined by `connect`) against the exact solution of the
/// ODE derived by hand from the physics, `x = (i, w, phi, z)`:
/// `L i' = Kp (w_ref − w) + Ki z − R i − k·ratio·w`, `J w' = ratio·k·i − d w`,
/// `phi' = w`, `z' = w_ref − w`, computed as `exp(M t)` of the affine system's 5×5
/// matrix by scaling and squaring. Independent of Sit: the matrix is written from the
/// component laws, not read from the model. Under rodas5p and radau5 at rtol 1e-11,
/// every variable within 1e-8 of its scale over 2 s.
#[test]
fn dc_motor_matches_the_matrix_exponential() -> Result<(), String> {
    for m_name in ["rodas5p", "radau5"] {
        let mut m = load_with(
            "dc_motor.sit",
            "DcMotor",
            Some(method(m_name, 1e-11, 1e-13)),
        )?;
        let (r, l, k) = (get(&m, "ra.R"), get(&m, "la.L"), get(&m, "emf.k"));
        let (ratio, j, d) = (
            get(&m, "gear.ratio"),
            get(&m, "load.J"),
            get(&m, "bearing.d"),
        );
        let (kp, ki, w_ref) = (get(&m, "Kp"), get(&m, "Ki"), get(&m, "w_ref"));
        let a = [
            vec![-r / l, -(kp + k * ratio) / l, 0.0, ki / l, kp * w_ref / l],
            vec![ratio * k / j, -d / j, 0.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0, 0.0, 0.0],
            vec![0.0, -1.0, 0.0, 0.0, w_ref],
            vec![0.0; 5],
        ];
        let dt = 1e-3;
        let step = expm(
            &a.iter()
                .map(|r| r.iter().map(|x| x * dt).collect())
                .collect::<Vec<_>>(),
        );
        let mut x = [0.0, 0.0, 0.0, 0.0, 1.0];
        let names = ["la.i", "w", "load.phi", "z"];
        let scales = [10.0, w_ref, w_ref * 2.0, 1.0];
        for n in 0..2000 {
            m.step(dt);
            let next: Vec<f64> = (0..5)
                .map(|i| (0..5).map(|c| step[i][c] * x[c]).sum())
                .collect();
            x.copy_from_slice(&next);
            for (v, (name, scale)) in names.iter().zip(scales).enumerate() {
                let what = format!("{m_name} {name} at step {n}");
                close(&what, get(&m, name), x[v], scale, 1e-8);
            }
        }
        // The controller holds the speed: w → w_ref.
        close("settled", get(&m, "w"), w_ref, w_ref, 1e-4);
    }
    Ok(())
}

/// The heat path written by hand as ordered rules: the same physics (the room's and
/// the wall's heat balances as two integrals, the thermostat as two σ rules and the
/// heater's power as guarded rules), independent of the components and of the
/// flattening.
const HEAT_BY_HAND: &str = "model HeatByHand {
    param C_room = 5e5, C_wall = 2e6, G = 200, hA = 300, T_out = 273.15;
    param P = 3000, T_on = 292.15, T_off = 294.15;
    output real T_room = 288.15;
    real T_wall = 283.15;
    output flag heating = true;
    real power = 3000;
    power = P when heating;
    power = 0 otherwise;
    T_room = integral((power - G * (T_room - T_wall)) / C_room);
    T_wall = integral((G * (T_room - T_wall) - hA * (T_wall - T_out)) / C_wall);
    when T_room < T_on => heating;
    when T_room > T_off => !heating;
}
";

/// `heat_path.sit` against the same physics written by hand, under rodas5p and radau5
/// at rtol 1e-11: the room's temperature within 1e-8 relative and the thermostat's
/// switching at the same steps over 10 hours (several cycles).
#[test]
fn heat_path_matches_the_physics_by_hand() -> Result<(), String> {
    for m_name in ["rodas5p", "radau5"] {
        let meth = method(m_name, 1e-11, 1e-13);
        let mut parts = load_with("heat_path.sit", "HeatPath", Some(meth))?;
        let out = sit_middle::check_source("by_hand.sit", HEAT_BY_HAND);
        assert!(!out.has_errors(), "{}", out.render());
        let mut program = out.program.expect("a program");
        program.set_method(meth).expect("applies");
        let root = program.model("HeatByHand").expect("the model");
        let lowered =
            sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
        let mut hand = sit_interp::Instance::new(&lowered, root);
        let mut switches = 0;
        let mut was = true;
        for n in 0..3600 {
            parts.step(10.0);
            hand.step(10.0);
            let what = format!("{m_name} at step {n}");
            close(
                &what,
                get(&parts, "T_room"),
                get(&hand, "T_room"),
                293.0,
                1e-8,
            );
            close(
                &what,
                get(&parts, "wall.T"),
                get(&hand, "T_wall"),
                293.0,
                1e-8,
            );
            let heating = get(&hand, "heating") != 0.0;
            assert_eq!(get(&parts, "heater.heating") != 0.0, heating, "{what}");
            switches += usize::from(heating != was);
            was = heating;
        }
        assert!(switches >= 4, "{m_name}: only {switches} switches");
    }
    Ok(())
}
