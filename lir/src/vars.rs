//! The variable list of a model as `sit_runtime::Model` sees it: its entries, what each is and whether it may be set (the list itself is made by `sit_lower::variables`).

use crate::{CondId, CondKind, EventId, ModeId, ModelId, SubId, Ty, VarId, VarKind};

/// One variable of the flattened list.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Dotted name (`roll.x`, `roll.on`).
    pub name: String,
    /// The instance it belongs to, from the root (empty: the root's own); for
    /// [`Item::On`], the parent of the submodel switched.
    pub path: Vec<SubId>,
    /// The model of that instance.
    pub model: ModelId,
    /// What it is in that model.
    pub item: Item,
    /// Real or logical.
    pub ty: Ty,
    /// Declared `output` in its own model (`false` for `NAME.on`).
    pub output: bool,
    /// Whether it can be set, and why not.
    pub access: Access,
    /// A hidden state ([`crate::decl::Var::hidden`]): listed after every visible variable,
    /// left out of the variable tables, reached only by index.
    pub hidden: bool,
}

/// What a variable of the list is, in its instance's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A param, input or state.
    Var(VarId, VarKind),
    /// A pred or situation.
    Cond(CondId, CondKind),
    /// An event.
    Event(EventId),
    /// `NAME.on` of a direct submodel.
    On(SubId),
    /// A mode: its value is the index of its state.
    Mode(ModeId),
}

/// Whether a variable can be set from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A free param or input not bound by the parent, a state, or `NAME.on`.
    Settable,
    /// A param or input bound by the parent.
    Bound,
    /// A derived param: computed from other params.
    Derived,
    /// A pred, situation or event: computed.
    Computed,
    /// A mode: changed only by its transitions.
    Mode,
}

/// A model's own part of its list from `sit_lower::variables`, found without listing its
/// submodels' variables: what a back end needs whose accessors hand each submodel's
/// indices to the submodel's own (the generated code), in time linear in the model's
/// tree of types rather than in its names (a chain of submodels `d` deep lists `d²`
/// names in all, `d³` characters).
#[derive(Debug, Clone)]
pub struct Own {
    /// The model's own entries (its variables, conds, events and modes, and `NAME.on`
    /// of each submodel; all with an empty path), each with its index in the list, in
    /// index order.
    pub entries: Vec<(usize, Entry)>,
    /// Per submodel, its runs in the list.
    pub subs: Vec<SubRun>,
    /// The number of visible entries of the whole list.
    pub visible: usize,
    /// The number of hidden states of the whole list.
    pub hidden: usize,
}

/// Where a submodel's variables are in its parent's list: two runs, each in the order
/// of the submodel's own list (its visible entries, then its hidden states).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubRun {
    /// First index of its visible entries in the parent's list.
    pub visible_start: usize,
    /// Their number (the submodel's own `visible`).
    pub visible: usize,
    /// First index of its hidden states in the parent's list.
    pub hidden_start: usize,
    /// Their number.
    pub hidden: usize,
    /// The indices, in the submodel's own list, of its params and inputs that the parent
    /// binds ([`Access::Bound`] in the parent's list, settable in the submodel's own).
    pub bound: Vec<usize>,
    /// Whether one of its visible entries is a mode (at any depth).
    pub modes: bool,
}

/// The number of visible entries of a list from `sit_lower::variables` (they come first).
pub fn visible_count(entries: &[Entry]) -> usize {
    entries.partition_point(|e| !e.hidden)
}
