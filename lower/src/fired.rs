//! Liveness of the `otherwise` flags: which sets of a flag some later read can see.
//!
//! The rules of `step` set flag `k` when they assign the target of an `otherwise`
//! rule, which reads it. A set is kept only when a read can see it, that is when the
//! flag is live after the set (some path from it reaches a read without passing another
//! set), so generated code has no dead store (rustc's `unused_assignments`). A flag
//! whose initial `false` no read can see (every path to every read sets it) is `true`
//! at every read: it is [`crate::FlagUse::AlwaysSet`] and never set.

use super::rewrite::{Rewrite, Stmt};
use crate::ir::Assign;

/// Where each `otherwise` flag is set and read, by pre-order position of the statements
/// (the first top-level statement is 1; a block's first statement follows its `if`).
#[derive(Debug, Clone)]
pub(crate) struct Fired {
    /// Per flag: whether some `otherwise` rule reads it (the flag exists only then).
    pub read: Vec<bool>,
    /// Per flag: whether a read can see its initial `false`.
    pub initial_live: Vec<bool>,
    /// Per position: whether the assignment there must set its flag.
    set_at: Vec<bool>,
}

impl Fired {
    /// The flags of a rule list with `flags` flags.
    pub(crate) fn new(body: &[Stmt], flags: usize) -> Fired {
        let mut fired = Fired {
            read: vec![false; flags],
            initial_live: vec![false; flags],
            set_at: vec![false; size(body) + 1],
        };
        let mut live = vec![false; flags];
        fired.backward(body, 1, &mut live);
        fired.initial_live = live;
        fired
    }

    /// Whether the assignment of flag `k` at position `pos` is emitted.
    pub(crate) fn sets(&self, k: usize, pos: usize) -> bool {
        self.set_at.get(pos).copied().unwrap_or(false)
            && self.initial_live.get(k).copied().unwrap_or(false)
    }

    /// Whether some emitted assignment sets flag `k` (its local is `mut` then).
    pub(crate) fn ever_set(&self, body: &[Stmt], k: usize) -> bool {
        let mut found = false;
        let mut pos = 0;
        visit_assigns(body, &mut pos, &mut |a, p| {
            found |= a.fired == Some(k) && self.sets(k, p);
        });
        found
    }

    /// Backward liveness over `body`, whose first statement is at position `first`;
    /// `live` is the liveness after the body on entry and before it on return.
    fn backward(&mut self, body: &[Stmt], first: usize, live: &mut [bool]) {
        let mut positions = Vec::with_capacity(body.len());
        let mut p = first;
        for s in body {
            positions.push(p);
            p += 1 + nested(s);
        }
        for (s, &p) in body.iter().zip(&positions).rev() {
            match s {
                Stmt::Assign(a) => {
                    if let Some(k) = self.live_set(a, p, live) {
                        live[k] = false;
                    }
                }
                Stmt::Otherwise { assign, fired } => {
                    // `if !fired { assign }`: the set is conditional, so it kills nothing.
                    self.live_set(assign, p, live);
                    if let Some(l) = live.get_mut(*fired) {
                        *l = true;
                    }
                    if let Some(r) = self.read.get_mut(*fired) {
                        *r = true;
                    }
                }
                Stmt::If { then, .. } => {
                    let mut inner = live.to_vec();
                    self.backward(then, p + 1, &mut inner);
                    for (l, i) in live.iter_mut().zip(inner) {
                        *l |= i;
                    }
                }
                // A method's loop: the flags its body sets are cleared after each run of
                // it, so one run is a fresh pass, seen here as a block, whose sets no
                // read after the run can see.
                Stmt::Added(Rewrite::Repeat { body: then, .. }) => {
                    let mut inner = live.to_vec();
                    visit_assigns(then, &mut 0, &mut |a, _| {
                        if let Some(l) = a.fired.and_then(|k| inner.get_mut(k)) {
                            *l = false;
                        }
                    });
                    self.backward(then, p + 1, &mut inner);
                    for (l, i) in live.iter_mut().zip(inner) {
                        *l |= i;
                    }
                }
                Stmt::SetFlag { .. }
                | Stmt::Switch { .. }
                | Stmt::Reset { .. }
                | Stmt::Run { .. }
                | Stmt::Step { .. }
                | Stmt::Added(
                    Rewrite::SetDt { .. }
                    | Rewrite::NoteModes { .. }
                    | Rewrite::Event { .. }
                    | Rewrite::Factor { .. }
                    | Rewrite::Solve { .. }
                    | Rewrite::Underflow { .. },
                )
                | Stmt::SetMode { .. } => {}
            }
        }
    }

    /// Marks the set of `a`'s flag at `p` when the flag is live; returns the flag then.
    fn live_set(&mut self, a: &Assign, p: usize, live: &[bool]) -> Option<usize> {
        let k = a.fired?;
        if !live.get(k).copied().unwrap_or(false) {
            return None;
        }
        if let Some(s) = self.set_at.get_mut(p) {
            *s = true;
        }
        Some(k)
    }
}

/// The number of statements nested inside `s`.
fn nested(s: &Stmt) -> usize {
    size(s.children())
}

/// The number of statements of `body`, nested ones included.
fn size(body: &[Stmt]) -> usize {
    body.iter().map(|s| 1 + nested(s)).sum()
}

/// Calls `f` with every assignment of `body` and its pre-order position (counted from
/// `pos`, which ends past the last statement).
fn visit_assigns(body: &[Stmt], pos: &mut usize, f: &mut impl FnMut(&Assign, usize)) {
    crate::ir::walk(body, &mut |s| {
        *pos += 1;
        if let Some(a) = s.assign() {
            f(a, *pos);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fired_of(src: &str) -> (crate::rewrite::Model, Fired) {
        let out = crate::check_source("t.sit", src);
        let program = out.program.expect("checks");
        let m = program.models[0].clone().widen::<Rewrite>();
        let fired = Fired::new(&m.body, m.fired);
        (m, fired)
    }

    #[test]
    fn conditional_sets_are_all_kept() {
        let (m, f) = fired_of(
            "model M { input flag a; input flag b; real x;
             x = 1 when a; x = 2 when b; x = 3 otherwise; }",
        );
        assert_eq!(f.read, vec![true]);
        assert_eq!(f.initial_live, vec![true]);
        // Positions: 1 and 3 the guards, 2 and 4 their rules, 5 the `otherwise` rule.
        assert!(f.sets(0, 2) && f.sets(0, 4) && !f.sets(0, 5));
        assert!(f.ever_set(&m.body, 0));
    }

    #[test]
    fn a_set_overwritten_before_any_read_is_dropped() {
        let (m, f) = fired_of(
            "model M { input flag a; input flag b; real x;
             when a { x = 1; x = 2; } x = 3 otherwise; }",
        );
        // Positions: 1 the block, 2 and 3 its rules, 4 the `otherwise` rule.
        assert!(!f.sets(0, 2), "the first set is overwritten by the second");
        assert!(f.sets(0, 3));
        assert!(f.initial_live[0] && f.ever_set(&m.body, 0));
    }

    #[test]
    fn a_flag_always_set_before_its_read_is_constant() {
        let (m, f) = fired_of("model M { real x; x = 1; x = 3 otherwise; }");
        assert_eq!(f.read, vec![true]);
        assert_eq!(f.initial_live, vec![false]);
        assert!(!f.sets(0, 1));
        assert!(!f.ever_set(&m.body, 0));
    }
}
