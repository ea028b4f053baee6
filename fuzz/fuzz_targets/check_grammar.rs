//! Parse and check random valid models with byte-level edits (see `sit_fuzz::input`);
//! an input that asks for a known invalid construct without edits must be refused, with
//! its code (two rates on one state: E0477) unless the file without it is refused too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = sit_fuzz::input(data);
    let out = sit_fuzz::check(&input.text);
    if let Some(refusal) = &input.must_refuse {
        let coded = out.diagnostics.iter().any(|d| d.code == refusal.code);
        assert!(
            out.program.is_none() && (coded || sit_fuzz::check(&refusal.without).has_errors()),
            "not refused with {}:\n{}",
            refusal.code,
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
