//! The passes of a method rewrite over a model's body: a stage pass (the continuous part at one point, rates into hidden states), the algebraic pass, and the discrete pass.
//!
//! A [`Stage`] is the continuous part of the body ([`crate::ir::Split`]) evaluated once:
//! the stage rules as written, each `integral` and `lag` rule writing its rate into a
//! hidden state, `time` read at the stage's node. Without rates it is the *algebraic
//! pass* of the event search. [`discrete`] is the body run once after the stages.

use super::build::arith;
use super::rewrite;
use crate::ir::{ArithOp, Expr, Func, Model, Rhs, Split, Stmt, VarId};

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
    /// The statements of this pass over `body` (a block left empty is left out).
    pub(super) fn stmts(&self, body: &[Stmt]) -> Vec<rewrite::Stmt> {
        body.iter().filter_map(|s| self.stmt(s)).collect()
    }

    fn stmt(&self, s: &Stmt) -> Option<rewrite::Stmt> {
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
            | Stmt::Step { .. }
            | Stmt::SetMode { .. } => None,
            Stmt::Added(x) => match *x {},
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
            Expr::TableSlope(t, k, xs) => Expr::TableSlope(
                t.clone(),
                *k,
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
pub(super) fn discrete(body: &[Stmt]) -> Vec<rewrite::Stmt> {
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
            other => other.clone().widen(),
        })
        .collect()
}

/// `body` with every expression reading `time` at the stage's node.
pub(super) fn at_time(stage: &Stage<'_>, body: Vec<rewrite::Stmt>) -> Vec<rewrite::Stmt> {
    let e = |x: &Expr| stage.expr(x);
    body.into_iter()
        .map(|s| match s {
            Stmt::Assign(a) => Stmt::Assign(crate::ir::Assign {
                rhs: at_time_rhs(&a.rhs, &e),
                ..a
            }),
            Stmt::Otherwise { assign, fired } => Stmt::Otherwise {
                assign: crate::ir::Assign {
                    rhs: at_time_rhs(&assign.rhs, &e),
                    ..assign
                },
                fired,
            },
            Stmt::If { cond, then, span } => Stmt::If {
                cond: e(&cond),
                then: at_time(stage, then),
                span,
            },
            other => other,
        })
        .collect()
}

fn at_time_rhs(rhs: &Rhs, e: &dyn Fn(&Expr) -> Expr) -> Rhs {
    match rhs {
        Rhs::Expr(x) => Rhs::Expr(e(x)),
        Rhs::Integral { x } => Rhs::Integral { x: e(x) },
        Rhs::IntegralLimited { x, lo, hi } => Rhs::IntegralLimited {
            x: e(x),
            lo: e(lo),
            hi: e(hi),
        },
        Rhs::Lag { x, t, k } => Rhs::Lag {
            x: e(x),
            t: e(t),
            k: e(k),
        },
        Rhs::Deriv { x, mem } => Rhs::Deriv { x: e(x), mem: *mem },
        Rhs::Hysteresis { x, lo, hi, a } => Rhs::Hysteresis {
            x: e(x),
            lo: e(lo),
            hi: e(hi),
            a: e(a),
        },
        Rhs::Timer { c } => Rhs::Timer { c: e(c) },
    }
}
