//! The rule that made a run's first non-finite value: a plain run watched after each step, and the step that made it taken again, checked.
//!
//! A plain (unchecked) run is watched after each step ([`sit_runtime::finite::Watch`]),
//! which costs little; when the watch sees a value that is not finite, the step that
//! made it is taken again in the checked mode from the last [`Checkpoint`] (a copy of
//! the model kept every [`Checkpoint::EVERY`] steps). The checked mode gives the same
//! values as the plain one up to its fault, so the replay reaches the same step and
//! names the first value that step stored that was not finite: the rule, its line, the
//! time and the values it read ([`NonFinite`]). `sitc run` keeps the checkpoints as it
//! runs; a sweep's row, Python's run and the page replay with [`first_fault`].

use crate::{Instance, NonFinite};
use sit_runtime::Model;
use sit_runtime::drive::Driven;
use sit_runtime::finite::NonFiniteSeen;

/// The model as it was after step `step`: where the replay of a step that made a
/// non-finite value starts.
pub struct Checkpoint {
    step: u64,
    model: Driven<Instance>,
}

impl Checkpoint {
    /// Steps between two copies: a replay takes at most this many plain steps, and a
    /// copy (the model's values, a few allocations) is far below the cost of the steps.
    pub const EVERY: u64 = 1 << 16;

    /// The model before its first step.
    pub fn start(model: &Driven<Instance>) -> Checkpoint {
        Checkpoint {
            step: 0,
            model: model.clone(),
        }
    }

    /// Keeps a copy of `model`, as it is after step `step`, every [`Checkpoint::EVERY`]
    /// steps.
    #[inline]
    pub fn after(&mut self, step: u64, model: &Driven<Instance>) {
        if step.is_multiple_of(Self::EVERY) {
            self.step = step;
            self.model.clone_from(model);
        }
    }

    /// The fault of step `step` (of length `dt`), in which the watch saw `seen`: the
    /// steps from the checkpoint to it again, the last one checked. A step that stored
    /// nothing non-finite (a value a host set, a derived param read) is reported by
    /// the variable the watch saw.
    pub fn locate(mut self, step: u64, dt: f64, seen: &NonFiniteSeen) -> NonFinite {
        for _ in self.step + 1..step {
            self.model.step(dt);
        }
        self.model.enter_step(dt);
        match self.model.model.step_checked(dt) {
            Err(fault) => fault,
            Ok(()) => NonFinite {
                var: (self.model.var_info(seen.index))
                    .map_or("?", |v| v.name)
                    .to_string(),
                value: seen.value,
                time: seen.from.unwrap_or(seen.time),
                origin: None,
                reads: Box::default(),
            },
        }
    }
}

impl Checkpoint {
    /// The first value stored whose magnitude reaches `bound` (a probable instability,
    /// `sitc run`'s report of a value past 1e100) in the steps after the checkpoint up to
    /// step `step` (of length `dt`), in which a scan of the public values saw one: the
    /// steps taken again, checked with [`Instance::step_checked_below`], until one stops.
    /// `None` when none does (a value set from outside).
    pub fn locate_beyond(mut self, step: u64, dt: f64, bound: f64) -> Option<NonFinite> {
        for _ in self.step + 1..=step {
            self.model.enter_step(dt);
            if let Err(fault) = self.model.model.step_checked_below(dt, bound) {
                return Some(fault);
            }
            self.model.drive();
        }
        None
    }
}

impl Checkpoint {
    /// The first value stored in step `step` (of length `dt`) whose magnitude reaches
    /// `bound`: the steps from the checkpoint before it taken again plainly, then that
    /// one checked with [`Instance::step_checked_below`] (for a value that grew past
    /// `bound` in that step only, where an earlier step may hold larger values that are
    /// the model's own). `None` when it stores none.
    pub fn locate_in_step(mut self, step: u64, dt: f64, bound: f64) -> Option<NonFinite> {
        for _ in self.step + 1..step {
            self.model.step(dt);
        }
        self.model.enter_step(dt);
        self.model.model.step_checked_below(dt, bound).err()
    }
}

/// The fault that made a run meet a non-finite value: `model` (set up, before its first
/// step) run again for at most `steps` steps of `dt`, watched, and the step that made
/// the first one taken again, checked ([`Checkpoint::locate`]); a non-finite initial
/// value is named by [`Instance::check_values`]. `None` if the run meets none (a run
/// that cannot be repeated).
pub fn first_fault(mut model: Driven<Instance>, dt: f64, steps: u64) -> Option<NonFinite> {
    if let Err(fault) = model.model.check_values() {
        return Some(fault);
    }
    let mut watch = sit_runtime::finite::Watch::new();
    let mut checkpoint = Checkpoint::start(&model);
    for k in 1..=steps {
        let from = model.time();
        model.step(dt);
        if watch.look(&model.model, Some(from)) {
            let seen = *watch.seen()?;
            return Some(checkpoint.locate(k, dt, &seen));
        }
        checkpoint.after(k, &model);
    }
    None
}

/// The magnitude past which a value is taken for a probable instability (a step too
/// long for the model's fastest time scale): `sitc run` stops at the first row that
/// holds one, a sweep's row whose collected values reach it is an error, as at a
/// non-finite value, and Python and the page say the same.
pub const BLOWUP: f64 = 1e100;

/// The fault that made a run reach a value past `bound` (a probable instability):
/// `model` (set up, before its first step) run again for at most `steps` steps of `dt`,
/// its public values scanned after each step ([`Instance::first_beyond`]), and the
/// steps from the last [`Checkpoint`] taken again, checked against the bound
/// ([`Checkpoint::locate_beyond`]). A value past the bound that no step stored (one set
/// from outside) is named by the variable the scan saw; a non-finite value met first is
/// named as [`first_fault`] names it. `None` if the run reaches none.
pub fn first_beyond(
    mut model: Driven<Instance>,
    dt: f64,
    steps: u64,
    bound: f64,
) -> Option<NonFinite> {
    let mut checkpoint = Checkpoint::start(&model);
    for k in 1..=steps {
        model.step(dt);
        if let Some((index, value)) = model.model.first_beyond(bound) {
            let seen = NonFinite {
                var: (model.var_info(index)).map_or("?", |v| v.name).to_string(),
                value,
                time: model.time(),
                origin: None,
                reads: Box::default(),
            };
            return Some(checkpoint.locate_beyond(k, dt, bound).unwrap_or(seen));
        }
        checkpoint.after(k, &model);
    }
    None
}
