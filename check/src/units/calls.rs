//! The unit rules of the runtime library's functions (`sin`, `sqrt`, `min`, `limit`, …),
//! of `^`, and of a table read, in an expression.

use super::Unit;
use super::check::{ModelCheck, Name, literal, radian};
use super::report;
use super::show::{fmt_num, fraction_error, root_pow};
use super::solve::{Term, same_dimension};
use crate::Span;
use crate::ast::{self, Expr};
use crate::ir::Func;

impl ModelCheck<'_> {
    /// `a ^ b`: a whole number literal exponent composes; a fraction needs a unit that
    /// divides; any other exponent needs a dimensionless base.
    pub(super) fn pow(&mut self, ta: Term, a: &Expr, tb: Term, b: &Expr, at: Span) -> Term {
        let ta = self.solver.resolve(ta);
        match literal(b) {
            Some(n) => match ta {
                Term::Known(u, _, a) => match root_pow(&u, n) {
                    Some(p) => Term::Known(p, None, a),
                    None if n.fract() == 0.0 => Term::Free, // a power too large to follow
                    None => {
                        if self.report && a {
                            self.errors.push(fraction_error(
                                at,
                                &self.show(&u),
                                &format!("`^ {}`", fmt_num(n)),
                            ));
                        }
                        Term::Free
                    }
                },
                Term::Of(c, r) if n == 1.0 => Term::Of(c, r),
                Term::Lit => Term::Lit,
                _ => Term::Free,
            },
            None => {
                self.function_arg(
                    &ta,
                    a.span,
                    "the base of `^` with an exponent that is not a number",
                );
                self.function_arg(&tb, b.span, "the exponent of `^`");
                match ta {
                    Term::Lit => Term::Lit,
                    _ => Term::Known(Unit::ONE, None, false),
                }
            }
        }
    }

    pub(super) fn call(&mut self, f: &ast::Name, args: &[Expr], at: Span) -> Term {
        let before = self.reads_len();
        let t = self.call_unit(f, args, at);
        // A table's values, or a plain number (`sin`, `exp`, `sign`), do not have the
        // unit of the arguments: a conflict outside the call does not point at their
        // declarations.
        let plain = matches!(&t, Term::Known(u, None, false) if u.is_dimensionless());
        if plain || matches!(self.names.get(f.text.as_str()), Some(Name::Table(_))) {
            self.forget_reads(before);
        }
        t
    }

    fn call_unit(&mut self, f: &ast::Name, args: &[Expr], at: Span) -> Term {
        let ts: Vec<Term> = args.iter().map(|a| self.expr(a)).collect();
        let arg = |i: usize| ts.get(i).cloned().unwrap_or(Term::Free);
        let span = |i: usize| args.get(i).map_or(at, |a| a.span);
        if f.text == "prev" {
            return arg(0);
        }
        if let Some(&Name::Table(i)) = self.names.get(f.text.as_str()) {
            return self.table_read(i, &ts, args);
        }
        let Some(func) = Func::from_name(&f.text) else {
            return Term::Free;
        };
        let name = func.name();
        let one = Term::Known(Unit::ONE, None, false);
        match func {
            // Written only by the lowering, never found by name.
            Func::Partial(_) | Func::InvRoot => Term::Free,
            Func::Abs | Func::Floor | Func::Ceil | Func::Round => arg(0),
            Func::Sign => match arg(0) {
                Term::Lit => Term::Lit,
                _ => one,
            },
            Func::Sqrt => match self.solver.resolve(arg(0)) {
                Term::Known(u, _, a) => match root_pow(&u, 0.5) {
                    Some(p) => Term::Known(p, None, a),
                    None => {
                        if self.report && a {
                            self.errors
                                .push(fraction_error(at, &self.show(&u), "`sqrt`"));
                        }
                        Term::Free
                    }
                },
                Term::Lit => Term::Lit,
                _ => Term::Free,
            },
            Func::Exp | Func::Ln | Func::Log10 | Func::Sinh | Func::Cosh | Func::Tanh => {
                self.function_arg(&arg(0), span(0), &format!("the argument of `{name}`"));
                if matches!(arg(0), Term::Lit) {
                    Term::Lit
                } else {
                    one
                }
            }
            Func::Sin | Func::Cos | Func::Tan => {
                let rad = Term::Known(radian(), None, false);
                self.require(&arg(0), &rad, span(0), &format!("the angle of `{name}`"));
                if matches!(arg(0), Term::Lit) {
                    Term::Lit
                } else {
                    one
                }
            }
            Func::Asin | Func::Acos | Func::Atan => {
                self.function_arg(&arg(0), span(0), &format!("the argument of `{name}`"));
                Term::Known(radian(), None, false)
            }
            Func::Atan2 => {
                self.require(&arg(1), &arg(0), span(1), "the arguments of `atan2`");
                Term::Known(radian(), None, false)
            }
            Func::Min | Func::Max | Func::Hypot | Func::Deadzone => {
                let what = format!("the arguments of `{name}`");
                self.same_of(&arg(0), &arg(1), span(1), &what)
            }
            Func::Limit => {
                let what = "the arguments of `limit`";
                let t = self.same_of(&arg(0), &arg(1), span(1), what);
                self.same_of(&t, &arg(2), span(2), what)
            }
            Func::Relay => arg(1),
            Func::Pow => {
                let (a, b) = (&args[0], &args[1]);
                self.pow(arg(0), a, arg(1), b, at)
            }
        }
    }

    /// Require a dimensionless value (an angle in `rad` counts as one).
    pub(super) fn function_arg(&mut self, t: &Term, at: Span, what: &str) {
        let t = self.solver.resolve(t.clone());
        if let Term::Known(u, o, true) = &t
            && !same_dimension(u, &Unit::ONE)
        {
            if self.report {
                let d = report::not_plain(at, what, &self.show(u), o.as_ref());
                self.errors.push(d);
            }
            return;
        }
        self.require(&t, &Term::Known(Unit::ONE, None, false), at, what);
    }
}
