//! Generates the benchmarked example models into `OUT_DIR` (see `src/lib.rs`).

fn main() {
    sit_codegen::Builder::new()
        .file("../examples/models/hoop.sit")
        .file("../examples/models/pendulum.sit")
        .file("../examples/models/van_der_pol.sit")
        .file("../examples/models/thermostat.sit")
        .file("../examples/models/complex/coordinator.sit")
        .run();
}
