//! diffsol's implicit solvers on the stiff models of `scripts/peer_scipy.py --stiff`:
//! Robertson's kinetics (`examples/models/robertson.sit`), HIRES (`hires.sit`) and Van der
//! Pol at mu = 1000 (`van_der_pol.sit` with `mu = 1000`) and at mu = 1e6 in scaled time
//! (`van_der_pol_scaled.sit`), each with its exact Jacobian
//! given as the Jacobian-vector product diffsol asks for (`rhs_implicit`), dense
//! nalgebra matrices and LU (`NalgebraLU`).
//!
//! Usage: `peer_diffsol stiff robertson|hires|van_der_pol_1000|van_der_pol_scaled
//! bdf|tr_bdf2|esdirk34 T_END RTOL ATOL [REPEATS]`. Steps from t = 0 to `T_END` (diffsol's stop time, no
//! output in between), `REPEATS` times (default 5), and prints one line of JSON: the
//! median wall time of a solve (building the problem and the solver included) in
//! seconds, the final state and the solver's counters of the last solve (steps, error
//! test failures, LU setups, Newton iterations and failures).

use diffsol::{NalgebraLU, NalgebraMat, OdeBuilder, OdeSolverMethod, OdeSolverStopReason, Vector};
use std::process::ExitCode;
use std::time::Instant;

/// The final state and the counters of a solve, or diffsol's error.
type Solved = Result<(Vec<f64>, [usize; 5]), diffsol::DiffsolError>;

/// Steps a solver to `t_end` and reads its final state and counters (a macro: the
/// solvers' types differ and their trait bounds are long).
macro_rules! run {
    ($solver:expr, $t_end:expr) => {{
        let mut solver = $solver;
        solver.set_stop_time($t_end)?;
        while !matches!(solver.step()?, OdeSolverStopReason::TstopReached) {}
        let y: Vec<f64> = solver.state().y.clone_as_vec();
        let st = solver.get_statistics();
        Ok((
            y,
            [
                st.number_of_steps,
                st.number_of_error_test_failures,
                st.number_of_linear_solver_setups,
                st.number_of_nonlinear_solver_iterations,
                st.number_of_nonlinear_solver_fails,
            ],
        ))
    }};
}

/// Builds the solver `method` names for `problem` and runs it to `t_end`.
macro_rules! solve {
    ($problem:expr, $method:expr, $t_end:expr) => {{
        type Lu = NalgebraLU<f64>;
        match $method {
            "bdf" => run!($problem.bdf::<Lu>()?, $t_end),
            "tr_bdf2" => run!($problem.tr_bdf2::<Lu>()?, $t_end),
            _ => run!($problem.esdirk34::<Lu>()?, $t_end),
        }
    }};
}

/// Robertson's kinetics: k1 = 0.04, k2 = 3e7, k3 = 1e4, from (1, 0, 0).
fn robertson(method: &str, t_end: f64, rtol: f64, atol: f64) -> Solved {
    let (k1, k2, k3) = (0.04, 3e7, 1e4);
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            move |x, _p, _t, y| {
                y[0] = -k1 * x[0] + k3 * x[1] * x[2];
                y[1] = k1 * x[0] - k3 * x[1] * x[2] - k2 * x[1] * x[1];
                y[2] = k2 * x[1] * x[1];
            },
            move |x, _p, _t, v, y| {
                let bind = k3 * (v[1] * x[2] + x[1] * v[2]);
                y[0] = -k1 * v[0] + bind;
                y[1] = k1 * v[0] - bind - 2.0 * k2 * x[1] * v[1];
                y[2] = 2.0 * k2 * x[1] * v[1];
            },
        )
        .init(
            |_p, _t, y| {
                y[0] = 1.0;
                y[1] = 0.0;
                y[2] = 0.0;
            },
            3,
        )
        .build()?;
    solve!(problem, method, t_end)
}

/// HIRES (Hairer and Wanner's test set), from (1, 0, 0, 0, 0, 0, 0, 0.0057).
fn hires(method: &str, t_end: f64, rtol: f64, atol: f64) -> Solved {
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            |x, _p, _t, y| {
                let bind = 280.0 * x[5] * x[7];
                y[0] = -1.71 * x[0] + 0.43 * x[1] + 8.32 * x[2] + 0.0007;
                y[1] = 1.71 * x[0] - 8.75 * x[1];
                y[2] = -10.03 * x[2] + 0.43 * x[3] + 0.035 * x[4];
                y[3] = 8.32 * x[1] + 1.71 * x[2] - 1.12 * x[3];
                y[4] = -1.745 * x[4] + 0.43 * x[5] + 0.43 * x[6];
                y[5] = -bind + 0.69 * x[3] + 1.71 * x[4] - 0.43 * x[5] + 0.69 * x[6];
                y[6] = bind - 1.81 * x[6];
                y[7] = -bind + 1.81 * x[6];
            },
            |x, _p, _t, v, y| {
                let bind = 280.0 * (v[5] * x[7] + x[5] * v[7]);
                y[0] = -1.71 * v[0] + 0.43 * v[1] + 8.32 * v[2];
                y[1] = 1.71 * v[0] - 8.75 * v[1];
                y[2] = -10.03 * v[2] + 0.43 * v[3] + 0.035 * v[4];
                y[3] = 8.32 * v[1] + 1.71 * v[2] - 1.12 * v[3];
                y[4] = -1.745 * v[4] + 0.43 * v[5] + 0.43 * v[6];
                y[5] = -bind + 0.69 * v[3] + 1.71 * v[4] - 0.43 * v[5] + 0.69 * v[6];
                y[6] = bind - 1.81 * v[6];
                y[7] = -bind + 1.81 * v[6];
            },
        )
        .init(
            |_p, _t, y| {
                y.fill(0.0);
                y[0] = 1.0;
                y[7] = 0.0057;
            },
            8,
        )
        .build()?;
    solve!(problem, method, t_end)
}

/// Van der Pol from (2, 0) with its exact Jacobian: at `mu = 1000` in unscaled time,
/// x1' = mu·(1 − x0²)·x1 − x0 (`scaled` false), or in scaled time
/// (`examples/models/van_der_pol_scaled.sit`), x1' = mu·((1 − x0²)·x1 − x0); x0' = x1.
/// Each form is written as its model writes it, so that the rounding is the same.
fn van_der_pol(mu: f64, scaled: bool, method: &str, t_end: f64, rtol: f64, atol: f64) -> Solved {
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            move |x, _p, _t, y| {
                y[0] = x[1];
                y[1] = if scaled {
                    mu * ((1.0 - x[0] * x[0]) * x[1] - x[0])
                } else {
                    mu * ((1.0 - x[0] * x[0]) * x[1]) - x[0]
                };
            },
            move |x, _p, _t, v, y| {
                y[0] = v[1];
                let d0 = if scaled {
                    mu * (-2.0 * x[0] * x[1] - 1.0)
                } else {
                    -2.0 * mu * x[0] * x[1] - 1.0
                };
                y[1] = d0 * v[0] + mu * (1.0 - x[0] * x[0]) * v[1];
            },
        )
        .init(
            |_p, _t, y| {
                y[0] = 2.0;
                y[1] = 0.0;
            },
            2,
        )
        .build()?;
    solve!(problem, method, t_end)
}

fn van_der_pol_1000(method: &str, t_end: f64, rtol: f64, atol: f64) -> Solved {
    van_der_pol(1000.0, false, method, t_end, rtol, atol)
}

fn van_der_pol_scaled(method: &str, t_end: f64, rtol: f64, atol: f64) -> Solved {
    van_der_pol(1e6, true, method, t_end, rtol, atol)
}

/// `peer_diffsol stiff …` (the arguments after `stiff`).
pub fn main(args: &[String]) -> ExitCode {
    let usage = "usage: peer_diffsol stiff robertson|hires|van_der_pol_1000|van_der_pol_scaled \
                 bdf|tr_bdf2|esdirk34 T_END RTOL ATOL [REPEATS]";
    let model: fn(&str, f64, f64, f64) -> Solved = match args.first().map(String::as_str) {
        Some("robertson") => robertson,
        Some("hires") => hires,
        Some("van_der_pol_1000") => van_der_pol_1000,
        Some("van_der_pol_scaled") => van_der_pol_scaled,
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let method = match args.get(1).map(String::as_str) {
        Some(m @ ("bdf" | "tr_bdf2" | "esdirk34")) => m,
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<f64>().ok());
    let (Some(t_end), Some(rtol), Some(atol)) = (num(2), num(3), num(4)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let Ok(repeats) = args.get(5).map_or(Ok(5), |s| s.parse::<usize>()) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    if !(t_end > 0.0 && rtol > 0.0 && atol > 0.0 && repeats > 0) {
        eprintln!("T_END, RTOL, ATOL and REPEATS must be > 0");
        return ExitCode::from(2);
    }
    let mut times = Vec::with_capacity(repeats);
    let mut last = (Vec::new(), [0; 5]);
    for _ in 0..repeats {
        let start = Instant::now();
        match model(method, std::hint::black_box(t_end), rtol, atol) {
            Ok(solved) => last = solved,
            Err(e) => {
                eprintln!("diffsol {method} at rtol {rtol}, atol {atol}: {e}");
                return ExitCode::FAILURE;
            }
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let (y, [steps, rejected, lu, newton, newton_fails]) = last;
    let state: Vec<String> = y.iter().map(|v| format!("{v:?}")).collect();
    println!(
        "{{\"seconds\": {:e}, \"state\": [{}], \"steps\": {steps}, \"error_test_failures\": \
         {rejected}, \"lu\": {lu}, \"newton\": {newton}, \"newton_fails\": {newton_fails}}}",
        times[times.len() / 2],
        state.join(", ")
    );
    ExitCode::SUCCESS
}
