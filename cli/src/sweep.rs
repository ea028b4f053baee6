//! `sitc sweep`: a parameter study, one CSV row per combination of the params' values.
//!
//! The sets are the Cartesian product of the `--param` axes (the first axis varies
//! slowest). Each set runs through `sit_runtime::sweep` on a clone of the interpreted
//! model, in parallel: its params and inputs are set, the model is reset, its states are
//! set, then it runs `t_end / dt` steps of `dt` (see `Timing::steps`), with the inputs
//! of `--input` driven, exactly as `sitc run` does with the same `--set` and `--input`
//! values, so the final values of a row are the last row of that run, bit for bit (both
//! print `f64` with `{}`). Axis values print as given (see `axis`).

use crate::axis::parse_axis;
use crate::fail::{Fail, exit};
use crate::input::load_inputs;
use crate::params::{io_reason, parse_set};
use crate::run::{Timing, record_names};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sit_host::faults::RowFault;
use sit_host::reports::Concern;
use sit_host::study::{Ask, Study, StudyError};
use sit_host::summary::{Summary, SummaryError};
use sit_host::values::{SetProblem, run_failed};
use sit_runtime::drive::Driven;
use sit_runtime::sweep::{Watched, grid};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Sweeps fewer than this many steps in all get no progress bar.
const MIN_STEPS: u128 = 200_000;

/// Run a model for every combination of parameter values and write one CSV row per
/// combination (exit 0; 1: the model has errors; 2: usage or I/O).
#[derive(clap::Args)]
pub struct SweepArgs {
    /// The `.sit` file.
    pub file: PathBuf,
    /// The model to run (default: the one model of the file that no other model
    /// instantiates).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// An axis of the study (repeatable): `NAME=LO..HI:N` (N evenly spaced values, both
    /// ends included) or `NAME=V1,V2,...`. Params, inputs, states or `NAME.on`.
    #[arg(long = "param", value_name = "NAME=VALUES", required = true)]
    pub param: Vec<String>,
    /// A value set in every run (repeatable), as with `sitc run --set`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// An input driven from a time series in every run (repeatable), as with `sitc run
    /// --input`.
    #[arg(long = "input", value_name = "NAME=FILE.csv[:COLUMN]")]
    pub input: Vec<String>,
    #[command(flatten)]
    pub timing: Timing,
    /// The variables to collect, comma-separated, globs allowed as with `sitc run`
    /// (default: the root model's outputs, or every variable when it declares none).
    #[arg(long, value_name = "NAMES")]
    pub record: Option<String>,
    /// What to collect of each recorded variable (repeatable, or comma-separated):
    /// `final` (the value at the end, column `final(x)`), `max`
    /// (`max(x)`), `min` (`min(x)`),
    /// `first-crossing=THRESH` (the time at which `x` first reaches THRESH: the first row
    /// at or above THRESH after a row below it, or at or below after a row above it, the
    /// time linear between those two rows; NaN if never; column `crossing(x=THRESH)`),
    /// `first-crossing(NAME)=THRESH` (the same of the recorded variable NAME only).
    #[arg(long, value_name = "WHAT", default_value = "final")]
    pub summary: Vec<String>,
    /// The CSV file to write (default, or `-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write each column's unit in the header after its title, as `sitc run --units`
    /// does: an axis and `final`, `max`, `min` take their variable's unit, a first
    /// crossing is a time (`s`); a column without a known unit is its title alone.
    #[arg(long)]
    pub units: bool,
    /// Run the sets with the model's generated code (its batch form, blocks of lanes on
    /// every core) instead of the interpreter: the same rows, bit for bit, many times
    /// faster. Built with cargo the first time into a cache ($SIT_CACHE_DIR/sweep, else
    /// ~/.cache/sit/sweep), reused afterwards, also without Rust installed.
    #[arg(long)]
    pub compiled: bool,
    /// Take rows that meet NaN or infinite values as the model's answer, with warnings
    /// (exit 0). Without it each such row is an error naming the rule that made the
    /// value, the other rows are written, and the exit code is 1.
    #[arg(long = "allow-non-finite")]
    pub allow_non_finite: bool,
    #[command(flatten)]
    pub warnings: crate::quiet::Warnings,
    #[command(flatten)]
    pub gpu: crate::gpu::GpuArgs,
}

/// `sitc sweep`: exit 0, 1 (the model has errors) or 2 (usage, I/O).
pub fn sweep(args: SweepArgs) -> ExitCode {
    exit(try_sweep(args))
}

fn try_sweep(mut args: SweepArgs) -> Result<(), Fail> {
    let steps = args.timing.steps()?;
    if let Some(warning) = args.timing.warning()
        && !args.warnings.quiet
    {
        eprintln!("{warning}");
    }
    let axes = (args.param.iter())
        .map(|a| parse_axis(a))
        .collect::<Result<Vec<_>, _>>()?;
    let fixed = (args.set.iter())
        .map(|a| parse_set(a))
        .collect::<Result<Vec<_>, _>>()?;
    let summaries = parse_summaries(&args.summary)?;
    let method = args.timing.method()?;
    let loaded = match sit_host::load_file_with(&args.file, args.model.as_deref(), method) {
        Ok(l) => l,
        Err(e) if e.is_model_error() => return Err(Fail::Model(e.to_string())),
        Err(e) => return Err(Fail::Usage(e.to_string())),
    };
    args.warnings.print(&loaded.warnings);
    // A model that says `#[allow(non_finite, …)]` runs as with --allow-non-finite.
    args.allow_non_finite |= loaded.instance.allows_non_finite();
    // The unit of each variable (by index), for the header (`--units`).
    let units = args.units.then(|| {
        crate::units::by_index(loaded.lowered.unrewritten(), loaded.root, &loaded.instance)
    });
    let input_units = crate::units::for_inputs(&loaded, units.as_deref(), &args.input);
    let inputs = load_inputs(&loaded.instance, &args.input, &input_units)?;
    let (lowered, root) = (loaded.lowered, loaded.root);
    let model = Driven::new(loaded.instance, inputs);
    let named_axes: Vec<(String, Vec<f64>)> = (axes.iter())
        .map(|a| (a.name.clone(), a.values.clone()))
        .collect();
    let record = record_names(args.record.as_deref())?;
    let ask = Ask {
        axes: &named_axes,
        fixed: &fixed,
        record: record.as_deref(),
        summaries: &summaries,
        dt: args.timing.dt,
        steps,
    };
    let Study {
        sweep,
        sets,
        columns: header,
    } = Study::new(&model, &ask).map_err(study_error)?;
    // The summaries of continuous states under an adaptive method are kept between the
    // rows by the lowering: the model loaded again with them (`sit_host::between`).
    let asked: Vec<_> = sweep.columns().to_vec();
    let entries = lowered.variables(root).unwrap_or_default();
    let probes = sit_host::between::probes(&entries, &asked, steps);
    let (model, lowered, between) = if probes.is_empty() {
        let kept = vec![None; asked.len()];
        (model, lowered, sit_host::between::Between { kept })
    } else {
        let opts = sit_driver::Options {
            method,
            probes: probes.clone(),
            ..Default::default()
        };
        let (probed, _) = sit_host::load_file_options(&args.file, args.model.as_deref(), &opts)
            .map_err(|e| Fail::Model(e.to_string()))?;
        let between = sit_host::between::Between::of(&probed.lowered, root, &asked, steps);
        let model = Driven::new(probed.instance, model.inputs().to_vec());
        (model, probed.lowered, between)
    };
    // The error of fixed steps, estimated in each interpreted run as `sitc run` does.
    let states = sit_middle::ir::fixed_step_states(lowered.unrewritten(), root);
    let sweep = (between.columns(&asked).into_iter()).fold(
        sit_runtime::sweep::Sweep::new(args.timing.dt, steps).estimate(states),
        |s, c| s.collect(c),
    );
    // The sets' axis labels, in the order of `sets` (the same grid over label indices).
    let positions: Vec<(usize, Vec<f64>)> = (axes.iter())
        .map(|a| (0, (0..a.labels.len()).map(|k| k as f64).collect()))
        .collect();
    let labels: Vec<Vec<&str>> = grid(&positions)
        .iter()
        .map(|set| {
            set.iter()
                .zip(&axes)
                .map(|(&(_, k), a)| a.labels[k as usize].as_str())
                .collect()
        })
        .collect();
    let study = Study {
        sweep,
        sets,
        columns: header,
    };
    let (values, mut warnings, bad) = if args.gpu.gpu {
        let axis_values: Vec<Vec<f64>> = axes.iter().map(|a| a.values.clone()).collect();
        let gpu = sit_host::gpu::GpuStudy {
            model: &model,
            lowered: &lowered,
            root,
            sweep: &study.sweep,
            sets: &study.sets,
            axes: &axis_values,
            dt: args.timing.dt,
            steps,
        };
        let rows = crate::gpu::run(&gpu, &args.gpu, args.warnings.quiet)?;
        let allow = args.allow_non_finite;
        let span = (args.timing.dt, args.timing.t_end);
        let mut warnings = run_warnings(&model.model, &axes, &labels, &rows, allow, span);
        warnings.extend(
            sit_host::gpu::tables_not_counted(&model.model).map(|(_, w)| format!("warning: {w}")),
        );
        let bad = rows.iter().map(|r| r.non_finite.is_some()).collect();
        (rows.into_iter().map(|r| r.row).collect(), warnings, bad)
    } else if args.compiled {
        run_compiled(&args, &model, &study, (&axes, &labels), &probes)?
    } else {
        run_interpreted(
            &model,
            &study,
            (steps, args.timing.t_end),
            (&axes, &labels),
            args.allow_non_finite,
        )?
    };
    // Last after the table's warnings: which summaries were taken at the rows.
    if between.at_rows(&asked) {
        warnings.push(sit_host::between::AT_ROWS.to_string());
    }
    // By default a row that met a non-finite value is an error (issue 47, item 3), and so
    // is a row whose collected values reached 1e100, a probable instability (item 2),
    // written after the table (the warnings about non-finite values are only with
    // --allow-non-finite, which takes both as the answer).
    let faults = sit_host::faults::row_faults(&asked, &values, &bad);
    let errors = (!args.allow_non_finite && faults.iter().any(Option::is_some)).then(|| {
        let named = |k: usize| {
            (axes.iter().zip(&labels[k]))
                .map(|(a, l)| (a.name.as_str(), l.to_string()))
                .collect::<Vec<_>>()
        };
        row_errors(&model, &study, args.timing.dt, steps, &faults, &named)
    });

    let header = match &units {
        Some(units) => with_units(&study, units),
        None => study.columns,
    };
    if !args.warnings.quiet {
        for line in warnings {
            eprintln!("{line}");
        }
    }
    let (out, shown): (Box<dyn Write>, String) = match crate::out::file(args.output.as_deref()) {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot write `{}`: {}", path.display(), io_reason(&e)))?;
            (Box::new(file), format!("`{}`", path.display()))
        }
        None => (Box::new(std::io::stdout().lock()), "the table".into()),
    };
    let mut out = BufWriter::new(out);
    match write_csv(&mut out, &header, &labels, &values) {
        Ok(()) => {}
        // The reader went away (`sitc sweep ... | head`): stop quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(format!("cannot write {shown}: {}", io_reason(&e)).into()),
    }
    match errors {
        Some(errors) => Err(Fail::Model(errors)),
        None => Ok(()),
    }
}

/// The errors of the rows that went wrong (`faults[k]`: a non-finite value, or a value
/// past 1e100), each named by its number and axis values (`named(k)`), with the rule that
/// made the value ([`sit_host::faults::row_error`]: the row run again in the
/// interpreter, the same values to the bit as every back end). The first
/// [`sit_host::reports::NON_FINITE_ROWS`], then a count; how to run on past them.
fn row_errors<'a>(
    model: &Driven<sit_interp::Instance>,
    study: &Study,
    dt: f64,
    steps: u64,
    faults: &[Option<RowFault>],
    named: &dyn Fn(usize) -> Vec<(&'a str, String)>,
) -> String {
    use sit_host::reports::{NON_FINITE_ROWS, row_label};
    let rows: Vec<(usize, RowFault)> = (faults.iter().enumerate())
        .filter_map(|(k, f)| Some((k, (*f)?)))
        .collect();
    let mut text = String::new();
    for &(k, fault) in rows.iter().take(NON_FINITE_ROWS) {
        let set = study.sets.get(k).map_or(&[][..], Vec::as_slice);
        let what = sit_host::faults::row_error(model, set, dt, steps, fault);
        text += &format!("error: {}: {what}\n", row_label(k + 1, &named(k)));
    }
    if rows.len() > NON_FINITE_ROWS {
        let what = if rows.iter().all(|(_, f)| *f == RowFault::NonFinite) {
            "met a non-finite value"
        } else {
            "went wrong"
        };
        text += &format!("error: {} more rows {what}\n", rows.len() - NON_FINITE_ROWS);
    }
    let count = |kind: RowFault| rows.iter().filter(|(_, f)| *f == kind).count();
    let (non_finite, blown) = (count(RowFault::NonFinite), count(RowFault::Blowup));
    if non_finite > 0 {
        text += &format!(
            "error: {non_finite} of {} rows met a non-finite value (their values in the table may \
             be NaN or infinite)\n",
            faults.len()
        );
    }
    if blown > 0 {
        let count = sit_host::faults::blowup_count(blown, faults.len());
        text += &format!("error: {count}\n");
    }
    let help = match (non_finite > 0, blown > 0) {
        (true, false) => {
            "if the model means a value to be infinite, --allow-non-finite takes \
                          these rows as its answer"
        }
        _ => "if the model means such values, --allow-non-finite takes these rows as its answer",
    };
    text += &format!("  = help: {help}\n");
    text
}

/// The values of a sweep's rows, the warnings after it, and which rows met a non-finite
/// value.
type Rows = (Vec<Vec<f64>>, Vec<String>, Vec<bool>);

/// The rows of the interpreter's sweep (`sit_runtime::sweep`, on rayon's pool) and the
/// warnings after it.
fn run_interpreted(
    model: &Driven<sit_interp::Instance>,
    study: &Study,
    (steps, t_end): (u64, f64),
    (axes, labels): (&[crate::axis::Axis], &[Vec<&str>]),
    allow_non_finite: bool,
) -> Result<Rows, Fail> {
    let Study { sweep, sets, .. } = study;
    let bar = progress_bar(sets.len() as u64, steps);
    let done = || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    };
    // A fault of the model (a phase past its limit, ...) stops its run with a panic,
    // which rayon carries back here: the model's error (exit 1), not a crash.
    // Each run is watched for non-finite values and leaves its tables' reads: reported
    // after the table, on stderr (issue 28, items 5 and 7).
    let end = |m: &Driven<sit_interp::Instance>| sit_host::reports::run_end(&m.model);
    let rows = crate::fail::catch_model_fault(|| sweep.run_watched(model, sets, &done, &end));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let rows = rows?;
    let rows = rows.map_err(|e| {
        let set = sets.get(e.set).map_or(&[][..], Vec::as_slice);
        run_failed(model, set, &e.error)
    })?;
    let span = (study.sweep.dt(), t_end);
    let warnings = run_warnings(&model.model, axes, labels, &rows, allow_non_finite, span);
    let bad = rows.iter().map(|r| r.non_finite.is_some()).collect();
    Ok((rows.into_iter().map(|r| r.row).collect(), warnings, bad))
}

/// The rows of the compiled sweep (`sit_host::compiled`: the model's batch form, built
/// into the cache the first time) and the warnings after it.
fn run_compiled(
    args: &SweepArgs,
    model: &Driven<sit_interp::Instance>,
    study: &Study,
    (axes, labels): (&[crate::axis::Axis], &[Vec<&str>]),
    probes: &[sit_middle::lower::Probe],
) -> Result<Rows, Fail> {
    use sit_host::compiled::{self, Error, Progress};
    let method = args.timing.method()?;
    let fail = |e: Error| match e {
        Error::Load(e) if e.is_model_error() => Fail::Model(e.to_string()),
        Error::Fault(message) => Fail::Model(format!("error: {message}\n")),
        Error::SetFailed(k) => {
            let set = study.sets.get(k).map_or(&[][..], Vec::as_slice);
            let mut probe = model.clone();
            match sit_runtime::sweep::apply(&mut probe, set) {
                Err(error) => Fail::Usage(run_failed(model, set, &error)),
                Ok(()) => Fail::Usage(format!(
                    "internal error: the compiled model refused parameter set #{k}, which the interpreter takes"
                )),
            }
        }
        e @ Error::NoCargo { .. } => Fail::Usage(format!(
            "--compiled: {e}; or drop --compiled to run the sweep with the interpreter"
        )),
        e => Fail::Usage(format!("--compiled: {e}")),
    };
    let source = sit_driver::Source::path(&args.file);
    let prepared =
        compiled::prepare_with(&source, args.model.as_deref(), method, probes).map_err(fail)?;
    let tools = compiled::Tools::from_env();
    let progress = |p: Progress| match p {
        Progress::Building { model, expected } => eprintln!(
            "building the compiled sweep of {model} (first time, ~{} s)...",
            expected.as_secs().max(1)
        ),
        Progress::Built(took) => eprintln!("built in {:.1} s", took.as_secs_f64()),
    };
    let runner = prepared.runner(&tools, &progress).map_err(fail)?;
    let steps = args.timing.steps()?;
    let threads = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let rows = runner.run(
        &model.model,
        study.sweep.columns(),
        &study.sets,
        args.timing.dt,
        steps,
        threads,
        model.inputs(),
    );
    let rows = rows.map_err(fail)?;
    let named: Vec<Vec<(&str, String)>> = (labels.iter())
        .map(|set| {
            (axes.iter().zip(set))
                .map(|(a, l)| (a.name.as_str(), l.to_string()))
                .collect()
        })
        .collect();
    let warnings = compiled::warnings(&model.model, 0, &named, &rows);
    let warnings = warning_lines(&warnings, args.allow_non_finite);
    let bad = rows.iter().map(|r| r.non_finite_at_end.is_some()).collect();
    Ok((rows.into_iter().map(|r| r.row).collect(), warnings, bad))
}

/// The warnings after a sweep (`sit_host::reports`), each behind `warning: `; those of
/// the rows that met a non-finite value only if they are allowed (else they are
/// errors), ending with how to find the rule that made it.
fn run_warnings(
    model: &sit_interp::Instance,
    axes: &[crate::axis::Axis],
    labels: &[Vec<&str>],
    rows: &[Watched<sit_host::reports::RunEnd>],
    allow_non_finite: bool,
    steps: (f64, f64),
) -> Vec<String> {
    let named: Vec<Vec<(&str, String)>> = (labels.iter())
        .map(|set| {
            (axes.iter().zip(set))
                .map(|(a, l)| (a.name.as_str(), l.to_string()))
                .collect()
        })
        .collect();
    let mut warnings = sit_host::reports::sweep_warnings(model, 0, &named, rows);
    let voice = sit_runtime::accuracy::Voice::Cli;
    warnings.extend(sit_host::reports::accuracy_warnings(
        0, &named, rows, steps, voice,
    ));
    warning_lines(&warnings, allow_non_finite)
}

/// The warnings after a sweep, each behind `warning: `; those about non-finite values
/// only if they are allowed, the last of them ending with how to find the rule that
/// made them.
fn warning_lines(warnings: &[(Concern, String)], allow_non_finite: bool) -> Vec<String> {
    let kept = |c: &Concern| allow_non_finite || *c != Concern::NonFinite;
    let last_non_finite = warnings.iter().rposition(|(c, _)| *c == Concern::NonFinite);
    (warnings.iter().enumerate())
        .filter(|(_, (c, _))| kept(c))
        .map(|(k, (_, w))| match Some(k) == last_non_finite {
            true => format!(
                "warning: {w}; rerun one with `sitc run` and its --set values to stop at the \
                 rule that made it"
            ),
            false => format!("warning: {w}"),
        })
        .collect()
}

/// A study refused, in the words of `sitc sweep`'s options.
fn study_error(e: StudyError) -> String {
    let setting = |option: &str, name: &str, p: &SetProblem| match p {
        SetProblem::Driven => format!("{option} {name}: `{name}` is driven by --input"),
        p => format!("{option} {name}: {p}"),
    };
    match &e {
        StudyError::Axis(name, p) => setting("--param", name, p),
        StudyError::Fixed(name, p) => setting("--set", name, p),
        StudyError::AxisTwice(name) => format!("--param {name}: given twice"),
        StudyError::FixedIsAxis(name) => format!("--set {name}: already given"),
        StudyError::Record(e) => format!("--record: {e}"),
        StudyError::SummaryUnknown(u) => format!("--summary first-crossing({}): {e}", u.name),
        StudyError::SummaryNotRecorded(name, _) => {
            format!("--summary first-crossing({name}): {e}")
        }
    }
}

/// The study's column titles with their units (`x0 [m]`, `max(x0) [m]`,
/// `crossing(x0=1) [s]`): an axis's and a summary's from their variable's unit in
/// `units` (by variable index), a first crossing's `s`; a title alone where none is known.
fn with_units(study: &Study, units: &[Option<String>]) -> Vec<String> {
    use sit_runtime::sweep::Collect;
    let axes = study.axes();
    // The axes' variables: the first pairs of every set (the grid, then the fixed values).
    let axis_vars = study
        .sets
        .first()
        .map_or(&[][..], |set| &set[..axes.min(set.len())]);
    let var_unit = |i: usize| units.get(i).cloned().flatten();
    let unit = (0..axes)
        .map(|k| axis_vars.get(k).and_then(|&(i, _)| var_unit(i)))
        .chain(study.sweep.columns().iter().map(|c| match *c {
            Collect::Final(i) | Collect::Max(i) | Collect::Min(i) => var_unit(i),
            Collect::FirstCrossing { .. } => Some("s".to_string()),
        }));
    (study.columns.iter().zip(unit))
        .map(|(title, unit)| match unit {
            Some(unit) => format!("{title} [{unit}]"),
            None => title.clone(),
        })
        .collect()
}

/// The header, then one row per set: its axis labels, then its collected values.
fn write_csv(
    out: &mut dyn Write,
    header: &[String],
    labels: &[Vec<&str>],
    rows: &[Vec<f64>],
) -> std::io::Result<()> {
    writeln!(out, "{}", header.join(","))?;
    for (set, row) in labels.iter().zip(rows) {
        let mut first = true;
        for label in set {
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            out.write_all(label.as_bytes())?;
        }
        for v in row {
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            write!(out, "{}", sit_runtime::number::shortest(*v))?;
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// A bar over the sets, on a terminal only and for sweeps long enough to need one.
fn progress_bar(sets: u64, steps: u64) -> Option<ProgressBar> {
    if u128::from(sets) * u128::from(steps) < MIN_STEPS || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(sets), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {human_pos}/{human_len} runs, ETA {eta}",
    );
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(bar)
}

/// The `--summary` values, comma-separated or repeated, in order.
fn parse_summaries(args: &[String]) -> Result<Vec<Summary>, String> {
    Summary::parse_all(args.iter().flat_map(|a| a.split(','))).map_err(|(item, e)| match e {
        SummaryError::Unknown => format!("--summary `{item}`: {e}"),
        e => format!("--summary {item}: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        let args = [
            "final,max".to_string(),
            "first-crossing=-0.5".into(),
            "max".into(),
        ];
        assert_eq!(
            parse_summaries(&args),
            Ok(vec![
                Summary::Final,
                Summary::Max,
                Summary::Crossing {
                    var: None,
                    threshold: -0.5
                }
            ])
        );
        assert!(parse_summaries(&["avg".into()]).is_err());
        assert!(parse_summaries(&["first-crossing=x".into()]).is_err());
    }
}
