//! `sitc fmu` against FMPy (the Python FMI library, from PyPI): every library model
//! validates; the Reference FMU models reproduce the published results; start values,
//! inputs, FMU states and bad calls behave as FMI 2.0 says.
//!
//! FMPy runs in the venv that `.ci/run` creates (`target/ci-venv`, or the Python in
//! `SIT_FMPY_PYTHON`). Without it the tests are skipped with a message, except in CI
//! (`CI=true`), where a missing FMPy is a failure. The FMUs are built once per test
//! binary, into one shared cargo target directory (`target/fmu-build`).

mod common;
use common::{assert_close, parse_csv};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Python with FMPy, or `None` (outside CI) when there is none.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("SIT_FMPY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/ci-venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", "import fmpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    let message = format!(
        "FMPy is not available at `{}`: run .ci/run, or create the venv with \
         `python3 -m venv target/ci-venv && target/ci-venv/bin/pip install fmpy`",
        python.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message}");
    }
    eprintln!("\n!!!!! SKIPPED: {message} !!!!!\n");
    None
}

/// Every `.sit` file of the model library.
fn library() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["examples/models", "examples/models/complex"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sit") {
                files.push(path);
            }
        }
    }
    files.sort();
    // A schematic is exported as the model generated from it.
    files.push(root().join("examples/schematics/clutch.sch"));
    files
}

/// Builds the FMU of every library model once: `target/fmu-tests/STEM.fmu`.
fn fmus() -> &'static Vec<PathBuf> {
    static FMUS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FMUS.get_or_init(|| {
        let out = root().join("target/fmu-tests");
        std::fs::create_dir_all(&out).unwrap();
        let mut built = Vec::new();
        for file in library() {
            let fmu = out.join(file.file_stem().unwrap()).with_extension("fmu");
            let run = Command::new(env!("CARGO_BIN_EXE_sitc"))
                .arg("fmu")
                .arg(&file)
                .arg("-o")
                .arg(&fmu)
                .arg("--build-dir")
                .arg(root().join("target/fmu-build"))
                .output()
                .expect("sitc runs");
            assert!(
                run.status.success(),
                "sitc fmu {}: {}",
                file.display(),
                String::from_utf8_lossy(&run.stderr)
            );
            built.push(fmu);
        }
        built
    })
}

fn fmu(stem: &str) -> PathBuf {
    let path = root().join(format!("target/fmu-tests/{stem}.fmu"));
    assert!(fmus().contains(&path), "no FMU for {stem}");
    path
}

/// The Python side: `validate FMU...`, `simulate FMU STOP INTERVAL NAMES [START] [INPUT]`,
/// `state FMU`, `bad FMU`. Results on stdout (CSV or JSON).
const DRIVER: &str = r#"
import sys, json
import numpy as np
from fmpy import simulate_fmu, read_model_description, extract
from fmpy.validation import validate_fmu
from fmpy.fmi2 import (FMU2Slave, fmi2CallbackFunctions, fmi2CallbackLoggerTYPE,
                       fmi2CallbackAllocateMemoryTYPE, fmi2CallbackFreeMemoryTYPE)
from fmpy.fmi1 import FMICallException
from fmpy import calloc, free

def pairs(text):
    return dict((k, float(v)) for k, v in (p.split('=') for p in text.split(';') if p))

cmd = sys.argv[1]
if cmd == 'validate':
    for f in sys.argv[2:]:
        for p in validate_fmu(f):
            print(f'{f}: {p}')
elif cmd == 'simulate':
    f, stop, interval, names = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5].split(',')
    start = pairs(sys.argv[6]) if len(sys.argv) > 6 else {}
    signals = None
    if len(sys.argv) > 7 and sys.argv[7]:
        # Constant signals NAME=VALUE;...: `true`/`false` for Boolean inputs.
        inputs = [p.split('=') for p in sys.argv[7].split(';')]
        value = lambda v: v == 'true' if v in ('true', 'false') else float(v)
        kind = lambda v: np.bool_ if v in ('true', 'false') else np.double
        dtype = [('time', np.double)] + [(n, kind(v)) for n, v in inputs]
        row = [value(v) for _, v in inputs]
        signals = np.array([tuple([0.0] + row), tuple([stop] + row)], dtype=dtype)
    r = simulate_fmu(f, stop_time=stop, output_interval=interval, output=names,
                     start_values=start, input=signals)
    print(','.join(['time'] + names))
    for row in r:
        print(','.join(repr(float(row[n])) for n in ['time'] + names))
else:
    f = sys.argv[2]
    md = read_model_description(f)
    vr = dict((v.name, v.valueReference) for v in md.modelVariables)
    log = []
    def logger(env, name, status, category, message):
        log.append([status, message.decode()])
    callbacks = fmi2CallbackFunctions()
    callbacks.logger = fmi2CallbackLoggerTYPE(logger)
    callbacks.allocateMemory = fmi2CallbackAllocateMemoryTYPE(calloc)
    callbacks.freeMemory = fmi2CallbackFreeMemoryTYPE(free)
    s = FMU2Slave(guid=md.guid, unzipDirectory=extract(f),
                  modelIdentifier=md.coSimulation.modelIdentifier, instanceName='test')
    s.instantiate(callbacks=callbacks)
    s.setupExperiment(startTime=0.0)
    s.enterInitializationMode()
    s.exitInitializationMode()
    h, dt = 0.01, md.defaultExperiment.stepSize
    t = 0.0
    names = sys.argv[3].split(',') if len(sys.argv) > 3 else ['h', 'v']
    def run(n):
        global t
        out = []
        for _ in range(n):
            s.doStep(t, h)
            t += h
            out.append([repr(x) for x in s.getReal([vr[n] for n in names])])
        return out
    if cmd == 'directional':
        # d(names)/d(knowns) after each of 100 steps, seeded with each known in turn.
        knowns = sys.argv[4].split(',')
        rows = []
        for _ in range(100):
            s.doStep(t, h)
            t += h
            rows.append([[repr(x) for x in s.getDirectionalDerivative(
                [vr[n] for n in names], [vr[k]], [1.0])] for k in knowns])
        # Two knowns at once with seeds 2 and -3: the weighted sum.
        both = s.getDirectionalDerivative([vr[n] for n in names], [vr[k] for k in knowns],
                                          [2.0, -3.0][:len(knowns)])
        results = {}
        def attempt(label, f):
            try:
                f()
                results[label] = 0
            except FMICallException as e:
                results[label] = e.status
        attempt('unknown_vr', lambda: s.getDirectionalDerivative([99999], [vr[knowns[0]]], [1.0]))
        attempt('not_sensitive', lambda: s.getDirectionalDerivative([vr[names[0]]], [vr['g']], [1.0]))
        s.terminate()
        s.freeInstance()
        print(json.dumps({'rows': rows, 'both': [repr(x) for x in both],
                          'status': results, 'log': log}))
    elif cmd == 'nan':
        failed = None
        for _ in range(int(sys.argv[4])):
            try:
                s.doStep(t, h)
            except FMICallException as e:
                failed = [t, e.status]
                break
            t += h
        s.terminate()
        s.freeInstance()
        print(json.dumps({'log': log, 'failed': failed}))
    elif cmd == 'state':
        run(50)
        state = s.getFMUstate()
        t0 = t
        a = run(100)
        s.setFMUstate(state)
        t = t0
        b = run(100)
        # Serialized, freed, read back: the same again.
        data = s.serializeFMUstate(state)
        s.freeFMUstate(state)
        s.setFMUstate(s.deSerializeFMUstate(data))
        t = t0
        c = run(100)
        print(json.dumps({'a': a, 'b': b, 'c': c}))
    else:
        results = {}
        def attempt(label, f):
            try:
                f()
                results[label] = 0
            except FMICallException as e:
                results[label] = e.status
        run(10)
        attempt('unknown_vr', lambda: s.getReal([99999]))
        attempt('boolean_as_real', lambda: s.getBoolean([vr['h']]))
        attempt('fixed_after_init', lambda: s.setReal([vr['h0']], [5.0]))
        attempt('state_after_init', lambda: s.setReal([vr['v']], [5.0]))
        attempt('tunable_after_init', lambda: s.setReal([vr['e']], [0.7]))
        attempt('computed', lambda: s.setReal([vr['g']], [1.0]))
        attempt('wrong_time', lambda: s.doStep(t + 1.0, h))
        attempt('enter_init_again', lambda: s.enterInitializationMode())
        attempt('integer', lambda: s.getInteger([0]))
        attempt('deserialize_garbage', lambda: s.deSerializeFMUstate(b'not a state'))
        attempt('no_sensitivities', lambda: s.getDirectionalDerivative([vr['h']], [vr['e']], [1.0]))
        after = run(10)
        s.terminate()
        attempt('step_after_terminate', lambda: s.doStep(t, h))
        s.freeInstance()
        print(json.dumps({'status': results, 'log': log, 'after': after}))
"#;

fn driver(python: &Path, args: &[&str]) -> String {
    let out = Command::new(python)
        .arg("-c")
        .arg(DRIVER)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "FMPy {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn fmpy_validates_every_library_model() {
    let Some(python) = python() else { return };
    let files: Vec<String> = fmus().iter().map(|f| f.display().to_string()).collect();
    assert!(files.len() >= 13, "{files:?}");
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let problems = driver(&python, &args);
    assert!(problems.is_empty(), "fmpy validate:\n{problems}");
}

#[test]
fn fmpy_reproduces_the_reference_fmus() {
    let Some(python) = python() else { return };
    // (FMU, oracle, stop time, communication step of the oracle, internal step of the
    // model's documented run, internal steps per communication step)
    for (stem, model, stop, interval, dt, every) in [
        ("dahlquist", "Dahlquist", "10", "0.1", "0.1", "1"),
        ("van_der_pol", "VanDerPol", "20", "0.01", "0.01", "1"),
        ("bouncing_ball", "BouncingBall", "3", "0.01", "0.001", "10"),
        ("stair", "Stair", "9", "0.2", "0.2", "1"),
    ] {
        let oracle = std::fs::read_to_string(
            root().join(format!("tests/oracles/reference-fmus/{model}_out.csv")),
        )
        .unwrap();
        let names = oracle.lines().next().unwrap().replacen("time,", "", 1);
        let f = fmu(stem).display().to_string();
        let got = driver(&python, &["simulate", &f, stop, interval, &names]);
        // Relative 1e-12, the oracle README's bound (as `sitc run` is checked).
        assert_close(&format!("FMPy {stem}"), &got, &oracle, 1e-12);
        // And to the bit what `sitc run` gives at the FMU's internal step.
        let file = format!("examples/models/{stem}.sit");
        let run = sitc_run(&file, dt, stop, every, &names, &[]);
        assert_close(&format!("FMPy {stem} vs sitc run"), &got, &run, 0.0);
    }
}

#[test]
fn submodels_run_through_fmpy_as_in_sitc_run() {
    let Some(python) = python() else { return };
    // Outputs, and variables of submodels two levels down.
    let names = "x1,x2,done,p1.roll.x,p2.roll.v,p2.on";
    let f = fmu("coordinator").display().to_string();
    let got = driver(&python, &["simulate", &f, "6", "0.1", names, "target=4"]);
    let file = "examples/models/complex/coordinator.sit";
    let run = sitc_run(file, "0.001", "6", "100", names, &["target=4"]);
    assert_close("FMPy coordinator vs sitc run", &got, &run, 0.0);
}

#[test]
fn a_schematic_runs_through_fmpy_as_in_sitc_run() {
    let path = fmu("clutch");
    // The drawing and the model generated from it travel in `sources/`.
    let zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    let names: Vec<String> = zip.file_names().map(|n| n.unwrap().into_owned()).collect();
    for source in ["sources/clutch.sch", "sources/clutch.sch.sit"] {
        assert!(
            names.iter().any(|n| n == source),
            "{source} not in {names:?}"
        );
    }
    let Some(python) = python() else { return };
    // The clutch slips, locks at 0.41 s and slips again at 3.25 s: its flag and the
    // friction moment switch inside the run. The FMU's internal step is the `--dt` of
    // the drawing's documented run (1e-4).
    let names = "w_Je,w_Jl,M_C,stuck_C";
    let f = path.display().to_string();
    let got = driver(&python, &["simulate", &f, "6", "0.5", names]);
    let file = "examples/schematics/clutch.sch";
    let run = sitc_run(file, "1e-4", "6", "5000", names, &[]);
    assert_close("FMPy clutch vs sitc run", &got, &run, 0.0);
}

/// `sitc fmu` with `args`, and `env`: the exit code and stderr.
fn sitc_fmu(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("fmu")
        .args(args)
        .arg("-o")
        .arg(dir.path().join("out.fmu"))
        .arg("--build-dir")
        .arg(dir.path().join("build"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sitc_fmu_says_what_is_missing() {
    let ball = root().join("examples/models/bouncing_ball.sit");
    let ball = ball.to_str().unwrap();
    let (code, err) = sitc_fmu(&[ball], &[("CARGO", "/nonexistent/cargo")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot run `/nonexistent/cargo`") && err.contains("Rust toolchain"),
        "{err}"
    );
    let (code, err) = sitc_fmu(&[ball, "--sit-source", "/nonexistent"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the Sit sources are not in `/nonexistent`"),
        "{err}"
    );
    let (code, err) = sitc_fmu(&[ball, "--model", "Hoop"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Hoop"), "{err}");
    let (code, err) = sitc_fmu(&[ball, "--dt", "0"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("> 0"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.sit");
    std::fs::write(
        &bad,
        "model M {\n    real x = 1;\n    x = integral(y);\n}\n",
    )
    .unwrap();
    let (code, err) = sitc_fmu(&[bad.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("bad.sit:3:") && err.contains("unknown name `y`"),
        "{err}"
    );
}

/// `sitc run` of `file` with `--set` values and `--every`, recording `names`.
fn sitc_run(file: &str, dt: &str, t_end: &str, every: &str, names: &str, set: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sitc"));
    cmd.arg("run").arg(root().join(file)).args([
        "--dt", dt, "--t-end", t_end, "--every", every, "--record", names,
    ]);
    for s in set {
        cmd.args(["--set", s]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn start_values_and_inputs_take_effect_exactly() {
    let Some(python) = python() else { return };
    // A fixed param (read by an initial value) and a tunable one, set as start values:
    // the same bits as `sitc run --set`, and not the default run.
    let ball = fmu("bouncing_ball").display().to_string();
    let got = driver(
        &python,
        &["simulate", &ball, "3", "0.01", "h,v", "h0=2;e=0.5"],
    );
    let set = sitc_run(
        "examples/models/bouncing_ball.sit",
        "0.001",
        "3",
        "10",
        "h,v",
        &["h0=2", "e=0.5"],
    );
    assert_close("start values", &got, &set, 0.0);
    let (_, rows) = parse_csv(&got);
    assert_eq!(rows[0][1], 2.0, "h starts at h0");
    // An input signal (a constant force on the cart): the same as `sitc run --set`.
    let cart = fmu("cart_pendulum").display().to_string();
    let names = "X_cart,angle";
    let got = driver(
        &python,
        &["simulate", &cart, "2", "0.01", names, "", "F_ext=3"],
    );
    let set = sitc_run(
        "examples/models/cart_pendulum.sit",
        "0.001",
        "2",
        "10",
        names,
        &["F_ext=3"],
    );
    let free = sitc_run(
        "examples/models/cart_pendulum.sit",
        "0.001",
        "2",
        "10",
        names,
        &[],
    );
    assert_close("input", &got, &set, 0.0);
    assert_ne!(
        parse_csv(&got).1,
        parse_csv(&free).1,
        "the input changes the run"
    );
}

#[test]
fn restoring_an_fmu_state_repeats_the_run() {
    let Some(python) = python() else { return };
    // A model with events, one with a differentiator's memory, one with submodels.
    for (stem, names) in [
        ("bouncing_ball", "h,v"),
        ("pendulum_elastic", "angle,L_cur,dLdt"),
        ("coordinator", "x1,x2,p1.v,p2.ctl.dir"),
    ] {
        let f = fmu(stem).display().to_string();
        let out: serde_json::Value =
            serde_json::from_str(&driver(&python, &["state", &f, names])).unwrap();
        assert_eq!(
            out["a"], out["b"],
            "{stem}: the run after restoring the state differs"
        );
        assert_eq!(
            out["a"], out["c"],
            "{stem}: the run after deserializing the state differs"
        );
        assert_ne!(out["a"][0], out["a"][99], "{stem}: the run moves");
    }
}

#[test]
fn bad_calls_give_errors_and_the_instance_survives() {
    let Some(python) = python() else { return };
    let ball = fmu("bouncing_ball").display().to_string();
    let out: serde_json::Value = serde_json::from_str(&driver(&python, &["bad", &ball])).unwrap();
    let status = &out["status"];
    for (call, want) in [
        ("unknown_vr", 3),
        ("boolean_as_real", 3),
        ("fixed_after_init", 3),
        ("state_after_init", 3),
        ("tunable_after_init", 0),
        ("computed", 3),
        ("wrong_time", 3),
        ("enter_init_again", 3),
        ("integer", 3),
        ("deserialize_garbage", 3),
        ("no_sensitivities", 3),
        ("step_after_terminate", 3),
    ] {
        assert_eq!(status[call], want, "{call}: {out}");
    }
    let log = out["log"].to_string();
    for message in [
        "unknown value reference 99999",
        "`h0` (value reference 3) is a fixed parameter",
        "fmi2DoStep is not allowed when the instance is terminated",
        "the bytes are not a serialized state of a Sit FMU",
        "this FMU was built without sensitivities (providesDirectionalDerivative=\\\"false\\\"); \
         build it with `sitc fmu --sensitivities NAMES`",
    ] {
        assert!(log.contains(message), "no log message {message:?} in {log}");
    }
    // After the bad calls the ball keeps falling as it would have: the run equals
    // `sitc run` at t = 0.11 .. 0.20.
    let run = sitc_run(
        "examples/models/bouncing_ball.sit",
        "0.001",
        "0.2",
        "10",
        "h,v",
        &[],
    );
    let (_, rows) = parse_csv(&run);
    let after = out["after"].as_array().unwrap();
    for (k, pair) in after.iter().enumerate() {
        let row = &rows[11 + k];
        // Values travel as Python's `repr` (serde_json's own float parsing may round).
        let value = |i: usize| pair[i].as_str().unwrap().parse::<f64>().unwrap();
        assert_eq!(value(0), row[1], "h at row {}", 11 + k);
        assert_eq!(value(1), row[2], "v at row {}", 11 + k);
    }
}

/// Writes `text` to `dir/STEM.sit` and builds its FMU `dir/MODEL.fmu` (in the FMU tests'
/// build folder, so the Sit crates compile once): the source's and the FMU's paths.
fn built_fmu(dir: &Path, stem: &str, model: &str, text: &str) -> (PathBuf, PathBuf) {
    built_fmu_with(dir, stem, model, text, &[])
}

/// [`built_fmu`] with more arguments of `sitc fmu`.
fn built_fmu_with(
    dir: &Path,
    stem: &str,
    model: &str,
    text: &str,
    args: &[&str],
) -> (PathBuf, PathBuf) {
    let src = dir.join(format!("{stem}.sit"));
    std::fs::write(&src, text).unwrap();
    let fmu = dir.join(format!("{model}.fmu"));
    let built = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("fmu")
        .arg(&src)
        .arg("-o")
        .arg(&fmu)
        .arg("--build-dir")
        .arg(root().join("target/fmu-build"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    (src, fmu)
}

/// A tank that drains below zero: from about t = 4, `sqrt(level)` is NaN. By default the
/// FMU's `fmi2DoStep` returns `fmi2Error` there, the message logged (issue 47, item 3);
/// for a model that says `#[allow(non_finite, …)]` it still succeeds (the values are
/// the rules'), and the first non-finite value is logged once, through the importer's
/// logger, as a warning (status `fmi2Warning`) naming the variable and the communication
/// step (issue 28, item 5).
#[test]
fn an_fmu_logs_its_first_non_finite_value_once() {
    let Some(python) = python() else { return };
    let tank = "/// Run: `sitc run tank.sit --dt 0.01 --t-end 6`\n\
                model Tank {\n    param k = 0.5;\n    output real level = 1;\n    \
                level = integral(-k * sqrt(level));\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, fmu) = built_fmu(dir.path(), "tank", "Tank", tank);
    let f = fmu.display().to_string();
    let out: serde_json::Value =
        serde_json::from_str(&driver(&python, &["nan", &f, "level", "500"])).unwrap();
    let log = out["log"].as_array().unwrap();
    assert_eq!(log.len(), 1, "one message: {log:?}");
    assert_eq!(log[0][0], 3, "fmi2Error: {log:?}");
    let message = log[0][1].as_str().unwrap();
    assert!(
        message.starts_with("fmi2DoStep: `level` became NaN in the step from t = "),
        "{message}"
    );
    assert_eq!(out["failed"][1], 3, "doStep returned fmi2Error: {out}");
    let dir = tempfile::tempdir().unwrap();
    let allowed = tank.replace(
        "model Tank",
        "#[allow(non_finite, reason = \"drains below zero\")]\nmodel Tank",
    );
    let (src, fmu) = built_fmu(dir.path(), "tank", "Tank", &allowed);
    // 500 communication steps of 0.01 (one internal step each), to t = 5.
    let f = fmu.display().to_string();
    let out: serde_json::Value =
        serde_json::from_str(&driver(&python, &["nan", &f, "level", "500"])).unwrap();
    let log = out["log"].as_array().unwrap();
    assert_eq!(log.len(), 1, "one message: {log:?}");
    assert_eq!(log[0][0], 1, "fmi2Warning: {log:?}");
    let message = log[0][1].as_str().unwrap();
    assert!(
        message.starts_with("fmi2DoStep: `level` became NaN in the step from t = ")
            && message.ends_with("; the values after it may be NaN or infinite (logged once)"),
        "{message}"
    );
    // The step is the one `sitc run --allow-non-finite` names at the same dt (its times
    // are the model's clock, the FMU's the importer's sums of 0.01: equal within
    // rounding).
    let run = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("run")
        .arg(&src)
        .args(["--dt", "0.01", "--t-end", "5", "--every", "500"])
        .arg("--allow-non-finite")
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    let times = |text: &str| -> Vec<f64> {
        let at = text.find("from t = ").expect("a step");
        text[at + 9..]
            .split([' ', ';'])
            .filter_map(|w| w.parse().ok())
            .take(2)
            .collect()
    };
    let (fmu_step, run_step) = (times(message), times(&stderr));
    assert_eq!(fmu_step.len(), 2, "{message}");
    assert_eq!(run_step.len(), 2, "{stderr}");
    for (a, b) in fmu_step.iter().zip(&run_step) {
        assert!((a - b).abs() < 1e-9, "{message} vs {stderr}");
    }
}

/// A table read past its grid in an FMU: logged once at `fmi2Terminate`, as a warning,
/// in the words `sitc run` prints for the same run (issue 28, item 7).
#[test]
fn an_fmu_logs_its_table_reads_past_the_grid_at_terminate() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (src, fmu) = built_fmu(
        dir.path(),
        "heater",
        "Heater",
        "/// Run: `sitc run heater.sit --dt 0.01 --t-end 3`\n\
         model Heater {\n    table heat(T) = [0, 100] -> [0, 1] clamp;\n    \
         output real T, q;\n    T = 100 * time;\n    q = heat(T);\n}\n",
    );
    // 300 communication steps of 0.01, to t = 3: T reaches 299 at the last step's start.
    let f = fmu.display().to_string();
    let out: serde_json::Value =
        serde_json::from_str(&driver(&python, &["nan", &f, "T", "300"])).unwrap();
    let log = out["log"].as_array().unwrap();
    assert_eq!(log.len(), 1, "one message: {log:?}");
    assert_eq!(log[0][0], 1, "fmi2Warning: {log:?}");
    let message = log[0][1].as_str().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("run")
        .arg(&src)
        .args(["--dt", "0.01", "--t-end", "3", "--every", "300"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    let words = message
        .strip_prefix("fmi2Terminate: ")
        .expect("logged at terminate");
    assert!(
        words.starts_with("table `heat` was read at T = "),
        "{words}"
    );
    assert!(
        stderr.contains(words),
        "the FMU's {words:?} against sitc run's {stderr:?}"
    );
}

/// An FMU built with `--sensitivities c,L,angle` gives, through FMPy's
/// `getDirectionalDerivative`, the derivatives of its variables with respect to the params
/// and the start value after every communication step: bit for bit the columns of
/// `sitc run --sensitivities` at the same step (the same rules), the weighted sum for
/// several knowns, and `fmi2Error` with a message for a known it has no sensitivities
/// to. FMPy validates the description that says `providesDirectionalDerivative`.
#[test]
fn directional_derivatives_are_the_runs_sensitivities() {
    let Some(python) = python() else { return };
    let damped = "/// Run: `sitc run damped.sit --dt 0.01 --t-end 1`\n\
                  model Damped {\n    param L = 2.0;\n    param g = 9.81;\n    \
                  param c = 0.3;\n    output real angle = 1.0;\n    output real omega = 0.0;\n    \
                  omega = integral(-g / L * sin(angle) - c * omega);\n    \
                  angle = integral(omega);\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let (src, fmu) = built_fmu_with(
        dir.path(),
        "damped",
        "Damped",
        damped,
        &["--sensitivities", "c,L,angle"],
    );
    let fmu_path = fmu.to_str().unwrap();
    let problems = driver(&python, &["validate", fmu_path]);
    assert!(problems.is_empty(), "fmpy validate:\n{problems}");
    let out: serde_json::Value = serde_json::from_str(&driver(
        &python,
        &["directional", fmu_path, "angle,omega", "c,L,angle"],
    ))
    .unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("run")
        .arg(&src)
        .args([
            "--dt",
            "0.01",
            "--t-end",
            "1",
            "--sensitivities",
            "c,L,angle",
        ])
        .arg("--record")
        .arg(
            "d(angle)/d(c),d(omega)/d(c),d(angle)/d(L),d(omega)/d(L),\
             d(angle)/d(angle(0)),d(omega)/d(angle(0))",
        )
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let csv = String::from_utf8(run.stdout).unwrap();
    let rows: Vec<Vec<f64>> = (csv.lines().skip(2))
        .map(|l| l.split(',').skip(1).map(|c| c.parse().unwrap()).collect())
        .collect();
    let got = out["rows"].as_array().unwrap();
    assert_eq!(got.len(), 100);
    let num = |v: &serde_json::Value| v.as_str().unwrap().parse::<f64>().unwrap();
    for (k, (ours, row)) in got.iter().zip(&rows).enumerate() {
        // Per known (c, L, angle's start), the derivatives of angle and omega.
        let flat: Vec<f64> = (ours.as_array().unwrap().iter())
            .flat_map(|per| per.as_array().unwrap().iter().map(num))
            .collect();
        assert_eq!(&flat, row, "step {}", k + 1);
    }
    let last = rows.last().unwrap();
    let both: Vec<f64> = out["both"].as_array().unwrap().iter().map(num).collect();
    assert_eq!(
        both,
        [2.0 * last[0] - 3.0 * last[2], 2.0 * last[1] - 3.0 * last[3]]
    );
    let status = &out["status"];
    assert_eq!(status["unknown_vr"], 3, "{out}");
    assert_eq!(status["not_sensitive"], 3, "{out}");
    let log = out["log"].to_string();
    assert!(
        log.contains("known `g` (value reference 1) has no sensitivities; this FMU was built with those to `c`, `L`, `angle`"),
        "{log}"
    );
}
