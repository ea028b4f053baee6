//! Instantaneous phases in random models: a `phase` of an earlier model and a σ rule that runs it.

use super::{Decls, Gen};
use std::fmt::Write as _;

impl Gen {
    /// Appends to `body`, for about half of the models that have earlier models, a
    /// phase `ph0` of one of them (its first param bound to a state of this model, its
    /// inputs to states, so that bindings read values of the step) and a rule
    /// `when <c> => run(ph0);`. The phase ends when its own clock reaches 0.3 (three
    /// steps of 0.1) or earlier on a random condition, well within its limit of 10
    /// steps, so random models never stop on it. Drawn from a generator of its own, so
    /// that the rest of the file is what it would be without phases.
    pub(crate) fn phase(&mut self, d: &Decls, earlier: &[Decls], seed: u64, body: &mut String) {
        let mut own = fastrand::Rng::with_seed(seed ^ 0x7068_6173_6530);
        if earlier.is_empty() || own.bool() {
            return;
        }
        let child = &earlier[own.usize(..earlier.len())];
        let mut binds = Vec::new();
        if let Some(p) = child.params.first() {
            binds.push(format!("{p} = {} + 1", d.reals[own.usize(..d.reals.len())]));
        }
        for u in &child.inputs {
            binds.push(format!(
                "{u} = {} * 0.5",
                d.reals[own.usize(..d.reals.len())]
            ));
        }
        let saved = std::mem::replace(&mut self.rng, own);
        let until = self.logic(d, earlier, 1);
        let run = self.logic(d, earlier, 1);
        self.rng = saved;
        let _ = writeln!(
            body,
            "    phase ph0: {}({}) step 0.1 limit 10 until ph0.time >= 0.3 | {until};",
            child.name,
            binds.join(", ")
        );
        let _ = writeln!(body, "    when {run} => run(ph0);");
    }
}
