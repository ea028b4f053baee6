//! A step under `rk4` whose events are located: the classical Runge–Kutta step over the rest of the host step, in a loop that splits it at each event.
//!
//! Used instead of the straight-line rewrite of [`super::method`] when the model has
//! watched guards ([`super::located::watched`]); see "Events located inside a step" in
//! [`crate::ir`]. With `t` the time into the host step:
//!
//! ```text
//! steps = 0; t = 0; y0 = y; (the location's statements before the loop)
//! repeat {
//!     (the location's head)
//!     if not locating {
//!         steps = steps + 1; hs = dt − t
//!         stage s = 1..4: k_s = 0; the stage pass, `time` reading time + (t + c_s·hs);
//!                         then, before stages 2..4, y = y0 + (c_{s+1}·hs)·k_s
//!         y = y0 + (hs·(((k1 + 2·k2) + 2·k3) + k4))/6
//!         accepted: (the location's comparison) else y0 = y; t = dt
//!     }
//!     (the location's halving)
//! } until t ≥ dt and not locating
//! (the location's discrete pass after the loop)
//! ```
//!
//! With no event the values are those of the straight-line step bit for bit: `hs = dt −
//! 0 = dt` and `time + (0 + c·dt) = time + c·dt`.

use super::dopri5::{Hidden, add, mul, sub, var, when};
use super::located::{EVENT_LIMIT, Located, Loop, Scheme};
use super::method::{Split, Stage, arith, assign, num};
use crate::ir::{ArithOp, Expr, Model, Stmt, VarId};

/// The nodes `c_s` of the classical Runge–Kutta method.
const NODES: [f64; 4] = [0.0, 0.5, 0.5, 1.0];

/// The most runs of the loop's internal steps (each ends the host step or an event).
const LIMIT: u64 = 10_000;

/// The stage memories of `rk4` per continuous state of `sp`, added to `hid`:
/// `NAME_rk4_y0` and `NAME_rk4_k1` … `NAME_rk4_k4`.
pub(super) fn memories(hid: &mut Hidden<'_>, sp: &Split) -> Vec<(VarId, [VarId; 4])> {
    sp.states
        .iter()
        .map(|&(v, _)| {
            let (name, vspan) = (hid.m.vars[v].name.clone(), hid.m.vars[v].span);
            let y0 = hid.new_var(
                format!("{name}_rk4_y0"),
                format!(" `{name}` at the start of the step (rk4)"),
                vspan,
            );
            let k = [1, 2, 3, 4].map(|s| {
                hid.new_var(
                    format!("{name}_rk4_k{s}"),
                    format!(" The rate of `{name}` at stage {s} (rk4)."),
                    vspan,
                )
            });
            (y0, k)
        })
        .collect()
}

/// The model `m` (method `rk4`, split `sp`, split for its guards `lsp`, watched
/// `guards`, not empty) as plain rules around one [`Stmt::Repeat`].
pub(super) fn rewrite(m: &Model, sp: &Split, lsp: &Split, guards: Vec<Expr>) -> Model {
    let mut hid = Hidden::of(m);
    let span = m.span;
    let mems: Vec<(VarId, Vec<VarId>)> = memories(&mut hid, sp)
        .into_iter()
        .map(|(y0, k)| (y0, k.to_vec()))
        .collect();
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global("rk4", what, doc);
    let t = global(
        &mut hid,
        "t",
        "Time into the host step of the internal steps",
    );
    let hs = global(&mut hid, "hs", "The internal step being taken");
    let steps = global(
        &mut hid,
        "steps",
        "Internal steps taken in the last host step",
    );
    let f = m.fired;
    let loc = Located::new(
        &mut hid,
        Scheme::Rk4,
        (sp, lsp),
        guards,
        &mems,
        (NODES.len() + 1) * f,
    );
    let index = |v: VarId| sp.states.iter().position(|&(s, _)| s == v);
    let mut body = vec![
        assign(steps, num(0.0), None, span),
        assign(t, num(0.0), None, span),
    ];
    for (i, &(v, vspan)) in sp.states.iter().enumerate() {
        body.push(assign(mems[i].0, var(v), None, vspan));
    }
    body.extend(loc.before());
    let mut inner = vec![
        assign(steps, add(var(steps), num(1.0)), None, span),
        assign(hs, sub(Expr::Dt, var(t)), None, span),
    ];
    let at = |c: f64| match c {
        0.0 => var(t),
        1.0 => add(var(t), var(hs)),
        c => add(var(t), mul(num(c), var(hs))),
    };
    let times_hs = |c: f64| {
        if c == 1.0 {
            var(hs)
        } else {
            mul(num(c), var(hs))
        }
    };
    for (s, &c) in NODES.iter().enumerate() {
        for (i, &(_, vspan)) in sp.states.iter().enumerate() {
            inner.push(assign(mems[i].1[s], num(0.0), None, vspan));
        }
        let stage = Stage {
            m,
            sp,
            node: Some(at(c)),
            offset: (s + 1) * f,
            rate: &|v| index(v).map(|i| mems[i].1[s]),
        };
        inner.extend(stage.stmts(&m.body));
        if let Some(&next) = NODES.get(s + 1) {
            for (i, &(v, vspan)) in sp.states.iter().enumerate() {
                let step = mul(times_hs(next), var(mems[i].1[s]));
                inner.push(assign(v, add(var(mems[i].0), step), None, vspan));
            }
        }
    }
    for (i, &(v, vspan)) in sp.states.iter().enumerate() {
        let k = |s: usize| var(mems[i].1[s]);
        let twice = |s: usize| mul(num(2.0), k(s));
        let sum = add(add(add(k(0), twice(1)), twice(2)), k(3));
        let inc = arith(ArithOp::Div, mul(var(hs), sum), num(6.0));
        inner.push(assign(v, add(var(mems[i].0), inc), None, vspan));
    }
    let mut accept: Vec<Stmt> = sp
        .states
        .iter()
        .enumerate()
        .map(|(i, &(v, vspan))| assign(mems[i].0, var(v), None, vspan))
        .collect();
    accept.push(assign(t, Expr::Dt, None, span));
    let lp = Loop { t, hs, h: None };
    inner.extend(loc.accepted(&lp, accept));
    let runs = vec![
        loc.head(&lp),
        when(loc.stepping(), inner, span),
        loc.halving(&lp),
    ];
    body.push(Stmt::Repeat {
        body: runs,
        until: loc.until(t),
        count: steps,
        limit: LIMIT,
        events: Some((loc.events, EVENT_LIMIT)),
        span,
    });
    body.extend(loc.after());
    let mut out = hid.out;
    out.body = body;
    out.fired = f * (NODES.len() + 1 + Located::PASSES);
    out
}
