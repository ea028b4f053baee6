//! The Python package `sit` (`python/`): puts its extension, as `cargo test --workspace`
//! builds it (the example `sit_extension` of `python/Cargo.toml`), next to the package's
//! Python sources in a temporary folder, runs its pytest suite (`python/tests`) with that
//! folder first on `PYTHONPATH`, which compares `run` and `sweep` with this `sitc`, bit
//! for bit, locally and on a Dask cluster, then runs the `python` blocks of
//! `docs/python.md` in order, as one script (the docs test leaves them, marked `norun`,
//! to this test).
//!
//! The venv is `target/ci-venv` (or the Python in `SIT_PYTHON`), with NumPy, pytest,
//! dask[distributed], pandas and SciPy. Without them the test is skipped with a message, except
//! in CI (`CI=true`), where a missing package is a failure. The extension is not built by
//! maturin here (that was a second build of the interpreter and PyO3 in a target folder
//! of its own, 100 s of CI): the test checks that the example's library is newer than
//! every source it is built from and otherwise says how to build it.

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
        .args(["-c", "import numpy, pytest, distributed, pandas, scipy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    let message = format!(
        "numpy, pytest, dask[distributed], pandas or scipy is missing at `{}`: run .ci/run, \
         or `python3 -m venv target/ci-venv && target/ci-venv/bin/pip install numpy pytest \
         'dask[distributed]' pandas scipy`",
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

/// The crates the extension is built from (their sources and manifests).
const SOURCES: [&str; 9] = [
    "python",
    "dsl-parser",
    "check",
    "lower",
    "middle",
    "driver",
    "interp",
    "host",
    "runtime",
];

/// The newest modification time of a source file (Rust, TOML, Python) under `dir`.
fn newest(dir: &Path) -> std::time::SystemTime {
    let mut newest = std::time::SystemTime::UNIX_EPOCH;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let source = path
            .extension()
            .is_some_and(|e| matches!(e.to_str(), Some("rs" | "toml" | "py" | "pyi")));
        let time = if path.is_dir() {
            newest_of_dir(&path)
        } else if source {
            entry.metadata().and_then(|m| m.modified()).ok()
        } else {
            None
        };
        newest = newest.max(time.unwrap_or(newest));
    }
    newest
}

/// [`newest`], skipping folders no build of the extension reads (tests, their
/// snapshots, benchmarks, caches).
fn newest_of_dir(dir: &Path) -> Option<std::time::SystemTime> {
    let name = dir.file_name()?.to_str()?;
    (!matches!(
        name,
        "tests" | "snapshots" | "bench" | "__pycache__" | "target"
    ))
    .then(|| newest(dir))
}

/// The extension as `cargo test --workspace` builds it, checked to be newer than its
/// sources, copied as `sit/_sit.abi3.so` into `package` with the package's Python files.
fn install_extension(package: &Path) {
    let debug = Path::new(env!("CARGO_BIN_EXE_sitc"))
        .parent()
        .expect("sitc's folder")
        .to_path_buf();
    let library = debug.join("examples/libsit_extension.so");
    let built = library.metadata().and_then(|m| m.modified()).ok();
    let sources = SOURCES
        .iter()
        .map(|c| newest(&root().join(c)))
        .chain([newest_file(&root().join("Cargo.lock"))])
        .max()
        .expect("sources");
    assert!(
        built.is_some_and(|b| b >= sources),
        "the Python extension `{}` is missing or older than its sources: build it with \
         `cargo build --profile test -p sit-python --example sit_extension` (as \
         `cargo test --workspace` does), then run this test again",
        library.display()
    );
    let sit = package.join("sit");
    std::fs::create_dir_all(&sit).expect("a package folder");
    for entry in std::fs::read_dir(root().join("python/sit")).expect("python/sit") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            std::fs::copy(&path, sit.join(path.file_name().expect("a name"))).expect("a copy");
        }
    }
    std::fs::copy(&library, sit.join("_sit.abi3.so")).expect("the extension copied");
    // The module maturin builds (pyproject.toml) is the one placed here.
    let pyproject = std::fs::read_to_string(root().join("python/pyproject.toml"))
        .expect("python/pyproject.toml");
    assert!(
        pyproject.contains("module-name = \"sit._sit\""),
        "pyproject.toml names the extension `sit._sit`"
    );
}

/// The modification time of one file.
fn newest_file(path: &Path) -> std::time::SystemTime {
    path.metadata()
        .and_then(|m| m.modified())
        .unwrap_or(std::time::SystemTime::UNIX_EPOCH)
}

#[test]
fn the_python_package_passes_its_tests() {
    let Some(python) = python() else { return };
    let package = tempfile::tempdir().expect("a temporary folder");
    install_extension(package.path());
    let found = run(
        Command::new(&python)
            .args(["-c", "import sit; print(sit._sit.__file__)"])
            .env("PYTHONPATH", package.path()),
        "import sit",
    );
    assert!(
        Path::new(found.trim()).starts_with(package.path()),
        "`import sit` found the package placed here, not `{}`",
        found.trim()
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
            .env("PYTHONPATH", package.path())
            .env("SITC", env!("CARGO_BIN_EXE_sitc")),
        "pytest python/tests",
    );
    // The summary line, in the output of `cargo test -- --nocapture`.
    println!("{}", out.lines().last().unwrap_or_default());
    assert!(
        !out.contains(" skipped"),
        "no test may be skipped here:\n{out}"
    );
    run_doc_blocks(&python, package.path());
}

/// The `python` blocks of `docs/python.md`, joined, run from a temporary folder that
/// links `examples/` to the repository's (so the page's relative paths hold and what it
/// writes stays out of the checkout).
fn run_doc_blocks(python: &Path, package: &Path) {
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
            .current_dir(dir.path())
            .env("PYTHONPATH", package),
        "the python blocks of docs/python.md",
    );
}
