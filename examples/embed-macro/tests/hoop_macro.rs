//! The hoop compiled by `include_model!` is the hoop of the build script, bit for bit,
//! and it comes to rest at the static deflection.

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
