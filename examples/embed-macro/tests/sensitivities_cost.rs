//! What the forward sensitivities cost in the generated code: a run with `p` columns
//! against the plain run, on Van der Pol (`euler`, 3 columns) and Robertson (`rodas4`,
//! 3 columns). Printed for `docs/performance.md`; ignored by the test suite (a timing
//! in a test fails on a loaded machine), asserted loosely when run: under 3·(1 + p).

use sit_runtime::Model;
use std::time::Instant;

/// The best of 5 timings of `n` steps of `dt` of a fresh `m()`, in seconds.
fn time<M: Model>(m: impl Fn() -> M, dt: f64, n: usize) -> f64 {
    (0..5)
        .map(|_| {
            let mut x = m();
            let t0 = Instant::now();
            for _ in 0..n {
                x.step(dt);
            }
            std::hint::black_box(x.get_at(0));
            t0.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "a measurement, not a check: run with --release --ignored (docs/performance.md §23)"]
fn sensitivities_cost_about_one_run_per_column() {
    use embed_macro::{robertson_plain, robertson_sensitive, van_der_pol, van_der_pol_sensitive};
    let plain = time(van_der_pol::VanDerPol::new, 1e-4, 200_000);
    let sens = time(van_der_pol_sensitive::VanDerPol::new, 1e-4, 200_000);
    eprintln!(
        "van_der_pol euler, 200 000 steps: plain {:.3} ms, 3 sensitivities {:.3} ms, ratio {:.2} (1 + p = 4)",
        plain * 1e3,
        sens * 1e3,
        sens / plain
    );
    assert!(sens / plain < 12.0);
    let plain = time(robertson_plain::Robertson::new, 1.0, 400);
    let sens = time(robertson_sensitive::Robertson::new, 1.0, 400);
    eprintln!(
        "robertson rodas4, 400 host steps: plain {:.3} ms, 3 sensitivities {:.3} ms, ratio {:.2} (1 + p = 4)",
        plain * 1e3,
        sens * 1e3,
        sens / plain
    );
    assert!(sens / plain < 12.0);
}
