//! Two traps of the step semantics: σ cascades (W0240) and targets left stale for want of `otherwise` (W0241).
//!
//! Both reuse the body flattened by the parent module and the guard solver
//! of `logic`, and look at a bounded number of rules for each flag or
//! target ([`LOOKBACK`]), so that they stay linear in the size of the model.

use super::logic::{Formula, Logic, Sat};
use super::{Body, Cx, LOOKBACK, assign, short};
use crate::diag::Diagnostic;
use crate::ir::{Stmt, VarId};
use crate::source::Span;
use std::collections::HashMap;
use std::ops::Range;

/// Most variables the guards of a later rule may read for W0240 to check
/// that no rule between the two changes them (beyond, no warning).
const MAX_GUARD_READS: usize = 64;

/// A σ rule that enables a later one: the flag whose new value makes the
/// later guard hold, and where it is set.
struct Enabling {
    flag: VarId,
    value: bool,
    span: Span,
}

impl Cx<'_> {
    /// W0240: a σ rule sets a flag that makes the guard of a later σ rule
    /// hold in the same step, every time it applies (with the params at
    /// their defaults), and the later rule undoes one of its actions (the
    /// traffic light that runs red → green → yellow → red in one step).
    pub(super) fn sigma_cascades(
        &self,
        body: &Body,
        logic: &mut Logic,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut by_flag: HashMap<VarId, Vec<usize>> = HashMap::new();
        for (l, leaf) in body.leaves.iter().enumerate() {
            if let Stmt::SetFlag { var, .. } = leaf.stmt {
                by_flag.entry(*var).or_default().push(l);
            }
        }
        for (j, lj) in body.leaves.iter().enumerate() {
            let Stmt::SetFlag {
                var: p,
                value: w,
                span: sj,
            } = lj.stmt
            else {
                continue;
            };
            let same = by_flag.get(p).map_or(&[][..], Vec::as_slice);
            let earlier = &same[..same.partition_point(|&i| i < j)];
            for &i in earlier.iter().rev().take(LOOKBACK) {
                let li = &body.leaves[i];
                let Stmt::SetFlag {
                    value: vi,
                    span: si,
                    ..
                } = li.stmt
                else {
                    continue;
                };
                if vi == w || li.chain == lj.chain {
                    continue;
                }
                let later: Vec<usize> = (lj.chain.iter())
                    .filter(|g| !li.chain.contains(g))
                    .copied()
                    .collect();
                if later.is_empty() {
                    continue;
                }
                let rule = rule_of(body, i);
                let Some(en) = enabling(body, logic, &by_flag, rule, &later, j) else {
                    continue;
                };
                let name = self.var_name(*p);
                let q = self.var_name(en.flag);
                let set = |v: bool| if v { "sets" } else { "clears" };
                let mut d = Diagnostic::warning(
                    "W0240",
                    *sj,
                    format!(
                        "σ cascade: this rule undoes `{}` of an earlier rule in the same step",
                        short(self.sources, *si)
                    ),
                )
                .with_label(format!("{} `{name}` again", set(*w)))
                .with_related(*si, format!("{} `{name}`", set(*vi)));
                if en.span != *si {
                    d = d.with_related(
                        en.span,
                        format!("{} `{q}`, which makes the later guard hold", set(en.value)),
                    );
                }
                diags.push(
                    d.with_note(format!(
                        "whenever {}, the earlier rule {} `{q}`, and then {}: a guard \
                         reads the flags as the σ rules before it left them, so `{name}` is \
                         changed back in the step it is changed and is never seen",
                        self.guard_list(body, &li.chain),
                        set(en.value),
                        self.guard_list(body, &later),
                    ))
                    .with_help(
                        "make the later rule wait for the next step: guard it with an event, \
                         evaluated once before the rules (`event e = CONDITION;` and \
                         `when e => …;`), or make the two guards exclusive",
                    ),
                );
                break;
            }
        }
    }

    /// W0241: a real assigned only under guards, by plain rules, and read
    /// after them where none of the guards can hold: it keeps the value of
    /// an earlier step there (the hoop's contact force in flight).
    /// `diags[from..]` are the warnings about this model so far.
    pub(super) fn stale_reads(
        &self,
        body: &Body,
        logic: &mut Logic,
        diags: &mut Vec<Diagnostic>,
        from: usize,
    ) {
        let which = usize::from(logic.defaults());
        let mut targets: Vec<(VarId, &Vec<usize>)> =
            body.by_target.iter().map(|(t, r)| (*t, r)).collect();
        targets.sort_unstable_by_key(|(_, rules)| rules[0]);
        // Rules already reported as overlapping (W0202), whose help is the
        // same `otherwise` fallback.
        let overlapping: std::collections::HashSet<Span> = (diags[from..].iter())
            .filter(|d| d.code == "W0202")
            .map(|d| d.span)
            .collect();
        'target: for (t, rules) in targets {
            if rules.len() > LOOKBACK {
                continue;
            }
            for &r in rules.iter() {
                let leaf = &body.leaves[r];
                let plain = matches!(assign(leaf.stmt), Some((_, false)));
                if !plain || leaf.chain.is_empty() || body.leaf_vars[r].contains(t) {
                    continue 'target;
                }
            }
            if rules.iter().any(|&r| {
                assign(body.leaves[r].stmt).is_some_and(|(a, _)| overlapping.contains(&a.span))
            }) {
                continue;
            }
            let last = rules[rules.len() - 1];
            let Some(read) = body.next_read(t, last) else {
                continue;
            };
            let formulas = |chain: &[usize]| -> Option<Vec<&Formula>> {
                chain
                    .iter()
                    .map(|&g| body.guards[g].formula[which].as_ref())
                    .collect()
            };
            let Some(mut query) = formulas(&body.leaves[read].chain) else {
                continue;
            };
            let mut none_holds = Vec::with_capacity(rules.len());
            for &r in rules.iter() {
                let Some(fs) = formulas(&body.leaves[r].chain) else {
                    continue 'target;
                };
                none_holds.push(Formula::all(&fs).not());
            }
            query.extend(none_holds.iter());
            if logic.satisfiable(&query) != Sat::Yes {
                continue;
            }
            let Some((a, _)) = assign(body.leaves[last].stmt) else {
                continue;
            };
            let name = self.var_name(t);
            let cases: Vec<String> = rules
                .iter()
                .map(|&r| self.guards_text(body, &body.leaves[r].chain, &[]))
                .collect();
            diags.push(
                Diagnostic::warning(
                    "W0241",
                    a.span,
                    format!("`{name}` keeps a stale value when none of its rules applies"),
                )
                .with_label(format!(
                    "the last rule for `{name}`; no `otherwise` follows"
                ))
                .with_related(
                    leaf_span(body.leaves[read].stmt),
                    format!("reads `{name}`, also when no rule assigned it in this step"),
                )
                .with_note(format!(
                    "`{name}` is assigned only {}; in a step where none holds it keeps the \
                     value of an earlier step",
                    crate::diag::list(cases.into_iter()).replace(", when", " or when"),
                ))
                .with_help(format!(
                    "give it its value for the other steps after its last rule: \
                     `{name} = 0 otherwise;` (or what it is when no guard holds); if keeping \
                     the last value is meant, say so with \
                     `#[allow(W0241, reason = \"…\")]` before the rule"
                )),
            );
        }
    }
}

impl Cx<'_> {
    /// The guards `chain` as source text: `` `a` holds `` or `` `a` and `b`
    /// hold ``.
    fn guard_list(&self, body: &Body, chain: &[usize]) -> String {
        let text = self.guards_text(body, chain, &[]);
        text.strip_prefix("when ").unwrap_or(&text).to_string()
    }
}

/// The leaves of the σ rule (or block) holding leaf `i`: its neighbours
/// under the same guards.
fn rule_of(body: &Body, i: usize) -> Range<usize> {
    let chain = &body.leaves[i].chain;
    let mut start = i;
    while start > 0 && i - start < LOOKBACK && body.leaves[start - 1].chain == *chain {
        start -= 1;
    }
    let mut end = i + 1;
    while end < body.leaves.len() && end - i < LOOKBACK && body.leaves[end].chain == *chain {
        end += 1;
    }
    start..end
}

/// Whether the flags set by the σ rule `rule` make the guards `later` (of
/// the leaf `j`) hold where they would not have held without them, with
/// nothing between the two changing what those guards read.
fn enabling(
    body: &Body,
    logic: &mut Logic,
    by_flag: &HashMap<VarId, Vec<usize>>,
    rule: Range<usize>,
    later: &[usize],
    j: usize,
) -> Option<Enabling> {
    let which = usize::from(logic.defaults());
    // The flags the rule sets, with their last value.
    let mut sets: Vec<Enabling> = Vec::new();
    for l in rule.clone() {
        if let Stmt::SetFlag { var, value, span } = body.leaves[l].stmt {
            sets.retain(|e| e.flag != *var);
            sets.push(Enabling {
                flag: *var,
                value: *value,
                span: *span,
            });
        }
    }
    let mut read = Vec::new();
    for &g in later {
        read.extend_from_slice(body.guard_vars[g].listed()?);
    }
    read.sort_unstable();
    read.dedup();
    if read.len() > MAX_GUARD_READS || !sets.iter().any(|e| read.contains(&e.flag)) {
        return None;
    }
    // Nothing between the rule and the later one assigns what its guards read.
    let between = |xs: Option<&Vec<usize>>| {
        xs.is_some_and(|xs| {
            let k = xs.partition_point(|&l| l < rule.end);
            xs.get(k).is_some_and(|&l| l < j)
        })
    };
    if read
        .iter()
        .any(|v| between(body.by_target.get(v)) || between(by_flag.get(v)))
    {
        return None;
    }
    let before: Vec<&Formula> = (body.leaves[rule.start].chain.iter())
        .map(|&g| body.guards[g].formula[which].as_ref())
        .collect::<Option<_>>()?;
    let after = |logic: &Logic, flip: Option<VarId>| -> Option<Vec<Formula>> {
        later
            .iter()
            .map(|&g| {
                let mut f = body.guards[g].formula[which].clone()?;
                for e in &sets {
                    let v = if Some(e.flag) == flip {
                        !e.value
                    } else {
                        e.value
                    };
                    f = logic.with_flag(&f, e.flag, v)?;
                }
                Some(f)
            })
            .collect()
    };
    let holds = |logic: &mut Logic, fs: &[Formula]| {
        let mut all = before.clone();
        all.extend(fs.iter());
        logic.satisfiable(&all)
    };
    // Every time the rule applies, the later guards hold after it.
    if logic.satisfiable(&before) != Sat::Yes {
        return None;
    }
    let with_rule = after(logic, None)?;
    let refs: Vec<&Formula> = with_rule.iter().collect();
    if holds(logic, &[Formula::all(&refs).not()]) != Sat::No {
        return None;
    }
    for (k, e) in sets.iter().enumerate() {
        if !read.contains(&e.flag) {
            continue;
        }
        let without = after(logic, Some(e.flag))?;
        if holds(logic, &without) == Sat::No {
            return Some(sets.swap_remove(k));
        }
    }
    None
}

/// Where a leaf is written: its rule or action.
fn leaf_span(stmt: &Stmt) -> Span {
    stmt.span()
}
