//! The statements only a method's rewrite writes: the loop of an adaptive step, the noting of modes and the setting of `dt` at a located event, and an implicit method's factorisation, stage solves and step underflow.
//!
//! A checked program cannot hold them: its bodies are `ir::Stmt<ir::Checked>`, whose
//! [`ir::Stmt::Added`] is empty. The rewrite ([`super::method`]) turns each model into
//! an `ir::Model<Rewrite>`, the program that [`super::Lowered`] keeps and [`super::model`]
//! lowers.

use crate::Span;
pub use sit_lir::{AtLimit, Storage};

use crate::ir::{self, EventId, Expr, VarId};

/// A statement of a method's rewrite (see the module documentation).
#[derive(Debug, Clone)]
pub enum Rewrite {
    /// A bounded loop: `body` runs, then `until` is evaluated; the loop ends when it
    /// holds; otherwise, if the real state `count` (which `body` increments) is at least
    /// `limit`, the loop does what `at_limit` says (the program stops with
    /// `sit_runtime::internal_steps_overrun(model, time, limit)`, or the loop ends);
    /// otherwise `body` runs again. The `otherwise` flags that `body` sets are cleared
    /// before each run of it (each run is a fresh evaluation). A loop's body may hold
    /// another (`radau5`'s Newton iteration inside its internal steps).
    Repeat {
        /// The statements repeated.
        body: Vec<ir::Stmt<Rewrite>>,
        /// The end condition, evaluated after each run of `body`.
        until: Expr,
        /// The counter of runs (a hidden real state).
        count: VarId,
        /// The most runs.
        limit: u64,
        /// What a run that ends at `limit` without `until` does.
        at_limit: AtLimit,
        /// The integration method whose steps these are (its name, for the fault).
        method: &'static str,
        /// The counter of events located inside the step (a hidden real state) and the
        /// most allowed: when the counter is above it after a run, the program stops with
        /// `sit_runtime::events_overrun(model, time, limit)` (events that chatter).
        events: Option<(VarId, u64)>,
        /// The model's span (for provenance).
        span: Span,
    },
    /// Each mode's state is noted as its state at the start of the step
    /// ([`Expr::ModeAtStart`]), as at the start of a step: written by the rewrite of a
    /// method that locates events inside a step, after the discrete pass at an event,
    /// so that a mode takes at most one transition per discrete pass.
    NoteModes {
        /// The model's span (for provenance).
        span: Span,
    },
    /// The event `event` is evaluated, `value = cond && !prev; prev = cond`, as at the
    /// start of a step: written by the rewrite of a method that locates events inside a
    /// step, for every event of the model in declaration order before each discrete
    /// pass (`cond` the event's condition with `time` read at the pass's point), so that
    /// an `event` rises at the located instant; the model's events are then not
    /// evaluated at the start of its step ([`super::Model::events_at_start`]).
    Event {
        /// The event.
        event: EventId,
        /// Its condition, as evaluated here.
        cond: Expr,
        /// The event's declaration (for provenance).
        span: Span,
    },
    /// `dt` reads `value` from here on in this step: written by the rewrite of a method
    /// that locates events inside a step, whose discrete pass at an event reads the time
    /// since the last one as its step.
    SetDt {
        /// The new length of the step (a real expression).
        value: Expr,
        /// The model's span (for provenance).
        span: Span,
    },
    /// An implicit method's factorisation: the real states `matrix` (held as `storage`
    /// says: `n·n` row-major when dense, `n` the length of `pivots`) replaced by their
    /// LU factors and `pivots` by the pivot rows (as reals), by
    /// `sit_runtime::stage_factor` (dense) or `sit_runtime::stage_band_factor` (band),
    /// which stop the program with `sit_runtime::FaultKind::SingularMatrix`, naming the
    /// model, `method` and the time, when a column has no nonzero finite pivot.
    Factor {
        /// The matrix, in its storage.
        matrix: Vec<VarId>,
        /// How the matrix is held.
        storage: Storage,
        /// The pivot rows.
        pivots: Vec<VarId>,
        /// The integration method (its name, for the fault).
        method: &'static str,
        /// The model's span (for provenance).
        span: Span,
    },
    /// A stage solve with the factors of a [`Rewrite::Factor`]: the real states `rhs`
    /// replaced by the solution of `A·x = rhs` (`sit_runtime::stage_solve`, or
    /// `sit_runtime::stage_band_solve` for a band).
    Solve {
        /// The factors, in their storage.
        matrix: Vec<VarId>,
        /// How the matrix is held (the factorisation's).
        storage: Storage,
        /// The pivot rows.
        pivots: Vec<VarId>,
        /// The right-hand side, replaced by the solution.
        rhs: Vec<VarId>,
        /// The model's span (for provenance).
        span: Span,
    },
    /// Stops the program with `sit_runtime::step_underflow(model, method, time, step)`
    /// (written under the guard that says the step underflowed).
    Underflow {
        /// The internal step proposed (a real state).
        step: VarId,
        /// The integration method.
        method: &'static str,
        /// The model's span (for provenance).
        span: Span,
    },
}

impl ir::Added for Rewrite {
    fn children(&self) -> &[ir::Stmt<Rewrite>] {
        match self {
            Rewrite::Repeat { body, .. } => body,
            Rewrite::NoteModes { .. }
            | Rewrite::Event { .. }
            | Rewrite::SetDt { .. }
            | Rewrite::Factor { .. }
            | Rewrite::Solve { .. }
            | Rewrite::Underflow { .. } => &[],
        }
    }

    fn span(&self) -> Span {
        match self {
            Rewrite::Repeat { span, .. }
            | Rewrite::NoteModes { span }
            | Rewrite::Event { span, .. }
            | Rewrite::SetDt { span, .. }
            | Rewrite::Factor { span, .. }
            | Rewrite::Solve { span, .. }
            | Rewrite::Underflow { span, .. } => *span,
        }
    }
}

/// A statement of a rewritten body.
pub type Stmt = ir::Stmt<Rewrite>;
/// A model after the rewrite.
pub type Model = ir::Model<Rewrite>;
/// A program after the rewrite: what [`super::Lowered`] keeps.
pub type Program = ir::Program<Rewrite>;
