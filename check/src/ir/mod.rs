//! The checked intermediate representation that code generation and the interpreter consume.
#![doc = include_str!("contract.md")]

use crate::source::Span;

mod method;
mod split;
mod walk;
pub use walk::{Added, step_rank, walk};

pub use method::{Method, Tolerance, fixed_step_states};
pub(crate) use split::held_reads;
pub use split::{Split, split, split_located};
pub use split::{jacobian_errors, split_errors};
// The vocabulary the checked IR shares with the lowered language (`sit-lir`).
pub use sit_lir::{
    ArithOp, Beyond, CondId, CondKind, EventId, FiredId, Func, LookupTable, MemId, Memory,
    MemoryKind, Mode, ModeId, ModelId, Partial, PartialOf, StateId, SubId, Ty, VarId, VarKind,
};

/// A checked set of models, with the sources they came from. `X` is what the bodies
/// hold besides the checker's statements ([`Stmt::Added`]): nothing in a checked
/// program ([`Checked`]), a method rewrite's loops in a lowered one
/// (`sit_lower::Rewrite`).
#[derive(Debug, Clone)]
pub struct Program<X = Checked> {
    /// Every model of every file loaded, ordered so that a model comes after
    /// all the models it instantiates (leaves first).
    pub models: Vec<Model<X>>,
    /// The source files, for provenance in generated code and diagnostics.
    pub sources: crate::source::SourceMap,
}

impl Program {
    /// The program with bodies that may hold a pass's statements (`X`), as it is.
    pub fn widen<X>(self) -> Program<X> {
        Program {
            models: self.models.into_iter().map(Model::widen).collect(),
            sources: self.sources,
        }
    }
}

impl<X> Program<X> {
    /// The model called `name`, if any.
    pub fn model(&self, name: &str) -> Option<ModelId> {
        self.models.iter().position(|m| m.name == name)
    }

    /// Whether model `root` or a model it instantiates (at any depth) says
    /// `#[allow(non_finite, …)]` ([`Model::allow_non_finite`]): a run of it goes on past
    /// NaN and infinities.
    pub fn allows_non_finite(&self, root: ModelId) -> bool {
        let mut todo = vec![root];
        let mut seen = vec![false; self.models.len()];
        while let Some(id) = todo.pop() {
            let Some(m) = self.models.get(id) else {
                continue;
            };
            if m.allow_non_finite {
                return true;
            }
            for s in &m.subs {
                if let Some(seen) = seen.get_mut(s.model)
                    && !std::mem::replace(seen, true)
                {
                    todo.push(s.model);
                }
            }
        }
        false
    }

    /// The models that no other model instantiates (candidates for the root).
    pub fn roots(&self) -> Vec<ModelId> {
        let mut used = vec![false; self.models.len()];
        for m in &self.models {
            for s in &m.subs {
                used[s.model] = true;
                // A copy made for structural bindings (`Rod(N = 6)`): its original is
                // instantiated through it.
                let name = &self.models[s.model].name;
                if let Some(original) =
                    crate::check::arrays::specialise::origin(name).and_then(|o| self.model(o))
                {
                    used[original] = true;
                }
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

/// One model: a struct with params, states, conditions, submodels and rules (`X` as in
/// [`Program`]).
#[derive(Debug, Clone)]
pub struct Model<X = Checked> {
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
    pub body: Vec<Stmt<X>>,
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
    /// `#[allow(non_finite, reason = "…")]` before the model (or inside it): the model
    /// means values to be NaN or infinite, and a host runs on past them as with
    /// `--allow-non-finite` (no effect on a step).
    pub allow_non_finite: bool,
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
    /// A hidden state: a solver memory of a method rewrite or an event-log *why*, made
    /// by the lowering (never declared). It is stored, stepped and saved like any
    /// state, but it is not one of the model's variables: `lower::variables` lists it
    /// after every visible variable, and the back ends keep it out of their variable
    /// tables (see the contract, "Hidden states").
    pub hidden: bool,
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
    /// Written by a rewrite (the sensitivities' saltation), not by the modeller: listed
    /// among the hidden states (never recorded, logged or shown), after the hidden vars.
    pub hidden: bool,
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
    /// Where `step(x);` places its step among the parent's rules ([`Stmt::Step`]);
    /// `None`: it steps before the rules, in declaration order.
    pub placed: Option<Span>,
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
    /// The submodels declared after this one whose outputs the value reads through
    /// `prev(sub.x)`: as the submodels step in declaration order, it reads them as they
    /// were at the start of the parent's step, and says so (no W0208).
    pub prev_subs: Vec<SubId>,
}

/// A statement of a model's body, in execution order. `X` is the statements a pass adds
/// beyond the checker's ([`Stmt::Added`]); a checked program has none ([`Checked`]).
#[derive(Debug, Clone)]
pub enum Stmt<X = Checked> {
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
        then: Vec<Stmt<X>>,
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
    /// `step(sub);`: the submodel `sub` (switched on, not a phase) gets its input
    /// bindings evaluated here and takes its step, instead of before the parent's
    /// rules ([`Sub::placed`]). Only at the top level of a body, once per submodel.
    Step {
        /// The submodel.
        sub: SubId,
        /// The statement.
        span: Span,
    },
    /// A statement that a pass after the checker adds (a method rewrite's loop, see
    /// `sit_lower::Rewrite`); never in a checked program, whose `X` is [`Checked`].
    Added(X),
}

/// The statements a checked program holds besides the checker's: none (an empty type, so
/// a checked body cannot hold a pass's statement, and matching one is `match *x {}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {}

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
    /// `prev(x)`: the value a param, input or state of this model had at the start of
    /// the step, before any rule of the step (see "Delays: `prev`" above). Only in checked
    /// programs: the lowering (`sit_lower::prev`) replaces it by a read of the
    /// variable where nothing in the step can have written it yet, else by a read of a
    /// hidden copy taken at the start of the step; the back ends never see it.
    Prev(VarId),
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
    /// The slope of a lookup table along its argument `axis` (0 or 1) at the arguments
    /// (one per grid): `sit_runtime::table::slope1` (one grid), `slope2_x` or `slope2_y`
    /// (two), the slope of the piece that [`Expr::Table`] at the same arguments reads.
    /// Only the lowering writes it (an implicit method's Jacobian), never the checker.
    TableSlope(std::sync::Arc<LookupTable>, usize, Vec<Expr>),
}

pub use sit_lir::CmpOp;

impl Var {
    /// Whether this is a derived param (no storage, evaluated where read).
    pub fn is_derived(&self) -> bool {
        self.kind.is_derived()
    }

    /// Its kind as `sitc info` and the page show it: `param`, `derived param`, `input`,
    /// `state` (a real) or `flag`.
    pub fn kind_name(&self) -> &'static str {
        match (self.kind, self.ty) {
            (VarKind::Param { derived: false }, _) => "param",
            (VarKind::Param { derived: true }, _) => "derived param",
            (VarKind::Input, _) => "input",
            (VarKind::State, Ty::Real) => "state",
            (VarKind::State, Ty::Flag) => "flag",
        }
    }
}

impl<X> Model<X> {
    /// The variable called `name`, if any.
    pub fn var(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name)
    }

    /// The submodel instance called `name`, if any.
    pub fn sub(&self, name: &str) -> Option<SubId> {
        self.subs.iter().position(|s| s.name == name)
    }
}
