//! A step under `dopri5` rewritten as plain rules around one bounded loop of adaptive internal steps.
//!
//! The continuous part is that of `rk4` ([`super::method`]). Within each host step
//! (see "Integration methods" in [`crate::ir`] for the contract), with `n` continuous
//! states, hidden states `yc`, `k1` … `k7` per state and `t`, `h`, `hs`, `err`, `q`,
//! `steps` for the model:
//!
//! ```text
//! steps = 0; t = 0; if h <= 0 { h = dt }; yc = y
//! repeat {
//!     steps = steps + 1
//!     hs = h; if h >= dt - t { hs = dt - t }              (the last step cut to the end)
//!     stage s = 1..7: y = yc + hs·Σ_j a_sj·k_j (y = yc at stage 1);
//!                     k_s = 0; the stage pass, `time` reading time + (t + c_s·hs)
//!     err = 0; per state: q = hs·Σ_j e_j·k_j / (atol + rtol·max(|yc|, |y|)); err = err + q·q
//!     err = sqrt(err / n)
//!     if !(err > 1) {                                      (accepted: y is the 5th-order value)
//!         yc = y
//!         if hs >= dt - t { h = max(h, hs·fac); t = dt }
//!         if t < dt { h = hs·fac; t = t + hs }
//!     }
//!     if err > 1 { h = hs·max(0.2, 0.9·err^(-1/5)) }
//! } until t >= dt   (at most LIMIT runs)
//! the discrete pass (as under rk4)
//! ```
//!
//! with `fac = min(10, max(0.2, 0.9·err^(-1/5)))`, `c`, `a` the Dormand–Prince nodes
//! and coefficients and `e = b₅ − b₄` the difference of its two weights.

use super::method::{Split, Stage, arith, assign, discrete, num, split};
use crate::ir::{
    ArithOp, CmpOp, Expr, Func, Method, Model, Stmt, Tolerance, Ty, Var, VarId, VarKind,
};

/// The most internal steps (accepted or rejected) in one host step.
pub const LIMIT: u64 = 10_000;

/// The nodes `c_s`.
const C: [f64; 7] = [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0];

/// The coefficients `a_sj` (row `s` has `s` entries).
const A: [&[f64]; 7] = [
    &[],
    &[1.0 / 5.0],
    &[3.0 / 40.0, 9.0 / 40.0],
    &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
    &[
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
    ],
    &[
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
    ],
    &[
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
    ],
];

/// The error weights `e_j = b_j − b*_j` (fifth-order minus fourth-order weights).
const E: [f64; 7] = [
    71.0 / 57600.0,
    0.0,
    -71.0 / 16695.0,
    71.0 / 1920.0,
    -17253.0 / 339200.0,
    22.0 / 525.0,
    -1.0 / 40.0,
];

pub(super) fn var(v: VarId) -> Expr {
    Expr::Var(v)
}

pub(super) fn add(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Add, a, b)
}

pub(super) fn sub(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Sub, a, b)
}

pub(super) fn mul(a: Expr, b: Expr) -> Expr {
    arith(ArithOp::Mul, a, b)
}

pub(super) fn call(f: Func, args: Vec<Expr>) -> Expr {
    Expr::Call(f, args)
}

pub(super) fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr::Cmp(op, Box::new(a), Box::new(b))
}

pub(super) fn when(cond: Expr, then: Vec<Stmt>, span: crate::Span) -> Stmt {
    Stmt::If { cond, then, span }
}

/// `Σ_j w_j·k_j` over the nonzero weights, left to right (`None` if all are zero).
pub(super) fn weighted(w: &[f64], k: &[VarId]) -> Option<Expr> {
    w.iter()
        .zip(k)
        .filter(|(w, _)| **w != 0.0)
        .map(|(w, k)| mul(num(*w), var(*k)))
        .reduce(add)
}

/// The hidden variables of the rewrite, named apart from the model's.
pub(super) struct Hidden<'m> {
    pub(super) m: &'m Model,
    pub(super) out: Model,
    taken: std::collections::HashSet<String>,
}

impl<'m> Hidden<'m> {
    /// Hidden variables for a rewrite of `m` (its method set to `euler`), named apart
    /// from the model's own names.
    pub(super) fn of(m: &'m Model) -> Self {
        let mut out = m.clone();
        out.method = Method::Euler;
        let taken = m
            .vars
            .iter()
            .map(|v| v.name.clone())
            .chain(m.conds.iter().map(|c| c.name.clone()))
            .chain(m.events.iter().map(|e| e.name.clone()))
            .chain(m.subs.iter().map(|s| s.name.clone()))
            .collect();
        Hidden { m, out, taken }
    }

    /// A hidden state of the whole model for `method`: `METHOD_WHAT`, documented `doc`.
    pub(super) fn global(&mut self, method: &str, what: &str, doc: &str) -> VarId {
        let span = self.m.span;
        self.new_var(
            format!("{method}_{what}"),
            format!(" {doc} ({method})."),
            span,
        )
    }

    pub(super) fn new_var(&mut self, name: String, doc: String, span: crate::Span) -> VarId {
        let mut name = name;
        while self.taken.contains(&name) {
            name.push('_');
        }
        self.taken.insert(name.clone());
        self.out.vars.push(Var {
            name,
            kind: VarKind::State,
            ty: Ty::Real,
            output: false,
            init: num(0.0),
            doc: vec![doc],
            span,
            hidden: true,
        });
        self.out.vars.len() - 1
    }
}

/// The model `m` (method `dopri5` with tolerances `tol`) as plain rules (method `euler`)
/// around one [`Stmt::Repeat`].
pub(super) fn rewrite(m: &Model, tol: Tolerance) -> Model {
    let sp: Split = split(m);
    let mut hid = Hidden::of(m);
    if sp.states.is_empty() {
        return hid.out;
    }
    let span = m.span;
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global("dopri5", what, doc);
    let t = global(
        &mut hid,
        "t",
        "Time into the host step of the internal steps",
    );
    let h = global(&mut hid, "h", "The next internal step proposed");
    let hs = global(&mut hid, "hs", "The internal step being tried");
    let err = global(
        &mut hid,
        "err",
        "The error norm of the last internal step tried",
    );
    let q = global(&mut hid, "q", "One scaled component of the error");
    let steps = global(
        &mut hid,
        "steps",
        "Internal steps tried in the last host step",
    );
    // Per continuous state: yc, then k1 … k7.
    let mems: Vec<(VarId, [VarId; 7])> = sp
        .states
        .iter()
        .map(|&(v, vspan)| {
            let name = hid.m.vars[v].name.clone();
            let yc = hid.new_var(
                format!("{name}_dopri5_yc"),
                format!(" `{name}` at the end of the last accepted internal step (dopri5)."),
                vspan,
            );
            let k = [1, 2, 3, 4, 5, 6, 7].map(|s| {
                hid.new_var(
                    format!("{name}_dopri5_k{s}"),
                    format!(" The rate of `{name}` at stage {s} (dopri5)."),
                    vspan,
                )
            });
            (yc, k)
        })
        .collect();
    let index = |v: VarId| sp.states.iter().position(|&(s, _)| s == v);
    let f = m.fired;
    let lsp = super::method::split_located(m);
    let guards = super::located::watched(m, &lsp);
    let loc_mems: Vec<(VarId, Vec<VarId>)> = mems.iter().map(|(yc, k)| (*yc, k.to_vec())).collect();
    let located = (!guards.is_empty()).then(|| {
        super::located::Located::new(
            &mut hid,
            super::located::Scheme::Dopri5,
            (&sp, &lsp),
            guards,
            &loc_mems,
            (C.len() + 1) * f,
        )
    });
    let mut body = vec![
        assign(steps, num(0.0), None, span),
        assign(t, num(0.0), None, span),
        when(
            cmp(CmpOp::Le, var(h), num(0.0)),
            vec![assign(h, Expr::Dt, None, span)],
            span,
        ),
    ];
    for (i, &(v, vspan)) in sp.states.iter().enumerate() {
        body.push(assign(mems[i].0, var(v), None, vspan));
    }
    if let Some(loc) = &located {
        body.extend(loc.before());
    }
    let left = || sub(Expr::Dt, var(t));
    let mut inner = vec![
        assign(steps, add(var(steps), num(1.0)), None, span),
        assign(hs, var(h), None, span),
        when(
            cmp(CmpOp::Ge, var(h), left()),
            vec![assign(hs, left(), None, span)],
            span,
        ),
    ];
    for (s, &c) in C.iter().enumerate() {
        for (i, &(v, vspan)) in sp.states.iter().enumerate() {
            let (yc, k) = mems[i];
            let value = match weighted(A[s], &k) {
                Some(sum) => add(var(yc), mul(var(hs), sum)),
                None => var(yc),
            };
            // At stage 1, `y = yc`: after a rejected step, `y` holds its last stage.
            inner.push(assign(v, value, None, vspan));
            inner.push(assign(k[s], num(0.0), None, vspan));
        }
        let node = match c {
            0.0 => var(t),
            1.0 => add(var(t), var(hs)),
            c => add(var(t), mul(num(c), var(hs))),
        };
        let stage = Stage {
            m,
            sp: &sp,
            node: Some(node),
            offset: (s + 1) * f,
            rate: &|v| index(v).map(|i| mems[i].1[s]),
        };
        inner.extend(stage.stmts(&m.body));
    }
    inner.push(assign(err, num(0.0), None, span));
    for (i, &(v, vspan)) in sp.states.iter().enumerate() {
        let (yc, k) = mems[i];
        let estimate = mul(
            var(hs),
            weighted(&E, &k).expect("the error weights are not all zero"),
        );
        let scale = add(
            num(tol.atol),
            mul(
                num(tol.rtol),
                call(
                    Func::Max,
                    vec![
                        call(Func::Abs, vec![var(yc)]),
                        call(Func::Abs, vec![var(v)]),
                    ],
                ),
            ),
        );
        inner.push(assign(q, arith(ArithOp::Div, estimate, scale), None, vspan));
        inner.push(assign(err, add(var(err), mul(var(q), var(q))), None, vspan));
    }
    inner.push(assign(
        err,
        call(
            Func::Sqrt,
            vec![arith(ArithOp::Div, var(err), num(sp.states.len() as f64))],
        ),
        None,
        span,
    ));
    let growth = || mul(num(0.9), call(Func::Pow, vec![var(err), num(-0.2)]));
    let fac = || {
        call(
            Func::Min,
            vec![num(10.0), call(Func::Max, vec![num(0.2), growth()])],
        )
    };
    // Accepted unless the error is above 1: a step whose error is not a number (the
    // values are not finite) is accepted, as `rk4` would take it.
    let accepted = || Expr::Not(Box::new(cmp(CmpOp::Gt, var(err), num(1.0))));
    let mut accept: Vec<Stmt> = sp
        .states
        .iter()
        .enumerate()
        .map(|(i, &(v, vspan))| assign(mems[i].0, var(v), None, vspan))
        .collect();
    accept.push(when(
        cmp(CmpOp::Ge, var(hs), left()),
        vec![
            assign(
                h,
                call(Func::Max, vec![var(h), mul(var(hs), fac())]),
                None,
                span,
            ),
            assign(t, Expr::Dt, None, span),
        ],
        span,
    ));
    accept.push(when(
        cmp(CmpOp::Lt, var(t), Expr::Dt),
        vec![
            assign(h, mul(var(hs), fac()), None, span),
            assign(t, add(var(t), var(hs)), None, span),
        ],
        span,
    ));
    let lp = super::located::Loop {
        t,
        hs,
        h: Some((h, &fac)),
    };
    let accept = match &located {
        Some(loc) => loc.accepted(&lp, accept),
        None => accept,
    };
    inner.push(when(accepted(), accept, span));
    inner.push(when(
        cmp(CmpOp::Gt, var(err), num(1.0)),
        vec![assign(
            h,
            mul(var(hs), call(Func::Max, vec![num(0.2), growth()])),
            None,
            span,
        )],
        span,
    ));
    let Some(loc) = located else {
        body.push(Stmt::Repeat {
            body: inner,
            until: cmp(CmpOp::Ge, var(t), Expr::Dt),
            count: steps,
            limit: LIMIT,
            events: None,
            span,
        });
        body.extend(discrete(&m.body));
        let mut out = hid.out;
        out.body = body;
        out.fired = f * (C.len() + 1);
        return out;
    };
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
        events: Some((loc.events, super::located::EVENT_LIMIT)),
        span,
    });
    body.extend(loc.after());
    let mut out = hid.out;
    out.body = body;
    out.fired = f * (C.len() + 1 + super::located::Located::PASSES);
    out
}
