//! The checker's warnings (W0201–W0208) and the algebraic loops (E0476) on small models: each fires where it
//! should, names the right places, and stays quiet on the patterns the
//! example models use on purpose.

use sit_check::{Diagnostic, check_source};

/// The warnings of a model given as the body of `model M { ... }`.
fn warnings(body: &str) -> Vec<Diagnostic> {
    let src = format!("model M {{\n{body}\n}}\n");
    let out = check_source("m.sit", &src);
    assert!(!out.has_errors(), "{}", out.render());
    out.diagnostics
}

/// The codes of the warnings, with the text each primary span covers.
fn found(body: &str) -> Vec<(String, String)> {
    let src = format!("model M {{\n{body}\n}}\n");
    let out = check_source("m.sit", &src);
    assert!(!out.has_errors(), "{}", out.render());
    out.diagnostics
        .iter()
        .map(|d| (d.code.to_string(), out.sources.text(d.span).to_string()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const HOOP: &str = "
    param m = 1.0, R = 30.0, g = 981.0, k_press = 60000.0, k_release = 45000.0;
    output real h = 400.0, Vy = 0.0, defl;
    real P, Fy, F, Ay;
    pred contact = h < R;
    pred falling = Vy < 0;
    situation braking = contact & falling;
    situation rebound = contact & !falling;
    P = m * g;
    Fy = k_press * prev(defl) when braking;
    Fy = k_release * prev(defl) when rebound;
    Fy = 0 otherwise;
    F = Fy - P;
    Ay = F / m;
    Vy = integral(Ay);
    h = integral(Vy);
    defl = R - h when contact;
    defl = 0 otherwise;";

#[test]
fn the_hoop_has_no_warning() {
    assert!(warnings(HOOP).is_empty());
}

#[test]
fn w0201_unread_declarations() {
    let body = "
    param k = 2, unused = 3;
    input real u;
    output real x = 1;
    real y, counter;
    flag q;
    pred p = x > k;
    event e = x > 5;
    x = integral(u);
    y = x;
    counter = counter + 1;
    when p => q;";
    assert_eq!(
        found(body),
        pairs(&[
            ("W0201", "unused"),
            ("W0201", "y"),
            ("W0201", "counter"),
            ("W0201", "q"),
            ("W0201", "e"),
        ])
    );
    let ws = warnings(body);
    assert!(
        ws[2].message.contains("only read by its own rules"),
        "{}",
        ws[2].message
    );
    assert!(ws[1].notes[0].contains("mark it `output`"));
}

#[test]
fn w0201_submodels_and_bindings() {
    let src = "
model S { input real u = 0; param a = 1; output real y; y = a * u; }
model P {
    param gain = 2;
    input real v;
    sub read: S(a = gain, u = v);
    sub unread: S;
    output real z;
    z = read.y;
}";
    let out = check_source("p.sit", src);
    let ws: Vec<(&str, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.code, out.sources.text(d.span)))
        .collect();
    assert_eq!(ws, [("W0201", "unread")]);
}

#[test]
fn w0202_overlapping_guards() {
    let body = "
    param R = 30;
    output real h = 400, Vy, F;
    pred contact = h < R;
    pred falling = Vy < 0;
    F = 1 when contact;
    F = 2 when falling;
    Vy = integral(-1);
    h = integral(Vy);";
    let ws = warnings(body);
    assert_eq!(ws.len(), 1, "{ws:?}");
    assert_eq!(ws[0].code, "W0202");
    assert_eq!(ws[0].related.len(), 1);
    assert!(
        ws[0].notes[0].contains("`contact` and `falling`"),
        "{}",
        ws[0].notes[0]
    );
}

#[test]
fn w0202_quiet_on_exclusive_equal_or_deliberate_rules() {
    // Exclusive through a situation, a block guard, or opposite comparisons.
    let body = "
    param R = 30;
    output real h = 400, Vy, F, G, v;
    pred contact = h < R;
    F = 1 when contact & Vy < 0;
    F = 2 when contact & Vy > 0;
    when contact { G = 1 when Vy >= 0; }
    G = 2 when !contact;
    Vy = integral(-1);
    h = integral(Vy);
    v = 0 when h < 0;
    v = 0 when Vy < 0;
    when h < 0 { v = -v; when v < 1 { v = 0; } }";
    assert!(warnings(body).is_empty(), "{:?}", warnings(body));
}

#[test]
fn w0202_params_at_their_defaults() {
    // T_low < T_high as written: the two guards are exclusive ...
    let body = "
    param T_low = 19.5, T_high = 20.5;
    output real T = 12, Q;
    Q = 1 when T <= T_low;
    Q = 2 when T >= T_high;
    T = integral(1);";
    assert!(warnings(body).is_empty());
    // ... and overlap when the defaults are swapped.
    let swapped = body.replace("19.5, T_high = 20.5", "21, T_high = 20");
    assert_eq!(
        found(&swapped),
        pairs(&[("W0202", "Q = 2 when T >= T_high;")])
    );
}

#[test]
fn w0203_overwritten_rule() {
    let body = "
    output real x = 1, y;
    y = 1 when x > 0;
    y = 2;
    x = integral(-x);";
    assert_eq!(found(body), pairs(&[("W0203", "y = 1 when x > 0;")]));
    // Read in between, or read by the later rule: the first rule matters.
    let read_between = "
    output real x = 1, y, z;
    y = 1 when x > 0;
    z = y;
    y = 2;
    x = integral(-x);";
    assert!(warnings(read_between).is_empty());
    let read_later = "
    output real x = 1, y;
    y = 1 when x > 0;
    y = integral(1);
    x = integral(-x);";
    assert!(warnings(read_later).is_empty());
    let via_pred = "
    output real x = 1, y, z;
    pred big = y > 3;
    y = 1 when x > 0;
    z = 1 when big;
    y = 2;
    x = integral(-x);";
    assert!(warnings(via_pred).is_empty());
}

#[test]
fn w0204_set_and_clear() {
    let body = "
    param T_low = 19.5, T_high = 20.5;
    output real T = 12;
    output flag heating;
    when T >= T_high => !heating;
    when T <= T_low => heating;
    T = integral(1);";
    assert!(warnings(body).is_empty(), "hysteresis with T_low < T_high");
    let wrong = body.replace("T_low = 19.5, T_high = 20.5", "T_low = 20.5, T_high = 19.5");
    assert_eq!(found(&wrong), pairs(&[("W0204", "heating")]));
    let one_rule = "
    output real x = 1;
    output flag q;
    when x > 0 => q, !q;
    x = integral(-x);";
    let ws = warnings(one_rule);
    assert_eq!(ws.len(), 1);
    assert_eq!(ws[0].message, "this rule both sets and clears `q`");
    // A later guard that reads the flag reacts to the earlier action.
    let machine = "
    output real x = 1;
    output flag braking, done;
    when x < 0.5 & !done => braking;
    when braking & x < 0.1 => done, !braking;
    x = integral(-x);";
    assert!(warnings(machine).is_empty(), "{:?}", warnings(machine));
}

#[test]
fn w0204_submodel_switches() {
    let src = "
model S { output real y = 1; y = integral(-y); }
model P {
    output real x = 1, z;
    sub s: S;
    when x > 0 => s.on;
    when x > 1 => !s.on;
    z = s.y;
    x = integral(1);
}";
    let out = check_source("p.sit", src);
    let ws: Vec<(&str, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.code, out.sources.text(d.span)))
        .collect();
    assert_eq!(ws, [("W0204", "!s.on")]);
    assert!(
        out.diagnostics[0]
            .message
            .contains("`s.on` can be switched on and off")
    );
}

#[test]
fn w0205_never_and_always() {
    let body = "
    param R = 30;
    output real h = 1, Vy;
    pred rising = Vy > 0;
    pred falling = Vy < 0;
    output situation both = rising & falling;
    event hit = h < 0;
    output situation hit_high = hit & h > 0;
    Vy = integral(-1) when h > 0 | h <= 0;
    h = integral(Vy);
    when h < R { Vy = 0 when h >= R; }";
    assert_eq!(
        found(body),
        pairs(&[
            ("W0205", "both"),
            ("W0205", "hit_high"),
            ("W0205", "h > 0 | h <= 0"),
            ("W0205", "h >= R"),
        ])
    );
    // `always` is the formalism's unconditional situation: no warning.
    let always = "
    output real x = 1;
    situation ever_true = always;
    x = integral(-x) when ever_true;";
    assert!(warnings(always).is_empty());
}

#[test]
fn w0205_guard_reading_an_impossible_situation_is_reported_once() {
    let body = "
    output real x = 1;
    output flag q;
    situation never = x > 1 & x < 0;
    when never => q;
    x = integral(-x);";
    assert_eq!(found(body), pairs(&[("W0205", "never")]));
}

#[test]
fn w0206_otherwise_order() {
    let first = "
    output real x = 1, y;
    y = 0 otherwise;
    y = 1 when x > 0.5;
    x = integral(-x);";
    assert_eq!(found(first), pairs(&[("W0206", "y = 0 otherwise;")]));
    let alone = "
    output real x = 1, y;
    y = 0 otherwise;
    x = integral(-x);";
    let ws = warnings(alone);
    assert_eq!(ws[0].message, "the `otherwise` rule for `y` always fires");
    let after = "
    output real x = 1, y;
    y = 1 when x > 0.5;
    y = 0 otherwise;
    y = 2 when x < 0.1;
    x = integral(-x);";
    assert_eq!(found(after), pairs(&[("W0206", "y = 2 when x < 0.1;")]));
}

#[test]
fn large_searches_stay_silent_and_fast() {
    // 14 preds over three scalars with 14 thresholds each: 29³ assignments,
    // more than the solver tries, so the overlap is not claimed either way.
    let preds: String = (0..14)
        .map(|i| format!("pred p{i} = a > {i} | b > {i} | c > {i};\n"))
        .collect();
    let all: Vec<String> = (0..14).map(|i| format!("p{i}")).collect();
    let body = format!(
        "output real a, b, c, y;\n{preds}output situation s = {};\n\
         y = 1 when s;\ny = 2 when s & a > 100;\na = integral(1);\nb = a;\nc = b;",
        all.join(" & ")
    );
    let start = std::time::Instant::now();
    let ws = warnings(&body);
    assert!(ws.iter().all(|d| d.code != "W0202"), "{ws:?}");
    // Bounded work: far below this on any machine.
    assert!(start.elapsed().as_secs() < 10);
}

/// The errors of a model given as `model M { ... }` text, with their primary text.
fn errors(src: &str) -> Vec<(String, String, String)> {
    let out = check_source("m.sit", src);
    (out.diagnostics.iter())
        .filter(|d| d.is_error())
        .map(|d| {
            let code = d.code.to_string();
            (
                code,
                d.message.clone(),
                out.sources.text(d.span).to_string(),
            )
        })
        .collect()
}

#[test]
fn w0207_a_read_before_the_rule_is_a_delay_and_prev_says_it_is_meant() {
    let body = "
    output real a, b;
    a = b + 1;
    b = 2 * time + 3;";
    let out = warnings(body);
    assert_eq!(out.len(), 1, "{out:?}");
    let d = &out[0];
    assert_eq!(d.code, "W0207");
    assert!(
        d.message.contains("`b` is read before its rule"),
        "{}",
        d.message
    );
    // Both places: the read and the rule, later.
    assert_eq!(d.related.len(), 1);
    assert!(d.help.as_deref().unwrap_or("").contains("prev(b)"));
    assert!(warnings(&body.replace("a = b + 1", "a = prev(b) + 1")).is_empty());
    // In the right order there is nothing to say.
    assert!(warnings("output real a, b;\n b = 2 * time + 3;\n a = b + 1;").is_empty());
    // Integrals and latches are read before their rules on purpose: the state's value.
    assert!(warnings("output real v = 1, x;\n x = v * 2;\n v = integral(-v);").is_empty());
    assert!(warnings("output real n;\n output real m;\n m = n;\n n = n + 1;").is_empty());
}

#[test]
fn e0476_an_algebraic_loop_is_refused_with_its_whole_path() {
    let src = "model M {
    param r = 1, gain = 0.5;
    output real e, y;
    e = r - y;
    y = gain * e;
}
";
    let got = errors(src);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "E0476");
    assert_eq!(got[0].1, "algebraic loop: `e` reads `y`, `y` reads `e`");
    assert_eq!(got[0].2, "e = r - y;");
    // Through three rules and a guard, every step named in order.
    let src3 = "model M {
    output real a, b, c;
    a = c + 1;
    b = 2 * a;
    c = 1 when b > 3;
    c = b otherwise;
}
";
    let got = errors(src3);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0].1,
        "algebraic loop: `a` reads `c`, `c` reads `b`, `b` reads `a`"
    );
    // `prev` marks the delay: no loop, and no warning either.
    assert!(errors(&src.replace("e = r - y", "e = r - prev(y)")).is_empty());
    let out = check_source("m.sit", &src.replace("e = r - y", "e = r - prev(y)"));
    assert!(out.diagnostics.is_empty(), "{}", out.render());
}

#[test]
fn w0208_a_binding_that_reads_a_value_computed_later() {
    let part = "model Part {
    input real u;
    output real out;
    out = u;
}
";
    let parent = |bindings: &str| {
        format!(
            "{part}model M {{
    output real v;
    sub a: Part({bindings});
    sub b: Part(u = time);
    output real s;
    v = 2 * time;
    s = a.out + b.out;
}}
"
        )
    };
    let codes = |src: &str| {
        let out = check_source("m.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        (out.diagnostics.iter())
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        codes(&parent("u = v")),
        [(
            "W0208".to_string(),
            "the binding of `a` reads `v`, which `M` computes later in the step".to_string()
        )]
    );
    assert_eq!(
        codes(&parent("u = b.out")),
        [(
            "W0208".to_string(),
            "the binding of `a` reads `b`, which steps after `a`".to_string()
        )]
    );
    assert!(codes(&parent("u = prev(v)")).is_empty());
    assert!(codes(&parent("u = prev(b.out)")).is_empty());
    // `prev` of a submodel that has already stepped is refused.
    let wrong = format!(
        "{part}model M {{
    output real v;
    sub b: Part(u = time);
    sub a: Part(u = prev(b.out));
    v = prev(a.out);
}}
"
    );
    let got = errors(&wrong);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got.iter().all(|e| e.0 == "E0153"), "{got:?}");
}

#[test]
fn a_placed_step_reads_the_rules_above_it() {
    let part = "model Part {
    input real u;
    output real out;
    out = u;
}
";
    let parent = |bindings: &str, body: &str| {
        format!(
            "{part}model M {{
    output real v, s;
    sub a: Part({bindings});
    sub b: Part(u = time);
    {body}
}}
"
        )
    };
    let codes = |src: &str| {
        let out = check_source("m.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        (out.diagnostics.iter())
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect::<Vec<_>>()
    };
    // Below the rule computing `v`: the binding reads this step's `v`.
    assert!(
        codes(&parent(
            "u = v",
            "v = 2 * time; step(a); s = a.out + b.out;"
        ))
        .is_empty()
    );
    // Above it: still the previous step's, and W0208 says so.
    assert_eq!(
        codes(&parent(
            "u = v",
            "step(a); v = 2 * time; s = a.out + b.out;"
        )),
        [(
            "W0208".to_string(),
            "the binding of `a` reads `v`, which `M` computes later in the step".to_string()
        )]
    );
    // `b` steps before the rules, so before a placed `a`: a reads b's new output.
    assert!(codes(&parent("u = b.out", "v = 1; step(a); s = a.out + v;")).is_empty());
    // Placed in the other order, `b` steps after `a`.
    let src = format!(
        "{part}model M {{
    output real s;
    sub a: Part(u = b.out);
    sub b: Part(u = time);
    step(a);
    step(b);
    s = a.out;
}}
"
    );
    assert_eq!(
        codes(&src),
        [(
            "W0208".to_string(),
            "the binding of `a` reads `b`, which steps after `a`".to_string()
        )]
    );
    // `prev(b.out)` in the binding of a submodel that steps after `b` is refused.
    let src = format!(
        "{part}model M {{
    output real s;
    sub a: Part(u = prev(b.out));
    sub b: Part(u = time);
    step(b);
    step(a);
    s = a.out;
}}
"
    );
    let got = errors(&src);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "E0153");
}

/// Issue 47: `==` and `!=` on a real that changes continuously (an integral, a lag,
/// `time`, what is computed from them, a sum of steps that are not whole numbers, a
/// submodel's output of those) is W0210 at the comparison; values exact by
/// construction are not reported.
#[test]
fn exact_comparisons_of_inexact_reals() {
    let got = found(
        "param k = 2, step = 0.1;
         input real u;
         output real x, y, n = 0, c = 0, e = 0, s = 0, v = 1, g, hits = 0;
         output flag full;
         pred at = x == 0.3;
         x = integral(1);
         y = 2 * x;
         n = n + 1;
         c = c + step;
         e = e + 2;
         s = 2 when full;
         s = 0 otherwise;
         v = integral(-v) when !full;
         v = 0 otherwise;
         g = round(x);
         hits = hits + 1 when y != 0.6;
         hits = hits + 1 when time == 0.25;
         hits = hits + 1 when c == 0.3;
         hits = hits + 1 when n == 3 | e == 4 | s == 2 | u == 1 | k == 2 | g == 1 | v == 0;
         when at => full;",
    );
    assert_eq!(
        got,
        pairs(&[
            ("W0210", "x == 0.3"),
            ("W0210", "y != 0.6"),
            ("W0210", "time == 0.25"),
            ("W0210", "c == 0.3"),
        ])
    );
    let src = "model Tank { output real level = 1; level = integral(-level); }
        model M { sub t: Tank; output real n = 0; n = n + 1 when t.level == 0.5; }";
    let out = check_source("m.sit", src);
    let d: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.code == "W0210")
        .collect();
    assert_eq!(d.len(), 1, "{}", out.render());
    assert!(
        d[0].message.contains("`t.level`, which is an integral"),
        "{}",
        d[0].message
    );
    // Allowed where it is meant.
    let allowed = "model M { output real x, n = 0; x = integral(1);
        #[allow(W0210, reason = \"a test\")]
        n = n + 1 when x == 0.3; }";
    assert!(check_source("m.sit", allowed).diagnostics.is_empty());
}
