//! `sitc run --sensitivities` and `sitc fit`: the columns, a fit end to end, and the
//! messages for bad input (the flag or file, what is wrong, what was expected).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::PathBuf;

const DECAY: &str = "model Decay { param k = 0.5; param x0 = 2; output real x = x0; flag lit; x = integral(-k * x); }";

fn sitc() -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sitc");
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd
}

fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// stderr of a run that fails with `code`.
fn fails(cmd: &mut assert_cmd::Command, code: i32, dir: &tempfile::TempDir) -> String {
    let out = cmd.assert().code(code).get_output().stderr.clone();
    String::from_utf8(out)
        .expect("utf-8")
        .replace(&dir.path().display().to_string(), "DIR")
}

/// With `--record`, each recorded variable's sensitivities are written right beside it
/// (not only those of the outputs recorded by default).
#[test]
fn record_keeps_the_sensitivities_beside_each_variable() {
    let dir = tempfile::tempdir().unwrap();
    let m = file(
        &dir,
        "two.sit",
        "model Two { param k = 0.5; real y = 1; real x = 2; y = integral(-k * y); x = integral(-k * x + y); }",
    );
    let out = sitc()
        .arg("run")
        .arg(&m)
        .args(["--dt", "0.1", "--t-end", "0.2", "--record", "x,k,y"])
        .args(["--sensitivities", "k,y"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("t,x,d(x)/d(k),d(x)/d(y(0)),k,y,d(y)/d(k),d(y)/d(y(0))")
    );
}

/// `x = x0·e^(−k·t)` under Euler: `x_n = x0·(1 − k·dt)^n`, so `d(x)/d(k) =
/// −n·dt·x0·(1 − k·dt)^(n−1)` and `d(x)/d(x0) = (1 − k·dt)^n`, to rounding.
#[test]
fn run_writes_the_sensitivity_columns() {
    let dir = tempfile::tempdir().unwrap();
    let m = file(&dir, "decay.sit", DECAY);
    let out = sitc()
        .arg("run")
        .arg(&m)
        .args(["--dt", "0.1", "--t-end", "1", "--sensitivities", "k,x0,x"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t,x,d(x)/d(k),d(x)/d(x0),d(x)/d(x(0))"));
    let last: Vec<f64> = lines
        .last()
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    let (k, dt, x0, n) = (0.5f64, 0.1, 2.0, 10);
    let a = 1.0 - k * dt;
    let want = [-(n as f64) * dt * x0 * a.powi(n - 1), a.powi(n), a.powi(n)];
    for (got, w) in last[2..].iter().zip(want) {
        assert!((got - w).abs() < 1e-14, "{got} vs {w}");
    }
}

#[test]
fn bad_sensitivities_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let m = file(&dir, "decay.sit", DECAY);
    let mut errors = String::new();
    for wrt in ["kk", "lit", "k,k"] {
        errors += &fails(
            sitc().arg("run").arg(&m).args(["--sensitivities", wrt]),
            2,
            &dir,
        );
    }
    insta::assert_snapshot!(errors, @r"
    error: --sensitivities: model `Decay` has no param or state `kk` (its params: `k`, `x0`)
    error: --sensitivities: `lit` is a flag of model `Decay`; expected a param (a real constant of the run) or a real state (for its initial value)
    error: --sensitivities: `k` is given twice
    ");
}

/// Data from `x = 2·e^(−0.8·t)` with a small deterministic wobble: `k` and `x0` are
/// found near 0.8 and 2, with their standard errors and correlation.
#[test]
fn fit_recovers_the_decay() {
    let dir = tempfile::tempdir().unwrap();
    let m = file(&dir, "decay.sit", DECAY);
    let mut csv = String::from("t,x\n");
    for i in 1..=40 {
        let t = i as f64 * 0.1;
        let wobble = 1e-3 * ((i * 7919) % 13) as f64 / 13.0 - 0.5e-3;
        csv += &format!("{t},{}\n", 2.0 * (-0.8 * t).exp() + wobble);
    }
    let data = file(&dir, "m.csv", &csv);
    let out = sitc()
        .arg("fit")
        .arg(&m)
        .args(["--data"])
        .arg(&data)
        .args([
            "--param",
            "k=0.1..10",
            "--param",
            "x0",
            "--method",
            "rk4",
            "--dt",
            "0.01",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let value = |name: &str| -> (f64, f64) {
        let line = text.lines().find(|l| l.starts_with(name)).expect(name);
        let cells: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|c| c.parse().unwrap())
            .collect();
        (cells[0], cells[1])
    };
    let (k, sk) = value("k ");
    let (x0, sx) = value("x0 ");
    assert!((k - 0.8).abs() < 3.0 * sk && sk < 1e-3, "{text}");
    assert!((x0 - 2.0).abs() < 3.0 * sx && sx < 1e-3, "{text}");
    assert!(
        text.contains("correlations:") && text.contains("runs"),
        "{text}"
    );
    // `--plot -`: the drawing alone on standard output, the same report on stderr.
    let out = sitc()
        .arg("fit")
        .arg(&m)
        .args(["--data"])
        .arg(&data)
        .args(["--param", "k=0.1..10", "--param", "x0", "--method", "rk4"])
        .args(["--dt", "0.01", "--plot", "-"])
        .assert()
        .success();
    let (svg, err) = (&out.get_output().stdout, &out.get_output().stderr);
    assert!(svg.starts_with(b"<svg"), "{}", String::from_utf8_lossy(svg));
    assert_eq!(String::from_utf8_lossy(err), text);
    assert!(!dir.path().join("-").exists() && !std::path::Path::new("-").exists());
}

#[test]
fn bad_fit_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let m = file(&dir, "decay.sit", DECAY);
    let good = file(&dir, "m.csv", "t,x\n0.1,1.9\n0.2,1.8\n");
    let wrong = file(&dir, "wrong.csv", "t,y\n0.1,1.9\n");
    let mut errors = String::new();
    let cases: [(&[&str], &PathBuf); 5] = [
        (&["--param", "kk"], &good),
        (&["--param", "k=2..1"], &good),
        (&["--param", "k=-1..1", "--log", "k"], &good),
        (&["--param", "k"], &wrong),
        (&["--param", "k"], &dir.path().join("missing.csv")),
    ];
    for (args, data) in cases {
        errors += &fails(
            sitc().arg("fit").arg(&m).arg("--data").arg(data).args(args),
            2,
            &dir,
        );
    }
    insta::assert_snapshot!(errors, @r"
    error: --param: model `Decay` has no param or state `kk` (its params: `k`, `x0`)
    error: --param k=2..1: the bounds are empty (2 is not below 1); expected LO < HI
    error: --param k=-1..1: fitted in log space (--log) but its lower bound -1 is negative; expected LO >= 0
    error: DIR/wrong.csv: column `y` is not a variable of model `Decay`; expected columns named as its variables (k, x0, x, lit)
    error: DIR/missing.csv: cannot be read (entity not found)
    ");
}
