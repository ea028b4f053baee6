//! The `Model` trait through which generic tools drive any model, and its variable metadata.
//!
//! Every variable of a model, submodels included, has an index in `0..var_count()`; the
//! index order is the model's (generated or interpreted) table order and is stable for a
//! given model. Submodel variables are named by their dotted path (`p1.roll.x`). Logical
//! values travel as `f64`: `0.0` is false and `1.0` is true (see [`logical`] and
//! [`from_logical`]). A model may also have *hidden states* (the memories of an
//! integration method, the whys of the event log) at the indices after them,
//! `var_count()..var_count() + hidden_count()`: reached by index, never listed.

use core::fmt;
use core::iter::FusedIterator;

/// What a variable is in the model, which also says whether it can be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `param`: a real constant, changeable between runs.
    Param,
    /// `input real` / `input flag`: set by the host program or bound by the parent model.
    Input,
    /// `real` / `flag`: a state, holding its value until a rule changes it.
    State,
    /// `pred`: recomputed from real variables every step (γ).
    Predicate,
    /// `situation`: recomputed from logical variables every step.
    Situation,
    /// `event`: true only on the step where its condition becomes true.
    Event,
    /// `NAME.on`: whether a submodel is switched on.
    SubmodelOn,
}

impl VarKind {
    /// The kind's short name as written in `.sit` files and messages: `"param"`,
    /// `"input"`, `"state"`, `"pred"`, `"situation"`, `"event"`, `"on"`.
    #[inline]
    pub const fn name(&self) -> &'static str {
        match self {
            VarKind::Param => "param",
            VarKind::Input => "input",
            VarKind::State => "state",
            VarKind::Predicate => "pred",
            VarKind::Situation => "situation",
            VarKind::Event => "event",
            VarKind::SubmodelOn => "on",
        }
    }

    /// The kind with its article, for messages: `"a param"`, `"an input"`, ...,
    /// `"a submodel's on state"`.
    const fn with_article(&self) -> &'static str {
        match self {
            VarKind::Param => "a param",
            VarKind::Input => "an input",
            VarKind::State => "a state",
            VarKind::Predicate => "a pred",
            VarKind::Situation => "a situation",
            VarKind::Event => "an event",
            VarKind::SubmodelOn => "a submodel's on state",
        }
    }
}

impl fmt::Display for VarKind {
    /// Writes [`VarKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of a variable's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// A real number (`f64`).
    Real,
    /// A logical value, carried as `0.0` (false) or `1.0` (true).
    Logical,
}

/// Description of one variable of a model, as returned by [`Model::var_info`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarInfo<'a> {
    /// Name; the dotted path for submodel variables (`"p1.roll.x"`).
    pub name: &'a str,
    /// What the variable is.
    pub kind: VarKind,
    /// Real or logical.
    pub ty: ValueType,
    /// Declared `output` (for the root model's own variables) or visible as an output.
    pub output: bool,
    /// Whether [`Model::set_at`] accepts a value for it.
    pub settable: bool,
}

/// `N` descriptions of `table` from `start` on, each name without its first `prefix`
/// bytes: how the generated code of a model that another model instantiates takes its
/// variable table from its parent's (the parent's `sub.x` is its `x`), so that each
/// model's table is written once and not again, renamed, in every model above it (a
/// chain of submodels `d` deep made code that grew with `d³`).
///
/// Panics (at compile time, in a `const`) if `table` has fewer than `start + N`
/// entries or a name has fewer than `prefix` bytes or would be split inside a character.
pub const fn sub_table<const N: usize>(
    table: &[VarInfo<'static>],
    start: usize,
    prefix: usize,
) -> [VarInfo<'static>; N] {
    let mut out = [VarInfo {
        name: "",
        kind: VarKind::Param,
        ty: ValueType::Real,
        output: false,
        settable: false,
    }; N];
    let mut i = 0;
    while i < N {
        let info = table[start + i];
        let (_, rest) = info.name.as_bytes().split_at(prefix);
        let name = match core::str::from_utf8(rest) {
            Ok(name) => name,
            Err(_) => panic!("a variable's name split inside a character"),
        };
        out[i] = VarInfo { name, ..info };
        i += 1;
    }
    out
}

/// The variable a [`SetError`] is about: its name when known, else its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var<'a> {
    /// By name (dotted path for submodel variables).
    Name(&'a str),
    /// By index in the model's variable table.
    Index(usize),
}

impl<'a> From<&'a str> for Var<'a> {
    /// `Var::Name(name)`.
    #[inline]
    fn from(name: &'a str) -> Self {
        Var::Name(name)
    }
}

impl From<usize> for Var<'_> {
    /// `Var::Index(index)`.
    #[inline]
    fn from(index: usize) -> Self {
        Var::Index(index)
    }
}

impl fmt::Display for Var<'_> {
    /// Writes `` `name` `` or `variable #index`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Var::Name(name) => write!(f, "`{name}`"),
            Var::Index(index) => write!(f, "variable #{index}"),
        }
    }
}

/// Why a variable could not be set. Needs no allocation: the variable is borrowed
/// ([`Var::Name`]) or referred to by index ([`Var::Index`]).
///
/// [`Model::set`] always names the variable with the name it was given (so its errors
/// borrow that name); [`Model::set_at`] returns `SetError<'static>`, naming the variable
/// by a `'static` name or by index. `Display` gives a complete English message, e.g.
/// ``no variable named `x` ``,
/// ``"`contact` is a pred: it is computed from other variables and cannot be set"``,
/// ``"`q` is logical: expected 0 or 1, got 0.5"``.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SetError<'a> {
    /// No variable has this name (or index).
    Unknown(Var<'a>),
    /// The variable exists but cannot be set.
    NotSettable {
        /// The variable.
        var: Var<'a>,
        /// Its kind.
        kind: VarKind,
        /// Why, as a clause completing "`x` is a pred: ..." (see [`SetError::COMPUTED`]).
        reason: &'static str,
    },
    /// A logical variable was given a value other than `0.0` or `1.0`.
    NotLogical {
        /// The variable.
        var: Var<'a>,
        /// The rejected value.
        value: f64,
    },
}

impl<'a> SetError<'a> {
    /// Reason for preds, situations and events.
    pub const COMPUTED: &'static str = "it is computed from other variables and cannot be set";
    /// Reason for a derived param (`param k2 = 2 * k;`): generated and interpreted
    /// models both give it.
    pub const DERIVED: &'static str = "it is derived from other params and cannot be set";
    /// Reason for a param, input or state of a submodel that its parent binds.
    pub const BOUND: &'static str = "it is bound by its parent model and cannot be set";
    /// Reason for a submodel's `on` state when the model does not let the host switch it.
    pub const SWITCHED: &'static str =
        "it is switched by its parent model's rules and cannot be set";
    /// Reason for a mode (a state whose value is the index of one of its named states).
    pub const MODE: &'static str = "it is a mode, changed only by its transitions";

    /// `NotSettable` with the default reason for `kind`: [`SetError::COMPUTED`] for
    /// `Predicate`, `Situation` and `Event`, [`SetError::SWITCHED`] for `SubmodelOn`,
    /// [`SetError::BOUND`] for `Param`, `Input` and `State`.
    #[inline]
    pub fn not_settable(var: impl Into<Var<'a>>, kind: VarKind) -> Self {
        let reason = match kind {
            VarKind::Predicate | VarKind::Situation | VarKind::Event => Self::COMPUTED,
            VarKind::SubmodelOn => Self::SWITCHED,
            VarKind::Param | VarKind::Input | VarKind::State => Self::BOUND,
        };
        SetError::NotSettable {
            var: var.into(),
            kind,
            reason,
        }
    }

    /// The variable the error is about.
    #[inline]
    pub fn var(&self) -> Var<'a> {
        match *self {
            SetError::Unknown(var)
            | SetError::NotSettable { var, .. }
            | SetError::NotLogical { var, .. } => var,
        }
    }

    /// The same error about the variable at `index`: a model that hands a submodel's
    /// variable to the submodel's `set_at` names it by its own index.
    #[inline]
    pub fn at(self, index: usize) -> SetError<'a> {
        let var = Var::Index(index);
        match self {
            SetError::Unknown(_) => SetError::Unknown(var),
            SetError::NotSettable { kind, reason, .. } => {
                SetError::NotSettable { var, kind, reason }
            }
            SetError::NotLogical { value, .. } => SetError::NotLogical { var, value },
        }
    }

    /// The same error about the variable called `name` (replaces the variable, whether
    /// it was an index or another name).
    #[inline]
    pub fn named<'b>(self, name: &'b str) -> SetError<'b> {
        let var = Var::Name(name);
        match self {
            SetError::Unknown(_) => SetError::Unknown(var),
            SetError::NotSettable { kind, reason, .. } => {
                SetError::NotSettable { var, kind, reason }
            }
            SetError::NotLogical { value, .. } => SetError::NotLogical { var, value },
        }
    }
}

impl fmt::Display for SetError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::Unknown(Var::Name(name)) => write!(f, "no variable named `{name}`"),
            SetError::Unknown(Var::Index(index)) => write!(f, "no variable with index {index}"),
            SetError::NotSettable { var, kind, reason } => {
                write!(f, "{var} is {}: {reason}", kind.with_article())
            }
            SetError::NotLogical { var, value } => {
                write!(f, "{var} is logical: expected 0 or 1, got {value}")
            }
        }
    }
}

impl core::error::Error for SetError<'_> {}

/// A logical value as a real: `logical(b) = 1.0` if `b`, else `0.0`.
#[inline]
pub const fn logical(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

/// A real as a logical value, for `set_at` of a logical variable: `0.0` (or `-0.0`) is
/// `false`, `1.0` is `true`, anything else (`0.5`, NaN, ...) is
/// `Err(SetError::NotLogical { var, value })`.
///
/// `var` is the variable's index or name (`from_logical(5, v)`, `from_logical("q", v)`).
#[inline]
pub fn from_logical<'a>(var: impl Into<Var<'a>>, value: f64) -> Result<bool, SetError<'a>> {
    if value == 0.0 {
        Ok(false)
    } else if value == 1.0 {
        Ok(true)
    } else {
        Err(SetError::NotLogical {
            var: var.into(),
            value,
        })
    }
}

/// A simulation model as seen by generic tools (recorders, sweeps, the CLI, a foreign
/// interface). Object safe: tools take `&mut dyn Model`.
///
/// Compiled models implement it with generated code; the interpreter implements it for
/// interpreted models. Indices run over `0..var_count()` and `var_info(i)` must be
/// `Some` for every such index.
///
/// Hidden states (see [`Model::hidden_count`]) follow at `var_count()..var_count() +
/// hidden_count()`: `var_info`, `get_at` and `set_at` reach them there, but they are not
/// variables of the model: [`Model::var_index`], [`Model::variables`], [`Model::get`],
/// [`Model::set`] and every tool that lists variables (recording, `sitc info`, the
/// FMU's description) see only `0..var_count()`.
pub trait Model {
    /// Advances the model by one step of `dt` (the step order is defined by the
    /// language reference); `time()` advances by `dt` as a [`crate::Clock`] does
    /// (`n·dt` after `n` steps of a constant `dt`, not a sum of rounded steps).
    fn step(&mut self, dt: f64);

    /// Returns the model to its initial values and `t = 0`; parameters keep their
    /// current values, so a run can be repeated with changed parameters.
    fn reset(&mut self);

    /// The model time `t` since creation or reset, as a [`crate::Clock`] computes it:
    /// after `n` steps of a constant `dt`, the double nearest to `n·dt`.
    fn time(&self) -> f64;

    /// Number of variables, submodel variables included (hidden states excluded).
    fn var_count(&self) -> usize;

    /// Number of hidden states, at the indices after the variables: the stage memories
    /// of an integration method and the whys of the event log, stored and saved like
    /// states but not variables of the model. 0 unless the model has some.
    fn hidden_count(&self) -> usize {
        0
    }

    /// Description of variable `index` (or of a hidden state), `None` if `index >=
    /// var_count() + hidden_count()`.
    fn var_info(&self, index: usize) -> Option<VarInfo<'_>>;

    /// Current value of variable `index` (or of a hidden state; logical values as
    /// `0.0`/`1.0`), `None` if `index >= var_count() + hidden_count()`.
    fn get_at(&self, index: usize) -> Option<f64>;

    /// The first real variable of the public list (params, derived params, inputs,
    /// states, in index order) whose value is not finite: its index and value; flags are
    /// skipped, and so are the hidden states. The default scans every variable through
    /// [`Model::var_info`] and [`Model::get_at`] ([`crate::finite::scan_variables`]); a model that stores its values in an
    /// array overrides it with a scan of that array (the hosts call it after every
    /// step, [`crate::finite::Watch`]), giving the same answer.
    fn first_non_finite(&self) -> Option<(usize, f64)> {
        crate::finite::scan_variables(self)
    }

    /// The first real variable of the public list (as [`Model::first_non_finite`]
    /// scans it) whose magnitude is not below `bound` (NaN and infinities included):
    /// its index and value. For the hosts' report of a value past 1e100 (a probable
    /// instability) on the rows they record. The default scans every variable through
    /// [`Model::var_info`] and [`Model::get_at`] ([`crate::finite::scan_beyond`]); a
    /// model that stores its values in an array may override it, giving the same answer.
    fn first_beyond(&self, bound: f64) -> Option<(usize, f64)> {
        crate::finite::scan_beyond(self, bound)
    }

    /// Sets variable `index` (or a hidden state). Params, inputs and states of any depth
    /// can be set (unless bound by their parent), logical ones only to `0.0` or `1.0`
    /// (see [`from_logical`]).
    /// Errors: `Unknown(Var::Index(index))` for an index out of range, `NotSettable`,
    /// `NotLogical`.
    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>>;

    /// The name of state `state` of the mode at `index` (a mode's value through
    /// [`Model::get_at`] is the index of its state, in declaration order): `Some` only
    /// when variable `index` is a mode and `state` is one of its states. Traces write
    /// a mode's state by this name ([`crate::trace`]). The default says no variable is
    /// a mode; generated and interpreted models name their modes' states.
    fn mode_state(&self, index: usize, state: usize) -> Option<&str> {
        let _ = (index, state);
        None
    }

    /// Calls `visit` with each lookup table the model has read since its last reset and
    /// what those reads saw against its grid ([`crate::table::TableReach`]), one call per
    /// table and instance (a table read by two instances of a submodel comes twice, with
    /// the same [`TableDecl::key`](crate::table::TableDecl::key): add them with
    /// [`TableReach::merge`](crate::table::TableReach::merge)); returns whether the model
    /// counts its reads. The default counts nothing and returns `false`; interpreted
    /// models count, generated code counts when generated with the option
    /// (`sit_build::Builder::count_table_reach`, `sit_codegen::Options::count_table_reach`).
    fn table_reach(
        &self,
        visit: &mut dyn FnMut(&crate::table::TableDecl<'_>, &crate::table::TableReach),
    ) -> bool {
        let _ = visit;
        false
    }

    /// Index of the variable called `name` (dotted path for submodel variables): a linear
    /// scan of `var_info`, first match.
    fn var_index(&self, name: &str) -> Option<usize> {
        (0..self.var_count()).find(|&i| self.var_info(i).is_some_and(|info| info.name == name))
    }

    /// Index of the hidden state called `name` (a linear scan of `var_info` over
    /// `var_count()..var_count() + hidden_count()`): how the event log finds its whys.
    fn hidden_index(&self, name: &str) -> Option<usize> {
        let n = self.var_count();
        (n..n + self.hidden_count())
            .find(|&i| self.var_info(i).is_some_and(|info| info.name == name))
    }

    /// Current value of the variable called `name`: `get_at(var_index(name)?)`.
    fn get(&self, name: &str) -> Option<f64> {
        self.get_at(self.var_index(name)?)
    }

    /// Sets the variable called `name`: `set_at(var_index(name)?, value)`, with every
    /// error naming the variable by `name` (``no variable named `name` `` if there is none).
    fn set<'n>(&mut self, name: &'n str, value: f64) -> Result<(), SetError<'n>> {
        let index = self
            .var_index(name)
            .ok_or(SetError::Unknown(Var::Name(name)))?;
        self.set_at(index, value).map_err(|e| e.named(name))
    }

    /// Iterator over the descriptions of all variables, in index order.
    /// (Not callable on a `dyn Model`: use [`Variables::new`] there.)
    fn variables(&self) -> Variables<'_>
    where
        Self: Sized,
    {
        Variables::new(self)
    }
}

/// Iterator over a model's [`VarInfo`]s in index order (`var_info(0)`, `var_info(1)`,
/// ...); it stops at `var_count()` or at the first `None`. Use `.enumerate()` for indices.
#[derive(Clone, Copy)]
pub struct Variables<'m> {
    model: &'m dyn Model,
    next: usize,
    count: usize,
}

impl<'m> Variables<'m> {
    /// Iterator over the variables of `model`.
    pub fn new(model: &'m dyn Model) -> Self {
        Variables {
            model,
            next: 0,
            count: model.var_count(),
        }
    }
}

impl fmt::Debug for Variables<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variables")
            .field("next", &self.next)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl<'m> Iterator for Variables<'m> {
    type Item = VarInfo<'m>;

    fn next(&mut self) -> Option<VarInfo<'m>> {
        if self.next >= self.count {
            return None;
        }
        match self.model.var_info(self.next) {
            Some(info) => {
                self.next += 1;
                Some(info)
            }
            None => {
                self.next = self.count;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.count - self.next))
    }
}

impl FusedIterator for Variables<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names() {
        let kinds = [
            (VarKind::Param, "param"),
            (VarKind::Input, "input"),
            (VarKind::State, "state"),
            (VarKind::Predicate, "pred"),
            (VarKind::Situation, "situation"),
            (VarKind::Event, "event"),
            (VarKind::SubmodelOn, "on"),
        ];
        for (kind, name) in kinds {
            assert_eq!(kind.name(), name);
        }
    }

    #[test]
    fn logical_round_trip() {
        assert_eq!(logical(true), 1.0);
        assert_eq!(logical(false), 0.0);
        assert_eq!(from_logical(3, 1.0), Ok(true));
        assert_eq!(from_logical(3, 0.0), Ok(false));
        assert_eq!(from_logical(3, -0.0), Ok(false));
        assert_eq!(
            from_logical("q", 0.5),
            Err(SetError::NotLogical {
                var: Var::Name("q"),
                value: 0.5
            })
        );
        assert!(from_logical(3, f64::NAN).is_err());
    }

    #[test]
    fn named_replaces_the_variable() {
        let e = SetError::not_settable(7, VarKind::Event).named("bump");
        assert_eq!(e.var(), Var::Name("bump"));
        assert_eq!(
            e,
            SetError::NotSettable {
                var: Var::Name("bump"),
                kind: VarKind::Event,
                reason: SetError::COMPUTED
            }
        );
    }
}
