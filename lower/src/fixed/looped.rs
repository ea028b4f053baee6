//! The fixed step with located events: a host step under `rk4` (a tableau without error estimate) in a loop that splits it at each event.
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
//!         the stage passes and the solution (super::stages), the step from t of
//!         length hs: under rk4,
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

use crate::bounds::{EVENT_LIMIT, LOOP_LIMIT};
use crate::build::{add, assign, num, sub, var, when};
use crate::hidden::Hidden;
use crate::ir::{Expr, Model, Split, Stmt};
use crate::located::{Located, Loop};
use crate::rewrite::{self, AtLimit, Rewrite};
use crate::stages::{Start, Step, memories};
use crate::tableau::Tableau;

/// The model `m` (stepped by the fixed-step method `tab`, split `sp`, split for its
/// guards `lsp`, watched `guards`, not empty) as plain rules around one [`Rewrite::Repeat`].
pub(super) fn rewrite(
    m: &Model,
    tab: &'static Tableau,
    sp: &Split,
    lsp: &Split,
    guards: Vec<Expr>,
) -> rewrite::Model {
    let mut hid = Hidden::of(m);
    let span = m.span;
    let mems = memories(&mut hid, tab, sp, Start::Step);
    let method = tab.name;
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global(method, what, doc);
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
    let stages = tab.c.len();
    let loc_mems: Vec<_> = mems.iter().map(|mem| (mem.y0, mem.k.clone())).collect();
    let loc = Located::new(
        &mut hid,
        tab,
        (sp, lsp),
        guards,
        &loc_mems,
        (stages + 1) * f,
    );
    let mut body = vec![
        assign(steps, num(0.0), None, span),
        assign(t, num(0.0), None, span),
    ];
    for (mem, &(v, vspan)) in mems.iter().zip(&sp.states) {
        body.push(assign(mem.y0, var(v), None, vspan));
    }
    body.extend(loc.before());
    let mut inner = vec![
        assign(steps, add(var(steps), num(1.0)), None, span),
        assign(hs, sub(Expr::Dt, var(t)), None, span),
    ];
    let step = Step {
        tab,
        m,
        sp,
        mems: &mems,
        t: Some(t),
        h: var(hs),
    };
    inner.extend(step.stages());
    inner.extend(step.solution());
    let mut accept: Vec<rewrite::Stmt> = mems
        .iter()
        .zip(&sp.states)
        .map(|(mem, &(v, vspan))| assign(mem.y0, var(v), None, vspan))
        .collect();
    accept.push(assign(t, Expr::Dt, None, span));
    let lp = Loop {
        t,
        hs,
        h: None,
        segment: &|_| Vec::new(),
    };
    inner.extend(loc.accepted(&lp, accept));
    let runs = vec![
        loc.head(&lp),
        when(loc.stepping(), inner, span),
        loc.halving(&lp),
    ];
    body.push(Stmt::Added(Rewrite::Repeat {
        body: runs,
        until: loc.until(t),
        count: steps,
        limit: LOOP_LIMIT,
        at_limit: AtLimit::Fault,
        method,
        events: Some((loc.events, EVENT_LIMIT)),
        span,
    }));
    body.extend(loc.after());
    let mut out = hid.out.with_body(body);
    out.fired = f * (stages + 1 + Located::PASSES);
    out
}
