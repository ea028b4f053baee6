//! `sit.load` and `sit.Model`: an interpreted model seen from Python (variables, get and
//! set by dotted path, reset, step, run), and the sources it was loaded from, which a
//! sweep ships to the workers of a cluster.

use crate::diagnostics::{Diagnostic, diagnostics, report_error};
use crate::drive::{self, Driven};
use crate::run::{self, RunResult};
use crate::{guard, sit_error};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sit_interp::Instance;
use sit_middle::ir::{ModelId, Program};
use sit_middle::lower::Item;
use sit_runtime::drive::Input;
use sit_runtime::{Model as _, ValueType};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a model was loaded from: the root file's path, the text of every file read (the
/// root and its imports) and the model chosen, so that the same model can be loaded
/// again where the files are not (a worker of a cluster).
#[derive(Clone, Debug)]
pub(crate) struct Source {
    /// The root file's path, as given.
    pub root: PathBuf,
    /// Every file read, with its text, the root first.
    pub files: Vec<(PathBuf, String)>,
    /// The model asked for (`None`: the one root of the file).
    pub model: Option<String>,
}

/// A loaded model: the instance at t = 0 and what is known about its variables.
pub(crate) struct Loaded {
    pub instance: Instance,
    /// The checked program and the model's index in it (to build it for the event log).
    pub program: Arc<(Program, ModelId)>,
    pub variables: Vec<Variable>,
    pub warnings: Vec<Diagnostic>,
    pub source: Source,
}

impl Source {
    /// Checks the files of the source (from memory when `files` is not empty, else from
    /// the file system) and instantiates the model.
    pub fn load(self, py: Python<'_>) -> PyResult<Loaded> {
        let texts: HashMap<&Path, &str> = (self.files.iter())
            .map(|(p, t)| (p.as_path(), t.as_str()))
            .collect();
        let read = |p: &Path| match texts.get(p) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => std::fs::read(p),
        };
        let source = match self.files.first() {
            None => sit_driver::Source::path(&self.root),
            Some((_, text)) => sit_driver::Source::Memory {
                path: &self.root,
                text,
                read: &read,
            },
        };
        let output = sit_driver::check(&source).map_err(|e| sit_error(e.to_string()))?;
        let (program, report) = output.into_report();
        let Some(program) = program else {
            return Err(report_error(py, &report));
        };
        let compiled = sit_driver::lower(program, report.clone(), &sit_driver::Options::default())
            .map_err(|e| sit_error(format!("error: {e}")))?;
        let root = (compiled.root(self.model.as_deref())).map_err(|e| sit_error(e.to_string()))?;
        let instance = Instance::try_new(&compiled.lowered, root)
            .map_err(|e| sit_error(format!("error: {e}")))?;
        let program = compiled.checked;
        let variables = variables(&program, root, &instance);
        let files = (program.sources.files.iter())
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect();
        Ok(Loaded {
            instance,
            program: Arc::new((program, root)),
            variables,
            warnings: diagnostics(&report),
            source: Source { files, ..self },
        })
    }
}

/// One variable of a model.
#[pyclass(module = "sit", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Variable {
    /// The dotted path (`h`, `pi.kp`, `pi.on`).
    pub name: String,
    /// `param`, `input`, `state`, `pred`, `situation`, `event` or `on`.
    pub kind: String,
    /// `real` or `flag`.
    pub r#type: String,
    /// Declared `output` in its model.
    pub output: bool,
    /// Whether it can be set (`m[name] = value`, `set=`, a sweep axis).
    pub settable: bool,
    /// Its doc comment (`///` lines), or an empty string.
    pub doc: String,
    /// Its unit (`m/s`), declared or inferred by the unit check, as `sitc info` shows
    /// it; `None` where it is not known, and for a flag, a mode or `NAME.on`.
    pub unit: Option<String>,
    /// For a mode, its states' names in declaration order: a mode's value (in `m[name]`
    /// and in a run's columns) is the index of its state in this list, where `sitc`'s
    /// traces write the name. Empty for any other variable.
    pub states: Vec<String>,
}

#[pymethods]
impl Variable {
    fn __repr__(&self) -> String {
        format!(
            "<Variable {} ({} {}{})>",
            self.name,
            self.kind,
            self.r#type,
            if self.output { ", output" } else { "" }
        )
    }
}

/// The variables of `instance` with the doc comments of the IR and their units.
fn variables(program: &Program, root: usize, instance: &Instance) -> Vec<Variable> {
    let entries = sit_middle::lower::variables(program, root).unwrap_or_default();
    let units = sit_middle::units::variable_units(program, root);
    let unit = |i: usize, name: &str| -> Option<String> {
        (entries.get(i)?.name == name).then(|| units.get(i).cloned().flatten())?
    };
    let doc = |i: usize, name: &str| -> String {
        let Some(e) = entries.get(i).filter(|e| e.name == name) else {
            return String::new();
        };
        let m = &program.models[e.model];
        let lines = match e.item {
            Item::Var(v, _) => &m.vars[v].doc,
            Item::Cond(c, _) => &m.conds[c].doc,
            Item::Event(ev) => &m.events[ev].doc,
            Item::On(s) => &m.subs[s].doc,
            Item::Mode(md) => &m.modes[md].doc,
        };
        let lines: Vec<&str> = lines
            .iter()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect();
        lines.join("\n").trim().to_string()
    };
    sit_runtime::Variables::new(instance)
        .enumerate()
        .map(|(i, v)| Variable {
            name: v.name.to_string(),
            kind: v.kind.name().to_string(),
            r#type: match v.ty {
                ValueType::Real => "real",
                ValueType::Logical => "flag",
            }
            .to_string(),
            output: v.output,
            settable: v.settable,
            doc: doc(i, v.name),
            unit: unit(i, v.name),
            states: (0..)
                .map_while(|k| instance.mode_state(i, k).map(str::to_string))
                .collect(),
        })
        .collect()
}

/// A model loaded from a `.sit` file, run by the interpreter built into the package.
///
/// `m[name]` reads and writes a variable by its dotted path; `step`, `reset` and `time`
/// advance it by hand; `run` simulates a copy of it and returns every recorded value.
#[pyclass(module = "sit")]
pub struct Model {
    pub(crate) instance: Instance,
    pub(crate) program: Arc<(Program, ModelId)>,
    pub(crate) variables: Arc<Vec<Variable>>,
    pub(crate) warnings: Arc<Vec<Diagnostic>>,
    pub(crate) source: Arc<Source>,
}

/// Loads the `.sit` file at `path` (and its imports) and instantiates the model called
/// `model`, or the one model of the file that no other model instantiates. Raises
/// `SitError` with the rendered diagnostics when the file has errors.
#[pyfunction]
#[pyo3(signature = (path, model=None))]
pub fn load(py: Python<'_>, path: PathBuf, model: Option<String>) -> PyResult<Model> {
    guard(|| {
        let source = Source {
            root: path,
            files: Vec::new(),
            model,
        };
        Ok(Model::from_loaded(source.load(py)?))
    })
}

impl Model {
    fn from_loaded(l: Loaded) -> Model {
        Model {
            instance: l.instance,
            program: l.program,
            variables: Arc::new(l.variables),
            warnings: Arc::new(l.warnings),
            source: Arc::new(l.source),
        }
    }

    fn index(&self, name: &str) -> PyResult<usize> {
        drive::index(&self.instance, name, "")
    }

}

/// `record`: `None`, `"all"`, one name, a comma-separated string or a list of names.
pub(crate) fn record_names(record: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(record) = record else {
        return Ok(None);
    };
    if let Ok(text) = record.cast::<PyString>() {
        let text: String = text.extract()?;
        return Ok(Some(
            text.split(',').map(|s| s.trim().to_string()).collect(),
        ));
    }
    Ok(Some(record.extract::<Vec<String>>()?))
}

/// `set`: a dict of names and numbers, in its order.
pub(crate) fn set_values(set: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, f64)>> {
    let Some(set) = set else {
        return Ok(Vec::new());
    };
    set.iter()
        .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<f64>()?)))
        .collect()
}

/// An input's name, times and values.
pub(crate) type Series = (String, Vec<f64>, Vec<f64>);

/// `inputs`: a dict of input names and `(times, values)` pairs of arrays or sequences.
pub(crate) fn input_series(inputs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<Series>> {
    let Some(inputs) = inputs else {
        return Ok(Vec::new());
    };
    let floats = |x: &Bound<'_, PyAny>| -> PyResult<Vec<f64>> {
        if let Ok(a) = x.extract::<numpy::PyReadonlyArray1<'_, f64>>() {
            return Ok(a.as_array().to_vec());
        }
        x.extract::<Vec<f64>>()
    };
    inputs
        .iter()
        .map(|(k, v)| {
            let name = k.extract::<String>()?;
            let (t, u) = v.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
            Ok((name, floats(&t)?, floats(&u)?))
        })
        .collect()
}

/// The model with `inputs` driven, checked: each input once.
pub(crate) fn driven(instance: &Instance, inputs: Vec<Series>) -> PyResult<Driven<Instance>> {
    Ok(Driven::new(instance.clone(), signals(instance, inputs)?))
}

/// The inputs of `instance` driven by `inputs`, checked: each input once.
fn signals(instance: &Instance, inputs: Vec<Series>) -> PyResult<Vec<Input>> {
    let mut signals = Vec::with_capacity(inputs.len());
    for (name, t, u) in inputs {
        let input = drive::input(instance, &name, t, u)?;
        if signals.iter().any(|d: &Input| d.index == input.index) {
            return Err(sit_error(format!("inputs[{name:?}]: given twice")));
        }
        signals.push(input);
    }
    Ok(signals)
}

#[pymethods]
impl Model {
    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        self.instance.model_name().to_string()
    }

    /// Every variable, in index order: the model's own, then each submodel's as
    /// `NAME.on` followed by its variables prefixed `NAME.`.
    #[getter]
    fn variables(&self) -> Vec<Variable> {
        self.variables.to_vec()
    }

    /// The warnings of the file (a valid model may have some).
    #[getter]
    fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings.to_vec()
    }

    /// The model time: the sum of the steps since the last reset.
    #[getter]
    fn time(&self) -> f64 {
        self.instance.time()
    }

    fn __getitem__(&self, name: &str) -> PyResult<f64> {
        guard(|| {
            let i = self.index(name)?;
            Ok(self.instance.get_at(i).unwrap_or(f64::NAN))
        })
    }

    fn __setitem__(&mut self, name: &str, value: f64) -> PyResult<()> {
        guard(|| {
            let i = self.index(name)?;
            let value = drive::finite(name, value, "")?;
            (self.instance.set_at(i, value)).map_err(|e| sit_error(e.named(name).to_string()))
        })
    }

    fn __contains__(&self, name: &str) -> bool {
        self.instance.var_index(name).is_some()
    }

    /// Back to t = 0: states to their initial values, params and inputs kept.
    fn reset(&mut self) -> PyResult<()> {
        guard(|| {
            self.instance.reset();
            Ok(())
        })
    }

    /// One step of `dt` (> 0).
    fn step(&mut self, dt: f64) -> PyResult<()> {
        guard(|| {
            if !(dt.is_finite() && dt > 0.0) {
                return Err(PyValueError::new_err(format!(
                    "dt must be a finite number > 0, not {dt}"
                )));
            }
            self.instance.step(dt);
            Ok(())
        })
    }

    /// A copy of the model, with the same values.
    fn copy(&self) -> Model {
        Model {
            instance: self.instance.clone(),
            program: self.program.clone(),
            variables: self.variables.clone(),
            warnings: self.warnings.clone(),
            source: self.source.clone(),
        }
    }

    /// Simulates a copy of the model from t = 0 to `t_end` with steps of `dt`, exactly
    /// as `sitc run` does, and returns the recorded values (a row at t = 0, after every
    /// `every` steps and after the last), with the event log when `events` is true. See the stub file
    /// for the arguments.
    #[pyo3(signature = (dt, t_end, record=None, every=1, set=None, inputs=None, progress=None, events=false, allow_non_finite=false, sensitivities=None))]
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        py: Python<'_>,
        dt: f64,
        t_end: f64,
        record: Option<&Bound<'_, PyAny>>,
        every: u64,
        set: Option<&Bound<'_, PyDict>>,
        inputs: Option<&Bound<'_, PyDict>>,
        progress: Option<Py<PyAny>>,
        events: bool,
        allow_non_finite: bool,
        sensitivities: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<RunResult> {
        guard(|| {
            let steps = drive::steps(dt, t_end)?;
            if every == 0 {
                return Err(PyValueError::new_err("every must be at least 1"));
            }
            let wrt = record_names(sensitivities)?.unwrap_or_default();
            let plain = self.sensitive(&wrt)?;
            let record = drive::record_list(&plain, record_names(record)?.as_deref())?;
            let record = sit_host::names::with_sensitivities(&plain, &record, &wrt);
            let signals = signals(&plain, input_series(inputs)?)?;
            let set = set_values(set)?;
            let plan = run::Plan {
                dt,
                steps,
                every,
                record,
                // A model that says `#[allow(non_finite, …)]` runs on as with
                // allow_non_finite=True.
                stop: !(allow_non_finite || self.instance.allows_non_finite()),
            };
            // The run that stopped at a non-finite value or one past 1e100, taken again
            // to name the rule that made it (the plain model, the same values to the bit).
            let fault = |values: &[(usize, f64)], stop: run::Stop, result: run::RunResult| {
                let mut again = Driven::new(plain.clone(), signals.clone());
                drive::apply(&mut again, values)?;
                let found = match stop {
                    run::Stop::NonFinite(step) => sit_interp::replay::first_fault(again, dt, step),
                    run::Stop::Blowup(step) => {
                        let bound = sit_interp::replay::BLOWUP;
                        sit_interp::replay::first_beyond(again, dt, step, bound)
                    }
                };
                match found {
                    Some(fault) => Err(crate::non_finite_error(
                        &fault,
                        matches!(stop, run::Stop::Blowup(_)),
                        result,
                    )),
                    None => Err(sit_error("a value became NaN or infinite, or passed 1e100, \
                         which a second run did not repeat (a bug of Sit, please report it)")),
                }
            };
            if !events {
                let mut model = Driven::new(plain.clone(), signals.clone());
                let values = drive::values(&model, &set, "set: ")?;
                drive::apply(&mut model, &values)?;
                let mut doubling = self.doubling(&model, model.clone(), &plan);
                let (result, watch, stopped) =
                    run::run(py, &mut model, &plan, progress.as_ref(), doubling.as_mut(), Driven::clone)?;
                if let Some(stop) = stopped {
                    return fault(&values, stop, result);
                }
                let mut warnings = run::warnings(&model, &model.model, &watch);
                warnings.extend(run::accuracy(py, doubling, &model, dt));
                crate::warn(py, &warnings, 1)?;
                return Ok(result);
            }
            // The logged model has the plain one's variables (the whys hidden), so the
            // indices of `record`, `set` and `inputs` are the same.
            let mut model = Driven::new(self.logged(&wrt)?, signals.clone());
            let values = drive::values(&model, &set, "set: ")?;
            drive::apply(&mut model, &values)?;
            // The estimate's copies step the model behind the log (its whys included).
            let plainly = |m: &Driven<sit_runtime::events::Logged<Instance>>| {
                m.with_model(m.model.inner().clone())
            };
            let mut doubling = self.doubling(&model, plainly(&model), &plan);
            let (result, watch, stopped) =
                run::run(py, &mut model, &plan, progress.as_ref(), doubling.as_mut(), plainly)?;
            if let Some(stop) = stopped {
                return fault(&values, stop, result);
            }
            let mut warnings = run::warnings(&model, model.model.inner(), &watch);
            warnings.extend(run::accuracy(py, doubling, &model, dt));
            crate::warn(py, &warnings, 1)?;
            let table = model.model.table();
            let log = (model.model.events().iter())
                .map(|e| {
                    let rule = e.rule(table).to_string();
                    (e.t, e.name.clone(), e.from.clone(), e.to.clone(), rule)
                })
                .collect();
            Ok(result.with_events(log))
        })
    }

    /// Fits params of a copy of the model to measured data by Levenberg–Marquardt on the
    /// exact forward sensitivities, as `sitc fit` does. See the stub file for the
    /// arguments.
    #[pyo3(signature = (data, params, dt, log=None, sigma=None, set=None, max_iter=100, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn fit(
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
    ) -> PyResult<crate::fit::FitResult> {
        self.fit_data(py, data, params, dt, log, sigma, set, max_iter, progress)
    }

    /// The weighted residuals of the model against `data` and their exact Jacobian, for
    /// another minimiser (SciPy's `least_squares`). See the stub file for the arguments.
    #[pyo3(signature = (data, params, dt, log=None, sigma=None, set=None))]
    #[allow(clippy::too_many_arguments)]
    fn residuals(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        params: &Bound<'_, PyAny>,
        dt: f64,
        log: Option<Vec<String>>,
        sigma: Option<&Bound<'_, PyDict>>,
        set: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<crate::fit::Residuals> {
        self.residuals_of(py, data, params, dt, log, sigma, set)
    }

    fn __repr__(&self) -> String {
        format!(
            "<sit.Model {} from {:?}, t = {}>",
            self.instance.model_name(),
            self.source.root.display().to_string(),
            self.instance.time()
        )
    }
}

impl Model {
    /// The estimate of the error of fixed steps for a run of `plan` of `model` (set up,
    /// before its first step; `start` its plain copy), as `sitc run` makes it
    /// (`sit_runtime::accuracy`); `None` when no model of the tree has a fixed-step
    /// method.
    fn doubling(
        &self,
        model: &dyn sit_runtime::Model,
        start: Driven<Instance>,
        plan: &run::Plan,
    ) -> Option<sit_runtime::accuracy::Doubling<Driven<Instance>>> {
        let (program, root) = &*self.program;
        let states = sit_middle::ir::fixed_step_states(program, *root);
        sit_runtime::accuracy::Doubling::new(states, model, start, plan.dt, plan.steps)
    }
}
