//! Fitting a model's params to measured data: weighted least squares between recorded variables and data columns, on the exact forward sensitivities, minimised by Levenberg–Marquardt within bounds (`sitc fit`; `docs/sensitivities.md`).

use crate::lm::{self, Problem};
use crate::load::{LoadError, load_file_options};
use sit_driver::{Options, Sensitivities};
use sit_interp::Instance;
use sit_middle::ir::Method;
use sit_runtime::Model;
use std::path::Path;

/// A param to fit.
#[derive(Debug, Clone, PartialEq)]
pub struct FitParam {
    /// Its name (a free param of the root model).
    pub name: String,
    /// Its lower bound (`-∞` when none).
    pub lo: f64,
    /// Its upper bound (`+∞` when none).
    pub hi: f64,
    /// Fitted in log space (`ln k`): for a positive param whose scale is unknown.
    pub log: bool,
}

impl FitParam {
    /// Reads `NAME`, `NAME=LO..HI` (bounds) or `NAME=START` as `--param` gives it
    /// (`log`: fitted in log space).
    pub fn parse(text: &str, log: bool) -> Result<(FitParam, Option<f64>), FitError> {
        let bad = |why: &str| FitError::Param {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (name, spec) = match text.split_once('=') {
            Some((n, s)) => (n.trim(), Some(s.trim())),
            None => (text.trim(), None),
        };
        if name.is_empty() {
            return Err(bad("no name; expected NAME, NAME=LO..HI or NAME=START"));
        }
        let num = |s: &str| -> Result<f64, FitError> {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| !x.is_nan())
                .ok_or_else(|| bad(&format!("`{s}` is not a number; expected NAME=LO..HI")))
        };
        let (mut lo, mut hi, mut start) = (f64::NEG_INFINITY, f64::INFINITY, None);
        match spec {
            None => {}
            Some(s) => match s.split_once("..") {
                Some((a, b)) => {
                    lo = num(a)?;
                    hi = num(b)?;
                }
                None => start = Some(num(s)?),
            },
        }
        if lo >= hi {
            return Err(bad(&format!(
                "the bounds are empty ({lo} is not below {hi}); expected LO < HI"
            )));
        }
        if log && lo == f64::NEG_INFINITY {
            // In log space a param is positive: no lower bound is the bound 0.
            lo = 0.0;
        }
        if log && lo < 0.0 {
            return Err(bad(&format!(
                "fitted in log space (--log) but its lower bound {lo} is negative; expected LO >= 0"
            )));
        }
        Ok((
            FitParam {
                name: name.to_string(),
                lo,
                hi,
                log,
            },
            start,
        ))
    }
}

/// Measured data: a time column and columns named as the model's variables.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    /// Where it was read (for messages).
    pub source: String,
    /// The times, ascending.
    pub times: Vec<f64>,
    /// The names of the measured variables.
    pub columns: Vec<String>,
    /// Per column, its values by row (NaN: not measured in that row).
    pub values: Vec<Vec<f64>>,
}

impl Data {
    /// Reads a CSV file: a header row, the time in the first column, one column per
    /// measured variable (an empty cell: not measured then).
    pub fn read(path: &Path) -> Result<Data, FitError> {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| FitError::Data {
            file: source.clone(),
            why: format!("cannot be read ({})", e.kind()),
        })?;
        Data::parse(&source, &text)
    }

    /// [`Data::read`] of `text`, named `source`.
    pub fn parse(source: &str, text: &str) -> Result<Data, FitError> {
        let bad = |why: String| FitError::Data {
            file: source.to_string(),
            why,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, header)) = lines.next() else {
            return Err(bad("is empty; expected a header row `t,NAME,...`".into()));
        };
        let names: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
        if names.len() < 2 {
            return Err(bad(format!(
                "has only the column `{}`; expected the time then at least one measured variable",
                names[0]
            )));
        }
        let mut times = Vec::new();
        let mut values = vec![Vec::new(); names.len() - 1];
        for (i, line) in lines {
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() != names.len() {
                return Err(bad(format!(
                    "line {}: {} cells; expected {} as in the header",
                    i + 1,
                    cells.len(),
                    names.len()
                )));
            }
            let num = |s: &str| -> Result<f64, FitError> {
                if s.is_empty() {
                    return Ok(f64::NAN);
                }
                s.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| bad(format!("line {}: `{s}` is not a finite number", i + 1)))
            };
            let t = num(cells[0])?;
            if t.is_nan() || t < 0.0 || times.last().is_some_and(|&l| t < l) {
                return Err(bad(format!(
                    "line {}: time `{}`; expected times >= 0, ascending",
                    i + 1,
                    cells[0]
                )));
            }
            times.push(t);
            for (c, cell) in cells[1..].iter().enumerate() {
                values[c].push(num(cell)?);
            }
        }
        if times.is_empty() {
            return Err(bad("has no rows after its header".into()));
        }
        Ok(Data {
            source: source.to_string(),
            times,
            columns: names[1..].to_vec(),
            values,
        })
    }
}

/// Why a fit could not be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FitError {
    /// A `--param` that cannot be read.
    #[error("--param {text}: {why}")]
    Param {
        /// The text given.
        text: String,
        /// What is wrong and what was expected.
        why: String,
    },
    /// The data file.
    #[error("{file}: {why}")]
    Data {
        /// The file.
        file: String,
        /// What is wrong and what was expected.
        why: String,
    },
    /// The model could not be loaded (or a param is not a free param of it).
    #[error("{0}")]
    Load(#[from] LoadError),
    /// A run of the model failed at some params.
    #[error("{0}")]
    Run(String),
}

/// What a fit found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The params, in the order given.
    pub names: Vec<String>,
    /// Their starting values.
    pub start: Vec<f64>,
    /// Their fitted values.
    pub values: Vec<f64>,
    /// Their standard errors, from the Jacobian at the fit (`s²·(JᵀJ)⁻¹` with `s²` the
    /// residual variance, in the fitted space, carried to the param's for a log one).
    pub std_errors: Vec<f64>,
    /// Their correlations (in the fitted space).
    pub correlation: Vec<Vec<f64>>,
    /// The weighted sum of squared residuals.
    pub sum_sq: f64,
    /// The number of measured values used.
    pub points: usize,
    /// The runs of the model made (each with its sensitivities).
    pub runs: usize,
    /// The iterations.
    pub iterations: usize,
    /// Whether the iteration converged (else it stopped at its limit).
    pub converged: bool,
    /// The data's times.
    pub times: Vec<f64>,
    /// The data's measured columns, in the order of [`Report::fitted`].
    pub columns: Vec<String>,
    /// Per data column, the model's values at the data's times at the fit.
    pub fitted: Vec<Vec<f64>>,
}

/// How to fit.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// The model (default: the root).
    pub model: Option<String>,
    /// The method override.
    pub method: Option<Method>,
    /// The host step.
    pub dt: f64,
    /// Per data column, its weight's σ (the residual is divided by it); 1 when absent.
    pub sigma: Vec<(String, f64)>,
    /// Values set before each run (params and inputs, `--set`).
    pub set: Vec<(String, f64)>,
    /// At most this many iterations.
    pub max_iter: usize,
}

/// A variable's value at a data time and its sensitivities to the fitted params.
type Sample = (f64, Vec<f64>);

/// The weighted residuals of a model against measured data and their Jacobian, as
/// functions of the fitted coordinates (a param's value, or its logarithm for one fitted
/// in log space): what Levenberg–Marquardt minimises, and what another minimiser (SciPy's
/// `least_squares` from Python) can call. Each evaluation is one run of the model with
/// its forward sensitivities.
pub struct Residuals {
    model: Instance,
    params: Vec<FitParam>,
    data: Data,
    opts: FitOptions,
    /// Per column: its variable's index, and per param the sensitivity's (if any).
    index: Vec<(usize, Vec<Option<usize>>)>,
    sigma: Vec<f64>,
    runs: usize,
    last: Vec<Vec<f64>>,
}

/// Where a fit starts: the coordinates, their bounds and the params' values.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    /// The fitted coordinates (`ln k` for a param fitted in log space).
    pub q: Vec<f64>,
    /// Their lower bounds.
    pub lo: Vec<f64>,
    /// Their upper bounds.
    pub hi: Vec<f64>,
    /// The params' starting values.
    pub values: Vec<f64>,
}

impl Residuals {
    /// The residuals of `model` (an instance that carries the forward sensitivities
    /// `d(x)/d(k)` to every param of `params`: [`fit`] and the Python package build it
    /// with `sit_driver::Options::sensitivities`) against `data`.
    pub fn new(
        model: Instance,
        params: Vec<FitParam>,
        data: Data,
        opts: FitOptions,
    ) -> Result<Residuals, FitError> {
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(FitError::Param {
                    text: n.to_string(),
                    why: "given twice".into(),
                });
            }
        }
        let mut index = Vec::new();
        for c in &data.columns {
            let Some(x) = model.var_index(c) else {
                let known: Vec<String> = (0..model.var_count())
                    .filter_map(|i| model.var_info(i).map(|v| v.name.to_string()))
                    .filter(|n| !n.starts_with("d("))
                    .collect();
                return Err(FitError::Data {
                    file: data.source.clone(),
                    why: format!(
                        "column `{c}` is not a variable of model `{}`; expected columns named as its variables ({})",
                        model.model_name(),
                        known.join(", ")
                    ),
                });
            };
            let s = names
                .iter()
                .map(|p| model.var_index(&format!("d({c})/d({p})")))
                .collect();
            index.push((x, s));
        }
        let sigma = (data.columns.iter())
            .map(|c| opts.sigma.iter().find(|(n, _)| n == c).map_or(1.0, |s| s.1))
            .collect();
        Ok(Residuals {
            model,
            params,
            data,
            opts,
            index,
            sigma,
            runs: 0,
            last: Vec::new(),
        })
    }

    /// The names of the fitted params, in order.
    pub fn names(&self) -> Vec<String> {
        self.params.iter().map(|p| p.name.clone()).collect()
    }

    /// The runs made so far.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// Where to start: per param its given value in `start` or the model's, clamped
    /// into its bounds, and the coordinates of that point.
    pub fn start(&self, start: &[Option<f64>]) -> Result<Start, FitError> {
        let mut out = Start {
            q: Vec::new(),
            lo: Vec::new(),
            hi: Vec::new(),
            values: Vec::new(),
        };
        for (i, p) in self.params.iter().enumerate() {
            let given = start.get(i).copied().flatten();
            let v = given.or_else(|| self.model.get(&p.name)).unwrap_or(0.0);
            let v = if p.lo.is_finite() || p.hi.is_finite() {
                v.clamp(p.lo, p.hi)
            } else {
                v
            };
            if p.log && v <= 0.0 {
                return Err(FitError::Param {
                    text: p.name.clone(),
                    why: format!(
                        "fitted in log space (--log) but starts at {v}; expected a positive start"
                    ),
                });
            }
            out.values.push(v);
            let map = |x: f64| if p.log { x.ln() } else { x };
            out.q.push(map(v));
            out.lo.push(if p.log { p.lo.max(0.0).ln() } else { p.lo });
            out.hi.push(map(p.hi));
        }
        Ok(out)
    }

    /// The params from the fitted coordinates.
    pub fn values(&self, q: &[f64]) -> Vec<f64> {
        q.iter()
            .zip(&self.params)
            .map(|(&x, p)| if p.log { x.exp() } else { x })
            .collect()
    }

    /// The weighted residuals `(model − data)/σ` at the measured values (in the data's
    /// order: column by column, row by row, unmeasured cells left out) and their
    /// Jacobian with respect to the coordinates `q` (one row per residual), from one run.
    pub fn eval(&mut self, q: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), FitError> {
        if q.len() != self.params.len() {
            return Err(FitError::Run(format!(
                "{} values given for {} params ({})",
                q.len(),
                self.params.len(),
                self.names().join(", ")
            )));
        }
        Problem::eval(self, q).map_err(FitError::Run)
    }

    /// Per data column, the model's values at the data's times in the last run.
    pub fn last(&self) -> &[Vec<f64>] {
        &self.last
    }

    /// Per column, the model's value and sensitivities at each data time.
    fn sample(&mut self, p: &[f64]) -> Result<Vec<Vec<Sample>>, String> {
        self.runs += 1;
        for (name, v) in &self.opts.set {
            self.model.set(name, *v).map_err(|e| e.to_string())?;
        }
        for (fp, &v) in self.params.iter().zip(p) {
            self.model.set(&fp.name, v).map_err(|e| e.to_string())?;
        }
        self.model.reset();
        let read = |m: &Instance, index: &[(usize, Vec<Option<usize>>)]| -> Vec<Sample> {
            index
                .iter()
                .map(|(x, s)| {
                    let v = m.get_at(*x).unwrap_or(f64::NAN);
                    let d = s
                        .iter()
                        .map(|s| s.and_then(|i| m.get_at(i)).unwrap_or(0.0))
                        .collect();
                    (v, d)
                })
                .collect()
        };
        let mut out = vec![Vec::with_capacity(self.data.times.len()); self.index.len()];
        let (mut t0, mut before) = (self.model.time(), read(&self.model, &self.index));
        let dt = self.opts.dt;
        for &t in &self.data.times {
            while self.model.time() < t - 1e-9 * dt {
                t0 = self.model.time();
                before = read(&self.model, &self.index);
                self.model.step(dt);
            }
            let after = read(&self.model, &self.index);
            let t1 = self.model.time();
            // Linear between the rows around t (the row itself at a step's time).
            let w = if t1 > t0 {
                ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            for (c, (a, b)) in before.iter().zip(&after).enumerate() {
                let lerp = |x: f64, y: f64| if w == 1.0 { y } else { x + w * (y - x) };
                let d = a.1.iter().zip(&b.1).map(|(&x, &y)| lerp(x, y)).collect();
                out[c].push((lerp(a.0, b.0), d));
            }
        }
        Ok(out)
    }
}

impl Problem for Residuals {
    fn eval(&mut self, q: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), String> {
        let p = self.values(q);
        let samples = self.sample(&p)?;
        let mut r = Vec::new();
        let mut jac = Vec::new();
        self.last = samples
            .iter()
            .map(|c| c.iter().map(|s| s.0).collect())
            .collect();
        for (c, col) in samples.iter().enumerate() {
            for (i, (v, d)) in col.iter().enumerate() {
                let y = self.data.values[c][i];
                if y.is_nan() {
                    continue;
                }
                if !v.is_finite() {
                    return Err(format!(
                        "the model's `{}` is not finite",
                        self.data.columns[c]
                    ));
                }
                r.push((v - y) / self.sigma[c]);
                jac.push(
                    d.iter()
                        .zip(&self.params)
                        .zip(&p)
                        .map(|((&dv, fp), &pv)| dv / self.sigma[c] * if fp.log { pv } else { 1.0 })
                        .collect(),
                );
            }
        }
        Ok((r, jac))
    }
}

/// Fits `params` of the model in `path` to `data` (starting at `start`, per param its
/// given value or the model's, clamped into its bounds), calling `each` after every
/// accepted step with the iteration and the weighted sum of squares.
pub fn fit(
    path: &Path,
    params: &[FitParam],
    start: &[Option<f64>],
    data: &Data,
    opts: &FitOptions,
    each: &mut dyn FnMut(usize, f64),
) -> Result<Report, FitError> {
    let options = Options {
        method: opts.method,
        sensitivities: Some(Sensitivities {
            model: opts.model.clone(),
            wrt: params.iter().map(|p| p.name.clone()).collect(),
        }),
        ..Default::default()
    };
    let (loaded, _) =
        load_file_options(path, opts.model.as_deref(), &options).map_err(|e| match e {
            // The params are given with `--param` here.
            LoadError::Usage(m) if m.starts_with("--sensitivities: ") => {
                FitError::Run(m.replacen("--sensitivities: ", "--param: ", 1))
            }
            e => FitError::Load(e),
        })?;
    let residuals = Residuals::new(loaded.instance, params.to_vec(), data.clone(), opts.clone())?;
    fit_residuals(residuals, start, each)
}

/// [`fit`] on residuals already built ([`Residuals::new`]).
pub fn fit_residuals(
    mut runs: Residuals,
    start: &[Option<f64>],
    each: &mut dyn FnMut(usize, f64),
) -> Result<Report, FitError> {
    let Start { q, lo, hi, values } = runs.start(start)?;
    let max_iter = runs.opts.max_iter;
    let out = lm::minimise(&mut runs, &q, (&lo, &hi), max_iter, each).map_err(FitError::Run)?;
    // The model at the fit (the last run may have been a rejected trial).
    let _ = Problem::eval(&mut runs, &out.q).map_err(FitError::Run)?;
    let n = runs.params.len();
    let m = out.r.len();
    let sum_sq = lm::sum_sq(&out.r);
    let (a, _) = lm::normal(&out.jac, &out.r, n);
    let s2 = if m > n {
        sum_sq / (m - n) as f64
    } else {
        f64::NAN
    };
    let cov = lm::inverse(&a).unwrap_or_else(|| vec![vec![f64::NAN; n]; n]);
    let fitted = runs.values(&out.q);
    let std_errors = (0..n)
        .map(|i| {
            let se = (s2 * cov[i][i]).sqrt();
            if runs.params[i].log {
                se * fitted[i]
            } else {
                se
            }
        })
        .collect();
    let correlation = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| cov[i][j] / (cov[i][i] * cov[j][j]).sqrt())
                .collect()
        })
        .collect();
    Ok(Report {
        names: runs.names(),
        start: values,
        values: fitted,
        std_errors,
        correlation,
        sum_sq,
        points: m,
        runs: runs.runs,
        iterations: out.iterations,
        converged: out.converged,
        times: runs.data.times.clone(),
        columns: runs.data.columns.clone(),
        fitted: runs.last,
    })
}

impl Report {
    /// The report as text: the fitted values with their standard errors, the
    /// correlations, the residual and the runs.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let w = self.names.iter().map(String::len).max().unwrap_or(0).max(5);
        let _ = writeln!(
            out,
            "{:w$}  {:>14}  {:>12}  {:>14}",
            "param", "value", "std error", "start"
        );
        for i in 0..self.names.len() {
            let _ = writeln!(
                out,
                "{:w$}  {:>14.8e}  {:>12.4e}  {:>14.8e}",
                self.names[i], self.values[i], self.std_errors[i], self.start[i]
            );
        }
        if self.names.len() > 1 {
            let _ = writeln!(out, "correlations:");
            for i in 0..self.names.len() {
                let row: Vec<String> = (0..=i)
                    .map(|j| format!("{:>7.4}", self.correlation[i][j]))
                    .collect();
                let _ = writeln!(out, "  {:w$}  {}", self.names[i], row.join(" "));
            }
        }
        let rms = (self.sum_sq / self.points.max(1) as f64).sqrt();
        let _ = writeln!(
            out,
            "residual: sum of squares {:.6e} over {} values (rms {:.4e}); {} runs, {} iterations{}",
            self.sum_sq,
            self.points,
            rms,
            self.runs,
            self.iterations,
            if self.converged {
                ""
            } else {
                " (stopped at the limit, not converged)"
            }
        );
        out
    }
}
