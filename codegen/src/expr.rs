//! Lowered terms to Rust tokens, operation for operation, parenthesised by the tree, for struct fields or lanes.

use crate::ast;
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use sit_lir::{ArithOp, CmpOp, ModelId};
use sit_lir::{Place, Slot, Term};
use syn::{BinOp, Expr, UnOp};

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
    /// Whether table reads are counted here (a step, a reset, `new`), when the plan
    /// counts them ([`crate::Options::count_table_reach`]); not in the `&self`
    /// accessors.
    pub count: bool,
}

impl ExprGen<'_> {
    /// Whether this code counts its table reads (see [`crate::reach`]).
    pub(crate) fn counts(&self) -> bool {
        self.count && self.plan.reach.is_some()
    }

    /// The tokens of `t`.
    pub(crate) fn expr(&self, t: &Term) -> TokenStream {
        self.ast(t).into_token_stream()
    }

    /// The syntax tree of `t`.
    pub(crate) fn ast(&self, t: &Term) -> Expr {
        self.lower_ast(t).0
    }

    /// The tokens of `t` and their binding strength.
    pub(crate) fn lower(&self, t: &Term) -> (TokenStream, Prec) {
        let (e, prec) = self.lower_ast(t);
        (e.into_token_stream(), prec)
    }

    /// The syntax tree of `t` and its binding strength.
    fn lower_ast(&self, t: &Term) -> (Expr, Prec) {
        let atom = |e: Expr| (e, Prec::Atom);
        match t {
            Term::Num(v) => num(*v),
            Term::Bool(b) => atom(ast::bool_lit(*b)),
            Term::Read(p) => atom(self.place_ast(p)),
            Term::Derived(p) => {
                let (base, model) = self.base_ast(&p.path);
                let Slot::Var(v) = p.slot else {
                    return atom(self.place_ast(p));
                };
                let f = ident(&self.plan.names[model].vars[v]);
                atom(ast::method(base, f, []))
            }
            Term::Cond(path, c) => {
                let (base, model) = self.base_ast(path);
                let f = ident(&self.plan.names[model].conds[*c]);
                atom(ast::method(base, f, []))
            }
            Term::Neg(a) => (
                ast::unary(UnOp::Neg(Default::default()), self.unary_operand(a)),
                Prec::Unary,
            ),
            Term::Not(a) => (
                ast::unary(UnOp::Not(Default::default()), self.unary_operand(a)),
                Prec::Unary,
            ),
            Term::Arith(ArithOp::Pow, a, b) => {
                let args = [self.ast(a), self.ast(b)];
                let pow = ast::path(true, &["sit_runtime", "math", "pow"]);
                atom(ast::call(pow, args))
            }
            Term::Arith(op, a, b) => {
                let (op, prec) = match op {
                    ArithOp::Add => (BinOp::Add(Default::default()), Prec::Add),
                    ArithOp::Sub => (BinOp::Sub(Default::default()), Prec::Add),
                    ArithOp::Mul => (BinOp::Mul(Default::default()), Prec::Mul),
                    _ => (BinOp::Div(Default::default()), Prec::Mul),
                };
                self.binary(op, prec, a, b, false)
            }
            Term::Cmp(op, a, b) => {
                let op = match op {
                    CmpOp::Lt => BinOp::Lt(Default::default()),
                    CmpOp::Le => BinOp::Le(Default::default()),
                    CmpOp::Gt => BinOp::Gt(Default::default()),
                    CmpOp::Ge => BinOp::Ge(Default::default()),
                    CmpOp::Eq => BinOp::Eq(Default::default()),
                    CmpOp::Ne => BinOp::Ne(Default::default()),
                };
                self.binary(op, Prec::Cmp, a, b, true)
            }
            // Counting lanes short-circuit as the scalar step does when the right operand
            // reads a table, so that it is read where the scalar step reads it (same
            // values).
            Term::And(a, b) => match self.storage {
                Storage::Lanes if self.counts() && crate::reach::reads_table(b) => {
                    self.binary(BinOp::And(Default::default()), Prec::And, a, b, false)
                }
                Storage::Fields => {
                    self.binary(BinOp::And(Default::default()), Prec::And, a, b, false)
                }
                Storage::Lanes => {
                    self.binary(BinOp::BitAnd(Default::default()), Prec::BitAnd, a, b, false)
                }
            },
            Term::Or(a, b) => match self.storage {
                Storage::Lanes if self.counts() && crate::reach::reads_table(b) => {
                    self.binary(BinOp::Or(Default::default()), Prec::Or, a, b, false)
                }
                Storage::Fields => {
                    self.binary(BinOp::Or(Default::default()), Prec::Or, a, b, false)
                }
                Storage::Lanes => {
                    self.binary(BinOp::BitOr(Default::default()), Prec::BitOr, a, b, false)
                }
            },
            Term::InMode(p, k) => {
                let (_, model) = self.base_ast(&p.path);
                let (Slot::Mode(md) | Slot::ModeStart(md)) = p.slot else {
                    return atom(self.place_ast(p));
                };
                let v = crate::modes::variant(self.plan, model, md, *k);
                let state: Expr = syn::parse_quote!(#v);
                (
                    ast::binary(self.place_ast(p), BinOp::Eq(Default::default()), state),
                    Prec::Cmp,
                )
            }
            Term::Call(f, args) => {
                let scope = f.module();
                let segments = scope.iter().map(|s| ast::id(s)).chain([ident(f.name())]);
                let args = args.iter().map(|a| self.ast(a));
                atom(ast::call(ast::path_of(true, segments), args))
            }
            Term::Table(t, args) => {
                let args = args.iter().map(|a| self.ast(a)).collect();
                match &self.plan.reach {
                    Some(registry) if self.count => {
                        atom(crate::reach::read(self, registry, t, args))
                    }
                    _ => atom(crate::lookup::read(t, args)),
                }
            }
            // Never counted: the slope is an implicit method's Jacobian, not a read.
            Term::TableSlope(t, k, args) => {
                let args = args.iter().map(|a| self.ast(a)).collect();
                atom(crate::lookup::slope(t, *k, args))
            }
        }
    }

    /// The instance at `path` (`self.roll.wheel`) and its model.
    pub(crate) fn base(&self, path: &[usize]) -> (TokenStream, ModelId) {
        let (base, model) = self.base_ast(path);
        (base.into_token_stream(), model)
    }

    /// The syntax tree of the instance at `path`, and its model.
    fn base_ast(&self, path: &[usize]) -> (Expr, ModelId) {
        let recv = self.recv.clone().into_iter().filter_map(|t| match t {
            TokenTree::Ident(i) => Some(i),
            _ => None,
        });
        let mut base = ast::path_of(false, recv);
        let mut model = self.model;
        for &s in path {
            let f = ident(&self.plan.names[model].subs[s]);
            base = ast::field(base, f);
            model = self.plan.program.models[model].subs[s].model;
        }
        (base, model)
    }

    /// The syntax tree of reading the stored value `p`.
    fn place_ast(&self, p: &Place) -> Expr {
        let (base, model) = self.base_ast(&p.path);
        let n = &self.plan.names[model];
        let f = match p.slot {
            Slot::Var(v) => ident(&n.vars[v]),
            // A submodel's event field is private to its struct's impl.
            Slot::Event(e) if self.storage == Storage::Fields && !p.path.is_empty() => {
                let f = ident(&n.events[e]);
                return ast::method(base, f, []);
            }
            Slot::Event(e) => ident(&n.event_fields[e]),
            Slot::On(s) => ident(&n.sub_on[s]),
            Slot::Time => ident(&n.time),
            Slot::Dt => ident(&n.dt),
            Slot::Mode(m) => ident(&n.modes[m]),
            Slot::ModeStart(m) => ident(&n.mode_starts[m]),
        };
        match self.storage {
            Storage::Fields => ast::field(base, f),
            Storage::Lanes => ast::index(ast::field(base, f), ast::path(false, &["i"])),
        }
    }

    /// The operand of `-` or `!`: parenthesised unless it is an atom, so that `-(-x)`
    /// and `!(a && b)` keep the tree's meaning.
    fn unary_operand(&self, a: &Term) -> Expr {
        let (e, p) = self.lower_ast(a);
        if p == Prec::Atom { e } else { ast::paren(e) }
    }

    /// `a op b` with the operands parenthesised where the tree requires it: the left one
    /// when it binds more loosely, the right one also at equal strength (the tree's
    /// grouping is kept, even where the algebra would allow regrouping), and both at
    /// equal strength for comparisons, which do not chain in Rust.
    fn binary(&self, op: BinOp, prec: Prec, a: &Term, b: &Term, non_assoc: bool) -> (Expr, Prec) {
        let (at, ap) = self.lower_ast(a);
        let (bt, bp) = self.lower_ast(b);
        let at = if ap < prec || (non_assoc && ap == prec) {
            ast::paren(at)
        } else {
            at
        };
        let bt = if bp <= prec { ast::paren(bt) } else { bt };
        (ast::binary(at, op, bt), prec)
    }
}

/// A real literal: `-x` for negative values (`-0.0` included), named constants for
/// infinities and NaN.
pub(crate) fn num(v: f64) -> (Expr, Prec) {
    if v.is_nan() {
        return (ast::path(false, &["f64", "NAN"]), Prec::Atom);
    }
    let lit = if v.is_infinite() {
        ast::path(false, &["f64", "INFINITY"])
    } else {
        let text = float_text(v.abs());
        ast::lit(syn::Lit::Float(syn::LitFloat::new(
            &text,
            proc_macro2::Span::call_site(),
        )))
    };
    if v.is_sign_negative() {
        (ast::unary(UnOp::Neg(Default::default()), lit), Prec::Unary)
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
