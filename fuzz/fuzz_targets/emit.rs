//! Check, generate Rust, and parse the output with `syn`: a checked model must always
//! give code that parses.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = sit_fuzz::source(data);
    let out = sit_fuzz::check(&text);
    let Some(program) = out.program.as_ref().filter(|_| !out.has_errors()) else {
        return;
    };
    let lowered = match sit_middle::lower::Lowered::new(program, Default::default()) {
        Ok(lowered) => lowered,
        Err(e) => panic!("a checked program does not lower: {e}"),
    };
    let code = match sit_codegen::generate(&lowered, &Default::default()) {
        Ok(code) => code,
        Err(e) => panic!(
            "generation failed on a checked program: {e}\n{}",
            String::from_utf8_lossy(&text)
        ),
    };
    if let Err(e) = syn::parse_file(&code) {
        panic!("generated code does not parse: {e}\n{code}");
    }
});
