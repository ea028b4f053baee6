//! W0242: a value the rates read that is held through the stages of a step although its rules follow the continuous solution (assigned only under guards, without `otherwise`).

use super::Cx;
use crate::diag::Diagnostic;

impl Cx<'_> {
    /// W0242 for each held value of the model (`crate::ir::held_reads`), except where W0241
    /// (`diags[from..]`) already asks for the same `otherwise` rule.
    pub(super) fn held_in_stages(&self, diags: &mut Vec<Diagnostic>, from: usize) {
        let stale: std::collections::HashSet<crate::source::Span> = (diags[from..].iter())
            .filter(|d| d.code == "W0241")
            .map(|d| d.span)
            .collect();
        let method = self.m.method.name();
        for held in crate::ir::held_reads(self.m) {
            if stale.contains(&held.last) {
                continue;
            }
            let name = self.var_name(held.var);
            let moving = match held.moving {
                Some(v) => format!("`{}`", self.var_name(v)),
                None => "`time`".to_string(),
            };
            diags.push(
                Diagnostic::warning(
                    "W0242",
                    held.last,
                    format!(
                        "under `method {method}`, `{name}` is held through each step: its \
                         rules read {moving}, but the rates see the value of the step's start"
                    ),
                )
                .with_label(format!(
                    "`{name}` is assigned only under guards; no `otherwise` follows"
                ))
                .with_related(
                    held.read_by,
                    format!("reads `{name}` at every stage, as it was when the step began"),
                )
                .with_note(format!(
                    "a target assigned only under guards keeps its value between its rules, \
                     so `{method}` integrates over the whole step with `{name}` as it was at \
                     its start (or at a located event), not as it moves with {moving}: a \
                     force written this way does not follow the motion within a step"
                ))
                .with_help(format!(
                    "make its last rule an `otherwise` rule (`{name} = … otherwise;`), or add \
                     one after it (`{name} = 0 otherwise;`, or what it is when no guard holds), \
                     so that it is computed at every stage; if holding it over the step is \
                     meant, say so with `#[allow(W0242, reason = \"…\")]` before the rule"
                )),
            );
        }
    }
}
