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
    // Component models and the same physics as hand-ordered rules, for
    // `benches/components.rs` (issue 46: components within 1.2x of hand-written rules).
    let components = out.join("components");
    std::fs::create_dir_all(&components).expect("OUT_DIR is writable");
    sit_build::Builder::new()
        .file("../examples/models/rlc_parts.sit")
        .file("../examples/models/dc_motor.sit")
        .file("models/rlc_hand.sit")
        .file("models/dc_motor_hand.sit")
        .out_dir(&components)
        .run();
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
/// der Pol and the ball under `dopri5` at eight tolerances (rtol = atol = 1e-K,
/// K = 3..=10, the form the peers are run at); the pendulum and Van der Pol under `tsit5` and `dop853` at K = 4..=12;
/// the stiff models under `rodas4` and `rodas5p` (see [`stiff_peers`]).
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
    // Parsed from the same decimal as `sitc run --rtol 1e-K --atol 1e-K`: rtol = atol,
    // as SciPy and diffsol are run (an atol 100 times smaller spent about a fifth more
    // steps for the same largest error, near the states' zero crossings).
    let tol = |k: i32| {
        let e = format!("1e-{k}").parse::<f64>().expect("a number");
        Tolerance::new(e, e)
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
    stiff_peers(&dir);
}

/// The stiff rows of `scripts/peer_scipy.py --stiff`: Robertson's kinetics, HIRES,
/// Van der Pol (its `mu` set to 1000 by `examples/peer_timing.rs`) and Van der Pol at
/// mu = 1e6 in scaled time under `rodas4` and
/// `rodas5p` at rtol 1e-K, K = 4, 6, 8, 10, each into `OUT_DIR/METHOD_MODEL_K/`. The absolute
/// tolerance is set per model below the smallest state the error is measured on
/// (relative, each state at the end): Robertson's y2 falls to 7e-8 at t = 1e5, so atol
/// 1e-(K+6); HIRES's smallest state at its end is 6e-5 (y3), so atol 1e-(K+4); Van der
/// Pol's velocity on the slow branch is about 7.5e-4 at t = 1000, so atol 1e-(K+3);
/// Van der Pol at mu = 1e6 in scaled time (`van_der_pol_scaled.sit`) has both states
/// of order 1 on its slow branches, so atol = rtol, as the test set runs it.
/// The script passes the same pair to `sitc run`, diffsol and SciPy.
fn stiff_peers(dir: &dyn Fn(&str) -> std::path::PathBuf) {
    use sit_middle::ir::{Method, Tolerance};
    let e = |e: i32| format!("1e-{e}").parse::<f64>().expect("a number");
    for (name, file, atol_digits) in [
        ("robertson", "../examples/models/robertson.sit", 6),
        ("hires", "../examples/models/hires.sit", 4),
        ("van_der_pol", "../examples/models/van_der_pol.sit", 3),
        (
            "van_der_pol_scaled",
            "../examples/models/van_der_pol_scaled.sit",
            0,
        ),
    ] {
        for k in 4..=10 {
            let tol = Tolerance::new(e(k), e(k + atol_digits));
            // radau5 at every K, so that rows of equal error can be paired with
            // rodas5p's (radau5 meets a tolerance with a smaller error).
            let rosenbrock = [Method::Rodas4(tol), Method::Rodas5p(tol)];
            let methods = if k % 2 == 0 { &rosenbrock[..] } else { &[] };
            for &method in methods.iter().chain(&[Method::Radau5(tol)]) {
                sit_build::Builder::new()
                    .file(file)
                    .method(method)
                    .out_dir(dir(&format!("{}_{name}_{k}", method.name())))
                    .run();
            }
        }
    }
}
