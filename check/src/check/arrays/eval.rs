//! Constant whole numbers: an array's sizes, a loop's bounds and an index, computed from numbers, params and loop variables when the model is checked.

use super::Cx;
use crate::ast::{BinOp, Expr, ExprKind};
use crate::diag::Diagnostic;

/// The largest magnitude of a size, bound or index: far above any array the
/// expansion accepts ([`super::MAX_CELLS`]), far below where `f64` loses whole numbers.
const MAX_WHOLE: f64 = 1e12;

impl Cx<'_> {
    /// The value of `e` as a whole number, `what` naming it in messages (`the size of
    /// \`T\``); `None` after an error (reported once per place).
    pub(super) fn whole(&mut self, e: &Expr, what: &str) -> Option<i64> {
        let v = self.constant(e, what)?;
        if v.fract() != 0.0 || v.abs() > MAX_WHOLE || !v.is_finite() {
            self.report(
                Diagnostic::error(
                    "E0460",
                    e.span,
                    format!("{what} must be a whole number, and `{}` is {v}", show(e)),
                )
                .with_label("not a whole number")
                .with_help(
                    "sizes, bounds and indices are whole numbers: use `+`, `-` and `*` of \
                     whole numbers, params and loop variables",
                ),
            );
            return None;
        }
        Some(v as i64)
    }

    /// The value of `e` computed from numbers, params and loop variables, in `f64`
    /// with the run's arithmetic; `None` after an error.
    fn constant(&mut self, e: &Expr, what: &str) -> Option<f64> {
        match &e.kind {
            ExprKind::Num(v) | ExprKind::Quantity(v, _) => Some(*v),
            ExprKind::Paren(inner) => self.constant(inner, what),
            ExprKind::Neg(inner) => self.constant(inner, what).map(|v| -v),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.constant(a, what), self.constant(b, what));
                let (a, b) = (a?, b?);
                match op {
                    BinOp::Add => Some(a + b),
                    BinOp::Sub => Some(a - b),
                    BinOp::Mul => Some(a * b),
                    BinOp::Div => Some(a / b),
                    BinOp::Pow => Some(a.powf(b)),
                    BinOp::And | BinOp::Or => self.not_constant(e, what, None),
                }
            }
            ExprKind::Path(names) if names.len() == 1 => {
                let name = names[0].text.as_str();
                if let Some(v) = self.loop_value(name) {
                    return Some(v as f64);
                }
                match self.param_value(name) {
                    Ok(v) => Some(v),
                    Err(why) => self.not_constant(e, what, Some(why)),
                }
            }
            _ => self.not_constant(e, what, None),
        }
    }

    /// Reports E0460 at `e`; `why` says what its name is, if that is the reason.
    fn not_constant(&mut self, e: &Expr, what: &str, why: Option<String>) -> Option<f64> {
        let mut d = Diagnostic::error(
            "E0460",
            e.span,
            format!("{what} must be a constant, and `{}` is not", show(e)),
        )
        .with_label(why.unwrap_or_else(|| "not computed from numbers and params".into()))
        .with_help(
            "sizes, bounds and indices are computed when the model is checked: from \
             numbers, params with constant values and loop variables, with `+ - * / ^`",
        );
        if let ExprKind::Path(names) = &e.kind
            && names.len() == 1
            && self.is_unit_like(&names[0].text)
        {
            d = d.with_note("a unit is written after a space, `v [m]`: `v[m]` declares an array");
        }
        self.report(d);
        None
    }

    /// The value of the param `name`, computed from its declared value; a param read
    /// this way is structural (see [`Cx::structural`]).
    fn param_value(&mut self, name: &str) -> Result<f64, String> {
        if let Some(v) = self.values.get(name) {
            return v.ok_or_else(|| format!("`{name}` has no constant value"));
        }
        let Some(&value) = self.params.get(name) else {
            return Err(if self.arrays.contains_key(name) {
                format!("`{name}` is an array")
            } else if self.declared.contains(name) {
                format!("`{name}` is not a param")
            } else {
                format!("no param is named `{name}`")
            });
        };
        let Some(value) = value else {
            return Err(format!("the param `{name}` has no value"));
        };
        if !self.evaluating.insert(name.to_string()) {
            return Err(format!("the value of `{name}` depends on itself"));
        }
        // Loop variables do not reach into a param's value.
        let env = std::mem::take(&mut self.env);
        let v = self.constant(value, &format!("the value of `{name}`"));
        self.env = env;
        self.evaluating.remove(name);
        self.values.insert(name.to_string(), v);
        v.ok_or_else(|| format!("`{name}` has no constant value"))
    }

    /// Whether `name` is no declared name but reads like a unit (`v[m]` meant as `v [m]`).
    fn is_unit_like(&self, name: &str) -> bool {
        !self.declared.contains(name) && crate::units::parse_unit(name).is_ok()
    }
}

/// An expression of sizes and indices as text, for messages.
pub(super) fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Num(v) | ExprKind::Quantity(v, _) => format!("{v}"),
        ExprKind::Path(names) => names
            .iter()
            .map(|n| n.text.as_str())
            .collect::<Vec<_>>()
            .join("."),
        ExprKind::Paren(inner) => format!("({})", show(inner)),
        ExprKind::Neg(inner) => format!("-{}", show(inner)),
        ExprKind::Binary(op, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        ExprKind::Index(path, ix) => format!(
            "{}[{}]",
            (path.iter().map(|n| n.text.as_str()))
                .collect::<Vec<_>>()
                .join("."),
            ix.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Call(n, args) => format!(
            "{}({})",
            n.text,
            args.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        _ => "…".to_string(),
    }
}
