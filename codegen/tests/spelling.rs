//! What Sit writes into generated code as Rust sees it: a hidden state's doc that names array cells (`d rate(T[1])/d T[2]`) escapes its brackets, so `cargo doc` of a crate embedding the model has no broken intra-doc links; the event table is implemented on the model's struct, whose name is escaped (`Rod(N = 3)` is `Rod_N___3_`).

fn generate(src: &str) -> String {
    let out = sit_middle::check_source("t.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let lowered =
        sit_middle::lower::Lowered::new(out.program.as_ref().unwrap(), Default::default());
    sit_codegen::generate(&lowered.unwrap(), &Default::default()).unwrap()
}

#[test]
fn hidden_docs_naming_cells_are_not_links() {
    let code = generate(
        "model Rod {\n    method rodas4;\n    param N = 3;\n    real T[N] = 1;\n    \
         for i in 1:N {\n        T[i] = integral(-T[i]);\n    }\n}\n",
    );
    let docs: Vec<&str> = code
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("///") && l.contains("Jacobian"))
        .collect();
    assert!(
        docs.iter().any(|l| l.contains(r"rate(T\[1\])/d T\[1\]")),
        "{docs:#?}"
    );
    for l in &docs {
        assert!(!l.contains("T[1]"), "an unescaped cell in `{l}`");
    }
}

/// The event log's `impl` names a model's struct, not its `.sit` name: the copy a
/// structural binding makes (`Rod(N = 3)`) is the struct `Rod_N___3_` (it was written
/// `impl Rod(N = 3)`, which does not compile).
#[test]
fn the_event_table_is_implemented_on_the_struct() {
    let out = sit_middle::check_source(
        "t.sit",
        "model Rod {\n    param N = 2;\n    output real T[N] = 1;\n    output flag hot = false;\n    \
         for i in 1:N {\n        T[i] = integral(-T[i]);\n    }\n    when T[1] < 0.5 => hot;\n}\n\
         model Top {\n    sub r: Rod(N = 3);\n    output real y;\n    y = r.T[3];\n}\n",
    );
    assert!(!out.has_errors(), "{}", out.render());
    let prepare = sit_middle::lower::Prepare {
        events: true,
        ..Default::default()
    };
    let lowered = sit_middle::lower::Lowered::new(out.program.as_ref().unwrap(), prepare);
    let code = sit_codegen::generate(&lowered.unwrap(), &Default::default()).unwrap();
    assert!(
        code.contains("pub struct Rod_N___3_ {"),
        "no struct of the copy"
    );
    assert!(
        code.contains("impl Rod_N___3_ {\n    /// The event log"),
        "no table on it"
    );
    assert!(!code.contains("impl Rod(N"));
}
