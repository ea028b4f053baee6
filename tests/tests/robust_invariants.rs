//! Invariants on random valid models (`sit_synth::random_file`): the interpreter never
//! panics on a checked model, its checked mode agrees with the normal step, and the
//! generated Rust of every random model parses.

use sit_interp::Instance;
use sit_runtime::Model;
use sit_synth::{Size, random_file};

/// How many random files the interpreter runs (a few seconds in all).
const SEEDS: u64 = 200;
/// How many random files are generated and parsed (formatting and parsing with `syn`
/// cost about 40 ms a file).
const EMIT_SEEDS: u64 = 150;

/// A size that varies with the seed, from one tiny model to several large ones.
fn size(seed: u64) -> Size {
    Size {
        models: 1 + (seed % 4) as usize,
        reals: 1 + (seed % 7) as usize,
        rules: 4 + (seed % 17) as usize,
    }
}

fn program(seed: u64) -> sit_middle::ir::Program {
    let text = random_file(seed, size(seed));
    let out = sit_middle::check_source(format!("random_{seed}.sit"), &text);
    match out.program {
        Some(p) if !out.has_errors() => p,
        _ => panic!(
            "seed {seed}: random model does not check:\n{}\n{text}",
            out.render()
        ),
    }
}

#[test]
fn the_interpreter_runs_every_random_model_without_panicking() {
    for seed in 0..SEEDS {
        let program = program(seed);
        for root in program.roots() {
            let mut m = Instance::try_new(
                &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
                root,
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            // Steps of every scale, zero included (deriv divides by it).
            let dts = [0.01, 0.0, 1e-9, 0.5, 1e3];
            for k in 0..300 {
                // Under `dopri5`, a step the method cannot finish within its bound of
                // internal steps or of located events is the model's fault, reported as
                // such: the run ends.
                match sit_runtime::catch_fault(|| m.step(dts[k % dts.len()])) {
                    Ok(()) => {}
                    Err(fault) if fault.kind.is_method() => break,
                    Err(fault) => panic!("seed {seed}: {fault}"),
                }
                if k == 200 {
                    m.reset();
                }
            }
            for i in 0..m.var_count() {
                assert!(m.get_at(i).is_some(), "seed {seed}: variable {i}");
            }
        }
    }
}

#[test]
fn checked_steps_agree_with_steps_until_the_first_fault() {
    for seed in 0..SEEDS / 3 {
        let program = program(seed);
        for root in program.roots() {
            let mut plain = Instance::new(
                &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
                root,
            );
            let mut checked = plain.clone();
            for k in 0..300 {
                // A plain step may end in a fault of the model (rates that stay
                // non-finite end an adaptive method on its bound of internal steps);
                // the checked step must then have stopped at a non-finite value first,
                // or met the same fault.
                let ended = sit_runtime::catch_fault(|| plain.step(0.01)).err();
                let fault = match sit_runtime::catch_fault(|| checked.step_checked(0.01)) {
                    Ok(fault) => fault,
                    // A fault of the model that is no non-finite value (the events of a
                    // random model chattering in a sub-step): the plain step has the same.
                    Err(f) => {
                        assert_eq!(ended.as_ref(), Some(&f), "seed {seed}, step {k}");
                        break;
                    }
                };
                assert!(
                    ended.is_none() || fault.is_err(),
                    "seed {seed}, step {k}: the plain step faulted, the checked one did not"
                );
                let values = |m: &Instance| -> Vec<u64> {
                    (0..m.var_count())
                        .map(|i| m.get_at(i).unwrap_or(0.0).to_bits())
                        .collect()
                };
                match fault {
                    Ok(()) => {
                        assert_eq!(values(&plain), values(&checked), "seed {seed}, step {k}");
                    }
                    Err(e) => {
                        // The fault is real: the variable it names holds a non-finite value
                        // (a method's memory is a hidden state, found by `hidden_index`).
                        let index = (checked.var_index(&e.var))
                            .or_else(|| checked.hidden_index(&e.var))
                            .expect("the fault names a variable");
                        let value = checked.get_at(index).unwrap_or(0.0);
                        assert!(
                            !value.is_finite(),
                            "seed {seed}: {e}, but `{}` = {value}",
                            e.var
                        );
                        assert!(e.origin.is_some(), "seed {seed}: {e}");
                        break;
                    }
                }
            }
        }
    }
}

#[test]
fn the_generated_rust_of_every_random_model_parses() {
    for seed in 0..EMIT_SEEDS {
        let program = program(seed);
        let code = sit_codegen::generate(
            &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if let Err(e) = syn::parse_file(&code) {
            panic!("seed {seed}: generated code does not parse: {e}\n{code}");
        }
    }
}
