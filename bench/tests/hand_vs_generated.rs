//! The hand-written models (`sit_bench::hand`) and the generated code give bit-identical
//! states over thousands of steps, so the benchmarks compare equal work.

use sit_bench::generated::{coordinator, hoop, pendulum, thermostat, van_der_pol};
use sit_bench::hand;

/// Asserts that each listed field is the same bit pattern in `$g` and `$h`.
macro_rules! same {
    ($label:expr, $step:expr, $g:expr, $h:expr; $($field:ident),+) => {
        $(
            assert_eq!(
                $g.$field.to_bits(),
                $h.$field.to_bits(),
                "{}: `{}` differs at step {}: generated {:?}, hand {:?}",
                $label, stringify!($field), $step, $g.$field, $h.$field
            );
        )+
    };
}

/// Bit pattern of a flag, so that flags compare like reals in `same!`.
trait Bits {
    fn to_bits(self) -> u64;
}

impl Bits for bool {
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
}

#[test]
fn pendulum_is_bit_identical() {
    let (mut g, mut h) = (pendulum::Pendulum::new(), hand::Pendulum::new());
    let mut crossings = 0;
    for step in 0..20_000 {
        let before = g.angle;
        g.step(1e-3);
        h.step(1e-3);
        same!("pendulum", step, g, h; angle, omega, s, a, eps);
        assert_eq!(g.time().to_bits(), h.time.to_bits());
        crossings += usize::from(before.signum() != g.angle.signum());
    }
    // 20 s at a period of about 3.3 s: about 12 zero crossings, so the whole
    // swing (both signs of sin, growing and shrinking speed) was compared.
    assert!(crossings >= 10, "{crossings} crossings");
}

#[test]
fn van_der_pol_is_bit_identical() {
    let (mut g, mut h) = (van_der_pol::VanDerPol::new(), hand::VanDerPol::new());
    for step in 0..5_000 {
        g.step(0.01);
        h.step(0.01);
        same!("van_der_pol", step, g, h; x0, x1, der_x0, der_x1);
        assert_eq!(g.time().to_bits(), h.time.to_bits());
    }
}

#[test]
fn thermostat_is_bit_identical() {
    let (mut g, mut h) = (thermostat::Thermostat::new(), hand::Thermostat::new());
    let mut switches = 0;
    for step in 0..20_000 {
        let before = g.heating;
        g.step(1.0);
        h.step(1.0);
        same!("thermostat", step, g, h; T, Q, dT, heating);
        assert_eq!(g.time().to_bits(), h.time.to_bits());
        switches += usize::from(before != g.heating);
    }
    // Warm-up takes about 9000 s, then the heater cycles: both branches of the
    // hysteresis ran.
    assert!(switches >= 2, "{switches} switches");
}

#[test]
fn hoop_is_bit_identical() {
    let (mut g, mut h) = (hoop::Hoop::new(), hand::Hoop::new());
    let (mut pressed, mut released) = (0, 0);
    for step in 0..100_000 {
        g.step(1e-4);
        h.step(1e-4);
        same!("hoop", step, g, h; h, Vy, P, Fy, F, Ay, defl);
        assert_eq!(g.time().to_bits(), h.time.to_bits());
        pressed += usize::from(g.braking());
        released += usize::from(g.rebound());
    }
    // Several bounces in 10 s: both contact rules and the flight rule ran.
    assert!(pressed > 100 && released > 100, "{pressed} {released}");
}

#[test]
fn coordinator_is_bit_identical() {
    let (mut g, mut h) = (coordinator::Coordinator::new(), hand::Coordinator::new());
    same!("coordinator", 0, g.p1, h.p1; tilt, start);
    same!("coordinator", 0, g.p2, h.p2; tilt, start);
    for step in 0..8_000 {
        g.step(1e-3);
        h.step(1e-3);
        same!("coordinator", step, g, h; x1, x2, done, p1_on, p2_on);
        same!("coordinator", step, g.p1, h.p1; x, v, arrived, t_arrival, roll_on, ctl_on);
        same!("coordinator", step, g.p2, h.p2; x, v, arrived, t_arrival, roll_on, ctl_on);
        same!("coordinator", step, g.p1.roll, h.p1.roll; x, v, a, angle, hold);
        same!("coordinator", step, g.p2.roll, h.p2.roll; x, v, a, angle, hold);
        same!("coordinator", step, g.p1.ctl, h.p1.ctl; angle, done, braking, dir, target, x, v);
        same!("coordinator", step, g.p2.ctl, h.p2.ctl; angle, done, braking, dir, target, x, v);
        assert_eq!(g.time().to_bits(), h.time.to_bits());
        assert_eq!(g.p1.time().to_bits(), h.p1.time.to_bits());
        assert_eq!(g.p2.roll.time().to_bits(), h.p2.roll.time.to_bits());
    }
    // Both rolls arrived (T = 2·sqrt(D/a) ≈ 4.5 s), so the switching off of the
    // positioning systems was compared too.
    assert!(g.done && g.p1.t_arrival > 0.0 && g.p2.t_arrival > 0.0);
}
