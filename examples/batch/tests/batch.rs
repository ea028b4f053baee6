//! The batch form against the scalar model, bit for bit, on every model of the library
//! (submodels included) and on random models; and the speed of a batch step (ignored test).

use embed_batch::{all, m_van_der_pol::VanDerPol, m_van_der_pol::VanDerPolBatch};
use sit_runtime::Model;

#[test]
fn every_batch_is_bit_identical_to_its_scalar_model() {
    let cases = all();
    let mut failures = Vec::new();
    for (stem, model, dt, steps, check) in &cases {
        if let Err(e) = check(*dt, *steps) {
            failures.push(format!("{stem}::{model}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The library models the issue names, so that a registry bug cannot skip them.
    for stem in [
        "van_der_pol",
        "hoop",
        "pendulum",
        "thermostat",
        "dahlquist",
        "bouncing_ball",
        // Submodels: steps under `on`, switches and `reset(sub)` per lane.
        "coordinator",
        "positioning",
    ] {
        assert!(
            cases.iter().any(|c| c.0 == stem),
            "{stem} has no batch form"
        );
    }
    assert!(cases.iter().filter(|c| c.0.starts_with("random_")).count() >= 10);
    // The batch step supports `rk4`: library and random models under it.
    let rk4 = |prefix: &str| {
        cases
            .iter()
            .filter(|c| {
                c.0.strip_prefix("rk4:")
                    .is_some_and(|s| s.starts_with(prefix))
            })
            .count()
    };
    assert!(
        rk4("random_") >= 5,
        "{} random models under rk4",
        rk4("random_")
    );
    assert!(
        rk4("") - rk4("random_") >= 10,
        "too few library models under rk4"
    );
    assert!(cases.iter().any(|c| c.0 == "rk4:van_der_pol"));
    // And `dopri5`, whose internal steps run per lane.
    assert!(cases.iter().filter(|c| c.0.starts_with("dopri5:")).count() >= 15);
    assert!(cases.iter().any(|c| c.0 == "dopri5:van_der_pol"));
}

#[test]
fn lanes_get_and_set_by_name() {
    let mut b = VanDerPolBatch::<4>::new();
    assert_eq!(b.set(2, "mu", 3.0), Some(Ok(())));
    assert_eq!(b.mu, [1.0, 1.0, 3.0, 1.0]);
    assert_eq!(b.get(2, "mu"), Some(3.0));
    assert_eq!(b.get(4, "mu"), None);
    assert_eq!(b.set(4, "mu", 3.0), None);
    assert!(matches!(b.set(0, "nope", 1.0), Some(Err(_))));
    b.step(0.5);
    assert_eq!(b.times(), &[0.5; 4]);
    b.reset();
    assert_eq!((b.times(), b.mu[2], b.x0[2]), (&[0.0; 4], 3.0, 2.0));
}

/// The hand-written structure-of-arrays Van der Pol step the generated batch is measured
/// against: the model's rules in their order, `integral(y, x, dt) = y + x·dt`, and, when
/// `CLOCK`, the per-lane clock that the generated batch also keeps.
struct HandVdp<const N: usize, const CLOCK: bool> {
    mu: [f64; N],
    x0: [f64; N],
    x1: [f64; N],
    der_x0: [f64; N],
    der_x1: [f64; N],
    time: [f64; N],
    clock: [sit_runtime::Clock; N],
}

impl<const N: usize, const CLOCK: bool> HandVdp<N, CLOCK> {
    fn new() -> Self {
        HandVdp {
            mu: [1.0; N],
            x0: [2.0; N],
            x1: [0.0; N],
            der_x0: [0.0; N],
            der_x1: [0.0; N],
            time: [0.0; N],
            clock: [sit_runtime::Clock::new(); N],
        }
    }

    #[allow(
        clippy::needless_range_loop,
        reason = "one loop over the lanes, as written by hand"
    )]
    fn step(&mut self, dt: f64) {
        for i in 0..N {
            let d0 = self.x1[i];
            let d1 = self.mu[i] * ((1.0 - self.x0[i] * self.x0[i]) * self.x1[i]) - self.x0[i];
            self.der_x0[i] = d0;
            self.der_x1[i] = d1;
            self.x0[i] += d0 * dt;
            self.x1[i] += d1 * dt;
            if CLOCK {
                self.time[i] = self.clock[i].advance(dt);
            }
        }
    }
}

/// The hand loop computes what the model does (so that the timing compares like with like).
#[test]
fn hand_loop_is_the_model() {
    const N: usize = 1024;
    let mut hand = HandVdp::<N, true>::new();
    let mut batch = Box::new(VanDerPolBatch::<N>::new());
    for l in 0..N {
        hand.mu[l] = l as f64 / 256.0;
        batch.mu[l] = l as f64 / 256.0;
    }
    for _ in 0..500 {
        hand.step(0.01);
        batch.step(0.01);
    }
    assert_eq!(hand.x0.map(f64::to_bits), batch.x0.map(f64::to_bits));
    assert_eq!(hand.x1.map(f64::to_bits), batch.x1.map(f64::to_bits));
    assert_eq!(
        &hand.time.map(f64::to_bits),
        &batch.times().map(f64::to_bits)
    );
}

/// ns per instance-step of each of `runs` (each does `work` instance-steps): the best of
/// 9 rounds, the runs alternating within a round so that a change of the machine's load
/// affects them alike.
fn ns_per_instance_step<const K: usize>(work: usize, mut runs: [&mut dyn FnMut(); K]) -> [f64; K] {
    let mut best = [f64::INFINITY; K];
    for round in 0..10 {
        for (k, f) in runs.iter_mut().enumerate() {
            let t = std::time::Instant::now();
            f();
            // Round 0 warms up.
            if round > 0 {
                best[k] = best[k].min(t.elapsed().as_secs_f64());
            }
        }
    }
    best.map(|b| b * 1e9 / work as f64)
}

fn measure<const N: usize>() {
    // About 2·10⁷ instance-steps per run.
    let steps = 20_000_000 / N;
    let work = steps * N;
    let mut batch = Box::new(VanDerPolBatch::<N>::new());
    let mut hand = Box::new(HandVdp::<N, false>::new());
    let mut clocked = Box::new(HandVdp::<N, true>::new());
    let mut scalars = vec![VanDerPol::new(); N];
    let [b, h, c, s] = ns_per_instance_step(
        work,
        [
            &mut || {
                batch.reset();
                for _ in 0..steps {
                    batch.step(1e-4);
                }
            },
            &mut || {
                *hand = HandVdp::new();
                for _ in 0..steps {
                    hand.step(1e-4);
                }
            },
            &mut || {
                *clocked = HandVdp::new();
                for _ in 0..steps {
                    clocked.step(1e-4);
                }
            },
            &mut || {
                for m in scalars.iter_mut() {
                    m.reset();
                    for _ in 0..steps {
                        m.step(1e-4);
                    }
                }
            },
        ],
    );
    std::hint::black_box((&batch.x0, &hand.x0, &clocked.x0, scalars[7].get("x0")));
    println!(
        "VanDerPol, {N:>4} lanes, ns per instance-step: batch {b:.3}, hand SoA {h:.3}, \
         hand SoA with clock {c:.3}, scalar {s:.3}; batch/hand = {:.2}, batch/hand with clock = {:.2}",
        b / h,
        b / c
    );
}

/// ns per instance-step of VanDerPol: generated batch, hand-written SoA loops, scalar
/// models. Run with `cargo test -p embed-batch --release -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement: run in release with --ignored --nocapture"]
fn van_der_pol_ns_per_instance_step() {
    measure::<64>();
    measure::<256>();
    measure::<1024>();
}
