//! The error nobody sees of a fixed-step run (issue 47, item 2): `sitc run` estimates the
//! error of `euler` and `rk4` from a copy of the model at twice the step and warns once
//! past 5%, and stops at a value past 1e100 (a probable instability) with the rule that
//! stored it; the rows are those of the plain run, bit for bit.

use assert_cmd::cargo::cargo_bin_cmd;

const DIR: &str = "cli/tests/accuracy";

/// `sitc run ARGS` from the workspace root: exit code, stderr, stdout.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("sitc")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .arg("run")
        .args(args)
        .output()
        .expect("sitc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn model(name: &str) -> String {
    format!("{DIR}/{name}.sit")
}

/// The rows of explicit Euler on x' = v, v' = -x, computed here with the operations the
/// rules make (`x + v·dt`, `v + (-x)·dt`), and the time of step k as the double nearest
/// k·dt (`k / 100` for dt = 0.01).
fn euler_rows(steps: u32) -> String {
    let (mut x, mut v) = (1.0f64, 0.0f64);
    let mut out = String::from("t,x,v\n0,1,0\n");
    for k in 1..=steps {
        let a = -x;
        x += v * 0.01;
        v += a * 0.01;
        out.push_str(&format!("{},{x},{v}\n", f64::from(k) / 100.0));
    }
    out
}

#[test]
fn an_oscillator_whose_energy_grows_under_euler_is_reported_once() {
    let (code, stderr, stdout) = run(&[&model("oscillator"), "--dt", "0.01", "--t-end", "100"]);
    assert_eq!(code, 0);
    // The energy grew from 0.5 to about 1.36: the amplitude by e^0.5 − 1 = 65%; the
    // estimate (the difference to the run at 2·dt) says 38%, the right size.
    insta::assert_snapshot!("euler_oscillator", stderr);
    // The rows are the plain run's, bit for bit: the estimate runs on a copy.
    assert_eq!(stdout, euler_rows(10_000));
    let last: Vec<f64> = (stdout.lines().last().unwrap().split(','))
        .map(|s| s.parse().unwrap())
        .collect();
    let energy = 0.5 * (last[1] * last[1] + last[2] * last[2]);
    assert!((energy - 1.359).abs() < 1e-3, "{energy}");
    // `-q` keeps it quiet.
    let (code, stderr, _) = run(&[&model("oscillator"), "--dt", "0.01", "--t-end", "100", "-q"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn accurate_runs_say_nothing() {
    // rk4 at the same step: an error of about 1e-9.
    let (code, stderr, _) = run(&[
        &model("oscillator"),
        "--dt",
        "0.01",
        "--t-end",
        "100",
        "--method",
        "rk4",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    // Semi-implicit Euler keeps the energy: its error (a phase of about 0.6%) is below
    // the threshold, although each step's local error is the explicit one's.
    let (code, stderr, _) = run(&[&model("symplectic"), "--dt", "0.01", "--t-end", "100"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    // An adaptive method controls its own error.
    let (code, stderr, _) = run(&[
        &model("oscillator"),
        "--dt",
        "0.01",
        "--t-end",
        "10",
        "--method",
        "dopri5",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn a_step_past_the_stability_limit_warns_then_stops_past_1e100() {
    // To t = 1 the values stay below 1e100 (|y| = 1.5^400 = 1e70): a warning, exit 0.
    let args = [
        &model("relaxation") as &str,
        "--dt",
        "2.5e-3",
        "--t-end",
        "1",
    ];
    let (code, stderr, _) = run(&args);
    assert_eq!(code, 0);
    insta::assert_snapshot!("unstable_relaxation_warning", stderr);
    // To t = 2 they pass 1e100 in step 552, from t = 1.3775: `rate = -k·y` is
    // 1000·1.5^551 = 1.06e100 there (y itself would in step 568). The rule that stored
    // the first such value, exit 1, the rows before that step written.
    let args = [
        &model("relaxation") as &str,
        "--dt",
        "2.5e-3",
        "--t-end",
        "2",
    ];
    let (code, stderr, stdout) = run(&args);
    assert_eq!(code, 1);
    insta::assert_snapshot!("unstable_relaxation_error", stderr);
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("1.3775,"), "{last}");
    // --allow-non-finite runs on, with a warning.
    let (code, allowed, stdout) = run(&[&args[..], &["--allow-non-finite"]].concat());
    assert_eq!(code, 0);
    insta::assert_snapshot!("unstable_relaxation_allowed", allowed);
    assert!(stdout.lines().last().unwrap().starts_with("2,"));
    // --check-finite stops at the same rule.
    let (code, checked, _) = run(&[&args[..], &["--check-finite"]].concat());
    assert_eq!(code, 1);
    assert_eq!(checked.lines().next(), stderr.lines().next());
}

/// `#[allow(non_finite, reason = "…")]` (issue 47, item 3): a model that means a value to
/// be infinite runs on past it in `sitc run` and `sitc sweep` as with
/// `--allow-non-finite` (a warning, exit 0); `--check-finite` still stops; without the
/// attribute the run stops at the rule.
#[test]
fn a_model_that_allows_non_finite_values_runs_on() {
    let args = [&model("resonance") as &str, "--dt", "0.25", "--t-end", "2"];
    let (code, stderr, stdout) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\n1,0,inf\n"), "{stdout}");
    insta::assert_snapshot!("resonance_allowed", stderr);
    let (code, stderr, _) = run(&[&args[..], &["--check-finite"]].concat());
    assert_eq!(code, 1);
    assert!(
        stderr.contains("rule `gain = 1 / x` made `gain` = inf"),
        "{stderr}"
    );
    // The same model without the attribute stops.
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.sit");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/accuracy/resonance.sit"
    ))
    .unwrap()
    .replace("#[allow(non_finite", "// #[allow(non_finite");
    std::fs::write(&plain, text).unwrap();
    let (code, _, _) = run(&[plain.to_str().unwrap(), "--dt", "0.25", "--t-end", "2"]);
    assert_eq!(code, 1);
    // A sweep takes its rows as the answer.
    let out = cargo_bin_cmd!("sitc")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args([
            "sweep",
            &model("resonance"),
            "--param",
            "x=-1,-2",
            "--dt",
            "0.25",
        ])
        .args(["--t-end", "2", "--summary", "max"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "x,max(x),max(gain)\n-1,1,inf\n-2,0,inf\n"
    );
}

/// `sitc sweep ARGS` from the workspace root: exit code, stderr, stdout.
fn sweep(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("sitc")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .arg("sweep")
        .args(args)
        .output()
        .expect("sitc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// In a sweep, a row whose values pass 1e100 is an error as `sitc run` stops at it
/// (issue 47, item 2), named by the same rule at the same time; the other rows go on,
/// and the whole table is written. Before, the row of k = 1000 was 4.5e105 with exit 0.
#[test]
fn a_sweep_row_past_1e100_is_an_error_the_others_go_on() {
    let args = [
        &model("relaxation") as &str,
        "--param",
        "k=10,1000,100",
        "--dt",
        "2.5e-3",
        "--t-end",
        "2",
        "--summary",
        "final,max",
    ];
    let (code, stderr, stdout) = sweep(&args);
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("sweep_unstable_relaxation", stderr);
    // The stable rows are exact to the Euler decay (1 − k·dt)^800, the unstable one is
    // kept as computed: (1 − 2.5)^800.
    let rows: Vec<Vec<f64>> = (stdout.lines().skip(1))
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        (rows[0][1] / 0.975f64.powi(800) - 1.0).abs() < 1e-9,
        "{stdout}"
    );
    assert!(
        (rows[1][1] / 1.5f64.powi(800) - 1.0).abs() < 1e-9,
        "{stdout}"
    );
    assert!(
        (rows[2][1] / 0.75f64.powi(800) - 1.0).abs() < 1e-9,
        "{stdout}"
    );
    // The rule and time are those `sitc run` names for k = 1000.
    let (_, run_err, _) = run(&[&model("relaxation"), "--dt", "2.5e-3", "--t-end", "2"]);
    let rule = run_err
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("error: ");
    assert!(
        stderr.contains(&format!("error: row 2 (k=1000): {rule}")),
        "{stderr}\n{run_err}"
    );
    // --allow-non-finite takes the row as the answer: the same table, exit 0.
    let (code, _, allowed) = sweep(&[&args[..], &["--allow-non-finite"]].concat());
    assert_eq!((code, allowed.as_str()), (0, stdout.as_str()));
}

/// A continuous state that grows by 1e10 in one step is a probable instability too
/// (issue 47, item 2): Euler steps next to the pole of `1 / (time - a)` and over it, and
/// the run went on to y = −1e11 at t = 1 with exit 0. Now it stops at the step that
/// made it, naming the rule, with the rows before it; --allow-non-finite warns once.
#[test]
fn a_state_that_grows_by_1e10_in_one_step_stops_the_run() {
    let args = [&model("pole") as &str, "--dt", "0.1", "--t-end", "1"];
    let (code, stderr, stdout) = run(&args);
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("pole_stepped_over", stderr);
    // The rows to the step's start, t = 0.3, the values of Euler's sum of 1/(t_k − a).
    let last: Vec<f64> = (stdout.lines().last().unwrap().split(','))
        .map(|s| s.parse().unwrap())
        .collect();
    let a = 0.300000000001f64;
    let sum: f64 = [0.0, 0.1, 0.2].iter().map(|t| 0.1 / (t - a)).sum();
    assert_eq!(last[0], 0.3);
    assert!((last[1] - sum).abs() < 1e-9, "{last:?} {sum}");
    let (code, allowed, stdout) = run(&[&args[..], &["--allow-non-finite"]].concat());
    assert_eq!(code, 0);
    insta::assert_snapshot!("pole_stepped_over_allowed", allowed);
    assert!(stdout.lines().last().unwrap().starts_with("1,-"));
    // A state that leaves 0 fast, or decays, is not an instability: the stable
    // relaxation says nothing of one. At k·dt = 1 Euler's first step puts y at 0 (the
    // exact 0.37): that transient's error is past the threshold, and said (one sample's
    // local error alone is past it, though the median sample sits where y is gone).
    let (code, stderr, _) = run(&[&model("relaxation"), "--dt", "1e-3", "--t-end", "1"]);
    assert_eq!(code, 0);
    assert!(!stderr.contains("instability"), "{stderr}");
    assert!(
        stderr.starts_with("warning: the fixed steps of `euler` at --dt 0.001"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // At k·dt = 0.01 the first step errs by 5e-5: nothing is said.
    let (code, stderr, _) = run(&[&model("relaxation"), "--dt", "1e-5", "--t-end", "0.01"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}
