//! Long rule lists: `step` in pieces (private `#[inline(never)]` methods called in
//! textual order), and `otherwise` flags set only where a read can see them.

fn generate(src: &str) -> String {
    let out = sit_middle::check_source("t.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    let lowered =
        sit_middle::lower::Lowered::new(out.program.as_ref().unwrap(), Default::default());
    sit_codegen::generate(&lowered.unwrap(), &Default::default()).unwrap()
}

/// The inherent `step` of the generated code (up to `reset`, which follows it and holds
/// the initial pass with its own flags).
fn step_of(code: &str) -> &str {
    let start = code.find("pub fn step(").unwrap();
    let end = start + code[start..].find("pub fn reset(").unwrap();
    &code[start..end]
}

/// A model with `n` top-level rules after a guarded rule of `y`, and `y`'s `otherwise`
/// rule last; `pred` adds a pred with that name.
fn long_model(n: usize, pred: Option<&str>) -> String {
    let mut s = String::from("model Long {\n    input flag a;\n    output real y = 0;\n");
    for i in 0..n {
        s.push_str(&format!("    output real x{i} = 0;\n"));
    }
    if let Some(p) = pred {
        s.push_str(&format!("    output pred {p} = y > 0;\n"));
    }
    s.push_str("    y = 1 when a;\n");
    for i in 0..n {
        s.push_str(&format!("    x{i} = integral(1);\n"));
    }
    s.push_str("    y = 2 otherwise;\n}\n");
    s
}

#[test]
fn up_to_500_top_level_rules_step_holds_them() {
    let code = generate(&long_model(498, None));
    assert!(!code.contains("step_part"), "500 rules: no pieces");
    assert!(code.contains("let mut fired_0 = false;"));
}

#[test]
fn a_long_rule_list_is_split_in_order_with_the_flags_passed() {
    // 1 001 top-level rules: three pieces of 333, 334 and 334.
    let code = generate(&long_model(999, None));
    let calls: Vec<&str> = code
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("self.step_part_"))
        .collect();
    assert_eq!(
        calls,
        [
            "self.step_part_0(dt, &mut fired);",
            "self.step_part_1(dt);",
            "self.step_part_2(dt, &mut fired);",
        ]
    );
    assert!(code.contains("let mut fired = [false; 1];"));
    assert_eq!(code.matches("#[inline(never)]").count(), 3);
    assert!(code.contains("fn step_part_0(&mut self, dt: f64, fired: &mut [bool; 1])"));
    assert!(code.contains("fired[0] = true;"));
    assert!(code.contains("if !fired[0] {"));
    assert!(!step_of(&code).contains("fired_0"));
    // The clock advances after the last piece.
    let step = &code[code.find("pub fn step(").unwrap()..];
    let last_call = step.find("self.step_part_2(").unwrap();
    let clock = step.find("self.time = self.clock.advance(dt);").unwrap();
    assert!(last_call < clock);
    // The rules are in textual order across the pieces.
    let first = code.find("self.x0 = ").unwrap();
    let last = code.find("self.x998 = ").unwrap();
    assert!(code.find("fn step_part_0").unwrap() < first);
    assert!(code.find("fn step_part_2").unwrap() < last);
}

#[test]
fn piece_names_avoid_the_models_own_methods() {
    let code = generate(&long_model(999, Some("step_part_0")));
    assert!(code.contains("pub fn step_part_0(&self) -> bool"));
    assert!(code.contains("fn step_part_0_(&mut self"));
    assert!(code.contains("self.step_part_0_(dt, &mut fired);"));
}

#[test]
fn a_flag_set_twice_before_its_read_is_set_once() {
    let code = generate(
        "model M { input flag a; output real x = 0;
         when a { x = 1; x = 2; } x = 3 otherwise; }",
    );
    assert_eq!(
        step_of(&code).matches("fired_0 = true;").count(),
        1,
        "{code}"
    );
}
