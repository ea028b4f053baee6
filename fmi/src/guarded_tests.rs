//! [`Instance::guarded`]: a fault of the model gives `fmi2Fatal` logged with its own
//! message, whatever the message says; any other panic gives `fmi2Fatal` as a bug.

use crate::instance::{Fmu, Instance, Status};
use sit_runtime::{FaultKind, Model, ModelFault, SetError, VarInfo};
use std::sync::{Arc, Mutex};

/// A model whose step at time ≥ 1 stops with a fault of the model, its message
/// reworded from any that the runtime writes.
#[derive(Clone, Default)]
struct Faulty {
    time: f64,
}

impl Model for Faulty {
    fn step(&mut self, dt: f64) {
        if self.time >= 1.0 {
            ModelFault::new(
                "Faulty",
                self.time,
                FaultKind::PhaseOverrun { limit: 3 },
                "Faulty stopped",
            )
            .raise();
        }
        self.time += dt;
    }
    fn reset(&mut self) {
        self.time = 0.0;
    }
    fn time(&self) -> f64 {
        self.time
    }
    fn var_count(&self) -> usize {
        0
    }
    fn var_info(&self, _: usize) -> Option<VarInfo<'_>> {
        None
    }
    fn get_at(&self, _: usize) -> Option<f64> {
        None
    }
    fn set_at(&mut self, index: usize, _: f64) -> Result<(), SetError<'static>> {
        Err(SetError::Unknown(index.into()))
    }
}

static FMU: Fmu = Fmu {
    guid: "{test}",
    dt: 0.5,
    access: &[],
    log_categories: &[],
    model: "M",
    allow_non_finite: false,
    directional: &[],
    sensitive: &[],
};

/// An initialised instance of [`Faulty`], and what it logs as fatal.
fn instance() -> (Instance<Faulty>, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let logged = Arc::clone(&log);
    let mut i = Instance::<Faulty>::new(
        &FMU,
        Box::new(move |status, _, message| {
            if status == Status::Fatal {
                logged.lock().unwrap().push(message.to_string());
            }
        }),
    );
    let ready = [
        i.setup_experiment(0.0),
        i.enter_initialization_mode(),
        i.exit_initialization_mode(),
    ];
    assert_eq!(ready, [Status::Ok; 3]);
    (i, log)
}

#[test]
fn a_fault_is_fatal_with_its_own_message() {
    let (mut i, log) = instance();
    let statuses: Vec<Status> = (0..3)
        .map(|k| i.guarded(|i| i.do_step(f64::from(k), 1.0)))
        .collect();
    // The step from t = 1 stops.
    assert_eq!(statuses, [Status::Ok, Status::Fatal, Status::Error]);
    assert!(i.is_fatal());
    assert_eq!(
        *log.lock().unwrap(),
        ["Faulty stopped; the instance is unusable"]
    );
}

#[test]
fn another_panic_is_fatal_as_a_bug() {
    let (mut i, log) = instance();
    assert_eq!(i.guarded(|_| panic!("index out of bounds")), Status::Fatal);
    assert!(i.is_fatal());
    assert_eq!(
        *log.lock().unwrap(),
        ["the model panicked; the instance is unusable"]
    );
}
