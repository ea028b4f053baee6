//! What a back end knows of a lowered program besides its statements: per model, the names, kinds, spans and docs of its variables, conditions, events, submodels and modes, filled once when the program is lowered.
//!
//! The checked IR (`sit_check::ir`) holds the same declarations with their
//! definitions (expressions); a back end reads only what is here, and gets the
//! definitions lowered, as [`crate::Term`]s, through [`crate::Lowering`].

use crate::{ModelId, Span, Ty, VarId};
use sit_parser::SourceMap;

/// The declarations of every model of a lowered program, with the sources they came
/// from.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Every model, leaves first (a model comes after the models it instantiates), in
    /// the order and with the ids of the checked program.
    pub models: Vec<Model>,
    /// The source files, for provenance in generated code and faults.
    pub sources: SourceMap,
}

impl Program {
    /// The model called `name`, if any.
    pub fn model(&self, name: &str) -> Option<ModelId> {
        self.models.iter().position(|m| m.name == name)
    }

    /// Whether model `root` or a model it instantiates (at any depth) says
    /// `#[allow(non_finite, …)]` ([`Model::allow_non_finite`]).
    pub fn allows_non_finite(&self, root: ModelId) -> bool {
        let mut todo = vec![root];
        let mut seen = vec![false; self.models.len()];
        while let Some(id) = todo.pop() {
            let Some(m) = self.models.get(id) else {
                continue;
            };
            if m.allow_non_finite {
                return true;
            }
            for s in &m.subs {
                if let Some(seen) = seen.get_mut(s.model)
                    && !std::mem::replace(seen, true)
                {
                    todo.push(s.model);
                }
            }
        }
        false
    }

    /// `roots` and every model they instantiate (at any depth), in id order (leaves
    /// first); every model when `roots` is `None`.
    pub fn tree(&self, roots: Option<&[ModelId]>) -> Vec<ModelId> {
        let Some(roots) = roots else {
            return (0..self.models.len()).collect();
        };
        let mut keep = vec![false; self.models.len()];
        let mut stack: Vec<ModelId> = roots.to_vec();
        while let Some(id) = stack.pop() {
            if !std::mem::replace(&mut keep[id], true) {
                stack.extend(self.models[id].subs.iter().map(|s| s.model));
            }
        }
        (0..self.models.len()).filter(|&i| keep[i]).collect()
    }
}

/// One model's declarations, after the method rewrite (hidden states included).
#[derive(Debug, Clone)]
pub struct Model {
    /// The model's name as written in the source (may be non-ASCII).
    pub name: String,
    /// The `///` doc comment lines before `model`, without the slashes.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
    /// Params, inputs and states (hidden ones included), by [`VarId`].
    pub vars: Vec<Var>,
    /// Preds and situations.
    pub conds: Vec<Cond>,
    /// Events.
    pub events: Vec<Event>,
    /// Submodel instances.
    pub subs: Vec<Sub>,
    /// Modes.
    pub modes: Vec<Mode>,
    /// The hidden memories of its stateful procedures.
    pub memories: Vec<Memory>,
    /// The number of `otherwise` bookkeeping flags of its step.
    pub fired: usize,
    /// Per memory, the target of the `deriv` rule that owns it (the generated field is
    /// named after it).
    pub deriv_targets: Vec<Option<VarId>>,
    /// The number of top-level statements of the rewritten body (the generated `step`
    /// is split by it).
    pub body_len: usize,
    /// Whether the step writes `dt` (a method that locates events inside a step).
    pub sets_dt: bool,
    /// Whether an expression of the model (a definition, a binding, a rule, a
    /// condition) reads `dt`.
    pub reads_dt: bool,
    /// `#[allow(non_finite, …)]`: a run goes on past NaN and infinities.
    pub allow_non_finite: bool,
}

impl Model {
    /// The variable called `name`, if any.
    pub fn var(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name)
    }
}

/// What kind of variable a [`Var`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `param`: a real constant for the run, settable between runs.
    /// A param whose definition reads other params is *derived*: it has no
    /// storage and is evaluated where it is read, so it always follows them.
    Param {
        /// Whether the definition reads other params.
        derived: bool,
    },
    /// `input real` / `input flag`: set by the host or bound by the parent.
    Input,
    /// `real` / `flag`: a state, assigned by rules, keeps its value otherwise.
    State,
}

impl VarKind {
    /// Whether this is a derived param (no storage, evaluated where read).
    pub fn is_derived(self) -> bool {
        matches!(self, VarKind::Param { derived: true })
    }
}

/// A param, input or state, without its definition.
#[derive(Debug, Clone)]
pub struct Var {
    /// Name as written.
    pub name: String,
    /// Param, input or state.
    pub kind: VarKind,
    /// Real or flag (params are always real).
    pub ty: Ty,
    /// Declared `output` (visible to the parent).
    pub output: bool,
    /// The `///` doc comment lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
    /// A hidden state (a solver memory of a method rewrite or an event-log *why*).
    pub hidden: bool,
}

impl Var {
    /// Whether this is a derived param (no storage, evaluated where read).
    pub fn is_derived(&self) -> bool {
        self.kind.is_derived()
    }
}

/// Whether a named condition was declared as `pred` or `situation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CondKind {
    /// `pred`: a range over real variables.
    Pred,
    /// `situation`: a conjunction of logical literals.
    Situation,
}

impl CondKind {
    /// The kind's keyword: `pred` or `situation`.
    pub fn name(self) -> &'static str {
        match self {
            CondKind::Pred => "pred",
            CondKind::Situation => "situation",
        }
    }
}

/// A pred or situation, without its expression.
#[derive(Debug, Clone)]
pub struct Cond {
    /// Name as written.
    pub name: String,
    /// Pred or situation.
    pub kind: CondKind,
    /// Declared `output`.
    pub output: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// An event, without its condition.
#[derive(Debug, Clone)]
pub struct Event {
    /// Name as written.
    pub name: String,
    /// Declared `output`.
    pub output: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// A submodel instance, without its bindings.
#[derive(Debug, Clone)]
pub struct Sub {
    /// Instance name.
    pub name: String,
    /// The instantiated model.
    pub model: ModelId,
    /// Whether the submodel is switched on initially.
    pub initially_on: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the instance name is declared.
    pub span: Span,
    /// Declared with `phase`: run by `run(name)`, never stepped with its parent.
    pub phase: bool,
    /// Where `step(x);` places its step among the parent's rules; `None`: it steps
    /// before the rules, in declaration order.
    pub placed: Option<Span>,
}

/// A mode: an exclusive set of named states, of which exactly one holds; changed only
/// by transitions, at most once per step.
#[derive(Debug, Clone)]
pub struct Mode {
    /// Name as written.
    pub name: String,
    /// Declared `output`.
    pub output: bool,
    /// The state names, in declaration order; the first is the initial state. Seen
    /// through `sit_runtime::Model` the mode's value is the index of its state.
    pub states: Vec<String>,
    /// Where each state name is declared.
    pub state_spans: Vec<Span>,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Where the name is declared.
    pub span: Span,
}

/// The hidden memory of one stateful procedure call.
#[derive(Debug, Clone)]
pub struct Memory {
    /// Which procedure owns it.
    pub kind: MemoryKind,
    /// The call site.
    pub span: Span,
}

/// The kinds of hidden memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryKind {
    /// `deriv(x)`: the previous input, and whether there is one
    /// (`sit_runtime::Deriv`).
    Deriv,
}
