//! Solving one equation for its unknown: by inverting the operations on the unknown's path (`+ - * /` and the one-to-one `exp`, `ln`, `log10`), or as `−b / a` where it occurs linearly more than once; and putting a solution into other equations.

use super::{Unknown, count, is};
use crate::ast::{BinOp, Expr, ExprKind};
use crate::source::Span;

/// `u` from `lhs = rhs`: by inversion where `u` occurs once, else as a linear
/// equation; `None` where neither applies (or `u` does not occur).
pub(super) fn solve_for(lhs: &Expr, rhs: &Expr, u: &Unknown, span: Span) -> Option<Expr> {
    match (count(lhs, u), count(rhs, u)) {
        (0, 0) => None,
        (1, 0) => invert(lhs, rhs.clone(), u, span),
        (0, 1) => invert(rhs, lhs.clone(), u, span),
        _ => linear(lhs, rhs, u, span),
    }
}

/// `e` with every read of `u` replaced by `value`.
pub(super) fn substitute(e: &Expr, u: &Unknown, value: &Expr) -> Expr {
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
        // The procedures that are one-to-one on the reals, by their inverses (where
        // the other side is out of the inverse's domain, the value is NaN, reported).
        ExprKind::Call(f, args) if args.len() == 1 => {
            let inverse = |name: &str, args: Vec<Expr>| Expr {
                kind: ExprKind::Call(
                    crate::ast::Name {
                        text: name.into(),
                        span,
                    },
                    args,
                ),
                span,
            };
            let ten = Expr {
                kind: ExprKind::Num(10.0),
                span,
            };
            let value = match f.text.as_str() {
                "exp" => inverse("ln", vec![other]),
                "ln" => inverse("exp", vec![other]),
                "log10" => inverse("pow", vec![ten, other]),
                _ => return None,
            };
            invert(&args[0], value, u, span)
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
