//! `--input NAME=DATA.csv[:COLUMN]` (inputs from data), the `--t-end` warning, `--record`
//! globs, `sitc check` on folders and sweep axes printed as written.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::str::contains;
use std::path::Path;

/// `y' = u`, forward Euler, and a submodel for names and globs.
const RAMP: &str = "
model Gain { param kp = 2; input real e; output real out; out = kp * e; }
model Ramp {
    param gain = 1;
    input real u;
    input flag go;
    output real y;
    output real z;
    sub pi: Gain(e = u);
    y = integral(gain * u);
    z = pi.out;
}
";

fn sitc(dir: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sitc");
    cmd.current_dir(dir);
    cmd
}

/// A temporary folder holding `ramp.sit` and the given files.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("ramp.sit"), RAMP).expect("write");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8")
}

/// The standard error of a run that fails with exit code `code`.
fn failure(cmd: &mut assert_cmd::Command, code: i32) -> String {
    let out = cmd.assert().code(code).get_output().stderr.clone();
    String::from_utf8(out).expect("utf-8")
}

/// The rows of a CSV trace, as numbers.
fn rows(csv: &str) -> Vec<Vec<f64>> {
    (csv.lines().skip(1))
        .map(|l| l.split(',').map(|x| x.parse().expect("number")).collect())
        .collect()
}

#[test]
fn a_ramp_integrates_to_t_squared_over_two_minus_the_euler_error() {
    // u = t; forward Euler gives y_n = Σ_{k<n} t_k·dt = dt²·n(n−1)/2 = t²/2 − t·dt/2.
    let dir = folder(&[("ramp.csv", "t,u\n0,0\n100,100\n")]);
    let dt = 0.01;
    let out = stdout(sitc(dir.path()).args([
        "run",
        "ramp.sit",
        "--input",
        "u=ramp.csv",
        "--dt",
        "0.01",
        "--t-end",
        "2",
        "--record",
        "u,y",
    ]));
    let rows = rows(&out);
    assert_eq!(rows.len(), 201);
    for (n, row) in rows.iter().enumerate() {
        let (t, u, y) = (row[0], row[1], row[2]);
        // The input column shows u at the row's time (100·(t/100), to the rounding).
        assert!(
            (u - t).abs() <= 1e-15 * t.max(1.0),
            "row {n}: u = {u}, t = {t}"
        );
        let n = n as f64;
        let exact = dt * dt * n * (n - 1.0) / 2.0;
        assert!(
            (y - exact).abs() <= 1e-12,
            "t = {t}: y = {y}, expected {exact}"
        );
        // Against the exact integral, the error is the scheme's: −t·dt/2.
        let t_n = n * dt;
        assert!((y - (t_n * t_n / 2.0 - t_n * dt / 2.0)).abs() <= 1e-12);
    }
}

#[test]
fn a_step_input_jumps_at_a_repeated_time_and_holds_after_the_last_row() {
    // u = 0 until t = 1, then 1 (the time 1 is given twice: a jump); data end at 1.5.
    let dir = folder(&[(
        "step.csv",
        "time, a, u\n0, 9, 0\n1, 9, 0\n1, 9, 1\n1.5, 9, 1\n",
    )]);
    let out = stdout(sitc(dir.path()).args([
        "run",
        "ramp.sit",
        "--input",
        "u=step.csv:u",
        "--dt",
        "0.25",
        "--t-end",
        "2",
        "--record",
        "u,y",
    ]));
    // Steps starting at 1, 1.25, 1.5 and 1.75 integrate u = 1: y(2) = 4 · 0.25.
    assert_eq!(
        out,
        "t,u,y\n0,0,0\n0.25,0,0\n0.5,0,0\n0.75,0,0\n1,1,0\n1.25,1,0.25\n1.5,1,0.5\n\
         1.75,1,0.75\n2,1,1\n"
    );
    // A trace of `sitc run --units` names its columns with their units: `u [m]` is `u`.
    let text = std::fs::read_to_string(dir.path().join("step.csv")).unwrap();
    let units = text.replacen("time, a, u", "t [s], a [1], u [m]", 1);
    std::fs::write(dir.path().join("units.csv"), units).unwrap();
    let again = stdout(sitc(dir.path()).args([
        "run",
        "ramp.sit",
        "--input",
        "u=units.csv:u",
        "--dt",
        "0.25",
        "--t-end",
        "2",
        "--record",
        "u,y",
    ]));
    assert_eq!(again, out);
}

#[test]
fn sweep_rows_drive_the_input_like_run() {
    let dir = folder(&[("ramp.csv", "t,u\n0,0\n100,100\n")]);
    let sweep = stdout(sitc(dir.path()).args([
        "sweep",
        "ramp.sit",
        "--input",
        "u=ramp.csv",
        "--param",
        "gain=0.5,1",
        "--dt",
        "0.1",
        "--t-end",
        "1",
        "--record",
        "y",
    ]));
    let run = stdout(sitc(dir.path()).args([
        "run",
        "ramp.sit",
        "--input",
        "u=ramp.csv",
        "--set",
        "gain=0.5",
        "--dt",
        "0.1",
        "--t-end",
        "1",
        "--record",
        "y",
    ]));
    let last = run.lines().last().unwrap().split(',').nth(1).unwrap();
    let first_row = sweep.lines().nth(1).unwrap();
    assert_eq!(first_row, format!("0.5,{last}"));
    // y(1) = gain · 0.1² · 10·9/2 = 0.45 · gain, up to rounding.
    let y: f64 = last.parse().unwrap();
    assert!((y - 0.225).abs() < 1e-12, "{y}");
}

/// A press shorter than the step, between two step times, is seen by the step that holds
/// it (issue 28: a 0.1 s press at `--dt 0.5` was never seen).
#[test]
fn a_press_shorter_than_the_step_is_seen() {
    const BUTTON: &str = "model Button {
    input flag button;
    output real presses;
    presses = presses + 1 when button;
}";
    let dir = folder(&[
        ("button.sit", BUTTON),
        ("press.csv", "t,button\n0,0\n1.2,1\n1.3,0\n"),
    ]);
    let out = stdout(sitc(dir.path()).args([
        "run",
        "button.sit",
        "--input",
        "button=press.csv",
        "--dt",
        "0.5",
        "--t-end",
        "3",
        "--record",
        "button,presses",
    ]));
    let got = rows(&out);
    // Rows at 0, 0.5, ..., 3: the press lies in the step from 1.0 to 1.5, once.
    let presses: Vec<f64> = got.iter().map(|r| r[2]).collect();
    assert_eq!(presses, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0], "{out}");
    // The rows show the flag at their own times: never on at a multiple of 0.5.
    assert!(got.iter().all(|r| r[1] == 0.0), "{out}");
}

/// Each bad `--input`, and its message.
/// A flag input from data holds each row's 0 or 1 until the next row (zero-order), and a
/// step sees it true when it is true at any time in the step, in `run` and in every run
/// of `sweep`.
#[test]
fn a_flag_input_holds_each_row_until_the_next() {
    const GATED: &str = "model Gated { input flag go; output real x; x = integral(1) when go; }";
    let dir = folder(&[
        ("gated.sit", GATED),
        ("go.csv", "t,go\n0,0\n0.25,1\n0.5,0\n0.8,1\n"),
    ]);
    let out = stdout(sitc(dir.path()).args([
        "run",
        "gated.sit",
        "--input",
        "go=go.csv",
        "--dt",
        "0.1",
        "--t-end",
        "1",
        "--record",
        "go,x",
    ]));
    // The rows show go at t = 0, 0.1, ..., 1 held from the last row at or before t: on
    // at 0.3 and 0.4, off from 0.5, on from 0.8. x counts the steps in which go is on at
    // some time: from 0.2 (go rises at 0.25, inside it), 0.3, 0.4, 0.8 and 0.9.
    let want = [
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0, 0.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 3.0),
        (0.0, 3.0),
        (0.0, 3.0),
        (1.0, 3.0),
        (1.0, 4.0),
        (1.0, 5.0),
    ];
    let got = rows(&out);
    assert_eq!(got.len(), want.len(), "{out}");
    for (row, (go, steps)) in got.iter().zip(want) {
        assert_eq!(row[1], go, "{out}");
        assert!((row[2] - steps * 0.1).abs() < 1e-12, "{out}");
    }
    let swept = stdout(sitc(dir.path()).args([
        "sweep",
        "gated.sit",
        "--input",
        "go=go.csv",
        "--param",
        "x=0,1",
        "--dt",
        "0.1",
        "--t-end",
        "1",
        "--record",
        "x",
    ]));
    let finals: Vec<f64> = rows(&swept).iter().map(|r| r[1]).collect();
    assert_eq!(finals.len(), 2, "{swept}");
    assert!(
        (finals[0] - 0.5).abs() < 1e-12 && (finals[1] - 1.5).abs() < 1e-12,
        "{swept}"
    );
}

#[test]
fn bad_inputs_are_reported() {
    let dir = folder(&[
        ("ok.csv", "t,u,load\n0,0,1\n1,1,1\n"),
        ("letters.csv", "t,u\n0,0\n0.5,abc\n"),
        ("back.csv", "t,u\n0,0\n1,1\n0.5,2\n"),
        ("thrice.csv", "t,u\n0,0\n1,1\n1,2\n1,3\n"),
        ("nan.csv", "t,u\n0,0\n1,NaN\n"),
        ("bad_time.csv", "t,u\n0,0\n1e,1\n"),
        ("ragged.csv", "t,u\n0,0\n1,1,1\n"),
        ("one_column.csv", "t\n0\n1\n"),
        ("header_only.csv", "t,u\n"),
        ("half.csv", "t,go\n0,0\n1,0.5\n"),
    ]);
    let cases: &[(&str, &[&str])] = &[
        ("missing_file", &["--input", "u=nowhere.csv"]),
        ("missing_column", &["--input", "u=ok.csv:lod"]),
        ("not_a_number", &["--input", "u=letters.csv"]),
        ("time_goes_back", &["--input", "u=back.csv"]),
        ("time_thrice", &["--input", "u=thrice.csv"]),
        ("nan", &["--input", "u=nan.csv"]),
        ("bad_time", &["--input", "u=bad_time.csv"]),
        ("ragged", &["--input", "u=ragged.csv"]),
        ("one_column", &["--input", "u=one_column.csv"]),
        ("header_only", &["--input", "u=header_only.csv"]),
        ("unknown_input", &["--input", "uu=ok.csv"]),
        ("not_an_input", &["--input", "gain=ok.csv"]),
        ("flag_not_logical", &["--input", "go=half.csv"]),
        ("bound_input", &["--input", "pi.e=ok.csv"]),
        (
            "given_twice",
            &["--input", "u=ok.csv", "--input", "u=ok.csv:load"],
        ),
        ("also_set", &["--input", "u=ok.csv", "--set", "u=1"]),
        ("no_file", &["--input", "u="]),
    ];
    let mut all = String::new();
    for (name, args) in cases {
        let run = failure(sitc(dir.path()).arg("run").arg("ramp.sit").args(*args), 2);
        all += &format!("{name}: {run}");
    }
    let swept = failure(
        sitc(dir.path()).args([
            "sweep", "ramp.sit", "--param", "u=1,2", "--input", "u=ok.csv",
        ]),
        2,
    );
    all += &format!("sweep_param_driven: {swept}");
    insta::assert_snapshot!(all);
}

/// A data file's header may write units (`t [s],F [N]`, as `sitc run --units` writes a
/// trace): the time's must be seconds, the value column's the input's; Sit never
/// converts, so another scale is an error with the factor, another dimension one too.
#[test]
fn header_units_are_checked_against_the_input() {
    let pushed = "model Pushed {\n    param m [kg] = 2;\n    input real F [N];\n    \
                  output real v [m/s];\n    v = integral(F / m);\n}\n";
    let dir = folder(&[
        ("pushed.sit", pushed),
        ("plain.csv", "t,F\n0,1\n1,1\n"),
        ("ok.csv", "t [s],F [N]\n0,1\n1,1\n"),
        ("kilo.csv", "t [s],F [kN]\n0,1\n1,1\n"),
        (
            "minutes.csv",
            "# pushed for a minute\nt [min],F [N]\n0,1\n1,1\n",
        ),
        ("metres.csv", "t,F [m]\n0,1\n1,1\n"),
        ("bogus.csv", "t,F [blorp]\n0,1\n1,1\n"),
        ("length.csv", "t [m],F\n0,1\n1,1\n"),
    ]);
    let run = |file: &str| {
        let mut cmd = sitc(dir.path());
        cmd.args([
            "run",
            "pushed.sit",
            "--dt",
            "0.5",
            "--t-end",
            "1",
            "--input",
        ])
        .arg(format!("F={file}"));
        cmd
    };
    // The declared units: the rows are those of the file without units (v = t/2).
    let plain = stdout(&mut run("plain.csv"));
    assert_eq!(plain, "t,v\n0,0\n0.5,0.25\n1,0.5\n");
    assert_eq!(stdout(&mut run("ok.csv")), plain);
    let mut all = String::new();
    for file in [
        "kilo.csv",
        "minutes.csv",
        "metres.csv",
        "bogus.csv",
        "length.csv",
    ] {
        all += &format!("{file}: {}", failure(&mut run(file), 2));
    }
    // `sitc sweep --input` reads the file the same way.
    let swept = failure(
        sitc(dir.path()).args([
            "sweep",
            "pushed.sit",
            "--param",
            "m=1,2",
            "--input",
            "F=kilo.csv",
        ]),
        2,
    );
    all += &format!("sweep: {swept}");
    insta::assert_snapshot!(all);
}

#[test]
fn a_t_end_between_steps_is_reported() {
    let dir = folder(&[]);
    let warning = "warning: --t-end 1 is not a multiple of --dt 0.3: simulating 3 steps to \
                   t = 0.9; use --t-end 1.2 for 4 steps\n";
    let run = sitc(dir.path())
        .args(["run", "ramp.sit", "--dt", "0.3", "--t-end", "1"])
        .assert()
        .success()
        .stderr(warning)
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(run).unwrap().lines().count(), 1 + 4);
    sitc(dir.path())
        .args([
            "sweep", "ramp.sit", "--param", "gain=1", "--dt", "0.3", "--t-end", "1",
        ])
        .assert()
        .success()
        .stderr(warning);
    // A whole number of decimal steps: no warning.
    sitc(dir.path())
        .args(["run", "ramp.sit", "--dt", "0.1", "--t-end", "0.3"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn record_takes_globs() {
    let dir = folder(&[]);
    let header = |pattern: &str| {
        let out =
            stdout(sitc(dir.path()).args(["run", "ramp.sit", "--t-end", "0", "--record", pattern]));
        out.lines().next().unwrap().to_string()
    };
    assert_eq!(header("pi.*"), "t,pi.on,pi.kp,pi.e,pi.out");
    assert_eq!(header("*.on"), "t,pi.on");
    assert_eq!(header("y,?,pi.?"), "t,y,u,z,pi.e");
    // Listed twice (by name and by a glob): recorded once.
    assert_eq!(header("pi.kp,pi.*"), "t,pi.kp,pi.on,pi.e,pi.out");
    let err = failure(
        sitc(dir.path()).args(["run", "ramp.sit", "--record", "q*"]),
        2,
    );
    assert_eq!(err, "error: --record: `q*` matches no variable\n");
}

#[test]
fn check_takes_folders() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("models/more");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.path().join("models/a.sit"), RAMP).unwrap();
    std::fs::write(sub.join("b.sit"), "model B { real x; x = y; }").unwrap();
    std::fs::write(sub.join("notes.txt"), "not a model").unwrap();
    let err = failure(sitc(dir.path()).args(["check", "models"]), 1);
    assert!(err.contains("b.sit:1:"), "{err}");
    std::fs::remove_file(sub.join("b.sit")).unwrap();
    sitc(dir.path())
        .args(["check", "models"])
        .assert()
        .success();
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    sitc(dir.path())
        .args(["check", "empty"])
        .assert()
        .code(2)
        .stderr(contains("no `.sit` file under `empty`"));
}

#[test]
fn swept_values_print_as_written() {
    let dir = folder(&[]);
    let out = stdout(sitc(dir.path()).args([
        "sweep",
        "ramp.sit",
        "--param",
        "gain=0.1..0.2:3",
        "--param",
        "u=1e3,2.50",
        "--t-end",
        "0.01",
        "--record",
        "u",
    ]));
    let firsts: Vec<&str> = out.lines().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(firsts, ["gain", "0.1", "0.1", "0.15", "0.15", "0.2", "0.2"]);
    let seconds: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(seconds, ["1e3", "2.50", "1e3", "2.50", "1e3", "2.50"]);
}

#[test]
fn a_submodel_param_is_suggested_by_its_last_name() {
    let dir = folder(&[]);
    let err = failure(
        sitc(dir.path()).args(["sweep", "ramp.sit", "--param", "kp=1,2"]),
        2,
    );
    assert_eq!(
        err,
        "error: --param kp: no variable named `kp`; did you mean `pi.kp`?\n"
    );
}

#[test]
fn rust_with_a_signal_gives_the_trace_of_run_input() {
    // The loop of docs/embedding.md, on the interpreted model, against `sitc run --input`.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let model = Path::new(root).join("examples/models/cart_pendulum.sit");
    let data = Path::new(root).join("examples/data/push.csv");
    let out = stdout(
        sitc(Path::new(root))
            .arg("run")
            .arg(&model)
            .arg("--input")
            .arg(format!("F_ext={}:force", data.display()))
            .args(["--dt", "1e-3", "--t-end", "4", "--every", "100"])
            .args(["--record", "F_ext,X_cart,V_cart,angle"]),
    );
    let times = [0.0, 1.0, 1.5, 2.5, 3.0];
    let force = [0.0, 0.0, 5.0, 5.0, 0.0];
    let mut push = sit_runtime::Signal::new(&times, &force).unwrap();
    let mut m = sit_host::load_file(&model, None)
        .map(|l| l.instance)
        .unwrap();
    let mut expected = String::from("t,F_ext,X_cart,V_cart,angle\n");
    for k in 0..=4000 {
        use sit_runtime::Model;
        m.set("F_ext", push.sample(m.time())).unwrap();
        if k % 100 == 0 {
            let v = |n: &str| m.get(n).unwrap();
            expected += &format!(
                "{},{},{},{},{}\n",
                m.time(),
                v("F_ext"),
                v("X_cart"),
                v("V_cart"),
                v("angle")
            );
        }
        if k < 4000 {
            m.step(1e-3);
        }
    }
    assert_eq!(out, expected);
}
