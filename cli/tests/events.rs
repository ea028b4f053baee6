//! `sitc run --events LOG.csv` and `--explain NAME`: the log's CSV and the account on the traffic light and the thermostat, and the errors for a name that is unknown or not logical.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::str::contains;

const LIGHT: &str = "examples/models/traffic_light.sit";
const THERMOSTAT: &str = "examples/models/thermostat.sit";

fn sitc() -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sitc");
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd
}

fn stdout(args: &[&str]) -> String {
    let out = sitc().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn the_log_of_the_traffic_light() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.csv");
    let log_arg = log.to_str().unwrap();
    let trace = stdout(&[
        "run", LIGHT, "--dt", "0.5", "--t-end", "130", "--every", "20", "--events", log_arg,
    ]);
    // The trace is the same as without the log.
    let plain = stdout(&[
        "run", LIGHT, "--dt", "0.5", "--t-end", "130", "--every", "20",
    ]);
    assert_eq!(trace, plain);
    insta::assert_snapshot!("traffic_light_log", std::fs::read_to_string(&log).unwrap());
}

#[test]
fn the_account_of_the_light_and_of_go() {
    let args = ["run", LIGHT, "--dt", "0.5", "--t-end", "70", "--explain"];
    insta::assert_snapshot!("explain_light", stdout(&[&args[..], &["light"]].concat()));
    insta::assert_snapshot!("explain_go", stdout(&[&args[..], &["go"]].concat()));
}

#[test]
fn the_account_of_the_thermostat_names_its_guards() {
    let text = stdout(&[
        "run",
        THERMOSTAT,
        "--dt",
        "1",
        "--t-end",
        "6000",
        "--explain",
        "heating",
    ]);
    insta::assert_snapshot!("explain_heating", text);
}

#[test]
fn explain_writes_the_trace_only_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.csv");
    let text = stdout(&[
        "run",
        LIGHT,
        "--dt",
        "0.5",
        "--t-end",
        "40",
        "--explain",
        "light",
        "-o",
        trace.to_str().unwrap(),
    ]);
    assert!(text.starts_with("`light` changed once"), "{text}");
    let csv = std::fs::read_to_string(&trace).unwrap();
    assert!(csv.starts_with("t,elapsed,go,light\n"), "{csv}");
}

#[test]
fn explain_refuses_an_unknown_or_real_name() {
    sitc()
        .args(["run", LIGHT, "--explain", "lihgt"])
        .assert()
        .code(2)
        .stderr("error: --explain: no logical variable named `lihgt`; did you mean `light`?\n");
    sitc()
        .args(["run", LIGHT, "--explain", "elapsed"])
        .assert()
        .code(2)
        .stderr(contains(
            "error: --explain: `elapsed` is a real state, not a logical variable",
        ));
    // The hidden whys are not variables of the run.
    sitc()
        .args(["run", LIGHT, "--explain", "light_why"])
        .assert()
        .code(2)
        .stderr(contains("no logical variable named `light_why`"));
}

#[test]
fn the_whys_are_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.csv");
    let text = stdout(&[
        "run",
        LIGHT,
        "--t-end",
        "0",
        "--record",
        "all",
        "--events",
        log.to_str().unwrap(),
    ]);
    assert_eq!(
        text.lines().next(),
        Some("t,t_red,t_green,t_yellow,elapsed,go,light")
    );
}
