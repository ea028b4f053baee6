//! Index reduction: a constraint among the states (an equation that, once the equations determining one value each from the states are put in, relates states alone) differentiated in time until it determines an unknown, with one of its states made a *dummy state*, computed from the constraint instead of integrated (Pantelides' structural differentiation with the dummy derivatives of Mattsson and Söderlind).
//!
//! Runs only where the equations as written cannot be matched (a model that can keeps
//! its equations to the bit). Each round:
//!
//! 1. every equation that reads one unknown and can be solved for it *defines* it (an
//!    alias `a.phi = phi`, a rate `der(phi) = w`), and the definitions are put into the
//!    other equations, in textual order until none is left;
//! 2. the first equation left reading states alone is a constraint `g(x) = 0`. If it
//!    holds for any values (checked at random points: it is implied by the others, as
//!    a gear's speed equation is by its angle equation and `der(phi) = w`), it is
//!    dropped. Otherwise a state `x_d` of it whose slope `∂g/∂x_d` is constant (a
//!    number, else an expression of params) becomes a dummy: its rate `der(x_d)` is
//!    replaced in every equation by its value from `d/dt g = Σ ∂g/∂x_i · der(x_i) +
//!    ∂g/∂time = 0`, so no equation integrates `x_d` any more, and the constraint
//!    itself determines it.
//!
//! The result is plain equations that the matching, the blocks and the rearrangement
//! then solve as written. A constraint with no state of constant slope (the Cartesian
//! pendulum's `x² + y² = L²`, whose slopes `2x`, `2y` each vanish somewhere) would need
//! the dummy chosen again during the run; Sit refuses it (E0490), as it refuses one
//! that reads a value whose rate it cannot know (an input, a value a rule writes).

use super::algebra::{solve_for, substitute};
use super::derive::{add, call_expr, derive, mul, num, sub};
use super::{Unknown, children, der_of};
use crate::ast::{BinOp, Expr, ExprKind, Name};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// A state computed from a constraint instead of integrated.
#[derive(Debug, Clone, PartialEq)]
pub struct Dummy {
    /// The state.
    pub state: String,
    /// The constraint (as written: the equation left relating states alone).
    pub constraint: Span,
}

/// What the reduction made of the equations.
pub(super) enum Reduced {
    /// No constraint among the states: the equations are used as written.
    Nothing,
    /// The equations reduced (sides and spans), the dummy states chosen.
    Done {
        eqs: Vec<(Expr, Expr, Span)>,
        dummies: Vec<Dummy>,
    },
    /// A constraint that cannot be reduced (errors pushed).
    Failed,
}

/// The rounds at most (each makes one state a dummy or drops one equation).
const MAX_ROUNDS: usize = 64;

/// Reduces the equations `eqs` (with the model's `reals` that no rule writes, its
/// `params`); see the module's comment.
pub(super) fn reduce(
    eqs: &[(Expr, Expr, Span)],
    reals: &HashMap<&str, Span>,
    params: &HashSet<&str>,
    diags: &mut Vec<Diagnostic>,
) -> Reduced {
    let mut eqs = eqs.to_vec();
    let mut dummies = Vec::new();
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        let states = rated(&eqs, reals);
        let cur = propagate(&eqs, reals, &states);
        let found = (0..eqs.len()).find(|&i| {
            let (l, r, def) = &cur[i];
            !def && unknowns(l, reals, &states).is_empty()
                && unknowns(r, reals, &states).is_empty()
                && !reads_states(l, r, &states).is_empty()
        });
        let Some(i) = found else {
            break;
        };
        changed = true;
        let (l, r, _) = &cur[i];
        let span = eqs[i].2;
        if identically_equal(l, r) {
            // Implied by the others: the same constraint reached twice.
            eqs.remove(i);
            continue;
        }
        let g = sub(l.clone(), r.clone());
        let xs = reads_states(l, r, &states);
        if let Some(name) = varying(&g, &states, params) {
            diags.push(
                constraint_error(span, &xs)
                    .with_note(format!(
                        "Sit reduces the index by differentiating the constraint in time; it \
                         reads `{name}`, whose rate it cannot know (an input, a value a rule \
                         writes, a submodel's output)"
                    ))
                    .with_help(
                        "differentiate the constraint by hand until it determines an \
                         unknown, or write the model in fewer coordinates",
                    ),
            );
            return Reduced::Failed;
        }
        // The slopes, and the state to compute: a numeric slope first, then one of
        // params; the first read among equals.
        let mut slopes = Vec::with_capacity(xs.len());
        for x in &xs {
            match derive(&g, x) {
                Ok(c) => slopes.push(c),
                Err(f) => {
                    diags.push(
                        constraint_error(span, &xs)
                            .with_note(format!(
                                "Sit reduces the index by differentiating the constraint in \
                                 time, and `{}` has no derivative",
                                f.text
                            ))
                            .with_help("differentiate the constraint by hand"),
                    );
                    return Reduced::Failed;
                }
            }
        }
        let pick = (0..xs.len())
            .find(|&k| {
                names(&slopes[k]).is_empty() && eval(&slopes[k], 0).is_some_and(|v| v != 0.0)
            })
            .or_else(|| {
                (0..xs.len()).find(|&k| {
                    let n = names(&slopes[k]);
                    !n.is_empty()
                        && n.iter().all(|n| params.contains(n.as_str()))
                        && !is_zero(&slopes[k])
                })
            });
        let Some(k) = pick else {
            let slopes: Vec<String> = (xs.iter().zip(&slopes))
                .map(|(x, c)| format!("∂/∂{x} = {}", show(c)))
                .collect();
            diags.push(
                constraint_error(span, &xs)
                    .with_note(format!(
                        "Sit reduces the index by computing one state of the constraint from \
                         it instead of integrating it, chosen once: a state whose slope in the \
                         constraint is constant, so that it can be solved for everywhere; \
                         here every slope depends on the states and can vanish ({})",
                        slopes.join(", ")
                    ))
                    .with_help(
                        "write the model in coordinates without the constraint (a pendulum \
                         in its angle), or differentiate the constraint by hand until it \
                         determines an unknown (for x² + y² = L²: `x * vx + y * vy = 0`, \
                         then once more for the accelerations)",
                    ),
            );
            return Reduced::Failed;
        };
        let xd = xs[k].clone();
        // d/dt g = Σ ∂g/∂x · der(x) + ∂g/∂time, solved for der(x_d).
        let mut rate = if names(&g).iter().any(|n| n == "time") {
            derive(&g, "time").unwrap_or_else(|_| num(0.0, span))
        } else {
            num(0.0, span)
        };
        for (x, c) in xs.iter().zip(&slopes) {
            rate = add(rate, mul(c.clone(), der_expr(x, span)));
        }
        let target = Unknown::Rate(xd.clone());
        let Some(value) = solve_for(&rate, &num(0.0, span), &target, span) else {
            diags.push(constraint_error(span, &xs).with_note(
                "the constraint's derivative cannot be solved for the rate of the state \
                 chosen",
            ));
            return Reduced::Failed;
        };
        for (l, r, _) in &mut eqs {
            *l = substitute(l, &target, &value);
            *r = substitute(r, &target, &value);
        }
        dummies.push(Dummy {
            state: xd,
            constraint: span,
        });
    }
    if changed {
        Reduced::Done { eqs, dummies }
    } else {
        Reduced::Nothing
    }
}

/// E0490 at a constraint among `states` that cannot be reduced.
fn constraint_error(span: Span, states: &[String]) -> Diagnostic {
    let states: Vec<String> = states.iter().map(|x| format!("`{x}`")).collect();
    Diagnostic::error(
        "E0490",
        span,
        "an equation that constrains the states, which Sit cannot reduce",
    )
    .with_label(format!(
        "relates {} alone, whose rates other equations determine",
        states.join(", ")
    ))
}

/// The reals whose rates the equations read (the states), as they stand.
fn rated(eqs: &[(Expr, Expr, Span)], reals: &HashMap<&str, Span>) -> HashSet<String> {
    fn walk(e: &Expr, reals: &HashMap<&str, Span>, out: &mut HashSet<String>) {
        if let Some(x) = der_of(e)
            && reals.contains_key(x.text.as_str())
        {
            out.insert(x.text.clone());
            return;
        }
        for c in children(e) {
            walk(c, reals, out);
        }
    }
    let mut out = HashSet::new();
    for (l, r, _) in eqs {
        walk(l, reals, &mut out);
        walk(r, reals, &mut out);
    }
    out
}

/// The unknowns `e` reads, each once.
fn unknowns(e: &Expr, reals: &HashMap<&str, Span>, states: &HashSet<String>) -> Vec<Unknown> {
    fn walk(
        e: &Expr,
        reals: &HashMap<&str, Span>,
        states: &HashSet<String>,
        out: &mut Vec<Unknown>,
    ) {
        let u = if let Some(x) = der_of(e) {
            states
                .contains(&x.text)
                .then(|| Unknown::Rate(x.text.clone()))
        } else {
            match &e.kind {
                ExprKind::Path(p)
                    if p.len() == 1
                        && reals.contains_key(p[0].text.as_str())
                        && !states.contains(&p[0].text) =>
                {
                    Some(Unknown::Value(p[0].text.clone()))
                }
                _ => None,
            }
        };
        if let Some(u) = u {
            if !out.contains(&u) {
                out.push(u);
            }
            return;
        }
        for c in children(e) {
            walk(c, reals, states, out);
        }
    }
    let mut out = Vec::new();
    walk(e, reals, states, &mut out);
    out
}

/// The states that `l` and `r` read as values, each once, in the order read.
fn reads_states(l: &Expr, r: &Expr, states: &HashSet<String>) -> Vec<String> {
    fn walk(e: &Expr, states: &HashSet<String>, out: &mut Vec<String>) {
        if der_of(e).is_some() {
            return;
        }
        if let ExprKind::Path(p) = &e.kind
            && p.len() == 1
            && states.contains(&p[0].text)
            && !out.contains(&p[0].text)
        {
            out.push(p[0].text.clone());
        }
        for c in children(e) {
            walk(c, states, out);
        }
    }
    let mut out = Vec::new();
    walk(l, states, &mut out);
    walk(r, states, &mut out);
    out
}

/// The equations with every definition put in: each with whether it is itself one.
fn propagate(
    eqs: &[(Expr, Expr, Span)],
    reals: &HashMap<&str, Span>,
    states: &HashSet<String>,
) -> Vec<(Expr, Expr, bool)> {
    let mut cur: Vec<(Expr, Expr, bool)> = eqs
        .iter()
        .map(|(l, r, _)| (l.clone(), r.clone(), false))
        .collect();
    loop {
        let mut changed = false;
        for i in 0..cur.len() {
            if cur[i].2 {
                continue;
            }
            let mut us = unknowns(&cur[i].0, reals, states);
            for u in unknowns(&cur[i].1, reals, states) {
                if !us.contains(&u) {
                    us.push(u);
                }
            }
            let [u] = us.as_slice() else {
                continue;
            };
            let Some(value) = solve_for(&cur[i].0, &cur[i].1, u, eqs[i].2) else {
                continue;
            };
            cur[i].2 = true;
            changed = true;
            let u = u.clone();
            for (j, (l, r, def)) in cur.iter_mut().enumerate() {
                if j != i && !*def {
                    *l = substitute(l, &u, &value);
                    *r = substitute(r, &u, &value);
                }
            }
        }
        if !changed {
            return cur;
        }
    }
}

/// The names `e` reads (not under `prev`), each once.
fn names(e: &Expr) -> Vec<String> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Path(p) = &e.kind {
            let n = p
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(".");
            if !out.contains(&n) {
                out.push(n);
            }
        }
        for c in children(e) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// A name `g` reads whose rate is not known: not a state, a param, `time` or `dt`.
fn varying(g: &Expr, states: &HashSet<String>, params: &HashSet<&str>) -> Option<String> {
    names(g)
        .into_iter()
        .find(|n| !states.contains(n) && !params.contains(n.as_str()) && n != "time" && n != "dt")
}

/// `der(x)`.
fn der_expr(x: &str, span: Span) -> Expr {
    call_expr(
        "der",
        vec![Expr {
            kind: ExprKind::Path(vec![Name {
                text: x.to_string(),
                span,
            }]),
            span,
        }],
        span,
    )
}

fn is_zero(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Num(v) if v == 0.0)
}

/// Whether `l = r` holds for any values of the names they read: at a few points, each
/// name a pseudo-random value in [0.5, 1.5), the sides agree to 1e-9 of their
/// magnitude. (Two different expressions that agree at all of them are a coincidence
/// of probability zero; a point where either is not a number counts as a difference.)
fn identically_equal(l: &Expr, r: &Expr) -> bool {
    (1..=4).all(|k| match (eval(l, k), eval(r, k)) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * (1.0 + a.abs() + b.abs()),
        _ => false,
    })
}

/// The pseudo-random value of the name `n` at point `k` (FNV-1a, then a splitmix
/// finaliser), in [0.5, 1.5); at point 0 every name is 1.
fn value_of(n: &str, k: u64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in n.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    0.5 + (h >> 11) as f64 / (1u64 << 53) as f64
}

/// `e` at point `k` (see [`value_of`]); `None` for what has no value here (a stateful
/// call, a logical value) or a value that is not finite.
fn eval(e: &Expr, k: u64) -> Option<f64> {
    let v = match &e.kind {
        ExprKind::Num(v) | ExprKind::Quantity(v, _) => *v,
        ExprKind::Path(p) => {
            let n = p
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(".");
            value_of(&n, k)
        }
        ExprKind::Paren(a) => eval(a, k)?,
        ExprKind::Neg(a) => -eval(a, k)?,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval(a, k)?, eval(b, k)?);
            match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                BinOp::Pow => a.powf(b),
                BinOp::Or | BinOp::And => return None,
            }
        }
        ExprKind::Call(f, args) => {
            let a = args
                .iter()
                .map(|a| eval(a, k))
                .collect::<Option<Vec<f64>>>()?;
            match (f.text.as_str(), a.as_slice()) {
                // A rate: a name of its own.
                ("der", [_]) => value_of(&format!("der({})", show(&args[0])), k),
                ("sin", [x]) => x.sin(),
                ("cos", [x]) => x.cos(),
                ("tan", [x]) => x.tan(),
                ("asin", [x]) => x.asin(),
                ("acos", [x]) => x.acos(),
                ("atan", [x]) => x.atan(),
                ("sinh", [x]) => x.sinh(),
                ("cosh", [x]) => x.cosh(),
                ("tanh", [x]) => x.tanh(),
                ("exp", [x]) => x.exp(),
                ("ln", [x]) => x.ln(),
                ("log10", [x]) => x.log10(),
                ("sqrt", [x]) => x.sqrt(),
                ("abs", [x]) => x.abs(),
                ("sign", [x]) => {
                    if *x == 0.0 {
                        0.0
                    } else {
                        x.signum()
                    }
                }
                ("floor", [x]) => x.floor(),
                ("ceil", [x]) => x.ceil(),
                ("round", [x]) => x.round(),
                ("atan2", [y, x]) => y.atan2(*x),
                ("hypot", [x, y]) => x.hypot(*y),
                ("pow", [x, y]) => x.powf(*y),
                ("min", [x, y]) => x.min(*y),
                ("max", [x, y]) => x.max(*y),
                _ => return None,
            }
        }
        _ => return None,
    };
    v.is_finite().then_some(v)
}

/// `e` as written (for messages; parentheses where the tree has them).
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Num(v) | ExprKind::Quantity(v, _) => format!("{v}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Path(p) => p
            .iter()
            .map(|n| n.text.as_str())
            .collect::<Vec<_>>()
            .join("."),
        ExprKind::Paren(a) => format!("({})", show(a)),
        ExprKind::Neg(a) => format!("-{}", show(a)),
        ExprKind::Not(a) => format!("!{}", show(a)),
        ExprKind::Binary(op, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        ExprKind::Call(f, args) => format!(
            "{}({})",
            f.text,
            args.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        _ => "…".to_string(),
    }
}
