//! Parse and check raw bytes: must never panic, and must render its diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let out = sit_fuzz::check(data);
    let _ = out.render();
    for d in &out.diagnostics {
        let _ = d.to_json(&out.sources);
    }
});
