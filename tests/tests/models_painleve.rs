//! The Painlevé rod's fast-motion system (`examples/models/painleve/`) against an
//! independent solution of the equations of the design note `painleve.md`, and the
//! paper's qualitative facts.
//!
//! The reference below is written from the note's equations, not from the model's
//! rules: the full 5×3 matrix Q, Coulomb friction as a set-valued law (sliding while
//! v_t ≠ 0, the equivalent control once v_t reaches zero), fourth-order Runge–Kutta in
//! fast time with the stick instant and the end of contact located by bisection on the
//! step. The models are semi-implicit Euler with the events taken at step ends, so
//! their error is of first order in the step.

use sit_runtime::Model;
use sit_tests::models::{get, load, set};

/// The paper's experiment: θ = π/3, ψ = 0, δ = 0.25, l = 1.
const THETA: f64 = std::f64::consts::FRAC_PI_3;
const PSI: f64 = 0.0;
const DELTA: f64 = 0.25;
const L: f64 = 1.0;
/// Pre-impact [v1, v2, v3, ψ̇, θ̇].
const V0: [f64; 5] = [0.05, -0.05, -0.04, 4.0, 4.0];

/// Q(ψ, θ) of the note, row by row.
fn q_matrix(psi: f64, theta: f64, l: f64) -> [[f64; 3]; 5] {
    let (sp, cp) = psi.sin_cos();
    let (st, ct) = theta.sin_cos();
    [
        [
            1.0 + 3.0 * cp * cp + 3.0 * sp * sp * st * st,
            3.0 * sp * cp * ct * ct,
            3.0 * sp * st * ct,
        ],
        [
            3.0 * sp * cp * ct * ct,
            1.0 + 3.0 * sp * sp + 3.0 * cp * cp * st * st,
            -3.0 * cp * st * ct,
        ],
        [3.0 * sp * st * ct, -3.0 * cp * st * ct, 1.0 + 3.0 * ct * ct],
        [3.0 * cp / (l * ct), 3.0 * sp / (l * ct), 0.0],
        [-(3.0 / l) * sp * st, (3.0 / l) * cp * st, -(3.0 / l) * ct],
    ]
}

/// The fast-motion state: y3, then [v1, v2, v3, ψ̇, θ̇].
type X = [f64; 6];

/// What the reference solution gives.
#[derive(Debug, Clone, Copy)]
struct Solution {
    /// End of contact, S*.
    end: f64,
    /// The stick instant, if the end sticks.
    stick: Option<f64>,
    /// Post-impact [v1, v2, v3, ψ̇, θ̇].
    v: [f64; 5],
}

struct Reference {
    q: [[f64; 3]; 5],
    k: f64,
}

impl Reference {
    fn normal(&self, x: &X) -> f64 {
        -(x[0] + 2.0 * DELTA * x[3])
    }

    /// The friction: sliding against v_t, or the equivalent control (rows 1 and 2 of
    /// Q·F = 0 solved for F1, F2).
    fn friction(&self, x: &X, stuck: bool) -> [f64; 2] {
        let n = self.normal(x);
        let q = &self.q;
        if stuck {
            let det = q[0][0] * q[1][1] - q[0][1] * q[1][0];
            let b = [-q[0][2] * n, -q[1][2] * n];
            [
                (b[0] * q[1][1] - q[0][1] * b[1]) / det,
                (q[0][0] * b[1] - q[1][0] * b[0]) / det,
            ]
        } else {
            let vt = x[1].hypot(x[2]);
            [-self.k * n * x[1] / vt, -self.k * n * x[2] / vt]
        }
    }

    fn rate(&self, x: &X, stuck: bool) -> X {
        let n = self.normal(x);
        let f = self.friction(x, stuck);
        let mut d = [x[3], 0.0, 0.0, 0.0, 0.0, 0.0];
        for (i, row) in self.q.iter().enumerate() {
            d[i + 1] = row[0] * f[0] + row[1] * f[1] + row[2] * n;
        }
        if stuck {
            d[1] = 0.0;
            d[2] = 0.0;
        }
        d
    }

    /// A Runge–Kutta step of `h`, and whether v_t kept its direction at every stage
    /// (sliding friction is only defined on one side of v_t = 0).
    fn rk4(&self, x: &X, h: f64, stuck: bool) -> (X, bool) {
        let add = |a: &X, b: &X, s: f64| -> X { std::array::from_fn(|i| a[i] + s * b[i]) };
        let ahead = |y: &X| stuck || x[1] * y[1] + x[2] * y[2] > 0.0;
        let k1 = self.rate(x, stuck);
        let x2 = add(x, &k1, h / 2.0);
        let k2 = self.rate(&x2, stuck);
        let x3 = add(x, &k2, h / 2.0);
        let k3 = self.rate(&x3, stuck);
        let x4 = add(x, &k3, h);
        let k4 = self.rate(&x4, stuck);
        let y =
            std::array::from_fn(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
        (y, ahead(&x2) && ahead(&x3) && ahead(&x4) && ahead(&y))
    }

    /// Whether a step of `h` from `x` stays in the current phase: in contact, and
    /// (sliding) with v_t still pointing the way it did.
    fn stays(&self, x: &X, h: f64, stuck: bool) -> bool {
        let (y, ahead) = self.rk4(x, h, stuck);
        self.normal(&y) > 0.0 && ahead
    }

    fn solve(k: f64, h: f64) -> Solution {
        Reference::solve_at(k, PSI, THETA, V0, h)
    }

    /// The contact at the angles `psi`, `theta` from the pre-impact velocities `v0`.
    fn solve_at(k: f64, psi: f64, theta: f64, v0: [f64; 5], h: f64) -> Solution {
        let r = Reference {
            q: q_matrix(psi, theta, L),
            k,
        };
        let mut x: X = [0.0, v0[0], v0[1], v0[2], v0[3], v0[4]];
        let (mut s, mut stuck, mut stick) = (0.0, false, None);
        loop {
            if r.stays(&x, h, stuck) {
                x = r.rk4(&x, h, stuck).0;
                s += h;
                continue;
            }
            // Locate the event inside this step by bisection on the step length.
            let (mut lo, mut hi) = (0.0, h);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if r.stays(&x, mid, stuck) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            s += hi;
            let past = r.rk4(&x, hi, stuck).0;
            if r.normal(&past) <= 0.0 {
                x = past;
                break;
            }
            let y = r.rk4(&x, lo, stuck).0;
            // v_t reached zero: stick (the friction needed stays within k·N for the
            // frozen angles of the experiment: checked by the tests).
            x = [y[0], 0.0, 0.0, y[3], y[4], y[5]];
            stuck = true;
            stick = Some(s);
        }
        Solution {
            end: s,
            stick,
            v: [x[1], x[2], x[3], x[4], x[5]],
        }
    }
}

/// One step-by-step run of a fast-motion model, with what the tests look at.
struct Run {
    solution: Solution,
    /// (s, θ̇, stuck, N, F1, F2) after every step in contact, and the initial row.
    rows: Vec<(f64, f64, bool, f64, f64, f64)>,
}

fn run_model(file: &str, name: &str, k: f64, ds: f64) -> Result<Run, String> {
    let mut m = load(file, name)?;
    set(&mut m, "k", k)?;
    m.reset();
    let has_stuck = m.get("stuck").is_some();
    let row = |m: &dyn Model| -> Result<_, String> {
        let stuck = has_stuck && get(m, "stuck")? != 0.0;
        Ok((
            get(m, "S")?,
            get(m, "theta_dot")?,
            stuck,
            get(m, "N")?,
            get(m, "F1")?,
            get(m, "F2")?,
        ))
    };
    let mut rows = vec![row(&m)?];
    let mut stick = None;
    let limit = (10.0 / ds) as usize;
    for _ in 0..limit {
        m.step(ds);
        let r = row(&m)?;
        if r.2 && stick.is_none() {
            stick = Some(r.0);
        }
        rows.push(r);
        if get(&m, "contact")? == 0.0 {
            let v = ["v1", "v2", "v3", "psi_dot", "theta_dot"].map(|n| get(&m, n));
            let mut out = [0.0; 5];
            for (o, v) in out.iter_mut().zip(v) {
                *o = v?;
            }
            return Ok(Run {
                solution: Solution {
                    end: get(&m, "S")?,
                    stick,
                    v: out,
                },
                rows,
            });
        }
    }
    Err(format!("{name}: contact did not end within s = 10"))
}

/// The largest difference: contact time, stick instant, post-impact velocities.
fn error(a: &Solution, b: &Solution) -> f64 {
    let stick = match (a.stick, b.stick) {
        (Some(x), Some(y)) => (x - y).abs(),
        (None, None) => 0.0,
        _ => f64::INFINITY,
    };
    let v = a.v.iter().zip(&b.v).map(|(x, y)| (x - y).abs());
    v.fold((a.end - b.end).abs().max(stick), f64::max)
}

#[test]
fn fast_motion_converges_to_the_independent_solution() -> Result<(), String> {
    for k in [0.5, 1.7] {
        let exact = Reference::solve(k, 1e-4);
        // The reference itself: halving its step changes it by less than 1e-7 (the
        // approach to the stick is singular, so not by the 1/16 of RK4).
        let finer = Reference::solve(k, 5e-5);
        assert!(
            error(&exact, &finer) < 1e-7,
            "k = {k}: {exact:?} vs {finer:?}"
        );
        let mut errors = Vec::new();
        for ds in [1e-3, 1e-4, 1e-5] {
            let run = run_model("painleve/fast_motion.sit", "FastMotion", k, ds)?;
            errors.push(error(&run.solution, &exact));
        }
        eprintln!("k = {k}: {exact:?}, errors {errors:?}");
        // First order: each tenth of the step takes off most of the error, and the
        // finest run agrees to a few steps' worth (contact time and stick instant are
        // taken at step ends, so they are late by up to one step).
        assert!(
            errors[1] < 0.3 * errors[0] && errors[2] < 0.3 * errors[1],
            "k = {k}: errors {errors:?} do not shrink with the step"
        );
        assert!(
            errors[2] < 5e-5,
            "k = {k}: error {} at ds = 1e-5",
            errors[2]
        );
    }
    Ok(())
}

#[test]
fn small_friction_slides_through_the_whole_contact() -> Result<(), String> {
    let exact = Reference::solve(0.5, 1e-4);
    assert_eq!(exact.stick, None, "k = 0.5 sticks in the reference");
    let run = run_model("painleve/fast_motion.sit", "FastMotion", 0.5, 1e-4)?;
    assert!(run.rows.iter().all(|r| !r.2), "the end sticks at k = 0.5");
    // θ̇ falls monotonically, a little below its pre-impact 4.
    for w in run.rows.windows(2) {
        assert!(w[1].1 <= w[0].1, "θ̇ rises at s = {}", w[1].0);
    }
    let last = run.solution.v[4];
    assert!(3.9 < last && last < 4.0, "θ̇ after impact {last}");
    Ok(())
}

#[test]
fn large_friction_sticks_within_the_cone() -> Result<(), String> {
    let k = 1.7;
    let exact = Reference::solve(k, 1e-4);
    let stick = exact
        .stick
        .ok_or("k = 1.7 does not stick in the reference")?;
    assert!(0.0 < stick && stick < exact.end);
    let run = run_model("painleve/fast_motion.sit", "FastMotion", k, 1e-4)?;
    let at = run.solution.stick.ok_or("the model does not stick")?;
    assert!(
        (at - stick).abs() < 3e-4,
        "stick at {at}, reference {stick}"
    );
    // θ̇'s acceleration changes sign at the stick instant: it rises while the end
    // slides, falls while it sticks.
    let i = run.rows.iter().position(|r| r.2).ok_or("never stuck")?;
    for w in run.rows[..i].windows(2) {
        assert!(w[1].1 > w[0].1, "θ̇ falls while sliding at s = {}", w[1].0);
    }
    for w in run.rows[i + 1..].windows(2) {
        assert!(w[1].1 < w[0].1, "θ̇ rises while stuck at s = {}", w[1].0);
    }
    // While stuck the friction stays within k·N, at a constant ratio to N (the
    // friction impulse grows with a constant slope relative to the normal one). A
    // row's friction was computed from the reaction of the row before it, and the
    // row of the stick instant shows the friction of its sliding step.
    let pairs: Vec<_> = run.rows[i..]
        .windows(2)
        .filter(|w| w[1].2 && w[1].3 > 0.0)
        .map(|w| (w[1].0, w[0].3, w[1].4.hypot(w[1].5)))
        .collect();
    assert!(pairs.len() > 1000);
    let ratio = pairs[0].2 / pairs[0].1;
    for &(s, n, f) in &pairs {
        assert!(f <= k * n, "friction {f} above k·N at s = {s}");
        assert!((f / n - ratio).abs() < 1e-9, "ratio {} at s = {s}", f / n);
    }
    Ok(())
}

#[test]
fn no_paradox_above_the_friction_thresholds() -> Result<(), String> {
    let k = 1.7;
    // Above the planar threshold (1 + 3cos²θ)/(3 sinθ cosθ), 4/3 and 8/(3√3).
    let (st, ct) = THETA.sin_cos();
    let planar = (1.0 + 3.0 * ct * ct) / (3.0 * st * ct);
    assert!(k > planar && k > 4.0 / 3.0 && k > 8.0 / (3.0 * 3f64.sqrt()));
    let runs = [1e-3, 1e-4, 1e-5]
        .map(|ds| run_model("painleve/fast_motion.sit", "FastMotion", k, ds).map(|r| r.solution));
    let [a, b, c] = runs;
    let (a, b, c) = (a?, b?, c?);
    for s in [&a, &b, &c] {
        assert!(s.v.iter().all(|v| v.is_finite()) && s.end.is_finite());
        // The rod leaves the plane: the end moves up after the impact.
        assert!(s.v[2] > 0.0, "v3 after impact {}", s.v[2]);
    }
    // Unique and stable: the successive differences shrink tenfold.
    assert!(error(&b, &c) < 0.2 * error(&a, &b), "{a:?} {b:?} {c:?}");
    Ok(())
}

#[test]
fn relay_friction_chatters_but_stays_bounded() -> Result<(), String> {
    let k = 1.7;
    let ds = 1e-4;
    let relay = run_model("painleve/fast_motion_relay.sit", "FastMotionRelay", k, ds)?;
    let exact = Reference::solve(k, 1e-4);
    let stick = exact.stick.ok_or("no stick in the reference")?;
    // After the stick instant the friction flips direction from step to step.
    let after: Vec<_> = relay
        .rows
        .iter()
        .filter(|r| r.0 > stick + 0.01 && r.3 > 0.0)
        .collect();
    let flips = after.windows(2).filter(|w| w[0].4 * w[1].4 < 0.0).count();
    assert!(
        flips > after.len() / 2,
        "{flips} flips in {} steps",
        after.len()
    );
    // Bounded: the post-impact state is that of the sticking model to within a few
    // steps' worth of velocity change (|Q|·k·N·ds with N < 0.05, |Q| < 7).
    let bound = 20.0 * 7.0 * k * 0.05 * ds;
    let without_stick = Solution {
        stick: exact.stick,
        ..relay.solution
    };
    let d = error(&without_stick, &exact);
    assert!(d < bound, "relay differs by {d} (bound {bound})");
    Ok(())
}

/// The compliant rod started with its end on the plane and the paper's pre-impact
/// velocities, run through one contact by a host stepping 1e-4 s, the model dividing
/// its steps in contact into sub-steps resolving it (at most 1/10 000 of S*/√μ): the
/// values read after the host step in which the contact ends (the end's velocities
/// and rates, the contact's duration in real time) and the rod's energy (kinetic and
/// potential) before and after.
fn compliant_impact(k: f64, mu: f64) -> Result<([f64; 5], f64, f64, f64), String> {
    let mut m = load("painleve/rod_compliant.sit", "RodCompliant")?;
    let (st, ct) = THETA.sin_cos();
    // The centre's velocity that gives the end the pre-impact velocity:
    // v_c = v_end − l·du/dt at ψ = 0.
    let du = [ct * V0[3], st * V0[4], -ct * V0[4]];
    for (name, value) in [
        ("k", k),
        ("mu", mu),
        ("per_contact", 10_000.0),
        ("delta", DELTA),
        ("l", L),
        ("theta0", THETA),
        ("psi0", PSI),
        ("h0", L * st),
        ("vc1_0", V0[0] - L * du[0]),
        ("vc2_0", V0[1] - L * du[1]),
        ("vc3_0", V0[2] - L * du[2]),
        ("psi_dot0", V0[3]),
        ("theta_dot0", V0[4]),
    ] {
        set(&mut m, name, value)?;
    }
    m.reset();
    let energy = |m: &dyn Model| -> Result<f64, String> {
        let v: Vec<f64> = ["vc1", "vc2", "vc3", "psi_dot", "theta_dot", "theta", "xc3"]
            .iter()
            .map(|n| get(m, n))
            .collect::<Result<_, _>>()?;
        let rot = v[4] * v[4] + v[3] * v[3] * v[5].cos().powi(2);
        Ok(0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * L * L / 3.0 * rot + 9.81 * v[6])
    };
    let before = energy(&m)?;
    let dt = 1e-4;
    let mut began = false;
    for _ in 0..10_000 {
        m.step(dt);
        let contact = get(&m, "contact")? != 0.0;
        began |= contact;
        if began && !contact {
            let v = ["ve1", "ve2", "ve3", "psi_dot", "theta_dot"].map(|n| get(&m, n));
            let mut out = [0.0; 5];
            for (o, v) in out.iter_mut().zip(v) {
                *o = v?;
            }
            return Ok((out, get(&m, "T")?, before, energy(&m)?));
        }
    }
    Err(format!("mu = {mu}: the contact did not end"))
}

#[test]
fn compliant_rod_converges_to_the_fast_system_as_the_stiffness_grows() -> Result<(), String> {
    for k in [0.5, 1.7] {
        let fast = Reference::solve(k, 1e-4);
        let mut errors = Vec::new();
        let mut scaled = Vec::new();
        for mu in [1e4, 1e6, 1e8] {
            let (v, t, before, after) = compliant_impact(k, mu)?;
            let err = v
                .iter()
                .zip(&fast.v)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            // Energy never grows through an impact.
            assert!(
                after <= before,
                "k = {k}, mu = {mu}: energy {before} → {after}"
            );
            eprintln!(
                "k = {k}, mu = {mu:e}: √μ·T = {}, error {err:e}",
                t * mu.sqrt()
            );
            errors.push(err);
            scaled.push(t * mu.sqrt());
        }
        // The paper's velocities are small (0.04 m/s into the plane) next to what the
        // rod's rotation and gravity change over the contact (the end's free
        // acceleration is about 4 m/s² upwards), so at μ = 1e4 the end is lifted off
        // early; the difference from the fast system falls like 1/√μ once the contact
        // is short enough. Measured (host step 1e-4 s, sub-steps of S*/√μ/10 000):
        // errors 0.39, 0.12, 0.017 and √μ·T = 0.58, 2.05, 2.47 (S* = 2.52) for k = 0.5.
        assert!(
            errors[1] < errors[0] && errors[2] < 0.2 * errors[1] && errors[2] < 0.03,
            "k = {k}: errors {errors:?}"
        );
        assert!(
            scaled[0] < scaled[1]
                && scaled[1] < scaled[2]
                && (scaled[2] / fast.end - 1.0).abs() < 0.05,
            "k = {k}: √μ·T = {scaled:?}, S* = {}",
            fast.end
        );
    }
    Ok(())
}

/// The times at which `counter` increases, over `t_end` with step `dt`.
fn increments(
    file: &str,
    name: &str,
    counter: &str,
    sets: &[(&str, f64)],
    dt: f64,
    t_end: f64,
) -> Result<Vec<f64>, String> {
    let mut m = load(file, name)?;
    for (n, v) in sets {
        set(&mut m, n, *v)?;
    }
    m.reset();
    let mut last = get(&m, counter)?;
    let mut out = Vec::new();
    for _ in 0..(t_end / dt).round() as usize {
        let t = m.time();
        m.step(dt);
        let now = get(&m, counter)?;
        if now > last {
            out.push(t);
        }
        last = now;
    }
    Ok(out)
}

#[test]
fn impact_rod_and_stiff_compliant_rod_bounce_alike() -> Result<(), String> {
    // The rod with impacts solved in fast time, and the compliant rod at μ = 1e8
    // (contacts of about 0.25 ms) with the host's step of 1e-4 s divided into
    // sub-steps only around contacts: the same three bounces, at the same times to
    // within 5 ms (the compliant rebounds differ from the fast system's by O(1/√μ),
    // and a bounce is seen at the host step in which it begins).
    let rigid = increments("painleve/rod.sit", "Rod", "bounces", &[], 1e-4, 1.3)?;
    let compliant = increments(
        "painleve/rod_compliant.sit",
        "RodCompliant",
        "contacts",
        &[("mu", 1e8)],
        1e-4,
        1.3,
    )?;
    eprintln!("rigid {rigid:?}, compliant {compliant:?}");
    assert!(
        rigid.len() >= 3 && compliant.len() >= 3,
        "{rigid:?} {compliant:?}"
    );
    for (a, b) in rigid.iter().zip(&compliant).take(3) {
        assert!(
            (a - b).abs() < 0.005,
            "bounces at {rigid:?} and {compliant:?}"
        );
    }
    Ok(())
}

#[test]
fn sub_steps_in_contact_bounce_as_the_small_step_everywhere() -> Result<(), String> {
    // The benchmark's two runs (`bench/benches/painleve.rs`): the compliant rod at
    // μ = 1e8 with steps of 2.5e-6 s in contact, taken everywhere or as 40 sub-steps of
    // a host step of 1e-4 s near and in contact. Same bounces: each seen within one host
    // step of the other (measured: within 0.1 ms), and the same count.
    let sets = [("mu", 1e8), ("per_contact", 100.0)];
    let file = "painleve/rod_compliant.sit";
    let everywhere = increments(file, "RodCompliant", "contacts", &sets, 2.5e-6, 1.3)?;
    let divided = increments(file, "RodCompliant", "contacts", &sets, 1e-4, 1.3)?;
    eprintln!("everywhere {everywhere:?}, divided {divided:?}");
    assert!(
        everywhere.len() >= 3 && everywhere.len() == divided.len(),
        "{everywhere:?} {divided:?}"
    );
    for (a, b) in everywhere.iter().zip(&divided) {
        assert!(
            (a - b).abs() < 0.015,
            "bounces at {everywhere:?} and {divided:?}"
        );
    }
    Ok(())
}

/// The rod of `rod.sit` with the defaults, from the note's equations: free flight by
/// fourth-order Runge–Kutta with the touch (x3 = 0, moving down) located by bisection
/// on the step, each impact by the fast system ([`Reference::solve_at`]), and the rod
/// landed at the first rebound slower than 0.5 m/s. Returns each bounce's time and
/// contact duration in fast time.
fn reference_rod(h: f64) -> Vec<(f64, f64)> {
    const G: f64 = 9.81;
    // [xc3, vc3, ψ, θ, ψ̇, θ̇] (the horizontal motion does not enter the contact).
    type F = [f64; 6];
    let rate = |x: &F| -> F {
        let (st, ct) = x[3].sin_cos();
        [
            x[1],
            -G,
            x[4],
            x[5],
            2.0 * x[4] * x[5] * st / ct,
            -x[4] * x[4] * st * ct,
        ]
    };
    let rk4 = |x: &F, h: f64| -> F {
        let add = |a: &F, b: &F, s: f64| -> F { std::array::from_fn(|i| a[i] + s * b[i]) };
        let k1 = rate(x);
        let k2 = rate(&add(x, &k1, h / 2.0));
        let k3 = rate(&add(x, &k2, h / 2.0));
        let k4 = rate(&add(x, &k3, h));
        std::array::from_fn(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
    };
    let end_height = |x: &F| x[0] - L * x[3].sin();
    let below = |x: &F| end_height(x) < 0.0 && x[1] - L * x[3].cos() * x[5] < 0.0;
    let (theta0, psi_dot0, vx0) = (1.4, 0.3, 0.1);
    // The horizontal velocity of the centre, constant in flight.
    let (mut vc1, mut vc2) = (vx0, 0.0);
    let mut x: F = [2.0, 0.0, 0.0, theta0, psi_dot0, 0.0];
    let mut t = 0.0;
    let mut bounces = Vec::new();
    while t < 3.0 {
        if !below(&rk4(&x, h)) {
            x = rk4(&x, h);
            t += h;
            continue;
        }
        let (mut lo, mut hi) = (0.0, h);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if below(&rk4(&x, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        x = rk4(&x, hi);
        t += hi;
        // The end's velocity: the centre's plus l·du/dt.
        let (sp, cp) = x[2].sin_cos();
        let (st, ct) = x[3].sin_cos();
        let du = |pd: f64, td: f64| {
            [
                cp * ct * pd - sp * st * td,
                sp * ct * pd + cp * st * td,
                -ct * td,
            ]
        };
        let d = du(x[4], x[5]);
        let v0 = [vc1 + L * d[0], vc2 + L * d[1], x[1] + L * d[2], x[4], x[5]];
        let after = Reference::solve_at(0.5, x[2], x[3], v0, h);
        bounces.push((t, after.end));
        if after.v[2] < 0.5 {
            break;
        }
        let d = du(after.v[3], after.v[4]);
        vc1 = after.v[0] - L * d[0];
        vc2 = after.v[1] - L * d[1];
        x[1] = after.v[2] - L * d[2];
        x[4] = after.v[3];
        x[5] = after.v[4];
    }
    bounces
}

/// The numbers after `marker` in `text`, up to the first `)` or `.` that ends a
/// sentence: `0.45487, 0.94738, 1.27145`.
fn numbers_after(text: &str, marker: &str) -> Vec<f64> {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` is in the header"));
    let rest = text[at + marker.len()..].replace("///", " ");
    let end = rest.find(['(', ')', ';']).unwrap_or(rest.len());
    (rest[..end].split([',', ' ', '\n']))
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .collect()
}

fn header(file: &str) -> String {
    let path = sit_tests::repo_root().join("examples/models").join(file);
    std::fs::read_to_string(path).expect("the model is readable")
}

#[test]
fn the_rods_header_gives_its_converged_bounces_and_those_of_its_run_line() -> Result<(), String> {
    // The reference with steps of 1e-4 and 5e-5 agrees to 1e-6 s.
    let rod = reference_rod(1e-4);
    let finer = reference_rod(5e-5);
    eprintln!("reference {rod:?}");
    assert_eq!(rod.len(), 3, "three bounces, then landed: {rod:?}");
    for (a, b) in rod.iter().zip(&finer) {
        assert!(
            (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-5,
            "{rod:?} {finer:?}"
        );
    }
    let text = header("painleve/rod.sit");
    let converged = numbers_after(&text, "as the step goes to zero, at t =");
    assert_eq!(converged.len(), 3, "{converged:?}");
    for ((t, _), said) in rod.iter().zip(&converged) {
        assert!(
            (t - said).abs() < 1e-5,
            "the header says {said}, the reference {t}"
        );
    }
    let contacts = numbers_after(&text, "contact's duration in fast time (≈");
    for ((_, s), said) in rod.iter().zip(&contacts) {
        assert!(
            (s - said).abs() < 0.01,
            "the header says S ≈ {said}, the reference {s}"
        );
    }
    // The run line's step: the model's bounces (the first step that finds the end
    // below the plane) as the header gives them.
    let run = increments("painleve/rod.sit", "Rod", "bounces", &[], 1e-3, 1.5)?;
    let stated = numbers_after(&text, "with the run line's `--dt 1e-3`, at");
    assert_eq!(run.len(), stated.len(), "{run:?} {stated:?}");
    for (t, said) in run.iter().zip(&stated) {
        // `increments` gives the time before the step that saw the impact.
        assert!(
            (t + 1e-3 - said).abs() < 5e-4,
            "at --dt 1e-3: {run:?}, said {stated:?}"
        );
    }
    // The model approaches the reference: at a step of 1e-5 s the flights are nearly
    // exact, and what is left comes from the fast system's own step of 1e-4 (first
    // order): measured 0.45486, 0.94737, 1.27144 against 0.45486, 0.94741, 1.27156.
    let fine = increments("painleve/rod.sit", "Rod", "bounces", &[], 1e-5, 1.3)?;
    for (t, (r, _)) in fine.iter().zip(&rod) {
        assert!((t - r).abs() < 2e-4, "{fine:?} against {rod:?}");
    }
    Ok(())
}

#[test]
fn the_fast_motions_header_gives_the_stick_instant() {
    let exact = Reference::solve(1.7, 1e-4);
    let stick = exact.stick.expect("k = 1.7 sticks");
    let said = numbers_after(&header("painleve/fast_motion.sit"), "the end sticks at s ≈");
    assert!(
        (said[0] - stick).abs() < 5e-4,
        "the header says s ≈ {}, the reference {stick}",
        said[0]
    );
}

#[test]
fn the_compliant_rod_lands_and_its_centre_stays_above_the_plane() -> Result<(), String> {
    // The header's drop, run to 3 s: three contacts, then the rebound is slower than
    // `v_min` and the rod stands still. Without the landing the end came to rest on the
    // plane through ever shorter contacts and the centre passed through it (x_c3 =
    // −0.67 at t = 1.5).
    let mut m = load("painleve/rod_compliant.sit", "RodCompliant")?;
    let mut lowest = f64::INFINITY;
    for _ in 0..30_000 {
        m.step(1e-4);
        lowest = lowest.min(get(&m, "xc3")?);
    }
    assert!(lowest > 0.0, "the centre went down to {lowest}");
    assert_eq!(get(&m, "contacts")?, 3.0);
    assert_eq!(get(&m, "landed")?, 1.0);
    // The end rests within its last contact's penetration, a fraction of a millimetre.
    assert!(get(&m, "x3")?.abs() < 1e-3);
    Ok(())
}

/// The compliant rod at μ = 1e8 under `rodas4` without sub-steps
/// (`rod_compliant_rodas4.sit`, host step 1e-3 s, the contact's changes located
/// inside it) against the sub-stepped model (`rod_compliant.sit`, host step 1e-4 s,
/// sub-steps of 2.5e-8 s near and in contact: `per_contact` = 10 000) and the rigid
/// rod, through the first contact (the end sticks in it):
///
/// - the touch at the rigid rod's first bounce, 0.45486 s, within 5e-6 s: the same
///   free flight up to it, so what is left is the rounding of the rigid figure;
/// - the contact's duration as the sub-stepped model's, within one of its sub-steps
///   (2.5e-8 s: it sees the end of the contact at a sub-step's end), and √μ times it
///   as the rigid rod's first contact in fast time (2.69 in `rod.sit`'s header),
///   within 0.02 (the compliant contact differs from the fast system by O(1/√μ):
///   2% in `compliant_rod_converges_to_the_fast_system_as_the_stiffness_grows`);
/// - the state at t = 0.6 s (in the flight after the contact) as the sub-stepped
///   model's within 2e-3 (m, m/s, rad, rad/s): the sub-stepped model's own error,
///   first order in its steps, measured as its change when its host step goes from
///   1e-4 to 1e-6 s (up to 6e-4, in vc3) plus what its sub-steps leave (10× finer
///   sub-steps moved vc1 by 3e-3; 10× finer again should move it by 3e-4). Measured
///   (release, `sitc run`): the largest difference 7.6e-4 (vc3), and 1.5e-4 from the
///   sub-stepped model at host step 1e-6 s.
#[test]
fn rodas4_rod_without_sub_steps_meets_the_sub_stepped_and_the_rigid_rod() -> Result<(), String> {
    let mu = 1e8;
    let mut implicit = load("painleve/rod_compliant_rodas4.sit", "RodCompliantRodas4")?;
    set(&mut implicit, "mu", mu)?;
    implicit.reset();
    let steps = implicit
        .hidden_index("rodas4_steps")
        .ok_or("rodas4_steps")?;
    let mut internal = 0.0;
    for _ in 0..600 {
        implicit.step(1e-3);
        internal += implicit.get_at(steps).ok_or("steps")?;
    }
    let mut divided = load("painleve/rod_compliant.sit", "RodCompliant")?;
    set(&mut divided, "mu", mu)?;
    set(&mut divided, "per_contact", 10_000.0)?;
    divided.reset();
    for _ in 0..6000 {
        divided.step(1e-4);
    }
    let touch = get(&implicit, "t_touch")?;
    let (t, t_divided) = (get(&implicit, "T")?, get(&divided, "T")?);
    eprintln!(
        "rodas4: touch {touch}, contact {t} s (sub-stepped {t_divided}), {internal} internal steps"
    );
    assert_eq!(get(&implicit, "contacts")?, 1.0);
    assert_eq!(get(&divided, "contacts")?, 1.0);
    assert_eq!(
        get(&implicit, "sticks")?,
        1.0,
        "the end sticks in the contact"
    );
    assert!((touch - 0.45486).abs() < 5e-6, "touch at {touch}");
    assert!(
        (t - t_divided).abs() < 2.5e-8,
        "contact {t} s, sub-stepped {t_divided} s"
    );
    assert!(
        (t * mu.sqrt() - 2.69).abs() < 0.02,
        "√μ·T = {}",
        t * mu.sqrt()
    );
    for name in [
        "xc1",
        "xc2",
        "xc3",
        "vc1",
        "vc2",
        "vc3",
        "psi",
        "theta",
        "psi_dot",
        "theta_dot",
    ] {
        let (a, b) = (get(&implicit, name)?, get(&divided, name)?);
        assert!(
            (a - b).abs() < 2e-3,
            "{name} at 0.6 s: {a}, sub-stepped {b}"
        );
    }
    Ok(())
}
