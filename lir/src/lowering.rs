//! What a back end reads of a lowered program: [`Lowering`], the one interface between the lowering and the storage strategies.

use crate::{CondId, Entry, LowerError, Model, ModelId, Own, Reads, Term, VarId, decl};
use sit_runtime::events::Table;

/// A derived param or a named condition, whose definition a back end evaluates where it
/// is read or in an accessor of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defined {
    /// A derived param.
    Var(VarId),
    /// A pred or situation.
    Cond(CondId),
}

/// A lowered program, as the back ends (`sit-codegen`, `sit-interp`, `sit-gpu`) read it:
/// the declarations of its models ([`decl::Program`], filled once when the program is
/// lowered), each model's statements ([`Model`]), its variable list ([`Entry`]) and the
/// definitions of its derived params and conditions as terms.
///
/// `sit_lower::Lowered` implements it; the back ends depend on this crate only, so that
/// none of them can read the checked IR. A model is lowered when a back end asks for it
/// (a program's imported library models are often never instantiated).
pub trait Lowering: Send + Sync {
    /// The declarations of every model.
    fn program(&self) -> &decl::Program;

    /// Model `id` lowered, with reads of derived params and conditions as `reads` says.
    fn model(&self, id: ModelId, reads: Reads) -> Result<Model, LowerError>;

    /// The definition of a derived param or a condition of model `id`, lowered in its
    /// scope as `reads` says (a `Reads::Named` definition reads other ones by name).
    fn definition(&self, id: ModelId, of: Defined, reads: Reads) -> Result<Term, LowerError>;

    /// A read of a derived param or a condition of model `id` in its own scope, lowered
    /// as `reads` says.
    fn read(&self, id: ModelId, of: Defined, reads: Reads) -> Result<Term, LowerError>;

    /// The variables of the instance tree of `root` (see `sit_lower::variables`).
    fn variables(&self, root: ModelId) -> Result<Vec<Entry>, LowerError>;

    /// The own part of the variable list of `model` (see `sit_lower::own_variables`).
    fn own_variables(&self, model: ModelId) -> Result<Own, LowerError>;

    /// The event table of the instance tree of `root`, when the program was prepared
    /// for the event log.
    fn event_table(&self, root: ModelId) -> Option<Result<Table, LowerError>>;
}
