//! The errors of `include_model!`: model errors, a missing file and a bad argument
//! become `compile_error!` with the rendered diagnostic, checked as rustc prints them
//! (expected text in `ui/*.stderr`).
//!
//! Each case `ui/*.rs` is compiled by the toolchain's `rustc` (next to the `cargo` that
//! runs this test) to metadata only, against the `sit-macros` library this test was
//! built with, with `CARGO_MANIFEST_DIR` set to this crate's folder, so the cases name
//! their `.sit` files as `tests/ui/models/…`. (trybuild did the same in a cargo project
//! of its own, which built the macro's dependencies a second time: 40 s of CI.)

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `sit-macros` proc-macro library that cargo built with this test: the newest
/// `libsit_macros-*.so` (or `.dylib`, `.dll`) next to this test's executable.
fn proc_macro_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's executable");
    let deps = exe.parent().expect("the test's folder");
    std::fs::read_dir(deps)
        .expect("the deps folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let library =
                name.ends_with(".so") || name.ends_with(".dylib") || name.ends_with(".dll");
            (name.starts_with("libsit_macros-") || name.starts_with("sit_macros-")) && library
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("cargo built the sit-macros library next to this test")
}

/// The `rustc` of the toolchain that built this test.
fn rustc() -> PathBuf {
    std::env::var_os("CARGO")
        .map(|cargo| PathBuf::from(cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.exists())
        .unwrap_or_else(|| PathBuf::from("rustc"))
}

/// rustc's error output for `case`, without the closing "aborting" line and with
/// trailing spaces trimmed.
fn compile(case: &Path, library: &Path, out: &Path) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(rustc())
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "bin",
            "--emit=metadata",
        ])
        .arg("-o")
        .arg(out.join("case.rmeta"))
        .arg(case.strip_prefix(dir).expect("a case in this crate"))
        .arg("--extern")
        .arg(format!("sit_macros={}", library.display()))
        .env("CARGO_MANIFEST_DIR", dir)
        .current_dir(dir)
        .output()
        .expect("rustc runs");
    assert!(
        !output.status.success(),
        "{} compiled, but must fail",
        case.display()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.starts_with("error: aborting due to"))
        .collect();
    format!("{}\n", lines.join("\n").trim_end())
}

#[test]
fn macro_errors() {
    let library = proc_macro_library();
    let out = tempfile_dir();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/ui")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 5, "the cases of tests/ui");
    let mut failed = Vec::new();
    for case in &cases {
        let got = compile(case, &library, &out);
        let expected_path = case.with_extension("stderr");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if std::env::var_os("SIT_UI_BLESS").is_some() {
            std::fs::write(&expected_path, &got).expect("the expected text written");
        } else if got.trim_end() != expected.trim_end() {
            failed.push(format!(
                "{}: expected\n{expected}\ngot\n{got}",
                case.display()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        failed.is_empty(),
        "{}\n(rewrite the expected texts with SIT_UI_BLESS=1)",
        failed.join("\n")
    );
}

/// A fresh folder for rustc's output, under the system's temporary folder.
fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sit-macros-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}
