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
    let code = match sit_codegen::generate(program, &Default::default()) {
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
