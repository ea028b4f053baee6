//! W0210: `==` or `!=` between reals where one side changes continuously (an integral, a lag, `time`), which exact equality rarely meets.
//!
//! `x = integral(1)` is 0.30000000000000004 after three steps of 0.1, so `x == 0.3` never
//! holds. A real is *inexact* when its value comes from an `integral`, a `lag`, a
//! `deriv` or a `timer`, from `time` or `sub.time`, from an inexact real (of this model
//! or an output of a submodel), or when a rule accumulates it from its own value with a
//! step that is not a whole number (`c = c + 0.1`, a division, a power, a procedure).
//! Everything else is exact by construction and not reported: params and inputs, values
//! the model assigns itself from literals and params (`level = 2 when full;`), counters
//! stepped by whole numbers (`n = n + 1`), and `floor`, `ceil`, `round`, `sign` and
//! `relay` of anything. A variable that one of its rules sets to such a constant is
//! taken as exact too, whatever its other rules (`v = integral(a) when moving; v = 0
//! otherwise;`): the model gives it exact values itself, and `v == 0` is how it tests
//! them.

use crate::ast::CmpOp;
use crate::diag::Diagnostic;
use crate::ir::{ArithOp, Expr, Func, Model, Rhs, Stmt, VarId, VarKind};
use crate::source::Span;

/// A comparison `a == b` or `a != b` of two real values, found by the checker.
#[derive(Debug, Clone)]
pub(super) struct Equality {
    /// The comparison.
    pub(super) span: Span,
    /// `==` or `!=`.
    pub(super) op: CmpOp,
    /// Each side, checked, with its source text.
    pub(super) sides: [(Expr, String); 2],
}

/// Why a real value is inexact.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Why {
    /// It reads `time` (or a submodel's clock).
    Time,
    /// It reads an inexact variable of this model.
    Var(VarId),
    /// It reads an inexact output of a direct submodel.
    Sub(usize, VarId),
}

/// A submodel's model and its inexact variables, by submodel (`None`: not known,
/// taken as exact).
pub(super) type Sub<'a> = Option<(&'a Model, &'a Inexact)>;

/// For each real variable of a model: why its values are inexact, as a phrase ("is an
/// integral"), or `None` when they are exact by construction.
pub(super) type Inexact = Vec<Option<String>>;

/// The inexact variables of `m` (see the module documentation); `subs` are those of
/// its submodels' models, by submodel (`None`: not known, taken as exact).
pub(super) fn inexact(m: &Model, subs: &[Sub<'_>]) -> Inexact {
    let mut out: Inexact = vec![None; m.vars.len()];
    let mut rules = Vec::new();
    collect(&m.body, &mut rules);
    // The variables a rule sets to a constant: exact, whatever their other rules.
    let mut pinned = vec![false; m.vars.len()];
    for &(target, rhs) in &rules {
        if let Rhs::Expr(e) = rhs
            && constant(e, m)
        {
            pinned[target] = true;
        }
    }
    // Each pass marks the targets of the rules that read what is marked; a chain of
    // rules is marked in as many passes as it is long, at most one per variable.
    for _ in 0..=m.vars.len() {
        let mut changed = false;
        for &(target, rhs) in &rules {
            if out[target].is_some() || pinned[target] || m.vars[target].kind != VarKind::State {
                continue;
            }
            let why = match rhs {
                Rhs::Integral { .. } | Rhs::IntegralLimited { .. } => Some("is an integral".into()),
                Rhs::Lag { .. } => Some("is a lag".into()),
                Rhs::Deriv { .. } => Some("is a derivative".into()),
                Rhs::Timer { .. } => Some("is a timer, a whole number of steps of `dt`".into()),
                Rhs::Hysteresis { .. } => None,
                Rhs::Expr(e) => match first_inexact(e, &out, subs) {
                    Some(w) => Some(format!("is computed from {}", describe(m, subs, w))),
                    None if accumulates(e, target, m) => Some(
                        "accumulates a step that is not a whole number (each sum is rounded)"
                            .into(),
                    ),
                    None => None,
                },
            };
            if why.is_some() {
                out[target] = why;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// Whether `e` is a constant of the run: numbers and params only.
fn constant(e: &Expr, m: &Model) -> bool {
    let mut constant = true;
    e.visit(&mut |x| match x {
        Expr::Num(_) | Expr::Neg(_) | Expr::Arith(..) => {}
        Expr::Var(v) if matches!(m.vars[*v].kind, VarKind::Param { .. }) => {}
        _ => constant = false,
    });
    constant
}

/// The δ rules of `body`, nested ones included: (target, right-hand side).
fn collect<'a>(body: &'a [Stmt], out: &mut Vec<(VarId, &'a Rhs)>) {
    for s in body {
        match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => out.push((a.target, &a.rhs)),
            Stmt::If { then, .. } => collect(then, out),
            _ => {}
        }
    }
}

/// The first inexact value that `e` reads (not through a rounding procedure).
fn first_inexact(e: &Expr, vars: &Inexact, subs: &[Sub<'_>]) -> Option<Why> {
    match e {
        Expr::Time | Expr::SubTime(_) => Some(Why::Time),
        Expr::Var(v) | Expr::Prev(v) => vars.get(*v)?.as_ref().map(|_| Why::Var(*v)),
        Expr::SubVar(j, x) => {
            let inexact = subs.get(*j).copied().flatten()?.1.get(*x)?;
            inexact.as_ref().map(|_| Why::Sub(*j, *x))
        }
        Expr::Call(Func::Floor | Func::Ceil | Func::Round | Func::Sign | Func::Relay, _) => None,
        Expr::Neg(a) => first_inexact(a, vars, subs),
        Expr::Arith(_, a, b) => {
            first_inexact(a, vars, subs).or_else(|| first_inexact(b, vars, subs))
        }
        Expr::Call(_, xs) | Expr::Table(_, xs) | Expr::TableSlope(_, _, xs) => {
            xs.iter().find_map(|x| first_inexact(x, vars, subs))
        }
        _ => None,
    }
}

/// Whether `e`, the value of a rule for `target`, reads `target` and adds to it a step
/// that may not be exact: a number or a param that is not a whole number, a division,
/// a power, or a procedure.
fn accumulates(e: &Expr, target: VarId, m: &Model) -> bool {
    let mut own = false;
    let mut rounded = false;
    e.visit(&mut |x| match x {
        Expr::Var(v) | Expr::Prev(v) if *v == target => own = true,
        Expr::Num(n) if n.fract() != 0.0 => rounded = true,
        Expr::Var(v)
            if matches!(m.vars[*v].kind, VarKind::Param { .. })
                && !matches!(m.vars[*v].init, Expr::Num(n) if n.fract() == 0.0) =>
        {
            rounded = true;
        }
        Expr::Arith(ArithOp::Div | ArithOp::Pow, ..) | Expr::Call(..) | Expr::Table(..) => {
            rounded = true;
        }
        _ => {}
    });
    own && rounded
}

/// `why` in words: "`time`", "`x`", "`tank.level`".
fn describe(m: &Model, subs: &[Sub<'_>], why: Why) -> String {
    match why {
        Why::Time => "`time`".into(),
        Why::Var(v) => format!("`{}`", m.vars[v].name),
        Why::Sub(j, x) => format!("`{}.{}`", m.subs[j].name, sub_var(subs, j, x).0),
    }
}

/// The name of variable `x` of submodel `j` and why it is inexact.
fn sub_var<'a>(subs: &[Sub<'a>], j: usize, x: VarId) -> (&'a str, &'a str) {
    match subs.get(j).copied().flatten() {
        Some((model, inexact)) => (
            model.vars.get(x).map_or("", |v| v.name.as_str()),
            inexact.get(x).and_then(Option::as_deref).unwrap_or(""),
        ),
        None => ("", ""),
    }
}

/// W0210 for each comparison of `found` in model `m` (`vars` its inexact variables,
/// `subs` its submodels').
pub(super) fn warn(
    m: &Model,
    found: &[Equality],
    vars: &Inexact,
    subs: &[Sub<'_>],
    diags: &mut Vec<Diagnostic>,
) {
    for eq in found {
        let [(a, ta), (b, tb)] = &eq.sides;
        let (why, side, other) = match (first_inexact(a, vars, subs), first_inexact(b, vars, subs))
        {
            (Some(w), _) => (w, ta, tb),
            (None, Some(w)) => (w, tb, ta),
            (None, None) => continue,
        };
        let (reason, time) = match why {
            Why::Time => ("`time`, the step's start".to_string(), true),
            Why::Var(v) => (
                format!(
                    "`{}`, which {}",
                    m.vars[v].name,
                    vars[v].as_deref().unwrap_or("")
                ),
                false,
            ),
            Why::Sub(j, x) => {
                let (name, why) = sub_var(subs, j, x);
                (format!("`{}.{name}`, which {why}", m.subs[j].name), false)
            }
        };
        let (sym, label, help) = match eq.op {
            CmpOp::Ne => (
                "!=",
                format!("true unless exactly `{other}`, which may never happen"),
                format!(
                    "compare with a tolerance, `abs({side} - {other}) >= tol`, or test which \
                     side of `{other}` it is on (`{side} < {other}`)"
                ),
            ),
            _ => (
                "==",
                format!("may never be exactly `{other}`"),
                format!(
                    "test a crossing, `{side} >= {other}` (an `event` for the step where it \
                     starts to hold), or a tolerance, `abs({side} - {other}) < tol`"
                ),
            ),
        };
        let mut d = Diagnostic::warning(
            "W0210",
            eq.span,
            format!("`{sym}` compares real values exactly, and this one reads {reason}"),
        )
        .with_label(label)
        .with_help(help);
        d = if time {
            d.with_note(
                "`time` is the double nearest n·dt after n steps: it equals a value only if \
                 that value is a whole number of steps",
            )
        } else {
            d.with_note(
                "each step rounds: `x = integral(1)` is 0.30000000000000004 after three steps \
                 of 0.1, so `x == 0.3` never holds",
            )
        };
        diags.push(d);
    }
}
