//! Integration methods: the split of a model's rules into a continuous and a discrete part, and a step under `rk4` rewritten as plain rules.
//!
//! Under [`Method::Rk4`] (see "Integration methods" in [`crate::ir`]), the *continuous
//! states* are the targets of `integral` and `lag` rules; the *stage rules* are the plain
//! rules (`x = expr`, guarded or `otherwise`) whose targets the rates read, directly or
//! through other stage rules, that do not assign a continuous state, and whose target
//! is computed at every evaluation (a rule without guard or an `otherwise` rule; a
//! target assigned only under guards keeps its value between them, so its rules are
//! discrete). [`expand`]
//! rewrites such a model into an equivalent model of plain rules (method `euler`) with
//! hidden states for the stage memories, so that every back end runs the same
//! statements and stays bit-identical without knowing about methods:
//!
//! ```text
//! y0 = y                                   (every continuous state)
//! stage s = 1..4:  k_s = 0; the stage pass (stage rules, `k_s = rate` for each
//!                  integral or lag; `time` reads time + c_s·dt); then, before stages
//!                  2..4, y = y0 + (c_{s+1}·dt)·k_s
//! y = y0 + dt·(((k1 + 2·k2) + 2·k3) + k4)/6
//! the body as written, each integral and lag rule keeping its target (a limited
//! integral clamps it)
//! ```

use super::LowerError;
use crate::diag::Diagnostic;
use crate::ir::{ArithOp, Expr, Func, Method, Model, Program, Rhs, Stmt, VarId};
use crate::source::Span;
use std::borrow::Cow;

/// The nodes `c_s` of the classical Runge–Kutta method.
const NODES: [f64; 4] = [0.0, 0.5, 0.5, 1.0];

/// Whether a right-hand side makes its target a continuous state.
fn is_continuous(rhs: &Rhs) -> bool {
    matches!(
        rhs,
        Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
    )
}

/// How a model's rules split into a continuous and a discrete part.
pub(super) struct Split {
    /// The continuous states in the order of their first rule, with that rule's span.
    pub(super) states: Vec<(VarId, Span)>,
    /// Per variable: whether it is a continuous state.
    pub(super) is_state: Vec<bool>,
    /// Per variable: whether it is the target of a stage rule.
    pub(super) staged: Vec<bool>,
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
    f: &mut impl FnMut(&'b crate::ir::Assign, &[&'b Expr]),
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

pub(super) fn split(m: &Model) -> Split {
    split_from(m, false)
}

/// The split of `m` for locating its events ([`super::located`]): the stage rules
/// extended by the plain rules that the guards read, directly or through other such
/// rules, so that evaluating them on a point of the continuous solution gives every
/// guard its value there. The rates read the same values as in [`split`].
pub(super) fn split_located(m: &Model) -> Split {
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
    let mut defined = vec![false; n];
    for s in &m.body {
        if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
            && matches!(a.rhs, Rhs::Expr(_))
        {
            defined[a.target] = true;
        }
    }
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
    let mut written = vec![false; m.vars.len()];
    let mut reads = Reads::new(m);
    let mut out = Vec::new();
    check_order(m, &sp, &mut reads, &m.body, &first, &mut written, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn check_order(
    m: &Model,
    sp: &Split,
    reads: &mut Reads<'_>,
    body: &[Stmt],
    first: &[Option<Span>],
    written: &mut [bool],
    out: &mut Vec<Diagnostic>,
) {
    let report = |span: Span, v: VarId, written: &[bool], out: &mut Vec<Diagnostic>| {
        if !sp.staged[v] || written[v] {
            return;
        }
        let name = &m.vars[v].name;
        let mut d = Diagnostic::error(
            "E0472",
            span,
            format!(
                "under `method {}`, `{name}` is read before the rule that computes it",
                m.method.name()
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
    };
    for s in body {
        match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                let stage =
                    is_continuous(&a.rhs) || (matches!(a.rhs, Rhs::Expr(_)) && sp.staged[a.target]);
                if !stage {
                    continue;
                }
                let mut r = reads.rule(&a.rhs, &[]);
                r.sort_unstable();
                r.dedup();
                let before = out.len();
                for v in r {
                    if out.len() == before {
                        report(a.span, v, written, out);
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
                            report(*span, v, written, out);
                        }
                    }
                }
                check_order(m, sp, reads, then, first, written, out);
            }
            _ => {}
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

/// `program` with every model whose method is not `euler` rewritten into plain rules
/// that integrate it so (borrowed when there is none); the rewritten models say
/// `euler`, so expanding twice is expanding once. Fails if a model cannot be split
/// (which the checker and [`Program::set_method`] report first, located).
pub fn expand(program: &Program) -> Result<Cow<'_, Program>, LowerError> {
    if program.models.iter().all(|m| m.method == Method::Euler) {
        return Ok(Cow::Borrowed(program));
    }
    let mut out = program.clone();
    for m in &mut out.models {
        if m.method == Method::Euler {
            continue;
        }
        if let Some(d) = split_errors(m).first() {
            return Err(LowerError::Malformed(format!(
                "model `{}` cannot be integrated by `{}`: {}",
                m.name,
                m.method.name(),
                d.message
            )));
        }
        *m = match m.method {
            Method::Dopri5(tol) => super::dopri5::rewrite(m, tol),
            _ => rk4(m),
        };
    }
    Ok(Cow::Owned(out))
}

pub(super) fn num(x: f64) -> Expr {
    Expr::Num(x)
}

pub(super) fn arith(op: ArithOp, a: Expr, b: Expr) -> Expr {
    Expr::Arith(op, Box::new(a), Box::new(b))
}

pub(super) fn assign(target: VarId, e: Expr, fired: Option<usize>, span: Span) -> Stmt {
    Stmt::Assign(crate::ir::Assign {
        target,
        rhs: Rhs::Expr(e),
        fired,
        span,
    })
}

/// The model `m` (method `rk4`) as plain rules (method `euler`).
fn rk4(m: &Model) -> Model {
    let sp = split(m);
    if sp.states.is_empty() {
        return Model {
            method: Method::Euler,
            ..m.clone()
        };
    }
    let lsp = split_located(m);
    let guards = super::located::watched(m, &lsp);
    if !guards.is_empty() {
        return super::rk4_loop::rewrite(m, &sp, &lsp, guards);
    }
    let mut hid = super::dopri5::Hidden::of(m);
    let mems = super::rk4_loop::memories(&mut hid, &sp);
    let mut out = hid.out;
    let index = |v: VarId| sp.states.iter().position(|&(s, _)| s == v);
    let f = m.fired;
    let mut body = Vec::new();
    for (i, &(v, span)) in sp.states.iter().enumerate() {
        body.push(assign(mems[i].0, Expr::Var(v), None, span));
    }
    for (s, &c) in NODES.iter().enumerate() {
        for (i, &(_, span)) in sp.states.iter().enumerate() {
            body.push(assign(mems[i].1[s], num(0.0), None, span));
        }
        let node = match c {
            0.0 => None,
            1.0 => Some(Expr::Dt),
            c => Some(arith(ArithOp::Mul, num(c), Expr::Dt)),
        };
        let stage = Stage {
            m,
            sp: &sp,
            node,
            offset: (s + 1) * f,
            rate: &|v| index(v).map(|i| mems[i].1[s]),
        };
        body.extend(stage.stmts(&m.body));
        if let Some(&next) = NODES.get(s + 1) {
            for (i, &(v, span)) in sp.states.iter().enumerate() {
                let h = if next == 1.0 {
                    Expr::Dt
                } else {
                    arith(ArithOp::Mul, num(next), Expr::Dt)
                };
                let step = arith(ArithOp::Mul, h, Expr::Var(mems[i].1[s]));
                body.push(assign(
                    v,
                    arith(ArithOp::Add, Expr::Var(mems[i].0), step),
                    None,
                    span,
                ));
            }
        }
    }
    for (i, &(v, span)) in sp.states.iter().enumerate() {
        let k = |s: usize| Expr::Var(mems[i].1[s]);
        let twice = |s: usize| arith(ArithOp::Mul, num(2.0), k(s));
        let sum = arith(
            ArithOp::Add,
            arith(ArithOp::Add, arith(ArithOp::Add, k(0), twice(1)), twice(2)),
            k(3),
        );
        let inc = arith(ArithOp::Div, arith(ArithOp::Mul, Expr::Dt, sum), num(6.0));
        body.push(assign(
            v,
            arith(ArithOp::Add, Expr::Var(mems[i].0), inc),
            None,
            span,
        ));
    }
    body.extend(discrete(&m.body));
    out.body = body;
    out.fired = f * (NODES.len() + 1);
    out
}

/// One stage pass of the rewrite.
pub(super) struct Stage<'a> {
    pub(super) m: &'a Model,
    pub(super) sp: &'a Split,
    /// What `time` reads at this stage: `time + node` (`time` itself when `None`).
    pub(super) node: Option<Expr>,
    /// The `otherwise` flags of this stage are the model's shifted by this.
    pub(super) offset: usize,
    /// The hidden rate of a continuous state at this stage.
    pub(super) rate: &'a dyn Fn(VarId) -> Option<VarId>,
}

impl Stage<'_> {
    pub(super) fn stmts(&self, body: &[Stmt]) -> Vec<Stmt> {
        body.iter().filter_map(|s| self.stmt(s)).collect()
    }

    fn stmt(&self, s: &Stmt) -> Option<Stmt> {
        match s {
            Stmt::Assign(a) => self.assign(a).map(|(a, _)| Stmt::Assign(a)),
            Stmt::Otherwise { assign, fired } => match self.assign(assign) {
                Some((a, false)) => Some(Stmt::Otherwise {
                    assign: a,
                    fired: fired + self.offset,
                }),
                _ => None,
            },
            Stmt::If { cond, then, span } => {
                let then = self.stmts(then);
                (!then.is_empty()).then(|| Stmt::If {
                    cond: self.expr(cond),
                    then,
                    span: *span,
                })
            }
            // σ actions (a phase's run and a mode's transition among them) belong to the discrete pass (a
            // phase's outputs, like a submodel's, stay frozen during the stages).
            Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::Reset { .. }
            | Stmt::Run { .. }
            | Stmt::Repeat { .. }
            | Stmt::SetDt { .. }
            | Stmt::NoteModes { .. }
            | Stmt::SetMode { .. } => None,
        }
    }

    /// The rule at this stage, and whether it only sets its `otherwise` flag.
    fn assign(&self, a: &crate::ir::Assign) -> Option<(crate::ir::Assign, bool)> {
        let fired = a.fired.map(|k| k + self.offset);
        let (target, rhs, noop) = match &a.rhs {
            Rhs::Integral { x } | Rhs::IntegralLimited { x, .. } => {
                ((self.rate)(a.target)?, self.expr(x), false)
            }
            Rhs::Lag { x, t, k } => {
                let gain = arith(ArithOp::Mul, self.expr(k), self.expr(x));
                let rate = arith(
                    ArithOp::Div,
                    arith(ArithOp::Sub, gain, Expr::Var(a.target)),
                    self.expr(t),
                );
                ((self.rate)(a.target)?, rate, false)
            }
            Rhs::Expr(e) if self.sp.staged[a.target] && !self.sp.is_state[a.target] => {
                (a.target, self.expr(e), false)
            }
            _ => {
                fired?;
                (a.target, Expr::Var(a.target), true)
            }
        };
        Some((
            crate::ir::Assign {
                target,
                rhs: Rhs::Expr(rhs),
                fired,
                span: a.span,
            },
            noop,
        ))
    }

    /// `e` with `time` read at this stage's node (conditions reading it inlined).
    pub(super) fn expr(&self, e: &Expr) -> Expr {
        match &self.node {
            Some(node) if reads_time(self.m, e) => self.at_node(e, node),
            _ => e.clone(),
        }
    }

    fn at_node(&self, e: &Expr, node: &Expr) -> Expr {
        let b = |x: &Expr| Box::new(self.at_node(x, node));
        match e {
            Expr::Time => arith(ArithOp::Add, Expr::Time, node.clone()),
            Expr::Cond(c) if reads_time(self.m, e) => self.at_node(&self.m.conds[*c].expr, node),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Not(a) => Expr::Not(b(a)),
            Expr::Arith(op, x, y) => Expr::Arith(*op, b(x), b(y)),
            Expr::Cmp(op, x, y) => Expr::Cmp(*op, b(x), b(y)),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
            Expr::Call(f, xs) => Expr::Call(*f, xs.iter().map(|x| self.at_node(x, node)).collect()),
            Expr::Table(t, xs) => Expr::Table(
                t.clone(),
                xs.iter().map(|x| self.at_node(x, node)).collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Whether `e` reads `time`, through conditions too.
pub(super) fn reads_time(m: &Model, e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| match x {
        Expr::Time => found = true,
        Expr::Cond(c) => {
            if let Some(c) = m.conds.get(*c) {
                found |= reads_time(m, &c.expr);
            }
        }
        _ => {}
    });
    found
}

/// The body run once after the stages: as written, each integral and lag rule keeping
/// the value the stages gave its target (a limited integral clamps it).
pub(super) fn discrete(body: &[Stmt]) -> Vec<Stmt> {
    let keep = |a: &crate::ir::Assign| {
        let rhs = match &a.rhs {
            Rhs::Integral { .. } | Rhs::Lag { .. } => Rhs::Expr(Expr::Var(a.target)),
            Rhs::IntegralLimited { lo, hi, .. } => Rhs::Expr(Expr::Call(
                Func::Limit,
                vec![Expr::Var(a.target), lo.clone(), hi.clone()],
            )),
            other => other.clone(),
        };
        crate::ir::Assign { rhs, ..a.clone() }
    };
    body.iter()
        .map(|s| match s {
            Stmt::Assign(a) => Stmt::Assign(keep(a)),
            Stmt::Otherwise { assign, fired } => Stmt::Otherwise {
                assign: keep(assign),
                fired: *fired,
            },
            Stmt::If { cond, then, span } => Stmt::If {
                cond: cond.clone(),
                then: discrete(then),
                span: *span,
            },
            other => other.clone(),
        })
        .collect()
}
