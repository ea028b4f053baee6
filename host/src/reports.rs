//! The warnings after a sweep, in the words every host prints: the rows that met a
//! non-finite value, the tables read past their grids and the models found stiff.

use sit_interp::Instance;
use sit_runtime::Model;
use sit_runtime::sweep::Watched;
use sit_runtime::table::TableReach;

/// What a warning is about (a host maps each to its own category: Python's
/// `NonFiniteWarning` and `TableRangeWarning`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concern {
    /// A value that was NaN or infinite.
    NonFinite,
    /// A table read past its grid.
    TableRange,
    /// A model that the stiffness test of its adaptive explicit method found stiff
    /// (Python's `StiffnessWarning`).
    Stiffness,
    /// The estimated error of a fixed-step run past its threshold
    /// (`sit_runtime::accuracy`; Python's `AccuracyWarning`).
    Accuracy,
}

/// The most rows whose non-finite value is reported one by one; the others are counted.
pub const NON_FINITE_ROWS: usize = 20;

/// What a sweep keeps of each run when it ends, for the reports after it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunEnd {
    /// Each table's reads, in the order of [`Instance::table_reads`].
    pub tables: Vec<TableReach>,
    /// Each model or submodel that the stiffness test of its adaptive explicit method
    /// found stiff (`sit_runtime::stiffness`), in its order.
    pub stiff: Vec<StiffRun>,
}

/// A model or submodel found stiff in one run (an owned `sit_runtime::Stiffness`).
#[derive(Debug, Clone, PartialEq)]
pub struct StiffRun {
    /// The submodel's dotted path under the root (empty for the root).
    pub path: String,
    /// The integration method.
    pub method: String,
    /// The time from which its steps were stiff.
    pub time: f64,
}

/// What `end` gives [`sit_runtime::sweep::Sweep::run_watched`] for the reports: each
/// table's reads and what the stiffness test found.
pub fn run_end(model: &Instance) -> RunEnd {
    RunEnd {
        tables: model.table_reads().iter().map(|r| *r.reach).collect(),
        stiff: stiff_runs(model),
    }
}

/// What the stiffness test found in `model` (any back end: it reads hidden states only).
pub fn stiff_runs(model: &dyn Model) -> Vec<StiffRun> {
    (sit_runtime::stiffness(model, ""))
        .map(|s| StiffRun {
            path: s.path.to_string(),
            method: s.method.to_string(),
            time: s.time,
        })
        .collect()
}

/// A row of a sweep in words: its 1-based `number` and its axis values, `row 2 (k=0.5)`.
pub fn row_label(number: usize, axes: &[(&str, String)]) -> String {
    let set = (axes.iter())
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("row {number} ({set})")
}

/// The warnings after a sweep of `model` (without `warning: `), in order: each row (up
/// to [`NON_FINITE_ROWS`]) that met a non-finite value, named by its 1-based number and
/// its axis values (`row 2 (k=0.5): `level` became NaN in the step from t = 3.8 to
/// t = 3.9`), a count of the rest, a summary of them all; then each table read past
/// its grid, once, its reads added over every run (`in 2 of 3 runs, table `valve` was
/// read at …`); then each model found stiff ([`stiffness_warnings`]). `rows` are the
/// runs from row `offset` (0-based) of the whole sweep on, their `end` from
/// [`run_end`]; `axes[k]` is the `(name, value as printed)` pairs of `rows[k]`.
pub fn sweep_warnings(
    model: &Instance,
    offset: usize,
    axes: &[Vec<(&str, String)>],
    rows: &[Watched<RunEnd>],
) -> Vec<(Concern, String)> {
    let mut lines = Vec::new();
    let bad: Vec<_> = (rows.iter().enumerate())
        .filter_map(|(k, r)| Some((k, r.non_finite.as_ref()?)))
        .collect();
    for &(k, seen) in bad.iter().take(NON_FINITE_ROWS) {
        let row = row_label(offset + k + 1, axes.get(k).map_or(&[][..], Vec::as_slice));
        let name = model.var_info(seen.index).map_or("?", |v| v.name);
        let line = format!("{row}: {}", seen.describe(name));
        lines.push((Concern::NonFinite, line));
    }
    if bad.len() > NON_FINITE_ROWS {
        let more = bad.len() - NON_FINITE_ROWS;
        let line = format!("{more} more rows met a non-finite value");
        lines.push((Concern::NonFinite, line));
    }
    if !bad.is_empty() {
        let line = format!(
            "{} of {} rows met a non-finite value; their values may be NaN or infinite",
            bad.len(),
            rows.len()
        );
        lines.push((Concern::NonFinite, line));
    }
    let ends: Vec<&[TableReach]> = rows.iter().map(|r| r.end.tables.as_slice()).collect();
    lines.extend(table_warnings(model, &ends));
    let stiff: Vec<&[StiffRun]> = rows.iter().map(|r| r.end.stiff.as_slice()).collect();
    lines.extend(stiffness_warnings(model.model_name(), offset, axes, &stiff));
    lines
}

/// The warnings of the models found stiff over the runs of a sweep of root model
/// `root`, once per model or submodel and method: how many runs found it stiff, the
/// first of them (its row and axis values) and the time from which, and the suggestion
/// of `sit_runtime::Stiffness` (`in 3 of 4 runs, first row 2 (mu=1000): `Vdp` seems
/// stiff from t = 0.5 under `dopri5`: …`). `stiff[k]` is run `k`'s findings, `offset`
/// and `axes` as in [`sweep_warnings`].
pub fn stiffness_warnings(
    root: &str,
    offset: usize,
    axes: &[Vec<(&str, String)>],
    stiff: &[&[StiffRun]],
) -> Vec<(Concern, String)> {
    // Per model and method, in the order first found: its first run and finding, and
    // how many runs found it.
    let mut found: Vec<(usize, &StiffRun, usize)> = Vec::new();
    for (k, runs) in stiff.iter().enumerate() {
        for s in runs.iter() {
            let same =
                |f: &&mut (usize, &StiffRun, usize)| f.1.path == s.path && f.1.method == s.method;
            match found.iter_mut().find(same) {
                Some(f) => f.2 += 1,
                None => found.push((k, s, 1)),
            }
        }
    }
    (found.into_iter())
        .map(|(k, s, runs)| {
            let set = (axes.get(k).into_iter().flatten())
                .map(|(name, value)| format!("{name}={value}"))
                .collect::<Vec<_>>()
                .join(", ");
            let what = sit_runtime::Stiffness {
                root,
                path: &s.path,
                method: &s.method,
                time: s.time,
            };
            let line = format!(
                "in {runs} of {} runs, first row {} ({set}): {what}",
                stiff.len(),
                offset + k + 1
            );
            (Concern::Stiffness, line)
        })
        .collect()
}

/// The warning of the estimated error of the fixed steps over the runs of a sweep
/// (each run's [`Watched::accuracy`], `None` where it was within the threshold or made
/// no estimate), once: how many runs, the worst of them (its row and axis values) and
/// its estimate in `voice`'s words (`in 2 of 3 runs, worst row 3 (k=40): the fixed
/// steps of `euler` at --dt 0.01 may be off by about 38% of …`), for runs of steps of
/// `dt` to `t_end`. A row that met a non-finite value or reached
/// [`sit_interp::replay::BLOWUP`] is reported as such, not here. `offset` and `axes` as in
/// [`sweep_warnings`].
pub fn accuracy_warnings<R>(
    offset: usize,
    axes: &[Vec<(&str, String)>],
    rows: &[Watched<R>],
    (dt, t_end): (f64, f64),
    voice: sit_runtime::accuracy::Voice,
) -> Vec<(Concern, String)> {
    let faulty = |r: &Watched<R>| {
        r.non_finite.is_some()
            || (r.row.iter()).any(|v| v.is_finite() && v.abs() >= sit_interp::replay::BLOWUP)
    };
    let findings: Vec<_> = (rows.iter())
        .map(|r| r.accuracy.as_ref().filter(|_| !faulty(r)))
        .collect();
    let found = || {
        findings
            .iter()
            .enumerate()
            .filter_map(|(k, f)| Some((k, (*f)?)))
    };
    let Some((k, worst)) = found().max_by(|a, b| a.1.relative.total_cmp(&b.1.relative)) else {
        return Vec::new();
    };
    let row = row_label(offset + k + 1, axes.get(k).map_or(&[][..], Vec::as_slice));
    let text = worst.warning(dt, t_end, voice);
    let text = text.strip_prefix("warning: ").unwrap_or(&text);
    let line = format!(
        "in {} of {} runs, worst {row}: {text}",
        found().count(),
        findings.len()
    );
    vec![(Concern::Accuracy, line)]
}

/// The warnings of the tables read past their grids over the runs of a sweep of
/// `model`, once per table, its reads added over every run (`in 2 of 3 runs, table
/// `valve` was read at …`): `ends[k]` is run `k`'s reads of each table, in the order of
/// [`Instance::table_reads`] (the interpreter's, from [`run_end`], or a compiled
/// sweep's, put in that order).
pub fn table_warnings(model: &Instance, ends: &[&[TableReach]]) -> Vec<(Concern, String)> {
    let mut lines = Vec::new();
    for (k, table) in model.table_reads().iter().enumerate() {
        let mut all = *table.reach;
        all.clear();
        let mut runs = 0;
        for end in ends {
            if let Some(reach) = end.get(k) {
                all.merge(reach);
                runs += usize::from(reach.outside > 0);
            }
        }
        if let Some(w) = all.warning(table.name, &table.args) {
            let line = format!("in {runs} of {} runs, {w}", ends.len());
            lines.push((Concern::TableRange, line));
        }
    }
    lines
}
