//! Equations: `equation lhs = rhs;` matched to the unknowns they determine, sorted into an order that computes them, and each solved for its unknown as a δ rule.
//!
//! A model's equations hold together. An *unknown* is a `real` of the model that no rule
//! writes and that an equation reads (`y`), or the rate `der(x)` of such a real. Every
//! other name in an equation is known: params, inputs, reals that rules write, the
//! values of the submodels, `time`, `dt`, and `x` itself where `der(x)` is an unknown.
//! Each equation is matched to one unknown (a maximum matching of the incidence, the
//! equations and unknowns in textual order), the equations are sorted so that each
//! comes after those that determine what it reads (Tarjan's strongly connected
//! components: a component of more than one equation is an algebraic loop, refused
//! for now), and each is solved for its unknown:
//!
//! - where the unknown occurs once, by inverting the operations on its path
//!   (`y - e = 0` gives `y = e`, `m * der(v) = F - c * v` gives
//!   `v = integral((F - c * v) / m)`), so an equation already solved for its unknown
//!   is the rule `y = e;` to the bit;
//! - where it occurs more than once but linearly, as `−b / a` for the equation's
//!   difference `a·u + b`;
//! - otherwise (`exp(y) = x`, `y * y = x`) it is an error that asks for the equation
//!   solved by hand.
//!
//! The solved rules replace the equations at the place of the model's first equation,
//! in the sorted order; from there on they are ordinary rules (checked, linted, lowered
//! and run as if written so).

use crate::ast::{BinOp, Expr, ExprKind, Guard, Model, Name, Rule};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What an equation can determine.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Unknown {
    /// A real that no rule writes.
    Value(String),
    /// The rate of a real that no rule writes.
    Rate(String),
}

impl Unknown {
    fn show(&self) -> String {
        match self {
            Unknown::Value(n) => format!("`{n}`"),
            Unknown::Rate(n) => format!("`der({n})`"),
        }
    }
}

/// One equation of the model.
struct Equation<'m> {
    lhs: &'m Expr,
    rhs: &'m Expr,
    span: Span,
    /// The unknowns it reads, in the order first read.
    unknowns: Vec<Unknown>,
}

/// The model `m` with its equations solved into δ rules, or `None` when it has none
/// (the model is used as written). Errors go to `diags`; the equations that could not
/// be solved are then left out of the model returned.
pub(crate) fn solve(m: &Model, diags: &mut Vec<Diagnostic>) -> Option<Model> {
    let mut nested = Vec::new();
    for r in &m.rules {
        if let Rule::Block { rules, .. } | Rule::Transition { rules, .. } = r {
            nested_equations(rules, &mut nested);
        }
    }
    for span in &nested {
        diags.push(
            Diagnostic::error(
                "E0494",
                *span,
                "an equation inside a `when` block or a transition",
            )
            .with_label("equations hold at every step, under no condition")
            .with_help(
                "write the equation among the model's rules, or a guarded rule solved for its \
                 target (`y = e when c;`)",
            ),
        );
    }
    let first = m
        .rules
        .iter()
        .position(|r| matches!(r, Rule::Equation { .. }));
    let Some(first) = first else {
        return (!nested.is_empty()).then(|| m.clone());
    };
    let written = written(&m.rules);
    let reals: HashMap<&str, Span> = m
        .decls
        .iter()
        .filter_map(|d| match d {
            crate::ast::Decl::Var {
                kind: crate::ast::DeclKind::Real,
                name,
                ..
            } if !written.contains(name.text.as_str()) => Some((name.text.as_str(), name.span)),
            _ => None,
        })
        .collect();
    // The reals whose rate an equation states: their values are known in equations.
    let mut rated = HashSet::new();
    for r in &m.rules {
        if let Rule::Equation { lhs, rhs, .. } = r {
            rates(lhs, &reals, &mut rated);
            rates(rhs, &reals, &mut rated);
        }
    }
    let mut eqs: Vec<Equation<'_>> = Vec::new();
    let mut ok = true;
    for r in &m.rules {
        if let Rule::Equation { lhs, rhs, span } = r {
            let mut unknowns = Vec::new();
            for side in [lhs, rhs] {
                ok &= unknowns_of(side, &reals, &rated, &mut unknowns, diags);
            }
            eqs.push(Equation {
                lhs,
                rhs,
                span: *span,
                unknowns,
            });
        }
    }
    let solved = if ok { order(&eqs, &reals, diags) } else { None };
    let rules = solved.map(|blocks| {
        let mut rules = Vec::new();
        for block in blocks {
            match block.as_slice() {
                [(e, u)] => rules.extend(solve_one(&eqs[*e], u, diags)),
                _ => rules.extend(solve_loop(&eqs, &block, diags).unwrap_or_default()),
            }
        }
        rules
    });
    let mut out = m.clone();
    let mut kept: Vec<Rule> = Vec::with_capacity(m.rules.len());
    for (i, r) in m.rules.iter().enumerate() {
        if i == first
            && let Some(rules) = &rules
        {
            kept.extend(rules.iter().cloned());
        }
        if !matches!(r, Rule::Equation { .. }) {
            kept.push(r.clone());
        }
    }
    out.rules = kept;
    Some(out)
}

/// The spans of the equations among `rules` and the rules nested in them.
fn nested_equations(rules: &[Rule], out: &mut Vec<Span>) {
    for r in rules {
        match r {
            Rule::Equation { span, .. } => out.push(*span),
            Rule::Block { rules, .. } | Rule::Transition { rules, .. } => {
                nested_equations(rules, out)
            }
            _ => {}
        }
    }
}

/// The names that some rule of `rules` assigns, at any depth.
fn written(rules: &[Rule]) -> HashSet<&str> {
    let mut out = HashSet::new();
    fn walk<'a>(rules: &'a [Rule], out: &mut HashSet<&'a str>) {
        for r in rules {
            match r {
                Rule::Assign { target, .. } => {
                    out.insert(target.text.as_str());
                }
                Rule::Block { rules, .. } | Rule::Transition { rules, .. } => walk(rules, out),
                _ => {}
            }
        }
    }
    walk(rules, &mut out);
    out
}

/// The real `x` of `der(x)`, if `e` is that call with one plain name.
fn der_of(e: &Expr) -> Option<&Name> {
    let ExprKind::Call(f, args) = &e.kind else {
        return None;
    };
    if f.text != "der" || args.len() != 1 {
        return None;
    }
    match &args[0].kind {
        ExprKind::Path(p) if p.len() == 1 => Some(&p[0]),
        _ => None,
    }
}

/// Adds to `out` the reals `x` of the calls `der(x)` in `e` that are unknowns.
fn rates<'a>(e: &'a Expr, reals: &HashMap<&str, Span>, out: &mut HashSet<&'a str>) {
    if let Some(x) = der_of(e)
        && reals.contains_key(x.text.as_str())
    {
        out.insert(&x.text);
        return;
    }
    for c in children(e) {
        rates(c, reals, out);
    }
}

/// The operands of `e` that an equation's unknowns can stand in: not the argument of
/// `prev(…)`, which is the previous step's value, known.
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Call(f, _) if f.text == "prev" => Vec::new(),
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) | ExprKind::Path(_) => {
            Vec::new()
        }
        ExprKind::Call(_, args) => args.iter().collect(),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => vec![a],
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::Compare(a, rest) => {
            let mut v = vec![&**a];
            v.extend(rest.iter().map(|(_, e)| e));
            v
        }
    }
}

/// The unknown that `e` is, if it is one.
fn unknown_at(e: &Expr, reals: &HashMap<&str, Span>, rated: &HashSet<&str>) -> Option<Unknown> {
    if let Some(x) = der_of(e) {
        return reals
            .contains_key(x.text.as_str())
            .then(|| Unknown::Rate(x.text.clone()));
    }
    match &e.kind {
        ExprKind::Path(p)
            if p.len() == 1
                && reals.contains_key(p[0].text.as_str())
                && !rated.contains(p[0].text.as_str()) =>
        {
            Some(Unknown::Value(p[0].text.clone()))
        }
        _ => None,
    }
}

/// Adds the unknowns of `e` to `out` (each once, in the order first read); `false`
/// after an error (a `der` of something that is not an unknown's rate).
fn unknowns_of(
    e: &Expr,
    reals: &HashMap<&str, Span>,
    rated: &HashSet<&str>,
    out: &mut Vec<Unknown>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if let Some(u) = unknown_at(e, reals, rated) {
        if !out.contains(&u) {
            out.push(u);
        }
        return true;
    }
    if let ExprKind::Call(f, args) = &e.kind
        && f.text == "der"
    {
        let what = match der_of(e) {
            Some(x) => format!(
                "`{}` is not a `real` of this model that no rule writes",
                x.text
            ),
            None if args.len() == 1 => "the argument is not a variable's name".to_string(),
            None => format!("`der` takes one argument, not {}", args.len()),
        };
        diags.push(
            Diagnostic::error(
                "E0494",
                e.span,
                "`der` of something that is not a state's rate",
            )
            .with_label(what)
            .with_help(
                "`der(x)` in an equation is the rate of a `real x` that the equations \
                     determine (no rule writes it)",
            ),
        );
        return false;
    }
    let mut ok = true;
    for c in children(e) {
        ok &= unknowns_of(c, reals, rated, out, diags);
    }
    ok
}

/// The most equations of a loop solved by substitution (the expressions grow with it).
const MAX_LOOP: usize = 8;

/// The blocks of equations in an order that computes them, each equation with the
/// unknown it determines (a block of more than one is a loop, in textual order);
/// `None` after an error (an equation with nothing to determine, an unknown that no
/// equation is left for, a loop that cannot be solved by substitution).
fn order(
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
        let mut d = if eq.unknowns.is_empty() {
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
        let rate = comp
            .iter()
            .find_map(|&e| matched[e].filter(|&u| matches!(all[u], Unknown::Rate(_))));
        if comp.len() <= MAX_LOOP && rate.is_none() {
            continue;
        }
        ok = false;
        let names: Vec<String> = comp
            .iter()
            .filter_map(|&e| matched[e].map(|u| all[u].show()))
            .collect();
        let why = match rate {
            Some(u) => format!(
                "the rate {} is in the loop, and a rate cannot be read as a value by the \
                 loop's other unknowns",
                all[u].show()
            ),
            None => format!(
                "Sit solves loops of at most {MAX_LOOP} equations, by substitution; Newton \
                 iterations on larger blocks are not implemented yet"
            ),
        };
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
fn loop_error(
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

/// Whether `e` is the unknown `u`.
fn is(e: &Expr, u: &Unknown) -> bool {
    match u {
        Unknown::Rate(x) => der_of(e).is_some_and(|n| &n.text == x),
        Unknown::Value(x) => {
            matches!(&e.kind, ExprKind::Path(p) if p.len() == 1 && &p[0].text == x)
        }
    }
}

/// How many times `e` reads `u`.
fn count(e: &Expr, u: &Unknown) -> usize {
    if is(e, u) {
        return 1;
    }
    children(e).into_iter().map(|c| count(c, u)).sum()
}

/// The δ rule that equation `eq` solved for `u` is, or `None` after an error.
fn solve_one(eq: &Equation<'_>, u: &Unknown, diags: &mut Vec<Diagnostic>) -> Option<Rule> {
    let span = eq.span;
    let Some(value) = solve_for(eq.lhs, eq.rhs, u, span) else {
        diags.push(
            Diagnostic::error(
                "E0493",
                span,
                format!("this equation cannot be solved for {}", u.show()),
            )
            .with_label(format!("determines {}, but not linearly", u.show()))
            .with_note(
                "Sit solves an equation for its unknown where the unknown is reached through \
                 `+`, `-`, `*` and `/` only, and is multiplied by no other unknown; Newton \
                 iterations on nonlinear equations are not implemented yet",
            )
            .with_help(format!("solve the equation for {} by hand", u.show())),
        );
        return None;
    };
    Some(rule(eq, u, value))
}

/// `u` from `lhs = rhs`: by inversion where `u` occurs once, else as a linear
/// equation; `None` where neither applies (or `u` does not occur).
fn solve_for(lhs: &Expr, rhs: &Expr, u: &Unknown, span: Span) -> Option<Expr> {
    match (count(lhs, u), count(rhs, u)) {
        (0, 0) => None,
        (1, 0) => invert(lhs, rhs.clone(), u, span),
        (0, 1) => invert(rhs, lhs.clone(), u, span),
        _ => linear(lhs, rhs, u, span),
    }
}

/// The rule `u = value` of equation `eq` (`x = integral(value)` for a rate).
fn rule(eq: &Equation<'_>, u: &Unknown, value: Expr) -> Rule {
    let span = eq.span;
    let (name, value) = match u {
        Unknown::Value(n) => (n, value),
        Unknown::Rate(n) => (
            n,
            Expr {
                kind: ExprKind::Call(
                    Name {
                        text: "integral".into(),
                        span,
                    },
                    vec![value],
                ),
                span,
            },
        ),
    };
    Rule::Assign {
        target: Name {
            text: name.clone(),
            span: occurrence(eq, u).unwrap_or(span),
        },
        value,
        guard: Guard::None,
        span,
    }
}

/// The rules of a loop of equations (`block`: each with its unknown, in textual order),
/// solved by substitution: each equation in turn is solved for its unknown, which is
/// then replaced by that solution in the equations after it, so the last one reads
/// only known values; the rules compute the unknowns back from the last. `None` after
/// an error (an equation that, once substituted, is not linear in its unknown or no
/// longer reads it: the loop is singular or nonlinear).
fn solve_loop(
    eqs: &[Equation<'_>],
    block: &[(usize, Unknown)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Rule>> {
    let mut sides: Vec<(Expr, Expr)> = block
        .iter()
        .map(|&(e, _)| (eqs[e].lhs.clone(), eqs[e].rhs.clone()))
        .collect();
    let mut values = Vec::with_capacity(block.len());
    for i in 0..block.len() {
        let (e, u) = (&block[i].0, &block[i].1);
        let span = eqs[*e].span;
        let (lhs, rhs) = &sides[i];
        let Some(value) = solve_for(lhs, rhs, u, span) else {
            let comp: Vec<usize> = block.iter().map(|(e, _)| *e).collect();
            let names: Vec<String> = block.iter().map(|(_, u)| u.show()).collect();
            diags.push(
                loop_error(
                    &comp,
                    eqs,
                    &names,
                    Some((*e, format!("not linear in {} here", u.show()))),
                )
                .with_note(format!(
                    "Sit solves a loop by substitution: each equation for its unknown, put \
                         into the equations after it; once the earlier unknowns are put in, \
                         this one is not linear in {} (or no longer reads it: the loop is \
                         singular)",
                    u.show()
                ))
                .with_help(
                    "split the loop by computing one of its values by a rule or a `prev`, \
                         or solve it by hand",
                ),
            );
            return None;
        };
        for (l, r) in &mut sides[i + 1..] {
            *l = substitute(l, u, &value);
            *r = substitute(r, u, &value);
        }
        values.push(value);
    }
    Some(
        block
            .iter()
            .zip(values)
            .rev()
            .map(|((e, u), value)| rule(&eqs[*e], u, value))
            .collect(),
    )
}

/// `e` with every read of `u` replaced by `value`.
fn substitute(e: &Expr, u: &Unknown, value: &Expr) -> Expr {
    if is(e, u) {
        return value.clone();
    }
    let sub = |a: &Expr| Box::new(substitute(a, u, value));
    let kind = match &e.kind {
        // The previous step's value of `u` is not `u`.
        ExprKind::Call(f, _) if f.text == "prev" => e.kind.clone(),
        ExprKind::Call(f, args) => ExprKind::Call(
            f.clone(),
            args.iter().map(|a| substitute(a, u, value)).collect(),
        ),
        ExprKind::Neg(a) => ExprKind::Neg(sub(a)),
        ExprKind::Not(a) => ExprKind::Not(sub(a)),
        ExprKind::Paren(a) => ExprKind::Paren(sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::Compare(a, rest) => ExprKind::Compare(
            sub(a),
            rest.iter()
                .map(|(op, x)| (*op, substitute(x, u, value)))
                .collect(),
        ),
        k => k.clone(),
    };
    Expr { kind, span: e.span }
}

/// Where equation `eq` first reads `u`.
fn occurrence(eq: &Equation<'_>, u: &Unknown) -> Option<Span> {
    fn find(e: &Expr, u: &Unknown) -> Option<Span> {
        if is(e, u) {
            return Some(e.span);
        }
        children(e).into_iter().find_map(|c| find(c, u))
    }
    find(eq.lhs, u).or_else(|| find(eq.rhs, u))
}

fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    // The literal 0 and 1 where they change nothing: `y - e = 0` is `y = e`, not
    // `y = 0 + e` (the same value, but the rule written by hand to the bit).
    let lit = |e: &Expr, v: f64| matches!(e.kind, ExprKind::Num(x) if x == v);
    match op {
        BinOp::Add if lit(&a, 0.0) => return b,
        BinOp::Add | BinOp::Sub if lit(&b, 0.0) => return a,
        BinOp::Sub if lit(&a, 0.0) => return neg(b, span),
        BinOp::Mul if lit(&a, 1.0) => return b,
        BinOp::Mul | BinOp::Div if lit(&b, 1.0) => return a,
        _ => {}
    }
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}

fn neg(a: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Neg(Box::new(a)),
        span,
    }
}

/// `u` from `e = other`, where `e` reads `u` once.
fn invert(e: &Expr, other: Expr, u: &Unknown, span: Span) -> Option<Expr> {
    if is(e, u) {
        return Some(other);
    }
    match &e.kind {
        ExprKind::Paren(a) => invert(a, other, u, span),
        ExprKind::Neg(a) => invert(a, neg(other, span), u, span),
        ExprKind::Binary(op, a, b) => {
            let in_a = count(a, u) == 1;
            let (a, b) = (&**a, &**b);
            match (*op, in_a) {
                (BinOp::Add, true) => invert(a, bin(BinOp::Sub, other, b.clone(), span), u, span),
                (BinOp::Add, false) => invert(b, bin(BinOp::Sub, other, a.clone(), span), u, span),
                (BinOp::Sub, true) => invert(a, bin(BinOp::Add, other, b.clone(), span), u, span),
                (BinOp::Sub, false) => invert(b, bin(BinOp::Sub, a.clone(), other, span), u, span),
                (BinOp::Mul, true) => invert(a, bin(BinOp::Div, other, b.clone(), span), u, span),
                (BinOp::Mul, false) => invert(b, bin(BinOp::Div, other, a.clone(), span), u, span),
                (BinOp::Div, true) => invert(a, bin(BinOp::Mul, other, b.clone(), span), u, span),
                (BinOp::Div, false) => invert(b, bin(BinOp::Div, a.clone(), other, span), u, span),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `e` as `a·u + b` (`None` for a zero part), or `None` when it is not linear in `u`.
type Linear = (Option<Expr>, Option<Expr>);

fn lin(e: &Expr, u: &Unknown, span: Span) -> Option<Linear> {
    if is(e, u) {
        return Some((
            Some(Expr {
                kind: ExprKind::Num(1.0),
                span,
            }),
            None,
        ));
    }
    if count(e, u) == 0 {
        return Some((None, Some(e.clone())));
    }
    let add = |x: Option<Expr>, y: Option<Expr>, op: BinOp| -> Option<Expr> {
        match (x, y) {
            (None, None) => None,
            (Some(x), None) => Some(x),
            (None, Some(y)) => Some(if op == BinOp::Sub { neg(y, span) } else { y }),
            (Some(x), Some(y)) => Some(bin(op, x, y, span)),
        }
    };
    match &e.kind {
        ExprKind::Paren(a) => lin(a, u, span),
        ExprKind::Neg(a) => {
            let (c, r) = lin(a, u, span)?;
            Some((c.map(|c| neg(c, span)), r.map(|r| neg(r, span))))
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (ca, ra) = lin(a, u, span)?;
            let (cb, rb) = lin(b, u, span)?;
            Some((add(ca, cb, *op), add(ra, rb, *op)))
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (in_a, in_b) = (count(a, u) > 0, count(b, u) > 0);
            if in_a && in_b {
                return None;
            }
            let (x, k) = if in_a { (a, b) } else { (b, a) };
            let (c, r) = lin(x, u, span)?;
            let scale = |v: Expr| bin(BinOp::Mul, (**k).clone(), v, span);
            Some((c.map(scale), r.map(scale)))
        }
        ExprKind::Binary(BinOp::Div, a, b) if count(b, u) == 0 => {
            let (c, r) = lin(a, u, span)?;
            let scale = |v: Expr| bin(BinOp::Div, v, (**b).clone(), span);
            Some((c.map(scale), r.map(scale)))
        }
        _ => None,
    }
}

/// `u` from an equation linear in it: `lhs − rhs = a·u + b` gives `u = −b / a`.
fn linear(lhs: &Expr, rhs: &Expr, u: &Unknown, span: Span) -> Option<Expr> {
    let (cl, rl) = lin(lhs, u, span)?;
    let (cr, rr) = lin(rhs, u, span)?;
    let sub = |x: Option<Expr>, y: Option<Expr>| match (x, y) {
        (None, None) => None,
        (Some(x), None) => Some(x),
        (None, Some(y)) => Some(neg(y, span)),
        (Some(x), Some(y)) => Some(bin(BinOp::Sub, x, y, span)),
    };
    let a = sub(cl, cr)?;
    // −b = rhs's part − lhs's part.
    let minus_b = sub(rr, rl).unwrap_or(Expr {
        kind: ExprKind::Num(0.0),
        span,
    });
    Some(bin(BinOp::Div, minus_b, a, span))
}
