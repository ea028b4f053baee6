//! The lowered program: a checked program made ready for the back ends, the only input they take.

use super::prev;
use super::probe::Probe;
use super::term::{LowerError, Term, get};
use super::{Reads, decls, method, rewrite, why};
use crate::ir::{Expr, ModelId, Program, VarId};
use sit_lir::{Defined, decl};
use sit_runtime::events::Table;

/// What to prepare besides the step itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prepare {
    /// Build every model for the event log: a hidden *why* state per logical variable
    /// (see [`super::instrument_events`] and `docs/events.md`). Off: the program is
    /// exactly the checked one, rewritten for its methods.
    pub events: bool,
    /// The summaries between the rows a study asks for: each of a continuous state of a
    /// model under an adaptive method (but `dop853`) is kept in a hidden state
    /// ([`Lowered::probe`]; "Summaries between the rows" in the contract). Empty: none.
    pub probes: Vec<Probe>,
}

/// A checked program after the passes every back end needs, in their one order: the
/// event log's instrumentation (when asked for), then the rewrite of every model
/// integrated by a method other than `euler` into plain rules with hidden stage states
/// and the statements of [`Rewrite`](super::Rewrite), which only such a program holds.
///
/// The back ends (the generators of `sit-codegen` and the interpreter of `sit-interp`)
/// take only this type: a program that skipped a pass cannot reach them. Front ends get
/// one from `sit-driver` (path or text to lowered program), or build one from a checked
/// program with [`Lowered::new`].
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The program after the passes: every model integrated by `euler`.
    program: rewrite::Program,
    /// The checked program before the passes, kept for the event tables when the
    /// program was prepared for the event log.
    logged: Option<Program>,
    /// The program before the method rewrite (instrumented for the event log when
    /// asked): its initial passes are computed on the rules as written, so that the row
    /// at t = 0 is the same under every method.
    unrewritten: Program,
    /// Per model, the hidden copies that `prev` reads (`super::prev`): taken last in the
    /// step and in reset.
    copies: prev::Copies,
    /// The declarations of `program`'s models, as the back ends read them.
    decls: decl::Program,
    /// The summaries kept between the rows, each with its hidden state.
    probed: Vec<(Probe, VarId)>,
}

impl Lowered {
    /// Runs the passes on `checked` as `prepare` says. Fails only for a model that is
    /// too large to lower or a program that is not a checked one (a model whose rules
    /// cannot be split for its method: the checker reports that for the source).
    pub fn new(checked: &Program, prepare: Prepare) -> Result<Lowered, LowerError> {
        // `prev` first: every later pass reads variables only.
        let (resolved, copies) = prev::resolve(checked);
        let (unrewritten, logged) = if prepare.events && !resolved.models.is_empty() {
            let instrumented = why::instrument_events(&resolved, 0)?.0;
            (instrumented, Some(resolved.into_owned()))
        } else {
            (why::without_newton_counts(resolved.into_owned()), None)
        };
        let (mut program, probed) = method::expand_probed(&unrewritten, &prepare.probes)?;
        // The copies of `prev` are taken after everything else of the step (and of the
        // initial pass: see `copies`).
        prev::append(&mut program, &copies);
        Ok(Lowered {
            decls: decls::program(&program),
            copies,
            program,
            logged,
            unrewritten,
            probed,
        })
    }

    /// The hidden state of `probe`'s model that holds its summary, when it was asked for
    /// ([`Prepare::probes`]) and kept (a continuous state under an adaptive method with
    /// a dense output of its own stages).
    pub fn probe(&self, probe: &Probe) -> Option<VarId> {
        self.probed
            .iter()
            .find_map(|(p, v)| (p == probe).then_some(*v))
    }

    /// The program after the passes (read-only: names, sources, the rules as rewritten).
    /// The back ends read its declarations instead ([`sit_lir::Lowering::program`]).
    pub fn program(&self) -> &rewrite::Program {
        &self.program
    }

    /// The program as written, before the method rewrite (the same variables, conditions
    /// and rules, without the stages; instrumented for the event log when asked): where
    /// the initial pass of each model is found, and what a row of the trace holds
    /// (`sit_check::rows`).
    pub fn unrewritten(&self) -> &Program {
        &self.unrewritten
    }

    /// The statements that take the copies of `prev` in model `id`, last in its initial
    /// pass as in its step.
    pub(crate) fn copy_statements(&self, id: ModelId) -> Vec<rewrite::Stmt> {
        let copies = self.copies.get(id).map_or(&[][..], Vec::as_slice);
        prev::statements(&self.program.models[id], copies)
    }

    /// Whether it was prepared for the event log ([`Prepare::events`]).
    pub fn logs_events(&self) -> bool {
        self.logged.is_some()
    }

    /// The event table of the instance tree of `root` (see
    /// [`super::instrument_events`]), when prepared for the event log.
    pub fn event_table(&self, root: ModelId) -> Option<Result<Table, LowerError>> {
        let checked = self.logged.as_ref()?;
        Some(why::instrument_events(checked, root).map(|(_, table)| table))
    }

    /// Model `id` lowered (see [`super::model`]).
    pub fn model(&self, id: ModelId, reads: Reads) -> Result<super::Model, LowerError> {
        super::model(self, id, reads)
    }

    /// The variables of `root` (see [`super::variables`]).
    pub fn variables(&self, root: ModelId) -> Result<Vec<super::Entry>, LowerError> {
        super::variables(&self.program, root)
    }
}

impl sit_lir::Lowering for Lowered {
    fn program(&self) -> &decl::Program {
        &self.decls
    }

    fn model(&self, id: ModelId, reads: Reads) -> Result<super::Model, LowerError> {
        super::model(self, id, reads)
    }

    fn definition(&self, id: ModelId, of: Defined, reads: Reads) -> Result<Term, LowerError> {
        let m = get(&self.program.models, id, "model")?;
        let expr = match of {
            Defined::Var(v) => &get(&m.vars, v, "variable")?.init,
            Defined::Cond(c) => &get(&m.conds, c, "condition")?.expr,
        };
        super::term(&self.program, id, expr, reads)
    }

    fn read(&self, id: ModelId, of: Defined, reads: Reads) -> Result<Term, LowerError> {
        let expr = match of {
            Defined::Var(v) => Expr::Var(v),
            Defined::Cond(c) => Expr::Cond(c),
        };
        super::term(&self.program, id, &expr, reads)
    }

    fn variables(&self, root: ModelId) -> Result<Vec<super::Entry>, LowerError> {
        super::variables(&self.program, root)
    }

    fn own_variables(&self, model: ModelId) -> Result<super::Own, LowerError> {
        super::own_variables(&self.program, model)
    }

    fn event_table(&self, root: ModelId) -> Option<Result<Table, LowerError>> {
        Lowered::event_table(self, root)
    }
}
