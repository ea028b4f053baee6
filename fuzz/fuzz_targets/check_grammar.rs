//! Parse and check random valid models with byte-level edits (see `sit_fuzz::input`);
//! an input that asks for a known invalid construct without edits must be refused with
//! its code (two rates on one state: E0477), never accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = sit_fuzz::input(data);
    let out = sit_fuzz::check(&input.text);
    if let Some(code) = input.must_refuse {
        assert!(
            out.program.is_none() && out.diagnostics.iter().any(|d| d.code == code),
            "not refused with {code}:\n{}",
            String::from_utf8_lossy(&input.text)
        );
    }
    let _ = out.render();
    for d in &out.diagnostics {
        let _ = d.to_json(&out.sources);
    }
    if let Some(p) = &out.program {
        let _ = p.dump();
    }
});
