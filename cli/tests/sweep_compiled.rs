//! `sitc sweep --compiled`: the rows of the interpreter's sweep, bit for bit, on Van der
//! Pol (every summary), on a model with a mode, an event, a table and a flag (whose
//! reads past its grid are reported as the interpreter reports them) and on one with
//! inputs driven by time series under dopri5 (found stiff, as the interpreter says); the
//! cache (a second run builds nothing, and runs without cargo or rustc on the PATH); the
//! warning of a row that ends non-finite; the summaries kept between the rows under dopri5
//! (the thermostat's located switches); the error without cargo and a cache entry. One test: the runners
//! are built once, in a fresh cache (each build is a `cargo build --release`).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::{Path, PathBuf};

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/models/{name}.sit"))
}

/// A mode switched by conditions, an event (`when`, σ actions on a flag), a table read
/// past its grid, and a reset of a state, under one param.
const HYBRID: &str = "\
model Hybrid {
    param k = 1.0;
    table gain(x) = [0, 1, 2] -> [0, 10, 15] clamp;
    output mode phase { rising, falling }
    output real x = 0.0;
    output real y;
    output flag flipped;
    event top = x >= 2.5;
    y = gain(x);
    x = integral(k) when phase == rising;
    x = integral(-k) when phase == falling;
    when top => flipped;
    phase: rising -> falling when x >= 2.5;
    phase: falling -> rising when x <= 0.5 { x = 0.75; }
}
";

/// Van der Pol forced by a real input `u` and pushed while a flag input `kick` holds.
const FORCED: &str = "\
model Forced {
    param mu = 1.0;
    input real u = 0.0;
    input flag kick = false;
    output real x0 = 2.0;
    output real x1 = 0.0;
    real push;
    push = 1.0 when kick;
    push = 0.0 otherwise;
    x0 = integral(x1);
    x1 = integral(mu * ((1.0 - x0 * x0) * x1) - x0 + u + push);
}
";

/// `u` ramps with a jump at t = 3; `kick` holds for 0.2 s at t = 3 and for 0.05 s (less
/// than the step of 0.5 s, between two step times) at t = 7.1.
const FORCING: &str =
    "t,u,kick\n0,0,0\n3,0.5,0\n3,0.25,1\n3.2,0.25,0\n7.1,-0.5,1\n7.15,-0.5,0\n20,1,0\n";

/// `sitc sweep FILE ARGS` (with `--compiled` when asked) in the cache `cache`: stdout,
/// stderr.
fn sweep(cache: &Path, file: &Path, args: &[&str], compiled: bool) -> (String, String) {
    let mut cmd = cargo_bin_cmd!("sitc");
    cmd.env("SIT_CACHE_DIR", cache)
        .arg("sweep")
        .arg(file)
        .args(args);
    if compiled {
        cmd.arg("--compiled");
    }
    let out = cmd.assert().success().get_output().clone();
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn compiled_rows_are_the_interpreters_and_are_cached() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sweep_compiled");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("a temporary folder");
    let cache = tmp.join("cache");

    // Van der Pol: two axes, a fixed state, every summary of two variables.
    let vdp = model("van_der_pol");
    let args = [
        "--param",
        "mu=0..3:37",
        "--param",
        "x0=0.5,2",
        "--set",
        "x1=0.25",
        "--dt",
        "0.01",
        "--t-end",
        "15",
        "--record",
        "x0,x1",
        "--summary",
        "final,max,min",
        "--summary",
        "first-crossing=0,first-crossing(x0)=1.5",
    ];
    let (interpreted, _) = sweep(&cache, &vdp, &args, false);
    let (compiled, stderr) = sweep(&cache, &vdp, &args, true);
    assert_eq!(compiled, interpreted);
    assert_eq!(compiled.lines().count(), 1 + 37 * 2);
    assert!(
        stderr.starts_with("building the compiled sweep of VanDerPol (first time, ~"),
        "{stderr}"
    );
    // The second run finds the runner in the cache: no build, nothing on stderr but the
    // note that the summaries of a model under euler are taken at the rows.
    let start = std::time::Instant::now();
    let (again, stderr) = sweep(&cache, &vdp, &args, true);
    assert_eq!(again, interpreted);
    assert!(
        stderr.starts_with("note: max, min and first-crossing"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());

    // A mode, an event, a table and a flag, on one thread and on several.
    let hybrid = tmp.join("hybrid.sit");
    std::fs::write(&hybrid, HYBRID).expect("writes the model");
    let args = [
        "--param",
        "k=0.5..4:23",
        "--dt",
        "0.05",
        "--t-end",
        "12",
        "--record",
        "all",
        "--summary",
        "final,max,min,first-crossing=1",
    ];
    let (interpreted, warned) = sweep(&cache, &hybrid, &args, false);
    let (compiled, stderr) = sweep(&cache, &hybrid, &args, true);
    assert_eq!(compiled, interpreted);
    assert!(compiled.contains("crossing(phase=1)"), "{compiled}");
    // The compiled code counts its tables' reads as the interpreter does: the same
    // warning, word for word (after the line of the build).
    assert!(
        warned.starts_with("warning: in 23 of 23 runs, table `gain` was read at x = 0 … "),
        "{warned}"
    );
    assert!(
        warned.contains("it held its end values (clamp)\nnote: max, min and first-crossing"),
        "{warned}"
    );
    assert!(stderr.ends_with(&warned), "{stderr}");
    let mut one = cargo_bin_cmd!("sitc");
    one.env("SIT_CACHE_DIR", &cache)
        .env("RAYON_NUM_THREADS", "1")
        .arg("sweep")
        .arg(&hybrid)
        .args(args)
        .arg("--compiled");
    let out = one.assert().success().get_output().stdout.clone();
    assert_eq!(String::from_utf8(out).expect("UTF-8"), interpreted);

    // A row that ends with a non-finite value is named (x' = k·x² blows up for k = 1).
    let blow = tmp.join("blow.sit");
    let text = "model Blow { param k = 1.0; output real x = 1.0; x = integral(k * x * x); }";
    std::fs::write(&blow, text).expect("writes the model");
    // By default it is an error naming the rule (the row run again in the interpreter,
    // which gives the compiled code's values to the bit), after the table, exit 1.
    let mut default = cargo_bin_cmd!("sitc");
    default
        .env("SIT_CACHE_DIR", &cache)
        .arg("sweep")
        .arg(&blow)
        .args([
            "--param",
            "k=-1,1",
            "--dt",
            "0.01",
            "--t-end",
            "5",
            "--compiled",
        ]);
    let out = default.assert().code(1).get_output().clone();
    let errors = String::from_utf8(out.stderr).expect("UTF-8");
    assert!(
        errors.contains("error: row 2 (k=1): ")
            && errors.contains(": rule `x = integral(k * x * x)` made `x` = inf at t = "),
        "{errors}"
    );
    let args = [
        "--param",
        "k=-1,1",
        "--dt",
        "0.01",
        "--t-end",
        "5",
        "--allow-non-finite",
    ];
    let (interpreted, _) = sweep(&cache, &blow, &args, false);
    let (compiled, stderr) = sweep(&cache, &blow, &args, true);
    assert_eq!(compiled, interpreted);
    assert_eq!(String::from_utf8(out.stdout).expect("UTF-8"), compiled);
    assert!(
        stderr.ends_with(
            "warning: row 2 (k=1): `x` is inf at the end of the run (t = 5)\n\
             warning: 1 of 2 rows end with a non-finite value; their values may be NaN or \
             infinite; rerun one with `sitc run` and its --set values to stop at the rule \
             that made it\n"
        ),
        "{stderr}"
    );

    // Inputs driven by time series (a real one, linear between rows with a jump, and a
    // flag whose pulses are shorter than a step) under dopri5, the stiffness test on:
    // the interpreter's rows, bit for bit (the runner drives each lane by the rule of
    // `sit_runtime::drive`), and the same report of the run found stiff (mu = 1000).
    let forced = tmp.join("forced.sit");
    std::fs::write(&forced, FORCED).expect("writes the model");
    let series = tmp.join("forcing.csv");
    std::fs::write(&series, FORCING).expect("writes the series");
    let u = format!("u={}:u", series.display());
    let kick = format!("kick={}:kick", series.display());
    let args = [
        "--param",
        "mu=1,3,1000",
        "--method",
        "dopri5",
        "--dt",
        "0.5",
        "--t-end",
        "20",
        "--input",
        &u,
        "--input",
        &kick,
        "--record",
        "all",
        "--summary",
        "final,max",
    ];
    let (interpreted, warned) = sweep(&cache, &forced, &args, false);
    let (compiled, stderr) = sweep(&cache, &forced, &args, true);
    assert_eq!(compiled, interpreted);
    // Both inputs reached the model: u ends at 1, each row's push was 1 in a step.
    for row in interpreted.lines().skip(1) {
        let v: Vec<&str> = row.split(',').collect();
        assert_eq!((v[3], v[12]), ("1", "1"), "{interpreted}");
    }
    assert!(
        warned.starts_with(
            "warning: in 1 of 3 runs, first row 3 (mu=1000): `Forced` seems stiff from t = "
        ),
        "{warned}"
    );
    assert!(stderr.ends_with(&warned), "{stderr}");

    // Summaries between the rows (issue 47, item 6): under dopri5 the max, min and first
    // crossing of a continuous state are hidden states the lowering keeps over every
    // internal step and at the located switches of the thermostat, the same bits
    // compiled.
    let thermostat = model("thermostat");
    let args = [
        "--param",
        "k=100..200:9",
        "--method",
        "dopri5",
        "--dt",
        "100",
        "--t-end",
        "10000",
        "--record",
        "T,Q",
        "--summary",
        "max,min,first-crossing=20.5",
    ];
    let (interpreted, warned) = sweep(&cache, &thermostat, &args, false);
    let (compiled, _) = sweep(&cache, &thermostat, &args, true);
    assert_eq!(compiled, interpreted);
    // T is a state, Q is not: its summaries are the rows' (the note says so).
    assert!(
        warned.starts_with("note: max, min and first-crossing"),
        "{warned}"
    );
    assert!(!interpreted.contains("NaN"), "{interpreted}");

    // Without cargo and rustc (an empty PATH), the runner in the cache still runs (a
    // cache carried to a machine without Rust).
    let empty = tmp.join("no-tools");
    std::fs::create_dir_all(&empty).expect("a folder");
    let args = [
        "--param",
        "k=0.5..4:23",
        "--dt",
        "0.05",
        "--t-end",
        "12",
        "--compiled",
    ];
    let (interpreted, _) = sweep(&cache, &hybrid, &args[..6], false);
    let out = cargo_bin_cmd!("sitc")
        .env("SIT_CACHE_DIR", &cache)
        .env("PATH", &empty)
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .arg("sweep")
        .arg(&hybrid)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).expect("UTF-8"), interpreted);

    // Without cargo and rustc, in an empty cache: exit 2, what to do.
    let out = cargo_bin_cmd!("sitc")
        .env("SIT_CACHE_DIR", tmp.join("empty-cache"))
        .env("PATH", &empty)
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .arg("sweep")
        .arg(&vdp)
        .args(["--param", "mu=1,2", "--compiled"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    let stderr = stderr
        .replace("No such file or directory (os error 2)", "NOT FOUND")
        .replace(
            "The system cannot find the file specified. (os error 2)",
            "NOT FOUND",
        );
    insta::assert_snapshot!(stderr);
}
