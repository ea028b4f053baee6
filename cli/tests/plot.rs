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
        (
            "t,h\n0,1\n1,2x\n",
            "trace.csv:3: `2x` is not a number or a state's name",
        ),
        ("t,h\n0,1\nx,1\n", "trace.csv:3: `x` is not a time"),
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

/// The vertical lines of colour `stroke` in `svg`: (x, top y, bottom y).
fn vertical_lines(svg: &str, stroke: &str) -> Vec<(i64, i64, i64)> {
    polylines(svg)
        .filter(|(s, _)| *s == stroke)
        .map(|(_, p)| {
            assert!(p.len() == 2 && p[0].0 == p[1].0, "a vertical line: {p:?}");
            (p[0].0, p[0].1.min(p[1].1), p[0].1.max(p[1].1))
        })
        .collect()
}

/// The polylines of `svg`: their stroke and points.
fn polylines(svg: &str) -> impl Iterator<Item = (&str, Vec<(i64, i64)>)> {
    svg.lines().filter_map(|l| {
        let l = l.strip_prefix("<polyline ")?;
        let attr = |name: &str| {
            let start = l.find(&format!("{name}=\""))? + name.len() + 2;
            Some(&l[start..start + l[start..].find('"')?])
        };
        let points = (attr("points")?.split_whitespace())
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        Some((attr("stroke")?, points))
    })
}

#[test]
fn event_log_marks_the_strips() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (trace, log, svg) = (
        dir.path().join("trace.csv"),
        dir.path().join("log.csv"),
        dir.path().join("light.svg"),
    );
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/models/traffic_light.sit"
    );
    sitc()
        .args([
            "run", model, "--dt", "0.5", "--t-end", "70", "--record", "all",
        ])
        .arg("--events")
        .arg(&log)
        .arg("-o")
        .arg(&trace)
        .assert()
        .success();
    sitc()
        .arg("plot")
        .arg(&trace)
        .args(["--vars", "elapsed,go,light", "--events"])
        .arg(&log)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success()
        .stderr("");
    let text = std::fs::read_to_string(&svg).unwrap();
    // go: 0 -> 1 at 30, 1 -> 0 at 55; light: green at 30, yellow at 55, red at 60.
    let marks = vertical_lines(&text, "#404040");
    assert_eq!(marks.len(), 5, "{marks:?}");
    let x: Vec<i64> = marks.iter().map(|m| m.0).collect();
    let (x30, x55, x60) = (x[0], x[1], x[4]);
    assert_eq!((x[2], x[3]), (x30, x55), "the strips share the time axis");
    // The time axis is linear: 25 s from 30 to 55 is five times the 5 s to 60.
    assert!(((x55 - x30) - 5 * (x60 - x55)).abs() <= 3, "{x:?}");
    // Each mark is where its strip's step line jumps, within the mark's strip.
    for &(mx, top, bottom) in &marks {
        let jumps = polylines(&text).any(|(stroke, p)| {
            stroke != "#404040"
                && p.windows(2).any(|w| {
                    w[0].0 == mx
                        && w[1].0 == mx
                        && w[0].1 != w[1].1
                        && (top..=bottom).contains(&w[0].1)
                        && (top..=bottom).contains(&w[1].1)
                })
        });
        assert!(jumps, "no step at the mark x = {mx}");
    }
    // The marks' labels, and the mode's strip named by its states.
    let lines: Vec<&str> = text.lines().collect();
    for label in ["1", "0", "green", "yellow", "red"] {
        assert!(lines.contains(&label), "{label}");
    }
    let count = |s: &str| lines.iter().filter(|l| **l == s).count();
    // green: a mark and a tick label; red: a mark and a tick label.
    assert_eq!((count("green"), count("yellow"), count("red")), (2, 2, 2));
}

#[test]
fn run_plot_marks_its_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("light.svg");
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/models/traffic_light.sit"
    );
    // --explain computes the log too; --every 4 thins the trace, not the marks.
    sitc()
        .args(["run", model, "--dt", "0.5", "--t-end", "70", "--every", "4"])
        .args(["--explain", "light", "--plot"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(vertical_lines(&text, "#404040").len(), 5);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"yellow"));
    // Without a log, no marks.
    sitc()
        .args(["run", model, "--dt", "0.5", "--t-end", "70", "-o"])
        .arg(dir.path().join("t.csv"))
        .arg("--plot")
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(vertical_lines(&text, "#404040").is_empty());
}

#[test]
fn bad_event_logs_exit_2() {
    let (dir, path) = trace_file(TRACE);
    let log = dir.path().join("log.csv");
    let cases = [
        (
            "t,h\n0,1\n",
            "is not an event log: its first line must be `t,name,from,to,rule`",
        ),
        (
            "t,name,from,to,rule\nx,q,0,1,\n",
            "log.csv:2: `x` is not a time",
        ),
        (
            "t,name,from,to,rule\n1,q\n",
            "log.csv:2: expected 5 fields, found 2",
        ),
    ];
    for (text, message) in cases {
        std::fs::write(&log, text).unwrap();
        sitc()
            .arg("plot")
            .arg(&path)
            .arg("--events")
            .arg(&log)
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    sitc()
        .arg("plot")
        .arg(&path)
        .args(["--events", "/nonexistent/log.csv"])
        .assert()
        .code(2)
        .stderr("error: --events: cannot read `/nonexistent/log.csv`: no such file\n");
}

#[test]
fn a_runs_modes_are_written_by_name_and_drawn_as_named_strips() {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("light.csv");
    let light = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/models/traffic_light.sit"
    );
    sitc()
        .args([
            "run", light, "--dt", "0.5", "--t-end", "60", "--every", "60",
        ])
        .arg("-o")
        .arg(&csv)
        .assert()
        .success();
    // The mode's column holds its state's name (the index stays for `Model`).
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        text,
        "t,elapsed,go,light\n0,0,0,red\n30,0,1,green\n60,0,0,red\n"
    );
    // `sitc plot` reads the names back: a strip whose levels are the states.
    let svg = dir.path().join("light.svg");
    sitc()
        .arg("plot")
        .arg(&csv)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&svg).unwrap();
    for state in ["red", "green"] {
        assert!(
            svg.lines().any(|l| l.trim() == state),
            "a level named {state}"
        );
    }
    // So does `sitc run --plot`, with every state in declaration order.
    let out = dir.path().join("run.svg");
    sitc()
        .args([
            "run", light, "--dt", "0.5", "--t-end", "60", "--every", "60", "--plot",
        ])
        .arg(&out)
        .arg("-o")
        .arg(dir.path().join("again.csv"))
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.lines().any(|l| l.trim() == "yellow"),
        "the run's strip names every state"
    );
}

/// A platform `p = A * sin(time)` computed in the step: its row value is the step's
/// start's (`sitc info`: `t-dt`), so the plot names it `p (t−dt)` and draws each row's
/// value at the time before (the first, the initial pass's, at 0): its line starts
/// twice at t = 0 and ends one step before `x`'s. Without the model, as recorded.
#[test]
fn values_of_the_steps_start_are_drawn_at_their_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("plat.sit");
    let text = "model Plat {\n    output real p;\n    output real x = 0;\n    \
                p = sin(time);\n    x = integral(1);\n}\n";
    std::fs::write(&model, text).expect("write");
    let (csv, svg) = (dir.path().join("plat.csv"), dir.path().join("plat.svg"));
    sitc()
        .arg("run")
        .arg(&model)
        .args(["--dt", "0.5", "--t-end", "3", "-q", "-o"])
        .arg(&csv)
        .arg("--plot")
        .arg(&svg)
        .assert()
        .success();
    let lines = |svg: &str| -> Vec<Vec<(i64, i64)>> {
        (polylines(svg))
            .filter(|(_, p)| p.len() > 2)
            .map(|(_, p)| p)
            .collect()
    };
    let drawn = std::fs::read_to_string(&svg).unwrap();
    // `p` is `sin`'s: dimensionless (`1`), as the unit check infers it.
    assert!(drawn.lines().any(|l| l == "p [1] (t−dt)"), "{drawn}");
    assert!(drawn.lines().any(|l| l == "x"), "{drawn}");
    let [p, x] = lines(&drawn).try_into().expect("two lines");
    assert_eq!((p.len(), x.len()), (7, 7));
    assert_eq!(p[0].0, p[1].0);
    assert_eq!(p[6].0, x[5].0);
    // `sitc plot` of the trace: the same with --source, as recorded without it.
    let again = dir.path().join("again.svg");
    sitc()
        .arg("plot")
        .arg(&csv)
        .arg("--source")
        .arg(&model)
        .arg("-o")
        .arg(&again)
        .assert()
        .success();
    assert_eq!(
        lines(&std::fs::read_to_string(&again).unwrap()),
        [p, x.clone()]
    );
    sitc()
        .arg("plot")
        .arg(&csv)
        .arg("-o")
        .arg(&again)
        .assert()
        .success();
    let plain = std::fs::read_to_string(&again).unwrap();
    assert!(
        plain.lines().any(|l| l == "p") && !plain.contains("t−dt"),
        "{plain}"
    );
    let [p, _] = lines(&plain).try_into().expect("two lines");
    assert_eq!(
        p.iter().map(|q| q.0).collect::<Vec<_>>(),
        x.iter().map(|q| q.0).collect::<Vec<_>>()
    );
}

/// `sitc plot` labels a `sitc run --units` trace's axes with its units; `--source` gives
/// a trace without them the model's units.
#[test]
fn units_label_the_axes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (model, csv, svg) = (
        dir.path().join("drop.sit"),
        dir.path().join("drop.csv"),
        dir.path().join("drop.svg"),
    );
    std::fs::write(&model, include_str!("units_drop.sit")).unwrap();
    let run = |units: bool| {
        let mut cmd = sitc();
        cmd.arg("run")
            .arg(&model)
            .args(["--t-end", "0.5", "-o"])
            .arg(&csv);
        if units {
            cmd.arg("--units");
        }
        cmd.assert().success();
    };
    let plot = |args: &[&str]| -> Vec<String> {
        sitc()
            .arg("plot")
            .arg(&csv)
            .arg("-o")
            .arg(&svg)
            .args(args)
            .assert()
            .success();
        let text = std::fs::read_to_string(&svg).unwrap();
        text.lines().map(|l| l.trim().to_string()).collect()
    };
    run(true);
    let lines = plot(&[]);
    for label in ["h [m]", "n", "time [s]"] {
        assert!(lines.iter().any(|l| l == label), "{label} missing");
    }
    // One column: the y axis says it.
    assert!(plot(&["--vars", "h"]).iter().any(|l| l == "h [m]"));
    run(false);
    assert!(!plot(&[]).iter().any(|l| l == "h [m]"));
    let source = model.to_str().unwrap();
    assert!(plot(&["--source", source]).iter().any(|l| l == "h [m]"));
}
