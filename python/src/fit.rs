//! `Model.fit`, `Model.residuals` and the forward sensitivities of `Model.run`: the model rebuilt with the states `d(x)/d(k)`, and the least-squares fit of `sitc fit` on them.

use crate::model::Model;
use crate::{guard, sit_error};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sit_host::fit::{Data, FitError, FitOptions, FitParam, Residuals as HostResiduals};
use sit_driver::Lowered;
use sit_interp::Instance;
use sit_middle::ir::ModelId;
use sit_runtime::events::Logged;
use sit_runtime::{Model as _, VarKind};

impl Model {
    /// The model lowered again: with the forward sensitivities to `wrt` (params, or
    /// states for their initial values; none when empty) and the event log's
    /// instrumentation when `events`.
    fn relowered(&self, wrt: &[String], events: bool) -> PyResult<(Lowered, ModelId)> {
        let (program, root) = &*self.program;
        if wrt.is_empty() {
            let lowered = sit_driver::prepare(program, events)
                .map_err(|e| sit_error(format!("error: {e}")))?;
            return Ok((lowered, *root));
        }
        let name = program.models[*root].name.clone();
        let opts = sit_driver::Options {
            events,
            sensitivities: Some(sit_driver::Sensitivities {
                model: Some(name.clone()),
                wrt: wrt.to_vec(),
            }),
            ..Default::default()
        };
        let warnings = sit_middle::Report::new(Vec::new(), program.sources.clone());
        let compiled = sit_driver::lower(program.clone(), warnings, &opts).map_err(|e| match e {
            sit_driver::Error::Sensitivity(e) => PyKeyError::new_err(format!("sensitivities: {e}")),
            e => sit_error(format!("error: {e}")),
        })?;
        let root = compiled.root(Some(&name)).map_err(|e| sit_error(e.to_string()))?;
        Ok((compiled.lowered, root))
    }

    /// Sets this instance's params and inputs on `to`, a rebuilt instance of the same
    /// model (by name: a rebuilt one may have more variables).
    fn carry(&self, to: &mut dyn sit_runtime::Model) -> PyResult<()> {
        for i in 0..self.instance.var_count() {
            let Some(v) = self.instance.var_info(i) else {
                continue;
            };
            if !(v.settable && matches!(v.kind, VarKind::Param | VarKind::Input)) {
                continue;
            }
            if let (Some(j), Some(value)) = (to.var_index(v.name), self.instance.get_at(i)) {
                to.set_at(j, value)
                    .map_err(|e| crate::drive::set_error(to, e))?;
            }
        }
        Ok(())
    }

    /// A new instance of the model with the forward sensitivities to `wrt` (this one
    /// itself when empty), carrying this one's params and inputs.
    pub(crate) fn sensitive(&self, wrt: &[String]) -> PyResult<Instance> {
        if wrt.is_empty() {
            return Ok(self.instance.clone());
        }
        let (lowered, root) = self.relowered(wrt, false)?;
        let mut out =
            Instance::try_new(&lowered, root).map_err(|e| sit_error(format!("error: {e}")))?;
        self.carry(&mut out)?;
        Ok(out)
    }

    /// A new instance of the model built for the event log, with the forward
    /// sensitivities to `wrt`, carrying this one's params and inputs (a run resets it:
    /// its states start from their initial values either way).
    pub(crate) fn logged(&self, wrt: &[String]) -> PyResult<Logged<Instance>> {
        let (lowered, root) = self.relowered(wrt, true)?;
        let mut out = Instance::with_events(&lowered, root)
            .map_err(|e| sit_error(format!("error: {e}")))?;
        self.carry(&mut out)?;
        Ok(out)
    }

    /// The residuals of `Model.fit` and `Model.residuals`: the params' specs read, the
    /// model rebuilt with their sensitivities, the data read.
    #[allow(clippy::too_many_arguments)]
    fn host_residuals(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        params: &Bound<'_, PyAny>,
        dt: f64,
        log: Option<Vec<String>>,
        sigma: Option<&Bound<'_, PyDict>>,
        set: Option<&Bound<'_, PyDict>>,
        max_iter: usize,
    ) -> PyResult<(HostResiduals, Vec<Option<f64>>)> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(PyValueError::new_err(format!("dt must be > 0, not {dt}")));
        }
        let log = log.unwrap_or_default();
        let (params, start) = param_specs(params, &log)?;
        for l in &log {
            if !params.iter().any(|p| &p.name == l) {
                return Err(PyKeyError::new_err(format!(
                    "log: `{l}` is not one of the fitted params ({})",
                    names(&params)
                )));
            }
        }
        let data = read_data(py, data)?;
        let opts = FitOptions {
            model: None,
            method: None,
            dt,
            sigma: crate::model::set_values(sigma)?,
            set: crate::model::set_values(set)?,
            max_iter,
        };
        for (c, s) in &opts.sigma {
            if !data.columns.contains(c) {
                return Err(PyKeyError::new_err(format!(
                    "sigma: `{c}` is not a column of the data ({})",
                    data.columns.join(", ")
                )));
            }
            if !(s.is_finite() && *s > 0.0) {
                return Err(PyValueError::new_err(format!(
                    "sigma: `{c}` must be > 0, not {s}"
                )));
            }
        }
        let wrt: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        let model = self.sensitive(&wrt)?;
        let residuals = HostResiduals::new(model, params, data, opts).map_err(fit_error)?;
        Ok((residuals, start))
    }
}

/// The fitted params' names, comma-separated.
fn names(params: &[FitParam]) -> String {
    (params.iter().map(|p| p.name.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fit's error as the Python exception a caller expects.
fn fit_error(e: FitError) -> PyErr {
    match e {
        FitError::Param { .. } => PyValueError::new_err(e.to_string()),
        FitError::Data { .. } => PyValueError::new_err(e.to_string()),
        e => sit_error(e.to_string()),
    }
}

/// `params`: a list of names, or a dict of name to `None` (free, from the model's
/// value), a number (the start) or a pair `(lo, hi)` (bounds).
fn param_specs(
    params: &Bound<'_, PyAny>,
    log: &[String],
) -> PyResult<(Vec<FitParam>, Vec<Option<f64>>)> {
    let mut out = Vec::new();
    let mut start = Vec::new();
    let mut add = |name: String, spec: Option<Bound<'_, PyAny>>| -> PyResult<()> {
        let (mut lo, mut hi, mut s) = (f64::NEG_INFINITY, f64::INFINITY, None);
        if let Some(spec) = spec.filter(|s| !s.is_none()) {
            if let Ok(x) = spec.extract::<f64>() {
                s = Some(x);
            } else if let Ok((a, b)) = spec.extract::<(Option<f64>, Option<f64>)>() {
                lo = a.unwrap_or(f64::NEG_INFINITY);
                hi = b.unwrap_or(f64::INFINITY);
            } else {
                return Err(PyTypeError::new_err(format!(
                    "params: `{name}` must be None, a start value or a pair (lo, hi), not {}",
                    spec.repr()?
                )));
            }
        }
        let is_log = log.contains(&name);
        let text = match (s, lo.is_finite() || hi.is_finite()) {
            (Some(x), _) => format!("{name}={x}"),
            (None, true) => format!("{name}={lo}..{hi}"),
            (None, false) => name.clone(),
        };
        let (p, given) = FitParam::parse(&text, is_log).map_err(|e| {
            PyValueError::new_err(e.to_string().replacen("--param ", "params: ", 1))
        })?;
        out.push(p);
        start.push(given);
        Ok(())
    };
    if let Ok(dict) = params.cast::<PyDict>() {
        for (k, v) in dict.iter() {
            add(k.extract()?, Some(v))?;
        }
    } else if let Ok(text) = params.cast::<PyString>() {
        for n in text.to_string().split(',') {
            add(n.trim().to_string(), None)?;
        }
    } else {
        for n in params.extract::<Vec<String>>()? {
            add(n, None)?;
        }
    }
    if out.is_empty() {
        return Err(PyValueError::new_err("params: no param to fit"));
    }
    Ok((out, start))
}

/// The measured data: a CSV file's path (as `sitc fit --data`), or a mapping of column
/// names to arrays (a dict, a pandas DataFrame) with the times under `t`.
fn read_data(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Data> {
    if let Ok(path) = data.extract::<std::path::PathBuf>() {
        return Data::read(&path).map_err(fit_error);
    }
    let keys: Vec<String> = data
        .call_method0("keys")
        .and_then(|k| k.try_iter()?.map(|k| k?.str()?.extract()).collect())
        .map_err(|_| {
            PyTypeError::new_err(
                "data must be a CSV file's path or a mapping of column names to arrays \
                 (a dict, a pandas DataFrame) with the times under `t`",
            )
        })?;
    let numpy = py.import("numpy")?;
    let column = |name: &str| -> PyResult<Vec<f64>> {
        let values = data.get_item(name)?;
        let array = numpy.call_method1("asarray", (values, "float64"))?;
        let array: PyReadonlyArray1<'_, f64> = array.extract().map_err(|_| {
            PyValueError::new_err(format!("data: column `{name}` is not a 1-D array of numbers"))
        })?;
        Ok(array.as_array().to_vec())
    };
    if !keys.iter().any(|k| k == "t") {
        return Err(PyKeyError::new_err(format!(
            "data has no column `t` (the times); its columns are {}",
            keys.join(", ")
        )));
    }
    let times = column("t")?;
    let columns: Vec<String> = keys.into_iter().filter(|k| k != "t").collect();
    if columns.is_empty() {
        return Err(PyValueError::new_err(
            "data has only the times `t`; expected at least one measured variable",
        ));
    }
    let mut values = Vec::new();
    for c in &columns {
        let v = column(c)?;
        if v.len() != times.len() {
            return Err(PyValueError::new_err(format!(
                "data: column `{c}` has {} values for {} times",
                v.len(),
                times.len()
            )));
        }
        values.push(v);
    }
    // The CSV reader's checks (ascending finite times, …), on the same text.
    let mut text = format!("t,{}\n", columns.join(","));
    for (i, t) in times.iter().enumerate() {
        text.push_str(&format!("{t:?}"));
        for v in &values {
            if v[i].is_nan() {
                text.push(',');
            } else {
                text.push_str(&format!(",{:?}", v[i]));
            }
        }
        text.push('\n');
    }
    Data::parse("data", &text).map_err(fit_error)
}

/// What `Model.fit` found: the fitted values, their standard errors and correlations,
/// the residual, and the model at the fit at the data's times.
#[pyclass(module = "sit", frozen, get_all)]
pub struct FitResult {
    /// The fitted params' names, in order.
    pub names: Vec<String>,
    /// `{name: value}` at the fit.
    pub values: Py<PyDict>,
    /// `{name: standard error}`, from the Jacobian at the fit.
    pub std_errors: Py<PyDict>,
    /// `{name: starting value}`.
    pub start: Py<PyDict>,
    /// The correlations of the params, a square array in the order of `names`.
    pub correlation: Py<PyArray2<f64>>,
    /// The weighted sum of squared residuals.
    pub sum_sq: f64,
    /// The measured values used.
    pub points: usize,
    /// The runs of the model made.
    pub runs: usize,
    /// The iterations of Levenberg–Marquardt.
    pub iterations: usize,
    /// Whether it converged (else it stopped at `max_iter`).
    pub converged: bool,
    /// The data's times.
    pub t: Py<PyArray1<f64>>,
    /// `{column: the model's values at the data's times}` at the fit.
    pub fitted: Py<PyDict>,
    /// The report as `sitc fit` prints it.
    pub text: String,
}

#[pymethods]
impl FitResult {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let values = self.values.bind(py);
        let parts: Vec<String> = (self.names.iter())
            .map(|n| {
                let v = values
                    .get_item(n)
                    .ok()
                    .flatten()
                    .and_then(|v| v.extract::<f64>().ok())
                    .unwrap_or(f64::NAN);
                format!("{n}={v}")
            })
            .collect();
        format!(
            "<sit.FitResult {}, sum_sq={}{}>",
            parts.join(", "),
            self.sum_sq,
            if self.converged { "" } else { ", not converged" }
        )
    }
}

/// A point evaluated: the coordinates, the residuals there and their Jacobian.
type Point = (Vec<f64>, Vec<f64>, Vec<Vec<f64>>);

/// The weighted residuals of a model against measured data and their exact Jacobian
/// (`Model.residuals`), for another minimiser: `scipy.optimize.least_squares(r, r.x0,
/// jac=r.jac, bounds=r.bounds)`. The coordinates are the params' values, or their
/// logarithms for those fitted in log space.
#[pyclass(module = "sit")]
pub struct Residuals {
    inner: HostResiduals,
    start: sit_host::fit::Start,
    /// The last point evaluated and its residuals and Jacobian (a minimiser asks for
    /// both at the same point: one run).
    last: Option<Point>,
}

impl Residuals {
    fn at(&mut self, py: Python<'_>, q: Vec<f64>) -> PyResult<&Point> {
        let fresh = self.last.as_ref().is_none_or(|(p, _, _)| p != &q);
        if fresh {
            let inner = &mut self.inner;
            let (r, jac) = py
                .detach(|| guard(|| inner.eval(&q).map_err(fit_error)))?;
            self.last = Some((q, r, jac));
        }
        Ok(self.last.as_ref().expect("just set"))
    }
}

#[pymethods]
impl Residuals {
    /// The weighted residuals `(model − data)/σ` at the coordinates `q`, one per
    /// measured value (column by column, row by row; unmeasured cells left out).
    fn __call__<'py>(&mut self, py: Python<'py>, q: Vec<f64>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (_, r, _) = self.at(py, q)?;
        Ok(r.clone().into_pyarray(py))
    }

    /// Their Jacobian with respect to `q`: one row per residual, one column per param.
    fn jac<'py>(&mut self, py: Python<'py>, q: Vec<f64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let n = q.len();
        let (_, _, jac) = self.at(py, q)?;
        let flat: Vec<f64> = jac.iter().flatten().copied().collect();
        let array = Array2::from_shape_vec((jac.len(), n), flat)
            .map_err(|e| sit_error(format!("internal error: {e}")))?;
        Ok(array.into_pyarray(py))
    }

    /// The starting coordinates: the given starts or the model's values, clamped into
    /// the bounds (logarithms for params fitted in log space).
    #[getter]
    fn x0<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.start.q.clone().into_pyarray(py)
    }

    /// `(lo, hi)`: the coordinates' bounds, as `least_squares(bounds=...)` takes them.
    #[getter]
    fn bounds<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>) {
        (
            self.start.lo.clone().into_pyarray(py),
            self.start.hi.clone().into_pyarray(py),
        )
    }

    /// The fitted params' names, the order of the coordinates.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.names()
    }

    /// The params' values at the coordinates `q` (`exp` of those fitted in log space).
    fn values(&self, q: Vec<f64>) -> Vec<f64> {
        self.inner.values(&q)
    }

    /// The runs of the model made so far.
    #[getter]
    fn runs(&self) -> usize {
        self.inner.runs()
    }

    fn __repr__(&self) -> String {
        format!("<sit.Residuals of {}>", self.inner.names().join(", "))
    }
}

impl Model {
    /// `Model.fit`: fits params of a copy of the model to measured data by
    /// Levenberg–Marquardt on the exact forward sensitivities, as `sitc fit` does.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fit_data(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        params: &Bound<'_, PyAny>,
        dt: f64,
        log: Option<Vec<String>>,
        sigma: Option<&Bound<'_, PyDict>>,
        set: Option<&Bound<'_, PyDict>>,
        max_iter: usize,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<FitResult> {
        let (residuals, start) =
            self.host_residuals(py, data, params, dt, log, sigma, set, max_iter)?;
        let mut failed: Option<PyErr> = None;
        let report = py.detach(|| {
            guard(|| {
                let mut each = |iteration: usize, sum_sq: f64| {
                    if failed.is_some() {
                        return;
                    }
                    let called = Python::attach(|py| -> PyResult<()> {
                        py.check_signals()?;
                        if let Some(p) = &progress {
                            p.call1(py, (iteration, sum_sq))?;
                        }
                        Ok(())
                    });
                    failed = called.err();
                };
                sit_host::fit::fit_residuals(residuals, &start, &mut each).map_err(fit_error)
            })
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let report = report?;
        let dict = |values: &[f64]| -> PyResult<Py<PyDict>> {
            let d = PyDict::new(py);
            for (n, v) in report.names.iter().zip(values) {
                d.set_item(n, v)?;
            }
            Ok(d.unbind())
        };
        let n = report.names.len();
        let flat: Vec<f64> = report.correlation.iter().flatten().copied().collect();
        let correlation = Array2::from_shape_vec((n, n), flat)
            .map_err(|e| sit_error(format!("internal error: {e}")))?;
        let fitted = PyDict::new(py);
        for (c, values) in report.columns.iter().zip(&report.fitted) {
            fitted.set_item(c, values.clone().into_pyarray(py))?;
        }
        Ok(FitResult {
            names: report.names.clone(),
            values: dict(&report.values)?,
            std_errors: dict(&report.std_errors)?,
            start: dict(&report.start)?,
            correlation: correlation.into_pyarray(py).unbind(),
            sum_sq: report.sum_sq,
            points: report.points,
            runs: report.runs,
            iterations: report.iterations,
            converged: report.converged,
            t: report.times.clone().into_pyarray(py).unbind(),
            fitted: fitted.unbind(),
            text: report.text(),
        })
    }

    /// `Model.residuals`: the weighted residuals of the model against `data` and their
    /// exact Jacobian, for another minimiser (SciPy's `least_squares`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn residuals_of(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        params: &Bound<'_, PyAny>,
        dt: f64,
        log: Option<Vec<String>>,
        sigma: Option<&Bound<'_, PyDict>>,
        set: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Residuals> {
        let (inner, start) = self.host_residuals(py, data, params, dt, log, sigma, set, 100)?;
        let start = inner.start(&start).map_err(fit_error)?;
        Ok(Residuals {
            inner,
            start,
            last: None,
        })
    }
}
