//! The declarations of a rewritten program as the back ends read them (`sit_lir::decl`), filled once by [`crate::Lowered::new`], with what the generators ask of the rules (`deriv` targets, reads and writes of `dt`).

use crate::ir::{self, Expr, Rhs};
use crate::rewrite::{Model, Program, Rewrite, Stmt};
use sit_lir::decl;

/// The declarations of every model of `program`.
pub(crate) fn program(program: &Program) -> decl::Program {
    decl::Program {
        models: program.models.iter().map(model).collect(),
        sources: program.sources.clone(),
    }
}

fn model(m: &Model) -> decl::Model {
    decl::Model {
        name: m.name.clone(),
        doc: m.doc.clone(),
        span: m.span,
        vars: (m.vars.iter())
            .map(|v| decl::Var {
                name: v.name.clone(),
                kind: v.kind,
                ty: v.ty,
                output: v.output,
                doc: v.doc.clone(),
                span: v.span,
                hidden: v.hidden,
            })
            .collect(),
        conds: (m.conds.iter())
            .map(|c| decl::Cond {
                name: c.name.clone(),
                kind: c.kind,
                output: c.output,
                doc: c.doc.clone(),
                span: c.span,
            })
            .collect(),
        events: (m.events.iter())
            .map(|e| decl::Event {
                name: e.name.clone(),
                output: e.output,
                doc: e.doc.clone(),
                span: e.span,
            })
            .collect(),
        subs: (m.subs.iter())
            .map(|s| decl::Sub {
                name: s.name.clone(),
                model: s.model,
                initially_on: s.initially_on,
                doc: s.doc.clone(),
                span: s.span,
                phase: s.phase.is_some(),
                placed: s.placed,
            })
            .collect(),
        modes: m.modes.clone(),
        memories: m.memories.clone(),
        fired: m.fired,
        deriv_targets: (0..m.memories.len())
            .map(|k| deriv_target(&m.body, k))
            .collect(),
        body_len: m.body.len(),
        sets_dt: sets_dt(&m.body),
        reads_dt: model_exprs(m).iter().any(|e| reads_dt(e)),
        allow_non_finite: m.allow_non_finite,
    }
}

/// The target of the `deriv` rule that owns memory `mem`.
fn deriv_target(body: &[Stmt], mem: usize) -> Option<usize> {
    body.iter().find_map(|s| match s {
        Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => match a.rhs {
            Rhs::Deriv { mem: k, .. } if k == mem => Some(a.target),
            _ => None,
        },
        Stmt::If { then, .. } => deriv_target(then, mem),
        _ => None,
    })
}

/// Whether `body` writes `dt`, at any depth.
fn sets_dt(body: &[Stmt]) -> bool {
    let mut found = false;
    ir::walk(body, &mut |s| {
        found |= matches!(s, Stmt::Added(Rewrite::SetDt { .. }))
    });
    found
}

/// Whether `e` reads `dt`.
fn reads_dt(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Dt));
    found
}

/// Every expression evaluated in a model's scope.
fn model_exprs(m: &Model) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = m.vars.iter().map(|v| &v.init).collect();
    out.extend(m.conds.iter().map(|c| &c.expr));
    out.extend(m.events.iter().map(|e| &e.cond));
    for s in &m.subs {
        out.extend(s.param_bindings.iter().map(|b| &b.value));
        out.extend(s.input_bindings.iter().map(|b| &b.value));
        out.extend(s.phase.as_ref().map(|p| &p.until));
    }
    out.extend(m.substeps.iter().flat_map(|s| [&s.when, &s.count]));
    fn stmts<'e>(body: &'e [Stmt], out: &mut Vec<&'e Expr>) {
        for s in body {
            match s {
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => out.extend(a.rhs.operands()),
                Stmt::If { cond, then, .. }
                | Stmt::Added(Rewrite::Repeat {
                    until: cond,
                    body: then,
                    ..
                }) => {
                    out.push(cond);
                    stmts(then, out);
                }
                Stmt::Added(Rewrite::SetDt { value, .. } | Rewrite::Event { cond: value, .. }) => {
                    out.push(value)
                }
                _ => {}
            }
        }
    }
    stmts(&m.body, &mut out);
    out
}
