//! `fmi2DoStep` logs the first non-finite value once (`logStatusWarning`), returns
//! `fmi2OK`, and logs again only after `fmi2Reset`.

use crate::instance::{Fmu, Instance, Status};
use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind};
use std::sync::{Arc, Mutex};

/// `x = sqrt(1 - t)`, computed in each step: NaN from t > 1.
#[derive(Clone, Default)]
struct Root {
    time: f64,
    x: f64,
}

impl Model for Root {
    fn step(&mut self, dt: f64) {
        self.time += dt;
        self.x = sit_runtime::math::sqrt(1.0 - self.time);
    }
    fn reset(&mut self) {
        *self = Root::default();
    }
    fn time(&self) -> f64 {
        self.time
    }
    fn var_count(&self) -> usize {
        1
    }
    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        (index == 0).then_some(VarInfo {
            name: "x",
            kind: VarKind::State,
            ty: ValueType::Real,
            output: true,
            settable: false,
        })
    }
    fn get_at(&self, index: usize) -> Option<f64> {
        (index == 0).then_some(self.x)
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
};

type Log = Arc<Mutex<Vec<(Status, String, String)>>>;

fn ready(i: &mut Instance<Root>) {
    let ready = [
        i.setup_experiment(0.0),
        i.enter_initialization_mode(),
        i.exit_initialization_mode(),
    ];
    assert_eq!(ready, [Status::Ok; 3]);
}

fn instance() -> (Instance<Root>, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let logged = Arc::clone(&log);
    let mut i = Instance::<Root>::new(
        &FMU,
        Box::new(move |status, category, message| {
            let entry = (status, category.to_string(), message.to_string());
            logged.lock().unwrap().push(entry);
        }),
    );
    ready(&mut i);
    (i, log)
}

#[test]
fn the_first_non_finite_value_is_logged_once_per_instance() {
    let (mut i, log) = instance();
    // 0 → 1: x = sqrt(0.5), sqrt(0): finite. 1 → 2: sqrt(-0.5) is NaN at t = 1.5.
    let statuses: Vec<Status> = (0..4).map(|k| i.do_step(f64::from(k), 1.0)).collect();
    assert_eq!(statuses, [Status::Ok; 4]);
    let warning = (
        Status::Warning,
        "logStatusWarning".to_string(),
        "fmi2DoStep: `x` became NaN in the step from t = 1 to t = 2; the values after it \
         may be NaN or infinite (logged once)"
            .to_string(),
    );
    assert_eq!(*log.lock().unwrap(), std::slice::from_ref(&warning));
    // A reset starts again: the next run is reported too.
    assert_eq!(i.reset(), Status::Ok);
    ready(&mut i);
    for k in 0..3 {
        assert_eq!(i.do_step(f64::from(k), 1.0), Status::Ok);
    }
    assert_eq!(*log.lock().unwrap(), [warning.clone(), warning]);
}
