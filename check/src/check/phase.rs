//! Checks of instantaneous phases: the step, the limit and the end condition of a `phase` declaration, and the `run` action.

use super::Sym;
use super::resolve::{Ctx, Resolver};
use crate::ast;
use crate::diag::Diagnostic;
use crate::ir::{Phase, Stmt, Ty};
use crate::source::Span;

/// The most steps a phase may be given (`limit`).
pub const MAX_PHASE_STEPS: u64 = 1_000_000_000;

/// The value of a number literal, possibly in parentheses.
fn literal(e: &ast::Expr) -> Option<f64> {
    match &e.kind {
        ast::ExprKind::Num(x) | ast::ExprKind::Quantity(x, _) => Some(*x),
        ast::ExprKind::Paren(inner) => literal(inner),
        _ => None,
    }
}

impl Resolver<'_> {
    /// The step, limit and end condition of a phase; errors are reported and give a
    /// placeholder (the program is then not returned).
    pub(super) fn phase(&mut self, spec: &ast::PhaseSpec) -> Phase {
        let step = match literal(&spec.step) {
            Some(h) if h > 0.0 && h.is_finite() => h,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0450",
                        spec.step.span,
                        "a phase's step must be a positive number literal",
                    )
                    .with_label("expected a number such as `1e-4`")
                    .with_note("the phase's own step, fixed for every run"),
                );
                1.0
            }
        };
        let limit = match literal(&spec.limit) {
            Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= MAX_PHASE_STEPS as f64 => n as u64,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0451",
                        spec.limit.span,
                        format!(
                            "a phase's limit must be a whole number literal from 1 to {MAX_PHASE_STEPS}"
                        ),
                    )
                    .with_label("expected the most steps of one run, such as `100000`")
                    .with_note("a run that takes more steps stops the model with an error"),
                );
                1
            }
        };
        let until = self.expr(&spec.until, Ty::Flag, Ctx::Rule);
        Phase { step, limit, until }
    }

    /// The σ action `run(name)`.
    pub(super) fn run_action(&mut self, name: &ast::Name, span: Span) -> Option<Stmt> {
        match self.t().names.get(&name.text).copied() {
            Some(Sym::Sub(s)) if self.t().subs[s].phase.is_some() => {
                Some(Stmt::Run { sub: s, span })
            }
            Some(_) => {
                let mut d = Diagnostic::error(
                    "E0452",
                    name.span,
                    format!("`run` takes a phase, and `{}` is not one", name.text),
                )
                .with_label("not a phase");
                if matches!(self.t().names.get(&name.text), Some(Sym::Sub(_))) {
                    d = d.with_help(format!(
                        "declare it `phase {}: ... step h limit n until c;` to run it to its end in one step",
                        name.text
                    ));
                }
                self.err(d);
                None
            }
            None => {
                self.unknown(name, Ctx::Rule);
                None
            }
        }
    }

    /// E0453 if `s` is a phase switched by a σ action (phases are run, not switched).
    pub(super) fn switch_of_phase(&mut self, s: usize, span: Span) -> bool {
        if self.t().subs[s].phase.is_none() {
            return false;
        }
        self.err(
            Diagnostic::error(
                "E0453",
                span,
                format!(
                    "the phase `{}` cannot be switched on or off",
                    self.t().subs[s].name.text
                ),
            )
            .with_label("a phase is never stepped with its parent")
            .with_help(format!("run it with `run({})`", self.t().subs[s].name.text)),
        );
        true
    }
}
