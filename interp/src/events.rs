//! The event log of an interpreted instance: [`Instance::with_events`] and [`load_file_logged`].

use crate::load::{LoadError, Loaded, select_root};
use crate::{Instance, InterpError};
use sit_parser::Report;
use sit_parser::ir::{Method, ModelId, Program};
use sit_parser::lower::instrument_events;
use sit_runtime::events::{Logged, Table};
use std::path::Path;

impl Instance {
    /// An instance of `root` that records the event log: every change of a logical
    /// variable in a step, with the rule that made it (see `sit_runtime::events`). Its
    /// variables and values are those of [`Instance::new`], bit for bit; the plain
    /// instance has no log and pays nothing for it.
    ///
    /// ```
    /// use sit_runtime::Model;
    ///
    /// let src = "model Tank { output real level; flag full;
    ///     level = integral(1);
    ///     when level > 0.25 => full; }";
    /// let program = sit_parser::check_source("tank.sit", src).program.unwrap();
    /// let root = program.model("Tank").unwrap();
    /// let mut m = sit_interp::Instance::with_events(&program, root).unwrap();
    /// for _ in 0..4 {
    ///     m.step(0.1);
    /// }
    /// let e = &m.events()[0];
    /// assert_eq!((e.t, e.name.as_str(), e.from.as_str(), e.to.as_str()), (0.3, "full", "0", "1"));
    /// assert_eq!(e.rule(m.table()), "tank.sit:3");
    /// ```
    pub fn with_events(program: &Program, root: ModelId) -> Result<Logged<Instance>, InterpError> {
        let (instance, table) = Instance::with_event_table(program, root)?;
        Logged::new(instance, table).map_err(|e| InterpError::malformed(e.to_string()))
    }

    /// The parts of [`Instance::with_events`]: an instance of `root` built for the log
    /// (its variables include the hidden whys the table names) and the table, for a
    /// `sit_runtime::events::Recorder` driven by hand.
    pub fn with_event_table(
        program: &Program,
        root: ModelId,
    ) -> Result<(Instance, Table), InterpError> {
        let (program, table) =
            instrument_events(program, root).map_err(|e| InterpError::malformed(e.to_string()))?;
        Ok((Instance::try_new(&program, root)?, table))
    }
}

/// [`crate::load_file_with`], giving an instance built for the event log and its table
/// ([`Instance::with_event_table`]).
pub fn load_file_logged(
    path: impl AsRef<Path>,
    model: Option<&str>,
    method: Option<Method>,
) -> Result<(Loaded, Table), LoadError> {
    let (program, report) = sit_schematic::check_file(path)?.into_report();
    let Some(mut program) = program else {
        return Err(LoadError::Invalid(report));
    };
    if let Some(method) = method
        && let Err(diags) = program.set_method(method)
    {
        return Err(LoadError::Invalid(Report::new(diags, report.sources)));
    }
    let root = select_root(&program, model)?;
    let (instance, table) = Instance::with_event_table(&program, root)?;
    let warnings = report;
    Ok((Loaded { instance, warnings }, table))
}
