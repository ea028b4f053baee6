//! The math functions through the kernel against sit-runtime's (the `libm` crate): at most the stated number of ulps apart, per function, in the host C form and (`SIT_GPU=1`) on the GPU.

use sit_gpu::host::HostProgram;
use sit_gpu::{Collect, Launch, Rows, Spec};
use sit_interp::Instance;
use sit_runtime::Model;

/// Each function, the expression that calls it on `x` in (0.05, 0.95), and its bound in
/// ulps against the `libm` crate (a port of musl's: under 1 ulp from the exact value,
/// except its hyperbolic functions, measured up to 3 ulps from glibc's) on the host
/// (glibc, correctly rounded or nearly: 1 ulp apart, 3 for sinh, cosh, tanh) and on the
/// GPU (CUDA's documented maximum error in double precision, CUDA C++ Programming Guide,
/// "Mathematical Functions": 1 ulp for exp, log, log10, cosh, tanh, expm1, 2 for the
/// others here, plus libm's own). `pow` is the libm crate's own algorithm in the prelude:
/// 0 ulps on both.
const FUNCTIONS: [(&str, &str, u64, u64); 16] = [
    ("exp", "exp(3 * x)", 1, 2),
    ("ln", "ln(x)", 1, 2),
    ("log10", "log10(x)", 1, 2),
    ("sin", "sin(7 * x)", 1, 3),
    ("cos", "cos(7 * x)", 1, 3),
    ("tan", "tan(x)", 1, 3),
    ("asin", "asin(x)", 1, 3),
    ("acos", "acos(x)", 1, 3),
    ("atan", "atan(5 * x)", 1, 3),
    ("atan2", "atan2(x, 1 - x)", 1, 3),
    ("sinh", "sinh(2 * x)", 3, 5),
    ("cosh", "cosh(2 * x)", 3, 4),
    ("tanh", "tanh(2 * x)", 3, 4),
    ("pow", "x ^ 2.5", 0, 0),
    ("hypot", "hypot(x, 1 - x)", 1, 3),
    ("lag (expm1)", "0", 1, 2),
];

/// The distance in ulps of two finite doubles of the same sign.
fn ulps(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64).abs_diff(b.to_bits() as i64)
}

/// A model with one output per function, the last a lag whose factor is `expm1`'s.
fn source() -> String {
    let mut s = String::from("model F {\n    param x = 0.5;\n");
    for (k, (_, e, ..)) in FUNCTIONS.iter().enumerate().take(FUNCTIONS.len() - 1) {
        s.push_str(&format!("    output real f{k};\n    f{k} = {e};\n"));
    }
    let k = FUNCTIONS.len() - 1;
    s.push_str(&format!(
        "    output real f{k} = 0;\n    f{k} = lag(1, x, 1);\n}}\n"
    ));
    s
}

/// Each function's largest distance to the interpreter over the sets of `rows`.
fn check(rows: &Rows, model: &Instance, xs: &[f64], gpu: bool) {
    let mut worst = vec![0; FUNCTIONS.len()];
    for (k, &x) in xs.iter().enumerate() {
        let mut m = model.clone();
        m.set_at(0, x).unwrap();
        m.reset();
        m.step(0.1);
        for (f, w) in worst.iter_mut().enumerate() {
            let expected = m.get_at(1 + f).unwrap();
            *w = (*w).max(ulps(rows.row(k)[f], expected));
        }
    }
    let mut over = Vec::new();
    for ((name, _, host, device), w) in FUNCTIONS.iter().zip(&worst) {
        let bound = if gpu { *device } else { *host };
        eprintln!("{name}: {w} ulps at most (bound {bound})");
        if *w > bound {
            over.push(format!("{name}: {w} ulps, bound {bound}"));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

fn study() -> (
    sit_middle::lower::Lowered,
    Instance,
    sit_gpu::Kernel,
    Vec<Vec<f64>>,
) {
    let out = sit_middle::check_source("f.sit", &source());
    let program = out
        .program
        .unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).unwrap();
    let model = Instance::new(&lowered, 0);
    let spec = Spec {
        axes: vec![0],
        fixed: Vec::new(),
        collect: (0..FUNCTIONS.len())
            .map(|f| Collect::Final(1 + f))
            .collect(),
        inputs: Vec::new(),
    };
    let kernel = sit_gpu::kernel(&lowered, 0, &spec).unwrap();
    let xs: Vec<f64> = (0..2000)
        .map(|k| 0.05 + 0.9 * (k as f64 + 0.5) / 2000.0)
        .collect();
    (lowered, model, kernel, vec![xs])
}

#[test]
fn the_host_c_library_is_within_its_bound() {
    let (_, model, kernel, axes) = study();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("functions");
    let launch = Launch {
        axes: &axes,
        dt: 0.1,
        steps: 1,
        sets: 0..axes[0].len(),
        series: &[],
    };
    let rows = HostProgram::build(&kernel, &dir)
        .unwrap()
        .run(&launch)
        .unwrap();
    check(&rows, &model, &axes[0], false);
}

#[test]
fn cuda_s_library_is_within_its_bound() {
    if std::env::var_os("SIT_GPU").is_none_or(|v| v != "1") {
        eprintln!("skipped: set SIT_GPU=1 on a machine with an NVIDIA GPU");
        return;
    }
    let (_, model, kernel, axes) = study();
    let launch = Launch {
        axes: &axes,
        dt: 0.1,
        steps: 1,
        sets: 0..axes[0].len(),
        series: &[],
    };
    let rows = sit_gpu::cuda::run(&kernel, &launch, Default::default())
        .unwrap()
        .rows;
    check(&rows, &model, &axes[0], true);
}

/// The kernel of a model whose output `p` is `expr` of its params `a` and `b`, both
/// swept (axes 0 and 1), `p` collected at the end.
fn two_param_kernel(expr: &str) -> sit_gpu::Kernel {
    let source =
        format!("model P {{\n    param a = 2, b = 0.5;\n    output real p;\n    p = {expr};\n}}\n");
    let out = sit_middle::check_source("p.sit", &source);
    let program = out
        .program
        .unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).unwrap();
    let spec = Spec {
        axes: vec![0, 1],
        fixed: Vec::new(),
        collect: vec![Collect::Final(2)],
        inputs: Vec::new(),
    };
    sit_gpu::kernel(&lowered, 0, &spec).unwrap()
}

/// `a ^ b` on a grid of arguments: special values (zeros, ±1, ±2, ½, infinities, NaN,
/// the smallest and largest doubles, numbers near 1) and a spread over many scales,
/// negative bases with integer and non-integer exponents, the step control's exponents
/// (−1/5, −1/4, −1/8, −1/9); the study's kernel and its launch's axes.
fn pow_study() -> (sit_gpu::Kernel, Vec<Vec<f64>>) {
    let kernel = two_param_kernel("a ^ b");
    let mut bases = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        1e-300,
        -1e-300,
        1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        1.0 + f64::EPSILON,
        1.0 - f64::EPSILON / 2.0,
        1.0000001,
        0.9999999,
    ];
    bases.extend((0..160).map(|k| {
        let x = 10f64.powf(-30.0 + 60.0 * (k as f64 + 0.37) / 160.0);
        if k % 5 == 0 { -x } else { x }
    }));
    let mut exponents = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        1e10,
        -1e10,
        1e20,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -0.2,
        -0.25,
        -0.125,
        -1.0 / 9.0,
        2.5,
        1.0 / 3.0,
        7.0,
        -7.0,
        1075.0,
        -1075.0,
    ];
    exponents.extend((0..40).map(|k| -40.0 + 80.0 * (k as f64 + 0.61) / 40.0));
    (kernel, vec![bases, exponents])
}

/// The rows of a two-parameter study against `want` of each set of the grid `axes`, to
/// the bit (NaN matching NaN), `name` the function in the message.
fn check_to_the_bit(rows: &Rows, axes: &[Vec<f64>], name: &str, want: fn(f64, f64) -> f64) {
    let grid: Vec<(usize, Vec<f64>)> = vec![(0, axes[0].clone()), (1, axes[1].clone())];
    let mut wrong = Vec::new();
    for (k, set) in sit_runtime::sweep::grid(&grid).iter().enumerate() {
        let (a, b) = (set[0].1, set[1].1);
        let (got, want) = (rows.row(k)[0], want(a, b));
        if got.to_bits() != want.to_bits() && !(got.is_nan() && want.is_nan()) {
            wrong.push(format!("{name}({a:e}, {b:e}): {got:e}, runtime {want:e}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        axes[0].len() * axes[1].len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
}

/// The rows of [`pow_study`] against `sit_runtime::math::pow` (the libm crate), to the bit.
fn check_pow(rows: &Rows, axes: &[Vec<f64>]) {
    check_to_the_bit(rows, axes, "pow", sit_runtime::math::pow);
}

/// One step of 0.1 for every set of the grid `axes`.
fn one_step(axes: &[Vec<f64>]) -> Launch<'_> {
    Launch {
        axes,
        dt: 0.1,
        steps: 1,
        sets: 0..Launch::grid(axes),
        series: &[],
    }
}

#[test]
fn pow_is_the_libm_crates_to_the_bit_in_the_host_c_form() {
    let (kernel, axes) = pow_study();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pow");
    let launch = one_step(&axes);
    let rows = HostProgram::build(&kernel, &dir)
        .unwrap()
        .run(&launch)
        .unwrap();
    check_pow(&rows, &axes);
}

#[test]
fn pow_is_the_libm_crates_to_the_bit_on_the_gpu() {
    if std::env::var_os("SIT_GPU").is_none_or(|v| v != "1") {
        eprintln!("skipped: set SIT_GPU=1 on a machine with an NVIDIA GPU");
        return;
    }
    let (kernel, axes) = pow_study();
    let launch = one_step(&axes);
    let rows = sit_gpu::cuda::run(&kernel, &launch, Default::default())
        .unwrap()
        .rows;
    check_pow(&rows, &axes);
}

/// `inv_root(x, q)` (the step control of tsit5, dop853, rodas4, rodas5p), which source
/// cannot call: the kernel of `p = pow(a, b)` with the call of its step renamed to
/// `sit_inv_root`, on a grid of `x` (zeros, infinities, NaN, negative, subnormal, the
/// extremes, powers of two and a spread over every scale) and `q` (4, 5, 8, and 3,
/// which is pow's); the study's kernel and its launch's axes.
fn inv_root_study() -> (sit_gpu::Kernel, Vec<Vec<f64>>) {
    let mut kernel = two_param_kernel("pow(a, b)");
    let at = kernel.source.find(sit_gpu::PRELUDE).unwrap() + sit_gpu::PRELUDE.len();
    let step = kernel.source[at..].replace("sit_pow(", "sit_inv_root(");
    assert!(step.contains("sit_inv_root("), "the kernel calls pow");
    kernel.source.replace_range(at.., &step);
    let mut xs = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        0.5,
        16.0,
        32.0,
        256.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE * 0.75,
        5e-324,
        1e-310,
        f64::MAX,
        1.0 + f64::EPSILON,
        1.0 - f64::EPSILON / 2.0,
    ];
    xs.extend((0..300).map(|k| 10f64.powf(-320.0 + 628.0 * (k as f64 + 0.37) / 300.0)));
    (kernel, vec![xs, vec![4.0, 5.0, 8.0, 3.0]])
}

#[test]
fn inv_root_is_the_runtimes_to_the_bit_in_the_host_c_form() {
    let (kernel, axes) = inv_root_study();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("inv_root");
    let rows = HostProgram::build(&kernel, &dir)
        .unwrap()
        .run(&one_step(&axes))
        .unwrap();
    check_to_the_bit(&rows, &axes, "inv_root", sit_runtime::math::inv_root);
}
