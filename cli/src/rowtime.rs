//! What a trace's columns are as of, for the plot: each recorded name's row time (`sit_middle::rows`), as `sitc info` labels it.

use sit_middle::ir::{ModelId, Program};
use sit_middle::rows::{RowTime, cond_time, row_times};
use std::collections::HashMap;

/// The row-time word ([`RowTime::word`]: `t`, `t-dt`, `earlier`, `mixed`, `held`, or
/// empty) of
/// every variable, pred, situation and event of the tree rooted at `root`, by the name
/// a trace writes (`sub.x` for a submodel's).
pub fn words(program: &Program, root: ModelId) -> HashMap<String, &'static str> {
    let labels = row_times(program);
    let mut out = HashMap::new();
    let mut todo = vec![(root, String::new())];
    while let Some((id, prefix)) = todo.pop() {
        let Some(m) = program.models.get(id) else {
            continue;
        };
        let model_labels = labels.get(id).map_or(&[][..], Vec::as_slice);
        for (v, var) in m.vars.iter().enumerate() {
            if let Some(l) = model_labels.get(v) {
                out.insert(format!("{prefix}{}", var.name), l.word());
            }
        }
        for (k, c) in m.conds.iter().enumerate() {
            let word = cond_time(m, model_labels, k).word();
            out.insert(format!("{prefix}{}", c.name), word);
        }
        for e in &m.events {
            out.insert(format!("{prefix}{}", e.name), RowTime::EVENT.word());
        }
        for s in &m.subs {
            todo.push((s.model, format!("{prefix}{}.", s.name)));
        }
    }
    out
}
