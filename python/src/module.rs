// The items of the extension module `sit._sit`, included by `lib.rs` (its documentation)
// and `extension.rs`.

mod diagnostics;
mod drive;
mod fit;
mod model;
mod run;
mod sweep;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

create_exception!(
    sit,
    SitError,
    PyException,
    "An error of Sit: a model that cannot be read or has errors (the rendered \
     diagnostics are the message, the objects in `diagnostics`), a value that cannot be \
     set, or a run or sweep that cannot be done as asked."
);

create_exception!(
    sit,
    ModelFault,
    SitError,
    "A fault of the model during a run: a phase that did not end within its limit, a \
     sub-step count out of its bounds, an adaptive method past its bound of internal \
     steps or of events located in one step, an implicit method's singular iteration \
     matrix or a step that underflowed. The message names the model and the time; the \
     attributes `model`, `time` and `kind` (`phase_overrun`, `substep_count`, \
     `internal_steps`, `events_chatter`, `singular_matrix`, `step_underflow`) say the \
     same as values. The step was left half done: `reset()` before stepping the model \
     again."
);

create_exception!(
    sit,
    NonFiniteError,
    SitError,
    "A run met a value that is not finite (NaN or infinity), which stops it unless \
     `allow_non_finite=True`: the message names the rule that made it, its line, the \
     time at the start of the step and the values the rule read, as `sitc run` does. \
     Attributes: `var` (the variable, dotted), `value`, `time`, `line` and `rule` (the \
     rule's text; `None` for a value set from outside or a param's default) and \
     `result`, the `RunResult` of the rows before the step that made it."
);

create_exception!(
    sit,
    NonFiniteWarning,
    PyUserWarning,
    "A run met a value that is not finite (NaN or infinity): the message names the \
     first variable and the step (`Model.run` once per run; `sit.sweep` once per row, \
     named by its parameter values). The values after it may be NaN or infinite."
);

create_exception!(
    sit,
    TableRangeWarning,
    PyUserWarning,
    "A lookup table was read past its grid (with `clamp`, where it holds its end \
     values) or more than one grid span past it (with `extrapolate`): the message names \
     the table, how many reads were past it and the range of arguments seen against the \
     grid, per argument. Once per table per run (per sweep in `sit.sweep`)."
);

create_exception!(
    sit,
    StiffnessWarning,
    PyUserWarning,
    "The stiffness test of an adaptive explicit method (`dopri5`, `tsit5`, `dop853`; \
     Hairer's test) found a model stiff: its steps were bounded by the method's \
     stability, not by the tolerances. The message names the model, the method and the \
     time from which; the implicit method `rodas5p` suits it. Once per `Model.run`."
);

create_exception!(
    sit,
    AccuracyWarning,
    PyUserWarning,
    "The estimated error of a run by a fixed-step method (`euler`, `rk4`) is past 5% of \
     a state's largest magnitude (Richardson's estimate from a run at 2·dt, made only when \
     the step doubling at 64 sampled steps suspects it): the message names the state, the \
     estimate and what makes it smaller (`method rk4;`, `method dopri5;`, a smaller dt). \
     Once per `Model.run`."
);

/// Issues each warning of `warnings` through Python's `warnings.warn`, in its category,
/// `stacklevel` frames up (1: the caller of the Rust method). An exception (warnings
/// turned into errors) stops at the first.
pub(crate) fn warn(
    py: Python<'_>,
    warnings: &[(sit_host::reports::Concern, String)],
    stacklevel: i32,
) -> PyResult<()> {
    if warnings.is_empty() {
        return Ok(());
    }
    let warn = py.import("warnings")?.getattr("warn")?;
    for (concern, message) in warnings {
        let category = match concern {
            sit_host::reports::Concern::NonFinite => py.get_type::<NonFiniteWarning>(),
            sit_host::reports::Concern::TableRange => py.get_type::<TableRangeWarning>(),
            sit_host::reports::Concern::Stiffness => py.get_type::<StiffnessWarning>(),
            sit_host::reports::Concern::Accuracy => py.get_type::<AccuracyWarning>(),
        };
        warn.call1((message.as_str(), category, stacklevel))?;
    }
    Ok(())
}

/// Runs `f`: a fault of the model raised inside it (a [`sit_runtime::ModelFault`],
/// recognised by its type) becomes a [`ModelFault`] exception, and any other panic a
/// [`SitError`] naming it as a bug of Sit (a panic must never reach Python, where it
/// would be a `BaseException` that `except Exception` misses).
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(|| sit_runtime::catch_fault(f))) {
        Ok(Ok(result)) => result,
        Ok(Err(fault)) => Err(model_fault(&fault)),
        Err(payload) => {
            let what = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(SitError::new_err(format!(
                "internal error (a bug of Sit, please report it): {what}"
            )))
        }
    }
}

/// The [`ModelFault`] exception of `fault`: its message, and its model, time and kind
/// as attributes.
fn model_fault(fault: &sit_runtime::ModelFault) -> PyErr {
    let err = ModelFault::new_err(fault.to_string());
    Python::attach(|py| {
        let value = err.value(py);
        let set = (value.setattr("model", fault.model.as_str()))
            .and_then(|()| value.setattr("time", fault.time))
            .and_then(|()| value.setattr("kind", fault.kind.name()));
        set.map(|()| err.clone_ref(py))
    })
    .unwrap_or_else(|e| e)
}

/// The [`NonFiniteError`] of `fault` (a value past 1e100, a probable instability, when
/// `blowup`), with the rows before it (`result`).
pub(crate) fn non_finite_error(
    fault: &sit_interp::NonFinite,
    blowup: bool,
    result: run::RunResult,
) -> PyErr {
    let err = NonFiniteError::new_err(if blowup {
        format!(
            "probable instability: {fault}; a value past {:e} is taken for a numerical \
             instability (a step too long for the model's fastest time scale): `method \
             dopri5;` in the model (`rodas5p` for a stiff model), or a smaller dt; \
             allow_non_finite=True runs on past it (a model that means such values)",
            sit_interp::replay::BLOWUP
        )
    } else {
        format!(
            "{fault}; allow_non_finite=True runs on past it (a model that means a value to be \
             infinite)"
        )
    });
    Python::attach(|py| {
        let value = err.value(py);
        let origin = fault.origin.as_ref();
        let set = (value.setattr("var", fault.var.as_str()))
            .and_then(|()| value.setattr("value", fault.value))
            .and_then(|()| value.setattr("time", fault.time))
            .and_then(|()| value.setattr("line", origin.map(|o| o.line)))
            .and_then(|()| value.setattr("rule", origin.map(|o| o.text.as_str())))
            .and_then(|()| value.setattr("result", Py::new(py, result)?));
        set.map(|()| err.clone_ref(py))
    })
    .unwrap_or_else(|e| e)
}

/// A [`SitError`] with `message`.
pub(crate) fn sit_error(message: impl Into<String>) -> PyErr {
    SitError::new_err(message.into())
}

/// Panics inside [`guard`]: the test that a panic becomes a `SitError`.
#[pyfunction]
fn _panic_inside_guard() -> PyResult<()> {
    guard(|| panic!("a deliberate panic"))
}

/// The extension module `sit._sit`.
#[pymodule]
fn _sit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SitError", m.py().get_type::<SitError>())?;
    m.add("ModelFault", m.py().get_type::<ModelFault>())?;
    m.add("NonFiniteError", m.py().get_type::<NonFiniteError>())?;
    m.add("NonFiniteWarning", m.py().get_type::<NonFiniteWarning>())?;
    m.add("TableRangeWarning", m.py().get_type::<TableRangeWarning>())?;
    m.add("StiffnessWarning", m.py().get_type::<StiffnessWarning>())?;
    m.add("AccuracyWarning", m.py().get_type::<AccuracyWarning>())?;
    // A model's fault becomes a `ModelFault` exception: the panic hook stays silent.
    sit_runtime::quiet_fault_panics();
    m.add_class::<diagnostics::Diagnostic>()?;
    m.add_class::<model::Variable>()?;
    m.add_class::<model::Model>()?;
    m.add_class::<run::RunResult>()?;
    m.add_class::<fit::FitResult>()?;
    m.add_class::<fit::Residuals>()?;
    m.add_class::<sweep::Study>()?;
    m.add_class::<sweep::SweepResult>()?;
    m.add_function(wrap_pyfunction!(diagnostics::check, m)?)?;
    m.add_function(wrap_pyfunction!(model::load, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::_run_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_inside_guard, m)?)?;
    Ok(())
}
