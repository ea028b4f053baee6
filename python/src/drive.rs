//! What `run` and `sweep` share with `sitc`: the step count of `t_end / dt`, inputs driven
//! by time series, the values to set and the variables to record, with the CLI's checks
//! and messages.

use crate::sit_error;
use pyo3::PyErr;
use pyo3::exceptions::{PyKeyError, PyValueError};
use sit_host::inputs::InputProblem;
use sit_host::names::RecordError;
use sit_host::values::SetProblem;
pub(crate) use sit_runtime::drive::Driven;
use sit_runtime::drive::Input;
use sit_runtime::signal::{OwnedSignal, SignalError};
use sit_runtime::{Model, SetError};

/// The number of steps of a run to `t_end`: `sit_runtime::drive::steps`, the rule of
/// `sitc run`, so that a run from Python has the same rows.
pub(crate) fn steps(dt: f64, t_end: f64) -> Result<u64, PyErr> {
    sit_runtime::drive::steps(dt, t_end).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The index of `name`, or a `KeyError` saying so, with a suggestion.
pub(crate) fn index(model: &dyn Model, name: &str, what: &str) -> Result<usize, PyErr> {
    sit_host::names::index(model, name).map_err(|u| PyKeyError::new_err(format!("{what}{u}")))
}

/// A value that cannot be set, as an exception: a `KeyError` for an unknown name, else a
/// `SitError`.
pub(crate) fn set_problem(name: &str, what: &str, p: SetProblem) -> PyErr {
    match p {
        SetProblem::Unknown(u) => PyKeyError::new_err(format!("{what}{u}")),
        SetProblem::Driven => sit_error(format!("{what}`{name}` is driven by inputs")),
        SetProblem::Refused(why) => sit_error(format!("{what}{why}")),
    }
}

/// A value to set must be a number (NaN and infinities are refused).
pub(crate) fn finite(name: &str, value: f64, what: &str) -> Result<f64, PyErr> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{what}`{name}` = {value}: expected a finite number"
        )))
    }
}

/// The input `name` of `model` driven by the series `(times, values)`: linear between
/// rows for a real input, each value (0 or 1) held until the next row for a flag.
pub(crate) fn input(
    model: &dyn Model,
    name: &str,
    times: Vec<f64>,
    values: Vec<f64>,
) -> Result<Input, PyErr> {
    let what = format!("inputs[{name:?}]: ");
    let (i, flag) = sit_host::inputs::input_index(model, name).map_err(|p| match p {
        InputProblem::Unknown => match index(model, name, &what) {
            Err(e) => e,
            Ok(_) => PyKeyError::new_err(format!("{what}no variable named `{name}`")),
        },
        InputProblem::NotAnInput { is } => sit_error(format!(
            "{what}`{name}` is {is}; inputs drives inputs (use set= for a value \
             that does not change)"
        )),
        InputProblem::NotSettable(why) => sit_error(format!("{what}{why}")),
    })?;
    let signal = OwnedSignal::new(times, values).map_err(|e| {
        PyValueError::new_err(match e {
            SignalError::TimeNotFinite { row, time } => {
                format!("{what}time [{row}] is {time}; expected a finite number")
            }
            SignalError::ValueNotFinite { row, value } => {
                format!("{what}value [{row}] is {value}; expected a finite number")
            }
            SignalError::Decreasing {
                row,
                time,
                previous,
            } => format!(
                "{what}time [{row}] = {time} is before the time {previous} before it; \
                 times must increase (a time given twice is a jump)"
            ),
            SignalError::Repeated { row, time } => format!(
                "{what}time [{row}] = {time} is given a third time; a time may appear at \
                 most twice in a row (a jump)"
            ),
            other => format!("{what}{other}"),
        })
    })?;
    sit_host::inputs::driven(i, flag, signal).map_err(|e| {
        PyValueError::new_err(format!(
            "{what}value [{}] is {}; the flag `{name}` takes 0 (false) or 1 (true), each \
             held until the next time",
            e.row, e.value
        ))
    })
}

/// The indices of the values to set, checked: known, not driven, finite.
pub(crate) fn values(
    model: &Driven<impl Model>,
    set: &[(String, f64)],
    what: &str,
) -> Result<Vec<(usize, f64)>, PyErr> {
    let mut out = Vec::with_capacity(set.len());
    for (name, value) in set {
        let i = sit_host::values::target(model, name).map_err(|p| set_problem(name, what, p))?;
        out.push((i, finite(name, *value, what)?));
    }
    Ok(out)
}

/// The indices to record: `None` the root model's outputs (every variable when it
/// declares none), `["all"]` every variable, else names and globs (`pi.*`, `*.on`, `x?`)
/// in order, each variable once.
pub(crate) fn record_list(
    model: &sit_interp::Instance,
    record: Option<&[String]>,
) -> Result<Vec<usize>, PyErr> {
    sit_host::names::record_list(model, record).map_err(record_error)
}

/// A list of variables to record that was refused, as a `KeyError`.
pub(crate) fn record_error(e: RecordError) -> PyErr {
    PyKeyError::new_err(format!("record: {e}"))
}

/// Sets `values` as `sitc run --set` does (params and inputs, reset, then the rest),
/// with the model's reason when one cannot be set.
pub(crate) fn apply(model: &mut dyn Model, values: &[(usize, f64)]) -> Result<(), PyErr> {
    sit_runtime::sweep::apply(model, values).map_err(|e| set_error(model, e))
}

/// A `SitError` for a value that could not be set, naming the variable.
pub(crate) fn set_error(model: &dyn Model, e: SetError<'_>) -> PyErr {
    sit_error(sit_host::values::named(model, &e))
}
