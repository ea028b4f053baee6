//! With a GPU (`SIT_GPU=1`): the library's kernels launched on it against the interpreter, every column of every set, as the host C form is checked in `host_c.rs`.

use crate::common::{compare, library};
use sit_middle::ir::Method;

fn gpu(kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, name: &str) -> sit_gpu::Rows {
    sit_gpu::cuda::run(kernel, launch, Default::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .rows
}

/// Whether to run: `SIT_GPU=1` (a machine with a GPU, its driver and NVRTC).
fn asked() -> bool {
    if std::env::var_os("SIT_GPU").is_some_and(|v| v == "1") {
        return true;
    }
    eprintln!("skipped: set SIT_GPU=1 on a machine with an NVIDIA GPU to run the kernels");
    false
}

#[test]
fn the_library_runs_on_the_gpu_to_the_bit() {
    if !asked() {
        return;
    }
    let (mut sets, mut wrong) = (0, Vec::new());
    for f in library() {
        let start = std::time::Instant::now();
        sets += compare(&f, None, 500, &gpu, &mut wrong);
        // rk4 and dopri5 on the small models: the rewrite of the larger ones makes
        // kernels that take the driver seconds each to load (the host C form checks them).
        if crate::common::SMALL
            .iter()
            .any(|m| f.file_stem().is_some_and(|s| s == *m))
        {
            for m in ["rk4", "dopri5"] {
                sets += compare(&f, Method::from_name(m), 200, &gpu, &mut wrong);
            }
        }
        eprintln!("{}: {:.1} s", f.display(), start.elapsed().as_secs_f64());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 40, "{sets}");
}

/// f32 on the GPU (`--gpu-precision f32`): within the bound of f32 rounding of the f64
/// interpreter, as the host C form in f32 is checked in `host_c.rs`.
#[test]
fn f32_runs_on_the_gpu_within_the_bound_of_f32_rounding() {
    if !asked() {
        return;
    }
    let opts = sit_gpu::cuda::CudaOptions {
        precision: sit_gpu::Precision::F32,
        ..Default::default()
    };
    let run = |kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, name: &str| {
        sit_gpu::cuda::run(kernel, launch, opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .rows
    };
    let (worst, bound) = crate::common::compare_f32(&run);
    eprintln!("f32 on the GPU against f64: largest relative difference {worst:e}, bound {bound:e}");
}

/// Inputs driven by time series on the GPU, as the host C form is checked in `host_c.rs`.
#[test]
fn driven_inputs_run_on_the_gpu_to_the_bit() {
    if !asked() {
        return;
    }
    let mut wrong = Vec::new();
    assert_eq!(crate::common::compare_driven(&gpu, &mut wrong), 6);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
