//! The checked-finite mode: steps and resets that stop at the first NaN or infinity.

use crate::Instance;
use crate::code::{Code, Read};
use crate::exec;
use sit_runtime::Model;
use std::cell::Cell;
use std::fmt;
use std::path::PathBuf;

thread_local! {
    /// The bound of the checked programs' test (`Op::Check`): a stored value whose
    /// magnitude is not below it stops the program. Infinity (the test is then "not
    /// finite") except inside [`Instance::step_checked_below`]. A thread-local, read
    /// only by the checked programs' test, so that the unchecked programs, the hot path,
    /// do not carry it.
    static BOUND: Cell<f64> = const { Cell::new(f64::INFINITY) };
}

/// The bound of the checked programs' test on this thread (see `BOUND`).
#[inline]
pub(crate) fn bound() -> f64 {
    BOUND.with(Cell::get)
}

/// What wrote a value that was not finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteKind {
    /// A δ rule of a model's body.
    Rule,
    /// A declaration's default or initial value (`real x = 1 / p;`).
    Declaration,
    /// A param or input binding of a submodel (`sub s: M(u = 1 / x)`).
    Binding,
}

/// The `.sit` source of a value: a rule, declaration or binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Rule, declaration or binding.
    pub kind: SiteKind,
    /// The `.sit` file, as it was given or imported.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// The source text, whitespace collapsed, without the final `;`.
    pub text: String,
    /// Where the value is an iterate of Newton's iteration for an equation's unknown
    /// (a hidden variable of the equations' pass), what became of the iteration.
    pub iteration: Option<Iteration>,
}

/// A value that is not finite (NaN or ±infinity), found by [`Instance::step_checked`],
/// [`Instance::reset_checked`] or [`Instance::check_values`].
#[derive(Debug, Clone, PartialEq)]
pub struct NonFinite {
    /// Dotted name of the variable (`roll.x`).
    pub var: String,
    /// The value (NaN, `inf` or `-inf`).
    pub value: f64,
    /// The root model's time at the start of the step (or of the check).
    pub time: f64,
    /// Where the value was computed; `None` when [`Instance::check_values`] found it in
    /// a variable (set from outside, or a param's default).
    pub origin: Option<Origin>,
    /// The variables the rule, binding or declaration read, with their values when it
    /// stored this one (dotted names, `t` for a time; hidden states and the written
    /// variable left out), in the order read.
    pub reads: Box<[(String, f64)]>,
}

/// What became of Newton's iteration for an equation's unknown whose hidden variable is
/// not finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iteration {
    /// A step went to infinity or NaN: a slope of zero, or a start too far from a
    /// solution.
    Diverged,
    /// The iteration ran its steps and the residual stayed large.
    Unconverged,
}

/// The unknown and the end of the iteration whose hidden variable `name` is
/// (`x_newton3`, `x_newton_l3`, `x_newton_check`: `sit_middle`'s equations pass), if it
/// is one.
fn newton(name: &str) -> Option<(&str, Iteration)> {
    let (unknown, rest) = name.rsplit_once("newton")?;
    let unknown = unknown.strip_suffix('_')?.trim_end_matches('_');
    let rest = rest.trim_start_matches('_');
    let numbered = |r: &str| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let end = if rest == "check" {
        Iteration::Unconverged
    } else if numbered(rest) || rest.strip_prefix(['l', 'q', 'j']).is_some_and(numbered) {
        Iteration::Diverged
    } else {
        return None;
    };
    (!unknown.is_empty()).then_some((unknown, end))
}

/// A value in a report: as `{}` writes it, but in the exponent form past 1e21 (a value
/// past 1e100, reported as a probable instability, in a few characters, not a hundred).
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() && self.0.abs() >= 1e21 {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl fmt::Display for NonFinite {
    /// `hoop.sit:41: rule `Ay = F / m` made `Ay` = inf at t = 0.53`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (var, value, time) = (&self.var, Num(self.value), self.time);
        match &self.origin {
            Some(o) => {
                let what = match o.kind {
                    SiteKind::Rule => "rule",
                    SiteKind::Declaration => "declaration",
                    SiteKind::Binding => "binding",
                };
                write!(
                    f,
                    "{}:{}: {what} `{}` made ",
                    o.file.display(),
                    o.line,
                    o.text
                )?;
                match o.iteration.zip(newton(var)) {
                    Some((Iteration::Unconverged, (unknown, _))) => write!(
                        f,
                        "Newton's iteration for `{unknown}` end without converging at t = {time} \
                         (its residual is still larger than 1e-9 of the equation's terms: \
                         the start, the last step's value, was too far from a solution, or \
                         there is none)"
                    )?,
                    Some((Iteration::Diverged, (unknown, _))) => write!(
                        f,
                        "Newton's iteration for `{unknown}` reach {value} at t = {time} (it \
                         diverged: the equation's slope vanished or the start was too far \
                         from a solution)"
                    )?,
                    None => write!(f, "`{var}` = {value} at t = {time}")?,
                }
            }
            None => write!(f, "`{var}` = {value} at t = {time}")?,
        }
        for (k, (name, value)) in self.reads.iter().enumerate() {
            let lead = if k == 0 { " (reading " } else { ", " };
            write!(f, "{lead}{name} = {}", Num(*value))?;
        }
        if !self.reads.is_empty() {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl std::error::Error for NonFinite {}

impl Instance {
    /// [`Model::step`], stopping at the first real value stored that is not finite (a
    /// division by zero, `sqrt` of a negative number, an overflow, ...): the error names
    /// the variable, the rule or binding that computed it and the time. The values are
    /// then those of the step so far (the faulty value stored, later rules not run,
    /// time not advanced); [`Model::reset`] starts again. Gives exactly the values of
    /// [`Model::step`] when it succeeds.
    pub fn step_checked(&mut self, dt: f64) -> Result<(), NonFinite> {
        let time = self.time();
        exec::step::<true>(&self.machine, &mut self.state, dt)
            .map_err(|(site, value)| fault(self.code(), &self.state.reals, site, value, time))
    }

    /// [`Instance::step_checked`] with the test "`|value| < bound`" instead of "finite":
    /// stops at the first real value stored whose magnitude reaches `bound` (or that is
    /// not finite), which the error names as [`Instance::step_checked`] does. For the
    /// report of a value that grows without bound (a probable instability): the rule
    /// that first stored a value past `1e100`. Gives exactly the values of
    /// [`Model::step`] when it succeeds.
    pub fn step_checked_below(&mut self, dt: f64, bound: f64) -> Result<(), NonFinite> {
        let before = BOUND.with(|b| b.replace(bound));
        let out = self.step_checked(dt);
        BOUND.with(|b| b.set(before));
        out
    }

    /// The first real variable of the public list (in index order) whose magnitude is
    /// not below `bound` (NaN and infinities included), with its value: the scan of
    /// [`Model::first_non_finite`] with that test, as cheap.
    pub fn first_beyond(&self, bound: f64) -> Option<(usize, f64)> {
        let code = self.code();
        (self.machine.watched)
            .first_beyond(code, &self.state, bound, |i| self.read(&code.vars[i].read))
    }

    /// [`Model::reset`], stopping at the first initial value or param binding that is
    /// not finite (as [`Instance::step_checked`]).
    pub fn reset_checked(&mut self) -> Result<(), NonFinite> {
        exec::reset::<true>(&self.machine, &mut self.state)
            .map_err(|(site, value)| fault(self.code(), &self.state.reals, site, value, 0.0))
    }

    /// The first real variable of the public list (params, derived params, inputs and
    /// states, in index order) whose value is not finite, if any: for values set from
    /// outside and param defaults, which no step computes.
    pub fn check_values(&self) -> Result<(), NonFinite> {
        match sit_runtime::finite::first_non_finite(self) {
            Some((i, value)) => Err(NonFinite {
                var: self.var_info(i).map_or("?", |v| v.name).to_string(),
                value,
                time: self.time(),
                origin: None,
                reads: Box::default(),
            }),
            None => Ok(()),
        }
    }
}

/// The fault of the value `value` stored at `site` at `time`, with the public values
/// the site read as `reals` holds them.
fn fault(code: &Code, reals: &[f64], site: usize, value: f64, time: f64) -> NonFinite {
    let s = &code.sites[site];
    let reads = (s.reads.iter())
        .filter_map(|&slot| Some((slot_name(code, slot)?, *reals.get(slot)?)))
        .collect();
    let file = code.sources.files.get(s.span.file);
    let line = file.map_or(0, |f| f.line(s.span.start));
    let text = file.map_or("", |f| match s.kind {
        // A declaration's span is its name: show the whole declaration line.
        SiteKind::Declaration => f.line_text(line),
        SiteKind::Rule | SiteKind::Binding => f.text.get(s.span.start..s.span.end).unwrap_or(""),
    });
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // A hidden variable (not among the public ones) of Newton's iteration.
    let public = code.vars[..code.shown].iter().any(|v| v.name == s.var);
    NonFinite {
        var: s.var.clone(),
        value,
        time,
        origin: Some(Origin {
            kind: s.kind,
            file: file.map(|f| f.path.clone()).unwrap_or_default(),
            line,
            text: text.trim_end_matches(';').trim_end().to_string(),
            iteration: (!public)
                .then(|| newton(&s.var))
                .flatten()
                .map(|(_, end)| end),
        }),
        reads,
    }
}

/// The name of real slot `slot` in a report: the public variable stored there, or `t`
/// for a time (the root's, or a submodel's that is its own); `None` for hidden states
/// and the rest.
fn slot_name(code: &Code, slot: usize) -> Option<String> {
    let public = code.vars[..code.shown].iter();
    if let Some(v) = public
        .into_iter()
        .find(|v| matches!(v.read, Read::Real(s) if s == slot))
    {
        return Some(v.name.clone());
    }
    code.nodes
        .iter()
        .any(|n| n.time == slot)
        .then(|| "t".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(src: &str) -> Instance {
        crate::tests::first_root("nf.sit", src)
    }

    #[test]
    fn division_by_zero_names_rule_variable_and_time() {
        let mut m = instance(
            "model Div {\n  param m = 0;\n  real F = 1;\n  output real Ay;\n  \
             Ay = F / m when time >= 0.5;\n}\n",
        );
        let mut steps = 0;
        let fault = loop {
            match m.step_checked(0.125) {
                Ok(()) => steps += 1,
                Err(f) => break f,
            }
        };
        // 0.125 is exact in binary: the fault is in the step that starts at t = 0.5.
        assert_eq!(steps, 4);
        assert_eq!(fault.var, "Ay");
        assert_eq!(fault.value, f64::INFINITY);
        assert_eq!(fault.time, 0.5);
        let origin = fault.origin.clone().unwrap();
        assert_eq!((origin.kind, origin.line), (SiteKind::Rule, 5));
        assert_eq!(origin.text, "Ay = F / m when time >= 0.5");
        assert_eq!(
            fault.to_string(),
            "nf.sit:5: rule `Ay = F / m when time >= 0.5` made `Ay` = inf at t = 0.5 \
             (reading F = 1, m = 0)"
        );
        // The faulty value is stored, the clock is not advanced.
        assert_eq!(m.get("Ay"), Some(f64::INFINITY));
        assert_eq!(m.time(), 0.5);
    }

    #[test]
    fn nan_in_a_submodel_and_in_a_binding() {
        let src = "model Root {\n  input real u;\n  output real y;\n  y = sqrt(u);\n}\n\
                   model Top {\n  real x = 1;\n  sub r: Root(u = -x);\n  sub s: Root(u = 1 / (x - 1));\n  \
                   output real z;\n  z = r.y + s.y;\n}\n";
        let mut m = instance(src);
        let fault = m.step_checked(0.1).unwrap_err();
        // r steps first: its input is -1 (finite), sqrt(-1) is NaN in r's rule.
        assert_eq!(fault.var, "r.y");
        assert!(fault.value.is_nan());
        let origin = fault.origin.unwrap();
        assert_eq!((origin.kind, origin.line), (SiteKind::Rule, 4));
        assert_eq!(origin.text, "y = sqrt(u)");

        let mut m = instance(&src.replace("u = -x", "u = x"));
        let fault = m.step_checked(0.1).unwrap_err();
        assert_eq!(fault.var, "s.u");
        assert_eq!(fault.value, f64::INFINITY);
        let origin = fault.origin.unwrap();
        assert_eq!((origin.kind, origin.line), (SiteKind::Binding, 9));
        assert_eq!(origin.text, "u = 1 / (x - 1)");
        assert_eq!(*fault.reads, [("x".to_string(), 1.0)]);
    }

    #[test]
    fn initial_values_and_values_set_from_outside() {
        let mut m =
            instance("model M {\n  param p = 1;\n  output real x = 1 / p;\n  x = x + 1;\n}\n");
        assert_eq!(m.reset_checked(), Ok(()));
        m.set("p", 0.0).unwrap();
        let fault = m.reset_checked().unwrap_err();
        assert_eq!(fault.var, "x");
        assert_eq!(
            fault.to_string(),
            "nf.sit:3: declaration `output real x = 1 / p` made `x` = inf at t = 0 (reading p = 0)"
        );
        m.set("p", f64::NEG_INFINITY).unwrap();
        let fault = m.check_values().unwrap_err();
        assert_eq!((fault.var.as_str(), &fault.origin), ("p", &None));
        assert_eq!(fault.to_string(), "`p` = -inf at t = 0");
    }

    #[test]
    fn a_bound_names_the_rule_that_passed_it() {
        // Euler on y' = -1000·y at dt = 2.5e-3: y·(1 − 2.5) each step, so |y| = 1.5^k.
        let src = "model Fast {\n  output real y = 1;\n  real z;\n  y = integral(-1000 * y);\n  \
                   z = 2 * y;\n}\n";
        let mut m = instance(src);
        let mut steps = 0;
        let fault = loop {
            match m.step_checked_below(2.5e-3, 1e10) {
                Ok(()) => steps += 1,
                Err(f) => break f,
            }
        };
        // z = 2·y passes 1e10 one step before y does: 2·1.5^k ≥ 1e10 first at k = 56.
        assert_eq!(steps, 55);
        assert_eq!(fault.var, "z");
        assert!(fault.value.abs() >= 1e10 && fault.value.is_finite());
        assert_eq!(fault.origin.unwrap().text, "z = 2 * y");
        assert_eq!(
            m.first_beyond(1e10)
                .map(|(i, _)| m.var_info(i).unwrap().name),
            Some("z")
        );
        // The bound is only for that call: the plain checked step tests finiteness.
        let mut m = instance(src);
        for _ in 0..60 {
            m.step_checked(2.5e-3).unwrap();
        }
        assert_eq!(m.first_beyond(f64::INFINITY), None);
        assert!(m.first_beyond(1e10).is_some());
    }

    #[test]
    fn checked_steps_give_the_values_of_unchecked_steps() {
        let src = "model Osc {\n  param k = 4;\n  output real x = 1;\n  output real v;\n  \
                   flag hit;\n  pred low = x <= 0;\n  v = integral(-k * x);\n  x = integral(v);\n  \
                   when low => hit;\n}\n";
        let (mut a, mut b) = (instance(src), instance(src));
        for _ in 0..1000 {
            a.step(0.01);
            b.step_checked(0.01).unwrap();
        }
        assert_eq!(a.state, b.state);
    }
}
