//! The kernel compiled at run time by NVRTC and launched through the CUDA driver, both loaded dynamically (`cudarc`): nothing of CUDA is needed to build.
#![allow(unsafe_code)]

use crate::kernel::Kernel;
use crate::{Launch, Rows};
use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg, sys};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};
use std::time::Instant;

/// Why the kernel did not run on the GPU.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// No CUDA driver library (`libcuda.so`) on this machine.
    #[error(
        "no CUDA driver found (libcuda.so): `--gpu` needs an NVIDIA GPU and its driver; \
         run without `--gpu` (or with `--compiled`) on this machine"
    )]
    NoDriver,
    /// No NVRTC library (`libnvrtc.so`, part of the CUDA toolkit).
    #[error(
        "no NVRTC found (libnvrtc.so, part of the CUDA toolkit): `--gpu` compiles the \
         model's kernel at run time; install the CUDA toolkit or put its lib64 folder \
         on LD_LIBRARY_PATH"
    )]
    NoNvrtc,
    /// NVRTC rejected the generated text (a bug of the generator).
    #[error("NVRTC rejected the generated kernel (a bug of Sit, please report it): {0}")]
    Compile(String),
    /// A call of the driver failed.
    #[error("CUDA {what}: {error}")]
    Driver {
        /// What was being done.
        what: &'static str,
        /// The driver's error.
        error: String,
    },
    /// The study is larger than one launch can hold.
    #[error("{0}")]
    TooLarge(String),
}

/// What a run on the GPU measured besides its rows.
#[derive(Debug, Clone)]
pub struct CudaRun {
    /// The rows.
    pub rows: Rows,
    /// The device's name.
    pub device: String,
    /// Seconds NVRTC took to compile the kernel.
    pub compile_s: f64,
    /// Milliseconds the kernel ran (CUDA events around the launch).
    pub kernel_ms: f64,
    /// Seconds of the whole run: compile, load, copies, kernel, copies back.
    pub total_s: f64,
}

/// How to compile and launch.
#[derive(Debug, Clone, Copy)]
pub struct CudaOptions {
    /// Threads per block.
    pub block: u32,
    /// Let NVRTC contract `a*b+c` into FMAs (faster, not bit-identical to the CPU).
    pub fma: bool,
    /// The precision of the values (`f32`: not bit-identical to the CPU).
    pub precision: crate::Precision,
}

impl Default for CudaOptions {
    fn default() -> CudaOptions {
        CudaOptions {
            block: 128,
            fma: false,
            precision: crate::Precision::F64,
        }
    }
}

fn driver(what: &'static str) -> impl FnOnce(cudarc::driver::DriverError) -> CudaError {
    move |e| CudaError::Driver {
        what,
        error: format!("{e:?}"),
    }
}

/// Whether a CUDA driver and NVRTC can be loaded (never fails: tells why not).
pub fn available() -> Result<(), CudaError> {
    // SAFETY: loading a shared library runs its initialisers; the CUDA driver's and
    // NVRTC's are those of libraries made to be loaded by any process.
    if !unsafe { sys::is_culib_present() } {
        return Err(CudaError::NoDriver);
    }
    // SAFETY: as above.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(CudaError::NoNvrtc);
    }
    Ok(())
}

/// The kernel compiled by NVRTC for the virtual architecture `arch` (`compute_90`).
fn ptx(kernel: &Kernel, arch: &str, opts: CudaOptions) -> Result<cudarc::nvrtc::Ptx, CudaError> {
    compile_ptx_with_opts(
        &kernel.source,
        CompileOptions {
            fmad: Some(opts.fma),
            prec_div: Some(true),
            prec_sqrt: Some(true),
            ftz: Some(false),
            options: std::iter::once(format!("--gpu-architecture={arch}"))
                .chain(
                    opts.precision
                        .define()
                        .map(|d| format!("--define-macro={d}")),
                )
                .collect(),
            name: Some("sit_study.cu".into()),
            ..Default::default()
        },
    )
    .map_err(|e| CudaError::Compile(format!("{e:?}")))
}

/// The PTX of `kernel` for the virtual architecture `arch` (`compute_90`): needs NVRTC
/// only, no GPU (the tests compile every kernel of the library where NVRTC is found).
pub fn compile(kernel: &Kernel, arch: &str, opts: CudaOptions) -> Result<String, CudaError> {
    // SAFETY: loading NVRTC runs its initialisers, those of a library made to be loaded
    // by any process.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(CudaError::NoNvrtc);
    }
    Ok(ptx(kernel, arch, opts)?.to_src())
}

/// GPU 0's context, opened once per process (opening takes a tenth of a second).
fn context() -> Result<std::sync::Arc<CudaContext>, CudaError> {
    static CONTEXT: std::sync::OnceLock<std::sync::Arc<CudaContext>> = std::sync::OnceLock::new();
    if let Some(ctx) = CONTEXT.get() {
        return Ok(ctx.clone());
    }
    let ctx = CudaContext::new(0).map_err(driver("cannot open GPU 0"))?;
    Ok(CONTEXT.get_or_init(|| ctx).clone())
}

/// Compiles `kernel` with NVRTC for GPU 0 and runs every set of `launch` on it.
pub fn run(kernel: &Kernel, launch: &Launch<'_>, opts: CudaOptions) -> Result<CudaRun, CudaError> {
    let start = Instant::now();
    available()?;
    let sets = launch.sets();
    if launch.sets.end > Launch::grid(launch.axes) {
        return Err(CudaError::TooLarge(format!(
            "sets {}..{} of a grid of {}",
            launch.sets.start,
            launch.sets.end,
            Launch::grid(launch.axes)
        )));
    }
    let ctx = context()?;
    let device = ctx.name().unwrap_or_else(|_| "GPU 0".into());
    let (major, minor) = ctx
        .compute_capability()
        .map_err(driver("cannot read the compute capability"))?;
    let compile = Instant::now();
    let ptx = ptx(kernel, &format!("compute_{major}{minor}"), opts)?;
    let compile_s = compile.elapsed().as_secs_f64();
    let module = ctx
        .load_module(ptx)
        .map_err(driver("cannot load the compiled kernel"))?;
    let f = module
        .load_function("sit_sweep")
        .map_err(driver("no kernel sit_sweep in the module"))?;
    let stream = ctx.default_stream();

    let lens: Vec<i64> = launch.axes.iter().map(|a| a.len() as i64).collect();
    let mut values: Vec<f64> = launch.axes.iter().flat_map(|a| a.iter().copied()).collect();
    // Never an empty buffer (a study without axes runs one set).
    values.push(0.0);
    let mut lens_buf = lens.clone();
    lens_buf.push(1);
    let d_axes = stream
        .clone_htod(&values)
        .map_err(driver("cannot copy the axes"))?;
    let d_lens = stream
        .clone_htod(&lens_buf)
        .map_err(driver("cannot copy the axes"))?;
    if launch.series.len() != kernel.inputs {
        return Err(CudaError::TooLarge(format!(
            "{} series given to a study of {} driven inputs",
            launch.series.len(),
            kernel.inputs
        )));
    }
    // Each input's times, then its values; never an empty buffer.
    let mut series: Vec<f64> = (launch.series.iter())
        .flat_map(|(t, v)| t.iter().chain(v).copied())
        .collect();
    series.push(0.0);
    let mut series_lens: Vec<i64> = launch.series.iter().map(|(t, _)| t.len() as i64).collect();
    series_lens.push(0);
    let d_series = stream
        .clone_htod(&series)
        .map_err(driver("cannot copy the inputs' series"))?;
    let d_series_lens = stream
        .clone_htod(&series_lens)
        .map_err(driver("cannot copy the inputs' series"))?;
    let cells = sets
        .checked_mul(kernel.columns.max(1))
        .ok_or_else(|| CudaError::TooLarge(format!("{sets} sets of {} columns", kernel.columns)))?;
    let mut d_rows = stream
        .alloc_zeros::<f64>(cells)
        .map_err(driver("cannot allocate the rows"))?;
    let mut d_faults = stream
        .alloc_zeros::<i32>(sets.max(1))
        .map_err(driver("cannot allocate the faults"))?;
    let mut d_seen = stream
        .alloc_zeros::<f64>(sets.max(1) * 4)
        .map_err(driver("cannot allocate the watches"))?;
    let block = opts.block.max(32);
    let blocks = u32::try_from(sets.div_ceil(block as usize))
        .map_err(|_| CudaError::TooLarge(format!("{sets} sets need more than 2^32 blocks")))?;
    let cfg = LaunchConfig {
        grid_dim: (blocks.max(1), 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    };
    let (first, n, steps, dt) = (
        launch.sets.start as i64,
        sets as i64,
        launch.steps as i64,
        launch.dt,
    );
    let begin = stream
        .record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(driver("cannot record an event"))?;
    let mut args = stream.launch_builder(&f);
    args.arg(&d_axes)
        .arg(&d_lens)
        .arg(&first)
        .arg(&n)
        .arg(&steps)
        .arg(&dt)
        .arg(&d_series)
        .arg(&d_series_lens)
        .arg(&mut d_rows)
        .arg(&mut d_faults)
        .arg(&mut d_seen);
    // SAFETY: `sit_sweep`'s parameters are, in order, `const double*`, `const long
    // long*`, `long long` three times, `double`, `const double*`, `const long long*`,
    // `double*`, `int*`, `double*` (kernel.rs writes them), matched here by a slice of
    // f64, a slice of i64, four values of those types, a slice of f64, a slice of i64,
    // a slice of f64, a slice of i32 and a slice of f64. The kernel reads
    // `lens[0..axes]` and `axes[0..sum(lens)]` (both copied above in full; the set's
    // digits stay below each length since `first + sets` is at most the grid's size,
    // checked above), `series_lens[0..inputs]` and `series[0..2 * sum(series_lens)]`
    // (copied in full; the count of series is the kernel's, checked above) and writes `rows[k * columns..][..columns]`, `faults[k]` and
    // `seen[k * 4..][..4]` for `k < sets` only: inside the buffers allocated above for
    // `sets` sets.
    unsafe { args.launch(cfg) }.map_err(driver("cannot launch the kernel"))?;
    let end = stream
        .record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(driver("cannot record an event"))?;
    stream.synchronize().map_err(driver("the kernel failed"))?;
    let kernel_ms = f64::from(
        begin
            .elapsed_ms(&end)
            .map_err(driver("cannot time the kernel"))?,
    );
    let values = stream
        .clone_dtoh(&d_rows)
        .map_err(driver("cannot copy the rows back"))?;
    let faults = stream
        .clone_dtoh(&d_faults)
        .map_err(driver("cannot copy the faults back"))?;
    let seen = stream
        .clone_dtoh(&d_seen)
        .map_err(driver("cannot copy the watches back"))?;
    let mut rows = Rows {
        columns: kernel.columns,
        values,
        seen: (0..sets)
            .map(|k| match faults[k] {
                0 => crate::Seen::read(&seen[4 * k..4 * k + 4]),
                _ => None,
            })
            .collect(),
        faults,
    };
    rows.values.truncate(sets * kernel.columns);
    rows.faults.truncate(sets);
    for (set, code) in rows.faults.iter().enumerate() {
        if *code != 0 {
            let row = &mut rows.values[set * kernel.columns..(set + 1) * kernel.columns];
            row.fill(f64::NAN);
        }
    }
    Ok(CudaRun {
        rows,
        device,
        compile_s,
        kernel_ms,
        total_s: start.elapsed().as_secs_f64(),
    })
}
