//! The kernel's C text, compiled by the host C compiler, against the interpreter's sweep: every column of every set, bit for bit, on the library under every method.

use crate::common::{Case, compare, compare_case, library};
use sit_gpu::host::HostProgram;
use sit_middle::ir::Method;
use std::path::PathBuf;

/// A folder of its own for a test's programs.
fn work(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("host_c")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The host program of a kernel, run.
fn host(kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, name: &str) -> sit_gpu::Rows {
    HostProgram::build(kernel, &work(name))
        .unwrap()
        .run(launch)
        .unwrap()
}

/// [`host`] compiled without optimisation (large random models compile in a second).
fn host_quick(kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, name: &str) -> sit_gpu::Rows {
    HostProgram::build_with(kernel, &work(name), "-O0")
        .unwrap()
        .run(launch)
        .unwrap()
}

#[test]
fn the_library_runs_as_c_to_the_bit_under_its_declared_method() {
    let (mut sets, mut wrong) = (0, Vec::new());
    for f in library() {
        sets += compare(&f, None, 500, &host, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 20, "{sets}");
}

/// dopri5 (its loop of adaptive steps, events located inside the step) on every model;
/// rk4, tsit5 and dop853 (its three extra stages at each event), rewritten by the same
/// passes, on the small ones.
#[test]
fn the_library_runs_as_c_to_the_bit_under_rk4_dopri5_and_tsit5() {
    let (mut sets, mut wrong) = (0, Vec::new());
    for f in library() {
        let small = crate::common::SMALL
            .iter()
            .any(|m| f.file_stem().is_some_and(|s| s == *m));
        let methods = match small {
            true => &["dopri5", "rk4", "tsit5", "dop853"][..],
            false => &["dopri5"][..],
        };
        for m in methods {
            sets += compare(&f, Method::from_name(m), 60, &host_quick, &mut wrong);
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 20, "{sets}");
}

#[test]
fn random_models_run_as_c_to_the_bit() {
    let (mut sets, mut wrong) = (0, Vec::new());
    for seed in 0..6 {
        let text = sit_synth::random_file(seed, sit_synth::Size::default());
        let name = format!("random_{seed}.sit");
        let case = Case {
            name: format!("random_{seed}"),
            source: sit_driver::Source::text(&name, &text),
            method: None,
            dt: 0.01,
            steps: 150,
        };
        sets += compare_case(&case, &host_quick, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 6, "{sets}");
}

/// f32 on request: the C text compiled with `-DSIT_F32`, against the f64 interpreter
/// within the bound of f32 rounding ([`crate::common::compare_f32`], which says why).
#[test]
fn f32_runs_within_the_bound_of_f32_rounding() {
    let run = |kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, tag: &str| {
        HostProgram::build_in(kernel, &work(tag), "-O0", sit_gpu::Precision::F32)
            .unwrap()
            .run(launch)
            .unwrap()
    };
    let (worst, bound) = crate::common::compare_f32(&run);
    eprintln!("f32 against f64: largest relative difference {worst:e}, bound {bound:e}");
}

/// Van der Pol forced by a real input `u` and pushed while a flag input `kick` holds.
const FORCED: &str = "\
model Forced {
    param mu = 1.0;
    input real u = 0.0;
    input flag kick = false;
    output real x0 = 2.0;
    output real x1 = 0.0;
    real push;
    push = 1.0 when kick;
    push = 0.0 otherwise;
    x0 = integral(x1);
    x1 = integral(mu * ((1.0 - x0 * x0) * x1) - x0 + u + push);
}
";

/// Inputs driven by time series (`--gpu --input`): the series in the kernel's arrays and
/// `sit_runtime::drive`'s rule in C (`sit_sample`, `sit_held`, `sit_true_within` in the
/// prelude), against the interpreter's `Driven` model, every column of every set to the
/// bit under euler, and within the C library's bound under dopri5 (whose controller calls
/// `pow`): a ramp with a jump (a time given twice), a flag held
/// for 0.2 s and one pulse of 0.05 s inside a step of 0.25 s (seen by that step, as
/// `Input::entering` says).
#[test]
fn driven_inputs_run_as_c_to_the_bit() {
    use sit_runtime::drive::{Driven, Input};
    use sit_runtime::signal::OwnedSignal;
    let times = vec![0.0, 3.0, 3.0, 3.2, 7.1, 7.15, 20.0];
    let u = vec![0.0, 0.5, 0.25, 0.25, -0.5, -0.5, 1.0];
    let kick = vec![0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0];
    let series = vec![(times.clone(), u.clone()), (times.clone(), kick.clone())];
    let (mut sets, mut wrong) = (0, Vec::new());
    for method in [None, Method::from_name("dopri5")] {
        let opts = sit_driver::Options {
            method,
            ..Default::default()
        };
        let source = sit_driver::Source::text("forced.sit", FORCED);
        let compiled = sit_driver::compile(&source, &opts).unwrap();
        let model = sit_interp::Instance::new(&compiled.lowered, 0);
        let index = |name: &str| sit_runtime::Model::var_index(&model, name).unwrap();
        let inputs = vec![
            Input::real(
                index("u"),
                OwnedSignal::new(times.clone(), u.clone()).unwrap(),
            ),
            Input::flag(
                index("kick"),
                OwnedSignal::new(times.clone(), kick.clone()).unwrap(),
            )
            .unwrap(),
        ];
        let crate::common::Study { mut spec, axes } = crate::common::study(&model);
        spec.inputs = inputs.iter().map(|i| (i.index, i.hold)).collect();
        let driven = Driven::new(model, inputs);
        let kernel = sit_gpu::kernel(&compiled.lowered, 0, &spec).unwrap();
        let (dt, steps) = (0.25, 80);
        let launch = sit_gpu::Launch {
            axes: &axes,
            dt,
            steps,
            sets: 0..sit_gpu::Launch::grid(&axes),
            series: &series,
        };
        let name = format!("forced_{}", method.map_or("euler", Method::name));
        let rows = host(&kernel, &launch, &name);
        let interp = crate::common::spec_columns(sit_runtime::sweep::Sweep::new(dt, steps), &spec);
        let grid: Vec<(usize, Vec<f64>)> = spec.axes.iter().copied().zip(axes.clone()).collect();
        // dopri5's controller calls `pow`: within the C library's bound there (as
        // `compare` allows), to the bit otherwise.
        let text = &kernel.source
            [kernel.source.find(sit_gpu::PRELUDE).unwrap() + sit_gpu::PRELUDE.len()..];
        let libm = (crate::common::LIBM.iter()).any(|f| text.contains(&format!("{f}(")));
        assert_eq!(libm, method.is_some(), "{name}");
        for (k, set) in sit_runtime::sweep::grid(&grid).iter().enumerate() {
            let want = interp.run_one(&driven, set).unwrap();
            assert_eq!(rows.faults[k], 0, "{name}: set {k} faulted");
            for (c, (a, b)) in rows.row(k).iter().zip(&want).enumerate() {
                let bound = crate::common::LIBM_RUN_BOUND * a.abs().max(b.abs()).max(1.0);
                let close = libm && (a - b).abs() <= bound;
                if a.to_bits() != b.to_bits() && !close {
                    wrong.push(format!(
                        "{name}, set {k}, column {c} ({:?}): kernel {a:e}, interpreter {b:e}",
                        spec.collect[c]
                    ));
                }
            }
            sets += 1;
        }
        // The inputs reached the model: `push` was 1 in some step of every set.
        let push = spec
            .collect
            .iter()
            .position(|c| *c == sit_gpu::Collect::Max(index_of(&compiled, "push")))
            .unwrap();
        assert!(
            (0..rows.faults.len()).all(|k| rows.row(k)[push] == 1.0),
            "{name}"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(sets, 6);
}

/// The index of variable `name` of the root of `compiled`.
fn index_of(compiled: &sit_driver::Compiled, name: &str) -> usize {
    let model = sit_interp::Instance::new(&compiled.lowered, 0);
    sit_runtime::Model::var_index(&model, name).unwrap()
}
