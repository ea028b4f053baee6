//! The cost of the event log: a step with the log on against the same step with it off,
//! for the generated code (built with `Builder::events(true)` and wrapped in
//! `sit_runtime::events::Logged`, against the plain build) and for the interpreter
//! (`Instance::with_events` against `Instance::new`).
//!
//! Each measured iteration runs [`STEPS`] steps of a fresh copy of a warmed-up instance
//! (the warm-up of `sit_bench::CASES`, so the thermostat's window holds a switching).
//! Run: `cargo bench -p sit-bench --bench events` (see `docs/performance.md`, "The
//! event log").

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use sit_bench::{CASES, WORKSPACE, generated};
use sit_runtime::Model;
use sit_runtime::events::Logged;

/// Steps per measured iteration.
const STEPS: usize = 1024;

#[allow(missing_docs, dead_code, clippy::all)]
mod logged {
    pub mod thermostat {
        include!(concat!(env!("OUT_DIR"), "/events/thermostat.rs"));
    }
    pub mod coordinator {
        include!(concat!(env!("OUT_DIR"), "/events/coordinator.rs"));
    }
}

fn main() {
    divan::main();
}

/// `m` after the warm-up of case `name`, with no events kept, and the case's step.
fn warmed<M: Model>(name: &str, mut m: M, clear: fn(&mut M)) -> (M, f64) {
    let case = CASES.iter().find(|c| c.name == name).expect("a case");
    for _ in 0..case.warmup {
        m.step(case.dt);
    }
    clear(&mut m);
    (m, case.dt)
}

fn chain<M: Model + Clone>(b: Bencher, (m, dt): (M, f64)) {
    b.counter(ItemsCount::new(STEPS))
        .with_inputs(|| m.clone())
        .bench_local_refs(|m| {
            let dt = black_box(dt);
            for _ in 0..STEPS {
                m.step(dt);
            }
        });
}

fn keep<M>(_: &mut M) {}

fn drop_events<M: Model>(m: &mut Logged<M>) {
    m.take_events();
}

fn program(name: &str) -> (sit_middle::ir::Program, sit_middle::ir::ModelId) {
    let case = CASES.iter().find(|c| c.name == name).expect("a case");
    let path = format!("{WORKSPACE}/{}", case.file);
    let program = sit_middle::check_file(&path)
        .expect("readable")
        .program
        .expect("checks");
    let root = program.model(case.model).expect("the model");
    (program, root)
}

macro_rules! cases {
    ($name:ident, $case:literal, $plain:ty, $logged:ty) => {
        mod $name {
            use super::*;

            #[divan::bench]
            fn generated_off(b: Bencher) {
                chain(b, warmed($case, <$plain>::new(), keep));
            }

            #[divan::bench]
            fn generated_on(b: Bencher) {
                let m = Logged::new(<$logged>::new(), <$logged>::event_table()).unwrap();
                chain(b, warmed($case, m, drop_events));
            }

            #[divan::bench]
            fn interpreted_off(b: Bencher) {
                let (p, root) = program($case);
                chain(
                    b,
                    warmed(
                        $case,
                        sit_interp::Instance::new(
                            &sit_middle::lower::Lowered::new(&p, Default::default())
                                .expect("lowers"),
                            root,
                        ),
                        keep,
                    ),
                );
            }

            #[divan::bench]
            fn interpreted_on(b: Bencher) {
                let (p, root) = program($case);
                let m = sit_interp::Instance::with_events(
                    &sit_middle::lower::Lowered::new(
                        &p,
                        sit_middle::lower::Prepare {
                            events: true,
                            ..Default::default()
                        },
                    )
                    .expect("lowers"),
                    root,
                )
                .unwrap();
                chain(b, warmed($case, m, drop_events));
            }
        }
    };
}

cases!(
    thermostat,
    "thermostat",
    generated::thermostat::Thermostat,
    logged::thermostat::Thermostat
);
cases!(
    coordinator,
    "coordinator",
    generated::coordinator::Coordinator,
    logged::coordinator::Coordinator
);
