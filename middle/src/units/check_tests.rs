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
