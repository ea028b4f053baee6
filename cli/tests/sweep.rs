//! `sitc sweep`: the table, bit-identity of a row with `sitc run`, thread-independent
//! output, summaries, and the usage errors (one line, exit 2).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::PathBuf;

fn sitc() -> assert_cmd::Command {
    cargo_bin_cmd!("sitc")
}

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/models/{name}.sit"))
}

/// The one line on stderr of a sweep whose `max`, `min` or `first-crossing` columns are
/// taken at the rows (`sit_host::between::AT_ROWS`).
const AT_ROWS: &str =
    "note: max, min and first-crossing of a variable that is not a continuous state";

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().clone();
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    // Nothing, or the note that summaries are taken at the rows, or the estimate of the
    // fixed steps' error (Van der Pol under euler at dt 0.01 errs by 5–21%).
    assert!(
        err.lines().all(|l| l.starts_with(AT_ROWS)
            || (l.starts_with("warning: in ") && l.contains("the fixed steps of `euler`"))),
        "{err}"
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

const VDP: [&str; 10] = [
    "--param",
    "mu=0..2:5",
    "--param",
    "x0=1,2.5",
    "--dt",
    "0.01",
    "--t-end",
    "7",
    "--record",
    "x0,x1",
];

#[test]
fn one_row_per_combination_in_order() {
    let csv = stdout(sitc().arg("sweep").arg(model("van_der_pol")).args(VDP));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "mu,x0,final(x0),final(x1)");
    assert_eq!(lines.len(), 1 + 5 * 2);
    let axes: Vec<(&str, &str)> = lines[1..]
        .iter()
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    let want = [
        ("0", "1"),
        ("0", "2.5"),
        ("0.5", "1"),
        ("0.5", "2.5"),
        ("1", "1"),
        ("1", "2.5"),
        ("1.5", "1"),
        ("1.5", "2.5"),
        ("2", "1"),
        ("2", "2.5"),
    ];
    assert_eq!(axes, want);
}

/// `--units`: each column's title with its unit — an axis and `final`, `max`, `min`
/// their variable's, a first crossing `s`, a variable without a unit its title alone —
/// and the rows the same as without it.
#[test]
fn units_in_the_header_on_request() {
    let args = [
        "--param",
        "e=0.5,0.7",
        "--param",
        "h0=1,2",
        "--dt",
        "0.001",
        "--t-end",
        "1",
        "--record",
        "h,v,g",
        "--summary",
        "final,max",
        "--summary",
        "first-crossing(h)=0.5",
    ];
    let ball = model("bouncing_ball");
    let plain = stdout(sitc().arg("sweep").arg(&ball).args(args));
    let with = stdout(sitc().arg("sweep").arg(&ball).args(args).arg("--units"));
    let (plain_head, plain_rows) = plain.split_once('\n').unwrap();
    let (head, rows) = with.split_once('\n').unwrap();
    assert_eq!(rows, plain_rows);
    assert_eq!(
        plain_head,
        "e,h0,final(h),max(h),crossing(h=0.5),final(v),max(v),final(g),max(g)"
    );
    assert_eq!(
        head,
        "e [1],h0 [m],final(h) [m],max(h) [m],crossing(h=0.5) [s],final(v) [m/s],max(v) [m/s],final(g) [m/s^2],max(g) [m/s^2]"
    );
    // Van der Pol is written in dimensionless time: its states have no unit, `mu` is
    // declared dimensionless.
    let vdp = model("van_der_pol");
    let head = stdout(sitc().arg("sweep").arg(&vdp).args(VDP).arg("--units"));
    assert_eq!(head.lines().next(), Some("mu [1],x0,final(x0),final(x1)"));
}

/// Every row's final values are the last row of `sitc run` with the same `--set`s, as
/// text (both print `f64` with `{}`, so equal text is equal bits).
#[test]
fn rows_are_bit_identical_to_sitc_run() {
    let csv = stdout(sitc().arg("sweep").arg(model("van_der_pol")).args(VDP));
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let trace = stdout(
            sitc()
                .arg("run")
                .arg(model("van_der_pol"))
                .args(["--set", &format!("mu={}", fields[0])])
                .args(["--set", &format!("x0={}", fields[1])])
                .args(["--dt", "0.01", "--t-end", "7", "--record", "x0,x1"])
                // Van der Pol under euler at this step errs by about 5% (issue 47,
                // item 2's warning): the rows are what is compared here.
                .arg("-q"),
        );
        let last = trace.lines().last().unwrap();
        let run_values: Vec<&str> = last.split(',').skip(1).collect();
        assert_eq!(run_values, fields[2..], "row {line}");
    }
}

/// A study whose every row is decided by a guard (σ rules and `otherwise`): the same
/// identity with `sitc run`, here on the thermostat.
#[test]
fn guarded_model_rows_match_sitc_run() {
    let csv = stdout(sitc().arg("sweep").arg(model("thermostat")).args([
        "--param",
        "k=100..200:3",
        "--param",
        "heating=false,true",
        "--dt",
        "1",
        "--t-end",
        "5000",
        "--record",
        "T,Q,heating",
    ]));
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let trace = stdout(
            sitc()
                .arg("run")
                .arg(model("thermostat"))
                .args([
                    "--set",
                    &format!("k={}", f[0]),
                    "--set",
                    &format!("heating={}", f[1]),
                ])
                .args(["--dt", "1", "--t-end", "5000", "--record", "T,Q,heating"]),
        );
        let last: Vec<&str> = trace.lines().last().unwrap().split(',').skip(1).collect();
        assert_eq!(last, f[2..], "row {line}");
    }
}

#[test]
fn output_does_not_depend_on_the_number_of_threads() {
    let run = |threads: &str| {
        stdout(
            sitc()
                .env("RAYON_NUM_THREADS", threads)
                .arg("sweep")
                .arg(model("van_der_pol"))
                .args(VDP)
                .args(["--summary", "final,max,min,first-crossing=0"]),
        )
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
}

/// Dahlquist: x_n = (1 − k·dt)^n from x = 1, forward Euler. The max is the start, the
/// min the end, and x first reaches 1/2 at row n = ceil(ln 2 / −ln(1 − k·dt)), at the
/// time on the line between rows n − 1 and n.
#[test]
fn summaries_against_the_closed_form() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study.csv");
    sitc()
        .arg("sweep")
        .arg(model("dahlquist"))
        .args([
            "--param", "k=1,2", "--dt", "0.1", "--t-end", "10", "--record", "x",
        ])
        .args([
            "--summary",
            "final",
            "--summary",
            "max,min,first-crossing=0.5",
        ])
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    let csv = std::fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("k,final(x),max(x),min(x),crossing(x=0.5)")
    );
    for (line, k) in lines.zip([1.0f64, 2.0]) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let factor = 1.0 - k * 0.1;
        // 100 steps of two roundings each against powi's few: relative 1e-13 is ample.
        assert!(
            (v[1] - factor.powi(100)).abs() <= 1e-13 * factor.powi(100),
            "{line}"
        );
        assert_eq!(v[2], 1.0);
        assert_eq!(v[3], v[1]);
        // x reaches 1/2 between the rows n − 1 and n, on the line through them.
        let n = (2f64.ln() / -factor.ln()).ceil();
        let before = factor.powi(n as i32 - 1);
        let t = (n - 1.0) * 0.1 + 0.1 * (before - 0.5) / (before - before * factor);
        // The rows' times are sums of steps of 0.1, not n·0.1: apart by a few ulps.
        assert!((v[4] - t).abs() < 1e-12, "{line}: n = {n}, t = {t}");
    }
}

fn fails(args: &[&str], message: &str) {
    let out = sitc()
        .arg("sweep")
        .arg(model("van_der_pol"))
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.trim_end(), message);
}

#[test]
fn usage_errors_are_one_line_and_exit_2() {
    fails(
        &["--param", "mux=0..1:3"],
        "error: --param mux: no variable named `mux`; did you mean `mu`?",
    );
    fails(
        &["--param", "mu=0..1:0"],
        "error: --param mu: `0..1:0` has N = 0 values; N must be at least 1",
    );
    fails(
        &["--param", "mu=0..1"],
        "error: --param mu: `0..1` is not LO..HI:N (e.g. 0..1:11)",
    );
    fails(
        &["--param", "mu=1,x"],
        "error: --param mu: `x` is not a number",
    );
    fails(
        &["--param", "mu=1", "--param", "mu=2"],
        "error: --param mu: given twice",
    );
    fails(
        &["--param", "mu=1", "--summary", "mean"],
        "error: --summary `mean`: expected final, max, min, first-crossing=THRESH or first-crossing(NAME)=THRESH",
    );
    fails(
        &["--param", "mu=1", "--record", "x9"],
        "error: --record: no variable named `x9`; did you mean `x0`?",
    );
    fails(
        &["--param", "mu=1", "--dt", "0"],
        "error: --dt must be a finite number > 0, not 0",
    );
}

#[test]
fn values_that_cannot_be_set_are_reported() {
    let err = sitc()
        .arg("sweep")
        .arg(model("thermostat"))
        .args(["--param", "heating=0,0.5", "--t-end", "1"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert_eq!(
        String::from_utf8(err).unwrap(),
        "error: the run with heating=0.5: `heating` is logical: expected 0 or 1, got 0.5\n"
    );
}

#[test]
fn derived_params_cannot_be_swept() {
    let err = sitc()
        .arg("sweep")
        .arg(model("hoop_spin"))
        .args(["--param", "J=1,2", "--t-end", "0"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert_eq!(
        String::from_utf8(err).unwrap(),
        "error: --param J: `J` is a param: it is derived from other params and cannot be set\n"
    );
}

/// The thermostat heats from T = 12 towards T_out + P/k = 45 with time constant C/k:
/// T(t) = 45 − 33·exp(−k·t/C), which reaches 20 at t = (C/k)·ln(33/25) (3701.6 s for
/// k = 150). Under dopri5 the rows are within 1e-6 of it and the time between two rows
/// of 1 s is linear to 1e-8 K (T'' = −(k/C)·T'), so the crossing is within 1e-3 s of the
/// closed form. `first-crossing(T)` is of T only: no column for Q.
#[test]
fn a_crossing_of_one_variable_against_the_exponential() {
    let csv = stdout(
        sitc()
            .arg("sweep")
            .arg(model("thermostat"))
            .args(["--param", "k=100,150", "--dt", "1", "--t-end", "5000"])
            .args(["--method", "dopri5", "--record", "T,Q"])
            .args(["--summary", "max,first-crossing(T)=20"]),
    );
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("k,max(T),crossing(T=20),max(Q)"));
    for (line, k) in lines.zip([100.0f64, 150.0]) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let t_inf = 5.0 + 6000.0 / k;
        let exact = 2.0e6 / k * ((t_inf - 12.0) / (t_inf - 20.0)).ln();
        assert!((v[2] - exact).abs() < 1e-3, "{line}: {exact}");
    }
    // Under euler T crosses 20.5 at a row; the time between rows, against the Euler
    // iteration's closed form T_n = 45 − 33·f^n, f = 1 − k·dt/C.
    let csv = stdout(
        sitc()
            .arg("sweep")
            .arg(model("thermostat"))
            .args(["--param", "k=150", "--dt", "10", "--t-end", "5000"])
            .args(["--record", "T", "--summary", "first-crossing=20.5"]),
    );
    let row: Vec<f64> = (csv.lines().nth(1).unwrap().split(','))
        .map(|x| x.parse().unwrap())
        .collect();
    let f: f64 = 1.0 - 150.0 * 10.0 / 2.0e6;
    let n = ((33.0f64 / 24.5).ln() / -f.ln()).ceil();
    let (a, b) = (
        45.0 - 33.0 * f.powi(n as i32 - 1),
        45.0 - 33.0 * f.powi(n as i32),
    );
    let t = (n - 1.0) * 10.0 + 10.0 * (20.5 - a) / (b - a);
    assert!((row[1] - t).abs() < 1e-6, "{row:?}: {t}");
}

/// A tank that drains below zero when its outflow is fast enough: `sqrt(level)` is NaN
/// from then on. Each row that met a non-finite value is named on stderr by its
/// parameter values, with the first variable and the step (issue 28, item 5); the
/// table itself is unchanged. Physics: dL/dt = -k·sqrt(L), L(0) = 1 empties at
/// t = 2/k: k = 0.5 at 4 s, k = 1 at 2 s (Euler at dt = 0.1 overshoots just before:
/// the same step as `sitc run` reports), k = 0.25 not within 6 s (at 8 s). A table read
/// past its grid is reported once, its reads added over the runs (item 7): 61 reads a
/// run (the initial pass and 60 steps), 183 in all; a draining run reads one level
/// below 0 (the step before the NaN; a NaN argument is no read past the grid).
#[test]
fn rows_that_meet_non_finite_values_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tank.sit");
    std::fs::write(
        &path,
        "model Tank {\n    param k = 0.5;\n    table valve(L) = [0, 1] -> [0, 1] clamp;\n    \
         output real level = 1;\n    output real v;\n    v = valve(level);\n    \
         level = integral(-k * sqrt(level));\n}\n",
    )
    .unwrap();
    let args = ["--param", "k=0.25,0.5,1", "--dt", "0.1", "--t-end", "6"];
    // By default those rows are errors naming the rule (issue 47, item 3), after the
    // whole table (exit 1), found by running each again in the interpreter.
    let stopped = sitc().arg("sweep").arg(&path).args(args).output().unwrap();
    assert_eq!(stopped.status.code(), Some(1));
    let errors = String::from_utf8(stopped.stderr).unwrap();
    let errors = errors.replace(path.to_str().unwrap(), "tank.sit");
    insta::assert_snapshot!("sweep_non_finite_rows_stop", errors);
    let args = [
        "--param",
        "k=0.25,0.5,1",
        "--dt",
        "0.1",
        "--t-end",
        "6",
        "--allow-non-finite",
    ];
    let out = sitc().arg("sweep").arg(&path).args(args).output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, stopped.stdout, "the same table either way");
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(csv.lines().next(), Some("k,final(level),final(v)"));
    assert!(csv.lines().nth(1).unwrap().starts_with("0.25,0."), "{csv}");
    assert_eq!(csv.lines().nth(2), Some("0.5,NaN,NaN"), "{csv}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    insta::assert_snapshot!("sweep_non_finite_rows", stderr);
    // The step of row 2 is the one `sitc run` names for k = 0.5.
    let run = sitc()
        .args([
            "run",
            path.to_str().unwrap(),
            "--set",
            "k=0.5",
            "--dt",
            "0.1",
        ])
        .args(["--t-end", "6", "--allow-non-finite"])
        .output()
        .unwrap();
    let run_err = String::from_utf8(run.stderr).unwrap();
    let step = "`level` became NaN in the step from t = 3.8 to t = 3.9";
    assert!(run_err.contains(step) && stderr.contains(step), "{run_err}");
    // `-q` hides them.
    let quiet = sitc().arg("sweep").arg(&path).args(args).arg("-q").output();
    assert_eq!(String::from_utf8(quiet.unwrap().stderr).unwrap(), "");
}

/// A sweep reports the runs whose adaptive explicit method found the model stiff
/// (Hairer's test, issue 29), as `sitc run` does for one run: once per model, with how
/// many runs, the first of them and the time, and the suggestion. Van der Pol under
/// dopri5: at mu = 1 and 10 the steps follow the tolerances; at mu = 1000 and 2000 the
/// slow branch of the relaxation oscillation (|λ| ≈ mu) bounds them by stability.
#[test]
fn a_sweep_reports_the_runs_that_looked_stiff() {
    let args = [
        "--param",
        "mu=1,10,1000,2000",
        "--method",
        "dopri5",
        "--dt",
        "1",
        "--t-end",
        "20",
    ];
    let out = sitc()
        .arg("sweep")
        .arg(model("van_der_pol"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    insta::assert_snapshot!("sweep_stiff_runs", stderr);
    // The rows are the runs' own: the last is `sitc run`'s last row at mu = 2000.
    let csv = String::from_utf8(out.stdout).unwrap();
    let run = stdout(
        sitc()
            .args(["run", model("van_der_pol").to_str().unwrap()])
            .args([
                "--set", "mu=2000", "--method", "dopri5", "--dt", "1", "--t-end", "20", "-q",
            ]),
    );
    let last = run.lines().last().unwrap();
    let row = csv.lines().last().unwrap();
    assert_eq!(
        row.split_once(',').unwrap().1,
        last.split_once(',').unwrap().1
    );
    // `-q` hides it.
    let quiet = sitc()
        .arg("sweep")
        .arg(model("van_der_pol"))
        .args(args)
        .arg("-q")
        .output();
    assert_eq!(String::from_utf8(quiet.unwrap().stderr).unwrap(), "");
}

/// `--gpu`: without an NVIDIA driver, one line that says what is missing (exit 2); with
/// one, the interpreter's rows to the bit (Van der Pol calls no function of the math
/// library). `--compiled` is refused beside it; f32 only with `--gpu`.
#[test]
fn gpu_rows_are_the_interpreters_or_it_says_what_is_missing() {
    let mut gpu = sitc();
    gpu.arg("sweep")
        .arg(model("van_der_pol"))
        .args(VDP)
        .arg("--gpu");
    match sit_gpu::cuda::available() {
        Ok(()) => {
            let interpreted = stdout(sitc().arg("sweep").arg(model("van_der_pol")).args(VDP));
            let out = gpu.assert().success().get_output().stdout.clone();
            assert_eq!(String::from_utf8(out).unwrap(), interpreted);
        }
        Err(missing) => {
            let expected = format!("error: {missing}\n");
            assert!(expected.contains("found"), "{expected}");
            gpu.assert().code(2).stdout("").stderr(expected);
        }
    }
    sitc()
        .arg("sweep")
        .arg(model("van_der_pol"))
        .args(VDP)
        .args(["--gpu", "--compiled"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the argument '--gpu' cannot be used with '--compiled'",
        ));
    // f32 on request, with --gpu only; f64 and f32 the only precisions.
    let precision = |args: &[&str], message: &str| {
        sitc()
            .arg("sweep")
            .arg(model("van_der_pol"))
            .args(VDP)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message.to_string()));
    };
    precision(
        &["--gpu-precision", "f32"],
        "the following required arguments were not provided:\n  --gpu",
    );
    precision(
        &["--gpu", "--gpu-precision", "f16"],
        "invalid value 'f16' for '--gpu-precision <P>'",
    );
    if sit_gpu::cuda::available().is_err() {
        precision(&["--gpu", "--gpu-precision", "f32"], "no CUDA driver found");
        // An input driven by --input goes to the GPU (no refusal of it): here the
        // missing driver is what stops it.
        let dir = tempfile::tempdir().unwrap();
        let series = dir.path().join("pedal.csv");
        std::fs::write(&series, "t,pedal\n0,0.5\n1,0.9\n").unwrap();
        sitc()
            .arg("sweep")
            .arg(model("vehicle"))
            .args(["--param", "mass=1200,1500", "--gpu", "--input"])
            .arg(format!("pedal={}", series.display()))
            .assert()
            .code(2)
            .stderr(predicates::str::contains("no CUDA driver found"));
    }
}

/// The table writes its reals as `sitc run` does (issue 51): the shortest text that
/// reads back to the same bits, with an exponent far from 1, in the axis labels of
/// LO..HI:N and in the collected values.
#[test]
fn numbers_far_from_one_are_written_with_an_exponent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.sit");
    std::fs::write(
        &path,
        "model Far { param k = 1; output real x; x = k * 1e-300; }\n",
    )
    .unwrap();
    let csv = stdout(sitc().arg("sweep").arg(&path).args([
        "--param",
        "k=0..1e-20:3",
        "--dt",
        "1",
        "--t-end",
        "1",
    ]));
    assert_eq!(csv, "k,final(x)\n0,0\n5e-21,5e-321\n1e-20,1e-320\n");
}

/// A sweep estimates the error of each run's fixed steps as `sitc run` does (issue 47,
/// item 2: it made none), and warns once after the table with the number of runs past
/// the threshold and the worst of them: its row, its axis values, and the very
/// estimate `sitc run` prints for the same params. The oscillator under `euler`
/// (`a = -k·x` read before both integrals) gains energy by `e^(k·dt·t)`: with `k = 4`
/// the worst row.
#[test]
fn the_error_of_fixed_steps_is_estimated_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("osc.sit");
    std::fs::write(
        &file,
        "model Osc {\n    param k = 1;\n    output real x = 1;\n    output real v = 0;\n    \
         real a;\n    a = -k * x;\n    x = integral(v);\n    v = integral(a);\n}\n",
    )
    .unwrap();
    let timing = ["--dt", "0.01", "--t-end", "100"];
    let out = sitc()
        .arg("sweep")
        .arg(&file)
        .args(["--param", "k=0.0001,1,4", "--record", "x"])
        .args(timing)
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    let line = err.lines().find(|l| l.contains("fixed steps")).expect(&err);
    assert!(
        line.starts_with("warning: in 2 of 3 runs, worst row 3 (k=4): "),
        "{line}"
    );
    let run = sitc()
        .arg("run")
        .arg(&file)
        .args(["--set", "k=4"])
        .args(timing)
        .assert()
        .success()
        .get_output()
        .clone();
    let said = String::from_utf8(run.stderr).unwrap();
    let said = said.trim_end().strip_prefix("warning: ").expect(&said);
    assert!(line.ends_with(said), "sweep: {line}\nrun: {said}");
    // `-q` hides it, as every warning.
    let quiet = sitc()
        .arg("sweep")
        .arg(&file)
        .args(["--param", "k=4", "--record", "x", "-q"])
        .args(timing)
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(quiet.stderr.is_empty());
}
