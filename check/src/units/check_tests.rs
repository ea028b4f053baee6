//! Tests of the unit check: gradual checking, inference, literals and scales, display.
use super::*;
use crate::units::show::root_pow;
use crate::units::solve::same;

fn codes(src: &str) -> Vec<&'static str> {
    let out = crate::check_source("u.sit", src);
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

fn units(src: &str) -> HashMap<String, String> {
    let file = crate::parse::parse_file(0, src).unwrap();
    let models: Vec<&ast::Model> = file.models.iter().collect();
    let mut diags = Vec::new();
    let u = check_models(&models, &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    (u[0].vars.iter())
        .map(|(k, v)| (k.clone(), v.1.clone()))
        .collect()
}

#[test]
fn built_in_rules_alone_never_make_an_error() {
    // `x` is s from `timer` and s^2 from `integral(time)`: without a declared unit
    // the model checks as before.
    let src = "model M { input flag c; output real x; x = timer(c) when c; x = integral(time) otherwise; }";
    assert_eq!(codes(src), Vec::<&str>::new());
    let declared = src.replace("output real x;", "output real x [s];");
    assert_eq!(codes(&declared), ["E0481"]);
}

#[test]
fn inference_follows_rules_in_any_order_and_products_once_known() {
    let u = units(
        "model M { param m [kg] = 1; input real f [N]; output real a, v, x, p, e; \
         e = p * v; p = m * v; x = integral(v); v = integral(a); a = f / m; }",
    );
    assert_eq!(u["a"], "m/s^2");
    assert_eq!(u["v"], "m/s");
    assert_eq!(u["x"], "m");
    assert_eq!(u["p"], "m*kg/s");
    assert_eq!(u["e"], "J");
}

#[test]
fn literals_take_their_context_and_scales_are_errors() {
    assert_eq!(
        codes("model M { output real h [m] = 10; h = h + 2 * 3; }"),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes("model M { input real t [s]; output real y [m]; y = 3 * sin(t / t); }"),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes("model M { input real x [m]; output real y [cm]; y = x; }"),
        ["E0482"]
    );
    assert_eq!(
        codes("model M { input real x [m]; param f [cm/m] = 100; output real y [cm]; y = x * f; }"),
        Vec::<&str>::new()
    );
}

#[test]
fn shown_by_name_or_si_form() {
    let u = |s: &str| parse_unit(s).unwrap();
    assert_eq!(show_unit(&u("kg*m/s^2"), &[]), "N");
    assert_eq!(show_unit(&u("m/s"), &[(u("m/s"), "m / s".into())]), "m / s");
    assert_eq!(show_unit(&u("kg*m^3"), &[]), "m^3*kg");
    assert_eq!(root_pow(&u("m^2"), 0.5), Some(u("m")));
    assert_eq!(root_pow(&u("m"), 0.5), None);
    assert!(same(&u("rad/s"), &u("1/s")));
    assert!(!same(&u("deg"), &u("rad")));
}

#[test]
fn tables_carry_their_units_to_their_reads() {
    // The value's unit is inferred from the table's, the argument is checked against it.
    let u = units(
        "model M { table heat(T [degC]) [W] = [0, 20] -> [2000, 0] clamp; \
         input real T_room [degC]; output real Q; Q = heat(T_room); }",
    );
    assert_eq!(u["Q"], "W");
    let heater = "model M { table heat(T [K]) [kW] = [280, 300] -> [2, 0] clamp; \
                  input real T_room [degC]; output real Q [W]; Q = heat(T_room); }";
    assert_eq!(codes(heater), ["E0482", "E0482"]);
    // A literal argument takes the table's unit; a table without units is not checked.
    assert_eq!(
        codes(
            "model M { table g(x [m]) [s] = [0, 1] -> [0, 1] clamp; output real y [s]; y = g(0.5); }"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes(
            "model M { table g(x) = [0, 1] -> [0, 1] clamp; input real v [m/s]; output real y [m]; y = g(v); }"
        ),
        Vec::<&str>::new()
    );
    // 2-D: each argument its own unit.
    assert_eq!(
        codes(
            "model M { table t(w [rad/s], p [1]) [N*m] = [0, 1], [0, 1] -> [[0, 1], [2, 3]] clamp; \
               input real w [rad/s], p; output real M [N*m]; M = t(w, p); }"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes(
            "model M { table t(w [rad/s], p [1]) [N*m] = [0, 1], [0, 1] -> [[0, 1], [2, 3]] clamp; \
               input real w [rad/s], p [m]; output real M; M = t(w, p); }"
        ),
        ["E0481"]
    );
}

#[test]
fn a_number_with_its_unit_is_checked_and_infers() {
    let u = units("model M { input real v [m/s]; output real w, d; w = v + 2 [m/s]; d = 3 [km]; }");
    assert_eq!(u["w"], "m/s");
    assert_eq!(u["d"], "km");
    assert_eq!(
        codes("model M { input real v [m/s]; output real w; w = v + 2 [m]; }"),
        ["E0481"]
    );
    // Inferred from the number alone: `x` is `m` and `y` then mixes `m` and `s`.
    assert_eq!(
        codes("model M { output real x, y; x = 2 [m]; y = x + 1 [s]; }"),
        ["E0481"]
    );
    assert_eq!(
        codes("model M { output real x; x = 2 [furlong]; }"),
        ["E0480"]
    );
}

#[test]
fn a_submodels_inputs_take_the_units_their_bindings_agree_on() {
    let gain = "model Gain { input real u; output real y; y = 2 * u; }";
    // `g.y` is `m` because `u` is bound to a length: a target in `s` is an error.
    let parent = |z: &str, bind: &str| {
        format!(
            "{gain} model P {{ input real x [m]; input real t [s]; sub g: Gain(u = {bind}); \
             sub h: Gain(u = x); output real z [{z}]; z = g.y; }}"
        )
    };
    assert_eq!(codes(&parent("s", "x")), ["E0481"]);
    assert_eq!(codes(&parent("m", "x")), Vec::<&str>::new());
    // Two instances bound with different units: the model serves both, `u` stays free.
    assert_eq!(codes(&parent("s", "t")), Vec::<&str>::new());
    // A seeded input is checked inside its model, the binding shown as the origin.
    let out = crate::check_source(
        "u.sit",
        "model S { input real u; output real y [s]; y = u * u; } \
         model P { input real x [m]; sub s: S(u = x); }",
    );
    let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].code, "E0481");
    assert!(
        format!("{:?}", errors[0]).contains("from the binding in `P`"),
        "{:?}",
        errors[0]
    );
    // Through two levels: the seed flows down a round at a time.
    let deep = "model A { input real u; output real y; y = u; } \
                model B { input real w; sub a: A(u = w); output real y; y = a.y; } \
                model C { input real x [m]; sub b: B(w = x); output real z [s]; z = b.y; }";
    assert_eq!(codes(deep), ["E0481"]);
}

#[test]
fn a_chain_of_products_past_what_a_unit_holds_is_not_followed() {
    // `z0` is `m^201`: each `z` one power above the next. Past `MAX_POWER` the classes'
    // relations are not followed, so nothing is said of them, rather than conflicts
    // between the saturated powers (before, every rule past the 128th was an E0481).
    let chain = |k: usize, z0: &str| {
        let mut s = String::from("model M { input real l [m];");
        for i in 0..k {
            let next = if i + 1 < k {
                format!("z{}", i + 1)
            } else {
                "l".into()
            };
            let unit = if i == 0 { z0 } else { "" };
            s += &format!(" output real z{i}{unit}; z{i} = {next} * l;");
        }
        s + " }"
    };
    assert_eq!(codes(&chain(200, "")), Vec::<&str>::new());
    // Nor is such a unit shown (in hovers, `sitc info`): every unit shown is one a
    // declaration could write.
    // Here the chain's classes are linked while unknown, and its head learns `m^2`
    // last (from `w`): `z{i}` is `m^(2 - i)`, past the limit from `z63` on.
    let mut linked = String::from("model M { input real l [m]; output real w;");
    for i in 0..200 {
        let next = if i + 1 < 200 {
            format!("z{}", i + 1)
        } else {
            "l".into()
        };
        linked += &format!(" output real z{i}; z{i} = {next} * l;");
    }
    let shown = units(&(linked + " w = z0 + l * l; }"));
    assert_eq!(shown.get("z0").map(String::as_str), Some("m^2"));
    assert_eq!(shown.get("z62").map(String::as_str), Some("1/m^60"));
    assert_eq!(shown.get("z63"), None);
    for (name, unit) in &shown {
        assert!(parse_unit(unit).is_ok(), "{name} shown as {unit}");
    }
    // Within the limit the chain is followed to its end: `z0` is `m^21`.
    assert_eq!(codes(&chain(20, " [m^21]")), Vec::<&str>::new());
    assert_eq!(codes(&chain(20, " [m^20]")), ["E0481"]);
    // A written power past the limit is an error in the unit's text.
    assert_eq!(codes("model M { input real l [m^61]; }"), ["E0480"]);
    assert!(parse_unit("m^60").is_ok());
    assert!(parse_unit("(m^40)^2").is_err());
    assert_eq!(Unit::BEYOND.mul(&Unit::BEYOND.pow(-1)), Unit::BEYOND);
}

/// Issue 47: a unit error at a use of a variable declared with the wrong unit points at
/// its declaration too (as rustc points at a parameter's type), but not at the
/// declarations of a table's or a plain function's arguments, whose units do not flow
/// into the value.
#[test]
fn a_conflict_points_at_the_declarations_of_what_it_reads() {
    let related = |src: &str| -> Vec<String> {
        let out = crate::check_source("u.sit", src);
        let d = (out.diagnostics.iter().find(|d| d.is_error())).expect("an error");
        d.related.iter().map(|(_, l)| l.clone()).collect()
    };
    let labels =
        related("model Fall { param g [m/s] = 9.81; output real v [m/s] = 0; v = integral(-g); }");
    assert_eq!(
        labels,
        ["`v` is declared `m/s` here", "`g` is declared `m/s` here"]
    );
    let labels = related(
        "model M { input real th [rad]; param L [m] = 1; output real y [s]; y = L * sin(th); }",
    );
    assert_eq!(
        labels,
        ["`y` is declared `s` here", "`L` is declared `m` here"]
    );
}
