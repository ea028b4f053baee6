//! The jump of the sensitivities at a located event (the saltation matrix): the event time's sensitivity and the rates before and after the jump, written as rules in the guarded block the event runs.
//!
//! Under a method that locates events (every method but `euler`), the discrete pass at
//! an event runs at the instant `τ` where a watched guard changed, and `τ` depends on
//! the params. The tangent rules of the block (`super::sensitivity`) give `∂g/∂x·S +
//! ∂g/∂k` at a fixed `τ`; the whole jump is
//!
//! ```text
//! S⁺ = ∂g/∂x·(S⁻ + f⁻·dτ/dk) + ∂g/∂k − f⁺·dτ/dk,   dτ/dk = −(∂c/∂x·S⁻ + ∂c/∂k)/ċ
//! ```
//!
//! with `c` the crossing function of the guard (`a − b` of the comparison `a op b` that
//! crossed: of the guard's comparisons, the one nearest 0 at the event) and `ċ` its
//! derivative along the flow. For each top-level guarded block whose guard reads a
//! continuous state or `time`, the block is prefixed, when the guard rose (an `event`
//! `salt_rose_N` of the guard, located with it), by: the rates `f⁻`
//! (the stage rules copied into hidden states, guarded rules as guards over a default,
//! then each state's rate), `dτ/dk` per column, `S += f⁻·dτ/dk`; and followed by the
//! rates `f⁺` on the values after the jump and `S −= f⁺·dτ/dk`. A crossing function
//! that reads a stage rule's target is differentiated along the flow through the
//! states only (the stage rule's own change along the flow is left out).

use super::sensitivity::expr;
use super::{Deriver, Slope, Sparse};
use crate::Span;
use crate::ir::{ArithOp, Assign, CmpOp, Expr, Func, Model, Rhs, Stmt, Ty, Var, VarId, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// What the saltation rules of a model read and write.
pub(super) struct Saltation<'a> {
    /// The model as written.
    pub(super) m: &'a Model,
    /// The model being rewritten (its variables grow).
    pub(super) out: &'a mut Model,
    /// The names taken.
    pub(super) taken: &'a mut BTreeSet<String>,
    /// The tangent pass seeded with the sensitivity states.
    pub(super) der: &'a Deriver,
    /// Per (continuous state, column), its sensitivity state.
    pub(super) state: &'a BTreeMap<(VarId, usize), VarId>,
    /// The number of columns.
    pub(super) columns: usize,
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn assign(target: VarId, e: Expr, span: Span) -> Stmt {
    Stmt::Assign(Assign {
        target,
        rhs: Rhs::Expr(e),
        fired: None,
        span,
    })
}

/// `e` with every read of a variable of `map` read from its copy.
fn rename(e: &Expr, map: &BTreeMap<VarId, VarId>) -> Expr {
    let mut e = e.clone();
    e.visit_mut(&mut |x| {
        if let Expr::Var(v) = x
            && let Some(&c) = map.get(v)
        {
            *x = Expr::Var(c);
        }
    });
    e
}

/// The comparisons of a guard (through `&`, `|`, `!` and the model's events), as
/// crossing functions `a − b`.
fn crossings(m: &Model, e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Cmp(op, a, b) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            out.push(Expr::Arith(ArithOp::Sub, a.clone(), b.clone()));
        }
        Expr::And(a, b) | Expr::Or(a, b) => {
            crossings(m, a, out);
            crossings(m, b, out);
        }
        Expr::Not(a) => crossings(m, a, out),
        Expr::Event(ev) => crossings(m, &m.events[*ev].cond, out),
        Expr::Cond(c) => crossings(m, &m.conds[*c].expr, out),
        _ => {}
    }
}

/// The first guard that the event location watches inside a step but that gets no
/// saltation: a guarded block nested inside a block whose own guard gets none (a guarded
/// rule in `when armed { … }` with `armed` a flag), or a top-level guard whose
/// comparisons read a stage rule's value but no state or `time` (the saltation is
/// written for a top-level block whose guard compares what the states carry). A guard
/// nested inside a block that gets its saltation is part of that block's jump map (its
/// tangent rules), evaluated at the block's located instant: not asked. `None` when
/// every located guard gets its jump. Under `euler` nothing is located, so nothing is
/// asked.
pub(super) fn unsalted(m: &Model) -> Option<Span> {
    if m.method == crate::ir::Method::Euler {
        return None;
    }
    let sp = crate::ir::split(m);
    if sp.states.is_empty() {
        return None;
    }
    let reads = |e: &Expr, staged: bool| {
        let mut found = false;
        e.visit(&mut |x| {
            found |= match x {
                Expr::Var(v) => sp.is_state[*v] || (staged && sp.staged[*v]),
                Expr::Time => true,
                _ => false,
            }
        });
        found
    };
    /// `inside`: `None` at the top level, else whether the enclosing top-level block
    /// gets its saltation.
    fn walk(
        m: &Model,
        body: &[Stmt],
        inside: Option<bool>,
        reads: &dyn Fn(&Expr, bool) -> bool,
    ) -> Option<Span> {
        for s in body {
            let Stmt::If { cond, then, span } = s else {
                continue;
            };
            let mut cross = Vec::new();
            crossings(m, cond, &mut cross);
            let located = cross.iter().any(|c| reads(c, true));
            let salted = match inside {
                None => cross.iter().any(|c| reads(c, false)),
                Some(outer) => outer,
            };
            if located && !salted {
                return Some(*span);
            }
            if let Some(found) = walk(m, then, Some(salted), reads) {
                return Some(found);
            }
        }
        None
    }
    walk(m, &m.body, None, &reads)
}

impl Saltation<'_> {
    fn hidden(&mut self, name: String, doc: &str) -> VarId {
        let mut name = name;
        while !self.taken.insert(name.clone()) {
            name.push('_');
        }
        self.out.vars.push(Var {
            name,
            kind: VarKind::State,
            ty: Ty::Real,
            output: false,
            init: Expr::Num(0.0),
            doc: vec![format!(" {doc} (the sensitivities' saltation).")],
            span: self.m.span,
            hidden: true,
        });
        self.out.vars.len() - 1
    }

    /// `body` (the model's, with its tangent rules) with the saltation of each top-level
    /// guarded block whose guard can change inside a step.
    pub(super) fn body(&mut self, body: Vec<Stmt>) -> Vec<Stmt> {
        let sp = crate::ir::split(self.m);
        if sp.states.is_empty() {
            return body;
        }
        let start = (self.out.vars.len(), self.out.events.len());
        let moving = |e: &Expr| {
            let mut found = false;
            e.visit(&mut |x| {
                found |= matches!(x, Expr::Var(v) if sp.is_state[*v]) || *x == Expr::Time
            });
            found
        };
        // The copies of the stage rules' targets, and of each state's rate.
        let mut copy = BTreeMap::new();
        for (v, var) in self.m.vars.iter().enumerate() {
            if sp.staged[v] && !sp.is_state[v] {
                let c = self.hidden(format!("salt_{}", var.name), "a stage value");
                copy.insert(v, c);
            }
        }
        let mut rates = Vec::new();
        for &(x, _) in &sp.states {
            if (0..self.columns).any(|c| self.state.contains_key(&(x, c))) {
                let name = format!("salt_rate_{}", self.m.vars[x].name);
                rates.push((x, self.hidden(name, "a state's rate")));
            }
        }
        let taus: Vec<VarId> = (0..self.columns)
            .map(|c| self.hidden(format!("salt_tau_{c}"), "dτ/dk of an event"))
            .collect();
        let best = self.hidden("salt_best".into(), "the crossing nearest 0");
        let stage = self.stage_copy(&self.m.body, &copy);
        let rate_rules: Vec<Stmt> = rates
            .iter()
            .filter_map(|&(x, r)| Some(assign(r, self.rate(x, &copy)?, self.m.span)))
            .collect();
        let mut out = Vec::with_capacity(body.len());
        let mut n = 0;
        for s in body {
            let Stmt::If { cond, then, span } = s else {
                out.push(s);
                continue;
            };
            let mut cross = Vec::new();
            crossings(self.m, &cond, &mut cross);
            cross.retain(|c| moving(c));
            if cross.is_empty() {
                out.push(Stmt::If { cond, then, span });
                continue;
            }
            n += 1;
            // An event of the guard's rise (`cond && !prev`, evaluated before each
            // discrete pass, so true in the pass at the instant located).
            let mut name = format!("salt_rose_{n}");
            while !self.taken.insert(name.clone()) {
                name.push('_');
            }
            self.out.events.push(crate::ir::Event {
                name,
                output: false,
                cond: cond.clone(),
                hidden: true,
                doc: vec![" The rise of a located guard (the sensitivities' saltation).".into()],
                span,
            });
            let rose = Expr::Event(self.out.events.len() - 1);
            let mut pre = stage.clone();
            pre.extend(rate_rules.iter().cloned());
            // dτ/dk from each crossing function, the one nearest 0 kept.
            for (i, c) in cross.iter().enumerate() {
                let size = Expr::Call(Func::Abs, vec![c.clone()]);
                let mut set = vec![assign(best, size.clone(), span)];
                let rate = self.flow(c, &rates);
                let tangent = self.der.d(c);
                for (k, &tau) in taus.iter().enumerate() {
                    let dc = tangent.get(&k).cloned().map_or(Expr::Num(0.0), expr);
                    let e = Expr::Neg(b(Expr::Arith(ArithOp::Div, b(dc), b(rate.clone()))));
                    set.push(assign(tau, e, span));
                }
                if i == 0 {
                    pre.extend(set);
                } else {
                    let nearer = Expr::Cmp(CmpOp::Lt, b(size), b(Expr::Var(best)));
                    pre.push(Stmt::If {
                        cond: nearer,
                        then: set,
                        span,
                    });
                }
            }
            let shift = |sign: ArithOp| -> Vec<Stmt> {
                let mut v = Vec::new();
                for &(x, r) in &rates {
                    for (k, &tau) in taus.iter().enumerate() {
                        if let Some(&s) = self.state.get(&(x, k)) {
                            let d = Expr::Arith(ArithOp::Mul, b(Expr::Var(r)), b(Expr::Var(tau)));
                            v.push(assign(s, Expr::Arith(sign, b(Expr::Var(s)), b(d)), span));
                        }
                    }
                }
                v
            };
            pre.extend(shift(ArithOp::Add));
            let mut post = stage.clone();
            post.extend(rate_rules.iter().cloned());
            post.extend(shift(ArithOp::Sub));
            let mut inner = vec![Stmt::If {
                cond: rose.clone(),
                then: pre,
                span,
            }];
            inner.extend(then);
            inner.push(Stmt::If {
                cond: rose,
                then: post,
                span,
            });
            out.push(Stmt::If {
                cond,
                then: inner,
                span,
            });
        }
        if n == 0 {
            // No located guard: none of the hidden states is read; the model as it was.
            self.out.vars.truncate(start.0);
            self.out.events.truncate(start.1);
        }
        out
    }

    /// The rate of continuous state `x` read from the stage copies, if `x` is one.
    fn rate(&self, x: VarId, copy: &BTreeMap<VarId, VarId>) -> Option<Expr> {
        let mut found = None;
        super::sensitivity::each_assign(&self.m.body, &mut |a| {
            if a.target != x || found.is_some() {
                return;
            }
            found = match &a.rhs {
                Rhs::Integral { x } | Rhs::IntegralLimited { x, .. } => Some(rename(x, copy)),
                Rhs::Lag { x: u, t, k } => {
                    let gain = Expr::Arith(ArithOp::Mul, b(k.clone()), b(u.clone()));
                    let gap = Expr::Arith(ArithOp::Sub, b(gain), b(Expr::Var(x)));
                    Some(rename(
                        &Expr::Arith(ArithOp::Div, b(gap), b(t.clone())),
                        copy,
                    ))
                }
                _ => None,
            };
        });
        found
    }

    /// `ċ`: the derivative of `c` along the flow, the states moving at their rates (held
    /// in `rates`), `time` at 1.
    fn flow(&self, c: &Expr, rates: &[(VarId, VarId)]) -> Expr {
        let mut flow = Deriver {
            state: vec![None; self.m.vars.len()],
            staged: vec![false; self.m.vars.len()],
            written: BTreeMap::new(),
            time: Some(0),
            seed: BTreeMap::new(),
        };
        for &(x, r) in rates {
            flow.seed
                .insert(x, Sparse::from([(0, Slope::Value(Expr::Var(r)))]));
        }
        flow.d(c).remove(&0).map_or(Expr::Num(0.0), expr)
    }

    /// The stage rules of `body` into their copies: each target's `otherwise` rule first
    /// (the default), then its other rules in order under their guards.
    fn stage_copy(&self, body: &[Stmt], copy: &BTreeMap<VarId, VarId>) -> Vec<Stmt> {
        let mut defaults: BTreeMap<VarId, Expr> = BTreeMap::new();
        super::sensitivity::each_other(body, &mut |a| {
            if let (Some(_), Rhs::Expr(e)) = (copy.get(&a.target), &a.rhs) {
                defaults.entry(a.target).or_insert_with(|| rename(e, copy));
            }
        });
        let mut seen = BTreeSet::new();
        Self::copy_rules(body, copy, &mut defaults, &mut seen)
    }

    fn copy_rules(
        body: &[Stmt],
        copy: &BTreeMap<VarId, VarId>,
        defaults: &mut BTreeMap<VarId, Expr>,
        seen: &mut BTreeSet<VarId>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in body {
            match s {
                Stmt::Assign(a) => {
                    if let (Some(&c), Rhs::Expr(e)) = (copy.get(&a.target), &a.rhs) {
                        if seen.insert(a.target)
                            && let Some(d) = defaults.remove(&a.target)
                        {
                            out.push(assign(c, d, a.span));
                        }
                        out.push(assign(c, rename(e, copy), a.span));
                    }
                }
                Stmt::Otherwise { assign: a, .. } => {
                    if let (Some(&c), Some(d)) = (copy.get(&a.target), defaults.remove(&a.target)) {
                        seen.insert(a.target);
                        out.push(assign(c, d, a.span));
                    }
                }
                Stmt::If { cond, then, span } => {
                    // The defaults of the targets first assigned under this guard.
                    super::sensitivity::each_assign(then, &mut |a| {
                        if let Some(&c) = copy.get(&a.target)
                            && seen.insert(a.target)
                            && let Some(d) = defaults.remove(&a.target)
                        {
                            out.push(assign(c, d, a.span));
                        }
                    });
                    let then = Self::copy_rules(then, copy, defaults, seen);
                    if !then.is_empty() {
                        out.push(Stmt::If {
                            cond: rename(cond, copy),
                            then,
                            span: *span,
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }
}
