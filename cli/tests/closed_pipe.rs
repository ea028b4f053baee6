//! Every command that writes to standard output, with stdout a pipe whose reader has
//! already gone (`sitc ... | head -1` once `head` has its line): `sitc` stops quietly
//! with exit 0, without a panic's message or its exit code 101.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A model with a warning (`sitc check --format json` prints it) and an unformatted
/// layout (`sitc fmt --check` prints a diff).
const SLOPPY: &str =
    "model Sloppy {   output real x = 1;\n  param unused = 2;\n x = integral(-x); }\n";

/// `sitc ARGS` (run from the repository root) with stdout a pipe closed before `sitc`
/// writes to it, and `stdin` on its standard input: its exit code and stderr.
fn closed_stdout(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("sitc starts");
    {
        use std::io::Write as _;
        let mut input = child.stdin.take().expect("stdin");
        let _ = input.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("sitc ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_reader_that_went_away_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let sloppy = dir.path().join("sloppy.sit");
    std::fs::write(&sloppy, SLOPPY).unwrap();
    let sloppy = sloppy.to_str().unwrap();
    let hoop = "examples/models/hoop.sit";
    let thermostat = "examples/models/thermostat.sit";
    let sch = "examples/schematics/drive_axle.sch";
    let commands: &[&[&str]] = &[
        &["info", hoop],
        &["info", hoop, "--format", "json"],
        &["check", "--format", "json", sloppy],
        &["run", hoop, "--dt", "0.01", "--t-end", "1"],
        &[
            "run",
            thermostat,
            "--dt",
            "1",
            "--t-end",
            "600",
            "--explain",
            "heating",
        ],
        &[
            "sweep", hoop, "--param", "g=9,10", "--dt", "0.01", "--t-end", "0.1",
        ],
        &["emit", hoop],
        &["fmt", "--check", sloppy],
        &["fmt", "-"],
        &["schematic", sch],
        &["schematic", sch, "--format", "json"],
        &["schematic", sch, "--sit"],
        &["--help"],
        &["--version"],
    ];
    for args in commands {
        let (code, stderr) = closed_stdout(args, SLOPPY);
        assert!(!stderr.contains("panicked"), "sitc {args:?}: {stderr}");
        let warned = stderr.is_empty() || args[0] == "check" || stderr.starts_with("warning");
        assert_eq!(code, Some(0), "sitc {args:?}: {stderr}");
        assert!(warned, "sitc {args:?} printed an error: {stderr}");
    }
}
