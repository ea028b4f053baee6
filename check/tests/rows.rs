//! What time a trace's row value is as of (`sit_check::rows`), on models whose answer
//! follows from the step's order by hand.

use sit_check::check_source;

/// The row words of the variables of model `M` in `src`, by name.
fn words(src: &str) -> Vec<(String, &'static str)> {
    let out = check_source("rows.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checks");
    let id = p.model("M").expect("M");
    let rows = sit_check::rows::row_times(&p);
    (p.models[id].vars.iter().zip(&rows[id]))
        .map(|(v, r)| (v.name.clone(), r.word()))
        .collect()
}

fn pairs(v: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    v.iter().map(|(a, b)| (a.to_string(), *b)).collect()
}

#[test]
fn integrals_are_of_the_rows_time_and_time_reads_of_the_steps_start() {
    // h and Vy are integrated to the row's time; defl is computed from h after h's
    // rule; the force reads the last step's defl (prev) and guards evaluated on the
    // values the step started with, so it, F and Ay are of the step's start; the
    // platform p reads `time`, the step's start. P is a product of params.
    let got = words(
        "model M {
            param m = 1, R = 30, g = 981, k = 60000, A = 1, w = 2;
            input real u;
            output real h = 400, Vy, defl, Fy, F, Ay, P, p;
            pred contact = h < R;
            P = m * g;
            Fy = k * prev(defl) when contact;
            Fy = 0 otherwise;
            F = Fy - P;
            Ay = F / m;
            Vy = integral(Ay);
            h = integral(Vy);
            defl = R - h when contact;
            defl = 0 otherwise;
            p = A * sin(w * time) + u;
        }",
    );
    assert_eq!(
        got,
        pairs(&[
            ("m", ""),
            ("R", ""),
            ("g", ""),
            ("k", ""),
            ("A", ""),
            ("w", ""),
            ("u", "t-dt"),
            ("h", "t"),
            ("Vy", "t"),
            ("defl", "t"),
            ("Fy", "t-dt"),
            ("F", "t-dt"),
            ("Ay", "t-dt"),
            ("P", ""),
            ("p", "t-dt"),
        ])
    );
}

#[test]
fn latches_are_held_and_mixtures_are_named() {
    // t_off keeps the time of the last event (held); y mixes the new x with the step's
    // start time; z reads x before its rule: the previous row's x, so of the step's
    // start.
    let got = words(
        "model M {
            output real x, t_off, y, z;
            event e = x > 1;
            t_off = time when e;
            z = x * 2;
            x = integral(1);
            y = x + time;
        }",
    );
    assert_eq!(
        got,
        pairs(&[("x", "t"), ("t_off", "held"), ("y", "mixed"), ("z", "t-dt")])
    );
}

#[test]
fn a_submodels_output_read_before_its_placed_step_is_of_the_step_before() {
    // The clock integrates 1 to the row's time. Placed, it steps between the two reads:
    // `early` reads its value as the step started, `late` its new value. Unplaced, both
    // read the new value (it steps before the rules).
    let src = "model Clock { output real c; c = integral(1); }
        model M {
            output real early, late;
            sub clock: Clock;
            early = clock.c;
            STEP
            late = clock.c;
        }";
    let placed = words(&src.replace("STEP", "step(clock);"));
    assert_eq!(placed, pairs(&[("early", "t-dt"), ("late", "t")]));
    let unplaced = words(&src.replace("STEP", ""));
    assert_eq!(unplaced, pairs(&[("early", "t"), ("late", "t")]));
}

/// `y = x; x = integral(1);` under `euler` reads `x` before its rule: the step's start.
/// Under a method with stages the states are integrated before the body's one pass
/// (contract.md, "Integration methods"), so every row has `y = x`: the row's time
/// (issue 47, item 5). `time` stays the step's start under every method.
#[test]
fn a_read_before_its_integral_is_of_the_rows_time_under_a_method_with_stages() {
    let src = |method: &str| {
        format!("model M {{ {method} output real y, z, x; y = x; z = time; x = integral(1); }}")
    };
    let euler = pairs(&[("y", "t-dt"), ("z", "t-dt"), ("x", "t")]);
    let staged = pairs(&[("y", "t"), ("z", "t-dt"), ("x", "t")]);
    assert_eq!(words(&src("")), euler);
    for method in [
        "rk4", "dopri5", "tsit5", "dop853", "rodas4", "rodas5p", "radau5",
    ] {
        assert_eq!(
            words(&src(&format!("method {method};"))),
            staged,
            "{method}"
        );
    }
}

#[test]
fn a_value_computed_in_every_step_from_an_older_one_is_earlier_not_held() {
    // a and f are computed in every step, from b of the step before (read before its
    // rule, or through prev): as of t − 2·dt, not held. e is a recurrence on its own
    // previous value, of the row's time like `x = x + 1`; g reads the latch t_off, so it
    // is held too.
    let got = words(
        "model M {
            output real a, b, e, f, t_off, g;
            event go = b > 1;
            a = b + 1;
            b = 2 * time;
            e = prev(e) + 1;
            f = prev(b);
            t_off = time when go;
            g = t_off + 1;
        }",
    );
    assert_eq!(
        got,
        pairs(&[
            ("a", "earlier"),
            ("b", "t-dt"),
            ("e", "t"),
            ("f", "earlier"),
            ("t_off", "held"),
            ("g", "held"),
        ])
    );
}
