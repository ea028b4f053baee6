//! The derivative of an expression with respect to one unknown, written as an expression: the slopes Newton's iteration needs for an equation that is not linear in its unknown.
//!
//! Every operator and every pure procedure has its slope (`sin` gives `cos`, `abs`
//! gives `sign`, `min`/`max`/`limit`/`deadzone` the slope of the branch taken, the
//! piecewise constant ones `floor`/`ceil`/`round`/`sign` zero); `prev(…)`, `time`,
//! `dt` and every name but the unknown are constants. A call of anything else (a
//! stateful procedure, a lookup table) has no slope here: `None`.

use crate::ast::{BinOp, Expr, ExprKind, Name};
use crate::source::Span;

/// `d e / d u`, where the unknown `u` is read as the plain name `u`; `Err` names a call
/// without a slope.
pub(super) fn derive(e: &Expr, u: &str) -> Result<Expr, Name> {
    let s = e.span;
    let d = |a: &Expr| derive(a, u);
    Ok(match &e.kind {
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) => num(0.0, s),
        ExprKind::Path(p) => num(
            if p.len() == 1 && p[0].text == u {
                1.0
            } else {
                0.0
            },
            s,
        ),
        ExprKind::Paren(a) => d(a)?,
        ExprKind::Neg(a) => neg(d(a)?),
        // Logical values have no slope; they only appear under a procedure's argument
        // that is itself a comparison, which no real-valued procedure takes.
        ExprKind::Not(_) | ExprKind::Compare(..) => num(0.0, s),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (&**a, &**b);
            match op {
                BinOp::Add => add(d(a)?, d(b)?),
                BinOp::Sub => sub(d(a)?, d(b)?),
                BinOp::Mul => add(mul(d(a)?, b.clone()), mul(a.clone(), d(b)?)),
                // (a/b)' = a'/b − a·b'/(b·b)
                BinOp::Div => sub(
                    div(d(a)?, b.clone()),
                    div(mul(a.clone(), d(b)?), mul(b.clone(), b.clone())),
                ),
                BinOp::Pow => power(a, b, d(a)?, d(b)?),
                BinOp::Or | BinOp::And => num(0.0, s),
            }
        }
        ExprKind::Call(f, args) => return call(f, args, u),
        // Expanded before the equations are solved (`check::arrays`).
        ExprKind::Index(path, _) => return Err(path[path.len() - 1].clone()),
        ExprKind::Reduce(f, _) => return Err(f.clone()),
    })
}

/// The slope of the procedure call `f(args)`.
fn call(f: &Name, args: &[Expr], u: &str) -> Result<Expr, Name> {
    let s = f.span;
    let arg = |i: usize| args[i].clone();
    let d = |i: usize| derive(&args[i], u);
    let f1 = |name: &str, a: Expr| call_expr(name, vec![a], s);
    Ok(match (f.text.as_str(), args.len()) {
        ("prev", _) => num(0.0, s),
        ("floor" | "ceil" | "round" | "sign", 1) => num(0.0, s),
        ("abs", 1) => mul(f1("sign", arg(0)), d(0)?),
        ("sqrt", 1) => div(d(0)?, mul(num(2.0, s), f1("sqrt", arg(0)))),
        ("exp", 1) => mul(f1("exp", arg(0)), d(0)?),
        ("ln", 1) => div(d(0)?, arg(0)),
        ("log10", 1) => div(d(0)?, mul(arg(0), num(core::f64::consts::LN_10, s))),
        ("sin", 1) => mul(f1("cos", arg(0)), d(0)?),
        ("cos", 1) => neg(mul(f1("sin", arg(0)), d(0)?)),
        ("tan", 1) => div(d(0)?, mul(f1("cos", arg(0)), f1("cos", arg(0)))),
        ("asin", 1) => div(d(0)?, f1("sqrt", sub(num(1.0, s), sq(arg(0))))),
        ("acos", 1) => neg(div(d(0)?, f1("sqrt", sub(num(1.0, s), sq(arg(0)))))),
        ("atan", 1) => div(d(0)?, add(num(1.0, s), sq(arg(0)))),
        ("sinh", 1) => mul(f1("cosh", arg(0)), d(0)?),
        ("cosh", 1) => mul(f1("sinh", arg(0)), d(0)?),
        ("tanh", 1) => mul(sub(num(1.0, s), sq(f1("tanh", arg(0)))), d(0)?),
        // atan2(y, x)' = (x·y' − y·x') / (x² + y²)
        ("atan2", 2) => div(
            sub(mul(arg(1), d(0)?), mul(arg(0), d(1)?)),
            add(sq(arg(1)), sq(arg(0))),
        ),
        // hypot(x, y)' = (x·x' + y·y') / hypot(x, y)
        ("hypot", 2) => div(
            add(mul(arg(0), d(0)?), mul(arg(1), d(1)?)),
            call_expr("hypot", vec![arg(0), arg(1)], s),
        ),
        ("pow", 2) => power(&args[0], &args[1], d(0)?, d(1)?),
        ("min", 2) => branch(&args[0], &args[1], d(0)?, d(1)?, -1.0),
        ("max", 2) => branch(&args[0], &args[1], d(0)?, d(1)?, 1.0),
        // relay(x, a) = a·sign(x)
        ("relay", 2) => mul(f1("sign", arg(0)), d(1)?),
        // limit(x, lo, hi) = min(max(x, lo), hi), the clamp for lo ≤ hi.
        ("limit", 3) => {
            let inner = call_expr("max", vec![arg(0), arg(1)], s);
            let d_inner = branch(&args[0], &args[1], d(0)?, d(1)?, 1.0);
            branch(&inner, &args[2], d_inner, d(2)?, -1.0)
        }
        // deadzone(x, w) = x − limit(x, −w, w)
        ("deadzone", 2) => {
            let lo = neg(arg(1));
            let inner = call_expr("max", vec![arg(0), lo.clone()], s);
            let d_inner = branch(&args[0], &lo, d(0)?, neg(d(1)?), 1.0);
            sub(d(0)?, branch(&inner, &args[1], d_inner, d(1)?, -1.0))
        }
        _ => return Err(f.clone()),
    })
}

/// The slope of `min(a, b)` (`sign` −1) or `max(a, b)` (`sign` 1): the slope of the
/// argument taken, `(a' + b')/2 ± sign(a − b)·(a' − b')/2` (the mean where they tie).
fn branch(a: &Expr, b: &Expr, da: Expr, db: Expr, sign: f64) -> Expr {
    let s = a.span;
    if is_zero(&da) && is_zero(&db) {
        return num(0.0, s);
    }
    let half = num(0.5, s);
    let mean = mul(half.clone(), add(da.clone(), db.clone()));
    let which = call_expr("sign", vec![sub(a.clone(), b.clone())], s);
    let swing = mul(mul(half, which), sub(da, db));
    if sign > 0.0 {
        add(mean, swing)
    } else {
        sub(mean, swing)
    }
}

/// The slope of `a ^ b`: `b·a^(b−1)·a'` for a constant exponent, else
/// `a^b·(b'·ln(a) + b·a'/a)`.
fn power(a: &Expr, b: &Expr, da: Expr, db: Expr) -> Expr {
    let s = a.span;
    if is_zero(&db) {
        let lower = bin(BinOp::Pow, a.clone(), sub(b.clone(), num(1.0, s)));
        return mul(mul(b.clone(), lower), da);
    }
    let whole = bin(BinOp::Pow, a.clone(), b.clone());
    let ln_a = call_expr("ln", vec![a.clone()], s);
    mul(
        whole,
        add(mul(db, ln_a), div(mul(b.clone(), da), a.clone())),
    )
}

/// The literal `v`.
pub(super) fn num(v: f64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Num(v),
        span,
    }
}

/// The call `name(args)`.
pub(super) fn call_expr(name: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Call(
            Name {
                text: name.into(),
                span,
            },
            args,
        ),
        span,
    }
}

fn is_zero(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Num(v) if v == 0.0)
}

fn is_one(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Num(v) if v == 1.0)
}

/// `a op b` in parentheses where needed, with the zeros and ones of a slope folded
/// (`0·x`, `x + 0`, `1·x`): the slopes stay as short as the expression allows. Folding
/// `0·x` to `0` drops a NaN of `x`; a slope only steers the iteration, whose result is
/// checked by its residual.
pub(super) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let span = a.span;
    Expr {
        kind: ExprKind::Binary(op, Box::new(paren(a)), Box::new(paren(b))),
        span,
    }
}

/// `e` in parentheses unless it is a literal, a name or a call.
fn paren(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Num(_)
        | ExprKind::Quantity(..)
        | ExprKind::Path(_)
        | ExprKind::Call(..)
        | ExprKind::Paren(_) => e,
        _ => Expr {
            span: e.span,
            kind: ExprKind::Paren(Box::new(e)),
        },
    }
}

pub(super) fn add(a: Expr, b: Expr) -> Expr {
    match (is_zero(&a), is_zero(&b)) {
        (true, _) => b,
        (_, true) => a,
        _ => bin(BinOp::Add, a, b),
    }
}

pub(super) fn sub(a: Expr, b: Expr) -> Expr {
    match (is_zero(&a), is_zero(&b)) {
        (_, true) => a,
        (true, _) => neg(b),
        _ => bin(BinOp::Sub, a, b),
    }
}

pub(super) fn mul(a: Expr, b: Expr) -> Expr {
    if is_zero(&a) || is_zero(&b) {
        return num(0.0, a.span);
    }
    match (is_one(&a), is_one(&b)) {
        (true, _) => b,
        (_, true) => a,
        _ => bin(BinOp::Mul, a, b),
    }
}

pub(super) fn div(a: Expr, b: Expr) -> Expr {
    if is_zero(&a) {
        return a;
    }
    if is_one(&b) {
        return a;
    }
    bin(BinOp::Div, a, b)
}

pub(super) fn neg(a: Expr) -> Expr {
    if is_zero(&a) {
        return a;
    }
    let span = a.span;
    Expr {
        kind: ExprKind::Neg(Box::new(paren(a))),
        span,
    }
}

fn sq(a: Expr) -> Expr {
    mul(a.clone(), a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates `e` with the unknown `u` at `x` (only what the tests below use).
    fn eval(e: &Expr, x: f64) -> f64 {
        match &e.kind {
            ExprKind::Num(v) => *v,
            ExprKind::Path(_) => x,
            ExprKind::Paren(a) => eval(a, x),
            ExprKind::Neg(a) => -eval(a, x),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (eval(a, x), eval(b, x));
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div => a / b,
                    BinOp::Pow => a.powf(b),
                    _ => unreachable!(),
                }
            }
            ExprKind::Call(f, args) => {
                let a: Vec<f64> = args.iter().map(|a| eval(a, x)).collect();
                match f.text.as_str() {
                    "sin" => a[0].sin(),
                    "cos" => a[0].cos(),
                    "tan" => a[0].tan(),
                    "exp" => a[0].exp(),
                    "ln" => a[0].ln(),
                    "sqrt" => a[0].sqrt(),
                    "abs" => a[0].abs(),
                    "sign" => {
                        if a[0] == 0.0 {
                            0.0
                        } else {
                            a[0].signum()
                        }
                    }
                    "tanh" => a[0].tanh(),
                    "cosh" => a[0].cosh(),
                    "sinh" => a[0].sinh(),
                    "atan" => a[0].atan(),
                    "asin" => a[0].asin(),
                    "atan2" => a[0].atan2(a[1]),
                    "hypot" => a[0].hypot(a[1]),
                    "min" => a[0].min(a[1]),
                    "max" => a[0].max(a[1]),
                    "limit" => a[0].max(a[1]).min(a[2]),
                    "pow" => a[0].powf(a[1]),
                    other => panic!("{other}"),
                }
            }
            k => panic!("{k:?}"),
        }
    }

    fn parse(text: &str) -> Expr {
        let src = format!("model M {{ real u, y; equation y = {text}; }}");
        let file = crate::parse::parse_file(0, &src).expect("parses");
        match &file.models[0].rules[0] {
            crate::ast::Rule::Equation { rhs, .. } => rhs.clone(),
            _ => panic!(),
        }
    }

    /// Each slope against a central difference, at points away from kinks.
    #[test]
    fn slopes_match_central_differences() {
        let cases = [
            "u * u * u - 2 * u",
            "sin(u) * cos(2 * u) + tan(u / 3)",
            "exp(u / 0.5) / (1 + u ^ 2)",
            "ln(u + 3) + sqrt(u + 2) - abs(u - 0.1)",
            "u ^ u + pow(2, u) + (u + 2) ^ 1.5",
            "tanh(u) * cosh(u) - sinh(u / 2) + atan(u) + asin(u / 4)",
            "atan2(u, 2 - u) + hypot(u, 3)",
            "min(u, 0.2) + max(2 * u, -1) + limit(u, -0.5, 0.4)",
            "-(u - 1) / (u + 4)",
        ];
        for text in cases {
            let e = parse(text);
            let d = derive(&e, "u").expect("has a slope");
            for x in [0.3, 0.55, 0.9] {
                let h = 1e-6;
                let fd = (eval(&e, x + h) - eval(&e, x - h)) / (2.0 * h);
                let exact = eval(&d, x);
                // Central differences are accurate to O(h²)·f''' plus rounding
                // ε·|f|/h: 1e-7 relative covers both for these smooth functions.
                assert!(
                    (exact - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
                    "{text} at {x}: {exact} vs {fd}"
                );
            }
        }
    }

    #[test]
    fn a_table_or_stateful_call_has_no_slope() {
        let e = parse("integral(u)");
        assert_eq!(derive(&e, "u").unwrap_err().text, "integral");
    }
}
