//! Parse and check random valid models with byte-level edits (see `sit_fuzz::source`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = sit_fuzz::source(data);
    let out = sit_fuzz::check(&text);
    let _ = out.render();
    for d in &out.diagnostics {
        let _ = d.to_json(&out.sources);
    }
    if let Some(p) = &out.program {
        let _ = p.dump();
    }
});
