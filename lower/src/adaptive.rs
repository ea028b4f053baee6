//! What every adaptive method shares within a host step: the hidden clock of its internal steps, the opening of the host step, and Hairer's step-size controller with the bounded loop it closes.
//!
//! `super::explicit` (the explicit pairs) and `super::rosenbrock` (`rodas4`) write their
//! stages and error norm between [`Clock::open`] and [`Clock::close`]; the controller is
//! the one the contract states for `dopri5` (`fac = min(10, max(0.2,
//! 0.9·err^(−1/(order + 1))))`, a rejected step shrunk by `max(0.2, 0.9·err^…)`), so a
//! change to it is made once for every method.

use super::bounds::{EVENT_LIMIT, LIMIT, MOST_UNITS};
use super::build::{add, assign, call, cmp, mul, num, sub, var, when};
use super::dense::DenseOutput;
use super::hidden::Hidden;
use super::located::{Located, Loop};
use super::pass::discrete;
use super::probe::Probes;
use super::rewrite::{self, AtLimit, Rewrite};
use super::tableau::Root;
use crate::ir::{CmpOp, Expr, Func, Model, Stmt, VarId};
use crate::source::Span;

/// The hidden states that time an adaptive method's internal steps in a host step.
#[derive(Clone, Copy)]
pub(super) struct Clock {
    /// Time into the host step of the internal steps.
    pub(super) t: VarId,
    /// The next internal step proposed (kept from one host step to the next).
    pub(super) h: VarId,
    /// The internal step being tried.
    pub(super) hs: VarId,
    /// The error norm of the last internal step tried.
    pub(super) err: VarId,
    /// One scaled component of the error.
    pub(super) q: VarId,
    /// Internal steps tried in the last host step.
    pub(super) steps: VarId,
    /// The bound's counter: the internal steps tried in this host step, counted from
    /// `LIMIT − allowance(dt)` ([`Clock::open`]), so that the loop's bound of
    /// [`LIMIT`] runs is the host step's allowance.
    pub(super) work: VarId,
}

/// What closes a host step of an adaptive method (see [`Clock::close`]).
pub(super) struct Close<'a> {
    /// The model stepped.
    pub(super) m: &'a Model,
    /// The method's name (its faults name it).
    pub(super) method: &'static str,
    /// How the step factor is chosen.
    pub(super) control: Control,
    /// The statements of an accepted step before the controller's: the states' new
    /// start values (and, under the explicit methods, the stiffness test).
    pub(super) accept: Vec<rewrite::Stmt>,
    /// The event location, when the model has guards to watch.
    pub(super) located: Option<Located<'a>>,
    /// The method's dense output (for the location's passes).
    pub(super) dense: &'a dyn DenseOutput,
    /// The passes of the rules an attempt makes (stages, and the solution's rates).
    pub(super) passes: usize,
    /// The summaries between the rows that a study asked for (`super::probe`).
    pub(super) probes: Option<Probes<'a>>,
}

/// How an adaptive method chooses the factor of its next step.
#[derive(Debug, Clone, Copy)]
pub(super) enum Control {
    /// Hairer's: `min(10, max(0.2, 0.9·err^(−1/(order + 1))))` after an accepted
    /// step, `max(0.2, 0.9·err^…)` after a rejected one, `order` that of the embedded
    /// solution, the root taken as `root` says.
    Hairer {
        /// The order of the embedded solution.
        order: u32,
        /// How the root is taken.
        root: Root,
    },
    /// A factor the attempt computes itself into this hidden state (`radau5`'s
    /// predictive controller): an accepted step's next is `hs·factor`, a rejected
    /// one's `hs·max(0.2, factor)`.
    Computed(VarId),
}

impl Clock {
    /// The hidden states of `method`'s internal steps, declared in this order.
    pub(super) fn new(hid: &mut Hidden<'_>, method: &str) -> Clock {
        let mut global = |what: &str, doc: &str| hid.global(method, what, doc);
        let t = global("t", "Time into the host step of the internal steps");
        let h = global("h", "The next internal step proposed");
        let hs = global("hs", "The internal step being tried");
        let err = global("err", "The error norm of the last internal step tried");
        let q = global("q", "One scaled component of the error");
        let steps = global("steps", "Internal steps tried in the last host step");
        let work = global(
            "work",
            "Internal steps tried in this host step, counted from 10 000 less its allowance",
        );
        Clock {
            t,
            h,
            hs,
            err,
            q,
            steps,
            work,
        }
    }

    /// The counting of an attempt: `steps = steps + 1`, `work = work + 1`.
    pub(super) fn count(&self, span: Span) -> [rewrite::Stmt; 2] {
        [
            assign(self.steps, add(var(self.steps), num(1.0)), None, span),
            assign(self.work, add(var(self.work), num(1.0)), None, span),
        ]
    }

    /// The head of an implicit method's attempt: `steps = steps + 1`; the program stops
    /// with `sit_runtime::step_underflow` when the step proposed is at most
    /// `1e-14·(|time + t| + dt)` and short of the host step's end (as in Hairer's codes,
    /// before the attempt); `hs = h`, cut to the host step's end.
    pub(super) fn head(&self, span: Span, method: &'static str) -> Vec<rewrite::Stmt> {
        let Clock { t, h, hs, .. } = *self;
        let resolution = mul(
            num(1e-14),
            add(call(Func::Abs, vec![add(Expr::Time, var(t))]), Expr::Dt),
        );
        let [steps, work] = self.count(span);
        vec![
            steps,
            work,
            when(
                Expr::And(
                    Box::new(cmp(CmpOp::Le, var(h), resolution)),
                    Box::new(cmp(CmpOp::Lt, var(h), self.left())),
                ),
                vec![Stmt::Added(Rewrite::Underflow {
                    step: h,
                    method,
                    span,
                })],
                span,
            ),
            assign(hs, var(h), None, span),
            when(
                cmp(CmpOp::Ge, var(h), self.left()),
                vec![assign(hs, self.left(), None, span)],
                span,
            ),
        ]
    }

    /// The time left in the host step, `dt − t`.
    pub(super) fn left(&self) -> Expr {
        sub(Expr::Dt, var(self.t))
    }

    /// The opening of a host step: no internal step tried yet (`steps = 0`, `work =
    /// LIMIT − LIMIT·min(max(dt, 1), MOST_UNITS)`: the loop stops the program when `work`
    /// reaches `LIMIT`, after `LIMIT` internal steps per unit of the host step's length,
    /// at least `LIMIT` and at most `LIMIT·MOST_UNITS`), `t = 0`, the host's step
    /// as the first proposal when none is kept (`h <= 0`), then each state's start value
    /// (`starts`: the memory, the state), then what the location keeps from the start.
    pub(super) fn open(
        &self,
        span: Span,
        starts: impl IntoIterator<Item = (VarId, VarId, Span)>,
        located: Option<&Located<'_>>,
    ) -> Vec<rewrite::Stmt> {
        let limit = LIMIT as f64;
        let units = call(
            Func::Min,
            vec![call(Func::Max, vec![Expr::Dt, num(1.0)]), num(MOST_UNITS)],
        );
        let mut body = vec![
            assign(self.steps, num(0.0), None, span),
            assign(
                self.work,
                sub(num(limit), mul(num(limit), units)),
                None,
                span,
            ),
            assign(self.t, num(0.0), None, span),
            when(
                cmp(CmpOp::Le, var(self.h), num(0.0)),
                vec![assign(self.h, Expr::Dt, None, span)],
                span,
            ),
        ];
        for (mem, v, vspan) in starts {
            body.push(assign(mem, var(v), None, vspan));
        }
        if let Some(loc) = located {
            body.extend(loc.before());
        }
        body
    }

    /// The controller, after an attempt `inner` has computed `err`: an accepted step
    /// (`err <= 1`) runs `close.accept`, then ends the host step (`t = dt`, `h` kept at
    /// least as large) or moves on (`t = t + hs`), the next step `hs·fac`; a rejected one
    /// (NaN too) shrinks `h`. The whole runs as one bounded loop until `t >= dt` (with
    /// the event location's head and halving around it when there are guards), then
    /// the discrete part; `hid`'s model with `body` and the loop.
    pub(super) fn close(
        &self,
        hid: Hidden<'_>,
        mut body: Vec<rewrite::Stmt>,
        mut inner: Vec<rewrite::Stmt>,
        close: Close<'_>,
    ) -> rewrite::Model {
        let Clock { t, h, hs, err, .. } = *self;
        let Close {
            m,
            method,
            control,
            mut accept,
            located,
            dense,
            passes,
            probes,
        } = close;
        let span = m.span;
        let growth = || match control {
            Control::Hairer { order, root } => {
                let q = f64::from(order + 1);
                let r = match root {
                    Root::Pow => call(Func::Pow, vec![var(err), num(-1.0 / q)]),
                    Root::Inv => call(Func::InvRoot, vec![var(err), num(q)]),
                };
                mul(num(0.9), r)
            }
            Control::Computed(v) => var(v),
        };
        let fac = || match control {
            Control::Hairer { .. } => call(
                Func::Min,
                vec![num(10.0), call(Func::Max, vec![num(0.2), growth()])],
            ),
            Control::Computed(v) => var(v),
        };
        // The summaries take the whole step before the states move on (`yc = y`).
        if let Some(p) = &probes {
            let mut seg = p.segment(t, hs, num(1.0));
            seg.append(&mut accept);
            accept = seg;
        }
        accept.push(when(
            cmp(CmpOp::Ge, var(hs), self.left()),
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
        let segment = |end: Expr| match &probes {
            Some(p) => p.segment(t, hs, end),
            None => Vec::new(),
        };
        let lp = Loop {
            t,
            hs,
            h: Some((h, &fac)),
            segment: &segment,
        };
        let accept = match &located {
            Some(loc) => loc.accepted(&lp, accept),
            None => accept,
        };
        // The dense output of the summaries, kept before the event search moves `y`.
        let accept = match &probes {
            Some(p) => {
                let mut kept = p.keep(hs);
                kept.extend(accept);
                kept
            }
            None => accept,
        };
        // Accepted when the error is at most 1: a step whose error is not a number (a
        // rate that is not finite) is rejected and shrunk by the smallest factor
        // (`max(0.2, NaN)` is 0.2), as SciPy and SUNDIALS do; a model that stays
        // non-finite ends on the bound of internal steps, a fault that names the likely
        // causes, not on NaN rows.
        inner.push(when(cmp(CmpOp::Le, var(err), num(1.0)), accept, span));
        inner.push(when(
            Expr::Not(Box::new(cmp(CmpOp::Le, var(err), num(1.0)))),
            vec![assign(
                h,
                mul(var(hs), call(Func::Max, vec![num(0.2), growth()])),
                None,
                span,
            )],
            span,
        ));
        let f = m.fired;
        let Some(loc) = located else {
            body.push(Stmt::Added(Rewrite::Repeat {
                body: inner,
                until: cmp(CmpOp::Ge, var(t), Expr::Dt),
                count: self.work,
                limit: LIMIT,
                at_limit: AtLimit::Fault,
                method,
                events: None,
                span,
            }));
            body.extend(discrete(&m.body));
            body.extend(probes.iter().flat_map(Probes::end));
            let mut out = hid.out.with_body(body);
            out.fired = f * passes;
            return out;
        };
        let runs = vec![
            loc.head(&lp),
            when(loc.stepping(), inner, span),
            loc.halving(&lp),
        ];
        body.push(Stmt::Added(Rewrite::Repeat {
            body: runs,
            until: loc.until(t),
            count: self.work,
            limit: LIMIT,
            at_limit: AtLimit::Fault,
            method,
            events: Some((loc.events, EVENT_LIMIT)),
            span,
        }));
        body.extend(loc.after());
        body.extend(probes.iter().flat_map(Probes::end));
        let mut out = hid.out.with_body(body);
        out.fired = f * (passes + Located::passes(dense));
        out
    }
}
