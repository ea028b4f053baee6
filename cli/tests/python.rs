//! The Python package `sit` (`python/`): builds its wheel with maturin, installs it into
//! the venv of `.ci/run`, runs its pytest suite (`python/tests`), which compares `run`
//! and `sweep` with this `sitc`, bit for bit, locally and on a Dask cluster, then runs
//! the `python` blocks of `docs/python.md` in order, as one script (the docs test
//! leaves them, marked `norun`, to this test, which has the package installed).
//!
//! The venv is `target/ci-venv` (or the Python in `SIT_PYTHON`), with maturin, NumPy,
//! pytest and dask[distributed]. Without them the test is skipped with a message, except
//! in CI (`CI=true`), where a missing package is a failure. The wheel is a debug build
//! (`--profile dev`) in its own cargo target directory (`target/python-build`: the
//! workspace's is locked while `cargo test` runs).

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The venv's Python with every package the build and the tests need, or `None`
/// (outside CI) when there is none.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("SIT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/ci-venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", "import maturin, numpy, pytest, distributed, pandas"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    let message = format!(
        "maturin, numpy, pytest, dask[distributed] or pandas is missing at `{}`: run .ci/run, or \
         `python3 -m venv target/ci-venv && target/ci-venv/bin/pip install maturin numpy \
         pytest 'dask[distributed]' pandas`",
        python.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message}");
    }
    eprintln!("\n!!!!! SKIPPED: {message} !!!!!\n");
    None
}

/// Runs `cmd`, panicking with its output when it fails.
fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

#[test]
fn the_python_package_passes_its_tests() {
    let Some(python) = python() else { return };
    let wheels = root().join("target/python-wheels");
    let maturin = python.with_file_name("maturin");
    run(
        Command::new(&maturin)
            .args(["build", "--profile", "dev", "-m"])
            .arg(root().join("python/Cargo.toml"))
            .arg("-i")
            .arg(&python)
            .arg("-o")
            .arg(&wheels)
            .env("CARGO_TARGET_DIR", root().join("target/python-build")),
        "maturin build",
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin wrote the wheel")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("a wheel");
    run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--force-reinstall", "--no-deps"])
            .arg(&wheel),
        "pip install",
    );
    let out = run(
        Command::new(&python)
            .args([
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-q",
                "python/tests",
            ])
            .current_dir(root())
            .env("SITC", env!("CARGO_BIN_EXE_sitc")),
        "pytest python/tests",
    );
    // The summary line, in the output of `cargo test -- --nocapture`.
    println!("{}", out.lines().last().unwrap_or_default());
    assert!(
        !out.contains(" skipped"),
        "no test may be skipped here:\n{out}"
    );
    run_doc_blocks(&python);
}

/// The `python` blocks of `docs/python.md`, joined, run from a temporary folder that
/// links `examples/` to the repository's (so the page's relative paths hold and what it
/// writes stays out of the checkout).
fn run_doc_blocks(python: &Path) {
    let page = std::fs::read_to_string(root().join("docs/python.md")).expect("docs/python.md");
    let mut script = String::new();
    let mut inside = false;
    for line in page.lines() {
        if inside && line.trim_start().starts_with("```") {
            inside = false;
        } else if inside {
            script.push_str(line);
            script.push('\n');
        } else if line.trim_start().starts_with("```python") {
            inside = true;
        }
    }
    assert!(
        script.contains("sit.sweep"),
        "docs/python.md has its python blocks"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(root().join("examples"), dir.path().join("examples"))
        .expect("a link to examples/");
    // `-c`, as a notebook: the worker processes of a Dask cluster do not re-run a
    // main script (which `python page.py` would need an `if __name__` guard for).
    run(
        Command::new(python)
            .arg("-c")
            .arg(&script)
            .current_dir(dir.path()),
        "the python blocks of docs/python.md",
    );
}
