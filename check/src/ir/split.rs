//! The split of a model's rules into a continuous part (the states of `integral` and `lag`, and the stage rules their rates read) and a discrete part, and the errors (E0472) that keep a model from being split.
//!
//! Every method other than `euler` integrates the continuous part stage by stage and
//! runs the discrete part once per step (see "Integration methods" in [`crate::ir`]).
//! The checker and [`crate::ir::Program::set_method`] report [`split_errors`]; the method
//! rewrites of `sit_lower` read [`split`] and [`split_located`].

use super::{Expr, Method, Model, Rhs, Stmt, VarId};
use crate::diag::Diagnostic;
use crate::source::Span;

/// Whether a right-hand side makes its target a continuous state.
fn is_continuous(rhs: &Rhs) -> bool {
    matches!(
        rhs,
        Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
    )
}

/// How a model's rules split into a continuous and a discrete part.
pub struct Split {
    /// The continuous states in the order of their first rule, with that rule's span.
    pub states: Vec<(VarId, Span)>,
    /// Per variable: whether it is a continuous state.
    pub is_state: Vec<bool>,
    /// Per variable: whether it is the target of a stage rule.
    pub staged: Vec<bool>,
}

impl Split {
    /// Per variable, its row in [`Split::states`] (`None` for a variable that is not a
    /// continuous state): the rewrites' lookup from a variable to its row, in constant
    /// time instead of a search of the states.
    pub fn rows(&self) -> Vec<Option<usize>> {
        let mut rows = vec![None; self.is_state.len()];
        for (i, &(v, _)) in self.states.iter().enumerate() {
            if let Some(r) = rows.get_mut(v) {
                *r = Some(i);
            }
        }
        rows
    }
}

/// The variables an expression reads, conditions expanded (memoised in `conds`).
struct Reads<'m> {
    m: &'m Model,
    conds: Vec<Option<Vec<VarId>>>,
}

impl<'m> Reads<'m> {
    fn new(m: &'m Model) -> Self {
        Reads {
            m,
            conds: vec![None; m.conds.len()],
        }
    }

    fn of(&mut self, e: &Expr, out: &mut Vec<VarId>) {
        let mut conds = Vec::new();
        e.visit(&mut |x| match x {
            Expr::Var(v) => out.push(*v),
            Expr::Cond(c) => conds.push(*c),
            _ => {}
        });
        for c in conds {
            out.extend(self.cond(c));
        }
    }

    fn cond(&mut self, c: usize) -> Vec<VarId> {
        if let Some(Some(r)) = self.conds.get(c) {
            return r.clone();
        }
        let Some(cond) = self.m.conds.get(c) else {
            return Vec::new();
        };
        // The checker rejects cycles between conditions; mark to stop on a malformed one.
        self.conds[c] = Some(Vec::new());
        let mut r = Vec::new();
        self.of(&cond.expr, &mut r);
        r.sort_unstable();
        r.dedup();
        self.conds[c] = Some(r.clone());
        r
    }

    /// What a rule reads: its operands, then the guards around it.
    fn rule(&mut self, rhs: &Rhs, guards: &[&Expr]) -> Vec<VarId> {
        let mut out = Vec::new();
        for e in rhs.operands() {
            self.of(e, &mut out);
        }
        for g in guards {
            self.of(g, &mut out);
        }
        out
    }
}

/// Calls `f` on every assignment of `body` with the guards around it.
fn each_assign<'b>(
    body: &'b [Stmt],
    guards: &mut Vec<&'b Expr>,
    f: &mut impl FnMut(&'b super::Assign, &[&'b Expr]),
) {
    for s in body {
        match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => f(a, guards),
            Stmt::If { cond, then, .. } => {
                guards.push(cond);
                each_assign(then, guards, f);
                guards.pop();
            }
            _ => {}
        }
    }
}

/// The split of `m`: its continuous states and the stage rules their rates read.
pub fn split(m: &Model) -> Split {
    split_from(m, false)
}

/// The split of `m` for locating its events (`sit_lower`'s located events): the stage rules
/// extended by the plain rules that the guards and the events' conditions read, directly
/// or through other such rules, so that evaluating them on a point of the continuous
/// solution gives every guard and every event's condition its value there. The rates read the same values as in [`split`].
pub fn split_located(m: &Model) -> Split {
    split_from(m, true)
}

/// Calls `f` on the guard of every guarded block of `body`, at any depth.
fn each_guard<'b>(body: &'b [Stmt], f: &mut impl FnMut(&'b Expr)) {
    for s in body {
        if let Stmt::If { cond, then, .. } = s {
            f(cond);
            each_guard(then, f);
        }
    }
}

/// Per variable: whether a plain rule computes it at every evaluation (a rule without
/// guard, or an `otherwise` rule); a target assigned only under guards keeps its value
/// between them.
fn computed_every_evaluation(m: &Model) -> Vec<bool> {
    let mut defined = vec![false; m.vars.len()];
    for s in &m.body {
        if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
            && matches!(a.rhs, Rhs::Expr(_))
        {
            defined[a.target] = true;
        }
    }
    defined
}

fn split_from(m: &Model, guards: bool) -> Split {
    let n = m.vars.len();
    let mut states = Vec::new();
    let mut is_state = vec![false; n];
    each_assign(&m.body, &mut Vec::new(), &mut |a, _| {
        if is_continuous(&a.rhs) && !is_state[a.target] {
            is_state[a.target] = true;
            states.push((a.target, a.span));
        }
    });
    // Which plain rules the rates read: a search from the rates' reads.
    // A plain rule is algebraic when its target is computed at every evaluation (it
    // has a rule without guard, or an `otherwise` rule); a target assigned only under
    // guards keeps its value otherwise, so its rules are discrete jumps.
    let defined = computed_every_evaluation(m);
    let mut reads = Reads::new(m);
    let mut by_target: Vec<Vec<Vec<VarId>>> = vec![Vec::new(); n];
    let mut work = Vec::new();
    each_assign(&m.body, &mut Vec::new(), &mut |a, guards| {
        if is_continuous(&a.rhs) {
            work.extend(reads.rule(&a.rhs, guards));
        } else if matches!(a.rhs, Rhs::Expr(_)) && !is_state[a.target] && defined[a.target] {
            let r = reads.rule(&a.rhs, guards);
            by_target[a.target].push(r);
        }
    });
    if guards {
        each_guard(&m.body, &mut |g| reads.of(g, &mut work));
        for ev in &m.events {
            reads.of(&ev.cond, &mut work);
        }
    }
    let mut staged = vec![false; n];
    while let Some(v) = work.pop() {
        if v >= n || staged[v] || by_target[v].is_empty() {
            continue;
        }
        staged[v] = true;
        for r in std::mem::take(&mut by_target[v]) {
            work.extend(r);
        }
    }
    Split {
        states,
        is_state,
        staged,
    }
}

/// The located errors that keep `m` from being integrated by its method (none under
/// `euler`): E0472 for a rule of the continuous part that reads a value before the
/// stage rule computing it.
pub fn split_errors(m: &Model) -> Vec<Diagnostic> {
    if m.method == Method::Euler {
        return Vec::new();
    }
    order_errors(m, &format!("under `method {}`", m.method.name()))
}

/// The located errors that keep `m`'s continuous part from being differentiated
/// (`sitc info --jacobian`), whatever its method: the Jacobian is that of the stage
/// pass, so a rule of the continuous part that reads a value before the stage rule
/// computing it has none (E0472, worded for the Jacobian).
pub fn jacobian_errors(m: &Model) -> Vec<Diagnostic> {
    order_errors(m, "in the stage pass the Jacobian differentiates")
}

/// E0472 for each rule of `m`'s continuous part that reads a staged value before its
/// rule; `under` says what stages the part (`under \`method rk4\``).
fn order_errors(m: &Model, under: &str) -> Vec<Diagnostic> {
    let sp = split(m);
    if sp.states.is_empty() {
        return Vec::new();
    }
    // Where each staged variable is first computed.
    let mut first: Vec<Option<Span>> = vec![None; m.vars.len()];
    each_assign(&m.body, &mut Vec::new(), &mut |a, _| {
        if sp.staged[a.target] && matches!(a.rhs, Rhs::Expr(_)) && first[a.target].is_none() {
            first[a.target] = Some(a.span);
        }
    });
    let order = Order {
        m,
        sp: &sp,
        first: &first,
        under,
    };
    let mut written = vec![false; m.vars.len()];
    let mut reads = Reads::new(m);
    let mut out = Vec::new();
    order.check(&mut reads, &m.body, &mut written, &mut out);
    out
}

/// What the order check of one model reads and never changes.
struct Order<'a> {
    m: &'a Model,
    sp: &'a Split,
    /// Where each staged variable is first computed.
    first: &'a [Option<Span>],
    /// What stages the continuous part, as the message says it.
    under: &'a str,
}

impl Order<'_> {
    /// E0472 for `span` reading `v` if `v` is staged and not yet written.
    fn report(&self, span: Span, v: VarId, written: &[bool], out: &mut Vec<Diagnostic>) {
        let (m, sp, first) = (self.m, self.sp, self.first);
        if !sp.staged[v] || written[v] {
            return;
        }
        let name = &m.vars[v].name;
        let mut d = Diagnostic::error(
            "E0472",
            span,
            format!(
                "{}, `{name}` is read before the rule that computes it",
                self.under
            ),
        )
        .with_label(format!(
            "reads `{name}` before it is computed in this stage"
        ));
        match first[v] {
            Some(at) if at != span => {
                d = d.with_related(at, format!("`{name}` is computed here, later"));
                d = d.with_help(format!(
                    "move the rule computing `{name}` above this one: the continuous part is evaluated at every stage of the step, in the order written"
                ));
            }
            _ => {
                d = d.with_help(format!(
                    "`{name}` is computed from its own previous value, which has no meaning at a stage: make it a state with `integral`, or compute it from the states"
                ));
            }
        }
        out.push(d);
    }

    /// The check over `body` in textual order, `written` the staged values computed so far.
    fn check(
        &self,
        reads: &mut Reads<'_>,
        body: &[Stmt],
        written: &mut [bool],
        out: &mut Vec<Diagnostic>,
    ) {
        let sp = self.sp;
        for s in body {
            match s {
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                    let stage = is_continuous(&a.rhs)
                        || (matches!(a.rhs, Rhs::Expr(_)) && sp.staged[a.target]);
                    if !stage {
                        continue;
                    }
                    let mut r = reads.rule(&a.rhs, &[]);
                    r.sort_unstable();
                    r.dedup();
                    let before = out.len();
                    for v in r {
                        if out.len() == before {
                            self.report(a.span, v, written, out);
                        }
                    }
                    if !sp.is_state[a.target] {
                        written[a.target] = true;
                    }
                }
                Stmt::If { cond, then, span } => {
                    if stages_in(sp, then) {
                        let mut r = Vec::new();
                        reads.of(cond, &mut r);
                        r.sort_unstable();
                        r.dedup();
                        let before = out.len();
                        for v in r {
                            if out.len() == before {
                                self.report(*span, v, written, out);
                            }
                        }
                    }
                    self.check(reads, then, written, out);
                }
                _ => {}
            }
        }
    }
}

/// Whether `body` holds a rule of the continuous part.
fn stages_in(sp: &Split, body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
            is_continuous(&a.rhs) || (matches!(a.rhs, Rhs::Expr(_)) && sp.staged[a.target])
        }
        Stmt::If { then, .. } => stages_in(sp, then),
        _ => false,
    })
}

/// A value the rates read that the split makes discrete although its rules follow the
/// continuous solution (W0242, `crate::lint`): its target is assigned only by guarded
/// plain rules (no rule without guard, no `otherwise`), so it keeps its value between
/// them and the stages read it as it was at the start of the step; yet a rule's
/// right-hand side reads a continuous state, a stage rule's target or `time`.
pub(crate) struct Held {
    /// The held variable.
    pub(crate) var: VarId,
    /// Its last rule (where an `otherwise` rule would follow).
    pub(crate) last: Span,
    /// What that rule's right-hand sides read that moves within the step: a variable,
    /// or `None` for `time`.
    pub(crate) moving: Option<VarId>,
    /// A rule of the continuous part that reads it.
    pub(crate) read_by: Span,
}

/// The [`Held`] values of `m` under its method (none under `euler`, whose one
/// evaluation per step reads every value as it was computed).
pub(crate) fn held_reads(m: &Model) -> Vec<Held> {
    if m.method == Method::Euler {
        return Vec::new();
    }
    let sp = split(m);
    if sp.states.is_empty() {
        return Vec::new();
    }
    let n = m.vars.len();
    let unguarded = computed_every_evaluation(m);
    let mut reads = Reads::new(m);
    // Per candidate: its last rule and what its right-hand sides read that moves.
    let mut rules: Vec<Option<(Span, Option<Option<VarId>>)>> = vec![None; n];
    // Per variable: the first rule of the continuous part that reads it.
    let mut read_by: Vec<Option<Span>> = vec![None; n];
    each_assign(&m.body, &mut Vec::new(), &mut |a, guards| {
        let stage = is_continuous(&a.rhs) || (matches!(a.rhs, Rhs::Expr(_)) && sp.staged[a.target]);
        if stage {
            for v in reads.rule(&a.rhs, guards) {
                if v < n && read_by[v].is_none() {
                    read_by[v] = Some(a.span);
                }
            }
        } else if let Rhs::Expr(e) = &a.rhs
            && !unguarded[a.target]
            && !sp.is_state[a.target]
        {
            let mut moving = None;
            e.visit(&mut |x| {
                if matches!(x, Expr::Time) && moving.is_none() {
                    moving = Some(None);
                }
            });
            let mut r = Vec::new();
            reads.of(e, &mut r);
            if let Some(&v) = r
                .iter()
                .find(|&&v| v < n && (sp.is_state[v] || sp.staged[v]))
            {
                moving = Some(Some(v));
            }
            let entry = rules[a.target].get_or_insert((a.span, None));
            entry.0 = a.span;
            if entry.1.is_none() {
                entry.1 = moving;
            }
        }
    });
    (0..n)
        .filter_map(|v| {
            let (last, moving) = rules[v]?;
            Some(Held {
                var: v,
                last,
                moving: moving?,
                read_by: read_by[v]?,
            })
        })
        .collect()
}
