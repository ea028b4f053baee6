//! The cost of the summaries between the rows (issue 47, item 6): one study of the RLC
//! circuit under `dopri5` collecting `max`, `min` and `first-crossing` of both states,
//! run with the summaries kept by the lowering (`sit_host::between`: hidden states over
//! every internal step) and with the same columns taken at the rows (the model lowered
//! without them), in the interpreter and in the compiled batch form, one thread each;
//! the ratio of the two times per host step is the cost. The compiled runners are built
//! (or found in the cache) before the clock starts.
//!
//! Run: `cargo bench -p sit-bench --bench between` (see `docs/performance.md`, section
//! 29). `SIT_BENCH_SETS` scales the number of parameter sets (default 256), `SIT_CACHE_DIR`
//! chooses the cache of the compiled runners.

use sit_host::between::{Between, probes};
use sit_host::compiled::{self, Progress, Tools};
use sit_host::study::{Ask, Study};
use sit_host::summary::Summary;
use sit_runtime::drive::Driven;
use sit_runtime::sweep::Sweep;
use std::path::Path;
use std::time::Instant;

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sets: usize = std::env::var("SIT_BENCH_SETS")
        .unwrap_or_else(|_| "256".into())
        .parse()
        .expect("a number of sets");
    let file = root.join("examples/models/rlc.sit");
    let method = sit_middle::ir::Method::ALL
        .iter()
        .copied()
        .find(|m| m.name() == "dopri5");
    // 200 host steps of 10 ms (a sixth of the period), rtol 1e-6.
    let (dt, steps) = (0.01, 200);
    let opts = sit_driver::Options {
        method,
        ..Default::default()
    };
    let (plain, _) = sit_host::load_file_options(&file, None, &opts).expect("the model loads");
    let model = Driven::new(plain.instance, Vec::new());
    let axes = [(
        "R".to_string(),
        sit_runtime::sweep::linspace(1.0, 10.0, sets),
    )];
    let summaries = Summary::parse_all(["max", "min", "first-crossing=-0.5"]).expect("summaries");
    let ask = Ask {
        axes: &axes,
        fixed: &[],
        record: None::<&[&str]>,
        summaries: &summaries,
        dt,
        steps,
    };
    let study = Study::new(&model, &ask).expect("the study");
    let asked = study.sweep.columns().to_vec();
    let entries = plain.lowered.variables(plain.root).expect("variables");
    let kept = probes(&entries, &asked, steps);
    let opts_probed = sit_driver::Options {
        probes: kept.clone(),
        ..opts.clone()
    };
    let (probed, _) =
        sit_host::load_file_options(&file, None, &opts_probed).expect("the model loads");
    let between = Between::of(&probed.lowered, probed.root, &asked, steps);
    assert!(
        between.kept.iter().all(Option::is_some),
        "every column kept"
    );
    let probed_model = Driven::new(probed.instance, Vec::new());
    let columns = between.columns(&asked);
    let sweep = (columns.iter().copied()).fold(Sweep::new(dt, steps), |s, c| s.collect(c));

    let source = sit_driver::Source::path(&file);
    let progress = |p: Progress| {
        if let Progress::Building { model, .. } = p {
            eprintln!("building the compiled sweep of {model}...");
        }
    };
    let tools = Tools::from_env();
    let rows_runner = compiled::prepare(&source, None, method)
        .and_then(|p| p.runner(&tools, &progress))
        .expect("the runner builds");
    let kept_runner = compiled::prepare_with(&source, None, method, &kept)
        .and_then(|p| p.runner(&tools, &progress))
        .expect("the runner builds");

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let work = (sets as f64) * (steps as f64);
    let time = |f: &dyn Fn()| {
        // The best of three, per host step of one set.
        (0..3)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64() * 1e9 / work
            })
            .fold(f64::INFINITY, f64::min)
    };
    let at_rows = time(&|| {
        pool.install(|| study.sweep.run(&model, &study.sets))
            .expect("the sweep");
    });
    let between_ns = time(&|| {
        pool.install(|| sweep.run(&probed_model, &study.sets))
            .expect("the sweep");
    });
    let run = |runner: &compiled::Runner, m: &Driven<sit_interp::Instance>, c: &[_]| {
        runner
            .run(&m.model, c, &study.sets, dt, steps, 1, &[])
            .expect("the compiled sweep")
    };
    let c_rows = time(&|| {
        run(&rows_runner, &model, &asked);
    });
    let c_between = time(&|| {
        run(&kept_runner, &probed_model, &columns);
    });
    // The compiled rows are the interpreter's, bit for bit.
    let interpreted = sweep.run(&probed_model, &study.sets).expect("the sweep");
    let compiled = run(&kept_runner, &probed_model, &columns);
    assert!(
        compiled.iter().zip(&interpreted).all(|(c, i)| c
            .row
            .iter()
            .zip(i)
            .all(|(a, b)| a.to_bits() == b.to_bits())),
        "compiled rows differ from the interpreter's"
    );
    println!(
        "RLC, dopri5, {sets} sets x {steps} host steps of {dt}, 6 columns, 1 thread:\n  \
         interpreter: at the rows {at_rows:.0} ns, between the rows {between_ns:.0} ns per \
         host step: {:.2}x\n  compiled:    at the rows {c_rows:.0} ns, between the rows \
         {c_between:.0} ns per host step: {:.2}x",
        between_ns / at_rows,
        c_between / c_rows
    );
}
