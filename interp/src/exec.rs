//! Execution of compiled code: construction, reset and step, by running the programs of
//! [`crate::flatten`] on a [`State`].
//!
//! Every function has a `CHECK` parameter: with `CHECK = true` it runs the checked
//! program, where each real value stored is tested and the first one that is not finite
//! stops the run with the index of its site ([`crate::code::Code::sites`]); with
//! `CHECK = false` the programs have no tests and never fail.

use crate::InterpError;
use crate::code::{Code, State};
use crate::flatten::{Programs, flatten};
use crate::ops::{Op, Regs, Resets, SMALL, run};
use sit_runtime::table::TableReach;
use sit_runtime::{Clock, Deriv};

pub(crate) use crate::ops::Fault;

/// A compiled model: the code (variable list, sites) and its programs.
#[derive(Debug)]
pub(crate) struct Machine {
    /// The compiled code.
    pub code: Code,
    programs: Programs,
    /// The public reals, for the scan for a non-finite value after a step.
    pub watched: crate::watch::Watched,
    /// A model of the tree says `#[allow(non_finite, …)]`.
    pub allow_non_finite: bool,
}

impl Resets for Machine {
    fn reset(&self, node: usize, check: bool) -> &[Op] {
        &self.programs.resets[node][usize::from(check)]
    }

    fn phase(&self, id: usize) -> &crate::flatten::PhaseProgram {
        &self.programs.phases[id]
    }

    fn substeps(&self, id: usize) -> &crate::flatten::SubstepProgram {
        &self.programs.substeps[id]
    }
}

impl Machine {
    /// Lowers `code` into its programs.
    pub(crate) fn new(code: Code) -> Result<Machine, InterpError> {
        let programs = flatten(&code).ok_or_else(|| {
            InterpError::too_large("the model has more than 2^32 values or rules".into())
        })?;
        let watched = crate::watch::Watched::of(&code);
        Ok(Machine {
            code,
            programs,
            watched,
            allow_non_finite: false,
        })
    }

    #[inline]
    fn run(&self, ops: &[Op], s: &mut State) -> Result<(), Fault> {
        let mut regs = Regs {
            r: &mut s.reals,
            f: &mut s.flags,
            m: &mut s.derivs,
            c: &mut s.clocks,
            t: &mut s.reach,
        };
        run(ops, &mut regs, self)
    }
}

/// A fresh state for `m`: every free param and input at its default, then reset.
pub(crate) fn construct(m: &Machine) -> State {
    let p = &m.programs;
    // Padded to `SMALL` slots when both kinds fit: `run` then indexes arrays unchecked.
    let (n_reals, n_flags) = if p.reals <= SMALL && p.flags <= SMALL {
        (SMALL, SMALL)
    } else {
        (p.reals, p.flags)
    };
    let mut reals = vec![0.0; n_reals];
    reals[m.code.reals..m.code.reals + p.consts.len()].copy_from_slice(&p.consts);
    let mut s = State {
        reals,
        flags: vec![false; n_flags],
        derivs: vec![Deriv::new(); m.code.mems],
        clocks: vec![Clock::new(); m.code.nodes.len()],
        reach: m.code.tables.iter().map(|t| reach(t)).collect(),
    };
    let _ = m.run(&p.construct, &mut s);
    s
}

/// No read yet of table `t`.
fn reach(t: &sit_lir::LookupTable) -> TableReach {
    let grids: Vec<&[f64]> = t.grids.iter().map(Vec::as_slice).collect();
    TableReach::new(&grids, crate::ops::beyond(t.beyond))
}

/// Resets the whole tree (params and inputs are left alone), and forgets the tables'
/// reads: a run's count starts at its reset.
pub(crate) fn reset<const CHECK: bool>(m: &Machine, s: &mut State) -> Result<(), Fault> {
    for r in &mut s.reach {
        r.clear();
    }
    m.run(&m.programs.resets[0][usize::from(CHECK)], s)
}

/// Advances the tree (the root and its switched-on submodels) by one step of `dt`.
#[inline]
pub(crate) fn step<const CHECK: bool>(m: &Machine, s: &mut State, dt: f64) -> Result<(), Fault> {
    for &f in &m.programs.fired {
        s.flags[f] = false;
    }
    let root = &m.code.nodes[0];
    s.reals[root.dt] = dt;
    m.run(&m.programs.step[usize::from(CHECK)], s)?;
    // A root that divides its step advances its clock itself (`Op::Substeps`).
    if root.substeps.is_none() {
        s.reals[root.time] = s.clocks[0].advance(dt);
    }
    Ok(())
}
