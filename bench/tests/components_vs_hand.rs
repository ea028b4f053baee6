//! The component models of `benches/components.rs` and their hand-written twins compute
//! the same trajectories: the RLC circuit bit for bit (the same operations once the
//! connections are solved), the DC motor to rounding (the solved equations group the
//! same terms differently; 1e-12 relative over 2 s of `rodas5p`, whose step control
//! would amplify a real difference in the physics far beyond that).

use sit_bench::components::{dc_motor, dc_motor_hand, rlc_hand, rlc_parts};
use sit_runtime::Model;

/// The value of `name` in `m`.
fn get(m: &dyn Model, name: &str) -> f64 {
    let i = m
        .var_index(name)
        .unwrap_or_else(|| panic!("no variable `{name}`"));
    m.get_at(i).unwrap()
}

#[test]
fn the_rlc_circuit_of_parts_is_the_hand_written_one_to_the_bit() {
    let (mut parts, mut hand) = (rlc_parts::RlcParts::new(), rlc_hand::RlcHand::new());
    for step in 0..2000 {
        parts.step(1e-4);
        hand.step(1e-4);
        for (a, b) in [("l.i", "i"), ("c.v", "v")] {
            assert_eq!(
                get(&parts, a).to_bits(),
                get(&hand, b).to_bits(),
                "{a} at step {step}"
            );
        }
    }
}

#[test]
fn the_dc_motor_of_parts_follows_the_hand_written_one() {
    let (mut parts, mut hand) = (dc_motor::DcMotor::new(), dc_motor_hand::DcMotorHand::new());
    for step in 0..2000 {
        parts.step(1e-3);
        hand.step(1e-3);
        for (a, b) in [("w", "w"), ("z", "z"), ("la.i", "i"), ("load.phi", "phi")] {
            let (x, y) = (get(&parts, a), get(&hand, b));
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1e-3),
                "{a} at step {step}: {x} against {y}"
            );
        }
    }
}
