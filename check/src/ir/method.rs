//! Integration methods: `method euler|rk4|dopri5|tsit5|dop853|rodas4|rodas5p|radau5` and the tolerances of an adaptive one.

use super::{ModelId, Program, Rhs, Stmt};

/// How a model integrates its continuous part in one step (`method NAME;`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// Each rule once per step in textual order, `integral` as `y + x·dt`: the
    /// formalism's own step, first order.
    #[default]
    Euler,
    /// The classical fourth-order Runge–Kutta method over the host's step, on the
    /// continuous part; the discrete rules once per step after it.
    Rk4,
    /// Dormand–Prince 5(4): adaptive internal steps with error control within each
    /// host step (see "Integration methods" above); the discrete rules once per step
    /// after them.
    Dopri5(Tolerance),
    /// Tsitouras 5(4): adaptive internal steps as [`Method::Dopri5`] takes them, with
    /// Tsitouras's coefficients (2011), whose fifth-order solution has smaller error
    /// constants than Dormand–Prince's at the same cost (7 stages, the last reused).
    Tsit5(Tolerance),
    /// Dormand–Prince 8(5,3) as in Hairer's DOP853: adaptive internal steps of order 8
    /// with Hairer's error estimate from a fifth- and a third-order pair and an exponent
    /// `−1/8`, for tight tolerances; events located with its continuous extension of
    /// order 7 (three more stages, evaluated only when a step holds an event).
    Dop853(Tolerance),
    /// Hairer and Wanner's RODAS, a Rosenbrock method of order 4(3) with 6 stages,
    /// L-stable and stiffly accurate: adaptive internal steps as [`Method::Dopri5`]
    /// takes them (exponent `−1/4`), each solving six linear systems with one LU of
    /// `I/(γh) − J` (the exact Jacobian of the continuous part), for stiff models;
    /// events located with its continuous extension of order 3.
    Rodas4(Tolerance),
    /// Steinebach's Rodas5P, a Rosenbrock method of order 5(4) with 8 stages, L-stable
    /// and stiffly accurate, stepped as [`Method::Rodas4`] (exponent `−1/5`, eight
    /// linear systems per step with one LU): it keeps its order on the stiff
    /// components where RODAS loses it, so at tight tolerances it needs several times
    /// fewer steps; events located with its continuous extension of order 4.
    Rodas5p(Tolerance),
    /// Radau IIA of order 5 (Hairer and Wanner's RADAU5, stepped as SciPy's `Radau`):
    /// three implicit stages solved by a simplified Newton iteration whose Jacobian
    /// and LU factors are kept from step to step (computed again only when the
    /// iteration slows or the step changes), with the predictive step-size controller
    /// of Gustafsson; L-stable and stiffly accurate, for stiff models at tight
    /// tolerances, where it needs several times fewer steps than [`Method::Rodas5p`];
    /// events located with its collocation polynomial (order 3).
    Radau5(Tolerance),
}

/// The error tolerances of an adaptive method: an internal step is accepted when the
/// norm of its error estimate, each component scaled by `atol + rtol·max(|y₀|, |y₁|)`,
/// is at most 1.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// The relative tolerance.
    pub rtol: f64,
    /// The absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    /// The tolerances when none are given: `rtol 1e-6 atol 1e-9`.
    pub const DEFAULT: Tolerance = Tolerance {
        rtol: 1e-6,
        atol: 1e-9,
    };
}

impl Tolerance {
    /// The smallest `rtol` a step can mean: `ε` of `f64` (about 2.2e-16), the spacing
    /// of the numbers themselves relative to their size. No state is held closer than
    /// that, and an error estimate asked to be smaller shrinks the steps toward rounding
    /// noise: the pendulum under `tsit5` at rtol 1e-20 ends on the bound of internal
    /// steps. Above it a tighter rtol can still pay: `dop853` on the pendulum reaches
    /// 2.5e-14 at rtol 1e-14 and 4.9e-15 at 1e-16, so the floor is not SciPy's `100·ε`.
    /// Sit keeps the value given and warns (W0209, and on the command line).
    pub const MIN_RTOL: f64 = f64::EPSILON;

    /// The warning for an `rtol` below [`Tolerance::MIN_RTOL`], if it is (the checker's
    /// W0209, `sitc`'s `--rtol` and `Builder::method` share it).
    pub fn below_precision(rtol: f64) -> Option<String> {
        (rtol < Tolerance::MIN_RTOL).then(|| {
            format!(
                "rtol {rtol:e} is below the precision of f64 (ε, about 2.2e-16): no \
                 state is held that close, and the steps may shrink without end"
            )
        })
    }

    /// The tolerances `rtol` and `atol`.
    pub const fn new(rtol: f64, atol: f64) -> Tolerance {
        Tolerance { rtol, atol }
    }

    /// These tolerances with `rtol` and `atol` replaced where given.
    pub fn with(self, rtol: Option<f64>, atol: Option<f64>) -> Tolerance {
        Tolerance {
            rtol: rtol.unwrap_or(self.rtol),
            atol: atol.unwrap_or(self.atol),
        }
    }
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::DEFAULT
    }
}

// Equal when bit for bit equal: a tolerance is a setting, compared as written.
impl PartialEq for Tolerance {
    fn eq(&self, other: &Self) -> bool {
        self.rtol.to_bits() == other.rtol.to_bits() && self.atol.to_bits() == other.atol.to_bits()
    }
}

impl Eq for Tolerance {}

impl std::hash::Hash for Tolerance {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rtol.to_bits().hash(state);
        self.atol.to_bits().hash(state);
    }
}

impl Method {
    /// Every method (`dopri5` with its default tolerances), for listings and lookups.
    pub const ALL: [Method; 8] = [
        Method::Euler,
        Method::Rk4,
        Method::Dopri5(Tolerance::DEFAULT),
        Method::Tsit5(Tolerance::DEFAULT),
        Method::Dop853(Tolerance::DEFAULT),
        Method::Rodas4(Tolerance::DEFAULT),
        Method::Rodas5p(Tolerance::DEFAULT),
        Method::Radau5(Tolerance::DEFAULT),
    ];

    /// The name in `.sit` source and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Euler => "euler",
            Method::Rk4 => "rk4",
            Method::Dopri5(_) => "dopri5",
            Method::Tsit5(_) => "tsit5",
            Method::Dop853(_) => "dop853",
            Method::Rodas4(_) => "rodas4",
            Method::Rodas5p(_) => "rodas5p",
            Method::Radau5(_) => "radau5",
        }
    }

    /// What it does, in a few words, for help texts and listings.
    pub fn summary(self) -> &'static str {
        match self {
            Method::Euler => "first order, the formalism's own step",
            Method::Rk4 => "classical fourth order over each step",
            Method::Dopri5(_) => "adaptive internal steps with error control within each step",
            Method::Tsit5(_) => "as dopri5, with Tsitouras's smaller error constants",
            Method::Dop853(_) => "adaptive, order 8, for tight tolerances",
            Method::Rodas4(_) => "implicit (Rosenbrock), adaptive, order 4, for stiff models",
            Method::Rodas5p(_) => {
                "implicit (Rosenbrock), adaptive, order 5, stiff and tight tolerances"
            }
            Method::Radau5(_) => "implicit (Radau IIA), adaptive, order 5, stiff and tightest",
        }
    }

    /// Look a method up by its name (an adaptive one with its default tolerances).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// The method with the tolerances given replacing its own, if it is adaptive
    /// (the others have none, and are returned as they are).
    pub fn with_tolerance(self, rtol: Option<f64>, atol: Option<f64>) -> Method {
        match self {
            Method::Dopri5(t) => Method::Dopri5(t.with(rtol, atol)),
            Method::Tsit5(t) => Method::Tsit5(t.with(rtol, atol)),
            Method::Dop853(t) => Method::Dop853(t.with(rtol, atol)),
            Method::Rodas4(t) => Method::Rodas4(t.with(rtol, atol)),
            Method::Rodas5p(t) => Method::Rodas5p(t.with(rtol, atol)),
            Method::Radau5(t) => Method::Radau5(t.with(rtol, atol)),
            other => other,
        }
    }

    /// The tolerances of an adaptive method.
    pub fn tolerance(self) -> Option<Tolerance> {
        match self {
            Method::Dopri5(t) | Method::Tsit5(t) => Some(t),
            Method::Dop853(t) | Method::Rodas4(t) | Method::Rodas5p(t) => Some(t),
            Method::Radau5(t) => Some(t),
            _ => None,
        }
    }
}

impl Program {
    /// Sets the integration method of every model (a per-run override of their
    /// `method` declarations); the errors, located in the models' rules, if some
    /// model's rules cannot be split into a continuous and a discrete part.
    pub fn set_method(&mut self, method: Method) -> Result<(), Vec<crate::Diagnostic>> {
        for m in &mut self.models {
            m.method = method;
        }
        let diags: Vec<_> = self.models.iter().flat_map(super::split_errors).collect();
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

/// The continuous states (targets of an `integral` or a `lag`) of the models of `root`'s
/// tree that a fixed step integrates (`euler`, `rk4`): each its dotted name from the
/// root, its method's name and order (1, 4), for the estimate of their error
/// (`sit_runtime::accuracy::Doubling`).
pub fn fixed_step_states(program: &Program, root: ModelId) -> Vec<(String, &'static str, u32)> {
    let mut out = Vec::new();
    let mut todo = vec![(root, String::new())];
    while let Some((id, prefix)) = todo.pop() {
        let Some(m) = program.models.get(id) else {
            continue;
        };
        for s in &m.subs {
            todo.push((s.model, format!("{prefix}{}.", s.name)));
        }
        let order = match m.method {
            Method::Euler => 1,
            Method::Rk4 => 4,
            _ => continue,
        };
        let mut targets = Vec::new();
        super::walk(&m.body, &mut |s| {
            if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
                && matches!(
                    a.rhs,
                    Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
                )
                && !targets.contains(&a.target)
            {
                targets.push(a.target);
            }
        });
        for v in targets {
            out.push((
                format!("{prefix}{}", m.vars[v].name),
                m.method.name(),
                order,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Tolerance;

    fn warnings(src: &str) -> Vec<&'static str> {
        let out = crate::check_source("m.sit", src);
        out.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn an_rtol_below_the_precision_of_f64_is_kept_with_a_warning() {
        let model = |rtol: &str| {
            format!("model M {{ method tsit5 rtol {rtol}; output real x = 1; x = integral(-x); }}")
        };
        assert_eq!(warnings(&model("1e-16")), ["W0209"]);
        assert_eq!(warnings(&model("2.2e-16")), ["W0209"]);
        assert_eq!(warnings(&model("2.3e-16")), Vec::<&str>::new());
        assert_eq!(warnings(&model("1e-14")), Vec::<&str>::new());
        // Kept as written.
        let out = crate::check_source("m.sit", &model("1e-16"));
        let m = &out.program.as_ref().expect("a warning only").models[0];
        assert_eq!(m.method.tolerance().map(|t| t.rtol), Some(1e-16));
        // Allowed like any warning; atol has no such floor (a state may be tiny).
        let allowed = format!("#[allow(W0209, reason = \"a test\")]\n{}", model("1e-16"));
        assert_eq!(warnings(&allowed), Vec::<&str>::new());
        let atol = "model M { method tsit5 atol 1e-30; output real x = 1; x = integral(-x); }";
        assert_eq!(warnings(atol), Vec::<&str>::new());
        assert!(Tolerance::below_precision(Tolerance::MIN_RTOL).is_none());
    }
}
