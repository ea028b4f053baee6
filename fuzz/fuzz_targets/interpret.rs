//! Check, instantiate every root model with the interpreter and run it for a few hundred
//! steps (with a reset in the middle): must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sit_runtime::Model;

fuzz_target!(|data: &[u8]| {
    let text = sit_fuzz::source(data);
    let out = sit_fuzz::check(&text);
    let Some(program) = out.program.as_ref().filter(|_| !out.has_errors()) else {
        return;
    };
    let dt = [0.01, 1e-3, 0.5, 0.0, 1e300][data.len() % 5];
    let Ok(lowered) = sit_middle::lower::Lowered::new(program, Default::default()) else {
        return;
    };
    for root in program.roots() {
        let mut m = match sit_interp::Instance::try_new(&lowered, root) {
            Ok(m) => m,
            // A valid tree beyond the interpreter's size limits is refused, not a bug.
            Err(e) if e.is_too_large() => continue,
            Err(e) => panic!("checked program rejected by the interpreter: {e}"),
        };
        for k in 0..300 {
            m.step(dt);
            if k == 150 {
                m.reset();
            }
        }
        let _ = m.step_checked(dt);
        for i in 0..m.var_count() {
            let _ = m.get_at(i);
        }
    }
});
