//! A model built from components joined by `connect` against the same physics written by
//! hand as ordered rules, both generated: the cost of the components (issue 46's goal:
//! within 1.2x). `tests/components_vs_hand.rs` checks that the pairs agree.
//!
//! Run: `cargo bench -p sit-bench --bench components` (see `docs/performance.md`).

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use sit_bench::components::{dc_motor, dc_motor_hand, rlc_hand, rlc_parts};
use sit_runtime::Model;

/// Steps per measured iteration.
const STEPS: usize = 1024;

fn main() {
    divan::main();
}

/// `STEPS` steps of `dt` of a fresh `m`.
fn chain<M: Model + Clone>(b: Bencher, m: M, dt: f64) {
    b.counter(ItemsCount::new(STEPS))
        .with_inputs(|| m.clone())
        .bench_local_refs(|m| {
            let dt = black_box(dt);
            for _ in 0..STEPS {
                m.step(dt);
            }
        });
}

#[divan::bench]
fn rlc_parts(b: Bencher) {
    chain(b, rlc_parts::RlcParts::new(), 1e-4);
}

#[divan::bench]
fn rlc_hand(b: Bencher) {
    chain(b, rlc_hand::RlcHand::new(), 1e-4);
}

#[divan::bench]
fn dc_motor_parts(b: Bencher) {
    chain(b, dc_motor::DcMotor::new(), 1e-3);
}

#[divan::bench]
fn dc_motor_hand(b: Bencher) {
    chain(b, dc_motor_hand::DcMotorHand::new(), 1e-3);
}
