//! Generates the benchmarked example models into `OUT_DIR` (see `src/lib.rs`).

fn main() {
    sit_build::Builder::new()
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
    sit_build::Builder::new()
        .file("../examples/models/pendulum.sit")
        .file("../examples/models/van_der_pol.sit")
        .method(sit_middle::ir::Method::Rk4)
        .out_dir(&rk4)
        .run();
    // The pendulum, Van der Pol and the bouncing ball integrated by `dopri5` at eight
    // tolerances (rtol 1e-K, atol 1e-(K+2), K = 3..=10), and the ball by `euler`, for the
    // peer comparison (`examples/peer_timing.rs`, `scripts/peer_scipy.py`).
    let peers = [
        "../examples/models/pendulum.sit",
        "../examples/models/van_der_pol.sit",
        "../examples/models/bouncing_ball.sit",
    ];
    let ball = out.join("ball");
    std::fs::create_dir_all(&ball).expect("OUT_DIR is writable");
    sit_build::Builder::new()
        .file(peers[2])
        .out_dir(&ball)
        .run();
    for k in 3..=10 {
        let dir = out.join(format!("dopri5_{k}"));
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        // Parsed from the same decimal as `sitc run --rtol 1e-K --atol 1e-(K+2)`.
        let tol = |e: i32| format!("1e-{e}").parse::<f64>().expect("a number");
        let method = sit_middle::ir::Method::Dopri5(sit_middle::ir::Tolerance {
            rtol: tol(k),
            atol: tol(k + 2),
        });
        peers
            .iter()
            .fold(sit_build::Builder::new(), |b, f| b.file(f))
            .method(method)
            .out_dir(&dir)
            .run();
    }
    // Built for the event log, for `benches/events.rs` (log on against off).
    let events = out.join("events");
    std::fs::create_dir_all(&events).expect("OUT_DIR is writable");
    sit_build::Builder::new()
        .file("../examples/models/thermostat.sit")
        .file("../examples/models/complex/coordinator.sit")
        .events(true)
        .out_dir(&events)
        .run();
}
