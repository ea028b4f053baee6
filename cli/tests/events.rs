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

/// The log writes its times as the trace does (issue 51): an event at t = 4e-5 is
/// `4e-5`-like (the shortest text, with an exponent), not `0.00004...`.
#[test]
fn the_log_writes_small_times_with_an_exponent() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("soon.sit");
    std::fs::write(
        &model,
        "model Soon { output flag lit; when time >= 3.5e-5 => lit; }\n",
    )
    .unwrap();
    let log = dir.path().join("log.csv");
    stdout(&[
        "run",
        model.to_str().unwrap(),
        "--dt",
        "1e-5",
        "--t-end",
        "1e-4",
        "--events",
        log.to_str().unwrap(),
    ]);
    let log = std::fs::read_to_string(&log).unwrap();
    let row = log.lines().nth(1).unwrap_or_else(|| panic!("{log}"));
    let t = row.split(',').next().unwrap();
    assert!(t.contains("e-5") && !t.starts_with("0.0"), "{log}");
    assert!(t.parse::<f64>().unwrap() >= 3.5e-5, "{log}");
}

/// `--events -` is standard output, as in every Unix tool, when the trace goes to a
/// file: the same log as `--events FILE`; with the trace on standard output too it is a
/// usage error naming both (it wrote a file named `-` before).
#[test]
fn the_log_goes_to_standard_output_as_dash() {
    let dir = tempfile::tempdir().unwrap();
    let (log, trace) = (dir.path().join("log.csv"), dir.path().join("trace.csv"));
    let args = ["run", LIGHT, "--dt", "0.5", "--t-end", "130"];
    stdout(&[&args[..], &["--events", log.to_str().unwrap()]].concat());
    let on_stdout =
        stdout(&[&args[..], &["--events", "-", "-o", trace.to_str().unwrap()]].concat());
    assert_eq!(on_stdout, std::fs::read_to_string(&log).unwrap());
    assert!(on_stdout.lines().count() > 3, "{on_stdout}");
    sitc()
        .current_dir(dir.path())
        .args([
            "run",
            &format!("{}/../{LIGHT}", env!("CARGO_MANIFEST_DIR")),
            "--events",
            "-",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "the trace and the event log (`--events -`) cannot both go to standard output",
        ));
    assert!(!dir.path().join("-").exists());
}

/// The sensitivities' hidden event (the rise of a located guard, `salt_rose_N`) is not a
/// column of `--record all`: only what the model and the sensitivities name.
#[test]
fn the_saltation_event_is_not_recorded() {
    let text = stdout(&[
        "run",
        "examples/models/bouncing_ball.sit",
        "--method",
        "dopri5",
        "--dt",
        "0.1",
        "--t-end",
        "0.8",
        "--sensitivities",
        "e,h0",
        "--record",
        "all",
    ]);
    let header = text.lines().next().unwrap();
    assert!(!header.contains("salt"), "{header}");
    assert!(header.ends_with("d(der_h)/d(e),d(der_h)/d(h0)"), "{header}");
}
