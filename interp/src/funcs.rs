//! The `sit_runtime` function behind each pure procedure of the IR and each of their partial derivatives, by arity: the table the interpreter's compiled terms call through.

use sit_lir::Func;
use sit_runtime::math;

/// A runtime function by arity.
pub(crate) enum Fun {
    One(fn(f64) -> f64),
    Two(fn(f64, f64) -> f64),
    Three(fn(f64, f64, f64) -> f64),
}

/// The `sit_runtime` function of a pure procedure.
pub(crate) fn func(f: Func) -> Fun {
    match f {
        Func::Abs => Fun::One(math::abs),
        Func::Sign => Fun::One(math::sign),
        Func::Sqrt => Fun::One(math::sqrt),
        Func::Exp => Fun::One(math::exp),
        Func::Ln => Fun::One(math::ln),
        Func::Log10 => Fun::One(math::log10),
        Func::Sin => Fun::One(math::sin),
        Func::Cos => Fun::One(math::cos),
        Func::Tan => Fun::One(math::tan),
        Func::Asin => Fun::One(math::asin),
        Func::Acos => Fun::One(math::acos),
        Func::Atan => Fun::One(math::atan),
        Func::Atan2 => Fun::Two(math::atan2),
        Func::Sinh => Fun::One(math::sinh),
        Func::Cosh => Fun::One(math::cosh),
        Func::Tanh => Fun::One(math::tanh),
        Func::Min => Fun::Two(math::min),
        Func::Max => Fun::Two(math::max),
        Func::Pow => Fun::Two(math::pow),
        Func::InvRoot => Fun::Two(math::inv_root),
        Func::Hypot => Fun::Two(math::hypot),
        Func::Floor => Fun::One(math::floor),
        Func::Ceil => Fun::One(math::ceil),
        Func::Round => Fun::One(math::round),
        Func::Relay => Fun::Two(sit_runtime::relay),
        Func::Limit => Fun::Three(sit_runtime::limit),
        Func::Deadzone => Fun::Two(sit_runtime::deadzone),
        Func::Partial(p) => partial(p),
    }
}

/// The `sit_runtime::partial` function of a partial derivative.
fn partial(p: sit_lir::Partial) -> Fun {
    use sit_lir::PartialOf as P;
    use sit_runtime::partial as d;
    match (p.f, p.arg) {
        (P::Abs, _) => Fun::One(d::abs_dx),
        (P::Sqrt, _) => Fun::One(d::sqrt_dx),
        (P::Exp, _) => Fun::One(d::exp_dx),
        (P::Ln, _) => Fun::One(d::ln_dx),
        (P::Log10, _) => Fun::One(d::log10_dx),
        (P::Sin, _) => Fun::One(d::sin_dx),
        (P::Cos, _) => Fun::One(d::cos_dx),
        (P::Tan, _) => Fun::One(d::tan_dx),
        (P::Asin, _) => Fun::One(d::asin_dx),
        (P::Acos, _) => Fun::One(d::acos_dx),
        (P::Atan, _) => Fun::One(d::atan_dx),
        (P::Atan2, 0) => Fun::Two(d::atan2_dy),
        (P::Atan2, _) => Fun::Two(d::atan2_dx),
        (P::Sinh, _) => Fun::One(d::sinh_dx),
        (P::Cosh, _) => Fun::One(d::cosh_dx),
        (P::Tanh, _) => Fun::One(d::tanh_dx),
        (P::Min, 0) => Fun::Two(d::min_da),
        (P::Min, _) => Fun::Two(d::min_db),
        (P::Max, 0) => Fun::Two(d::max_da),
        (P::Max, _) => Fun::Two(d::max_db),
        (P::Pow, 0) => Fun::Two(d::pow_dx),
        (P::Pow, _) => Fun::Two(d::pow_dy),
        (P::Hypot, 0) => Fun::Two(d::hypot_dx),
        (P::Hypot, _) => Fun::Two(d::hypot_dy),
        (P::Relay, _) => Fun::Two(d::relay_da),
        (P::Limit, 0) => Fun::Three(d::limit_dx),
        (P::Limit, 1) => Fun::Three(d::limit_dlo),
        (P::Limit, _) => Fun::Three(d::limit_dhi),
        (P::Deadzone, 0) => Fun::Two(d::deadzone_dx),
        (P::Deadzone, _) => Fun::Two(d::deadzone_dw),
    }
}
