//! What a parameter study collects from one run and how it sets a run's values: the rules that the interpreter's sweep (`sit_runtime::sweep`) and a compiled sweep's runner (`sit_host::compiled`) share, written once.

use crate::model::{Model, SetError, VarKind};

/// What to collect from one run: one value per `Collect`, in the order they were added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Collect {
    /// The value of variable `.0` after the last step.
    Final(usize),
    /// The largest value of variable `.0` over the run (before the first step and after
    /// every step); NaN if one of the values was NaN.
    Max(usize),
    /// The smallest value of variable `.0` over the run; NaN if one of the values was NaN.
    Min(usize),
    /// The time at which `var` first reaches `threshold`, from the values before the
    /// first step and after every step (the rows of a run). A row reaches the threshold
    /// when the row before it was below (`< threshold`) and it is at or above (`>=`), or
    /// the row before it was above (`> threshold`) and it is at or below (`<=`); the time
    /// is then linear between the two rows, `t0 + (t1 − t0)·(threshold − v0)/(v1 − v0)`
    /// (exactly `t1` for a row at the threshold, never past it). A run that starts at the
    /// threshold reaches it at its start time. NaN if no row reaches it (a NaN value
    /// reaches nothing, nor does the row after it).
    FirstCrossing {
        /// The variable.
        var: usize,
        /// The threshold.
        threshold: f64,
    },
}

impl Collect {
    /// The variable the summary is about.
    pub fn var(&self) -> usize {
        match *self {
            Collect::Final(v) | Collect::Max(v) | Collect::Min(v) => v,
            Collect::FirstCrossing { var, .. } => var,
        }
    }
}

/// Sets `values` on `model` the way a sweep does: params and inputs, then `reset()`, then
/// the other variables (states, `NAME.on`), each group in the order given.
pub fn apply(model: &mut dyn Model, values: &[(usize, f64)]) -> Result<(), SetError<'static>> {
    apply_then(model, values, |_| {})
}

/// [`apply`] with `after_reset` called on the model right after its `reset()`, before the
/// other variables are set (a compiled sweep's runner drives its inputs there, as
/// `sit_runtime::drive::Driven::reset` does).
pub fn apply_then<M: Model + ?Sized>(
    model: &mut M,
    values: &[(usize, f64)],
    after_reset: impl FnOnce(&mut M),
) -> Result<(), SetError<'static>> {
    let early = |model: &M, i: usize| {
        model
            .var_info(i)
            .is_some_and(|v| matches!(v.kind, VarKind::Param | VarKind::Input))
    };
    for &(i, v) in values {
        if early(model, i) {
            model.set_at(i, v)?;
        }
    }
    model.reset();
    after_reset(model);
    for &(i, v) in values {
        if !early(model, i) {
            model.set_at(i, v)?;
        }
    }
    Ok(())
}

/// The time at which the line from `(t0, v0)` to `(t1, v1)` is at `threshold`, which lies
/// between `v0` (excluded) and `v1` (included): `t1` when `v1` is the threshold, else
/// `t0 + (t1 − t0)·(threshold − v0)/(v1 − v0)`, no later than `t1` whatever the rounding.
pub fn crossing(t0: f64, v0: f64, t1: f64, v1: f64, threshold: f64) -> f64 {
    if v1 == threshold {
        return t1;
    }
    (t0 + (t1 - t0) * ((threshold - v0) / (v1 - v0))).min(t1)
}

/// The new extreme: NaN sticks, else `v` if it is beyond `m`.
pub fn extreme(m: f64, v: f64, beyond: bool) -> f64 {
    if m.is_nan() || v.is_nan() {
        f64::NAN
    } else if beyond {
        v
    } else {
        m
    }
}
