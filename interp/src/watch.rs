//! The scan for a non-finite public value after a step: the stored reals read straight from the slot array.
//!
//! Every host watches an unchecked run for its first non-finite value after each step
//! (`sit_runtime::finite::Watch`). Through the generic interface that is a call of
//! `var_info` and `get_at` per variable, more than half of a small model's step in the
//! interpreter. [`Watched`] lists once, at construction, the real slots behind the
//! public variables and the few computed reals (derived params, read by evaluating
//! them), so that the scan is one branch-free pass over those slots; only when it
//! finds a non-finite value does [`Watched::first`] look for the first one in index
//! order, with the answer of the generic scan.

use crate::code::{Code, Read, State};
use sit_runtime::ValueType;

/// The public real variables of a compiled program, by how they are read.
#[derive(Debug, Default)]
pub(crate) struct Watched {
    /// The slots of the stored ones, as runs of consecutive slots `start..end` (in slot
    /// order: only their finiteness is summed), so that the scan is over slices.
    runs: Vec<(usize, usize)>,
    /// The indices of the computed ones (derived params).
    computed: Vec<usize>,
}

impl Watched {
    /// The public real variables of `code`.
    pub(crate) fn of(code: &Code) -> Watched {
        let mut w = Watched::default();
        let mut slots = Vec::new();
        for (i, v) in code.vars[..code.shown].iter().enumerate() {
            match (&v.read, v.ty) {
                (Read::Real(slot), ValueType::Real) => slots.push(*slot),
                (Read::Num(_), ValueType::Real) => w.computed.push(i),
                _ => {}
            }
        }
        slots.sort_unstable();
        slots.dedup();
        for s in slots {
            match w.runs.last_mut() {
                Some((_, end)) if *end == s => *end += 1,
                _ => w.runs.push((s, s + 1)),
            }
        }
        w
    }

    /// The first public real variable of `state` (in index order) that is not finite,
    /// with its value; `read` reads variable `i` as `get_at` does.
    #[inline]
    pub(crate) fn first(
        &self,
        code: &Code,
        state: &State,
        read: impl Fn(usize) -> f64,
    ) -> Option<(usize, f64)> {
        self.first_where(code, state, read, f64::is_finite)
    }

    /// The first public real variable of `state` (in index order) whose magnitude is
    /// not below `bound` (a NaN included), with its value.
    #[inline]
    pub(crate) fn first_beyond(
        &self,
        code: &Code,
        state: &State,
        bound: f64,
        read: impl Fn(usize) -> f64,
    ) -> Option<(usize, f64)> {
        self.first_where(code, state, read, |x| x.abs() < bound)
    }

    /// The first public real variable of `state` (in index order) whose value is not
    /// `ok`, with its value.
    #[inline(always)]
    fn first_where(
        &self,
        code: &Code,
        state: &State,
        read: impl Fn(usize) -> f64,
        ok: impl Fn(f64) -> bool,
    ) -> Option<(usize, f64)> {
        let reals = &state.reals;
        // Branch-free within a run: `&` of every slot's test, then of the computed ones.
        let stored =
            (self.runs.iter()).all(|&(a, b)| reals[a..b].iter().fold(true, |all, &x| all & ok(x)));
        if stored && self.computed.iter().all(|&i| ok(read(i))) {
            return None;
        }
        (0..code.shown).find_map(|i| {
            let v = &code.vars[i];
            if v.ty != ValueType::Real {
                return None;
            }
            let value = read(i);
            (!ok(value)).then_some((i, value))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::first_root;
    use sit_runtime::finite::scan_variables;
    use sit_runtime::{Model, VarKind};

    /// Params, a derived param, flags between reals, a submodel's variables, and a
    /// method with hidden states (rk4's stage memories), so that the slots of the
    /// public reals are not one run and hidden slots lie among them.
    const SRC: &str = "model Tank { input real q; output real h = 1; h = integral(q - h); }
        model Plant {
            method rk4;
            param a = 2;
            param b = 1 / a;
            flag armed;
            real x = 1;
            flag hot;
            real y;
            sub t: Tank(q = x);
            when x > 5 => hot;
            y = x * b;
            x = integral(-a * x);
        }";

    /// The fast scan answers as the generic one, variable by variable, whatever
    /// value is made non-finite (NaN, inf, -inf) and wherever it is.
    #[test]
    fn the_slot_scan_answers_as_the_generic_scan() {
        let fresh = first_root("plant.sit", SRC);
        assert_eq!(fresh.first_non_finite(), None);
        assert_eq!(scan_variables(&fresh), None);
        let mut cases = 0;
        for i in 0..fresh.var_count() {
            let info = fresh.var_info(i).unwrap();
            if !info.settable || info.ty != sit_runtime::ValueType::Real {
                continue;
            }
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let mut m = fresh.clone();
                m.set_at(i, bad).unwrap();
                // Set a later variable too: the first in index order is reported.
                if let Some(j) = (i + 1..m.var_count()).find(|&j| {
                    m.var_info(j)
                        .is_some_and(|v| v.settable && v.kind == VarKind::State)
                        && m.var_info(j).unwrap().ty == sit_runtime::ValueType::Real
                }) {
                    m.set_at(j, f64::INFINITY).unwrap();
                }
                let (fast, slow) = (m.first_non_finite(), scan_variables(&m));
                assert_eq!(fast.map(|f| f.0), slow.map(|s| s.0), "{}", info.name);
                assert_eq!(fast.map(|f| f.1.to_bits()), slow.map(|s| s.1.to_bits()));
                assert!(fast.is_some_and(|f| f.0 <= i), "{}", info.name);
                cases += 1;
            }
        }
        assert!(cases >= 12, "{cases} cases");
        // A derived param made infinite by its param: a computed value, not a slot.
        let mut m = fresh.clone();
        m.set("a", 0.0).unwrap();
        let b = m.var_index("b").unwrap();
        assert_eq!(scan_variables(&m), Some((b, f64::INFINITY)));
        assert_eq!(m.first_non_finite(), Some((b, f64::INFINITY)));
        // A non-finite value a step makes: in a state and what reads it.
        let mut m = fresh.clone();
        m.set("x", 1e308).unwrap();
        m.set("a", -1e10).unwrap();
        m.step(1.0);
        assert!(scan_variables(&m).is_some());
        assert_eq!(m.first_non_finite(), scan_variables(&m));
    }
}
