//! `sitc sweep --gpu`: the study as a CUDA kernel, one thread per parameter set (sit-gpu), with rows, faults and warnings as the interpreter's sweep gives them.

use crate::fail::Fail;
use sit_host::values::run_failed;
use sit_runtime::Model;
use sit_runtime::drive::Driven;
use sit_runtime::finite::NonFiniteSeen;
use sit_runtime::sweep::{Collect, Sweep, Watched};
use sit_runtime::table::TableReach;

/// How `sitc sweep` runs on a GPU.
#[derive(clap::Args, Debug, Clone)]
pub struct GpuArgs {
    /// Run the study on the GPU: the model's step compiled to a CUDA kernel (NVRTC, at
    /// run time), one thread per parameter set, the summaries kept on the GPU. Rows equal
    /// the interpreter's to the bit except through sin, exp, pow and the other functions
    /// of the math library (docs/gpu.md). Needs an NVIDIA GPU, its driver and NVRTC.
    #[arg(long)]
    pub gpu: bool,
    /// With --gpu: let the GPU fuse a*b+c into one operation (faster; rows are no longer
    /// the interpreter's to the bit).
    #[arg(long, requires = "gpu")]
    pub gpu_fma: bool,
    /// With --gpu: threads per block.
    #[arg(long, requires = "gpu", value_name = "N", default_value_t = 128)]
    pub gpu_block: u32,
}

/// What the interpreter's sweep would have been given.
pub struct GpuStudy<'a> {
    /// The model (constructed, inputs not driven).
    pub model: &'a Driven<sit_interp::Instance>,
    /// Its lowered program and root.
    pub loaded: (&'a sit_middle::lower::Lowered, sit_middle::ir::ModelId),
    /// The columns, dt and steps.
    pub sweep: &'a Sweep,
    /// The sets, each the axes' values then the fixed values.
    pub sets: &'a [Vec<(usize, f64)>],
    /// The axes' values, in the order of the sets' first entries.
    pub axes: Vec<Vec<f64>>,
    /// `dt` and the number of steps.
    pub dt: f64,
    /// See `dt`.
    pub steps: u64,
    /// Whether `--input` drives inputs.
    pub driven: bool,
    /// Not to print the timing line.
    pub quiet: bool,
}

/// Runs the study on GPU 0: rows as `Sweep::run_watched` gives them (the tables' reads are
/// not counted on the GPU; non-finite values are watched among the recorded variables).
pub fn run(study: &GpuStudy<'_>, args: &GpuArgs) -> Result<Vec<Watched<Vec<TableReach>>>, Fail> {
    if study.driven {
        return Err(Fail::Usage(
            "--gpu does not drive inputs from --input yet; run without --gpu".into(),
        ));
    }
    let Some(first) = study.sets.first() else {
        return Ok(Vec::new());
    };
    let na = study.axes.len();
    // Every value once on the interpreter: a value that cannot be set (a flag set to 2) is
    // refused in the same words as without --gpu.
    for (a, values) in study.axes.iter().enumerate() {
        let i = first[a].0;
        for &v in values {
            let mut m = study.model.model.clone();
            m.set_at(i, v)
                .map_err(|e| run_failed(study.model, &[(i, v)], &e))?;
        }
    }
    for &(i, v) in &first[na..] {
        let mut m = study.model.model.clone();
        m.set_at(i, v)
            .map_err(|e| run_failed(study.model, &[(i, v)], &e))?;
    }
    let spec = sit_gpu::Spec {
        axes: first[..na].iter().map(|&(i, _)| i).collect(),
        fixed: first[na..].to_vec(),
        collect: study
            .sweep
            .columns()
            .iter()
            .map(|c| match *c {
                Collect::Final(v) => sit_gpu::Collect::Final(v),
                Collect::Max(v) => sit_gpu::Collect::Max(v),
                Collect::Min(v) => sit_gpu::Collect::Min(v),
                Collect::FirstCrossing { var, threshold } => {
                    sit_gpu::Collect::FirstCrossing { var, threshold }
                }
            })
            .collect(),
    };
    let (lowered, root) = study.loaded;
    let kernel = sit_gpu::kernel(lowered, root, &spec).map_err(|e| Fail::Model(e.to_string()))?;
    let launch = sit_gpu::Launch {
        axes: &study.axes,
        dt: study.dt,
        steps: study.steps,
    };
    let run = sit_gpu::cuda::run(
        &kernel,
        &launch,
        sit_gpu::cuda::CudaOptions {
            block: args.gpu_block,
            fma: args.gpu_fma,
        },
    )
    .map_err(|e| Fail::Usage(e.to_string()))?;
    if !study.quiet {
        let sets = study.sets.len() as f64;
        let ps = run.kernel_ms * 1e9 / (sets * study.steps.max(1) as f64);
        eprintln!(
            "gpu: {} sets x {} steps on {} in {:.3} ms (kernel; {ps:.3} ps per instance-step), \
             compiled in {:.2} s, {:.2} s in all",
            study.sets.len(),
            study.steps,
            run.device,
            run.kernel_ms,
            run.compile_s,
            run.total_s
        );
    }
    let rows = run.rows;
    // The first set that faulted, in input order, is the sweep's error: its message from
    // a rerun of that set on the interpreter, in sit-runtime's own words.
    if let Some(k) = rows.faults.iter().position(|&c| c != 0) {
        let set = &study.sets[k];
        let again = crate::fail::catch_model_fault(|| study.sweep.run_one(study.model, set));
        return Err(match again {
            Err(fail) => fail,
            Ok(_) => Fail::Model(format!(
                "error: parameter set #{k} stopped on the GPU (fault {}) but not on the \
                 interpreter: rerun it with `sitc run` and its --set values\n",
                rows.faults[k]
            )),
        });
    }
    Ok((0..study.sets.len())
        .map(|k| Watched {
            row: rows.row(k).to_vec(),
            non_finite: rows.seen[k].map(|s| NonFiniteSeen {
                index: s.index,
                value: s.value,
                time: s.time,
                from: s.from,
            }),
            end: Vec::new(),
        })
        .collect())
}
