//! Wall time of the generated pendulum, Van der Pol, hoop or bouncing ball step over a
//! whole run, for `scripts/peer_scipy.py` and the end-to-end comparison with `sitc run`.
//!
//! Usage: `peer_timing MODEL DT T_END [REPEATS]` with MODEL `pendulum`,
//! `van_der_pol`, `hoop` or `bouncing_ball`, or `pendulum_rk4` or `van_der_pol_rk4`
//! (generated with `method rk4`), or `pendulum_dopri5_K`, `van_der_pol_dopri5_K` or
//! `bouncing_ball_dopri5_K` for K from 3 to 10 (generated with `method dopri5 rtol 1e-K
//! atol 1e-K`), or `pendulum_tsit5_K`, `van_der_pol_tsit5_K`, `pendulum_dop853_K`,
//! `van_der_pol_dop853_K` for K from 4 to 12, or the stiff `robertson_METHOD_K`,
//! `hires_METHOD_K`, `van_der_pol_1000_METHOD_K`, `van_der_pol_scaled_METHOD_K` (METHOD
//! `rodas4` or `rodas5p` for K in 4, 6, 8, 10, or `radau5` for K from 4 to 10; Van der
//! Pol with its `mu` set to 1000 before the reset, as `sitc run --set mu=1000` does)
//! (generated with `method METHOD rtol 1e-K` and the model's atol, `build.rs`). Built with the
//! feature `peers` (`cargo build --release -p sit-bench --features peers --example
//! peer_timing`). Runs `round(T_END / DT)` steps from the initial state (as `sitc run`
//! does), REPEATS times (default 21), and prints one line of JSON: the model, the number
//! of steps, the median wall time in seconds and the final state (every state of the
//! stiff models, two of the others).

use sit_bench::generated::{hoop::Hoop, pendulum::Pendulum, van_der_pol::VanDerPol};
use sit_bench::generated_ball::BouncingBall;
use sit_bench::generated_rk4::{
    pendulum::Pendulum as PendulumRk4, van_der_pol::VanDerPol as VanDerPolRk4,
};
use sit_bench::{
    generated_dop853 as dop853, generated_dopri5 as dopri5, generated_radau5 as radau5,
    generated_rodas4 as rodas4, generated_rodas5p as rodas5p, generated_tsit5 as tsit5,
};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// A timed run: the median wall time, the final state and, for `rodas4` and `rodas5p`, the internal
/// steps it attempted in its last host step (rejected ones included: each one Jacobian,
/// one LU and six stage solves).
struct Timed {
    seconds: f64,
    state: Vec<f64>,
    attempts: Option<f64>,
}

/// Runs `steps` steps of a fresh model `repeats` times; the median time and the model
/// as the last run left it.
fn time<M>(new: fn() -> M, step: fn(&mut M, f64), dt: f64, steps: u64, repeats: usize) -> (f64, M) {
    let mut times = Vec::with_capacity(repeats);
    let mut last = None;
    for _ in 0..repeats {
        let mut m = new();
        let dt = black_box(dt);
        let start = Instant::now();
        for _ in 0..steps {
            step(&mut m, dt);
        }
        times.push(start.elapsed().as_secs_f64());
        last = Some(black_box(m));
    }
    (median(times), last.expect("repeats > 0"))
}

/// Times a generated model type, reading some of its fields as the final state.
macro_rules! timed {
    ($ty:ty, $($a:ident),+; $dt:expr, $steps:expr, $repeats:expr) => {
        timed!(<$ty>::new, <$ty>::step, $($a),+; $dt, $steps, $repeats)
    };
    ($new:expr, $step:expr, $($a:ident),+; $dt:expr, $steps:expr, $repeats:expr) => {{
        let (seconds, m) = time($new, $step, $dt, $steps, $repeats);
        Timed { seconds, state: vec![$(m.$a),+], attempts: None }
    }};
}

/// Times a generated `rodas4` or `rodas5p` model: its states and its attempted
/// internal steps over the whole run (the hidden state `$count` of each host step).
macro_rules! timed_stiff {
    ($new:expr, $step:expr, $count:ident, $($a:ident),+; $dt:expr, $steps:expr, $repeats:expr) => {{
        let (seconds, m) = time($new, $step, $dt, $steps, $repeats);
        // The internal steps of every host step, from one more run, untimed.
        let (mut again, mut attempts) = (($new)(), 0.0);
        for _ in 0..$steps {
            ($step)(&mut again, $dt);
            attempts += again.$count;
        }
        Timed { seconds, state: vec![$(m.$a),+], attempts: Some(attempts) }
    }};
}

/// A run of `MODEL_METHOD_K` (METHOD `dopri5`, `tsit5` or `dop853`): the model and
/// tolerance exponent K looked up among the generated modules, `None` for an unknown name.
fn time_adaptive(name: &str, dt: f64, steps: u64, repeats: usize) -> Option<Timed> {
    let (rest, k) = name.rsplit_once('_')?;
    let (model, method) = rest.rsplit_once('_')?;
    macro_rules! arms {
        ($($k:literal => $m:ident),*) => {
            match (method, model, k) {
                $(
                    ("dopri5", "pendulum", $k) => Some(timed!(
                        dopri5::$m::pendulum::Pendulum, angle, omega; dt, steps, repeats
                    )),
                    ("dopri5", "van_der_pol", $k) => Some(timed!(
                        dopri5::$m::van_der_pol::VanDerPol, x0, x1; dt, steps, repeats
                    )),
                    ("dopri5", "bouncing_ball", $k) => Some(timed!(
                        dopri5::$m::bouncing_ball::BouncingBall, h, v; dt, steps, repeats
                    )),
                )*
                _ => None,
            }
        };
    }
    macro_rules! arms_of {
        ($method:literal, $gen:ident; $($k:literal => $m:ident),*) => {
            match (method, model, k) {
                $(
                    ($method, "pendulum", $k) => Some(timed!(
                        $gen::$m::pendulum::Pendulum, angle, omega; dt, steps, repeats
                    )),
                    ($method, "van_der_pol", $k) => Some(timed!(
                        $gen::$m::van_der_pol::VanDerPol, x0, x1; dt, steps, repeats
                    )),
                )*
                _ => None,
            }
        };
    }
    if method == "rodas4" || method == "rodas5p" || method == "radau5" {
        return time_stiff(method, model, k, dt, steps, repeats);
    }
    arms!("3" => rtol_3, "4" => rtol_4, "5" => rtol_5, "6" => rtol_6, "7" => rtol_7,
          "8" => rtol_8, "9" => rtol_9, "10" => rtol_10)
    .or_else(|| {
        arms_of!("tsit5", tsit5; "4" => rtol_4, "5" => rtol_5, "6" => rtol_6, "7" => rtol_7,
                 "8" => rtol_8, "9" => rtol_9, "10" => rtol_10, "11" => rtol_11, "12" => rtol_12)
    })
    .or_else(|| {
        arms_of!("dop853", dop853; "4" => rtol_4, "5" => rtol_5, "6" => rtol_6, "7" => rtol_7,
                 "8" => rtol_8, "9" => rtol_9, "10" => rtol_10, "11" => rtol_11, "12" => rtol_12)
    })
}

/// A run of a stiff model under `rodas4`, `rodas5p` or `radau5` at rtol 1e-K
/// (`MODEL_METHOD_K`).
fn time_stiff(
    method: &str,
    model: &str,
    k: &str,
    dt: f64,
    steps: u64,
    repeats: usize,
) -> Option<Timed> {
    macro_rules! arms {
        ($gen:ident, $steps:ident; $($k:literal => $m:ident),*) => {
            match (model, k) {
                $(
                    ("robertson", $k) => {
                        use $gen::robertson::$m::Robertson as M;
                        Some(timed_stiff!(M::new, M::step, $steps, y1, y2, y3; dt, steps, repeats))
                    }
                    ("hires", $k) => {
                        use $gen::hires::$m::Hires as M;
                        Some(timed_stiff!(
                            M::new, M::step, $steps, y1, y2, y3, y4, y5, y6, y7, y8; dt, steps, repeats
                        ))
                    }
                    ("van_der_pol_1000", $k) => {
                        use $gen::van_der_pol::$m::VanDerPol as M;
                        let new = || {
                            let mut m = M::new();
                            m.mu = 1000.0;
                            m.reset();
                            m
                        };
                        Some(timed_stiff!(new, M::step, $steps, x0, x1; dt, steps, repeats))
                    }
                    ("van_der_pol_scaled", $k) => {
                        use $gen::van_der_pol_scaled::$m::VanDerPolScaled as M;
                        Some(timed_stiff!(M::new, M::step, $steps, x0, x1; dt, steps, repeats))
                    }
                )*
                _ => None,
            }
        };
    }
    match method {
        "rodas4" => {
            arms!(rodas4, rodas4_steps; "4" => rtol_4, "6" => rtol_6, "8" => rtol_8, "10" => rtol_10)
        }
        "radau5" => {
            arms!(radau5, radau5_steps; "4" => rtol_4, "5" => rtol_5, "6" => rtol_6, "7" => rtol_7,
                  "8" => rtol_8, "9" => rtol_9, "10" => rtol_10)
        }
        _ => {
            arms!(rodas5p, rodas5p_steps; "4" => rtol_4, "6" => rtol_6, "8" => rtol_8, "10" => rtol_10)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peer_timing pendulum|van_der_pol|hoop|bouncing_ball|pendulum_rk4|\
                 van_der_pol_rk4|{pendulum,van_der_pol,bouncing_ball}_dopri5_{3..10}|\
                 {pendulum,van_der_pol}_{tsit5,dop853}_{4..12}|\
                 {robertson,hires,van_der_pol_1000,van_der_pol_scaled}_{rodas4,rodas5p}_{4,6,8,10}|\
                 {robertson,hires,van_der_pol_1000,van_der_pol_scaled}_radau5_{4..10} \
                 DT T_END [REPEATS]";
    let (Some(model), Some(dt), Some(t_end)) = (
        args.first(),
        args.get(1).and_then(|s| s.parse::<f64>().ok()),
        args.get(2).and_then(|s| s.parse::<f64>().ok()),
    ) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let repeats = match args.get(3).map(|s| s.parse::<usize>()) {
        None => 21,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    if !(dt > 0.0 && t_end >= 0.0 && (t_end / dt).is_finite()) {
        eprintln!("DT must be > 0 and T_END >= 0");
        return ExitCode::from(2);
    }
    let steps = (t_end / dt).round() as u64;
    let timed = match model.as_str() {
        "pendulum" => timed!(Pendulum, angle, omega; dt, steps, repeats),
        "van_der_pol" => timed!(VanDerPol, x0, x1; dt, steps, repeats),
        "hoop" => timed!(Hoop, h, Vy; dt, steps, repeats),
        "bouncing_ball" => timed!(BouncingBall, h, v; dt, steps, repeats),
        "pendulum_rk4" => timed!(PendulumRk4, angle, omega; dt, steps, repeats),
        "van_der_pol_rk4" => timed!(VanDerPolRk4, x0, x1; dt, steps, repeats),
        other => match time_adaptive(other, dt, steps, repeats) {
            Some(timed) => timed,
            None => {
                eprintln!("{usage}");
                return ExitCode::from(2);
            }
        },
    };
    let state: Vec<String> = timed.state.iter().map(|v| format!("{v:?}")).collect();
    let attempts = timed
        .attempts
        .map_or(String::new(), |n| format!(", \"attempts\": {n}"));
    println!(
        "{{\"model\": \"{model}\", \"steps\": {steps}, \"seconds\": {:e}, \"state\": [{}]{attempts}}}",
        timed.seconds,
        state.join(", ")
    );
    ExitCode::SUCCESS
}
