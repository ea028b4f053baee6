//! `sit.sweep`'s engine: a [`Study`] (a model, a grid of parameter sets, what to collect)
//! that runs all its sets on the local cores (rayon) or any range of them, from a spec
//! that can be pickled and shipped to the workers of a Dask cluster ([`_run_chunk`]).
//!
//! Each set runs through `sit_runtime::sweep::Sweep::run_one` on a copy of the model, as
//! `sitc sweep` runs it, so a row is the same bit for bit wherever it runs.

use crate::drive::{self, Driven};
use crate::model::{Series, Source, driven, input_series, record_names, set_values};
use crate::run::report;
use crate::{guard, sit_error};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use sit_host::{faults, reports};
use sit_host::study::{self as host, Ask, StudyError};
use sit_host::summary::Summary;
use sit_host::values::run_failed;
use sit_interp::Instance;
use sit_runtime::sweep::Sweep;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Everything that defines a study, in plain values: what is pickled to the workers.
#[derive(Clone, Debug, IntoPyObject, FromPyObject)]
#[pyo3(from_item_all)]
struct Spec {
    root: PathBuf,
    files: Vec<(PathBuf, String)>,
    model: Option<String>,
    params: Vec<(String, Vec<f64>)>,
    set: Vec<(String, f64)>,
    inputs: Vec<Series>,
    record: Option<Vec<String>>,
    summary: Vec<String>,
    dt: f64,
    t_end: f64,
    /// Run by the model's compiled batch form (`sit_host::compiled`) rather than the
    /// interpreter.
    #[pyo3(default)]
    compiled: bool,
    /// Run on the GPU (`sit_host::gpu`): the model's step as a CUDA kernel.
    #[pyo3(default)]
    gpu: bool,
    /// With `gpu`: the precision of the kernel's values, `"f64"` (also when absent) or
    /// `"f32"`.
    #[pyo3(default)]
    precision: Option<String>,
    /// Take rows that met NaN or infinite values as the model's answer, with warnings;
    /// without it (and without `#[allow(non_finite, …)]` in the model) such rows are
    /// errors of the sweep, named with their rules ([`Study::raise_non_finite`]).
    #[pyo3(default)]
    allow_non_finite: bool,
}

/// A parameter study, checked and ready to run: `sit.sweep` builds one, runs it locally
/// or ships its spec to a cluster in chunks of sets.
#[pyclass(module = "sit", frozen)]
pub struct Study {
    spec: Spec,
    model: Driven<Instance>,
    sweep: Sweep,
    sets: Vec<Vec<(usize, f64)>>,
    /// The axis values of each set, in the order of `sets`.
    axes: Vec<Vec<f64>>,
    columns: Vec<String>,
    /// The checked program and the root (for the GPU's kernel).
    program: std::sync::Arc<(sit_middle::ir::Program, sit_middle::ir::ModelId)>,
    /// The rows run here that met a non-finite value or reached 1e100 when they are
    /// errors: the row's index, its report (`row 2 (k=0.5): RULE made ...`) and whether
    /// it is a blow-up past 1e100.
    faults: std::sync::Mutex<Vec<(usize, String, bool)>>,
    /// The columns as asked (`sweep` collects the summaries kept between the rows as the
    /// final values of their hidden states: `sit_host::between`).
    asked: Vec<sit_runtime::sweep::Collect>,
    /// The summaries kept between the rows, for the compiled and GPU forms.
    probes: Vec<sit_middle::lower::Probe>,
}

/// The summaries, as `sitc sweep --summary` reads them (each once, in order).
fn summaries(items: &[String]) -> PyResult<Vec<Summary>> {
    Summary::parse_all(items.iter().map(String::as_str))
        .map_err(|(item, e)| PyValueError::new_err(format!("summary {item:?}: {e}")))
}

/// A study refused, in the words of `sit.sweep`'s arguments.
fn study_error(e: StudyError) -> PyErr {
    match e {
        StudyError::Axis(name, p) => drive::set_problem(&name, "params: ", p),
        StudyError::Fixed(name, p) => drive::set_problem(&name, "set: ", p),
        StudyError::AxisTwice(name) => sit_error(format!("params: `{name}` given twice")),
        StudyError::FixedIsAxis(name) => {
            sit_error(format!("set: `{name}` is already an axis of params"))
        }
        StudyError::Record(e) => drive::record_error(e),
        e @ StudyError::SummaryUnknown(_) => PyKeyError::new_err(format!("summary: {e}")),
        e @ StudyError::SummaryNotRecorded(..) => PyValueError::new_err(format!("summary: {e}")),
    }
}

impl Study {
    /// Loads the model of `spec` and checks the study.
    fn new(py: Python<'_>, spec: Spec) -> PyResult<Study> {
        let steps = drive::steps(spec.dt, spec.t_end)?;
        let summary = summaries(&spec.summary)?;
        let source = Source {
            root: spec.root.clone(),
            files: spec.files.clone(),
            model: spec.model.clone(),
        };
        let loaded = source.load(py)?;
        let model = driven(&loaded.instance, spec.inputs.clone())?;
        let ask = Ask {
            axes: &spec.params,
            fixed: &spec.set,
            record: spec.record.as_deref(),
            summaries: &summary,
            dt: spec.dt,
            steps,
        };
        let mut study = host::Study::new(&model, &ask).map_err(study_error)?;
        // The summaries of continuous states under an adaptive method, kept between the
        // rows by the lowering (`sit_host::between`), as `sitc sweep` takes them.
        let asked = study.sweep.columns().to_vec();
        let (program, root) = &*loaded.program;
        let entries = sit_middle::lower::variables(program, *root).unwrap_or_default();
        let probes = sit_host::between::probes(&entries, &asked, steps);
        let model = if probes.is_empty() {
            model
        } else {
            let lowered = sit_driver::prepare_with(program, false, &probes)
                .map_err(|e| sit_error(format!("error: {e}")))?;
            let between = sit_host::between::Between::of(&lowered, *root, &asked, steps);
            let instance = Instance::try_new(&lowered, *root)
                .map_err(|e| sit_error(format!("error: {e}")))?;
            study.sweep = (between.columns(&asked).into_iter())
                .fold(Sweep::new(spec.dt, steps), |s, c| s.collect(c));
            driven(&instance, spec.inputs.clone())?
        };
        // The error of fixed steps, estimated in each interpreted run as `Model.run`
        // does (the compiled and GPU runs make none).
        let states = sit_middle::ir::fixed_step_states(program, *root);
        study.sweep = study.sweep.clone().estimate(states);
        if spec.compiled && spec.gpu {
            return Err(PyValueError::new_err(
                "compiled=True and gpu=True: pass one of them",
            ));
        }
        let precision = spec.precision.as_deref().unwrap_or("f64");
        let precision: sit_host::gpu::Precision = precision
            .parse()
            .map_err(|e| PyValueError::new_err(format!("precision: {e}")))?;
        if precision != sit_host::gpu::Precision::F64 && !spec.gpu {
            return Err(PyValueError::new_err(
                "precision: the precision is chosen for gpu=True only (the CPU runs f64)",
            ));
        }
        for (name, values) in &spec.params {
            for &v in values {
                drive::finite(name, v, "params: ")?;
            }
        }
        for (name, value) in &spec.set {
            drive::finite(name, *value, "set: ")?;
        }
        let axis_values = (study.sets.iter())
            .map(|set| set[..study.axes()].iter().map(|&(_, v)| v).collect())
            .collect();
        let files = loaded.source.files.clone();
        Ok(Study {
            spec: Spec { files, ..spec },
            model,
            sweep: study.sweep,
            sets: study.sets,
            axes: axis_values,
            columns: study.columns,
            program: loaded.program,
            asked,
            probes,
            faults: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// The rows of sets `start..stop` (axis values, then the collected values), run on
    /// the local cores without the GIL, calling `progress(done, total)` at most ten
    /// times a second; an exception of `progress` (or Ctrl-C) stops the study.
    fn rows(
        &self,
        py: Python<'_>,
        start: usize,
        stop: usize,
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<Vec<f64>> {
        let sets = self.sets.get(start..stop).ok_or_else(|| {
            PyValueError::new_err(format!(
                "sets {start}..{stop}: the study has {} sets",
                self.sets.len()
            ))
        })?;
        if self.spec.compiled {
            return self.compiled_rows(py, start, sets, progress);
        }
        if self.spec.gpu {
            return self.gpu_rows(py, start, stop, progress);
        }
        let total = sets.len() as u64;
        let done = AtomicU64::new(0);
        let cancel = AtomicBool::new(false);
        let finished = AtomicBool::new(false);
        let results = py.detach(|| {
            guard(|| {
                let caller = std::thread::current();
                std::thread::scope(|scope| {
                    let worker = scope.spawn(|| {
                        let rows = sets
                            .par_iter()
                            .map_with(self.model.clone(), |model, set| {
                                if cancel.load(Ordering::Relaxed) {
                                    return None;
                                }
                                let end = |m: &Driven<Instance>| reports::run_end(&m.model);
                                let row = self.sweep.run_one_watched(model, set, end);
                                done.fetch_add(1, Ordering::Relaxed);
                                Some(row)
                            })
                            .collect::<Vec<_>>();
                        finished.store(true, Ordering::Release);
                        caller.unpark();
                        rows
                    });
                    let mut shown = u64::MAX;
                    let mut stopped = Ok(());
                    // `finished` wakes the caller at once; `is_finished` after a panic.
                    while !(finished.load(Ordering::Acquire) || worker.is_finished()) {
                        std::thread::park_timeout(Duration::from_millis(100));
                        if stopped.is_ok() {
                            let now = done.load(Ordering::Relaxed);
                            let call = (now != shown).then_some(progress).flatten();
                            shown = now;
                            stopped = report(call, now, total);
                            if stopped.is_err() {
                                cancel.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                    let rows = match worker.join() {
                        Ok(rows) => rows,
                        Err(payload) => std::panic::resume_unwind(payload),
                    };
                    stopped?;
                    if progress.is_some() && shown != total {
                        report(progress, total, total)?;
                    }
                    Ok(rows)
                })
            })
        })?;
        let width = self.columns.len();
        let mut out = Vec::with_capacity(sets.len() * width);
        let mut watched = Vec::with_capacity(sets.len());
        for (k, row) in results.into_iter().enumerate() {
            let row = row.ok_or_else(|| sit_error("the study was stopped"))?;
            let row =
                row.map_err(|e| sit_error(run_failed(&self.model, &self.sets[start + k], &e)))?;
            out.extend_from_slice(&self.axes[start + k]);
            out.extend_from_slice(&row.row);
            watched.push(row);
        }
        // The rows that met a non-finite value and the tables read past their grids,
        // as `sitc sweep` reports them; 2 frames up: the caller of `sit.sweep`.
        let named = self.named(start, stop);
        let mut warnings = reports::sweep_warnings(&self.model.model, start, &named, &watched);
        let voice = sit_runtime::accuracy::Voice::Python;
        let span = (self.spec.dt, self.spec.t_end);
        warnings.extend(reports::accuracy_warnings(
            start, &named, &watched, span, voice,
        ));
        if !self.allows_non_finite() {
            // Errors, as `sitc sweep` reports them: the rows that met a non-finite value
            // or reached 1e100 (a probable instability), each run again to name its rule.
            warnings.retain(|(c, _)| *c != reports::Concern::NonFinite);
            let steps = drive::steps(self.spec.dt, self.spec.t_end)?;
            let values: Vec<Vec<f64>> = watched.iter().map(|r| r.row.clone()).collect();
            let bad: Vec<bool> = watched.iter().map(|r| r.non_finite.is_some()).collect();
            let kinds = faults::row_faults(&self.asked, &values, &bad);
            let mut found = self.faults.lock().map_err(|_| sit_error("a sweep panicked"))?;
            for (k, kind) in kinds.into_iter().enumerate() {
                let Some(kind) = kind else { continue };
                let set = &self.sets[start + k];
                let what = faults::row_error(&self.model, set, self.spec.dt, steps, kind);
                let label = reports::row_label(start + k + 1, &named[k]);
                let blowup = kind == faults::RowFault::Blowup;
                found.push((start + k, format!("{label}: {what}"), blowup));
            }
        }
        crate::warn(py, &warnings, 2)?;
        Ok(out)
    }

    /// Whether rows that met a non-finite value are the answer (`allow_non_finite=True`
    /// or `#[allow(non_finite, …)]` in the model), not errors.
    fn allows_non_finite(&self) -> bool {
        self.spec.allow_non_finite || self.model.model.allows_non_finite()
    }

    /// [`Study::rows`] of sets `start..stop` on the GPU (`sit_host::gpu`), without the
    /// GIL; `progress` is called once, at the end.
    fn gpu_rows(
        &self,
        py: Python<'_>,
        start: usize,
        stop: usize,
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<Vec<f64>> {
        use sit_host::gpu::{self, GpuError, GpuStudy};
        let (program, root) = &*self.program;
        let lowered = sit_driver::prepare_with(program, false, &self.probes)
            .map_err(|e| sit_error(format!("error: {e}")))?;
        let axes: Vec<Vec<f64>> = self.spec.params.iter().map(|(_, v)| v.clone()).collect();
        let study = GpuStudy {
            model: &self.model,
            lowered: &lowered,
            root: *root,
            sweep: &self.sweep,
            sets: &self.sets,
            axes: &axes,
            dt: self.spec.dt,
            steps: drive::steps(self.spec.dt, self.spec.t_end)?,
        };
        let opts = gpu::CudaOptions {
            precision: (self.spec.precision.as_deref().unwrap_or("f64").parse())
                .map_err(PyValueError::new_err)?,
            ..Default::default()
        };
        let run = py.detach(|| gpu::run(&study, start..stop, opts));
        let (rows, _) = run.map_err(|e| match e {
            GpuError::Fault(fault) => sit_error(format!("error: {fault}")),
            e if e.is_model_error() => sit_error(e.to_string()),
            e => sit_error(format!("gpu=True: {e}")),
        })?;
        report(progress, (stop - start) as u64, (stop - start) as u64)?;
        let out = self.table(start, rows.iter().map(|r| r.row.as_slice()));
        let named = self.named(start, stop);
        let warnings = gpu::warnings(&self.model.model, start, &named, &rows);
        crate::warn(py, &warnings, 2)?;
        Ok(out)
    }

    /// [`Study::rows`] of `sets` (from set `start`) by the compiled batch form: the runner
    /// from the cache, or built into it the first time (saying so on stderr), run without
    /// the GIL; `progress` is called once, at the end.
    fn compiled_rows(
        &self,
        py: Python<'_>,
        start: usize,
        sets: &[Vec<(usize, f64)>],
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<Vec<f64>> {
        use sit_host::compiled::{self, Error, Progress};
        let texts: std::collections::HashMap<&std::path::Path, &str> = (self.spec.files.iter())
            .map(|(p, t)| (p.as_path(), t.as_str()))
            .collect();
        let read = |p: &std::path::Path| match texts.get(p) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => std::fs::read(p),
        };
        let source = match self.spec.files.first() {
            None => sit_driver::Source::path(&self.spec.root),
            Some((_, text)) => sit_driver::Source::Memory {
                path: &self.spec.root,
                text,
                read: &read,
            },
        };
        let error = |e: Error| match e {
            Error::Fault(message) => sit_error(format!("error: {message}")),
            Error::SetFailed(k) => {
                let set = sets.get(k).map_or(&[][..], Vec::as_slice);
                let mut probe = self.model.clone();
                match sit_runtime::sweep::apply(&mut probe, set) {
                    Err(error) => sit_error(run_failed(&self.model, set, &error)),
                    Ok(()) => sit_error(format!(
                        "internal error: the compiled model refused parameter set #{k}"
                    )),
                }
            }
            e @ Error::NoCargo { .. } => sit_error(format!(
                "compiled=True: {e}; or pass compiled=False to run the study with the interpreter"
            )),
            e => sit_error(format!("compiled=True: {e}")),
        };
        let steps = drive::steps(self.spec.dt, self.spec.t_end)?;
        let columns = self.sweep.columns();
        let (dt, model, inputs) = (self.spec.dt, &self.model.model, self.model.inputs());
        // The model's code is generated here; the build (the first time) and the run
        // without the GIL.
        let prepared =
            compiled::prepare_with(&source, self.spec.model.as_deref(), None, &self.probes);
        let prepared = prepared.map_err(error)?;
        let rows = py.detach(|| {
            let say = |p: Progress| match p {
                Progress::Building { model, expected } => eprintln!(
                    "building the compiled sweep of {model} (first time, ~{} s)...",
                    expected.as_secs().max(1)
                ),
                Progress::Built(took) => eprintln!("built in {:.1} s", took.as_secs_f64()),
            };
            let runner = prepared.runner(&compiled::Tools::from_env(), &say)?;
            runner.run(model, columns, sets, dt, steps, 0, inputs)
        });
        let rows = rows.map_err(error)?;
        report(progress, sets.len() as u64, sets.len() as u64)?;
        let out = self.table(start, rows.iter().map(|r| r.row.as_slice()));
        let named = self.named(start, start + sets.len());
        let warnings = compiled::warnings(&self.model.model, start, &named, &rows);
        crate::warn(py, &warnings, 2)?;
        Ok(out)
    }

    /// The axis names and printed values of sets `start..stop`, as the warnings name a row.
    fn named(&self, start: usize, stop: usize) -> Vec<Vec<(&str, String)>> {
        (self.axes[start..stop].iter())
            .map(|values| {
                (self.spec.params.iter().zip(values))
                    .map(|((name, _), &v)| (name.as_str(), sit_runtime::number::shortest(v).to_string()))
                    .collect()
            })
            .collect()
    }

    /// The rows from set `start` on, each its axis values then its collected values.
    fn table<'r>(&self, start: usize, rows: impl ExactSizeIterator<Item = &'r [f64]>) -> Vec<f64> {
        let mut out = Vec::with_capacity(rows.len() * self.columns.len());
        for (k, row) in rows.enumerate() {
            out.extend_from_slice(&self.axes[start + k]);
            out.extend_from_slice(row);
        }
        out
    }

    fn array<'py>(&self, py: Python<'py>, rows: Vec<f64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let width = self.columns.len();
        let shape = (rows.len().checked_div(width).unwrap_or(0), width);
        Ok(Array2::from_shape_vec(shape, rows)
            .map_err(|e| sit_error(e.to_string()))?
            .into_pyarray(py))
    }
}

#[pymethods]
impl Study {
    /// A study of the model in `path` over the grid of `params` (every combination, the
    /// first name varying slowest); see `sit.sweep`.
    #[new]
    #[pyo3(signature = (path, params, dt, t_end, record=None, summary=None, set=None, inputs=None, model=None, compiled=false, gpu=false, precision=None, allow_non_finite=false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        py: Python<'_>,
        path: PathBuf,
        params: &Bound<'_, PyDict>,
        dt: f64,
        t_end: f64,
        record: Option<&Bound<'_, PyAny>>,
        summary: Option<&Bound<'_, PyAny>>,
        set: Option<&Bound<'_, PyDict>>,
        inputs: Option<&Bound<'_, PyDict>>,
        model: Option<String>,
        compiled: bool,
        gpu: bool,
        precision: Option<String>,
        allow_non_finite: bool,
    ) -> PyResult<Study> {
        guard(|| {
            let params = params
                .iter()
                .map(|(k, v)| {
                    let name = k.extract::<String>()?;
                    if let Ok(a) = v.extract::<numpy::PyReadonlyArray1<'_, f64>>() {
                        return Ok((name, a.as_array().to_vec()));
                    }
                    Ok((name, v.extract::<Vec<f64>>()?))
                })
                .collect::<PyResult<Vec<_>>>()?;
            let summary = match summary {
                None => vec!["final".to_string()],
                Some(s) => record_names(Some(s))?.unwrap_or_default(),
            };
            let spec = Spec {
                root: path,
                files: Vec::new(),
                model,
                params,
                set: set_values(set)?,
                inputs: input_series(inputs)?,
                record: record_names(record)?,
                summary,
                dt,
                t_end,
                compiled,
                gpu,
                precision,
                allow_non_finite,
            };
            Study::new(py, spec)
        })
    }

    /// The column names, as `sitc sweep`'s header: the axes, then for each recorded
    /// variable its summaries (`final(x)`, `max(x)`, `min(x)`, `crossing(x=T)`).
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.columns.clone()
    }

    /// The number of parameter sets (rows).
    fn __len__(&self) -> usize {
        self.sets.len()
    }

    /// The study as a dict of plain values (picklable), for `_run_chunk` on another machine: the
    /// model's files travel with it.
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.spec.clone().into_pyobject(py)?.into_any())
    }

    /// Every row, computed on the local cores.
    #[pyo3(signature = (progress=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        guard(|| {
            let rows = self.rows(py, 0, self.sets.len(), progress.as_ref())?;
            self.array(py, rows)
        })
    }

    /// The rows of sets `start..stop`.
    fn run_range<'py>(
        &self,
        py: Python<'py>,
        start: usize,
        stop: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        guard(|| {
            let rows = self.rows(py, start, stop, None)?;
            self.array(py, rows)
        })
    }

    /// The reports of the rows run here that met a non-finite value or reached 1e100
    /// (row index, message, whether a blow-up), for a study run in chunks elsewhere:
    /// `_run_chunk` returns them.
    fn faults(&self) -> PyResult<Vec<(usize, String, bool)>> {
        let faults = self.faults.lock().map_err(|_| sit_error("a sweep panicked"))?;
        Ok(faults.clone())
    }

    /// Raises `NonFiniteError` for the rows that met a non-finite value or reached 1e100
    /// (those run here, and `faults` from chunks run elsewhere), as `sitc sweep` reports
    /// them: the first 20 with their rules, then a count; the attributes `rows` (their
    /// indices, from 0) and `result` (every row: the others went on). Nothing when
    /// there are none.
    #[pyo3(signature = (result, faults=None))]
    fn raise_non_finite(
        &self,
        py: Python<'_>,
        result: Py<SweepResult>,
        faults: Option<Vec<(usize, String, bool)>>,
    ) -> PyResult<()> {
        let mut all = self.faults()?;
        all.extend(faults.unwrap_or_default());
        if all.is_empty() {
            return Ok(());
        }
        all.sort_by_key(|&(k, ..)| k);
        let limit = reports::NON_FINITE_ROWS;
        let mut text: Vec<String> = all.iter().take(limit).map(|(_, m, _)| m.clone()).collect();
        let blown = all.iter().filter(|&&(.., b)| b).count();
        let non_finite = all.len() - blown;
        if all.len() > limit {
            let what = if blown == 0 { "met a non-finite value" } else { "went wrong" };
            text.push(format!("{} more rows {what}", all.len() - limit));
        }
        if non_finite > 0 {
            text.push(format!(
                "{non_finite} of {} rows met a non-finite value (their values in the result may \
                 be NaN or infinite)",
                self.sets.len()
            ));
        }
        if blown > 0 {
            text.push(faults::blowup_count(blown, self.sets.len()));
        }
        let what = if blown == 0 { "a model that means a value to be infinite" } else { "a model that means such values" };
        let last = text.last_mut().expect("a count");
        *last += &format!("; allow_non_finite=True takes these rows as the answer ({what})");
        let err = crate::NonFiniteError::new_err(text.join("\n"));
        let value = err.value(py);
        let rows: Vec<usize> = all.iter().map(|&(k, ..)| k).collect();
        value.setattr("rows", rows)?;
        value.setattr("result", result)?;
        Err(err)
    }

    /// The result of this study from its rows (all of them, in order).
    fn result(&self, rows: &Bound<'_, PyArray2<f64>>) -> PyResult<SweepResult> {
        let shape = rows.shape();
        if shape != [self.sets.len(), self.columns.len()] {
            return Err(PyValueError::new_err(format!(
                "expected {} rows of {} columns, got {shape:?}",
                self.sets.len(),
                self.columns.len()
            )));
        }
        Ok(SweepResult {
            columns: self.columns.clone(),
            data: rows.clone().unbind(),
        })
    }
}

/// Rebuilds the study of `spec` (loading its model once) and returns the rows of sets
/// `start..stop`, with the reports of those that met a non-finite value when they are
/// errors ([`Study::raise_non_finite`] takes them): the task a Dask worker runs.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn _run_chunk<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyDict>,
    start: usize,
    stop: usize,
) -> PyResult<(Bound<'py, PyArray2<f64>>, Vec<(usize, String, bool)>)> {
    guard(|| {
        let study = Study::new(py, spec.extract::<Spec>()?)?;
        let rows = study.rows(py, start, stop, None)?;
        Ok((study.array(py, rows)?, study.faults()?))
    })
}

/// The result of `sit.sweep`: one row per parameter set, in the order of the grid (the
/// first axis varying slowest), with the columns of `sitc sweep`.
#[pyclass(module = "sit", frozen)]
pub struct SweepResult {
    columns: Vec<String>,
    /// Shape (rows, columns).
    data: Py<PyArray2<f64>>,
}

#[pymethods]
impl SweepResult {
    /// The column names: the axes, then the summaries.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.columns.clone()
    }

    /// Every row as one 2-D array (rows, columns).
    fn to_numpy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.data.bind(py).clone()
    }

    /// The values of column `name` for every row.
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let Some(c) = self.columns.iter().position(|n| n == name) else {
            return Err(PyKeyError::new_err(format!(
                "no column `{name}` (the columns are {})",
                self.columns.join(", ")
            )));
        };
        let column = self
            .data
            .bind(py)
            .readonly()
            .as_array()
            .column(c)
            .to_owned();
        Ok(column.into_pyarray(py))
    }

    fn __contains__(&self, name: &str) -> bool {
        self.columns.iter().any(|n| n == name)
    }

    /// The number of rows.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.data.bind(py).shape()[0]
    }

    /// `{name: array}` for every column, in order.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for name in &self.columns {
            dict.set_item(name, self.__getitem__(py, name)?)?;
        }
        Ok(dict)
    }

    /// A `pandas.DataFrame` of the rows (pandas must be installed; it is not a
    /// dependency of `sit`).
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas")?;
        pandas.getattr("DataFrame")?.call1((self.to_dict(py)?,))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<sit.SweepResult {} rows of {}>",
            self.__len__(py),
            self.columns.join(", ")
        )
    }
}
