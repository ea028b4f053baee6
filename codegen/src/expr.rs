//! Lowered terms to Rust tokens, operation for operation, parenthesised by the tree, for struct fields or lanes.

use crate::names::ident;
use crate::plan::Plan;
use crate::tokens::{cat, commas, parens};
use proc_macro2::TokenStream;
use quote::quote;
use sit_parser::ir::{ArithOp, CmpOp, ModelId};
use sit_parser::lower::{Place, Slot, Term};

/// Binding strength of a generated Rust expression (higher binds tighter): Rust's own
/// order, so that one table serves `&&`/`||` (struct fields) and `&`/`|` (lanes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Prec {
    Or,
    And,
    Cmp,
    BitOr,
    BitAnd,
    Add,
    Mul,
    Unary,
    Atom,
}

/// Where the values an expression reads are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// The fields of one model struct; a submodel's event through its method.
    Fields,
    /// Lane `i` of the arrays of a batch struct. Logical `&` and `|` are written
    /// without short circuit (expressions have no side effects: the values are those
    /// of `&&` and `||`, without a branch).
    Lanes,
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
    /// Fields or lanes.
    pub storage: Storage,
}

impl ExprGen<'_> {
    /// The tokens of `t`.
    pub(crate) fn expr(&self, t: &Term) -> TokenStream {
        self.lower(t).0
    }

    /// The tokens of `t` and their binding strength.
    pub(crate) fn lower(&self, t: &Term) -> (TokenStream, Prec) {
        let atom = |t: TokenStream| (t, Prec::Atom);
        match t {
            Term::Num(v) => num(*v),
            Term::Bool(b) => atom(quote!(#b)),
            Term::Read(p) => atom(self.place(p)),
            Term::Derived(p) => {
                let (base, model) = self.base(&p.path);
                let Slot::Var(v) = p.slot else {
                    return atom(self.place(p));
                };
                let f = ident(&self.plan.names[model].vars[v]);
                atom(quote!(#base.#f()))
            }
            Term::Cond(path, c) => {
                let (base, model) = self.base(path);
                let f = ident(&self.plan.names[model].conds[*c]);
                atom(quote!(#base.#f()))
            }
            Term::Neg(a) => {
                let t = self.unary_operand(a);
                (cat(quote!(-), t), Prec::Unary)
            }
            Term::Not(a) => {
                let t = self.unary_operand(a);
                (cat(quote!(!), t), Prec::Unary)
            }
            Term::Arith(ArithOp::Pow, a, b) => {
                let args = commas([self.expr(a), self.expr(b)]);
                atom(cat(quote!(::sit_runtime::math::pow), parens(args)))
            }
            Term::Arith(op, a, b) => {
                let (tok, prec) = match op {
                    ArithOp::Add => (quote!(+), Prec::Add),
                    ArithOp::Sub => (quote!(-), Prec::Add),
                    ArithOp::Mul => (quote!(*), Prec::Mul),
                    _ => (quote!(/), Prec::Mul),
                };
                self.binary(tok, prec, a, b, false)
            }
            Term::Cmp(op, a, b) => {
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
            Term::And(a, b) => match self.storage {
                Storage::Fields => self.binary(quote!(&&), Prec::And, a, b, false),
                Storage::Lanes => self.binary(quote!(&), Prec::BitAnd, a, b, false),
            },
            Term::Or(a, b) => match self.storage {
                Storage::Fields => self.binary(quote!(||), Prec::Or, a, b, false),
                Storage::Lanes => self.binary(quote!(|), Prec::BitOr, a, b, false),
            },
            Term::Call(f, args) => {
                let name = ident(f.name());
                let args = commas(args.iter().map(|a| self.expr(a)));
                let path = if f.is_math() {
                    quote!(::sit_runtime::math::#name)
                } else {
                    quote!(::sit_runtime::#name)
                };
                atom(cat(path, parens(args)))
            }
        }
    }

    /// The instance at `path` (`self.roll.wheel`) and its model.
    pub(crate) fn base(&self, path: &[usize]) -> (TokenStream, ModelId) {
        let mut base = self.recv.clone();
        let mut model = self.model;
        for &s in path {
            let f = ident(&self.plan.names[model].subs[s]);
            base = quote!(#base.#f);
            model = self.plan.program.models[model].subs[s].model;
        }
        (base, model)
    }

    /// Reading the stored value `p`.
    pub(crate) fn place(&self, p: &Place) -> TokenStream {
        let (base, model) = self.base(&p.path);
        let n = &self.plan.names[model];
        let f = match p.slot {
            Slot::Var(v) => ident(&n.vars[v]),
            // A submodel's event field is private to its struct's impl.
            Slot::Event(e) if self.storage == Storage::Fields && !p.path.is_empty() => {
                let f = ident(&n.events[e]);
                return quote!(#base.#f());
            }
            Slot::Event(e) => ident(&n.event_fields[e]),
            Slot::On(s) => ident(&n.sub_on[s]),
            Slot::Time => ident(&n.time),
            Slot::Dt => ident(&n.dt),
        };
        match self.storage {
            Storage::Fields => quote!(#base.#f),
            Storage::Lanes => quote!(#base.#f[i]),
        }
    }

    /// The operand of `-` or `!`: parenthesised unless it is an atom, so that `-(-x)`
    /// and `!(a && b)` keep the tree's meaning.
    fn unary_operand(&self, a: &Term) -> TokenStream {
        let (t, p) = self.lower(a);
        if p == Prec::Atom { t } else { parens(t) }
    }

    /// `a op b` with the operands parenthesised where the tree requires it: the left one
    /// when it binds more loosely, the right one also at equal strength (the tree's
    /// grouping is kept, even where the algebra would allow regrouping), and both at
    /// equal strength for comparisons, which do not chain in Rust.
    fn binary(
        &self,
        op: TokenStream,
        prec: Prec,
        a: &Term,
        b: &Term,
        non_assoc: bool,
    ) -> (TokenStream, Prec) {
        let (at, ap) = self.lower(a);
        let (bt, bp) = self.lower(b);
        let at = if ap < prec || (non_assoc && ap == prec) {
            parens(at)
        } else {
            at
        };
        let bt = if bp <= prec { parens(bt) } else { bt };
        (cat(cat(at, op), bt), prec)
    }
}

/// A real literal: `-x` for negative values (`-0.0` included), named constants for
/// infinities and NaN.
fn num(v: f64) -> (TokenStream, Prec) {
    if v.is_nan() {
        return (quote!(f64::NAN), Prec::Atom);
    }
    let lit = if v.is_infinite() {
        quote!(f64::INFINITY)
    } else {
        let text = float_text(v.abs());
        let lit = syn::LitFloat::new(&text, proc_macro2::Span::call_site());
        quote!(#lit)
    };
    if v.is_sign_negative() {
        (quote!(-#lit), Prec::Unary)
    } else {
        (lit, Prec::Atom)
    }
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
