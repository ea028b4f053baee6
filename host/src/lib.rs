//! The host layer of Sit's front ends: what `sitc` and the Python package both do to drive
//! an interpreted model ([`sit_interp::Instance`]) for a user, written once.
//!
//! - [`load`]: a `.sit` or `.sch` file through the driver into an instance of its root;
//! - [`names`]: a variable by its dotted name, with a suggestion for a misspelt one, and
//!   the list of variables to record (names and globs, `all`, the outputs by default);
//! - [`values`]: which variable a value set before a run names, whether it can be set,
//!   and the model's reason, named, when it cannot;
//! - [`inputs`]: which inputs a time series may drive, and the driven input;
//! - [`summary`]: the summaries of a study (`final`, `max`, `min`, `first-crossing=T`,
//!   `first-crossing(NAME)=T`) read from their text;
//! - [`between`]: the summaries of continuous states under an adaptive method, taken
//!   between the rows from hidden states the lowering keeps;
//! - [`study`]: a parameter study checked against its model: its sets, what it collects
//!   and the titles of its columns;
//! - [`fit`]: params fitted to measured data on the exact sensitivities (`sitc fit`),
//!   by the Levenberg–Marquardt iteration of [`lm`];
//! - [`faults`]: the rows of a sweep that are errors (a non-finite value, a value past
//!   1e100), each named by the rule that made it;
//! - [`compiled`]: a study run by the model's generated batch form, built with cargo
//!   into a cache (`sitc sweep --compiled`, `sit.sweep(..., compiled=True)`).
//!
//! The front ends keep their own words: each error here is a value, which `sitc` shows
//! after its option (`--param k: given twice`) and Python after its argument
//! (`params: ...`), as an exception of the right type.
//!
//! ```
//! use sit_host::study::{Ask, Study};
//! use sit_host::summary::Summary;
//! use sit_runtime::drive::Driven;
//!
//! let src = sit_driver::Source::text("ramp.sit", "model Ramp { param a = 1; output real v; v = integral(a); }");
//! let compiled = sit_driver::compile(&src, &Default::default()).unwrap();
//! let model = Driven::new(sit_interp::Instance::new(&compiled.lowered, 0), Vec::new());
//! let axes = [("a".to_string(), vec![1.0, 2.0])];
//! let summaries = Summary::parse_all(["final", "first-crossing(v)=1"]).unwrap();
//! let ask = Ask { axes: &axes, fixed: &[], record: None::<&[&str]>, summaries: &summaries, dt: 0.25, steps: 8 };
//! let study = Study::new(&model, &ask).unwrap();
//! assert_eq!(study.columns, ["a", "final(v)", "crossing(v=1)"]);
//! let rows = study.sweep.run(&model, &study.sets).unwrap();
//! // v = a·t: 2 at the end, reaching 1 at t = 1/a.
//! assert_eq!(rows, [[2.0, 1.0], [4.0, 0.5]]);
//! ```
#![deny(missing_docs)]

pub mod between;
pub mod compiled;
pub mod faults;
pub mod fit;
pub mod gpu;
pub mod inputs;
pub mod lm;
pub mod load;
pub mod names;
pub mod reports;
pub mod study;
pub mod summary;
pub mod values;

pub use load::{LoadError, Loaded, load_file, load_file_logged, load_file_options, load_file_with};
pub use sit_driver::{RootError, select_root};

#[cfg(test)]
mod tests;
