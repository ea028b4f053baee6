//! Inputs driven by time series: which variables a series may drive, and the driven input.

use sit_runtime::drive::{Input, NotLogical};
use sit_runtime::signal::OwnedSignal;
use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind};

/// Why a name cannot be driven by a time series.
#[derive(Clone, Debug, PartialEq)]
pub enum InputProblem {
    /// No variable has that name.
    Unknown,
    /// A variable that is not an input: `is` says what it is (`a param`, `an event`,
    /// `a submodel's on state`).
    NotAnInput {
        /// What the variable is, with its article.
        is: String,
    },
    /// An input the host does not set (bound by its parent model): the model's reason.
    NotSettable(String),
}

/// What a variable of kind `kind` is, with its article: `a param`, `an event`, `a
/// submodel's on state`.
pub fn kind_phrase(kind: VarKind) -> String {
    match kind {
        VarKind::Event => "an event".to_string(),
        VarKind::SubmodelOn => "a submodel's on state".to_string(),
        _ => format!("a {kind}"),
    }
}

/// The inputs of `model` that a series can drive (inputs the host sets), in index order.
pub fn drivable(model: &dyn Model) -> Vec<&str> {
    sit_runtime::Variables::new(model)
        .filter(|v| v.kind == VarKind::Input && v.settable)
        .map(|v| v.name)
        .collect()
}

/// The index of the input `name` of `model` that a series can drive (a real or flag input
/// the host sets, not one bound by a parent), and whether it is a flag.
pub fn input_index(model: &dyn Model, name: &str) -> Result<(usize, bool), InputProblem> {
    let Some((i, VarInfo { kind, ty, .. })) = model
        .var_index(name)
        .and_then(|i| Some((i, model.var_info(i)?)))
    else {
        return Err(InputProblem::Unknown);
    };
    if kind != VarKind::Input {
        return Err(InputProblem::NotAnInput {
            is: kind_phrase(kind),
        });
    }
    if !model.var_info(i).is_some_and(|v| v.settable) {
        let e = SetError::not_settable(name, kind);
        return Err(InputProblem::NotSettable(e.to_string()));
    }
    Ok((i, ty == ValueType::Logical))
}

/// The input `index` driven by `signal`: linear between rows for a real input, each value
/// (0 or 1) held until the next row for a flag (`flag`), whose other values are refused.
pub fn driven(index: usize, flag: bool, signal: OwnedSignal) -> Result<Input, NotLogical> {
    if flag {
        Input::flag(index, signal)
    } else {
        Ok(Input::real(index, signal))
    }
}
