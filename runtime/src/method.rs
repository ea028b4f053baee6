//! The run-time faults of an adaptive integration method: a host step not finished within its bound of internal steps or of located events.

use crate::fault::{FaultKind, raise};

/// The words of the bound per unit of time of the adaptive methods (none for `rk4`,
/// whose loop counts its runs between located events in one host step).
struct PerUnit<'a> {
    method: &'a str,
    steps: u64,
}

impl core::fmt::Display for PerUnit<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.method {
            "rk4" => Ok(()),
            _ => write!(
                f,
                " per unit of time of the host step (at least {}, at most {})",
                self.steps,
                self.steps.saturating_mul(100)
            ),
        }
    }
}

/// Stops the program: model `model`, in its step from time `time`, tried `steps` internal
/// steps of its integration method `method` (their bound: per unit of time of a host
/// step longer than 1, up to 100 units, for the adaptive methods) without reaching the
/// end of the step: the method kept rejecting its steps or shrinking them. The message names
/// the likely causes: a stiff model (under an explicit method), a host step too long for
/// the bound (it counts the internal steps of one host step), rates that are not finite
/// (an error estimate that is not a number rejects the step), or tolerances below what
/// `f64` resolves.
///
/// Called by the generated code and by the interpreter, so that both stop with the same
/// fault ([`FaultKind::InternalSteps`]); like a phase's overrun, it is a fault of the
/// model (a stiff or singular continuous part, or a tolerance too tight for `f64`),
/// reported with what a reader needs to find it.
#[cold]
#[track_caller]
pub fn internal_steps_overrun(model: &str, method: &str, time: f64, steps: u64) -> ! {
    raise(
        model,
        time,
        FaultKind::InternalSteps { limit: steps },
        format_args!(
            "`{model}` did not finish its step at t = {time} within {steps} internal steps of \
             `{method}`{}: its steps were rejected or shrank again and again. Likely {}a host \
             step too long for the bound, which counts the internal steps of one host step \
             (a shorter --dt), rates that are not finite (run with --check-finite to find \
             the first), or tolerances below what f64 resolves",
            PerUnit { method, steps },
            match method {
                // The implicit method: stiffness is what it is for.
                "rodas4" | "rodas5p" => "",
                _ => {
                    "a stiff model (fast and slow time scales: an explicit method needs tiny \
                     steps; the implicit method `rodas5p` suits it), "
                }
            }
        ),
    )
}

/// Stops the program: model `model`, in its step from time `time`, located more than
/// `events` events inside that one step (its bound): its events chatter, each
/// discrete pass bringing the next crossing closer (Zeno behaviour, such as a ball
/// bouncing ever lower without a speed below which it rests).
///
/// Called by the generated code and by the interpreter alike; a fault of the model
/// ([`FaultKind::EventsChatter`]).
#[cold]
#[track_caller]
pub fn events_overrun(model: &str, time: f64, events: u64) -> ! {
    raise(
        model,
        time,
        FaultKind::EventsChatter { limit: events },
        format_args!(
            "`{model}` located more than {events} events inside its step at t = {time}: its events chatter (Zeno behaviour: crossings ever closer, as a ball bouncing ever lower, or guards that switch each other back at once); give the switching a condition that ends it, such as a speed below which the ball rests. A model written for a fixed step (`euler`) may chatter under an adaptive method"
        ),
    )
}

/// The factorisation of an implicit method's iteration matrix `I/(γh) − J` (`n × n`
/// row-major in `a`, `n` the length of `piv`) in place by
/// [`crate::linear::lu_factor_real`], the pivots into `piv`: the one elimination that
/// the generated code, the interpreter and the batch form call for `rodas4`'s stage
/// solves. A matrix without a nonzero finite pivot stops the program: model `model`,
/// in its step from `time`, under `method` ([`FaultKind::SingularMatrix`]).
#[track_caller]
#[inline]
pub fn stage_factor(model: &str, method: &str, time: f64, a: &mut [f64], piv: &mut [f64]) {
    let factored = crate::linear::lu_factor_real(piv.len(), a, piv);
    singular(model, method, time, factored);
}

/// [`stage_factor`] for an iteration matrix held as a band (`kl` sub- and `ku`
/// super-diagonals, `n` the length of `piv`, in the storage of
/// [`crate::linear::band_factor_real`]), factorised by that function: the form the
/// lowering chooses for many states with a narrow band in their Jacobian's pattern,
/// the states reordered to narrow it. A singular matrix stops the program as under
/// [`stage_factor`] (the column counted in the band's order).
#[track_caller]
#[inline]
pub fn stage_band_factor(
    model: &str,
    method: &str,
    time: f64,
    (kl, ku): (usize, usize),
    a: &mut [f64],
    piv: &mut [f64],
) {
    let factored = crate::linear::band_factor_real(piv.len(), kl, ku, a, piv);
    singular(model, method, time, factored);
}

/// The fault of a factorisation that failed ([`FaultKind::SingularMatrix`]).
#[track_caller]
fn singular(
    model: &str,
    method: &str,
    time: f64,
    factored: Result<(), crate::linear::LinearError>,
) {
    match factored {
        Ok(()) => {}
        Err(crate::linear::LinearError::Singular(column)) => {
            // `radau5` factorises μ_r/h·I − J and the complex μ_c/h·I − J (as complex
            // numbers, or as a real matrix of twice the size); the Rosenbrock methods
            // one I/(γh) − J.
            let matrix = if method == "radau5" {
                "an iteration matrix μ/h·I − J of its Newton iteration"
            } else {
                "the iteration matrix I/(γh) − J"
            };
            raise(
                model,
                time,
                FaultKind::SingularMatrix { column },
                format_args!(
                    "`{model}` could not take its step at t = {time} under `{method}`: \
                     {matrix} has no usable pivot in column {column} (singular, or a \
                     Jacobian entry infinite or NaN: a rate whose slope is not finite \
                     there, such as sqrt at 0)"
                ),
            )
        }
        Err(crate::linear::LinearError::Shape) => raise(
            model,
            time,
            FaultKind::SingularMatrix { column: 0 },
            format_args!("`{model}`: the iteration matrix of `{method}` is malformed"),
        ),
    }
}

/// The solve of a stage of an implicit method with the factors of [`stage_factor`]:
/// `b` becomes the solution of `A·x = b` ([`crate::linear::lu_solve_real`]; factors
/// of another shape leave `b` as it is, which [`stage_factor`] never gives).
#[inline(always)]
pub fn stage_solve(lu: &[f64], piv: &[f64], b: &mut [f64]) {
    let _ = crate::linear::lu_solve_real(piv.len(), lu, piv, b);
}

/// [`stage_solve`] for a system whose order `N` the generated step knows (its arrays):
/// the same bits, by [`crate::linear::lu_solve_real_fixed`], whose substitutions run in
/// registers.
#[inline(always)]
pub fn stage_solve_fixed<const N: usize>(lu: &[f64], piv: &[f64; N], b: &mut [f64; N]) {
    let _ = crate::linear::lu_solve_real_fixed(lu, piv, b);
}

/// [`stage_factor`] for an iteration matrix whose entries outside the pattern `mask`
/// are zero (bit `i·n + j` for cell `(i, j)`, `n ≤ 11`: the lowering's symbolic LU of
/// the Jacobian's pattern and the diagonal), by
/// [`crate::linear::lu_factor_masked_real`]: the cells outside it left out while the
/// pivots stay on the diagonal. A singular matrix stops the program as under
/// [`stage_factor`].
#[track_caller]
#[inline]
pub fn stage_factor_masked(
    model: &str,
    method: &str,
    time: f64,
    mask: u128,
    a: &mut [f64],
    piv: &mut [f64],
) {
    let factored = crate::linear::lu_factor_masked_real(piv.len(), mask, a, piv);
    singular(model, method, time, factored);
}

/// The solve of a stage with the factors of [`stage_factor_masked`] and the same
/// `mask` ([`crate::linear::lu_solve_masked_real`]).
#[inline(always)]
pub fn stage_solve_masked(mask: u128, lu: &[f64], piv: &[f64], b: &mut [f64]) {
    let _ = crate::linear::lu_solve_masked_real(piv.len(), mask, lu, piv, b);
}

/// The solve of a stage with the band factors of [`stage_band_factor`] (the same
/// `kl`, `ku`): `b` becomes the solution of `A·x = b`
/// ([`crate::linear::band_solve_real`]; factors of another shape leave `b` as it is).
#[inline]
pub fn stage_band_solve((kl, ku): (usize, usize), lu: &[f64], piv: &[f64], b: &mut [f64]) {
    let _ = crate::linear::band_solve_real(piv.len(), kl, ku, lu, piv, b);
}

/// [`stage_factor`] for an iteration matrix held on the pattern of its sparse LU
/// factors (`lu`, the lowering's symbolic factorisation in its order of the unknowns),
/// factorised by [`crate::linear::sparse_factor_real`] with the pivots on the
/// diagonal. A zero or non-finite pivot stops the program as under [`stage_factor`]
/// (the row counted in the lowering's order).
#[track_caller]
#[inline]
pub fn stage_sparse_factor(
    model: &str,
    method: &str,
    time: f64,
    lu: &crate::linear::Symbolic<'_>,
    a: &mut [f64],
) {
    let factored = crate::linear::sparse_factor_real(lu, a);
    singular(model, method, time, factored);
}

/// The solve of a stage with the sparse factors of [`stage_sparse_factor`] (the same
/// `lu`): `b` becomes the solution ([`crate::linear::sparse_solve_real`]).
#[inline]
pub fn stage_sparse_solve(lu: &crate::linear::Symbolic<'_>, a: &[f64], b: &mut [f64]) {
    let _ = crate::linear::sparse_solve_real(lu, a, b);
}

/// [`stage_sparse_factor`] for a complex matrix (`radau5`'s `(α + iβ)/h·I − J`): `a`
/// holds the real parts of the cells of `lu`, then their imaginary parts, factorised by
/// [`crate::linear::sparse_factor_complex`].
#[track_caller]
#[inline]
pub fn stage_sparse_complex_factor(
    model: &str,
    method: &str,
    time: f64,
    lu: &crate::linear::Symbolic<'_>,
    a: &mut [f64],
) {
    let (re, im) = a.split_at_mut(a.len() / 2);
    let factored = crate::linear::sparse_factor_complex(lu, re, im);
    singular(model, method, time, factored);
}

/// The solve with the complex factors of [`stage_sparse_complex_factor`]: `b` holds
/// the right-hand side's real parts, then its imaginary parts, and becomes the
/// solution ([`crate::linear::sparse_solve_complex`]).
#[inline]
pub fn stage_sparse_complex_solve(lu: &crate::linear::Symbolic<'_>, a: &[f64], b: &mut [f64]) {
    let (re, im) = a.split_at(a.len() / 2);
    let (br, bi) = b.split_at_mut(b.len() / 2);
    let _ = crate::linear::sparse_solve_complex(lu, (re, im), br, bi);
}

/// Stops the program: model `model`, in its step from time `time`, proposed the
/// internal step `step` of `method` after a rejection, below what its time resolves
/// (at most `1e-14·(|t| + dt)`): a solution that is not smooth there (a blow-up, a
/// rate that is not finite), or tolerances below what `f64` resolves
/// ([`FaultKind::StepUnderflow`]).
#[cold]
#[track_caller]
pub fn step_underflow(model: &str, method: &str, time: f64, step: f64) -> ! {
    raise(
        model,
        time,
        FaultKind::StepUnderflow { step },
        format_args!(
            "`{model}` could not take its step at t = {time} under `{method}`: its internal \
             step shrank to {step:e}, below what the time resolves. Likely a solution that \
             blows up or is not smooth there, rates that are not finite (run with \
             --check-finite to find the first), or tolerances below what f64 resolves"
        ),
    )
}

/// What Hairer's test for stiffness in an adaptive explicit method (`dopri5`, `tsit5`,
/// `dop853`) found in a run: the model (or submodel) whose steps became bounded by the
/// method's stability, the method and the time from which. Its `Display` is the
/// warning every host prints once after a run (without `warning: `):
///
/// ```text
/// `Robertson` seems stiff from t = 0.0031 under `dopri5`: h·λ stayed past the method's
/// stability bound for 15 accepted steps in a row (Hairer's test), so its steps were
/// bounded by stability, not by the tolerances; the implicit method `rodas5p` suits it
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stiffness<'a> {
    /// The root model's name.
    pub root: &'a str,
    /// The submodel's dotted path under the root (empty for the root itself).
    pub path: &'a str,
    /// The integration method.
    pub method: &'a str,
    /// The time from which the steps were stiff (the first of the stiff steps in a row).
    pub time: f64,
}

impl core::fmt::Display for Stiffness<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("`")?;
        f.write_str(self.root)?;
        if !self.path.is_empty() {
            write!(f, ".{}", self.path)?;
        }
        write!(
            f,
            "` seems stiff from t = {} under `{}`: h·λ stayed past the method's stability \
             bound for 15 accepted steps in a row (Hairer's test), so its steps were bounded \
             by stability, not by the tolerances; the implicit method `rodas5p` suits it",
            self.time, self.method
        )
    }
}

/// The hidden state of the stiffness test that says a model was found stiff (see
/// `sit_middle`'s `lower::stiffness`): `METHOD_stiff_seen` (1 once found), followed by
/// `METHOD_stiff_at` (the time), for every model and submodel with an adaptive method.
const SEEN: &str = "_stiff_seen";

/// What the stiffness test found in `model` since its last reset, root model `root`:
/// one [`Stiffness`] per model or submodel found stiff, in the order of their hidden
/// states. Reads the hidden states only, so every back end (the interpreter, generated
/// code, an FMU) reports the same.
pub fn stiffness<'a>(
    model: &'a dyn crate::Model,
    root: &'a str,
) -> impl Iterator<Item = Stiffness<'a>> + 'a {
    let n = model.var_count();
    (n..n + model.hidden_count()).filter_map(move |i| {
        let name = model.var_info(i)?.name;
        let head = name.strip_suffix(SEEN)?;
        if model.get_at(i)? != 1.0 {
            return None;
        }
        let at = model.var_info(i + 1)?.name;
        if at.strip_suffix("_stiff_at")? != head {
            return None;
        }
        let (path, method) = match head.rfind('.') {
            Some(dot) => (&head[..dot], &head[dot + 1..]),
            None => ("", head),
        };
        Some(Stiffness {
            root,
            path,
            method,
            time: model.get_at(i + 1)?,
        })
    })
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use crate::{FaultKind, catch_fault};
    use std::string::ToString;

    #[test]
    fn the_stiffness_warning_names_the_model_the_method_and_the_time() {
        let w = super::Stiffness {
            root: "Rober",
            path: "",
            method: "dopri5",
            time: 0.25,
        };
        assert_eq!(
            w.to_string(),
            "`Rober` seems stiff from t = 0.25 under `dopri5`: h·λ stayed past the method's \
             stability bound for 15 accepted steps in a row (Hairer's test), so its steps \
             were bounded by stability, not by the tolerances; the implicit method `rodas5p` \
             suits it"
        );
        let sub = super::Stiffness { path: "cell", ..w };
        assert!(sub.to_string().starts_with("`Rober.cell` seems stiff"));
    }

    #[test]
    fn chattering_names_the_model_the_time_and_the_bound() {
        let fault = catch_fault(|| {
            super::events_overrun("Ball", 2.5, 1000);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "`Ball` located more than 1000 events inside its step at t = 2.5: its events \
             chatter (Zeno behaviour: crossings ever closer, as a ball bouncing ever lower, or \
             guards that switch each other back at once); give the switching a condition that \
             ends it, such as a speed below which the ball rests. A model written for a fixed \
             step (`euler`) may chatter under an adaptive method"
        );
        assert_eq!((fault.model.as_str(), fault.time), ("Ball", 2.5));
        assert_eq!(fault.kind, FaultKind::EventsChatter { limit: 1000 });
    }

    #[test]
    fn the_message_names_the_model_the_time_and_the_steps() {
        let fault = catch_fault(|| {
            super::internal_steps_overrun("Ball", "dopri5", 0.5, 10000);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "`Ball` did not finish its step at t = 0.5 within 10000 internal steps of \
             `dopri5` per unit of time of the host step (at least 10000, at most 1000000): \
             its steps were rejected or shrank again and again. Likely a stiff \
             model (fast and slow time scales: an explicit method needs tiny steps; the \
             implicit method `rodas5p` suits it), a host step too long for the bound, which \
             counts the internal steps of one host step (a shorter --dt), rates that are \
             not finite (run with --check-finite to find the first), or tolerances below \
             what f64 resolves"
        );
        assert_eq!(fault.kind, FaultKind::InternalSteps { limit: 10000 });
        // Under the implicit method stiffness is not offered as the cause.
        let fault = catch_fault(|| {
            super::internal_steps_overrun("VanDerPol", "rodas4", 0.0, 10000);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "`VanDerPol` did not finish its step at t = 0 within 10000 internal steps of \
             `rodas4` per unit of time of the host step (at least 10000, at most 1000000): \
             its steps were rejected or shrank again and again. Likely a host step \
             too long for the bound, which counts the internal steps of one host step (a \
             shorter --dt), rates that are not finite (run with --check-finite to find the \
             first), or tolerances below what f64 resolves"
        );
    }
}
