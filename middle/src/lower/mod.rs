//! The lowered step: the one implementation of the step semantics of [`crate::ir`], which every back end stores its own way.
//!
//! [`model`] turns one checked model into the statements of construction, reset and
//! step, in the order of the contract of [`crate::ir`], with every name resolved to a
//! [`Place`] of the instance tree, the stateful procedure of each δ rule as a [`Proc`],
//! and the liveness of the `otherwise` flags decided. [`variables`] lists the variables
//! seen through `sit_runtime::Model`. The back ends (the scalar generator: struct fields;
//! the batch generator: lanes; the interpreter: flat slots) are storage strategies over
//! these: they decide where a [`Place`] lives, not what a step does.
//!
//! A back end walks a [`Model`] as follows (this is the contract of `ir/contract.md`, written
//! once):
//!
//! - construction: every [`Model::defaults`] entry in order, then reset;
//! - reset: for each [`SubLink`] in order, its [`SubLink::params`] then a reset of the
//!   submodel; then every `on` flag to [`SubLink::initially_on`]; then every
//!   [`Model::inits`] entry in order; then every [`ModeSlot`] to its initial state; then
//!   the memories of `deriv` cleared, the
//!   `otherwise` flags cleared, time and `dt` to 0; then each [`EventUpdate`] in order
//!   with `value = false`, then the [`Model::initial`] pass (below), then each
//!   [`EventUpdate`] in order with `prev = cond`;
//! - step: store `dt`; for each [`SubLink`] switched on and not [`SubLink::placed`],
//!   its [`SubLink::inputs`] then a step of the submodel (a placed one does the same
//!   where its [`Stmt::Step`] stands in the body, with the `dt` of that point); each [`EventUpdate`] in order with `value = cond && !prev;
//!   prev = cond`; the `otherwise` flags to their initial value ([`FlagUse`]); each
//!   [`ModeSlot`] with `snapshot` copied to its start-of-step slot; the
//!   [`Model::body`] top to bottom; time advanced by `dt` through the instance's
//!   `sit_runtime::Clock` (reset with the time).
//!
//! # The initial pass
//!
//! [`Model::initial`] is run at reset like the body of a step (its `otherwise` flags
//! false first, used as [`Model::initial_flags`] says), with every event false and
//! `dt = 0`: the rules of the model's *computed* states, those that every step
//! assigns from other values before any rule reads them (the exact rule is in
//! `lower/initial.rs`), so that the values at t = 0 are consistent (`total = a + b`
//! shows `a + b`) and no rule of a step sees the difference. The computed states are
//! found on the rules as written, before a method's rewrite ([`Lowered`] keeps them),
//! so the row at t = 0 is the same under every method.

mod adaptive;
mod build;
mod dense;
mod dopri5;
mod fired;
mod hidden;
mod implicit;
mod initial;
pub mod jacobian;
mod located;
pub mod method;
mod pass;
mod phase;
mod prev;
mod program;
pub mod rewrite;
mod rk4_loop;
mod rosenbrock;
mod stages;
mod stiffness;
mod substep;
mod tableau;
mod term;
#[cfg(test)]
mod tests;
mod vars;
mod why;

pub use phase::{PhaseLink, find as find_phase};
pub use program::{Lowered, Prepare};
pub use rewrite::Rewrite;
pub use substep::SubstepLink;
pub use term::{Budget, LowerError, MAX_DEPTH, MAX_OPS, Place, Reads, Slot, Term};
pub use vars::{Access, Entry, Item, variables, visible_count};
pub use why::instrument_events;

use crate::Span;
use crate::ir::{
    self, EventId, FiredId, MemId, ModeId, ModelId, Program, Rhs, StateId, SubId, VarId,
};
use term::{Lowerer, get};

/// One model's construction, reset and step, lowered (see the module documentation for
/// the order in which a back end runs the parts).
#[derive(Debug, Clone)]
pub struct Model {
    /// The model lowered.
    pub id: ModelId,
    /// Free params and inputs with their defaults, in declaration order (construction).
    pub defaults: Vec<Init>,
    /// The submodels, in declaration order, with their bindings.
    pub subs: Vec<SubLink>,
    /// The events, in declaration order.
    pub events: Vec<EventUpdate>,
    /// States with their initial values, in declaration order (reset).
    pub inits: Vec<Init>,
    /// Per `otherwise` flag, how the step uses it.
    pub flags: Vec<FlagUse>,
    /// The rules of `step`, in textual order.
    pub body: Vec<Stmt>,
    /// The initial pass of reset: the rules of the computed states (see
    /// [the module documentation](self#the-initial-pass)), in textual order, with
    /// their guards.
    pub initial: Vec<Stmt>,
    /// Per `otherwise` flag, how the initial pass uses it.
    pub initial_flags: Vec<FlagUse>,
    /// The instantaneous phases, in declaration order (see [`PhaseLink`]).
    pub phases: Vec<PhaseLink>,
    /// The modes, in declaration order.
    pub modes: Vec<ModeSlot>,
    /// The sub-steps, if the model declares them (see [`SubstepLink`]).
    pub substeps: Option<SubstepLink>,
}

/// A mode as reset and step see it: to `initial` in a reset (after the states' initial
/// values, before the events are initialised, which may read it); its state copied to
/// its [`Slot::ModeStart`] at the start of a step, before the rules, when `snapshot`.
#[derive(Debug, Clone)]
pub struct ModeSlot {
    /// The mode.
    pub mode: ModeId,
    /// Its initial state (the first declared).
    pub initial: StateId,
    /// Its number of states.
    pub states: usize,
    /// Whether a transition reads its start-of-step state (it has transitions).
    pub snapshot: bool,
    /// The declaration.
    pub span: Span,
}

/// `var = value` in the instance where the code runs (a default, an initial value), or
/// in a submodel (a binding, evaluated in the parent).
#[derive(Debug, Clone)]
pub struct Init {
    /// The variable assigned (never a derived param).
    pub var: VarId,
    /// The value, in the scope of the instance evaluating it.
    pub value: Term,
    /// The declaration's name, or the binding.
    pub span: Span,
}

/// A submodel as its parent steps and resets it.
#[derive(Debug, Clone)]
pub struct SubLink {
    /// The submodel.
    pub sub: SubId,
    /// Its model.
    pub model: ModelId,
    /// Param bindings (submodel variables, values in the parent), applied before each
    /// reset of the submodel.
    pub params: Vec<Init>,
    /// Input bindings, applied before each step of the submodel.
    pub inputs: Vec<Init>,
    /// Whether the submodel is switched on after reset.
    pub initially_on: bool,
    /// Whether a [`Stmt::Step`] of the body steps it (`step(name);`), not the start of
    /// the step.
    pub placed: bool,
    /// The declaration.
    pub span: Span,
}

/// An event's update: `value = rising(cond, prev)` in a step, `value = false; prev =
/// cond` in a reset.
#[derive(Debug, Clone)]
pub struct EventUpdate {
    /// The event.
    pub event: EventId,
    /// Its condition.
    pub cond: Term,
    /// The declaration.
    pub span: Span,
}

/// How the step uses one `otherwise` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagUse {
    /// No `otherwise` rule reads it: it needs no storage.
    Unread,
    /// Every path to every read sets it first: it is `true` at every read (so the
    /// `otherwise` rule never runs) and no rule sets it.
    AlwaysSet,
    /// `false` at the start of the step, set by the rules whose [`Assign::sets`] names
    /// it; `mutated` is false when no rule does.
    Tracked {
        /// Whether some rule sets it.
        mutated: bool,
    },
}

/// A statement of the rules of `step`.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// A δ rule.
    Assign(Assign),
    /// An `otherwise` rule: runs when flag `fired` is false.
    Otherwise {
        /// The rule.
        assign: Assign,
        /// The flag it reads.
        fired: FiredId,
    },
    /// Guarded statements: `cond` is evaluated once, before the first of `then`.
    If {
        /// The guard.
        cond: Term,
        /// The guarded statements.
        then: Vec<Stmt>,
        /// The guard's source.
        span: Span,
        /// Whether the guard was written on one rule (`x = e when c;`): `then` is that
        /// rule, whose span contains the guard's.
        one_rule: bool,
    },
    /// σ: set a flag state.
    SetFlag {
        /// The flag.
        var: VarId,
        /// The value.
        value: bool,
        /// The action.
        span: Span,
    },
    /// σ: switch a submodel on or off.
    Switch {
        /// The submodel.
        sub: SubId,
        /// On or off.
        on: bool,
        /// The action.
        span: Span,
    },
    /// A transition's move: the mode enters a state.
    SetMode {
        /// The mode.
        mode: ModeId,
        /// The state entered.
        state: StateId,
        /// The transition.
        span: Span,
    },
    /// σ: reset a submodel (its [`SubLink::params`], then its reset).
    Reset {
        /// The submodel.
        sub: SubId,
        /// The action.
        span: Span,
    },
    /// σ: run an instantaneous phase to its end (see [`PhaseLink`]).
    Run {
        /// The phase's submodel.
        sub: SubId,
        /// The action.
        span: Span,
    },
    /// `step(sub);`: if the submodel is switched on, its [`SubLink::inputs`] then a step
    /// of it (by the `dt` of this point of the step), as the start of the step does for
    /// a submodel that is not [`SubLink::placed`].
    Step {
        /// The submodel.
        sub: SubId,
        /// The statement.
        span: Span,
    },
    /// A bounded loop of an adaptive method (`Rewrite::Repeat`): run `body`, clear the
    /// flags of `clear` (false at the start of the step, so false before each run of
    /// `body`), evaluate `until`; stop when it holds; else, if the real state `count`
    /// is at least `limit`, stop the program with
    /// `sit_runtime::internal_steps_overrun(model, method, time, limit)`; else again.
    Repeat {
        /// The statements repeated.
        body: Vec<Stmt>,
        /// The end condition, evaluated after each run of `body`.
        until: Term,
        /// The counter of runs, which `body` increments.
        count: VarId,
        /// The most runs.
        limit: u64,
        /// The integration method whose steps these are (its name, for the fault).
        method: &'static str,
        /// The `otherwise` flags that `body` sets, cleared after each run of it.
        clear: Vec<FiredId>,
        /// The counter of events located in the step (a real state) and the most allowed:
        /// above it after a run, the program stops with
        /// `sit_runtime::events_overrun(model, time, limit)`.
        events: Option<(VarId, u64)>,
        /// The model's span.
        span: Span,
    },
    /// Each mode with a [`Slot::ModeStart`] notes its state there (`Rewrite::NoteModes`).
    NoteModes {
        /// The model's span.
        span: Span,
    },
    /// `dt` reads `value` from here on in this step (`Rewrite::SetDt`).
    SetDt {
        /// The new length of the step.
        value: Term,
        /// The model's span.
        span: Span,
    },
    /// An implicit method's factorisation (`Rewrite::Factor`): the real states
    /// `matrix` (row-major, `n·n` with `n = pivots.len()`) become their LU factors and
    /// `pivots` the pivot rows, by `sit_runtime::stage_factor(model, method, time,
    /// matrix, pivots)`, which stops the program on a singular matrix.
    Factor {
        /// The matrix, row-major.
        matrix: Vec<VarId>,
        /// The pivot rows (reals).
        pivots: Vec<VarId>,
        /// The integration method (for the fault).
        method: &'static str,
        /// The model's span.
        span: Span,
    },
    /// A stage solve (`Rewrite::Solve`): the real states `rhs` become the solution of
    /// `A·x = rhs`, by `sit_runtime::stage_solve(matrix, pivots, rhs)` with the factors
    /// of a [`Stmt::Factor`].
    Solve {
        /// The factors, row-major.
        matrix: Vec<VarId>,
        /// The pivot rows.
        pivots: Vec<VarId>,
        /// The right-hand side, replaced by the solution.
        rhs: Vec<VarId>,
        /// The model's span.
        span: Span,
    },
    /// Stops the program with `sit_runtime::step_underflow(model, method, time, step)`
    /// (`Rewrite::Underflow`).
    Underflow {
        /// The internal step proposed (a real state).
        step: VarId,
        /// The integration method.
        method: &'static str,
        /// The model's span.
        span: Span,
    },
}

/// The `otherwise` flags that some rule of `body` sets, in increasing order.
fn flags_set(body: &[Stmt], out: &mut Vec<FiredId>) {
    walk(body, &mut |s| {
        if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s {
            out.extend(a.sets);
        }
    });
}

impl Stmt {
    /// The statements this one holds (a guarded block's, a loop's body), in order; empty
    /// for the others.
    pub fn children(&self) -> &[Stmt] {
        match self {
            Stmt::If { then: body, .. } | Stmt::Repeat { body, .. } => body,
            _ => &[],
        }
    }

    /// Where the statement is written: its rule, action, guard or (for the statements
    /// of a method's rewrite) the model.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => a.span,
            Stmt::If { span, .. }
            | Stmt::SetFlag { span, .. }
            | Stmt::Switch { span, .. }
            | Stmt::SetMode { span, .. }
            | Stmt::Reset { span, .. }
            | Stmt::Run { span, .. }
            | Stmt::Step { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::NoteModes { span }
            | Stmt::SetDt { span, .. }
            | Stmt::Factor { span, .. }
            | Stmt::Solve { span, .. }
            | Stmt::Underflow { span, .. } => *span,
        }
    }
}

/// Calls `f` on every statement of `body` and of the statements it holds, in
/// pre-order: the one walk over lowered statements that the back ends' analyses share.
pub fn walk<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in body {
        f(s);
        walk(s.children(), f);
    }
}

/// The procedure of a δ rule: `target = PROC(operands)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proc {
    /// The value of the one operand.
    Expr,
    /// `sit_runtime::integral(y, x, dt)`.
    Integral,
    /// `sit_runtime::integral_limited(y, x, lo, hi, dt)`.
    IntegralLimited,
    /// `sit_runtime::lag(y, x, t, k, dt)`.
    Lag,
    /// `Deriv::next(x, dt)` on the rule's hidden memory.
    Deriv {
        /// The memory.
        mem: MemId,
    },
    /// `sit_runtime::hysteresis(y, x, lo, hi, a)`.
    Hysteresis,
    /// `sit_runtime::timer(y, c, dt)`, whose one operand is logical.
    Timer,
}

impl Proc {
    /// The function at the top of `sit_runtime` called as `f(y?, operands.., dt?)`
    /// (see [`Proc::reads_target`] and [`Proc::takes_dt`]); `None` for a plain
    /// expression and for `deriv`, a method of its memory (`Deriv::next(x, dt)`).
    pub fn runtime(self) -> Option<&'static str> {
        match self {
            Proc::Expr | Proc::Deriv { .. } => None,
            Proc::Integral => Some("integral"),
            Proc::IntegralLimited => Some("integral_limited"),
            Proc::Lag => Some("lag"),
            Proc::Hysteresis => Some("hysteresis"),
            Proc::Timer => Some("timer"),
        }
    }

    /// Whether the target's current value is the first argument.
    pub fn reads_target(self) -> bool {
        !matches!(self, Proc::Expr | Proc::Deriv { .. })
    }

    /// Whether `dt` is the last argument.
    pub fn takes_dt(self) -> bool {
        !matches!(self, Proc::Expr | Proc::Hysteresis)
    }

    /// Whether the procedure updates a hidden memory (so it may run only where the
    /// rule runs).
    pub fn has_memory(self) -> bool {
        matches!(self, Proc::Deriv { .. })
    }

    /// The procedure's name in `.sit` source (`expr` for a plain expression).
    pub fn name(self) -> &'static str {
        match self {
            Proc::Expr => "expr",
            Proc::Integral | Proc::IntegralLimited => "integral",
            Proc::Lag => "lag",
            Proc::Deriv { .. } => "deriv",
            Proc::Hysteresis => "hysteresis",
            Proc::Timer => "timer",
        }
    }
}

/// A δ assignment `target = proc(operands)`.
#[derive(Debug, Clone)]
pub struct Assign {
    /// A real state of the model.
    pub target: VarId,
    /// The procedure.
    pub proc: Proc,
    /// Its operands, in evaluation order (`x`, then `lo, hi` / `t, k` / `lo, hi, a`).
    pub operands: Vec<Term>,
    /// The `otherwise` flag this rule sets, when a later read can see it.
    pub sets: Option<FiredId>,
    /// The whole rule.
    pub span: Span,
}

/// The expression `e`, written in the scope of model `model`, as a [`Term`] of that
/// scope (for what a back end evaluates outside the step: accessors, the variable list).
pub fn term<X>(
    program: &Program<X>,
    model: ModelId,
    e: &ir::Expr,
    reads: Reads,
) -> Result<Term, LowerError> {
    Lowerer::new(program, reads).term(model, e)
}

/// [`term`] within a smaller [`Budget`] than the back ends': for analyses that give up
/// quietly on what is too large for them (the lints' guard solver).
pub fn term_within<X>(
    program: &Program<X>,
    model: ModelId,
    e: &ir::Expr,
    reads: Reads,
    budget: Budget,
) -> Result<Term, LowerError> {
    Lowerer::within(program, reads, budget).term(model, e)
}

/// Lowers model `id` of a lowered program, with reads of derived params and conditions
/// as `reads` says.
pub fn model(lowered: &Lowered, id: ModelId, reads: Reads) -> Result<Model, LowerError> {
    let program = lowered.program();
    let m = get(&program.models, id, "model")?;
    debug_assert_eq!(
        m.method,
        ir::Method::Euler,
        "methods are rewritten by `Lowered::new`"
    );
    let mut lw = Lowerer::new(program, reads);
    let mut defaults = Vec::new();
    let mut inits = Vec::new();
    for (v, var) in m.vars.iter().enumerate() {
        let list = match var.kind {
            _ if var.is_derived() => continue,
            ir::VarKind::Param { .. } | ir::VarKind::Input => &mut defaults,
            ir::VarKind::State => &mut inits,
        };
        list.push(Init {
            var: v,
            value: lw.term(id, &var.init)?,
            span: var.span,
        });
    }
    let mut subs = Vec::with_capacity(m.subs.len());
    let mut phases = Vec::new();
    for (s, sub) in m.subs.iter().enumerate() {
        let child = get(&program.models, sub.model, "model")?;
        let mut bind = |bs: &[ir::Binding]| -> Result<Vec<Init>, LowerError> {
            bs.iter()
                .map(|b| {
                    let var = get(&child.vars, b.var, "bound variable")?;
                    if var.is_derived() {
                        return Err(LowerError::Malformed(format!(
                            "binding of the derived param `{}`",
                            var.name
                        )));
                    }
                    Ok(Init {
                        var: b.var,
                        value: lw.term(id, &b.value)?,
                        span: b.span,
                    })
                })
                .collect()
        };
        let params = bind(&sub.param_bindings)?;
        let mut inputs = bind(&sub.input_bindings)?;
        if let Some(ph) = &sub.phase {
            phases.push(PhaseLink {
                sub: s,
                model: sub.model,
                name: sub.name.clone(),
                binds: std::mem::take(&mut inputs),
                step: ph.step,
                limit: ph.limit,
                until: lw.term(id, &ph.until)?,
                span: sub.span,
            });
        }
        subs.push(SubLink {
            sub: s,
            model: sub.model,
            params,
            inputs,
            initially_on: sub.initially_on && sub.phase.is_none(),
            placed: sub.placed.is_some(),
            span: sub.span,
        });
    }
    let events = m
        .events
        .iter()
        .enumerate()
        .map(|(e, ev)| {
            Ok(EventUpdate {
                event: e,
                cond: lw.term(id, &ev.cond)?,
                span: ev.span,
            })
        })
        .collect::<Result<_, LowerError>>()?;
    let substeps = substep::link(&mut lw, id, m)?;
    let live = fired::Fired::new(&m.body, m.fired);
    let flags = flag_uses(&live, &m.body, m.fired);
    let mut rules = Rules {
        lw,
        model: id,
        m,
        live: &live,
        pos: 0,
    };
    let body = rules.stmts(&m.body)?;
    let modes = m
        .modes
        .iter()
        .enumerate()
        .map(|(k, md)| ModeSlot {
            mode: k,
            initial: 0,
            states: md.states.len(),
            snapshot: reads_start(&body, k),
            span: md.span,
        })
        .collect();
    // On the rules as written, not on the method's stages (where a guarded rule that
    // feeds the continuous part is no longer a rule of the step's top level): the row
    // at t = 0 is the same under every method.
    let mut pass: Vec<rewrite::Stmt> = initial::pass(lowered.unrewritten(), id)
        .into_iter()
        .map(ir::Stmt::widen)
        .collect();
    pass.extend(lowered.copy_statements(id));
    let live = fired::Fired::new(&pass, m.fired);
    let initial_flags = flag_uses(&live, &pass, m.fired);
    let mut rules = Rules {
        live: &live,
        pos: 0,
        ..rules
    };
    let initial = rules.stmts(&pass)?;
    Ok(Model {
        id,
        defaults,
        subs,
        events,
        inits,
        flags,
        body,
        phases,
        modes,
        initial,
        initial_flags,
        substeps,
    })
}

/// Whether a statement of `body` reads the start-of-step state of mode `mode`.
fn reads_start(body: &[Stmt], mode: ModeId) -> bool {
    let term = |t: &Term| {
        let mut found = false;
        t.visit(&mut |x| {
            found |=
                matches!(x, Term::InMode(Place { slot: Slot::ModeStart(m), .. }, _) if *m == mode)
        });
        found
    };
    body.iter().any(|s| match s {
        Stmt::If { cond, then, .. } => term(cond) || reads_start(then, mode),
        _ => false,
    })
}

/// How a rule list uses each of its `fired` flags.
fn flag_uses(live: &fired::Fired, body: &[rewrite::Stmt], fired: usize) -> Vec<FlagUse> {
    (0..fired)
        .map(|k| {
            if !live.read[k] {
                FlagUse::Unread
            } else if !live.initial_live[k] {
                FlagUse::AlwaysSet
            } else {
                FlagUse::Tracked {
                    mutated: live.ever_set(body, k),
                }
            }
        })
        .collect()
}

/// Lowers the rules of one model, in the pre-order of [`fired::Fired`]'s positions.
struct Rules<'p, 'f> {
    lw: Lowerer<'p, Rewrite>,
    model: ModelId,
    m: &'p rewrite::Model,
    live: &'f fired::Fired,
    /// Pre-order position of the last statement lowered.
    pos: usize,
}

impl Rules<'_, '_> {
    fn stmts(&mut self, body: &[rewrite::Stmt]) -> Result<Vec<Stmt>, LowerError> {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &rewrite::Stmt) -> Result<Stmt, LowerError> {
        self.pos += 1;
        Ok(match s {
            ir::Stmt::Assign(a) => Stmt::Assign(self.assign(a)?),
            ir::Stmt::Otherwise { assign, fired } => {
                if *fired >= self.m.fired {
                    return Err(LowerError::Malformed(format!(
                        "`otherwise` flag {fired} out of range"
                    )));
                }
                Stmt::Otherwise {
                    assign: self.assign(assign)?,
                    fired: *fired,
                }
            }
            ir::Stmt::If { cond, then, span } => {
                let one_rule = matches!(
                    then.as_slice(),
                    [ir::Stmt::Assign(a)] if a.span.start <= span.start && span.end <= a.span.end
                );
                Stmt::If {
                    cond: self.lw.term(self.model, cond)?,
                    then: self.stmts(then)?,
                    span: *span,
                    one_rule,
                }
            }
            ir::Stmt::SetFlag { var, value, span } => {
                let v = get(&self.m.vars, *var, "variable")?;
                if v.kind != ir::VarKind::State || v.ty != ir::Ty::Flag {
                    return Err(LowerError::Malformed(format!(
                        "σ action on `{}`, which is not a flag state",
                        v.name
                    )));
                }
                Stmt::SetFlag {
                    var: *var,
                    value: *value,
                    span: *span,
                }
            }
            ir::Stmt::Switch { sub, on, span } => {
                get(&self.m.subs, *sub, "submodel")?;
                Stmt::Switch {
                    sub: *sub,
                    on: *on,
                    span: *span,
                }
            }
            ir::Stmt::SetMode { mode, state, span } => {
                let md = get(&self.m.modes, *mode, "mode")?;
                get(&md.states, *state, "state")?;
                Stmt::SetMode {
                    mode: *mode,
                    state: *state,
                    span: *span,
                }
            }
            ir::Stmt::Reset { sub, span } => {
                get(&self.m.subs, *sub, "submodel")?;
                Stmt::Reset {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Step { sub, span } => {
                let s = get(&self.m.subs, *sub, "submodel")?;
                if s.phase.is_some() || s.placed.is_none() {
                    return Err(LowerError::Malformed(format!(
                        "`step` of `{}`, which is a phase or placed elsewhere",
                        s.name
                    )));
                }
                Stmt::Step {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Run { sub, span } => {
                if get(&self.m.subs, *sub, "submodel")?.phase.is_none() {
                    return Err(LowerError::Malformed(format!(
                        "`run` of `{}`, which is not a phase",
                        self.m.subs[*sub].name
                    )));
                }
                Stmt::Run {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Repeat {
                body,
                until,
                count,
                limit,
                method,
                events,
                span,
            }) => {
                get(&self.m.vars, *count, "variable")?;
                if let Some((n, _)) = events {
                    get(&self.m.vars, *n, "variable")?;
                }
                let body = self.stmts(body)?;
                let mut clear = Vec::new();
                flags_set(&body, &mut clear);
                clear.sort_unstable();
                clear.dedup();
                Stmt::Repeat {
                    body,
                    until: self.lw.term(self.model, until)?,
                    count: *count,
                    limit: *limit,
                    method,
                    clear,
                    events: *events,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::NoteModes { span }) => Stmt::NoteModes { span: *span },
            ir::Stmt::Added(Rewrite::SetDt { value, span }) => Stmt::SetDt {
                value: self.lw.term(self.model, value)?,
                span: *span,
            },
            ir::Stmt::Added(Rewrite::Factor {
                matrix,
                pivots,
                method,
                span,
            }) => {
                self.reals(matrix.iter().chain(pivots))?;
                if matrix.len() != pivots.len() * pivots.len() {
                    return Err(LowerError::Malformed(format!(
                        "a factorisation of {} entries with {} pivots",
                        matrix.len(),
                        pivots.len()
                    )));
                }
                Stmt::Factor {
                    matrix: matrix.clone(),
                    pivots: pivots.clone(),
                    method,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Solve {
                matrix,
                pivots,
                rhs,
                span,
            }) => {
                self.reals(matrix.iter().chain(pivots).chain(rhs))?;
                let n = pivots.len();
                if matrix.len() != n * n || rhs.len() != n {
                    return Err(LowerError::Malformed(format!(
                        "a stage solve of {} unknowns with {} entries and {n} pivots",
                        rhs.len(),
                        matrix.len()
                    )));
                }
                Stmt::Solve {
                    matrix: matrix.clone(),
                    pivots: pivots.clone(),
                    rhs: rhs.clone(),
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Underflow { step, method, span }) => {
                self.reals(std::iter::once(step))?;
                Stmt::Underflow {
                    step: *step,
                    method,
                    span: *span,
                }
            }
        })
    }

    /// Checks that every variable of `vars` is a real state (a stage solve's).
    fn reals<'v>(&self, vars: impl Iterator<Item = &'v VarId>) -> Result<(), LowerError> {
        for &v in vars {
            let var = get(&self.m.vars, v, "variable")?;
            if var.kind != ir::VarKind::State || var.ty != ir::Ty::Real {
                return Err(LowerError::Malformed(format!(
                    "a stage solve on `{}`, which is not a real state",
                    var.name
                )));
            }
        }
        Ok(())
    }

    fn assign(&mut self, a: &ir::Assign) -> Result<Assign, LowerError> {
        let v = get(&self.m.vars, a.target, "variable")?;
        if v.kind != ir::VarKind::State || v.ty != ir::Ty::Real {
            return Err(LowerError::Malformed(format!(
                "δ rule on `{}`, which is not a real state",
                v.name
            )));
        }
        let proc = match &a.rhs {
            Rhs::Expr(_) => Proc::Expr,
            Rhs::Integral { .. } => Proc::Integral,
            Rhs::IntegralLimited { .. } => Proc::IntegralLimited,
            Rhs::Lag { .. } => Proc::Lag,
            Rhs::Deriv { mem, .. } => {
                get(&self.m.memories, *mem, "memory")?;
                Proc::Deriv { mem: *mem }
            }
            Rhs::Hysteresis { .. } => Proc::Hysteresis,
            Rhs::Timer { .. } => Proc::Timer,
        };
        let operands = a
            .rhs
            .operands()
            .into_iter()
            .map(|e| self.lw.term(self.model, e))
            .collect::<Result<_, _>>()?;
        let sets = a.fired.filter(|&k| self.live.sets(k, self.pos));
        Ok(Assign {
            target: a.target,
            proc,
            operands,
            sets,
            span: a.span,
        })
    }
}
