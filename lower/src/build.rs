//! Short constructors of IR expressions and statements for the method rewrites, and the weighted sum of stage rates.

use crate::Span;
use crate::ir::{ArithOp, Assign, CmpOp, Expr, Func, Rhs, Stmt, Tolerance, VarId};

/// The number `x`.
pub(super) fn num(x: f64) -> Expr {
    Expr::Num(x)
}

/// The value of variable `v`.
pub(super) fn var(v: VarId) -> Expr {
    Expr::Var(v)
}

/// `a op b`.
pub(super) fn arith(op: ArithOp, a: Expr, b: Expr) -> Expr {
    Expr::Arith(op, Box::new(a), Box::new(b))
}

/// `a + b`.
pub(super) fn add(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Add, a, b)
}

/// `a − b`.
pub(super) fn sub(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Sub, a, b)
}

/// `a · b`.
pub(super) fn mul(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Mul, a, b)
}

/// `a / b`.
pub(super) fn div(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Div, a, b)
}

/// `f(args…)`.
pub(super) fn call(f: Func, args: Vec<Expr>) -> Expr {
    Expr::Call(f, args)
}

/// `a op b` for a comparison.
pub(super) fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr::Cmp(op, Box::new(a), Box::new(b))
}

/// `if cond { then }`.
pub(super) fn when<X>(cond: Expr, then: Vec<Stmt<X>>, span: Span) -> Stmt<X> {
    Stmt::If { cond, then, span }
}

/// The plain rule `target = e` (its `otherwise` flag `fired`, if any).
pub(super) fn assign<X>(target: VarId, e: Expr, fired: Option<usize>, span: Span) -> Stmt<X> {
    Stmt::Assign(Assign {
        target,
        rhs: Rhs::Expr(e),
        fired,
        span,
    })
}

/// `Σ_j w_j·k_j` over the nonzero weights, left to right, a weight of 1 left out
/// (`None` if all are zero): `((w_1·k_1 + w_2·k_2) + w_3·k_3) + …`.
pub(super) fn weighted(w: &[f64], k: &[VarId]) -> Option<Expr> {
    w.iter()
        .zip(k)
        .filter(|(w, _)| **w != 0.0)
        .map(|(&w, &k)| {
            if w == 1.0 {
                var(k)
            } else {
                mul(num(w), var(k))
            }
        })
        .reduce(add)
}

/// The scale of a state's error estimate, `atol + rtol·max(|y0|, |y|)` (`y0` the state
/// at the step's start, `y` at its end).
pub(super) fn error_scale(tol: Tolerance, y0: VarId, y: VarId) -> Expr {
    add(
        num(tol.atol),
        mul(
            num(tol.rtol),
            call(
                Func::Max,
                vec![
                    call(Func::Abs, vec![var(y0)]),
                    call(Func::Abs, vec![var(y)]),
                ],
            ),
        ),
    )
}
