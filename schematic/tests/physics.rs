//! Physics of the generated models, independent of the paper: the loaded axle's steady
//! state, its torsional natural frequency against the closed form, and the energy
//! balance that decides between the two torque forms. The models run in the interpreter.

use sit_runtime::Model;
use sit_schematic::{Form, analyse_file};
use std::path::PathBuf;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

/// The interpreter running the model generated from `rel` in `form`.
fn instance(rel: &str, form: Form) -> sit_interp::Instance {
    let (a, report) = analyse_file(repo(rel)).expect("readable");
    assert!(!report.has_errors(), "{}", report.render());
    let text = a.expect("checked").to_sit(Some(form)).text;
    let out = sit_middle::check_source("generated.sit", &text);
    assert!(!out.has_errors(), "{}\n{text}", out.render());
    let program = out.program.expect("program");
    let root = program.model("DriveAxle").expect("the model");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

fn get(m: &sit_interp::Instance, name: &str) -> f64 {
    m.get(name)
        .unwrap_or_else(|| panic!("no variable `{name}`"))
}

/// Parameter values of the drive axle (Table 1).
const J1: f64 = 8.108;
const J2: f64 = 6795.525;
const C1: f64 = 335358.0;
const U1: f64 = 2.05;
const U2: f64 = 9.4;
const ETA: f64 = 0.97;

#[test]
fn the_loaded_axle_settles_at_the_steady_state() {
    let mut m = instance("examples/schematics/drive_axle.sch", Form::PowerConsistent);
    let dt = 1e-3;
    for _ in 0..40_000 {
        m.step(dt);
    }
    // Equilibrium of each wheel: u2·η2·M = M_res; of the input shaft: M1 = 2M/(u1·η1).
    let m_res = 21923.0;
    let moment = m_res / (U2 * ETA);
    let m1 = 2.0 * moment / (U1 * ETA);
    // The engine law M1 = M_max·(1 − (w/w_max)²) gives the shaft speed.
    let w1 = 250.0 * (1.0 - m1 / 4000.0_f64).sqrt();
    let close = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1e-4 * want.abs(),
            "{what}: {got} vs {want}"
        );
    };
    close(
        get(&m, "My_D1") + get(&m, "Md_D1"),
        moment,
        "element moment",
    );
    close(get(&m, "M1"), m1, "engine moment");
    close(get(&m, "w_J1"), w1, "shaft speed");
    close(get(&m, "w_J2"), w1 / (U1 * U2), "left wheel speed");
    close(get(&m, "w_J3"), w1 / (U1 * U2), "right wheel speed");
    // The digest's arithmetic (§6.7): 2404.36 N·m and 2418.27 N·m.
    assert!((moment - 2404.36).abs() < 0.01 && (m1 - 2418.27).abs() < 0.01);
}

/// Free torsional vibration (no load, no damping) from a speed difference; the period
/// of the element moment from its zero crossings.
fn measured_frequency(form: Form) -> f64 {
    let mut m = instance("examples/schematics/drive_axle.sch", form);
    for (name, v) in [("mu_D1", 0.0), ("M_res", 0.0), ("pedal", 0.0)] {
        m.set(name, v).unwrap();
    }
    m.reset();
    // Speeds that twist the differential: the shaft 10 rad/s ahead of the wheels.
    m.set("w_J1", 160.0).unwrap();
    let dt = 1e-6;
    let mut prev = get(&m, "My_D1");
    let mut crossings = Vec::new();
    for k in 0..300_000 {
        m.step(dt);
        let now = get(&m, "My_D1");
        if prev < 0.0 && now >= 0.0 || prev > 0.0 && now <= 0.0 {
            crossings.push((k as f64 + prev / (prev - now)) * dt);
        }
        prev = now;
    }
    let n = crossings.len() - 1;
    let half_period = (crossings[n] - crossings[0]) / n as f64;
    std::f64::consts::PI / half_period
}

#[test]
fn torsional_frequency_matches_the_closed_form() {
    // Linearised symmetric mode: d²M/dt² = −c·K·M with, for the power-consistent form,
    // K = 2·2/(u1²η1J1) + 2u2²η2/J2 (the case's weight 2 in speed and in moment), and
    // with one weight only (as printed) K = 2/(u1²η1J1) + 2u2²η2/J2.
    let k_consistent = 4.0 / (U1 * U1 * ETA * J1) + 2.0 * U2 * U2 * ETA / J2;
    let k_printed = 2.0 / (U1 * U1 * ETA * J1) + 2.0 * U2 * U2 * ETA / J2;
    for (form, k) in [
        (Form::PowerConsistent, k_consistent),
        (Form::Printed, k_printed),
    ] {
        let want = (C1 * k).sqrt();
        let got = measured_frequency(form);
        assert!(
            (got - want).abs() < 1e-4 * want,
            "{form:?}: {got} rad/s vs {want} rad/s"
        );
    }
    // The digest's values: 221.5 and 169.6 rad/s.
    assert!(((C1 * k_consistent).sqrt() - 221.5).abs() < 0.1);
    assert!(((C1 * k_printed).sqrt() - 169.6).abs() < 0.1);
}

/// The largest relative change of kinetic + spring energy over a free vibration with
/// η = 1 and no damper.
fn energy_drift(form: Form) -> f64 {
    let mut m = instance("examples/schematics/drive_axle.sch", form);
    for (name, v) in [
        ("mu_D1", 0.0),
        ("M_res", 0.0),
        ("pedal", 0.0),
        ("eta_T1", 1.0),
        ("eta_T2", 1.0),
        ("eta_T3", 1.0),
    ] {
        m.set(name, v).unwrap();
    }
    m.reset();
    // From a twist only: the shaft at 10 rad/s, the wheels at rest.
    for (name, v) in [("w_J1", 10.0), ("w_J2", 0.0), ("w_J3", 0.0)] {
        m.set(name, v).unwrap();
    }
    let energy = |m: &sit_interp::Instance| {
        let w = |n| get(m, n);
        0.5 * J1 * w("w_J1").powi(2)
            + 0.5 * J2 * (w("w_J2").powi(2) + w("w_J3").powi(2))
            + 0.5 * w("My_D1").powi(2) / C1
    };
    let e0 = energy(&m);
    let mut worst: f64 = 0.0;
    for _ in 0..100_000 {
        m.step(1e-6);
        worst = worst.max((energy(&m) - e0).abs() / e0);
    }
    worst
}

#[test]
fn only_the_power_consistent_form_conserves_energy() {
    let consistent = energy_drift(Form::PowerConsistent);
    let printed = energy_drift(Form::Printed);
    // Semi-implicit Euler keeps the energy of a conservative system within O(ω·dt).
    assert!(consistent < 1e-3, "power-consistent: {consistent}");
    assert!(printed > 0.1, "printed: {printed}");
    eprintln!(
        "largest relative energy change: power-consistent {consistent:.2e}, printed {printed:.2e}"
    );
}

#[test]
fn the_drivetrain_splits_the_propeller_shaft_moment_equally_and_settles() {
    let (a, report) = analyse_file(repo("examples/schematics/drivetrain.sch")).expect("readable");
    assert!(!report.has_errors(), "{}", report.render());
    let text = a.expect("checked").to_sit(None).text;
    let program = sit_middle::check_source("drivetrain.sit", &text)
        .program
        .expect("checks");
    let mut m = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        program.model("Drivetrain").unwrap(),
    );
    for _ in 0..300_000 {
        m.step(1e-3);
    }
    let (ug, eg, uf, ef) = (3.5, 0.96, 4.1, 0.95);
    let (t_max, w_max, r0, k_air) = (400.0, 600.0, 800.0, 0.5);
    // Steady state: engine torque = damper moment; the gearbox shaft carries twice the
    // propeller shaft's moment through the gear (weight 2); each axle gets it all.
    let axle = |we: f64| {
        let wf: f64 = we / (ug * uf);
        2.0 * (r0 + k_air * wf * wf) / (uf * ef) / (ug * eg)
    };
    let engine = |we: f64| t_max * (1.0 - (we / w_max).powi(2));
    let (mut lo, mut hi) = (0.0, w_max);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if engine(mid) > axle(mid) {
            lo = mid
        } else {
            hi = mid
        }
    }
    let we = 0.5 * (lo + hi);
    let close = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1e-4 * want.abs(),
            "{what}: {got} vs {want}"
        );
    };
    close(get(&m, "w_Je"), we, "engine speed");
    close(get(&m, "w_Jf"), we / (ug * uf), "front axle");
    close(get(&m, "w_Jr"), we / (ug * uf), "rear axle");
    close(get(&m, "My_K1"), engine(we), "damper moment");
}

#[test]
fn the_clutch_locks_and_slips_when_the_hand_calculation_says() {
    let (a, report) = analyse_file(repo("examples/schematics/clutch.sch")).expect("readable");
    assert!(!report.has_errors(), "{}", report.render());
    let text = a.expect("checked").to_sit(None).text;
    let program = sit_middle::check_source("clutch.sit", &text)
        .program
        .expect("checks");
    let mut m = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        program.model("ClutchDrive").unwrap(),
    );
    let (je, jl, mf, t0, rate, tl, w0) = (0.5, 2.0, 150.0, 50.0, 40.0, 30.0, 100.0);
    // Slipping from the start: the engine decelerates under Te − Mf, the load
    // accelerates under Mf − Tl; the slip 100 − 260 t + 40 t² reaches zero at:
    let slip_rate = |t: f64| (t0 + rate * t - mf) / je - (mf - tl) / jl;
    let (a2, b1) = (rate / je / 2.0, slip_rate(0.0));
    let t_lock = (-b1 - (b1 * b1 - 4.0 * a2 * w0).sqrt()) / (2.0 * a2);
    let w_lock = (mf - tl) / jl * t_lock;
    // Stuck, the clutch passes (Te·Jl + Tl·Je)/(Je + Jl), which reaches Mf at:
    let t_slip = ((mf * (je + jl) - tl * je) / jl - t0) / rate;
    assert!((t_lock - 0.41054).abs() < 1e-4 && (t_slip - 3.25).abs() < 1e-12);
    let dt = 1e-4;
    let stuck = |m: &sit_interp::Instance| m.get("stuck_C") == Some(1.0);
    let (mut locked_at, mut slipped_at) = (None, None);
    let mut was = stuck(&m);
    for _ in 0..50_000 {
        m.step(dt);
        let now = stuck(&m);
        if now && !was && locked_at.is_none() {
            locked_at = Some((m.time(), get(&m, "w_Jl"), get(&m, "w_Je")));
        }
        if !now && was && slipped_at.is_none() {
            slipped_at = Some(m.time());
        }
        was = now;
    }
    let (t, wl, we) = locked_at.expect("the clutch locks");
    assert!(
        (t - t_lock).abs() <= 2.0 * dt,
        "locked at {t} s, hand calculation {t_lock} s"
    );
    assert_eq!(wl, we, "locked speeds are equal");
    assert!(
        (wl - w_lock).abs() < 1e-2,
        "speed at lock {wl}, hand calculation {w_lock}"
    );
    let t = slipped_at.expect("the clutch slips again");
    assert!(
        (t - t_slip).abs() <= 2.0 * dt,
        "slipped at {t} s, hand calculation {t_slip} s"
    );
    assert!(
        get(&m, "w_Je") > get(&m, "w_Jl"),
        "the engine runs ahead once slipping"
    );
}
