//! Summaries between the rows: a continuous state's extremes and first crossings of a threshold taken on the dense output of every internal step of an adaptive method, into hidden states a sweep reads after the run.
//!
//! The contract is "Summaries between the rows" in [`crate::ir`]. A study asks for them
//! through [`super::Prepare::probes`]; each [`Probe`] of a continuous state of a model
//! under an adaptive method whose dense output needs no extra stage (every one but
//! `dop853`) becomes one hidden state that holds the summary (`x_dopri5_max`,
//! `x_dopri5_min`, `x_dopri5_cross1`, …), found by [`super::Lowered::probe`]. With
//! hidden states `last` per state and `seen`, `th`, `lo`, `hi`, `mid`, `e`, `ext`,
//! `s0`, `s1`, `sm`, `pm`, `pc`, `va`, `n` per model, the rewrite adds:
//!
//! ```text
//! a point v at time τ:   if seen = 0 { max = min = v; at = NaN, or τ where v = T; last = v }
//!                        else { max = v if v > max or v is NaN (min alike);
//!                               at = τ if at is NaN and last and v lie across T; last = v }
//! an accepted step:      the dense output's terms kept (before the event search)
//! a segment [0, e] of it (the whole step, e = 1, or up to a located event, e = hi/hs):
//!     the point yc at time + t; seen = 1
//!     per state: s0 = p'(0); s1 = p'(e); ext = e
//!       if s0 and s1 have opposite signs: 50 halvings of [0, e] on the sign of p'
//!         (lo keeps the sign of s0); ext = lo + (hi − lo)·0.5; pm = p(ext); max, min
//!         with pm; else pm = y
//!       per crossing not yet found: if yc and pm lie across T, 50 halvings of
//!         [0, ext] (hi keeps the crossing), else if pm and y do, of [ext, e];
//!         at = time + (t + hi·hs)
//!       max, min with y; last = y
//! after the discrete pass at the host step's end: the point y at time + dt
//! ```
//!
//! `p(θ)` is the method's continuous extension ([`DenseOutput::value`]) and `p'(θ)` its
//! derivative in `θ`, differentiated here from the same expression ([`slope`]).

use super::bounds::HALVINGS;
use super::build::{add, arith, assign, cmp, mul, num, sub, var, when};
use super::dense::{DenseOutput, Memories};
use super::hidden::Hidden;
use super::rewrite::{AtLimit, Rewrite, Stmt};
use crate::Span;
use crate::ir::{ArithOp, CmpOp, Expr, ModelId, Split, VarId};

/// What a study keeps of a continuous state between the rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProbeKind {
    /// Its largest value over the run.
    Max,
    /// Its smallest value over the run.
    Min,
    /// The first time it reaches the threshold.
    Crossing(f64),
}

/// A summary of variable `var` of model `model` kept in a hidden state
/// ([`super::Prepare::probes`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Probe {
    /// The model.
    pub model: ModelId,
    /// The variable (a continuous state, else the probe is left out).
    pub var: VarId,
    /// What is kept of it.
    pub kind: ProbeKind,
}

/// The hidden states of one probed state.
struct State {
    y: VarId,
    yc: VarId,
    k: Vec<VarId>,
    kept: Vec<VarId>,
    last: VarId,
    max: Vec<VarId>,
    min: Vec<VarId>,
    crossings: Vec<(f64, VarId)>,
    span: Span,
}

/// The summaries a rewrite keeps of its model's states.
pub(super) struct Probes<'a> {
    dense: &'a dyn DenseOutput,
    states: Vec<State>,
    seen: VarId,
    th: VarId,
    lo: VarId,
    hi: VarId,
    mid: VarId,
    e: VarId,
    ext: VarId,
    s0: VarId,
    s1: VarId,
    sm: VarId,
    pm: VarId,
    pc: VarId,
    va: VarId,
    n: VarId,
    span: Span,
}

impl<'a> Probes<'a> {
    /// The hidden states of `probes` (those of this model) for the continuous states of
    /// `sp`, whose start values and rates are `mems` (as [`super::located::Located`]
    /// takes them); each probe kept is pushed with its hidden state onto `kept`. `None`
    /// when no probe is of a continuous state, or the dense output needs extra stages.
    pub(super) fn new(
        hid: &mut Hidden<'_>,
        dense: &'a dyn DenseOutput,
        sp: &Split,
        mems: &[(VarId, Vec<VarId>)],
        probes: &[Probe],
        kept: &mut Vec<(Probe, VarId)>,
    ) -> Option<Probes<'a>> {
        if probes.is_empty() || !dense.extra_nodes().is_empty() {
            return None;
        }
        let method = dense.name();
        let mut states = Vec::new();
        for ((yc, k), &(y, span)) in mems.iter().zip(&sp.states) {
            let mine: Vec<&Probe> = probes.iter().filter(|p| p.var == y).collect();
            if mine.is_empty() {
                continue;
            }
            let name = hid.m.vars[y].name.clone();
            let terms = dense.memories(hid, &format!("{name}_probe"), span);
            let last = hid.new_var(
                format!("{name}_{method}_last"),
                format!(" `{name}` at the last point a summary saw ({method})."),
                span,
            );
            let mut st = State {
                y,
                yc: *yc,
                k: k.clone(),
                kept: terms,
                last,
                max: Vec::new(),
                min: Vec::new(),
                crossings: Vec::new(),
                span,
            };
            for p in mine {
                let (what, doc) = match p.kind {
                    ProbeKind::Max => ("max".to_string(), "largest value".to_string()),
                    ProbeKind::Min => ("min".to_string(), "smallest value".to_string()),
                    ProbeKind::Crossing(t) => (
                        format!("cross{}", st.crossings.len() + 1),
                        format!("first time at {t}"),
                    ),
                };
                let v = hid.new_var(
                    format!("{name}_{method}_{what}"),
                    format!(" The {doc} of `{name}` over the run ({method})."),
                    span,
                );
                match p.kind {
                    ProbeKind::Max => st.max.push(v),
                    ProbeKind::Min => st.min.push(v),
                    ProbeKind::Crossing(t) => st.crossings.push((t, v)),
                }
                kept.push((*p, v));
            }
            states.push(st);
        }
        if states.is_empty() {
            return None;
        }
        let mut global = |what: &str, doc: &str| hid.global(method, what, doc);
        Some(Probes {
            dense,
            states,
            seen: global("probe_seen", "1 once a summary has seen a point"),
            th: global(
                "probe_th",
                "Into the internal step, the point a summary reads",
            ),
            lo: global("probe_lo", "A summary's search: the lower end"),
            hi: global("probe_hi", "A summary's search: the upper end"),
            mid: global("probe_mid", "A summary's search: the point tried"),
            e: global("probe_e", "The end of the segment summarised"),
            ext: global("probe_ext", "The extremum inside the segment, or its end"),
            s0: global("probe_s0", "The slope at the segment's start"),
            s1: global("probe_s1", "The slope at the segment's end"),
            sm: global("probe_sm", "The slope at the point tried"),
            pm: global(
                "probe_pm",
                "The value at the extremum inside the segment, or its end",
            ),
            pc: global(
                "probe_pc",
                "The value at the point a crossing's search tries",
            ),
            va: global("probe_va", "The value at the start of a crossing's search"),
            n: global("probe_n", "Halvings of a summary's search"),
            span: sp.states.first().map_or(Span::default(), |s| s.1),
        })
    }

    fn set(&self, v: VarId, e: Expr) -> Stmt {
        assign(v, e, None, self.span)
    }

    fn memories<'s>(&self, s: &'s State) -> Memories<'s> {
        Memories {
            y: s.y,
            y0: s.yc,
            k: &s.k,
            kept: &s.kept,
        }
    }

    /// `p(th)` of state `s` in a step of length `hs`.
    fn value(&self, s: &State, hs: VarId) -> Expr {
        self.dense
            .value(&self.memories(s), &var(hs), &|| var(self.th))
    }

    /// `p'(th)`, or `None` when the output is not written in the four operations.
    fn slope(&self, s: &State, hs: VarId) -> Option<Expr> {
        match slope(&self.value(s, hs), self.th)? {
            Some(d) => Some(d),
            None => Some(num(0.0)),
        }
    }

    /// The statements of an accepted internal step of length `hs`, before anything
    /// else of it: the dense output's terms of each probed state.
    pub(super) fn keep(&self, hs: VarId) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in &self.states {
            out.extend(self.dense.keep(&self.memories(s), &var(hs), s.span));
        }
        out
    }

    /// Max and min of state `s` with the value `v`.
    fn extremes(&self, s: &State, v: &Expr) -> Vec<Stmt> {
        let nan = || cmp(CmpOp::Ne, v.clone(), v.clone());
        let mut out = Vec::new();
        for (list, op) in [(&s.max, CmpOp::Gt), (&s.min, CmpOp::Lt)] {
            for &m in list {
                let beyond = Expr::Or(Box::new(cmp(op, v.clone(), var(m))), Box::new(nan()));
                out.push(when(beyond, vec![self.set(m, v.clone())], s.span));
            }
        }
        out
    }

    /// One point of the run: `v` (an expression of state `s`) at time `at`.
    fn point(&self, s: &State, v: &Expr, at: &Expr) -> Vec<Stmt> {
        let mut first: Vec<Stmt> = s
            .max
            .iter()
            .chain(&s.min)
            .map(|&m| self.set(m, v.clone()))
            .collect();
        for &(t, c) in &s.crossings {
            first.push(self.set(c, num(f64::NAN)));
            first.push(when(
                cmp(CmpOp::Eq, v.clone(), num(t)),
                vec![self.set(c, at.clone())],
                s.span,
            ));
        }
        let mut then = self.extremes(s, v);
        for &(t, c) in &s.crossings {
            let cond = Expr::And(
                Box::new(unfound(c)),
                Box::new(across(var(s.last), v.clone(), t)),
            );
            then.push(when(cond, vec![self.set(c, at.clone())], s.span));
        }
        vec![
            when(cmp(CmpOp::Eq, var(self.seen), num(0.0)), first, s.span),
            when(cmp(CmpOp::Ne, var(self.seen), num(0.0)), then, s.span),
            self.set(s.last, v.clone()),
        ]
    }

    /// The points at the host step's end, after its discrete pass (`time + dt`).
    pub(super) fn end(&self) -> Vec<Stmt> {
        let at = add(Expr::Time, Expr::Dt);
        let mut out = Vec::new();
        for s in &self.states {
            out.extend(self.point(s, &var(s.y), &at));
        }
        out.push(self.set(self.seen, num(1.0)));
        out
    }

    /// A bounded loop of [`HALVINGS`] runs of `body`, counted in `n`.
    fn halvings(&self, mut body: Vec<Stmt>) -> Vec<Stmt> {
        body.insert(0, self.set(self.n, add(var(self.n), num(1.0))));
        vec![
            self.set(self.n, num(0.0)),
            Stmt::Added(Rewrite::Repeat {
                body,
                until: cmp(CmpOp::Ge, var(self.n), num(HALVINGS as f64)),
                count: self.n,
                limit: u64::from(HALVINGS),
                at_limit: AtLimit::Leave,
                method: self.dense.name(),
                events: None,
                span: self.span,
            }),
        ]
    }

    /// The segment `[0, end]` (as a fraction of `hs`) of the internal step from `t`, the
    /// states holding their values at its end: what every summary takes of it.
    pub(super) fn segment(&self, t: VarId, hs: VarId, end: Expr) -> Vec<Stmt> {
        let at_t = add(Expr::Time, var(t));
        let end_is_one = matches!(end, Expr::Num(x) if x == 1.0);
        let mut out = Vec::new();
        for s in &self.states {
            out.extend(self.point(s, &var(s.yc), &at_t));
        }
        out.push(self.set(self.seen, num(1.0)));
        out.push(self.set(self.e, end));
        for s in &self.states {
            out.push(self.set(self.ext, var(self.e)));
            if let Some(d) = self.slope(s, hs) {
                // The slopes at the ends, with θ = 0 (and θ = 1 for a whole step)
                // folded into the expression.
                out.push(self.set(self.s0, fold(&d, self.th, 0.0)));
                match end_is_one {
                    true => out.push(self.set(self.s1, fold(&d, self.th, 1.0))),
                    false => {
                        out.push(self.set(self.th, var(self.e)));
                        out.push(self.set(self.s1, d.clone()));
                    }
                }
                let pos = |v: VarId| cmp(CmpOp::Gt, var(v), num(0.0));
                let neg = |v: VarId| cmp(CmpOp::Lt, var(v), num(0.0));
                let and = |a: Expr, b: Expr| Expr::And(Box::new(a), Box::new(b));
                let or = |a: Expr, b: Expr| Expr::Or(Box::new(a), Box::new(b));
                let turns = or(
                    and(pos(self.s0), neg(self.s1)),
                    and(neg(self.s0), pos(self.s1)),
                );
                let same = or(
                    and(pos(self.sm), pos(self.s0)),
                    and(neg(self.sm), neg(self.s0)),
                );
                let mut search = vec![self.set(self.lo, num(0.0)), self.set(self.hi, var(self.e))];
                search.extend(self.halvings(vec![
                    self.set(self.mid, self.midpoint()),
                    self.set(self.th, var(self.mid)),
                    self.set(self.sm, d),
                    when(same.clone(), vec![self.set(self.lo, var(self.mid))], s.span),
                    when(
                        Expr::Not(Box::new(same)),
                        vec![self.set(self.hi, var(self.mid))],
                        s.span,
                    ),
                ]));
                search.push(self.set(self.ext, self.midpoint()));
                search.push(self.set(self.th, var(self.ext)));
                search.push(self.set(self.pm, self.value(s, hs)));
                search.extend(self.extremes(s, &var(self.pm)));
                out.push(when(turns, search, s.span));
            }
            // `pm` is the value at `ext`: `y` at the segment's end unless the search
            // found an extremum inside (and set it).
            if !s.crossings.is_empty() {
                out.push(when(
                    cmp(CmpOp::Eq, var(self.ext), var(self.e)),
                    vec![self.set(self.pm, var(s.y))],
                    s.span,
                ));
            }
            for &(thr, c) in &s.crossings {
                let mut find = Vec::new();
                let first = self.crossing(s, hs, t, (num(0.0), var(s.yc)), var(self.ext), thr, c);
                find.push(when(across(var(s.yc), var(self.pm), thr), first, s.span));
                let then =
                    self.crossing(s, hs, t, (var(self.ext), var(self.pm)), var(self.e), thr, c);
                find.push(when(
                    Expr::And(
                        Box::new(unfound(c)),
                        Box::new(across(var(self.pm), var(s.y), thr)),
                    ),
                    then,
                    s.span,
                ));
                out.push(when(unfound(c), find, s.span));
            }
            out.extend(self.extremes(s, &var(s.y)));
            out.push(self.set(s.last, var(s.y)));
        }
        out
    }

    fn midpoint(&self) -> Expr {
        add(var(self.lo), mul(sub(var(self.hi), var(self.lo)), num(0.5)))
    }

    /// The halvings of `[from.0, to]` (the value at `from.0` is `from.1`) for the first
    /// point at or past threshold `thr`, and the crossing `c` at it.
    #[allow(clippy::too_many_arguments)]
    fn crossing(
        &self,
        s: &State,
        hs: VarId,
        t: VarId,
        from: (Expr, Expr),
        to: Expr,
        thr: f64,
        c: VarId,
    ) -> Vec<Stmt> {
        let mut out = vec![
            self.set(self.va, from.1),
            self.set(self.lo, from.0),
            self.set(self.hi, to),
        ];
        let hit = across(var(self.va), var(self.pc), thr);
        out.extend(self.halvings(vec![
            self.set(self.mid, self.midpoint()),
            self.set(self.th, var(self.mid)),
            self.set(self.pc, self.value(s, hs)),
            when(hit.clone(), vec![self.set(self.hi, var(self.mid))], s.span),
            when(
                Expr::Not(Box::new(hit)),
                vec![self.set(self.lo, var(self.mid))],
                s.span,
            ),
        ]));
        out.push(self.set(c, add(Expr::Time, add(var(t), mul(var(self.hi), var(hs))))));
        out
    }
}

/// `e` with variable `x` replaced by the number `value` and folded: operations on
/// numbers computed, `0·a` and `a·0` as 0, `1·a`, `a·1`, `a/1`, `a + 0`, `0 + a`, `a − 0`
/// as `a` (the same value for every finite `a`, up to the sign of a zero).
pub(super) fn fold(e: &Expr, x: VarId, value: f64) -> Expr {
    match e {
        Expr::Var(v) if *v == x => num(value),
        Expr::Neg(a) => match fold(a, x, value) {
            Expr::Num(n) => num(-n),
            a => Expr::Neg(Box::new(a)),
        },
        Expr::Arith(op, a, b) => {
            let (a, b) = (fold(a, x, value), fold(b, x, value));
            let n = |e: &Expr| match e {
                Expr::Num(v) => Some(*v),
                _ => None,
            };
            match (op, n(&a), n(&b)) {
                (ArithOp::Add, Some(p), Some(q)) => num(p + q),
                (ArithOp::Sub, Some(p), Some(q)) => num(p - q),
                (ArithOp::Mul, Some(p), Some(q)) => num(p * q),
                (ArithOp::Div, Some(p), Some(q)) => num(p / q),
                (ArithOp::Mul, Some(z), _) | (ArithOp::Mul, _, Some(z)) if z == 0.0 => num(0.0),
                (ArithOp::Mul, Some(1.0), _) => b,
                (ArithOp::Mul | ArithOp::Div, _, Some(1.0)) => a,
                (ArithOp::Add, Some(0.0), _) => b,
                (ArithOp::Add | ArithOp::Sub, _, Some(0.0)) => a,
                _ => arith(*op, a, b),
            }
        }
        e => e.clone(),
    }
}

/// Whether crossing `c` is not found yet (it holds NaN).
fn unfound(c: VarId) -> Expr {
    cmp(CmpOp::Ne, var(c), var(c))
}

/// Whether `b` reaches `thr` from `a`: `a < thr ≤ b` or `a > thr ≥ b`.
fn across(a: Expr, b: Expr, thr: f64) -> Expr {
    let and = |x: Expr, y: Expr| Expr::And(Box::new(x), Box::new(y));
    Expr::Or(
        Box::new(and(
            cmp(CmpOp::Lt, a.clone(), num(thr)),
            cmp(CmpOp::Ge, b.clone(), num(thr)),
        )),
        Box::new(and(
            cmp(CmpOp::Gt, a, num(thr)),
            cmp(CmpOp::Le, b, num(thr)),
        )),
    )
}

/// The derivative of `e` in variable `x`: `Some(None)` when it is 0, `None` when `e` is
/// not written in numbers, variables, negation and the four operations.
pub(super) fn slope(e: &Expr, x: VarId) -> Option<Option<Expr>> {
    Some(match e {
        Expr::Var(v) if *v == x => Some(num(1.0)),
        Expr::Num(_) | Expr::Var(_) | Expr::Time | Expr::Dt => None,
        Expr::Neg(a) => slope(a, x)?.map(|d| Expr::Neg(Box::new(d))),
        Expr::Arith(op, a, b) => {
            let (da, db) = (slope(a, x)?, slope(b, x)?);
            let (a, b) = (|| (**a).clone(), || (**b).clone());
            match op {
                ArithOp::Add => match (da, db) {
                    (Some(p), Some(q)) => Some(add(p, q)),
                    (p, q) => p.or(q),
                },
                ArithOp::Sub => match (da, db) {
                    (Some(p), Some(q)) => Some(sub(p, q)),
                    (Some(p), None) => Some(p),
                    (None, Some(q)) => Some(Expr::Neg(Box::new(q))),
                    (None, None) => None,
                },
                ArithOp::Mul => match (da, db) {
                    (Some(p), Some(q)) => Some(add(mul(p, b()), mul(a(), q))),
                    (Some(p), None) => Some(mul(p, b())),
                    (None, Some(q)) => Some(mul(a(), q)),
                    (None, None) => None,
                },
                ArithOp::Div => match (da, db) {
                    (None, None) => None,
                    (Some(p), None) => Some(arith(ArithOp::Div, p, b())),
                    (p, q) => {
                        let p = p.unwrap_or(num(0.0));
                        let q = q.unwrap_or(num(0.0));
                        let top = sub(mul(p, b()), mul(a(), q));
                        Some(arith(ArithOp::Div, top, mul(b(), b())))
                    }
                },
                ArithOp::Pow => return None,
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `p(θ)` and its slope, evaluated by a small walk over the four operations.
    fn eval(e: &Expr, x: f64) -> f64 {
        match e {
            Expr::Num(v) => *v,
            Expr::Var(_) => x,
            Expr::Neg(a) => -eval(a, x),
            Expr::Arith(op, a, b) => {
                let (a, b) = (eval(a, x), eval(b, x));
                match op {
                    ArithOp::Add => a + b,
                    ArithOp::Sub => a - b,
                    ArithOp::Mul => a * b,
                    ArithOp::Div => a / b,
                    ArithOp::Pow => a.powf(b),
                }
            }
            _ => f64::NAN,
        }
    }

    #[test]
    fn slopes_match_central_differences() {
        let th = || var(0);
        // θ·(2 + (1 − θ)·(3 + θ/(1 + θ))), Hairer's nesting with a quotient.
        let e = mul(
            th(),
            add(
                num(2.0),
                mul(
                    sub(num(1.0), th()),
                    add(num(3.0), arith(ArithOp::Div, th(), add(num(1.0), th()))),
                ),
            ),
        );
        let d = slope(&e, 0)
            .expect("four operations")
            .expect("not constant");
        for x in [0.0, 0.3, 0.7, 1.0] {
            let h = 1e-6;
            let fd = (eval(&e, x + h) - eval(&e, x - h)) / (2.0 * h);
            // Central differences are exact to O(h²) ≈ 1e-12 here, plus rounding
            // ε/h ≈ 2e-10.
            assert!(
                (eval(&d, x) - fd).abs() < 1e-8,
                "{x}: {} vs {fd}",
                eval(&d, x)
            );
        }
        // Folded at the ends: the same values.
        for x in [0.0, 1.0] {
            let folded = fold(&d, 0, x);
            assert_eq!(eval(&folded, f64::NAN), eval(&d, x), "{x}: {folded:?}");
        }
        // θ·(2 + (1 − θ)·3) at θ = 0 is 2 + 3 (its slope there) without a product.
        let p = mul(th(), add(num(2.0), mul(sub(num(1.0), th()), num(3.0))));
        let d0 = fold(&slope(&p, 0).unwrap().unwrap(), 0, 0.0);
        assert_eq!(d0, num(5.0));
        assert_eq!(slope(&num(3.0), 0), Some(None));
        assert_eq!(
            slope(&arith(ArithOp::Pow, th(), num(2.0)), 0),
            None,
            "a power is not differentiated"
        );
    }
}
