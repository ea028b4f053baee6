//! The cost of exact time: `Clock::advance` (the step count times the step's decimal)
//! against the sum `t += dt` it replaced, and `timer` against a summing timer.
//!
//! Each iteration runs [`STEPS`] dependent updates (each waits for the previous one),
//! as a model's step does once per step. Run: `cargo bench -p sit-bench --bench clock`
//! (see `docs/performance.md`, "Exact time").

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use sit_runtime::{Clock, timer};

/// Updates per measured iteration.
const STEPS: usize = 1024;

fn main() {
    divan::main();
}

/// Steps of the benchmarks: a short decimal, a longer one, and one with no decimal.
const DTS: [f64; 3] = [0.01, 1e-4, 1.0 / 3.0];

#[divan::bench(args = DTS)]
fn sum(b: Bencher, dt: f64) {
    b.counter(ItemsCount::new(STEPS)).bench_local(|| {
        let mut t = 0.0f64;
        for _ in 0..STEPS {
            t += black_box(dt);
        }
        t
    });
}

#[divan::bench(args = DTS)]
fn clock(b: Bencher, dt: f64) {
    b.counter(ItemsCount::new(STEPS)).bench_local(|| {
        let mut c = Clock::new();
        let mut t = 0.0;
        for _ in 0..STEPS {
            t = c.advance(black_box(dt));
        }
        t
    });
}

#[divan::bench(args = DTS)]
fn summing_timer(b: Bencher, dt: f64) {
    b.counter(ItemsCount::new(STEPS)).bench_local(|| {
        let mut y = 0.0f64;
        for _ in 0..STEPS {
            y = if black_box(true) {
                y + black_box(dt)
            } else {
                0.0
            };
        }
        y
    });
}

#[divan::bench(args = DTS)]
fn exact_timer(b: Bencher, dt: f64) {
    b.counter(ItemsCount::new(STEPS)).bench_local(|| {
        let mut y = 0.0;
        for _ in 0..STEPS {
            y = timer(y, black_box(true), black_box(dt));
        }
        y
    });
}
