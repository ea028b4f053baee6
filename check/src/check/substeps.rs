//! Checks of the `substeps N when C limit L;` declaration: a real count, a logical condition, a whole limit, one declaration per model.

use super::resolve::{Ctx, Resolver};
use crate::ast;
use crate::diag::Diagnostic;
use crate::ir::{Expr, Substeps, Ty};

/// The largest `limit` of a `substeps` declaration.
pub const MAX_SUBSTEPS: u64 = 1_000_000_000;

/// The value of a number literal, possibly in parentheses.
fn literal(e: &ast::Expr) -> Option<f64> {
    match &e.kind {
        ast::ExprKind::Num(x) | ast::ExprKind::Quantity(x, _) => Some(*x),
        ast::ExprKind::Paren(inner) => literal(inner),
        _ => None,
    }
}

impl Resolver<'_> {
    /// The model's sub-steps: E0454 for a count that is not real, E0455 for a
    /// condition that is not logical, E0456 for a limit that is not a whole number
    /// literal in range, E0457 for a second declaration.
    pub(super) fn substeps(&mut self, specs: &[ast::SubstepSpec]) -> Option<Substeps> {
        let first = specs.first()?;
        for s in &specs[1..] {
            self.err(
                Diagnostic::error("E0457", s.span, "the sub-steps are declared twice")
                    .with_label("second `substeps` declaration")
                    .with_related(first.span, "first declared here")
                    .with_help("a model has one count of sub-steps; choose it with an expression, such as `max(a, b)`"),
            );
        }
        let before = self.errors();
        let (count, ty) = self.any(&first.count, Ctx::Rule);
        if ty != Ty::Real && self.errors() == before {
            self.err(
                Diagnostic::error(
                    "E0454",
                    first.count.span,
                    "the number of sub-steps must be a real value",
                )
                .with_label("this is a logical value")
                .with_note("`substeps N when C limit L;` divides the step into `ceil(N)` sub-steps while `C` holds"),
            );
        }
        let when = match &first.when {
            None => Expr::Bool(true),
            Some(w) => {
                let before = self.errors();
                let (when, ty) = self.any(w, Ctx::Rule);
                if ty != Ty::Flag && self.errors() == before {
                    self.err(
                        Diagnostic::error(
                            "E0455",
                            w.span,
                            "the condition of the sub-steps must be a logical value",
                        )
                        .with_label("this is a real number")
                        .with_help("name a situation, or compare, as in `h < R`"),
                    );
                }
                when
            }
        };
        let limit = match literal(&first.limit) {
            Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= MAX_SUBSTEPS as f64 => n as u64,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0456",
                        first.limit.span,
                        format!(
                            "the limit of the sub-steps must be a whole number literal from 1 to {MAX_SUBSTEPS}"
                        ),
                    )
                    .with_label("expected the most sub-steps of one step, such as `10000`")
                    .with_note("a step whose count exceeds it stops the model with an error"),
                );
                1
            }
        };
        Some(Substeps {
            count,
            when,
            limit,
            span: first.span,
        })
    }
}
