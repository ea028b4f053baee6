//! `--input NAME=DATA.csv[:COLUMN]`: inputs driven by time series read from CSV files.
//!
//! The file has a header row of names (lines starting with `#` before or between rows are
//! comments); the first column is the time, COLUMN (by name, default the second column)
//! the values. The series is sampled by
//! `sit_runtime::signal` (linear between rows, held beyond the ends, a time given twice
//! is a jump); a flag input's column holds 0 or 1, each held until the next row's time.
//! A `sit_runtime::drive::Driven` model (shared with `sitc sweep` and the Python
//! package) sets each driven input to the series' value at the model's time whenever
//! that time changes (at reset and after each step), so step k+1 runs with `u(t_k)`, the
//! value at its start time, and the row written at `t_k` shows `u(t_k)`: exactly what a
//! Rust program does with `model.set("u", sig.sample(model.time()))` before each `step`.

use crate::params::io_reason;
use sit_host::inputs::{InputProblem, drivable};
use sit_middle::suggest::did_you_mean;
use sit_runtime::Model;
use sit_runtime::drive::Input;
use sit_runtime::signal::{OwnedSignal, SignalError};
use std::path::{Path, PathBuf};

/// One `--input` argument: the input's name, the file and the column (None: the second).
#[derive(Clone, Debug, PartialEq)]
pub struct InputArg {
    /// The input's dotted name.
    pub name: String,
    /// The CSV file.
    pub path: PathBuf,
    /// The column's name, if given.
    pub column: Option<String>,
}

/// Parses `NAME=FILE[:COLUMN]`. A `:` splits off the column unless the whole text names
/// an existing file.
pub fn parse_input(arg: &str) -> Result<InputArg, String> {
    let Some((name, spec)) = arg.split_once('=') else {
        return Err(format!("--input `{arg}`: expected NAME=FILE.csv[:COLUMN]"));
    };
    let (name, spec) = (name.trim(), spec.trim());
    if name.is_empty() {
        return Err(format!("--input `{arg}`: the input's name is missing"));
    }
    let (path, column) = match spec.rsplit_once(':') {
        Some((path, column)) if !Path::new(spec).exists() => (path, Some(column.trim())),
        _ => (spec, None),
    };
    if path.is_empty() {
        return Err(format!("--input {name}: the file name is missing"));
    }
    if column == Some("") {
        return Err(format!(
            "--input {name}: the column name after `:` is missing"
        ));
    }
    Ok(InputArg {
        name: name.to_string(),
        path: PathBuf::from(path),
        column: column.map(str::to_string),
    })
}

/// A header cell's name without the unit that follows it: `h` of `h [m]`.
fn without_unit(cell: &str) -> &str {
    split_unit(cell).0
}

/// A header cell's name and the unit written after it: (`h`, `Some("m")`) of `h [m]`.
fn split_unit(cell: &str) -> (&str, Option<&str>) {
    match cell.strip_suffix(']').and_then(|c| c.rsplit_once('[')) {
        Some((name, unit)) if !name.trim_end().is_empty() => (name.trim_end(), Some(unit.trim())),
        _ => (cell, None),
    }
}

/// A series read from a CSV file: the signal, the file's line of each row, and the
/// units its header writes after the time column's and the value column's names.
pub struct Series {
    /// The time column and the value column, checked.
    pub signal: OwnedSignal,
    /// The file's line of each row (for messages).
    pub lines: Vec<u64>,
    /// The header's line.
    pub header_line: u64,
    /// The unit after the time column's name (`t [s]`), if written.
    pub time_unit: Option<String>,
    /// The value column's name in the header, without its unit.
    pub column: String,
    /// The unit after the value column's name (`F [N]`), if written.
    pub value_unit: Option<String>,
}

/// The time column's unit, if written, against Sit's clock, which counts seconds: an
/// error where it is no time or a time at another scale (`t [min]`), with the factor.
fn check_time_unit(path: &Path, line: u64, unit: &str) -> Result<(), String> {
    let shown = path.display();
    let u = sit_middle::units::parse_unit(unit).map_err(|e| {
        format!(
            "{shown}:{line}: the time column's unit `{unit}`: {}",
            e.message
        )
    })?;
    let s = sit_middle::units::parse_unit("s").expect("`s` is a unit");
    match u.factor_to(&s) {
        Some(1.0) => Ok(()),
        Some(f) => Err(format!(
            "{shown}:{line}: the time column is in `{unit}`, and the model's time is in \
             seconds (1 {unit} = {f} s); write the times in seconds (each times {f}) and \
             the header `[s]`"
        )),
        None => Err(format!(
            "{shown}:{line}: the time column's unit `{unit}` is no time; the first column \
             is the time, in seconds (`t [s]`)"
        )),
    }
}

/// The value column's unit, if written, against the input's (`declared`, as the unit
/// check shows it, if known): an error where they differ, with the factor when only
/// the scale does (`kN` against `N`). Sit never converts: the values are used as written.
fn check_value_unit(
    path: &Path,
    line: u64,
    name: &str,
    column: &str,
    unit: &str,
    declared: Option<&str>,
) -> Result<(), String> {
    let shown = path.display();
    let u = sit_middle::units::parse_unit(unit).map_err(|e| {
        format!(
            "{shown}:{line}: column `{column}`'s unit `{unit}`: {}",
            e.message
        )
    })?;
    let Some(declared) = declared else {
        return Ok(());
    };
    let Ok(d) = sit_middle::units::parse_unit(declared) else {
        return Ok(());
    };
    if sit_middle::units::solve::same(&u, &d) {
        return Ok(());
    }
    Err(match u.factor_to(&d) {
        Some(f) => format!(
            "{shown}:{line}: column `{column}` is in `{unit}`, and the input `{name}` in \
             `{declared}` (1 {unit} = {f} {declared}); Sit does not convert: write the \
             values in `{declared}` (each times {f}) and the header `[{declared}]`"
        ),
        None => format!(
            "{shown}:{line}: column `{column}` is in `{unit}`, and the input `{name}` in \
             `{declared}`: a different dimension; is this the column meant?"
        ),
    })
}

/// Reads the time column and the chosen column of a CSV file as a checked signal, with
/// the file's line of each row (for messages).
pub fn read_signal(path: &Path, column: Option<&str>) -> Result<Series, String> {
    let shown = path.display();
    let text =
        std::fs::read(path).map_err(|e| format!("cannot read `{shown}`: {}", io_reason(&e)))?;
    // The header's line: the first that is neither blank nor a comment.
    let header_line = 1
        + (text.split(|&b| b == b'\n'))
            .take_while(|l| l.trim_ascii().is_empty() || l.starts_with(b"#"))
            .count() as u64;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_slice());
    let header = (reader.headers().map_err(|e| csv_error(path, &e))?.iter())
        .map(str::to_string)
        .collect::<Vec<_>>();
    if header.len() < 2 {
        return Err(format!(
            "{shown}: the header names {} column; expected the time column, then at \
             least one column of values",
            header.len()
        ));
    }
    let index = match column {
        None => 1,
        // A header written by `sitc run --units` names `h [m]`: the column `h`.
        Some(c) => match (header.iter().skip(1)).position(|h| h == c || without_unit(h) == c) {
            Some(i) => i + 1,
            None => {
                let names = header.iter().skip(1).map(String::as_str);
                let hint = did_you_mean(c, names.clone())
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                let all: Vec<String> = names.map(|n| format!("`{n}`")).collect();
                return Err(format!(
                    "{shown}: the header names no column `{c}` (the value columns are {}){hint}",
                    all.join(", ")
                ));
            }
        },
    };
    let name = &header[index];
    let (mut times, mut values, mut lines) = (Vec::new(), Vec::new(), Vec::new());
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(path, &e))?;
        let line = record.position().map_or(0, csv::Position::line);
        let number = |k: usize, what: &str| -> Result<f64, String> {
            let text = record.get(k).unwrap_or("");
            text.parse::<f64>()
                .map_err(|_| format!("{shown}:{line}: {what}: `{text}` is not a number"))
        };
        times.push(number(0, &format!("time column `{}`", header[0]))?);
        values.push(number(index, &format!("column `{name}`"))?);
        lines.push(line);
    }
    if times.is_empty() {
        return Err(format!("{shown}: no data rows after the header"));
    }
    let signal = OwnedSignal::new(times, values).map_err(|e| {
        let at = |row: usize| format!("{shown}:{}", lines[row]);
        match e {
            SignalError::TimeNotFinite { row, time } => {
                format!("{}: the time is {time}; expected a finite number", at(row))
            }
            SignalError::ValueNotFinite { row, value } => format!(
                "{}: column `{name}` is {value}; expected a finite number",
                at(row)
            ),
            SignalError::Decreasing {
                row,
                time,
                previous,
            } => format!(
                "{}: the time {time} is before the time {previous} of the row above; \
                 times must increase (a time given twice is a jump)",
                at(row)
            ),
            SignalError::Repeated { row, time } => format!(
                "{}: the time {time} is given a third time; a time may appear at most \
                 twice in a row (a jump)",
                at(row)
            ),
            SignalError::Empty | SignalError::Lengths { .. } => format!("{shown}: {e}"),
        }
    })?;
    let unit = |cell: &str| split_unit(cell).1.map(str::to_string);
    Ok(Series {
        signal,
        lines,
        header_line,
        time_unit: unit(&header[0]),
        column: without_unit(name).to_string(),
        value_unit: unit(name),
    })
}

/// A CSV syntax error as `file:line: what`.
fn csv_error(path: &Path, e: &csv::Error) -> String {
    let shown = path.display();
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => {
            let line = pos.as_ref().map_or(0, csv::Position::line);
            format!("{shown}:{line}: {len} fields, expected {expected_len} as in the header")
        }
        csv::ErrorKind::Utf8 { pos, .. } => {
            let line = pos.as_ref().map_or(0, csv::Position::line);
            format!("{shown}:{line}: not valid UTF-8")
        }
        csv::ErrorKind::Io(io) => format!("cannot read `{shown}`: {}", io_reason(io)),
        _ => format!("{shown}: {e}"),
    }
}

/// The index of the input `name` of `model`, which `--input` can drive: an input (real
/// or flag) that the host sets (not bound by a parent), and whether it is a flag.
pub fn input_index(model: &dyn Model, name: &str) -> Result<(usize, bool), String> {
    sit_host::inputs::input_index(model, name).map_err(|p| match p {
        InputProblem::Unknown => {
            let inputs = drivable(model);
            let hint = did_you_mean(name, inputs.iter().copied())
                .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
            let list: Vec<String> = inputs.iter().map(|n| format!("`{n}`")).collect();
            let known = match list.len() {
                0 => " (the model has no input that can be set)".to_string(),
                _ => format!(" (its inputs are {})", list.join(", ")),
            };
            format!("--input {name}: the model has no variable named `{name}`{known}{hint}")
        }
        InputProblem::NotAnInput { is } => format!(
            "--input {name}: `{name}` is {is}, not an input; --input drives inputs \
             (use --set for a value that does not change)"
        ),
        InputProblem::NotSettable(why) => format!("--input {name}: {why}"),
    })
}

/// Reads every `--input` of `args` for `model`: the inputs' indices and their signals.
///
/// `units` holds the unit of each of the model's variables (by index, as the unit check
/// shows it; empty when not wanted): a header that writes a unit after the value
/// column's name must write the input's, and after the time column's, seconds.
pub fn load_inputs(
    model: &dyn Model,
    args: &[String],
    units: &[Option<String>],
) -> Result<Vec<Input>, String> {
    let mut out: Vec<Input> = Vec::with_capacity(args.len());
    for arg in args {
        let input = parse_input(arg)?;
        let (i, flag) = input_index(model, &input.name)?;
        if out.iter().any(|d| d.index == i) {
            return Err(format!("--input {}: given twice", input.name));
        }
        let series = read_signal(&input.path, input.column.as_deref())
            .map_err(|e| format!("--input {}: {e}", input.name))?;
        let at = (&input.path, series.header_line);
        if let Some(unit) = &series.time_unit {
            check_time_unit(at.0, at.1, unit)
                .map_err(|e| format!("--input {}: {e}", input.name))?;
        }
        if let Some(unit) = &series.value_unit {
            let declared = units.get(i).and_then(Option::as_deref);
            check_value_unit(at.0, at.1, &input.name, &series.column, unit, declared)
                .map_err(|e| format!("--input {}: {e}", input.name))?;
        }
        let (signal, lines) = (series.signal, series.lines);
        let driven = sit_host::inputs::driven(i, flag, signal).map_err(|e| {
            format!(
                "--input {}: {}:{}: {} is not a logical value; the flag `{}` takes 0 \
                 (false) or 1 (true), each held until the next row",
                input.name,
                input.path.display(),
                lines[e.row],
                e.value,
                input.name
            )
        })?;
        out.push(driven);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_arguments() {
        assert_eq!(
            parse_input("u=data/p.csv:load"),
            Ok(InputArg {
                name: "u".into(),
                path: "data/p.csv".into(),
                column: Some("load".into())
            })
        );
        assert_eq!(
            parse_input(" pi.u = p.csv "),
            Ok(InputArg {
                name: "pi.u".into(),
                path: "p.csv".into(),
                column: None
            })
        );
        assert!(parse_input("u").is_err());
        assert!(parse_input("=p.csv").is_err());
        assert!(parse_input("u=").is_err());
        assert!(parse_input("u=p.csv:").is_err());
    }
}
