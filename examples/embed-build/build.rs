//! Compiles the models of this example into `OUT_DIR`: `hoop.rs` and `features.rs` through
//! `sit_build::Builder`, and every model of `examples/models` (subfolders included)
//! into `all_models.rs`, one module per file, so that the crate's `#![deny(warnings)]`
//! and clippy check the generated code of every example model.

use std::path::PathBuf;

fn main() {
    sit_build::Builder::new()
        .file("../models/hoop.sit")
        .file("models/features.sit")
        .run();
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=../models");
    let files = sit_build::sit_files("../models");
    let mut modules = String::new();
    for file in files {
        let rel = file.strip_prefix("../models").unwrap_or(&file);
        let module: String = rel
            .with_extension("")
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        let generated = sit_build::compile_file(&file).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        let path = out_dir.join(format!("model_{module}.rs"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(generated.code.as_str()) {
            std::fs::write(&path, &generated.code).expect("OUT_DIR is writable");
        }
        modules.push_str(&format!(
            "/// Generated from `examples/models/{}`.\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/model_{module}.rs\"));\n}}\n",
            rel.display()
        ));
    }
    std::fs::write(out_dir.join("all_models.rs"), modules).expect("OUT_DIR is writable");
}
