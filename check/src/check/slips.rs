//! Errors with help for two newcomer slips: a flag given a value by a δ rule, a flag as a procedure's rate.

use super::Sym;
use super::resolve::{Ctx, Resolver};
use crate::ast::{self, ExprKind, Guard, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;

/// Longest piece of the user's text quoted in a help line.
const QUOTE_MAX: usize = 40;

impl Resolver<'_> {
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
        let before = self.errors();
        let (_, ty) = self.any(value, Ctx::Rule);
        if let Guard::When(g) = guard {
            let _ = self.expr(g, Ty::Flag, Ctx::Rule);
        }
        let own_errors = self.errors() > before;
        let q = &target.text;
        let text = self.quote(value.span);
        // `q = true;` (or `false`), in a block or under a guard: a σ action.
        let constant = match strip_parens(value) {
            ExprKind::Bool(b) => Some(*b),
            _ => None,
        };
        let mut conds: Vec<Span> = self.blocks.clone();
        if let Guard::When(g) = guard {
            conds.push(g.span);
        }
        let when = (conds.iter())
            .map(|s| {
                self.quote(*s)
                    .map(|c| if conds.len() > 1 { format!("({c})") } else { c })
            })
            .collect::<Option<Vec<_>>>()
            .filter(|cs| !cs.is_empty())
            .map(|cs| cs.join(" & "));
        if let (Some(b), false) = (constant, own_errors) {
            let action = if b { q.clone() } else { format!("!{q}") };
            let rule = match &when {
                Some(c) => format!("`when {c} => {action};`"),
                None => format!("`when CONDITION => {action};`"),
            };
            self.err(
                Diagnostic::error(
                    "E0171",
                    target.span,
                    format!("`{q}` is a flag and cannot be the target of a δ rule"),
                )
                .with_label("flags are set by σ rules")
                .with_help(if self.blocks.is_empty() {
                    format!("set it with the σ rule {rule}")
                } else {
                    format!("set it with the σ rule {rule}, outside the block")
                }),
            );
            return;
        }
        let guarded = !self.blocks.is_empty() || matches!(guard, Guard::When(_));
        let help = match (ty, own_errors, text, guarded) {
            (Ty::Flag, false, Some(c), false) => {
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
        let before = self.errors();
        let (x, ty) = self.any(e, Ctx::Rule);
        if ty == Ty::Real {
            return x;
        }
        if self.errors() == before {
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

#[cfg(test)]
mod tests {
    /// The (code, underlined text, help) of the errors of `model M { body }`.
    fn errors(body: &str) -> Vec<(&'static str, String, String)> {
        let out = crate::check_source("m.sit", &format!("model M {{\n{body}\n}}\n"));
        out.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let text = out.sources.text(d.span).to_string();
                (d.code, text, d.help.clone().unwrap_or_default())
            })
            .collect()
    }

    #[test]
    fn a_flag_given_a_condition_is_a_pred_or_a_situation() {
        let e = errors("output real level = 1; output flag dry; dry = level <= 0;");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].0, e[0].1.as_str()), ("E0171", "dry"));
        assert!(e[0].2.contains("`pred dry = level <= 0;`"), "{}", e[0].2);
        assert!(e[0].2.contains("`when level <= 0 => dry;`"), "{}", e[0].2);
        let e = errors("input flag a, b; output flag both; both = a & b;");
        assert!(e[0].2.contains("`situation both = a & b;`"), "{}", e[0].2);
        // A real value keeps the general help.
        let e = errors("output real x; output flag low; low = 1 when x < 0;");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].2.contains("`when CONDITION => low;`"), "{}", e[0].2);
    }

    #[test]
    fn a_flag_set_to_a_constant_is_a_sigma_action_under_the_guards() {
        let e = errors(
            "output real y; output flag q, r, s;\n\
             when y > 1 { q = true; when y > 2 { r = false; } }\n\
             s = true when y > 3;",
        );
        let helps: Vec<&str> = e.iter().map(|x| x.2.as_str()).collect();
        assert_eq!(
            helps,
            [
                "set it with the σ rule `when y > 1 => q;`, outside the block",
                "set it with the σ rule `when (y > 1) & (y > 2) => !r;`, outside the block",
                "set it with the σ rule `when y > 3 => s;`",
            ]
        );
    }

    #[test]
    fn a_flag_as_a_rate_is_made_a_real_first() {
        let e = errors("input flag running; output real on_time; on_time = integral(running);");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].0, e[0].1.as_str()), ("E0160", "running"));
        assert!(
            e[0].2.contains("`x = 1 when running; x = 0 otherwise;`")
                && e[0].2.ends_with("`integral(x)`"),
            "{}",
            e[0].2
        );
        let e = errors("input flag u; output real y; y = lag(u, 1);");
        assert!(e[0].2.ends_with("`lag(x, …)`"), "{}", e[0].2);
        // Other arguments keep the ordinary type error.
        let e = errors("input flag u; output real y; y = lag(1, u);");
        assert_eq!(e[0].0, "E0160");
        assert!(!e[0].2.contains("otherwise"), "{}", e[0].2);
    }
}
