//! `sitc fit`: fit a model's params to measured data on the exact forward sensitivities (Levenberg–Marquardt within bounds) and report the values, their standard errors and correlations.

use crate::fail::{Fail, exit};
use crate::params::parse_set;
use sit_host::fit::{Data, FitError, FitOptions, FitParam, fit as fit_data};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `sitc fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// The `.sit` file.
    pub file: PathBuf,
    /// The model to fit (default: the root).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// The measured data: a CSV file with a header row, the time in the first column and
    /// one column per measured variable, named as the model's (an empty cell: not
    /// measured then). The model's values are taken at the data's times (linear between
    /// its steps).
    #[arg(long, value_name = "FILE.csv")]
    pub data: PathBuf,
    /// A param to fit (repeatable): `NAME` (from the model's value, unbounded),
    /// `NAME=LO..HI` (within bounds, from the model's value clamped into them) or
    /// `NAME=START`.
    #[arg(long = "param", value_name = "NAME[=LO..HI]", required = true)]
    pub param: Vec<String>,
    /// Fit these params in log space (comma-separated; each positive): for rate
    /// constants whose scale is unknown.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub log: Vec<String>,
    /// The σ of a data column's errors (repeatable): its residuals are divided by it
    /// (default 1).
    #[arg(long = "sigma", value_name = "COLUMN=SIGMA")]
    pub sigma: Vec<String>,
    /// Set a param or input by name before each run (repeatable), as `sitc run --set`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// The step, > 0.
    #[arg(long, default_value_t = 0.01)]
    pub dt: f64,
    #[command(flatten)]
    pub method: crate::method::MethodArgs,
    /// At most this many iterations.
    #[arg(long = "max-iter", value_name = "N", default_value_t = 100)]
    pub max_iter: usize,
    /// Also draw the data against the fitted model into this SVG file (`-`: the drawing
    /// to standard output, the report to stderr).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// No progress lines.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `sitc fit` (exit 0; 1: the model has errors; 2: usage, data or I/O).
pub fn fit(args: FitArgs) -> ExitCode {
    exit(try_fit(args))
}

fn try_fit(args: FitArgs) -> Result<(), Fail> {
    if !(args.dt.is_finite() && args.dt > 0.0) {
        return Err(Fail::Usage(format!(
            "--dt must be a finite number > 0, not {}",
            args.dt
        )));
    }
    let mut params = Vec::new();
    let mut start = Vec::new();
    for text in &args.param {
        let name = text.split('=').next().unwrap_or("").trim();
        let (p, s) = FitParam::parse(text, args.log.iter().any(|l| l == name)).map_err(usage)?;
        params.push(p);
        start.push(s);
    }
    if let Some(l) = args
        .log
        .iter()
        .find(|l| !params.iter().any(|p| &p.name == *l))
    {
        return Err(Fail::Usage(format!(
            "--log {l}: not a param given with --param; expected one of {}",
            params
                .iter()
                .map(|p| format!("`{}`", p.name))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut sigma = Vec::new();
    for s in &args.sigma {
        let (name, v) = parse_set(s)?;
        if !(v.is_finite() && v > 0.0) {
            return Err(Fail::Usage(format!(
                "--sigma {s}: σ must be a finite number > 0"
            )));
        }
        sigma.push((name, v));
    }
    let set = args
        .set
        .iter()
        .map(|s| parse_set(s).map_err(Fail::from))
        .collect::<Result<Vec<_>, _>>()?;
    let data = Data::read(&args.data).map_err(usage)?;
    if let Some((c, _)) = sigma.iter().find(|(c, _)| !data.columns.contains(c)) {
        return Err(Fail::Usage(format!(
            "--sigma {c}: not a column of `{}` (its columns: {})",
            data.source,
            data.columns.join(", ")
        )));
    }
    let opts = FitOptions {
        model: args.model.clone(),
        method: args.method.method().map_err(Fail::Usage)?,
        dt: args.dt,
        sigma,
        set,
        max_iter: args.max_iter,
    };
    let tty = !args.quiet && std::io::stderr().is_terminal();
    let mut each = |i: usize, cost: f64| {
        if tty {
            eprint!("\riteration {i}: sum of squares {cost:.6e}   ");
        }
    };
    let report = crate::fail::catch_model_fault(|| {
        fit_data(&args.file, &params, &start, &data, &opts, &mut each)
    })?;
    if tty {
        eprintln!();
    }
    let report = match report {
        Ok(r) => r,
        Err(FitError::Load(e)) if e.is_model_error() => return Err(Fail::Model(e.to_string())),
        Err(e) => return Err(usage(e)),
    };
    let text = format!(
        "fit of `{}` to `{}`\n{}",
        args.file.display(),
        data.source,
        report.text()
    );
    // `--plot -` puts the drawing on standard output: the report goes to stderr.
    if args.plot.as_deref().is_some_and(crate::out::is_stdout) {
        eprint!("{text}");
    } else {
        crate::out::print(text);
    }
    if let Some(path) = &args.plot {
        let mut names = Vec::new();
        for c in &data.columns {
            names.push(format!("{c} (data)"));
            names.push(format!("{c} (fit)"));
        }
        let logical = vec![false; names.len()];
        let mut trace = crate::plot::Trace::new("fit".into(), names, logical);
        for (i, &t) in report.times.iter().enumerate() {
            let row =
                (0..data.columns.len()).flat_map(|c| [data.values[c][i], report.fitted[c][i]]);
            trace.push(t, row);
        }
        crate::plot::write_svg(&trace, path)?;
    }
    Ok(())
}

fn usage(e: FitError) -> Fail {
    Fail::Usage(e.to_string())
}
