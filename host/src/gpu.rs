//! A study on the GPU (`sitc sweep --gpu`, `sit.sweep(..., gpu=True)`): the kernel of sit-gpu launched on a range of sets, with rows, faults and non-finite values as the interpreter's sweep gives them.

use crate::reports::Concern;
use sit_interp::Instance;
use sit_runtime::Model;
use sit_runtime::drive::Driven;
use sit_runtime::finite::NonFiniteSeen;
use sit_runtime::sweep::{Sweep, Watched};

pub use sit_gpu::Precision;
pub use sit_gpu::cuda::CudaOptions;

/// The runs of a study as `Sweep::run_watched` gives them, each leaving its tables'
/// reads (none on the GPU).
pub type Rows = Vec<Watched<crate::reports::RunEnd>>;

/// Why a study did not run on the GPU.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// A value of the study cannot be set (in the words of the interpreter's sweep).
    #[error("{0}")]
    Set(String),
    /// The kernel could not be written.
    #[error("{0}")]
    Kernel(#[from] sit_gpu::SpecError),
    /// No GPU, driver or NVRTC, or a call of the driver failed.
    #[error("{0}")]
    Cuda(#[from] sit_gpu::cuda::CudaError),
    /// A set stopped with a fault of the model (its message from a rerun of the set on the
    /// interpreter, in sit-runtime's words).
    #[error("{0}")]
    Fault(sit_runtime::ModelFault),
    /// A set stopped on the GPU but not on the interpreter.
    #[error(
        "parameter set #{set} stopped on the GPU (fault {code}) but not on the interpreter: \
         rerun it with `sitc run` and its values"
    )]
    Disagree {
        /// The set, in the grid.
        set: usize,
        /// The kernel's fault code.
        code: i32,
    },
}

impl GpuError {
    /// Whether the model (a fault, a value it refuses) rather than the machine is at fault.
    pub fn is_model_error(&self) -> bool {
        matches!(
            self,
            GpuError::Fault(_) | GpuError::Set(_) | GpuError::Kernel(_) | GpuError::Disagree { .. }
        )
    }
}

/// A study as the interpreter's sweep is given it.
pub struct GpuStudy<'a> {
    /// The model (constructed; its driven inputs are driven on the GPU by the same rule).
    pub model: &'a Driven<Instance>,
    /// Its lowered program and root (`sit_host::Loaded`).
    pub lowered: &'a sit_middle::lower::Lowered,
    /// See `lowered`.
    pub root: sit_middle::ir::ModelId,
    /// The columns, dt and steps.
    pub sweep: &'a Sweep,
    /// Every set of the grid, each the axes' values then the fixed ones.
    pub sets: &'a [Vec<(usize, f64)>],
    /// The axes' values, in the order of the sets' first entries.
    pub axes: &'a [Vec<f64>],
    /// `dt` and the number of steps.
    pub dt: f64,
    /// See `dt`.
    pub steps: u64,
}

/// The warnings after a study on the GPU (without `warning: `), in the order of
/// [`crate::reports::sweep_warnings`]: its rows that met a non-finite value among the
/// recorded variables; then, for a model with tables, that the GPU does not count their
/// reads past the grids (so that the report is never left out in silence).
pub fn warnings(
    model: &Instance,
    offset: usize,
    axes: &[Vec<(&str, String)>],
    rows: &Rows,
) -> Vec<(Concern, String)> {
    let mut lines = crate::reports::sweep_warnings(model, offset, axes, rows);
    lines.extend(tables_not_counted(model));
    lines
}

/// For a model with tables: that the GPU does not count their reads past the grids.
pub fn tables_not_counted(model: &Instance) -> Option<(Concern, String)> {
    (!model.table_reads().is_empty()).then(|| {
        (
            Concern::TableRange,
            "the GPU does not count the reads of tables past their grids; run the study \
             without it to see them"
                .to_string(),
        )
    })
}

/// What the GPU measured of a run.
#[derive(Debug, Clone)]
pub struct GpuTiming {
    /// The device.
    pub device: String,
    /// Milliseconds of the kernel.
    pub kernel_ms: f64,
    /// Seconds NVRTC took.
    pub compile_s: f64,
    /// Seconds of the whole launch (compile, copies, kernel, copies back).
    pub total_s: f64,
}

/// Runs sets `range` of the study on GPU 0: their rows as `Sweep::run_watched` gives
/// them, except that the tables' reads are not counted (`end` is empty) and non-finite
/// values are watched among the recorded variables only.
pub fn run(
    study: &GpuStudy<'_>,
    range: std::ops::Range<usize>,
    opts: CudaOptions,
) -> Result<(Rows, GpuTiming), GpuError> {
    let Some(first) = study.sets.first() else {
        return Err(GpuError::Set("the study has no parameter set".into()));
    };
    let na = study.axes.len();
    // Every value once on the interpreter (one clone: setting only checks the value): a
    // value that cannot be set (a flag set to 2) is refused in the words of the
    // interpreter's sweep.
    let mut probe = study.model.model.clone();
    let values = (study.axes.iter().enumerate())
        .flat_map(|(a, values)| values.iter().map(move |&v| (first[a].0, v)))
        .chain(first[na..].iter().copied());
    for (i, v) in values {
        probe
            .set_at(i, v)
            .map_err(|e| GpuError::Set(crate::values::run_failed(study.model, &[(i, v)], &e)))?;
    }
    let spec = sit_gpu::Spec {
        axes: first[..na].iter().map(|&(i, _)| i).collect(),
        fixed: first[na..].to_vec(),
        collect: study.sweep.columns().to_vec(),
        inputs: (study.model.inputs().iter())
            .map(|input| (input.index, input.hold))
            .collect(),
    };
    let series: Vec<(Vec<f64>, Vec<f64>)> = (study.model.inputs().iter())
        .map(|input| {
            (
                input.signal.times().to_vec(),
                input.signal.values().to_vec(),
            )
        })
        .collect();
    let kernel = sit_gpu::kernel(study.lowered, study.root, &spec)?;
    let launch = sit_gpu::Launch {
        axes: study.axes,
        dt: study.dt,
        steps: study.steps,
        sets: range.clone(),
        series: &series,
    };
    let run = sit_gpu::cuda::run(&kernel, &launch, opts)?;
    let rows = run.rows;
    // The first set that faulted, in order, is the study's error: its message from a
    // rerun of that set on the interpreter.
    if let Some(k) = rows.faults.iter().position(|&c| c != 0) {
        let set = range.start + k;
        return Err(
            match sit_runtime::catch_fault(|| study.sweep.run_one(study.model, &study.sets[set])) {
                Err(fault) => GpuError::Fault(fault),
                Ok(_) => GpuError::Disagree {
                    set,
                    code: rows.faults[k],
                },
            },
        );
    }
    let watched = (0..range.len())
        .map(|k| Watched {
            row: rows.row(k).to_vec(),
            non_finite: rows.seen[k].map(|s| NonFiniteSeen {
                index: s.index,
                value: s.value,
                time: s.time,
                from: s.from,
            }),
            // The GPU's runs make no estimate of their fixed steps' error.
            accuracy: None,
            end: Default::default(),
        })
        .collect();
    let timing = GpuTiming {
        device: run.device,
        kernel_ms: run.kernel_ms,
        compile_s: run.compile_s,
        total_s: run.total_s,
    };
    Ok((watched, timing))
}
