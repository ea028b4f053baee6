//! The compiled form of a model instance tree: expressions and statements over slot indices.
//!
//! Every value of the flattened instance tree lives in one of three arrays of a
//! [`State`]: reals (`f64`), flags (`bool`) and `deriv` memories. The code refers to them
//! by index only; there are no names left and nothing allocates while it runs.
//!
//! Expressions and statements are trees ([`Num`], [`Logic`], [`Stmt`]): the input of
//! [`crate::flatten`], which turns the step and reset of the whole tree into flat programs
//! of [`crate::ops`].

use sit_lir::CmpOp;
use sit_runtime::{Deriv, ValueType, VarKind};

/// A real expression. Operands are evaluated left to right, exactly as in the IR tree.
#[derive(Debug, Clone)]
pub(crate) enum Num {
    /// A literal.
    Const(f64),
    /// A real slot.
    Slot(usize),
    /// `-a`.
    Neg(Box<Num>),
    /// `a + b`.
    Add(Box<(Num, Num)>),
    /// `a - b`.
    Sub(Box<(Num, Num)>),
    /// `a * b`.
    Mul(Box<(Num, Num)>),
    /// `a / b`.
    Div(Box<(Num, Num)>),
    /// A runtime function of one argument.
    F1(fn(f64) -> f64, Box<Num>),
    /// A runtime function of two arguments (`^` is `math::pow`).
    F2(fn(f64, f64) -> f64, Box<(Num, Num)>),
    /// A runtime function of three arguments.
    F3(fn(f64, f64, f64) -> f64, Box<(Num, Num, Num)>),
    /// A 1-D lookup table at `a` (`sit_runtime::table::lookup1`), and its index in
    /// [`Code::tables`] (where its reads are counted).
    Table1(std::sync::Arc<sit_lir::LookupTable>, u32, Box<Num>),
    /// A 2-D lookup table at `(a, b)` (`sit_runtime::table::lookup2`), and its index.
    Table2(std::sync::Arc<sit_lir::LookupTable>, u32, Box<(Num, Num)>),
    /// The slope of a 1-D lookup table at `a` (`sit_runtime::table::slope1`): an
    /// implicit method's Jacobian, never counted as a read.
    Slope1(std::sync::Arc<sit_lir::LookupTable>, Box<Num>),
    /// The slope of a 2-D lookup table along argument `axis` (0 or 1) at `(a, b)`
    /// (`sit_runtime::table::slope2_x`, `slope2_y`).
    Slope2(std::sync::Arc<sit_lir::LookupTable>, u8, Box<(Num, Num)>),
}

impl Num {
    /// The expression, checked and ready for [`crate::flatten`] (which turns it into
    /// operations over slots for the step and reset programs).
    pub(crate) fn compile(self) -> NumFn {
        NumFn(self)
    }

    /// The value, reading the real slots: a direct walk of the tree, left to right.
    /// Only for reads of derived params from outside (the step and reset run the
    /// lowered programs of [`crate::ops`]).
    fn eval(&self, r: &[f64]) -> f64 {
        match self {
            Num::Const(c) => *c,
            Num::Slot(i) => r[*i],
            Num::Neg(a) => -a.eval(r),
            Num::Add(ab) => ab.0.eval(r) + ab.1.eval(r),
            Num::Sub(ab) => ab.0.eval(r) - ab.1.eval(r),
            Num::Mul(ab) => ab.0.eval(r) * ab.1.eval(r),
            Num::Div(ab) => ab.0.eval(r) / ab.1.eval(r),
            Num::F1(f, a) => f(a.eval(r)),
            Num::F2(f, ab) => f(ab.0.eval(r), ab.1.eval(r)),
            Num::F3(f, abc) => f(abc.0.eval(r), abc.1.eval(r), abc.2.eval(r)),
            // Not counted: a read from outside is no read of the run.
            Num::Table1(t, _, a) => crate::ops::lookup1(t, a.eval(r)),
            Num::Table2(t, _, ab) => crate::ops::lookup2(t, ab.0.eval(r), ab.1.eval(r)),
            Num::Slope1(t, a) => crate::ops::slope1(t, a.eval(r)),
            Num::Slope2(t, k, ab) => crate::ops::slope2(t, *k, ab.0.eval(r), ab.1.eval(r)),
        }
    }
}

/// A checked real expression (see [`Num::compile`]).
#[derive(Debug)]
pub(crate) struct NumFn(pub Num);

impl NumFn {
    /// The value, reading the real slots (the cold path of reads from outside).
    pub(crate) fn eval(&self, r: &[f64]) -> f64 {
        self.0.eval(r)
    }
}

/// A checked logical expression (see [`Logic::compile`]).
#[derive(Debug)]
pub(crate) struct LogicFn(pub Logic);

impl LogicFn {
    /// The value, reading the real and flag slots (the cold path of reads from outside).
    pub(crate) fn eval(&self, r: &[f64], f: &[bool]) -> bool {
        self.0.eval(r, f)
    }
}

/// A logical expression.
#[derive(Debug, Clone)]
pub(crate) enum Logic {
    /// A literal.
    Const(bool),
    /// A flag slot.
    Slot(usize),
    /// `!a`.
    Not(Box<Logic>),
    /// `a & b` (no side effects, so evaluation may stop at a false `a`).
    And(Box<(Logic, Logic)>),
    /// `a | b`.
    Or(Box<(Logic, Logic)>),
    /// A comparison.
    Cmp(CmpOp, Box<(Num, Num)>),
}

impl Logic {
    /// The expression, checked and ready for [`crate::flatten`] (see [`Num::compile`]).
    pub(crate) fn compile(self) -> LogicFn {
        LogicFn(self)
    }

    /// The value (see [`Num::eval`]); `&` and `|` stop early, which changes nothing
    /// since expressions have no side effects.
    fn eval(&self, r: &[f64], f: &[bool]) -> bool {
        match self {
            Logic::Const(b) => *b,
            Logic::Slot(i) => f[*i],
            Logic::Not(a) => !a.eval(r, f),
            Logic::And(ab) => ab.0.eval(r, f) && ab.1.eval(r, f),
            Logic::Or(ab) => ab.0.eval(r, f) || ab.1.eval(r, f),
            Logic::Cmp(op, ab) => op.holds(ab.0.eval(r), ab.1.eval(r)),
        }
    }
}

/// The right-hand side of a δ rule, with the runtime procedure it calls.
#[derive(Debug)]
pub(crate) enum Update {
    /// A plain expression.
    Expr(NumFn),
    /// `sit_runtime::integral(y, x, dt)`.
    Integral(NumFn),
    /// `sit_runtime::integral_limited(y, x, lo, hi, dt)`.
    IntegralLimited(Box<(NumFn, NumFn, NumFn)>),
    /// `sit_runtime::lag(y, x, t, k, dt)`.
    Lag(Box<(NumFn, NumFn, NumFn)>),
    /// `Deriv::next(x, dt)` on the memory at this index.
    Deriv(NumFn, usize),
    /// `sit_runtime::hysteresis(y, x, lo, hi, a)`.
    Hysteresis(Box<(NumFn, NumFn, NumFn, NumFn)>),
    /// `sit_runtime::timer(y, c, dt)`.
    Timer(LogicFn),
}

/// A statement of a model body.
#[derive(Debug)]
pub(crate) enum Stmt {
    /// `slot = rhs`, then set the `otherwise` flag if any.
    Assign {
        /// The target's real slot.
        slot: usize,
        /// The right-hand side.
        rhs: Update,
        /// The flag slot of the target's `otherwise` bookkeeping.
        fired: Option<usize>,
        /// Index of the rule in [`Code::sites`] (for the checked-finite mode).
        site: usize,
    },
    /// Run `assign` (an [`Stmt::Assign`]) if the flag slot `fired` is false.
    Otherwise {
        /// The bookkeeping flag slot.
        fired: usize,
        /// The guarded assignment.
        assign: Box<Stmt>,
    },
    /// Run `then` if `cond` holds (evaluated once).
    If {
        /// The guard.
        cond: LogicFn,
        /// The guarded statements.
        then: Box<[Stmt]>,
    },
    /// `flags[slot] = value` (a flag state or a submodel's `on`).
    SetFlag {
        /// The flag slot.
        slot: usize,
        /// The value.
        value: bool,
    },
    /// `reset(sub)`: reset the node with this index.
    Reset(usize),
    /// `run(phase)`: run phase number `.0` of this node's [`Node::phases`].
    Run(usize),
    /// `step(sub)`: if submodel number `.0` of this node's [`Node::subs`] is on, its
    /// input bindings, then its step (`sit_lir::Stmt::Step`).
    Step(usize),
    /// The loop of an adaptive method (`sit_lir::Stmt::Repeat`).
    Repeat(Box<Repeat>),
    /// Each mode of the node notes its state as its state at the start of the step
    /// (`sit_lir::Stmt::NoteModes`).
    NoteModes,
    /// An event evaluated here (`sit_lir::Stmt::Event`).
    Event(EventCode),
    /// An implicit method's factorisation, stage solve or step underflow
    /// (`sit_lir::Stmt::Factor`, `Solve`, `Underflow`).
    Linear(Box<crate::ops::Linear>),
    /// `dt` reads `value` from here on in this step (`sit_lir::Stmt::SetDt`):
    /// stored where the procedures read it and in the node's own `dt` slot.
    SetDt {
        /// The new length of the step.
        value: NumFn,
        /// The node's `dt` slot.
        dt: usize,
    },
}

/// A bounded loop: run `body`, clear the flag slots `clear`, evaluate `until`; stop
/// when it holds; else, if the real slot `count` is at least `limit`, leave the loop
/// when `leave`, else stop the program; else again.
#[derive(Debug)]
pub(crate) struct Repeat {
    /// The statements repeated.
    pub body: Box<[Stmt]>,
    /// The end condition.
    pub until: LogicFn,
    /// The real slot of the counter of runs.
    pub count: usize,
    /// The most runs.
    pub limit: u64,
    /// Whether the loop is left at `limit` (`sit_lir::AtLimit::Leave`) rather than
    /// stopping the program.
    pub leave: bool,
    /// The real slot of the counter of located events and the most allowed.
    pub events: Option<(usize, u64)>,
    /// The `otherwise` flag slots cleared after each run.
    pub clear: Vec<usize>,
    /// The real slot of the model's time (for the run-time error).
    pub time: usize,
    /// The model's name (for the run-time error).
    pub model: String,
    /// The integration method's name (for the run-time error).
    pub method: &'static str,
}

/// An instantaneous phase of a node (see `sit_lir::PhaseLink`).
#[derive(Debug)]
pub(crate) struct PhaseCode {
    /// The phase's node.
    pub node: usize,
    /// Its bindings, evaluated in the parent at the start of each run.
    pub binds: Vec<Init>,
    /// Its own step.
    pub step: f64,
    /// The most steps of one run.
    pub limit: u64,
    /// The end condition, in the parent.
    pub until: LogicFn,
    /// The parent's model name and the phase's name, for the run-time error.
    pub model: String,
    /// See `model`.
    pub name: String,
}

/// An assignment of a value to a slot (initial values, defaults, bindings).
#[derive(Debug)]
pub(crate) enum Init {
    /// A real slot, its value and the index of its declaration or binding in
    /// [`Code::sites`].
    Real(usize, NumFn, usize),
    /// A flag slot and its value.
    Flag(usize, LogicFn),
}

/// A submodel instance as seen from its parent node.
#[derive(Debug)]
pub(crate) struct SubNode {
    /// The submodel's node.
    pub node: usize,
    /// The flag slot of `NAME.on`.
    pub on: usize,
    /// Whether it is on after reset.
    pub initially_on: bool,
    /// Param bindings, evaluated in the parent at reset.
    pub params: Vec<Init>,
    /// Input bindings, evaluated in the parent before each step of the submodel.
    pub inputs: Vec<Init>,
    /// Whether a [`Stmt::Step`] of the parent's body steps it, not the start of the
    /// parent's step.
    pub placed: bool,
}

/// An event: its value and memory slots and its condition.
#[derive(Debug)]
pub(crate) struct EventCode {
    /// Flag slot of the value for this step.
    pub value: usize,
    /// Flag slot of the previous condition.
    pub prev: usize,
    /// The condition.
    pub cond: LogicFn,
}

/// One instance of a model in the flattened tree.
#[derive(Debug)]
pub(crate) struct Node {
    /// Real slot of the instance's time.
    pub time: usize,
    /// Real slot of the current step's `dt`.
    pub dt: usize,
    /// Submodels in declaration order.
    pub subs: Vec<SubNode>,
    /// Events in declaration order.
    pub events: Vec<EventCode>,
    /// Whether the step evaluates `events` at its start (else the body's
    /// [`Stmt::Event`]s do).
    pub events_at_start: bool,
    /// The body.
    pub body: Box<[Stmt]>,
    /// The initial pass of reset (`sit_lir::Model::initial`).
    pub initial: Box<[Stmt]>,
    /// Free params and inputs with their defaults, in declaration order (construction).
    pub defaults: Vec<Init>,
    /// States with their initial values, in declaration order (reset).
    pub inits: Vec<Init>,
    /// Flag slots of the `otherwise` bookkeeping.
    pub fired: std::ops::Range<usize>,
    /// Indices of the `deriv` memories.
    pub mems: std::ops::Range<usize>,
    /// The instantaneous phases, in declaration order.
    pub phases: Vec<PhaseCode>,
    /// Modes in declaration order.
    pub modes: Vec<ModeCode>,
    /// How the node divides its step, if it does (`substeps`).
    pub substeps: Option<SubstepCode>,
}

/// A node's sub-steps (see `sit_lir::SubstepLink`).
#[derive(Debug)]
pub(crate) struct SubstepCode {
    /// The condition, at the start of the step.
    pub when: LogicFn,
    /// The number of sub-steps, at the start of the step when `when` holds.
    pub count: NumFn,
    /// The most sub-steps of one step.
    pub limit: u64,
    /// The model's name (for the run-time error).
    pub model: String,
}

/// A mode of a node: the index of its state in a real slot.
#[derive(Debug)]
pub(crate) struct ModeCode {
    /// Real slot of the state's index.
    pub slot: usize,
    /// Real slot of the state's index at the start of the step, or `None` when no
    /// transition reads it.
    pub start: Option<usize>,
    /// The initial state's index.
    pub initial: f64,
}

/// How a variable of the public list is read.
#[derive(Debug)]
pub(crate) enum Read {
    /// A stored real.
    Real(usize),
    /// A stored flag.
    Flag(usize),
    /// A derived param, evaluated when read.
    Num(NumFn),
    /// A pred or situation, evaluated when read.
    Logic(LogicFn),
}

/// One entry of the public variable list.
#[derive(Debug)]
pub(crate) struct VarEntry {
    /// Dotted name.
    pub name: String,
    /// Kind.
    pub kind: VarKind,
    /// Real or logical.
    pub ty: ValueType,
    /// Declared `output` in its own model.
    pub output: bool,
    /// Depth in the instance tree (0: the root's own variables).
    pub depth: usize,
    /// `None` if settable, else why not.
    pub locked: Option<&'static str>,
    /// How to read it.
    pub read: Read,
    /// A mode's states' names, by index (empty for any other variable).
    pub states: Vec<String>,
}

/// The immutable compiled program of one root instance.
#[derive(Debug)]
pub(crate) struct Code {
    /// The root model's name.
    pub name: String,
    /// The nodes; node 0 is the root.
    pub nodes: Vec<Node>,
    /// The public variable list, then the hidden states (method memories, event-log
    /// whys), reached by index only.
    pub vars: Vec<VarEntry>,
    /// How many of `vars` are variables (the rest are hidden states).
    pub shown: usize,
    /// Number of real slots.
    pub reals: usize,
    /// Number of flag slots.
    pub flags: usize,
    /// Number of `deriv` memories.
    pub mems: usize,
    /// Where each stored real value comes from (rules, declarations, bindings), for
    /// the checked-finite mode.
    pub sites: Vec<Site>,
    /// The lookup tables read, one per declaration (their reads are counted in
    /// [`State::reach`]).
    pub tables: Vec<std::sync::Arc<sit_lir::LookupTable>>,
    /// The `.sit` sources, to render a site.
    pub sources: sit_lir::SourceMap,
}

/// The origin of a real value stored by a step, reset or construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    /// Dotted name of the variable written.
    pub var: String,
    /// What writes it.
    pub kind: crate::SiteKind,
    /// The rule or binding, or the declared name (rendered only when a fault is
    /// reported, from [`Code::sources`]).
    pub span: sit_lir::Span,
    /// The real slots its expressions read (the written one left out), named in a
    /// fault's report with their values when they are public variables or a time.
    pub reads: Box<[usize]>,
}

/// The mutable values of an instance tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct State {
    /// Real slots.
    pub reals: Vec<f64>,
    /// Flag slots.
    pub flags: Vec<bool>,
    /// `deriv` memories.
    pub derivs: Vec<Deriv>,
    /// The clock of each node (what computes its time).
    pub clocks: Vec<sit_runtime::Clock>,
    /// The reads of each table of [`Code::tables`] since the last reset.
    pub reach: Vec<sit_runtime::table::TableReach>,
}
