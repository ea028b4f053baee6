//! The checked intermediate representation that code generation and the interpreter consume.
//!
//! A [`Program`] is what is left of a set of `.sit` files once they have been
//! parsed, resolved and checked: every name is an index, every expression is
//! typed (real or logical) and every rule knows the source line it came from.
//! Back ends never see a name they have to look up, and never see an invalid
//! model.
//!
//! # Semantics of one step (what every back end must do, to the bit)
//!
//! `step(dt)` on an instance of [`Model`]:
//!
//! 1. for each submodel in declaration order that is switched on: assign its
//!    input bindings (evaluated in the parent with the parent's current
//!    values), then step it with the same `dt`;
//! 2. evaluate the model's events in declaration order: `value = cond &&
//!    !prev; prev = cond` (an event reads the newest values, including events
//!    declared before it);
//! 3. note each mode's state as its state at the start of the step
//!    ([`Expr::ModeAtStart`]), then run [`Model::body`] top to bottom; every
//!    expression reads the newest values (a rule sees what earlier rules of
//!    this step wrote). Named conditions ([`Cond`]) and derived params are
//!    evaluated where they are read. `otherwise` rules fire when no earlier
//!    rule of this step assigned the same target. A transition of a mode is a
//!    [`Stmt::If`] whose guard is `ModeAtStart(m, from) & InMode(m, from) &
//!    cond` and whose first statement is [`Stmt::SetMode`]: it fires only if
//!    the mode has not moved in this step, so a mode takes at most one
//!    transition per step;
//! 4. advance the model's time by `dt`, exactly: each instance counts the
//!    steps of its current run of equal steps (a run starts at reset at
//!    `t₀ = 0`, and at `t₀` = the current time whenever `dt` differs, bit for
//!    bit, from the previous step's); after `n` steps of `h` the time is
//!    `t₀ + n·h` with `n·h` computed as `(n·m)/10^k` from the shortest
//!    decimal `m·10^-k` (`k ≤ 22`) that rounds to `h`, while `|n·m| ≤ 2^53`,
//!    else as the `f64` product (`sit_runtime::Clock`, called by every back
//!    end). So a constant `dt` gives the double nearest to `n·dt`, not a sum.
//!
//! Construction (`new`) sets every free param and every input to its
//! default (free params and input defaults read only constants and free
//! params), then resets. Reset (the API's `reset()` and the σ action
//! `reset(sub)`) leaves params and inputs alone (they are set from outside)
//! and, in this order: re-applies each submodel's param bindings (from the
//! parent's params) and resets the submodel (recursively, before the
//! parent), switches each submodel on or off as declared, evaluates every
//! state's initial value in declaration order, puts every mode in its first
//! state ([`Mode::states`]), clears hidden memories and `otherwise` flags, sets
//! time and `dt` to 0, sets every event's value to false, runs the *initial
//! pass*, and initialises every event in declaration order: `prev = cond`
//! evaluated on the values so reached. A bound input keeps its last value until
//! the parent's next step binds it again.
//!
//! The initial pass makes the values at t = 0 consistent: it runs, as a step
//! would (top to bottom, guards evaluated, `otherwise` flags tracked), the
//! rules of the model's *computed* states and nothing else. A real state is
//! computed when all its rules are plain expressions (no stateful procedure)
//! reading neither the state itself nor `dt`, a top-level rule (unguarded or
//! `otherwise`) assigns it, and nothing in a step reads it before that rule:
//! no earlier rule or guard, no event, no input binding of the model's
//! submodels, no binding in a parent evaluated before this instance steps.
//! Every step overwrites such a state before anything reads it, so the pass
//! changes nothing a step computes: trajectories are those without the pass,
//! and only the values at t = 0 (as the host sees them) read `total = a + b`
//! instead of `total`'s declared initial value.
//!
//! `dt` reads the length of the current step (of the last step outside a
//! step, 0 before the first); `time` reads the model's own clock, which
//! advances only when the model steps (a switched-off submodel's clock
//! stops; switched on again, it continues its run of equal steps). Reset
//! restarts the clock's run at 0.
//!
//! # Integration methods
//!
//! A model's [`Method`] (`method NAME;`, or a per-run override:
//! [`Program::set_method`]) says how step 3 integrates. Under `euler` (the default)
//! it is as above. Under `rk4`, the rules split in two parts:
//!
//! - the **continuous part**: the *continuous states* (targets of `integral` and
//!   `lag`), their rates (the operands of those rules, `lag(x, T, k)` read as the
//!   rate `(k·x − y)/T`), and the *stage rules*: the plain rules (`x = e`, guarded or
//!   `otherwise`) whose targets the rates or their guards read, directly or through
//!   other stage rules, that do not assign a continuous state and whose target is
//!   computed at every evaluation (it has a rule without guard or an `otherwise`
//!   rule);
//! - the **discrete part**: everything else, run once per step: σ actions (a
//!   phase's `run` among them: a phase runs once, in the discrete pass), rules
//!   that jump a continuous state (`when impact { v = -e * v; }`), rules whose target
//!   is assigned only under guards (it keeps its value between them), `deriv` and
//!   `hysteresis`.
//!
//! Step 3 then is: save each continuous state `y0 = y`; four *stage passes*
//! (nodes `c = 0, ½, ½, 1`), each running the body in order with only the stage
//! rules and the rates (`k_s = rate` where the `integral` or `lag` rule stands; 0 if
//! its guard is false), guards evaluated on the stage values, flags, events,
//! submodel outputs, `deriv` and `hysteresis` targets frozen at their values at the
//! start of the step, `time` reading `time + c·dt`, and each `otherwise` flag
//! cleared per pass; between passes `y = y0 + (c_next·dt)·k_s`; then `y = y0 +
//! dt·(((k1 + 2·k2) + 2·k3) + k4)/6` (a limited integral's stages are not clamped);
//! then the body once as written (**the discrete pass**), in which each `integral`
//! and `lag` rule keeps its target's new value (a limited integral clamps it to its
//! bounds) and every other rule runs as under `euler`, reading the new states, with
//! `time` at the start of the step. A stage rule must come after the stage rules
//! whose targets it reads (E0472): the stages are evaluated in the order written.
//! The stage memories are hidden states of the model, listed after its variables as
//! `NAME_rk4_y0` and `NAME_rk4_k1` … `NAME_rk4_k4`. A submodel steps with its own
//! method, before the parent's stages, so its outputs are frozen during them. The
//! rewrite into plain rules is [`crate::lower::method`].
//!
//! Under `dopri5` ([`Method::Dopri5`], tolerances `rtol`, `atol`), the split is the
//! same, and step 3 is: `t = 0`; `h = dt` if `h ≤ 0` (the hidden `h` is kept between
//! steps, 0 after reset); `yc = y`; then *internal steps* until `t ≥ dt`, each: its
//! length `hs = h`, or `dt − t` when `h ≥ dt − t`; seven stage passes (Dormand–Prince
//! nodes `c` and coefficients `a`), before each `y = yc + hs·Σ_j a_sj·k_j` (left to
//! right, zero coefficients left out), `time` reading `time + (t + c·hs)`; the error
//! `err = sqrt(Σ_i q_i² / n)`, `q_i = hs·Σ_j e_j·k_j / (atol + rtol·max(|yc|, |y|))`
//! summed in state order; accepted unless `err > 1`: `yc = y`, then with
//! `fac = min(10, max(0.2, 0.9·err^(−0.2)))`, if `hs ≥ dt − t`: `h = max(h, hs·fac)`,
//! `t = dt`; else `h = hs·fac`, `t = t + hs`; rejected: `h = hs·max(0.2,
//! 0.9·err^(−0.2))`. The internal steps are counted in a hidden state; past 10 000
//! in one host step the program stops with `sit_runtime::internal_steps_overrun`
//! ([`Stmt::Repeat`]). Then the discrete pass as under `rk4`. Events and guards of
//! the discrete part are seen at the host step's end under every method. The
//! rewrite is `lower/dopri5.rs`.
//! # Instantaneous phases
//!
//! A submodel declared `phase name: M(bindings) step h limit n until c;`
//! ([`Sub::phase`]) is never stepped with its parent: it is off after every
//! reset and cannot be switched. Its bindings (to params and inputs alike) are
//! not applied at the parent's reset: the parent's reset resets it with its
//! own defaults. The σ action `run(name)` ([`Stmt::Run`]), where it stands in
//! the parent's rules:
//!
//! 1. evaluates every binding in the order written, in the parent with its
//!    current values, and assigns it to the submodel's param or input;
//! 2. resets the submodel (as `reset()` on it: its states to their initial
//!    values, which may read the params and inputs just bound; its clock to 0;
//!    its events initialised);
//! 3. steps it with `dt = h` (each step the whole step above, its own
//!    submodels and phases included), counting the steps, until `c`, evaluated
//!    in the parent after each of its steps, holds: at least one step; if `c`
//!    does not hold after `n` steps, the run stops the program with
//!    `sit_runtime::phase_overrun(model, phase, time, n)` (the parent's model
//!    name and `time`), which panics with a message naming them.
//!
//! The parent's time, `dt` and variables are untouched by the run; the rules
//! after `run(name)` read the submodel's outputs at its end, and `name.time`
//! ([`Expr::SubTime`]) how long it lasted in its own time (`k·h`, by the
//! phase's clock: the exact time of step 4, restarted by the run's reset). A
//! phase's events and `deriv` memories start afresh with
//! each run (the reset). A phase's model may hold phases of its own, run by
//! its rules within each of its steps.
//!
//! # Sub-steps
//!
//! A model declared with `substeps N when C limit L;` ([`Model::substeps`]; `when C`
//! may be left out, meaning always) divides its step while `C` holds. `step(dt)` on
//! it is:
//!
//! 1. `dt` is stored (it reads the whole step here); `C` is evaluated with the
//!    model's values at the start of the step (before its submodels step); if it is
//!    false, the step is the step above, once, with `dt`;
//! 2. otherwise `N` is evaluated (same values) and `n = ceil(N)`; unless `1 ≤ n ≤ L`
//!    (a NaN or infinite `N` fails too) the program stops with
//!    `sit_runtime::substep_count_error(model, time, N, L)`, a panic naming the model,
//!    its time at the start of the step and `N`;
//! 3. the model's clock is noted, then the step above (steps 1 to 4: its submodels,
//!    phases, events, rules and clock) is run `n` times with `h = dt / n`: each
//!    sub-step is a whole step of length `h`, so events are evaluated, modes take a
//!    transition and `otherwise` flags are cleared once per sub-step, submodels step
//!    `n` times with `h` (their clocks counting those steps), `dt` reads `h`, and
//!    `time` reads the model's clock within a run of equal steps of `h` starting at the
//!    start of the step (exact as in step 4: `t₀ + k·h`);
//! 4. the clock is put back as noted and advanced once by `dt`: the host sees the
//!    same times as without sub-steps (the run of equal steps of `dt` is not broken).
//!
//! After the step `dt` reads `h` (the last sub-step's length). Under `rk4` each
//! sub-step is a whole step of the method (four stages and the discrete pass). Reset
//! and the initial pass do not sub-step (nothing is remembered between steps: `C` and
//! `N` are evaluated afresh each step); the initial pass treats the values `C` and `N`
//! read as read before every rule. A switched-off submodel does not step at all; a
//! submodel or a phase's model with sub-steps divides each of its own steps (of
//! whatever `dt` its parent gives it) the same way.
//!
//! # Variables seen through `sit_runtime::Model`
//!
//! The list of a model's variables, in this order: its vars (declaration
//! order), then its conds, then its events, then its modes (read-only, the
//! value being the index of the state), then for each submodel in
//! declaration order `NAME.on` followed by the submodel's own list with every
//! name prefixed by `NAME.`. Settable: free params not bound by the parent,
//! inputs not bound by the parent, states and flags, and `NAME.on`. Derived
//! params, conds and events are read-only.
//!
//! Arithmetic is IEEE-754 `f64` without fused multiply-add or reassociation:
//! back ends evaluate exactly the operations written, in the order of the
//! tree, and call the functions of `sit_runtime` for every procedure.
//!
//! # The event log
//!
//! A change of a logical variable (flag, pred, situation, event, mode,
//! `NAME.on`) is a difference of its value between the start and the end of a
//! step; the rule it is charged to is defined once, in `sit_runtime::events`
//! (docs/events.md), and recorded through hidden states added by
//! [`crate::lower::instrument_events`], a rewrite of the program that changes no
//! other value.
//!
//! # One implementation
//!
//! This contract is implemented once, by [`crate::lower`]: it turns each model
//! into the ordered statements of construction, reset and step, and the
//! variable list above. The back ends (generated structs, generated batches,
//! the interpreter) only decide where each value is stored; a new construct is
//! added here, then in the lowering, then in each back end's storage.

use crate::source::Span;

/// Index of a model in [`Program::models`].
pub type ModelId = usize;
/// Index of a variable in [`Model::vars`].
pub type VarId = usize;
/// Index of a named condition in [`Model::conds`].
pub type CondId = usize;
/// Index of an event in [`Model::events`].
pub type EventId = usize;
/// Index of a submodel in [`Model::subs`].
pub type SubId = usize;
/// Index of a hidden memory of a stateful procedure ([`Model::memories`]).
pub type MemId = usize;
/// Index of an `otherwise` bookkeeping flag (local to one step).
pub type FiredId = usize;
/// Index of a mode in [`Model::modes`].
pub type ModeId = usize;
/// Index of a state in [`Mode::states`].
pub type StateId = usize;

/// A checked set of models, with the sources they came from.
#[derive(Debug, Clone)]
pub struct Program {
    /// Every model of every file loaded, ordered so that a model comes after
    /// all the models it instantiates (leaves first).
    pub models: Vec<Model>,
    /// The source files, for provenance in generated code and diagnostics.
    pub sources: crate::source::SourceMap,
}

impl Program {
    /// The model called `name`, if any.
    pub fn model(&self, name: &str) -> Option<ModelId> {
        self.models.iter().position(|m| m.name == name)
    }

    /// The models that no other model instantiates (candidates for the root).
    pub fn roots(&self) -> Vec<ModelId> {
        let mut used = vec![false; self.models.len()];
        for m in &self.models {
            for s in &m.subs {
                used[s.model] = true;
            }
        }
        (0..self.models.len()).filter(|&i| !used[i]).collect()
    }

    /// The models defined in the file with the given id (not those imported).
    pub fn models_of_file(&self, file: crate::source::FileId) -> Vec<ModelId> {
        (0..self.models.len())
            .filter(|&i| self.models[i].span.file == file)
            .collect()
    }
}

/// One model: a struct with params, states, conditions, submodels and rules.
#[derive(Debug, Clone)]
pub struct Model {
    /// The model's name as written in the source (may be non-ASCII).
    pub name: String,
    /// The `///` doc comment lines before `model`, without the slashes.
    pub doc: Vec<String>,
    /// Where the model's name is.
    pub span: Span,
    /// Params, inputs and states, in declaration order.
    pub vars: Vec<Var>,
    /// Predicates and situations, in declaration order.
    pub conds: Vec<Cond>,
    /// Events, in declaration order.
    pub events: Vec<Event>,
    /// Submodel instances, in declaration order.
    pub subs: Vec<Sub>,
    /// The rules, in textual order (σ and δ interleaved as written).
    pub body: Vec<Stmt>,
    /// Hidden memories of stateful procedures (`deriv`), one per call site.
    pub memories: Vec<Memory>,
    /// Number of `otherwise` bookkeeping flags used by [`Model::body`].
    pub fired: usize,
    /// The integration method of the model's continuous part (`method NAME;`,
    /// [`Method::Euler`] when not declared); see "Integration methods" above.
    pub method: Method,
    /// Modes, in declaration order.
    pub modes: Vec<Mode>,
    /// `substeps N when C limit L;`: the step divided into sub-steps while `C` holds
    /// (see "Sub-steps" above).
    pub substeps: Option<Substeps>,
}

/// How a model divides its step (see "Sub-steps" in the module documentation).
#[derive(Debug, Clone)]
pub struct Substeps {
    /// The number of sub-steps `N` (real), evaluated at the start of each step in
    /// which [`Substeps::when`] holds.
    pub count: Expr,
    /// The condition under which the step is divided (`true` when not written).
    pub when: Expr,
    /// The most sub-steps of one step (at least 1).
    pub limit: u64,
    /// The declaration.
    pub span: Span,
}

/// A mode: an exclusive set of named states, of which exactly one holds; changed only
/// by transitions ([`Stmt::SetMode`] under the guard the checker builds), at most once
/// per step.
#[derive(Debug, Clone)]
pub struct Mode {
    /// Name as written.
    pub name: String,
    /// Declared `output`.
    pub output: bool,
    /// The state names, in declaration order; the first is the initial state. Seen
    /// through `sit_runtime::Model` the mode's value is the index of its state.
    pub states: Vec<String>,
    /// Where each state name is declared.
    pub state_spans: Vec<Span>,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// The type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An `f64`.
    Real,
    /// A logical value (`bool`; `0.0`/`1.0` through generic interfaces).
    Flag,
}

/// What kind of variable a [`Var`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `param`: a real constant for the run, settable between runs.
    /// A param whose definition reads other params is *derived*: it has no
    /// storage and is evaluated where it is read, so it always follows them.
    Param {
        /// Whether the definition reads other params.
        derived: bool,
    },
    /// `input real` / `input flag`: set by the host or bound by the parent.
    Input,
    /// `real` / `flag`: a state, assigned by rules, keeps its value otherwise.
    State,
}

/// A param, input or state.
#[derive(Debug, Clone)]
pub struct Var {
    /// Name as written.
    pub name: String,
    /// Param, input or state.
    pub kind: VarKind,
    /// Real or flag (params are always real).
    pub ty: Ty,
    /// Declared `output` (visible to the parent).
    pub output: bool,
    /// The default (params), initial value (states) or default (inputs). For
    /// free params and inputs it only reads constants and params; for states,
    /// constants, params and inputs. Always present (the implicit default is
    /// `0.0` or `false`).
    pub init: Expr,
    /// The `///` doc comment lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// Whether a named condition was declared as `pred` or `situation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CondKind {
    /// `pred`: a range over real variables.
    Pred,
    /// `situation`: a conjunction of logical literals.
    Situation,
}

/// A predicate or situation: a named logical expression evaluated where read.
#[derive(Debug, Clone)]
pub struct Cond {
    /// Name as written.
    pub name: String,
    /// Pred or situation.
    pub kind: CondKind,
    /// Declared `output`.
    pub output: bool,
    /// The logical expression.
    pub expr: Expr,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// An event: true for one step when its condition becomes true.
#[derive(Debug, Clone)]
pub struct Event {
    /// Name as written.
    pub name: String,
    /// Declared `output`.
    pub output: bool,
    /// The logical condition whose rising edge is the event.
    pub cond: Expr,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// A submodel instance.
#[derive(Debug, Clone)]
pub struct Sub {
    /// Instance name.
    pub name: String,
    /// The instantiated model.
    pub model: ModelId,
    /// Bindings to the submodel's params (evaluated at construction and
    /// reset, in the parent's scope, from the parent's params only).
    pub param_bindings: Vec<Binding>,
    /// Bindings to the submodel's inputs (evaluated every step before the
    /// submodel steps, in the parent's scope).
    pub input_bindings: Vec<Binding>,
    /// Whether the submodel is switched on initially (`sub x: M(...) off;`
    /// declares it off). Always false for a phase.
    pub initially_on: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the instance name is declared.
    pub span: Span,
    /// `phase x: M(...) step h limit n until c;`: an instantaneous phase, run to
    /// its end by [`Stmt::Run`] and never stepped with its parent.
    pub phase: Option<Phase>,
}

/// How an instantaneous phase runs (see the module documentation).
///
/// A phase's bindings, to params and inputs alike, are all in
/// [`Sub::input_bindings`] (in the order written, evaluated in the parent with its
/// current values at the start of each run); its [`Sub::param_bindings`] is empty.
#[derive(Debug, Clone)]
pub struct Phase {
    /// The phase's own step (positive, finite).
    pub step: f64,
    /// The most steps one run may take (at least 1).
    pub limit: u64,
    /// The condition, in the parent's scope, checked after each of the phase's
    /// steps: the run ends at the first step after which it holds.
    pub until: Expr,
}

/// `name = expr` in a submodel instantiation.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The param or input of the submodel's model.
    pub var: VarId,
    /// The bound value, in the parent's scope.
    pub value: Expr,
    /// Where the binding is written.
    pub span: Span,
}

/// The hidden memory of one stateful procedure call.
#[derive(Debug, Clone)]
pub struct Memory {
    /// Which procedure owns it.
    pub kind: MemoryKind,
    /// The call site.
    pub span: Span,
}

/// The kinds of hidden memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryKind {
    /// `deriv(x)`: the previous input, and whether there is one
    /// (`sit_runtime::Deriv`).
    Deriv,
}

/// A statement of a model's body, in execution order.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// A δ rule without guard (guards are [`Stmt::If`] around it).
    Assign(Assign),
    /// An `otherwise` rule: runs when no earlier rule assigned `target` in
    /// this step (tracked by the bookkeeping flag `fired`).
    Otherwise {
        /// The rule.
        assign: Assign,
        /// The bookkeeping flag of the target.
        fired: FiredId,
    },
    /// `when cond { ... }`, `x = e when cond;`, `when cond => actions;`: the
    /// condition is evaluated once, before the first statement of `then`.
    If {
        /// The guard, a logical expression.
        cond: Expr,
        /// The guarded statements.
        then: Vec<Stmt>,
        /// Source line of the guard.
        span: Span,
    },
    /// σ action `q` or `!q`: set a flag state.
    SetFlag {
        /// The flag (a [`VarKind::State`] of type [`Ty::Flag`]).
        var: VarId,
        /// The value assigned.
        value: bool,
        /// Where the action is written.
        span: Span,
    },
    /// σ action `name.on` or `!name.on`.
    Switch {
        /// The submodel.
        sub: SubId,
        /// On (`true`) or off.
        on: bool,
        /// Where the action is written.
        span: Span,
    },
    /// A transition's move: the mode enters `state`. The checker puts it first in the
    /// `then` of the [`Stmt::If`] whose guard is the transition's (see
    /// [`Expr::ModeAtStart`]), followed by the transition's rules.
    SetMode {
        /// The mode.
        mode: ModeId,
        /// The state entered.
        state: StateId,
        /// The transition (`mode: from -> to when cond`).
        span: Span,
    },
    /// σ action `reset(name)`: the submodel is reset as by `reset()` on it
    /// (param bindings re-applied, states to initial values, time to 0).
    Reset {
        /// The submodel.
        sub: SubId,
        /// Where the action is written.
        span: Span,
    },
    /// σ action `run(name)`: the instantaneous phase `name` is run to its end
    /// (see the module documentation).
    Run {
        /// The phase (a submodel with [`Sub::phase`]).
        sub: SubId,
        /// Where the action is written.
        span: Span,
    },
    /// A bounded loop, written only by the rewrite of an adaptive method
    /// ([`crate::lower::method`]), never in source: `body` runs, then `until` is
    /// evaluated; the loop ends when it holds; otherwise, if the real state `count`
    /// (which `body` increments) is at least `limit`, the program stops with
    /// `sit_runtime::internal_steps_overrun(model, time, limit)`; otherwise `body`
    /// runs again. The `otherwise` flags that `body` sets are cleared before each run
    /// of it (each run is a fresh evaluation).
    Repeat {
        /// The statements repeated.
        body: Vec<Stmt>,
        /// The end condition, evaluated after each run of `body`.
        until: Expr,
        /// The counter of runs (a hidden real state).
        count: VarId,
        /// The most runs.
        limit: u64,
        /// The model's span (for provenance).
        span: Span,
    },
}

/// A δ assignment `target = rhs`.
#[derive(Debug, Clone)]
pub struct Assign {
    /// A real state of this model.
    pub target: VarId,
    /// The right-hand side.
    pub rhs: Rhs,
    /// If the target has an `otherwise` rule, the bookkeeping flag this
    /// assignment sets.
    pub fired: Option<FiredId>,
    /// The whole rule.
    pub span: Span,
}

/// The right-hand side of a δ rule. Stateful procedures (which use the
/// target's current value or a hidden memory) may only be a whole right-hand
/// side; pure procedures are calls inside [`Expr`].
#[derive(Debug, Clone)]
pub enum Rhs {
    /// A plain expression of the target's type.
    Expr(Expr),
    /// `integral(x)`: `y + x·dt` (`sit_runtime::integral`).
    Integral {
        /// The rate.
        x: Expr,
    },
    /// `integral(x, lo, hi)`: `clamp(y + x·dt, lo, hi)`
    /// (`sit_runtime::integral_limited`).
    IntegralLimited {
        /// The rate.
        x: Expr,
        /// Lower bound.
        lo: Expr,
        /// Upper bound.
        hi: Expr,
    },
    /// `lag(x, T)` or `lag(x, T, k)`: exact first-order lag
    /// (`sit_runtime::lag`), `k` is `1.0` when omitted.
    Lag {
        /// The input.
        x: Expr,
        /// The time constant.
        t: Expr,
        /// The gain.
        k: Expr,
    },
    /// `deriv(x)`: `(x − x_prev)/dt` with a hidden memory
    /// (`sit_runtime::Deriv::next`).
    Deriv {
        /// The differentiated signal.
        x: Expr,
        /// Its memory.
        mem: MemId,
    },
    /// `hysteresis(x, lo, hi)` or `hysteresis(x, lo, hi, a)`: a latched relay
    /// whose memory is the target itself (`sit_runtime::hysteresis`).
    Hysteresis {
        /// The input.
        x: Expr,
        /// Switch to `-a` at or below this.
        lo: Expr,
        /// Switch to `+a` at or above this.
        hi: Expr,
        /// Amplitude (`1.0` when omitted).
        a: Expr,
    },
    /// `timer(c)`: how long the logical `c` has held, in whole steps counted
    /// exactly: `0` when `c` is false, else the next multiple of `dt` after the
    /// target (`sit_runtime::timer`).
    Timer {
        /// The condition (a logical expression).
        c: Expr,
    },
}

/// A typed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A real literal.
    Num(f64),
    /// `true` / `false` / `always`.
    Bool(bool),
    /// A param, input or state of this model.
    Var(VarId),
    /// A pred or situation of this model, evaluated at the point of reading.
    Cond(CondId),
    /// An event of this model (its value for this step).
    Event(EventId),
    /// An output of a direct submodel: `sub.name`.
    SubVar(SubId, VarId),
    /// An output pred/situation of a direct submodel.
    SubCond(SubId, CondId),
    /// An output event of a direct submodel.
    SubEvent(SubId, EventId),
    /// `sub.on`.
    SubOn(SubId),
    /// `sub.time`: a direct submodel's clock (for a phase, how long its last run
    /// lasted in its own time).
    SubTime(SubId),
    /// `mode == state`: whether a mode of this model is in a state now.
    InMode(ModeId, StateId),
    /// `sub.mode == state`: an output mode of a direct submodel.
    SubInMode(SubId, ModeId, StateId),
    /// Whether a mode of this model was in a state at the start of this step (before
    /// any transition of the step): only in the guards of transitions, which the checker
    /// writes as `ModeAtStart(m, from) & InMode(m, from) & cond`, so that a mode takes at
    /// most one transition per step.
    ModeAtStart(ModeId, StateId),
    /// The model's time (`time`), at the start of the step.
    Time,
    /// The step (`dt`) of the current step; 0 outside a step.
    Dt,
    /// Unary real minus.
    Neg(Box<Expr>),
    /// Logical not.
    Not(Box<Expr>),
    /// Real arithmetic.
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// Comparison of two reals.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// Logical and (`&`), evaluated left to right without short-circuit
    /// effects (expressions have no side effects).
    And(Box<Expr>, Box<Expr>),
    /// Logical or (`|`).
    Or(Box<Expr>, Box<Expr>),
    /// A pure procedure of the runtime library.
    Call(Func, Vec<Expr>),
    /// A read of a lookup table of this model (`table` declaration): one argument per
    /// grid, interpolated by `sit_runtime::table` (see [`LookupTable`]).
    Table(std::sync::Arc<LookupTable>, Vec<Expr>),
}

/// Real binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `^` (`sit_runtime::math::pow`)
    Pow,
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// Pure procedures: each is a function of `sit_runtime::math` (or
/// `sit_runtime` for the converters) with the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `abs(x)`
    Abs,
    /// `sign(x)`: -1, 0 or 1
    Sign,
    /// `sqrt(x)`
    Sqrt,
    /// `exp(x)`
    Exp,
    /// `ln(x)`
    Ln,
    /// `log10(x)`
    Log10,
    /// `sin(x)`
    Sin,
    /// `cos(x)`
    Cos,
    /// `tan(x)`
    Tan,
    /// `asin(x)`
    Asin,
    /// `acos(x)`
    Acos,
    /// `atan(x)`
    Atan,
    /// `atan2(y, x)`
    Atan2,
    /// `sinh(x)`
    Sinh,
    /// `cosh(x)`
    Cosh,
    /// `tanh(x)`
    Tanh,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `pow(x, y)`
    Pow,
    /// `hypot(x, y)`
    Hypot,
    /// `floor(x)`
    Floor,
    /// `ceil(x)`
    Ceil,
    /// `round(x)`
    Round,
    /// `relay(x, a)`: `a·sign(x)`
    Relay,
    /// `limit(x, lo, hi)`: clamp
    Limit,
    /// `deadzone(x, w)`: 0 inside `[-w, w]`, `x ∓ w` outside
    Deadzone,
}

impl Func {
    /// Every pure procedure, for listings and lookups.
    pub const ALL: [Func; 26] = [
        Func::Abs,
        Func::Sign,
        Func::Sqrt,
        Func::Exp,
        Func::Ln,
        Func::Log10,
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Asin,
        Func::Acos,
        Func::Atan,
        Func::Atan2,
        Func::Sinh,
        Func::Cosh,
        Func::Tanh,
        Func::Min,
        Func::Max,
        Func::Pow,
        Func::Hypot,
        Func::Floor,
        Func::Ceil,
        Func::Round,
        Func::Relay,
        Func::Limit,
        Func::Deadzone,
    ];

    /// The name in `.sit` source, which is also the runtime function's name.
    pub fn name(self) -> &'static str {
        match self {
            Func::Abs => "abs",
            Func::Sign => "sign",
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Ln => "ln",
            Func::Log10 => "log10",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Atan2 => "atan2",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Min => "min",
            Func::Max => "max",
            Func::Pow => "pow",
            Func::Hypot => "hypot",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Relay => "relay",
            Func::Limit => "limit",
            Func::Deadzone => "deadzone",
        }
    }

    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            Func::Atan2 | Func::Min | Func::Max | Func::Pow | Func::Hypot => 2,
            Func::Relay | Func::Deadzone => 2,
            Func::Limit => 3,
            _ => 1,
        }
    }

    /// Whether the runtime function lives in `sit_runtime::math` (true) or
    /// at the top of `sit_runtime` (the converters `relay`, `limit`,
    /// `deadzone`).
    pub fn is_math(self) -> bool {
        !matches!(self, Func::Relay | Func::Limit | Func::Deadzone)
    }

    /// Look a pure procedure up by its source name.
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.iter().copied().find(|f| f.name() == name)
    }
}

impl VarKind {
    /// Whether this is a derived param (no storage, evaluated where read).
    pub fn is_derived(self) -> bool {
        matches!(self, VarKind::Param { derived: true })
    }
}

impl Var {
    /// Whether this is a derived param (no storage, evaluated where read).
    pub fn is_derived(&self) -> bool {
        self.kind.is_derived()
    }
}

impl Model {
    /// The variable called `name`, if any.
    pub fn var(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name)
    }

    /// The submodel instance called `name`, if any.
    pub fn sub(&self, name: &str) -> Option<SubId> {
        self.subs.iter().position(|s| s.name == name)
    }
}

impl Expr {
    /// Call `f` on this expression and every subexpression, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Neg(a) | Expr::Not(a) => a.visit(f),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, xs) | Expr::Table(_, xs) => xs.iter().for_each(|x| x.visit(f)),
            _ => {}
        }
    }
}

impl Rhs {
    /// The expressions a right-hand side reads, in evaluation order.
    pub fn operands(&self) -> Vec<&Expr> {
        match self {
            Rhs::Expr(e) => vec![e],
            Rhs::Integral { x } => vec![x],
            Rhs::IntegralLimited { x, lo, hi } => vec![x, lo, hi],
            Rhs::Lag { x, t, k } => vec![x, t, k],
            Rhs::Deriv { x, .. } => vec![x],
            Rhs::Hysteresis { x, lo, hi, a } => vec![x, lo, hi, a],
            Rhs::Timer { c } => vec![c],
        }
    }

    /// Whether the next value depends on the target's current value.
    pub fn reads_target(&self) -> bool {
        !matches!(self, Rhs::Expr(_) | Rhs::Deriv { .. })
    }
}

/// How a model integrates its continuous part in one step (`method NAME;`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// Each rule once per step in textual order, `integral` as `y + x·dt`: the
    /// formalism's own step, first order.
    #[default]
    Euler,
    /// The classical fourth-order Runge–Kutta method over the host's step, on the
    /// continuous part; the discrete rules once per step after it.
    Rk4,
    /// Dormand–Prince 5(4): adaptive internal steps with error control within each
    /// host step (see "Integration methods" above); the discrete rules once per step
    /// after them.
    Dopri5(Tolerance),
}

/// The error tolerances of an adaptive method: an internal step is accepted when the
/// norm of its error estimate, each component scaled by `atol + rtol·max(|y₀|, |y₁|)`,
/// is at most 1.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// The relative tolerance.
    pub rtol: f64,
    /// The absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    /// The tolerances when none are given: `rtol 1e-6 atol 1e-9`.
    pub const DEFAULT: Tolerance = Tolerance {
        rtol: 1e-6,
        atol: 1e-9,
    };
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::DEFAULT
    }
}

// Equal when bit for bit equal: a tolerance is a setting, compared as written.
impl PartialEq for Tolerance {
    fn eq(&self, other: &Self) -> bool {
        self.rtol.to_bits() == other.rtol.to_bits() && self.atol.to_bits() == other.atol.to_bits()
    }
}

impl Eq for Tolerance {}

impl std::hash::Hash for Tolerance {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rtol.to_bits().hash(state);
        self.atol.to_bits().hash(state);
    }
}

impl Method {
    /// Every method (`dopri5` with its default tolerances), for listings and lookups.
    pub const ALL: [Method; 3] = [
        Method::Euler,
        Method::Rk4,
        Method::Dopri5(Tolerance::DEFAULT),
    ];

    /// The name in `.sit` source and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Euler => "euler",
            Method::Rk4 => "rk4",
            Method::Dopri5(_) => "dopri5",
        }
    }

    /// Look a method up by its name (an adaptive one with its default tolerances).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// The method with the tolerances given replacing its own, if it is adaptive
    /// (the others have none, and are returned as they are).
    pub fn with_tolerance(self, rtol: Option<f64>, atol: Option<f64>) -> Method {
        match self {
            Method::Dopri5(t) => Method::Dopri5(Tolerance {
                rtol: rtol.unwrap_or(t.rtol),
                atol: atol.unwrap_or(t.atol),
            }),
            other => other,
        }
    }

    /// The tolerances of an adaptive method.
    pub fn tolerance(self) -> Option<Tolerance> {
        match self {
            Method::Dopri5(t) => Some(t),
            _ => None,
        }
    }
}

impl Program {
    /// Sets the integration method of every model (a per-run override of their
    /// `method` declarations); the errors, located in the models' rules, if some
    /// model's rules cannot be split into a continuous and a discrete part.
    pub fn set_method(&mut self, method: Method) -> Result<(), Vec<crate::Diagnostic>> {
        for m in &mut self.models {
            m.method = method;
        }
        let diags: Vec<_> = self
            .models
            .iter()
            .flat_map(crate::lower::method::split_errors)
            .collect();
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

/// A lookup table (`table NAME(ARGS) = … CLAMP_OR_EXTRAPOLATE;` or `… from "FILE.csv" …`):
/// constant data read as a pure function of one or two reals, by
/// `sit_runtime::table::lookup1` / `lookup2` (whose documentation states the rule at,
/// between and beyond the grid points). Checked: every grid strictly increasing with at
/// least two points, every number finite, `values.len()` the product of the grids'.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupTable {
    /// The table's name as declared.
    pub name: String,
    /// Where the name is declared.
    pub span: Span,
    /// One grid per argument, in argument order (one or two).
    pub grids: Vec<Vec<f64>>,
    /// The values, the first argument's index major: `values[i * m + j]` is the value at
    /// `(grids[0][i], grids[1][j])`, `m = grids[1].len()` (in 1-D, `values[i]`).
    pub values: Vec<f64>,
    /// What the table gives beyond its grid.
    pub beyond: Beyond,
    /// The CSV file the data was read from (as resolved against the `.sit` file's
    /// folder), `None` for an inline table.
    pub file: Option<std::path::PathBuf>,
}

/// What a lookup table gives beyond its grid (`sit_runtime::table::Beyond`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Beyond {
    /// `clamp`: the value at the nearest end of the grid.
    Clamp,
    /// `extrapolate`: the outermost segment's straight line, continued.
    Extrapolate,
}

impl Beyond {
    /// The keyword in `.sit` source, which is also the runtime variant's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Beyond::Clamp => "clamp",
            Beyond::Extrapolate => "extrapolate",
        }
    }
}
