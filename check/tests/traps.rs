//! The trap lints (W0240 σ cascade, W0241 stale value without `otherwise`, W0242
//! a value held through the stages):
//! each fires on the trap, names the places, and stays quiet on the
//! patterns that look alike but are sound, and on every library model.

use sit_check::check_source;

/// The codes of the warnings of `model M { body }`, with the text each
/// primary span covers.
fn found(body: &str) -> Vec<(String, String)> {
    let src = format!("model M {{\n{body}\n}}\n");
    let out = check_source("m.sit", &src);
    assert!(!out.has_errors(), "{}", out.render());
    out.diagnostics
        .iter()
        .map(|d| (d.code.to_string(), out.sources.text(d.span).to_string()))
        .collect()
}

/// Only the warnings with `code`.
fn only(code: &str, body: &str) -> Vec<String> {
    found(body)
        .into_iter()
        .filter(|(c, _)| c == code)
        .map(|(_, t)| t)
        .collect()
}

const LIGHT: &str = "
    param T_red = 30, T_green = 25, T_yellow = 5;
    output flag red = true, green, yellow;
    output real t;
    when red & t >= T_red => !red, green;
    when green & t >= T_green => !green, yellow;
    when yellow & t >= T_yellow => !yellow, red;
    t = integral(1);";

#[test]
fn w0240_the_red_forever_light() {
    assert_eq!(only("W0240", LIGHT), ["!green", "!yellow"]);
    let src = format!("model M {{\n{LIGHT}\n}}\n");
    let out = check_source("m.sit", &src);
    let d = (out.diagnostics.iter())
        .find(|d| d.code == "W0240")
        .expect("a cascade");
    assert_eq!(out.sources.text(d.related[0].0), "green");
    assert!(d.help.as_deref().unwrap_or("").contains("event"));
    assert!(d.notes[0].contains("`red & t >= T_red`"), "{}", d.notes[0]);
}

#[test]
fn w0240_an_action_overridden_by_the_rule_it_enables() {
    // The first rule sets `go`, which makes the second hold, which sets the
    // `stop` the first one cleared.
    let body = "
    output real x;
    output flag go, stop;
    when x > 1 => go, !stop;
    when go & x > 0 => stop;
    x = integral(1);";
    assert_eq!(only("W0240", body), ["stop"]);
}

#[test]
fn w0240_quiet_when_the_cascade_is_not_certain_or_cannot_happen() {
    // Separate timers: the next phase's guard does not hold when it starts.
    let timers = LIGHT
        .replace("output real t;", "output real t, u, w;")
        .replace("green & t >= T_green", "green & u >= T_green")
        .replace("yellow & t >= T_yellow", "yellow & w >= T_yellow")
        .replace(
            "t = integral(1);",
            "t = integral(1); u = integral(1); w = integral(1);",
        );
    assert!(only("W0240", &timers).is_empty());
    // Events are evaluated before the rules: no cascade.
    let events = "
    param T_red = 30, T_green = 25;
    output flag red = true, green;
    output real t;
    event to_green = red & t >= T_red;
    event to_red = green & t >= T_green;
    when to_green => !red, green;
    when to_red => !green, red;
    t = integral(1);";
    assert!(only("W0240", events).is_empty());
    // The later rule may or may not hold (the braking controller): a state
    // machine that moves on when it can, not a cascade every time.
    let machine = "
    output real x = 1, v;
    output flag braking, done;
    when x < 0.5 & !done => braking;
    when braking & v < 0.1 => done, !braking;
    x = integral(-x);
    v = integral(-v);";
    assert!(only("W0240", machine).is_empty());
    // A rule between the two changes what the later guard reads.
    let between = "
    output real x;
    output flag q;
    when x > 1 => q;
    when x > 1 => !q;
    when q => !q;
    x = integral(1);";
    assert!(only("W0240", between).is_empty());
}

const STALE: &str = "
    param R = 30, k = 60000, g = 981;
    output real h = 400, Vy;
    real F, Fy;
    pred contact = h < R;
    pred falling = Vy < 0;
    Fy = k * (R - h) when contact & falling;
    Fy = k / 2 * (R - h) when contact & !falling;
    F = Fy - g;
    Vy = integral(F);
    h = integral(Vy);";

#[test]
fn w0241_the_contact_force_in_flight() {
    assert_eq!(
        only("W0241", STALE),
        ["Fy = k / 2 * (R - h) when contact & !falling;"]
    );
    let src = format!("model M {{\n{STALE}\n}}\n");
    let out = check_source("m.sit", &src);
    let d = (out.diagnostics.iter())
        .find(|d| d.code == "W0241")
        .expect("a stale read");
    assert_eq!(out.sources.text(d.related[0].0), "F = Fy - g;");
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .contains("`Fy = 0 otherwise;`")
    );
}

#[test]
fn w0241_quiet_when_every_step_assigns_or_the_read_is_guarded() {
    let fixed = STALE.replace("F = Fy - g;", "Fy = 0 otherwise;\n    F = Fy - g;");
    assert!(only("W0241", &fixed).is_empty());
    let unguarded = STALE.replace("F = Fy - g;", "Fy = 0;\n    F = Fy - g;");
    assert!(only("W0241", &unguarded).is_empty());
    // The guards cover every case.
    let cover = STALE.replace("when contact & !falling", "when !(contact & falling)");
    assert!(only("W0241", &cover).is_empty(), "{:?}", found(&cover));
    // Read only where a rule applied.
    let guarded = STALE.replace(
        "F = Fy - g;",
        "F = Fy - g when contact;\n    F = -g otherwise;",
    );
    assert!(only("W0241", &guarded).is_empty());
    // Read before the rules: last step's value, by design.
    let before = STALE.replace("F = Fy - g;", "").replace(
        "    Fy = k * (R - h)",
        "    F = Fy - g;\n    Fy = k * (R - h)",
    );
    assert!(only("W0241", &before).is_empty());
    // A state that evolves under a guard keeps its value on purpose.
    let frozen = "
    output real x, y;
    input flag running;
    x = integral(1) when running;
    y = 2 * x;";
    assert!(only("W0241", frozen).is_empty());
}

/// A contact force whose guards cover every case, without `otherwise`: under a
/// method with stages it is a discrete value, read as it was at the step's start.
const HELD: &str = "
    method rk4;
    param k = 1e4, g = 9.81;
    output real x = 1, v;
    real F;
    pred contact = x < 0;
    F = -k * x when contact;
    F = 0 when !contact;
    v = integral(F - g);
    x = integral(v);";

#[test]
fn w0242_a_force_held_through_the_stages() {
    assert_eq!(only("W0242", HELD), ["F = 0 when !contact;"]);
    let src = format!("model M {{\n{HELD}\n}}\n");
    let out = check_source("m.sit", &src);
    let d = (out.diagnostics.iter())
        .find(|d| d.code == "W0242")
        .expect("a held value");
    assert!(
        d.message.contains("`method rk4`") && d.message.contains("`x`"),
        "{}",
        d.message
    );
    assert_eq!(out.sources.text(d.related[0].0), "v = integral(F - g);");
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .contains("`F = … otherwise;`")
    );
    // Through `time` and under every method with stages.
    let timed = HELD.replace("-k * x when contact", "-k * time when contact");
    assert_eq!(only("W0242", &timed).len(), 1);
    for m in ["dopri5", "rodas4", "tsit5", "dop853"] {
        let other = HELD.replace("method rk4", &format!("method {m}"));
        assert_eq!(only("W0242", &other).len(), 1, "{m}");
    }
}

#[test]
fn w0242_quiet_under_euler_with_otherwise_or_constant_rules() {
    assert!(only("W0242", &HELD.replace("method rk4;", "")).is_empty());
    let fixed = HELD.replace("F = 0 when !contact;", "F = 0 otherwise;");
    assert!(only("W0242", &fixed).is_empty(), "{:?}", found(&fixed));
    // Constant under its guards: a jump at located events, discrete on purpose.
    let constant = HELD.replace("-k * x when contact", "-50 when contact");
    assert!(only("W0242", &constant).is_empty());
    // Not read by a rate.
    let unread = HELD.replace("integral(F - g)", "integral(-g)");
    assert!(only("W0242", &unread).is_empty());
    // W0241 asks for the same `otherwise` rule: one warning, not two.
    let stale = HELD.replace("    F = 0 when !contact;\n", "");
    let codes: Vec<String> = found(&stale).into_iter().map(|(c, _)| c).collect();
    assert!(
        codes.contains(&"W0241".to_string()) && !codes.contains(&"W0242".to_string()),
        "{codes:?}"
    );
    // Allowed with a reason.
    let allowed = HELD.replace(
        "    F = 0 when !contact;",
        "    #[allow(W0242, reason = \"sampled once per step\")]\n    F = 0 when !contact;",
    );
    assert!(only("W0242", &allowed).is_empty(), "{:?}", found(&allowed));
}

/// Every model of the library (`examples/models/`) is free of the traps.
#[test]
fn library_models_are_silent() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let mut todo = vec![root];
    let mut seen = 0;
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).expect("readable folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "sit") {
                let out = sit_check::check_file(&p).expect("readable model");
                let traps: Vec<_> = (out.diagnostics.iter())
                    .filter(|d| d.code.starts_with("W024"))
                    .collect();
                assert!(traps.is_empty(), "{}: {}", p.display(), out.render());
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "only {seen} library models");
}
