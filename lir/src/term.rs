//! Expressions with every name resolved to a place of the instance tree: the terms of the lowered language, and the limits of the lowering that builds them.

use crate::{ArithOp, CmpOp, CondId, EventId, Func, LookupTable, ModeId, StateId, SubId, VarId};

/// Deepest nesting of submodels, and of expressions with derived params and conditions
/// inlined, accepted: above the checker's 1000 operators per expression, so that every
/// single expression it accepts lowers; beyond it (long chains of derived params or
/// conditions, or a cycle in a malformed program) is an error, not a stack overflow.
pub const MAX_DEPTH: u32 = 2048;

/// Most expression nodes that inlining derived params and conditions where they are
/// read may add to one lowered model: `p1 = p0 + p0; p2 = p1 + p1; ...` doubles at each
/// line, so 40 lines would expand to 2^40 nodes (a hang); this turns it into an error.
/// The nodes as written (the rules and a method's rewrite of them, linear in the
/// program) do not count under [`Budget::BACK_END`]: a model of 10 000 states under
/// `rodas5p` has about 4 million of them (docs/performance.md §31).
pub const MAX_OPS: usize = 1 << 22;

/// The limits of one lowering: how deep terms may nest, how many nodes it may
/// produce, and how many definitions may be inlined one inside another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Deepest nesting of a lowered term (operators and inlined definitions).
    pub depth: u32,
    /// Most nodes lowered: in all when [`Budget::written`], else within inlined
    /// definitions only.
    pub ops: usize,
    /// Most definitions (derived params, conditions) inlined one inside another:
    /// `p2` reading `p1` reading `p0` nests three.
    pub nesting: u32,
    /// Whether the nodes as written, outside inlined definitions, count against
    /// [`Budget::ops`]: the lints' budget bounds each guard whole; the back ends' only
    /// what inlining adds, since what is written is linear in the program.
    pub written: bool,
}

impl Budget {
    /// What the back ends allow: every expression the checker accepts lowers.
    pub const BACK_END: Budget = Budget {
        depth: MAX_DEPTH,
        ops: MAX_OPS,
        nesting: MAX_DEPTH,
        written: false,
    };
}

/// A stored value of one instance, as seen from the instance whose code reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// The submodels to go through, outermost first (empty: the reading instance).
    pub path: Vec<SubId>,
    /// The value in that instance.
    pub slot: Slot,
}

/// A stored value of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A free param, input or state (never a derived param: see [`Term::Derived`]).
    Var(VarId),
    /// The value of an event in this step.
    Event(EventId),
    /// Whether a direct submodel is switched on.
    On(SubId),
    /// The instance's clock.
    Time,
    /// The length of the current step.
    Dt,
    /// The state of a mode (its index in the checked IR's `Mode::states`).
    Mode(ModeId),
    /// The state of a mode at the start of the current step, before its transitions:
    /// local to the step, read only by the guards of the instance's own transitions.
    ModeStart(ModeId),
}

/// A typed expression over [`Place`]s: the checked IR's `Expr` with names resolved through
/// submodels. Operands are evaluated in the order of the tree, exactly as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    /// A real literal.
    Num(f64),
    /// A logical literal.
    Bool(bool),
    /// A stored value (real or flag, by the type of the variable).
    Read(Place),
    /// A derived param left by name ([`Reads::Named`]): the slot is a [`Slot::Var`].
    Derived(Place),
    /// A pred or situation left by name ([`Reads::Named`]), in the instance at `path`.
    Cond(Vec<SubId>, CondId),
    /// Unary real minus.
    Neg(Box<Term>),
    /// Logical not.
    Not(Box<Term>),
    /// Real arithmetic (`^` is `sit_runtime::math::pow`).
    Arith(ArithOp, Box<Term>, Box<Term>),
    /// Comparison of two reals.
    Cmp(CmpOp, Box<Term>, Box<Term>),
    /// Logical and (no side effects: evaluating both sides is allowed).
    And(Box<Term>, Box<Term>),
    /// Logical or.
    Or(Box<Term>, Box<Term>),
    /// A pure procedure of the runtime library.
    Call(Func, Vec<Term>),
    /// A read of a lookup table (one argument per grid): `sit_runtime::table::lookup1`
    /// or `lookup2` on the table's data.
    Table(std::sync::Arc<LookupTable>, Vec<Term>),
    /// The slope of a lookup table along its argument `axis` (the checked IR's `Expr::TableSlope`):
    /// `sit_runtime::table::slope1`, or `slope2_x`/`slope2_y`, on the table's data.
    TableSlope(std::sync::Arc<LookupTable>, usize, Vec<Term>),
    /// Whether the mode stored at the place (a [`Slot::Mode`] or [`Slot::ModeStart`])
    /// is in the state.
    InMode(Place, StateId),
}

impl Term {
    /// Call `f` on this term and every subterm, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Term)) {
        f(self);
        match self {
            Term::Neg(a) | Term::Not(a) => a.visit(f),
            Term::Arith(_, a, b) | Term::Cmp(_, a, b) | Term::And(a, b) | Term::Or(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Term::Call(_, xs) | Term::Table(_, xs) | Term::TableSlope(_, _, xs) => {
                xs.iter().for_each(|x| x.visit(f))
            }
            _ => {}
        }
    }

    /// Whether the term reads nothing (literals and operators only).
    pub fn is_constant(&self) -> bool {
        let mut constant = true;
        self.visit(&mut |t| {
            constant &= !matches!(
                t,
                Term::Read(_) | Term::Derived(_) | Term::Cond(..) | Term::InMode(..)
            )
        });
        constant
    }
}

/// How reads of derived params and conditions are lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// Replaced by their definitions, where they are read (the same tree, so the same
    /// operations in the same order): for back ends without accessors.
    Inline,
    /// Kept as [`Term::Derived`] and [`Term::Cond`]: for back ends that evaluate them
    /// through an accessor of their own.
    Named,
}

/// Why an expression could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// Inlining nests deeper or grows larger than the [`Budget`] allows.
    #[error("{0}")]
    TooLarge(String),
    /// The program is not a checked one (an index out of range, a type mismatch).
    #[error("malformed program: {0}")]
    Malformed(String),
}
