//! `sit.check` and `sit.Diagnostic`: a file's errors and warnings as Python objects.

use crate::{SitError, guard, sit_error};
use pyo3::prelude::*;
use pyo3::types::PyList;
use sit_middle::Report;
use std::path::PathBuf;

/// One error or warning about a `.sit` file, as `sitc check --format json` reports it.
#[pyclass(module = "sit", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// `"error"` or `"warning"`.
    pub severity: String,
    /// The stable code, `E0101` or `W0201` (see docs/diagnostics.md).
    pub code: String,
    /// What is wrong, one sentence.
    pub message: String,
    /// The file, as given or imported.
    pub file: String,
    /// The line of the start, from 1.
    pub line: usize,
    /// The column of the start, in characters from 1.
    pub column: usize,
    /// The line of the end.
    pub end_line: usize,
    /// The column of the end.
    pub end_column: usize,
    /// The text under the span (may be empty).
    pub label: String,
    /// The `note:` lines.
    pub notes: Vec<String>,
    /// The `help:` line, if any.
    pub help: Option<String>,
    /// The whole diagnostic rendered as `sitc check` prints it.
    pub text: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "<Diagnostic {}:{}:{}: {}[{}]: {}>",
            self.file, self.line, self.column, self.severity, self.code, self.message
        )
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// The diagnostics of `report` as objects.
pub(crate) fn diagnostics(report: &Report) -> Vec<Diagnostic> {
    (report.diagnostics.iter())
        .map(|d| {
            let json = d.to_json(&report.sources);
            let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            let number = |v: &serde_json::Value| v.as_u64().unwrap_or_default() as usize;
            let at = &json["location"];
            Diagnostic {
                severity: text(&json["severity"]),
                code: d.code.to_string(),
                message: d.message.clone(),
                file: text(&at["file"]),
                line: number(&at["line"]),
                column: number(&at["column"]),
                end_line: number(&at["end_line"]),
                end_column: number(&at["end_column"]),
                label: d.label.clone(),
                notes: d.notes.clone(),
                help: d.help.clone(),
                text: d.render(&report.sources),
            }
        })
        .collect()
}

/// A [`SitError`] whose message is the rendered `report` and whose `diagnostics`
/// attribute holds its diagnostics.
pub(crate) fn report_error(py: Python<'_>, report: &Report) -> PyErr {
    let err = SitError::new_err(report.render());
    let list = diagnostics(report)
        .into_iter()
        .map(|d| Py::new(py, d))
        .collect::<PyResult<Vec<_>>>()
        .and_then(|d| PyList::new(py, d));
    if let Ok(list) = list {
        let _ = err.value(py).setattr("diagnostics", list);
    }
    err
}

/// Checks the `.sit` file at `path` and its imports: every error and warning, in source
/// order (an empty list for a valid model without warnings). Raises `SitError` only when
/// the file cannot be read.
#[pyfunction]
pub fn check(path: PathBuf) -> PyResult<Vec<Diagnostic>> {
    guard(|| {
        let output = sit_driver::check(&sit_driver::Source::path(&path))
            .map_err(|e| sit_error(e.to_string()))?;
        let (_, report) = output.into_report();
        Ok(diagnostics(&report))
    })
}
