//! What `sitc run` and `sitc sweep` do at the first value that is not finite: stop and name the rule (the default), check every stored value, or go on.
//!
//! By default a run stops at the first step after which a variable is NaN or infinite,
//! with the rule that made it, its line, the time and the values the rule read, and
//! exits with 1; the rows before that step are written. The run itself is the plain one,
//! watched, and the rule is found by taking the step again, checked
//! ([`sit_runtime::finite`]), so the default costs what the watch costs.

/// The three ways of a run with non-finite values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finite {
    /// Stop at the first step after which a variable is not finite (the default).
    Stop,
    /// `--check-finite`: test every stored value as the run goes (the stage values of
    /// a method included) and stop at the first.
    Check,
    /// `--allow-non-finite`: run on, with one warning at the end.
    Allow,
}

impl Finite {
    /// The mode of `--check-finite` and `--allow-non-finite` (clap makes them exclusive).
    pub(crate) fn of(check: bool, allow: bool) -> Finite {
        match (check, allow) {
            (_, true) => Finite::Allow,
            (true, false) => Finite::Check,
            (false, false) => Finite::Stop,
        }
    }

    /// Whether the initial values are checked (every mode but [`Finite::Allow`]).
    pub(crate) fn checks_start(self) -> bool {
        self != Finite::Allow
    }
}
