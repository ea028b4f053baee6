//! When a trace's value was computed: for each variable, whether the value a row records after a step is as of the row's time, of the step's start, or held from earlier.
//!
//! A trace records every variable after each step, at the time the step reached. The
//! states of `integral`, `lag` and the timers are then values at the row's time; but a
//! rule reads `time` as the step's start (`p = A * sin(w * time)` is the platform of the
//! step's start, shown on the row of its end), and a rule that reads a value before the
//! rule updating it reads the previous row's. [`row_times`] follows the values through
//! one step, rule by rule in the step's order, and labels each variable with the times its
//! row value may be as of ([`RowTime`]); `sitc info` and the language server show it.
//! Under a method with stages (`rk4`, the adaptive ones) the continuous states are
//! integrated before the body's one pass, so a read of one is of the row's time
//! wherever it stands.
//!
//! The labels are sets of three times: the row's time `t`, the step's start `t − dt`, and
//! earlier (`t − 2·dt` or before: a value of the step's start read through `prev` or
//! before its rule), with a mark for a value that may be held from an older step (not
//! computed on every path through the step). A rule's value is the union of what it
//! reads where it stands (`time` and events: the step's start; a param or a number:
//! nothing; an `integral`, `lag` or timer: the row's time); a guarded rule may not apply,
//! so its target may keep the value it had when the step started (its row label shifted
//! one step back, and held) unless an unguarded or `otherwise` rule follows. A value read before
//! its rule, or through `prev`, is the previous row's: shifted back. The labels of a
//! model depend on themselves through those shifts; they are found by iterating the
//! step until they no longer change (at most [`MAX_PASSES`] passes over the rules: a
//! value that keeps moving after that is labelled with every time).

use crate::ir::{ArithOp, CondId, Expr, Method, Model, Program, Rhs, Stmt, VarId, VarKind};

/// The most passes over a model's rules (each is linear in the rules).
pub const MAX_PASSES: usize = 8;

/// The most preds and situations read through one another that are followed.
const MAX_DEPTH: usize = 64;

/// The times a variable's row value may be as of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RowTime {
    /// The row's time `t` (the end of the step).
    pub end: bool,
    /// The step's start, `t − dt`.
    pub start: bool,
    /// An earlier step than the step's start (`t − 2·dt` or before): computed from a
    /// value of the step's start read through `prev` or before its rule.
    pub earlier: bool,
    /// Possibly held from an earlier step: on some path through the step no rule
    /// computes it (a latch, a flag set by σ rules), or it reads such a value.
    pub held: bool,
}

impl RowTime {
    const NONE: RowTime = RowTime {
        end: false,
        start: false,
        earlier: false,
        held: false,
    };
    const END: RowTime = RowTime {
        end: true,
        ..RowTime::NONE
    };
    const START: RowTime = RowTime {
        start: true,
        ..RowTime::NONE
    };
    /// An event's: evaluated on the values the step starts with.
    pub const EVENT: RowTime = RowTime::START;
    const ALL: RowTime = RowTime {
        end: true,
        start: true,
        earlier: true,
        held: true,
    };

    fn union(self, o: RowTime) -> RowTime {
        RowTime {
            end: self.end | o.end,
            start: self.start | o.start,
            earlier: self.earlier | o.earlier,
            held: self.held | o.held,
        }
    }

    /// The same value one step later: what was the row's time is now the step's start.
    fn shifted(self) -> RowTime {
        RowTime {
            end: false,
            start: self.end,
            earlier: self.start | self.earlier,
            held: self.held,
        }
    }

    /// A short word for tables: `t` (as of the row's time), `t-dt` (the step's start),
    /// `earlier` (computed in every step from values of before the step's start), `mixed`
    /// (of more than one of those times), `held` (may be kept from an earlier step: not
    /// computed in every step), or empty for a value that does not change in a step.
    pub fn word(self) -> &'static str {
        if self.held {
            return "held";
        }
        match (self.end, self.start, self.earlier) {
            (false, false, false) => "",
            (true, false, false) => "t",
            (false, true, false) => "t-dt",
            (false, false, true) => "earlier",
            _ => "mixed",
        }
    }

    /// A sentence for hover texts: what the row's value is as of.
    pub fn sentence(self) -> &'static str {
        if self.held {
            return "in a trace, possibly a value held from an earlier step (it is not computed \
                    in every step)";
        }
        match (self.end, self.start, self.earlier) {
            (false, false, false) => "the same in every row of a run",
            (true, false, false) => "in a trace, the value at the row's time",
            (false, true, false) => {
                "in a trace, the value at the start of the step that ended at the row's time \
                 (t − dt): it is computed from `time` or from values read before their rules"
            }
            (false, false, true) => {
                "in a trace, computed in every step from values of earlier steps (t − 2·dt or \
                 before): it reads, through `prev` or before their rules, values that were \
                 already of the step's start"
            }
            (true, true, false) => {
                "in a trace, computed from values of the row's time and of the step's start \
                 (t − dt)"
            }
            _ => {
                "in a trace, computed from values of several steps: the row's time, the step's \
                 start (t − dt) or earlier"
            }
        }
    }
}

/// The times the row value of pred or situation `c` of `m` may be as of, with `labels`
/// its variables' ([`row_times`]): a condition is recorded on the row's values, where
/// `time` is the row's time and `prev(x)` is `x`'s copy, taken at the step's end.
pub fn cond_time(m: &Model, labels: &[RowTime], c: CondId) -> RowTime {
    let mut out = RowTime::NONE;
    let mut seen = vec![false; m.conds.len()];
    let Some(cond) = m.conds.get(c) else {
        return RowTime::ALL;
    };
    seen[c] = true;
    let mut todo = vec![&cond.expr];
    while let Some(e) = todo.pop() {
        e.visit(&mut |x| match x {
            Expr::Var(v) | Expr::Prev(v) => {
                out = out.union(labels.get(*v).copied().unwrap_or(RowTime::ALL));
            }
            Expr::Cond(k) if *k < seen.len() && !seen[*k] => {
                seen[*k] = true;
                todo.push(&m.conds[*k].expr);
            }
            Expr::Time | Expr::InMode(..) | Expr::SubVar(..) | Expr::SubTime(_) => {
                out = out.union(RowTime::END);
            }
            Expr::Event(_) | Expr::SubEvent(..) => out = out.union(RowTime::START),
            _ => {}
        });
    }
    out
}

/// For each model of `program` and each of its variables, the times its row value may
/// be as of (the module documentation).
pub fn row_times(program: &Program) -> Vec<Vec<RowTime>> {
    let mut out: Vec<Vec<RowTime>> = Vec::with_capacity(program.models.len());
    for m in &program.models {
        let labels = model(m, program, &out);
        out.push(labels);
    }
    out
}

/// The labels of `m`'s variables, with `done` those of the models before it (its
/// submodels among them: the program is ordered leaves first).
fn model(m: &Model, program: &Program, done: &[Vec<RowTime>]) -> Vec<RowTime> {
    let n = m.vars.len();
    let fixed = |v: VarId| match m.vars[v].kind {
        VarKind::Param { .. } => Some(RowTime::NONE),
        // Held through the step that ends at the row (set before it).
        VarKind::Input => Some(RowTime::START),
        VarKind::State => None,
    };
    let mut row: Vec<RowTime> = (0..n).map(|v| fixed(v).unwrap_or_default()).collect();
    let subs: Vec<Option<&Vec<RowTime>>> = m.subs.iter().map(|s| done.get(s.model)).collect();
    let continuous = continuous_states(m);
    for pass in 0..MAX_PASSES {
        let mut step = Step {
            m,
            program,
            row: &row,
            subs: &subs,
            fresh: vec![RowTime::NONE; n],
            maybe_old: vec![true; n],
            stepped: m.subs.iter().map(|s| s.placed.is_none()).collect(),
        };
        // Under a method with stages the continuous states hold their new values
        // before the body's one (discrete) pass runs: a rule that reads one before its
        // `integral` reads the row's time, not the step's start.
        for &v in &continuous {
            step.fresh[v] = RowTime::END;
            step.maybe_old[v] = false;
        }
        step.body(&m.body, RowTime::NONE, true);
        let next: Vec<RowTime> = (0..n)
            .map(|v| fixed(v).unwrap_or_else(|| step.at_end(v)))
            .collect();
        if next == row {
            return row;
        }
        row = next;
        if pass + 1 == MAX_PASSES {
            // Still moving: every time it may be.
            for (v, r) in row.iter_mut().enumerate() {
                if fixed(v).is_none() && *r != RowTime::NONE {
                    *r = RowTime::ALL;
                }
            }
        }
    }
    row
}

/// The continuous states of `m` (the targets of `integral` and `lag`) when its method
/// has stages (`rk4` and the adaptive ones: the stages integrate them before the body's
/// discrete pass, see `crate::ir`'s "Integration methods"); none under `euler`, where
/// each is integrated where its rule stands.
fn continuous_states(m: &Model) -> Vec<VarId> {
    let mut out = Vec::new();
    if m.method == Method::Euler {
        return out;
    }
    crate::ir::walk(&m.body, &mut |s| {
        if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
            && matches!(
                a.rhs,
                Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
            )
            && !out.contains(&a.target)
        {
            out.push(a.target);
        }
    });
    out
}

/// One pass over a model's step.
struct Step<'a> {
    m: &'a Model,
    program: &'a Program,
    /// The labels of the row before (the values as the step starts, shifted).
    row: &'a [RowTime],
    subs: &'a [Option<&'a Vec<RowTime>>],
    /// What the rules of this step so far gave each variable.
    fresh: Vec<RowTime>,
    /// Whether a path through the step so far leaves the variable as it started.
    maybe_old: Vec<bool>,
    /// Per submodel: whether it has stepped where the pass stands (those not placed
    /// step before the rules; a placed one at its `step`).
    stepped: Vec<bool>,
}

impl Step<'_> {
    /// The label of `v` where the pass stands.
    fn current(&self, v: VarId) -> RowTime {
        // A param or input: the same through the step.
        if self.m.vars[v].kind != VarKind::State {
            return self.row[v];
        }
        let old = if self.maybe_old[v] {
            self.row[v].shifted()
        } else {
            RowTime::NONE
        };
        self.fresh[v].union(old)
    }

    /// The label of `v` after the step: [`Step::current`], held where a path through the
    /// step computes it and another leaves it as it was (a value that no rule computes
    /// at all is a constant of the run, not held).
    fn at_end(&self, v: VarId) -> RowTime {
        let mut r = self.current(v);
        if self.maybe_old[v] && self.fresh[v] != RowTime::NONE {
            r.held = true;
        }
        r
    }

    /// Gives `target` the value `val`: replacing what it had on a path where the rule
    /// surely applies (`sure`), else as one more possibility.
    fn assign(&mut self, target: VarId, val: RowTime, sure: bool) {
        if sure {
            self.fresh[target] = val;
            self.maybe_old[target] = false;
        } else {
            self.fresh[target] = self.fresh[target].union(val);
        }
    }

    fn body(&mut self, body: &[Stmt], guards: RowTime, top: bool) {
        for s in body {
            match s {
                Stmt::Assign(a) => {
                    let val = self.rhs(&a.rhs, a.target).union(guards);
                    self.assign(a.target, val, top);
                }
                // It applies when no earlier rule did: after it, the target surely has
                // one of its rules' values.
                Stmt::Otherwise { assign: a, .. } => {
                    let val = self.rhs(&a.rhs, a.target).union(guards);
                    self.fresh[a.target] = self.fresh[a.target].union(val);
                    if top {
                        self.maybe_old[a.target] = false;
                    }
                }
                Stmt::If { cond, then, .. } => {
                    let g = guards.union(self.expr(cond, None));
                    self.body(then, g, false);
                }
                // A σ action sets a constant, when its guards decide.
                Stmt::SetFlag { var, .. } => self.assign(*var, guards, top),
                Stmt::Switch { .. }
                | Stmt::SetMode { .. }
                | Stmt::Reset { .. }
                | Stmt::Run { .. } => {}
                Stmt::Step { sub, .. } => {
                    if let Some(s) = self.stepped.get_mut(*sub) {
                        *s = true;
                    }
                }
                Stmt::Added(x) => match *x {},
            }
        }
    }

    /// A rule's value: a procedure over the step (`integral`, `lag`, a timer, a rule
    /// reading its own value) gives a value of the step's end.
    fn rhs(&self, rhs: &Rhs, target: VarId) -> RowTime {
        let reads = rhs.operands().into_iter().fold(RowTime::NONE, |acc, e| {
            acc.union(self.expr(e, Some(target)))
        });
        match rhs {
            Rhs::Integral { .. }
            | Rhs::IntegralLimited { .. }
            | Rhs::Lag { .. }
            | Rhs::Timer { .. } => RowTime::END,
            Rhs::Expr(_) | Rhs::Deriv { .. } | Rhs::Hysteresis { .. } => reads,
        }
    }

    /// The label of what `e` reads here; `own` is the target of the rule it is part of
    /// (its own value, read by the rule, makes the rule a step of a recurrence: the
    /// step's end).
    fn expr(&self, e: &Expr, own: Option<VarId>) -> RowTime {
        self.expr_at(e, own, 0)
    }

    /// [`Step::expr`] `depth` preds deep (a chain deeper than [`MAX_DEPTH`] is every time).
    fn expr_at(&self, e: &Expr, own: Option<VarId>, depth: usize) -> RowTime {
        if depth > MAX_DEPTH {
            return RowTime::ALL;
        }
        match e {
            Expr::Num(_) | Expr::Bool(_) | Expr::Dt | Expr::SubOn(_) => RowTime::NONE,
            Expr::Var(v) | Expr::Prev(v) if Some(*v) == own => RowTime::END,
            // `time + dt`: the step's end, as a rule computing a value for the row's time
            // writes it.
            Expr::Arith(ArithOp::Add, a, b)
                if matches!(
                    (&**a, &**b),
                    (Expr::Time, Expr::Dt) | (Expr::Dt, Expr::Time)
                ) =>
            {
                RowTime::END
            }
            Expr::Var(v) => self.current(*v),
            Expr::Prev(v) if self.m.vars[*v].kind != VarKind::State => self.row[*v],
            Expr::Prev(v) => self.row[*v].shifted(),
            Expr::Time
            | Expr::Event(_)
            | Expr::SubEvent(..)
            | Expr::InMode(..)
            | Expr::ModeAtStart(..)
            | Expr::SubInMode(..) => RowTime::START,
            Expr::Cond(c) => self
                .m
                .conds
                .get(*c)
                .map_or(RowTime::ALL, |c| self.expr_at(&c.expr, own, depth + 1)),
            // Read before a placed submodel's step: its row before, shifted back.
            Expr::SubVar(j, x) => self.before_step(
                *j,
                self.subs
                    .get(*j)
                    .copied()
                    .flatten()
                    .and_then(|l| l.get(*x))
                    .copied()
                    .unwrap_or(RowTime::ALL),
            ),
            // A submodel's clock and conditions after its step: of the row's time.
            Expr::SubTime(j) => self.before_step(*j, RowTime::END),
            Expr::SubCond(j, c) => self.before_step(*j, self.sub_cond(*j, *c)),
            Expr::Neg(a) | Expr::Not(a) => self.expr_at(a, own, depth),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => self
                .expr_at(a, own, depth)
                .union(self.expr_at(b, own, depth)),
            Expr::Call(_, xs) | Expr::Table(_, xs) | Expr::TableSlope(_, _, xs) => {
                xs.iter().fold(RowTime::NONE, |acc, x| {
                    acc.union(self.expr_at(x, own, depth))
                })
            }
        }
    }

    /// `label`, a value of submodel `j` as its row records it, as read where the pass
    /// stands: shifted back a step while `j` has not stepped yet.
    fn before_step(&self, j: usize, label: RowTime) -> RowTime {
        if self.stepped.get(j).copied().unwrap_or(true) {
            label
        } else {
            label.shifted()
        }
    }

    /// The label of a submodel's pred or situation, read after its step: as recorded
    /// in the submodel's row ([`cond_time`]).
    fn sub_cond(&self, j: usize, c: usize) -> RowTime {
        let (Some(sub), Some(Some(labels))) = (self.m.subs.get(j), self.subs.get(j)) else {
            return RowTime::ALL;
        };
        match self.program.models.get(sub.model) {
            Some(model) => cond_time(model, labels, c),
            None => RowTime::ALL,
        }
    }
}
