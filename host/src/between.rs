//! Summaries between the rows: a study's `max`, `min` and `first-crossing` columns of continuous states under an adaptive method, read from the hidden states the lowering keeps over every internal step (`sit_lower::Probe`) instead of from the rows.
//!
//! A study is checked on the model as loaded ([`crate::study::Study`]); [`probes`] says
//! what to keep of its columns; the model is loaded again with them
//! (`sit_driver::Options::probes`, the visible variables unchanged: the hidden states
//! follow them); [`Between::of`] then finds, per column, the hidden state that holds it,
//! and [`Between::columns`] is what every back end collects: such a column as the final
//! value of its hidden state (`Collect::Final` of its index), the others as asked. A
//! column of a variable that is not a continuous state, or of a model under `euler`,
//! `rk4` or `dop853`, stays a summary of the rows ([`Between::at_rows`]).

use sit_middle::ir::ModelId;
use sit_middle::lower::{Entry, Item, Lowered, Probe, ProbeKind};
use sit_runtime::sweep::Collect;

/// What to keep of `columns` (indices into `entries`, the variable list of the root's
/// instance: `sit_middle::lower::variables`): a probe per `max`, `min` and
/// `first-crossing` column of a variable, each once. Empty when the study runs no step
/// (the rows are then the values before it).
pub fn probes(entries: &[Entry], columns: &[Collect], steps: u64) -> Vec<Probe> {
    let mut out: Vec<Probe> = Vec::new();
    if steps == 0 {
        return out;
    }
    for c in columns {
        let Some((var, kind)) = probe_of(entries, c) else {
            continue;
        };
        let p = Probe {
            model: entries[c.var()].model,
            var,
            kind,
        };
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

fn probe_of(entries: &[Entry], c: &Collect) -> Option<(usize, ProbeKind)> {
    let kind = match *c {
        Collect::Final(_) => return None,
        Collect::Max(_) => ProbeKind::Max,
        Collect::Min(_) => ProbeKind::Min,
        Collect::FirstCrossing { threshold, .. } => ProbeKind::Crossing(threshold),
    };
    match entries.get(c.var())?.item {
        Item::Var(v, _) => Some((v, kind)),
        _ => None,
    }
}

/// Where each column of a study is read: from a hidden state, or at the rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Between {
    /// Per column, the index (in the instance's variable list) of the hidden state that
    /// holds its summary, or `None`.
    pub kept: Vec<Option<usize>>,
}

impl Between {
    /// Where each of `columns` is read in `lowered` (prepared with [`probes`] of them).
    pub fn of(lowered: &Lowered, root: ModelId, columns: &[Collect], steps: u64) -> Between {
        let entries = lowered.variables(root).unwrap_or_default();
        let kept = columns
            .iter()
            .map(|c| {
                if steps == 0 {
                    return None;
                }
                let (var, kind) = probe_of(&entries, c)?;
                let e = &entries[c.var()];
                let probe = Probe {
                    model: e.model,
                    var,
                    kind,
                };
                let hidden = lowered.probe(&probe)?;
                entries.iter().position(|h| {
                    h.hidden
                        && h.path == e.path
                        && h.model == e.model
                        && matches!(h.item, Item::Var(v, _) if v == hidden)
                })
            })
            .collect();
        Between { kept }
    }

    /// What the back ends collect: each kept column as the final value of its hidden
    /// state, the others as in `columns`.
    pub fn columns(&self, columns: &[Collect]) -> Vec<Collect> {
        columns
            .iter()
            .zip(&self.kept)
            .map(|(c, k)| k.map_or(*c, Collect::Final))
            .collect()
    }

    /// Whether some `max`, `min` or `first-crossing` column is taken at the rows.
    pub fn at_rows(&self, columns: &[Collect]) -> bool {
        columns
            .iter()
            .zip(&self.kept)
            .any(|(c, k)| !matches!(c, Collect::Final(_)) && k.is_none())
    }
}

/// The note a front end prints when some summary is taken at the rows (`sitc sweep`
/// on stderr, Python as a warning), naming why.
pub const AT_ROWS: &str = "note: max, min and first-crossing of a variable that is not a \
continuous state, or under a fixed-step method (euler, rk4) or dop853, are taken at the \
rows (after each step of --dt), and miss what happens between them; under the adaptive \
methods those of continuous states are taken on every internal step's dense output";
