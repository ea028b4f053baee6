//! `sitc sweep`: a parameter study, one CSV row per combination of the params' values.
//!
//! The sets are the Cartesian product of the `--param` axes (the first axis varies
//! slowest). Each set runs through `sit_runtime::sweep` on a clone of the interpreted
//! model, in parallel: its params and inputs are set, the model is reset, its states are
//! set, then it runs `round(t_end / dt)` steps of `dt`, exactly as `sitc run` does with
//! the same `--set` values, so the final values of a row are the last row of that run,
//! bit for bit (both print `f64` with `{}`).

use crate::fail::{Fail, exit};
use crate::params::{io_reason, parse_set};
use crate::run::{Timing, hint, record_list};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sit_runtime::Model;
use sit_runtime::sweep::{Collect, Sweep, grid, linspace};
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
    #[command(flatten)]
    pub timing: Timing,
    /// The variables to collect, comma-separated (default: the root model's outputs, or
    /// every variable when it declares none).
    #[arg(long, value_name = "NAMES")]
    pub record: Option<String>,
    /// What to collect of each recorded variable (repeatable, or comma-separated):
    /// `final` (the value at the end, column `x`, or `final(x)` for a swept `x`), `max`
    /// (`max(x)`), `min` (`min(x)`),
    /// `first-crossing=THRESH` (the time at the end of the first step after which `x` is
    /// on the other side of THRESH, NaN if never; column `crossing(x=THRESH)`).
    #[arg(long, value_name = "WHAT", default_value = "final")]
    pub summary: Vec<String>,
    /// The CSV file to write (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// One summary per recorded variable.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Summary {
    Final,
    Max,
    Min,
    Crossing(f64),
}

/// `sitc sweep`: exit 0, 1 (the model has errors) or 2 (usage, I/O).
pub fn sweep(args: SweepArgs) -> ExitCode {
    exit(try_sweep(args))
}

fn try_sweep(args: SweepArgs) -> Result<(), Fail> {
    let steps = args.timing.steps()?;
    let axes = (args.param.iter())
        .map(|a| parse_axis(a))
        .collect::<Result<Vec<_>, _>>()?;
    let fixed = (args.set.iter())
        .map(|a| parse_set(a))
        .collect::<Result<Vec<_>, _>>()?;
    let summaries = parse_summaries(&args.summary)?;
    let loaded = match sit_interp::load_file(&args.file, args.model.as_deref()) {
        Ok(l) => l,
        Err(e) if e.is_model_error() => return Err(Fail::Model(e.to_string())),
        Err(e) => return Err(Fail::Usage(e.to_string())),
    };
    if !loaded.warnings.is_empty() {
        eprint!("{}", loaded.warnings);
    }
    let model = loaded.instance;
    let mut seen: Vec<usize> = Vec::new();
    let mut index_axes = Vec::with_capacity(axes.len());
    for (name, values) in &axes {
        let i = settable(&model, name, "--param")?;
        if seen.contains(&i) {
            return Err(format!("--param {name}: given twice").into());
        }
        seen.push(i);
        index_axes.push((i, values.clone()));
    }
    let mut fixed_values = Vec::with_capacity(fixed.len());
    for (name, value) in &fixed {
        let i = settable(&model, name, "--set")?;
        if seen.contains(&i) {
            return Err(format!("--set {name}: already given").into());
        }
        fixed_values.push((i, *value));
    }
    let record = record_list(&model, args.record.as_deref())?;
    let mut sweep = Sweep::new(args.timing.dt, steps);
    let mut header: Vec<String> = axes.iter().map(|(n, _)| n.clone()).collect();
    for &r in &record {
        let name = model.var_info(r).map_or("?", |v| v.name);
        for s in &summaries {
            let (collect, column) = match *s {
                // A swept variable's own column holds its set value: `final(x)` then.
                Summary::Final if axes.iter().any(|(n, _)| n == name) => {
                    (Collect::Final(r), format!("final({name})"))
                }
                Summary::Final => (Collect::Final(r), name.to_string()),
                Summary::Max => (Collect::Max(r), format!("max({name})")),
                Summary::Min => (Collect::Min(r), format!("min({name})")),
                Summary::Crossing(threshold) => (
                    Collect::FirstCrossing { var: r, threshold },
                    format!("crossing({name}={threshold})"),
                ),
            };
            sweep = sweep.collect(collect);
            header.push(column);
        }
    }
    let mut sets = grid(&index_axes);
    for set in &mut sets {
        set.extend_from_slice(&fixed_values);
    }
    let bar = progress_bar(sets.len() as u64, steps);
    let done = || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    };
    let rows = sweep.run_with(&model, &sets, &done);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let rows = rows.map_err(|e| {
        let name_of = |i: usize| model.var_info(i).map_or("?", |v| v.name);
        let name = match e.error.var() {
            sit_runtime::Var::Index(i) => name_of(i),
            sit_runtime::Var::Name(n) => n,
        };
        let values: Vec<String> = (sets.get(e.set).map_or(&[][..], Vec::as_slice).iter())
            .map(|&(i, v)| format!("{}={v}", name_of(i)))
            .collect();
        format!("the run with {}: {}", values.join(" "), e.error.named(name))
    })?;
    let (out, shown): (Box<dyn Write>, String) = match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot write `{}`: {}", path.display(), io_reason(&e)))?;
            (Box::new(file), format!("`{}`", path.display()))
        }
        None => (Box::new(std::io::stdout().lock()), "the table".into()),
    };
    let mut out = BufWriter::new(out);
    match write_csv(&mut out, &header, &sets, index_axes.len(), &rows) {
        Ok(()) => Ok(()),
        // The reader went away (`sitc sweep ... | head`): stop quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write {shown}: {}", io_reason(&e)).into()),
    }
}

/// Index of the variable `name`, which must be settable.
fn settable(model: &sit_interp::Instance, name: &str, option: &str) -> Result<usize, String> {
    let i = model.var_index(name).ok_or_else(|| {
        format!(
            "{option} {name}: no variable named `{name}`{}",
            hint(model, name)
        )
    })?;
    if model.var_info(i).is_some_and(|v| v.settable) {
        return Ok(i);
    }
    // The model's own reason (a derived param is computed, a bound input is bound, ...).
    match model.clone().set_at(i, 0.0) {
        Err(e) => Err(format!("{option} {name}: {}", e.named(name))),
        Ok(()) => Ok(i),
    }
}

/// The header, then one row per set: its axis values, then its collected values.
fn write_csv(
    out: &mut dyn Write,
    header: &[String],
    sets: &[Vec<(usize, f64)>],
    axes: usize,
    rows: &[Vec<f64>],
) -> std::io::Result<()> {
    writeln!(out, "{}", header.join(","))?;
    for (set, row) in sets.iter().zip(rows) {
        let values = set[..axes]
            .iter()
            .map(|&(_, v)| v)
            .chain(row.iter().copied());
        for (k, v) in values.enumerate() {
            if k > 0 {
                out.write_all(b",")?;
            }
            write!(out, "{v}")?;
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

/// `NAME=LO..HI:N` or `NAME=V1,V2,...`.
fn parse_axis(arg: &str) -> Result<(String, Vec<f64>), String> {
    let Some((name, values)) = arg.split_once('=') else {
        return Err(format!(
            "--param `{arg}`: expected NAME=LO..HI:N or NAME=V1,V2,..."
        ));
    };
    let (name, values) = (name.trim(), values.trim());
    if name.is_empty() {
        return Err(format!("--param `{arg}`: the name is missing"));
    }
    if let Some((lo, rest)) = values.split_once("..") {
        let bad = || format!("--param {name}: `{values}` is not LO..HI:N (e.g. 0..1:11)");
        let (hi, n) = rest.split_once(':').ok_or_else(bad)?;
        let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
        let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(format!(
                "--param {name}: the ends of `{values}` must be finite"
            ));
        }
        if n == 0 {
            return Err(format!(
                "--param {name}: `{values}` has N = 0 values; N must be at least 1"
            ));
        }
        return Ok((name.to_string(), linspace(lo, hi, n)));
    }
    let list = values
        .split(',')
        .map(|v| {
            parse_value(v.trim())
                .ok_or_else(|| format!("--param {name}: `{}` is not a number", v.trim()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((name.to_string(), list))
}

/// A number (`f64` syntax), or `true`/`false` as 1/0, as `sitc run --set` reads them.
fn parse_value(text: &str) -> Option<f64> {
    match text {
        "true" => Some(1.0),
        "false" => Some(0.0),
        _ => text.parse().ok(),
    }
}

/// The `--summary` values, comma-separated or repeated, in order.
fn parse_summaries(args: &[String]) -> Result<Vec<Summary>, String> {
    let mut out = Vec::new();
    for item in args.iter().flat_map(|a| a.split(',')).map(str::trim) {
        let s = match item {
            "final" => Summary::Final,
            "max" => Summary::Max,
            "min" => Summary::Min,
            _ => match item.strip_prefix("first-crossing=") {
                Some(t) => match t.trim().parse::<f64>() {
                    Ok(t) if !t.is_nan() => Summary::Crossing(t),
                    _ => return Err(format!("--summary {item}: `{t}` is not a number")),
                },
                None => {
                    return Err(format!(
                        "--summary `{item}`: expected final, max, min or first-crossing=THRESH"
                    ));
                }
            },
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes() {
        assert_eq!(
            parse_axis("mu=0..1:5"),
            Ok(("mu".into(), vec![0.0, 0.25, 0.5, 0.75, 1.0]))
        );
        assert_eq!(parse_axis("k = -1..1:1"), Ok(("k".into(), vec![-1.0])));
        assert_eq!(
            parse_axis("q=true,false,2.5"),
            Ok(("q".into(), vec![1.0, 0.0, 2.5]))
        );
        assert_eq!(
            parse_axis("mu=0..1:0").unwrap_err(),
            "--param mu: `0..1:0` has N = 0 values; N must be at least 1"
        );
        assert_eq!(
            parse_axis("mu=0..1").unwrap_err(),
            "--param mu: `0..1` is not LO..HI:N (e.g. 0..1:11)"
        );
        assert!(parse_axis("mu=0..x:3").is_err());
        assert!(parse_axis("mu=0..1:-2").is_err());
        assert!(parse_axis("mu=0..inf:2").is_err());
        assert_eq!(
            parse_axis("mu=1,,2").unwrap_err(),
            "--param mu: `` is not a number"
        );
        assert!(parse_axis("mu").is_err());
        assert!(parse_axis("=1").is_err());
    }

    #[test]
    fn summaries() {
        let args = [
            "final,max".to_string(),
            "first-crossing=-0.5".into(),
            "max".into(),
        ];
        assert_eq!(
            parse_summaries(&args),
            Ok(vec![Summary::Final, Summary::Max, Summary::Crossing(-0.5)])
        );
        assert!(parse_summaries(&["avg".into()]).is_err());
        assert!(parse_summaries(&["first-crossing=x".into()]).is_err());
    }
}
