//! What a host and a compiled sweep's runner say to each other: little-endian `u64`s
//! and `f64` bits, so that every value crosses exactly.
//!
//! In (stdin): `SITSWPI1`; the number of the model's variables and each name (its length,
//! its UTF-8 bytes), which the runner checks against its own; `dt`; the steps; the
//! summaries (count, then kind 0 final, 1 max, 2 min, 3 first crossing, the variable's
//! index, the threshold); the sets (count, width, then `width` pairs of index and value
//! per set); the threads (0: every core); the inputs driven by time series (count, then
//! for each its variable's index, its hold, 0 linear or 1 held, and its rows: their count,
//! the times, the values). Out (stdout): `SITSWPO1`, then for each set its
//! collected values, the index of its first non-finite real variable at the end
//! (`u64::MAX`: none), that value and the time, then its table reads: their count and
//! for each table its key (`sit_runtime::table::TableDecl::key`), reads, reads outside
//! and for each of two axes the reads below and above and the least and greatest
//! argument seen; then what the stiffness test found: its count and for each the time
//! from which and the submodel's path and the method (each its length in bytes, then
//! its UTF-8 bytes padded with zeros to whole words).

use crate::compiled::Row;
use sit_runtime::Model;
use sit_runtime::sweep::Collect;

/// The first bytes of a request.
pub const MAGIC_IN: &[u8; 8] = b"SITSWPI2";
/// The first bytes of an answer.
pub const MAGIC_OUT: &[u8; 8] = b"SITSWPO3";

fn put(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The request for `sets` of `model`, collecting `columns`.
pub fn request(
    model: &dyn Model,
    columns: &[Collect],
    sets: &[Vec<(usize, f64)>],
    dt: f64,
    steps: u64,
    threads: usize,
    inputs: &[sit_runtime::drive::Input],
) -> Vec<u8> {
    let mut out = MAGIC_IN.to_vec();
    put(&mut out, model.var_count() as u64);
    for i in 0..model.var_count() {
        let name = model.var_info(i).map_or("", |v| v.name);
        put(&mut out, name.len() as u64);
        out.extend_from_slice(name.as_bytes());
    }
    put(&mut out, dt.to_bits());
    put(&mut out, steps);
    put(&mut out, columns.len() as u64);
    for c in columns {
        let (kind, threshold) = match *c {
            Collect::Final(_) => (0, 0.0),
            Collect::Max(_) => (1, 0.0),
            Collect::Min(_) => (2, 0.0),
            Collect::FirstCrossing { threshold, .. } => (3, threshold),
        };
        put(&mut out, kind);
        put(&mut out, c.var() as u64);
        put(&mut out, f64::to_bits(threshold));
    }
    let width = sets.first().map_or(0, Vec::len);
    put(&mut out, sets.len() as u64);
    put(&mut out, width as u64);
    for set in sets {
        for &(i, v) in set {
            put(&mut out, i as u64);
            put(&mut out, v.to_bits());
        }
    }
    put(&mut out, threads as u64);
    put(&mut out, inputs.len() as u64);
    for input in inputs {
        put(&mut out, input.index as u64);
        put(
            &mut out,
            u64::from(input.hold == sit_runtime::drive::Hold::Zero),
        );
        let (times, values) = (input.signal.times(), input.signal.values());
        put(&mut out, times.len() as u64);
        for v in times.iter().chain(values) {
            put(&mut out, v.to_bits());
        }
    }
    out
}

/// The rows of an answer for `sets` sets of `columns` values; `None` if it is not one.
pub fn rows(bytes: &[u8], sets: usize, columns: usize) -> Option<Vec<Row>> {
    let body = bytes.strip_prefix(MAGIC_OUT)?;
    if body.len() % 8 != 0 {
        return None;
    }
    let mut words = body
        .chunks(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()));
    let mut next = || words.next();
    let mut out = Vec::with_capacity(sets);
    for _ in 0..sets {
        let mut row = Vec::with_capacity(columns);
        for _ in 0..columns {
            row.push(f64::from_bits(next()?));
        }
        let (index, value, time) = (next()?, next()?, next()?);
        let non_finite_at_end = (index != u64::MAX)
            .then(|| (index as usize, f64::from_bits(value), f64::from_bits(time)));
        let count = next()?;
        let mut tables = Vec::new();
        for _ in 0..count {
            let (key, reads, outside) = (next()?, next()?, next()?);
            let mut axes = [AxisCount::default(); 2];
            for a in &mut axes {
                *a = AxisCount {
                    below: next()?,
                    above: next()?,
                    min_seen: f64::from_bits(next()?),
                    max_seen: f64::from_bits(next()?),
                };
            }
            tables.push(TableCount {
                key,
                reads,
                outside,
                axes,
            });
        }
        let mut stiff = Vec::new();
        for _ in 0..next()? {
            let time = f64::from_bits(next()?);
            let mut text = || {
                let len = usize::try_from(next()?).ok()?;
                let mut bytes = Vec::with_capacity(len.next_multiple_of(8));
                for _ in 0..len.div_ceil(8) {
                    bytes.extend_from_slice(&next()?.to_le_bytes());
                }
                bytes.truncate(len);
                String::from_utf8(bytes).ok()
            };
            let (path, method) = (text()?, text()?);
            stiff.push(crate::reports::StiffRun { path, method, time });
        }
        out.push(Row {
            row,
            non_finite_at_end,
            tables,
            stiff,
        });
    }
    next().is_none().then_some(out)
}

/// A run's reads of one table, as a compiled sweep's runner counts them (the counts of
/// a `sit_runtime::table::TableReach`, without the grid, which the host knows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableCount {
    /// The table's `sit_runtime::table::TableDecl::key`.
    pub key: u64,
    /// Its reads.
    pub reads: u64,
    /// Its reads with an argument past its limits.
    pub outside: u64,
    /// Per argument.
    pub axes: [AxisCount; 2],
}

/// The counts of one argument ([`TableCount::axes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AxisCount {
    /// Reads below the limit.
    pub below: u64,
    /// Reads above the limit.
    pub above: u64,
    /// The least argument read.
    pub min_seen: f64,
    /// The greatest argument read.
    pub max_seen: f64,
}

impl TableCount {
    /// `template` (the table's record, for its grid and rule) with these counts.
    pub fn reach(
        &self,
        template: &sit_runtime::table::TableReach,
    ) -> sit_runtime::table::TableReach {
        let mut r = *template;
        r.reads = self.reads;
        r.outside = self.outside;
        for (a, c) in r.axes.iter_mut().zip(&self.axes) {
            (a.below, a.above, a.min_seen, a.max_seen) = (c.below, c.above, c.min_seen, c.max_seen);
        }
        r
    }
}
