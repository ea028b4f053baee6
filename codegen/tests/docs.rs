//! The doc comments Sit writes into generated code are plain text for rustdoc: a hidden state's doc that names array cells (`d rate(T[1])/d T[2]`) escapes its brackets, so `cargo doc` of a crate embedding the model has no broken intra-doc links.

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
