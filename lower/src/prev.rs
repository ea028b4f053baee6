//! `prev(x)` resolved: a read of `x` where nothing in the step can have changed it yet, else a read of a hidden copy of `x` taken at the start of the step.
//!
//! `prev(x)` is the value `x` had at the start of the step (see "Delays: `prev`" in
//! [`crate::ir`]). Until the first statement of the body that may write `x` (a rule for
//! it, guarded or not, or a σ action on it), `x` still holds that value, so the read is
//! a plain read of `x`: marking an intended delay with `prev` changes no bit of what the
//! unmarked read computed. After such a statement, and wherever the read cannot be
//! placed in the body's order (a pred or situation is evaluated where it is read; a
//! phase's bindings where it runs), the read is of a hidden copy of `x`, set to `x` as
//! the last statement of reset (after the initial pass) and of every step (after a
//! method's stages and loops): it holds `x` as the next step starts, for its events and
//! bindings as for its rules, under every method. The copy of a flag is a hidden flag,
//! taken by σ actions (cleared, then set when the flag holds). Under a method other than `euler`,
//! `prev` always reads the copy: the stages change the continuous states and the stage
//! rules' targets before any rule reads them, and a rate that reads `prev(x)` reads a
//! value that stays the same through the stages, so `x` is not a stage rule's target
//! for it (the split of `crate::ir` does not count `prev` as a read).
//!
//! Events, the input bindings of submodels that are not phases, and the condition and
//! count of sub-steps are evaluated before the body: `prev` there is a plain read (under
//! `euler`).

use super::build::{assign, when};
use super::hidden::Hidden;
use crate::ir::{Expr, Method, Model, Program, Stmt, Ty, VarId};
use std::borrow::Cow;

/// The copies to take at the start of each step, per model: `(copy, variable)` pairs,
/// in the order of the copies.
pub(super) type Copies = Vec<Vec<(VarId, VarId)>>;

/// `program` without `prev`: each read resolved as the module documentation says, the
/// hidden copies declared (borrowed when no model reads `prev`). The copies' statements
/// are not in the bodies: [`append`] puts them last once the method rewrite is done.
pub(super) fn resolve(program: &Program) -> (Cow<'_, Program>, Copies) {
    let mut copies: Copies = vec![Vec::new(); program.models.len()];
    if !program.models.iter().any(reads_prev) {
        return (Cow::Borrowed(program), copies);
    }
    let mut out = program.clone();
    for (m, copies) in out.models.iter_mut().zip(&mut copies) {
        if reads_prev(m) {
            *copies = resolve_model(m);
        }
    }
    (Cow::Owned(out), copies)
}

/// `program`'s bodies with the statements of `copies` last.
pub(super) fn append(program: &mut super::rewrite::Program, copies: &Copies) {
    for (m, copies) in program.models.iter_mut().zip(copies) {
        let last = statements(m, copies);
        m.body.extend(last);
    }
}

/// The statements that take the copies of one model (`m`'s, `copies`): `copy = x` of a
/// real; of a flag, `!copy` then `copy` when `x` holds (a flag is set by σ actions,
/// not by a δ rule).
pub(super) fn statements<X>(m: &crate::ir::Model<X>, copies: &[(VarId, VarId)]) -> Vec<Stmt<X>> {
    let mut out = Vec::with_capacity(copies.len());
    for &(copy, v) in copies {
        let span = m.vars[v].span;
        match m.vars[v].ty {
            Ty::Real => out.push(assign(copy, Expr::Var(v), None, span)),
            Ty::Flag => {
                let set = |value| Stmt::SetFlag {
                    var: copy,
                    value,
                    span,
                };
                out.push(set(false));
                out.push(when(Expr::Var(v), vec![set(true)], span));
            }
        }
    }
    out
}

/// Whether any expression of `m` reads `prev`.
fn reads_prev(m: &Model) -> bool {
    let mut found = false;
    each_expr(m, &mut |e| {
        e.visit(&mut |x| found |= matches!(x, Expr::Prev(_)));
    });
    found
}

/// Calls `f` on every expression of `m` outside its body.
fn each_expr(m: &Model, f: &mut impl FnMut(&Expr)) {
    m.conds.iter().for_each(|c| f(&c.expr));
    m.events.iter().for_each(|e| f(&e.cond));
    for s in &m.subs {
        (s.param_bindings.iter().chain(&s.input_bindings)).for_each(|b| f(&b.value));
        s.phase.iter().for_each(|p| f(&p.until));
    }
    if let Some(s) = &m.substeps {
        f(&s.count);
        f(&s.when);
    }
    crate::ir::walk(&m.body, &mut |s| match s {
        Stmt::If { cond, .. } => f(cond),
        Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
            a.rhs.operands().into_iter().for_each(&mut *f)
        }
        _ => {}
    });
}

/// Resolves the reads of `prev` in `m` (adding its copies as hidden states) and returns
/// the copies.
fn resolve_model(m: &mut Model) -> Vec<(VarId, VarId)> {
    let n = m.vars.len();
    // Whether a statement of the body may write each variable.
    let mut writes = vec![false; n];
    crate::ir::walk(&m.body, &mut |s| match s {
        Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => writes[a.target] = true,
        Stmt::SetFlag { var, .. } => writes[*var] = true,
        _ => {}
    });
    // Under a method with stages, every read is of the copy (see the module docs).
    let staged = m.method != Method::Euler;
    let original = m.clone();
    let mut r = Resolver {
        copy: vec![None; n],
        copies: Vec::new(),
        staged,
        hidden: Hidden::of(&original),
    };
    // Evaluated before the body: plain reads.
    let plain = vec![false; n];
    for e in &mut m.events {
        r.expr(&mut e.cond, &plain);
    }
    if let Some(s) = &mut m.substeps {
        r.expr(&mut s.count, &plain);
        r.expr(&mut s.when, &plain);
    }
    for s in &mut m.subs {
        // Bindings evaluated before the body; a phase's or a placed submodel's where
        // their statement stands (a copy if anything writes the variable).
        let at_step = s.phase.is_none() && s.placed.is_none();
        for b in &mut s.param_bindings {
            r.expr(&mut b.value, &plain);
        }
        for b in &mut s.input_bindings {
            r.expr(&mut b.value, if at_step { &plain } else { &writes });
        }
        if let Some(p) = &mut s.phase {
            r.expr(&mut p.until, &writes);
        }
    }
    // Evaluated where they are read: a copy if anything writes the variable.
    for c in &mut m.conds {
        r.expr(&mut c.expr, &writes);
    }
    let mut written = vec![false; n];
    let mut body = std::mem::take(&mut m.body);
    r.body(&mut body, &mut written);
    m.body = body;
    let Resolver { copies, hidden, .. } = r;
    // The copies are the hidden states appended last; the rest of `m` is as resolved.
    m.vars = hidden.out.vars;
    copies
}

/// The state of one model's resolution.
struct Resolver<'m> {
    /// Each variable's copy, once made.
    copy: Vec<Option<VarId>>,
    /// `(copy, variable)` in the order made.
    copies: Vec<(VarId, VarId)>,
    /// Whether the model's method has stages (every `prev` then reads its copy).
    staged: bool,
    /// The model's names, for naming the copies apart.
    hidden: Hidden<'m>,
}

impl Resolver<'_> {
    /// Resolves the body's statements in order; `written[v]` once a statement that may
    /// write `v` has been passed.
    fn body(&mut self, body: &mut [Stmt], written: &mut Vec<bool>) {
        for s in body {
            match s {
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                    for e in a.rhs.operands_mut() {
                        self.expr(e, written);
                    }
                    written[a.target] = true;
                }
                Stmt::If { cond, then, .. } => {
                    self.expr(cond, written);
                    self.body(then, written);
                }
                Stmt::SetFlag { var, .. } => written[*var] = true,
                Stmt::Switch { .. }
                | Stmt::SetMode { .. }
                | Stmt::Reset { .. }
                | Stmt::Run { .. }
                | Stmt::Step { .. } => {}
                Stmt::Added(x) => match *x {},
            }
        }
    }

    /// Replaces each `prev(v)` in `e`: by `v` unless `changed[v]` or the method has
    /// stages, else by `v`'s copy.
    fn expr(&mut self, e: &mut Expr, changed: &[bool]) {
        e.visit_mut(&mut |x| {
            if let Expr::Prev(v) = *x {
                *x = if changed[v] || self.staged {
                    Expr::Var(self.copy_of(v))
                } else {
                    Expr::Var(v)
                };
            }
        });
    }

    /// The hidden copy of `v`, made on first use: of `v`'s type, with `v`'s initial value.
    fn copy_of(&mut self, v: VarId) -> VarId {
        if let Some(c) = self.copy[v] {
            return c;
        }
        let var = &self.hidden.m.vars[v];
        let (name, span, ty, init) = (var.name.clone(), var.span, var.ty, var.init.clone());
        let c = self.hidden.new_var(
            format!("{name}_prev"),
            format!(" `{name}` at the start of the step (`prev({name})`)."),
            span,
        );
        let copy = &mut self.hidden.out.vars[c];
        copy.ty = ty;
        copy.init = init;
        self.copy[v] = Some(c);
        self.copies.push((c, v));
        c
    }
}
