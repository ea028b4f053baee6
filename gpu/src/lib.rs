//! The GPU back end of Sit: a parameter study as a CUDA kernel, one thread per parameter set, over the lowered step written as C.
//!
//! [`kernel`] writes the C text of a study ([`Spec`]): every model of the instance tree
//! as a struct with its construction, reset and step (`c`, a storage strategy over
//! `sit_lir` like the generated Rust's), the runtime procedures of
//! `sit-runtime` in C ([`PRELUDE`]), and `sit_run`, which applies one set, steps it and
//! keeps its summaries (final, max, min, first crossing) as it goes. The same text is
//!
//! - a CUDA kernel (`sit_sweep`, one thread per set), compiled at run time by NVRTC and
//!   launched through the CUDA driver, both loaded when asked for ([`cuda::run`], with
//!   the `cuda` feature): nothing of CUDA is needed to build this crate or to run
//!   without a GPU;
//! - a host program (`main` under `SIT_HOST_MAIN`) built with the host C compiler
//!   ([`host::HostProgram`]): the tests check the kernel's step against the interpreter
//!   on any machine.
//!
//! Without contraction into FMAs (`-ffp-contract=off`, NVRTC `--fmad=false`) every
//! operation is the IEEE operation of the lowered tree, so rows are those of the
//! interpreter to the bit, except through the functions of the C library (`sin`, `exp`,
//! `pow`, ...), whose last bit may differ from the `libm` crate's: see `docs/gpu.md`.
//!
//! ```
//! let out = sit_middle::check_source("m.sit", "model M { param real k = 1; real x = 1; x = integral(-k * x); }");
//! let lowered = sit_middle::lower::Lowered::new(out.program.as_ref().unwrap(), Default::default()).unwrap();
//! let spec = sit_gpu::Spec { axes: vec![0], fixed: vec![], collect: vec![sit_gpu::Collect::Final(1)], inputs: vec![] };
//! let kernel = sit_gpu::kernel(&lowered, 0, &spec).unwrap();
//! assert!(kernel.source.contains("__global__ void sit_sweep"));
//! ```

mod c;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod host;
mod kernel;

pub use c::Unsupported;

/// The precision of a study's values in its C text (`sit_real`): the text is the same,
/// the precision a definition given to the compiler.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Precision {
    /// `double`: every operation the interpreter's, to the bit (the default).
    #[default]
    F64,
    /// `float` (`SIT_F32`): every value, literal and function of the math library in
    /// single precision (`sinf`, `1e-1f`), on the GPU twice to sixty-four times the
    /// throughput of double, rows converted to `f64` at the end. Not the interpreter's
    /// bits: each operation rounds to 24 bits (see `docs/gpu.md` for the bound).
    F32,
}

impl Precision {
    /// The macro the C text is compiled with (`-D`), if any.
    pub fn define(self) -> Option<&'static str> {
        match self {
            Precision::F64 => None,
            Precision::F32 => Some("SIT_F32"),
        }
    }

    /// Its name: `f64` or `f32`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F64 => "f64",
            Precision::F32 => "f32",
        }
    }
}

impl std::str::FromStr for Precision {
    type Err = String;

    fn from_str(s: &str) -> Result<Precision, String> {
        match s {
            "f64" => Ok(Precision::F64),
            "f32" => Ok(Precision::F32),
            _ => Err(format!("`{s}` is no precision: f64 or f32")),
        }
    }
}
pub use kernel::{Collect, Kernel, PRELUDE, Spec, SpecError, kernel};

/// The values of a study: the axes' values (in the order of [`Spec::axes`]), the step,
/// the number of steps, and which sets of the grid to run.
#[derive(Debug, Clone)]
pub struct Launch<'a> {
    /// Per axis, its values.
    pub axes: &'a [Vec<f64>],
    /// The length of a step.
    pub dt: f64,
    /// The number of steps of each run.
    pub steps: u64,
    /// The sets to run, by their index in the grid (`0..Launch::grid(axes)` for all).
    pub sets: std::ops::Range<usize>,
    /// The series of the driven inputs ([`Spec::inputs`], in order): times and values,
    /// as `sit_runtime::signal` checks them (finite, non-decreasing times).
    pub series: &'a [(Vec<f64>, Vec<f64>)],
}

impl Launch<'_> {
    /// The number of parameter sets of a grid: the product of the axes' lengths (1
    /// without axes).
    pub fn grid(axes: &[Vec<f64>]) -> usize {
        axes.iter().map(Vec::len).product()
    }

    /// The number of sets run.
    pub fn sets(&self) -> usize {
        self.sets.len()
    }
}

/// The rows of a study, row-major: set `k`'s row is `values[k * columns..][..columns]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rows {
    /// Columns per row.
    pub columns: usize,
    /// The values.
    pub values: Vec<f64>,
    /// Per set, 0 or the code of the fault that stopped it (its row is NaN): rerun the set
    /// on the interpreter for the fault's message.
    pub faults: Vec<i32>,
    /// Per set, the first non-finite value of a collected variable, if one was seen.
    pub seen: Vec<Option<Seen>>,
}

/// The first non-finite value of a run among the collected variables (as
/// `sit_runtime::finite::Watch` sees them, on the values before the first step and after
/// each step).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seen {
    /// The variable's index.
    pub index: usize,
    /// The value.
    pub value: f64,
    /// The time it was seen.
    pub time: f64,
    /// The start of the step that made it; `None`: it was in the initial values.
    pub from: Option<f64>,
}

impl Seen {
    /// The watch of one set as the kernel writes it: `[index or -1, value, time, from or
    /// NaN]`.
    pub(crate) fn read(w: &[f64]) -> Option<Seen> {
        (w[0] >= 0.0).then(|| Seen {
            index: w[0] as usize,
            value: w[1],
            time: w[2],
            from: (!w[3].is_nan()).then_some(w[3]),
        })
    }
}

impl Rows {
    /// Row `k`.
    pub fn row(&self, k: usize) -> &[f64] {
        &self.values[k * self.columns..(k + 1) * self.columns]
    }
}
