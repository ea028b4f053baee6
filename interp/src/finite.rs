//! The checked-finite mode: steps and resets that stop at the first NaN or infinity.

use crate::Instance;
use crate::code::{Code, Read};
use crate::exec;
use sit_runtime::Model;
use std::fmt;
use std::path::PathBuf;

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

impl fmt::Display for NonFinite {
    /// `hoop.sit:41: rule `Ay = F / m` made `Ay` = inf at t = 0.53`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (var, value, time) = (&self.var, self.value, self.time);
        match &self.origin {
            Some(o) => {
                let what = match o.kind {
                    SiteKind::Rule => "rule",
                    SiteKind::Declaration => "declaration",
                    SiteKind::Binding => "binding",
                };
                write!(
                    f,
                    "{}:{}: {what} `{}` made `{var}` = {value} at t = {time}",
                    o.file.display(),
                    o.line,
                    o.text
                )?
            }
            None => write!(f, "`{var}` = {value} at t = {time}")?,
        }
        for (k, (name, value)) in self.reads.iter().enumerate() {
            let lead = if k == 0 { " (reading " } else { ", " };
            write!(f, "{lead}{name} = {value}")?;
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
    NonFinite {
        var: s.var.clone(),
        value,
        time,
        origin: Some(Origin {
            kind: s.kind,
            file: file.map(|f| f.path.clone()).unwrap_or_default(),
            line,
            text: text.trim_end_matches(';').trim_end().to_string(),
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
