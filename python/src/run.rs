//! `Model.run` and `sit.RunResult`: a simulation with the GIL released, its recorded
//! values as NumPy arrays, one per variable.

use crate::drive::Driven;
use crate::{guard, sit_error};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sit_runtime::accuracy::Doubling;
use sit_host::reports::Concern;
use sit_interp::Instance;
use sit_runtime::Model;
use sit_runtime::finite::Watch;

/// Steps between two calls of the progress callback (and checks for Ctrl-C).
pub(crate) const CHUNK: u64 = 1 << 16;

/// How to run: the step, the number of steps, the row interval, what to record, and
/// whether a non-finite value stops the run (`stop`: after the step that made it; and a
/// value past 1e100 on a row, a probable instability, before that row).
pub(crate) struct Plan {
    pub dt: f64,
    pub steps: u64,
    pub every: u64,
    pub record: Vec<usize>,
    pub stop: bool,
}

/// Why a run stopped before its end (with [`Plan::stop`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A value that is not finite, after the step of this number (0: the initial values).
    NonFinite(u64),
    /// A value past [`sit_interp::replay::BLOWUP`] on the row after this step.
    Blowup(u64),
}

/// Calls `progress(done, total)` with the GIL, after checking for Ctrl-C; an exception
/// of either stops the run.
pub(crate) fn report(progress: Option<&Py<PyAny>>, done: u64, total: u64) -> PyResult<()> {
    Python::attach(|py| {
        py.check_signals()?;
        if let Some(progress) = progress {
            progress.call1(py, (done, total))?;
        }
        Ok(())
    })
}

/// Runs `plan` on `model` (already set and reset) without the GIL: the time and the
/// recorded variables at t = 0, after every `every`-th step and after the last step
/// (the end time, also when `every` does not divide the steps), `sitc run`'s rows; the
/// watch of non-finite values. With `plan.stop`, the run stops at the first step after
/// which a variable is not finite (0: the initial values), or before the first row that
/// holds a value past [`sit_interp::replay::BLOWUP`] (as `sitc run` does), which is
/// returned, and the rows are those before it. `doubling` estimates the error of fixed
/// steps (`sit_runtime::accuracy`) on copies that `copy` makes of the model.
pub(crate) fn run<M: Model + Send>(
    py: Python<'_>,
    model: &mut Driven<M>,
    plan: &Plan,
    progress: Option<&Py<PyAny>>,
    mut doubling: Option<&mut Doubling<Driven<Instance>>>,
    copy: impl Fn(&Driven<M>) -> Driven<Instance> + Send + Sync,
) -> PyResult<(RunResult, Watch, Option<Stop>)> {
    let names: Vec<String> = std::iter::once("t".to_string())
        .chain((plan.record.iter()).map(|&i| model.var_info(i).map_or("?", |v| v.name).to_string()))
        .collect();
    let last = u64::from(!plan.steps.is_multiple_of(plan.every));
    let rows = usize::try_from(plan.steps / plan.every + 1 + last)
        .map_err(|_| sit_error("too many rows to record"))?;
    let columns = names.len();
    let mut watch = Watch::new();
    let mut stopped = None;
    let (data, rows) = py.detach(|| {
        guard(|| {
            // Column-major: each variable's values are contiguous.
            let mut data = vec![vec![0.0; rows]; columns];
            let keep = |model: &Driven<M>, data: &mut [Vec<f64>], row: usize| {
                data[0][row] = model.time();
                for (c, &i) in plan.record.iter().enumerate() {
                    data[c + 1][row] = model.get_at(i).unwrap_or(f64::NAN);
                }
            };
            let mut row = 0;
            let blown = |model: &Driven<M>| {
                (model.first_beyond(sit_interp::replay::BLOWUP)).is_some_and(|(_, v)| v.is_finite())
            };
            if watch.look(model, None) && plan.stop {
                stopped = Some(Stop::NonFinite(0));
            } else if plan.stop && blown(model) {
                stopped = Some(Stop::Blowup(0));
            } else {
                keep(model, &mut data, 0);
                row = 1;
            }
            if let Some(d) = doubling.as_deref_mut() {
                d.after(0, &*model, || copy(model));
            }
            for k in (1..=plan.steps).take_while(|_| stopped.is_none()) {
                let from = model.time();
                model.step(plan.dt);
                if watch.look(model, Some(from)) && plan.stop {
                    stopped = Some(Stop::NonFinite(k));
                    break;
                }
                if let Some(d) = doubling.as_deref_mut() {
                    d.after(k, &*model, || copy(model));
                }
                if k % plan.every == 0 || k == plan.steps {
                    // A value past 1e100: a probable instability, which stops the run
                    // before its row, as `sitc run` does.
                    if plan.stop && blown(model) {
                        stopped = Some(Stop::Blowup(k));
                        break;
                    }
                    keep(model, &mut data, row);
                    row += 1;
                }
                if k % CHUNK == 0 {
                    report(progress, k, plan.steps)?;
                }
            }
            if progress.is_some() && stopped.is_none() {
                report(progress, plan.steps, plan.steps)?;
            }
            data.iter_mut().for_each(|column| column.truncate(row));
            Ok((data.concat(), row))
        })
    })?;
    let array = Array2::from_shape_vec((columns, rows), data)
        .map_err(|e| sit_error(e.to_string()))?
        .into_pyarray(py);
    let result = RunResult {
        names,
        data: array.unbind(),
        events: None,
    };
    Ok((result, watch, stopped))
}

/// The warnings after a run of `instance` (the interpreter behind the driven model):
/// the first non-finite value `watch` saw, then each table read past its grid, then
/// each model found stiff.
pub(crate) fn warnings(
    model: &dyn Model,
    instance: &sit_interp::Instance,
    watch: &Watch,
) -> Vec<(Concern, String)> {
    let mut out = Vec::new();
    if let Some(seen) = watch.seen() {
        let name = model.var_info(seen.index).map_or("?", |v| v.name);
        let line = format!(
            "{}; the values after it may be NaN or infinite",
            seen.describe(name)
        );
        out.push((Concern::NonFinite, line));
    }
    for w in instance.table_warnings() {
        out.push((Concern::TableRange, w));
    }
    for w in sit_runtime::stiffness(model, instance.model_name()) {
        out.push((Concern::Stiffness, w.to_string()));
    }
    out
}

/// The estimated error of the fixed steps of a finished run, when it is past the
/// threshold (`sit_runtime::accuracy`; the copy at `2·dt` it may run, without the GIL).
pub(crate) fn accuracy(
    py: Python<'_>,
    doubling: Option<Doubling<Driven<Instance>>>,
    model: &(dyn Model + Sync),
    dt: f64,
) -> Option<(Concern, String)> {
    let finding = py.detach(|| doubling?.finding(model))?;
    let voice = sit_runtime::accuracy::Voice::Python;
    Some((Concern::Accuracy, finding.warning(dt, model.time(), voice)))
}

/// One row of the event log: `(t, name, from, to, rule)`, as `sitc run --events` writes it.
pub(crate) type EventRow = (f64, String, String, String, String);

/// The result of `Model.run`: the time `t` and every recorded variable, each a 1-D NumPy
/// array of float64 with one value per row (logical values as 0.0 and 1.0).
#[pyclass(module = "sit", frozen)]
pub struct RunResult {
    names: Vec<String>,
    /// Shape (columns, rows): row `c` is column `c`'s values.
    data: Py<PyArray2<f64>>,
    /// The event log, when the run was asked for it.
    events: Option<Vec<EventRow>>,
}

#[pymethods]
impl RunResult {
    /// The column names: `"t"`, then the recorded variables, as `sitc run`'s header.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.names.clone()
    }

    /// The event log of a run with `events=True` (else `None`): one tuple
    /// `(t, name, from, to, rule)` per change of a logical variable and per submodel
    /// reset, in order, as the rows of `sitc run --events`.
    #[getter]
    fn events(&self) -> Option<Vec<EventRow>> {
        self.events.clone()
    }

    /// The model time of each row.
    #[getter]
    fn t<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.column(py, 0)
    }

    /// The values of the column `name` (`"t"` or a recorded variable).
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match self.names.iter().position(|n| n == name) {
            Some(c) => self.column(py, c),
            None => Err(PyKeyError::new_err(format!(
                "`{name}` was not recorded (the columns are {})",
                self.names.join(", ")
            ))),
        }
    }

    fn __contains__(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    /// The number of rows.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.data.bind(py).shape()[1]
    }

    /// The values as one 2-D array, one row per recorded instant and one column per
    /// name of `columns` (the layout of `sitc run`'s CSV).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.data.bind(py).getattr("T")
    }

    /// `{name: array}` for every column, in order.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (c, name) in self.names.iter().enumerate() {
            dict.set_item(name, self.column(py, c)?)?;
        }
        Ok(dict)
    }

    /// A `pandas.DataFrame` with one column per name (pandas must be installed; it is
    /// not a dependency of `sit`).
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas")?;
        pandas.getattr("DataFrame")?.call1((self.to_dict(py)?,))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<sit.RunResult {} rows of {}>",
            self.__len__(py),
            self.names.join(", ")
        )
    }
}

impl RunResult {
    /// The result with its event log.
    pub(crate) fn with_events(self, events: Vec<EventRow>) -> RunResult {
        RunResult {
            events: Some(events),
            ..self
        }
    }

    fn column<'py>(&self, py: Python<'py>, c: usize) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let data = self.data.bind(py);
        data.get_item(c)?
            .cast_into::<PyArray1<f64>>()
            .map_err(Into::into)
    }
}
