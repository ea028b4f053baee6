//! The one walk over the IR's statements and expressions, and what every analysis asks of a statement or a right-hand side.

use super::{Assign, Checked, Expr, Model, Rhs, Span, Stmt};

/// A kind of statement that a pass adds to a body beyond the checker's ([`Stmt::Added`]):
/// what every analysis asks of it.
pub trait Added: Clone + std::fmt::Debug {
    /// The statements it holds, in order (a loop's body); empty for the others.
    fn children(&self) -> &[Stmt<Self>];
    /// Where it is attributed in the source (the model, for a method rewrite's).
    fn span(&self) -> Span;
}

impl Added for Checked {
    fn children(&self) -> &[Stmt<Self>] {
        match *self {}
    }
    fn span(&self) -> Span {
        match *self {}
    }
}

impl<X: Added> Stmt<X> {
    /// The statements this one holds (a guarded block's, a loop's body), in order; empty
    /// for the others.
    pub fn children(&self) -> &[Stmt<X>] {
        match self {
            Stmt::If { then: body, .. } => body,
            Stmt::Added(x) => x.children(),
            Stmt::Assign(_)
            | Stmt::Otherwise { .. }
            | Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::SetMode { .. }
            | Stmt::Reset { .. }
            | Stmt::Run { .. }
            | Stmt::Step { .. } => &[],
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
            | Stmt::Step { span, .. } => *span,
            Stmt::Added(x) => x.span(),
        }
    }
}

impl<X> Stmt<X> {
    /// The δ assignment of a rule (plain or `otherwise`), if this is one.
    pub fn assign(&self) -> Option<&Assign> {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => Some(a),
            _ => None,
        }
    }
}

impl Stmt {
    /// The statement as one of a body that may hold a pass's statements (`X`): the same
    /// statement, since a checked one holds none.
    pub fn widen<X>(self) -> Stmt<X> {
        match self {
            Stmt::Assign(a) => Stmt::Assign(a),
            Stmt::Otherwise { assign, fired } => Stmt::Otherwise { assign, fired },
            Stmt::If { cond, then, span } => Stmt::If {
                cond,
                then: then.into_iter().map(Stmt::widen).collect(),
                span,
            },
            Stmt::SetFlag { var, value, span } => Stmt::SetFlag { var, value, span },
            Stmt::Switch { sub, on, span } => Stmt::Switch { sub, on, span },
            Stmt::SetMode { mode, state, span } => Stmt::SetMode { mode, state, span },
            Stmt::Reset { sub, span } => Stmt::Reset { sub, span },
            Stmt::Run { sub, span } => Stmt::Run { sub, span },
            Stmt::Step { sub, span } => Stmt::Step { sub, span },
            Stmt::Added(x) => match x {},
        }
    }
}

impl Model {
    /// The model with a body that may hold a pass's statements (`X`), as it is.
    pub fn widen<X>(mut self) -> Model<X> {
        let body = std::mem::take(&mut self.body);
        self.with_body(body.into_iter().map(Stmt::widen).collect())
    }
}

impl<Y> Model<Y> {
    /// The model with `body` in place of its own (whose statements may be of another
    /// kind `X`), the rest as it is.
    pub fn with_body<X>(self, body: Vec<Stmt<X>>) -> Model<X> {
        let Model {
            name,
            doc,
            span,
            vars,
            conds,
            events,
            subs,
            body: _,
            memories,
            fired,
            method,
            modes,
            substeps,
            allow_non_finite,
        } = self;
        Model {
            name,
            doc,
            span,
            vars,
            conds,
            events,
            subs,
            body,
            memories,
            fired,
            method,
            modes,
            substeps,
            allow_non_finite,
        }
    }
}

/// Calls `f` on every statement of `body` and of the statements it holds, in
/// pre-order (each statement before those it holds, in textual order): the one walk
/// over statements that the analyses of the IR share.
pub fn walk<'a, X: Added>(body: &'a [Stmt<X>], f: &mut impl FnMut(&'a Stmt<X>)) {
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
            Expr::Call(_, xs) | Expr::Table(_, xs) | Expr::TableSlope(_, _, xs) => {
                xs.iter().for_each(|x| x.visit(f))
            }
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
            Expr::Call(_, xs) | Expr::Table(_, xs) | Expr::TableSlope(_, _, xs) => {
                xs.iter_mut().for_each(|x| x.visit_mut(f))
            }
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

/// The order in which a model's `subs` submodels step, per submodel: those not placed
/// first, in declaration order, then those placed by a [`Stmt::Step`] of `body` in the
/// order of their statements.
pub fn step_rank<X>(subs: usize, body: &[Stmt<X>]) -> Vec<usize> {
    let mut rank: Vec<usize> = (0..subs).collect();
    let mut placed = 0;
    for s in body {
        if let Stmt::Step { sub, .. } = s
            && let Some(r) = rank.get_mut(*sub)
        {
            *r = subs + placed;
            placed += 1;
        }
    }
    rank
}
