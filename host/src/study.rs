//! A parameter study checked against its model: the axes and fixed values resolved to
//! variables, the grid of parameter sets, the summaries of the recorded variables and the
//! columns of its table, as `sitc sweep` and Python's `sit.sweep` build it.

use crate::names::{RecordError, Unknown, index, name_of, record_list};
use crate::summary::Summary;
use crate::values::{SetProblem, settable};
use core::fmt;
use sit_interp::Instance;
use sit_runtime::drive::Driven;
use sit_runtime::sweep::{Sweep, grid};

/// What a study asks for, by name: the axes (each variable's values, the first axis
/// varying slowest), the values fixed in every run, the variables to record (as
/// [`record_list`] reads them) and the summaries of each.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a, S: AsRef<str>> {
    /// The axes: a variable's name and its values.
    pub axes: &'a [(String, Vec<f64>)],
    /// The values set in every run.
    pub fixed: &'a [(String, f64)],
    /// The variables to record (`None`: the root model's outputs).
    pub record: Option<&'a [S]>,
    /// The summaries of each recorded variable, in order.
    pub summaries: &'a [Summary],
    /// The step.
    pub dt: f64,
    /// The number of steps of each run.
    pub steps: u64,
}

/// A study ready to run: [`Sweep::run_with`] or [`Sweep::run_one`] over `sets` gives the
/// collected values of each row, after its axis values.
#[derive(Clone, Debug)]
pub struct Study {
    /// How each set runs and what it collects, in the order of `columns` after the axes.
    pub sweep: Sweep,
    /// The parameter sets: the axes' values (the grid), then the fixed values.
    pub sets: Vec<Vec<(usize, f64)>>,
    /// The column titles: the axes' names, then each recorded variable's summaries.
    pub columns: Vec<String>,
}

/// Why a study was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyError {
    /// An axis that names no variable, one driven by a series, or one the model does not
    /// let be set.
    Axis(String, SetProblem),
    /// An axis given twice.
    AxisTwice(String),
    /// A fixed value of a variable that cannot take it.
    Fixed(String, SetProblem),
    /// A fixed value of a variable that is also an axis.
    FixedIsAxis(String),
    /// The variables to record.
    Record(RecordError),
    /// A summary of one variable (`first-crossing(NAME)=T`) whose name is no variable.
    SummaryUnknown(Unknown),
    /// A summary of one variable that is not recorded: its name, and the names recorded.
    SummaryNotRecorded(String, Vec<String>),
}

impl fmt::Display for StudyError {
    /// The problem without the front end's option names (`--param`, `params=`), which
    /// the front end adds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StudyError::Axis(_, p) | StudyError::Fixed(_, p) => p.fmt(f),
            StudyError::AxisTwice(_) => f.write_str("given twice"),
            StudyError::FixedIsAxis(_) => f.write_str("already an axis"),
            StudyError::Record(e) => e.fmt(f),
            StudyError::SummaryUnknown(u) => u.fmt(f),
            StudyError::SummaryNotRecorded(name, recorded) => {
                let list: Vec<String> = recorded.iter().map(|n| format!("`{n}`")).collect();
                write!(
                    f,
                    "`{name}` is not recorded (the recorded variables are {}); record it too",
                    list.join(", ")
                )
            }
        }
    }
}

impl Study {
    /// Checks `ask` against `model` and builds the study.
    pub fn new<S: AsRef<str>>(
        model: &Driven<Instance>,
        ask: &Ask<'_, S>,
    ) -> Result<Study, StudyError> {
        let mut seen: Vec<usize> = Vec::new();
        let mut axes = Vec::with_capacity(ask.axes.len());
        for (name, values) in ask.axes {
            let i = settable(model, name).map_err(|p| StudyError::Axis(name.clone(), p))?;
            if seen.contains(&i) {
                return Err(StudyError::AxisTwice(name.clone()));
            }
            seen.push(i);
            axes.push((i, values.clone()));
        }
        let mut fixed = Vec::with_capacity(ask.fixed.len());
        for (name, value) in ask.fixed {
            let i = settable(model, name).map_err(|p| StudyError::Fixed(name.clone(), p))?;
            if seen.contains(&i) {
                return Err(StudyError::FixedIsAxis(name.clone()));
            }
            fixed.push((i, *value));
        }
        let record = record_list(&model.model, ask.record).map_err(StudyError::Record)?;
        for only in ask.summaries.iter().filter_map(Summary::only) {
            let i = index(model, only).map_err(StudyError::SummaryUnknown)?;
            if !record.contains(&i) {
                let recorded = record.iter().map(|&r| name_of(model, r).to_string());
                return Err(StudyError::SummaryNotRecorded(
                    only.to_string(),
                    recorded.collect(),
                ));
            }
        }
        let mut sweep = Sweep::new(ask.dt, ask.steps);
        let mut columns: Vec<String> = ask.axes.iter().map(|(n, _)| n.clone()).collect();
        for &r in &record {
            let name = name_of(model, r);
            for s in ask.summaries {
                let Some((collect, column)) = s.collect(r, name) else {
                    continue;
                };
                // `first-crossing=T` and `first-crossing(x)=T` ask for the same column.
                if sweep.columns().contains(&collect) {
                    continue;
                }
                sweep = sweep.collect(collect);
                columns.push(column);
            }
        }
        let mut sets = grid(&axes);
        for set in &mut sets {
            set.extend_from_slice(&fixed);
        }
        Ok(Study {
            sweep,
            sets,
            columns,
        })
    }

    /// The number of axes (the first columns).
    pub fn axes(&self) -> usize {
        self.columns.len() - self.sweep.columns().len()
    }
}
