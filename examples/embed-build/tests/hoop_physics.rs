//! The generated hoop against physics: energy only ever decreases (up to the
//! integrator's known error), each bounce keeps the energy fraction k_release/k_press,
//! and the hoop comes to rest at the static deflection m·g/k below R.

use embed_build::hoop::Hoop;
use sit_runtime::Model;

/// Mechanical energy outside contact: kinetic plus gravitational (g·cm²/s²).
fn flight_energy(h: &Hoop) -> f64 {
    0.5 * h.m * h.Vy * h.Vy + h.m * h.g * h.h
}

const DT: f64 = 1e-4;

#[test]
fn energy_never_grows_and_bounces_lose_a_fixed_fraction() {
    let mut hoop = Hoop::new();
    let e0 = flight_energy(&hoop);
    // Fastest speed: falling from h0 to R.
    let v_max = (2.0 * hoop.g * (hoop.h - hoop.R)).sqrt();
    // Semi-implicit Euler in free fall loses exactly m·g²·dt²/2 per step, so flight
    // energy never grows there. Entering or leaving contact mid-step misplaces the
    // switch by at most |v|·dt: a gravitational error m·g·v·dt and a spring energy
    // error k·(v·dt)² per crossing. That is the tolerance.
    let tol = hoop.m * hoop.g * v_max * DT + hoop.k_press * (v_max * DT).powi(2);
    let mut flights: Vec<f64> = Vec::new(); // energy at the start of each flight
    let mut in_flight = true; // dropped from 400 cm: in flight from the start
    let mut last_flight = e0;
    for _ in 0..100_000 {
        hoop.step(DT);
        let flying = !hoop.contact();
        if flying {
            let e = flight_energy(&hoop);
            assert!(
                e <= last_flight + tol,
                "energy grew at t = {}: {e} > {last_flight} + {tol}",
                hoop.time()
            );
            if !in_flight {
                flights.push(e);
            }
            last_flight = e;
        }
        in_flight = flying;
    }
    assert!(flights.len() >= 3, "only {} bounces", flights.len());
    // The reaction stores ½·k_press·d² while compressing and returns ½·k_release·d²:
    // each bounce keeps k_release/k_press = 0.75 of the energy measured from the rest
    // height. Gravity acting over the ~3.6 cm deflection shifts this by about
    // m·g·d / E ≈ 1 %, so 0.75 ± 0.03.
    let ratio = hoop.k_release / hoop.k_press;
    let rest = hoop.m * hoop.g * hoop.R;
    let first = (flights[0] - rest) / (e0 - rest);
    assert!((first - ratio).abs() < 0.03, "first bounce keeps {first}");
}

#[test]
fn comes_to_rest_at_the_static_deflection() {
    let mut hoop = Hoop::new();
    for _ in 0..300_000 {
        hoop.step(DT);
    }
    // At rest the reaction balances the weight: R − h = m·g/k. The stiffness depends on
    // the direction of motion, so any deflection between m·g/k_press and m·g/k_release
    // is an equilibrium; 10 % margin for the residual vibration.
    let deflection = hoop.R - hoop.h;
    let lo = hoop.m * hoop.g / hoop.k_press;
    let hi = hoop.m * hoop.g / hoop.k_release;
    assert!(
        deflection > lo * 0.9 && deflection < hi * 1.1,
        "deflection {deflection} not in [{lo}, {hi}]"
    );
    // Residual speed: what is left is a vibration of amplitude below 10 % of the
    // static deflection at the natural frequency sqrt(k/m).
    let omega = (hoop.k_press / hoop.m).sqrt();
    assert!(
        hoop.Vy.abs() < 0.1 * hi * omega,
        "still moving: {}",
        hoop.Vy
    );
}

#[test]
fn model_trait_and_reset() {
    let mut hoop = Hoop::new();
    let model: &mut dyn Model = &mut hoop;
    assert_eq!(model.var_count(), Hoop::VARIABLES.len());
    assert_eq!(model.get("h"), Some(400.0));
    model.set("R", 25.0).unwrap();
    model.step(0.5);
    assert_eq!(model.time(), 0.5);
    let err = model.set("contact", 1.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`contact` is a pred: it is computed from other variables and cannot be set"
    );
    model.reset();
    assert_eq!(model.get("h"), Some(400.0));
    assert_eq!(model.get("R"), Some(25.0), "reset keeps params");
    assert_eq!(model.time(), 0.0);
    for (i, info) in Hoop::VARIABLES.iter().enumerate() {
        assert_eq!(model.var_index(info.name), Some(i));
        assert!(model.get_at(i).is_some());
    }
    assert_eq!(model.get_at(Hoop::VARIABLES.len()), None);
}
