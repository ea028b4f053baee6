//! Compiled models and the interpreter produce bit-identical traces: every
//! example model and a set of random valid models (`sit-synth`), through
//! steps, resets and changed params.

use sit_runtime::Model;
use std::path::PathBuf;

use sit_tests::{compiled, counted};

fn source_of(stem: &str) -> PathBuf {
    if let Some((_method, stem)) = stem.split_once(':') {
        return source_of(stem);
    }
    let root = sit_tests::repo_root();
    if let Some(seed) = stem.strip_prefix("random_") {
        let dir = PathBuf::from(env!("OUT_DIR")).join("random");
        let _ = seed;
        return dir.join(format!("{stem}.sit"));
    }
    let mut found = Vec::new();
    find(
        &root.join("examples/models"),
        &format!("{stem}.sit"),
        &mut found,
    );
    for ext in ["sch", "sit"] {
        let drawn = root.join(format!("examples/schematics/{stem}.{ext}"));
        if drawn.exists() {
            found.push(drawn);
        }
    }
    assert_eq!(found.len(), 1, "one example named {stem}.sit");
    found.pop().unwrap()
}

fn find(dir: &std::path::Path, name: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            find(&p, name, out);
        } else if p.file_name().is_some_and(|n| n == name) {
            out.push(p);
        }
    }
}

/// Compare every variable and hidden state of both models, bit for bit. NaNs compare equal
/// whatever their sign and payload: Rust leaves those unspecified (LLVM may
/// fold `0.0 / 0.0` to a positive NaN where the processor makes a negative
/// one), so no two programs can promise them.
fn same(label: &str, step: usize, a: &dyn Model, b: &dyn Model) {
    assert_eq!(
        a.time().to_bits(),
        b.time().to_bits(),
        "{label}: time at step {step}"
    );
    for i in 0..a.var_count() + a.hidden_count() {
        let (x, y) = (a.get_at(i).unwrap(), b.get_at(i).unwrap());
        assert!(
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
            "{label}: `{}` differs at step {step}: compiled {x:?}, interpreted {y:?}",
            a.var_info(i).unwrap().name
        );
    }
}

/// One step of both; `false` if both stopped with the same overrun of an adaptive
/// method's internal steps (a fault of the model that both must report alike).
fn step_both(label: &str, k: usize, comp: &mut dyn Model, interp: &mut dyn Model, dt: f64) -> bool {
    use sit_runtime::catch_fault;
    let message = |r: Result<(), sit_runtime::ModelFault>| match r {
        Ok(()) => None,
        Err(f) if f.kind.is_method() => Some(f.to_string()),
        Err(f) => panic!("{label}: step {k}: a fault that is not the method's: {f}"),
    };
    let a = message(catch_fault(|| comp.step(dt)));
    let b = message(catch_fault(|| interp.step(dt)));
    assert_eq!(a, b, "{label}: step {k} stops differently");
    a.is_none()
}

/// Runs both through steps, a reset and changed params; `false` if both stopped alike
/// with an overrun of an adaptive method (see [`step_both`]).
fn check_pair(
    stem: &str,
    model: &str,
    make: fn() -> Box<dyn Model>,
    dt: f64,
    steps: usize,
) -> bool {
    let label = format!("{stem}::{model}");
    let out = sit_driver::check_file(source_of(stem)).expect("readable");
    let mut program = out.program.expect("checked");
    // A twin under another method (`METHOD:STEM`), with that method's defaults.
    if let Some((method, _)) = stem.split_once(':') {
        let method = sit_middle::ir::Method::from_name(method).expect("a method's name");
        program
            .set_method(method)
            .unwrap_or_else(|_| panic!("{label}: splits for {}", method.name()));
    }
    let id = program.model(model).expect("model");
    let mut interp = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        id,
    );
    let mut comp = make();
    // Same variable table: names, kinds, types, settability.
    assert_eq!(
        comp.var_count(),
        interp.var_count(),
        "{label}: variable count"
    );
    assert_eq!(
        comp.hidden_count(),
        interp.hidden_count(),
        "{label}: hidden state count"
    );
    for i in 0..comp.var_count() + comp.hidden_count() {
        assert_eq!(
            comp.var_info(i),
            interp.var_info(i),
            "{label}: variable #{i}"
        );
    }
    same(&label, 0, &*comp, &interp);
    for k in 1..=steps {
        if !step_both(&label, k, &mut *comp, &mut interp, dt) {
            return false;
        }
        same(&label, k, &*comp, &interp);
    }
    // Change every settable free param a little, reset, and run again.
    for i in 0..comp.var_count() {
        let info = comp.var_info(i).unwrap();
        if info.kind == sit_runtime::VarKind::Param && info.settable {
            let v = comp.get_at(i).unwrap() * 1.25 + 0.125;
            comp.set_at(i, v).unwrap();
            interp.set_at(i, v).unwrap();
        }
    }
    comp.reset();
    interp.reset();
    same(&label, 0, &*comp, &interp);
    for k in 1..=steps / 2 {
        if !step_both(&label, k, &mut *comp, &mut interp, dt) {
            return false;
        }
        same(&label, k, &*comp, &interp);
    }
    true
}

/// The accessors of every compiled model against the interpreter's, index by index and
/// name by name: `var_index` of every name, `set_at` of every variable and hidden state
/// (its own value, and 0.5 for a logical one: the same result, or the same error naming
/// the same index), `mode_state`, and the indices past the end. A model's generated
/// accessors hand a submodel's indices and names to the submodel's own (issue 53), so
/// this holds each model's table as seen from every model above it.
#[test]
fn every_compiled_models_accessors_match_the_interpreters() {
    let mut n = 0;
    for (stem, model, make) in compiled::all() {
        let label = format!("{stem}::{model}");
        let out = sit_driver::check_file(source_of(stem)).expect("readable");
        let mut program = out.program.expect("checked");
        if let Some((method, _)) = stem.split_once(':') {
            let method = sit_middle::ir::Method::from_name(method).expect("a method's name");
            program.set_method(method).expect("splits");
        }
        let id = program.model(model).expect("model");
        let lowered =
            sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
        let mut interp = sit_interp::Instance::new(&lowered, id);
        let mut comp = make();
        let (count, all) = (comp.var_count(), comp.var_count() + comp.hidden_count());
        for i in 0..count {
            let name = comp.var_info(i).unwrap().name.to_string();
            assert_eq!(comp.var_index(&name), Some(i), "{label}: `{name}`");
            assert_eq!(
                comp.var_index(&name),
                interp.var_index(&name),
                "{label}: `{name}`"
            );
            for state in 0..3 {
                assert_eq!(
                    comp.mode_state(i, state),
                    interp.mode_state(i, state),
                    "{label}: `{name}`, state {state}"
                );
            }
        }
        for name in [
            "",
            ".",
            "on",
            "nothing",
            "nothing.x",
            "x.",
            "t.",
            "t.nothing",
        ] {
            assert_eq!(
                comp.var_index(name),
                interp.var_index(name),
                "{label}: `{name}`"
            );
        }
        for i in 0..=all {
            let info = comp
                .var_info(i)
                .map(|info| (info.name.to_string(), info.ty));
            assert_eq!(comp.var_info(i), interp.var_info(i), "{label}: #{i}");
            let v = comp.get_at(i).unwrap_or(0.0);
            let a = format!("{:?}", comp.set_at(i, v));
            let b = format!("{:?}", interp.set_at(i, v));
            assert_eq!(a, b, "{label}: setting #{i} to its value");
            if info.is_some_and(|(_, ty)| ty == sit_runtime::ValueType::Logical) {
                let a = format!("{:?}", comp.set_at(i, 0.5));
                let b = format!("{:?}", interp.set_at(i, 0.5));
                assert_eq!(a, b, "{label}: setting #{i} to 0.5");
            }
        }
        n += 1;
    }
    assert!(n >= 60, "only {n} compiled models");
}

#[test]
fn every_example_model_matches_the_interpreter() {
    let mut n = 0;
    for (stem, model, make) in compiled::all() {
        if stem.starts_with("random_") || stem.contains(':') {
            continue;
        }
        assert!(check_pair(stem, model, make, 1e-3, 3000), "{stem}: overrun");
        n += 1;
    }
    assert!(n >= 15, "only {n} example models");
}

#[test]
fn random_models_match_the_interpreter() {
    let mut n = 0;
    for (stem, model, make) in compiled::all() {
        if !stem.starts_with("random_") {
            continue;
        }
        // A step that is not a power of two exercises rounding.
        check_pair(stem, model, make, 0.01, 2000);
        n += 1;
    }
    assert!(n >= 40, "only {n} random models");
}

#[test]
fn rk4_matches_the_interpreter_on_examples_and_random_models() {
    let (mut examples, mut random) = (0, 0);
    for (stem, model, make) in compiled::all() {
        let Some(plain) = stem.strip_prefix("rk4:") else {
            continue;
        };
        // Events are located inside rk4's steps too: a model whose events chatter
        // stops alike in both (see the dopri5 test), and is not counted.
        if plain.starts_with("random_") {
            random += usize::from(check_pair(stem, model, make, 0.01, 1000));
        } else {
            examples += usize::from(check_pair(stem, model, make, 1e-3, 1000));
        }
    }
    assert!(examples >= 10, "only {examples} example models under rk4");
    assert!(random >= 10, "only {random} random models under rk4");
}

#[test]
fn dopri5_matches_the_interpreter_on_examples_and_random_models() {
    let (mut examples, mut random) = (0, 0);
    for (stem, model, make) in compiled::all() {
        let Some(plain) = stem.strip_prefix("dopri5:") else {
            continue;
        };
        // Fewer host steps: each holds several internal steps of seven stages.
        // A model whose continuous part chatters (friction switching at every stage)
        // may stop on the bound of internal steps, or of located events (dry friction
        // reversing the speed it opposes, again and again at one instant): alike in
        // both, but not counted.
        if plain.starts_with("random_") {
            random += usize::from(check_pair(stem, model, make, 0.01, 200));
        } else {
            examples += usize::from(check_pair(stem, model, make, 1e-2, 300));
        }
    }
    assert!(
        examples >= 10,
        "only {examples} example models under dopri5"
    );
    assert!(random >= 10, "only {random} random models under dopri5");
}

#[test]
fn tsit5_matches_the_interpreter_on_examples_and_random_models() {
    let (mut examples, mut random) = (0, 0);
    for (stem, model, make) in compiled::all() {
        let Some(plain) = stem.strip_prefix("tsit5:") else {
            continue;
        };
        // As under dopri5 (the same step with other coefficients).
        if plain.starts_with("random_") {
            random += usize::from(check_pair(stem, model, make, 0.01, 200));
        } else {
            examples += usize::from(check_pair(stem, model, make, 1e-2, 300));
        }
    }
    assert!(examples >= 3, "only {examples} example models under tsit5");
    assert!(random >= 6, "only {random} random models under tsit5");
}

#[test]
fn dop853_matches_the_interpreter_on_examples_and_random_models() {
    let (mut examples, mut random) = (0, 0);
    for (stem, model, make) in compiled::all() {
        let Some(plain) = stem.strip_prefix("dop853:") else {
            continue;
        };
        // As under dopri5 (the same loop, other coefficients, three more stages for
        // the dense output at each event).
        if plain.starts_with("random_") {
            random += usize::from(check_pair(stem, model, make, 0.01, 200));
        } else {
            examples += usize::from(check_pair(stem, model, make, 1e-2, 300));
        }
    }
    assert!(examples >= 3, "only {examples} example models under dop853");
    assert!(random >= 3, "only {random} random models under dop853");
}

/// The example twins compiled under `method` (stems `METHOD:STEM`) and the random files
/// that declare it in some models (sit-synth), each checked against the interpreter:
/// how many of each passed.
fn twins_and_declared(method: &str) -> (usize, usize) {
    let (mut examples, mut random) = (0, 0);
    let (prefix, declared) = (format!("{method}:"), format!("method {method} "));
    for (stem, model, make) in compiled::all() {
        if stem.starts_with(&prefix) {
            examples += usize::from(check_pair(stem, model, make, 1e-2, 300));
        } else if stem.starts_with("random_")
            && std::fs::read_to_string(source_of(stem)).is_ok_and(|t| t.contains(&declared))
        {
            random += usize::from(check_pair(stem, model, make, 0.01, 200));
        }
    }
    (examples, random)
}

/// `rodas4`: the Jacobian's hidden rules, one LU and six stage solves per internal
/// step, by the same runtime functions in both; events on its dense output.
#[test]
fn rodas4_matches_the_interpreter_on_examples_and_random_models() {
    let (examples, random) = twins_and_declared("rodas4");
    assert!(examples >= 4, "only {examples} example models under rodas4");
    assert!(random >= 2, "only {random} random models declaring rodas4");
}

/// `rodas5p`: `rodas4`'s builder with eight stages and three dense rows.
#[test]
fn rodas5p_matches_the_interpreter_on_examples_and_random_models() {
    let (examples, random) = twins_and_declared("rodas5p");
    assert!(
        examples >= 3,
        "only {examples} example models under rodas5p"
    );
    assert!(random >= 2, "only {random} random models declaring rodas5p");
}

/// `radau5`: the Newton iteration a loop nested in the internal steps' (left at its
/// limit, `AtLimit::Leave`), the Jacobian and both factorisations kept across internal
/// and host steps in hidden states, events on the collocation polynomial.
#[test]
fn radau5_matches_the_interpreter_on_examples_and_random_models() {
    let (examples, random) = twins_and_declared("radau5");
    assert!(examples >= 4, "only {examples} example models under radau5");
    assert!(random >= 2, "only {random} random models declaring radau5");
}

/// Sparse iteration matrices (issue 49): the heat equation's method of lines (40 nodes
/// under `rodas5p` and `radau5`, 7 × 7 nodes under `rodas4`) and POLLU under `rodas5p`
/// and `radau5` (`tests/build.rs`, `random_sparse_*`) hold their matrices on the sparse
/// LU pattern, `radau5`'s complex one as complex cells, and match the interpreter bit
/// for bit through steps, a reset and changed params.
#[test]
fn sparse_iteration_matrices_match_the_interpreter() {
    let all = compiled::all();
    let mut complex = 0;
    for stem in [
        "random_sparse_heat_rodas5p",
        "random_sparse_heat_radau5",
        "random_sparse_heat2_rodas4",
        "random_sparse_pollu_rodas5p",
        "random_sparse_pollu_radau5",
    ] {
        let (stem, model, make) = all
            .iter()
            .find(|(s, _, _)| *s == stem)
            .unwrap_or_else(|| panic!("{stem} is compiled"));
        let program = sit_driver::check_file(source_of(stem))
            .expect("readable")
            .program
            .expect("checked");
        let lowered =
            sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
        let m = lowered
            .model(0, sit_middle::lower::Reads::Inline)
            .expect("lowers");
        let mut storages = Vec::new();
        sit_middle::lower::walk(&m.body, &mut |s| {
            if let sit_middle::lower::Stmt::Factor { storage, .. } = s {
                storages.push(storage.clone());
            }
        });
        assert!(
            !storages.is_empty()
                && storages
                    .iter()
                    .all(|s| matches!(s, sit_middle::lower::Storage::Sparse { .. })),
            "{stem}: {storages:?}"
        );
        complex += storages
            .iter()
            .filter(|s| matches!(s, sit_middle::lower::Storage::Sparse { complex: true, .. }))
            .count();
        assert!(check_pair(stem, model, *make, 0.01, 300), "{stem}: overrun");
    }
    assert_eq!(complex, 2, "radau5's complex systems");
}

/// README's ball, whose impact is an `event` on the height (`random_event_ball`, written
/// by `tests/build.rs`): under every method that locates, the event is located inside
/// the step and evaluated before each discrete pass, in the generated step as in the
/// interpreter, bit for bit, through three impacts (6 s in host steps of 0.1 s, then 3 s
/// after a reset with other params).
#[test]
fn an_event_located_matches_the_interpreter_under_every_method() {
    let all = compiled::all();
    let mut methods = Vec::new();
    for method in sit_middle::ir::Method::ALL {
        let stem = match method {
            sit_middle::ir::Method::Euler => "random_event_ball".to_string(),
            _ => format!("{}:random_event_ball", method.name()),
        };
        let (stem, model, make) = all
            .iter()
            .find(|(s, _, _)| *s == stem)
            .unwrap_or_else(|| panic!("{stem} is compiled"));
        assert!(check_pair(stem, model, *make, 0.1, 60), "{stem}: overrun");
        methods.push(method.name());
    }
    assert_eq!(methods.len(), 8, "{methods:?}");
}

/// The generated step writes a small `W`'s factorisation and solves as straight-line
/// code for the case in which no row swaps, and gives way to the runtime's functions
/// when one does: the stiff oscillators of `tests/build.rs` (`PIVOTS_DENSE`, a dense
/// `W`, and `PIVOTS_PATTERN`, a pattern) swap rows in most of their steps and in some
/// not (the steps of their start are short), and match the interpreter to the bit
/// (checked above, as random models declaring `rodas5p`); this checks that both paths
/// ran, from the pivot a compiled model keeps after each host step, and that the two
/// are held as they say.
#[test]
fn straight_line_lu_gives_way_to_the_runtime_after_a_row_swap() {
    for (stem, model, storage) in [
        ("random_pivots_dense", "PivotsDense", "Dense"),
        ("random_pivots_pattern", "PivotsPattern", "Pattern"),
    ] {
        let out = sit_driver::check_file(source_of(stem)).expect("readable");
        let program = out.program.expect("checked");
        let lowered =
            sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
        let m = lowered
            .model(0, sit_middle::lower::Reads::Inline)
            .expect("lowers");
        let mut held = Vec::new();
        sit_middle::lower::walk(&m.body, &mut |s| {
            if let sit_middle::lower::Stmt::Factor { storage, .. } = s {
                held.push(format!("{storage:?}"));
            }
        });
        assert!(
            held.len() == 1 && held[0].starts_with(storage),
            "{stem}: W held as {held:?}"
        );
        let (_, _, make) = compiled::all()
            .into_iter()
            .find(|(s, m, _)| *s == stem && *m == model)
            .expect("compiled");
        let mut comp = make();
        let pivot = comp.hidden_index("rodas5p_pivot1").expect("a hidden state");
        let (mut swapped, mut kept) = (0, 0);
        comp.step(1e-6);
        for _ in 0..100 {
            match comp.get_at(pivot).expect("a value") {
                0.0 => kept += 1,
                _ => swapped += 1,
            }
            comp.step(0.001);
        }
        assert!(
            swapped > 10 && kept > 0,
            "{stem}: {swapped} swapped, {kept} kept"
        );
    }
}

/// Under `dopri5` the bouncing ball lists its own variables only; the method's memories
/// are hidden states after them, reached by index, and carried by `Clone` (what an FMU
/// state saves): a copy goes on bit for bit, hidden states included.
#[test]
fn dopri5_memories_are_hidden_states_that_a_copy_carries() {
    use compiled::dopri5_bouncing_ball::BouncingBall as Dopri5;
    use compiled::m_bouncing_ball::BouncingBall as Euler;
    let names = |m: &dyn Model| -> Vec<String> {
        (0..m.var_count())
            .map(|i| m.var_info(i).unwrap().name.to_string())
            .collect()
    };
    let mut m = Dopri5::new();
    assert_eq!(names(&m), names(&Euler::new()));
    assert_eq!(Dopri5::VARIABLES.len(), m.var_count());
    let n = m.var_count();
    let hidden: Vec<&str> = (n..n + m.hidden_count())
        .map(|i| m.var_info(i).unwrap().name)
        .collect();
    for name in ["dopri5_h", "dopri5_steps", "h_dopri5_k7", "v_dopri5_yc"] {
        assert!(hidden.contains(&name), "no hidden {name} in {hidden:?}");
    }
    assert_eq!(m.get_at(n + m.hidden_count()), None);
    assert_eq!(m.var_index("dopri5_h"), None);
    assert_eq!(m.get("dopri5_h"), None);
    let h = m.hidden_index("dopri5_h").unwrap();
    for _ in 0..50 {
        m.step(0.01);
    }
    assert!(m.get_at(h).unwrap() > 0.0, "the kept step size");
    let all = |m: &dyn Model| -> Vec<u64> {
        (0..m.var_count() + m.hidden_count())
            .map(|i| m.get_at(i).unwrap().to_bits())
            .collect()
    };
    let saved = m.clone();
    assert_eq!(all(&saved), all(&m));
    for _ in 0..100 {
        m.step(0.01);
    }
    let mut again = saved.clone();
    for _ in 0..100 {
        again.step(0.01);
    }
    assert_eq!(all(&again), all(&m));
    // A hidden state is set by index like a state.
    m.set_at(h, 0.5).unwrap();
    assert_eq!(m.get_at(h), Some(0.5));
}

/// Each table's reads as `m` gives them, added up per declaration (instances of one
/// submodel merged), ordered by declaration; tables never read left out (the
/// interpreter also lists a table read only by a derived param's accessor).
fn reach_of(label: &str, m: &dyn Model) -> Vec<(String, sit_runtime::table::TableReach)> {
    let mut out: Vec<(String, u64, sit_runtime::table::TableReach)> = Vec::new();
    let counts = m.table_reach(&mut |d, r| match out.iter_mut().find(|e| e.1 == d.key) {
        Some(e) => e.2.merge(r),
        None => out.push((d.name.to_string(), d.key, *r)),
    });
    assert!(counts, "{label}: the model does not count its table reads");
    out.sort_by_key(|e| e.1);
    (out.into_iter())
        .filter(|e| e.2.reads > 0)
        .map(|(name, _, r)| (name, r))
        .collect()
}

/// The interpreter of model `model` of the counted file `stem` (`rk4:` integrated by rk4).
fn counted_interp(stem: &str, model: &str) -> sit_interp::Instance {
    let (method, file) = match (stem.strip_prefix("rk4:"), stem.strip_prefix("rodas4:")) {
        (Some(file), _) => (Some(sit_middle::ir::Method::Rk4), file),
        (_, Some(file)) => (
            Some(sit_middle::ir::Method::Rodas4(Default::default())),
            file,
        ),
        _ => (None, stem),
    };
    let path = PathBuf::from(env!("OUT_DIR")).join(format!("random/{file}.sit"));
    let mut program = (sit_driver::check_file(path).expect("readable").program).expect("checked");
    if let Some(m) = method {
        program.set_method(m).expect("splits");
    }
    let id = program.model(model).expect("model");
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        id,
    )
}

/// Lane `i` of a run: `T0` (where the model has it) from below the grid of `heat` to
/// inside it and above it.
fn prepare_lane(i: usize, m: &mut dyn Model) {
    if m.var_index("T0").is_some() {
        m.set("T0", -20.0 + 60.0 * i as f64).expect("T0");
        m.reset();
    }
}

/// Generated code built with `count_table_reach` counts every table read as the
/// interpreter does, in the scalar step and in each lane of the batch form: the same
/// reads, the same reads outside the grid per side, the same ranges seen, after the
/// initial pass, after steps, and after a reset with changed params (which starts a new
/// count); a sub-model read by a σ rule's `reset(sub)` keeps its count.
#[test]
fn generated_code_counts_table_reads_as_the_interpreter() {
    let (mut n, mut outside, mut faulted) = (0, 0, 0);
    for (stem, model, make, batch) in counted::all() {
        let label = format!("{stem}::{model}");
        let mut interp = counted_interp(stem, model);
        let mut comp = make();
        assert_eq!(
            reach_of(&label, &*comp),
            reach_of(&label, &interp),
            "{label}: after new"
        );
        let (dt, mut steps) = (0.01, 500);
        for k in 0..500 {
            // A random model may stop at an overrun of its method's limits, both alike,
            // in the middle of a step (whose reads then differ: a step that stops has
            // no result).
            if !step_both(&label, k, &mut *comp, &mut interp, dt) {
                steps = k;
                faulted += 1;
                break;
            }
            if k % 97 == 0 {
                assert_eq!(
                    reach_of(&label, &*comp),
                    reach_of(&label, &interp),
                    "{label}: step {k}"
                );
            }
        }
        let reach = reach_of(&label, &interp);
        if steps == 500 {
            assert_eq!(
                reach_of(&label, &*comp),
                reach,
                "{label}: after {steps} steps"
            );
            outside += reach.iter().map(|(_, r)| r.outside).sum::<u64>();
        }
        if model == "Leaf" {
            // One read per step, and one by the initial pass.
            assert_eq!(reach[0].1.reads, steps as u64 + 1, "{label}");
        }
        for m in [&mut *comp, &mut interp as &mut dyn Model] {
            prepare_lane(2, m);
            m.reset();
        }
        assert_eq!(
            reach_of(&label, &*comp),
            reach_of(&label, &interp),
            "{label}: after reset"
        );
        // Every lane of the batch form, from its own params.
        let lanes = batch(&prepare_lane, dt, steps);
        for (i, lane) in lanes.iter().enumerate() {
            let mut one = counted_interp(stem, model);
            prepare_lane(i, &mut one);
            for _ in 0..steps {
                one.step(dt);
            }
            same(&format!("{label} lane {i}"), steps, &**lane, &one);
            assert_eq!(
                reach_of(&label, &**lane),
                reach_of(&label, &one),
                "{label}: lane {i}"
            );
        }
        n += 1;
    }
    assert!(
        n >= 6 && faulted < n / 2,
        "{n} models count their table reads, {faulted} stopped"
    );
    assert!(
        outside > 0,
        "no read outside a grid: the test would not see a miscount"
    );
    // Code generated without the option does not count.
    let (_, _, make) = compiled::all()
        .into_iter()
        .next()
        .expect("a compiled model");
    assert!(!make().table_reach(&mut |_, _| {}));
}
