//! The order of a model's equations: each matched to the unknown it determines (augmenting paths), the blocks that must be solved together (Tarjan), and the blocks sorted so that each comes after those it reads (Kahn), with the errors of a system that is not square or a loop that cannot be solved.

use super::{Equation, Unknown};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::{BTreeSet, HashMap};

/// The most equations of a loop solved by substitution (the expressions grow with it).
pub(super) const MAX_LOOP: usize = 8;

/// The blocks of equations in an order that computes them, each equation with the
/// unknown it determines (a block of more than one is a loop, in textual order);
/// `None` after an error (an equation with nothing to determine, an unknown that no
/// equation is left for, a loop that cannot be solved by substitution).
pub(super) fn order(
    eqs: &[Equation<'_>],
    reals: &HashMap<&str, Span>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Vec<(usize, Unknown)>>> {
    // The unknowns, in the order first read.
    let mut all: Vec<Unknown> = Vec::new();
    for e in eqs {
        for u in &e.unknowns {
            if !all.contains(u) {
                all.push(u.clone());
            }
        }
    }
    let index: HashMap<&Unknown, usize> = all.iter().enumerate().map(|(i, u)| (u, i)).collect();
    let adj: Vec<Vec<usize>> = eqs
        .iter()
        .map(|e| e.unknowns.iter().map(|u| index[u]).collect())
        .collect();
    let matched = matching(&adj, all.len());
    let mut ok = true;
    let by_unknown =
        |u: usize| -> Vec<usize> { (0..eqs.len()).filter(|&e| adj[e].contains(&u)).collect() };
    let mut owner = vec![None; all.len()];
    for (e, m) in matched.iter().enumerate() {
        if let Some(u) = m {
            owner[*u] = Some(e);
        }
    }
    for (e, m) in matched.iter().enumerate() {
        if m.is_some() {
            continue;
        }
        ok = false;
        let eq = &eqs[e];
        let mut d = if eq.unknowns.is_empty() && !eq.states.is_empty() {
            let states: Vec<String> = eq.states.iter().map(|x| format!("`{x}`")).collect();
            Diagnostic::error(
                "E0490",
                eq.span,
                "an equation that constrains the states: a DAE of index 2 or more",
            )
            .with_label(format!(
                "relates {} alone, whose rates other equations determine",
                states.join(", ")
            ))
            .with_note(
                "a constraint among states that determines no unknown makes the model a \
                 differential-algebraic system of higher index; Sit reduces such \
                 constraints (differentiating each and computing one of its states from it), \
                 at most 64 of them, and this one was left over",
            )
            .with_help(
                "differentiate the constraint by hand until it determines an unknown, or \
                 write the model in fewer coordinates",
            )
        } else if eq.unknowns.is_empty() {
            Diagnostic::error("E0490", eq.span, "an equation with nothing to determine")
                .with_label("every name here is known")
                .with_note(
                    "an equation determines a `real` of the model that no rule writes, or the \
                     rate `der(x)` of one; params, inputs, reals that rules write, the \
                     submodels' values, `time` and `dt` are known",
                )
                .with_help(
                    "if this is a value to compute, write it as a rule (`y = e;`); if it is a \
                     check, compare it in a situation",
                )
        } else {
            let names: Vec<String> = eq.unknowns.iter().map(Unknown::show).collect();
            Diagnostic::error(
                "E0490",
                eq.span,
                "an equation with nothing left to determine",
            )
            .with_label(format!(
                "{} {} determined by other equations",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            ))
            .with_note(
                "each equation determines one unknown; here there are more equations than \
                     unknowns among them (the system is structurally singular)",
            )
            .with_help("remove the equation, or say which `real` it determines")
        };
        for u in &eq.unknowns {
            if let Some(o) = owner[index[u]] {
                d = d.with_related(eqs[o].span, format!("{} is determined here", u.show()));
            }
        }
        diags.push(d);
    }
    for (u, o) in owner.iter().enumerate() {
        if o.is_some() {
            continue;
        }
        ok = false;
        let name = match &all[u] {
            Unknown::Value(n) | Unknown::Rate(n) => n.as_str(),
        };
        let mut d = Diagnostic::error(
            "E0491",
            reals[name],
            format!("no equation is left to determine {}", all[u].show()),
        )
        .with_label("declared here; no rule writes it")
        .with_note(
            "the equations that read it each determine another unknown: there are fewer \
             equations than unknowns among them",
        )
        .with_help(format!(
            "add an equation or a rule for {}, or make it a `param`",
            all[u].show()
        ));
        for e in by_unknown(u) {
            d = d.with_related(eqs[e].span, "read here");
        }
        diags.push(d);
    }
    if !ok {
        return None;
    }
    // Equation e reads the unknown of equation f: f comes first.
    let deps: Vec<Vec<usize>> = adj
        .iter()
        .enumerate()
        .map(|(e, us)| {
            us.iter()
                .filter_map(|&u| owner[u])
                .filter(|&f| f != e)
                .collect()
        })
        .collect();
    let comps = tarjan(&deps);
    let mut comp_of = vec![0; eqs.len()];
    for (c, comp) in comps.iter().enumerate() {
        for &e in comp {
            comp_of[e] = c;
        }
    }
    for comp in &comps {
        if comp.len() < 2 {
            continue;
        }
        let mut comp = comp.clone();
        comp.sort_unstable();
        if comp.len() <= MAX_LOOP {
            continue;
        }
        ok = false;
        let names: Vec<String> = comp
            .iter()
            .filter_map(|&e| matched[e].map(|u| all[u].show()))
            .collect();
        let why = format!(
            "Sit solves loops of at most {MAX_LOOP} equations, by substitution; Newton \
             iterations on larger blocks are not implemented yet"
        );
        let mut d = loop_error(&comp, eqs, &names, None);
        d = d.with_note(why).with_help(
            "split the loop by computing one of its values by a rule or a `prev`, or solve it \
             by hand",
        );
        diags.push(d);
    }
    if !ok {
        return None;
    }
    // Kahn's order over the blocks, the one whose first equation comes first in the
    // text among those ready.
    let n = comps.len();
    let first: Vec<usize> = comps
        .iter()
        .map(|c| *c.iter().min().expect("non-empty"))
        .collect();
    let mut waiting = vec![0usize; n];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, ds) in deps.iter().enumerate() {
        let ce = comp_of[e];
        let mut seen = BTreeSet::new();
        for &f in ds {
            let cf = comp_of[f];
            if cf != ce && seen.insert(cf) {
                users[cf].push(ce);
                waiting[ce] += 1;
            }
        }
    }
    let mut ready: BTreeSet<(usize, usize)> = (0..n)
        .filter(|&c| waiting[c] == 0)
        .map(|c| (first[c], c))
        .collect();
    let mut out = Vec::with_capacity(n);
    while let Some((_, c)) = ready.pop_first() {
        let mut block = comps[c].clone();
        block.sort_unstable();
        out.push(
            block
                .into_iter()
                .map(|e| {
                    (
                        e,
                        all[matched[e].expect("every equation is matched")].clone(),
                    )
                })
                .collect(),
        );
        for &g in &users[c] {
            waiting[g] -= 1;
            if waiting[g] == 0 {
                ready.insert((first[g], g));
            }
        }
    }
    Some(out)
}

/// E0492 for the loop of the equations `comp` (sorted), determining `names`; `at`
/// labels one of them with what went wrong there.
pub(super) fn loop_error(
    comp: &[usize],
    eqs: &[Equation<'_>],
    names: &[String],
    at: Option<(usize, String)>,
) -> Diagnostic {
    let mut d = Diagnostic::error(
        "E0492",
        eqs[comp[0]].span,
        format!(
            "an algebraic loop of {} equations that Sit cannot solve: they determine {} \
             together",
            comp.len(),
            names.join(", ")
        ),
    )
    .with_label(match &at {
        Some((e, what)) if *e == comp[0] => what.clone(),
        _ => "first equation of the loop".to_string(),
    });
    for &e in &comp[1..] {
        let what = match &at {
            Some((f, what)) if *f == e => what.clone(),
            _ => "in the loop".to_string(),
        };
        d = d.with_related(eqs[e].span, what);
    }
    d
}

/// A maximum matching of equations to unknowns (`adj[e]`: the unknowns of equation
/// `e`), by augmenting paths from each equation in order.
fn matching(adj: &[Vec<usize>], unknowns: usize) -> Vec<Option<usize>> {
    let mut of_unknown: Vec<Option<usize>> = vec![None; unknowns];
    let mut of_eq: Vec<Option<usize>> = vec![None; adj.len()];
    fn augment(
        e: usize,
        adj: &[Vec<usize>],
        seen: &mut [bool],
        of_unknown: &mut [Option<usize>],
        of_eq: &mut [Option<usize>],
    ) -> bool {
        for &u in &adj[e] {
            if seen[u] {
                continue;
            }
            seen[u] = true;
            let free = match of_unknown[u] {
                None => true,
                Some(f) => augment(f, adj, seen, of_unknown, of_eq),
            };
            if free {
                of_unknown[u] = Some(e);
                of_eq[e] = Some(u);
                return true;
            }
        }
        false
    }
    // Unknowns a single equation reads first: the textual pairing where there is one.
    for e in 0..adj.len() {
        let mut seen = vec![false; unknowns];
        augment(e, adj, &mut seen, &mut of_unknown, &mut of_eq);
    }
    of_eq
}

/// The strongly connected components of the graph `deps` (Tarjan's algorithm,
/// iterative), each a list of nodes.
fn tarjan(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = deps.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut comps = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, position in its edge list)
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if let Some(&w) = deps[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(p, _)) = work.last() {
                low[p] = low[p].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comps.push(comp);
            }
        }
    }
    comps
}
