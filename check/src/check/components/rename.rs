//! Renaming the names of a model's declarations and rules: how a part's names become
//! its parent's (`v` → `r1.v`), how a written path becomes one flat name (`r1.p.v`), and
//! how an aliased potential becomes its connection set's.

use crate::ast::{Action, Decl, Expr, ExprKind, Guard, Name, Rule};

/// What to do with a written path (`r1.p.v` as `[r1, p, v]`) used as `Use`: `Some(name)`
/// replaces it by the one name given, `None` keeps it.
pub(super) type Map<'a> = dyn FnMut(&[Name], Use) -> Option<String> + 'a;

/// How a name given to a [`Map`] is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Use {
    /// A value read or written, a mode, a submodel.
    Value,
    /// The procedure of a call (`curve(x)`): a lookup table of the model, renamed with
    /// it, or a procedure of the runtime, kept.
    Callee,
}

/// The path `p` renamed by `f`, as written if `f` keeps it.
fn path(p: &[Name], f: &mut Map<'_>) -> Option<Name> {
    let text = f(p, Use::Value)?;
    let span = match (p.first(), p.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => return None,
    };
    Some(Name { text, span })
}

/// Renames a single name (a target, a mode, a submodel) in place.
fn name(n: &mut Name, f: &mut Map<'_>) {
    if let Some(t) = f(std::slice::from_ref(n), Use::Value) {
        n.text = t;
    }
}

/// Renames every path of `e` in place.
pub(super) fn expr(e: &mut Expr, f: &mut Map<'_>) {
    match &mut e.kind {
        ExprKind::Path(p) => {
            if let Some(n) = path(p, f) {
                *p = vec![n];
            }
        }
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) => {}
        ExprKind::Call(callee, args) => {
            if let Some(t) = f(std::slice::from_ref(callee), Use::Callee) {
                callee.text = t;
            }
            args.iter_mut().for_each(|a| expr(a, f));
        }
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => expr(a, f),
        ExprKind::Binary(_, a, b) => {
            expr(a, f);
            expr(b, f);
        }
        ExprKind::Compare(a, rest) => {
            expr(a, f);
            rest.iter_mut().for_each(|(_, e)| expr(e, f));
        }
        // Expanded before the parts are flattened (`check::arrays`).
        ExprKind::Index(_, ix) => ix.iter_mut().for_each(|a| expr(a, f)),
        ExprKind::Reduce(_, g) => expr(&mut g.body, f),
    }
}

/// Renames every name a rule writes or reads, in place.
pub(super) fn rule(r: &mut Rule, f: &mut Map<'_>) {
    match r {
        Rule::Assign {
            target,
            value,
            guard,
            ..
        } => {
            name(target, f);
            expr(value, f);
            if let Guard::When(g) = guard {
                expr(g, f);
            }
        }
        Rule::Sigma { cond, actions, .. } => {
            expr(cond, f);
            for a in actions {
                match a {
                    Action::Set { path: p, .. } => {
                        if let Some(n) = path(p, f) {
                            *p = vec![n];
                        }
                    }
                    Action::Reset { sub, .. } => name(sub, f),
                    Action::Run { phase, .. } => name(phase, f),
                }
            }
        }
        Rule::Block { cond, rules, .. } => {
            expr(cond, f);
            rules.iter_mut().for_each(|r| rule(r, f));
        }
        Rule::Equation { lhs, rhs, .. } => {
            expr(lhs, f);
            expr(rhs, f);
        }
        Rule::Step { sub, .. } => name(sub, f),
        Rule::Transition {
            mode, guard, rules, ..
        } => {
            name(mode, f);
            if let Some(g) = guard {
                expr(g, f);
            }
            rules.iter_mut().for_each(|r| rule(r, f));
        }
        Rule::For(l) => l.rules.iter_mut().for_each(|r| rule(r, f)),
    }
}

/// Renames a declaration's name and the paths of its value, in place.
pub(super) fn decl(d: &mut Decl, f: &mut Map<'_>) {
    match d {
        Decl::Var { name: n, value, .. } => {
            name(n, f);
            if let Some(v) = value {
                expr(v, f);
            }
        }
        Decl::Mode { name: n, .. } => name(n, f),
        Decl::Table(t) => name(&mut t.name, f),
        Decl::Sub {
            name: n, bindings, ..
        } => {
            name(n, f);
            bindings.iter_mut().for_each(|(_, e)| expr(e, f));
        }
    }
}

/// The name a declaration declares.
pub(super) fn declared(d: &Decl) -> &Name {
    match d {
        Decl::Var { name, .. } | Decl::Mode { name, .. } | Decl::Sub { name, .. } => name,
        Decl::Table(t) => &t.name,
    }
}

/// Every name `e` reads (each path's segments joined by `.`).
pub(super) fn reads(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Path(p) => out.push(join(p)),
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) => {}
        ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, out)),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => reads(a, out),
        ExprKind::Binary(_, a, b) => {
            reads(a, out);
            reads(b, out);
        }
        ExprKind::Compare(a, rest) => {
            reads(a, out);
            rest.iter().for_each(|(_, e)| reads(e, out));
        }
        ExprKind::Index(path, ix) => {
            out.push(join(path));
            ix.iter().for_each(|a| reads(a, out));
        }
        ExprKind::Reduce(_, g) => reads(&g.body, out),
    }
}

/// Every name rule `r` reads and every name it writes.
pub(super) fn rule_names(r: &Rule, read: &mut Vec<String>, written: &mut Vec<String>) {
    match r {
        Rule::Assign {
            target,
            value,
            guard,
            ..
        } => {
            written.push(target.text.clone());
            reads(value, read);
            if let Guard::When(g) = guard {
                reads(g, read);
            }
        }
        Rule::Sigma { cond, actions, .. } => {
            reads(cond, read);
            for a in actions {
                if let Action::Set { path, .. } = a {
                    written.push(join(path));
                }
            }
        }
        Rule::Block { cond, rules, .. } => {
            reads(cond, read);
            rules.iter().for_each(|r| rule_names(r, read, written));
        }
        Rule::Equation { lhs, rhs, .. } => {
            reads(lhs, read);
            reads(rhs, read);
        }
        Rule::Step { .. } => {}
        Rule::Transition {
            mode, guard, rules, ..
        } => {
            written.push(mode.text.clone());
            if let Some(g) = guard {
                reads(g, read);
            }
            rules.iter().for_each(|r| rule_names(r, read, written));
        }
        Rule::For(l) => l.rules.iter().for_each(|r| rule_names(r, read, written)),
    }
}

/// The segments of a path joined by `.`.
pub(super) fn join(p: &[Name]) -> String {
    let mut s = String::new();
    for (i, n) in p.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(&n.text);
    }
    s
}
