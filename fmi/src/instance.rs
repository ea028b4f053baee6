//! One FMI 2.0 co-simulation instance over a `sit_runtime::Model`: the state machine, safe.
//!
//! [`Instance`] is what `fmi2Instantiate` creates. It checks every call against the FMI 2.0
//! co-simulation state machine and the variable's access rights ([`Access`]), logs what is
//! wrong through its logger and returns [`Status::Error`], leaving the instance as it was:
//! an instance survives bad calls. The C boundary (`abi`) only converts pointers.

use crate::state::{Reader, State};
use sit_runtime::{Model, ValueType};
use std::fmt;

/// An `fmi2Status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Status {
    /// `fmi2OK`.
    Ok = 0,
    /// `fmi2Warning`.
    Warning = 1,
    /// `fmi2Discard`.
    Discard = 2,
    /// `fmi2Error`: the call was rejected; the instance is unchanged.
    Error = 3,
    /// `fmi2Fatal`: the instance is unusable (only `fmi2FreeInstance` is allowed).
    Fatal = 4,
    /// `fmi2Pending` (never returned: `doStep` is synchronous).
    Pending = 5,
}

/// When a variable can be set through `fmi2SetReal`/`fmi2SetBoolean`, which follows from
/// its causality, variability and `initial` attribute in `modelDescription.xml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A parameter with `variability="fixed"`: before the end of initialisation only.
    Fixed,
    /// A parameter with `variability="tunable"`: also between communication steps.
    Tunable,
    /// An input: at any time before termination.
    Input,
    /// A state with `initial="exact"` (a start value): before the end of initialisation;
    /// the value replaces the state's initial value.
    Start,
    /// Computed by the model (`initial="calculated"`): never.
    Computed,
}

/// What the FMU crate knows about its model at compile time, written by `sitc fmu`.
#[derive(Debug)]
pub struct Fmu {
    /// The `guid` of `modelDescription.xml`, checked by `fmi2Instantiate`.
    pub guid: &'static str,
    /// The internal step: `doStep` advances the model in steps of exactly `dt`.
    pub dt: f64,
    /// The access of each variable, by value reference (= `Model` index).
    pub access: &'static [Access],
    /// The log categories of `modelDescription.xml`.
    pub log_categories: &'static [&'static str],
    /// The root model's name, for the warnings that name it.
    pub model: &'static str,
    /// The model says `#[allow(non_finite, …)]`: a non-finite value after `doStep` is
    /// logged once as a warning and the step returns `fmi2OK`; otherwise it is logged as
    /// an error and the step returns `fmi2Error`.
    pub allow_non_finite: bool,
    /// The partial derivatives `fmi2GetDirectionalDerivative` reads: per pair of an
    /// unknown's and a known's value references, that of the sensitivity variable
    /// holding `d(unknown)/d(known)` (an FMU built with `sitc fmu --sensitivities`).
    pub directional: &'static [(u32, u32, u32)],
    /// The value references of the knowns with sensitivities (empty: the FMU provides
    /// no directional derivatives).
    pub sensitive: &'static [u32],
}

/// The mode of an instance in the FMI 2.0 co-simulation state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Instantiated,
    Initialization,
    StepComplete,
    Terminated,
    /// After a panic of the model: nothing but `fmi2FreeInstance` is allowed.
    Fatal,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Instantiated => "instantiated",
            Mode::Initialization => "initialization mode",
            Mode::StepComplete => "step mode (initialized)",
            Mode::Terminated => "terminated",
            Mode::Fatal => "fatal error",
        })
    }
}

/// The status kinds of `fmi2Get*Status`.
const LAST_SUCCESSFUL_TIME: i32 = 2;
const TERMINATED: i32 = 3;

/// The logger: `(status, category, message)`.
pub type Logger = Box<dyn Fn(Status, &str, &str)>;

/// Everything `fmi2GetFMUstate` saves and `fmi2SetFMUstate` restores.
#[derive(Clone, Debug)]
pub struct Snapshot<M> {
    model: M,
    mode: Mode,
    starts: Vec<(usize, f64)>,
    start_time: f64,
    steps: u64,
    time: f64,
}

impl<M: Default> Snapshot<M> {
    /// The state after `fmi2Instantiate`: the model as constructed, at t = 0.
    fn initial() -> Self {
        Snapshot {
            model: M::default(),
            mode: Mode::Instantiated,
            starts: Vec::new(),
            start_time: 0.0,
            steps: 0,
            time: 0.0,
        }
    }
}

/// One FMU instance (see the module documentation).
pub struct Instance<M> {
    fmu: &'static Fmu,
    logger: Logger,
    debug: bool,
    /// Whether a non-finite value was logged since instantiation or `fmi2Reset` (it is
    /// logged once).
    warned_non_finite: bool,
    /// The model, the mode and the communication time.
    s: Snapshot<M>,
}

impl<M: Model + Clone + Default> Instance<M> {
    /// A new instance: the model as constructed (params and inputs at their defaults).
    pub fn new(fmu: &'static Fmu, logger: Logger) -> Self {
        Instance {
            fmu,
            logger,
            debug: false,
            warned_non_finite: false,
            s: Snapshot::initial(),
        }
    }

    /// The model, for inspection.
    pub fn model(&self) -> &M {
        &self.s.model
    }

    /// Logs `message` as an error and returns [`Status::Error`].
    pub fn error(&self, message: &str) -> Status {
        (self.logger)(Status::Error, "logStatusError", message);
        Status::Error
    }

    /// Marks the instance unusable after a panic, logs and returns [`Status::Fatal`].
    pub fn fatal(&mut self, message: &str) -> Status {
        self.s.mode = Mode::Fatal;
        (self.logger)(Status::Fatal, "logStatusFatal", message);
        Status::Fatal
    }

    fn check_mode(&self, call: &str, allowed: &[Mode]) -> Result<(), Status> {
        if allowed.contains(&self.s.mode) {
            Ok(())
        } else {
            Err(self.error(&format!(
                "{call} is not allowed when the instance is {}",
                self.s.mode
            )))
        }
    }

    /// `fmi2SetDebugLogging` (and `loggingOn` of `fmi2Instantiate`): every category must
    /// be one of the model description's. Debug logging adds the `logCalls` messages;
    /// errors are always logged.
    pub fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> Status {
        if let Some(bad) = categories
            .iter()
            .find(|c| !self.fmu.log_categories.contains(c))
        {
            return self.error(&format!(
                "fmi2SetDebugLogging: unknown log category `{bad}`; the categories are {}",
                self.fmu.log_categories.join(", ")
            ));
        }
        self.debug = on;
        Status::Ok
    }

    fn log_call(&self, message: &str) {
        if self.debug {
            (self.logger)(Status::Ok, "logCalls", message);
        }
    }

    /// `fmi2SetupExperiment`: the start time (the tolerance and stop time are not used).
    pub fn setup_experiment(&mut self, start_time: f64) -> Status {
        if let Err(s) = self.check_mode("fmi2SetupExperiment", &[Mode::Instantiated]) {
            return s;
        }
        if !start_time.is_finite() {
            return self.error(&format!(
                "fmi2SetupExperiment: the start time must be finite, not {start_time}"
            ));
        }
        self.s.start_time = start_time;
        self.s.time = start_time;
        Status::Ok
    }

    /// `fmi2EnterInitializationMode`.
    pub fn enter_initialization_mode(&mut self) -> Status {
        if let Err(s) = self.check_mode("fmi2EnterInitializationMode", &[Mode::Instantiated]) {
            return s;
        }
        self.s.mode = Mode::Initialization;
        Status::Ok
    }

    /// `fmi2ExitInitializationMode`: the model starts at the start time, after 0 steps.
    pub fn exit_initialization_mode(&mut self) -> Status {
        if let Err(s) = self.check_mode("fmi2ExitInitializationMode", &[Mode::Initialization]) {
            return s;
        }
        self.s.mode = Mode::StepComplete;
        self.s.steps = 0;
        self.s.time = self.s.start_time;
        Status::Ok
    }

    /// `fmi2Terminate`.
    pub fn terminate(&mut self) -> Status {
        if let Err(s) = self.check_mode("fmi2Terminate", &[Mode::StepComplete]) {
            return s;
        }
        self.s.mode = Mode::Terminated;
        self.warn_table_reach();
        self.warn_stiffness();
        Status::Ok
    }

    /// Logs the models that the stiffness test of their adaptive explicit method found
    /// stiff since the model was initialised (or reset), in the words of `sitc run`
    /// (`logStatusWarning`), at `fmi2Terminate`.
    fn warn_stiffness(&self) {
        let root = self.fmu.model;
        for stiff in sit_runtime::stiffness(&self.s.model, root) {
            let message = format!("fmi2Terminate: {stiff}");
            (self.logger)(Status::Warning, "logStatusWarning", &message);
        }
    }

    /// Logs each table read past its grid since the model was initialised (or reset),
    /// once per table declaration, its reads added over its instances, in the words of
    /// `sitc run` (`logStatusWarning`, always logged, as errors are): at
    /// `fmi2Terminate`, when the run's whole range is known.
    fn warn_table_reach(&self) {
        let mut tables: Vec<(u64, String, Vec<String>, sit_runtime::table::TableReach)> =
            Vec::new();
        self.s.model.table_reach(&mut |decl, reach| match tables
            .iter_mut()
            .find(|t| t.0 == decl.key)
        {
            Some(t) => t.3.merge(reach),
            None => tables.push((
                decl.key,
                decl.name.to_string(),
                decl.args.iter().map(|a| a.to_string()).collect(),
                *reach,
            )),
        });
        for (_, name, args, reach) in &tables {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            if let Some(w) = reach.warning(name, &args) {
                let message = format!("fmi2Terminate: {w}");
                (self.logger)(Status::Warning, "logStatusWarning", &message);
            }
        }
    }

    /// `fmi2Reset`: back to the state after `fmi2Instantiate` (params at their defaults;
    /// the logger and debug logging stay).
    pub fn reset(&mut self) -> Status {
        if let Err(s) = self.check_mode(
            "fmi2Reset",
            &[
                Mode::Instantiated,
                Mode::Initialization,
                Mode::StepComplete,
                Mode::Terminated,
            ],
        ) {
            return s;
        }
        self.s = Snapshot::initial();
        self.warned_non_finite = false;
        Status::Ok
    }

    /// The variable `vr` of type `ty`, or the error to return.
    fn index(&self, call: &str, vr: u32, ty: ValueType) -> Result<usize, Status> {
        let index = vr as usize;
        // The hidden states after the variables are no value references.
        let info = (index < self.s.model.var_count())
            .then(|| self.s.model.var_info(index))
            .flatten();
        match info {
            Some(info) if info.ty == ty => Ok(index),
            Some(info) => Err(self.error(&format!(
                "{call}: value reference {vr} is `{}`, a {} variable",
                info.name,
                type_name(info.ty)
            ))),
            None => Err(self.error(&format!(
                "{call}: unknown value reference {vr} (the model has {} variables)",
                self.s.model.var_count()
            ))),
        }
    }

    fn check_get(&self, call: &str, vr: &[u32], out_len: usize) -> Result<(), Status> {
        self.check_mode(
            call,
            &[Mode::Initialization, Mode::StepComplete, Mode::Terminated],
        )?;
        if vr.len() != out_len {
            return Err(self.error(&format!(
                "{call}: {} references but {out_len} values",
                vr.len()
            )));
        }
        Ok(())
    }

    /// `fmi2GetReal`. Nothing is written when a reference is bad.
    pub fn get_real(&self, vr: &[u32], out: &mut [f64]) -> Status {
        if let Err(s) = self.check_get("fmi2GetReal", vr, out.len()) {
            return s;
        }
        for &r in vr {
            if let Err(s) = self.index("fmi2GetReal", r, ValueType::Real) {
                return s;
            }
        }
        for (o, &r) in out.iter_mut().zip(vr) {
            *o = self.s.model.get_at(r as usize).unwrap_or(f64::NAN);
        }
        Status::Ok
    }

    /// `fmi2GetDirectionalDerivative`: `out[i] = Σ_j ∂unknown[i]/∂known[j] · seed[j]`,
    /// the derivatives of the unknowns' current values with respect to the knowns over
    /// the run so far, read from the forward sensitivities the FMU integrates (built
    /// with `sitc fmu --sensitivities`). A known is a param or a state (for its start
    /// value) with sensitivities, or an input, whose column is zero: no output of a Sit
    /// model reads an input set at the same communication point (no direct
    /// feedthrough). Nothing is written when a reference is bad.
    pub fn get_directional_derivative(
        &self,
        unknown: &[u32],
        known: &[u32],
        seed: &[f64],
        out: &mut [f64],
    ) -> Status {
        const CALL: &str = "fmi2GetDirectionalDerivative";
        if let Err(s) = self.check_get(CALL, unknown, out.len()) {
            return s;
        }
        if self.fmu.sensitive.is_empty() {
            return self.error(&format!(
                "{CALL}: this FMU was built without sensitivities \
                 (providesDirectionalDerivative=\"false\"); build it with \
                 `sitc fmu --sensitivities NAMES` for the params to differentiate by"
            ));
        }
        if known.len() != seed.len() {
            return self.error(&format!(
                "{CALL}: {} known references but {} seed values",
                known.len(),
                seed.len()
            ));
        }
        for &r in unknown {
            if let Err(s) = self.index(CALL, r, ValueType::Real) {
                return s;
            }
        }
        for &k in known {
            if let Err(s) = self.index(CALL, k, ValueType::Real) {
                return s;
            }
            let input = self.fmu.access.get(k as usize) == Some(&Access::Input);
            if !input && !self.fmu.sensitive.contains(&k) {
                let name = |r: u32| self.s.model.var_info(r as usize).map_or("?", |v| v.name);
                let built: Vec<String> = (self.fmu.sensitive.iter())
                    .map(|&r| format!("`{}`", name(r)))
                    .collect();
                return self.error(&format!(
                    "{CALL}: known `{}` (value reference {k}) has no sensitivities; this FMU \
                     was built with those to {} (`sitc fmu --sensitivities`), and inputs",
                    name(k),
                    built.join(", ")
                ));
            }
        }
        for (o, &u) in out.iter_mut().zip(unknown) {
            let mut sum = 0.0;
            for (&k, &dv) in known.iter().zip(seed) {
                // A state by its start value has its sensitivity; a param by itself is 1.
                let entry = (self.fmu.directional.iter()).find(|&&(a, b, _)| a == u && b == k);
                let partial = match entry {
                    Some(&(_, _, s)) => self.s.model.get_at(s as usize).unwrap_or(f64::NAN),
                    None if u == k => 1.0,
                    None => 0.0,
                };
                sum += partial * dv;
            }
            *o = sum;
        }
        Status::Ok
    }

    /// `fmi2GetBoolean` (`fmi2True` = 1, `fmi2False` = 0).
    pub fn get_boolean(&self, vr: &[u32], out: &mut [i32]) -> Status {
        if let Err(s) = self.check_get("fmi2GetBoolean", vr, out.len()) {
            return s;
        }
        for &r in vr {
            if let Err(s) = self.index("fmi2GetBoolean", r, ValueType::Logical) {
                return s;
            }
        }
        for (o, &r) in out.iter_mut().zip(vr) {
            *o = i32::from(self.s.model.get_at(r as usize) == Some(1.0));
        }
        Status::Ok
    }

    /// `fmi2Get/SetInteger` and `fmi2Get/SetString`: the model has no such variables, so
    /// any reference is unknown (an empty request is fine).
    pub fn no_variables_of(&self, call: &str, vr: &[u32]) -> Status {
        match vr.first() {
            None => Status::Ok,
            Some(r) => self.error(&format!(
                "{call}: unknown value reference {r} (a Sit model has no variables of this type)"
            )),
        }
    }

    /// `fmi2SetReal`. All references are checked before any value is set.
    pub fn set_real(&mut self, vr: &[u32], values: &[f64]) -> Status {
        self.set("fmi2SetReal", vr, values, ValueType::Real)
    }

    /// `fmi2SetBoolean` (any non-zero value is true).
    pub fn set_boolean(&mut self, vr: &[u32], values: &[i32]) -> Status {
        let values: Vec<f64> = values.iter().map(|&v| f64::from(v != 0)).collect();
        self.set("fmi2SetBoolean", vr, &values, ValueType::Logical)
    }

    fn set(&mut self, call: &str, vr: &[u32], values: &[f64], ty: ValueType) -> Status {
        if let Err(s) = self.check_mode(
            call,
            &[Mode::Instantiated, Mode::Initialization, Mode::StepComplete],
        ) {
            return s;
        }
        if vr.len() != values.len() {
            return self.error(&format!(
                "{call}: {} references but {} values",
                vr.len(),
                values.len()
            ));
        }
        let initializing = self.s.mode != Mode::StepComplete;
        for &r in vr {
            let index = match self.index(call, r, ty) {
                Ok(i) => i,
                Err(s) => return s,
            };
            let access = self.fmu.access.get(index).copied();
            let allowed = match access {
                Some(Access::Fixed | Access::Start) => initializing,
                Some(Access::Tunable | Access::Input) => true,
                Some(Access::Computed) | None => false,
            };
            if !allowed {
                let name = self.s.model.var_info(index).map_or("", |i| i.name);
                let why = match access {
                    Some(Access::Fixed) => {
                        "a fixed parameter, settable only before the end of initialization"
                    }
                    Some(Access::Start) => {
                        "a state, whose start value is settable only before the end of initialization"
                    }
                    _ => "computed by the model and cannot be set",
                };
                return self.error(&format!("{call}: `{name}` (value reference {r}) is {why}"));
            }
        }
        let mut model = self.s.model.clone();
        let mut starts = self.s.starts.clone();
        for (&r, &v) in vr.iter().zip(values) {
            let index = r as usize;
            if let Err(e) = model.set_at(index, v) {
                return self.error(&format!("{call}: {e}"));
            }
            if self.fmu.access.get(index) == Some(&Access::Start) {
                starts.retain(|&(i, _)| i != index);
                starts.push((index, v));
            }
        }
        if initializing {
            // Initial values, param bindings and derived values follow the params and
            // inputs just set; the start values set explicitly win over them.
            model.reset();
            for &(i, v) in &starts {
                if let Err(e) = model.set_at(i, v) {
                    return self.error(&format!("{call}: {e}"));
                }
            }
        }
        self.s.model = model;
        self.s.starts = starts;
        Status::Ok
    }

    /// The number of internal steps from the start time to `t`: `(t - start) / dt`,
    /// rounded to the nearest integer when it is within 1e-6 of one (the master's
    /// time arithmetic), else rounded down.
    fn steps_to(&self, t: f64) -> f64 {
        let k = (t - self.s.start_time) / self.fmu.dt;
        let near = k.round();
        if (k - near).abs() <= 1e-6 {
            near
        } else {
            k.floor()
        }
    }

    /// `fmi2DoStep`: advances the model to the last multiple of the internal step `dt`
    /// (counted from the start time) at or before `t + h`, in steps of exactly `dt`.
    pub fn do_step(&mut self, t: f64, h: f64) -> Status {
        if let Err(s) = self.check_mode("fmi2DoStep", &[Mode::StepComplete]) {
            return s;
        }
        if !(h.is_finite() && h >= 0.0) {
            return self.error(&format!(
                "fmi2DoStep: the communication step must be a finite number >= 0, not {h}"
            ));
        }
        let tolerance = 1e-6 * self.fmu.dt;
        if (t - self.s.time).abs() > tolerance || t.is_nan() {
            return self.error(&format!(
                "fmi2DoStep: the communication point {t} is not the current time {} of the FMU",
                self.s.time
            ));
        }
        let target = self.steps_to(t + h).max(self.s.steps as f64);
        if target > 9_007_199_254_740_992.0 {
            return self.error(&format!("fmi2DoStep: t + h = {} is too many steps", t + h));
        }
        let target = target as u64;
        self.log_call(&format!(
            "fmi2DoStep: t = {t}, h = {h}: {} steps of {}",
            target - self.s.steps,
            self.fmu.dt
        ));
        while self.s.steps < target {
            self.s.model.step(self.fmu.dt);
            self.s.steps += 1;
        }
        self.s.time = t + h;
        if !self.fmu.allow_non_finite {
            return self.stop_non_finite(t);
        }
        if !self.warned_non_finite {
            self.warn_non_finite(t);
        }
        Status::Ok
    }

    /// `fmi2Error`, logged (`logStatusError`), when a variable is not finite after the
    /// `doStep` from `from` (the default, as `sitc run` stops at one): the step's values
    /// are kept, and the master may read them, reset or free the instance; `fmi2OK`
    /// otherwise.
    fn stop_non_finite(&mut self, from: f64) -> Status {
        let Some((index, value)) = sit_runtime::finite::first_non_finite(&self.s.model) else {
            return Status::Ok;
        };
        let seen = sit_runtime::finite::NonFiniteSeen {
            index,
            value,
            time: self.s.time,
            from: Some(from),
        };
        let name = self.s.model.var_info(index).map_or("?", |v| v.name);
        self.error(&format!(
            "fmi2DoStep: {}; `sitc run` with the same values names the rule that made it \
             (a model that means a value to be infinite says #[allow(non_finite, reason = \
             \"…\")])",
            seen.describe(name)
        ))
    }

    /// Logs the first variable that is not finite after the `doStep` from `from` to the
    /// current time, if any (`logStatusWarning`, always logged, as errors are), and
    /// remembers it: once per instance until `fmi2Reset`. The step itself succeeded:
    /// the values are what the rules compute, as in `sitc run`.
    fn warn_non_finite(&mut self, from: f64) {
        let Some((index, value)) = sit_runtime::finite::first_non_finite(&self.s.model) else {
            return;
        };
        self.warned_non_finite = true;
        let seen = sit_runtime::finite::NonFiniteSeen {
            index,
            value,
            time: self.s.time,
            from: Some(from),
        };
        let name = self.s.model.var_info(index).map_or("?", |v| v.name);
        let message = format!(
            "fmi2DoStep: {}; the values after it may be NaN or infinite (logged once)",
            seen.describe(name)
        );
        (self.logger)(Status::Warning, "logStatusWarning", &message);
    }

    /// `fmi2CancelStep`: `doStep` never returns `fmi2Pending`, so there is nothing to
    /// cancel.
    pub fn cancel_step(&self) -> Status {
        self.error("fmi2CancelStep: no step is pending (fmi2DoStep is synchronous)")
    }

    /// `fmi2GetStatus`, `fmi2GetIntegerStatus`, `fmi2GetStringStatus`: nothing is ever
    /// pending, so no such status exists.
    pub fn no_status(&self, call: &str, kind: i32) -> Status {
        self.error(&format!(
            "{call}: status kind {kind} is not available (fmi2DoStep is synchronous)"
        ))
    }

    /// `fmi2GetRealStatus`: `fmi2LastSuccessfulTime` is the current communication time.
    pub fn real_status(&self, kind: i32, out: &mut f64) -> Status {
        if kind == LAST_SUCCESSFUL_TIME {
            *out = self.s.time;
            Status::Ok
        } else {
            self.no_status("fmi2GetRealStatus", kind)
        }
    }

    /// `fmi2GetBooleanStatus`: `fmi2Terminated` is always false (a Sit model never ends
    /// the simulation).
    pub fn boolean_status(&self, kind: i32, out: &mut i32) -> Status {
        if kind == TERMINATED {
            *out = 0;
            Status::Ok
        } else {
            self.no_status("fmi2GetBooleanStatus", kind)
        }
    }

    fn state_modes(&self, call: &str) -> Result<(), Status> {
        self.check_mode(
            call,
            &[
                Mode::Instantiated,
                Mode::Initialization,
                Mode::StepComplete,
                Mode::Terminated,
            ],
        )
    }

    /// `fmi2GetFMUstate`: a copy of everything that determines the future of the instance.
    pub fn get_state(&self) -> Result<Snapshot<M>, Status> {
        self.state_modes("fmi2GetFMUstate")?;
        Ok(self.s.clone())
    }

    /// `fmi2GetFMUstate` into an existing state (the C API may pass one to overwrite).
    pub fn get_state_into(&self, into: &mut Snapshot<M>) -> Status {
        if let Err(s) = self.state_modes("fmi2GetFMUstate") {
            return s;
        }
        into.clone_from(&self.s);
        Status::Ok
    }

    /// `fmi2SetFMUstate`: the instance continues exactly as it did from `state`.
    pub fn set_state(&mut self, state: &Snapshot<M>) -> Status {
        if let Err(s) = self.state_modes("fmi2SetFMUstate") {
            return s;
        }
        self.s.clone_from(state);
        Status::Ok
    }

    /// Whether only `fmi2FreeInstance` is allowed any more.
    pub fn is_fatal(&self) -> bool {
        self.s.mode == Mode::Fatal
    }

    /// Runs `f`, an FMI call on the instance, catching what stops it: a fault of the
    /// model (a phase, a sub-step count or an adaptive method past its bound: a
    /// [`sit_runtime::ModelFault`], recognised by its type) is logged with its own
    /// message, which names the model and the time; any other panic is a bug, logged
    /// as such. Either leaves the step half done, so the instance is fatal
    /// ([`Status::Fatal`]).
    pub fn guarded(&mut self, f: impl FnOnce(&mut Self) -> Status) -> Status {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            sit_runtime::catch_fault(|| f(&mut *self))
        }));
        match caught {
            Ok(Ok(status)) => status,
            Ok(Err(fault)) => self.fatal(&format!("{fault}; the instance is unusable")),
            Err(_) => self.fatal("the model panicked; the instance is unusable"),
        }
    }
}

/// The start of every serialised state, followed by the GUID.
const MAGIC: &[u8; 8] = b"SITFMI2\0";
/// The modes a state can be taken in, by their serialised code.
const MODES: [Mode; 4] = [
    Mode::Instantiated,
    Mode::Initialization,
    Mode::StepComplete,
    Mode::Terminated,
];

impl<M: Model + Clone + Default + State> Instance<M> {
    /// `fmi2SerializeFMUstate`: the magic bytes, the GUID (a state is only read back by
    /// the same FMU), then every field of `state` (see [`crate::state`]).
    pub fn serialize(&self, state: &Snapshot<M>) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.fmu.guid.len() as u64).to_le_bytes());
        out.extend_from_slice(self.fmu.guid.as_bytes());
        let mode = MODES.iter().position(|m| *m == state.mode).unwrap_or(0);
        out.push(mode as u8);
        state.start_time.save(&mut out);
        out.extend_from_slice(&state.steps.to_le_bytes());
        state.time.save(&mut out);
        out.extend_from_slice(&(state.starts.len() as u64).to_le_bytes());
        for (index, value) in &state.starts {
            out.extend_from_slice(&(*index as u64).to_le_bytes());
            value.save(&mut out);
        }
        state.model.save(&mut out);
        out
    }

    /// `fmi2DeSerializeFMUstate`: the state [`Instance::serialize`] wrote, or an error
    /// for bytes that are not such a state of this FMU.
    pub fn deserialize(&self, bytes: &[u8]) -> Result<Snapshot<M>, Status> {
        self.read_state(&mut Reader::new(bytes))
            .map_err(|e| self.error(&format!("fmi2DeSerializeFMUstate: {e}")))
    }

    fn read_state(&self, input: &mut Reader<'_>) -> Result<Snapshot<M>, String> {
        if input.take(MAGIC.len())? != MAGIC {
            return Err("the bytes are not a serialized state of a Sit FMU".into());
        }
        let len = usize::try_from(input.u64()?).map_err(|e| e.to_string())?;
        if input.take(len)? != self.fmu.guid.as_bytes() {
            return Err("the state was serialized by another FMU (its GUID differs)".into());
        }
        let mode = *MODES
            .get(usize::from(input.take(1)?[0]))
            .ok_or("the serialized state has an unknown mode")?;
        let mut start_time = 0.0;
        start_time.load(input)?;
        let steps = input.u64()?;
        let mut time = 0.0;
        time.load(input)?;
        let mut state = Snapshot {
            model: M::default(),
            mode,
            starts: Vec::new(),
            start_time,
            steps,
            time,
        };
        let count = input.u64()?;
        for _ in 0..count {
            let index = usize::try_from(input.u64()?).map_err(|e| e.to_string())?;
            if self.fmu.access.get(index) != Some(&Access::Start) {
                return Err(format!(
                    "the serialized state sets variable {index}, which has no start value"
                ));
            }
            let mut value = 0.0;
            value.load(input)?;
            state.starts.push((index, value));
        }
        state.model.load(input)?;
        if !input.is_empty() {
            return Err("the serialized state has bytes after its end".into());
        }
        Ok(state)
    }
}

fn type_name(ty: ValueType) -> &'static str {
    match ty {
        ValueType::Real => "Real",
        ValueType::Logical => "Boolean",
    }
}
