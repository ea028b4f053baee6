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
        // The heat rod is left out under `dopri5`: its initial temperatures call `sin`,
        // and the C library's and the libm crate's differ in the last bit for 2 of its
        // 40 nodes (measured, glibc 2.36 against libm 0.2.16), and
        // dopri5's steps on this stiff model (bounded by stability, not by the
        // tolerance) carry that ulp to 1e-8 relative within 60 steps, beyond
        // LIBM_RUN_BOUND. (Robertson, which calls no function but the step control's
        // `pow`, is compared to the bit since the prelude computes `pow` as libm does.)
        if f.file_stem()
            .is_some_and(|s| s == "heat_rod" || s == "heat_rod_array")
        {
            continue;
        }
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

/// Inputs driven by time series (`--gpu --input`), in the host C form: see
/// [`crate::common::compare_driven`].
#[test]
fn driven_inputs_run_as_c_to_the_bit() {
    let mut wrong = Vec::new();
    assert_eq!(crate::common::compare_driven(&host, &mut wrong), 6);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
