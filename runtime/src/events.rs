//! The event log: every change of a logical variable in a step, with the rule that made it.
//!
//! A model built for logging (`sit_middle::lower::instrument_events`, which the
//! interpreter and `sit_build::Builder::events` call) carries one hidden real state
//! ([`Model::hidden_count`]) per
//! stored logical variable, per submodel reset or phase run and per real state that a
//! condition may read, its *why*: the
//! number of the last rule of the step that assigned it (a [`Site`] of the [`Table`]).
//! [`Recorder`] clears the whys before a step, compares the watched values after it and
//! turns each change into an [`Event`]; [`Logged`] wraps a model so that every step
//! records its events. The whys are found by name among the hidden states (or, for a
//! model that lists them, among its variables, which [`Logged`] then hides). A model
//! that is not wrapped runs exactly as without the log.
//!
//! Which rule an event names (`rule`, the `file:line` of [`Event::site`]):
//!
//! - a flag state, a mode, `NAME.on`: the last σ action, transition or switch of the
//!   step that assigned it; if none did, the nearest `reset(…)` or `run(…)` of an
//!   enclosing submodel in the step; else none (an input flag set from outside);
//! - an event: its declaration;
//! - a pred or situation: among the variables it reads (through other conditions
//!   too) whose value the step changed, the one assigned last in step order (a
//!   submodel's rules before its parent's, then rules top to bottom); its rule. None
//!   when no rule changed what it reads (the time, an input);
//! - `reset(NAME)`: the reset action (one row, `from` empty, `to` = `reset`);
//! - the steps a Newton iteration needed (`v_newton_steps`, a hidden real the
//!   equations' pass computes): the block's first equation.

use crate::model::{Model, SetError, Var, VarInfo};
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// What a watched name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WatchKind {
    /// A flag state or input flag.
    Flag,
    /// A pred or situation (computed where read).
    Cond,
    /// An event (true in the step it fires).
    Event,
    /// A mode (its value is the index of its state).
    Mode,
    /// `NAME.on` of a submodel.
    On,
    /// `reset(NAME)` of a submodel (an action: one row per reset).
    Reset,
    /// The steps a block of equations' Newton iteration needed (`v_newton_steps`, a
    /// hidden real: 0 … 12), at the last evaluation of the step; its rule is the
    /// block's first equation.
    Newton,
}

/// A place in the source that can change a logical variable: a σ action, a transition,
/// a switch, a reset, a δ rule or an event's declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// `file:line`.
    pub location: String,
    /// Its source text, whitespace collapsed.
    pub text: String,
    /// The guards it is written under, outermost first (source text).
    pub guards: Vec<String>,
    /// The reals its guards read (a transition's own guard included), outermost guard
    /// first, with the hidden copies that hold what they read when it ran.
    pub reads: Vec<GuardRead>,
}

/// A real a guard of a [`Site`] reads, and the hidden state that holds the value it
/// read when a rule under the guard last ran ([`Recorder::guard_values`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardRead {
    /// The name as the guard's model sees it (`elapsed`, `tank.level`, `time`).
    pub name: String,
    /// The hidden copy's name in that model (one of the table's whys).
    pub copy: String,
}

/// A variable a pred or situation reads, with its why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// Dotted name of the variable.
    pub name: String,
    /// Dotted name of its why (`None`: no rule assigns it: a param, an input).
    pub why: Option<String>,
    /// The position of its instance in step order (submodels before their parent).
    pub order: usize,
}

/// One logical variable (or submodel reset) of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watch {
    /// Dotted name (`light`, `pump.on`, `tank.full`).
    pub name: String,
    /// What it is.
    pub kind: WatchKind,
    /// Dotted name of its why, for a flag, mode, `NAME.on` and reset.
    pub why: Option<String>,
    /// For a pred or situation: what it reads.
    pub reads: Vec<Read>,
    /// For a mode: its states' names, by index.
    pub states: Vec<String>,
    /// For an event: its declaration; for a Newton count: the block's first equation.
    pub decl: Option<usize>,
    /// The whys of the resets of its enclosing submodels, nearest first.
    pub within: Vec<String>,
}

/// What a model built for logging watches: computed once from the lowered program.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Table {
    /// The watched names, in the order of the variable list.
    pub watches: Vec<Watch>,
    /// The sites; a why holds `index + 1` (0: not assigned in this step).
    pub sites: Vec<Site>,
    /// Every why's dotted name (hidden from [`Logged`]'s variable list).
    pub whys: Vec<String>,
}

/// One change of a logical variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The time of the first trace row that shows the new value (the time after the
    /// step).
    pub t: f64,
    /// Dotted name.
    pub name: String,
    /// The value before: `0`/`1`, a mode's state name; empty for a reset.
    pub from: String,
    /// The value after (`reset` for a reset).
    pub to: String,
    /// The rule that made the change (index into [`Table::sites`]).
    pub site: Option<usize>,
}

impl Event {
    /// The `file:line` of the rule, or an empty string.
    pub fn rule<'t>(&self, table: &'t Table) -> &'t str {
        self.site
            .and_then(|s| table.sites.get(s))
            .map_or("", |s| s.location.as_str())
    }
}

/// A name of the table that the model does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingVar(pub String);

impl core::fmt::Display for MissingVar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the model has no variable `{}`: was it built for the event log?",
            self.0
        )
    }
}

impl std::error::Error for MissingVar {}

#[derive(Debug, Clone)]
struct Resolved {
    var: Option<usize>,
    why: Option<usize>,
    reads: Vec<(usize, Option<usize>, usize)>,
    within: Vec<usize>,
}

/// Records the events of a model's steps (see the module documentation).
#[derive(Debug, Clone)]
pub struct Recorder {
    table: Table,
    watches: Vec<Resolved>,
    whys: Vec<usize>,
    /// The variables whose values before a step are compared (watched and read).
    needed: Vec<usize>,
    /// Value before the step of each variable (those of `needed`; 0 for the rest).
    before: Vec<f64>,
}

impl Recorder {
    /// A recorder of `model` (built for logging) as `table` describes it.
    pub fn new<M: Model + ?Sized>(table: Table, model: &M) -> Result<Recorder, MissingVar> {
        let index = |name: &str| {
            (model.var_index(name))
                .or_else(|| model.hidden_index(name))
                .ok_or_else(|| MissingVar(name.to_string()))
        };
        let opt = |name: &Option<String>| name.as_deref().map(index).transpose();
        let mut watches = Vec::with_capacity(table.watches.len());
        for w in &table.watches {
            let var = match w.kind {
                WatchKind::Reset => None,
                _ => Some(index(&w.name)?),
            };
            let mut reads = Vec::new();
            for r in &w.reads {
                reads.push((index(&r.name)?, opt(&r.why)?, r.order));
            }
            let within = (w.within.iter().map(|n| index(n))).collect::<Result<_, _>>()?;
            watches.push(Resolved {
                var,
                why: opt(&w.why)?,
                reads,
                within,
            });
        }
        let whys = (table.whys.iter().map(|n| index(n))).collect::<Result<_, _>>()?;
        let mut needed: Vec<usize> = (watches.iter())
            .flat_map(|w| w.var.into_iter().chain(w.reads.iter().map(|r| r.0)))
            .collect();
        needed.sort_unstable();
        needed.dedup();
        let mut r = Recorder {
            table,
            watches,
            whys,
            needed,
            before: vec![0.0; model.var_count() + model.hidden_count()],
        };
        r.snapshot(model);
        Ok(r)
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Notes the values the next step starts from (after a reset or a change from
    /// outside; [`Recorder::start`] does it too).
    pub fn snapshot<M: Model + ?Sized>(&mut self, model: &M) {
        for &i in &self.needed {
            self.before[i] = model.get_at(i).unwrap_or(0.0);
        }
    }

    /// Before a step: notes the values and clears the whys.
    pub fn start<M: Model + ?Sized>(&mut self, model: &mut M) -> Result<(), SetError<'static>> {
        for &w in &self.whys {
            model.set_at(w, 0.0)?;
        }
        self.snapshot(model);
        Ok(())
    }

    /// After a step: calls `out` with each change, in the order of the table.
    pub fn finish<M: Model + ?Sized>(&self, model: &M, mut out: impl FnMut(Event)) {
        let t = model.time();
        let get = |i: usize| model.get_at(i).unwrap_or(0.0);
        let why = |i: Option<usize>| i.map(get).filter(|&v| v >= 1.0).map(|v| v as usize - 1);
        for (w, r) in self.table.watches.iter().zip(&self.watches) {
            let Some(var) = r.var else {
                if let Some(site) = why(r.why) {
                    out(Event {
                        t,
                        name: w.name.clone(),
                        from: String::new(),
                        to: "reset".to_string(),
                        site: Some(site),
                    });
                }
                continue;
            };
            let (from, to) = (self.before[var], get(var));
            if from.to_bits() == to.to_bits() {
                continue;
            }
            let site = match w.kind {
                WatchKind::Event | WatchKind::Newton => w.decl,
                WatchKind::Cond => self.cond_site(r, &get),
                _ => why(r.why).or_else(|| r.within.iter().find_map(|&i| why(Some(i)))),
            };
            out(Event {
                t,
                name: w.name.clone(),
                from: self.value(w, from),
                to: self.value(w, to),
                site,
            });
        }
    }

    /// The rule of a pred's or situation's change: the last in step order that changed
    /// a variable it reads.
    fn cond_site(&self, r: &Resolved, get: &impl Fn(usize) -> f64) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for &(var, why, order) in &r.reads {
            if self.before[var].to_bits() == get(var).to_bits() {
                continue;
            }
            let Some(site) = why.map(get).filter(|&v| v >= 1.0) else {
                continue;
            };
            let key = (order, site as usize - 1);
            if best.is_none_or(|b| key > b) {
                best = Some(key);
            }
        }
        best.map(|(_, s)| s)
    }

    /// The values the guards of the rule of `event` read when the rule ran, by name
    /// (dotted for a rule of a submodel): call it after the step of the event (from
    /// [`Recorder::finish`]'s callback), before the next one. Empty for a rule without
    /// guards, an event's declaration, or no rule.
    pub fn guard_values<M: Model + ?Sized>(&self, model: &M, event: &Event) -> Vec<(String, f64)> {
        let Some(site) = event
            .site
            .and_then(|s| self.table.sites.get(s).map(|x| (s, x)))
        else {
            return Vec::new();
        };
        let (index, site) = site;
        // The instance of the rule: the one whose why names it (watched, enclosing, or
        // of a variable a condition reads).
        let Some(w) = self.table.watches.iter().find(|w| w.name == event.name) else {
            return Vec::new();
        };
        let candidates = (w.why.iter())
            .chain(&w.within)
            .chain(w.reads.iter().filter_map(|r| r.why.as_ref()));
        // Whys and copies are hidden states: found by `hidden_index` as well.
        let value = |name: &str| {
            let i = (model.var_index(name)).or_else(|| model.hidden_index(name))?;
            model.get_at(i)
        };
        let names_site =
            |why: &&String| value(why).is_some_and(|v| v >= 1.0 && v as usize - 1 == index);
        let Some(why) = candidates.into_iter().find(names_site) else {
            return Vec::new();
        };
        let prefix = why.rfind('.').map_or("", |dot| &why[..=dot]);
        (site.reads.iter())
            .filter_map(|r| {
                let v = value(&std::format!("{prefix}{}", r.copy))?;
                Some((std::format!("{prefix}{}", r.name), v))
            })
            .collect()
    }

    /// For the change of a pred or situation, the variables it reads that the step
    /// changed: (name, value before, value after), the value as [`Model::get_at`] gives
    /// it. Call it as [`Recorder::guard_values`]. Empty for any other event.
    pub fn changed_reads<M: Model + ?Sized>(
        &self,
        model: &M,
        event: &Event,
    ) -> Vec<(String, f64, f64)> {
        let Some(k) = self.table.watches.iter().position(|w| w.name == event.name) else {
            return Vec::new();
        };
        let (w, r) = (&self.table.watches[k], &self.watches[k]);
        (w.reads.iter().zip(&r.reads))
            .filter_map(|(read, &(var, _, _))| {
                let (before, after) = (self.before[var], model.get_at(var)?);
                (before.to_bits() != after.to_bits()).then(|| (read.name.clone(), before, after))
            })
            .collect()
    }

    fn value(&self, w: &Watch, v: f64) -> String {
        match w.states.get(v as usize) {
            Some(s) if w.kind == WatchKind::Mode => s.clone(),
            _ if v == 0.0 => "0".to_string(),
            _ if v == 1.0 => "1".to_string(),
            _ => std::format!("{}", crate::number::shortest(v)),
        }
    }
}

/// A model whose steps record their events: a [`Model`] with the inner model's variables
/// (without the whys) and the same values, bit for bit, and its hidden states.
#[derive(Debug, Clone)]
pub struct Logged<M> {
    model: M,
    recorder: Recorder,
    /// Index in the inner model of each visible variable, then of each hidden state.
    visible: Vec<usize>,
    /// How many of `visible` are variables (the rest are hidden states).
    shown: usize,
    events: Vec<Event>,
}

impl<M: Model> Logged<M> {
    /// Wraps `model`, built for logging as `table` describes.
    pub fn new(model: M, table: Table) -> Result<Logged<M>, MissingVar> {
        let recorder = Recorder::new(table, &model)?;
        let count = model.var_count();
        let mut visible: Vec<usize> = (0..count).filter(|i| !recorder.whys.contains(i)).collect();
        let shown = visible.len();
        visible.extend(count..count + model.hidden_count());
        Ok(Logged {
            model,
            recorder,
            visible,
            shown,
            events: Vec::new(),
        })
    }

    /// The events recorded since the last [`Logged::take_events`].
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events recorded so far.
    pub fn take_events(&mut self) -> Vec<Event> {
        core::mem::take(&mut self.events)
    }

    /// The table (sites of the rules the events name).
    pub fn table(&self) -> &Table {
        self.recorder.table()
    }

    /// The wrapped model (with its whys).
    pub fn inner(&self) -> &M {
        &self.model
    }
}

impl<M: Model> Model for Logged<M> {
    fn step(&mut self, dt: f64) {
        // The whys are states of the model: always settable.
        let _ = self.recorder.start(&mut self.model);
        self.model.step(dt);
        let events = &mut self.events;
        self.recorder.finish(&self.model, |e| events.push(e));
    }

    fn reset(&mut self) {
        self.model.reset();
        self.recorder.snapshot(&self.model);
    }

    fn time(&self) -> f64 {
        self.model.time()
    }

    fn var_count(&self) -> usize {
        self.shown
    }

    fn hidden_count(&self) -> usize {
        self.visible.len() - self.shown
    }

    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        self.model.var_info(*self.visible.get(index)?)
    }

    fn get_at(&self, index: usize) -> Option<f64> {
        self.model.get_at(*self.visible.get(index)?)
    }

    fn mode_state(&self, index: usize, state: usize) -> Option<&str> {
        self.model.mode_state(*self.visible.get(index)?, state)
    }

    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        let inner = *(self.visible.get(index)).ok_or(SetError::Unknown(index.into()))?;
        // The inner model names the variable by its own index (whys included) or by
        // name: an index is replaced by the one the caller used.
        self.model.set_at(inner, value).map_err(|e| {
            let var = match e.var() {
                Var::Index(_) => Var::Index(index),
                name => name,
            };
            match e {
                SetError::Unknown(_) => SetError::Unknown(var),
                SetError::NotSettable { kind, reason, .. } => {
                    SetError::NotSettable { var, kind, reason }
                }
                SetError::NotLogical { value, .. } => SetError::NotLogical { var, value },
            }
        })
    }
}
