//! `sitc sweep --gpu`: the study as a CUDA kernel, one thread per parameter set (`sit_host::gpu`).

use crate::fail::Fail;
use sit_host::gpu::{CudaOptions, GpuError, GpuStudy};

/// How `sitc sweep` runs on a GPU.
#[derive(clap::Args, Debug, Clone)]
pub struct GpuArgs {
    /// Run the study on the GPU: the model's step compiled to a CUDA kernel (NVRTC, at
    /// run time), one thread per parameter set, the summaries kept on the GPU. Rows equal
    /// the interpreter's to the bit except through sin, exp, pow and the other functions
    /// of the math library (docs/gpu.md). Needs an NVIDIA GPU, its driver and NVRTC.
    #[arg(long, conflicts_with = "compiled")]
    pub gpu: bool,
    /// With --gpu: let the GPU fuse a*b+c into one operation (faster; rows are no longer
    /// the interpreter's to the bit).
    #[arg(long, requires = "gpu")]
    pub gpu_fma: bool,
    /// With --gpu: threads per block.
    #[arg(long, requires = "gpu", value_name = "N", default_value_t = 128)]
    pub gpu_block: u32,
    /// With --gpu: the precision of the kernel's values, f64 or f32 (every value, literal
    /// and function of the math library in single precision, rows converted to f64 at
    /// the end: faster on the GPU, no longer the interpreter's bits; docs/gpu.md).
    #[arg(long, requires = "gpu", value_name = "P", default_value = "f64", value_parser = ["f64", "f32"])]
    pub gpu_precision: String,
}

/// Runs every set of `study` on GPU 0; a line on stderr with what it took unless `quiet`.
pub fn run(study: &GpuStudy<'_>, args: &GpuArgs, quiet: bool) -> Result<sit_host::gpu::Rows, Fail> {
    let opts = CudaOptions {
        block: args.gpu_block,
        fma: args.gpu_fma,
        precision: args.gpu_precision.parse().map_err(Fail::Usage)?,
    };
    let (rows, t) = sit_host::gpu::run(study, 0..study.sets.len(), opts).map_err(|e| match e {
        GpuError::Fault(fault) => Fail::Model(format!("error: {fault}\n")),
        e if e.is_model_error() => Fail::Model(format!("error: {e}\n")),
        e => Fail::Usage(e.to_string()),
    })?;
    if !quiet {
        let ps = t.kernel_ms * 1e9 / (study.sets.len() as f64 * study.steps.max(1) as f64);
        eprintln!(
            "gpu: {} sets x {} steps on {} in {:.3} ms ({} kernel; {ps:.3} ps per instance-step), \
             compiled in {:.2} s, {:.2} s in all",
            study.sets.len(),
            study.steps,
            t.device,
            t.kernel_ms,
            opts.precision.name(),
            t.compile_s,
            t.total_s
        );
    }
    Ok(rows)
}
