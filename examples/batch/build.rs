//! Generates every model of `examples/models` (subfolders included) and a set of random
//! models from `sit-synth` with `sit_codegen::generate_with_batch`, one module each, and
//! a registry of their batch forms (every model has one), with the step and run length taken
//! from the `Run:` line of the model's documentation (`--dt`, `--t-end`); and the same
//! again with every model integrated by `rk4` (`Options::method`), where its rules split.

use sit_middle::ir::Method;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How many random models are compiled.
const RANDOM_MODELS: u64 = 20;

/// The examples compiled again under `rk4` and `dopri5`: located events (the bouncing
/// ball, the thermostat), a phase (the rod), modes and timers (the traffic light), a
/// placed submodel step (the conveyor), submodels switched on and off (the coordinator),
/// tables (the vehicle, the controller), sub-steps (the compliant rod), and plain
/// continuous models (Van der Pol, the pendulum, the hoop).
const TWINNED: &[&str] = &[
    "bouncing_ball",
    "thermostat",
    "rod",
    "traffic_light",
    "conveyor",
    "coordinator",
    "vehicle",
    "controller",
    "rod_compliant",
    "van_der_pol",
    "pendulum",
    "hoop",
];

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let examples = Path::new("../models");
    println!("cargo:rerun-if-changed={}", examples.display());
    let mut files = sit_build::sit_files(examples);
    // The heat rod written as an array is `heat_rod.sit` rule for rule (tests/tests/
    // arrays.rs compares them to the bit): its batch form would be a second copy of
    // the heat rod's large code (40 states under `rodas4`) and no construct of its own.
    files.retain(|f| f.file_stem().is_none_or(|s| s != "heat_rod_array"));
    let random = out.join("random");
    std::fs::create_dir_all(&random).expect("OUT_DIR is writable");
    for seed in 0..RANDOM_MODELS {
        let path = random.join(format!("random_{seed}.sit"));
        write_if_changed(
            &path,
            &sit_synth::random_file(seed, sit_synth::Size::default()),
        );
        files.push(path);
    }
    let mut modules = String::new();
    let mut impls = String::new();
    let mut registry = String::from(
        "/// Every model's batch form: (file stem, model, dt, steps, bit-identity check).\n\
         pub fn all() -> Vec<(&'static str, &'static str, f64, u64, crate::Check)> {\n    vec![\n",
    );
    // Every file as declared, and a sample again with every model integrated by `rk4`
    // (stem `rk4:STEM`) and by `dopri5` (`dopri5:STEM`), skipping the files whose rules
    // do not split for them: the batch form writes a method's stages with the same code
    // as every other rule, so the sample is the examples with a construct of their own
    // under a method ([`TWINNED`]) and the first half of the random models. All files
    // three times made this crate the longest unit of CI's test build (21 MB of
    // generated code; docs/performance.md, "CI time").
    let twinned = |f: &Path| {
        let stem = f.file_stem().unwrap_or_default().to_string_lossy();
        TWINNED.contains(&stem.as_ref())
            || stem
                .strip_prefix("random_")
                .and_then(|seed| seed.parse::<u64>().ok())
                .is_some_and(|seed| seed < RANDOM_MODELS / 2)
    };
    let variants = files.iter().flat_map(|f| {
        let methods = if twinned(f) {
            vec![Some(Method::Rk4), Some(Method::Dopri5(Default::default()))]
        } else {
            vec![]
        };
        std::iter::once((f, None)).chain(methods.into_iter().map(move |m| (f, m)))
    });
    for (file, method) in variants {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let (module, stem) = match method {
            None => (format!("m_{stem}"), stem),
            Some(m) => (
                format!("{}_{stem}", m.name()),
                format!("{}:{stem}", m.name()),
            ),
        };
        let opts = sit_driver::Options {
            method,
            ..Default::default()
        };
        let compiled = match sit_driver::compile(&sit_driver::Source::path(file), &opts) {
            Ok(compiled) => compiled,
            Err(sit_driver::Error::Model(_)) if method.is_some() => continue,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                std::process::exit(1)
            }
        };
        let code = sit_codegen::generate_with_batch(&compiled.lowered, &Default::default())
            .unwrap_or_else(|e| {
                eprintln!("{}: {e}", file.display());
                std::process::exit(1)
            });
        write_if_changed(&out.join(format!("{module}.rs")), &code);
        let _ = writeln!(
            modules,
            "/// Generated from `{stem}.sit`, with batch forms.\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\"));\n}}"
        );
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let (dt, t_end) = run_line(&text);
        // At most 50 000 steps per model: enough for every guard of the library to fire.
        // Under `dopri5` (several internal steps of seven stages each), at most 2 000.
        let most = if matches!(method, Some(Method::Dopri5(_))) {
            2_000
        } else {
            50_000
        };
        let steps = ((t_end / dt).round() as u64).min(most);
        for m in &compiled.checked.models {
            if code.contains(&format!("pub struct {}Batch<", m.name)) {
                let name = &m.name;
                let batch = format!("{module}::{name}Batch<8>");
                let _ = writeln!(
                    registry,
                    "        ({stem:?}, {name:?}, {dt:?}, {steps}, crate::check::<{batch}>),"
                );
                let _ = writeln!(
                    impls,
                    "impl crate::Lanes for {batch} {{\n    type Scalar = {module}::{name};\n    fn splat(m: &Self::Scalar) -> Self {{ Self::splat(m) }}\n    fn lane(&self, i: usize) -> Option<Self::Scalar> {{ Self::lane(self, i) }}\n    fn set_lane(&mut self, i: usize, m: &Self::Scalar) -> bool {{ Self::set_lane(self, i, m) }}\n    fn step(&mut self, dt: f64) {{ Self::step(self, dt) }}\n    fn reset(&mut self) {{ Self::reset(self) }}\n}}"
                );
            }
        }
    }
    registry.push_str("    ]\n}\n");
    write_if_changed(&out.join("models.rs"), &(modules + &impls + &registry));
}

/// `--dt` and `--t-end` of the `Run:` line of a model's documentation, or `sitc run`'s
/// defaults (0.01, 10).
fn run_line(text: &str) -> (f64, f64) {
    let line = text
        .lines()
        .find(|l| l.contains("Run: `sitc run"))
        .unwrap_or("");
    let words: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_end_matches('`'))
        .collect();
    let after = |flag: &str| {
        let i = words.iter().position(|w| *w == flag)?;
        words.get(i + 1)?.parse::<f64>().ok()
    };
    (
        after("--dt").unwrap_or(0.01),
        after("--t-end").unwrap_or(10.0),
    )
}

fn write_if_changed(path: &Path, text: &str) {
    sit_build::write_if_changed(path, text).expect("OUT_DIR is writable");
}
