//! Generates the benchmarked example models into `OUT_DIR` (see `src/lib.rs`).

fn main() {
    sit_codegen::Builder::new()
        .file("../examples/models/hoop.sit")
        .file("../examples/models/pendulum.sit")
        .file("../examples/models/van_der_pol.sit")
        .file("../examples/models/thermostat.sit")
        .file("../examples/models/complex/coordinator.sit")
        .run();
    // The pendulum and Van der Pol integrated by `rk4`, for the peer comparison.
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let rk4 = out.join("rk4");
    std::fs::create_dir_all(&rk4).expect("OUT_DIR is writable");
    sit_codegen::Builder::new()
        .file("../examples/models/pendulum.sit")
        .file("../examples/models/van_der_pol.sit")
        .method(sit_parser::ir::Method::Rk4)
        .out_dir(&rk4)
        .run();
    // Built for the event log, for `benches/events.rs` (log on against off).
    let events = out.join("events");
    std::fs::create_dir_all(&events).expect("OUT_DIR is writable");
    sit_codegen::Builder::new()
        .file("../examples/models/thermostat.sit")
        .file("../examples/models/complex/coordinator.sit")
        .events(true)
        .out_dir(&events)
        .run();
}
