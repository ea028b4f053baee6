//! What a host and a compiled sweep's runner say to each other: little-endian `u64`s
//! and `f64` bits, so that every value crosses exactly.
//!
//! In (stdin): `SITSWPI1`; the number of the model's variables and each name (its length,
//! its UTF-8 bytes), which the runner checks against its own; `dt`; the steps; the
//! summaries (count, then kind 0 final, 1 max, 2 min, 3 first crossing, the variable's
//! index, the threshold); the sets (count, width, then `width` pairs of index and value
//! per set); the threads (0: every core). Out (stdout): `SITSWPO1`, then for each set its
//! collected values, the index of its first non-finite real variable at the end
//! (`u64::MAX`: none), that value and the time.

use crate::compiled::Row;
use sit_runtime::Model;
use sit_runtime::sweep::Collect;

/// The first bytes of a request.
pub const MAGIC_IN: &[u8; 8] = b"SITSWPI1";
/// The first bytes of an answer.
pub const MAGIC_OUT: &[u8; 8] = b"SITSWPO1";

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
    out
}

/// The rows of an answer for `sets` sets of `columns` values; `None` if it is not one.
pub fn rows(bytes: &[u8], sets: usize, columns: usize) -> Option<Vec<Row>> {
    let body = bytes.strip_prefix(MAGIC_OUT)?;
    let per = (columns + 3) * 8;
    if body.len() != sets.checked_mul(per)? {
        return None;
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    Some(
        body.chunks(per)
            .map(|r| {
                let w: Vec<u64> = r.chunks(8).map(word).collect();
                let row = w[..columns].iter().map(|&b| f64::from_bits(b)).collect();
                let index = w[columns];
                let non_finite_at_end = (index != u64::MAX).then(|| {
                    (
                        index as usize,
                        f64::from_bits(w[columns + 1]),
                        f64::from_bits(w[columns + 2]),
                    )
                });
                Row {
                    row,
                    non_finite_at_end,
                }
            })
            .collect(),
    )
}
