//! The lowered language of the Sit compiler: the statements, terms and procedures of a lowered model (construction, reset and step), written once by `sit-lower` and stored by every back end its own way; with the vocabulary it shares with the checked IR (indices, types, operators, pure procedures, lookup tables).
//!
//! It depends on the syntax's spans and comparison operators (`sit-parser`) and on
//! `sit-runtime`, never on the checker: what a back end needs of a program is here.
#![deny(missing_docs)]

pub mod decl;
mod func;
mod links;
mod lowered;
mod lowering;
mod partial;
mod table;
pub mod term;
mod vars;

pub use decl::{CondKind, Memory, MemoryKind, Mode, VarKind};
pub use func::Func;
pub use links::{PhaseLink, SubstepLink, find_phase};
pub use lowered::*;
pub use lowering::{Defined, Lowering};
pub use partial::{Partial, PartialOf};
pub use sit_parser::ast::CmpOp;
pub use sit_parser::{SourceMap, Span};
pub use table::{Beyond, LookupTable};
pub use term::{Budget, LowerError, MAX_DEPTH, MAX_OPS, Place, Reads, Slot, Term};
pub use vars::{Access, Entry, Item, Own, SubRun, visible_count};

/// Index of a model in the program's models.
pub type ModelId = usize;
/// Index of a variable in a model's variables.
pub type VarId = usize;
/// Index of a named condition in a model's named conditions (preds, situations).
pub type CondId = usize;
/// Index of an event in a model's events.
pub type EventId = usize;
/// Index of a submodel in a model's submodels.
pub type SubId = usize;
/// Index of a hidden memory of a stateful procedure .
pub type MemId = usize;
/// Index of an `otherwise` bookkeeping flag (local to one step).
pub type FiredId = usize;
/// Index of a mode in a model's modes.
pub type ModeId = usize;
/// Index of a state in a mode's states.
pub type StateId = usize;

/// The type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An `f64`.
    Real,
    /// A logical value (`bool`; `0.0`/`1.0` through generic interfaces).
    Flag,
}

impl Ty {
    /// The type's keyword: `real` or `flag`.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Real => "real",
            Ty::Flag => "flag",
        }
    }
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

impl ArithOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Pow => "^",
        }
    }

    /// `a OP b` as every back end computes it (`^` by `sit_runtime::math::pow`).
    #[inline]
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            ArithOp::Add => a + b,
            ArithOp::Sub => a - b,
            ArithOp::Mul => a * b,
            ArithOp::Div => a / b,
            ArithOp::Pow => sit_runtime::math::pow(a, b),
        }
    }
}
