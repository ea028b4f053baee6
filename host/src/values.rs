//! Values a front end sets before a run: which variable a name sets, whether it may be
//! set, and the model's reason, named, when a value is refused.

use crate::names::{Unknown, index, name_of};
use core::fmt;
use sit_runtime::drive::Driven;
use sit_runtime::{Model, SetError, Var};

/// Why a name cannot take a value before a run.
#[derive(Clone, Debug, PartialEq)]
pub enum SetProblem {
    /// No variable has that name.
    Unknown(Unknown),
    /// An input driven by a time series (a front end says by what).
    Driven,
    /// The model's own reason (a derived param is computed, a bound input is bound, ...),
    /// with the variable named.
    Refused(String),
}

impl fmt::Display for SetProblem {
    /// The problem without the front end's words for the driving series: `Driven` shows
    /// as `is driven by an input series`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetProblem::Unknown(u) => u.fmt(f),
            SetProblem::Driven => f.write_str("is driven by an input series"),
            SetProblem::Refused(reason) => f.write_str(reason),
        }
    }
}

/// The index of `name`, a variable that is not driven by an input series: what a value
/// given for a run (`--set`, `set=`) may name. Whether the model takes the value is known
/// only when it is set (see [`settable`] to know it before).
pub fn target<M: Model>(model: &Driven<M>, name: &str) -> Result<usize, SetProblem> {
    let i = index(model, name).map_err(SetProblem::Unknown)?;
    if model.drives(i) {
        return Err(SetProblem::Driven);
    }
    Ok(i)
}

/// [`target`], and a variable that can be set before every run of a study: a sweep axis
/// or a fixed value. A variable the model marks as not settable is asked on a copy, so
/// that the refusal carries the model's own reason.
pub fn settable<M: Model + Clone>(model: &Driven<M>, name: &str) -> Result<usize, SetProblem> {
    let i = target(model, name)?;
    if model.var_info(i).is_some_and(|v| v.settable) {
        return Ok(i);
    }
    match model.clone().set_at(i, 0.0) {
        Err(e) => Err(SetProblem::Refused(e.named(name).to_string())),
        Ok(()) => Ok(i),
    }
}

/// The message of a refused value with its variable named by its path (a [`SetError`]
/// knows only its index).
pub fn named(model: &dyn Model, e: &SetError<'_>) -> String {
    let name = match e.var() {
        Var::Index(i) => name_of(model, i),
        Var::Name(n) => n,
    };
    e.named(name).to_string()
}

/// `NAME=VALUE` for each value of a parameter set, space-separated: how a failed run of a
/// study is named (`the run with k=2 heating=0.5: ...`).
pub fn describe_set(model: &dyn Model, set: &[(usize, f64)]) -> String {
    let values: Vec<String> = (set.iter())
        .map(|&(i, v)| format!("{}={}", name_of(model, i), sit_runtime::number::shortest(v)))
        .collect();
    values.join(" ")
}

/// The message of a run of a study whose value `e` was refused: `the run with k=2: ...`.
pub fn run_failed(model: &dyn Model, set: &[(usize, f64)], e: &SetError<'_>) -> String {
    format!(
        "the run with {}: {}",
        describe_set(model, set),
        named(model, e)
    )
}
