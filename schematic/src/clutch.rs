//! Switching friction (a clutch or brake between two inertias) as situations: Coulomb
//! slip with the friction moment `Mf·sign(slip)`, and stick with the moment that keeps
//! the slip speed at zero, as long as it stays within `Mf`.
//!
//! With the slip speed s = −Σ A K ω (like an element's deformation rate) and F_i the
//! moment on inertia i from everything but the clutch, ds/dt = 0 gives the stick moment
//! M = −Σ (A_i K_i F_i / J_i) / Σ (K_i G_i / J_i). A slipping clutch locks in the step
//! in which the slip changes sign while the stick moment is within `Mf`: the speeds
//! then get the impulse P = s / Σ (K_i G_i / J_i) that makes the slip exactly zero
//! (ω_i += A_i G_i P / J_i, which conserves angular momentum for gears with η = 1).

use crate::ast::{Form, Schematic};
use crate::equations::{kinematic_gain, links_of, push_term, rate, scaled, speed, torque_gain};
use crate::search::Link;
use std::fmt::Write as _;

/// The clutch's two links and the denominator Σ K G / J.
fn parts<'a>(
    s: &Schematic,
    links: &'a [Link],
    weights: &[Vec<String>],
    form: Form,
    j: usize,
) -> (Vec<&'a Link>, String) {
    let mine: Vec<&Link> = links_of(links, j).iter().collect();
    let mut den = String::new();
    for l in &mine {
        let (kn, kd) = kinematic_gain(s, l, weights);
        let (gn, gd) = torque_gain(s, l, weights, form);
        let mut num = kn;
        num.extend(gn);
        let mut d = kd;
        d.extend(gd);
        d.push(s.elements[l.inertia].name.clone());
        push_term(&mut den, scaled(&num, &d, "1"), true);
    }
    (mine, den)
}

/// The rules before the moment balances: slip speed, stick moment, break-away, and the
/// clutch moment in each situation.
pub fn slip(
    o: &mut String,
    s: &Schematic,
    links: &[Link],
    weights: &[Vec<String>],
    form: Form,
    j: usize,
    at: &str,
) {
    let n = &s.elements[j].name;
    let (mine, den) = parts(s, links, weights, form, j);
    let mut num = String::new();
    for l in &mine {
        let (kn, mut kd) = kinematic_gain(s, l, weights);
        kd.push(s.elements[l.inertia].name.clone());
        push_term(
            &mut num,
            scaled(&kn, &kd, &format!("F_{}", s.elements[l.inertia].name)),
            l.sign < 0,
        );
    }
    let _ = writeln!(
        o,
        "    s_{n} = {}; // clutch {n}, {at}",
        rate(s, links, weights, j)
    );
    let _ = writeln!(o, "    Mst_{n} = ({num}) / ({den});");
    let _ = writeln!(
        o,
        "    when stuck_{n} & abs(Mst_{n}) > Mf_{n} => !stuck_{n};"
    );
    let _ = writeln!(o, "    M_{n} = Mst_{n} when stuck_{n};");
    let _ = writeln!(o, "    M_{n} = Mf_{n} * sign(s_{n}) otherwise;");
}

/// The rules after the moment balances: a slipping clutch whose slip changed sign
/// locks, with the impulse that makes the slip zero.
pub fn lock(
    o: &mut String,
    s: &Schematic,
    links: &[Link],
    weights: &[Vec<String>],
    form: Form,
    j: usize,
) {
    let n = &s.elements[j].name;
    let (mine, den) = parts(s, links, weights, form, j);
    let _ = writeln!(o, "    s1_{n} = {};", rate(s, links, weights, j));
    let _ = writeln!(
        o,
        "    when !stuck_{n} & s1_{n} * s_{n} <= 0 & abs(Mst_{n}) <= Mf_{n} {{"
    );
    let _ = writeln!(o, "        P_{n} = s1_{n} / ({den});");
    for l in &mine {
        let name = &s.elements[l.inertia].name;
        let (gn, mut gd) = torque_gain(s, l, weights, form);
        gd.push(name.clone());
        let w = speed(name);
        let _ = writeln!(
            o,
            "        {w} = {w} {} {};",
            if l.sign > 0 { "+" } else { "-" },
            scaled(&gn, &gd, &format!("P_{n}"))
        );
    }
    let _ = writeln!(o, "        when always => stuck_{n};");
    let _ = writeln!(o, "    }}");
}
