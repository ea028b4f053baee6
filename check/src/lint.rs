//! Warnings about valid models that are probably not what was meant, and the one error
//! that needs the same analysis of guards (E0477).
//!
//! (W0209 and W0210, on a method's tolerance and on `==` between reals that change
//! continuously, are the checker's: `crate::check`.)
//!
//! Every check works on the checked IR, one model at a time:
//!
//! - `W0201` a declaration that nothing reads;
//! - `W0202` two guarded δ rules for one target whose guards can hold at once;
//! - `W0203` a δ rule always overwritten by a later unconditional rule;
//! - `W0204` σ actions that set and clear the same flag (or switch a
//!   submodel on and off) in the same step;
//! - `W0205` a pred, situation or guard that can never hold, and a guard
//!   that always holds;
//! - `W0206` an `otherwise` rule with no rule before it, or a rule after it;
//! - `W0240` a σ cascade: a σ rule makes a later one hold in the same step,
//!   which undoes its action;
//! - `W0241` a target assigned only under guards and read where none holds;
//! - `W0242` under a method other than `euler`, a value the rates read that is held
//!   through the step (assigned only under guards) while its rules read the states;
//! - `W0243` under a method other than `euler`, a rate that reads `prev` of a
//!   continuous state (the same at every stage: first order in it);
//! - `E0477` (an error) two continuous rules for one state that can apply in the same
//!   step: no method gives them one meaning.
//!
//! Whether guards can hold together is decided by the `logic` submodule; when the
//! search is too large no warning is given.

mod continuous;
mod held;
mod logic;
pub(crate) mod order;
mod prev_stages;
mod reads;
mod traps;

use crate::diag::Diagnostic;
use crate::ir::{Expr, Model, Program, Rhs, Stmt, Ty, VarId, VarKind};
use crate::source::{SourceMap, Span};
use logic::{Formula, Logic, Sat};
use reads::VarSet;
use std::collections::HashMap;

/// Append warnings about `program` to `diags`.
pub fn lint(program: &Program, diags: &mut Vec<Diagnostic>) {
    for (id, m) in program.models.iter().enumerate() {
        let cx = Cx {
            m,
            sources: &program.sources,
        };
        let from = diags.len();
        cx.unread(diags);
        let mut logic = [
            Logic::new(program, id, false),
            Logic::new(program, id, true),
        ];
        let body = Body::new(m, &mut logic);
        cx.impossible(&body, &mut logic[UNKNOWN], diags);
        cx.overlapping_rules(&body, &mut logic[DEFAULTS], diags);
        cx.continuous_overlaps(&body, &mut logic[DEFAULTS], diags);
        cx.overwritten_rules(&body, diags);
        cx.conflicting_actions(&body, &mut logic[DEFAULTS], diags);
        cx.otherwise_order(&body, diags);
        cx.sigma_cascades(&body, &mut logic[DEFAULTS], diags);
        cx.stale_reads(&body, &mut logic[DEFAULTS], diags, from);
        cx.held_in_stages(diags, from);
        cx.prev_in_stages(diags);
        order::delays(m, diags);
    }
}

/// The solver that treats params as unknown constants: what it proves
/// impossible is impossible for every value of the params.
const UNKNOWN: usize = 0;
/// The solver that gives params their default values: overlaps are only
/// reported when they happen with the model as written (two rules for
/// `T >= T_high` and `T <= T_low` do not overlap when `T_low < T_high`).
const DEFAULTS: usize = 1;

/// How many earlier rules for the same target (or actions on the same flag)
/// W0202 and W0204 compare a rule with: a bound that keeps the lints linear
/// in the number of rules when many rules share a target with exclusive
/// guards (an overlap between rules further apart is not reported).
const LOOKBACK: usize = 32;

/// One model and the sources, for messages.
struct Cx<'a> {
    m: &'a Model,
    sources: &'a SourceMap,
}

/// A guard of the body (`when` of a block, a σ rule or a guarded δ rule).
struct Guard<'a> {
    expr: &'a Expr,
    span: Span,
    /// The enclosing guards, outermost first.
    chain: Vec<usize>,
    /// The guard's formula for each solver ([`UNKNOWN`], [`DEFAULTS`]).
    formula: [Option<Formula>; 2],
}

/// A statement that is not a guard, with the guards around it.
struct Leaf<'a> {
    stmt: &'a Stmt,
    /// The enclosing guards, outermost first.
    chain: Vec<usize>,
}

/// The body of a model flattened into its guards and leaves, in order,
/// with what each reads and indexes by target.
struct Body<'a> {
    guards: Vec<Guard<'a>>,
    leaves: Vec<Leaf<'a>>,
    /// What each guard reads.
    guard_vars: Vec<VarSet>,
    /// What each leaf's own right-hand side reads (the target included when
    /// the procedure uses its current value).
    leaf_vars: Vec<VarSet>,
    /// The δ rules (plain and `otherwise`) of each target, in order.
    by_target: HashMap<VarId, Vec<usize>>,
    /// The leaves where a variable may be read (by the leaf or its guards).
    read_at: HashMap<VarId, Vec<usize>>,
    /// The leaves that may read any variable (too many to list).
    read_all: Vec<usize>,
    /// The preds and situations, each after the ones it reads.
    cond_order: Vec<usize>,
}

impl<'a> Body<'a> {
    fn new(m: &'a Model, logic: &mut [Logic; 2]) -> Body<'a> {
        let mut b = Body {
            guards: Vec::new(),
            leaves: Vec::new(),
            guard_vars: Vec::new(),
            leaf_vars: Vec::new(),
            by_target: HashMap::new(),
            read_at: HashMap::new(),
            read_all: Vec::new(),
            cond_order: Vec::new(),
        };
        let (conds, order) = reads::cond_vars(m);
        // Formulas of the conditions, leaves first, so that one too large
        // to analyse is found once and not expanded again where it is read.
        for &c in &order {
            for l in logic.iter_mut() {
                let _ = l.formula(&Expr::Cond(c));
            }
        }
        b.walk(&m.body, &mut Vec::new(), logic);
        b.cond_order = order;
        b.guard_vars = b
            .guards
            .iter()
            .map(|g| reads::expr_vars(g.expr, &conds))
            .collect();
        for (l, leaf) in b.leaves.iter().enumerate() {
            let own = match assign(leaf.stmt) {
                Some((a, _)) => {
                    b.by_target.entry(a.target).or_default().push(l);
                    let mut set = if a.rhs.reads_target() {
                        VarSet::from_vars(vec![a.target])
                    } else {
                        VarSet::empty()
                    };
                    for e in a.rhs.operands() {
                        set = set.union(&reads::expr_vars(e, &conds));
                    }
                    set
                }
                None => VarSet::empty(),
            };
            let mut all = own.clone();
            for &g in &leaf.chain {
                all = all.union(&b.guard_vars[g]);
            }
            match all.listed() {
                Some(vs) => {
                    for &v in vs {
                        b.read_at.entry(v).or_default().push(l);
                    }
                }
                None => b.read_all.push(l),
            }
            b.leaf_vars.push(own);
        }
        b
    }

    /// The first leaf after `after` that may read `v`, if any.
    fn next_read(&self, v: VarId, after: usize) -> Option<usize> {
        let first = |xs: &[usize]| xs.get(xs.partition_point(|&l| l <= after)).copied();
        let a = self.read_at.get(&v).and_then(|xs| first(xs));
        let b = first(&self.read_all);
        match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        }
    }

    /// Whether a guard of `later` that does not enclose `earlier` reads `v`:
    /// it decides on the value the earlier leaf left.
    fn later_guard_reads(&self, earlier: &Leaf, later: &Leaf, v: VarId) -> bool {
        later
            .chain
            .iter()
            .filter(|g| !earlier.chain.contains(g))
            .any(|&g| self.guard_vars[g].contains(v))
    }

    fn walk(&mut self, stmts: &'a [Stmt], chain: &mut Vec<usize>, logic: &mut [Logic; 2]) {
        for s in stmts {
            if let Stmt::If { cond, then, span } = s {
                let id = self.guards.len();
                self.guards.push(Guard {
                    expr: cond,
                    span: *span,
                    chain: chain.clone(),
                    formula: [logic[0].formula(cond), logic[1].formula(cond)],
                });
                chain.push(id);
                self.walk(then, chain, logic);
                chain.pop();
            } else {
                self.leaves.push(Leaf {
                    stmt: s,
                    chain: chain.clone(),
                });
            }
        }
    }

    /// Whether the guards of both chains can hold at the same time.
    fn together(&self, logic: &mut Logic, a: &[usize], b: &[usize]) -> Sat {
        let which = usize::from(logic.defaults());
        let mut ids: Vec<usize> = a.iter().chain(b).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let mut fs = Vec::new();
        for i in ids {
            match &self.guards[i].formula[which] {
                Some(f) => fs.push(f),
                None => return Sat::Unknown,
            }
        }
        logic.satisfiable(&fs)
    }
}

/// A δ rule of a leaf: the assignment and whether it is an `otherwise`.
fn assign(stmt: &Stmt) -> Option<(&crate::ir::Assign, bool)> {
    match stmt {
        Stmt::Assign(a) => Some((a, false)),
        Stmt::Otherwise { assign, .. } => Some((assign, true)),
        _ => None,
    }
}

/// Up to 60 characters of a span's text, on one line.
fn short(sources: &SourceMap, span: Span) -> String {
    let text: String = sources
        .text(span)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if text.chars().count() > 60 {
        let mut s: String = text.chars().take(57).collect();
        s.push('…');
        s
    } else {
        text
    }
}

impl Cx<'_> {
    /// The guards of both chains as source text, each once:
    /// `` `a` `` or `` `a`, `b` and `c` ``, and the verb to follow.
    fn guards_text(&self, body: &Body, a: &[usize], b: &[usize]) -> String {
        let mut ids: Vec<usize> = a.iter().chain(b).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let parts: Vec<String> = ids
            .iter()
            .map(|&g| format!("`{}`", short(self.sources, body.guards[g].span)))
            .collect();
        match parts.len() {
            0 => "always".into(),
            1 => format!("when {} holds", parts[0]),
            n => format!(
                "when {} and {} hold",
                parts[..n - 1].join(", "),
                parts[n - 1]
            ),
        }
    }

    fn var_name(&self, v: VarId) -> &str {
        self.m.vars.get(v).map_or("?", |v| v.name.as_str())
    }

    /// W0201: declarations never read.
    fn unread(&self, diags: &mut Vec<Diagnostic>) {
        let m = self.m;
        let mut vars = vec![false; m.vars.len()];
        let mut own = vec![false; m.vars.len()];
        let mut conds = vec![false; m.conds.len()];
        let mut events = vec![false; m.events.len()];
        let mut subs = vec![false; m.subs.len()];
        let mut mark = |e: &Expr, target: Option<VarId>| {
            e.visit(&mut |x| match x {
                Expr::Var(v) | Expr::Prev(v) if Some(*v) == target => {
                    if let Some(o) = own.get_mut(*v) {
                        *o = true;
                    }
                }
                Expr::Var(v) | Expr::Prev(v) => {
                    if let Some(r) = vars.get_mut(*v) {
                        *r = true;
                    }
                }
                Expr::Cond(c) => {
                    if let Some(r) = conds.get_mut(*c) {
                        *r = true;
                    }
                }
                Expr::Event(ev) => {
                    if let Some(r) = events.get_mut(*ev) {
                        *r = true;
                    }
                }
                Expr::SubVar(s, _)
                | Expr::SubCond(s, _)
                | Expr::SubEvent(s, _)
                | Expr::SubOn(s)
                | Expr::SubTime(s) => {
                    if let Some(r) = subs.get_mut(*s) {
                        *r = true;
                    }
                }
                _ => {}
            })
        };
        for v in &m.vars {
            mark(&v.init, None);
        }
        for c in &m.conds {
            mark(&c.expr, None);
        }
        for ev in &m.events {
            mark(&ev.cond, None);
        }
        for s in &m.subs {
            for b in s.param_bindings.iter().chain(&s.input_bindings) {
                mark(&b.value, None);
            }
            if let Some(ph) = &s.phase {
                mark(&ph.until, None);
            }
        }
        if let Some(ss) = &m.substeps {
            mark(&ss.when, None);
            mark(&ss.count, None);
        }
        let mut todo: Vec<&Stmt> = m.body.iter().collect();
        while let Some(s) = todo.pop() {
            match s {
                Stmt::If { cond, then, .. } => {
                    mark(cond, None);
                    todo.extend(then);
                }
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                    for e in a.rhs.operands() {
                        mark(e, Some(a.target));
                    }
                }
                Stmt::Added(x) => match *x {},
                Stmt::SetFlag { .. }
                | Stmt::Switch { .. }
                | Stmt::Reset { .. }
                | Stmt::Run { .. }
                | Stmt::Step { .. }
                | Stmt::SetMode { .. } => {}
            }
        }
        let observe = "mark it `output` if it is there to be observed";
        for (i, v) in m.vars.iter().enumerate() {
            // A part's variables (`r1.v`) are there for the holder to observe; a hidden
            // one (the steps a Newton iteration needed) for the event log.
            if vars[i] || v.output || v.hidden || v.name.contains('.') {
                continue;
            }
            let (what, note) = match (v.kind, v.ty) {
                (VarKind::Input, _) => continue,
                (VarKind::Param { .. }, _) => (
                    "param",
                    "it has no effect on the model; params cannot be outputs",
                ),
                (VarKind::State, Ty::Real) => ("state", observe),
                (VarKind::State, Ty::Flag) => ("flag", observe),
            };
            let how = if own[i] {
                "is only read by its own rules"
            } else {
                "is never read"
            };
            diags.push(
                Diagnostic::warning("W0201", v.span, format!("the {what} `{}` {how}", v.name))
                    .with_label("declared here")
                    .with_note(note),
            );
        }
        for (i, c) in m.conds.iter().enumerate() {
            if !conds[i] && !c.output {
                let what = match c.kind {
                    crate::ir::CondKind::Pred => "pred",
                    crate::ir::CondKind::Situation => "situation",
                };
                diags.push(
                    Diagnostic::warning(
                        "W0201",
                        c.span,
                        format!("the {what} `{}` is never read", c.name),
                    )
                    .with_label("declared here")
                    .with_note(observe),
                );
            }
        }
        for (i, ev) in m.events.iter().enumerate() {
            if !events[i] && !ev.output {
                diags.push(
                    Diagnostic::warning(
                        "W0201",
                        ev.span,
                        format!("the event `{}` is never read", ev.name),
                    )
                    .with_label("declared here")
                    .with_note(observe),
                );
            }
        }
        for (i, s) in m.subs.iter().enumerate() {
            if !subs[i] {
                diags.push(
                    Diagnostic::warning(
                        "W0201",
                        s.span,
                        format!("the submodel `{}` is never read", s.name),
                    )
                    .with_label("declared here")
                    .with_note(format!(
                        "no rule, condition or binding reads its outputs or `{}.on`; \
                         only the host sees its variables (as `{}.NAME`)",
                        s.name, s.name
                    )),
                );
            }
        }
    }

    /// W0205: preds, situations and guards that never hold, and guards that
    /// always hold.
    fn impossible(&self, body: &Body, logic: &mut Logic, diags: &mut Vec<Diagnostic>) {
        let m = self.m;
        let mut never = vec![false; m.conds.len()];
        for &i in &body.cond_order {
            let Some(c) = m.conds.get(i) else { continue };
            let Some(f) = logic.formula(&Expr::Cond(i)) else {
                continue;
            };
            if logic.satisfiable(&[&f]) == Sat::No {
                never[i] = true;
                let what = match c.kind {
                    crate::ir::CondKind::Pred => "pred",
                    crate::ir::CondKind::Situation => "situation",
                };
                diags.push(
                    Diagnostic::warning(
                        "W0205",
                        c.span,
                        format!("the {what} `{}` can never hold", c.name),
                    )
                    .with_label("never true")
                    .with_note(
                        "no values of the variables it reads make its definition true \
                         (the preds and situations it reads are expanded)",
                    )
                    .with_help("check the comparisons (`<` against `>`) and the `!`s"),
                );
            }
        }
        for (gi, g) in body.guards.iter().enumerate() {
            let Some(f) = &g.formula[UNKNOWN] else {
                continue;
            };
            let reads_reported = {
                let mut r = false;
                g.expr.visit(&mut |x| {
                    if let Expr::Cond(c) = x {
                        r |= never.get(*c).copied().unwrap_or(false);
                    }
                });
                r
            };
            match logic.satisfiable(&[f]) {
                Sat::No => {
                    if !reads_reported {
                        diags.push(
                            Diagnostic::warning("W0205", g.span, "this guard can never hold")
                                .with_label("never true")
                                .with_note("the rules under it never run"),
                        );
                    }
                    continue;
                }
                Sat::Unknown => continue,
                Sat::Yes => {}
            }
            if !g.chain.is_empty() && body.together(logic, &g.chain, &[]) == Sat::Yes {
                let mut all = g.chain.clone();
                all.push(gi);
                if body.together(logic, &all, &[]) == Sat::No {
                    let outer = g.chain[g.chain.len() - 1];
                    diags.push(
                        Diagnostic::warning(
                            "W0205",
                            g.span,
                            "this guard can never hold where it stands",
                        )
                        .with_label("never true here")
                        .with_related(
                            body.guards[outer].span,
                            "it contradicts this enclosing guard",
                        )
                        .with_note("the rules under it never run"),
                    );
                    continue;
                }
            }
            if !f.is_constant() && logic.satisfiable(&[&f.not()]) == Sat::No {
                diags.push(
                    Diagnostic::warning("W0205", g.span, "this guard always holds")
                        .with_label("always true")
                        .with_help("remove the guard: a rule without `when` applies in every step"),
                );
            }
        }
    }

    /// W0202: two guarded δ rules for one target that can apply together.
    fn overlapping_rules(&self, body: &Body, logic: &mut Logic, diags: &mut Vec<Diagnostic>) {
        for (j, lj) in body.leaves.iter().enumerate() {
            let Some((aj, false)) = assign(lj.stmt) else {
                continue;
            };
            let t = aj.target;
            if lj.chain.is_empty() || body.leaf_vars[j].contains(t) {
                continue;
            }
            let same = body.by_target.get(&t).map_or(&[][..], Vec::as_slice);
            let earlier = &same[..same.partition_point(|&i| i < j)];
            // The nearest earlier guarded rule for the same target that can
            // apply in the same step.
            for &i in earlier.iter().rev().take(LOOKBACK) {
                let li = &body.leaves[i];
                let Some((ai, false)) = assign(li.stmt) else {
                    continue;
                };
                if li.chain.is_empty() {
                    continue;
                }
                // Same value: the order does not matter.
                if let (Rhs::Expr(x), Rhs::Expr(y)) = (&ai.rhs, &aj.rhs)
                    && x == y
                {
                    continue;
                }
                // A guard entered after the earlier rule that reads the
                // target decides on its result: a deliberate correction.
                if body.later_guard_reads(li, lj, t) {
                    break;
                }
                if body.together(logic, &li.chain, &[]) != Sat::Yes
                    || body.together(logic, &lj.chain, &[]) != Sat::Yes
                    || body.together(logic, &li.chain, &lj.chain) != Sat::Yes
                {
                    continue;
                }
                let name = self.var_name(t);
                diags.push(
                    Diagnostic::warning(
                        "W0202",
                        aj.span,
                        format!("two rules for `{name}` can apply in the same step"),
                    )
                    .with_label("this rule wins when both apply")
                    .with_related(ai.span, "overwritten when both apply")
                    .with_note(format!(
                        "both apply {}; rules run top to bottom, so the later one wins",
                        self.guards_text(body, &li.chain, &lj.chain),
                    ))
                    .with_help(format!(
                        "make the guards exclusive, or write the fallback as \
                         `{name} = ... otherwise;` after the other rules"
                    )),
                );
                break;
            }
        }
    }

    /// W0203: a δ rule whose value is always overwritten before it is read.
    fn overwritten_rules(&self, body: &Body, diags: &mut Vec<Diagnostic>) {
        // For each plain rule, the next unconditional plain rule for its
        // target, found in one backward pass over each target's rules.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for same in body.by_target.values() {
            let mut next = None;
            for &i in same.iter().rev() {
                let li = &body.leaves[i];
                if !matches!(li.stmt, Stmt::Assign(_)) {
                    continue;
                }
                if let Some(k) = next {
                    pairs.push((i, k));
                }
                if li.chain.is_empty() {
                    next = Some(i);
                }
            }
        }
        pairs.sort_unstable();
        for (i, k) in pairs {
            let li = &body.leaves[i];
            let Some((ai, false)) = assign(li.stmt) else {
                continue;
            };
            let t = ai.target;
            // ... comes before anything reads it (the rule itself included).
            if body.next_read(t, i).is_some_and(|r| r <= k) {
                continue;
            }
            let Some((ak, _)) = assign(body.leaves[k].stmt) else {
                continue;
            };
            let name = self.var_name(t);
            let mut d = Diagnostic::warning(
                "W0203",
                ai.span,
                format!("this rule for `{name}` has no effect: a later rule always overwrites it"),
            )
            .with_label("its value is never used")
            .with_related(ak.span, format!("always assigns `{name}` afterwards"))
            .with_note(format!(
                "rules run top to bottom, and nothing between the two reads `{name}`"
            ));
            if !li.chain.is_empty() {
                d = d.with_help(format!(
                    "if the later rule is the fallback, write it as `{name} = ... otherwise;`"
                ));
            }
            diags.push(d);
        }
    }

    /// W0204: σ actions that undo each other in the same step.
    fn conflicting_actions(&self, body: &Body, logic: &mut Logic, diags: &mut Vec<Diagnostic>) {
        // (what is set, value, span) of a σ action on a flag or a switch.
        let action = |s: &Stmt| match s {
            Stmt::SetFlag { var, value, span } => Some((
                format!("`{}`", self.var_name(*var)),
                true,
                *var,
                *value,
                *span,
            )),
            Stmt::Switch { sub, on, span } => Some((
                format!(
                    "`{}.on`",
                    self.m.subs.get(*sub).map_or("?", |s| s.name.as_str())
                ),
                false,
                *sub,
                *on,
                *span,
            )),
            _ => None,
        };
        let mut by_target: HashMap<(bool, usize), Vec<usize>> = HashMap::new();
        for (j, lj) in body.leaves.iter().enumerate() {
            let Some((name, is_flag, target, value, span)) = action(lj.stmt) else {
                continue;
            };
            let earlier = by_target.entry((is_flag, target)).or_default();
            earlier.push(j);
            for &i in earlier[..earlier.len() - 1].iter().rev().take(LOOKBACK) {
                let li = &body.leaves[i];
                let Some((_, _, _, vi, si)) = action(li.stmt) else {
                    continue;
                };
                if vi == value {
                    continue;
                }
                let verb = if is_flag {
                    [("sets", "clears"), ("set", "cleared")]
                } else {
                    [("switches on", "off"), ("switched on", "off")]
                };
                // A later guard that reads the flag decides on the earlier
                // action's result: a deliberate sequence, as in a state machine.
                let decides = is_flag && body.later_guard_reads(li, lj, target);
                if decides {
                    break;
                }
                if li.chain == lj.chain {
                    diags.push(
                        Diagnostic::warning(
                            "W0204",
                            span,
                            format!("this rule both {} and {} {name}", verb[0].0, verb[0].1),
                        )
                        .with_label("this action wins")
                        .with_related(si, "undone by the later action")
                        .with_help("remove one of the two actions"),
                    );
                    break;
                }
                if body.together(logic, &li.chain, &[]) != Sat::Yes
                    || body.together(logic, &lj.chain, &[]) != Sat::Yes
                    || body.together(logic, &li.chain, &lj.chain) != Sat::Yes
                {
                    continue;
                }
                diags.push(
                    Diagnostic::warning(
                        "W0204",
                        span,
                        format!(
                            "{name} can be {} and {} in the same step",
                            verb[1].0, verb[1].1
                        ),
                    )
                    .with_label("this action wins when both rules apply")
                    .with_related(si, "undone when both apply")
                    .with_note(format!(
                        "both rules apply {}; σ rules run top to bottom, so the later one wins",
                        self.guards_text(body, &li.chain, &lj.chain),
                    ))
                    .with_help("make the guards exclusive"),
                );
                break;
            }
        }
    }

    /// W0206: `otherwise` rules with nothing before them, and rules after
    /// an `otherwise` rule for the same target.
    fn otherwise_order(&self, body: &Body, diags: &mut Vec<Diagnostic>) {
        for (o, lo) in body.leaves.iter().enumerate() {
            let Some((ao, true)) = assign(lo.stmt) else {
                continue;
            };
            let t = ao.target;
            let name = self.var_name(t);
            let same = body.by_target.get(&t).map_or(&[][..], Vec::as_slice);
            let earlier = same.first().is_some_and(|&x| x < o);
            let later = same.iter().find(|&&x| x > o).map(|&x| &body.leaves[x]);
            if !earlier {
                let mut d = Diagnostic::warning(
                    "W0206",
                    ao.span,
                    format!("the `otherwise` rule for `{name}` always fires"),
                )
                .with_label(format!("no earlier rule assigns `{name}`"))
                .with_note(
                    "`otherwise` applies when no earlier rule of the step assigned the target",
                );
                if let Some((al, _)) = later.and_then(|l| assign(l.stmt)) {
                    d = d
                        .with_related(al.span, "a later rule it does not consider")
                        .with_help("move the `otherwise` rule after the rules it completes");
                } else {
                    d = d.with_help(format!("write it as a plain rule: `{name} = ...;`"));
                }
                diags.push(d);
            } else if let Some((al, _)) = later.and_then(|l| assign(l.stmt)) {
                diags.push(
                    Diagnostic::warning(
                        "W0206",
                        al.span,
                        format!("this rule for `{name}` comes after its `otherwise` rule"),
                    )
                    .with_label("not considered by the `otherwise` rule")
                    .with_related(ao.span, "`otherwise` only considers the rules before it")
                    .with_help(format!(
                        "move the `otherwise` rule after every other rule for `{name}`"
                    )),
                );
            }
        }
    }
}
