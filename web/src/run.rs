//! A run of the interpreter in chunks of steps, as `sitc run` runs it, with its traces and final values.
//!
//! The page's worker calls [`Run::advance`] with a few thousand steps at a time, so it
//! can report progress and stop between chunks. The steps are those of `sitc run`: set
//! the params, reset, set the states, then `T / DT` steps of `dt` (see
//! `sit_runtime::drive::steps`); the final values are printed by the same
//! `sit_runtime::trace::Recorder` that writes `sitc run`'s CSV rows, so they are the
//! same text, bit for bit.

use crate::files::Files;
use crate::front::{self, LoadError, Sim};
use serde_json::{Value, json};
use sit_runtime::events::Event;
use sit_runtime::trace::Recorder;
use sit_runtime::{Model, ValueType, VarKind, Variables};

/// How to run: the options of `sitc run` that the page offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The model to run (default: the root).
    pub model: Option<String>,
    /// The step.
    pub dt: f64,
    /// The end time.
    pub t_end: f64,
    /// The integration method overriding the models' own.
    pub method: Option<String>,
    /// Values set by name: params and inputs before the reset, the rest after.
    pub set: Vec<(String, f64)>,
    /// Keep a trace row every this many steps (and at t = 0 and at the end).
    pub every: u64,
    /// Record the event log.
    pub events: bool,
    /// Run on past NaN and infinite values (`sitc run --allow-non-finite`); by default
    /// the first one stops the run with the rule that made it ([`Run::fault`]).
    pub allow_non_finite: bool,
}

impl Default for Options {
    /// `sitc run`'s defaults: dt 0.01, t-end 10, every step, no events.
    fn default() -> Options {
        Options {
            model: None,
            dt: 0.01,
            t_end: 10.0,
            method: None,
            set: Vec::new(),
            every: 1,
            events: false,
            allow_non_finite: false,
        }
    }
}

impl Options {
    /// The options of the model's ``/// Run: `sitc run FILE ...` `` line (the
    /// `--model`, `--dt`, `--t-end`, `--every`, `--method`, `--set` and
    /// `--allow-non-finite` it gives), else the defaults.
    pub fn from_run_line(text: &str) -> Options {
        let mut options = Options::default();
        let Some(line) = text.lines().find_map(|l| l.split_once("Run: `sitc run ")) else {
            return options;
        };
        let line = line.1.split('`').next().unwrap_or("");
        let mut words = line.split_whitespace().skip(1);
        while let Some(word) = words.next() {
            let (flag, value) = match word.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (word, None),
            };
            let mut value = || value.clone().or_else(|| words.next().map(str::to_string));
            match flag {
                "--dt" => options.dt = value().and_then(|v| v.parse().ok()).unwrap_or(options.dt),
                "--t-end" => {
                    options.t_end = value()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(options.t_end)
                }
                "--every" => {
                    options.every = value().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
                }
                "--method" => options.method = value(),
                "--model" => options.model = value(),
                "--allow-non-finite" => options.allow_non_finite = true,
                "--set" => {
                    if let Some((n, v)) = value().as_deref().and_then(|s| s.split_once('='))
                        && let Ok(v) = v.parse()
                    {
                        options.set.push((n.to_string(), v));
                    }
                }
                _ => {}
            }
        }
        options
    }

    /// Options from JSON (`model`, `dt`, `t_end`, `method`, `set` as an object of
    /// name: number, `every`, `events`, `allow_non_finite`), each missing one from
    /// `base`.
    pub fn from_json(json: &str, base: Options) -> Result<Options, String> {
        let mut o = base;
        if json.trim().is_empty() {
            return Ok(o);
        }
        let v: Value = serde_json::from_str(json).map_err(|e| format!("options: {e}"))?;
        let number = |key: &str| -> Result<Option<f64>, String> {
            match v.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(x) => x
                    .as_f64()
                    .map(Some)
                    .ok_or_else(|| format!("options: `{key}` must be a number")),
            }
        };
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        if let Some(m) = text("model") {
            o.model = Some(m).filter(|m| !m.is_empty());
        }
        if let Some(m) = text("method") {
            o.method = Some(m).filter(|m| !m.is_empty());
        }
        o.dt = number("dt")?.unwrap_or(o.dt);
        o.t_end = number("t_end")?.unwrap_or(o.t_end);
        if let Some(every) = number("every")? {
            if !(every >= 1.0 && every.fract() == 0.0) {
                return Err(format!(
                    "options: `every` must be a whole number >= 1, not {every}"
                ));
            }
            o.every = every as u64;
        }
        if let Some(events) = v.get("events").and_then(Value::as_bool) {
            o.events = events;
        }
        if let Some(allow) = v.get("allow_non_finite").and_then(Value::as_bool) {
            o.allow_non_finite = allow;
        }
        if let Some(set) = v.get("set").and_then(Value::as_object) {
            for (name, value) in set {
                let value = value
                    .as_f64()
                    .ok_or_else(|| format!("options: the value of `{name}` must be a number"))?;
                o.set.retain(|(n, _)| n != name);
                o.set.push((name.clone(), value));
            }
        }
        Ok(o)
    }

    /// The options as JSON (the form [`Options::from_json`] reads).
    pub fn to_json(&self) -> Value {
        let set: serde_json::Map<String, Value> = (self.set.iter())
            .map(|(n, v)| (n.clone(), json!(v)))
            .collect();
        json!({
            "model": self.model, "dt": self.dt, "t_end": self.t_end, "method": self.method,
            "set": set, "every": self.every, "events": self.events,
        })
    }
}

/// Why a run could not start: the model's diagnostics (as JSON) or one message.
#[derive(Debug, Clone, PartialEq)]
pub enum StartError {
    /// The model has errors: the diagnostics as `crate::diagnostics::to_json` gives them.
    Invalid(Vec<Value>),
    /// A message (a bad option, an unknown name, no root model).
    Message(String),
}

impl StartError {
    /// The error as JSON: `{"diagnostics": [...]}` or `{"message": "..."}`.
    pub fn to_json(&self) -> Value {
        match self {
            StartError::Invalid(d) => json!({ "diagnostics": d }),
            StartError::Message(m) => json!({ "message": m }),
        }
    }
}

/// A run in progress.
pub struct Run {
    sim: Sim,
    dt: f64,
    steps: u64,
    done: u64,
    every: u64,
    /// The variables traced (every visible variable, in index order).
    traced: Vec<usize>,
    /// The rows kept for the plot, at most [`MAX_ROWS`] of them.
    kept: Kept,
    /// The columns of `sitc run`'s default CSV (the root's outputs, else every variable).
    recorder: Recorder,
    /// `sitc run --every EVERY`'s CSV since [`Run::take_csv`] last took it.
    csv: Vec<u8>,
    /// The last row written to the CSV (the Values tab's "last row").
    last_row: Vec<u8>,
    events: Vec<Event>,
    warnings: Vec<Value>,
    /// The first non-finite value seen after a step.
    watch: sit_runtime::finite::Watch,
    /// The model before its first step, to take the run again up to the step that made
    /// a non-finite value and name its rule; `None` with `allow_non_finite`.
    start: Option<sit_runtime::drive::Driven<sit_interp::Instance>>,
    /// Why the run stopped early: the rule that made a non-finite value.
    fault: Option<String>,
    /// The estimate of the error of fixed steps (`None`: no fixed-step method).
    doubling: Option<sit_runtime::accuracy::Doubling<sit_interp::Instance>>,
    /// Its warning, once the run has ended, when the estimate is past its threshold.
    accuracy: Option<String>,
}

/// Most events kept in the log (the count goes on past it).
pub const MAX_EVENTS: usize = 100_000;

/// Most rows kept for the plot: past it, two neighbouring rows are merged into one that
/// keeps their lowest and highest values (see [`Run::stride`]), so a run of any length
/// holds at most this many rows of every variable in memory. The CSV is not kept: the
/// page takes it chunk by chunk ([`Run::take_csv`]).
pub const MAX_ROWS: usize = 1 << 15;

/// The rows kept for the plot: each the time of its first trace row and, for every
/// traced variable, the lowest and highest values of the `stride` trace rows it stands
/// for (the same value while `stride` is 1).
#[derive(Debug, Clone, Default)]
struct Kept {
    /// Trace rows per kept row (a power of two).
    stride: u64,
    /// Trace rows in the last kept row.
    fill: u64,
    times: Vec<f64>,
    lo: Vec<Vec<f64>>,
    hi: Vec<Vec<f64>>,
}

impl Kept {
    fn new(variables: usize) -> Kept {
        Kept {
            stride: 1,
            fill: 0,
            times: Vec::new(),
            lo: vec![Vec::new(); variables],
            hi: vec![Vec::new(); variables],
        }
    }

    /// Adds a trace row: a kept row of its own, or merged into the last one.
    fn push(&mut self, time: f64, values: impl Iterator<Item = f64>) {
        if self.fill > 0 && self.fill < self.stride {
            self.fill += 1;
            for ((lo, hi), v) in self.lo.iter_mut().zip(&mut self.hi).zip(values) {
                let (l, h) = (lo.last_mut(), hi.last_mut());
                if let (Some(l), Some(h)) = (l, h) {
                    *l = lowest(*l, v);
                    *h = highest(*h, v);
                }
            }
            return;
        }
        if self.times.len() == MAX_ROWS {
            self.halve();
        }
        self.fill = 1;
        self.times.push(time);
        for ((lo, hi), v) in self.lo.iter_mut().zip(&mut self.hi).zip(values) {
            lo.push(v);
            hi.push(v);
        }
    }

    /// Merges each pair of kept rows into one: twice the stride, half the rows.
    fn halve(&mut self) {
        let pairs = self.times.len() / 2;
        for i in 0..pairs {
            self.times[i] = self.times[2 * i];
        }
        self.times.truncate(pairs);
        for (lo, hi) in self.lo.iter_mut().zip(&mut self.hi) {
            for i in 0..pairs {
                lo[i] = lowest(lo[2 * i], lo[2 * i + 1]);
                hi[i] = highest(hi[2 * i], hi[2 * i + 1]);
            }
            lo.truncate(pairs);
            hi.truncate(pairs);
        }
        self.stride *= 2;
        // The last row holds two full rows of the old stride: full.
        self.fill = self.stride;
    }
}

/// The lower of two values; NaN when either is (a NaN is shown, not hidden).
fn lowest(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// The higher of two values; NaN when either is.
fn highest(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl Run {
    /// Checks and instantiates the model, sets the values and resets, as `sitc run`
    /// does: ready to step.
    pub fn start(
        path: &str,
        text: &str,
        files: &Files,
        options: &Options,
    ) -> Result<Run, StartError> {
        let steps = sit_runtime::drive::steps(options.dt, options.t_end).map_err(|e| {
            use sit_runtime::drive::StepsError;
            StartError::Message(match e {
                StepsError::Dt(_) => format!("dt must be a finite number > 0, not {}", options.dt),
                StepsError::TEnd(_) => {
                    format!("t-end must be a finite number >= 0, not {}", options.t_end)
                }
                StepsError::TooMany { .. } => format!(
                    "t-end {} with dt {} is too many steps",
                    options.t_end, options.dt
                ),
            })
        })?;
        let (mut sim, report, lowered, root) = front::load(
            path,
            text,
            files,
            options.model.as_deref(),
            options.method.as_deref(),
            options.events,
        )
        .map_err(|e| match e {
            LoadError::Invalid(report) => {
                StartError::Invalid(crate::diagnostics::to_json(&report, path))
            }
            LoadError::Other(m) => StartError::Message(m),
        })?;
        let warnings = crate::diagnostics::to_json(&report, path);
        let defaults = default_record(&sim);
        let model = sim.model();
        apply(model, &options.set).map_err(StartError::Message)?;
        let traced: Vec<usize> = (0..model.var_count()).collect();
        let recorder = Recorder::with_names(
            model,
            &defaults.iter().map(String::as_str).collect::<Vec<_>>(),
        )
        .map_err(|e| StartError::Message(e.to_string()))?;
        // A model that says `#[allow(non_finite, …)]` runs on as with allow_non_finite.
        let allow = options.allow_non_finite
            || match &sim {
                Sim::Plain(m) => m.allows_non_finite(),
                Sim::Logged(m) => m.inner().allows_non_finite(),
            };
        let start = (!allow).then(|| {
            let plain = match &sim {
                Sim::Plain(m) => m.clone(),
                Sim::Logged(m) => m.inner().clone(),
            };
            sit_runtime::drive::Driven::new(plain, Vec::new())
        });
        // The error of fixed steps, estimated on copies of the plain model, as `sitc
        // run` does (sit_runtime::accuracy).
        let mut doubling = sit_runtime::accuracy::Doubling::new(
            sit_middle::ir::fixed_step_states(lowered.unrewritten(), root),
            sim.view(),
            sim.plain(),
            options.dt,
            steps,
        );
        if let Some(d) = doubling.as_mut() {
            d.after(0, sim.view(), || sim.plain());
        }
        let mut run = Run {
            doubling,
            accuracy: None,
            watch: sit_runtime::finite::Watch::new(),
            start,
            fault: None,
            dt: options.dt,
            steps,
            done: 0,
            every: options.every.max(1),
            kept: Kept::new(traced.len()),
            traced,
            recorder,
            csv: Vec::new(),
            last_row: Vec::new(),
            events: Vec::new(),
            warnings,
            sim,
        };
        // Writing to a Vec cannot fail, and every column is a variable of the model.
        let _ = run.recorder.write_header(run.sim.model(), &mut run.csv);
        run.keep();
        Ok(run)
    }

    /// Runs up to `max` more steps; whether the run is done.
    pub fn advance(&mut self, max: u64) -> bool {
        let end = self.steps.min(self.done.saturating_add(max));
        while self.done < end {
            let model = self.sim.model();
            let from = model.time();
            model.step(self.dt);
            self.done += 1;
            // By default the first non-finite value stops the run (the rows before its
            // step kept), named by the run taken again (`sit_interp::replay`).
            if self.watch.look(model, Some(from))
                && let Some(start) = self.start.take()
            {
                let fault = sit_interp::replay::first_fault(start, self.dt, self.done);
                self.fault = Some(fault.map_or_else(
                    || "a value became NaN or infinite".to_string(),
                    |f| f.to_string(),
                ));
                self.done -= 1;
                self.steps = self.done;
                break;
            }
            if let Some(d) = self.doubling.as_mut() {
                let sim = &self.sim;
                d.after(self.done, sim.view(), || sim.plain());
            }
            // The end time's row is always kept, as `sitc run` writes it.
            if self.done.is_multiple_of(self.every) || self.done == self.steps {
                // A value past 1e100 on the row: a probable instability, which stops the
                // run before that row as `sitc run` does (issue 47, item 2).
                let bound = sit_interp::replay::BLOWUP;
                if self.start.is_some()
                    && (self.sim.model().first_beyond(bound)).is_some_and(|(_, v)| v.is_finite())
                    && let Some(start) = self.start.take()
                {
                    let fault = sit_interp::replay::first_beyond(start, self.dt, self.done, bound);
                    self.fault = Some(instability(fault.as_ref()));
                    self.done -= 1;
                    self.steps = self.done;
                    break;
                }
                self.keep();
            }
        }
        if let Sim::Logged(logged) = &mut self.sim {
            let new = logged.take_events();
            let room = MAX_EVENTS.saturating_sub(self.events.len());
            self.events.extend(new.into_iter().take(room));
        }
        // The estimated error of the fixed steps, once, for a run that finished (its copy
        // at 2·dt, when the samples suspect an error, runs half the steps again).
        if self.done == self.steps
            && self.fault.is_none()
            && let Some(d) = self.doubling.take()
            && let Some(finding) = d.finding(self.sim.view())
        {
            let voice = sit_runtime::accuracy::Voice::Page;
            self.accuracy = Some(finding.warning(self.dt, self.sim.view().time(), voice));
        }
        self.done == self.steps
    }

    /// Keeps a row of the traces and of the CSV.
    fn keep(&mut self) {
        let model = self.sim.model();
        self.last_row.clear();
        let _ = self.recorder.write_row(model, &mut self.last_row);
        self.csv.extend_from_slice(&self.last_row);
        let time = model.time();
        let model: &dyn Model = model;
        (self.kept).push(
            time,
            (self.traced.iter()).map(|&i| model.get_at(i).unwrap_or(f64::NAN)),
        );
    }

    /// The steps run so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// The steps of the whole run.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The times of the rows kept for the plot (each the time of the first trace row it
    /// stands for: see [`Run::stride`]).
    pub fn times(&self) -> &[f64] {
        &self.kept.times
    }

    /// The `k`-th traced variable (see [`Run::variables`]) in the rows kept: its lowest
    /// value in each (its value while [`Run::stride`] is 1).
    pub fn trace(&self, k: usize) -> &[f64] {
        self.kept.lo.get(k).map_or(&[], Vec::as_slice)
    }

    /// The `k`-th traced variable's highest value in each row kept.
    pub fn trace_high(&self, k: usize) -> &[f64] {
        self.kept.hi.get(k).map_or(&[], Vec::as_slice)
    }

    /// How many trace rows (one every `every` steps, and the end's) each row kept for
    /// the plot stands for: 1 until more than [`MAX_ROWS`] were kept, then doubled each
    /// time the rows reach it again. A kept row may stand for fewer (the last one).
    pub fn stride(&self) -> u64 {
        self.kept.stride
    }

    /// The traced variables: name, kind, type, whether an output of the root, and
    /// whether `sitc run` prints it by default.
    pub fn variables(&mut self) -> Value {
        let defaults: Vec<usize> = self.recorder.indices().collect();
        let model = self.sim.model();
        let list: Vec<Value> = Variables::new(model)
            .enumerate()
            .map(|(i, v)| {
                json!({
                    "name": v.name,
                    "kind": v.kind.name(),
                    "logical": v.ty == ValueType::Logical,
                    "output": v.output,
                    "printed": defaults.contains(&i),
                })
            })
            .collect();
        Value::Array(list)
    }

    /// The header and the last row of `sitc run`'s CSV for this run (its default
    /// columns), as it prints them: `t,name,...\n<time>,<value>,...\n`: the last row the
    /// CSV has (the end time's for a run to its end; a stopped run's last row every
    /// `every` steps, the steps after it not written).
    pub fn finals(&mut self) -> String {
        let mut out = Vec::new();
        let recorder = self.recorder.clone();
        // Writing to a Vec cannot fail, and every column is a variable of the model.
        let _ = recorder.write_header(self.sim.model(), &mut out);
        out.extend_from_slice(&self.last_row);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The CSV that `sitc run --every EVERY` writes, from where the last call took it
    /// to the steps run so far (the whole CSV, header first, is the calls' texts in
    /// order): the run keeps no more of it than a chunk's rows.
    pub fn take_csv(&mut self) -> String {
        // The recorder writes ASCII.
        String::from_utf8(std::mem::take(&mut self.csv)).unwrap_or_default()
    }

    /// The event log (time, name, from, to, the rule's `file:line`), at most
    /// [`MAX_EVENTS`] of them.
    pub fn events(&self) -> Value {
        self.events_since(0, usize::MAX)
    }

    /// The events of the log from the `from`-th on, at most `max` of them: each with
    /// its time `t` (a number) and `time` (as `sitc run --events` writes it), `name`,
    /// `from`, `to` and `rule`, the columns of `sitc run --events`.
    pub fn events_since(&self, from: usize, max: usize) -> Value {
        let Sim::Logged(logged) = &self.sim else {
            return json!([]);
        };
        let table = logged.table();
        Value::Array(
            (self.events.iter().skip(from).take(max))
                .map(|e| {
                    json!({
                        "t": e.t,
                        "time": sit_runtime::number::shortest(e.t).to_string(),
                        "name": e.name, "from": e.from, "to": e.to, "rule": e.rule(table),
                    })
                })
                .collect(),
        )
    }

    /// The events kept in the log so far.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// What `sitc run` warns of after a run, for the steps run so far: each table read
    /// past its grid, and each model that the stiffness test of its adaptive explicit
    /// method found stiff (with the implicit method that suits it), and, once the run
    /// has ended, the estimated error of its fixed steps past 5% (`sit_runtime::accuracy`),
    /// in `sitc run`'s words (the page's for the step and the method), `warning: ` first.
    pub fn notes(&self) -> Vec<String> {
        let instance = match &self.sim {
            Sim::Plain(m) => m,
            Sim::Logged(m) => m.inner(),
        };
        let tables = instance.table_warnings().into_iter();
        let stiff = sit_runtime::stiffness(instance, instance.model_name()).map(|s| s.to_string());
        tables
            .chain(stiff)
            .chain(self.accuracy.clone())
            .map(|w| format!("warning: {w}"))
            .collect()
    }

    /// Why the run stopped before its end: the rule that made the first value that is
    /// not finite, or the first past 1e100 (`probable instability: …`), its line, the
    /// time and the values it read, in `sitc run`'s words (the steps before it are
    /// kept; [`Run::done`] counts them).
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// The warnings of the model (diagnostics JSON).
    pub fn warnings(&self) -> &[Value] {
        &self.warnings
    }
}

/// The page's words for a run stopped at a value past 1e100, `fault` the rule that first
/// stored one, as `sitc run` says them.
fn instability(fault: Option<&sit_interp::NonFinite>) -> String {
    let what = fault.map_or_else(
        || format!("a value reached {:e}", sit_interp::replay::BLOWUP),
        ToString::to_string,
    );
    format!(
        "probable instability: {what}; a value past {:e} is taken for a numerical \
         instability (a step too long for the model's fastest time scale): `method dopri5;` \
         in the model (`rodas5p` for a stiff model), or a smaller dt; allow_non_finite runs \
         on past it",
        sit_interp::replay::BLOWUP
    )
}

impl Sim {
    /// The instance as a model.
    pub fn model(&mut self) -> &mut dyn Model {
        match self {
            Sim::Plain(m) => m,
            Sim::Logged(m) => m.as_mut(),
        }
    }

    /// The instance as a model, to read.
    fn view(&self) -> &dyn Model {
        match self {
            Sim::Plain(m) => m,
            Sim::Logged(m) => m.as_ref(),
        }
    }

    /// A copy of the plain instance (behind the event log when there is one): it steps
    /// as the run does.
    fn plain(&self) -> sit_interp::Instance {
        match self {
            Sim::Plain(m) => m.clone(),
            Sim::Logged(m) => m.inner().clone(),
        }
    }

    /// The root model's outputs (or every variable when it has none) by name: the
    /// columns `sitc run` writes by default.
    fn default_names(instance: &sit_interp::Instance) -> Vec<String> {
        let outputs = instance.root_outputs();
        let indices: Vec<usize> = if outputs.is_empty() {
            (0..instance.var_count()).collect()
        } else {
            outputs
        };
        (indices.into_iter())
            .filter_map(|i| instance.var_info(i).map(|v| v.name.to_string()))
            .collect()
    }
}

/// The names of `sitc run`'s default columns for `sim`.
fn default_record(sim: &Sim) -> Vec<String> {
    match sim {
        Sim::Plain(m) => Sim::default_names(m),
        Sim::Logged(l) => {
            // Without the hidden whys, which the logged model does not show.
            let visible: Vec<&str> = Variables::new(l.as_ref()).map(|v| v.name).collect();
            Sim::default_names(l.inner())
                .into_iter()
                .filter(|n| visible.contains(&n.as_str()))
                .collect()
        }
    }
}

/// Sets the values as `sitc run --set` does: params and inputs, then reset, then the rest.
fn apply(model: &mut dyn Model, set: &[(String, f64)]) -> Result<(), String> {
    let mut resolved = Vec::new();
    for (name, value) in set {
        let index = Variables::new(model)
            .position(|v| v.name == name)
            .ok_or_else(|| format!("no variable named `{name}`"))?;
        resolved.push((index, *value));
    }
    let early = |model: &dyn Model, i: usize| {
        model
            .var_info(i)
            .is_some_and(|v| matches!(v.kind, VarKind::Param | VarKind::Input))
    };
    let set = |model: &mut dyn Model, (i, v): (usize, f64)| {
        model.set_at(i, v).map_err(|e| {
            let name = model.var_info(i).map_or("?", |v| v.name).to_string();
            e.named(&name).to_string()
        })
    };
    for &x in &resolved {
        if early(model, x.0) {
            set(model, x)?;
        }
    }
    model.reset();
    for &x in &resolved {
        if !early(model, x.0) {
            set(model, x)?;
        }
    }
    Ok(())
}
