//! The warnings after a sweep, in the words every host prints: the rows that met a
//! non-finite value and the tables read past their grids (and the concern of a model
//! found stiff, which a run reports).

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
}

/// The most rows whose non-finite value is reported one by one; the others are counted.
pub const NON_FINITE_ROWS: usize = 20;

/// What `end` gives [`sit_runtime::sweep::Sweep::run_watched`] for the table reports:
/// each table's reads, in the order of [`Instance::table_reads`].
pub fn table_reach(model: &Instance) -> Vec<TableReach> {
    model.table_reads().iter().map(|r| *r.reach).collect()
}

/// The warnings after a sweep of `model` (without `warning: `), in order: each row (up
/// to [`NON_FINITE_ROWS`]) that met a non-finite value, named by its 1-based number and
/// its axis values (`row 2 (k=0.5): `level` became NaN in the step from t = 3.8 to
/// t = 3.9`), a count of the rest, a summary of them all; then each table read past
/// its grid, once, its reads added over every run (`in 2 of 3 runs, table `valve` was
/// read at …`). `rows` are the runs from row `offset` (0-based) of the whole sweep on,
/// their `end` from [`table_reach`]; `axes[k]` is the `(name, value as printed)` pairs
/// of `rows[k]`.
pub fn sweep_warnings(
    model: &Instance,
    offset: usize,
    axes: &[Vec<(&str, String)>],
    rows: &[Watched<Vec<TableReach>>],
) -> Vec<(Concern, String)> {
    let mut lines = Vec::new();
    let bad: Vec<_> = (rows.iter().enumerate())
        .filter_map(|(k, r)| Some((k, r.non_finite.as_ref()?)))
        .collect();
    for &(k, seen) in bad.iter().take(NON_FINITE_ROWS) {
        let set = (axes.get(k).into_iter().flatten())
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(", ");
        let name = model.var_info(seen.index).map_or("?", |v| v.name);
        let line = format!("row {} ({set}): {}", offset + k + 1, seen.describe(name));
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
    let ends: Vec<&[TableReach]> = rows.iter().map(|r| r.end.as_slice()).collect();
    lines.extend(table_warnings(model, &ends));
    lines
}

/// The warnings of the tables read past their grids over the runs of a sweep of
/// `model`, once per table, its reads added over every run (`in 2 of 3 runs, table
/// `valve` was read at …`): `ends[k]` is run `k`'s reads of each table, in the order of
/// [`Instance::table_reads`] (the interpreter's, from [`table_reach`], or a compiled
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
