//! Runtime library of Sit models: the τ procedures, event edges, the `Model` trait and traces.
//!
//! Compiled models call these functions as `::sit_runtime::NAME`, and the interpreter
//! calls the very same functions, so each function here is *the* definition of its
//! procedure and compiled and interpreted runs agree to the bit. All arithmetic beyond
//! `+ - * /` goes through `libm`, so results do not depend on the platform or on `std`.
//!
//! For implicit methods and the exact Jacobians of `sit_middle::lower::jacobian`,
//! [`partial`] holds each pure procedure's slope (of the branch it takes),
//! [`table::slope1`] and [`table::slope2`] the slopes of lookup tables, and [`linear`]
//! the one dense LU factorisation and solve.
//!
//! Input signals from data (`signal`: a time series with linear interpolation) need no
//! allocation; `OwnedSignal` needs `std`.
//!
//! The crate is `no_std` without its default `std` feature, which adds `trace`, `drive`,
//! `events` and the typed faults ([`ModelFault`], [`catch_fault`]: without `std` a
//! model's fault is a panic with the same message); the `parallel` feature (which
//! implies `std`) adds `sweep`, parameter studies on rayon.
//!
//! ```
//! use sit_runtime::{integral, lag, math};
//!
//! // `v = integral(a); h = integral(v);` over one step: semi-implicit Euler.
//! let (dt, a) = (0.01, -9.81);
//! let v = integral(0.0, a, dt);
//! let h = integral(1.0, v, dt);
//! assert_eq!(h, 1.0 + (a * dt) * dt);
//! // A first-order lag with T = 0 is a pure gain.
//! assert_eq!(lag(h, 0.3, 0.0, 2.0, dt), 0.6);
//! assert_eq!(math::sign(-2.0), -1.0);
//! ```

// Always `no_std`, even with `std`: float methods of `std` (`f64::sqrt`, ...) are out of
// reach here, so every function must go through `libm` and stays platform independent.
#![no_std]

#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "std")]
pub mod accuracy;
pub mod clock;
#[cfg(feature = "std")]
pub mod drive;
#[cfg(feature = "std")]
pub mod events;
mod fault;
pub mod finite;
pub mod linear;
pub mod math;
mod method;
pub mod model;
pub mod number;
pub mod partial;
mod phase;
pub mod procedures;
pub mod signal;
mod substep;
#[cfg(feature = "parallel")]
pub mod sweep;
pub mod table;
#[cfg(feature = "std")]
pub mod trace;

pub use clock::{Clock, timer};
pub use fault::FaultKind;
#[cfg(feature = "std")]
pub use fault::{ModelFault, catch_fault, quiet_fault_panics};
pub use method::{
    Stiffness, events_overrun, internal_steps_overrun, stage_band_factor, stage_band_solve,
    stage_factor, stage_factor_masked, stage_solve, stage_solve_fixed, stage_solve_masked,
    stage_sparse_complex_factor, stage_sparse_complex_solve, stage_sparse_factor,
    stage_sparse_solve, step_underflow, stiffness,
};
pub use model::{
    Model, SetError, ValueType, Var, VarInfo, VarKind, Variables, from_logical, logical, sub_table,
};
pub use phase::phase_overrun;
pub use procedures::{
    Deriv, deadzone, hysteresis, integral, integral_limited, lag, limit, relay, rising,
};
#[cfg(feature = "std")]
pub use signal::OwnedSignal;
pub use signal::{Signal, SignalError};
pub use substep::{substep_count, substep_count_error};
