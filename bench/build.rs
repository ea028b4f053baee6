//! Generates the benchmarked example models into `OUT_DIR` (see `src/lib.rs`).

fn main() {
    sit_build::Builder::new()
        .file("../examples/models/hoop.sit")
        .file("../examples/models/pendulum.sit")
        .file("../examples/models/van_der_pol.sit")
        .file("../examples/models/thermostat.sit")
        .file("../examples/models/complex/coordinator.sit")
        .run();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The peers of scripts/peer_scipy.py, only with the feature `peers` (CI does not
    // build them: 50 generated modules for one script's timings).
    if std::env::var_os("CARGO_FEATURE_PEERS").is_some() {
        peers(&out);
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

/// The models `examples/peer_timing.rs` times for `scripts/peer_scipy.py`: the pendulum
/// and Van der Pol under `rk4`; the bouncing ball as written (`euler`); the pendulum, Van
/// der Pol and the ball under `dopri5` at eight tolerances (rtol 1e-K, atol 1e-(K+2),
/// K = 3..=10); the pendulum and Van der Pol under `tsit5` and `dop853` at K = 4..=12.
fn peers(out: &std::path::Path) {
    use sit_middle::ir::{Method, Tolerance};
    type Ks = std::ops::RangeInclusive<i32>;
    let dir = |name: &str| {
        let dir = out.join(name);
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        dir
    };
    let (pendulum, van_der_pol, ball) = (
        "../examples/models/pendulum.sit",
        "../examples/models/van_der_pol.sit",
        "../examples/models/bouncing_ball.sit",
    );
    sit_build::Builder::new()
        .file(pendulum)
        .file(van_der_pol)
        .method(Method::Rk4)
        .out_dir(dir("rk4"))
        .run();
    sit_build::Builder::new()
        .file(ball)
        .out_dir(dir("ball"))
        .run();
    // Parsed from the same decimal as `sitc run --rtol 1e-K --atol 1e-(K+2)`.
    let tol = |k: i32| {
        let e = |e: i32| format!("1e-{e}").parse::<f64>().expect("a number");
        Tolerance::new(e(k), e(k + 2))
    };
    // An adaptive method (its name, its tolerance's exponents K, the models).
    let adaptive = |name: &str, method: fn(Tolerance) -> Method, ks: Ks, files: &[&str]| {
        for k in ks {
            files
                .iter()
                .fold(sit_build::Builder::new(), |b, f| b.file(f))
                .method(method(tol(k)))
                .out_dir(dir(&format!("{name}_{k}")))
                .run();
        }
    };
    adaptive(
        "dopri5",
        Method::Dopri5,
        3..=10,
        &[pendulum, van_der_pol, ball],
    );
    adaptive("tsit5", Method::Tsit5, 4..=12, &[pendulum, van_der_pol]);
    adaptive("dop853", Method::Dop853, 4..=12, &[pendulum, van_der_pol]);
}
