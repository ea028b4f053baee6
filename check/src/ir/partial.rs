//! The partial derivatives of the pure procedures as procedures of their own: what the lowering of an implicit method's Jacobian calls (`sit_runtime::partial`), never written in source.

use super::Func;

/// `∂f/∂(argument k)` of a pure procedure `f`, the function `sit_runtime::partial::NAME`
/// (see [`Partial::name`]), called with `f`'s arguments. Only the lowering writes them
/// (as [`Func::Partial`]); a procedure whose slope is 0 wherever it is defined (`sign`,
/// `floor`, `ceil`, `round`, `relay` in its first argument) has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Partial {
    /// The procedure.
    pub f: PartialOf,
    /// The argument (0-based).
    pub arg: u8,
}

/// The procedures with partial derivatives: [`Func`] without the piecewise-constant
/// ones (a `Copy` mirror, so that [`Func`] can hold a [`Partial`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartialOf {
    /// `abs`
    Abs,
    /// `sqrt`
    Sqrt,
    /// `exp`
    Exp,
    /// `ln`
    Ln,
    /// `log10`
    Log10,
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `tan`
    Tan,
    /// `asin`
    Asin,
    /// `acos`
    Acos,
    /// `atan`
    Atan,
    /// `atan2`
    Atan2,
    /// `sinh`
    Sinh,
    /// `cosh`
    Cosh,
    /// `tanh`
    Tanh,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `pow`
    Pow,
    /// `hypot`
    Hypot,
    /// `relay`
    Relay,
    /// `limit`
    Limit,
    /// `deadzone`
    Deadzone,
}

impl Partial {
    /// `∂f/∂(argument arg)`, if it is not 0 wherever it is defined.
    pub fn of(f: Func, arg: usize) -> Option<Partial> {
        use PartialOf as P;
        let of = match f {
            Func::Abs => P::Abs,
            Func::Sqrt => P::Sqrt,
            Func::Exp => P::Exp,
            Func::Ln => P::Ln,
            Func::Log10 => P::Log10,
            Func::Sin => P::Sin,
            Func::Cos => P::Cos,
            Func::Tan => P::Tan,
            Func::Asin => P::Asin,
            Func::Acos => P::Acos,
            Func::Atan => P::Atan,
            Func::Atan2 => P::Atan2,
            Func::Sinh => P::Sinh,
            Func::Cosh => P::Cosh,
            Func::Tanh => P::Tanh,
            Func::Min => P::Min,
            Func::Max => P::Max,
            Func::Pow => P::Pow,
            Func::Hypot => P::Hypot,
            Func::Relay if arg == 1 => P::Relay,
            Func::Limit => P::Limit,
            Func::Deadzone => P::Deadzone,
            _ => return None,
        };
        let p = Partial {
            f: of,
            arg: u8::try_from(arg).ok()?,
        };
        (arg < p.arity()).then_some(p)
    }

    /// The procedure differentiated.
    pub fn func(self) -> Func {
        use PartialOf as P;
        match self.f {
            P::Abs => Func::Abs,
            P::Sqrt => Func::Sqrt,
            P::Exp => Func::Exp,
            P::Ln => Func::Ln,
            P::Log10 => Func::Log10,
            P::Sin => Func::Sin,
            P::Cos => Func::Cos,
            P::Tan => Func::Tan,
            P::Asin => Func::Asin,
            P::Acos => Func::Acos,
            P::Atan => Func::Atan,
            P::Atan2 => Func::Atan2,
            P::Sinh => Func::Sinh,
            P::Cosh => Func::Cosh,
            P::Tanh => Func::Tanh,
            P::Min => Func::Min,
            P::Max => Func::Max,
            P::Pow => Func::Pow,
            P::Hypot => Func::Hypot,
            P::Relay => Func::Relay,
            P::Limit => Func::Limit,
            P::Deadzone => Func::Deadzone,
        }
    }

    /// Its number of arguments: its procedure's.
    pub fn arity(self) -> usize {
        self.func().arity()
    }

    /// The name of its function in `sit_runtime::partial` (`sin_dx`, `atan2_dy`, …).
    pub fn name(self) -> &'static str {
        use PartialOf as P;
        match (self.f, self.arg) {
            (P::Abs, _) => "abs_dx",
            (P::Sqrt, _) => "sqrt_dx",
            (P::Exp, _) => "exp_dx",
            (P::Ln, _) => "ln_dx",
            (P::Log10, _) => "log10_dx",
            (P::Sin, _) => "sin_dx",
            (P::Cos, _) => "cos_dx",
            (P::Tan, _) => "tan_dx",
            (P::Asin, _) => "asin_dx",
            (P::Acos, _) => "acos_dx",
            (P::Atan, _) => "atan_dx",
            (P::Atan2, 0) => "atan2_dy",
            (P::Atan2, _) => "atan2_dx",
            (P::Sinh, _) => "sinh_dx",
            (P::Cosh, _) => "cosh_dx",
            (P::Tanh, _) => "tanh_dx",
            (P::Min, 0) => "min_da",
            (P::Min, _) => "min_db",
            (P::Max, 0) => "max_da",
            (P::Max, _) => "max_db",
            (P::Pow, 0) => "pow_dx",
            (P::Pow, _) => "pow_dy",
            (P::Hypot, 0) => "hypot_dx",
            (P::Hypot, _) => "hypot_dy",
            (P::Relay, _) => "relay_da",
            (P::Limit, 0) => "limit_dx",
            (P::Limit, 1) => "limit_dlo",
            (P::Limit, _) => "limit_dhi",
            (P::Deadzone, 0) => "deadzone_dx",
            (P::Deadzone, _) => "deadzone_dw",
        }
    }

    /// Its value at `xs` (missing arguments NaN), by `sit_runtime::partial`.
    pub fn eval(self, xs: &[f64]) -> f64 {
        use PartialOf as P;
        use sit_runtime::partial as p;
        let x = |i: usize| xs.get(i).copied().unwrap_or(f64::NAN);
        match (self.f, self.arg) {
            (P::Abs, _) => p::abs_dx(x(0)),
            (P::Sqrt, _) => p::sqrt_dx(x(0)),
            (P::Exp, _) => p::exp_dx(x(0)),
            (P::Ln, _) => p::ln_dx(x(0)),
            (P::Log10, _) => p::log10_dx(x(0)),
            (P::Sin, _) => p::sin_dx(x(0)),
            (P::Cos, _) => p::cos_dx(x(0)),
            (P::Tan, _) => p::tan_dx(x(0)),
            (P::Asin, _) => p::asin_dx(x(0)),
            (P::Acos, _) => p::acos_dx(x(0)),
            (P::Atan, _) => p::atan_dx(x(0)),
            (P::Atan2, 0) => p::atan2_dy(x(0), x(1)),
            (P::Atan2, _) => p::atan2_dx(x(0), x(1)),
            (P::Sinh, _) => p::sinh_dx(x(0)),
            (P::Cosh, _) => p::cosh_dx(x(0)),
            (P::Tanh, _) => p::tanh_dx(x(0)),
            (P::Min, 0) => p::min_da(x(0), x(1)),
            (P::Min, _) => p::min_db(x(0), x(1)),
            (P::Max, 0) => p::max_da(x(0), x(1)),
            (P::Max, _) => p::max_db(x(0), x(1)),
            (P::Pow, 0) => p::pow_dx(x(0), x(1)),
            (P::Pow, _) => p::pow_dy(x(0), x(1)),
            (P::Hypot, 0) => p::hypot_dx(x(0), x(1)),
            (P::Hypot, _) => p::hypot_dy(x(0), x(1)),
            (P::Relay, _) => p::relay_da(x(0), x(1)),
            (P::Limit, 0) => p::limit_dx(x(0), x(1), x(2)),
            (P::Limit, 1) => p::limit_dlo(x(0), x(1), x(2)),
            (P::Limit, _) => p::limit_dhi(x(0), x(1), x(2)),
            (P::Deadzone, 0) => p::deadzone_dx(x(0), x(1)),
            (P::Deadzone, _) => p::deadzone_dw(x(0), x(1)),
        }
    }
}
