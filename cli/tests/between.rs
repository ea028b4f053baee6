//! `sitc sweep --summary max,min,first-crossing=T` between the rows (issue 47, item 6):
//! under the adaptive methods the summaries of a continuous state are taken on every
//! internal step's dense output and at located events, and agree with closed forms within
//! the method's tolerance where the rows (`--dt` much longer than the internal steps) miss
//! the peak by far more; under a fixed-step method they stay at the rows, with a note.

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::PathBuf;

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/models/{name}.sit"))
}

/// The note of `sit_host::between::AT_ROWS`.
const AT_ROWS: &str =
    "note: max, min and first-crossing of a variable that is not a continuous state";

/// `sitc sweep FILE ARGS`: the one row of values (after the axis) and stderr.
fn row(file: &str, args: &[&str]) -> (Vec<f64>, String) {
    let out = cargo_bin_cmd!("sitc")
        .arg("sweep")
        .arg(model(file))
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    let csv = String::from_utf8(out.stdout).expect("UTF-8");
    let line = csv.lines().nth(1).expect("a row");
    let values = line
        .split(',')
        .skip(1)
        .map(|v| v.parse().expect("a number"));
    (
        values.collect(),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// The RLC circuit's current from rest (`E0 = I0 = 0`): `I(t) = −U/(L·ωd)·e^(−αt)·sin(ωd·t)`,
/// `α = R/(2L)`, `ωd = sqrt(1/(LC) − α²)`; its first minimum (at `tan(ωd·t) = ωd/α`), the
/// maximum half a period later, and the first time it reaches −0.5 (bisection on the
/// closed form).
fn rlc_exact(r: f64) -> (f64, f64, f64) {
    let (l, c, u) = (0.1, 1e-3, 10.0);
    let a = r / (2.0 * l);
    let wd = (1.0 / (l * c) - a * a).sqrt();
    let i = |t: f64| -u / (l * wd) * (-a * t).exp() * (wd * t).sin();
    let first = (wd / a).atan() / wd;
    let (mut lo, mut hi) = (0.0, first);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if i(mid) <= -0.5 { hi = mid } else { lo = mid }
    }
    (i(first), i(first + std::f64::consts::PI / wd), hi)
}

#[test]
fn rlc_peaks_and_crossing_against_the_closed_form() {
    let (min, max, cross) = rlc_exact(2.0);
    // A host step of 10 ms (a sixth of the period): the rows see the peaks far from
    // their top.
    let common = [
        "--param",
        "R=2",
        "--dt",
        "0.01",
        "--t-end",
        "0.1",
        "--record",
        "I",
        "--summary",
        "min,max,first-crossing=-0.5",
    ];
    for method in ["dopri5", "tsit5", "rodas4", "rodas5p", "radau5"] {
        let (v, err) = row("rlc", &[&common[..], &["--method", method]].concat());
        assert_eq!(err, "", "{method}");
        // rtol 1e-6, atol 1e-9 (the defaults): the local errors of a few dozen steps to
        // the first peak, each below 1e-6 of |I| ≤ 1, and the dense output's own error
        // (of the same order): 1e-6 absolute on the peaks, 1e-6 s on the crossing (its
        // slope is about 190 A/s, so 1e-6 A of error moves it by 5e-9 s).
        assert!((v[0] - min).abs() < 1e-6, "{method}: min {} vs {min}", v[0]);
        assert!((v[1] - max).abs() < 1e-6, "{method}: max {} vs {max}", v[1]);
        assert!(
            (v[2] - cross).abs() < 1e-6,
            "{method}: crossing {} vs {cross}",
            v[2]
        );
    }
    // Under rk4 the same summaries are taken at the rows, and say so: off by 0.1 A.
    let (v, err) = row("rlc", &[&common[..], &["--method", "rk4"]].concat());
    assert!(
        err.starts_with(AT_ROWS) && err.lines().count() == 1,
        "{err}"
    );
    assert!((v[0] - min).abs() > 0.05, "rk4 rows: {}", v[0]);
    assert!((v[2] - cross).abs() > 5e-4, "rk4 rows: {}", v[2]);
}

#[test]
fn a_crossing_at_a_located_event_inside_a_host_step() {
    // The thermostat warms from 12 °C toward T_out + P/k = 45 °C with the time constant
    // C/k = 13 333 s and switches off at 20.5 °C, inside a host step of 100 s: the rows
    // never reach 20.5 (NaN before), the located event does, at τ·ln(33/24.5).
    let exact = 2.0e6 / 150.0 * (33.0f64 / 24.5).ln();
    let args = [
        "--param",
        "k=150",
        "--method",
        "dopri5",
        "--dt",
        "100",
        "--t-end",
        "10000",
        "--record",
        "T",
        "--summary",
        "max,min,first-crossing=20.5",
    ];
    let (v, err) = row("thermostat", &args);
    assert_eq!(err, "");
    // The sawtooth between 19.5 and 20.5 from the first switch on: the peaks are the
    // located switches, at 20.5 within the location's 2^-50 of the internal step.
    assert!((v[0] - 20.5).abs() < 1e-9 && v[0] >= 20.5, "max {}", v[0]);
    assert_eq!(v[1], 12.0);
    // Relative 1e-9: rtol 1e-6 on a state that changes slowly (the error per step is far
    // below it on this smooth exponential), located to 2^-50 of the step.
    assert!((v[2] - exact).abs() < 1e-9 * exact, "{} vs {exact}", v[2]);
    // Under euler (the model's own method) the summaries are the rows', with the note.
    let euler = [&args[..2], &args[4..]].concat();
    let (v, err) = row("thermostat", &euler);
    assert!(
        err.starts_with(AT_ROWS) && err.lines().count() == 1,
        "{err}"
    );
    assert!(v[2].is_finite(), "euler rows: {}", v[2]);
}
