//! The kernel's C text, compiled by the host C compiler, against the interpreter's sweep: every column of every set, bit for bit, on the library under every method.

mod common;

use common::{Study, documented_dt, library, study};
use sit_driver::{Options, Source};
use sit_gpu::host::HostProgram;
use sit_gpu::{Collect, Launch, Spec};
use sit_interp::Instance;
use sit_middle::ir::Method;
use sit_runtime::catch_fault;
use sit_runtime::sweep::{self, Sweep};
use std::path::{Path, PathBuf};

/// The functions of the C library that the prelude calls, whose last bit may differ
/// from the `libm` crate's (`sit_lag` calls `expm1`).
const LIBM: [&str; 16] = [
    "sit_exp",
    "sit_ln",
    "sit_log10",
    "sit_sin",
    "sit_cos",
    "sit_tan",
    "sit_asin",
    "sit_acos",
    "sit_atan",
    "sit_atan2",
    "sit_sinh",
    "sit_cosh",
    "sit_tanh",
    "sit_pow",
    "sit_hypot",
    "sit_lag",
];

/// How far a run through those functions may drift from the interpreter's, relative:
/// an ulp or two per call (1e-16 relative), amplified over a few hundred steps of the
/// library's models (stable ones, whose errors do not grow exponentially).
const LIBM_RUN_BOUND: f64 = 1e-9;

/// A folder of its own for a test's programs.
fn work(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("host_c")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `path` under `method` both ways for `steps` steps of its documented `dt`; the
/// number of sets compared.
fn compare(path: &Path, method: Option<Method>, steps: u64) -> usize {
    let dt = documented_dt(path);
    let opts = Options {
        method,
        ..Options::default()
    };
    let compiled = match sit_driver::compile(&Source::path(path), &opts) {
        Ok(c) => c,
        // A model that this method cannot split is refused by the checker: not a case.
        Err(e) if e.is_model_error() && method.is_some() => return 0,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let root = compiled.root(None).unwrap();
    let model = Instance::new(&compiled.lowered, root);
    let Study { spec, axes } = study(&model);
    let name = format!(
        "{}_{}",
        path.file_stem().unwrap().to_string_lossy(),
        method.map_or("declared", Method::name)
    );
    let kernel = sit_gpu::kernel(&compiled.lowered, root, &spec).unwrap();
    let program = HostProgram::build(&kernel, &work(&name)).unwrap();
    let launch = Launch {
        axes: &axes,
        dt,
        steps,
    };
    let rows = program.run(&launch).unwrap();
    let model_text =
        &kernel.source[kernel.source.find(sit_gpu::PRELUDE).unwrap() + sit_gpu::PRELUDE.len()..];
    let libm: Vec<&str> = LIBM
        .iter()
        .copied()
        .filter(|f| model_text.contains(&format!("{f}(")))
        .collect();
    let interp = Sweep::new(dt, steps);
    let interp = spec_columns(interp, &spec);
    let axes_sets: Vec<Vec<(usize, f64)>> = sweep::grid(
        &spec
            .axes
            .iter()
            .zip(&axes)
            .map(|(&i, v)| (i, v.clone()))
            .collect::<Vec<_>>(),
    );
    for (k, set) in axes_sets.iter().enumerate() {
        let expected = catch_fault(|| interp.run_one(&model, set).unwrap());
        match expected {
            Ok(row) => {
                assert_eq!(
                    rows.faults[k], 0,
                    "{name} set {k}: a fault the interpreter has not"
                );
                for (c, (a, b)) in rows.row(k).iter().zip(&row).enumerate() {
                    // Through the C library's functions: within the bound of docs/gpu.md.
                    let close = !libm.is_empty()
                        && (a - b).abs() <= LIBM_RUN_BOUND * a.abs().max(b.abs()).max(1.0);
                    assert!(
                        a.to_bits() == b.to_bits() || close,
                        "{name}, set {k} {set:?}, column {c} ({:?}): C {a:e}, interpreter {b:e}",
                        spec.collect[c]
                    );
                }
            }
            Err(fault) => assert_ne!(
                rows.faults[k], 0,
                "{name} set {k}: the interpreter faulted ({fault}), the C form did not"
            ),
        }
    }
    axes_sets.len()
}

fn spec_columns(mut sweep: Sweep, spec: &Spec) -> Sweep {
    for c in &spec.collect {
        sweep = sweep.collect(match *c {
            Collect::Final(v) => sweep::Collect::Final(v),
            Collect::Max(v) => sweep::Collect::Max(v),
            Collect::Min(v) => sweep::Collect::Min(v),
            Collect::FirstCrossing { var, threshold } => {
                sweep::Collect::FirstCrossing { var, threshold }
            }
        });
    }
    sweep
}

#[test]
fn the_library_runs_as_c_to_the_bit_under_its_declared_method() {
    let mut sets = 0;
    for f in library() {
        sets += compare(&f, None, 500);
    }
    assert!(sets > 20, "{sets}");
}

#[test]
fn the_library_runs_as_c_to_the_bit_under_rk4_and_dopri5() {
    let mut sets = 0;
    for f in library() {
        for m in ["rk4", "dopri5"] {
            sets += compare(&f, Method::from_name(m), 200);
        }
    }
    assert!(sets > 20, "{sets}");
}
