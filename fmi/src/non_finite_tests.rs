//! `fmi2DoStep` returns `fmi2Error` at a non-finite value, logged (`logStatusError`);
//! for a model that says `#[allow(non_finite, …)]` it logs the first one once
//! (`logStatusWarning`), returns `fmi2OK`, and logs again only after `fmi2Reset`;
//! `fmi2Terminate` logs each table read past its grid and each model found stiff.

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
    model: "M",
    allow_non_finite: false,
    directional: &[],
    sensitive: &[],
};

type Log = Arc<Mutex<Vec<(Status, String, String)>>>;

fn ready<M: Model + Clone + Default>(i: &mut Instance<M>) {
    let ready = [
        i.setup_experiment(0.0),
        i.enter_initialization_mode(),
        i.exit_initialization_mode(),
    ];
    assert_eq!(ready, [Status::Ok; 3]);
}

/// An instance of `M` described by `fmu`, initialized, whose logger keeps every message.
fn logged<M: Model + Clone + Default>(fmu: &'static Fmu) -> (Instance<M>, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let logged = Arc::clone(&log);
    let mut i = Instance::<M>::new(
        fmu,
        Box::new(move |status, category, message| {
            let entry = (status, category.to_string(), message.to_string());
            logged.lock().unwrap().push(entry);
        }),
    );
    ready(&mut i);
    (i, log)
}

/// [`FMU`] of a model that says `#[allow(non_finite, …)]`.
static ALLOWED: Fmu = Fmu {
    allow_non_finite: true,
    directional: &[],
    sensitive: &[],
    ..FMU
};

fn instance() -> (Instance<Root>, Log) {
    logged(&ALLOWED)
}

#[test]
fn a_non_finite_value_is_an_error_of_the_step() {
    let (mut i, log) = logged::<Root>(&FMU);
    // 0 → 1: x = sqrt(0.5), sqrt(0): finite. 1 → 2: sqrt(-0.5) is NaN at t = 1.5.
    assert_eq!(i.do_step(0.0, 1.0), Status::Ok);
    assert_eq!(i.do_step(1.0, 1.0), Status::Error);
    let error = (
        Status::Error,
        "logStatusError".to_string(),
        "fmi2DoStep: `x` became NaN in the step from t = 1 to t = 2; `sitc run` with the \
         same values names the rule that made it (a model that means a value to be infinite \
         says #[allow(non_finite, reason = \"…\")])"
            .to_string(),
    );
    assert_eq!(*log.lock().unwrap(), [error]);
    // The step's values are kept: the master may read them, and reset.
    let mut x = [0.0];
    assert_eq!(i.get_real(&[0], &mut x), Status::Ok);
    assert!(x[0].is_nan());
    assert_eq!(i.reset(), Status::Ok);
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

/// A model whose only table, `heat(T)` over 0 … 100 with `clamp`, is read at `T = time`
/// (0, 50, 100, 150, … after each step of 50) by two instances, counted as generated
/// code counts.
#[derive(Clone)]
struct Heated {
    time: f64,
    reach: [sit_runtime::table::TableReach; 2],
}

impl Default for Heated {
    fn default() -> Self {
        let fresh = sit_runtime::table::TableReach::new(
            &[&[0.0, 100.0]],
            sit_runtime::table::Beyond::Clamp,
        );
        Heated {
            time: 0.0,
            reach: [fresh; 2],
        }
    }
}

impl Model for Heated {
    fn step(&mut self, dt: f64) {
        self.time += dt;
        for r in &mut self.reach {
            r.note1(self.time);
        }
    }
    fn reset(&mut self) {
        *self = Heated::default();
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
    fn table_reach(
        &self,
        visit: &mut dyn FnMut(&sit_runtime::table::TableDecl<'_>, &sit_runtime::table::TableReach),
    ) -> bool {
        let decl = sit_runtime::table::TableDecl {
            name: "heat",
            args: &["T"],
            key: 7,
        };
        for r in &self.reach {
            visit(&decl, r);
        }
        true
    }
}

static HEATED: Fmu = Fmu {
    guid: "{heated}",
    dt: 50.0,
    access: &[],
    log_categories: &[],
    model: "M",
    allow_non_finite: false,
    directional: &[],
    sensitive: &[],
};

#[test]
fn tables_read_past_their_grids_are_logged_at_terminate() {
    let (mut i, log) = logged::<Heated>(&HEATED);
    // Steps to t = 50, 100, 150, 200: two reads past 100 in each instance.
    assert_eq!(i.do_step(0.0, 200.0), Status::Ok);
    assert!(
        log.lock().unwrap().is_empty(),
        "nothing before fmi2Terminate"
    );
    assert_eq!(i.terminate(), Status::Ok);
    assert_eq!(
        *log.lock().unwrap(),
        [(
            Status::Warning,
            "logStatusWarning".to_string(),
            "fmi2Terminate: table `heat` was read at T = 50 … 200 outside its grid 0 … 100 \
             (4 of 8 reads); it held its end values (clamp)"
                .to_string(),
        )]
    );
}

/// A model whose adaptive method's stiffness test (its hidden states
/// `dopri5_stiff_seen`, `dopri5_stiff_at`, as the rewrite names them) finds it stiff from
/// t = 1.5 once it has stepped past t = 2.
#[derive(Clone, Default)]
struct Stiff {
    time: f64,
    seen: f64,
}

impl Model for Stiff {
    fn step(&mut self, dt: f64) {
        self.time += dt;
        if self.time > 2.0 {
            self.seen = 1.0;
        }
    }
    fn reset(&mut self) {
        *self = Stiff::default();
    }
    fn time(&self) -> f64 {
        self.time
    }
    fn var_count(&self) -> usize {
        0
    }
    fn hidden_count(&self) -> usize {
        2
    }
    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        let name = ["dopri5_stiff_seen", "dopri5_stiff_at"].get(index)?;
        Some(VarInfo {
            name,
            kind: VarKind::State,
            ty: ValueType::Real,
            output: false,
            settable: true,
        })
    }
    fn get_at(&self, index: usize) -> Option<f64> {
        [self.seen, 1.5].get(index).copied()
    }
    fn set_at(&mut self, index: usize, _: f64) -> Result<(), SetError<'static>> {
        Err(SetError::Unknown(index.into()))
    }
}

static STIFF: Fmu = Fmu {
    guid: "{test}",
    dt: 0.5,
    access: &[],
    log_categories: &[],
    model: "Rober",
    allow_non_finite: false,
    directional: &[],
    sensitive: &[],
};

#[test]
fn a_model_found_stiff_is_logged_once_at_terminate() {
    let (mut i, log) = logged::<Stiff>(&STIFF);
    assert_eq!(i.do_step(0.0, 3.0), Status::Ok);
    assert!(
        log.lock().unwrap().is_empty(),
        "nothing before fmi2Terminate"
    );
    assert_eq!(i.terminate(), Status::Ok);
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].0, Status::Warning);
    assert_eq!(
        log[0].2,
        "fmi2Terminate: `Rober` seems stiff from t = 1.5 under `dopri5`: h·λ stayed past \
         the method's stability bound for 15 accepted steps in a row (Hairer's test), so its \
         steps were bounded by stability, not by the tolerances; the implicit method \
         `rodas5p` suits it"
    );
}
