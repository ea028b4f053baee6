//! `sitc run`'s start-up on a 20-state stiff model under each method: what runs before the first step.
//!
//! The model is POLLU (`bench/models/pollu.sit`, 20 states, 25 reactions). Per method:
//!
//! - `check`: read, parse and check the source (`sit_driver::check`), the same under
//!   every method;
//! - `lower`: the method override and the lowering (`sit_driver::lower`: the method's
//!   rewrite, the Jacobian and iteration matrices of the implicit ones);
//! - `load`: the interpreter's compile of the lowered program
//!   (`sit_interp::Instance::try_new`);
//! - `start`: the three together, as `sitc run` does them.
//!
//! Run: `cargo bench -p sit-bench --bench startup` (see `docs/performance.md`, issue 48).

use divan::{Bencher, black_box};
use sit_bench::WORKSPACE;
use sit_driver::{Options, Source};
use sit_middle::ir::Method;

const METHODS: &[&str] = &[
    "euler", "rk4", "dopri5", "tsit5", "dop853", "rodas4", "rodas5p", "radau5",
];

/// The allocator of `sitc` (`cli/src/main.rs`), so that the bench measures what it does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// The model's path.
fn path() -> String {
    format!("{WORKSPACE}/bench/models/pollu.sit")
}

/// The options of a run under `method`.
fn options(method: &str) -> Options {
    let method = Method::from_name(method).expect("a method of METHODS");
    Options {
        method: Some(method),
        ..Options::default()
    }
}

/// The checked program of `path` and its warnings.
fn checked(path: &str) -> (sit_middle::ir::Program, sit_middle::Report) {
    let (program, report) = (sit_driver::check(&Source::path(path)).expect("reads")).into_report();
    (program.expect("checks"), report)
}

/// Everything `sitc run` does before its first step.
fn start(path: &str, opts: &Options) -> sit_interp::Instance {
    let (program, warnings) = checked(path);
    let compiled = sit_driver::lower(program, warnings, opts).expect("lowers");
    let root = compiled.root(None).expect("one root");
    sit_interp::Instance::try_new(&compiled.lowered, root).expect("loads")
}

#[divan::bench(sample_count = 30)]
fn check(b: Bencher) {
    let path = path();
    b.bench(|| sit_driver::check(&Source::path(black_box(&path))).expect("reads"));
}

#[divan::bench(args = METHODS, sample_count = 30)]
fn lower(b: Bencher, method: &str) {
    let path = path();
    let opts = options(method);
    let (program, warnings) = checked(&path);
    b.with_inputs(|| (program.clone(), warnings.clone()))
        .bench_values(|(p, w)| sit_driver::lower(p, w, &opts).expect("lowers"));
}

#[divan::bench(args = METHODS, sample_count = 30)]
fn load(b: Bencher, method: &str) {
    let path = path();
    let opts = options(method);
    let (program, warnings) = checked(&path);
    let compiled = sit_driver::lower(program, warnings, &opts).expect("lowers");
    let root = compiled.root(None).expect("one root");
    b.bench(|| sit_interp::Instance::try_new(black_box(&compiled.lowered), root).expect("loads"));
}

#[divan::bench(args = METHODS, sample_count = 30)]
fn start_all(b: Bencher, method: &str) {
    let path = path();
    let opts = options(method);
    b.bench(|| start(black_box(&path), &opts));
}
