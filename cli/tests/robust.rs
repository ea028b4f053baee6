//! Robustness of `sitc`: mutated example models and bad flags never crash it; it exits
//! with 0, 1 or 2 and never prints a panic.

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::Path;

/// Mutations per example model.
const MUTATIONS: usize = 180;
/// Files per `sitc check` call (one process checks a batch).
const BATCH: usize = 150;

/// A small deterministic generator (xorshift64*), so that a failure is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that the grammar knows, inserted to reach the checker's deeper paths.
const TOKENS: &[&str] = &[
    "when ",
    "otherwise ",
    "model ",
    "sub ",
    "param ",
    "real ",
    "flag ",
    "event ",
    "pred ",
    "situation ",
    "output ",
    "input ",
    "reset(",
    ".on",
    "integral(",
    "deriv(",
    "lag(",
    "/ 0",
    "1e999",
    "-0",
    "{",
    "}",
    ";",
    "(",
    ")",
    "=",
    "==",
    "&",
    "|",
    "!",
    "time",
    "dt",
    "///",
    "import \"nowhere.sit\";",
    "\u{0}",
    "\u{feff}",
    "é",
    "\r\n",
    "\t",
    "\"",
    "1e-320",
];

/// One random edit of `text`: a byte changed, removed or inserted, a span duplicated or
/// removed, a token inserted, or the text cut short. May give invalid UTF-8.
fn mutate(text: &mut Vec<u8>, rng: &mut Rng) {
    let pos = rng.below(text.len() + 1);
    match rng.below(7) {
        0 if pos < text.len() => text[pos] = rng.next() as u8,
        1 if pos < text.len() => {
            text.remove(pos);
        }
        2 => {
            const BYTES: &[u8] = b" ;{}()=!|&.,<>+-*/^#0123456789ex\n";
            text.insert(pos, BYTES[rng.below(BYTES.len())]);
        }
        3 => {
            let end = (pos + rng.below(80)).min(text.len());
            let span = text[pos..end].to_vec();
            text.splice(end..end, span);
        }
        4 => {
            let end = (pos + rng.below(40)).min(text.len());
            text.drain(pos..end);
        }
        5 => {
            let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
            text.splice(pos..pos, token.iter().copied());
        }
        _ => text.truncate(pos),
    }
}

fn sitc() -> assert_cmd::Command {
    cargo_bin_cmd!("sitc")
}

/// Runs `sitc` with `args` and checks that it exits with 0, 1 or 2 without a panic;
/// returns the exit code.
fn survives(args: &[&str]) -> i32 {
    let out = sitc().args(args).output().expect("sitc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0..=2)) && !stderr.contains("panicked"),
        "sitc {args:?} exited with {code:?}:\n{stderr}"
    );
    code.unwrap_or(-1)
}

#[test]
fn mutated_example_models_give_exit_codes_0_1_or_2() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let models = sit_build::sit_files(&root);
    assert!(models.len() >= 10, "the example models are there");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rng = Rng(0x5175_0b5e_ed00_0001);
    let mut files = Vec::new();
    for (m, model) in models.iter().enumerate() {
        let original = std::fs::read(model).expect("example model is readable");
        for k in 0..MUTATIONS {
            let mut text = original.clone();
            for _ in 0..1 + rng.below(4) {
                mutate(&mut text, &mut rng);
            }
            let path = dir.path().join(format!("m{m}_{k}.sit"));
            std::fs::write(&path, &text).expect("temp dir is writable");
            files.push(path);
        }
    }
    let mut codes = [0usize; 3];
    for batch in files.chunks(BATCH) {
        let args: Vec<&str> = std::iter::once("check")
            .chain(
                batch
                    .iter()
                    .map(|p| p.to_str().expect("temp paths are UTF-8")),
            )
            .collect();
        codes[survives(&args) as usize] += 1;
    }
    // Some mutations break a model: the batches report errors.
    assert!(codes[1] > 0, "{codes:?}");
    // `run` and `emit` on a sample, one file per call, including the valid mutations.
    for path in files.iter().step_by(37) {
        let p = path.to_str().expect("temp paths are UTF-8");
        survives(&[
            "run",
            p,
            "--t-end",
            "0.05",
            "--check-finite",
            "--record",
            "all",
        ]);
        survives(&["emit", p, "-o", dir.path().join("out.rs").to_str().unwrap()]);
    }
}

#[test]
fn bad_flags_of_every_subcommand_exit_with_2() {
    let hoop = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/models/hoop.sit");
    let bad: &[&[&str]] = &[
        &[],
        &["--bogus"],
        &["frobnicate"],
        &["check"],
        &["check", "--format", "xml", hoop],
        &["check", "--format"],
        &["check", "/nonexistent/file.sit"],
        &["check", "--bogus", hoop],
        &["emit"],
        &["emit", hoop, hoop],
        &["emit", hoop, "--model"],
        &["emit", hoop, "--model", "NoSuchModel"],
        &["emit", hoop, "-o", "/nonexistent/dir/out.rs"],
        &["emit", "/nonexistent.sit"],
        &["run"],
        &["run", hoop, "--dt", "0"],
        &["run", hoop, "--dt", "-1"],
        &["run", hoop, "--dt", "NaN"],
        &["run", hoop, "--dt", "inf"],
        &["run", hoop, "--dt", "abc"],
        &["run", hoop, "--t-end", "-5"],
        &["run", hoop, "--t-end", "1e308", "--dt", "1e-308"],
        &["run", hoop, "--every", "0"],
        &["run", hoop, "--every", "-1"],
        &["run", hoop, "--set", "nothing"],
        &["run", hoop, "--set", "=1"],
        &["run", hoop, "--set", "x=abc"],
        &["run", hoop, "--set", "no_such_var=1"],
        &["run", hoop, "--record", ",,"],
        &["run", hoop, "--record", "nope"],
        &["run", hoop, "--params", "/nonexistent.toml"],
        &["run", hoop, "--model", "Nope"],
        &["run", hoop, "-o", "/nonexistent/dir/out.csv"],
        &["run", hoop, "--check-finite=yes"],
        &["plot"],
        &["plot", "/nonexistent.csv"],
        &["plot", hoop],
        &["sweep", "--bogus"],
    ];
    for args in bad {
        let code = survives(args);
        assert_eq!(code, 2, "sitc {args:?}");
    }
    // Asking for help or the version is not an error.
    for args in [
        &["--help"][..],
        &["--version"],
        &["run", "--help"],
        &["check", "-h"],
    ] {
        assert_eq!(survives(args), 0, "sitc {args:?}");
    }
}

#[test]
fn check_finite_stops_at_the_first_fault_with_exit_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("fall.sit");
    std::fs::write(
        &path,
        "model Fall {\n    param m = 0;\n    real F = 1;\n    output real Ay;\n    \
         Ay = F / m when time >= 0.5;\n}\n",
    )
    .expect("temp dir is writable");
    let p = path.to_str().expect("temp paths are UTF-8");
    let out = sitc()
        .args(["run", p, "--dt", "0.125", "--t-end", "1", "--check-finite"])
        .output()
        .expect("sitc runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The rule, its line, the time at the start of the step, the values it read.
    let fault = format!(
        "error: {}:5: rule `Ay = F / m when time >= 0.5` made `Ay` = inf at t = 0.5 \
         (reading F = 1, m = 0)\n",
        path.display()
    );
    assert_eq!(stderr, fault);
    // The rows before the faulty step are written: t = 0 to 0.5 (0.125 is exact).
    let rows = "t,Ay\n0,0\n0.125,0\n0.25,0\n0.375,0\n0.5,0\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), rows);
    // Without the flag, the default: the same stop, the same rows, found by the watch
    // after the step and named by the step taken again, checked; and how to run on.
    let plain = sitc()
        .args(["run", p, "--dt", "0.125", "--t-end", "1"])
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&plain.stdout), rows);
    assert_eq!(
        String::from_utf8_lossy(&plain.stderr),
        format!(
            "{}  = help: a NaN or an infinity stops the run; if the model means a value to \
             be infinite, --allow-non-finite runs on past it\n",
            fault
        )
    );
    // A fault after many steps is named by a replay from the last copy of the model
    // (every 65 536 steps), not from the start: the step from t = 10 000 is step
    // 80 001 at dt = 0.125, so the copy after step 65 536 is where the replay starts.
    let late_path = dir.path().join("late.sit");
    let late_model = "model Late {\n    param m = 0;\n    real F = 1;\n    output real Ay;\n    \
                      Ay = F / m when time >= 10000;\n}\n";
    std::fs::write(&late_path, late_model).expect("temp dir is writable");
    let late = sitc()
        .arg("run")
        .arg(&late_path)
        .args(["--dt", "0.125", "--t-end", "20000", "--every", "40000"])
        .output()
        .unwrap();
    assert_eq!(late.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&late.stdout),
        "t,Ay\n0,0\n5000,0\n10000,0\n"
    );
    assert!(
        String::from_utf8_lossy(&late.stderr)
            .contains("made `Ay` = inf at t = 10000 (reading F = 1, m = 0)"),
        "{}",
        String::from_utf8_lossy(&late.stderr)
    );
    // With --allow-non-finite the run goes on with infinities (exit 0).
    let allowed = sitc()
        .args([
            "run",
            p,
            "--dt",
            "0.125",
            "--t-end",
            "1",
            "--allow-non-finite",
        ])
        .output()
        .unwrap();
    assert_eq!(allowed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&allowed.stdout).ends_with("1,inf\n"));
    // The two flags say opposite things: refused.
    let both = sitc()
        .args(["run", p, "--check-finite", "--allow-non-finite"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
    // A value set from outside is checked before the first step.
    let set = sitc()
        .args(["run", p, "--check-finite", "--set", "F=inf", "--set", "m=1"])
        .output()
        .unwrap();
    assert_eq!(set.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&set.stderr),
        "error: `F` = inf at t = 0\n"
    );
}
