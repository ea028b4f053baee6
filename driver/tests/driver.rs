//! The driver: every kind of source to the lowered program, its options, and the layering it keeps.

use sit_driver::{Error, Options, Source, compile};
use sit_middle::ir::Method;
use std::path::{Path, PathBuf};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models")
}

#[test]
fn a_file_a_text_and_a_schematic_compile_to_the_same_kind_of_program() {
    let from_file = compile(
        &Source::path(&models().join("hoop.sit")),
        &Options::default(),
    )
    .expect("the hoop compiles");
    let root = from_file.root(None).expect("one root");
    assert_eq!(from_file.lowered.program().models[root].name, "Hoop");
    assert!(from_file.files().iter().any(|f| f.ends_with("hoop.sit")));

    let text = std::fs::read_to_string(models().join("hoop.sit")).unwrap();
    let from_text = compile(&Source::text("hoop.sit", &text), &Options::default()).unwrap();
    assert_eq!(
        from_text.lowered.program().models.len(),
        from_file.lowered.program().models.len()
    );

    let sch = models().join("../schematics/drive_axle.sch");
    let drawn = compile(&Source::path(&sch), &Options::default()).expect("the drawing compiles");
    assert!(!drawn.lowered.program().models.is_empty());
    // The model generated from the drawing is not a file on disk.
    assert!(drawn.files().iter().all(|f| f.exists()));
}

#[test]
fn imports_are_read_by_the_reader_of_a_memory_source() {
    let read = |p: &Path| {
        if p.ends_with("lib.sit") {
            Ok(b"model Leaf { output real y = 2; }".to_vec())
        } else {
            Err(std::io::Error::from(std::io::ErrorKind::NotFound))
        }
    };
    let source = Source::Memory {
        path: Path::new("/nowhere/root.sit"),
        text: "import \"lib.sit\"; model Root { sub l: Leaf; output real z; z = l.y; }",
        read: &read,
    };
    let compiled = compile(&source, &Options::default()).expect("compiles from memory");
    assert_eq!(compiled.root(None), compiled.root(Some("Root")));
    let missing = Source::Memory {
        path: Path::new("/nowhere/root.sit"),
        text: "import \"other.sit\"; model Root { }",
        read: &read,
    };
    assert!(matches!(
        compile(&missing, &Options::default()),
        Err(Error::Model(_))
    ));
}

#[test]
fn options_choose_the_method_the_log_and_the_allowed_warnings() {
    let src = "model M { output real x = 1; real unused; x = integral(-x); }";
    let source = Source::text("m.sit", src);
    let plain = compile(&source, &Options::default()).unwrap();
    assert!(!plain.lowered.logs_events());
    assert_eq!(plain.warnings.diagnostics.len(), 1, "W0201 for `unused`");
    assert_eq!(plain.lowered.program().models.len(), 1);

    let rk4 = Options {
        method: Some(Method::Rk4),
        events: true,
        allow: vec!["W0201".into()],
        sensitivities: None,
        probes: Vec::new(),
    };
    let c = compile(&source, &rk4).unwrap();
    assert!(c.lowered.logs_events() && c.lowered.event_table(0).is_some());
    assert!(c.warnings.is_empty());
    // The checked program says what was written; the lowered one what runs.
    assert_eq!(c.checked.models[0].method, Method::Rk4);
    assert_eq!(c.lowered.program().models[0].method, Method::Euler);
    assert!(c.lowered.program().models[0].vars.len() > c.checked.models[0].vars.len());

    let bad = Options {
        allow: vec!["E0101".into()],
        ..Options::default()
    };
    let e = compile(&source, &bad).unwrap_err();
    assert!(
        matches!(&e, Error::NotAWarning { code } if code == "E0101"),
        "{e}"
    );
    assert!(!e.is_model_error());
}

#[test]
fn errors_say_what_failed() {
    let missing = compile(&Source::path("/nonexistent/x.sit"), &Options::default()).unwrap_err();
    assert!(matches!(missing, Error::Read(_)) && !missing.is_model_error());
    let bad = compile(
        &Source::text("b.sit", "model M { x = 1; }"),
        &Options::default(),
    );
    let e = bad.unwrap_err();
    assert!(e.is_model_error());
    assert!(e.to_string().contains("error[E0101]"), "{e}");
    // A method that cannot split the rules is a model error with its place: the stage
    // rule `a = f` reads `f` before the rule computing it.
    let algebraic =
        "model M { real x = 1, v, a, f; a = f; f = -4 * x; v = integral(a); x = integral(v); }";
    let rk4 = Options {
        method: Some(Method::Rk4),
        ..Options::default()
    };
    let e = compile(&Source::text("a.sit", algebraic), &rk4).unwrap_err();
    assert!(matches!(e, Error::Model(_)), "{e}");
    assert!(e.to_string().contains("E0472"), "{e}");
}

/// The generators, the interpreter and the GPU back end take only the lowered program:
/// they depend on the lowered language and the runtime, not on the checker, the driver,
/// the schematic front end or files.
#[test]
fn back_ends_depend_only_on_the_lowered_language() {
    for krate in ["codegen", "interp", "gpu"] {
        let toml = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../{krate}/Cargo.toml")),
        )
        .unwrap();
        let deps = toml
            .split("[dependencies]")
            .nth(1)
            .and_then(|d| d.split("\n[").next())
            .unwrap();
        let sit: Vec<&str> = deps
            .lines()
            .filter_map(|l| l.split(['.', ' ', '=']).next())
            .filter(|n| n.starts_with("sit-"))
            .collect();
        assert_eq!(sit, ["sit-lir", "sit-runtime"], "{krate}");
    }
}
