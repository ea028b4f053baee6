//! diffsol's explicit Runge–Kutta solver (TSIT45) on the pendulum and Van der Pol, and its
//! implicit solvers (BDF, TR-BDF2, ESDIRK34) on the stiff models, for
//! `scripts/peer_scipy.py`: the same equations and start as `examples/models/`.
//!
//! Usage: `peer_diffsol pendulum|van_der_pol T_END N TOL [REPEATS]`. Solves from t = 0 to
//! `T_END` with rtol = atol = `TOL`, the solution interpolated at the `N + 1` times
//! `i·T_END/N` (diffsol's dense output, as solve_ivp's `t_eval`), `REPEATS` times (default
//! 5), and prints one line of JSON: the median wall time of a solve (building the problem
//! and the solver included) in seconds, the last solve's steps and error test failures,
//! and its rows `[[y0, y1], …]`.
//!
//! Stiff: `peer_diffsol stiff MODEL METHOD T_END RTOL ATOL [REPEATS]` (see [`stiff`]).

mod stiff;

use diffsol::{DenseMatrix, MatrixCommon, NalgebraMat, OdeBuilder, OdeSolverMethod};
use std::process::ExitCode;
use std::time::Instant;

/// The rows of a solve at the evaluation times and the solver's steps taken and
/// rejected (its error test failures), or diffsol's error.
type Solved = Result<(Vec<[f64; 2]>, [usize; 2]), diffsol::DiffsolError>;

/// The pendulum of `pendulum.sit`: L = 2, g = 9.81, from 1 rad at rest.
fn pendulum(t_eval: &[f64], tol: f64) -> Solved {
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(tol)
        .atol([tol])
        .rhs(|x, _p, _t, y| {
            y[0] = x[1];
            y[1] = -9.81 * x[0].sin() / 2.0;
        })
        .init(
            |_p, _t, y| {
                y[0] = 1.0;
                y[1] = 0.0;
            },
            2,
        )
        .build()?;
    let mut solver = problem.tsit45()?;
    let (ys, _) = solver.solve_dense(t_eval)?;
    let st = solver.get_statistics();
    Ok((
        rows(&ys),
        [st.number_of_steps, st.number_of_error_test_failures],
    ))
}

/// The oscillator of `van_der_pol.sit`: mu = 1, from (2, 0).
fn van_der_pol(t_eval: &[f64], tol: f64) -> Solved {
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(tol)
        .atol([tol])
        .rhs(|x, _p, _t, y| {
            y[0] = x[1];
            y[1] = 1.0 * ((1.0 - x[0] * x[0]) * x[1]) - x[0];
        })
        .init(
            |_p, _t, y| {
                y[0] = 2.0;
                y[1] = 0.0;
            },
            2,
        )
        .build()?;
    let mut solver = problem.tsit45()?;
    let (ys, _) = solver.solve_dense(t_eval)?;
    let st = solver.get_statistics();
    Ok((
        rows(&ys),
        [st.number_of_steps, st.number_of_error_test_failures],
    ))
}

/// One row per evaluation time (the matrix has one column per time).
fn rows(ys: &NalgebraMat<f64>) -> Vec<[f64; 2]> {
    (0..ys.ncols())
        .map(|j| [ys.get_index(0, j), ys.get_index(1, j)])
        .collect()
}

fn main() -> ExitCode {
    let usage = "usage: peer_diffsol pendulum|van_der_pol T_END N TOL [REPEATS]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("stiff") {
        return stiff::main(&args[1..]);
    }
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<f64>().ok());
    let solve: fn(&[f64], f64) -> Solved = match args.first().map(String::as_str) {
        Some("pendulum") => pendulum,
        Some("van_der_pol") => van_der_pol,
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let (Some(t_end), Some(n), Some(tol)) = (num(1), args.get(2), num(3)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let (Ok(n), Ok(repeats)) = (
        n.parse::<usize>(),
        args.get(4).map_or(Ok(5), |s| s.parse::<usize>()),
    ) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    if !(t_end > 0.0 && n > 0 && tol > 0.0 && repeats > 0) {
        eprintln!("T_END, N, TOL and REPEATS must be > 0");
        return ExitCode::from(2);
    }
    let t_eval: Vec<f64> = (0..=n).map(|i| i as f64 * t_end / n as f64).collect();
    let mut times = Vec::with_capacity(repeats);
    let (mut last, mut counts) = (Vec::new(), [0; 2]);
    for _ in 0..repeats {
        let start = Instant::now();
        match solve(std::hint::black_box(&t_eval), tol) {
            Ok((rows, steps)) => (last, counts) = (rows, steps),
            Err(e) => {
                eprintln!("diffsol at tol {tol}: {e}");
                return ExitCode::FAILURE;
            }
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let rows: Vec<String> = last
        .iter()
        .map(|[a, b]| format!("[{a:?}, {b:?}]"))
        .collect();
    println!(
        "{{\"seconds\": {:e}, \"steps\": {}, \"error_test_failures\": {}, \"rows\": [{}]}}",
        times[times.len() / 2],
        counts[0],
        counts[1],
        rows.join(", ")
    );
    ExitCode::SUCCESS
}
