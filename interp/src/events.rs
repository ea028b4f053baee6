//! The event log of an interpreted instance: [`Instance::with_events`].

use crate::{Instance, InterpError};
use sit_lir::Lowering;
use sit_lir::ModelId;
use sit_runtime::events::{Logged, Table};

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
    /// let program = sit_middle::check_source("tank.sit", src).program.unwrap();
    /// let root = program.model("Tank").unwrap();
    /// let prepare = sit_middle::lower::Prepare { events: true, ..Default::default() };
    /// let lowered = sit_middle::lower::Lowered::new(&program, prepare).unwrap();
    /// let mut m = sit_interp::Instance::with_events(&lowered, root).unwrap();
    /// for _ in 0..4 {
    ///     m.step(0.1);
    /// }
    /// let e = &m.events()[0];
    /// assert_eq!((e.t, e.name.as_str(), e.from.as_str(), e.to.as_str()), (0.3, "full", "0", "1"));
    /// assert_eq!(e.rule(m.table()), "tank.sit:3");
    /// ```
    pub fn with_events(
        lowered: &dyn Lowering,
        root: ModelId,
    ) -> Result<Logged<Instance>, InterpError> {
        let (instance, table) = Instance::with_event_table(lowered, root)?;
        Logged::new(instance, table).map_err(|e| InterpError::malformed(e.to_string()))
    }

    /// The parts of [`Instance::with_events`]: an instance of `root` built for the log
    /// (its variables include the hidden whys the table names) and the table, for a
    /// `sit_runtime::events::Recorder` driven by hand. The program must have been
    /// prepared for the log (`Prepare::events`).
    pub fn with_event_table(
        lowered: &dyn Lowering,
        root: ModelId,
    ) -> Result<(Instance, Table), InterpError> {
        let table = lowered
            .event_table(root)
            .ok_or_else(|| {
                InterpError::malformed("the program was not prepared for the event log".into())
            })?
            .map_err(|e| InterpError::malformed(e.to_string()))?;
        Ok((Instance::try_new(lowered, root)?, table))
    }
}
