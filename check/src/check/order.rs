//! Submodel order: models leaves first, recursive instantiation, and the size of instance trees.

use super::Table;
use crate::ast;
use crate::diag::Diagnostic;

/// Most model instances in one tree (the model itself and all its submodels,
/// recursively). A generated model is one struct holding its whole tree, built
/// on the stack by `new()`: far beyond this it would not fit.
pub const MAX_INSTANCES: u64 = 10_000;

/// Report the models whose tree of instances exceeds [`MAX_INSTANCES`]
/// (submodels that instantiate several submodels that instantiate several…
/// grow exponentially with depth).
pub(super) fn instance_counts(
    asts: &[&ast::Model],
    order: &[usize],
    subs: &[Vec<Option<usize>>],
    diags: &mut Vec<Diagnostic>,
) {
    let mut count = vec![1u64; asts.len()];
    for &m in order {
        let total = subs[m]
            .iter()
            .flatten()
            .fold(1u64, |acc, &c| acc.saturating_add(count[c]));
        count[m] = total;
        let over = |c: usize| count[c] > MAX_INSTANCES;
        // Report only the smallest models over the limit.
        if total > MAX_INSTANCES && !subs[m].iter().flatten().any(|&c| over(c)) {
            diags.push(
                Diagnostic::error(
                    "E0185",
                    asts[m].name.span,
                    format!(
                        "model `{}` holds {} model instances (the limit is {MAX_INSTANCES})",
                        asts[m].name.text,
                        if total == u64::MAX {
                            "more than 10^19".to_string()
                        } else {
                            total.to_string()
                        }
                    ),
                )
                .with_label("counting itself and all its submodels, recursively")
                .with_note("a compiled model is one struct holding its whole tree of instances")
                .with_help("use fewer levels of submodels that each hold several instances"),
            );
        }
    }
}

/// Order models leaves first; report recursive instantiation.
pub(super) fn topo_order(
    asts: &[&ast::Model],
    tables: &[Table],
    subs: &[Vec<Option<usize>>],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let n = asts.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::with_capacity(n);
    let mut ok = true;
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        // Iterative DFS: (model, next sub index), with the path for messages.
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(&mut (m, ref mut next)) = stack.last_mut() {
            if *next < subs[m].len() {
                let si = *next;
                *next += 1;
                let Some(child) = subs[m][si] else { continue };
                match mark[child] {
                    Mark::Done => {}
                    Mark::New => {
                        mark[child] = Mark::Active;
                        stack.push((child, 0));
                    }
                    Mark::Active => {
                        let start = stack.iter().position(|&(x, _)| x == child).unwrap_or(0);
                        let mut chain: Vec<&str> = stack[start..]
                            .iter()
                            .map(|&(x, _)| asts[x].name.text.as_str())
                            .collect();
                        chain.push(asts[child].name.text.as_str());
                        let sub = &tables[m].subs[si];
                        diags.push(
                            Diagnostic::error(
                                "E0121",
                                sub.model.span,
                                format!(
                                    "recursive instantiation: {}",
                                    chain
                                        .iter()
                                        .map(|s| format!("`{s}`"))
                                        .collect::<Vec<_>>()
                                        .join(" contains ")
                                ),
                            )
                            .with_label("this instance closes the cycle")
                            .with_note(
                                "a model cannot contain itself, directly or through its submodels",
                            ),
                        );
                        ok = false;
                    }
                }
            } else {
                mark[m] = Mark::Done;
                order.push(m);
                stack.pop();
            }
        }
    }
    ok.then_some(order)
}
