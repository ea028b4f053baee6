//! Snapshots of the code generated for every example model (`examples/models/*.sit`).

use std::path::{Path, PathBuf};

/// The folder of the example models.
fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models")
}

/// Every example model, sorted, so that new models are picked up.
fn example_models() -> Vec<PathBuf> {
    sit_driver::sit_files(models_dir())
}

#[test]
fn generated_code_of_example_models() {
    let files = example_models();
    assert!(
        files.iter().any(|f| f.ends_with("hoop.sit")),
        "hoop.sit is missing"
    );
    for file in files {
        let source = sit_driver::Source::path(&file);
        let compiled = sit_driver::compile(&source, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let code = &sit_codegen::generate(&compiled.lowered, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            !code.contains("unsafe"),
            "{}: generated code has `unsafe`",
            file.display()
        );
        // `complex/roll.sit` → snapshot `complex__roll`.
        let rel = file.strip_prefix(models_dir()).unwrap().with_extension("");
        let name = rel.to_string_lossy().replace(['/', '\\'], "__");
        insta::assert_snapshot!(name, code);
    }
}

/// The code of a model without watched guards (`dahlquist`: the straight-line `rk4`
/// step, the plain `dopri5` loop) and of one with them (`thermostat`: both loops with
/// located events) under each method: the arithmetic that the methods' tableaus write,
/// pinned sum by sum (the example models declare no method, so the snapshots above run
/// `euler`).
#[test]
fn generated_code_under_each_method() {
    use sit_middle::ir::Method;
    for model in ["dahlquist", "thermostat"] {
        let file = models_dir().join(format!("{model}.sit"));
        for method in [Method::Rk4, Method::Dopri5(Default::default())] {
            let opts = sit_driver::Options {
                method: Some(method),
                ..Default::default()
            };
            let compiled = sit_driver::compile(&sit_driver::Source::path(&file), &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let code = sit_codegen::generate(&compiled.lowered, &Default::default())
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            insta::assert_snapshot!(format!("{model}__{}", method.name()), code);
        }
    }
}
