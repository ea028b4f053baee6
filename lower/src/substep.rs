//! Sub-steps while a situation holds, lowered: what a back end does around the step of a model declared with `substeps`.
//!
//! A model with a [`SubstepLink`] is stepped by its host (or its parent, or a phase's
//! run) through this wrapper, the contract of [`crate::ir`] ("Sub-steps") written once:
//!
//! 1. store `dt` (if the model reads it), then evaluate [`SubstepLink::when`] with the
//!    values at the start of the step; if false, run the step of [`super::Model`]
//!    once with `dt` and stop here;
//! 2. evaluate [`SubstepLink::count`] and call `sit_runtime::substep_count(count,
//!    limit, model, time)` with the model's name and `time`: it gives `n = ceil(count)`
//!    as a whole number from 1 to [`SubstepLink::limit`], or panics with a message
//!    naming the model, the time and the count;
//! 3. note the model's `sit_runtime::Clock`, then run the step of [`super::Model`]
//!    (the whole of it: submodels, events, `otherwise` flags, modes' start states,
//!    body, clock) `n` times with `h = dt / n`;
//! 4. put the noted clock back, then advance it by `dt` into `time`.

use super::{LowerError, Lowerer, Term};
use crate::Span;
use crate::ir::ModelId;

/// How a model divides its step (see the module documentation).
#[derive(Debug, Clone)]
pub struct SubstepLink {
    /// The model's name (for the run-time error).
    pub model: String,
    /// The condition, in the model's scope, evaluated at the start of the step.
    pub when: Term,
    /// The number of sub-steps (real), evaluated at the start of the step when
    /// [`SubstepLink::when`] holds.
    pub count: Term,
    /// The most sub-steps of one step.
    pub limit: u64,
    /// The declaration.
    pub span: Span,
}

/// The sub-steps of model `id`, if it declares them.
pub(super) fn link(
    lw: &mut Lowerer<'_, super::Rewrite>,
    id: ModelId,
    m: &super::rewrite::Model,
) -> Result<Option<SubstepLink>, LowerError> {
    let Some(s) = &m.substeps else {
        return Ok(None);
    };
    Ok(Some(SubstepLink {
        model: m.name.clone(),
        when: lw.term(id, &s.when)?,
        count: lw.term(id, &s.count)?,
        limit: s.limit,
        span: s.span,
    }))
}
