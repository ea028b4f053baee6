//! A node that divides its step (`substeps`), lowered to the programs that [`Op::Substeps`] runs (see `sit_lir::SubstepLink`).

use super::{Consts, Flattener, Pair};
use crate::code::Code;
use crate::ops::{Op, Slot};

/// The programs of one node's sub-steps, run by [`Op::Substeps`]: `enter` (the
/// condition into flag slot `go`, the count into real slot `count`), then `step` (one
/// whole step of the node, its submodels inlined, with `dt` read from the node's `dt`
/// slot, its clock ticked, its `otherwise` flags cleared after it) once with `dt`, or
/// `n` times with `dt / n`.
#[derive(Debug)]
pub(crate) struct SubstepProgram {
    /// The condition and the count.
    pub enter: Pair,
    /// The flag slot of the condition after `enter` (unchecked, checked).
    pub go: [Slot; 2],
    /// The real slot of the count after `enter` (unchecked, checked).
    pub count: [Slot; 2],
    /// One whole step of the node.
    pub step: Pair,
    /// The most sub-steps of one step.
    pub limit: u64,
    /// The node (the index of its clock).
    pub node: usize,
    /// The real slot of the node's time.
    pub time: Slot,
    /// The real slot of the node's `dt`, which `step` reads.
    pub dt: Slot,
    /// The model's name (for the run-time error).
    pub model: String,
}

/// The sub-step programs of every node that has them, in node order; the most real
/// and flag temporaries used are added to `max`; only the variants `checks` are lowered.
pub(super) fn programs(
    code: &Code,
    consts: &mut Consts,
    temp_base: usize,
    checks: &[bool],
    max: &mut (usize, usize),
) -> Option<Vec<SubstepProgram>> {
    let mut out = Vec::new();
    for (n, node) in code.nodes.iter().enumerate() {
        let Some(sc) = &node.substeps else {
            continue;
        };
        let mut enter = [Box::default(), Box::default()];
        let mut step = [Box::default(), Box::default()];
        let (mut go, mut count) = ([0; 2], [0; 2]);
        for &check in checks {
            let c = usize::from(check);
            let mut l = Flattener::new(code, &mut *consts, temp_base, check);
            go[c] = l.flag_value(&sc.when.0);
            count[c] = l.in_slot(&sc.count.0);
            *max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
            enter[c] = l.finish()?;
            let mut l = Flattener::new(code, &mut *consts, temp_base, check);
            let dt = l.slot(node.dt);
            l.dt_override = Some(dt);
            l.substep_self = Some(n);
            l.step(n);
            // The `otherwise` flags of the node and its submodels, false for the next
            // sub-step or step.
            for f in std::mem::take(&mut l.fired) {
                let d = l.slot(f);
                l.emit(Op::SetFlag { d, v: false });
            }
            *max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
            step[c] = l.finish()?;
        }
        out.push(SubstepProgram {
            enter,
            go,
            count,
            step,
            limit: sc.limit,
            node: n,
            time: Slot::try_from(node.time).ok()?,
            dt: Slot::try_from(node.dt).ok()?,
            model: sc.model.clone(),
        });
    }
    Some(out)
}

impl Flattener<'_> {
    /// If node `n` divides its step and this is not the program of its sub-steps:
    /// emits the run of its sub-steps ([`Op::Substeps`], with the caller's `dt`) and
    /// returns true.
    pub(super) fn substeps_of(&mut self, n: usize) -> bool {
        if self.code.nodes[n].substeps.is_none() || self.substep_self.take() == Some(n) {
            return false;
        }
        let before = self.code.nodes[..n]
            .iter()
            .filter(|x| x.substeps.is_some())
            .count();
        let id = self.slot(before);
        let dt = self.dt();
        let check = self.check;
        self.emit(Op::Substeps { id, dt, check });
        // Any slot may change.
        self.held = None;
        true
    }
}
