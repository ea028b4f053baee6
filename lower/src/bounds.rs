//! The bounds the method rewrites share (a leaf: it imports nothing): internal steps per host step, located events per host step, the halvings that locate one.

/// The most internal steps (accepted or rejected) of an adaptive method in one host step
/// of length up to 1, and per unit of time in a longer one (up to [`MOST_UNITS`] units).
pub const LIMIT: u64 = 10_000;

/// The units of time of a host step whose internal steps the bound allows (at
/// [`LIMIT`] per unit): a host step of up to 1 gets `LIMIT`, a longer one `LIMIT` per
/// unit of its length up to [`MOST_UNITS`], so that one host step may be the whole run
/// (`--dt` = `--t-end`) without a bound of its own.
pub const MOST_UNITS: f64 = 100.0;

/// The most runs of a fixed-step method's loop of internal steps (each ends the host
/// step or an event), when events are located inside its step.
pub const LOOP_LIMIT: u64 = 10_000;

/// Halvings of an accepted internal step that locate an event in it: its time is then
/// known to within `hs·2^-50` (below 1e-15 of the internal step).
pub const HALVINGS: u32 = 50;

/// The most events located inside one host step: beyond, the model's events chatter
/// (Zeno behaviour) and the program stops with `sit_runtime::events_overrun`.
pub const EVENT_LIMIT: u64 = 1000;
