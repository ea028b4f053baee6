//! Errors with help for two newcomer slips: a flag given a value by a δ rule, a flag as a procedure's rate.

use super::Sym;
use super::lower::{Ctx, Lowerer};
use crate::ast::{self, ExprKind, Guard, Name};
use crate::diag::Diagnostic;
use crate::ir::*;

/// Longest piece of the user's text quoted in a help line.
const QUOTE_MAX: usize = 40;

impl Lowerer<'_> {
    /// Whether `target` names a flag state of this model.
    pub(super) fn is_flag_state(&self, target: &Name) -> bool {
        match self.t().names.get(&target.text) {
            Some(Sym::Var(v)) => {
                let var = &self.t().vars[*v];
                var.kind == VarKind::State && var.ty == Ty::Flag
            }
            _ => false,
        }
    }

    /// `target` is a flag: E0171, once. The value and guard are still
    /// checked for errors of their own; a logical value is not one, and the
    /// help then suggests what a flag that follows a condition is: a pred
    /// or a situation.
    pub(super) fn flag_rule(&mut self, target: &Name, value: &ast::Expr, guard: &Guard) {
        let before = self.diags.len();
        let (_, ty) = self.any(value, Ctx::Rule);
        if let Guard::When(g) = guard {
            let _ = self.expr(g, Ty::Flag, Ctx::Rule);
        }
        let own_errors = self.diags.len() > before;
        let q = &target.text;
        let text = self.quote(value.span);
        let help = match (ty, own_errors, text, guard) {
            (Ty::Flag, false, Some(c), Guard::None) => {
                let kind = if matches!(strip_parens(value), ExprKind::Compare(..)) {
                    "pred"
                } else {
                    "situation"
                };
                format!(
                    "to have `{q}` follow `{c}` at every step, declare it as `{kind} {q} = {c};` \
                     instead of a flag; to latch it, write the σ rule `when {c} => {q};`"
                )
            }
            (Ty::Flag, false, Some(c), _) => format!(
                "a flag keeps its value until a σ rule changes it: `when {c} => {q};` sets it, \
                 `when … => !{q};` clears it"
            ),
            _ => format!(
                "write `when CONDITION => {q};` to set it and `when CONDITION => !{q};` to clear it"
            ),
        };
        self.err(
            Diagnostic::error(
                "E0171",
                target.span,
                format!("`{q}` is a flag and cannot be the target of a δ rule"),
            )
            .with_label("flags are set by σ rules")
            .with_help(help),
        );
    }

    /// The real argument `e` of the stateful procedure `proc` (its rate or
    /// input). A logical value gets E0160 with help that turns it into a
    /// real: `x = 1 when q; x = 0 otherwise;`.
    pub(super) fn proc_input(&mut self, proc: &str, args: &[ast::Expr]) -> Expr {
        let e = &args[0];
        let before = self.diags.len();
        let (x, ty) = self.any(e, Ctx::Rule);
        if ty == Ty::Real {
            return x;
        }
        if self.diags.len() == before {
            let c = self.quote(e.span).unwrap_or_else(|| "c".into());
            let call = if args.len() == 1 {
                format!("{proc}(x)")
            } else {
                format!("{proc}(x, …)")
            };
            self.err(
                Diagnostic::error(
                    "E0160",
                    e.span,
                    format!("`{proc}` takes a real value, found the logical `{c}`"),
                )
                .with_label("this is a logical value")
                .with_help(format!(
                    "make a real of it first: `x = 1 when {c}; x = 0 otherwise;` \
                     (with `real x;` declared), then `{call}`"
                )),
            );
        }
        Expr::Num(0.0)
    }

    /// The text of `span` on one line, if short enough to quote.
    fn quote(&self, span: crate::source::Span) -> Option<String> {
        let s = self.sources.text(span);
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty() && s.chars().count() <= QUOTE_MAX).then_some(s)
    }
}

/// The expression inside any brackets.
fn strip_parens(e: &ast::Expr) -> &ExprKind {
    match &e.kind {
        ExprKind::Paren(inner) => strip_parens(inner),
        k => k,
    }
}
