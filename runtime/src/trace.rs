//! CSV traces of a model's variables over time (needs the `std` feature).
//!
//! Format: a header line `t,<name>,<name>...` (or with units, `t [s],h [m],...`: see
//! [`Recorder::write_header_with_units`]), then one line per recorded instant,
//! `<time>,<value>,<value>...`, lines ended by `\n`, no quoting (variable names are
//! identifiers and dotted paths). Every real is printed by [`crate::number::shortest`]:
//! the shortest decimal that reads back to the same bits, with an exponent below `1e-4`
//! and from `1e16` on, as Python's `repr` (`0.30000000000000004`, `1`, `20000`, `-0`,
//! `1e-30`, `2.5e300`, `NaN`, `inf`, `-inf`).
//! Logical values print as `0` and `1`, and a mode as its state's name
//! ([`Model::mode_state`]: `red`, `green`; the number of a model that does not name it),
//! so a trace reads as the model does; [`Model::get_at`] keeps the state's index, for
//! hosts that need a number.
//!
//! ```
//! use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind, integral, trace};
//!
//! /// `v' = a` with a settable param `a`.
//! struct Ramp { t: f64, a: f64, v: f64 }
//!
//! impl Model for Ramp {
//!     fn step(&mut self, dt: f64) {
//!         self.v = integral(self.v, self.a, dt);
//!         self.t += dt;
//!     }
//!     fn reset(&mut self) { self.t = 0.0; self.v = 0.0; }
//!     fn time(&self) -> f64 { self.t }
//!     fn var_count(&self) -> usize { 2 }
//!     fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
//!         let (name, kind) = match index {
//!             0 => ("a", VarKind::Param),
//!             1 => ("v", VarKind::State),
//!             _ => return None,
//!         };
//!         Some(VarInfo { name, kind, ty: ValueType::Real, output: index == 1, settable: true })
//!     }
//!     fn get_at(&self, index: usize) -> Option<f64> {
//!         [self.a, self.v].get(index).copied()
//!     }
//!     fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
//!         match index {
//!             0 => self.a = value,
//!             1 => self.v = value,
//!             _ => return Err(SetError::Unknown(index.into())),
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let mut ramp = Ramp { t: 0.0, a: 2.0, v: 0.0 };
//! let mut csv = Vec::new();
//! // 5 steps of 0.25, a row at t = 0, after every 2 steps and at the end (the 5th step).
//! trace::run_trace(&mut ramp, 0.25, 5, 2, &[1], &mut csv)?;
//! assert_eq!(String::from_utf8(csv).unwrap(), "t,v\n0,0\n0.5,1\n1,2\n1.25,2.5\n");
//! assert_eq!(ramp.time(), 1.25);
//! # Ok::<(), std::io::Error>(())
//! ```

use crate::model::{Model, ValueType, Variables};
use crate::number::shortest;
use std::io::{self, Write};
use std::vec::Vec;

/// Writes the CSV header and rows for a fixed list of a model's variables.
///
/// The list is checked against the model once, in the constructor; then
/// [`Recorder::write_header`] and [`Recorder::write_row`] write to any [`Write`]
/// (unbuffered writers deserve a `std::io::BufWriter`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorder {
    columns: Vec<(usize, Column)>,
}

/// How a column prints its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    /// [`shortest`] of the `f64`.
    Real,
    /// `0` or `1`.
    Logical,
    /// The state's name.
    Mode,
}

impl Column {
    /// The column of variable `index` of `model`, of type `ty`.
    fn of(model: &dyn Model, index: usize, ty: ValueType) -> Column {
        match ty {
            ValueType::Logical => Column::Logical,
            ValueType::Real if model.mode_state(index, 0).is_some() => Column::Mode,
            ValueType::Real => Column::Real,
        }
    }
}

impl Recorder {
    /// A recorder of the variables at `indices`, in that order (repeats allowed).
    /// Error (`InvalidInput`) if an index is not a variable of `model`.
    pub fn new(model: &dyn Model, indices: &[usize]) -> io::Result<Recorder> {
        let columns = indices
            .iter()
            .map(|&index| match model.var_info(index) {
                Some(info) => Ok((index, Column::of(model, index, info.ty))),
                None => Err(invalid(format_args!("no variable with index {index}"))),
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Recorder { columns })
    }

    /// A recorder of the variables called `names`, in that order.
    /// Error (`InvalidInput`, ``no variable named `x` ``) for an unknown name.
    pub fn with_names(model: &dyn Model, names: &[&str]) -> io::Result<Recorder> {
        let indices = names
            .iter()
            .map(|&name| {
                model
                    .var_index(name)
                    .ok_or_else(|| invalid(format_args!("no variable named `{name}`")))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Recorder::new(model, &indices)
    }

    /// A recorder of every variable of `model`, in index order.
    pub fn all(model: &dyn Model) -> Recorder {
        Recorder {
            columns: Variables::new(model)
                .enumerate()
                .map(|(i, v)| (i, Column::of(model, i, v.ty)))
                .collect(),
        }
    }

    /// A recorder of the variables of `model` marked `output`, in index order.
    pub fn outputs(model: &dyn Model) -> Recorder {
        Recorder {
            columns: Variables::new(model)
                .enumerate()
                .filter(|(_, v)| v.output)
                .map(|(i, v)| (i, Column::of(model, i, v.ty)))
                .collect(),
        }
    }

    /// The recorded variables' indices, in column order.
    pub fn indices(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.columns.iter().map(|&(index, _)| index)
    }

    /// Writes the header line `t,<name>,<name>...\n` (names from `model.var_info`).
    pub fn write_header<W: Write + ?Sized>(
        &self,
        model: &dyn Model,
        out: &mut W,
    ) -> io::Result<()> {
        out.write_all(b"t")?;
        for &(index, _) in &self.columns {
            let info = model
                .var_info(index)
                .ok_or_else(|| invalid(format_args!("no variable with index {index}")))?;
            write!(out, ",{}", info.name)?;
        }
        out.write_all(b"\n")
    }

    /// Writes the header line with each column's unit after its name, as `sitc run
    /// --units` does: `t [s],h [m],v [m/s],n` (`unit(index)` of each recorded variable;
    /// a column without one is its name alone; time is in seconds).
    pub fn write_header_with_units<'u, W: Write + ?Sized>(
        &self,
        model: &dyn Model,
        unit: &dyn Fn(usize) -> Option<&'u str>,
        out: &mut W,
    ) -> io::Result<()> {
        out.write_all(b"t [s]")?;
        for &(index, _) in &self.columns {
            let info = model
                .var_info(index)
                .ok_or_else(|| invalid(format_args!("no variable with index {index}")))?;
            match unit(index) {
                Some(unit) => write!(out, ",{} [{unit}]", info.name)?,
                None => write!(out, ",{}", info.name)?,
            }
        }
        out.write_all(b"\n")
    }

    /// Writes one row `<time>,<value>,<value>...\n` with the model's current time and
    /// values (reals by [`shortest`], logical values as `0`/`1`, modes by their state's
    /// name).
    pub fn write_row<W: Write + ?Sized>(&self, model: &dyn Model, out: &mut W) -> io::Result<()> {
        write!(out, "{}", shortest(model.time()))?;
        for &(index, ty) in &self.columns {
            let value = model
                .get_at(index)
                .ok_or_else(|| invalid(format_args!("no variable with index {index}")))?;
            let state = match ty {
                Column::Mode if value >= 0.0 && value.fract() == 0.0 => {
                    model.mode_state(index, value as usize)
                }
                _ => None,
            };
            match (ty, state) {
                (_, Some(name)) => write!(out, ",{name}")?,
                (Column::Logical, _) if value == 0.0 => out.write_all(b",0")?,
                (Column::Logical, _) if value == 1.0 => out.write_all(b",1")?,
                _ => write!(out, ",{}", shortest(value))?,
            }
        }
        out.write_all(b"\n")
    }
}

/// Runs `model` for `steps` steps of `dt` and writes the CSV trace of the variables at
/// indices `record` to `out`, then flushes `out`.
///
/// Rows: the header, the model's current state before the first step (t = 0 for a fresh
/// model: the model is not reset), then a row after step `k` for each `k` in `1..=steps`
/// that is a multiple of `every`, and after the last step: the end time always has its
/// row, as SciPy's and the Modelica tools' results end at the stop time (`sitc run
/// --every` writes the same rows).
/// Errors (`InvalidInput`, before anything is written) for `every = 0` or an index that
/// is not a variable; otherwise the errors of `out`.
pub fn run_trace<W: Write + ?Sized>(
    model: &mut dyn Model,
    dt: f64,
    steps: u64,
    every: u64,
    record: &[usize],
    out: &mut W,
) -> io::Result<()> {
    if every == 0 {
        return Err(invalid(format_args!("`every` must be at least 1")));
    }
    let recorder = Recorder::new(model, record)?;
    recorder.write_header(model, out)?;
    recorder.write_row(model, out)?;
    for k in 1..=steps {
        model.step(dt);
        if k % every == 0 || k == steps {
            recorder.write_row(model, out)?;
        }
    }
    out.flush()
}

fn invalid(message: core::fmt::Arguments<'_>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, std::fmt::format(message))
}
