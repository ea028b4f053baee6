//! Step order: reads of a computed variable before its rule (a one-step delay, W0207), the algebraic loops they close (E0476), and input bindings that read a value computed later in the step (W0208).
//!
//! A variable is *computed* when a top-level rule (unguarded, or `otherwise`) gives it
//! a plain expression in every step and none of its rules reads its own value: every
//! step recomputes it. A read of it before its first rule in the step is a read of the
//! previous step's value; `prev(x)` says that this is meant (it is not a read here).
//! When the variable read early is itself computed from the reader, through other rules,
//! the rules form an algebraic loop: no order of them computes the values of one step
//! from each other, and the early read turns the equations into a recurrence
//! (`e = r - y; y = gain * e` gives y = 0, 0.5, 0.25, … instead of 1/3).
//!
//! Linear in the rules: one pass over the body, Tarjan's strongly connected components
//! on the graph of reads between computed variables, a breadth-first search for the
//! path of each loop reported.

use super::reads::{VarSet, cond_vars, expr_vars};
use crate::diag::Diagnostic;
use crate::ir::{Expr, Model, Rhs, Stmt, VarId, VarKind};
use crate::source::Span;

/// One place of the body that reads variables, in the order of the step.
struct Site {
    /// The rule, or the guard.
    span: Span,
    /// The computed variables it reads.
    reads: Vec<VarId>,
    /// The targets whose value depends on what it reads: a rule's target, or for a
    /// guard the targets of the rules under it.
    owners: Vec<VarId>,
}

/// The sites of a model's body and what the analysis needs of its variables.
struct Order<'a> {
    m: &'a Model,
    sites: Vec<Site>,
    /// Per variable: whether it is computed (module documentation).
    computed: Vec<bool>,
    /// Per variable: the site of its first rule (or σ action), if any.
    first_write: Vec<Option<usize>>,
    /// What each pred and situation reads (`cond_vars`).
    conds: Vec<VarSet>,
    /// Per submodel: the site of its `step`, when placed among the rules.
    step_site: Vec<Option<usize>>,
}

impl<'a> Order<'a> {
    fn new(m: &'a Model) -> Order<'a> {
        let n = m.vars.len();
        let (conds, _) = cond_vars(m);
        let mut computed = vec![false; n];
        let mut reads_itself = vec![false; n];
        for s in &m.body {
            if let Some(a) = s.assign()
                && matches!(a.rhs, Rhs::Expr(_))
            {
                computed[a.target] = true;
            }
        }
        crate::ir::walk(&m.body, &mut |s| {
            if let Some(a) = s.assign() {
                let own = !matches!(a.rhs, Rhs::Expr(_))
                    || a.rhs
                        .operands()
                        .iter()
                        .any(|e| expr_vars(e, &conds).contains(a.target));
                reads_itself[a.target] |= own;
            }
        });
        for (v, var) in m.vars.iter().enumerate() {
            computed[v] &= !reads_itself[v] && var.kind == VarKind::State && !var.hidden;
        }
        let mut o = Order {
            m,
            sites: Vec::new(),
            computed,
            first_write: vec![None; n],
            conds: Vec::new(),
            step_site: vec![None; m.subs.len()],
        };
        o.walk(&m.body, &conds);
        o.conds = conds;
        o
    }

    /// The computed variables `e` reads (none when too many to list).
    fn reads(&self, e: &Expr, conds: &[VarSet]) -> Vec<VarId> {
        let set = expr_vars(e, conds);
        (set.listed().unwrap_or(&[]).iter())
            .copied()
            .filter(|&v| self.computed.get(v).copied().unwrap_or(false))
            .collect()
    }

    fn walk(&mut self, body: &[Stmt], conds: &[VarSet]) {
        for s in body {
            match s {
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                    let mut reads = Vec::new();
                    for e in a.rhs.operands() {
                        reads.extend(self.reads(e, conds));
                    }
                    self.sites.push(Site {
                        span: a.span,
                        reads,
                        owners: vec![a.target],
                    });
                    let at = self.sites.len() - 1;
                    self.first_write[a.target].get_or_insert(at);
                }
                Stmt::If { cond, then, span } => {
                    let mut owners = Vec::new();
                    crate::ir::walk(then, &mut |s| {
                        if let Some(a) = s.assign() {
                            owners.push(a.target);
                        }
                    });
                    let reads = self.reads(cond, conds);
                    self.sites.push(Site {
                        span: *span,
                        reads,
                        owners,
                    });
                    self.walk(then, conds);
                }
                Stmt::SetFlag { var, span, .. } => {
                    self.sites.push(Site {
                        span: *span,
                        reads: Vec::new(),
                        owners: Vec::new(),
                    });
                    let at = self.sites.len() - 1;
                    self.first_write[*var].get_or_insert(at);
                }
                Stmt::Run { sub, span } => {
                    let mut reads = Vec::new();
                    if let Some(s) = self.m.subs.get(*sub) {
                        for b in s.param_bindings.iter().chain(&s.input_bindings) {
                            reads.extend(self.reads(&b.value, conds));
                        }
                        if let Some(p) = &s.phase {
                            reads.extend(self.reads(&p.until, conds));
                        }
                    }
                    self.sites.push(Site {
                        span: *span,
                        reads,
                        owners: Vec::new(),
                    });
                }
                // Its bindings are read here: W0208 compares with the rules' sites.
                Stmt::Step { sub, span } => {
                    self.sites.push(Site {
                        span: *span,
                        reads: Vec::new(),
                        owners: Vec::new(),
                    });
                    if let Some(s) = self.step_site.get_mut(*sub) {
                        *s = Some(self.sites.len() - 1);
                    }
                }
                Stmt::Added(x) => match *x {},
                Stmt::Switch { .. } | Stmt::SetMode { .. } | Stmt::Reset { .. } => {}
            }
        }
    }

    /// Whether site `at` reads `v` before `v`'s first rule.
    fn early(&self, at: usize, v: VarId) -> bool {
        self.first_write[v].is_some_and(|w| w > at)
    }

    /// The algebraic loops: for each strongly connected component of the graph of reads
    /// between computed variables that holds an early read, that read and a path back
    /// from the variable read to the reader, as `(site, variable)` steps starting with
    /// the early read.
    fn loops(&self) -> Vec<(VarId, Vec<(usize, VarId)>)> {
        let n = self.m.vars.len();
        // Edges owner → variable read, with the site.
        let mut edges: Vec<Vec<(VarId, usize)>> = vec![Vec::new(); n];
        for (at, s) in self.sites.iter().enumerate() {
            for &o in &s.owners {
                if !self.computed[o] {
                    continue;
                }
                for &v in &s.reads {
                    if v != o {
                        edges[o].push((v, at));
                    }
                }
            }
        }
        let comp = tarjan(&edges);
        let mut seen_comp = vec![false; n];
        let mut out = Vec::new();
        for (at, s) in self.sites.iter().enumerate() {
            for &o in &s.owners {
                for &v in &s.reads {
                    if v == o || !self.computed[o] || !self.early(at, v) {
                        continue;
                    }
                    let c = comp[o];
                    if c != comp[v] || seen_comp[c] {
                        continue;
                    }
                    seen_comp[c] = true;
                    let mut path = vec![(at, v)];
                    path.extend(path_within(&edges, &comp, v, o));
                    out.push((o, path));
                }
            }
        }
        out
    }
}

/// The strongly connected component of each node (Tarjan's algorithm, iterative).
fn tarjan(edges: &[Vec<(usize, usize)>]) -> Vec<usize> {
    let n = edges.len();
    const NONE: usize = usize::MAX;
    let (mut index, mut low, mut comp) = (vec![NONE; n], vec![0; n], vec![NONE; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let (mut next, mut comps) = (0, 0);
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (u, ref mut k)) = call.last_mut() {
            if let Some(&(w, _)) = edges[u].get(*k) {
                *k += 1;
                if index[w] == NONE {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[u] = low[u].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[u]);
            }
            if low[u] == index[u] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == u {
                        break;
                    }
                }
                comps += 1;
            }
        }
    }
    comp
}

/// A shortest path from `from` to `to` inside their component, as the `(site, variable
/// read)` of each edge.
fn path_within(
    edges: &[Vec<(usize, usize)>],
    comp: &[usize],
    from: usize,
    to: usize,
) -> Vec<(usize, usize)> {
    let mut came: Vec<Option<(usize, usize)>> = vec![None; edges.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    let mut seen = vec![false; edges.len()];
    seen[from] = true;
    while let Some(u) = queue.pop_front() {
        if u == to {
            break;
        }
        for &(w, at) in &edges[u] {
            if comp[w] == comp[from] && !seen[w] {
                seen[w] = true;
                came[w] = Some((u, at));
                queue.push_back(w);
            }
        }
    }
    let mut path = Vec::new();
    let mut at = to;
    while let Some((u, site)) = came[at] {
        path.push((site, at));
        at = u;
    }
    path.reverse();
    path
}

/// E0476: the algebraic loops of `m`, each with its whole path.
pub(crate) fn loops(m: &Model) -> Vec<Diagnostic> {
    let o = Order::new(m);
    let name = |v: VarId| m.vars[v].name.as_str();
    o.loops()
        .into_iter()
        .map(|(reader, path)| {
            let (first, read) = path[0];
            let mut who = reader;
            let steps: Vec<String> = path
                .iter()
                .map(|&(_, v)| {
                    let s = format!("`{}` reads `{}`", name(who), name(v));
                    who = v;
                    s
                })
                .collect();
            let mut d = Diagnostic::error(
                "E0476",
                o.sites[first].span,
                format!("algebraic loop: {}", steps.join(", ")),
            )
            .with_label(format!(
                "reads `{}` before its rule: the previous step's value",
                name(read)
            ));
            let mut who = read;
            for &(site, v) in &path[1..] {
                d = d.with_related(
                    o.sites[site].span,
                    format!("`{}` reads `{}` here", name(who), name(v)),
                );
                who = v;
            }
            d.with_note(
                "each value of the loop is computed from the others in the same step, so no \
                 order of the rules computes them; the read before the rule turns the equations \
                 into a recurrence over the steps (a one-step delay)",
            )
            .with_help(format!(
                "if the delay is meant, write `prev({0})` here; if the values should satisfy \
                 all the rules at once, write them as equations, which Sit sorts and solves \
                 (`equation e = r - y; equation y = gain * e;`), or solve the loop by hand \
                 (`e = r / (1 + gain); y = gain * e;`)",
                name(read)
            ))
        })
        .collect()
}

/// The order in which `m`'s submodels step: those not placed first, in declaration
/// order, then the placed ones in the order of their `step` statements.
fn step_rank(m: &Model) -> Vec<usize> {
    crate::ir::step_rank(m.subs.len(), &m.body)
}

/// W0207 (a computed variable read before its rule, outside a loop) and W0208 (an input
/// binding of a submodel that reads a value computed later in the step) of `m`.
pub(crate) fn delays(m: &Model, diags: &mut Vec<Diagnostic>) {
    let o = Order::new(m);
    let name = |v: VarId| m.vars[v].name.as_str();
    // The variables whose early reads are part of a loop (an error already).
    let mut in_loop = vec![false; m.vars.len()];
    for (_, path) in o.loops() {
        for (_, v) in path {
            in_loop[v] = true;
        }
    }
    // W0207: the first early read of each variable, with how many more there are.
    let mut first: Vec<Option<(usize, usize)>> = vec![None; m.vars.len()];
    for (at, s) in o.sites.iter().enumerate() {
        for &v in &s.reads {
            if o.early(at, v) && !in_loop[v] && !s.owners.contains(&v) {
                let e = first[v].get_or_insert((at, 0));
                e.1 += 1;
            }
        }
    }
    for (v, f) in first.iter().enumerate() {
        let Some((at, count)) = *f else { continue };
        let Some(rule) = o.first_write[v] else {
            continue;
        };
        let x = name(v);
        let mut d = Diagnostic::warning(
            "W0207",
            o.sites[at].span,
            format!("`{x}` is read before its rule, so this reads the previous step's value"),
        )
        .with_label(format!("reads `{x}` here"))
        .with_related(
            o.sites[rule].span,
            format!("`{x}` is computed here, later in the step"),
        );
        if count > 1 {
            d = d.with_note(format!(
                "{} more read{} of `{x}` before this rule",
                count - 1,
                if count == 2 { "" } else { "s" }
            ));
        }
        diags.push(d.with_help(format!(
            "move the rule computing `{x}` above this one for the value of this step, or write \
             `prev({x})` to say that the previous step's value is meant"
        )));
    }
    // W0208: bindings evaluated before the body, or where a placed submodel's `step`
    // stands (and before the submodels that step later).
    let conds = &o.conds;
    let rank = step_rank(m);
    for (k, sub) in m.subs.iter().enumerate() {
        if sub.phase.is_some() {
            continue;
        }
        let at = o.step_site.get(k).copied().flatten();
        for b in &sub.input_bindings {
            for v in o.reads(&b.value, conds) {
                let Some(rule) = o.first_write[v] else {
                    continue;
                };
                if at.is_some_and(|at| rule < at) {
                    continue;
                }
                let (note, help) = match at {
                    None => (
                        "the submodels step first, in declaration order, with their bindings \
                         evaluated then; the rules of the model follow"
                            .to_string(),
                        format!(
                            "write `step({});` below the rule computing `{x}`, so that the \
                             submodel steps there with this step's value; or bind a value the \
                             submodel can use before `{x}` is computed, or write `prev({x})` to \
                             say that the previous step's value is meant",
                            sub.name,
                            x = name(v)
                        ),
                    ),
                    Some(_) => (
                        format!(
                            "`{}` steps where `step({});` stands, with its bindings evaluated then",
                            sub.name, sub.name
                        ),
                        format!(
                            "move `step({});` below the rule computing `{x}`, or write \
                             `prev({x})` to say that the previous step's value is meant",
                            sub.name,
                            x = name(v)
                        ),
                    ),
                };
                let x = name(v);
                diags.push(
                    Diagnostic::warning(
                        "W0208",
                        b.span,
                        format!(
                            "the binding of `{}` reads `{x}`, which `{}` computes later in the step",
                            sub.name, m.name
                        ),
                    )
                    .with_label(format!("`{}` steps with the previous step's `{x}`", sub.name))
                    .with_related(o.sites[rule].span, format!("`{x}` is computed here"))
                    .with_note(note)
                    .with_help(help),
                );
            }
            let mut later = Vec::new();
            b.value.visit(&mut |e| {
                if let Expr::SubVar(j, x) = *e
                    && rank[j] > rank[k]
                    && !b.prev_subs.contains(&j)
                    && !later.iter().any(|&(l, _)| l == j)
                {
                    later.push((j, x));
                }
            });
            for (j, _) in later {
                let (this, other) = (&sub.name, &m.subs[j].name);
                let d = Diagnostic::warning(
                    "W0208",
                    b.span,
                    format!("the binding of `{this}` reads `{other}`, which steps after `{this}`"),
                )
                .with_label(format!(
                    "`{this}` steps with the value `{other}` had before its step"
                ));
                diags.push(match m.subs[j].placed {
                    Some(step) => d
                        .with_related(step, format!("`{other}` steps here"))
                        .with_help(format!(
                            "place the step of `{this}` below `step({other});`, or write \
                             `prev({other}.…)` to say that the value before `{other}` steps is \
                             meant"
                        )),
                    None => d
                        .with_related(m.subs[j].span, format!("`{other}` is declared after `{this}`"))
                        .with_note("the submodels step in declaration order")
                        .with_help(format!(
                            "declare `{other}` before `{this}`, so that `{this}` reads the value of \
                             this step, or write `prev({other}.…)` to say that the value before \
                             `{other}` steps is meant"
                        )),
                });
            }
        }
    }
}
