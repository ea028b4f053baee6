//! What the tests of the GPU's C form share: the study they run on a model, the library.

use sit_driver::{Options, Source};
use sit_gpu::{Collect, Launch, Spec};
use sit_interp::Instance;
use sit_middle::ir::Method;
use sit_runtime::sweep::{self, Sweep};
use sit_runtime::{Model, ValueType, VarKind, catch_fault};
use std::path::{Path, PathBuf};

/// The functions of the C library that the prelude calls, whose last bit may differ
/// from the `libm` crate's (`sit_lag` calls `expm1`).
pub const LIBM: [&str; 16] = [
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
/// a few ulps per call (1e-16 relative each), carried over the few hundred steps of these
/// cases; the largest difference measured on the host was 2.7e-15 (random model 4), and
/// CUDA's functions may be 3 ulps off where glibc's are 1: this leaves a factor of about
/// a hundred over that.
pub const LIBM_RUN_BOUND: f64 = 1e-12;

/// The study of a model as the test runs it: its first settable real params swept
/// around their defaults, every visible variable's final value, the extremes and a
/// crossing of the real ones.
pub struct Study {
    pub spec: Spec,
    pub axes: Vec<Vec<f64>>,
}

pub fn study(model: &Instance) -> Study {
    let mut axes = Vec::new();
    let mut axis_vars = Vec::new();
    let mut collect = Vec::new();
    let shown = (0..model.var_count())
        .take_while(|&i| model.var_info(i).is_some())
        .count();
    for i in 0..shown {
        let info = model.var_info(i).unwrap();
        let value = model.get_at(i).unwrap();
        let real = info.ty == ValueType::Real;
        if real && info.kind == VarKind::Param && info.settable && axis_vars.len() < 2 {
            let around = if value == 0.0 { 0.5 } else { value };
            axes.push(vec![value, around * 0.9, around * 1.1]);
            axis_vars.push(i);
        }
        collect.push(Collect::Final(i));
        if real {
            collect.push(Collect::Max(i));
            collect.push(Collect::Min(i));
            let threshold = if value == 0.0 { 0.25 } else { value * 0.5 };
            collect.push(Collect::FirstCrossing { var: i, threshold });
        }
    }
    Study {
        spec: Spec {
            axes: axis_vars,
            fixed: Vec::new(),
            collect,
        },
        axes,
    }
}

/// The step of a model's documented run line (`--dt X`), or 0.01.
pub fn documented_dt(path: &Path) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| l.contains("Run: `sitc run"))
        .find_map(|l| {
            l.split("--dt ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0.01)
}

/// Models of a few states, whose rk4 and dopri5 kernels NVRTC and the driver compile
/// in well under a second (the larger ones are checked in the host C form only).
pub const SMALL: [&str; 4] = ["bouncing_ball", "van_der_pol", "hoop", "thermostat"];

/// The `.sit` files of the library (examples/models), in order.
///
/// `$SIT_REPO` names the repository where the test binary runs away from its build
/// (the device machine of bench/gpu/run.sh).
pub fn library() -> Vec<PathBuf> {
    let repo = std::env::var_os("SIT_REPO")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let root = repo.join("examples/models");
    let mut files = sit_driver::sit_files(&root);
    files.sort();
    files
}

/// What one comparison runs: a source, its method, the step and the number of steps.
pub struct Case<'a> {
    /// A name for messages and work folders.
    pub name: String,
    /// The source.
    pub source: Source<'a>,
    /// The method for every model (`None`: as declared).
    pub method: Option<Method>,
    /// The step.
    pub dt: f64,
    /// The number of steps.
    pub steps: u64,
}

/// Runs the library's model `path` under `method` for `steps` steps of its documented
/// `dt` (see [`compare_case`]).
pub fn compare(
    path: &Path,
    method: Option<Method>,
    steps: u64,
    run: &dyn Fn(&sit_gpu::Kernel, &Launch<'_>, &str) -> sit_gpu::Rows,
    wrong: &mut Vec<String>,
) -> usize {
    let case = Case {
        name: format!(
            "{}_{}",
            path.file_stem().unwrap().to_string_lossy(),
            method.map_or("declared", Method::name)
        ),
        source: Source::path(path),
        method,
        dt: documented_dt(path),
        steps,
    };
    compare_case(&case, run, wrong)
}

/// Runs every root model of `case` with `run` and on the interpreter; the number of sets
/// compared. Each disagreement is added to `wrong`.
pub fn compare_case(
    case: &Case<'_>,
    run: &dyn Fn(&sit_gpu::Kernel, &Launch<'_>, &str) -> sit_gpu::Rows,
    wrong: &mut Vec<String>,
) -> usize {
    let opts = Options {
        method: case.method,
        ..Options::default()
    };
    let compiled = match sit_driver::compile(&case.source, &opts) {
        Ok(c) => c,
        // A model that this method cannot split is refused by the checker: not a case.
        Err(e) if e.is_model_error() && case.method.is_some() => return 0,
        Err(e) => panic!("{}: {e}", case.name),
    };
    let roots = compiled.lowered.program().roots();
    roots
        .iter()
        .map(|&root| compare_root(case, &compiled, root, run, wrong))
        .sum()
}

fn compare_root(
    case: &Case<'_>,
    compiled: &sit_driver::Compiled,
    root: sit_middle::ir::ModelId,
    run: &dyn Fn(&sit_gpu::Kernel, &Launch<'_>, &str) -> sit_gpu::Rows,
    wrong: &mut Vec<String>,
) -> usize {
    let (dt, steps) = (case.dt, case.steps);
    let model = Instance::new(&compiled.lowered, root);
    let Study { spec, axes } = study(&model);
    let name = format!("{}_{root}", case.name);
    let kernel = match sit_gpu::kernel(&compiled.lowered, root, &spec) {
        Ok(k) => k,
        // An implicit method (`rodas4`), which the C form refuses by name: not a case.
        Err(sit_gpu::SpecError::Unsupported(sit_gpu::Unsupported::Method(_))) => return 0,
        Err(e) => panic!("{name}: {e}"),
    };
    let launch = Launch {
        axes: &axes,
        dt,
        steps,
        sets: 0..Launch::grid(&axes),
    };
    let t0 = std::time::Instant::now();
    let rows = run(&kernel, &launch, &name);
    if std::env::var_os("SIT_TEST_TIMES").is_some() {
        eprintln!(
            "{name}: {} columns, kernel {:.2} s",
            spec.collect.len(),
            t0.elapsed().as_secs_f64()
        );
    }
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
            Ok(_) if rows.faults[k] != 0 => {
                wrong.push(format!("{name} set {k}: a fault the interpreter has not"));
            }
            Ok(row) => {
                for (c, (a, b)) in rows.row(k).iter().zip(&row).enumerate() {
                    // Through the C library's functions: within the bound of docs/gpu.md.
                    let close = !libm.is_empty()
                        && (a - b).abs() <= LIBM_RUN_BOUND * a.abs().max(b.abs()).max(1.0);
                    if a.to_bits() != b.to_bits() && !close {
                        wrong.push(format!(
                            "{name}, set {k} {set:?}, column {c} ({:?}): kernel {a:e}, interpreter {b:e}",
                            spec.collect[c]
                        ));
                    }
                }
            }
            Err(fault) if rows.faults[k] == 0 => wrong.push(format!(
                "{name} set {k}: the interpreter faulted ({fault}), the kernel did not"
            )),
            Err(_) => {}
        }
    }
    axes_sets.len()
}

fn spec_columns(mut sweep: Sweep, spec: &Spec) -> Sweep {
    for &c in &spec.collect {
        sweep = sweep.collect(c);
    }
    sweep
}
