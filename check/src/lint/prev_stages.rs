//! W0243: under a method with stages, a rate that reads `prev` of a continuous state, which is the same at every stage and so makes the step first order in it.

use super::Cx;
use crate::diag::Diagnostic;
use crate::ir::{Expr, Method, Rhs, Stmt, VarId};

impl Cx<'_> {
    /// W0243 at each `integral` or `lag` rule whose rate reads `prev(y)` of a continuous
    /// state `y` of the model (a target of `integral` or `lag`), under every method but
    /// `euler`: once per rule and state.
    pub(super) fn prev_in_stages(&self, diags: &mut Vec<Diagnostic>) {
        let m = self.m;
        if m.method == Method::Euler {
            return;
        }
        let continuous = |rhs: &Rhs| {
            matches!(
                rhs,
                Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
            )
        };
        let mut states: Vec<VarId> = Vec::new();
        crate::ir::walk(&m.body, &mut |s| {
            if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
                && continuous(&a.rhs)
            {
                states.push(a.target);
            }
        });
        let method = m.method.name();
        crate::ir::walk(&m.body, &mut |s| {
            let (Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. }) = s else {
                return;
            };
            if !continuous(&a.rhs) {
                return;
            }
            let mut read: Vec<VarId> = Vec::new();
            for e in a.rhs.operands() {
                e.visit(&mut |x| {
                    if let Expr::Prev(v) = *x
                        && states.contains(&v)
                        && !read.contains(&v)
                    {
                        read.push(v);
                    }
                });
            }
            for v in read {
                let name = self.var_name(v);
                diags.push(
                    Diagnostic::warning(
                        "W0243",
                        a.span,
                        format!(
                            "under `method {method}`, this rate reads `prev({name})`, the value \
                             of the step's start at every stage"
                        ),
                    )
                    .with_label(format!("`prev({name})` is not `{name}` at the stages"))
                    .with_note(format!(
                        "`{name}` is a continuous state: the stages of `{method}` evaluate the \
                         rates on its values within the step, but `prev({name})` stays as it \
                         was when the step began, so the step is first order in it whatever \
                         the method's order (under `euler`, the one evaluation per step reads \
                         the same value either way)"
                    ))
                    .with_help(format!(
                        "read `{name}` itself for the method's order; if the delay of a whole \
                         step is meant, say so with `#[allow(W0243, reason = \"…\")]` before \
                         the rule"
                    )),
                );
            }
        });
    }
}
