//! The one walk over the IR's statements and expressions, and what every analysis asks of a statement or a right-hand side.

use super::{Assign, Expr, Rhs, Span, Stmt};

impl Stmt {
    /// The statements this one holds (a guarded block's, a loop's body), in order; empty
    /// for the others.
    pub fn children(&self) -> &[Stmt] {
        match self {
            Stmt::If { then: body, .. } | Stmt::Repeat { body, .. } => body,
            Stmt::Assign(_)
            | Stmt::Otherwise { .. }
            | Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::SetMode { .. }
            | Stmt::Reset { .. }
            | Stmt::Run { .. }
            | Stmt::NoteModes { .. }
            | Stmt::SetDt { .. } => &[],
        }
    }

    /// Where the statement is written: its rule, action, guard or (for the statements
    /// of a method's rewrite) the model.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => a.span,
            Stmt::If { span, .. }
            | Stmt::SetFlag { span, .. }
            | Stmt::Switch { span, .. }
            | Stmt::SetMode { span, .. }
            | Stmt::Reset { span, .. }
            | Stmt::Run { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::NoteModes { span }
            | Stmt::SetDt { span, .. } => *span,
        }
    }

    /// The δ assignment of a rule (plain or `otherwise`), if this is one.
    pub fn assign(&self) -> Option<&Assign> {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => Some(a),
            _ => None,
        }
    }
}

/// Calls `f` on every statement of `body` and of the statements it holds, in
/// pre-order (each statement before those it holds, in textual order): the one walk
/// over statements that the analyses of the IR share.
pub fn walk<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in body {
        f(s);
        walk(s.children(), f);
    }
}

impl Expr {
    /// Call `f` on this expression and every subexpression, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Neg(a) | Expr::Not(a) => a.visit(f),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, xs) | Expr::Table(_, xs) => xs.iter().for_each(|x| x.visit(f)),
            _ => {}
        }
    }

    /// Calls `f` on every node, children after their parent (as [`Expr::visit`]), with
    /// the node to change in place.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        f(self);
        match self {
            Expr::Neg(a) | Expr::Not(a) => a.visit_mut(f),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.visit_mut(f);
                b.visit_mut(f);
            }
            Expr::Call(_, xs) | Expr::Table(_, xs) => xs.iter_mut().for_each(|x| x.visit_mut(f)),
            _ => {}
        }
    }
}

impl Rhs {
    /// The expressions a right-hand side reads, in evaluation order.
    pub fn operands(&self) -> Vec<&Expr> {
        match self {
            Rhs::Expr(e) => vec![e],
            Rhs::Integral { x } => vec![x],
            Rhs::IntegralLimited { x, lo, hi } => vec![x, lo, hi],
            Rhs::Lag { x, t, k } => vec![x, t, k],
            Rhs::Deriv { x, .. } => vec![x],
            Rhs::Hysteresis { x, lo, hi, a } => vec![x, lo, hi, a],
            Rhs::Timer { c } => vec![c],
        }
    }

    /// The expressions a right-hand side reads, to change in place.
    pub fn operands_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Rhs::Expr(e) => vec![e],
            Rhs::Integral { x } => vec![x],
            Rhs::IntegralLimited { x, lo, hi } => vec![x, lo, hi],
            Rhs::Lag { x, t, k } => vec![x, t, k],
            Rhs::Deriv { x, .. } => vec![x],
            Rhs::Hysteresis { x, lo, hi, a } => vec![x, lo, hi, a],
            Rhs::Timer { c } => vec![c],
        }
    }

    /// Whether the next value depends on the target's current value.
    pub fn reads_target(&self) -> bool {
        !matches!(self, Rhs::Expr(_) | Rhs::Deriv { .. })
    }
}
