//! Reading a schematic and writing its model grow linearly with the drawing: a row of
//! drives (inertias, a spring on a long shaft, a gear and a clutch each) twice as
//! long takes at most [`MAX_RATIO`] times as long. Ratios measured in one run, never
//! a wall-clock threshold; each time is the minimum of a few repetitions.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The largest accepted time ratio between a drawing and one half its size.
const MAX_RATIO: f64 = 2.6;
const REPS: usize = 5;

/// `k` drives side by side, each `A ─ ─ K ─ ─ Gi` over `Go D C B`, three rows high.
fn chain(k: usize) -> String {
    let mut rows = [String::new(), String::new(), String::new()];
    let mut decls = String::new();
    for i in 0..k {
        // Row 1: inertia, long shaft, spring, shaft into the input gear.
        // Row 2: the output gear, a clutch, and the next link's first inertia.
        let _ = write!(rows[0], " A{i} ─ ─ K{i} ─ ─ G{i}i . . .");
        let _ = write!(rows[1], " . . . . . . G{i}o D{i} C{i} B{i}");
        let _ = write!(rows[2], " . . . . . . . . . .");
        let _ = writeln!(
            decls,
            "inertia A{i} (J = 1); inertia B{i} (J = 2); inertia D{i} (J = 3); \
             spring K{i} (c = 100); gear G{i} (u = 2, eta = 0.9); clutch C{i} (Mf = 10); \
             action M{i} on +A{i} = 1;"
        );
    }
    format!(
        "schematic Chain {{\n    grid {{\n{}\n{}\n{}\n    }}\n{decls}}}\n",
        rows[0], rows[1], rows[2]
    )
}

fn fastest(text: &str) -> Duration {
    (0..REPS)
        .map(|_| {
            let t = Instant::now();
            let (a, report) = sit_schematic::analyse_source("chain.sch", text);
            assert!(!report.has_errors(), "{}", report.render());
            std::hint::black_box(a.unwrap().to_sit(None));
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

#[test]
fn a_longer_chain_costs_proportionally_more() {
    let (small, large) = (chain(500), chain(1000));
    let mut ratios = Vec::new();
    for _ in 0..5 {
        let (a, b) = (fastest(&small), fastest(&large));
        let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-9);
        ratios.push(format!("{a:?} -> {b:?} ({ratio:.2}x)"));
        if ratio <= MAX_RATIO {
            eprintln!("chain of 500 -> 1000 links: {}", ratios.join(", "));
            return;
        }
    }
    panic!("grows faster than linearly: {}", ratios.join(", "));
}

#[test]
#[ignore]
fn phases() {
    for k in [250, 500, 1000, 2000, 4000] {
        let text = chain(k);
        let t = Instant::now();
        let (a, _) = sit_schematic::analyse_source("chain.sch", &text);
        let t1 = t.elapsed();
        let a = a.unwrap();
        let mut t2 = Duration::MAX;
        let mut g = a.to_sit(None);
        for _ in 0..5 {
            let t = Instant::now();
            g = a.to_sit(None);
            t2 = t2.min(t.elapsed());
        }
        let t = Instant::now();
        let _ = sit_middle::check_source("x.sit", &g.text);
        let t3 = t.elapsed();
        eprintln!("{k}: analyse {t1:?} emit {t2:?} check-sit {t3:?}");
    }
}
