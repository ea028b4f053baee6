//! Unit inference by unification: a union-find over the variables' units, weighted by units.
//!
//! Each real variable has a class; a class is linked to another with a unit factor
//! (`unit(x) = unit(root) · rel(x)`), so that relations such as `v = x/s` (from
//! `x = integral(v)`) join classes without knowing either unit yet. A root may hold a
//! known unit and the place it was learned (a declaration or a rule). Every operation is
//! amortised near-constant, so a pass over a model is linear in its size.

use super::Unit;
use crate::Span;

/// What is known of an expression's unit.
#[derive(Clone, Debug)]
pub enum Term {
    /// A literal, or a product of literals and dimensionless values: it takes the unit
    /// its context needs.
    Lit,
    /// Nothing is known and nothing is checked (a product of two unknown units, a
    /// table read, a mode).
    Free,
    /// A logical value: no unit.
    Logic,
    /// A known unit, with where it comes from when that is a declaration or a rule, and
    /// whether a declared unit went into it (it is *anchored*): the built-in rules alone
    /// (`time` is `s`, `sin` takes `rad`) never make an error, so that a model without
    /// declared units checks as if units did not exist.
    Known(Unit, Option<Origin>, bool),
    /// The unit of a class times a factor.
    Of(usize, Unit),
}

/// Where a known unit was declared or inferred: shown as a related label.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The declaration's unit text, or the rule it was inferred from.
    pub span: Span,
    /// The label, e.g. "`x` is `m` from here".
    pub label: String,
}

/// Two known units that must be equal and are not.
#[derive(Clone, Debug)]
pub struct Conflict {
    /// The unit the checked expression has.
    pub found: Unit,
    /// The unit its context needs.
    pub expected: Unit,
    /// Where the found unit came from, if elsewhere.
    pub found_origin: Option<Origin>,
    /// Where the expected unit came from, if elsewhere.
    pub expected_origin: Option<Origin>,
}

/// The classes of a model's variables.
#[derive(Default)]
pub struct Solver {
    parent: Vec<usize>,
    rel: Vec<Unit>,
    known: Vec<Option<(Unit, Option<Origin>, bool)>>,
    /// How many facts were learned (units fixed, classes joined): the passes repeat
    /// while it grows.
    pub learned: usize,
}

/// Whether two units are the same: same dimension (the angle counts as 1: `rad` is the
/// coherent unit of a plain number), same scale, same offset.
pub fn same(a: &Unit, b: &Unit) -> bool {
    same_dimension(a, b) && close(a.scale, b.scale) && a.offset == b.offset
}

/// Whether two units have the same dimension, the angle counting as dimensionless.
pub fn same_dimension(a: &Unit, b: &Unit) -> bool {
    a.dim[..7] == b.dim[..7]
}

fn close(a: f64, b: f64) -> bool {
    (a / b - 1.0).abs() < 1e-9
}

/// `a · b`, keeping `a` exactly (its offset included) when `b` is exactly 1.
pub fn times(a: &Unit, b: &Unit) -> Unit {
    if *b == Unit::ONE {
        *a
    } else if *a == Unit::ONE {
        *b
    } else {
        a.mul(b)
    }
}

/// `a / b`, keeping `a` exactly when `b` is exactly 1.
pub fn over(a: &Unit, b: &Unit) -> Unit {
    if *b == Unit::ONE { *a } else { a.div(b) }
}

impl Solver {
    /// A new class of unknown unit.
    pub fn class(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.rel.push(Unit::ONE);
        self.known.push(None);
        self.parent.len() - 1
    }

    /// Fix a fresh class's unit (a declaration).
    pub fn declare(&mut self, c: usize, u: Unit, origin: Origin) {
        self.known[c] = Some((u, Some(origin), true));
    }

    /// Give a fresh class the unit its parents' bindings agree on (anchored if a declared
    /// unit went into them).
    pub fn seed(&mut self, c: usize, u: Unit, origin: Origin, anchored: bool) {
        self.known[c] = Some((u, Some(origin), anchored));
    }

    /// The root of `c` and the factor `R` with `unit(c) = unit(root) · R`.
    fn find(&mut self, c: usize) -> (usize, Unit) {
        let mut path = Vec::new();
        let mut x = c;
        while self.parent[x] != x {
            path.push(x);
            x = self.parent[x];
        }
        let root = x;
        // Compress from the node nearest the root outwards.
        for &n in path.iter().rev() {
            let p = self.parent[n];
            if p != root {
                self.rel[n] = times(&self.rel[p], &self.rel[n]);
                self.parent[n] = root;
            }
        }
        (root, self.rel[c])
    }

    /// The unit of class `c`, if known, with its origin and whether it is anchored.
    pub fn unit_of(&mut self, c: usize) -> Option<(Unit, Option<Origin>, bool)> {
        let (root, r) = self.find(c);
        let (u, o, a) = self.known[root].clone()?;
        Some((times(&u, &r), o, a))
    }

    /// The term with what is known now: `Of` becomes `Known` when its root is known. A
    /// unit past [`super::MAX_POWER`] (a long chain of products relating two classes)
    /// is not followed: its term is `Free`.
    pub fn resolve(&mut self, t: Term) -> Term {
        let t = match t {
            Term::Of(c, r) => match self.unit_of(c) {
                Some((u, o, a)) => Term::Known(times(&u, &r), o, a),
                None => {
                    let (root, rr) = self.find(c);
                    Term::Of(root, times(&rr, &r))
                }
            },
            t => t,
        };
        match &t {
            Term::Known(u, _, _) | Term::Of(_, u) if u.is_beyond() => Term::Free,
            _ => t,
        }
    }

    /// Require `found = expected`. Joins classes and fixes units; on two known units that
    /// differ, nothing changes and the conflict is returned. `at` gives where the unit a
    /// class (its root) learns here is said to come from.
    pub fn unify(
        &mut self,
        found: &Term,
        expected: &Term,
        at: &dyn Fn(usize, &Unit) -> Origin,
    ) -> Result<(), Box<Conflict>> {
        let (f, e) = (self.resolve(found.clone()), self.resolve(expected.clone()));
        match (f, e) {
            (Term::Known(a, ao, aa), Term::Known(b, bo, ba)) => {
                if same(&a, &b) || !(aa || ba) {
                    Ok(())
                } else {
                    Err(Box::new(Conflict {
                        found: a,
                        expected: b,
                        found_origin: ao,
                        expected_origin: bo,
                    }))
                }
            }
            (Term::Of(c, r), Term::Known(k, _, a)) | (Term::Known(k, _, a), Term::Of(c, r)) => {
                // unit(c) · r = k, c a root (resolve returned it).
                let u = over(&k, &r);
                if u.is_beyond() {
                    return Ok(());
                }
                self.known[c] = Some((u, Some(at(c, &u)), a));
                self.learned += 1;
                Ok(())
            }
            (Term::Of(a, ra), Term::Of(b, rb)) => {
                if a == b {
                    // A relation of a class with itself: consistent or a conflict only
                    // once it is known, which resolve would have shown.
                    return Ok(());
                }
                // unit(a)·ra = unit(b)·rb: link a under b with rel = rb/ra.
                let rel = over(&rb, &ra);
                if rel.is_beyond() {
                    return Ok(());
                }
                self.parent[a] = b;
                self.rel[a] = rel;
                self.learned += 1;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
