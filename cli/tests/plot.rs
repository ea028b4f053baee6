//! `sitc plot`: SVG figures of CSV traces, their options and errors.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::str::contains;
use std::path::PathBuf;

/// A small trace: one real variable and one logical one.
const TRACE: &str = "t,h,q\n0,1,0\n0.5,0.75,0\n1,0.5625,1\n1.5,0.421875,1\n2,0.31640625,0\n";

fn sitc() -> assert_cmd::Command {
    cargo_bin_cmd!("sitc")
}

fn trace_file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("trace.csv");
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

#[test]
fn small_plot_snapshot() {
    let (dir, path) = trace_file(TRACE);
    let svg = dir.path().join("out.svg");
    sitc()
        .arg("plot")
        .arg(&path)
        .arg("-o")
        .arg(&svg)
        .args(["--title", "Decay"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    insta::assert_snapshot!(std::fs::read_to_string(&svg).unwrap());
}

#[test]
fn default_output_path_and_title() {
    let (dir, path) = trace_file(TRACE);
    sitc().arg("plot").arg(&path).assert().success();
    let text = std::fs::read_to_string(dir.path().join("trace.svg")).unwrap();
    assert!(
        text.lines().any(|l| l == "trace.csv"),
        "title is the file name"
    );
}

#[test]
fn vars_selects_columns() {
    let (dir, path) = trace_file(TRACE);
    let svg = dir.path().join("q.svg");
    sitc()
        .arg("plot")
        .arg(&path)
        .args(["--vars", "q", "-o"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"q") && !lines.contains(&"h"));
    sitc()
        .arg("plot")
        .arg(&path)
        .args(["--vars", "h,qq"])
        .assert()
        .code(2)
        .stderr("error: --vars: the trace has no column `qq`; did you mean `q`?\n");
}

#[test]
fn bad_traces_exit_2() {
    let cases = [
        ("", "is empty"),
        (
            "time,h\n0,1\n",
            "is not a trace: its first line must be `t,<names>`",
        ),
        ("t,h\n0,1\n1,x\n", "trace.csv:3: `x` is not a number"),
        ("t,h\n0,1\n1\n", "trace.csv:3: expected 2 values, found 1"),
    ];
    for (text, message) in cases {
        let (_dir, path) = trace_file(text);
        sitc()
            .arg("plot")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    sitc()
        .args(["plot", "/nonexistent/trace.csv"])
        .assert()
        .code(2)
        .stderr("error: cannot read `/nonexistent/trace.csv`: no such file\n");
}

#[test]
fn plots_a_run_with_gaps_and_long_traces() {
    // 20,000 rows with a NaN: thinned, the NaN breaks the line, the file stays small.
    let mut text = String::from("t,y\n");
    for i in 0..20_000 {
        let y = if i == 7000 {
            f64::NAN
        } else {
            (f64::from(i) * 1e-3).sin()
        };
        text.push_str(&format!("{},{y}\n", f64::from(i) * 1e-3));
    }
    let (dir, path) = trace_file(&text);
    sitc().arg("plot").arg(&path).assert().success();
    let svg = std::fs::read_to_string(dir.path().join("trace.svg")).unwrap();
    // The series' colour (the first of the palette) is used by its two runs and the
    // legend's line only.
    assert_eq!(svg.matches("stroke=\"#1F77B4\"").count(), 2 + 1);
    assert!(svg.len() < 200_000, "{} bytes", svg.len());
}
