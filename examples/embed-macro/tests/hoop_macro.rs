//! The hoop compiled by `include_model!` is the hoop of the build script, bit for bit,
//! and it comes to rest at the static deflection; the batch form from
//! `include_model!(PATH, batch)` steps each lane as the scalar model does.

use embed_macro::hoop::Hoop;

#[test]
fn same_bits_as_the_build_script_and_comes_to_rest() {
    let mut a = Hoop::new();
    let mut b = embed_build::hoop::Hoop::new();
    let dt = 1e-4;
    for _ in 0..300_000 {
        a.step(dt);
        b.step(dt);
        assert_eq!(a.h.to_bits(), b.h.to_bits());
        assert_eq!(a.Vy.to_bits(), b.Vy.to_bits());
    }
    // At rest R − h = m·g/k with k between k_release and k_press (the residual
    // vibration alternates between them); 10 % margin for that vibration.
    let deflection = a.R - a.h;
    let (lo, hi) = (a.m * a.g / a.k_press, a.m * a.g / a.k_release);
    assert!(
        deflection > 0.9 * lo && deflection < 1.1 * hi,
        "{deflection}"
    );
}

#[test]
fn the_batch_form_of_the_macro_steps_each_lane_as_the_scalar_model() {
    use embed_macro::van_der_pol::{VanDerPol, VanDerPolBatch};
    let mut batch = VanDerPolBatch::<4>::new();
    let mut scalars: Vec<VanDerPol> = (0..4).map(|_| VanDerPol::new()).collect();
    for (l, m) in scalars.iter_mut().enumerate() {
        m.mu = 0.5 + l as f64;
        assert!(batch.set_lane(l, m));
    }
    for _ in 0..10_000 {
        batch.step(1e-3);
        scalars.iter_mut().for_each(|m| m.step(1e-3));
    }
    for (l, m) in scalars.iter().enumerate() {
        assert_eq!(batch.x0[l].to_bits(), m.x0.to_bits(), "lane {l}");
        assert_eq!(batch.x1[l].to_bits(), m.x1.to_bits(), "lane {l}");
    }
}
