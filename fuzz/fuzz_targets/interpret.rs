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
    // At most 30 steps and about 1.5 s of model time (at least 3 steps), a reset half
    // way. The random files declare adaptive and implicit methods and sub-steps since
    // issue 53, whose steps cost far more than euler's, ten times more again under the
    // fuzzer's instrumentation: 300 steps of 0.01 of a file with `radau5` submodels
    // under sub-steps took 0.3 s uninstrumented and 1.9 s here (100 steps still 0.9 s),
    // 300 steps of 0.5 under `dop853` a second, 300 of 1e300 (hundreds of internal
    // steps each) seconds: the methods doing their work, not a hang, but past the
    // timeout of a second that catches the hangs. Three steps reach the clock's
    // overflow.
    let steps = ((1.5 / dt) as usize).clamp(3, 30);
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
