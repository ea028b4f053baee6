//! `--allow CODE` and `-q` on `sitc check`, `run`, `sweep` and `emit` (and `fmu`): the warnings
//! they silence are not shown, errors always are, and a code that is not a warning's
//! is a usage error.

use assert_cmd::cargo::cargo_bin_cmd;

/// The light of the diagnostics corpus: W0240 twice and W0204 once.
const LIGHT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/malformed/sigma_cascade.sit"
);

/// Exit code and stderr of `sitc ARGS`.
fn sitc(args: &[&str]) -> (i32, String) {
    let out = cargo_bin_cmd!("sitc")
        .args(args)
        .output()
        .expect("sitc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_shows_what_is_not_allowed() {
    let (code, all) = sitc(&["check", LIGHT]);
    assert_eq!(code, 0);
    assert_eq!(all.matches("warning[W0240]").count(), 2, "{all}");
    assert!(all.contains("warning[W0204]") && all.ends_with("3 warnings emitted\n"));
    let (code, some) = sitc(&["check", "--allow", "W0240", LIGHT]);
    assert_eq!(code, 0);
    assert!(
        !some.contains("W0240") && some.ends_with("1 warning emitted\n"),
        "{some}"
    );
    let (code, none) = sitc(&["check", "--allow", "W0240", "--allow", "W0204", LIGHT]);
    assert_eq!((code, none.as_str()), (0, ""));
    let (code, quiet) = sitc(&["check", "-q", LIGHT]);
    assert_eq!((code, quiet.as_str()), (0, ""));
}

#[test]
fn errors_are_always_shown_and_cannot_be_allowed() {
    let bad = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/malformed/unknown_name.sit"
    );
    let (code, text) = sitc(&["check", "-q", bad]);
    assert_eq!(code, 1);
    assert!(text.contains("error[E0101]"), "{text}");
    let (code, text) = sitc(&["check", "--allow", "E0101", bad]);
    assert_eq!(code, 2);
    assert!(text.contains("`E0101` is not a warning code"), "{text}");
}

#[test]
fn run_sweep_and_emit_take_the_same_options() {
    let run = ["run", LIGHT, "--dt", "1", "--t-end", "3"];
    let (code, text) = sitc(&run);
    assert_eq!(code, 0);
    assert!(text.contains("W0240"), "{text}");
    let (code, text) = sitc(&[&run[..], &["-q"]].concat());
    assert_eq!((code, text.as_str()), (0, ""));
    // `-q` also silences the note on a T that is not a whole number of steps.
    let (code, text) = sitc(&["run", LIGHT, "--dt", "0.3", "--t-end", "1", "-q"]);
    assert_eq!((code, text.as_str()), (0, ""));
    let sweep = [
        "sweep",
        LIGHT,
        "--dt",
        "1",
        "--t-end",
        "3",
        "--param",
        "T_red=1,2",
    ];
    let (code, text) = sitc(&[&sweep[..], &["--allow", "W0240", "--allow", "W0204"]].concat());
    assert_eq!((code, text.as_str()), (0, ""));
    let (code, text) = sitc(&["emit", LIGHT, "-q"]);
    assert_eq!((code, text.as_str()), (0, ""));
}
