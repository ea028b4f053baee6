//! Sub-steps in random models: `substeps` with a random condition and a count that is always within its limit.

use super::{Decls, Gen};
use std::fmt::Write as _;

impl Gen {
    /// Appends to `body`, for about a third of the models, a declaration
    /// `substeps 1 + min(abs(e), 1) when c limit 2;` with a random real `e` and
    /// logical `c`: one or two sub-steps (`min` ignores a NaN, so the count is never
    /// out of bounds and random models never stop on it; at most two keeps nested
    /// sub-steps cheap). Drawn from a generator of its own, so that the rest of the
    /// file is what it would be without sub-steps.
    pub(crate) fn substeps(&mut self, d: &Decls, earlier: &[Decls], seed: u64, body: &mut String) {
        let mut own = fastrand::Rng::with_seed(seed ^ 0x7375_6273_7465_7073);
        if own.u8(..3) != 0 {
            return;
        }
        let saved = std::mem::replace(&mut self.rng, own);
        let count = self.real_expr(d, earlier, 2);
        let when = self.logic(d, earlier, 1);
        self.rng = saved;
        let _ = writeln!(
            body,
            "    substeps 1 + min(abs({count}), 1) when {when} limit 2;"
        );
    }
}
