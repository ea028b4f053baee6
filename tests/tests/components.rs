//! Components joined by `connect` (issue 46): each part of `examples/lib/` in a small
//! circuit against its closed-form solution, and the three examples built from parts
//! against independent references (the exact solution of the RLC circuit, the matrix
//! exponential of the DC motor's linear ODE, the heat path written by hand as rules).

use sit_runtime::Model;

/// An instance of the model `name` of `text`, read as if it were a file of
/// `examples/models` (so that `import "../lib/…";` finds the library).
fn instance(
    text: &str,
    name: &str,
    method: Option<sit_middle::ir::Method>,
) -> sit_interp::Instance {
    let path = sit_tests::repo_root().join("examples/models/components_test.sit");
    let out = sit_middle::check_source(&path, text);
    assert!(!out.has_errors(), "{}", out.render());
    let mut program = out.program.expect("a program");
    if let Some(m) = method {
        program.set_method(m).expect("the method applies");
    }
    let root = program.model(name).expect("the model");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

fn get(m: &dyn Model, name: &str) -> f64 {
    m.get(name)
        .unwrap_or_else(|| panic!("no variable named `{name}`"))
}

fn method(name: &str, rtol: f64, atol: f64) -> sit_middle::ir::Method {
    sit_middle::ir::Method::from_name(name)
        .expect("a method")
        .with_tolerance(Some(rtol), Some(atol))
}

/// `a` and `b` within `tol` of `scale`.
fn close(what: &str, a: f64, b: f64, scale: f64, tol: f64) {
    assert!(
        (a - b).abs() <= tol * scale,
        "{what}: {a} against {b} (error {:e} of {scale})",
        (a - b).abs() / scale
    );
}

/// Ohm's law and a divider: a source, two resistors in series, ground; and a current
/// source into a resistor. Algebraic: exact after one step, to a few ulps.
#[test]
fn resistors_sources_and_ground() {
    let text = "import \"../lib/electrical.sit\";\nmodel T {\n    \
                part src: VoltageSource(V = 12 [V]);\n    part r1: Resistor(R = 100 [Ohm]);\n    \
                part r2: Resistor(R = 200 [Ohm]);\n    part g: Ground;\n    \
                part cs: CurrentSource(I = 0.5 [A]);\n    part r3: Resistor(R = 4 [Ohm]);\n    \
                connect(src.p, r1.p);\n    connect(r1.n, r2.p);\n    connect(r2.n, src.n);\n    \
                connect(src.n, g.p);\n    connect(cs.p, g.p);\n    connect(cs.n, r3.p);\n    \
                connect(r3.n, g.p);\n}\n";
    let mut m = instance(text, "T", None);
    m.step(0.1);
    close("r1.i", get(&m, "r1.i"), 12.0 / 300.0, 0.04, 1e-15);
    close("r2.v", get(&m, "r2.v"), 8.0, 8.0, 1e-15);
    close("src.i", get(&m, "src.i"), -0.04, 0.04, 1e-15);
    // The current source drives 0.5 A from p through itself to n, then through r3
    // back: r3's voltage from p to n is 0.5 · 4.
    close("r3.v", get(&m, "r3.v"), 2.0, 2.0, 1e-15);
}

/// A capacitor charged by a constant current rises linearly, an inductor under a
/// constant voltage likewise: rk4 is exact on a line (to rounding).
#[test]
fn capacitor_and_inductor_integrate() {
    let text = "import \"../lib/electrical.sit\";\nmodel T {\n    \
                part cs: CurrentSource(I = 2e-3 [A]);\n    part c: Capacitor(C = 1e-3 [F], v0 = 1 [V]);\n    \
                part vs: VoltageSource(V = 3 [V]);\n    part l: Inductor(L = 0.5 [H]);\n    \
                part g: Ground;\n    connect(cs.p, g.p);\n    connect(cs.n, c.p);\n    \
                connect(c.n, g.p);\n    connect(vs.p, l.p);\n    connect(l.n, vs.n);\n    \
                connect(vs.n, g.p);\n    method rk4;\n}\n";
    let mut m = instance(text, "T", None);
    for _ in 0..1000 {
        m.step(1e-3);
    }
    close("c.v", get(&m, "c.v"), 1.0 + 2.0 * 1.0, 3.0, 1e-12);
    close("l.i", get(&m, "l.i"), 3.0 / 0.5 * 1.0, 6.0, 1e-12);
}

/// The diode conducts forward (the current of the source and the resistor, less the
/// drop across `Ron`) and blocks reverse (`Goff`), switching by its situation.
#[test]
fn diode_conducts_forward_and_blocks_reverse() {
    let text = "import \"../lib/electrical.sit\";\nmodel T {\n    \
                param U [V] = 5;\n    part src: SignalVoltage;\n    \
                part d: Diode(Ron = 1e-3 [Ohm], Goff = 1e-9 [S]);\n    \
                part r: Resistor(R = 10 [Ohm]);\n    part g: Ground;\n    \
                connect(src.p, d.p);\n    connect(d.n, r.p);\n    connect(r.n, src.n);\n    \
                connect(src.n, g.p);\n    equation src.u = U;\n}\n";
    let mut m = instance(text, "T", None);
    for _ in 0..3 {
        m.step(1e-3);
    }
    close("forward", get(&m, "r.i"), 5.0 / (10.0 + 1e-3), 0.5, 1e-12);
    assert_eq!(get(&m, "d.on"), 1.0, "conducting");
    m.set("U", -5.0).expect("a param");
    for _ in 0..3 {
        m.step(1e-3);
    }
    // Blocking: 5 V across 1e9 Ω (and the resistor's 10 Ω); the loop's solution mixes
    // conductances 1e8 apart, so it keeps about 1e-8 of the current (measured 4e-9).
    close("reverse", get(&m, "r.i"), -5.0 / (1e9 + 10.0), 5e-9, 1e-7);
    assert_eq!(get(&m, "d.on"), 0.0, "blocking");
}

/// Rotational parts: a torque on an inertia through a gear accelerates it uniformly
/// (the speed sensor reads it, the gear multiplies the torque); an inertia on a spring
/// to the housing swings at `sqrt(c/J)`; on a damper its speed decays as `exp(−d t/J)`.
#[test]
fn rotational_parts() {
    let text = "import \"../lib/rotational.sit\";\nmodel T {\n    \
                part src: TorqueSource;\n    part gear: IdealGear(ratio = 3);\n    \
                part j1: Inertia(J = 2 [kg*m^2]);\n    part sensor: SpeedSensor;\n    \
                connect(src.flange, gear.a);\n    connect(gear.b, j1.a);\n    \
                connect(j1.b, sensor.flange);\n    equation src.u = 0.5 [N*m];\n    \
                part j2: Inertia(J = 0.5 [kg*m^2], phi0 = 0.1 [rad]);\n    part k: Spring(c = 8 [N*m/rad]);\n    \
                part fix: Fixed;\n    connect(fix.flange, k.a);\n    connect(k.b, j2.a);\n    \
                part j3: Inertia(J = 4 [kg*m^2], w0 = 2 [rad/s]);\n    part d: Damper(d = 2 [N*m*s/rad]);\n    \
                connect(fix.flange, d.a);\n    connect(d.b, j3.b);\n    method rodas5p;\n}\n";
    let mut m = instance(text, "T", Some(method("rodas5p", 1e-11, 1e-13)));
    let dt = 1e-2;
    for _ in 0..100 {
        m.step(dt);
    }
    let t = m.time();
    // The load sees 3 · 0.5 N·m: w = 1.5 t / 2, phi = 1.5 t² / 4; the motor side 3 times.
    close("j1.w", get(&m, "j1.w"), 0.75 * t, 0.75, 1e-9);
    close("sensor.w", get(&m, "sensor.w"), 0.75 * t, 0.75, 1e-9);
    close("j1.phi", get(&m, "j1.phi"), 0.375 * t * t, 0.375, 1e-9);
    close("gear.a.w", get(&m, "src.flange.w"), 2.25 * t, 2.25, 1e-9);
    close(
        "j2.phi",
        get(&m, "j2.phi"),
        0.1 * (4.0 * t).cos(),
        0.1,
        1e-8,
    );
    close("j3.w", get(&m, "j3.w"), 2.0 * (-0.5 * t).exp(), 2.0, 1e-8);
}

/// Translational parts: a force on a mass, a mass on a spring and a damper to the
/// housing, and a mass bouncing off a stop (it comes back slower, the damper of the
/// contact having taken energy).
#[test]
fn translational_parts() {
    let text = "import \"../lib/translational.sit\";\nmodel T {\n    \
                part f: Force(F = 2 [N]);\n    part m1: Mass(m = 4 [kg]);\n    \
                connect(f.flange, m1.a);\n    part fix: FixedT;\n    \
                part k: SpringT(c = 9 [N/m]);\n    part m2: Mass(m = 1 [kg], s0 = 0.2 [m]);\n    \
                connect(fix.flange, k.a);\n    connect(k.b, m2.a);\n    \
                part d: DamperT(d = 3 [N*s/m]);\n    part m3: Mass(m = 1.5 [kg], v0 = 1 [m/s]);\n    \
                connect(fix.flange, d.a);\n    connect(d.b, m3.a);\n    method rodas5p;\n}\n";
    let mut m = instance(text, "T", Some(method("rodas5p", 1e-11, 1e-13)));
    for _ in 0..100 {
        m.step(1e-2);
    }
    let t = m.time();
    close("m1.s", get(&m, "m1.s"), 0.25 * t * t, 0.25, 1e-9);
    close("m2.s", get(&m, "m2.s"), 0.2 * (3.0 * t).cos(), 0.2, 1e-8);
    close("m3.v", get(&m, "m3.v"), (-2.0 * t).exp(), 1.0, 1e-8);
    let text = "import \"../lib/translational.sit\";\nmodel T {\n    \
                part wall: FixedT;\n    part stop: Stop(gap = 0.5 [m], c = 1e4 [N/m], d = 20 [N*s/m]);\n    \
                part ball: Mass(m = 1 [kg], s0 = 0.2 [m], v0 = 1 [m/s]);\n    \
                connect(wall.flange, stop.a);\n    connect(stop.b, ball.b);\n    method rk4;\n}\n";
    let mut m = instance(text, "T", None);
    let mut deepest: f64 = 0.0;
    for _ in 0..10_000 {
        m.step(1e-4);
        deepest = deepest.max(get(&m, "ball.s"));
    }
    let v = get(&m, "ball.v");
    assert!(
        deepest > 0.5 && deepest < 0.52,
        "the stop is at 0.5: {deepest}"
    );
    assert!(v < -0.3 && v > -1.0, "it bounced back slower: {v}");
}

/// Thermal parts: a heat capacity cooling through a conductor or by convection to a
/// fixed temperature, `T = Ta + (T0 − Ta) exp(−G t / C)`, and one heated by a fixed
/// heat flow, `T0 + Q t / C`.
#[test]
fn thermal_parts() {
    let text = "import \"../lib/thermal.sit\";\nmodel T {\n    \
                part a: HeatCapacitor(C = 100 [J/K], T0 = 350 [K]);\n    \
                part g: ThermalConductor(G = 20 [W/K]);\n    part amb: FixedTemperature(T = 300 [K]);\n    \
                connect(a.port, g.a);\n    connect(g.b, amb.port);\n    \
                part b: HeatCapacitor(C = 100 [J/K], T0 = 350 [K]);\n    \
                part cv: Convection(h = 5 [W/(m^2*K)], A = 2 [m^2]);\n    \
                connect(b.port, cv.solid);\n    connect(cv.fluid, amb.port);\n    \
                part c: HeatCapacitor(C = 10 [J/K], T0 = 300 [K]);\n    part q: FixedHeatFlow(Q = 5 [W]);\n    \
                connect(q.port, c.port);\n    method rodas5p;\n}\n";
    let mut m = instance(text, "T", Some(method("rodas5p", 1e-11, 1e-13)));
    for _ in 0..100 {
        m.step(0.05);
    }
    let t = m.time();
    close(
        "a.T",
        get(&m, "a.T"),
        300.0 + 50.0 * (-0.2 * t).exp(),
        50.0,
        1e-8,
    );
    close(
        "b.T",
        get(&m, "b.T"),
        300.0 + 50.0 * (-0.1 * t).exp(),
        50.0,
        1e-8,
    );
    close("c.T", get(&m, "c.T"), 300.0 + 0.5 * t, 0.5, 1e-9);
}

/// Nesting: a component holding parts and passing their ports outward (`Series` of
/// two resistors, its own ports `p` and `n` joined to the inner ones), used twice in
/// parallel: the flows through a component's own port count as leaving it, so the
/// source sees `V / (R_series ‖ R_series)`, each inner resistor half the voltage.
#[test]
fn components_nest() {
    let text = "import \"../lib/electrical.sit\";\n\
                model Series {\n    param R1 [Ohm] = 1;\n    param R2 [Ohm] = 1;\n    \
                port p: Pin;\n    port n: Pin;\n    part a: Resistor(R = R1);\n    \
                part b: Resistor(R = R2);\n    connect(p, a.p);\n    connect(a.n, b.p);\n    \
                connect(b.n, n);\n}\n\
                model T {\n    part src: VoltageSource(V = 6 [V]);\n    part g: Ground;\n    \
                part s1: Series(R1 = 1 [Ohm], R2 = 2 [Ohm]);\n    \
                part s2: Series(R1 = 3 [Ohm], R2 = 3 [Ohm]);\n    \
                connect(src.p, s1.p);\n    connect(src.p, s2.p);\n    connect(s1.n, g.p);\n    \
                connect(s2.n, g.p);\n    connect(src.n, g.p);\n}\n";
    let mut m = instance(text, "T", None);
    m.step(0.1);
    close("s1.a.i", get(&m, "s1.a.i"), 2.0, 2.0, 1e-15);
    close("s2.b.i", get(&m, "s2.b.i"), 1.0, 1.0, 1e-15);
    close("s1.b.v", get(&m, "s1.b.v"), 4.0, 4.0, 1e-15);
    close("src.i", get(&m, "src.i"), -3.0, 3.0, 1e-15);
    // The outer port's current is the inner resistor's: `s1.p.i` enters the part.
    close("s1.p.i", get(&m, "s1.p.i"), 2.0, 2.0, 1e-15);
}

#[path = "components/references.rs"]
mod references;

/// The schematic front end meets the components (issue 46, item 4): the drive axle drawn
/// in `examples/schematics/drive_axle.sch` and built from parts in
/// `examples/models/drive_axle_parts.sit` (`LossyGear`, `DifferentialSpring`) are the
/// same ODE (the four moment balances of the schematic's generated model), so under one
/// method they follow the same trajectories: both under `rodas5p` at rtol = atol = 1e-10,
/// every 0.1 s for 5 s, the speeds and the differential's elastic moment agree to 1e-7
/// relative (two integrations of one ODE, each to 1e-10 per step; a difference in the
/// physics, a gear's efficiency on the wrong side, is 3 % of the moment).
#[test]
fn the_drive_axle_of_parts_is_the_schematics() {
    let opts = sit_driver::Options {
        method: Some(method("rodas5p", 1e-10, 1e-10)),
        ..Default::default()
    };
    let load = |file: &str| {
        let path = sit_tests::repo_root().join(file);
        sit_host::load_file_options(&path, None, &opts)
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .0
            .instance
    };
    let mut drawn = load("examples/schematics/drive_axle.sch");
    let mut parts = load("examples/models/drive_axle_parts.sit");
    let pairs = [
        ("w_J1", "J1.w", 150.0),
        ("w_J2", "J2.w", 8.0),
        ("w_J3", "J3.w", 8.0),
        ("My_D1", "D1.My", 2500.0),
    ];
    for k in 1..=50 {
        drawn.step(0.1);
        parts.step(0.1);
        for (a, b, scale) in pairs {
            let what = format!("{a} at t = {}", f64::from(k) * 0.1);
            close(&what, get(&drawn, a), get(&parts, b), scale, 1e-7);
        }
    }
}

/// W0211: a circuit of the library's parts without a ground is warned at its first
/// connect, with the library's `Ground` as the fix; grounded, and in every example built
/// from parts (their inertias, fixed flanges and heat capacitors reference the other
/// domains), there is no warning.
#[test]
fn a_circuit_without_ground_is_warned() {
    let floating = "import \"../lib/electrical.sit\";\nmodel T {\n    \
                    part src: VoltageSource(V = 10 [V]);\n    part r: Resistor(R = 2 [Ohm]);\n    \
                    part c: Capacitor(C = 1.0e-3 [F]);\n    connect(src.p, r.p);\n    \
                    connect(r.n, c.p);\n    connect(c.n, src.n);\n}\n";
    let path = sit_tests::repo_root().join("examples/models/components_test.sit");
    let out = sit_middle::check_source(&path, floating);
    let w: Vec<_> = (out.diagnostics.iter())
        .filter(|d| d.code == "W0211")
        .collect();
    assert_eq!(w.len(), 1, "{}", out.render());
    assert_eq!(
        w[0].message,
        "the `Pin` ports of `src`, `r`, `c` have no reference: their potentials are determined only up to a constant"
    );
    assert_eq!(
        w[0].help.as_deref(),
        Some("connect the group to a reference: `part ref: Ground; connect(ref.p, src.p);`")
    );
    let grounded = floating.replace(
        "    connect(src.p, r.p);",
        "    part gnd: Ground;\n    connect(gnd.p, src.n);\n    connect(src.p, r.p);",
    );
    let out = sit_middle::check_source(&path, &grounded);
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    for stem in ["rlc_parts", "dc_motor", "heat_path", "drive_axle_parts"] {
        let path = sit_tests::repo_root().join(format!("examples/models/{stem}.sit"));
        let text = std::fs::read_to_string(&path).unwrap();
        let out = sit_middle::check_source(&path, &text);
        assert!(
            !out.diagnostics.iter().any(|d| d.code == "W0211"),
            "{stem}: {}",
            out.render()
        );
    }
}

/// A lookup table declared in a component goes with each part that instantiates it
/// (`r1.curve`, `r2.curve`), and the component's calls of it follow: two resistors whose
/// conductance a table gives, in series across 0.5 V, carry 0.25 A.
#[test]
fn a_components_table_goes_with_each_part() {
    let text = "import \"../lib/electrical.sit\";\n\
                model TableResistor {\n    \
                table curve(u [V]) [A] = [-1, 0, 1] -> [-2, 0, 2] clamp;\n    \
                port p: Pin;\n    port n: Pin;\n    real g [A/V] = 1;\n    \
                g = curve(0.5 [V]) / 1 [V];\n    \
                equation p.i = g * (p.v - n.v);\n    equation p.i + n.i = 0;\n}\n\
                model T {\n    part s: VoltageSource(V = 0.5 [V]);\n    \
                part r1: TableResistor;\n    part r2: TableResistor;\n    part gnd: Ground;\n    \
                connect(s.p, r1.p);\n    connect(r1.n, r2.p);\n    connect(r2.n, s.n);\n    \
                connect(gnd.p, s.n);\n}\n";
    let mut m = instance(text, "T", None);
    m.step(0.1);
    for name in ["r1.g", "r2.g"] {
        assert_eq!(get(&m, name), 1.0, "{name}");
    }
    close("r1.p.i", get(&m, "r1.p.i"), 0.25, 0.25, 1e-15);
}

/// A gear between two inertias (issue 46): the gear's `a.phi = ratio · b.phi` is a
/// constraint among the two inertias' states, which the equations reduce (the load's
/// angle and speed computed from the motor's, not integrated). The pair is one body of
/// inertia `J_eq = J_a + J_b / ratio²` seen from the motor (it turns `ratio` times as
/// far as the load): under a constant torque `T`, `phi_a = T t² / (2 J_eq)`, and the
/// load carries `J_b · acceleration_b` through the gear. The motion is a quadratic in
/// `t`, which `rk4`, `rodas5p` and `radau5` reproduce exactly (each is exact on
/// polynomials of degree 4): what is left is rounding over 100 steps, well within
/// 1e-12.
#[test]
fn a_gear_between_two_inertias_is_one_body() {
    let path = sit_tests::repo_root().join("examples/models/geared_inertias.sit");
    let text = std::fs::read_to_string(&path).unwrap();
    let (ja, jb, ratio, torque) = (0.5, 1.5, 3.0, 2.0);
    let j_eq = ja + jb / (ratio * ratio);
    for name in ["rodas5p", "radau5", "rk4"] {
        let mut m = instance(&text, "GearedInertias", Some(method(name, 1e-10, 1e-12)));
        for _ in 0..100 {
            m.step(1e-2);
            // Computed from the motor's angle through the gear, not integrated.
            assert_eq!(get(&m, "load.phi"), get(&m, "motor.phi") / ratio, "{name}");
        }
        let t = m.time();
        let acc = torque / j_eq;
        close(name, get(&m, "motor.phi"), acc * t * t / 2.0, 1.5, 1e-12);
        close(name, get(&m, "motor.w"), acc * t, 3.0, 1e-12);
        close(
            name,
            get(&m, "load.phi"),
            acc * t * t / 2.0 / ratio,
            0.5,
            1e-12,
        );
        close(name, get(&m, "load.w"), acc * t / ratio, 1.0, 1e-12);
        // The torque the gear delivers to the load accelerates it alone.
        close(name, get(&m, "load.a.tau"), jb * acc / ratio, 1.5, 1e-12);
        close(
            name,
            get(&m, "gear.a.tau"),
            jb * acc / ratio / ratio,
            0.5,
            1e-12,
        );
    }
}

/// A clutch between two inertias (issue 46), the first driven by `T(t) = k t (t2 − t)`
/// from rest: stuck, the pair turns as one body (`w = W(t) / (J_a + J_b)`, `W` the
/// integral of `T`) while the torque it passes to the second, `T J_b / (J_a + J_b)`,
/// is within `tau_max`; from `t1` (where it reaches `tau_max`, a root of a quadratic)
/// it slips, each inertia under its own torque (`J_a w_a' = T − tau_max`,
/// `J_b w_b' = tau_max`); when the speeds meet again (at `t3`, found by bisection on
/// the closed form) it sticks at the speed that keeps the momentum `J_a w_a + J_b
/// w_b = W(t)`, and stays stuck while the torque it needs is within the limit (until
/// 1.718 s). The speeds are polynomials of degree ≤ 3 between the switches, which
/// `rk4`, `rodas5p` and `radau5` reproduce exactly, and both switches are located
/// inside the step (measured errors about 1e-14): 1e-10 leaves room for the
/// location's resolution.
#[test]
fn a_clutch_sticks_slips_and_sticks_again() {
    let text = "import \"../lib/rotational.sit\";\nmodel T {\n    \
                param k [N*m/s^2] = 4;\n    param t2 [s] = 1.5;\n    \
                part src: TorqueSource;\n    part ja: Inertia(J = 1 [kg*m^2]);\n    \
                part c: Clutch(tau_max = 1 [N*m]);\n    part jb: Inertia(J = 2 [kg*m^2]);\n    \
                connect(src.flange, ja.a);\n    connect(ja.b, c.a);\n    connect(c.b, jb.a);\n    \
                equation src.u = k * time * (t2 - time);\n}\n";
    let (ja, jb, tau_max, k, t2) = (1.0f64, 2.0f64, 1.0f64, 4.0f64, 1.5f64);
    let big_w = |t: f64| k * (t2 * t * t / 2.0 - t * t * t / 3.0);
    // Unlocks where k t (t2 − t) J_b / (J_a + J_b) = tau_max, the first root.
    let c = tau_max * (ja + jb) / jb / k;
    let t1 = (t2 - (t2 * t2 - 4.0 * c).sqrt()) / 2.0;
    let w1 = big_w(t1) / (ja + jb);
    let slip_a = |t: f64| w1 + (big_w(t) - big_w(t1) - tau_max * (t - t1)) / ja;
    let slip_b = |t: f64| w1 + tau_max * (t - t1) / jb;
    let (mut lo, mut hi) = (1.2, 3.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if slip_a(mid) > slip_b(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t3 = lo;
    let w3 = slip_b(t3);
    let exact = |t: f64| -> (f64, f64, f64) {
        if t <= t1 {
            let w = big_w(t) / (ja + jb);
            (w, w, 0.0)
        } else if t < t3 {
            (slip_a(t), slip_b(t), 2.0)
        } else {
            let w = w3 + (big_w(t) - big_w(t3)) / (ja + jb);
            (w, w, 0.0)
        }
    };
    // The mode's states in order: stuck 0, forward 1, backward 2.
    for name in ["rk4", "rodas5p", "radau5"] {
        let mut m = instance(text, "T", Some(method(name, 1e-10, 1e-12)));
        for _ in 0..170 {
            m.step(1e-2);
            let t = m.time();
            let (wa, wb, state) = exact(t);
            close(
                &format!("{name} ja.w at {t}"),
                get(&m, "ja.w"),
                wa,
                1.0,
                1e-10,
            );
            close(
                &format!("{name} jb.w at {t}"),
                get(&m, "jb.w"),
                wb,
                1.0,
                1e-10,
            );
            // The momentum is the torque's impulse, in every situation.
            let p = ja * get(&m, "ja.w") + jb * get(&m, "jb.w");
            close(&format!("{name} momentum at {t}"), p, big_w(t), 1.0, 1e-10);
            if (t - t1).abs() > 1e-3 && (t - t3).abs() > 1e-3 {
                assert_eq!(get(&m, "c.state"), state, "{name} at {t}");
            }
        }
    }
}

/// Two inertias behind a clutch, the first driven by a constant torque `T0`, the
/// second starting at `wb0`.
fn clutch_pair(t0: f64, wb0: f64) -> String {
    format!(
        "import \"../lib/rotational.sit\";\nmodel P {{\n    param T0 [N*m] = {t0:?};\n    \
         part src: TorqueSource;\n    part ja: Inertia(J = 1 [kg*m^2]);\n    \
         part c: Clutch(tau_max = 1 [N*m]);\n    \
         part jb: Inertia(J = 2 [kg*m^2], w0 = {wb0:?} [rad/s]);\n    \
         connect(src.flange, ja.a);\n    connect(ja.b, c.a);\n    connect(c.b, jb.a);\n    \
         equation src.u = T0;\n}}\n"
    )
}

/// The clutch's start (issue 46). Equal speeds and a transmitted torque
/// `T0 J_b / (J_a + J_b)` = 0.8 N·m within `tau_max` = 1: stuck from the first step, the pair one
/// body, `w = T0 t / (J_a + J_b)`. Speeds 1 rad/s apart: slipping from the first
/// step, each inertia under its own torque (`J_a w_a' = T0 + tau_max`, `J_b w_b' =
/// −tau_max`) until they meet at `t = J_a J_b / (J_b (T0 + tau_max) + J_a tau_max)`
/// = 0.3704 s. The speeds are linear in `t`, which every method integrates exactly:
/// 1e-12 is rounding over 30 steps.
#[test]
fn a_clutch_starts_stuck_or_slipping_as_its_start_says() {
    let (ja, jb, tau_max, t0) = (1.0f64, 2.0f64, 1.0f64, 1.2f64);
    for name in ["rk4", "dopri5", "rodas5p", "radau5"] {
        let mut m = instance(&clutch_pair(t0, 0.0), "P", Some(method(name, 1e-10, 1e-12)));
        for _ in 0..30 {
            m.step(1e-2);
            let t = m.time();
            let w = t0 * t / (ja + jb);
            close(
                &format!("{name} stuck ja.w at {t}"),
                get(&m, "ja.w"),
                w,
                1.0,
                1e-12,
            );
            close(
                &format!("{name} stuck jb.w at {t}"),
                get(&m, "jb.w"),
                w,
                1.0,
                1e-12,
            );
            assert_eq!(get(&m, "c.state"), 0.0, "{name} stuck at {t}");
        }
        let mut m = instance(&clutch_pair(t0, 1.0), "P", Some(method(name, 1e-10, 1e-12)));
        for _ in 0..30 {
            m.step(1e-2);
            let t = m.time();
            let (wa, wb) = ((t0 + tau_max) * t / ja, 1.0 - tau_max * t / jb);
            close(
                &format!("{name} slipping ja.w at {t}"),
                get(&m, "ja.w"),
                wa,
                1.0,
                1e-12,
            );
            close(
                &format!("{name} slipping jb.w at {t}"),
                get(&m, "jb.w"),
                wb,
                1.0,
                1e-12,
            );
            assert_eq!(get(&m, "c.state"), 1.0, "{name} forward at {t}");
        }
    }
}

/// A torque that the stuck clutch cannot hold from the start (`T0` = 3 N·m needs 2 N·m
/// at the clutch): its transition's guard already holds at reset, so, as every guard
/// that holds at the start, it is seen at the end of the first step (nothing changes
/// inside that step to locate): the pair turns as one body for the first step (`w =
/// T0 dt / (J_a + J_b)`), and slips backward from there, `J_a w_a' = T0 − tau_max`,
/// `J_b w_b' = tau_max`. The documented sampled start, checked to rounding.
#[test]
fn a_clutch_held_past_its_limit_at_the_start_slips_after_the_first_step() {
    let (ja, jb, tau_max, t0, dt) = (1.0f64, 2.0f64, 1.0f64, 3.0f64, 1e-2f64);
    for name in ["rk4", "dopri5", "rodas5p", "radau5"] {
        let mut m = instance(&clutch_pair(t0, 0.0), "P", Some(method(name, 1e-10, 1e-12)));
        let w1 = t0 * dt / (ja + jb);
        for _ in 0..30 {
            m.step(dt);
            let t = m.time();
            let (wa, wb) = (
                w1 + (t0 - tau_max) * (t - dt) / ja,
                w1 + tau_max * (t - dt) / jb,
            );
            close(
                &format!("{name} ja.w at {t}"),
                get(&m, "ja.w"),
                wa,
                1.0,
                1e-12,
            );
            close(
                &format!("{name} jb.w at {t}"),
                get(&m, "jb.w"),
                wb,
                1.0,
                1e-12,
            );
            assert_eq!(get(&m, "c.state"), 2.0, "{name} backward at {t}");
        }
    }
}
