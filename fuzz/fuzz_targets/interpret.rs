//! Check, lower, instantiate every root model with the interpreter and run it for a few
//! hundred steps (with a reset in the middle): must never panic. A checked program must
//! lower (an "invalid checked program" must never reach a user); a model may stop
//! itself with a `sit_runtime::ModelFault` (a phase or a method past its limit), which
//! is caught, not a finding.
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
    // At most 300 steps and about 10 s of model time (at least 3 steps): under an
    // adaptive or implicit method (which the random files declare since issue 53) the
    // work of a step grows with its length, so 300 steps of 0.5 (150 s of a `dop853` and
    // a `radau5` submodel) took a second, and of 1e300 (hundreds of internal steps
    // each) seconds; three reach the clock's overflow.
    let steps = ((10.0 / dt) as usize).clamp(3, 300);
    let lowered = match sit_middle::lower::Lowered::new(program, Default::default()) {
        Ok(lowered) => lowered,
        // Inlining past the back ends' budget is refused with a message, not a bug.
        Err(sit_middle::lower::LowerError::TooLarge(_)) => return,
        Err(e) => panic!("a checked program does not lower: {e}"),
    };
    sit_runtime::quiet_fault_panics();
    for root in program.roots() {
        let mut m = match sit_interp::Instance::try_new(&lowered, root) {
            Ok(m) => m,
            // A valid tree beyond the interpreter's size limits is refused, not a bug.
            Err(e) if e.is_too_large() => continue,
            Err(e) => panic!("checked program rejected by the interpreter: {e}"),
        };
        let _ = sit_runtime::catch_fault(|| {
            for k in 0..steps {
                m.step(dt);
                if k == steps / 2 {
                    m.reset();
                }
            }
            let _ = m.step_checked(dt);
        });
        for i in 0..m.var_count() {
            let _ = m.get_at(i);
        }
    }
});
