//! A Sit model in a `#![no_std]` library: generated code needs only `core` and
//! `sit-runtime` built without its `std` feature. Building this crate is the test.
#![no_std]
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// The elastic hoop of `examples/models/hoop.sit`.
pub mod hoop {
    include!(concat!(env!("OUT_DIR"), "/hoop.rs"));
}

/// Drops the hoop from its initial height and returns the height after `steps` steps
/// of `dt`, without allocation (usable on a microcontroller).
pub fn height_after(steps: u32, dt: f64) -> f64 {
    let mut hoop = hoop::Hoop::new();
    for _ in 0..steps {
        hoop.step(dt);
    }
    hoop.h
}
