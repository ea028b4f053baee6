//! Instantaneous phases, lowered: what a back end does for `run(name)`.
//!
//! A [`PhaseLink`] is a submodel declared with `phase`: never stepped with its parent
//! (its [`super::SubLink`] is off after every reset and has no bindings), and run to its
//! end by [`super::Stmt::Run`], which a back end carries out as follows (the contract
//! of [`crate::ir`], written once):
//!
//! 1. every [`PhaseLink::binds`] entry in order, evaluated in the parent and assigned
//!    to the submodel's param or input;
//! 2. a reset of the submodel (recursively, as `reset()` on it; the bindings of step 1
//!    are not re-applied by it, since a phase's [`super::SubLink::params`] is empty);
//! 3. `n = 0`, then repeat: a step of the submodel with `dt` = [`PhaseLink::step`]
//!    (its own submodels, events, rules and time, as any step); `n = n + 1`; stop if
//!    [`PhaseLink::until`] (in the parent's scope) holds; otherwise, if `n` =
//!    [`PhaseLink::limit`], call `sit_runtime::phase_overrun(model, phase, time, n)`
//!    with the parent's model name, the phase's name and the parent's `time`, which
//!    panics with a message naming them.
//!
//! The parent's own time, `dt` and variables are left alone; the submodel's clock
//! reads the run's duration in its own time (`name.time`).

use super::{Init, LowerError, Term};
use crate::Span;
use crate::ir::{ModelId, SubId};

/// An instantaneous phase as its parent runs it.
#[derive(Debug, Clone)]
pub struct PhaseLink {
    /// The submodel.
    pub sub: SubId,
    /// Its model.
    pub model: ModelId,
    /// The phase's name (for the run-time error).
    pub name: String,
    /// Bindings to the submodel's params and inputs, in the order written, values in
    /// the parent: applied at the start of every run, before the reset.
    pub binds: Vec<Init>,
    /// The phase's own step.
    pub step: f64,
    /// The most steps of one run.
    pub limit: u64,
    /// The end condition, in the parent's scope.
    pub until: Term,
    /// The declaration.
    pub span: Span,
}

/// The phase of submodel `sub` among `phases`, or a malformed-program error (a `run`
/// of a submodel that is not a phase).
pub fn find(phases: &[PhaseLink], sub: SubId) -> Result<&PhaseLink, LowerError> {
    phases
        .iter()
        .find(|p| p.sub == sub)
        .ok_or_else(|| LowerError::Malformed(format!("`run` of submodel {sub}, not a phase")))
}
