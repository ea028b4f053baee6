//! Arrays and loops (issue 49, item 4): the heat rod written with an array gives the
//! numbers of the scalar one to the bit and meets the exact decay of the sine mode;
//! cells, reductions, comprehensions, loops in blocks and equations mean the rules
//! they stand for; the expansion takes time linear in the number of cells.

use sit_runtime::Model;
use sit_tests::models::{get, instance_of, load};
use std::time::Instant;

/// The scalar heat rod and its array form step to the same bits, at every node and
/// every host step, as written (nonlinear, with radiation) and made linear.
#[test]
fn the_array_heat_rod_is_the_scalar_one_to_the_bit() {
    for linear in [false, true] {
        let mut scalar = load("heat_rod.sit", "HeatRod").unwrap();
        let mut array = load("heat_rod_array.sit", "HeatRodArray").unwrap();
        assert_eq!(scalar.var_count(), array.var_count(), "the same variables");
        if linear {
            for m in [&mut scalar as &mut dyn Model, &mut array] {
                m.set("beta", 0.0).unwrap();
                m.set("eps", 0.0).unwrap();
                m.reset();
            }
        }
        for step in 0..=20 {
            for i in 1..=40 {
                let (a, b) = (
                    get(&scalar, &format!("T{i}")).unwrap(),
                    get(&array, &format!("T[{i}]")).unwrap(),
                );
                assert_eq!(
                    a.to_bits(),
                    b.to_bits(),
                    "node {i} at step {step}: {a} against {b}"
                );
            }
            scalar.step(10.0);
            array.step(10.0);
        }
    }
}

/// The array rod made linear (beta = 0, eps = 0) starts in the slowest sine mode of
/// the discrete heat equation, which decays exactly as exp(−λ·t), λ =
/// (4·α/dx²)·sin²(π·dx/(2·L)): within 1e-3 K to t = 300 s (the bound of the scalar
/// rod's test in `models_methods.rs`, which this one matches to the bit).
#[test]
fn the_array_heat_rod_meets_the_exact_sine_mode() {
    let mut m = load("heat_rod_array.sit", "HeatRodArray").unwrap();
    m.set("beta", 0.0).unwrap();
    m.set("eps", 0.0).unwrap();
    m.reset();
    let (n, tb, amp) = (40usize, 300.0, 200.0);
    let alpha = 400.0 / (8960.0 * 385.0);
    let dx = 0.25 / (n + 1) as f64;
    let theta = std::f64::consts::PI / (n + 1) as f64;
    let lambda = 4.0 * alpha / (dx * dx) * (theta / 2.0).sin().powi(2);
    let mut worst = 0.0f64;
    for k in 1..=30 {
        m.step(10.0);
        let decay = (-lambda * 10.0 * k as f64).exp();
        for i in 1..=n {
            let exact = tb + amp * (theta * i as f64).sin() * decay;
            worst = worst.max((get(&m, &format!("T[{i}]")).unwrap() - exact).abs());
        }
    }
    assert!(worst < 1e-3, "max error {worst} K");
    // The size is structural: no variable of the run.
    assert!(m.get("N").is_none());
    assert!(m.set("N", 80.0).is_err());
}

/// Reductions, lists, comprehensions in two dimensions, loops in `when` blocks and
/// equations in loops, each against the value written by hand.
#[test]
fn cells_reductions_blocks_and_equations() {
    let text = "model M {
        param N = 4;
        param w[N] = [1, 2, 3, 4];
        param g[2, 3] = [10 * i + j for i in 1:2, j in 1:3];
        output real s, p, lo, hi, e, half, c;
        output real x[N] = [i for i in 1:N];
        output real y[N];
        output flag go = true;
        s = sum(w[i] for i in 1:N);
        p = prod(w[i] for i in 1:N);
        lo = min(w[i] * (5 - i) for i in 1:N);
        hi = max(g[i, j] for i in 1:2, j in 1:3);
        e = sum(w[i] for i in 3:2) + prod(w[i] for i in 3:2);
        when go {
            for i in 1:N {
                x[i] = x[i] + i;
            }
        }
        for i in 1:N {
            equation y[i] = 2 * x[i];
        }
        half = sum(y[i] for i in 1:N) / 2;
        c = g[2, 3] + N;
    }";
    let mut m = instance_of(text, sit_middle::ir::Method::Euler);
    m.step(0.1);
    let v = |n: &str| get(&m, n).unwrap();
    assert_eq!(v("s"), 10.0);
    assert_eq!(v("p"), 24.0);
    assert_eq!(v("lo"), 4.0); // 1·4, 2·3, 3·2, 4·1
    assert_eq!(v("hi"), 23.0);
    assert_eq!(v("e"), 1.0); // an empty sum and an empty product
    for i in 1..=4 {
        assert_eq!(v(&format!("x[{i}]")), 2.0 * i as f64);
        assert_eq!(v(&format!("y[{i}]")), 4.0 * i as f64);
    }
    assert_eq!(v("half"), 20.0);
    assert_eq!(v("c"), 27.0);
    assert_eq!(v("g[1][2]"), 12.0);
}

/// A 1-D rod of `n` cells, as a user writes it.
fn rod(n: usize) -> String {
    format!(
        "model Rod {{
            param N = {n};
            param a [1/s] = 1;
            param Tb [K] = 300;
            output real T[N] [K] = [Tb + sin(3.141592653589793 * i / (N + 1)) * 1 [K] for i in 1:N];
            T[1] = integral(a * (Tb - 2 * T[1] + T[2]));
            for i in 2:N-1 {{
                T[i] = integral(a * (T[i-1] - 2 * T[i] + T[i+1]));
            }}
            T[N] = integral(a * (T[N-1] - 2 * T[N] + Tb));
        }}"
    )
}

/// The best of five times of checking `text`.
fn check_time(text: &str) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            let out = sit_middle::check_source("rod.sit", text);
            assert!(!out.has_errors(), "{}", out.render());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Checking a rod of 16 000 cells takes less than 16× the time of 2 000 (linear: 8×,
/// quadratic: 64×: the margin a machine loaded by other builds needs, where 3× for
/// twice the cells failed), and its cells are variables named `T[1]` … `T[8000]`.
#[test]
fn the_expansion_is_linear_in_the_cells() {
    let (small, large) = (check_time(&rod(2000)), check_time(&rod(16000)));
    assert!(
        large < 16.0 * small,
        "2000 cells: {small:.3} s, 16000 cells: {large:.3} s"
    );
    let out = sit_middle::check_source("rod.sit", &rod(8000));
    let program = out.program.expect("checks");
    let names: Vec<&str> = program.models[0]
        .vars
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert!(names.contains(&"T[1]") && names.contains(&"T[8000]"));
    assert!(!names.contains(&"N"));
}

/// A cell of a submodel's array is read through its path (`rod.T[2]`, in a loop
/// `rod.T[i]`, a 2-D `rod.G[i, j]`) as the submodel's variable `T[2]`; a cell past its
/// array is that submodel's unknown variable, at the path.
#[test]
fn a_submodels_cells_are_read_through_its_path() {
    let text = "model Top {
        sub rod: Rod;
        output real mid, corner;
        output real copy[3];
        mid = rod.T[2];
        corner = rod.G[2, 1];
        for i in 1:3 {
            copy[i] = rod.T[i] - 1;
        }
    }
    model Rod {
        param N = 3;
        output real T[N] = [300 + 10 * i for i in 1:N];
        output real G[2, 2];
        for i in 1:2, j in 1:2 {
            G[i, j] = 10 * i + j;
        }
        for i in 1:N {
            T[i] = integral(-0.5 * (T[i] - 290));
        }
    }";
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("m.sit", text),
        &Default::default(),
    )
    .expect("checks");
    let root = compiled.root(None).expect("one root");
    let mut m = sit_interp::Instance::new(&compiled.lowered, root);
    m.step(0.1);
    let v = |n: &str| get(&m, n).unwrap();
    // Euler: T[i] + 0.1·(−0.5·(T[i] − 290)), read by Top after the sub's step.
    for i in 1..=3 {
        let t = 300.0 + 10.0 * i as f64;
        assert_eq!(v(&format!("rod.T[{i}]")), t + 0.1 * (-0.5 * (t - 290.0)));
        assert_eq!(v(&format!("copy[{i}]")), v(&format!("rod.T[{i}]")) - 1.0);
    }
    assert_eq!(v("mid"), v("rod.T[2]"));
    assert_eq!(v("corner"), 21.0);
    let out = sit_middle::check_source("m.sit", &text.replace("rod.T[2]", "rod.T[4]"));
    let errors = out.render();
    assert!(
        errors.contains("error[E0101]: `rod` (model `Rod`) has no variable `T[4]`"),
        "{errors}"
    );
    assert!(errors.contains("m.sit:5:15"), "{errors}");
}

/// A cell read outside the rules of a model without arrays of its own — an initial
/// value, a submodel's binding — is expanded as in a rule: `real last = rod.T[4];` is
/// E0132 (a state read before the run starts) as `real last = t.h;` is, for a submodel
/// and a part alike; it was left unexpanded and read 0 without a word. A param cell of
/// a part bound to a submodel is read as the param it is.
#[test]
fn cells_read_in_declarations_are_checked() {
    let rod = "model Rod {
        param k = 1;
        param P[2] = [5, 7];
        real T[4] = 1;
        for i in 1:4 {
            T[i] = integral(-k * i * T[i]);
        }
    }";
    for holder in ["sub rod: Rod(k = 2);", "part rod: Rod(k = 2);"] {
        let text =
            format!("model Top {{\n    {holder}\n    output real last = rod.T[4];\n}}\n{rod}");
        let errors = sit_middle::check_source("m.sit", &text).render();
        assert!(
            errors.contains("error[E0132]: an initial value cannot read")
                && errors.contains("m.sit:3:24"),
            "{holder}: {errors}"
        );
    }
    let text = format!(
        "model Top {{\n    sub a: A(p = rod.P[2]);\n    part rod: Rod;\n}}\nmodel A {{\n    \
         param p = 0;\n    output real y;\n    y = p;\n}}\n{rod}"
    );
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("m.sit", &text),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let root = compiled.root(Some("Top")).expect("Top");
    let mut m = sit_interp::Instance::new(&compiled.lowered, root);
    m.step(0.1);
    assert_eq!(get(&m, "a.y").unwrap(), 7.0);
}

/// A structural param bound by an instance (`sub a: Rod(N = 2 * n)`, `part p: Rod(N =
/// 3)`) gives that instance a copy of the model with that many cells (`Rod(N = 6)`),
/// one copy per distinct value, through any depth of instances (`Mid(n = 3)` binds
/// the `n` that sizes its own submodel); an unbound instance keeps the declared size.
/// Each cell decays at its own rate, `T_i' = −k·i·T_i` from 1, so one Euler step of
/// 0.01 gives `1 − 0.01·k·i` exactly.
#[test]
fn structural_params_are_bound_by_instances() {
    let text = "model Rod {
        param N = 4;
        param k = 1;
        output real T[N] = 1;
        for i in 1:N {
            T[i] = integral(-k * i * T[i]);
        }
    }
    model Mid {
        param n = 2;
        sub a: Rod(N = 2 * n, k = 2);
        sub b: Rod(N = 3);
        sub c: Rod;
        part p: Rod(N = 3);
        output real sa;
        sa = sum(a.T[i] for i in 1:2 * n);
    }
    model Top {
        sub m: Mid(n = 3);
        sub again: Mid(n = 3);
    }";
    let compiled = sit_driver::compile(
        &sit_driver::Source::text("m.sit", text),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = (compiled.lowered.program().models.iter())
        .map(|m| m.name.as_str())
        .collect();
    // One copy per distinct binding, the originals kept; Top the one root.
    for copy in ["Rod(N = 6)", "Rod(N = 3)", "Mid(n = 3)"] {
        assert_eq!(names.iter().filter(|n| **n == copy).count(), 1, "{names:?}");
    }
    let root = compiled.root(None).expect("Top is the one root");
    assert_eq!(compiled.lowered.program().models[root].name, "Top");
    let mut m = sit_interp::Instance::new(&compiled.lowered, root);
    m.step(0.01);
    let v = |n: &str| get(&m, n).unwrap_or_else(|_| panic!("no {n}"));
    let cells = |path: &str| {
        (1..)
            .take_while(|i| get(&m, &format!("{path}.T[{i}]")).is_ok())
            .count()
    };
    for top in ["m", "again"] {
        assert_eq!(cells(&format!("{top}.a")), 6);
        assert_eq!(cells(&format!("{top}.b")), 3);
        assert_eq!(cells(&format!("{top}.c")), 4);
        assert_eq!(cells(&format!("{top}.p")), 3);
        for i in 1..=6 {
            assert_eq!(v(&format!("{top}.a.T[{i}]")), 1.0 - 0.01 * 2.0 * i as f64);
        }
        assert_eq!(v(&format!("{top}.p.T[3]")), 1.0 - 0.03);
    }
    // The bound value must be a whole number known when the model is checked.
    let bad = text.replace(
        "sub b: Rod(N = 3);",
        "input real u = 1;\n        sub b: Rod(N = u);",
    );
    let errors = sit_middle::check_source("m.sit", &bad).render();
    assert!(
        errors.contains("error[E0460]: `N` of `b` (it sizes arrays of `Rod`) must be a constant"),
        "{errors}"
    );
    assert_eq!(errors.matches("error[").count(), 1, "{errors}");
}

/// A σ action sets a cell of a flag array (`=> hot[i]` in a loop, `=> !hot[1]`): each
/// cell latches when its own state passes the bound, read after its integral (the rules
/// in textual order).
#[test]
fn sigma_actions_set_cells_of_a_flag_array() {
    let text = "model F {
        param N = 3;
        output real x[N] = [i for i in 1:N];
        output flag hot[N] = false;
        for i in 1:N {
            x[i] = integral(1);
            when x[i] > 2.5 => hot[i];
        }
        when x[1] > 3.2 => !hot[1];
    }";
    let mut m = instance_of(text, sit_middle::ir::Method::Euler);
    // x[i](t) = i + t; hot[i] is set in the first step whose end has x[i] > 2.5.
    let mut set_at = [None; 3];
    for k in 1..=20 {
        m.step(0.25);
        for (i, at) in set_at.iter_mut().enumerate() {
            if at.is_none() && get(&m, &format!("hot[{}]", i + 1)).unwrap() == 1.0 {
                *at = Some(k);
            }
        }
    }
    // x[3] = 3.25 after the first step; x[2] = 2.75 after the third; x[1] = 2.75 after
    // the seventh, and 3.25 > 3.2 after the ninth clears it again.
    assert_eq!(set_at, [Some(7), Some(3), Some(1)]);
    assert_eq!(get(&m, "hot[1]").unwrap(), 0.0);
}
