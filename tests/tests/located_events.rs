//! Events located inside a step of `dopri5` and `rk4`, against closed forms: the bouncing ball's
//! impact times and heights (its impact as a guard, and as an `event` under every method), a thermostat's switching instants on its exact
//! exponentials, and the bound on chattering events (Zeno).

use sit_middle::ir::{Method, Tolerance};
use sit_runtime::Model;
use sit_tests::models::{get, instance_of};

fn dopri5(rtol: f64, atol: f64) -> Method {
    Method::Dopri5(Tolerance::new(rtol, atol))
}

/// The library's bouncing ball (examples/models/bouncing_ball.sit), which also notes
/// the time of its last impact and counts them.
const BALL: &str = "model Ball {
    param g0 = -9.81; param e = 0.7; param v_min = 0.1; param h0 = 1.0;
    output real h = h0;
    output real v = 0.0;
    real g = g0;
    real der_h;
    real der_v;
    output real t_impact = -1;
    output real impacts = 0;
    der_h = v;
    der_v = g;
    h = integral(der_h);
    v = integral(der_v);
    when h <= 0 & v < 0 {
        h = 2.2250738585072014e-308;
        v = -e * v;
        t_impact = time;
        impacts = impacts + 1;
        when v < v_min {
            v = 0;
            g = 0;
        }
    }
}";

/// The ball's exact motion: its impact times, and its height and speed at `t`.
struct Bounces {
    g: f64,
    /// Impact `k`'s time and the speed just after it (0 once at rest).
    impacts: Vec<(f64, f64)>,
}

impl Bounces {
    fn new(g: f64, e: f64, v_min: f64, h0: f64) -> Bounces {
        let mut t = (2.0 * h0 / g).sqrt();
        let mut speed = g * t;
        let mut impacts = Vec::new();
        loop {
            let after = e * speed;
            if after < v_min {
                impacts.push((t, 0.0));
                return Bounces { g, impacts };
            }
            impacts.push((t, after));
            t += 2.0 * after / g;
            speed = after;
        }
    }

    /// Height and vertical speed at `t`.
    fn at(&self, t: f64, h0: f64) -> (f64, f64) {
        match self.impacts.iter().rev().find(|(ti, _)| *ti <= t) {
            None => (h0 - self.g * t * t / 2.0, -self.g * t),
            Some(&(ti, u)) => {
                let tau = t - ti;
                if u == 0.0 {
                    (0.0, 0.0)
                } else {
                    (u * tau - self.g * tau * tau / 2.0, u - self.g * tau)
                }
            }
        }
    }
}

#[test]
fn the_balls_impacts_are_located_at_their_exact_times_at_any_host_step() {
    let exact = Bounces::new(9.81, 0.7, 0.1, 1.0);
    assert_eq!(exact.impacts.len(), 11, "ten bounces, then rest");
    // Host steps that meet no impact, one that is not a divisor of anything, and one
    // holding several impacts (0.5 s: the last bounces last 0.01 to 0.1 s).
    for (method, dt) in [
        (dopri5(1e-10, 1e-12), 0.1f64),
        (dopri5(1e-10, 1e-12), 0.0123),
        (dopri5(1e-10, 1e-12), 0.5),
        (Method::Rk4, 0.1),
        (Method::Rk4, 0.0123),
        (Method::Tsit5(Tolerance::new(1e-10, 1e-12)), 0.1),
        (Method::Tsit5(Tolerance::new(1e-10, 1e-12)), 0.5),
        (Method::Dop853(Tolerance::new(1e-10, 1e-12)), 0.1),
        (Method::Dop853(Tolerance::new(1e-10, 1e-12)), 0.5),
    ] {
        let mut m = instance_of(BALL, method);
        let steps = (3.0 / dt).ceil() as usize;
        let (mut worst_t, mut worst_h, mut worst_v) = (0.0f64, 0.0f64, 0.0f64);
        let mut seen = 0;
        for k in 1..=steps {
            m.step(dt);
            let t = k as f64 * dt;
            let (h, v) = exact.at(t, 1.0);
            worst_h = worst_h.max((get(&m, "h").unwrap() - h).abs());
            worst_v = worst_v.max((get(&m, "v").unwrap() - v).abs());
            let n = get(&m, "impacts").unwrap() as usize;
            // The last impact of the host step is the one noted.
            if n > seen {
                let (ti, _) = exact.impacts[n - 1];
                worst_t = worst_t.max((get(&m, "t_impact").unwrap() - ti).abs());
                seen = n;
            }
        }
        eprintln!(
            "{} dt {dt}: impacts {seen}, worst impact time {worst_t:.1e}, height {worst_h:.1e}, speed {worst_v:.1e}",
            method.name()
        );
        assert_eq!(seen, exact.impacts.len(), "dt {dt}: every impact seen");
        // Free fall is a polynomial of degree 2, which both methods and their dense
        // outputs reproduce up to rounding: what is left is the halving's resolution
        // (2^-50 of an internal step) and the rounding of the sums.
        // Rounding over about 300 steps of values below 10 leaves ~1e-14 (measured: at
        // most 7.5e-15 s, 2.4e-15 m, 2.7e-14 m/s under dopri5); the bounds keep a factor
        // of ~100 (the issue asks for 1e-10 s). tsit5's coefficients reach 88 in size
        // (dopri5's 12), and its rounding is ten times larger: at most 6.0e-14 s,
        // 8.3e-14 m, 6.6e-13 m/s, within the same bounds by a factor of 15 or more;
        // dop853 at most 6.6e-14 s, 2.2e-14 m, 2.3e-13 m/s.
        assert!(worst_t < 1e-12, "dt {dt}: impact times off by {worst_t:e}");
        assert!(worst_h < 1e-12, "dt {dt}: heights off by {worst_h:e}");
        assert!(worst_v < 1e-11, "dt {dt}: speeds off by {worst_v:e}");
    }
}

/// README's ball: its impact an `event` on the height, the ball put back on the floor.
const EVENT_BALL: &str = "model Ball {
    param g = 9.81;
    param e = 0.8;
    output real h = 10;
    output real v;
    output real t_impact = -1;
    output real rebound = 0;
    output real impacts = 0;
    event impact = h < 0;
    v = integral(-g);
    h = integral(v);
    when impact {
        v = -e * v;
        h = 0;
        t_impact = time;
        rebound = v;
        impacts = impacts + 1;
    }
}";

/// An `event` is located as a guard is (issue 47): README's ball, dropped from 10 m,
/// meets the floor at `sqrt(2·h0/g)` and leaves it at `e·g·t`, whatever the host step,
/// under every method that locates; each later impact after a flight of `2·u/g`, its
/// rebound `e` times the last. Before, the event was seen at the start of the next host
/// step: the ball went to h = −1.04 at t = 1.5 and rebounded at 12.56 (exact: 11.21).
#[test]
fn an_event_is_located_inside_the_step_under_every_method() {
    let (g, e, h0) = (9.81f64, 0.8f64, 10.0f64);
    // The exact impacts within 6 s: three.
    let mut exact = vec![];
    let mut t = (2.0 * h0 / g).sqrt();
    let mut u = e * g * t;
    while t < 6.0 {
        exact.push((t, u));
        t += 2.0 * u / g;
        u *= e;
    }
    assert_eq!(exact.len(), 3, "{exact:?}");
    let (rtol, atol) = (1e-10, 1e-12);
    let tol = Tolerance::new(rtol, atol);
    let methods = [
        Method::Rk4,
        Method::Dopri5(tol),
        Method::Tsit5(tol),
        Method::Dop853(tol),
        Method::Rodas4(tol),
        Method::Rodas5p(tol),
        Method::Radau5(tol),
    ];
    for method in methods {
        for dt in [0.1f64, 0.0123, 0.5] {
            let mut m = instance_of(EVENT_BALL, method);
            let steps = (6.0 / dt).ceil() as usize;
            let (mut worst_t, mut worst_u, mut lowest) = (0.0f64, 0.0f64, 0.0f64);
            let mut seen = 0;
            for _ in 0..steps {
                m.step(dt);
                lowest = lowest.min(get(&m, "h").unwrap());
                let n = get(&m, "impacts").unwrap() as usize;
                assert!(
                    n <= seen + 1,
                    "{} dt {dt}: two impacts in a step",
                    method.name()
                );
                if n > seen {
                    let (ti, ui) = exact[n - 1];
                    worst_t = worst_t.max((get(&m, "t_impact").unwrap() - ti).abs() / ti);
                    worst_u = worst_u.max((get(&m, "rebound").unwrap() - ui).abs() / ui);
                    seen = n;
                }
            }
            eprintln!(
                "{} dt {dt}: impacts {seen}, worst relative error of the impact time {worst_t:.1e}, of the rebound {worst_u:.1e}, lowest h {lowest:.1e}",
                method.name()
            );
            assert_eq!(seen, exact.len(), "{} dt {dt}: every impact", method.name());
            // Each internal step keeps its error within rtol·|y| + atol of the exact
            // solution's; the impact time and the rebound speed (the speed at that
            // time) inherit it, relative to values of order one to ten over a few
            // steps: 10·rtol bounds them. (Free fall is a polynomial of degree 2, which
            // every method and dense output here reproduces up to rounding, so the
            // errors measured are those of the rounding and of the halving, near 1e-15.)
            assert!(
                worst_t < 10.0 * rtol,
                "{} dt {dt}: impact times off by {worst_t:e} (relative)",
                method.name()
            );
            assert!(
                worst_u < 10.0 * rtol,
                "{} dt {dt}: rebounds off by {worst_u:e} (relative)",
                method.name()
            );
            // The ball never goes through the floor by more than the halving's
            // resolution (2^-50 of an internal step) times its speed.
            assert!(
                lowest > -1e-12,
                "{} dt {dt}: h reached {lowest:e}",
                method.name()
            );
        }
    }
}

#[test]
fn without_location_an_impact_is_seen_only_at_the_end_of_its_step() {
    // The same ball under `euler` (the formalism's step) notes the impact at the step
    // whose end is past the floor: its time is off by up to a step.
    let exact = Bounces::new(9.81, 0.7, 0.1, 1.0);
    let mut m = instance_of(BALL, Method::Euler);
    let dt = 0.1;
    for _ in 0..6 {
        m.step(dt);
    }
    let t1 = get(&m, "t_impact").unwrap();
    assert!(
        (t1 - exact.impacts[0].0).abs() > 1e-2 && (t1 - exact.impacts[0].0).abs() < 2.0 * dt,
        "euler notes the first impact at {t1}, the exact time is {}",
        exact.impacts[0].0
    );
}

/// The library's thermostat (examples/models/thermostat.sit) noting when it switches.
const THERMOSTAT: &str = "model Thermostat {
    param C = 2.0e6; param k = 150.0; param P_heater = 6000.0; param T_out = 5.0;
    param T_low = 19.5; param T_high = 20.5;
    output real T = 12.0;
    output real Q;
    real dT;
    output flag heating = true;
    output real t_switch = -1;
    output real switches = 0;
    when T >= T_high & heating | T <= T_low & !heating {
        t_switch = time;
        switches = switches + 1;
    }
    when T >= T_high => !heating;
    when T <= T_low => heating;
    Q = P_heater when heating;
    Q = 0 otherwise;
    dT = (Q - k * (T - T_out)) / C;
    T = integral(dT);
}";

/// The switching instants of the thermostat over `t_end`: on each stretch the room
/// relaxes exponentially, `T(t) = T_eq + (T_0 − T_eq)·e^(−k·t/C)`, towards
/// `T_out + P/k` (heating) or `T_out` (not), so the time to go from `a` to `b` is
/// `(C/k)·ln((a − T_eq)/(b − T_eq))`.
fn switching_times(t_end: f64) -> Vec<f64> {
    let (c, k, p, out, lo, hi): (f64, f64, f64, f64, f64, f64) =
        (2.0e6, 150.0, 6000.0, 5.0, 19.5, 20.5);
    let tau = c / k;
    let mut t = tau * ((12.0 - (out + p / k)) / (hi - (out + p / k))).ln();
    let mut times = Vec::new();
    let mut heating = false;
    while t <= t_end {
        times.push(t);
        let (from, to, eq) = if heating {
            (lo, hi, out + p / k)
        } else {
            (hi, lo, out)
        };
        t += tau * ((from - eq) / (to - eq)).ln();
        heating = !heating;
    }
    times
}

#[test]
fn the_thermostat_switches_on_its_exact_exponentials() {
    let t_end = 20_000.0;
    let exact = switching_times(t_end);
    assert!(exact.len() > 20, "{} switchings", exact.len());
    // The temperature moves at 1e-3 to 2e-3 K/s at the thresholds, so an instant is
    // off by the temperature's error times ~700 s/K. `dopri5` at rtol 1e-12 and short
    // host steps: ~1e-13 K, 1e-10 s measured. At host steps of 1000 s its internal steps
    // are hundreds of seconds and the dense output (order 4) holds ~1e-10 K: 1.6e-7 s
    // measured; `dop853`'s dense output of order 7 holds ~1e-14 K there: 1.1e-11 s
    // measured. `rk4` at 60 s: its global error (k·dt/C)^4 ≈ 4e-10 of the 20 K
    // swing, ~1e-9 K: 9.3e-7 s measured. Each bound keeps a factor of 5 to 10.
    for (method, dt, bound) in [
        (dopri5(1e-12, 1e-10), 1.0, 1e-9),
        (dopri5(1e-12, 1e-10), 60.0, 1e-9),
        (dopri5(1e-12, 1e-10), 1000.0, 1e-6),
        (Method::Dop853(Tolerance::new(1e-12, 1e-10)), 1000.0, 1e-10),
        (Method::Rk4, 1.0, 1e-9),
        (Method::Rk4, 60.0, 5e-6),
    ] {
        let mut m = instance_of(THERMOSTAT, method);
        let (mut seen, mut worst) = (0, 0.0f64);
        for _ in 0..(t_end / dt) as usize {
            m.step(dt);
            let n = get(&m, "switches").unwrap() as usize;
            if n > seen {
                worst = worst.max((get(&m, "t_switch").unwrap() - exact[n - 1]).abs());
                seen = n;
            }
        }
        eprintln!(
            "{} dt {dt}: {seen} switchings, worst instant {worst:.1e} s",
            method.name()
        );
        assert_eq!(seen, exact.len(), "dt {dt}: every switching seen");
        assert!(
            worst < bound,
            "{} dt {dt}: switching instants off by {worst} s",
            method.name()
        );
    }
    // Under `euler` at 1 s the instants are off by up to a step.
    let mut m = instance_of(THERMOSTAT, Method::Euler);
    m.step(1.0);
    let mut worst = 0.0f64;
    let mut seen = 0;
    for _ in 1..t_end as usize {
        m.step(1.0);
        let n = get(&m, "switches").unwrap() as usize;
        if n > seen && n <= exact.len() {
            worst = worst.max((get(&m, "t_switch").unwrap() - exact[n - 1]).abs());
            seen = n;
        }
    }
    assert!(worst > 0.1, "euler at 1 s: instants off by {worst} s");
}

#[test]
fn a_ball_that_never_rests_is_stopped_as_chattering_with_a_clear_error() {
    // Without a speed below which it rests, the ball bounces infinitely often before
    // t = 2.56 s: the events of one host step pile up.
    let zeno = BALL.replace("param v_min = 0.1;", "param v_min = 0;");
    let mut m = instance_of(&zeno, dopri5(1e-10, 1e-12));
    let failed = sit_runtime::catch_fault(|| {
        for _ in 0..40 {
            m.step(0.1);
        }
    })
    .expect_err("the events chatter");
    assert_eq!(
        failed.kind,
        sit_runtime::FaultKind::EventsChatter { limit: 1000 }
    );
    let message = failed.to_string();
    assert!(
        message.starts_with("`Ball` located more than 1000 events inside its step at t = 2.5"),
        "{message}"
    );
}

/// The library's traffic light (docs/language.md, "Modes"), noting its transitions.
const LIGHT: &str = "model Light {
    param t_red = 30, t_green = 25, t_yellow = 5;
    output mode light { red, green, yellow }
    output real elapsed;
    output real t_last = -1;
    output real changes = 0;
    elapsed = integral(1);
    light: red -> green when elapsed >= t_red { elapsed = 0; t_last = time; changes = changes + 1; }
    light: green -> yellow when elapsed >= t_green { elapsed = 0; t_last = time; changes = changes + 1; }
    light: yellow -> red when elapsed >= t_yellow { elapsed = 0; t_last = time; changes = changes + 1; }
}";

#[test]
fn a_mode_takes_every_transition_at_its_instant_within_a_long_step() {
    // A cycle of 60 s: red until 30, green until 55, yellow until 60. With host steps
    // of 97 s each step holds four or five transitions (none at a step's end, where
    // the rounding of `elapsed` would decide between this step and the next); each
    // discrete pass is a step of its own, so the mode moves at each.
    let exact = |t: f64| -> (usize, f64, f64) {
        // (transitions by t, the last one's time, the state at t)
        let mut times = Vec::new();
        let mut k = 0.0;
        while 60.0 * k + 30.0 <= t {
            for off in [30.0, 55.0, 60.0] {
                if 60.0 * k + off <= t {
                    times.push(60.0 * k + off);
                }
            }
            k += 1.0;
        }
        let state = match t.rem_euclid(60.0) {
            x if x < 30.0 => 0.0,
            x if x < 55.0 => 1.0,
            _ => 2.0,
        };
        (times.len(), times.last().copied().unwrap_or(-1.0), state)
    };
    for method in [dopri5(1e-10, 1e-12), Method::Rk4] {
        let mut m = instance_of(LIGHT, method);
        for k in 1..=12 {
            m.step(97.0);
            let t = 97.0 * k as f64;
            let (n, last, state) = exact(t);
            let label = format!("{} at {t}", method.name());
            assert_eq!(
                get(&m, "changes").unwrap(),
                n as f64,
                "{label}: transitions"
            );
            assert!(
                (get(&m, "t_last").unwrap() - last).abs() < 1e-9,
                "{label}: last at {}",
                get(&m, "t_last").unwrap()
            );
            assert_eq!(get(&m, "light").unwrap(), state, "{label}: state");
            assert!(
                (get(&m, "elapsed").unwrap() - (t - last)).abs() < 1e-9,
                "{label}: elapsed"
            );
        }
    }
}

/// The row at t = 0 does not depend on the method (issue 28 item 8): the initial pass
/// runs the rules of the computed states as written, so a guarded rule that feeds the
/// continuous part starts from its rule under every method (it started from its
/// declared value under rk4 and dopri5, from its rule under euler).
#[test]
fn the_first_row_is_the_same_under_every_method() {
    let src = "model Source {
        output real P, x = 1;
        P = 2 when x < 5;
        P = 0 otherwise;
        x = integral(P - x);
    }";
    for method in Method::ALL {
        let m = instance_of(src, method);
        assert_eq!(
            (get(&m, "P").ok(), get(&m, "x").ok()),
            (Some(2.0), Some(1.0)),
            "{}",
            method.name()
        );
    }
}
