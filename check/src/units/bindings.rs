//! A submodel's undeclared inputs take their units from its parents' bindings, where
//! every binding of known unit agrees (unification across the binding).
//!
//! Each model is checked once per round, children first. A round records the unit of
//! each binding of a submodel's input or param whose unit the submodel neither declares
//! nor infers; where all such bindings of that input, over every instance in the
//! program, have one unit, the next round gives the input that unit (a *seed*) and the
//! submodel is checked with it, so that its outputs carry units into their parents. An
//! input bound with different units by different instances stays without a unit (the
//! model serves several). Rounds repeat while new seeds appear, at most [`ROUNDS`]
//! times: each a linear pass over the program.

use super::Unit;
use super::solve::{Origin, same};
use std::collections::HashMap;

/// The most rounds of the whole program's check (the depth to which seeds flow down).
pub(super) const ROUNDS: usize = 8;

/// The unit a binding gives an input: the unit, whether a declared unit went into it,
/// and where (the bound value).
#[derive(Clone, Debug)]
pub(super) struct Seed {
    pub(super) unit: Unit,
    pub(super) anchored: bool,
    pub(super) origin: Origin,
}

/// Seeds by (model index, input name).
pub(super) type Seeds = HashMap<(usize, String), Seed>;

/// The bindings of one round: (model index, input name) to the seed each binding gives
/// (`None`: a binding whose unit is not known).
#[derive(Default)]
pub(super) struct Bound {
    seen: HashMap<(usize, String), Vec<Seed>>,
}

impl Bound {
    /// A binding of `input` of model `model` with a value of unit `seed`.
    pub(super) fn record(&mut self, model: usize, input: &str, seed: Seed) {
        self.seen
            .entry((model, input.to_string()))
            .or_default()
            .push(seed);
    }

    /// Adds the bindings `other` recorded.
    pub(super) fn merge(&mut self, other: Bound) {
        for (k, v) in other.seen {
            self.seen.entry(k).or_default().extend(v);
        }
    }

    /// The seeds on which all the bindings of an input agree.
    pub(super) fn agreed(self) -> Seeds {
        let mut out = Seeds::new();
        for (key, seeds) in self.seen {
            let first = &seeds[0];
            if seeds
                .iter()
                .all(|s| same(&s.unit, &first.unit) && s.unit.dim == first.unit.dim)
            {
                let anchored = seeds.iter().any(|s| s.anchored);
                let origin = seeds
                    .iter()
                    .find(|s| s.anchored)
                    .unwrap_or(first)
                    .origin
                    .clone();
                out.insert(
                    key,
                    Seed {
                        unit: first.unit,
                        anchored,
                        origin,
                    },
                );
            }
        }
        out
    }
}
