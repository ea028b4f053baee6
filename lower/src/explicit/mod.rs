//! The adaptive step: a host step under `dopri5` (an embedded pair's tableau) rewritten as plain rules around one bounded loop of internal steps with error control.
//!
//! The continuous part is that of `rk4` (`crate::ir`'s `split`). Within each host step
//! (see "Integration methods" in [`crate::ir`] for the contract), with `n` continuous
//! states, hidden states `yc`, `k1` … `ks` per state (`s` stages) and `t`, `h`, `hs`,
//! `err`, `q`, `steps` for the model:
//!
//! ```text
//! steps = 0; work = LIMIT − LIMIT·min(max(dt, 1), 100); t = 0; if h <= 0 { h = dt }; yc = y
//! repeat {
//!     steps = steps + 1; work = work + 1
//!     hs = h; if h >= dt - t { hs = dt - t }              (the last step cut to the end)
//!     the stage passes (super::stages), the step from t of length hs: under dopri5,
//!     stage i = 1..7: y = yc + hs·Σ_j a_ij·k_j (y = yc at stage 1);
//!                     k_i = 0; the stage pass, `time` reading time + (t + c_i·hs)
//!     err = 0; per state: q = hs·Σ_j e_j·k_j / (atol + rtol·max(|yc|, |y|)); err = err + q·q
//!     err = sqrt(err / n)
//!     if err <= 1 {                                        (accepted: y is the 5th-order value)
//!         yc = y
//!         if hs >= dt - t { h = max(h, hs·fac); t = dt }
//!         if t < dt { h = hs·fac; t = t + hs }
//!     }
//!     if !(err <= 1) { h = hs·max(0.2, 0.9·err^(-1/5)) }   (rejected, NaN too: h = hs·0.2)
//! } until t >= dt   (else stop when work >= LIMIT: LIMIT internal steps per unit of dt,
//!                    at least LIMIT, at most 100·LIMIT)
//! the discrete pass (as under rk4)
//! ```
//!
//! with `fac = min(10, max(0.2, 0.9·err^(-1/5)))` (the exponent `−1/(order + 1)` of the
//! tableau's embedded order), and `c`, `a`, `e = b − b̂` the tableau's nodes,
//! coefficients and error weights (`super::tableau`). A tableau that is not first same
//! as last writes its solution after the stages. A tableau with a second estimate
//! (`dop853`'s `e3`) sums its squared scaled components into `err3` beside `err` and
//! combines them as Hairer's DOP853 does, `err = err / sqrt(n·(err + 0.01·err3))`
//! (the denominator 1 when not positive). An accepted step first runs Hairer's
//! stiffness test (`stiffness`), which writes only hidden states of its own.

mod stiffness;

use super::adaptive::{Clock, Close, Control};
use super::build::{add, arith, assign, call, cmp, error_scale, mul, num, var, when};
use super::hidden::Hidden;
use super::located::{Located, watched};
use super::probe::{Probe, Probes};
use super::rewrite;
use super::stages::{Start, Step, memories};
use super::tableau::Tableau;
use crate::ir::{ArithOp, CmpOp, Func, Model, Tolerance, VarId, split, split_located};

/// The model `m` stepped by the adaptive method `tab` (it has [`Embedded`] weights)
/// with tolerances `tol`, as plain rules (method `euler`) around one
/// [`Rewrite::Repeat`](super::rewrite::Rewrite::Repeat), closed by [`Clock::close`].
///
/// [`Embedded`]: super::tableau::Embedded
///
/// The summaries `probes` of its states are kept as [`Probes::new`] says.
pub(super) fn rewrite(
    m: &Model,
    tab: &'static Tableau,
    tol: Tolerance,
    (probes, kept): (&[Probe], &mut Vec<(Probe, VarId)>),
) -> rewrite::Model {
    let sp = split(m);
    let mut hid = Hidden::of(m);
    if sp.states.is_empty() {
        return hid.out.widen();
    }
    let span = m.span;
    let method = tab.name;
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global(method, what, doc);
    let clock = Clock::new(&mut hid, method);
    let Clock {
        t, h, hs, err, q, ..
    } = clock;
    let mems = memories(&mut hid, tab, &sp, Start::Accepted);
    let f = m.fired;
    let stages = tab.c.len();
    let lsp = split_located(m);
    let guards = watched(m, &lsp);
    let loc_mems: Vec<_> = mems.iter().map(|mem| (mem.y0, mem.k.clone())).collect();
    let located = (!guards.is_empty()).then(|| {
        Located::new(
            &mut hid,
            tab,
            (&sp, &lsp),
            guards,
            &loc_mems,
            (stages + 1) * f,
        )
    });
    let probes = Probes::new(&mut hid, tab, &sp, &loc_mems, probes, kept);
    let starts = mems
        .iter()
        .zip(&sp.states)
        .map(|(mem, &(v, vspan))| (mem.y0, v, vspan));
    let body = clock.open(span, starts, located.as_ref());
    let left = || clock.left();
    let [steps, work] = clock.count(span);
    let mut inner = vec![
        steps,
        work,
        assign(hs, var(h), None, span),
        when(
            cmp(CmpOp::Ge, var(h), left()),
            vec![assign(hs, left(), None, span)],
            span,
        ),
    ];
    let step = Step {
        tab,
        m,
        sp: &sp,
        mems: &mems,
        t: Some(t),
        h: var(hs),
    };
    inner.extend(step.stages());
    inner.extend(step.solution());
    inner.push(assign(err, num(0.0), None, span));
    let second = tab.embedded.as_ref().and_then(|e| e.e3).map(|_| {
        let err3 = global(&mut hid, "err3", "The second error norm (squared, summed)");
        let den = global(
            &mut hid,
            "den",
            "The denominator of the combined error norm",
        );
        let sc = global(&mut hid, "sc", "One component's error scale");
        (err3, den, sc)
    });
    if let Some((err3, _, _)) = second {
        inner.push(assign(err3, num(0.0), None, span));
    }
    for (i, (mem, &(v, vspan))) in mems.iter().zip(&sp.states).enumerate() {
        let estimate = step.error(i).expect("an adaptive method has error weights");
        let scale = error_scale(tol, mem.y0, v);
        let Some((err3, _, sc)) = second else {
            inner.push(assign(q, arith(ArithOp::Div, estimate, scale), None, vspan));
            inner.push(assign(err, add(var(err), mul(var(q), var(q))), None, vspan));
            continue;
        };
        let estimate3 = step.error3(i).expect("a second estimate");
        inner.push(assign(sc, scale, None, vspan));
        inner.push(assign(
            q,
            arith(ArithOp::Div, estimate, var(sc)),
            None,
            vspan,
        ));
        inner.push(assign(err, add(var(err), mul(var(q), var(q))), None, vspan));
        inner.push(assign(
            q,
            arith(ArithOp::Div, estimate3, var(sc)),
            None,
            vspan,
        ));
        inner.push(assign(
            err3,
            add(var(err3), mul(var(q), var(q))),
            None,
            vspan,
        ));
    }
    let n = num(sp.states.len() as f64);
    match second {
        None => inner.push(assign(
            err,
            call(Func::Sqrt, vec![arith(ArithOp::Div, var(err), n)]),
            None,
            span,
        )),
        Some((err3, den, _)) => {
            // Hairer's DOP853: err = E5 / sqrt(n·(E5 + 0.01·E3)), the denominator 1
            // when it is not positive (both estimates zero).
            inner.push(assign(
                den,
                add(var(err), mul(num(0.01), var(err3))),
                None,
                span,
            ));
            inner.push(when(
                cmp(CmpOp::Le, var(den), num(0.0)),
                vec![assign(den, num(1.0), None, span)],
                span,
            ));
            inner.push(assign(
                err,
                arith(
                    ArithOp::Div,
                    var(err),
                    call(Func::Sqrt, vec![mul(n, var(den))]),
                ),
                None,
                span,
            ));
        }
    }
    let embedded = tab.embedded.as_ref().expect("an adaptive method");
    let (order, root) = (embedded.order, embedded.root);
    let mut accept = stiffness::test(&mut hid, &step, t);
    accept.extend(
        mems.iter()
            .zip(&sp.states)
            .map(|(mem, &(v, vspan))| assign(mem.y0, var(v), None, vspan)),
    );
    let close = Close {
        m,
        method,
        control: Control::Hairer { order, root },
        accept,
        located,
        dense: tab,
        passes: stages + 1,
        probes,
    };
    clock.close(hid, body, inner, close)
}
