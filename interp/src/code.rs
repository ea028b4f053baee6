//! The compiled form of a model instance tree: expressions and statements over slot indices.
//!
//! Every value of the flattened instance tree lives in one of three arrays of a
//! [`State`]: reals (`f64`), flags (`bool`) and `deriv` memories. The code refers to them
//! by index only; there are no names left and nothing allocates while it runs.
//!
//! Expressions are built as small trees ([`Num`], [`Logic`]) and then turned into
//! closures ([`NumFn`], [`LogicFn`]): each node's call to its operands is then a call
//! site of its own, which branch predictors follow far better than one shared `match`.

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
}

impl Num {
    /// The closure computing this expression: the same operations in the same order,
    /// with leaves read directly from the slots (no tree walk at run time).
    pub(crate) fn compile(self) -> NumFn {
        macro_rules! bin {
            ($ab:expr, $op:tt) => {{
                match *$ab {
                    (Num::Slot(i), Num::Slot(j)) => NumFn::new(move |r| r[i] $op r[j]),
                    (Num::Slot(i), Num::Const(c)) => NumFn::new(move |r| r[i] $op c),
                    (Num::Const(c), Num::Slot(j)) => NumFn::new(move |r| c $op r[j]),
                    (a, b) => {
                        let (a, b) = (a.compile(), b.compile());
                        NumFn::new(move |r| a.eval(r) $op b.eval(r))
                    }
                }
            }};
        }
        match self {
            Num::Const(c) => NumFn::new(move |_| c),
            Num::Slot(i) => NumFn::new(move |r| r[i]),
            Num::Neg(a) => match *a {
                Num::Slot(i) => NumFn::new(move |r| -r[i]),
                a => {
                    let a = a.compile();
                    NumFn::new(move |r| -a.eval(r))
                }
            },
            Num::Add(ab) => bin!(ab, +),
            Num::Sub(ab) => bin!(ab, -),
            Num::Mul(ab) => bin!(ab, *),
            Num::Div(ab) => bin!(ab, /),
            Num::F1(f, a) => {
                let a = a.compile();
                NumFn::new(move |r| f(a.eval(r)))
            }
            Num::F2(f, ab) => {
                let (a, b) = (ab.0.compile(), ab.1.compile());
                NumFn::new(move |r| f(a.eval(r), b.eval(r)))
            }
            Num::F3(f, abc) => {
                let (a, b, c) = (abc.0.compile(), abc.1.compile(), abc.2.compile());
                NumFn::new(move |r| f(a.eval(r), b.eval(r), c.eval(r)))
            }
        }
    }
}

/// A compiled real expression: a closure over the real slots.
pub(crate) struct NumFn(Box<RealClosure>);

/// The closure type behind [`NumFn`].
type RealClosure = dyn Fn(&[f64]) -> f64 + Send + Sync;

/// The closure type behind [`LogicFn`].
type FlagClosure = dyn Fn(&[f64], &[bool]) -> bool + Send + Sync;

impl NumFn {
    fn new(f: impl Fn(&[f64]) -> f64 + Send + Sync + 'static) -> NumFn {
        NumFn(Box::new(f))
    }

    /// The value, reading the real slots.
    #[inline]
    pub(crate) fn eval(&self, r: &[f64]) -> f64 {
        (self.0)(r)
    }
}

impl std::fmt::Debug for NumFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NumFn")
    }
}

/// A compiled logical expression: a closure over the real and flag slots.
pub(crate) struct LogicFn(Box<FlagClosure>);

impl LogicFn {
    fn new(f: impl Fn(&[f64], &[bool]) -> bool + Send + Sync + 'static) -> LogicFn {
        LogicFn(Box::new(f))
    }

    /// The value, reading the real and flag slots.
    #[inline]
    pub(crate) fn eval(&self, r: &[f64], f: &[bool]) -> bool {
        (self.0)(r, f)
    }
}

impl std::fmt::Debug for LogicFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LogicFn")
    }
}

/// A comparison of two reals.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cmp {
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
    Cmp(Cmp, Box<(Num, Num)>),
}

impl Logic {
    /// The closure computing this expression (see [`Num::compile`]).
    pub(crate) fn compile(self) -> LogicFn {
        macro_rules! cmp {
            ($ab:expr, $op:tt) => {{
                match *$ab {
                    (Num::Slot(i), Num::Slot(j)) => LogicFn::new(move |r, _| r[i] $op r[j]),
                    (Num::Slot(i), Num::Const(c)) => LogicFn::new(move |r, _| r[i] $op c),
                    (a, b) => {
                        let (a, b) = (a.compile(), b.compile());
                        LogicFn::new(move |r, _| a.eval(r) $op b.eval(r))
                    }
                }
            }};
        }
        match self {
            Logic::Const(b) => LogicFn::new(move |_, _| b),
            Logic::Slot(i) => LogicFn::new(move |_, f| f[i]),
            Logic::Not(a) => {
                let a = a.compile();
                LogicFn::new(move |r, f| !a.eval(r, f))
            }
            Logic::And(ab) => {
                let (a, b) = (ab.0.compile(), ab.1.compile());
                LogicFn::new(move |r, f| a.eval(r, f) && b.eval(r, f))
            }
            Logic::Or(ab) => {
                let (a, b) = (ab.0.compile(), ab.1.compile());
                LogicFn::new(move |r, f| a.eval(r, f) || b.eval(r, f))
            }
            Logic::Cmp(Cmp::Lt, ab) => cmp!(ab, <),
            Logic::Cmp(Cmp::Le, ab) => cmp!(ab, <=),
            Logic::Cmp(Cmp::Gt, ab) => cmp!(ab, >),
            Logic::Cmp(Cmp::Ge, ab) => cmp!(ab, >=),
            Logic::Cmp(Cmp::Eq, ab) => cmp!(ab, ==),
            Logic::Cmp(Cmp::Ne, ab) => cmp!(ab, !=),
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

impl Init {
    /// Evaluates the value and stores it. With `CHECK`, a real value that is not finite
    /// is an error carrying its site (the value is stored all the same).
    #[inline]
    pub(crate) fn apply<const CHECK: bool>(&self, s: &mut State) -> Result<(), (usize, f64)> {
        match self {
            Init::Real(slot, e, site) => {
                let value = e.eval(&s.reals);
                s.reals[*slot] = value;
                if CHECK && !value.is_finite() {
                    return Err((*site, value));
                }
            }
            Init::Flag(slot, e) => s.flags[*slot] = e.eval(&s.reals, &s.flags),
        }
        Ok(())
    }
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
    /// The body.
    pub body: Box<[Stmt]>,
    /// Free params and inputs with their defaults, in declaration order (construction).
    pub defaults: Vec<Init>,
    /// States with their initial values, in declaration order (reset).
    pub inits: Vec<Init>,
    /// Flag slots of the `otherwise` bookkeeping.
    pub fired: std::ops::Range<usize>,
    /// Indices of the `deriv` memories.
    pub mems: std::ops::Range<usize>,
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
}

/// The immutable compiled program of one root instance.
#[derive(Debug)]
pub(crate) struct Code {
    /// The root model's name.
    pub name: String,
    /// The nodes; node 0 is the root.
    pub nodes: Vec<Node>,
    /// The public variable list.
    pub vars: Vec<VarEntry>,
    /// Number of real slots.
    pub reals: usize,
    /// Number of flag slots.
    pub flags: usize,
    /// Number of `deriv` memories.
    pub mems: usize,
    /// Where each stored real value comes from (rules, declarations, bindings), for
    /// the checked-finite mode.
    pub sites: Vec<Site>,
    /// The `.sit` sources, to render a site.
    pub sources: sit_parser::SourceMap,
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
    pub span: sit_parser::Span,
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
}
