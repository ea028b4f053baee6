//! `sitc run`: simulate a model with the interpreter and write its CSV trace.
//!
//! The run is fixed-step forward Euler as the model's rules define it: `t_end / dt`
//! steps of exactly `dt` (see `Timing::steps`), so the time of a row is the model's clock after the
//! steps before it: the double nearest to `k·dt` (see `sit_runtime::Clock`).

use crate::fail::{Fail, exit};
use crate::finite::Finite;
use crate::input::load_inputs;
use crate::params::{io_reason, parse_set, read_params};
use crate::plot::{self, Trace};
use crate::progress::{CHUNK, Progress};
use sit_host::values::SetProblem;
use sit_interp::replay::BLOWUP;
use sit_interp::replay::Checkpoint;
use sit_runtime::accuracy::{Doubling, GROWTH, Growth, Voice};
use sit_runtime::drive::Driven;
use sit_runtime::finite::{NonFiniteSeen, Watch};
use sit_runtime::trace::Recorder;
use sit_runtime::{Model, ValueType, VarKind};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The step and the end time, shared by `run` and `sweep`.
#[derive(clap::Args)]
pub struct Timing {
    /// The step, > 0.
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true)]
    pub dt: f64,
    /// The end time: a run has T / DT steps; when T is not a whole number of steps
    /// (within 1e-9 of a step), the steps that fit in T, with a warning.
    #[arg(
        long = "t-end",
        value_name = "T",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    pub t_end: f64,
    /// `--method`, `--rtol`, `--atol`.
    #[command(flatten)]
    pub method: crate::method::MethodArgs,
}

impl Timing {
    /// The integration method asked for with `--method`, if any, with its tolerances.
    pub fn method(&self) -> Result<Option<sit_middle::ir::Method>, Fail> {
        self.method.method().map_err(Fail::Usage)
    }

    /// The number of steps: T / DT when that is a whole number (within 1e-9 of a step,
    /// for the rounding of decimal steps), else the whole steps that fit in T (never
    /// past T), with the checks of both. [`Timing::warning`] says when T is not a whole
    /// number of steps.
    pub fn steps(&self) -> Result<u64, String> {
        use sit_runtime::drive::StepsError;
        let (dt, t_end) = (self.dt, self.t_end);
        sit_runtime::drive::steps(dt, t_end).map_err(|e| match e {
            StepsError::Dt(_) => format!("--dt must be a finite number > 0, not {dt}"),
            StepsError::TEnd(_) => format!("--t-end must be a finite number >= 0, not {t_end}"),
            StepsError::TooMany { .. } => {
                format!("--t-end {t_end} with --dt {dt} is too many steps")
            }
        })
    }

    /// round(T / DT) if T / DT is within 1e-9 (relative, at least 1e-9 absolute) of it.
    fn whole_steps(&self) -> Option<f64> {
        sit_runtime::drive::whole_steps(self.dt, self.t_end)
    }

    /// The warning for a T that is not a whole number of steps of DT: what will be
    /// simulated and the T of one step more. `None` when it is, or when `steps` fails.
    pub fn warning(&self) -> Option<String> {
        let steps = self.steps().ok()?;
        if self.whole_steps().is_some() {
            return None;
        }
        let s = |n: u64| if n == 1 { "" } else { "s" };
        Some(format!(
            "warning: --t-end {} is not a multiple of --dt {}: simulating {steps} step{} \
             to t = {}; use --t-end {} for {} step{}",
            self.t_end,
            self.dt,
            s(steps),
            decimal(steps as f64 * self.dt),
            decimal((steps + 1) as f64 * self.dt),
            steps + 1,
            s(steps + 1),
        ))
    }
}

/// `x` to 12 significant digits, shortest form (`0.9`, not `0.8999999999999999`).
fn decimal(x: f64) -> f64 {
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// The arguments of `sitc run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The `.sit` file.
    pub file: PathBuf,
    /// The model to run (default: the one model of the file that no other model
    /// instantiates).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    #[command(flatten)]
    pub timing: Timing,
    /// Set a param, input, state or `NAME.on` by its dotted path (repeatable). Params
    /// and inputs are set first, then the model is reset (so param bindings, derived
    /// params and initial values follow them), then states are set.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Drive an input from a time series (repeatable): a CSV file with a header row,
    /// the time in the first column and the values in COLUMN (default: the second).
    /// Linear between rows, held beyond the first and last rows; a flag input's column
    /// holds 0 or 1, each held until the next row. The input holds the value at the
    /// model's time from reset and after each step, so each step runs with the value at
    /// its start time.
    #[arg(long = "input", value_name = "NAME=FILE.csv[:COLUMN]")]
    pub input: Vec<String>,
    /// A TOML file of `name = value` (nested tables for submodels), applied before
    /// `--set` and in the same way.
    #[arg(long, value_name = "FILE.toml")]
    pub params: Option<PathBuf>,
    /// The variables to record, comma-separated, or `all` (default: the root model's
    /// outputs, or every variable when it declares none). Globs select by name: `pi.*`,
    /// `*.on`, `x?` (`*` any characters, `?` one).
    #[arg(long, value_name = "NAMES")]
    pub record: Option<String>,
    /// Write a row every N steps (and one at t = 0, and one at the end: the row of the
    /// last step is always written).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// The CSV file to write (default, or `-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also draw the recorded variables into this SVG file (`-`: standard output, with
    /// the trace in `-o FILE`; with `--events` or `--explain`, each change of the log is
    /// marked on its variable's strip).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write each variable's unit in the header after its name, `t [s],h [m],v [m/s]`
    /// (declared or inferred by the unit check; a column without a known unit is its
    /// name alone). `sitc plot` reads such a header and labels its axes with the units.
    #[arg(long)]
    pub units: bool,
    /// Test every value stored as the run goes, the stage values of an integration
    /// method included, and stop at the first that is not finite (exit 1). Without it a
    /// run stops at the first step after which a variable is not finite, and names the
    /// rule the same way.
    #[arg(long = "check-finite", conflicts_with = "allow_non_finite")]
    pub check_finite: bool,
    /// Run on past NaN and infinite values (for a model that means a value to be
    /// infinite), with one warning at the end naming the first, exit 0.
    #[arg(long = "allow-non-finite")]
    pub allow_non_finite: bool,
    /// Also integrate the forward sensitivities of the model's real states with respect
    /// to these free params (or states, for their initial values), comma-separated: a
    /// column `d(x)/d(k)` beside each recorded `x` (`docs/sensitivities.md`).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub sensitivities: Vec<String>,
    #[command(flatten)]
    pub warnings: crate::quiet::Warnings,
    #[command(flatten)]
    pub events: crate::events::EventArgs,
}

/// `sitc run`: simulates a model with the interpreter and writes its CSV trace (exit 0;
/// 1: the model has errors; 2: usage or I/O).
pub fn run(args: RunArgs) -> ExitCode {
    exit(try_run(args))
}

fn try_run(mut args: RunArgs) -> Result<(), Fail> {
    one_on_stdout(&args)?;
    let steps = args.timing.steps()?;
    if let Some(warning) = args.timing.warning()
        && !args.warnings.quiet
    {
        eprintln!("{warning}");
    }
    let mut values = match &args.params {
        Some(path) => read_params(path)?
            .into_iter()
            .map(|(n, v)| (n, v, path.display().to_string()))
            .collect(),
        None => Vec::new(),
    };
    for arg in &args.set {
        let (name, value) = parse_set(arg)?;
        values.push((name, value, "--set".to_string()));
    }
    let method = args.timing.method()?;
    let (file, root) = (&args.file, args.model.as_deref());
    let opts = sit_driver::Options {
        method,
        events: args.events.wanted(),
        sensitivities: (!args.sensitivities.is_empty()).then(|| sit_driver::Sensitivities {
            model: args.model.clone(),
            wrt: args.sensitivities.clone(),
        }),
        ..Default::default()
    };
    let loaded = sit_host::load_file_options(file, root, &opts);
    let (loaded, table) = match loaded {
        Ok(l) => l,
        // The interpreter's own errors are one line, not rendered diagnostics.
        Err(sit_host::LoadError::Interp(e)) => return Err(Fail::Model(format!("error: {e}\n"))),
        Err(e) if e.is_model_error() => return Err(Fail::Model(e.to_string())),
        Err(e) => return Err(Fail::Usage(e.to_string())),
    };
    args.warnings.print(&loaded.warnings);
    // A model that says `#[allow(non_finite, …)]` runs as with --allow-non-finite
    // (unless --check-finite asks for the checked run).
    args.allow_non_finite |= loaded.instance.allows_non_finite() && !args.check_finite;
    // What each column is as of, for the plot.
    let row_words = (args.plot.as_ref())
        .map(|_| crate::rowtime::words(loaded.lowered.unrewritten(), loaded.root));
    // The units of the variables, for the header (`--units`) and the plot's labels.
    let units = (args.units || args.plot.is_some()).then(|| {
        let program = loaded.lowered.unrewritten();
        crate::units::by_index(program, loaded.root, &loaded.instance)
    });
    let mut log = match table {
        Some(table) => Some(crate::events::Log::open(
            &args.events,
            table,
            &loaded.instance,
        )?),
        None => None,
    };
    let input_units = crate::units::for_inputs(&loaded, units.as_deref(), &args.input);
    let inputs = load_inputs(&loaded.instance, &args.input, &input_units)?;
    let mut model = Driven::new(loaded.instance, inputs);
    let finite = Finite::of(args.check_finite, args.allow_non_finite);
    apply(&mut model, &values, finite.checks_start())?;
    if finite.checks_start() {
        model
            .model
            .check_values()
            .map_err(|f| non_finite(f, finite))?;
    }
    // The error of fixed steps, estimated on copies of the model (sit_runtime::accuracy).
    let mut watchers = Watchers {
        doubling: Doubling::new(
            sit_middle::ir::fixed_step_states(loaded.lowered.unrewritten(), loaded.root),
            &model,
            model.clone(),
            args.timing.dt,
            steps,
        ),
        blowup: None,
        grew: None,
        // The first non-finite value seen after a step: it stops the run (the
        // default), or with `--allow-non-finite` it is reported once at the end.
        non_finite: Watch::new(),
    };
    let mut record = record_list(&model.model, args.record.as_deref())?;
    // The sensitivities of each recorded variable beside it (the outputs' already are).
    record = sit_host::names::with_sensitivities(&model.model, &record, &args.sensitivities);
    if let Some(log) = &log {
        record.retain(|&i| !log.hides(i));
    }
    let recorder = Recorder::new(&model, &record).map_err(|e| e.to_string())?;
    let mut trace = args.plot.as_ref().map(|_| {
        let info = |i: usize| model.var_info(i);
        let mut trace = Trace::new(
            model.model.model_name().to_string(),
            record
                .iter()
                .map(|&i| info(i).map_or_else(String::new, |v| v.name.into()))
                .collect(),
            record
                .iter()
                .map(|&i| info(i).is_some_and(|v| v.ty == ValueType::Logical))
                .collect(),
        );
        trace.name_modes(&model, &record);
        if let Some(units) = &units {
            trace.set_units(record.iter().map(|&i| units.get(i).cloned().flatten()));
        }
        if let Some(words) = &row_words {
            trace.row_times(words);
        }
        trace
    });
    if let (Some(log), Some(_)) = (log.as_mut(), &trace) {
        log.keep_for_plot();
    }
    let explains = log.as_ref().is_some_and(|l| l.explains());
    let (out, shown): (Box<dyn Write>, String) = match crate::out::file(args.output.as_deref()) {
        None if explains => (Box::new(std::io::sink()), "the trace".into()),
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot write `{}`: {}", path.display(), io_reason(&e)))?;
            (Box::new(file), format!("`{}`", path.display()))
        }
        None => (Box::new(std::io::stdout().lock()), "the trace".into()),
    };
    let mut out = BufWriter::new(out);
    let run = Run {
        dt: args.timing.dt,
        steps,
        every: args.every,
        finite,
        units: units.filter(|_| args.units),
    };
    // A fault of the model (a phase past its limit, ...) stops the step with a panic
    // (the step has no error path): reported as the model's error, with the rows
    // before it.
    // A run stopped by the bound of internal steps says what it reached inside the host
    // step (issue 47, item 7).
    let written = sit_runtime::catch_fault(|| {
        simulate(
            &mut model,
            &recorder,
            &run,
            &mut out,
            trace.as_mut(),
            log.as_mut(),
            &mut watchers,
        )
    })
    .map_err(|fault| {
        let _ = out.flush();
        let reached = sit_host::faults::reached_in_step(&model, &fault)
            .map(|r| format!("  = note: {r}\n"))
            .unwrap_or_default();
        Fail::Model(format!("error: {fault}\n{reached}"))
    })?;
    if !args.warnings.quiet {
        if let Some(seen) = watchers.non_finite.seen()
            && finite == Finite::Allow
        {
            eprintln!("{}", non_finite_warning(&model.model, seen));
        }
        if let Some((g, time)) = watchers.grew {
            let name = model.var_info(g.index).map_or("?", |v| v.name);
            eprintln!(
                "warning: `{name}` grew from {} to {} in the step to t = {time}, by more than \
                 {GROWTH:e} times: a probable instability; rerun without --allow-non-finite to \
                 stop at the rule that made it",
                g.from, g.to
            );
        }
        if let Some((index, value, time)) = watchers.blowup {
            let name = model.var_info(index).map_or("?", |v| v.name);
            eprintln!(
                "warning: `{name}` reached {value:e} at t = {time}, past {BLOWUP:e}: a \
                 probable instability; rerun without --allow-non-finite to stop at the rule \
                 that made it"
            );
        }
        // The estimated error of the fixed steps, once, for a run that finished.
        if let (Some(d), Ok(None)) = (&watchers.doubling, &written)
            && let Some(finding) = d.finding(&model)
        {
            eprintln!(
                "{}",
                finding.warning(args.timing.dt, model.time(), Voice::Cli)
            );
        }
        // Each table read past its grid (with `clamp`) or more than one grid span past
        // it (with `extrapolate`), once, after the run (issue 28, item 7).
        for warning in model.model.table_warnings() {
            eprintln!("warning: {warning}");
        }
        // A model whose adaptive explicit method found it stiff (Hairer's test), once.
        for stiff in sit_runtime::stiffness(&model.model, model.model.model_name()) {
            eprintln!("warning: {stiff}");
        }
    }
    match written {
        Ok(None) => {}
        Ok(Some(Stop::NonFinite(fault))) => return Err(non_finite(fault, finite)),
        Ok(Some(Stop::Blowup(fault))) => return Err(blowup(fault, None, finite)),
        Ok(Some(Stop::Grew(fault, g))) => return Err(blowup(fault, Some(g), finite)),
        // The reader went away (`sitc run ... | head`): stop quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(format!("cannot write {shown}: {}", io_reason(&e)).into()),
    }
    if let (Some(path), Some(trace)) = (&args.plot, &mut trace) {
        if let Some(log) = log.as_mut() {
            log.mark(trace);
        }
        plot::write_svg(trace, path)?;
    }
    if let Some(log) = log {
        log.close(&mut std::io::stdout().lock())?;
    }
    Ok(())
}

/// Checks that at most one of the trace, the plot (`--plot -`), the account of
/// `--explain` and the event log (`--events -`) goes to standard output: the trace does unless `-o FILE` is given (or
/// `--explain`, whose account replaces it there; then `-o -` puts it back).
fn one_on_stdout(args: &RunArgs) -> Result<(), Fail> {
    let is_stdout = |p: &Option<PathBuf>| p.as_deref().is_some_and(crate::out::is_stdout);
    let explains = args.events.explain.is_some();
    let trace = if explains {
        is_stdout(&args.output)
    } else {
        crate::out::file(args.output.as_deref()).is_none()
    };
    let on_stdout: Vec<&str> = [
        (trace, "the trace"),
        (is_stdout(&args.plot), "the plot (`--plot -`)"),
        (explains, "the account of `--explain`"),
        (
            is_stdout(&args.events.events),
            "the event log (`--events -`)",
        ),
    ]
    .into_iter()
    .filter_map(|(on, what)| on.then_some(what))
    .collect();
    if let [before @ .., last] = &on_stdout[..]
        && !before.is_empty()
    {
        let (all, them) = if before.len() == 1 {
            ("both", "one of them to a file")
        } else {
            ("all", "all but one to files")
        };
        return Err(Fail::Usage(format!(
            "{} and {last} cannot {all} go to standard output; write {them} (`-o \
             FILE.csv`, `--plot FILE.svg`, `--events LOG.csv`)",
            before.join(", ")
        )));
    }
    Ok(())
}

/// The warning at the end of a run with `--allow-non-finite` that met a non-finite
/// value (in the words of `sit_runtime::finite`, shared by every host). A warning, not
/// an error (exit 0): the model may mean a value to be infinite.
fn non_finite_warning(model: &sit_interp::Instance, seen: &NonFiniteSeen) -> String {
    let name = model.var_info(seen.index).map_or("?", |v| v.name);
    let rerun = if model.allows_non_finite() {
        "the model allows such values (#[allow(non_finite)]); --check-finite stops at the \
         rule that made it"
    } else {
        "rerun without --allow-non-finite to stop at the rule that made it"
    };
    format!(
        "warning: {}; the rows after it may hold non-finite values; {rerun}",
        seen.describe(name)
    )
}

/// The error of a run that met a non-finite value (exit 1): the rule, the variable,
/// the time and the values read; in the default mode, how to run on past it.
fn non_finite(fault: sit_interp::NonFinite, finite: Finite) -> Fail {
    let help = match finite {
        Finite::Stop => {
            "\n  = help: a NaN or an infinity stops the run; if the model means a value to \
             be infinite, --allow-non-finite runs on past it\n"
        }
        Finite::Check | Finite::Allow => "\n",
    };
    Fail::Model(format!("error: {fault}{help}"))
}

/// The error of a run in which a value reached [`BLOWUP`], or a continuous state grew by
/// [`GROWTH`] in one step (`grew`) (exit 1): the rule that first stored such a value, and
/// what to do.
fn blowup(fault: sit_interp::NonFinite, grew: Option<Growth>, finite: Finite) -> Fail {
    let allow = match finite {
        Finite::Stop | Finite::Allow => {
            "; if the model means such values, --allow-non-finite runs on past them"
        }
        Finite::Check => "",
    };
    let (what, cause) = match grew {
        None => (format!("a value past {BLOWUP:e}"), ""),
        Some(g) => (
            format!(
                "a continuous state that grows by {GROWTH:e} times in one step (here from {} to {})",
                g.from, g.to
            ),
            ", or a pole of a rate stepped over",
        ),
    };
    Fail::Model(format!(
        "error: probable instability: {fault}\n  = help: {what} is taken for a numerical \
         instability (a step too long for the model's fastest time scale{cause}): `method \
         dopri5;` in the model (or --method dopri5; `rodas5p` for a stiff model), or a smaller \
         --dt{allow}\n"
    ))
}

/// Why a run stopped before its end.
enum Stop {
    /// A value that is not finite, with the rule that made it.
    NonFinite(sit_interp::NonFinite),
    /// A value past [`BLOWUP`], with the rule that first stored one.
    Blowup(sit_interp::NonFinite),
    /// A continuous state that grew by [`GROWTH`] in one step, with the rule that stored
    /// the first value past that growth's bound in that step.
    Grew(sit_interp::NonFinite, Growth),
}

/// What a run watches: the error of its fixed steps, values past [`BLOWUP`] (the first,
/// under `--allow-non-finite`: index, value, time), a state that grew by [`GROWTH`] in
/// one step (the first, under `--allow-non-finite`, and the time after it) and the first
/// non-finite value.
struct Watchers {
    doubling: Option<Doubling<Driven<sit_interp::Instance>>>,
    blowup: Option<(usize, f64, f64)>,
    grew: Option<(Growth, f64)>,
    non_finite: Watch,
}

/// Sets the values: params and inputs, then reset (checked with `check_finite`), then
/// the rest (states, `on`).
fn apply(
    model: &mut Driven<sit_interp::Instance>,
    values: &[(String, f64, String)],
    check_finite: bool,
) -> Result<(), Fail> {
    let non_finite = |f| non_finite(f, Finite::Check);
    let mut resolved = Vec::with_capacity(values.len());
    for (name, value, source) in values {
        let index = sit_host::values::target(model, name).map_err(|p| match p {
            SetProblem::Driven => format!("{source}: `{name}` is driven by --input"),
            p => format!("{source}: {p}"),
        })?;
        resolved.push((index, *value, source));
    }
    let first = |i: usize| {
        model
            .var_info(i)
            .is_some_and(|v| matches!(v.kind, VarKind::Param | VarKind::Input))
    };
    let (early, late): (Vec<_>, Vec<_>) = resolved.into_iter().partition(|&(i, ..)| first(i));
    let set = |model: &mut Driven<sit_interp::Instance>, (i, v, source): (usize, f64, &String)| {
        model.set_at(i, v).map_err(|e| {
            let name = model.var_info(i).map_or("?", |v| v.name);
            format!("{source}: {}", e.named(name))
        })
    };
    for x in early {
        set(model, x)?;
    }
    if check_finite {
        model.model.reset_checked().map_err(non_finite)?;
        model.drive();
    } else {
        model.reset();
    }
    for x in late {
        set(model, x)?;
    }
    Ok(())
}

/// The names of `--record NAMES`, a comma-separated list of names and glob patterns (`*`
/// any characters, dots included; `?` one character) or `all`, as
/// `sit_host::names::record_list` reads them; `None` for the outputs.
pub(crate) fn record_names(record: Option<&str>) -> Result<Option<Vec<&str>>, String> {
    let Some(list) = record else { return Ok(None) };
    let names: Vec<&str> = list.split(',').map(str::trim).collect();
    if names.iter().any(|n| n.is_empty()) {
        return Err(format!("--record `{}`: empty name", list.trim()));
    }
    Ok(Some(names))
}

/// The indices to record of `--record NAMES` (see [`record_names`]).
fn record_list(model: &sit_interp::Instance, record: Option<&str>) -> Result<Vec<usize>, String> {
    let names = record_names(record)?;
    sit_host::names::record_list(model, names.as_deref()).map_err(|e| format!("--record: {e}"))
}

/// How to run: the step, the number of steps, the row interval, what to do with a
/// non-finite value and the units of the header (by variable index; `None`: a header of
/// names).
struct Run {
    dt: f64,
    steps: u64,
    every: u64,
    finite: Finite,
    units: Option<Vec<Option<String>>>,
}

/// Runs the steps, writing the initial row, every `every`-th row and the last step's
/// row (the end time's, also when `every` does not divide the steps) to `out` (and
/// into `trace` if any). Unless non-finite values are allowed, stops at the first one
/// and returns it (the rows before its step are written); when they are, the first is
/// kept in `watchers`.
fn simulate(
    model: &mut Driven<sit_interp::Instance>,
    recorder: &Recorder,
    run: &Run,
    out: &mut dyn Write,
    mut trace: Option<&mut Trace>,
    mut log: Option<&mut crate::events::Log>,
    watchers: &mut Watchers,
) -> std::io::Result<Option<Stop>> {
    let Run {
        dt,
        steps,
        every,
        finite,
        ref units,
    } = *run;
    let check_finite = finite == Finite::Check;
    let keep = |model: &Driven<sit_interp::Instance>, trace: &mut Option<&mut Trace>| {
        if let Some(trace) = trace {
            let values = recorder
                .indices()
                .map(|i| model.get_at(i).unwrap_or(f64::NAN));
            trace.push(model.time(), values);
        }
    };
    // Until one is seen, every variable is checked after each step (unchecked runs only).
    if !check_finite {
        watchers.non_finite.look(&model.model, None);
    }
    // The copies that the rule of a non-finite value (the default) or of a value past
    // BLOWUP is found from.
    let mut checkpoint = (finite != Finite::Allow).then(|| Checkpoint::start(model));
    match units {
        Some(units) => {
            let unit = |i: usize| units.get(i).and_then(Option::as_deref);
            recorder.write_header_with_units(model, &unit, out)?
        }
        None => recorder.write_header(model, out)?,
    }
    recorder.write_row(model, out)?;
    keep(model, &mut trace);
    let progress = Progress::new(steps);
    if let Some(d) = watchers.doubling.as_mut() {
        d.grown(0, model);
        d.after(0, model, || model.clone());
    }
    for k in 1..=steps {
        if let Some(log) = log.as_deref_mut() {
            log.start(&mut model.model);
        }
        if check_finite {
            model.enter_step(dt);
            if let Err(fault) = model.model.step_checked(dt) {
                progress.finish();
                out.flush()?;
                return Ok(Some(Stop::NonFinite(fault)));
            }
            model.drive();
            if let Some(c) = checkpoint.as_mut() {
                c.after(k, model);
            }
        } else {
            let from = model.time();
            model.step(dt);
            let seen = watchers.non_finite.look(&model.model, Some(from));
            // The default: the step that made it is taken again, checked (crate::finite).
            if seen && let (Some(c), Some(seen)) = (checkpoint.take(), watchers.non_finite.seen()) {
                progress.finish();
                out.flush()?;
                return Ok(Some(Stop::NonFinite(c.locate(k, dt, seen))));
            }
            if let Some(c) = checkpoint.as_mut() {
                c.after(k, model);
            }
        }
        if let Some(log) = log.as_deref_mut() {
            log.finish(&model.model).map_err(std::io::Error::other)?;
        }
        if let Some(d) = watchers.doubling.as_mut() {
            // A continuous state that grew by GROWTH in this step: a probable
            // instability, which stops the run as a value past BLOWUP does. Looked at
            // when every step has its row (the default), whose writing costs far more
            // than the reads (per step alone they cost a third of a fast model's step).
            if every == 1
                && watchers.grew.is_none()
                && let Some(g) = d.grown(k, model)
            {
                match checkpoint.take() {
                    Some(c) => {
                        progress.finish();
                        out.flush()?;
                        let fault = c.locate_in_step(k, dt, g.bound()).unwrap_or_else(|| {
                            sit_interp::NonFinite {
                                var: model.var_info(g.index).map_or("?", |v| v.name).to_string(),
                                value: g.to,
                                time: model.time(),
                                origin: None,
                                reads: Box::default(),
                            }
                        });
                        return Ok(Some(Stop::Grew(fault, g)));
                    }
                    None => watchers.grew = Some((g, model.time())),
                }
            }
            d.after(k, model, || model.clone());
        }
        if k % every == 0 || k == steps {
            // A value past BLOWUP: a probable instability, which stops the run as a
            // non-finite value does, before its row (the first is kept under
            // --allow-non-finite).
            if watchers.blowup.is_none()
                && let Some((index, value)) = model.model.first_beyond(BLOWUP)
                && value.is_finite()
            {
                match checkpoint.take() {
                    Some(c) => {
                        progress.finish();
                        out.flush()?;
                        let fault = c.locate_beyond(k, dt, BLOWUP).unwrap_or_else(|| {
                            sit_interp::NonFinite {
                                var: model.var_info(index).map_or("?", |v| v.name).to_string(),
                                value,
                                time: model.time(),
                                origin: None,
                                reads: Box::default(),
                            }
                        });
                        return Ok(Some(Stop::Blowup(fault)));
                    }
                    None => watchers.blowup = Some((index, value, model.time())),
                }
            }
            recorder.write_row(model, out)?;
            keep(model, &mut trace);
        }
        if k % CHUNK == 0 {
            progress.set(k);
        }
    }
    progress.finish();
    out.flush()?;
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::Timing;

    fn step_count(dt: f64, t_end: f64) -> Result<u64, String> {
        Timing {
            dt,
            t_end,
            method: Default::default(),
        }
        .steps()
    }

    #[test]
    fn steps_round_the_ratio() {
        assert_eq!(step_count(1e-4, 10.0), Ok(100_000));
        assert_eq!(step_count(0.01, 0.0), Ok(0));
        assert_eq!(step_count(0.3, 1.0), Ok(3));
        assert_eq!(step_count(0.4, 1.0), Ok(2)); // never past T
        assert_eq!(step_count(0.3, 0.1), Ok(0));
        // 0.3 / 0.1 = 2.9999999999999996: a whole number of steps, rounded.
        assert_eq!(step_count(0.1, 0.3), Ok(3));
        assert_eq!(step_count(1e-4, 5.0), Ok(50_000));
        assert!(step_count(0.0, 1.0).is_err());
        assert!(step_count(-0.1, 1.0).is_err());
        assert!(step_count(f64::NAN, 1.0).is_err());
        assert!(step_count(0.1, f64::INFINITY).is_err());
        assert!(step_count(0.1, -1.0).is_err());
        assert!(step_count(1e-300, 1e10).is_err());
    }

    #[test]
    fn a_partial_last_step_is_reported() {
        let warning = |dt, t_end| {
            Timing {
                dt,
                t_end,
                method: Default::default(),
            }
            .warning()
        };
        assert_eq!(
            warning(0.3, 1.0).as_deref(),
            Some(
                "warning: --t-end 1 is not a multiple of --dt 0.3: simulating 3 steps to \
                 t = 0.9; use --t-end 1.2 for 4 steps"
            )
        );
        assert_eq!(
            warning(0.4, 0.3).as_deref(),
            Some(
                "warning: --t-end 0.3 is not a multiple of --dt 0.4: simulating 0 steps to \
                 t = 0; use --t-end 0.4 for 1 step"
            )
        );
        assert_eq!(warning(0.1, 0.3), None);
        assert_eq!(warning(1e-4, 10.0), None);
        assert_eq!(warning(0.01, 0.0), None);
        assert_eq!(warning(0.0, 1.0), None);
        // Within 1e-9 of a step: whole; beyond: reported.
        assert_eq!(warning(0.5, 2.0 + 1e-10), None);
        assert!(warning(0.5, 2.0 + 1e-8).is_some());
    }
}
