//! Writes every `rust` block of the pages into `OUT_DIR/blocks/`, one module each, and the
//! example models (with their batch forms) as `OUT_DIR/NAME.rs`, the files a build script
//! of `sit_build::Builder` would write, for the blocks to `include!`.
//!
//! A block that parses as a Rust file (items) becomes a module as it is; a block of
//! statements becomes `pub fn run() -> Result<(), Box<dyn Error>>`, run by a test unless
//! it is marked `norun`. Inner attributes (`#![no_std]`) cannot be `include!`d and are
//! commented out. Line 1 of each written file is a comment naming the fence, so line N of
//! the file is line N - 1 after the fence (line 1 also opens `run`): rustc's messages point
//! into the page.

#[path = "src/page.rs"]
#[allow(dead_code)]
mod page;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    // A new page in docs/ changes that folder (cargo scans it); an edited page, itself.
    // Not the root folder: cargo would scan `target/` too, and rerun on every build. A
    // new page at the root is found by the docs test, which asks to touch this file.
    println!("cargo:rerun-if-changed={}", root.join("docs").display());
    for page in page::pages(&root) {
        println!("cargo:rerun-if-changed={}", root.join(page).display());
    }
    let prelude = models(&root.join("examples/models"), &out);
    write(&out.join("prelude.rs"), &prelude);

    let dir = out.join("blocks");
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    let mut modules = String::new();
    let mut tests = String::new();
    let mut compiled = String::new();
    for page in page::pages(&root) {
        let text = std::fs::read_to_string(root.join(&page)).unwrap_or_default();
        // Pages with bad markers are reported by the docs test (`cli/tests/docs`).
        let Ok(blocks) = page::parse(&page, &text) else {
            continue;
        };
        for block in blocks {
            if block.kind != page::Kind::Rust || block.fragment {
                continue;
            }
            let ident = page::ident(&block);
            let header = format!(
                "// {}: the fence; line N here is line N - 1 after it",
                block.at()
            );
            let code = blank_inner_attributes(&block.code);
            let statements = syn::parse_file(&code).is_err()
                && syn::parse_str::<syn::Block>(&format!("{{\n{code}\n}}")).is_ok();
            let file = if statements {
                format!(
                    "pub fn run() -> Result<(), Box<dyn std::error::Error>> {{ #[allow(clippy::let_unit_value)] let _ = {{ {header}\n{code}\n}}; Ok(()) }}\n"
                )
            } else {
                format!("{header}\n{code}")
            };
            write(&dir.join(format!("{ident}.rs")), &file);
            let _ = writeln!(
                modules,
                "/// `{at}`.\n#[allow(unused, dead_code, missing_docs)]\nmod {ident} {{\n    use crate::prelude::*;\n    include!(concat!(env!(\"OUT_DIR\"), \"/blocks/{ident}.rs\"));\n}}",
                at = block.at()
            );
            if statements && !block.norun {
                let _ = writeln!(
                    tests,
                    "    /// Runs `{at}`.\n    #[test]\n    fn {ident}() {{\n        if let Err(e) = super::{ident}::run() {{\n            panic!(\"{at}: {{e}}\");\n        }}\n    }}",
                    at = block.at()
                );
            }
            let _ = write!(compiled, "{:?}, ", block.at());
        }
    }
    let all = format!(
        "{modules}\n/// The blocks compiled, as `page:line`.\npub const COMPILED: &[&str] = &[{compiled}];\n\n#[cfg(test)]\nmod run {{\n{tests}}}\n"
    );
    write(&out.join("blocks.rs"), &all);
}

/// Generates every model file of `dir` into `out/NAME.rs` with batch forms, and returns
/// the prelude: `pub mod NAME { include!(...) }`, and `pub use NAME::*;` for the files at
/// the top of `dir` (those of subfolders import each other, so their names repeat).
fn models(dir: &Path, out: &Path) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut prelude = String::new();
    for file in sit_build::sit_files(dir) {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let checked = sit_middle::check_file(&file).expect("the example models are readable");
        let program = checked
            .program
            .as_ref()
            .filter(|_| !checked.has_errors())
            .unwrap_or_else(|| panic!("{}", checked.render()));
        let code = sit_codegen::generate_with_batch(
            &sit_middle::lower::Lowered::new(program, Default::default()).expect("lowers"),
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        write(&out.join(format!("{stem}.rs")), &code);
        let _ = writeln!(
            prelude,
            "/// `examples/models/{stem}.sit`, with batch forms.\npub mod {stem} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{stem}.rs\"));\n}}"
        );
        if file.parent() == Some(dir) {
            let _ = writeln!(prelude, "pub use {stem}::*;");
        }
    }
    prelude
}

/// The code with its inner attributes (`#![no_std]`) commented out, lines kept.
fn blank_inner_attributes(code: &str) -> String {
    code.lines()
        .map(|l| {
            if l.trim_start().starts_with("#![") {
                format!("// {l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn write(path: &Path, text: &str) {
    sit_build::write_if_changed(path, text).expect("OUT_DIR is writable");
}
