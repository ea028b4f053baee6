//! Compiled sweeps against the interpreter's: the same study of Van der Pol and of the
//! hoop run by `sit_runtime::sweep` on the interpreted model and by the model's compiled
//! batch form (`sit_host::compiled`, the engine of `sitc sweep --compiled`), on 1 and 2
//! threads, rows checked bit for bit; the compiled runner's build is excluded (it is
//! built, or found in the cache, before the clock starts).
//!
//! Run: `cargo bench -p sit-bench --bench sweep` (see `docs/performance.md`, "Compiled
//! sweeps"). `SIT_BENCH_SETS` scales the number of parameter sets (default 2048),
//! `SIT_BENCH_THREADS` lists the thread counts (default `1,2`), `SIT_CACHE_DIR` chooses
//! the cache of the compiled runners.

use sit_host::compiled::{self, Progress, Tools};
use sit_host::study::{Ask, Study};
use sit_host::summary::Summary;
use sit_runtime::drive::Driven;
use std::path::Path;
use std::time::Instant;

/// One study: a model file, its swept param and range, the step and the steps.
struct Case {
    file: &'static str,
    param: &'static str,
    lo: f64,
    hi: f64,
    dt: f64,
    steps: u64,
}

const CASES: &[Case] = &[
    Case {
        file: "examples/models/van_der_pol.sit",
        param: "mu",
        lo: 0.0,
        hi: 3.0,
        dt: 0.01,
        steps: 10_000,
    },
    Case {
        file: "examples/models/hoop.sit",
        param: "k_press",
        lo: 40_000.0,
        hi: 80_000.0,
        dt: 1e-4,
        steps: 10_000,
    },
];

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sets: usize = env_or("SIT_BENCH_SETS", "2048")
        .parse()
        .expect("a number of sets");
    let threads: Vec<usize> = env_or("SIT_BENCH_THREADS", "1,2")
        .split(',')
        .map(|t| t.trim().parse().expect("a thread count"))
        .collect();
    for case in CASES {
        let file = root.join(case.file);
        let loaded = sit_host::load_file(&file, None).expect("the model loads");
        let model = Driven::new(loaded.instance, Vec::new());
        let axes = [(
            case.param.to_string(),
            sit_runtime::sweep::linspace(case.lo, case.hi, sets),
        )];
        let summaries =
            Summary::parse_all(["final", "max", "first-crossing=0"]).expect("summaries");
        let ask = Ask {
            axes: &axes,
            fixed: &[],
            record: None::<&[&str]>,
            summaries: &summaries,
            dt: case.dt,
            steps: case.steps,
        };
        let study = Study::new(&model, &ask).expect("the study");
        let source = sit_driver::Source::path(&file);
        let prepared = compiled::prepare(&source, None, None).expect("the code");
        let progress = |p: Progress| {
            if let Progress::Building { model, .. } = p {
                eprintln!("building the compiled sweep of {model}...");
            }
        };
        let runner = prepared
            .runner(&Tools::from_env(), &progress)
            .expect("the runner builds");
        let work = (sets as f64) * (case.steps as f64);
        for &t in &threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a pool");
            let start = Instant::now();
            let interpreted = pool
                .install(|| study.sweep.run(&model, &study.sets))
                .expect("the interpreted sweep");
            let interp_ns = start.elapsed().as_secs_f64() * 1e9 / work;
            let start = Instant::now();
            let rows = runner
                .run(
                    &model.model,
                    study.sweep.columns(),
                    &study.sets,
                    case.dt,
                    case.steps,
                    t,
                    model.inputs(),
                )
                .expect("the compiled sweep");
            let compiled_ns = start.elapsed().as_secs_f64() * 1e9 / work;
            let same = rows.len() == interpreted.len()
                && rows.iter().zip(&interpreted).all(|(c, i)| {
                    c.row.len() == i.len()
                        && c.row.iter().zip(i).all(|(a, b)| a.to_bits() == b.to_bits())
                });
            assert!(
                same,
                "{}: compiled rows differ from the interpreter's",
                case.file
            );
            println!(
                "{:<12} {sets} sets x {} steps, {t} thread(s): interpreter {interp_ns:.2} ns, \
                 compiled {compiled_ns:.2} ns per instance-step: {:.1}x (rows bit-identical)",
                prepared.name,
                case.steps,
                interp_ns / compiled_ns
            );
        }
    }
}
