//! E0477: two `integral`, `lag` or limited-integral rules for one state that can apply in the same step, whose meaning no method shares.

use super::logic::{Logic, Sat};
use super::{Body, Cx, assign};
use crate::diag::Diagnostic;
use crate::ir::Rhs;

/// The most earlier rules for the same state compared with each rule.
const LOOKBACK: usize = 16;

impl Cx<'_> {
    /// E0477 at each continuous rule (not `otherwise`) for a state that an earlier
    /// continuous rule for it can also set in the same step (their guards can hold
    /// together, or either has none): under `euler` both increments would be added in
    /// turn, under a method with stages the later rate would replace the earlier one,
    /// so the model has no one meaning. Guards that exclude each other, and an
    /// `otherwise` rule, are the way to switch a state's rate.
    pub(super) fn continuous_overlaps(
        &self,
        body: &Body,
        logic: &mut Logic,
        diags: &mut Vec<Diagnostic>,
    ) {
        let continuous = |rhs: &Rhs| {
            matches!(
                rhs,
                Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
            )
        };
        for (j, lj) in body.leaves.iter().enumerate() {
            let Some((aj, false)) = assign(lj.stmt) else {
                continue;
            };
            if !continuous(&aj.rhs) {
                continue;
            }
            let t = aj.target;
            let same = body.by_target.get(&t).map_or(&[][..], Vec::as_slice);
            let earlier = &same[..same.partition_point(|&i| i < j)];
            for &i in earlier.iter().rev().take(LOOKBACK) {
                let li = &body.leaves[i];
                let Some((ai, false)) = assign(li.stmt) else {
                    continue;
                };
                if !continuous(&ai.rhs) || body.together(logic, &li.chain, &lj.chain) != Sat::Yes {
                    continue;
                }
                let name = self.var_name(t);
                let when = if li.chain.is_empty() && lj.chain.is_empty() {
                    "both rules apply in every step".to_string()
                } else {
                    format!(
                        "both apply {}",
                        self.guards_text(body, &li.chain, &lj.chain)
                    )
                };
                diags.push(
                    Diagnostic::error(
                        "E0477",
                        aj.span,
                        format!("two continuous rules for `{name}` can apply in the same step"),
                    )
                    .with_label("a second rate for the same state")
                    .with_related(ai.span, "the first")
                    .with_note(format!(
                        "{when}; a state has one rate at a time: `euler` would add both \
                         increments in turn and the methods with stages would keep the later \
                         rate, so the model means nothing definite"
                    ))
                    .with_help(format!(
                        "write one rule with the sum of the rates (`{name} = integral(a + b);`), \
                         or make the guards exclude each other (the last one as \
                         `{name} = integral(...) otherwise;`)"
                    )),
                );
                break;
            }
        }
    }
}
