//! Hairer's test for stiffness in the adaptive explicit methods, written as plain rules run with each accepted internal step; the hosts report what it found once, after a run.
//!
//! As in Hairer's codes DOPRI5 and DOP853 (Hairer and Wanner, *Solving ODEs II*, IV.2,
//! and the codes' comments): the last two stages of a step are both at its end (`y1`,
//! the solution, with rates `k_s`; `ys`, the next to last stage's value, with rates
//! `k_(s−1)`), so `‖k_s − k_(s−1)‖ / ‖y1 − ys‖` estimates the largest `|λ|` of the
//! Jacobian, and `h·λ` beyond the method's stability bound on the negative real axis
//! ([`super::tableau::Embedded::stiff`]: 3.25 for `dopri5`, 6.1 for `dop853`) says the
//! step size is set by stability, not by accuracy. With hidden states `METHOD_stiff_…`:
//!
//! ```text
//! (each accepted step, before yc = y)
//! steps = steps + 1
//! if seen = 0 and (steps >= 1000 or count > 0) {
//!     steps = 0; num = Σ (k_s − k_(s−1))²; den = Σ (y − ys)²
//!     if den > 0 { hl = hs·sqrt(num / den) }
//!     if hl > bound { if count = 0 { from = time + t }; non = 0; count = count + 1
//!                     if count >= 15 { seen = 1; at = from } }
//!     if !(hl > bound) { non = non + 1; if non >= 6 { count = 0 } }
//! }
//! ```
//!
//! that is, tested every 1000 accepted steps, then at every step while the steps look
//! stiff; 15 stiff steps in a row (not interrupted by 6 that are not) make the model
//! stiff from the first of them on. The test reads the steps and never changes them:
//! trajectories stay bit for bit those without it. A host reads `METHOD_stiff_seen`
//! and `METHOD_stiff_at` after a run and warns once (`sit_runtime::method::stiffness_warnings`).

use crate::build::{add, assign, call, cmp, mul, num, sub, var, when};
use crate::hidden::Hidden;
use crate::ir::{ArithOp, CmpOp, Expr, Func, VarId};
use crate::rewrite::Stmt;
use crate::stages::Step;

/// Accepted steps between two tests while the steps do not look stiff (Hairer's `NSTIFF`).
pub const EVERY: f64 = 1000.0;

/// Stiff steps in a row after which the model is reported stiff.
pub const STIFF_STEPS: f64 = 15.0;

/// Steps in a row that do not look stiff after which the count starts again.
pub const CALM_STEPS: f64 = 6.0;

/// The statements of the test, run with each accepted step of `step` (whose start is
/// `t` into the host step) before its solution is kept; nothing when the method's last
/// two stages are not both at the step's end.
pub(super) fn test(hid: &mut Hidden<'_>, step: &Step<'_>, t: VarId) -> Vec<Stmt> {
    let tab = step.tab;
    let s = tab.c.len();
    let Some(emb) = tab.embedded.as_ref() else {
        return Vec::new();
    };
    if !tab.fsal || s < 2 || tab.c[s - 2] != 1.0 {
        return Vec::new();
    }
    let span = hid.m.span;
    let method = tab.name;
    let mut global = |what: &str, doc: &str| hid.global(method, what, doc);
    let steps = global(
        "stiff_steps",
        "Accepted steps since the last test for stiffness",
    );
    let count = global("stiff_count", "Stiff steps in a row");
    let non = global("stiff_non", "Steps in a row that did not look stiff");
    let num_ = global(
        "stiff_num",
        "Squared norm of the difference of the last rates",
    );
    let den = global(
        "stiff_den",
        "Squared norm of the difference of the last values",
    );
    let d = global("stiff_d", "One component of a difference");
    let hl = global("stiff_hl", "The estimate of h·λ of the last test");
    let from = global("stiff_from", "The time of the first stiff step in a row");
    let seen = global("stiff_seen", "1 once the model was found stiff");
    let at = global("stiff_at", "The time from which the model was found stiff");
    let set = |v: VarId, e: Expr| assign(v, e, None, span);
    let is = |v: VarId, x: f64| cmp(CmpOp::Eq, var(v), num(x));
    let bound = emb.stiff;
    let mut body = vec![
        set(steps, num(0.0)),
        set(num_, num(0.0)),
        set(den, num(0.0)),
    ];
    for (i, (mem, &(v, vspan))) in step.mems.iter().zip(&step.sp.states).enumerate() {
        let sq = |acc: VarId| assign(acc, add(var(acc), mul(var(d), var(d))), None, vspan);
        body.push(assign(
            d,
            sub(var(mem.k[s - 1]), var(mem.k[s - 2])),
            None,
            vspan,
        ));
        body.push(sq(num_));
        body.push(assign(
            d,
            sub(var(v), step.stage_value(i, s - 2)),
            None,
            vspan,
        ));
        body.push(sq(den));
    }
    body.push(when(
        cmp(CmpOp::Gt, var(den), num(0.0)),
        vec![set(
            hl,
            mul(
                step.h.clone(),
                call(
                    Func::Sqrt,
                    vec![Expr::Arith(
                        ArithOp::Div,
                        Box::new(var(num_)),
                        Box::new(var(den)),
                    )],
                ),
            ),
        )],
        span,
    ));
    let stiff = || cmp(CmpOp::Gt, var(hl), num(bound));
    body.push(when(
        stiff(),
        vec![
            when(
                is(count, 0.0),
                vec![set(from, add(Expr::Time, var(t)))],
                span,
            ),
            set(non, num(0.0)),
            set(count, add(var(count), num(1.0))),
            when(
                cmp(CmpOp::Ge, var(count), num(STIFF_STEPS)),
                vec![set(seen, num(1.0)), set(at, var(from))],
                span,
            ),
        ],
        span,
    ));
    body.push(when(
        Expr::Not(Box::new(stiff())),
        vec![
            set(non, add(var(non), num(1.0))),
            when(
                cmp(CmpOp::Ge, var(non), num(CALM_STEPS)),
                vec![set(count, num(0.0))],
                span,
            ),
        ],
        span,
    ));
    let due = Expr::Or(
        Box::new(cmp(CmpOp::Ge, var(steps), num(EVERY))),
        Box::new(cmp(CmpOp::Gt, var(count), num(0.0))),
    );
    vec![
        set(steps, add(var(steps), num(1.0))),
        when(
            Expr::And(Box::new(is(seen, 0.0)), Box::new(due)),
            body,
            span,
        ),
    ]
}
