//! The variables of a model seen through `sit_runtime::Model`, in index order, with what may be set.
//!
//! The list ends with the hidden states ([`crate::ir::Var::hidden`]: solver memories,
//! event-log whys), after every visible variable, so that the visible ones keep the
//! indices `0..visible_count` whatever the method and the event log add.

use super::term::{LowerError, MAX_DEPTH, get};
use crate::ir::{CondId, CondKind, EventId, ModeId, ModelId, Program, SubId, Ty, VarId, VarKind};

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
    /// A hidden state ([`crate::ir::Var::hidden`]): listed after every visible variable,
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

/// The variables of `root`: its vars, conds, events and modes in declaration order, then for
/// each submodel `NAME.on` followed by the submodel's own list prefixed by `NAME.`; the
/// hidden states are left out of that order and follow it, in the same tree order
/// (`Entry::hidden`; [`visible_count`] counts the others).
pub fn variables<X>(program: &Program<X>, root: ModelId) -> Result<Vec<Entry>, LowerError> {
    let mut out = Vec::new();
    let mut hidden = Vec::new();
    flatten(
        program,
        root,
        "",
        &mut Vec::new(),
        &[],
        &mut out,
        &mut hidden,
    )?;
    out.append(&mut hidden);
    Ok(out)
}

/// The number of visible entries of a list from [`variables`] (they come first).
pub fn visible_count(entries: &[Entry]) -> usize {
    entries.partition_point(|e| !e.hidden)
}

/// Appends the entries of an instance of `model` at `path`, named with `prefix`, to
/// `out` and its hidden states to `hidden`; `bound` lists the variables its parent binds.
fn flatten<X>(
    program: &Program<X>,
    model: ModelId,
    prefix: &str,
    path: &mut Vec<SubId>,
    bound: &[VarId],
    out: &mut Vec<Entry>,
    hidden: &mut Vec<Entry>,
) -> Result<(), LowerError> {
    if path.len() > MAX_DEPTH as usize {
        return Err(LowerError::TooLarge(
            "the instance tree is too deep (cyclic submodels?)".into(),
        ));
    }
    let m = get(&program.models, model, "model")?;
    let here = path.clone();
    let entry = |name: String, item, ty, output, access| Entry {
        name,
        path: here.clone(),
        model,
        item,
        ty,
        output,
        access,
        hidden: false,
    };
    for (i, v) in m.vars.iter().enumerate() {
        let access = match v.kind {
            _ if v.is_derived() => Access::Derived,
            VarKind::Param { .. } | VarKind::Input if bound.contains(&i) => Access::Bound,
            _ => Access::Settable,
        };
        let name = format!("{prefix}{}", v.name);
        let e = entry(name, Item::Var(i, v.kind), v.ty, v.output, access);
        if v.hidden {
            hidden.push(Entry { hidden: true, ..e });
        } else {
            out.push(e);
        }
    }
    for (c, cond) in m.conds.iter().enumerate() {
        let name = format!("{prefix}{}", cond.name);
        let item = Item::Cond(c, cond.kind);
        out.push(entry(name, item, Ty::Flag, cond.output, Access::Computed));
    }
    for (e, ev) in m.events.iter().enumerate() {
        let name = format!("{prefix}{}", ev.name);
        out.push(entry(
            name,
            Item::Event(e),
            Ty::Flag,
            ev.output,
            Access::Computed,
        ));
    }
    for (k, mode) in m.modes.iter().enumerate() {
        let name = format!("{prefix}{}", mode.name);
        out.push(entry(
            name,
            Item::Mode(k),
            Ty::Real,
            mode.output,
            Access::Mode,
        ));
    }
    for (s, sub) in m.subs.iter().enumerate() {
        let name = format!("{prefix}{}.on", sub.name);
        out.push(entry(name, Item::On(s), Ty::Flag, false, Access::Settable));
        let bound: Vec<VarId> = sub
            .param_bindings
            .iter()
            .chain(&sub.input_bindings)
            .map(|b| b.var)
            .collect();
        path.push(s);
        let sub_prefix = format!("{prefix}{}.", sub.name);
        flatten(program, sub.model, &sub_prefix, path, &bound, out, hidden)?;
        path.pop();
    }
    Ok(())
}
