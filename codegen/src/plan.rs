//! What to generate: the models to emit and the Rust name of every item of each.

use crate::names::{Namespace, RESERVED_METHODS};
use sit_lir::decl::{Model, Program};
use sit_lir::{Lowering, ModelId};
use std::ops::Range;

/// The most top-level statements of the rule list that `step` holds itself; a longer
/// list is split into pieces of at most this many, each a private method. rustc's
/// release build of one function is superlinear in its length (a 10 000-rule `step`:
/// 66 s, the same rules in pieces of 500: 22 s; see `docs/performance.md`), while a
/// piece of 500 rules is in its linear range (a 1 000-rule model builds in 1.5 s).
pub(crate) const STEP_PIECE_RULES: usize = 500;

/// How `step` splits a rule list of `len` top-level statements: one range (no split)
/// up to [`STEP_PIECE_RULES`], else consecutive ranges of balanced lengths, each at
/// most [`STEP_PIECE_RULES`].
pub(crate) fn step_pieces(len: usize) -> Vec<Range<usize>> {
    let n = len.div_ceil(STEP_PIECE_RULES).max(1);
    (0..n).map(|i| i * len / n..(i + 1) * len / n).collect()
}

/// The Rust identifiers of one model's items (spellings, `r#` prefix allowed).
#[derive(Debug, Clone)]
pub(crate) struct ModelNames {
    /// The struct.
    pub ty: String,
    /// Per variable: the public field, or the method of a derived param.
    pub vars: Vec<String>,
    /// Per pred/situation: its method.
    pub conds: Vec<String>,
    /// Per event: its public read-only method.
    pub events: Vec<String>,
    /// Per event: the private field holding this step's value.
    pub event_fields: Vec<String>,
    /// Per event: the private field holding the condition's previous value.
    pub event_prev: Vec<String>,
    /// Per submodel: its public field.
    pub subs: Vec<String>,
    /// Per submodel: the public `on` field.
    pub sub_on: Vec<String>,
    /// Per hidden memory: its private field, named after the target of the `deriv`
    /// rule that owns it (`x_deriv`).
    pub mems: Vec<String>,
    /// The private clock field.
    pub time: String,
    /// The private field of the last step's length.
    pub dt: String,
    /// The private `sit_runtime::Clock` field that computes the time.
    pub clock: String,
    /// The batch form's private flag: every lane's clock is lane 0's (see `batch.rs`).
    pub clock_shared: String,
    /// Whether the model reads `dt` anywhere: the field exists only then, so that a
    /// model that never reads it does not store it.
    pub uses_dt: bool,
    /// Whether the step writes `dt` (a method that locates events inside a step: see
    /// `Rewrite::SetDt`): then the procedures read the field, not the step's argument.
    pub sets_dt: bool,
    /// The private methods holding the pieces of a long rule list (see
    /// [`step_pieces`]); empty when `step` holds the rules itself.
    pub step_parts: Vec<String>,
    /// The private method of one whole step when the model divides its step
    /// (`substeps`): `step` calls it once or once per sub-step.
    pub step_once: String,
    /// Per mode: its public field.
    pub modes: Vec<String>,
    /// Per mode: the private field of its state at the start of the step.
    pub mode_starts: Vec<String>,
    /// Per mode: its enum (set by [`Plan::new`], in the namespace of types).
    pub mode_types: Vec<String>,
    /// Per mode: the enum's variant of each state.
    pub mode_variants: Vec<Vec<String>>,
    /// The names of the table counting of [`crate::Options::count_table_reach`].
    pub reach: ReachNames,
}

/// The private items of a model that counts its table reads (`crate::reach`), allocated
/// in every model after its other names (unused without the option).
#[derive(Debug, Clone)]
pub(crate) struct ReachNames {
    /// The field of the counts, one `TableReach` per table the model's code reads.
    pub field: String,
    /// The method visiting the counts of the model and its submodels.
    pub visit: String,
    /// The method forgetting the counts of the model and its submodels.
    pub clear: String,
    /// The associated function of fresh counts.
    pub fresh: String,
    /// `reset()` without forgetting the counts: what a parent's reset and `reset(sub)`
    /// call, so that only a reset from outside starts a new count.
    pub reset_kept: String,
}

/// The models to emit, with the names of every model of the program.
pub(crate) struct Plan<'a> {
    /// The lowered program.
    pub lowered: &'a dyn Lowering,
    /// Its declarations (`lowered.program()`).
    pub program: &'a Program,
    /// Names of every model, indexed by model id.
    pub names: Vec<ModelNames>,
    /// The models to emit, leaves first.
    pub emit: Vec<ModelId>,
    /// With [`crate::Options::count_table_reach`], per model, the tables its generated
    /// code counts (`crate::reach`); `None` without the option.
    pub reach: Option<crate::reach::Registry>,
}

impl<'a> Plan<'a> {
    /// A plan emitting `roots` and every model they instantiate, or the whole program
    /// when `roots` is `None`.
    pub(crate) fn new(lowered: &'a dyn Lowering, roots: Option<&[ModelId]>) -> Plan<'a> {
        let program = lowered.program();
        let mut types = Namespace::default();
        let model_names: Vec<&str> = program.models.iter().map(|m| m.name.as_str()).collect();
        let tys = types.user_names(&model_names, true);
        let mut names: Vec<ModelNames> = program
            .models
            .iter()
            .zip(tys)
            .map(|(m, ty)| model_names_of(m, ty))
            .collect();
        for (m, n) in program.models.iter().zip(&mut names) {
            crate::modes::name_types(m, n, &mut types);
        }
        let emit = program.tree(roots);
        Plan {
            lowered,
            program,
            names,
            emit,
            reach: None,
        }
    }
}

/// Allocates the names of one model's fields and methods.
fn model_names_of(m: &Model, ty: String) -> ModelNames {
    let mut fields = Namespace::default();
    let mut methods = Namespace::with_reserved(RESERVED_METHODS);

    // User-visible names first, in their own namespaces.
    let field_vars: Vec<usize> = (0..m.vars.len())
        .filter(|&i| !m.vars[i].is_derived())
        .collect();
    let method_vars: Vec<usize> = (0..m.vars.len())
        .filter(|&i| m.vars[i].is_derived())
        .collect();
    let mut user_fields: Vec<&str> = field_vars
        .iter()
        .map(|&i| m.vars[i].name.as_str())
        .collect();
    user_fields.extend(m.subs.iter().map(|s| s.name.as_str()));
    user_fields.extend(m.events.iter().map(|e| e.name.as_str()));
    user_fields.extend(m.modes.iter().map(|e| e.name.as_str()));
    let field_idents = fields.user_names(&user_fields, false);
    let mut user_methods: Vec<&str> = method_vars
        .iter()
        .map(|&i| m.vars[i].name.as_str())
        .collect();
    user_methods.extend(m.conds.iter().map(|c| c.name.as_str()));
    user_methods.extend(m.events.iter().map(|e| e.name.as_str()));
    let method_idents = methods.user_names(&user_methods, false);

    let mut vars = vec![String::new(); m.vars.len()];
    for (k, &i) in field_vars.iter().enumerate() {
        vars[i] = field_idents[k].clone();
    }
    for (k, &i) in method_vars.iter().enumerate() {
        vars[i] = method_idents[k].clone();
    }
    let nf = field_vars.len();
    let subs = field_idents[nf..nf + m.subs.len()].to_vec();
    let ne = nf + m.subs.len() + m.events.len();
    let event_fields = field_idents[nf + m.subs.len()..ne].to_vec();
    let modes = field_idents[ne..].to_vec();
    let nm = method_vars.len();
    let conds = method_idents[nm..nm + m.conds.len()].to_vec();
    let events = method_idents[nm + m.conds.len()..].to_vec();

    // Internal fields, made unique against the user's.
    let sub_on = m
        .subs
        .iter()
        .map(|s| fields.internal(&format!("{}_on", s.name)))
        .collect();
    let event_prev = m
        .events
        .iter()
        .map(|e| fields.internal(&format!("{}_prev", e.name)))
        .collect();
    let mems = (0..m.memories.len())
        .map(|k| {
            let target = m.deriv_targets[k].map(|v| m.vars[v].name.as_str());
            match target {
                Some(t) => fields.internal(&format!("{t}_deriv")),
                None => fields.internal(&format!("deriv_{k}")),
            }
        })
        .collect();
    let mode_starts = m
        .modes
        .iter()
        .map(|md| fields.internal(&format!("{}_start", md.name)))
        .collect();
    let time = fields.internal("time");
    let dt = fields.internal("dt");
    let clock = fields.internal("clock");
    let clock_shared = fields.internal("clock_shared");
    let step_once = methods.internal("step_once");
    let pieces = step_pieces(m.body_len).len();
    let step_parts = if pieces > 1 {
        (0..pieces)
            .map(|i| methods.internal(&format!("step_part_{i}")))
            .collect()
    } else {
        Vec::new()
    };
    let writes_dt = m.sets_dt;
    let reach = ReachNames {
        field: fields.internal("table_reach"),
        visit: methods.internal("visit_table_reach"),
        clear: methods.internal("clear_table_reach"),
        fresh: methods.internal("fresh_table_reach"),
        reset_kept: methods.internal("reset_keeping_table_reach"),
    };
    ModelNames {
        ty,
        vars,
        conds,
        events,
        event_fields,
        event_prev,
        subs,
        sub_on,
        mems,
        time,
        dt,
        clock,
        clock_shared,
        // A placed submodel steps by the `dt` of its statement's point.
        uses_dt: writes_dt || m.subs.iter().any(|s| s.placed.is_some()) || m.reads_dt,
        sets_dt: writes_dt,
        step_parts,
        step_once,
        modes,
        mode_starts,
        mode_types: Vec::new(),
        mode_variants: Vec::new(),
        reach,
    }
}
