//! Events located inside a step of `dopri5` or `rk4`: the guards watched, the bisection on the step's dense output, and the discrete pass run at each event.
//!
//! The contract is "Events located inside a step" in [`crate::ir`]. This module adds,
//! to the loop written by [`super::explicit`] (or by [`super::fixed`], whose internal
//! step is the rest of the host step, always accepted, and has no `h`), for a model with
//! *watched guards* (see [`watched`]: the guards and the conditions of the `event`s that
//! read what moves), with hidden states `g_i` per guard and the terms
//! that the method's dense output keeps per continuous state (`r2` … `r5` under
//! `dopri5`). It reads the method only through [`DenseOutput`]:
//!
//! ```text
//! before the loop:  host = dt; seg = 0; events = 0; locating = 0; start = 1
//! each run:         if start = 1 { the algebraic pass at t; g_i = guard_i; start = 0 }
//!                   if locating = 0 { the internal step, where an accepted step first
//!                       compares each guard at its end with g_i: if one differs,
//!                       locating = 1, lo = 0, hi = hs, halvings = 0 and the dense
//!                       output's terms are kept, instead of moving on }
//!                   if locating = 1 { one halving:
//!                       mid = lo + (hi − lo)·0.5; y = dense(mid / hs); the algebraic pass
//!                       at t + mid; if some guard differs from g_i { hi = mid } else
//!                       { lo = mid }; halvings = halvings + 1
//!                       after HALVINGS halvings: locating = 0; y = dense(hi / hs); the
//!                       algebraic pass at t + hi; if hi ≥ dt − t, the step is accepted
//!                       to the host step's end (its discrete pass is the one after the
//!                       loop); else h = hs·fac; t = t + hi; events = events + 1;
//!                       dt = t − seg; every event evaluated (value = cond && !prev;
//!                       prev = cond), `time` reading time + t; the discrete pass,
//!                       `time` reading time + t;
//!                       dt = host; seg = t; yc = y; the algebraic pass at t; g_i = guard_i }
//! until t ≥ dt and locating = 0 (at most 10 000 internal steps, and EVENT_LIMIT events)
//! after the loop:   dt = host − seg; every event evaluated, `time` reading time + host;
//!                   the discrete pass, `time` reading time + seg; dt = host
//! ```
//!
//! With watched guards the model's events are evaluated only there, before each discrete
//! pass ([`Rewrite::Event`]), not at the step's start, so that an `event` on what moves
//! rises at the located instant and fires its rules once.
//!
//! The *algebraic pass* is a stage pass without rates: the stage rules evaluated on the
//! current `y`, so that the guards read values consistent with it. The dense outputs
//! (`y = dense(θ)`) are those of the methods' tableaus (`super::tableau`): under
//! `dopri5` Dormand and Prince's continuous extension of order 4 (Hairer, Nørsett and
//! Wanner, *Solving ODEs I*, II.6, as in their code DOPRI5):
//! `y(θ) = yc + θ·(r2 + (1 − θ)·(r3 + θ·(r4 + (1 − θ)·r5)))` with `r2 = y1 − yc`,
//! `r3 = hs·k1 − r2`, `r4 = r2 − hs·k7 − r3`, `r5 = hs·Σ_j d_j·k_j`; under `rk4` the
//! classical one of order 3, `y(θ) = yc + hs·(((b1·k1 + b23·k2) + b23·k3) + b4·k4)` with
//! `b1 = θ·(1 + θ·(−3/2 + θ·2/3))`, `b23 = θ·θ·(1 − θ·2/3)`, `b4 = θ·θ·(−1/2 + θ·2/3)`
//! (the weights 1/6, 1/3, 1/3, 1/6 at `θ = 1`).

use super::bounds::HALVINGS;
use super::build::{add, arith, assign, call, cmp, mul, num, sub, var, when};
use super::dense::{DenseOutput, Memories};
use super::hidden::Hidden;
use super::pass::{Stage, at_time, discrete, reads_time};
use super::rewrite::{Rewrite, Stmt};
use crate::ir::{self, ArithOp, CmpOp, Expr, Func, Model, Split, VarId};
use crate::source::Span;

/// Whether `e` reads something that moves during the stages: a continuous state, the
/// target of a stage rule, or `time` (through conditions too).
fn varies(m: &Model, sp: &Split, e: &Expr) -> bool {
    let mut found = reads_time(m, e);
    e.visit(&mut |x| match x {
        Expr::Var(v) => found |= sp.is_state[*v] || sp.staged[*v],
        Expr::Cond(c) => {
            if let Some(c) = m.conds.get(*c) {
                found |= varies(m, sp, &c.expr);
            }
        }
        _ => {}
    });
    found
}

/// The watched guards of `m`: for each guarded block (`when`, a rule's guard, a σ rule,
/// a mode's transition), at any depth, the conjunction of its guard and the guards
/// around it, when it reads something that moves during the stages, in the order the
/// guards are written; then the condition of each `event` that reads something that
/// moves, in declaration order (an event is located as a guard written with its
/// condition is, and rises at the discrete pass of the located instant).
pub(super) fn watched(m: &Model, sp: &Split) -> Vec<Expr> {
    fn walk(m: &Model, sp: &Split, body: &[ir::Stmt], path: Option<&Expr>, out: &mut Vec<Expr>) {
        for s in body {
            if let ir::Stmt::If { cond, then, .. } = s {
                let here = match path {
                    Some(p) => Expr::And(Box::new(p.clone()), Box::new(cond.clone())),
                    None => cond.clone(),
                };
                if varies(m, sp, &here) {
                    out.push(here.clone());
                }
                walk(m, sp, then, Some(&here), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(m, sp, &m.body, None, &mut out);
    out.extend(
        m.events
            .iter()
            .filter(|ev| varies(m, sp, &ev.cond))
            .map(|ev| ev.cond.clone()),
    );
    out
}

/// The hidden states of the location, and what the rewrite needs of the loop.
pub(super) struct Located<'a> {
    /// The method's dense output.
    dense: &'a dyn DenseOutput,
    m: &'a Model,
    /// The split of the stages: its continuous states are those of `mems`.
    sp: &'a Split,
    /// The split for the guards (`crate::ir::split_located`): the algebraic pass
    /// evaluates its stage rules.
    lsp: &'a Split,
    /// Whether the values at the end of an internal step need an algebraic pass of
    /// their own: `lsp` has stage rules that `sp` has not, or the method's last stage
    /// is not on the step's end (`rk4`, [`DenseOutput::last_stage_at_end`]).
    wider: bool,
    guards: Vec<Expr>,
    /// The first of `guards` that is an event's condition (they follow the guards).
    events_from: usize,
    /// Per guard: its value (1 or 0) at the last discrete pass (or the step's start).
    g: Vec<VarId>,
    /// Per continuous state: `yc`, the rates `k1` … (of the loop) and the terms its
    /// dense output keeps.
    mems: Vec<(VarId, Vec<VarId>, Vec<VarId>)>,
    now: VarId,
    changed: VarId,
    locating: VarId,
    start: VarId,
    lo: VarId,
    hi: VarId,
    mid: VarId,
    halvings: VarId,
    seg: VarId,
    host: VarId,
    /// Events located in this host step.
    pub(super) events: VarId,
    /// The first `otherwise` flag offset free after the loop's stages.
    offset: usize,
    span: Span,
}

/// What the location reads of the loop's own hidden states.
pub(super) struct Loop<'a> {
    /// Time into the host step.
    pub(super) t: VarId,
    /// The internal step tried.
    pub(super) hs: VarId,
    /// The next internal step proposed (`dopri5`), and the growth factor of an
    /// accepted step.
    pub(super) h: Option<(VarId, &'a dyn Fn() -> Expr)>,
    /// What the summaries between the rows take of a segment of the internal step that
    /// ends at a located event, given the segment's end as a fraction of `hs`
    /// (`super::probe`; nothing without them).
    pub(super) segment: &'a dyn Fn(Expr) -> Vec<Stmt>,
}

impl<'a> Located<'a> {
    /// The location's hidden states, for `guards` (not empty) of `hid.m` stepped by a
    /// method with the output `dense`, whose states' memories are `mems` (`yc` and the
    /// rates); `offset` is the first `otherwise` flag offset free.
    pub(super) fn new(
        hid: &mut Hidden<'a>,
        dense: &'a dyn DenseOutput,
        (sp, lsp): (&'a Split, &'a Split),
        guards: Vec<Expr>,
        mems: &[(VarId, Vec<VarId>)],
        offset: usize,
    ) -> Self {
        let m = hid.m;
        let span = m.span;
        let method = dense.name();
        let mut global = |what: &str, doc: &str| hid.global(method, what, doc);
        let now = global("now", "A watched guard's value at the point tried");
        let changed = global("changed", "Whether a watched guard changed (1) or not (0)");
        let locating = global(
            "locating",
            "Whether an event is being located (1) or not (0)",
        );
        let start = global(
            "start",
            "1 until the watched guards are noted in this host step",
        );
        let lo = global("lo", "Into the internal step, a point before the event");
        let hi = global("hi", "Into the internal step, a point after the event");
        let mid = global("mid", "Into the internal step, the point tried");
        let halvings = global("halvings", "Halvings done to locate the event");
        let seg = global("seg", "Time into the host step of the last discrete pass");
        let host = global("host", "The host step");
        let events = global("events", "Events located in the last host step");
        let g = (0..guards.len())
            .map(|i| {
                global(
                    &format!("g{}", i + 1),
                    &format!("Watched guard {} at the last discrete pass", i + 1),
                )
            })
            .collect();
        let mems = mems
            .iter()
            .zip(&sp.states)
            .map(|((yc, k), &(v, vspan))| {
                let name = hid.m.vars[v].name.clone();
                (*yc, k.clone(), dense.memories(hid, &name, vspan))
            })
            .collect();
        let on_events = m.events.iter().filter(|ev| varies(m, lsp, &ev.cond));
        let events_from = guards.len() - on_events.count();
        Located {
            dense,
            m,
            sp,
            lsp,
            wider: lsp.staged != sp.staged || !dense.last_stage_at_end(),
            guards,
            events_from,
            g,
            mems,
            now,
            changed,
            locating,
            start,
            lo,
            hi,
            mid,
            halvings,
            seg,
            host,
            events,
            offset,
            span,
        }
    }

    /// How many `otherwise` flag offsets the location uses after its `offset`.
    pub(super) const PASSES: usize = 5;

    /// How many `otherwise` flag offsets the location of a method with the output
    /// `dense` uses: [`Located::PASSES`] and one per extra stage of the output.
    pub(super) fn passes(dense: &dyn DenseOutput) -> usize {
        Self::PASSES + dense.extra_nodes().len()
    }

    /// The extra stages of the dense output (none but DOP853's), each state's value
    /// and rate, `time` reading `time + t + c·hs`, their `otherwise` flags after the
    /// location's own.
    fn extra_stages(&self, lp: &Loop<'_>) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (e, &c) in self.dense.extra_nodes().iter().enumerate() {
            for (i, &(v, vspan)) in self.sp.states.iter().enumerate() {
                let mem = self.memories(i);
                out.push(assign(
                    v,
                    self.dense.extra_value(&mem, &var(lp.hs), e),
                    None,
                    vspan,
                ));
                out.push(assign(
                    self.dense.extra_rate(&mem, e),
                    num(0.0),
                    None,
                    vspan,
                ));
            }
            let rows = self.sp.rows();
            let index = |v: VarId| rows.get(v).copied().flatten();
            let stage = Stage {
                m: self.m,
                sp: self.sp,
                node: Some(add(var(lp.t), mul(num(c), var(lp.hs)))),
                offset: self.offset + (Self::PASSES + e) * self.m.fired,
                rate: &|v| index(v).map(|i| self.dense.extra_rate(&self.memories(i), e)),
            };
            out.extend(stage.stmts(&self.m.body));
        }
        out
    }

    fn is(&self, v: VarId, value: f64) -> Expr {
        cmp(CmpOp::Eq, var(v), num(value))
    }

    fn set(&self, v: VarId, e: Expr) -> Stmt {
        assign(v, e, None, self.span)
    }

    /// The stage rules on the current `y`, `time` reading `time + node` (no rates).
    fn algebraic(&self, node: Expr, pass: usize) -> Vec<Stmt> {
        let stage = Stage {
            m: self.m,
            sp: self.lsp,
            node: Some(node),
            offset: self.offset + pass * self.m.fired,
            rate: &|_| None,
        };
        stage.stmts(&self.m.body)
    }

    fn guard_at(&self, i: usize, node: &Expr) -> Expr {
        let stage = Stage {
            m: self.m,
            sp: self.sp,
            node: Some(node.clone()),
            offset: 0,
            rate: &|_| None,
        };
        stage.expr(&self.guards[i])
    }

    /// `g_i = guard_i` (as 1 or 0) for every guard, `time` reading `time + node`.
    fn record(&self, node: &Expr) -> Vec<Stmt> {
        self.record_from(0, node)
    }

    /// `g_i = guard_i` for the guards from the `from`-th on.
    fn record_from(&self, from: usize, node: &Expr) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (i, &g) in self.g.iter().enumerate().skip(from) {
            out.push(self.set(g, num(0.0)));
            out.push(when(
                self.guard_at(i, node),
                vec![self.set(g, num(1.0))],
                self.span,
            ));
        }
        out
    }

    /// `changed = 1` if some guard differs from its `g_i`, or some event's condition
    /// holds where its `g_i` is 0 (only a rise can make an event: a fall is noted at the
    /// end of the internal step, not located), else 0.
    fn detect(&self, node: &Expr) -> Vec<Stmt> {
        let mut out = vec![self.set(self.changed, num(0.0))];
        for (i, &g) in self.g.iter().enumerate() {
            out.push(self.set(self.now, num(0.0)));
            out.push(when(
                self.guard_at(i, node),
                vec![self.set(self.now, num(1.0))],
                self.span,
            ));
            let op = if i < self.events_from {
                CmpOp::Ne
            } else {
                CmpOp::Gt
            };
            out.push(when(
                cmp(op, var(self.now), var(g)),
                vec![self.set(self.changed, num(1.0))],
                self.span,
            ));
        }
        out
    }

    /// The memories of continuous state `i` for the dense output.
    fn memories(&self, i: usize) -> Memories<'_> {
        let (yc, k, r) = &self.mems[i];
        Memories {
            y: self.sp.states[i].0,
            y0: *yc,
            k,
            kept: r,
        }
    }

    /// `y = dense(θ)` for every continuous state, `θ = at / hs`.
    fn dense(&self, at: VarId, lp: &Loop<'_>) -> Vec<Stmt> {
        let th = || arith(ArithOp::Div, var(at), var(lp.hs));
        (0..self.mems.len())
            .map(|i| {
                let value = self.dense.value(&self.memories(i), &var(lp.hs), &th);
                assign(self.sp.states[i].0, value, None, self.sp.states[i].1)
            })
            .collect()
    }

    /// The statements before the loop.
    pub(super) fn before(&self) -> Vec<Stmt> {
        vec![
            self.set(self.host, Expr::Dt),
            self.set(self.seg, num(0.0)),
            self.set(self.events, num(0.0)),
            self.set(self.locating, num(0.0)),
            self.set(self.start, num(1.0)),
        ]
    }

    /// The first statement of each run: the guards noted once per host step.
    pub(super) fn head(&self, lp: &Loop<'_>) -> Stmt {
        let mut then = self.algebraic(var(lp.t), 0);
        then.extend(self.record(&var(lp.t)));
        then.push(self.set(self.start, num(0.0)));
        when(self.is(self.start, 1.0), then, self.span)
    }

    /// The condition under which the internal step runs in a run.
    pub(super) fn stepping(&self) -> Expr {
        self.is(self.locating, 0.0)
    }

    /// An accepted internal step: compare the guards at its end; if one changed, start
    /// locating, else `accept` (the loop's own acceptance).
    pub(super) fn accepted(&self, lp: &Loop<'_>, accept: Vec<Stmt>) -> Vec<Stmt> {
        let end = add(var(lp.t), var(lp.hs));
        // The seventh stage ran on the step's end: enough unless the guards read plain
        // rules that the stages do not evaluate.
        let mut out = if self.wider {
            self.algebraic(end.clone(), 4)
        } else {
            Vec::new()
        };
        out.extend(self.detect(&end));
        let mut begin = vec![
            self.set(self.locating, num(1.0)),
            self.set(self.lo, num(0.0)),
            self.set(self.hi, var(lp.hs)),
            self.set(self.halvings, num(0.0)),
        ];
        for (i, &(_, vspan)) in self.sp.states.iter().enumerate() {
            begin.extend(self.dense.keep(&self.memories(i), &var(lp.hs), vspan));
        }
        begin.extend(self.extra_stages(lp));
        for (i, &(_, vspan)) in self.sp.states.iter().enumerate() {
            begin.extend(self.dense.keep_after(&self.memories(i), &var(lp.hs), vspan));
        }
        out.push(when(self.is(self.changed, 1.0), begin, self.span));
        // No change: an event's condition that fell is noted as it now is, so that its
        // next rise is seen.
        let mut accept = accept;
        if self.events_from < self.guards.len() {
            let mut noted = self.record_from(self.events_from, &end);
            noted.append(&mut accept);
            accept = noted;
        }
        out.push(when(self.is(self.changed, 0.0), accept, self.span));
        out
    }

    /// One halving while locating, and at the last the event: `fac` is the loop's
    /// growth factor of an accepted step, `yc` each state's start.
    pub(super) fn halving(&self, lp: &Loop<'_>) -> Stmt {
        let t = || var(lp.t);
        let left = || sub(Expr::Dt, t());
        let mut body = vec![self.set(
            self.mid,
            add(var(self.lo), mul(sub(var(self.hi), var(self.lo)), num(0.5))),
        )];
        body.extend(self.dense(self.mid, lp));
        let at_mid = add(t(), var(self.mid));
        body.extend(self.algebraic(at_mid.clone(), 1));
        body.extend(self.detect(&at_mid));
        body.push(when(
            self.is(self.changed, 1.0),
            vec![self.set(self.hi, var(self.mid))],
            self.span,
        ));
        body.push(when(
            self.is(self.changed, 0.0),
            vec![self.set(self.lo, var(self.mid))],
            self.span,
        ));
        body.push(self.set(self.halvings, add(var(self.halvings), num(1.0))));
        // Located: the state just after the change.
        let mut end = vec![self.set(self.locating, num(0.0))];
        end.extend(self.dense(self.hi, lp));
        end.extend((lp.segment)(arith(ArithOp::Div, var(self.hi), var(lp.hs))));
        end.extend(self.algebraic(add(t(), var(self.hi)), 2));
        // At the host step's end: the step is accepted whole.
        let mut whole: Vec<Stmt> = self.yc_from_y();
        if let Some((h, fac)) = lp.h {
            let grown = mul(var(lp.hs), fac());
            whole.push(self.set(h, call(Func::Max, vec![var(h), grown])));
        }
        whole.push(self.set(lp.t, Expr::Dt));
        end.push(when(cmp(CmpOp::Ge, var(self.hi), left()), whole, self.span));
        // Inside it: the discrete pass at the event.
        let mut event: Vec<Stmt> =
            lp.h.iter()
                .map(|&(h, fac)| self.set(h, mul(var(lp.hs), fac())))
                .collect();
        event.extend([
            self.set(lp.t, add(t(), var(self.hi))),
            self.set(self.events, add(var(self.events), num(1.0))),
            Stmt::Added(Rewrite::SetDt {
                value: sub(t(), var(self.seg)),
                span: self.span,
            }),
        ]);
        event.extend(self.events(t()));
        event.extend(self.pass(t()));
        event.push(Stmt::Added(Rewrite::SetDt {
            value: var(self.host),
            span: self.span,
        }));
        event.push(self.set(self.seg, t()));
        // The rest of the host step is a step of its own: its modes start where the pass
        // left them (a mode takes at most one transition per discrete pass).
        event.push(Stmt::Added(Rewrite::NoteModes { span: self.span }));
        event.extend(self.yc_from_y());
        event.extend(self.algebraic(t(), 3));
        event.extend(self.record(&t()));
        end.push(when(cmp(CmpOp::Lt, t(), Expr::Dt), event, self.span));
        body.push(when(
            cmp(CmpOp::Ge, var(self.halvings), num(HALVINGS as f64)),
            end,
            self.span,
        ));
        when(self.is(self.locating, 1.0), body, self.span)
    }

    fn yc_from_y(&self) -> Vec<Stmt> {
        self.mems
            .iter()
            .zip(&self.sp.states)
            .map(|((yc, _, _), &(v, vspan))| assign(*yc, var(v), None, vspan))
            .collect()
    }

    /// The loop's end condition.
    pub(super) fn until(&self, t: VarId) -> Expr {
        Expr::And(
            Box::new(cmp(CmpOp::Ge, var(t), Expr::Dt)),
            Box::new(self.is(self.locating, 0.0)),
        )
    }

    /// The discrete pass, `time` reading `time + node`.
    fn pass(&self, node: Expr) -> Vec<Stmt> {
        let stage = Stage {
            m: self.m,
            sp: self.sp,
            node: Some(node),
            offset: 0,
            rate: &|_| None,
        };
        at_time(&stage, discrete(&self.m.body))
    }

    /// Every event of the model evaluated, in declaration order, on the current values,
    /// `time` reading `time + node` (the time of those values): before each discrete
    /// pass, in place of the evaluation at the step's start.
    fn events(&self, node: Expr) -> Vec<Stmt> {
        let stage = Stage {
            m: self.m,
            sp: self.sp,
            node: Some(node),
            offset: 0,
            rate: &|_| None,
        };
        self.m
            .events
            .iter()
            .enumerate()
            .map(|(event, ev)| {
                Stmt::Added(Rewrite::Event {
                    event,
                    cond: stage.expr(&ev.cond),
                    span: ev.span,
                })
            })
            .collect()
    }

    /// The statements after the loop: the events evaluated at the host step's end, then
    /// the discrete pass of the rest of the host step.
    pub(super) fn after(&self) -> Vec<Stmt> {
        let mut out = vec![Stmt::Added(Rewrite::SetDt {
            value: sub(var(self.host), var(self.seg)),
            span: self.span,
        })];
        out.extend(self.events(var(self.host)));
        out.extend(self.pass(var(self.seg)));
        out.push(Stmt::Added(Rewrite::SetDt {
            value: var(self.host),
            span: self.span,
        }));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched_of(src: &str) -> Vec<String> {
        let out = crate::check_source("t.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        let program = out.program.expect("checks");
        let m = &program.models[0];
        let sp = crate::ir::split_located(m);
        watched(m, &sp).iter().map(|e| format!("{e:?}")).collect()
    }

    #[test]
    fn guards_reading_what_moves_are_watched_with_the_guards_around_them() {
        let w = watched_of(
            "model M { param lo = 1; output real x = 0; output real y; output flag heat = true;
             input flag manual; real r;
             y = 2 * x;
             r = 1 when heat;
             r = -1 otherwise;
             x = integral(r);
             when x >= 2 => !heat;
             when manual { when y <= lo => heat; }
             when time > 5 & manual => heat;
             }",
        );
        // `r = 1 when heat` reads a flag: not watched. `x >= 2` reads a state; `y <= lo`
        // a stage rule's target, within `manual`; `time > 5` the time.
        assert_eq!(w.len(), 3, "{w:#?}");
        assert!(w[0].contains("Ge"), "{}", w[0]);
        assert!(
            w[1].starts_with("And(Var(") && w[1].contains("Le"),
            "{}",
            w[1]
        );
        assert!(w[2].contains("Time"), "{}", w[2]);
    }

    #[test]
    fn events_on_what_moves_are_watched_and_evaluated_before_each_discrete_pass() {
        let src = "model M { method dopri5; output real h = 1; output real v; flag up;
             event impact = h < 0; event raised = up;
             v = integral(-9.81); h = integral(v);
             when impact { v = -v; h = 0; } when raised => !up; }";
        let w = watched_of(src);
        // `impact` reads a state: watched. `raised` reads a flag: not.
        assert_eq!(w.len(), 1, "{w:#?}");
        assert!(w[0].starts_with("Cmp(Lt, Var("), "{}", w[0]);
        let program = crate::check_source("t.sit", src).program.expect("checks");
        let lowered = super::super::Lowered::new(&program, Default::default()).expect("expands");
        let m = super::super::model(&lowered, 0, super::super::Reads::Inline).expect("lowers");
        assert!(!m.events_at_start);
        let mut evaluations = 0;
        super::super::walk(&m.body, &mut |s| {
            evaluations += usize::from(matches!(s, super::super::Stmt::Event(_)))
        });
        // Both events, at a located event and after the loop.
        assert_eq!(evaluations, 4);
        // Under `euler` they stay at the step's start.
        let euler = src.replace("method dopri5;", "");
        let program = crate::check_source("t.sit", &euler)
            .program
            .expect("checks");
        let lowered = super::super::Lowered::new(&program, Default::default()).expect("expands");
        let m = super::super::model(&lowered, 0, super::super::Reads::Inline).expect("lowers");
        assert!(m.events_at_start);
    }

    #[test]
    fn a_model_without_watched_guards_keeps_the_plain_loop() {
        let out = crate::check_source(
            "t.sit",
            "model M { method dopri5; input flag go; output real x = 1;
             when go { x = integral(-x); } }",
        );
        assert!(!out.has_errors(), "{}", out.render());
        let program = out.program.expect("checks");
        let lowered = super::super::Lowered::new(&program, Default::default()).expect("expands");
        let m = &lowered.program().models[0];
        assert!(!m.vars.iter().any(|v| v.name == "dopri5_events"));
        let mut repeats = 0;
        for s in &m.body {
            if let Stmt::Added(Rewrite::Repeat { events, .. }) = s {
                assert!(events.is_none());
                repeats += 1;
            }
            assert!(!matches!(s, Stmt::Added(Rewrite::SetDt { .. })));
        }
        assert_eq!(repeats, 1);
    }
}
