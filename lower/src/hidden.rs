//! The hidden states of a method rewrite (stage memories, step sizes, the event search's values), named apart from the model's own names.

use super::build::num;
use crate::Span;
use crate::ir::{Method, Model, Ty, Var, VarId, VarKind};

/// The model being rewritten and the hidden variables added to it so far.
pub(super) struct Hidden<'m> {
    /// The model as written (method not `euler`).
    pub(super) m: &'m Model,
    /// The rewrite: `m` with its method set to `euler`, its hidden variables appended
    /// (the caller sets its body and `fired`).
    pub(super) out: Model,
    taken: std::collections::HashSet<String>,
}

impl<'m> Hidden<'m> {
    /// Hidden variables for a rewrite of `m` (its method set to `euler`), named apart
    /// from the model's own names.
    pub(super) fn of(m: &'m Model) -> Self {
        let mut out = m.clone();
        out.method = Method::Euler;
        let taken = m
            .vars
            .iter()
            .map(|v| v.name.clone())
            .chain(m.conds.iter().map(|c| c.name.clone()))
            .chain(m.events.iter().map(|e| e.name.clone()))
            .chain(m.subs.iter().map(|s| s.name.clone()))
            .collect();
        Hidden { m, out, taken }
    }

    /// A hidden state of the whole model for `method`: `METHOD_WHAT`, documented `doc`.
    pub(super) fn global(&mut self, method: &str, what: &str, doc: &str) -> VarId {
        let span = self.m.span;
        self.new_var(
            format!("{method}_{what}"),
            format!(" {doc} ({method})."),
            span,
        )
    }

    /// A hidden real state, initially 0, named `name` (followed by `_` until no name of
    /// the model or of an earlier hidden state is the same) and documented `doc`.
    pub(super) fn new_var(&mut self, name: String, doc: String, span: Span) -> VarId {
        let mut name = name;
        while self.taken.contains(&name) {
            name.push('_');
        }
        self.taken.insert(name.clone());
        self.out.vars.push(Var {
            name,
            kind: VarKind::State,
            ty: Ty::Real,
            output: false,
            init: num(0.0),
            doc: vec![doc],
            span,
            hidden: true,
        });
        self.out.vars.len() - 1
    }
}
