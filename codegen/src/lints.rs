//! Lint allowances a generated function needs because of what the `.sit` source wrote.
//!
//! Generated code is exact, not idiomatic: `!(x < y)` must stay as written (it is not
//! `x >= y` for NaN), `x = x + 1` must not become `x += 1` in the reader's eyes, and a
//! range `0 <= x <= 1` is two comparisons. Each function gets `#[allow(...)]` for the
//! clippy lints its own code triggers, and only those, so that the generated file is
//! warning-free under `clippy::all` without blanket allowances.

use sit_parser::ir::{ArithOp, Expr};
use std::collections::BTreeSet;

/// The set of lints one generated function must allow.
#[derive(Debug, Default, Clone)]
pub(crate) struct Lints(BTreeSet<&'static str>);

impl Lints {
    /// Allows `lint` (a path such as `clippy::eq_op`).
    pub(crate) fn add(&mut self, lint: &'static str) {
        self.0.insert(lint);
    }

    /// `#[allow(...)]` for the collected lints, or nothing.
    pub(crate) fn attr(&self) -> proc_macro2::TokenStream {
        if self.0.is_empty() {
            return proc_macro2::TokenStream::new();
        }
        let paths = self.0.iter().map(|l| {
            l.parse::<proc_macro2::TokenStream>()
                .unwrap_or_else(|_| proc_macro2::TokenStream::new())
        });
        quote::quote! { #[allow(#(#paths),*)] }
    }

    /// Records the lints that the expression `e` (one node, not its children) triggers.
    pub(crate) fn check_node(&mut self, e: &Expr) {
        match e {
            Expr::Not(inner) => match inner.as_ref() {
                Expr::Cmp(..) => {
                    self.add("clippy::neg_cmp_op_on_partial_ord");
                    self.add("clippy::nonminimal_bool");
                }
                Expr::Not(_) | Expr::Bool(_) | Expr::And(..) | Expr::Or(..) => {
                    self.add("clippy::nonminimal_bool")
                }
                _ => {}
            },
            Expr::And(a, b) | Expr::Or(a, b) => {
                if a == b {
                    self.add("clippy::eq_op");
                }
                if matches!(**a, Expr::Bool(_)) || matches!(**b, Expr::Bool(_)) {
                    self.add("clippy::nonminimal_bool");
                    self.add("clippy::overly_complex_bool_expr");
                }
                if let (Expr::Cmp(_, a1, a2), Expr::Cmp(_, b1, b2)) = (a.as_ref(), b.as_ref()) {
                    let shared = a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2;
                    if shared {
                        self.add("clippy::manual_range_contains");
                        self.add("clippy::double_comparisons");
                        self.add("clippy::nonminimal_bool");
                        self.add("clippy::overly_complex_bool_expr");
                    }
                }
                if has_not_of_operand(a, b) || has_not_of_operand(b, a) {
                    self.add("clippy::nonminimal_bool");
                    self.add("clippy::overly_complex_bool_expr");
                }
            }
            Expr::Cmp(_, a, b) if a == b => self.add("clippy::eq_op"),
            Expr::Arith(op, a, b) => {
                if a == b && matches!(op, ArithOp::Sub | ArithOp::Div) {
                    self.add("clippy::eq_op");
                }
                let is = |e: &Expr, v: f64| matches!(e, Expr::Num(n) if *n == v);
                let minus_one = |e: &Expr| is(e, -1.0) || matches!(e, Expr::Neg(x) if is(x, 1.0));
                match op {
                    ArithOp::Add | ArithOp::Sub if is(a, 0.0) || is(b, 0.0) => {
                        self.add("clippy::identity_op")
                    }
                    ArithOp::Mul | ArithOp::Div if is(a, 1.0) || is(b, 1.0) => {
                        self.add("clippy::identity_op")
                    }
                    _ => {}
                }
                if *op == ArithOp::Mul && (minus_one(a) || minus_one(b)) {
                    self.add("clippy::neg_multiply");
                }
                if *op == ArithOp::Div && is(a, 0.0) && is(b, 0.0) {
                    self.add("clippy::zero_divided_by_zero");
                }
                if *op == ArithOp::Mul && (is(a, 0.0) || is(b, 0.0)) {
                    self.add("clippy::erasing_op");
                }
            }
            Expr::Num(n) if approximates_constant(*n) => self.add("clippy::approx_constant"),
            _ => {}
        }
    }

    /// Records the lints of `e` and all its subexpressions.
    pub(crate) fn check_tree(&mut self, e: &Expr) {
        e.visit(&mut |node| self.check_node(node));
    }
}

/// Whether `b` is `!a`.
fn has_not_of_operand(a: &Expr, b: &Expr) -> bool {
    matches!(b, Expr::Not(x) if **x == *a)
}

/// The constants of `core::f64::consts` that `clippy::approx_constant` looks for.
const CONSTANTS: &[f64] = &[
    std::f64::consts::E,
    std::f64::consts::FRAC_1_PI,
    std::f64::consts::FRAC_1_SQRT_2,
    std::f64::consts::FRAC_2_PI,
    std::f64::consts::FRAC_2_SQRT_PI,
    std::f64::consts::FRAC_PI_2,
    std::f64::consts::FRAC_PI_3,
    std::f64::consts::FRAC_PI_4,
    std::f64::consts::FRAC_PI_6,
    std::f64::consts::FRAC_PI_8,
    std::f64::consts::LN_10,
    std::f64::consts::LN_2,
    std::f64::consts::LOG10_E,
    std::f64::consts::LOG2_E,
    std::f64::consts::LOG2_10,
    std::f64::consts::LOG10_2,
    std::f64::consts::PI,
    std::f64::consts::SQRT_2,
    std::f64::consts::TAU,
];

/// Whether a literal could be taken by clippy for a truncated mathematical constant:
/// at least three significant digits that agree with one of [`CONSTANTS`]. Errs on the
/// side of allowing (an unneeded allowance costs nothing).
fn approximates_constant(n: f64) -> bool {
    let text = crate::expr::float_text(n.abs());
    let digits = text.chars().filter(char::is_ascii_digit).count();
    if digits < 3 || text.contains('e') {
        return false;
    }
    CONSTANTS.iter().any(|c| {
        let c_text = c.to_string();
        let decimals = text.split('.').nth(1).map_or(0, str::len);
        c_text.starts_with(&text) || format!("{c:.decimals$}") == text
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(
        clippy::approx_constant,
        reason = "the literals clippy flags are the test data"
    )]
    fn approx_constants() {
        assert!(approximates_constant(3.14));
        assert!(approximates_constant(3.1416));
        assert!(approximates_constant(-2.718));
        assert!(!approximates_constant(3.0));
        assert!(!approximates_constant(981.0));
        assert!(!approximates_constant(0.5));
    }
}
