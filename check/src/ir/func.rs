//! The pure procedures an expression calls ([`Func`]): their names in source, arity and runtime module, and the ones only the lowering writes (partial derivatives, the step control's root).

use super::Partial;

/// Pure procedures: each is a function of `sit_runtime::math` (or
/// `sit_runtime` for the converters) with the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `abs(x)`
    Abs,
    /// `sign(x)`: -1, 0 or 1
    Sign,
    /// `sqrt(x)`
    Sqrt,
    /// `exp(x)`
    Exp,
    /// `ln(x)`
    Ln,
    /// `log10(x)`
    Log10,
    /// `sin(x)`
    Sin,
    /// `cos(x)`
    Cos,
    /// `tan(x)`
    Tan,
    /// `asin(x)`
    Asin,
    /// `acos(x)`
    Acos,
    /// `atan(x)`
    Atan,
    /// `atan2(y, x)`
    Atan2,
    /// `sinh(x)`
    Sinh,
    /// `cosh(x)`
    Cosh,
    /// `tanh(x)`
    Tanh,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `pow(x, y)`
    Pow,
    /// `hypot(x, y)`
    Hypot,
    /// `floor(x)`
    Floor,
    /// `ceil(x)`
    Ceil,
    /// `round(x)`
    Round,
    /// `relay(x, a)`: `a·sign(x)`
    Relay,
    /// `limit(x, lo, hi)`: clamp
    Limit,
    /// `deadzone(x, w)`: 0 inside `[-w, w]`, `x ∓ w` outside
    Deadzone,
    /// `inv_root(x, q) = x^(−1/q)` (`sit_runtime::math::inv_root`), written only by the
    /// lowering of an adaptive method's step-size control (`q` a literal: 4, 5 or 8);
    /// not in [`Func::ALL`], so never found by name in source.
    InvRoot,
    /// A partial derivative of one of the above (`sit_runtime::partial`), written only
    /// by the lowering of an implicit method's Jacobian; not in [`Func::ALL`], so never
    /// found by name in source.
    Partial(Partial),
}

impl Func {
    /// Every pure procedure, for listings and lookups.
    pub const ALL: [Func; 26] = [
        Func::Abs,
        Func::Sign,
        Func::Sqrt,
        Func::Exp,
        Func::Ln,
        Func::Log10,
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Asin,
        Func::Acos,
        Func::Atan,
        Func::Atan2,
        Func::Sinh,
        Func::Cosh,
        Func::Tanh,
        Func::Min,
        Func::Max,
        Func::Pow,
        Func::Hypot,
        Func::Floor,
        Func::Ceil,
        Func::Round,
        Func::Relay,
        Func::Limit,
        Func::Deadzone,
    ];

    /// The name in `.sit` source, which is also the runtime function's name.
    pub fn name(self) -> &'static str {
        match self {
            Func::Abs => "abs",
            Func::Sign => "sign",
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Ln => "ln",
            Func::Log10 => "log10",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Atan2 => "atan2",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Min => "min",
            Func::Max => "max",
            Func::Pow => "pow",
            Func::Hypot => "hypot",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Relay => "relay",
            Func::Limit => "limit",
            Func::Deadzone => "deadzone",
            Func::InvRoot => "inv_root",
            Func::Partial(p) => p.name(),
        }
    }

    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            Func::Atan2 | Func::Min | Func::Max | Func::Pow | Func::Hypot | Func::InvRoot => 2,
            Func::Relay | Func::Deadzone => 2,
            Func::Limit => 3,
            Func::Partial(p) => p.arity(),
            _ => 1,
        }
    }

    /// Whether the runtime function lives in `sit_runtime::math` (true) or
    /// at the top of `sit_runtime` (the converters `relay`, `limit`,
    /// `deadzone`).
    pub fn is_math(self) -> bool {
        !matches!(
            self,
            Func::Relay | Func::Limit | Func::Deadzone | Func::Partial(_)
        )
    }

    /// The module path of its runtime function: `sit_runtime::math`, `sit_runtime`
    /// (the converters) or `sit_runtime::partial` ([`Func::Partial`]).
    pub fn module(self) -> &'static [&'static str] {
        match self {
            Func::Partial(_) => &["sit_runtime", "partial"],
            f if f.is_math() => &["sit_runtime", "math"],
            _ => &["sit_runtime"],
        }
    }

    /// Look a pure procedure up by its source name.
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.iter().copied().find(|f| f.name() == name)
    }
}
