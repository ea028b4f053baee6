//! A Sit model embedded with the proc-macro: `sit_macros::include_model!` compiles
//! `examples/models/hoop.sit` when this crate is compiled, and any edit of the model
//! rebuilds the crate. `include_model!(PATH, batch)` adds the batch form of each model;
//! `include_model!(PATH, method = rk4)` integrates every model with that method,
//! `include_model!(PATH, events)` builds every model for the event log, and a
//! schematic (`.sch`) is included like a `.sit` file.
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

/// The elastic hoop of `examples/models/hoop.sit`.
pub mod hoop {
    sit_macros::include_model!("../models/hoop.sit");
}

/// The Van der Pol oscillator of `examples/models/van_der_pol.sit`, with its batch form
/// `VanDerPolBatch<N>`.
pub mod van_der_pol {
    sit_macros::include_model!("../models/van_der_pol.sit", batch);
}

/// The pendulum of `examples/models/pendulum.sit`, integrated by `rk4` (overriding its
/// default `euler`), with its batch form.
pub mod pendulum_rk4 {
    sit_macros::include_model!("../models/pendulum.sit", method = rk4, batch);
}

/// The pendulum integrated by `dopri5` at the tolerances given to the macro.
pub mod pendulum_dopri5 {
    sit_macros::include_model!(
        "../models/pendulum.sit",
        method = dopri5,
        rtol = 1e-9,
        atol = 1e-12
    );
}

/// The two-mass clutch drawn in `examples/schematics/clutch.sch`: the macro takes a
/// schematic as it takes a `.sit` file.
pub mod clutch {
    sit_macros::include_model!("../schematics/clutch.sch");
}

/// The car of `examples/models/vehicle.sit`, whose engine torque map is read from
/// `examples/models/engine_torque.csv` when this crate is compiled: the macro includes
/// the CSV file too, so editing the map rebuilds the crate.
pub mod vehicle {
    sit_macros::include_model!("../models/vehicle.sit");
}

/// The traffic light of `examples/models/traffic_light.sit`, built for the event log:
/// `TrafficLight::event_table()` for `sit_runtime::events::Logged`.
pub mod traffic_light_log {
    sit_macros::include_model!("../models/traffic_light.sit", events);
}

/// The pendulum under `rk4` with its forward sensitivities to `L`, `g` and the
/// initial angle (variables `d(angle)/d(L)`, ...: `docs/sensitivities.md`), scalar and
/// batch.
pub mod pendulum_sensitive {
    sit_macros::include_model!(
        "../models/pendulum.sit",
        method = rk4,
        batch,
        sensitivities = "L,g,angle0"
    );
}

/// Robertson's kinetics under its declared `rodas4` with the sensitivities to its three
/// rate constants: the variational equations through the implicit method's stages.
pub mod robertson_sensitive {
    sit_macros::include_model!("../models/robertson.sit", sensitivities = "k1,k2,k3");
}

/// Van der Pol with the sensitivities to `mu` and both initial values, for the cost of
/// the sensitivities against the plain model (`van_der_pol`).
pub mod van_der_pol_sensitive {
    sit_macros::include_model!("../models/van_der_pol.sit", sensitivities = "mu,x0,x1");
}

/// Robertson's kinetics as declared (`rodas4`), without sensitivities: the plain cost.
pub mod robertson_plain {
    sit_macros::include_model!("../models/robertson.sit");
}
