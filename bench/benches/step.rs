//! One step of each example model: generated code against hand-written Rust and the interpreter.
//!
//! Per model, three subjects run the same trajectory from the same initial state:
//! `generated` (the `sit-codegen` output), `hand` (`sit_bench::hand`, checked
//! bit-identical by `tests/hand_vs_generated.rs`) and `interpreted`
//! (`sit_interp::Instance`); a fourth, `watched` (chain shape only), is the interpreter
//! as `sitc run`, sweeps and Python step it: each step followed by the look for a
//! non-finite value (`sit_runtime::finite::Watch`), the guard against that look
//! costing as much as the step again (issue 48). Two shapes:
//!
//! - `chain`: [`STEPS`] steps of one instance, each step waiting for the previous
//!   one (latency of the dependency chain within one trajectory);
//! - `batch`: one step of each of [`BATCH`] independent instances, [`STEPS`] /
//!   [`BATCH`] times (throughput across instances, which the CPU can overlap).
//!
//! Both count [`STEPS`] steps per iteration, so their times compare directly. Each
//! iteration starts from the same state: the model's initial state after the case's
//! warm-up steps (`sit_bench::Case::warmup`).
//! Run: `cargo bench -p sit-bench --bench step` (see `docs/performance.md`).

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use sit_bench::generated;
use sit_bench::{CASES, Case, WORKSPACE, hand};

/// Steps per measured iteration.
const STEPS: usize = 1024;
/// Independent instances in a `batch` iteration.
const BATCH: usize = 64;

fn main() {
    divan::main();
}

/// Something that steps: the three subjects behind one generic bench body, so that
/// each is monomorphised and inlined the same way.
trait Stepper: Clone {
    fn advance(&mut self, dt: f64);
}

macro_rules! stepper {
    ($($t:ty),+) => {
        $(impl Stepper for $t {
            #[inline]
            fn advance(&mut self, dt: f64) {
                self.step(dt);
            }
        })+
    };
}

stepper!(
    generated::pendulum::Pendulum,
    hand::Pendulum,
    generated::van_der_pol::VanDerPol,
    hand::VanDerPol,
    generated::thermostat::Thermostat,
    hand::Thermostat,
    generated::hoop::Hoop,
    hand::Hoop,
    generated::coordinator::Coordinator,
    hand::Coordinator
);

impl Stepper for sit_interp::Instance {
    #[inline]
    fn advance(&mut self, dt: f64) {
        sit_runtime::Model::step(self, dt);
    }
}

/// The interpreter with the hosts' watch for a non-finite value after each step.
#[derive(Clone)]
struct Watched(sit_interp::Instance, sit_runtime::finite::Watch);

impl Stepper for Watched {
    #[inline]
    fn advance(&mut self, dt: f64) {
        let from = sit_runtime::Model::time(&self.0);
        sit_runtime::Model::step(&mut self.0, dt);
        self.1.look(&self.0, Some(from));
    }
}

/// The benchmark case called `name` (a bench of this file names a case of `CASES`).
fn case(name: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no benchmark case `{name}`"))
}

/// The interpreter instance of `case`'s model.
fn interpreted(name: &str) -> sit_interp::Instance {
    let case = case(name);
    let path = format!("{WORKSPACE}/{}", case.file);
    sit_host::load_file(&path, Some(case.model))
        .map(|l| l.instance)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `m` after the warm-up steps of case `name`, and the case's step.
fn warmed<T: Stepper>(name: &str, mut m: T) -> (T, f64) {
    let case = case(name);
    for _ in 0..case.warmup {
        m.advance(case.dt);
    }
    (m, case.dt)
}

/// `STEPS` steps of one fresh instance (cloned from `m` outside the measurement).
fn chain<T: Stepper>(b: Bencher, (m, dt): (T, f64)) {
    b.counter(ItemsCount::new(STEPS))
        .with_inputs(|| m.clone())
        .bench_local_refs(|m| {
            let dt = black_box(dt);
            for _ in 0..STEPS {
                m.advance(dt);
            }
        });
}

/// `STEPS / BATCH` rounds of one step of each of `BATCH` fresh instances.
fn batch<T: Stepper>(b: Bencher, (m, dt): (T, f64)) {
    b.counter(ItemsCount::new(STEPS))
        .with_inputs(|| vec![m.clone(); BATCH])
        .bench_local_refs(|ms| {
            let dt = black_box(dt);
            for _ in 0..STEPS / BATCH {
                for m in ms.iter_mut() {
                    m.advance(dt);
                }
            }
        });
}

macro_rules! model {
    ($name:ident, $generated:ty, $hand:ty) => {
        /// Benchmarks of one model (see the file's doc).
        mod $name {
            use super::*;

            #[divan::bench]
            fn chain_generated(b: Bencher) {
                chain(b, warmed(stringify!($name), <$generated>::new()));
            }

            #[divan::bench]
            fn chain_hand(b: Bencher) {
                chain(b, warmed(stringify!($name), <$hand>::new()));
            }

            #[divan::bench]
            fn chain_interpreted(b: Bencher) {
                chain(b, warmed(stringify!($name), interpreted(stringify!($name))));
            }

            #[divan::bench]
            fn chain_watched(b: Bencher) {
                let m = Watched(interpreted(stringify!($name)), Default::default());
                chain(b, warmed(stringify!($name), m));
            }

            #[divan::bench]
            fn batch_generated(b: Bencher) {
                batch(b, warmed(stringify!($name), <$generated>::new()));
            }

            #[divan::bench]
            fn batch_hand(b: Bencher) {
                batch(b, warmed(stringify!($name), <$hand>::new()));
            }

            #[divan::bench]
            fn batch_interpreted(b: Bencher) {
                batch(b, warmed(stringify!($name), interpreted(stringify!($name))));
            }
        }
    };
}

model!(pendulum, generated::pendulum::Pendulum, hand::Pendulum);
model!(
    van_der_pol,
    generated::van_der_pol::VanDerPol,
    hand::VanDerPol
);
model!(
    thermostat,
    generated::thermostat::Thermostat,
    hand::Thermostat
);
model!(hoop, generated::hoop::Hoop, hand::Hoop);
model!(
    coordinator,
    generated::coordinator::Coordinator,
    hand::Coordinator
);
