//! The compile pipeline on synthetic models of 100, 1 000 and 10 000 rules.
//!
//! - `check`: parse and check the source (`sit_middle::check_source`);
//! - `emit`: generate the Rust code from the checked program (`sit_codegen::generate`,
//!   code generation and prettyplease formatting);
//! - `interp_load`: compile the checked program for the interpreter
//!   (`sit_interp::Instance::try_new`), the interpreter's counterpart of rustc;
//! - `interp_load_one_line`: the same with every declaration and rule of the model on
//!   one line (its cost must not depend on the layout: compare with `interp_load`).
//!
//! The models come from `sit_synth::synthetic`. rustc's time on the generated code is
//! measured by the ignored test `tests/rustc_build_time.rs`. Run:
//! `cargo bench -p sit-bench --bench compile` (see `docs/performance.md`).

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use sit_middle::ir::Program;

/// Rules of the synthetic models.
const SIZES: &[usize] = &[100, 1_000, 10_000];

fn main() {
    divan::main();
}

/// The checked program of the synthetic model with `rules` rules.
fn program(rules: usize) -> Program {
    let out = sit_middle::check_source(
        format!("synthetic{rules}.sit"),
        &sit_synth::synthetic(rules),
    );
    match out.program {
        Some(p) if !out.has_errors() => p,
        _ => panic!("synthetic({rules}) does not check:\n{}", out.render()),
    }
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn check(b: Bencher, rules: usize) {
    let text = sit_synth::synthetic(rules);
    let name = format!("synthetic{rules}.sit");
    b.counter(ItemsCount::new(rules)).bench(|| {
        let out = sit_middle::check_source(&name, black_box(&text));
        assert!(!out.has_errors());
        out
    });
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn emit(b: Bencher, rules: usize) {
    let program = program(rules);
    let options = sit_codegen::Options::default();
    b.counter(ItemsCount::new(rules)).bench(|| {
        sit_codegen::generate(
            black_box(
                &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
            ),
            &options,
        )
        .unwrap_or_else(|e| panic!("synthetic({rules}): {e}"))
    });
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn interp_load(b: Bencher, rules: usize) {
    let program = program(rules);
    let root = program.roots()[0];
    b.counter(ItemsCount::new(rules)).bench(|| {
        sit_interp::Instance::try_new(
            black_box(
                &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
            ),
            root,
        )
        .unwrap_or_else(|e| panic!("synthetic({rules}): {e}"))
    });
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn interp_load_one_line(b: Bencher, rules: usize) {
    let text = sit_synth::synthetic(rules);
    // The doc line stays alone (a `///` comment runs to the end of its line).
    let (doc, body) = text.split_once('\n').expect("a doc line");
    let text = format!("{doc}\n{}", body.replace('\n', " "));
    let out = sit_middle::check_source(format!("synthetic{rules}.sit"), &text);
    let program = match out.program {
        Some(p) if !out.has_errors() => p,
        _ => panic!(
            "synthetic({rules}) on one line does not check:\n{}",
            out.render()
        ),
    };
    let root = program.roots()[0];
    b.counter(ItemsCount::new(rules)).bench(|| {
        sit_interp::Instance::try_new(
            black_box(
                &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
            ),
            root,
        )
        .unwrap_or_else(|e| panic!("synthetic({rules}): {e}"))
    });
}
