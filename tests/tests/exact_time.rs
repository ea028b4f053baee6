//! The clock is exact for decimal steps: after `n` steps of `h = m·10^-k` every model
//! (and every submodel that reads `time`) reads the double nearest to the decimal `n·m·10^-k`,
//! not a sum of rounded steps; a changed step continues from the current time.
//!
//! The expected times are parsed from decimal text, independently of `sit_runtime::Clock`.
//! The compiled models call the same `Clock` (bit identity holds the rest:
//! `bit_identity.rs` compares `time()` at every step).

use proptest::prelude::*;
use sit_interp::Instance;
use sit_runtime::Model;

/// A root reading `time` and a submodel reading its own `time`.
const SRC: &str = "
model Inner {
    output real seen;
    seen = time;
}
model Outer {
    output real seen;
    sub inner: Inner;
    seen = time;
}
";

fn outer() -> Instance {
    let out = sit_middle::check_source("clock.sit", SRC);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checked");
    Instance::new(
        &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
        p.model("Outer").expect("Outer"),
    )
}

/// The double nearest to `n·m·10^-k`, from its decimal text.
fn decimal(n: u64, m: u64, k: u32) -> f64 {
    format!("{}e-{k}", n * m).parse().expect("a number")
}

fn get(m: &Instance, name: &str) -> f64 {
    m.get(name).expect("variable")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn time_after_n_decimal_steps_is_the_decimal_product(
        m in 1u64..=1_000_000,
        k in 0u32..=7,
        n in 1u64..=2000,
    ) {
        let h = decimal(1, m, k);
        let mut model = outer();
        for i in 1..=n {
            model.step(h);
            prop_assert_eq!(model.time(), decimal(i, m, k), "step {} of {}", i, h);
        }
        // Rules read the time at the start of the step, in the submodel too.
        prop_assert_eq!(get(&model, "seen"), decimal(n - 1, m, k));
        prop_assert_eq!(get(&model, "inner.seen"), decimal(n - 1, m, k));
    }

    #[test]
    fn a_changed_step_continues_from_the_current_time(
        (m1, k1, n1) in (1u64..=10_000, 0u32..=5, 1u64..=300),
        (m2, k2, n2) in (1u64..=10_000, 0u32..=5, 1u64..=300),
    ) {
        let (h1, h2) = (decimal(1, m1, k1), decimal(1, m2, k2));
        prop_assume!(h1 != h2);
        let mut model = outer();
        for _ in 0..n1 {
            model.step(h1);
        }
        let t1 = decimal(n1, m1, k1);
        prop_assert_eq!(model.time(), t1);
        for _ in 0..n2 {
            model.step(h2);
        }
        prop_assert_eq!(model.time(), t1 + decimal(n2, m2, k2));
        model.step(h2);
        prop_assert_eq!(get(&model, "inner.seen"), t1 + decimal(n2, m2, k2));
        // After a reset the clock starts again from 0.
        model.reset();
        prop_assert_eq!(model.time(), 0.0);
        for _ in 0..n1 {
            model.step(h1);
        }
        prop_assert_eq!(model.time(), t1);
    }
}

#[test]
fn a_hundred_steps_of_a_tenth_are_ten_seconds() {
    let mut model = outer();
    let mut sum = 0.0;
    for _ in 0..100 {
        model.step(0.1);
        sum += 0.1;
    }
    assert_eq!(model.time(), 10.0);
    // What the clock was before: a sum of rounded steps.
    assert_eq!(sum, 9.99999999999998);
}

#[test]
fn a_switched_off_submodel_keeps_its_own_clock() {
    let src = "
model Inner { output real seen; seen = time; }
model Outer {
    sub inner: Inner;
    event pause = time >= 0.3;
    when pause => !inner.on;
}
";
    let out = sit_middle::check_source("off.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checked");
    let mut model = Instance::new(
        &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
        p.model("Outer").expect("Outer"),
    );
    for _ in 0..10 {
        model.step(0.1);
    }
    assert_eq!(model.time(), 1.0);
    // Stepped at t = 0, 0.1, 0.2 and 0.3 (switched off during the fourth step): its clock
    // stopped at 0.4, and it read 0.3 last.
    assert_eq!(get(&model, "inner.seen"), 0.3);
}
