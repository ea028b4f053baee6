//! Modes in the checker and the logic lints: two states of one mode exclude each
//! other, so a state machine written with a mode raises none of the warnings that the
//! same machine written with one flag per state does.

use sit_check::check_source;

/// The diagnostic codes of `src` (which must have no error).
fn codes(src: &str) -> Vec<String> {
    let out = check_source("m.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    out.diagnostics.iter().map(|d| d.code.to_string()).collect()
}

/// The error codes of `src`.
fn errors(src: &str) -> Vec<String> {
    let out = check_source("m.sit", src);
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.to_string())
        .collect()
}

const WITH_MODE: &str = "
model Light {
    param t_red = 30, t_green = 25, t_yellow = 5;
    output mode light { red, green, yellow }
    output real elapsed, brightness;
    elapsed = integral(1);
    light: red -> green when elapsed >= t_red { elapsed = 0; }
    light: green -> yellow when elapsed >= t_green { elapsed = 0; }
    light: yellow -> red when elapsed >= t_yellow { elapsed = 0; }
    brightness = 1 when light == red;
    brightness = 2 when light == green;
    brightness = 3 when light == yellow;
}
";

/// The same light with one flag per state: the solver cannot know that the flags are
/// exclusive.
const WITH_FLAGS: &str = "
model Light {
    param t_red = 30, t_green = 25, t_yellow = 5;
    output flag red = true, green, yellow;
    output real elapsed, brightness;
    elapsed = integral(1);
    when red & elapsed >= t_red => !red, green;
    when green & elapsed >= t_green => !green, yellow;
    when yellow & elapsed >= t_yellow => !yellow, red;
    elapsed = 0 when red & elapsed >= t_red;
    brightness = 1 when red;
    brightness = 2 when green;
    brightness = 3 when yellow;
}
";

#[test]
fn a_light_with_a_mode_has_no_warning() {
    assert_eq!(codes(WITH_MODE), Vec::<String>::new());
}

#[test]
fn the_same_light_with_flags_has_false_warnings() {
    let found = codes(WITH_FLAGS);
    assert!(found.iter().any(|c| c == "W0202"), "{found:?}");
    assert!(found.iter().any(|c| c == "W0204"), "{found:?}");
}

#[test]
fn states_that_can_hold_together_are_still_reported() {
    // `light == red` and `light != green` hold together in red: a real overlap.
    let src = WITH_MODE.replace(
        "brightness = 2 when light == green;",
        "brightness = 2 when light != green;",
    );
    assert!(codes(&src).contains(&"W0202".to_string()));
    // Two states at once never hold.
    let src = WITH_MODE.replace(
        "brightness = 3 when light == yellow;",
        "brightness = 3 when light == yellow & light == red;",
    );
    assert!(codes(&src).contains(&"W0205".to_string()));
}

#[test]
fn transitions_nest_in_blocks_and_parents_read_output_modes() {
    let src = "
model Light {
    input flag enabled = true;
    output mode light { red, green }
    when enabled {
        light: red -> green when time > 1;
        light: green -> red when time > 2;
    }
}
model Crossing {
    output real cars;
    sub a: Light;
    cars = integral(1) when a.light == green;
}
";
    assert_eq!(errors(src), Vec::<String>::new());
    let private = src.replace("output mode light", "mode light");
    assert_eq!(errors(&private), ["E0143"]);
}

#[test]
fn a_mode_is_not_a_target() {
    let src = "
model Light {
    output mode light { red, green }
    when time > 1 => light;
}
";
    assert_eq!(errors(src), ["E0170"]);
    let src = "
model Light {
    output mode light { red, green }
    output real x;
    light = 1;
    x = 1;
}
";
    assert_eq!(errors(src), ["E0170"]);
}

/// Issue 47: a misspelt state in a comparison is one error (E0422), not also the mode
/// read as a value (E0421) and the state as an unknown name (E0101); the same for
/// `!=` and a submodel's mode.
#[test]
fn a_misspelt_state_is_one_error() {
    let room = "
model Room {
    output mode heater { off, on }
    output real T = 15;
    T = integral(1) when heater OP onn;
    T = integral(-1) otherwise;
    heater: off -> on when T < 18;
    heater: on -> off when T > 22;
}
model House {
    sub room: Room;
    output real lamp;
    lamp = 1 when room.heater == offf;
    lamp = 0 otherwise;
}
";
    for op in ["==", "!="] {
        let src = room.replace("OP", op);
        assert_eq!(errors(&src), ["E0422", "E0422"], "{op}");
        let out = check_source("m.sit", &src);
        let helps: Vec<_> = (out.diagnostics.iter())
            .map(|d| d.help.clone().unwrap_or_default())
            .collect();
        assert_eq!(helps, ["did you mean `on`?", "did you mean `off`?"]);
    }
}
