//! `sitc fit`'s core (`sit_host::fit`): params recovered from data the model generated
//! with noise, within the standard errors the fit reports, in under a second.

use sit_host::fit::{Data, FitOptions, FitParam, Report, fit};
use sit_runtime::Model;
use std::path::{Path, PathBuf};

/// Normal deviates from a fixed seed (xorshift64*, Box–Muller): the same noise on
/// every run.
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        ((x >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// The library file `name`, or `text` written to a file of the test's own.
fn model_file(name: &str, text: Option<&str>) -> PathBuf {
    match text {
        None => sit_tests::repo_root().join("examples/models").join(name),
        Some(text) => {
            let dir = std::env::temp_dir().join(format!("sit-fit-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        }
    }
}

/// Data of `columns` at `times` from the model in `path` at the params `truth`, each
/// column with normal noise of its σ.
fn data(
    path: &Path,
    truth: &[(&str, f64)],
    columns: &[(&str, f64)],
    times: &[f64],
    (dt, method): (f64, Option<sit_middle::ir::Method>),
) -> Data {
    let opts = sit_driver::Options {
        method,
        ..Default::default()
    };
    let compiled = sit_driver::compile(&sit_driver::Source::path(path), &opts).expect("compiles");
    let root = compiled.root(None).unwrap();
    let mut m = sit_interp::Instance::new(&compiled.lowered, root);
    for (n, v) in truth {
        m.set(n, *v).unwrap();
    }
    m.reset();
    let mut noise = Noise(0x5eed);
    let mut values = vec![Vec::new(); columns.len()];
    for &t in times {
        while m.time() < t - 1e-9 * dt {
            m.step(dt);
        }
        for (c, (name, sigma)) in columns.iter().enumerate() {
            values[c].push(m.get(name).unwrap() + sigma * noise.normal());
        }
    }
    Data {
        source: "generated".into(),
        times: times.to_vec(),
        columns: columns.iter().map(|c| c.0.to_string()).collect(),
        values,
    }
}

/// Fits and checks each param within 3 of its standard errors of the truth (for a
/// well-posed fit the error is one standard error typically; 3 leaves room for the
/// seed's draw), and the wall time.
fn check(
    path: &Path,
    params: &[(FitParam, f64, f64)],
    data: &Data,
    opts: &FitOptions,
    seconds: f64,
) -> Report {
    let fp: Vec<FitParam> = params.iter().map(|p| p.0.clone()).collect();
    let start: Vec<Option<f64>> = params.iter().map(|p| Some(p.2)).collect();
    let t0 = std::time::Instant::now();
    let report = fit(path, &fp, &start, data, opts, &mut |_, _| {}).expect("fits");
    let took = t0.elapsed().as_secs_f64();
    eprintln!("{}{took:.3} s", report.text());
    assert!(report.converged);
    for (i, (p, truth, _)) in params.iter().enumerate() {
        let (v, se) = (report.values[i], report.std_errors[i]);
        assert!(
            (v - truth).abs() <= 3.0 * se && se > 0.0 && se < 0.2 * truth.abs(),
            "{}: {v} ± {se}, truth {truth}",
            p.name
        );
    }
    assert!(took < seconds, "{took} s");
    report
}

fn param(name: &str, lo: f64, hi: f64, log: bool) -> FitParam {
    FitParam {
        name: name.into(),
        lo,
        hi,
        log,
    }
}

fn options(dt: f64) -> FitOptions {
    FitOptions {
        model: None,
        method: None,
        dt,
        sigma: Vec::new(),
        set: Vec::new(),
        max_iter: 100,
    }
}

const DAMPED: &str = "model Damped {
    param L = 2.0;
    param g = 9.81;
    param c = 0.3;
    output real angle = 1.0;
    output real omega = 0.0;
    omega = integral(-g / L * sin(angle) - c * omega);
    angle = integral(omega);
}";

/// A damped pendulum's damping and length from its angle, 0.01 rad of noise.
#[test]
fn the_pendulums_damping_is_recovered() {
    let path = model_file("damped.sit", Some(DAMPED));
    let times: Vec<f64> = (1..=100).map(|i| i as f64 * 0.1).collect();
    let rk4 = Some(sit_middle::ir::Method::Rk4);
    let d = data(
        &path,
        &[("c", 0.25), ("L", 1.5)],
        &[("angle", 0.01)],
        &times,
        (0.01, rk4),
    );
    let mut opts = options(0.01);
    opts.method = rk4;
    check(
        &path,
        &[
            (param("c", 0.0, 2.0, false), 0.25, 0.5),
            (param("L", 0.5, 5.0, false), 1.5, 2.0),
        ],
        &d,
        &opts,
        1.0,
    );
}

/// The thermostat's loss coefficient from its temperature over its first 2.5 hours
/// (0.05 K of noise): the warm-up and the first switchings, located under `dopri5` so that the
/// temperature is smooth in `k` (over many cycles the phase of the switching makes the
/// sum of squares wave in `k`: a start within 15% of the truth).
#[test]
fn the_thermostats_loss_coefficient_is_recovered() {
    let path = model_file("thermostat.sit", None);
    let times: Vec<f64> = (1..=150).map(|i| i as f64 * 60.0).collect();
    let dopri5 = Some(sit_middle::ir::Method::Dopri5(sit_middle::ir::Tolerance {
        rtol: 1e-8,
        atol: 1e-8,
    }));
    let d = data(
        &path,
        &[("k", 140.0)],
        &[("T", 0.05)],
        &times,
        (60.0, dopri5),
    );
    let mut opts = options(60.0);
    opts.method = dopri5;
    check(
        &path,
        &[(param("k", 10.0, 1000.0, false), 140.0, 160.0)],
        &d,
        &opts,
        1.0,
    );
}

/// Robertson's three rate constants, in log space (they span 9 decades), from noisy
/// `y2` (1% of its peak) and `y3` (1e-3), weighted by those σ.
#[test]
fn robertsons_rate_constants_are_recovered_in_log_space() {
    let path = model_file("robertson.sit", None);
    let times: Vec<f64> = (1..=80).map(|i| i as f64 * 0.5).collect();
    let truth = [("k1", 0.04), ("k2", 3e7), ("k3", 1e4)];
    let d = data(
        &path,
        &truth,
        &[("y2", 3.6e-7), ("y3", 1e-3)],
        &times,
        (0.5, None),
    );
    let mut opts = options(0.5);
    opts.sigma = vec![("y2".into(), 3.6e-7), ("y3".into(), 1e-3)];
    check(
        &path,
        &[
            (param("k1", 1e-4, 1.0, true), 0.04, 0.06),
            (param("k2", 1e5, 1e9, true), 3e7, 1e7),
            (param("k3", 1e2, 1e6, true), 1e4, 3e4),
        ],
        &d,
        &opts,
        5.0,
    );
}

/// Bad input: a param that is not one, bounds that are empty, data columns that the
/// model does not have; each error names the flag or file, what is wrong, and what was
/// expected.
#[test]
fn bad_input_is_named() {
    let path = model_file("pendulum.sit", None);
    let d = Data::parse("m.csv", "t,angle\n0.1,0.9\n0.2,0.8\n").unwrap();
    let err = |p: FitParam, d: &Data| {
        fit(&path, &[p], &[None], d, &options(0.01), &mut |_, _| {})
            .unwrap_err()
            .to_string()
    };
    let inf = f64::INFINITY;
    assert_eq!(
        err(param("Lx", -inf, inf, false), &d),
        "--param: model `Pendulum` has no param or state `Lx` (its params: `L`, `g`, `angle0`)"
    );
    let wrong = Data::parse("m.csv", "t,theta\n0.1,0.9\n").unwrap();
    assert!(
        err(param("L", -inf, inf, false), &wrong)
            .starts_with("m.csv: column `theta` is not a variable of model `Pendulum`; expected columns named as its variables (L, g, angle0, angle, omega"),
        "{}",
        err(param("L", -inf, inf, false), &wrong)
    );
    assert_eq!(
        FitParam::parse("L=3..1", false).unwrap_err().to_string(),
        "--param L=3..1: the bounds are empty (3 is not below 1); expected LO < HI"
    );
    assert_eq!(
        FitParam::parse("L=-1..1", true).unwrap_err().to_string(),
        "--param L=-1..1: fitted in log space (--log) but its lower bound -1 is negative; expected LO >= 0"
    );
    assert_eq!(
        Data::parse("m.csv", "t\n0\n").unwrap_err().to_string(),
        "m.csv: has only the column `t`; expected the time then at least one measured variable"
    );
    assert_eq!(
        Data::parse("m.csv", "t,x\n1,2\n0.5,3\n")
            .unwrap_err()
            .to_string(),
        "m.csv: line 3: time `0.5`; expected times >= 0, ascending"
    );
}
