//! The reads of a run's lookup tables against their grids, and the warnings they make.

use crate::Instance;
use sit_runtime::table::TableReach;

/// The reads of one table since the last reset ([`Instance::table_reads`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TableRead<'a> {
    /// The table's name as declared.
    pub name: &'a str,
    /// Its argument names as declared (one or two).
    pub args: Vec<&'a str>,
    /// What its reads saw.
    pub reach: &'a TableReach,
    /// The declaration's key (`sit_runtime::table::TableDecl::key`), as generated code
    /// names it.
    pub key: u64,
}

impl TableRead<'_> {
    /// The warning of a table read past its grid (see [`TableReach::warning`]), without
    /// `warning: `; `None` when every read was within its limits.
    pub fn warning(&self) -> Option<String> {
        (self.reach.warning(self.name, &self.args)).map(|w| w.to_string())
    }
}

impl Instance {
    /// The reads of each table since the last reset (or construction), one entry per
    /// table declaration read by the step or reset, however many instances read it, in
    /// the order first compiled. Counting reads only the arguments: the values are those
    /// of `sit_runtime::table::lookup1` and `lookup2`. A read of a derived param from
    /// outside ([`sit_runtime::Model::get_at`]) is not counted.
    pub fn table_reads(&self) -> Vec<TableRead<'_>> {
        (self.machine.code.tables.iter())
            .zip(&self.state.reach)
            .map(|(t, reach)| TableRead {
                name: &t.name,
                args: t.args.iter().map(String::as_str).collect(),
                reach,
                key: t.key(),
            })
            .collect()
    }

    /// The warnings of the tables read past their grids since the last reset, in the
    /// order of [`Instance::table_reads`] (without `warning: `).
    pub fn table_warnings(&self) -> Vec<String> {
        (self.table_reads().iter())
            .filter_map(TableRead::warning)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use sit_runtime::Model;

    fn instance(src: &str) -> crate::Instance {
        crate::tests::first_root("t.sit", src)
    }

    /// A heater table in W over °C read with kelvins: `T` starts at 280 and rises by
    /// 70 K/s; the rule `q = heat(T)` comes before `T`'s, so the 100 steps of 0.01 read
    /// `T` = 280, 280.7, …, 349.3, every one past the grid 0 … 100.
    #[test]
    fn every_read_of_a_step_is_counted_once() {
        let src = "model Heater {\n  table heat(T) = [0, 50, 100] -> [0, 2, 3] clamp;\n  \
                   param T0 = 280;\n  output real T = T0;\n  output real q;\n  q = heat(T);\n  \
                   T = integral(70);\n}\n";
        let mut m = instance(src);
        m.reset();
        // The reset's initial pass computes the first row: one read at T = 280.
        assert_eq!(m.table_reads()[0].reach.reads, 1);
        for _ in 0..100 {
            m.step(0.01);
        }
        let reads = m.table_reads();
        assert_eq!(reads.len(), 1);
        let r = reads[0].reach;
        // The initial pass and 100 steps, one read each; T is read before it is
        // integrated: 280, 280, 280.7, …, 349.3.
        assert_eq!((r.reads, r.outside, r.axes[0].above), (101, 101, 101));
        assert_eq!(r.axes[0].min_seen, 280.0);
        assert_eq!(m.get("q"), Some(3.0));
        assert_eq!(
            m.table_warnings(),
            [format!(
                "table `heat` was read at T = 280 … {} outside its grid 0 … 100 (101 of \
                 101 reads); it held its end values (clamp)",
                r.axes[0].max_seen
            )]
        );
        assert!((r.axes[0].max_seen - 349.3).abs() < 1e-9);
        // A reset starts a new count; a run inside the grid says nothing.
        m.set("T0", 10.0).unwrap();
        m.reset();
        assert_eq!(m.table_reads()[0].reach.reads, 1);
        m.step(0.01);
        assert_eq!(m.table_reads()[0].reach.reads, 2);
        assert!(m.table_warnings().is_empty());
    }

    #[test]
    fn two_instances_count_into_their_table() {
        let src = "model Leaf {\n  input real u;\n  table g(x, y) = [0, 1], [0, 1] -> [[0, 1], [2, 3]] clamp;\n  \
                   output real z;\n  z = g(u, 0.5);\n}\n\
                   model Top {\n  sub a: Leaf(u = 0.5);\n  sub b: Leaf(u = 2);\n  output real z;\n  z = a.z + b.z;\n}\n";
        let mut m = instance(src);
        for _ in 0..10 {
            m.step(0.1);
        }
        let reads = m.table_reads();
        assert_eq!(reads.len(), 1);
        let r = reads[0].reach;
        // Two instances, the initial pass and 10 steps each; `b` reads past the grid in
        // its steps (its input is bound in the step: its initial pass reads u = 0).
        assert_eq!((r.reads, r.outside), (22, 10));
        assert_eq!(
            reads[0].warning().unwrap(),
            "table `g` was read at x = 0 … 2 outside its grid 0 … 1 (10 of 22 reads); \
             it held its end values (clamp)"
        );
    }
}
