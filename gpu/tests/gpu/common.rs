//! What the tests of the GPU's C form share: the study they run on a model, the library.

use sit_driver::{Options, Source};
use sit_gpu::{Collect, Launch, Spec};
use sit_interp::Instance;
use sit_middle::ir::Method;
use sit_runtime::sweep::{self, Sweep};
use sit_runtime::{Model, ValueType, VarKind, catch_fault};
use std::path::{Path, PathBuf};

/// The functions of the C library that the prelude calls, whose last bit may differ
/// from the `libm` crate's (`sit_lag` calls `expm1`). Not `sit_pow`: the prelude ports
/// the libm crate's `pow` (in double), so `^` and the adaptive methods' step control
/// give the interpreter's bits.
pub const LIBM: [&str; 15] = [
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
            inputs: Vec::new(),
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
        series: &[],
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

pub fn spec_columns(mut sweep: Sweep, spec: &Spec) -> Sweep {
    for &c in &spec.collect {
        sweep = sweep.collect(c);
    }
    sweep
}

/// f32 on request (`--gpu-precision f32`): the C text of a study compiled with `SIT_F32`
/// (every value, literal and function of the math library in `float`) and run by `run`,
/// against the interpreter in f64, on smooth models whose runs do not amplify a perturbation
/// (exponential decay, a damped circuit, a pendulum, Van der Pol's limit cycle, along
/// which an error in phase grows at most linearly).
///
/// The bound: every operation of a step rounds to 24 bits, a relative error of at most
/// u = 2^-24 (IEEE), and the params, the initial values and dt are rounded to float once
/// (u each). A step of these models takes fewer than 16 roundings per state (its rules
/// and Euler's update, or an rk4 step's four stages), and without amplification the
/// errors of N steps add up to at most 16·N·u of the values' scale; so a column may
/// differ from the f64 interpreter's by 16·N·u·max(1, |x|), 9.5e-4·max(1, |x|) over the
/// 1000 steps run here (measured: 6.7e-6 at most, errors of opposite signs cancel). A
/// first crossing may move to a neighbouring pair of rows: within one step more. Flags
/// and modes stay equal. The f64 text of the same kernel still gives the interpreter's
/// bits (the other tests). Returns the largest relative difference and the bound.
pub fn compare_f32(
    run: &dyn Fn(&sit_gpu::Kernel, &Launch<'_>, &str) -> sit_gpu::Rows,
) -> (f64, f64) {
    const STEPS: u64 = 1000;
    let bound = 16.0 * STEPS as f64 * f64::powi(2.0, -24);
    let mut worst: f64 = 0.0;
    let mut wrong = Vec::new();
    let mut cases = 0;
    for (name, method) in [
        ("dahlquist", None),
        ("rlc", None),
        ("pendulum", None),
        ("van_der_pol", None),
        ("van_der_pol", Method::from_name("rk4")),
    ] {
        let path = library()
            .into_iter()
            .find(|p| p.file_stem().is_some_and(|s| s == name))
            .unwrap();
        let opts = Options {
            method,
            ..Default::default()
        };
        let compiled = sit_driver::compile(&Source::path(&path), &opts).unwrap();
        let root = compiled.root(None).unwrap();
        let model = Instance::new(&compiled.lowered, root);
        let Study { spec, axes } = study(&model);
        let kernel = sit_gpu::kernel(&compiled.lowered, root, &spec).unwrap();
        let dt = documented_dt(&path);
        let launch = Launch {
            axes: &axes,
            dt,
            steps: STEPS,
            sets: 0..Launch::grid(&axes),
            series: &[],
        };
        let tag = format!("{name}_{}_f32", method.map_or("declared", Method::name));
        let rows = run(&kernel, &launch, &tag);
        let interp = spec_columns(Sweep::new(dt, STEPS), &spec);
        let grid: Vec<(usize, Vec<f64>)> = spec.axes.iter().copied().zip(axes.clone()).collect();
        for (k, set) in sweep::grid(&grid).iter().enumerate() {
            let want = interp.run_one(&model, set).unwrap();
            assert_eq!(rows.faults[k], 0, "{tag}: set {k} faulted");
            for (c, (got, want)) in rows.row(k).iter().zip(&want).enumerate() {
                let scale = got.abs().max(want.abs()).max(1.0);
                let allowed = match spec.collect[c] {
                    Collect::FirstCrossing { .. } => bound * scale + dt,
                    _ => bound * scale,
                };
                let off = (got - want).abs();
                if !matches!(spec.collect[c], Collect::FirstCrossing { .. }) {
                    worst = worst.max(off / scale);
                }
                if !(off <= allowed || (got.is_nan() && want.is_nan())) {
                    wrong.push(format!(
                        "{tag}, set {k}, column {c} ({:?}): f32 {got:e}, f64 {want:e}",
                        spec.collect[c]
                    ));
                }
            }
            cases += 1;
        }
    }
    assert!(wrong.is_empty(), "bound {bound:e}:\n{}", wrong.join("\n"));
    assert!(cases >= 15, "{cases}");
    // Rounding to float happened: the runs are not the f64 ones.
    assert!(worst > 1e-9, "{worst:e}");
    (worst, bound)
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
/// `pow`); each disagreement added to `wrong`, the number of sets compared returned: a ramp with a jump (a time given twice), a flag held
/// for 0.2 s and one pulse of 0.05 s inside a step of 0.25 s (seen by that step, as
/// `Input::entering` says).
pub fn compare_driven(
    run: &dyn Fn(&sit_gpu::Kernel, &Launch<'_>, &str) -> sit_gpu::Rows,
    wrong: &mut Vec<String>,
) -> usize {
    use sit_runtime::drive::{Driven, Input};
    use sit_runtime::signal::OwnedSignal;
    let times = vec![0.0, 3.0, 3.0, 3.2, 7.1, 7.15, 20.0];
    let u = vec![0.0, 0.5, 0.25, 0.25, -0.5, -0.5, 1.0];
    let kick = vec![0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0];
    let series = vec![(times.clone(), u.clone()), (times.clone(), kick.clone())];
    let mut sets = 0;
    for method in [None, Method::from_name("dopri5")] {
        let opts = Options {
            method,
            ..Default::default()
        };
        let source = Source::text("forced.sit", FORCED);
        let compiled = sit_driver::compile(&source, &opts).unwrap();
        let model = Instance::new(&compiled.lowered, 0);
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
        let Study { mut spec, axes } = study(&model);
        spec.inputs = inputs.iter().map(|i| (i.index, i.hold)).collect();
        let driven = Driven::new(model, inputs);
        let kernel = sit_gpu::kernel(&compiled.lowered, 0, &spec).unwrap();
        let (dt, steps) = (0.25, 80);
        let launch = Launch {
            axes: &axes,
            dt,
            steps,
            sets: 0..Launch::grid(&axes),
            series: &series,
        };
        let name = format!("forced_{}", method.map_or("euler", Method::name));
        let rows = run(&kernel, &launch, &name);
        let interp = spec_columns(Sweep::new(dt, steps), &spec);
        let grid: Vec<(usize, Vec<f64>)> = spec.axes.iter().copied().zip(axes.clone()).collect();
        // To the bit under every method: dopri5's controller calls `pow`, which the
        // prelude computes as the libm crate does; the model calls no other function.
        let text = &kernel.source
            [kernel.source.find(sit_gpu::PRELUDE).unwrap() + sit_gpu::PRELUDE.len()..];
        let libm = (LIBM.iter()).any(|f| text.contains(&format!("{f}(")));
        assert!(!libm, "{name}");
        assert_eq!(text.contains("sit_pow("), method.is_some(), "{name}");
        for (k, set) in sweep::grid(&grid).iter().enumerate() {
            let want = interp.run_one(&driven, set).unwrap();
            assert_eq!(rows.faults[k], 0, "{name}: set {k} faulted");
            for (c, (a, b)) in rows.row(k).iter().zip(&want).enumerate() {
                let bound = LIBM_RUN_BOUND * a.abs().max(b.abs()).max(1.0);
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
    sets
}

/// The index of variable `name` of the root of `compiled`.
fn index_of(compiled: &sit_driver::Compiled, name: &str) -> usize {
    let model = Instance::new(&compiled.lowered, 0);
    sit_runtime::Model::var_index(&model, name).unwrap()
}
