//! The generated code of a chain of submodels grows linearly with its depth (issue 53:
//! each model's variable table held its whole subtree, renamed, so a chain `d` deep
//! generated code that grew with `d³`: 26 MB of Rust for 100 levels). Sizes, not times:
//! the ratio of the code of a chain twice as deep.

fn emit(depth: usize, batch: bool) -> usize {
    let text = sit_synth::chain(depth);
    let source = sit_driver::Source::Text {
        path: std::path::Path::new("chain.sit"),
        text: &text,
    };
    let compiled = sit_driver::compile(&source, &Default::default()).expect("a valid chain");
    let opts = sit_codegen::Options {
        batch,
        ..Default::default()
    };
    let code = sit_codegen::generate(&compiled.lowered, &opts).expect("generated");
    code.len()
}

#[test]
fn generated_code_grows_linearly_with_submodel_depth() {
    for batch in [false, true] {
        let (small, large) = (emit(40, batch), emit(80, batch));
        let ratio = large as f64 / small as f64;
        assert!(
            ratio < 2.5,
            "batch {batch}: depth 40: {small} bytes, depth 80: {large} bytes ({ratio:.2}x)"
        );
        // A depth-80 chain is 80 instances, not 3 240: well under a megabyte.
        assert!(large < 1_500_000, "batch {batch}: depth 80: {large} bytes");
    }
}
