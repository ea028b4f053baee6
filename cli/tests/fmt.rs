//! `sitc fmt`: files rewritten in place, `--check` with a diff and exit 1, standard
//! input, folders, and files with syntax errors left alone (exit 1) or unreadable (exit 2).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::Path;

const MESSY: &str = "model M{param k=2;output real x=1;\nx=integral(-k*x);   // decay\n}\n";
const TIDY: &str =
    "model M {\n    param k = 2;\n    output real x = 1;\n    x = integral(-k * x);  // decay\n}\n";

/// `sitc ARGS` run from `dir` with `stdin`: the exit code, stdout and stderr.
fn sitc(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = cargo_bin_cmd!("sitc")
        .current_dir(dir)
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("sitc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_reports_a_diff_and_changes_nothing_then_fmt_rewrites() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/m.sit"), MESSY).unwrap();
    std::fs::write(dir.path().join("tidy.sit"), TIDY).unwrap();

    let (code, out, err) = sitc(dir.path(), &["fmt", "--check", "."], "");
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("-x=integral(-k*x);   // decay\n"), "{out}");
    assert!(
        out.contains("+    x = integral(-k * x);  // decay\n"),
        "{out}"
    );
    assert!(!out.contains("tidy.sit"), "{out}");
    assert_eq!(
        err,
        "1 file is not formatted (run `sitc fmt` on it):\n  ./sub/m.sit\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/m.sit")).unwrap(),
        MESSY
    );

    let (code, out, err) = sitc(dir.path(), &["fmt", "sub"], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/m.sit")).unwrap(),
        TIDY
    );

    let (code, out, err) = sitc(dir.path(), &["fmt", "--check", "."], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn standard_input_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = sitc(dir.path(), &["fmt", "-"], MESSY);
    assert_eq!((code, out.as_str(), err.as_str()), (0, TIDY, ""));
    let (code, _, _) = sitc(dir.path(), &["fmt", "--check", "-"], MESSY);
    assert_eq!(code, 1);
}

#[test]
fn syntax_errors_leave_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "model M {\n    real x = ;\n}\n";
    std::fs::write(dir.path().join("bad.sit"), bad).unwrap();
    let (code, out, err) = sitc(dir.path(), &["fmt", "bad.sit"], "");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with("bad.sit:2:14: error[E0001]: expected an expression, found `;`"),
        "{err}"
    );
    assert!(err.ends_with("`bad.sit` was not formatted\n"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.sit")).unwrap(),
        bad
    );

    let (code, _, err) = sitc(dir.path(), &["fmt", "missing.sit"], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("error: cannot read `missing.sit`"), "{err}");
}

#[test]
fn the_library_is_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (code, out, err) = sitc(&root, &["fmt", "--check", "examples"], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}
