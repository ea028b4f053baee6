//! The unit rules of the stateful procedures (`integral`, `deriv`, `lag`, `hysteresis`,
//! `timer`) written as the whole right-hand side of a rule.

use super::Unit;
use super::check::{ModelCheck, seconds};
use super::solve::Term;
use crate::Span;
use crate::ast::Expr;
use crate::check::Stateful;

impl ModelCheck<'_> {
    /// A stateful procedure as the whole right-hand side of a rule for `target`.
    pub(super) fn stateful(
        &mut self,
        s: Stateful,
        args: &[Expr],
        target: &str,
        target_term: &Term,
        at: Span,
    ) {
        let ts: Vec<Term> = args.iter().map(|a| self.expr(a)).collect();
        let sec = Term::Known(seconds(), None, false);
        let arg = |i: usize| ts.get(i).cloned().unwrap_or(Term::Free);
        let what = |w: &str| format!("{w} of `{target}`");
        // A literal rate or signal takes the unit its target needs.
        let literal_input = matches!(ts.first(), Some(Term::Lit));
        match s {
            Stateful::Integral => {
                for (i, a) in args.iter().enumerate().skip(1) {
                    self.require(&ts[i], target_term, a.span, &what("a bound"));
                }
                if literal_input {
                    return;
                }
                // An absolute temperature (`degC`) integrates a rate of differences (`K/s`).
                let target_term = &match self.solver.resolve(target_term.clone()) {
                    Term::Known(u, o, a) if u.offset != 0.0 => {
                        Term::Known(Unit { offset: 0.0, ..u }, o, a)
                    }
                    t => t,
                };
                let rate = self.mul(&arg(0), &sec, false);
                self.require(
                    &rate,
                    target_term,
                    args.first().map_or(at, |a| a.span),
                    &what("the integral (the rate times `s`) giving the value"),
                );
            }
            Stateful::Deriv if literal_input => {}
            Stateful::Deriv => {
                let d = self.mul(&arg(0), &sec, true);
                self.require(
                    &d,
                    target_term,
                    args.first().map_or(at, |a| a.span),
                    &what("the derivative (the signal per `s`) giving the value"),
                );
            }
            Stateful::Lag => {
                if let Some(a) = args.get(1) {
                    self.require(&ts[1], &sec, a.span, "the time constant of `lag`");
                }
                let out = match args.get(2) {
                    Some(_) => self.mul(&arg(0), &arg(2), false),
                    None => arg(0),
                };
                let span = args.first().map_or(at, |a| a.span);
                self.require(
                    &out,
                    target_term,
                    span,
                    &what("the lagged input giving the value"),
                );
            }
            Stateful::Hysteresis => {
                for i in [1, 2] {
                    if let Some(a) = args.get(i) {
                        self.require(
                            &ts[i],
                            &arg(0),
                            a.span,
                            "a threshold of `hysteresis` against its input",
                        );
                    }
                }
                if let Some(a) = args.get(3) {
                    self.require(
                        &ts[3],
                        target_term,
                        a.span,
                        &what("the amplitude giving the value"),
                    );
                }
            }
            Stateful::Timer => {
                self.require(
                    &sec,
                    target_term,
                    at,
                    &what("the time of `timer` giving the value"),
                );
            }
        }
    }
}
