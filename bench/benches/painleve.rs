//! The Painlevé rod's three bounces (1.3 s) three ways, in the interpreter: each impact
//! an instantaneous phase solved in fast time (`rod.sit`, flight step 1e-3, fast step
//! 1e-4), and the compliant plane at μ = 1e8 (`rod_compliant.sit`, steps of 2.5e-6 s in
//! contact: about 100 per 0.25 ms contact) with the small step everywhere, or with a
//! host step of 1e-4 s divided into 40 sub-steps only near and in contact.
//! Run: `cargo bench -p sit-bench --bench painleve` (see `docs/performance.md`).

use divan::Bencher;
use sit_bench::WORKSPACE;
use sit_runtime::Model;

fn main() {
    divan::main();
}

/// The model `name` of `examples/models/painleve/FILE`, with `sets` applied.
fn load(file: &str, name: &str, sets: &[(&str, f64)]) -> sit_interp::Instance {
    let path = format!("{WORKSPACE}/examples/models/painleve/{file}");
    let mut m = sit_host::load_file(&path, Some(name))
        .map(|l| l.instance)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    for (n, v) in sets {
        m.set(n, *v).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
    m.reset();
    m
}

/// Runs `m` (cloned outside the measurement) for 1.3 s with step `dt`; returns the
/// number of contacts counted by `counter`.
fn bounces(b: Bencher, m: sit_interp::Instance, dt: f64, counter: &str) {
    let steps = (1.3 / dt).round() as usize;
    b.with_inputs(|| m.clone()).bench_local_values(|mut m| {
        for _ in 0..steps {
            m.step(dt);
        }
        let n = m.get(counter).unwrap_or(0.0);
        assert!(n >= 3.0, "{counter} = {n}");
        n
    });
}

#[divan::bench(sample_count = 10)]
fn impacts_as_phases(b: Bencher) {
    bounces(b, load("rod.sit", "Rod", &[]), 1e-3, "bounces");
}

/// The compliant rod at μ = 1e8 with sub-steps of S*/√μ/100 = 2.5e-6 s in contact (a
/// step of at most that length is not divided).
fn compliant() -> sit_interp::Instance {
    load(
        "rod_compliant.sit",
        "RodCompliant",
        &[("mu", 1e8), ("per_contact", 100.0)],
    )
}

#[divan::bench(sample_count = 3)]
fn compliant_small_step_everywhere(b: Bencher) {
    bounces(b, compliant(), 2.5e-6, "contacts");
}

#[divan::bench(sample_count = 10)]
fn compliant_substeps_in_contact(b: Bencher) {
    bounces(b, compliant(), 1e-4, "contacts");
}
