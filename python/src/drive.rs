//! What `run` and `sweep` share with `sitc`: the step count of `t_end / dt`, inputs driven
//! by time series, the values to set and the variables to record, with the CLI's checks
//! and messages.

use crate::sit_error;
use pyo3::PyErr;
use pyo3::exceptions::{PyKeyError, PyValueError};
use sit_middle::suggest::did_you_mean;
pub(crate) use sit_runtime::drive::Driven;
use sit_runtime::drive::Input;
use sit_runtime::signal::{OwnedSignal, SignalError};
use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind};

/// The number of steps of a run to `t_end`: `sit_runtime::drive::steps`, the rule of
/// `sitc run`, so that a run from Python has the same rows.
pub(crate) fn steps(dt: f64, t_end: f64) -> Result<u64, PyErr> {
    sit_runtime::drive::steps(dt, t_end).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `; did you mean `x`?` for a misspelt name (or the submodel variables ending in
/// `.name`), or nothing.
pub(crate) fn hint(model: &dyn Model, name: &str) -> String {
    let names: Vec<&str> = sit_runtime::Variables::new(model).map(|v| v.name).collect();
    let inner: Vec<String> = (names.iter())
        .filter(|n| n.rsplit_once('.').is_some_and(|(_, last)| last == name))
        .map(|n| format!("`{n}`"))
        .collect();
    if !inner.is_empty() {
        return format!("; did you mean {}?", inner.join(" or "));
    }
    did_you_mean(name, names).map_or_else(String::new, |s| format!("; did you mean `{s}`?"))
}

/// The index of `name`, or a `KeyError` saying so, with a suggestion.
pub(crate) fn index(model: &dyn Model, name: &str, what: &str) -> Result<usize, PyErr> {
    model.var_index(name).ok_or_else(|| {
        PyKeyError::new_err(format!(
            "{what}no variable named `{name}`{}",
            hint(model, name)
        ))
    })
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
    let i = index(model, name, &what)?;
    let Some(VarInfo { kind, ty, .. }) = model.var_info(i) else {
        return Err(PyKeyError::new_err(format!(
            "{what}no variable named `{name}`"
        )));
    };
    if kind != VarKind::Input {
        let is = match kind {
            VarKind::Event => "an event".to_string(),
            VarKind::SubmodelOn => "a submodel's on state".to_string(),
            _ => format!("a {kind}"),
        };
        return Err(sit_error(format!(
            "{what}`{name}` is {is}; inputs drives inputs (use set= for a value \
             that does not change)"
        )));
    }
    if !model.var_info(i).is_some_and(|v| v.settable) {
        return Err(sit_error(format!(
            "{what}{}",
            SetError::not_settable(name, kind)
        )));
    }
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
    if ty != ValueType::Logical {
        return Ok(Input::real(i, signal));
    }
    Input::flag(i, signal).map_err(|e| {
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
        let i = index(model, name, what)?;
        if model.drives(i) {
            return Err(sit_error(format!("{what}`{name}` is driven by inputs")));
        }
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
    let all = || (0..model.var_count()).collect::<Vec<_>>();
    let list = match record {
        None => {
            let outputs = model.root_outputs();
            return Ok(if outputs.is_empty() { all() } else { outputs });
        }
        Some([one]) if one == "all" => return Ok(all()),
        Some(list) => list,
    };
    let mut out: Vec<usize> = Vec::new();
    for name in list {
        let found = if name.contains(['*', '?']) {
            let pattern = wildmatch::WildMatch::new(name);
            let matched: Vec<usize> = (sit_runtime::Variables::new(model).enumerate())
                .filter(|(_, v)| pattern.matches(v.name))
                .map(|(i, _)| i)
                .collect();
            if matched.is_empty() {
                return Err(PyKeyError::new_err(format!(
                    "record: `{name}` matches no variable"
                )));
            }
            matched
        } else {
            vec![index(model, name, "record: ")?]
        };
        for i in found {
            if !out.contains(&i) {
                out.push(i);
            }
        }
    }
    Ok(out)
}

/// Sets `values` as `sitc run --set` does (params and inputs, reset, then the rest),
/// with the model's reason when one cannot be set.
pub(crate) fn apply(model: &mut dyn Model, values: &[(usize, f64)]) -> Result<(), PyErr> {
    sit_runtime::sweep::apply(model, values).map_err(|e| set_error(model, e))
}

/// A `SitError` for a value that could not be set, naming the variable.
pub(crate) fn set_error(model: &dyn Model, e: SetError<'_>) -> PyErr {
    let name = match e.var() {
        sit_runtime::Var::Index(i) => model.var_info(i).map_or("?", |v| v.name).to_string(),
        sit_runtime::Var::Name(n) => n.to_string(),
    };
    sit_error(e.named(&name).to_string())
}
