//! The lowered model: its parts (construction, reset, step), the statements a back end runs, and the δ procedures' assignments.

use crate::{
    EventId, FiredId, MemId, ModeId, ModelId, PhaseLink, Span, StateId, SubId, SubstepLink, Term,
    VarId,
};

/// How an implicit method's iteration matrix is held: the `matrix` of a
/// `Rewrite::Factor` and its `Rewrite::Solve`s (chosen by `sit_lower`'s `band`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    /// `n·n` entries, row-major, factorised by `sit_runtime::stage_factor` (LU with
    /// partial pivoting, `sit_runtime::linear::lu_factor_real`).
    Dense,
    /// `n·n` entries as [`Storage::Dense`], of which only the cells of `mask` can be
    /// nonzero in the matrix and its LU factors without row swaps (bit `i·n + j` for
    /// cell `(i, j)`, `n ≤ 11`: the pattern of the Jacobian and the diagonal, closed
    /// under elimination), factorised by `sit_runtime::stage_factor_masked` and solved
    /// by `sit_runtime::stage_solve_masked`, which leave out the other cells while the
    /// pivots stay on the diagonal.
    Pattern {
        /// The cells that can be nonzero.
        mask: u128,
    },
    /// A band of `kl` sub- and `ku` super-diagonals, `n·(2·kl + ku + 1)` cells in the
    /// storage of `sit_runtime::linear::band_factor_real`, factorised by
    /// `sit_runtime::stage_band_factor` (partial pivoting within the band). The
    /// unknowns are in the order the lowering chose for the band (the right-hand
    /// sides' order), not necessarily the states'.
    Band {
        /// The sub-diagonals.
        kl: usize,
        /// The super-diagonals.
        ku: usize,
    },
    /// The cells of the sparse LU factors' pattern `lu` (the lowering's symbolic
    /// factorisation, in the order of the unknowns it chose for little fill-in: the
    /// right-hand sides' order), one value per cell in `lu`'s order, factorised with
    /// the pivots on the diagonal by `sit_runtime::stage_sparse_factor` and solved by
    /// `sit_runtime::stage_sparse_solve`. When `complex`, the matrix is complex: the
    /// cells' real parts, then their imaginary parts (`2·cells` values; the right-hand
    /// sides likewise, `2·n`), by `sit_runtime::stage_sparse_complex_factor` and
    /// `stage_sparse_complex_solve`.
    Sparse {
        /// The pattern of `L + U`.
        lu: std::sync::Arc<SparseLu>,
        /// Whether the matrix is complex.
        complex: bool,
    },
}

impl Storage {
    /// The number of matrix entries for `n` unknowns.
    pub fn len(&self, n: usize) -> usize {
        match self {
            Storage::Dense | Storage::Pattern { .. } => n * n,
            Storage::Band { kl, ku } => n * (2 * kl + ku + 1),
            Storage::Sparse { lu, complex } => lu.cols.len() * (1 + usize::from(*complex)),
        }
    }

    /// Whether a factorisation or solve with `matrix` entries, `pivots` pivot rows and
    /// (for a solve) `rhs` right-hand sides fits this storage: `n` pivots (none for a
    /// sparse one, whose `n` is its pattern's), [`Storage::len`] entries, and `n`
    /// right-hand sides (`2·n` for a complex one).
    pub fn fits(&self, matrix: usize, pivots: usize, rhs: Option<usize>) -> bool {
        let (n, values) = match self {
            Storage::Sparse { lu, complex } => {
                if pivots != 0 {
                    return false;
                }
                (lu.order(), lu.order() * (1 + usize::from(*complex)))
            }
            _ => (pivots, pivots),
        };
        matrix == self.len(n) && rhs.is_none_or(|r| r == values)
    }
}

/// The pattern of a sparse matrix's LU factors, computed once when the model is
/// lowered: compressed rows (`rows[i] .. rows[i + 1]` the cells of row `i`, `cols` their
/// columns, increasing within a row), the position of each diagonal cell, closed under
/// elimination (see `sit_runtime::linear::Symbolic`, which [`SparseLu::view`] gives).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseLu {
    /// The first cell of each row, and the number of cells last.
    pub rows: Vec<u32>,
    /// The column of each cell.
    pub cols: Vec<u32>,
    /// The position of each row's diagonal cell.
    pub diag: Vec<u32>,
}

impl SparseLu {
    /// The pattern as the runtime reads it.
    pub fn view(&self) -> sit_runtime::linear::Symbolic<'_> {
        sit_runtime::linear::Symbolic {
            rows: &self.rows,
            cols: &self.cols,
            diag: &self.diag,
        }
    }

    /// The order of the matrix.
    pub fn order(&self) -> usize {
        self.diag.len()
    }

    /// The cells `(row, column)` in their order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.order()).flat_map(move |i| {
            (self.rows[i] as usize..self.rows[i + 1] as usize)
                .map(move |p| (i, self.cols[p] as usize))
        })
    }
}

/// One model's construction, reset and step, lowered (see the module documentation for
/// the order in which a back end runs the parts).
#[derive(Debug, Clone)]
pub struct Model {
    /// The model lowered.
    pub id: ModelId,
    /// Free params and inputs with their defaults, in declaration order (construction).
    pub defaults: Vec<Init>,
    /// The submodels, in declaration order, with their bindings.
    pub subs: Vec<SubLink>,
    /// The events, in declaration order.
    pub events: Vec<EventUpdate>,
    /// Whether the step evaluates [`Model::events`] at its start (after the submodels);
    /// false when the body evaluates them itself, with [`Stmt::Event`], before each
    /// discrete pass (a method that locates events inside its step).
    pub events_at_start: bool,
    /// States with their initial values, in declaration order (reset).
    pub inits: Vec<Init>,
    /// Per `otherwise` flag, how the step uses it.
    pub flags: Vec<FlagUse>,
    /// The rules of `step`, in textual order.
    pub body: Vec<Stmt>,
    /// The initial pass of reset: the rules of the computed states (see
    /// `sit_lower`'s documentation, "The initial pass"), in textual order, with
    /// their guards.
    pub initial: Vec<Stmt>,
    /// Per `otherwise` flag, how the initial pass uses it.
    pub initial_flags: Vec<FlagUse>,
    /// The instantaneous phases, in declaration order (see [`PhaseLink`]).
    pub phases: Vec<PhaseLink>,
    /// The modes, in declaration order.
    pub modes: Vec<ModeSlot>,
    /// The sub-steps, if the model declares them (see [`SubstepLink`]).
    pub substeps: Option<SubstepLink>,
}

/// A mode as reset and step see it: to `initial` in a reset (after the states' initial
/// values, before the events are initialised, which may read it); its state copied to
/// its [`Slot::ModeStart`](crate::Slot::ModeStart) at the start of a step, before the rules, when `snapshot`.
#[derive(Debug, Clone)]
pub struct ModeSlot {
    /// The mode.
    pub mode: ModeId,
    /// Its initial state (the first declared).
    pub initial: StateId,
    /// Its number of states.
    pub states: usize,
    /// Whether a transition reads its start-of-step state (it has transitions).
    pub snapshot: bool,
    /// The declaration.
    pub span: Span,
}

/// `var = value` in the instance where the code runs (a default, an initial value), or
/// in a submodel (a binding, evaluated in the parent).
#[derive(Debug, Clone)]
pub struct Init {
    /// The variable assigned (never a derived param).
    pub var: VarId,
    /// The value, in the scope of the instance evaluating it.
    pub value: Term,
    /// The declaration's name, or the binding.
    pub span: Span,
}

/// A submodel as its parent steps and resets it.
#[derive(Debug, Clone)]
pub struct SubLink {
    /// The submodel.
    pub sub: SubId,
    /// Its model.
    pub model: ModelId,
    /// Param bindings (submodel variables, values in the parent), applied before each
    /// reset of the submodel.
    pub params: Vec<Init>,
    /// Input bindings, applied before each step of the submodel.
    pub inputs: Vec<Init>,
    /// Whether the submodel is switched on after reset.
    pub initially_on: bool,
    /// Whether a [`Stmt::Step`] of the body steps it (`step(name);`), not the start of
    /// the step.
    pub placed: bool,
    /// The declaration.
    pub span: Span,
}

/// An event's update: `value = rising(cond, prev)` in a step, `value = false; prev =
/// cond` in a reset.
#[derive(Debug, Clone)]
pub struct EventUpdate {
    /// The event.
    pub event: EventId,
    /// Its condition.
    pub cond: Term,
    /// The declaration.
    pub span: Span,
}

/// How the step uses one `otherwise` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagUse {
    /// No `otherwise` rule reads it: it needs no storage.
    Unread,
    /// Every path to every read sets it first: it is `true` at every read (so the
    /// `otherwise` rule never runs) and no rule sets it.
    AlwaysSet,
    /// `false` at the start of the step, set by the rules whose [`Assign::sets`] names
    /// it; `mutated` is false when no rule does.
    Tracked {
        /// Whether some rule sets it.
        mutated: bool,
    },
}

/// What a [`Stmt::Repeat`] does after a run of its body that leaves `until` false with
/// its counter at its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtLimit {
    /// Stop the program with `sit_runtime::internal_steps_overrun(model, method, time,
    /// limit)`: the loop of an adaptive method's internal steps.
    Fault,
    /// Leave the loop, as when `until` holds: an iteration that may end unconverged
    /// (`radau5`'s Newton iteration), whose state after the loop says how it ended.
    Leave,
}

/// A statement of the rules of `step`.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// A δ rule.
    Assign(Assign),
    /// An `otherwise` rule: runs when flag `fired` is false.
    Otherwise {
        /// The rule.
        assign: Assign,
        /// The flag it reads.
        fired: FiredId,
    },
    /// Guarded statements: `cond` is evaluated once, before the first of `then`.
    If {
        /// The guard.
        cond: Term,
        /// The guarded statements.
        then: Vec<Stmt>,
        /// The guard's source.
        span: Span,
        /// Whether the guard was written on one rule (`x = e when c;`): `then` is that
        /// rule, whose span contains the guard's.
        one_rule: bool,
    },
    /// σ: set a flag state.
    SetFlag {
        /// The flag.
        var: VarId,
        /// The value.
        value: bool,
        /// The action.
        span: Span,
    },
    /// σ: switch a submodel on or off.
    Switch {
        /// The submodel.
        sub: SubId,
        /// On or off.
        on: bool,
        /// The action.
        span: Span,
    },
    /// A transition's move: the mode enters a state.
    SetMode {
        /// The mode.
        mode: ModeId,
        /// The state entered.
        state: StateId,
        /// The transition.
        span: Span,
    },
    /// σ: reset a submodel (its [`SubLink::params`], then its reset).
    Reset {
        /// The submodel.
        sub: SubId,
        /// The action.
        span: Span,
    },
    /// σ: run an instantaneous phase to its end (see [`PhaseLink`]).
    Run {
        /// The phase's submodel.
        sub: SubId,
        /// The action.
        span: Span,
    },
    /// `step(sub);`: if the submodel is switched on, its [`SubLink::inputs`] then a step
    /// of it (by the `dt` of this point of the step), as the start of the step does for
    /// a submodel that is not [`SubLink::placed`].
    Step {
        /// The submodel.
        sub: SubId,
        /// The statement.
        span: Span,
    },
    /// A bounded loop of a method (`Rewrite::Repeat`): run `body`, clear the flags of
    /// `clear` (false at the start of the step, so false before each run of `body`),
    /// evaluate `until`; stop when it holds; else, if the real state `count` is at least
    /// `limit`, do what `at_limit` says (stop the program with
    /// `sit_runtime::internal_steps_overrun(model, method, time, limit)`, or leave the
    /// loop); else again. Loops nest: a loop's body may hold another.
    Repeat {
        /// The statements repeated.
        body: Vec<Stmt>,
        /// The end condition, evaluated after each run of `body`.
        until: Term,
        /// The counter of runs, which `body` increments.
        count: VarId,
        /// The most runs.
        limit: u64,
        /// What a run that ends at `limit` without `until` does.
        at_limit: AtLimit,
        /// The integration method whose steps these are (its name, for the fault).
        method: &'static str,
        /// The `otherwise` flags that `body` sets, cleared after each run of it.
        clear: Vec<FiredId>,
        /// The counter of events located in the step (a real state) and the most allowed:
        /// above it after a run, the program stops with
        /// `sit_runtime::events_overrun(model, time, limit)`.
        events: Option<(VarId, u64)>,
        /// The model's span.
        span: Span,
    },
    /// Each mode with a [`Slot::ModeStart`](crate::Slot::ModeStart) notes its state there (`Rewrite::NoteModes`).
    NoteModes {
        /// The model's span.
        span: Span,
    },
    /// An event evaluated here, `value = rising(cond, prev)` (`Rewrite::Event`), as the
    /// step's start does when [`Model::events_at_start`].
    Event(EventUpdate),
    /// `dt` reads `value` from here on in this step (`Rewrite::SetDt`).
    SetDt {
        /// The new length of the step.
        value: Term,
        /// The model's span.
        span: Span,
    },
    /// An implicit method's factorisation (`Rewrite::Factor`): the real states
    /// `matrix` (row-major, `n·n` with `n = pivots.len()`, when `storage` is dense)
    /// become their LU factors and `pivots` the pivot rows, by
    /// `sit_runtime::stage_factor(model, method, time, matrix, pivots)`, or for a band
    /// `sit_runtime::stage_band_factor(model, method, time, (kl, ku), matrix, pivots)`;
    /// both stop the program on a singular matrix.
    Factor {
        /// The matrix, in its storage.
        matrix: Vec<VarId>,
        /// How the matrix is held.
        storage: Storage,
        /// The pivot rows (reals).
        pivots: Vec<VarId>,
        /// The integration method (for the fault).
        method: &'static str,
        /// The model's span.
        span: Span,
    },
    /// A stage solve (`Rewrite::Solve`): the real states `rhs` become the solution of
    /// `A·x = rhs`, by `sit_runtime::stage_solve(matrix, pivots, rhs)` (or for a band
    /// `sit_runtime::stage_band_solve((kl, ku), matrix, pivots, rhs)`) with the factors
    /// of a [`Stmt::Factor`].
    Solve {
        /// The factors, in their storage.
        matrix: Vec<VarId>,
        /// How the matrix is held.
        storage: Storage,
        /// The pivot rows.
        pivots: Vec<VarId>,
        /// The right-hand side, replaced by the solution.
        rhs: Vec<VarId>,
        /// The model's span.
        span: Span,
    },
    /// Stops the program with `sit_runtime::step_underflow(model, method, time, step)`
    /// (`Rewrite::Underflow`).
    Underflow {
        /// The internal step proposed (a real state).
        step: VarId,
        /// The integration method.
        method: &'static str,
        /// The model's span.
        span: Span,
    },
}

/// The `otherwise` flags that some rule of `body` sets, in increasing order.
pub fn flags_set(body: &[Stmt], out: &mut Vec<FiredId>) {
    walk(body, &mut |s| {
        if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s {
            out.extend(a.sets);
        }
    });
}

impl Stmt {
    /// The statements this one holds (a guarded block's, a loop's body), in order; empty
    /// for the others.
    pub fn children(&self) -> &[Stmt] {
        match self {
            Stmt::If { then: body, .. } | Stmt::Repeat { body, .. } => body,
            _ => &[],
        }
    }

    /// Where the statement is written: its rule, action, guard or (for the statements
    /// of a method's rewrite) the model.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => a.span,
            Stmt::If { span, .. }
            | Stmt::SetFlag { span, .. }
            | Stmt::Switch { span, .. }
            | Stmt::SetMode { span, .. }
            | Stmt::Reset { span, .. }
            | Stmt::Run { span, .. }
            | Stmt::Step { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::NoteModes { span }
            | Stmt::Event(EventUpdate { span, .. })
            | Stmt::SetDt { span, .. }
            | Stmt::Factor { span, .. }
            | Stmt::Solve { span, .. }
            | Stmt::Underflow { span, .. } => *span,
        }
    }
}

/// Calls `f` on every statement of `body` and of the statements it holds, in
/// pre-order: the one walk over lowered statements that the back ends' analyses share.
pub fn walk<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in body {
        f(s);
        walk(s.children(), f);
    }
}

/// The procedure of a δ rule: `target = PROC(operands)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proc {
    /// The value of the one operand.
    Expr,
    /// `sit_runtime::integral(y, x, dt)`.
    Integral,
    /// `sit_runtime::integral_limited(y, x, lo, hi, dt)`.
    IntegralLimited,
    /// `sit_runtime::lag(y, x, t, k, dt)`.
    Lag,
    /// `Deriv::next(x, dt)` on the rule's hidden memory.
    Deriv {
        /// The memory.
        mem: MemId,
    },
    /// `sit_runtime::hysteresis(y, x, lo, hi, a)`.
    Hysteresis,
    /// `sit_runtime::timer(y, c, dt)`, whose one operand is logical.
    Timer,
}

impl Proc {
    /// The function at the top of `sit_runtime` called as `f(y?, operands.., dt?)`
    /// (see [`Proc::reads_target`] and [`Proc::takes_dt`]); `None` for a plain
    /// expression and for `deriv`, a method of its memory (`Deriv::next(x, dt)`).
    pub fn runtime(self) -> Option<&'static str> {
        match self {
            Proc::Expr | Proc::Deriv { .. } => None,
            Proc::Integral => Some("integral"),
            Proc::IntegralLimited => Some("integral_limited"),
            Proc::Lag => Some("lag"),
            Proc::Hysteresis => Some("hysteresis"),
            Proc::Timer => Some("timer"),
        }
    }

    /// Whether the target's current value is the first argument.
    pub fn reads_target(self) -> bool {
        !matches!(self, Proc::Expr | Proc::Deriv { .. })
    }

    /// Whether `dt` is the last argument.
    pub fn takes_dt(self) -> bool {
        !matches!(self, Proc::Expr | Proc::Hysteresis)
    }

    /// Whether the procedure updates a hidden memory (so it may run only where the
    /// rule runs).
    pub fn has_memory(self) -> bool {
        matches!(self, Proc::Deriv { .. })
    }

    /// The procedure's name in `.sit` source (`expr` for a plain expression).
    pub fn name(self) -> &'static str {
        match self {
            Proc::Expr => "expr",
            Proc::Integral | Proc::IntegralLimited => "integral",
            Proc::Lag => "lag",
            Proc::Deriv { .. } => "deriv",
            Proc::Hysteresis => "hysteresis",
            Proc::Timer => "timer",
        }
    }
}

/// A δ assignment `target = proc(operands)`.
#[derive(Debug, Clone)]
pub struct Assign {
    /// A real state of the model.
    pub target: VarId,
    /// The procedure.
    pub proc: Proc,
    /// Its operands, in evaluation order (`x`, then `lo, hi` / `t, k` / `lo, hi, a`).
    pub operands: Vec<Term>,
    /// The `otherwise` flag this rule sets, when a later read can see it.
    pub sets: Option<FiredId>,
    /// The whole rule.
    pub span: Span,
}
