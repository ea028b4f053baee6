//! Expressions of the IR to Rust tokens, operation for operation, parenthesised by the tree.

use crate::lints::Lints;
use crate::names::ident;
use crate::plan::{ModelNames, Plan};
use proc_macro2::TokenStream;
use quote::quote;
use sit_parser::ir::{ArithOp, CmpOp, Expr, ModelId, VarKind};

/// Binding strength of a generated Rust expression (higher binds tighter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Or,
    And,
    Cmp,
    Add,
    Mul,
    Unary,
    Atom,
}

/// The shortest text that reads back as exactly `n` (`n` finite and not negative),
/// always recognisable as a float literal: `400.0`, `0.1`, `1e300`, `1.5e-7`.
pub(crate) fn float_text(n: f64) -> String {
    let plain = n.to_string();
    let use_exp = n != 0.0 && !(1e-5..1e16).contains(&n);
    if use_exp {
        format!("{n:e}")
    } else if plain.contains('.') {
        plain
    } else {
        format!("{plain}.0")
    }
}

/// Generates expressions of one model, reading through `recv` (`self` or a local).
pub(crate) struct ExprGen<'a> {
    /// Every model's names.
    pub plan: &'a Plan<'a>,
    /// The model whose scope the expression is in.
    pub model: ModelId,
    /// The receiver: `self`, or `this` in `new()`.
    pub recv: TokenStream,
}

impl ExprGen<'_> {
    fn names(&self) -> &ModelNames {
        &self.plan.names[self.model]
    }

    /// The tokens of `e`, and the lints they trigger added to `lints`.
    pub(crate) fn expr(&self, e: &Expr, lints: &mut Lints) -> TokenStream {
        lints.check_tree(e);
        self.lower(e).0
    }

    /// Reading variable `var` of model `model` through the path `base`.
    pub(crate) fn var_read(
        plan: &Plan<'_>,
        model: ModelId,
        var: usize,
        base: &TokenStream,
    ) -> TokenStream {
        let m = &plan.program.models[model];
        let name = ident(&plan.names[model].vars[var]);
        match m.vars[var].kind {
            VarKind::Param { derived: true } => quote!(#base.#name()),
            _ => quote!(#base.#name),
        }
    }

    fn lower(&self, e: &Expr) -> (TokenStream, Prec) {
        let r = &self.recv;
        let n = self.names();
        let atom = |t: TokenStream| (t, Prec::Atom);
        match e {
            Expr::Num(v) => num(*v),
            Expr::Bool(b) => atom(quote!(#b)),
            Expr::Var(v) => atom(Self::var_read(self.plan, self.model, *v, r)),
            Expr::Cond(c) => {
                let f = ident(&n.conds[*c]);
                atom(quote!(#r.#f()))
            }
            Expr::Event(ev) => {
                let f = ident(&n.event_fields[*ev]);
                atom(quote!(#r.#f))
            }
            Expr::SubVar(s, v) => {
                let sub = ident(&n.subs[*s]);
                let sm = self.plan.program.models[self.model].subs[*s].model;
                atom(Self::var_read(self.plan, sm, *v, &quote!(#r.#sub)))
            }
            Expr::SubCond(s, c) => {
                let sub = ident(&n.subs[*s]);
                let sm = self.plan.program.models[self.model].subs[*s].model;
                let f = ident(&self.plan.names[sm].conds[*c]);
                atom(quote!(#r.#sub.#f()))
            }
            Expr::SubEvent(s, ev) => {
                let sub = ident(&n.subs[*s]);
                let sm = self.plan.program.models[self.model].subs[*s].model;
                let f = ident(&self.plan.names[sm].events[*ev]);
                atom(quote!(#r.#sub.#f()))
            }
            Expr::SubOn(s) => {
                let f = ident(&n.sub_on[*s]);
                atom(quote!(#r.#f))
            }
            Expr::Time => {
                let f = ident(&n.time);
                atom(quote!(#r.#f))
            }
            Expr::Dt => {
                let f = ident(&n.dt);
                atom(quote!(#r.#f))
            }
            Expr::Neg(a) => {
                let t = self.unary_operand(a);
                (quote!(-#t), Prec::Unary)
            }
            Expr::Not(a) => {
                let t = self.unary_operand(a);
                (quote!(!#t), Prec::Unary)
            }
            Expr::Arith(ArithOp::Pow, a, b) => {
                let (a, b) = (self.lower(a).0, self.lower(b).0);
                atom(quote!(::sit_runtime::math::pow(#a, #b)))
            }
            Expr::Arith(op, a, b) => {
                let (tok, prec) = match op {
                    ArithOp::Add => (quote!(+), Prec::Add),
                    ArithOp::Sub => (quote!(-), Prec::Add),
                    ArithOp::Mul => (quote!(*), Prec::Mul),
                    _ => (quote!(/), Prec::Mul),
                };
                self.binary(tok, prec, a, b, false)
            }
            Expr::Cmp(op, a, b) => {
                let tok = match op {
                    CmpOp::Lt => quote!(<),
                    CmpOp::Le => quote!(<=),
                    CmpOp::Gt => quote!(>),
                    CmpOp::Ge => quote!(>=),
                    CmpOp::Eq => quote!(==),
                    CmpOp::Ne => quote!(!=),
                };
                self.binary(tok, Prec::Cmp, a, b, true)
            }
            Expr::And(a, b) => self.binary(quote!(&&), Prec::And, a, b, false),
            Expr::Or(a, b) => self.binary(quote!(||), Prec::Or, a, b, false),
            Expr::Call(f, args) => {
                let name = ident(f.name());
                let args = args.iter().map(|a| self.lower(a).0);
                let path = if f.is_math() {
                    quote!(::sit_runtime::math::#name)
                } else {
                    quote!(::sit_runtime::#name)
                };
                atom(quote!(#path(#(#args),*)))
            }
        }
    }

    /// The operand of `-` or `!`: parenthesised unless it is an atom, so that `-(-x)`
    /// and `!(a && b)` keep the tree's meaning.
    fn unary_operand(&self, a: &Expr) -> TokenStream {
        let (t, p) = self.lower(a);
        if p == Prec::Atom { t } else { quote!((#t)) }
    }

    /// `a op b` with the operands parenthesised where the tree requires it: the left one
    /// when it binds more loosely, the right one also at equal strength (the tree's
    /// grouping is kept, even where the algebra would allow regrouping), and both at
    /// equal strength for comparisons, which do not chain in Rust.
    fn binary(
        &self,
        op: TokenStream,
        prec: Prec,
        a: &Expr,
        b: &Expr,
        non_assoc: bool,
    ) -> (TokenStream, Prec) {
        let (at, ap) = self.lower(a);
        let (bt, bp) = self.lower(b);
        let at = if ap < prec || (non_assoc && ap == prec) {
            quote!((#at))
        } else {
            at
        };
        let bt = if bp <= prec { quote!((#bt)) } else { bt };
        (quote!(#at #op #bt), prec)
    }
}

/// A real literal: `-x` for negative values (`-0.0` included), named constants for
/// infinities and NaN; `true` when it is a negation (unary precedence), so that the
/// scalar and the batch generators can each map it to their own precedence.
pub(crate) fn literal(v: f64) -> (TokenStream, bool) {
    if v.is_nan() {
        return (quote!(f64::NAN), false);
    }
    let lit = if v.is_infinite() {
        quote!(f64::INFINITY)
    } else {
        let text = float_text(v.abs());
        let lit = syn::LitFloat::new(&text, proc_macro2::Span::call_site());
        quote!(#lit)
    };
    if v.is_sign_negative() {
        (quote!(-#lit), true)
    } else {
        (lit, false)
    }
}

fn num(v: f64) -> (TokenStream, Prec) {
    let (t, negated) = literal(v);
    (t, if negated { Prec::Unary } else { Prec::Atom })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_texts_read_back() {
        for v in [
            0.0,
            1.0,
            400.0,
            0.1,
            1e300,
            1.5e-7,
            123456.789,
            5e-324,
            f64::MAX,
            1e15,
            1e16,
        ] {
            let t = float_text(v);
            assert_eq!(t.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{t}");
            assert!(t.contains('.') || t.contains('e'), "{t}");
        }
        assert_eq!(float_text(400.0), "400.0");
        assert_eq!(float_text(1e300), "1e300");
    }
}
