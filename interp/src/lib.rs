//! Interpreter of checked Sit models, bit-identical to the generated code.
//!
//! [`Instance::new`] flattens the instance tree of a root model into slot arrays (reals,
//! flags, `deriv` memories), resolves every name to a slot once and compiles the rules
//! into flat programs of operations over slot indices. [`Instance`] then implements
//! [`sit_runtime::Model`] with exactly the semantics of `sit_check::ir` (step order,
//! reset, events, `otherwise`, derived params and conditions evaluated where they are
//! read) and calls the very same `sit_runtime` functions, with the arithmetic of the IR
//! tree in its order, so its values are the generated code's to the bit. A step
//! allocates nothing.
//!
//! ```
//! use sit_runtime::Model;
//!
//! let out = sit_middle::check_source("decay.sit", "model Decay { param k = 0.5; output real x = 1; x = integral(-k * x); }");
//! let program = out.program.unwrap();
//! let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).unwrap();
//! let mut m = sit_interp::Instance::new(&lowered, program.model("Decay").unwrap());
//! m.step(0.1);
//! assert_eq!(m.get("x"), Some(1.0 + -(0.5 * 1.0) * 0.1));
//! m.set("k", 2.0).unwrap();
//! m.reset();
//! assert_eq!((m.get("x"), m.get("k"), m.time()), (Some(1.0), Some(2.0), 0.0));
//! ```

mod code;
mod compile;
mod events;
mod exec;
mod finite;
mod flatten;
mod forms;
mod funcs;
mod linear;
mod ops;
mod reach;
pub mod replay;
mod watch;

pub use finite::{Iteration, NonFinite, Origin, SiteKind};
pub use reach::TableRead;

use code::{Code, Read, State};
use sit_lir::Lowering;
use sit_lir::ModelId;
use sit_runtime::{Model, SetError, ValueType, VarInfo, from_logical, logical};
use std::fmt;
use std::sync::Arc;

/// The IR given to the interpreter is not a valid checked program (an index out of
/// range, a type mismatch, a cycle; never happens for the output of `sit_middle`), or its
/// instance tree is beyond the interpreter's limit (see [`InterpError::is_too_large`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterpError {
    what: String,
    too_large: bool,
}

impl InterpError {
    pub(crate) fn malformed(what: String) -> InterpError {
        InterpError {
            what,
            too_large: false,
        }
    }

    pub(crate) fn too_large(what: String) -> InterpError {
        InterpError {
            what,
            too_large: true,
        }
    }

    /// Whether the program is valid but its instance tree has more instances than the
    /// interpreter accepts (submodels instantiating submodels, doubling at each level).
    pub fn is_too_large(&self) -> bool {
        self.too_large
    }
}

/// A program that cannot be lowered: too large ([`InterpError::is_too_large`]) or not
/// a checked one.
impl From<sit_lir::LowerError> for InterpError {
    fn from(e: sit_lir::LowerError) -> InterpError {
        match e {
            sit_lir::LowerError::TooLarge(what) => InterpError::too_large(what),
            sit_lir::LowerError::Malformed(what) => InterpError::malformed(what),
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.too_large {
            f.write_str(&self.what)
        } else {
            write!(f, "invalid checked program: {}", self.what)
        }
    }
}

impl std::error::Error for InterpError {}

/// An interpreted instance of a model, with its submodels: a [`sit_runtime::Model`].
///
/// Cloning is cheap (the compiled program is shared; only the values are copied), so a
/// sweep constructs once and clones per run.
#[derive(Debug, Clone)]
pub struct Instance {
    machine: Arc<exec::Machine>,
    state: State,
}

impl Instance {
    /// Constructs an instance of the model `root` of a lowered program (from
    /// `sit_driver::compile`, or `sit_lower::Lowered::new` on a checked program): free params and inputs
    /// at their defaults, then reset (t = 0).
    ///
    /// # Panics
    ///
    /// If `root` is not a model of `program` or `program` is not a checked program
    /// (see [`Instance::try_new`] for the fallible version).
    pub fn new(lowered: &dyn Lowering, root: ModelId) -> Instance {
        match Instance::try_new(lowered, root) {
            Ok(i) => i,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Instance::new`], with an error instead of a panic for an invalid `root` or IR.
    pub fn try_new(lowered: &dyn Lowering, root: ModelId) -> Result<Instance, InterpError> {
        let mut machine = exec::Machine::new(compile::compile(lowered, root)?)?;
        machine.allow_non_finite = lowered.program().allows_non_finite(root);
        let state = exec::construct(&machine);
        Ok(Instance {
            machine: Arc::new(machine),
            state,
        })
    }

    fn code(&self) -> &Code {
        &self.machine.code
    }

    /// Whether a model of the tree says `#[allow(non_finite, reason = "…")]`: it means
    /// values to be NaN or infinite, and a host runs on past them as with
    /// `--allow-non-finite` (`sitc run`, `sitc sweep`, Python, the page).
    pub fn allows_non_finite(&self) -> bool {
        self.machine.allow_non_finite
    }

    /// The root model's name.
    pub fn model_name(&self) -> &str {
        &self.code().name
    }

    /// Indices of the root model's own variables declared `output`, in index order.
    pub fn root_outputs(&self) -> Vec<usize> {
        (self.code().vars.iter().enumerate())
            .filter(|(_, v)| v.depth == 0 && v.output)
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether variable `index` belongs to the root model itself (not to a submodel;
    /// `NAME.on` belongs to the model that declares `NAME`).
    pub fn is_root_var(&self, index: usize) -> bool {
        self.code().vars.get(index).is_some_and(|v| v.depth == 0)
    }

    fn read(&self, read: &Read) -> f64 {
        let s = &self.state;
        match read {
            Read::Real(slot) => s.reals[*slot],
            Read::Flag(slot) => logical(s.flags[*slot]),
            Read::Num(e) => e.eval(&s.reals),
            Read::Logic(e) => logical(e.eval(&s.reals, &s.flags)),
        }
    }
}

impl Model for Instance {
    #[inline]
    fn step(&mut self, dt: f64) {
        let _ = exec::step::<false>(&self.machine, &mut self.state, dt);
    }

    fn reset(&mut self) {
        let _ = exec::reset::<false>(&self.machine, &mut self.state);
    }

    #[inline]
    fn time(&self) -> f64 {
        self.state.reals[self.code().nodes[0].time]
    }

    fn var_count(&self) -> usize {
        self.code().shown
    }

    fn hidden_count(&self) -> usize {
        self.code().vars.len() - self.code().shown
    }

    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        let v = self.code().vars.get(index)?;
        Some(VarInfo {
            name: &v.name,
            kind: v.kind,
            ty: v.ty,
            output: v.output,
            settable: v.locked.is_none(),
        })
    }

    fn get_at(&self, index: usize) -> Option<f64> {
        Some(self.read(&self.code().vars.get(index)?.read))
    }

    #[inline]
    fn first_non_finite(&self) -> Option<(usize, f64)> {
        let code = self.code();
        (self.machine.watched).first(code, &self.state, |i| self.read(&code.vars[i].read))
    }

    #[inline]
    fn first_beyond(&self, bound: f64) -> Option<(usize, f64)> {
        Instance::first_beyond(self, bound)
    }

    fn mode_state(&self, index: usize, state: usize) -> Option<&str> {
        Some(self.code().vars.get(index)?.states.get(state)?.as_str())
    }

    fn table_reach(
        &self,
        visit: &mut dyn FnMut(&sit_runtime::table::TableDecl<'_>, &sit_runtime::table::TableReach),
    ) -> bool {
        for read in self.table_reads() {
            let decl = sit_runtime::table::TableDecl {
                name: read.name,
                args: &read.args,
                key: read.key,
            };
            visit(&decl, read.reach);
        }
        true
    }

    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        let v = (self.machine.code.vars.get(index)).ok_or(SetError::Unknown(index.into()))?;
        if let Some(reason) = v.locked {
            return Err(SetError::NotSettable {
                var: index.into(),
                kind: v.kind,
                reason,
            });
        }
        match (&v.read, v.ty) {
            (Read::Real(slot), ValueType::Real) => self.state.reals[*slot] = value,
            (Read::Flag(slot), ValueType::Logical) => {
                self.state.flags[*slot] = from_logical(index, value)?
            }
            // Settable variables are stored (the compiler locks the computed ones).
            _ => return Err(SetError::not_settable(index, v.kind)),
        }
        Ok(())
    }
}

#[cfg(test)]
mod ops_tests;
#[cfg(test)]
mod tests;

#[cfg(test)]
impl Instance {
    /// The instance with one real slot more than `ops::SMALL` (unused), so that its
    /// programs run over slices with checked indices rather than over the arrays.
    fn over_slices(mut self) -> Instance {
        let n = self.state.reals.len().max(ops::SMALL + 1);
        self.state.reals.resize(n, 0.0);
        self
    }
}
