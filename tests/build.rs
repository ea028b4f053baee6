//! Compiles every example model, and a set of random models from `sit-synth`,
//! into Rust for the bit-identity tests (`tests/bit_identity.rs`), with a
//! registry that constructs each compiled model by file and model name.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How many random models are compiled into the tests.
const RANDOM_MODELS: u64 = 40;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let examples = Path::new("../examples/models");
    println!("cargo:rerun-if-changed={}", examples.display());
    let mut files = sit_build::sit_files(examples);
    // Schematics (`.sch`) and the `.sit` models that import them.
    let schematics = Path::new("../examples/schematics");
    println!("cargo:rerun-if-changed={}", schematics.display());
    let mut drawn: Vec<PathBuf> = (std::fs::read_dir(schematics).expect("examples/schematics"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sch" || e == "sit"))
        .collect();
    drawn.sort();
    files.extend(drawn);
    let random_dir = out.join("random");
    std::fs::create_dir_all(&random_dir).expect("OUT_DIR is writable");
    for seed in 0..RANDOM_MODELS {
        let path = random_dir.join(format!("random_{seed}.sit"));
        write_if_changed(
            &path,
            &sit_synth::random_file(seed, sit_synth::Size::default()),
        );
        files.push(path);
    }
    // Over 500 top-level rules, so `step` is generated in pieces; `y`'s `otherwise` flag
    // is set in the first piece and read in the last.
    let big = random_dir.join("random_synthetic1200.sit");
    let text = sit_synth::synthetic(1200)
        .replacen(
            "    pred hot",
            "    output real y = 0;\n    y = 1 when time > 5;\n    pred hot",
            1,
        )
        .replacen("\n}\n", "\n    y = 2 otherwise;\n}\n", 1);
    write_if_changed(&big, &text);
    files.push(big);
    // An instantaneous phase whose end a param can put out of reach (`tests/phases.rs`).
    let phase = random_dir.join("random_phase_limit.sit");
    write_if_changed(&phase, PHASE_LIMIT);
    files.push(phase);
    // Sub-steps in a root, a submodel and a phase, under rk4, with counts a param can
    // make non-finite or too large (`tests/substeps.rs`).
    let substeps = random_dir.join("random_substeps.sit");
    write_if_changed(&substeps, SUBSTEPS);
    files.push(substeps);
    // Modes whose states are `off` and `on` (issue 33), beside a submodel's switch `on`.
    let switch = random_dir.join("random_switch_states.sit");
    write_if_changed(&switch, SWITCH_STATES);
    files.push(switch);
    for (name, text) in [
        ("random_pivots_dense", PIVOTS_DENSE),
        ("random_pivots_pattern", PIVOTS_PATTERN),
        ("random_event_ball", EVENT_BALL),
        ("random_chain", CHAIN),
    ] {
        let path = random_dir.join(format!("{name}.sit"));
        write_if_changed(&path, text);
        files.push(path);
    }
    // Sparse iteration matrices (issue 49): the heat equation's method of lines (40
    // nodes, tridiagonal; 7 × 7 nodes, five-point) and POLLU (20 states), under the
    // implicit methods, `radau5`'s complex system on the pattern among them; checked
    // as declared, without twins under other methods.
    let pollu = Path::new("../bench/models/pollu.sit");
    println!("cargo:rerun-if-changed={}", pollu.display());
    let pollu = std::fs::read_to_string(pollu).expect("bench/models/pollu.sit");
    for (name, text) in [
        (
            "random_sparse_heat_rodas5p",
            sit_synth::heat(40, "rodas5p", 1e-6, 1e-8),
        ),
        (
            "random_sparse_heat_radau5",
            sit_synth::heat(40, "radau5", 1e-6, 1e-8),
        ),
        (
            "random_sparse_heat2_rodas4",
            sit_synth::heat2(7, "rodas4", 1e-5, 1e-7),
        ),
        ("random_sparse_pollu_rodas5p", pollu.clone()),
        (
            "random_sparse_pollu_radau5",
            pollu.replace("method rodas5p", "method radau5"),
        ),
    ] {
        let path = random_dir.join(format!("{name}.sit"));
        write_if_changed(&path, &text);
        files.push(path);
    }
    let mut registry = String::from(
        "/// A constructor of a compiled model.\n\
         pub type Constructor = fn() -> Box<dyn ::sit_runtime::Model>;\n\
         /// Every compiled model: (file stem, model name, constructor).\n\
         pub fn all() -> Vec<(&'static str, &'static str, Constructor)> {\n    vec![\n",
    );
    let mut modules = String::new();
    for file in &files {
        let stem = stem(file);
        let module = format!("m_{stem}");
        emit_module(
            &out,
            file,
            &Default::default(),
            &module,
            &mut modules,
            &mut registry,
            |name| format!("({stem:?}, {name:?}, || Box::new({module}::{name}::new())),"),
        )
        .unwrap_or_else(|e| fail(file, e));
    }
    // Every file whose models split for `rk4`, compiled again with that method (stem
    // `rk4:STEM`; the bit-identity tests run the interpreter with the same override).
    // The same with `dopri5` (stem `dopri5:STEM`), at its default tolerances.
    // `tsit5` (stem `tsit5:STEM`) on a few models with events and on the random ones
    // (those that split: eight files): its step is dopri5's with other coefficients,
    // so a sample of the examples keeps the compile time of this crate down.
    // The 1 200-rule model (whose `step` is generated in pieces) has its `dopri5` twin
    // only: under `rk4` and `tsit5` it was 10 of this crate's 51 MB of generated code,
    // for pieces made as `dopri5`'s are (docs/performance.md, "CI time").
    let methods = [
        ("rk4", sit_middle::ir::Method::Rk4),
        ("dopri5", sit_middle::ir::Method::Dopri5(Default::default())),
        ("tsit5", sit_middle::ir::Method::Tsit5(Default::default())),
        ("dop853", sit_middle::ir::Method::Dop853(Default::default())),
        ("rodas4", sit_middle::ir::Method::Rodas4(Default::default())),
        (
            "rodas5p",
            sit_middle::ir::Method::Rodas5p(Default::default()),
        ),
        ("radau5", sit_middle::ir::Method::Radau5(Default::default())),
    ];
    // `dop853` (stem `dop853:STEM`) on three models with events and the first ten
    // random files (those that split): its 13 stages and three of the dense output make
    // its step the largest to compile.
    let dop853 = |stem: &str| {
        ["bouncing_ball", "thermostat", "van_der_pol"].contains(&stem)
            || (stem.strip_prefix("random_"))
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n < 10)
    };
    let sampled = |prefix: &str, file: &Path| {
        let stem = stem(file);
        // README's ball, whose impact is an `event`: twins under every method (issue 47).
        if stem == "random_event_ball" {
            return true;
        }
        if stem == "random_synthetic1200" {
            return prefix == "dopri5";
        }
        // The compliant rod under `rodas4` (its declared method, compiled above): its
        // 733 kB of generated code (the Jacobian of eleven states through 40 stage
        // rules) once, without twins. The heat rod (40 states) likewise, `rodas4` with
        // its iteration matrix as a band: twins under other methods would add large
        // steps to this crate's compile time and no construct the other models lack.
        // `heat_rod_array.sit` is the heat rod written with an array: the same step.
        if matches!(
            stem.as_str(),
            "rod_compliant_rodas4" | "heat_rod" | "heat_rod_array"
        ) || stem.starts_with("random_sparse")
        {
            return false;
        }
        if prefix == "dop853" {
            return dop853(&stem);
        }
        // `rodas4` (stem `rodas4:STEM`) on three models with events and Robertson's
        // kinetics (its Jacobian, one LU and six stage solves per internal step); the
        // random models that declare it (the tables their rates read among them) are
        // checked as declared.
        if prefix == "rodas4" {
            return ["bouncing_ball", "thermostat", "van_der_pol", "robertson"]
                .contains(&stem.as_str());
        }
        // `rodas5p` (stem `rodas5p:STEM`): the same builder with eight stages and three
        // dense rows, on one model with events and two stiff ones (HIRES, eight states,
        // a dense LU of 64 cells).
        if prefix == "rodas5p" {
            return ["bouncing_ball", "robertson", "hires"].contains(&stem.as_str());
        }
        // `radau5` (stem `radau5:STEM`): its Newton iteration a loop nested in the
        // internal steps' (three stage passes, left unconverged at its limit), two
        // factorisations kept from step to step, on two models with events and two
        // stiff ones.
        if prefix == "radau5" {
            return ["bouncing_ball", "thermostat", "robertson", "hires"].contains(&stem.as_str());
        }
        prefix != "tsit5"
            || [
                "bouncing_ball",
                "thermostat",
                "van_der_pol",
                "traffic_light",
            ]
            .contains(&stem.as_str())
            || stem.starts_with("random_")
    };
    for (file, (prefix, method)) in methods
        .iter()
        .flat_map(|m| files.iter().map(move |f| (f, m)))
        .filter(|(f, (prefix, _))| sampled(prefix, f))
    {
        let stem = stem(file);
        let opts = sit_build::Options {
            method: Some(*method),
            ..Default::default()
        };
        let module = format!("{prefix}_{stem}");
        let emitted = emit_module(
            &out,
            file,
            &opts,
            &module,
            &mut modules,
            &mut registry,
            |name| {
                format!("(\"{prefix}:{stem}\", {name:?}, || Box::new({module}::{name}::new())),")
            },
        );
        match emitted {
            Ok(()) | Err(sit_build::Error::Compile(sit_driver::Error::Model(_))) => {}
            Err(e) => fail(file, e),
        }
    }
    registry.push_str("    ]\n}\n");
    write_if_changed(&out.join("compiled.rs"), &(modules + &registry));
    logged(&out, &files);
    counted(&out, &random_dir, &files);
}

/// A model reading tables below, inside and above their grids (`TABLE_REACH`), under
/// `euler` and `rk4`, and the random models with tables, built to count their table
/// reads (`sit_build::Options::count_table_reach`) with their batch forms, with a
/// registry for `tests/bit_identity.rs`: (file stem, model name, constructor, batch
/// run). The batch run makes `LANES` lanes, each prepared by the closure given and
/// set into a batch, steps them and gives them back as scalar models.
fn counted(out: &Path, random_dir: &Path, files: &[PathBuf]) {
    let reach = random_dir.join("table_reach.sit");
    write_if_changed(&reach, TABLE_REACH);
    let mut chosen: Vec<(PathBuf, Option<sit_middle::ir::Method>)> = vec![
        (reach.clone(), None),
        (reach, Some(sit_middle::ir::Method::Rk4)),
    ];
    let with_tables = (files.iter())
        .filter(|f| stem(f).starts_with("random_"))
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("table tb1")))
        .take(4);
    chosen.extend(with_tables.map(|f| (f.clone(), None)));
    // The batch form under `rodas4` (declared): Robertson's kinetics with a watched
    // guard, its stage solves and located events on each lane.
    let rober = random_dir.join("rober_events.sit");
    write_if_changed(&rober, ROBER_EVENTS);
    chosen.push((rober, None));
    // The batch form with `rodas4`'s iteration matrix as a band: a chain of 8 states
    // declared out of the chain's order, reordered by the lowering (reverse
    // Cuthill–McKee) into a tridiagonal band.
    let chain = random_dir.join("chain_band.sit");
    write_if_changed(&chain, CHAIN_BAND);
    chosen.push((chain, None));
    // The batch form with sparse iteration matrices (issue 49): the heat equation on
    // 4 × 4 nodes under `rodas5p` and on 14 nodes under `radau5` (its complex system
    // on the pattern).
    for (name, text) in [
        ("heat2_sparse", sit_synth::heat2(4, "rodas5p", 1e-6, 1e-8)),
        (
            "heat_sparse_radau5",
            sit_synth::heat(14, "radau5", 1e-6, 1e-8),
        ),
    ] {
        let path = random_dir.join(format!("{name}.sit"));
        write_if_changed(&path, &text);
        chosen.push((path, None));
    }
    let mut modules = String::new();
    let mut registry = String::from(concat!(
        "/// Prepares lane `i` of a batch run.\n",
        "pub type Prepare<'a> = &'a dyn Fn(usize, &mut dyn ::sit_runtime::Model);\n",
        "/// A batch run: prepare the lanes, `steps` steps of `dt`, the lanes as scalar models.\n",
        "pub type BatchRun = fn(Prepare<'_>, f64, usize) -> Vec<Box<dyn ::sit_runtime::Model>>;\n",
        "/// Lanes of a batch run.\n",
        "pub const LANES: usize = 3;\n",
        "/// A model built to count its table reads: (file stem, model, constructor, batch run).\n",
        "pub type Counted = (&'static str, &'static str, fn() -> Box<dyn ::sit_runtime::Model>, BatchRun);\n",
        "/// Every model built to count its table reads.\n",
        "pub fn all() -> Vec<Counted> {\n    vec![\n",
    ));
    for (file, method) in chosen {
        let stem = match method {
            None => stem(&file),
            Some(m) => format!("{}:{}", m.name(), stem(&file)),
        };
        let module = format!("counted_{}", stem.replace(':', "_"));
        let opts = sit_build::Options {
            batch: true,
            count_table_reach: true,
            method,
            ..Default::default()
        };
        let generated =
            sit_build::compile_file_with(&file, &opts).unwrap_or_else(|e| fail(&file, e));
        write_if_changed(&out.join(format!("{module}.rs")), &generated.code);
        let _ = writeln!(
            modules,
            "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}"
        );
        let program = sit_driver::check_file(&file)
            .expect("readable")
            .program
            .expect("checked");
        for id in program.models_of_file(0) {
            let name = &program.models[id].name;
            // A copy made for a structural binding (`M0(an = 5)`, its struct
            // `M0_an___5_`) is run through the instance that binds it.
            if name.contains('(') {
                continue;
            }
            if !generated
                .code
                .contains(&format!("pub struct {name}Batch<const N: usize>"))
            {
                continue;
            }
            let _ = writeln!(
                registry,
                "        ({stem:?}, {name:?}, || Box::new({module}::{name}::new()), |prep, dt, steps| {{\n\
                 \x20           let mut batch = {module}::{name}Batch::<LANES>::new();\n\
                 \x20           for i in 0..LANES {{\n\
                 \x20               let mut m = {module}::{name}::new();\n\
                 \x20               prep(i, &mut m);\n\
                 \x20               assert!(batch.set_lane(i, &m));\n\
                 \x20           }}\n\
                 \x20           for _ in 0..steps {{\n\
                 \x20               batch.step(dt);\n\
                 \x20           }}\n\
                 \x20           (0..LANES).map(|i| Box::new(batch.lane(i).expect(\"lane\")) as Box<dyn ::sit_runtime::Model>).collect()\n\
                 \x20       }}),"
            );
        }
    }
    registry.push_str("    ]\n}\n");
    write_if_changed(&out.join("counted.rs"), &(modules + &registry));
}

/// A stiff oscillator under `rodas5p` whose `W = I/(γh) − J` swaps its rows: once the
/// steps pass `1/(γ·k) ≈ 5e-6`, `|k|` in column 0 exceeds the diagonal `1/(γh)`, so the
/// generated step's straight-line factorisation gives way to the runtime's and its
/// solves to the runtime's dense one (`tests/bit_identity.rs` checks that the swaps
/// happen). `W` is dense (2 states, every cell in the pattern).
/// README's ball (`tests/located_events.rs`), whose impact is an `event` on the height:
/// located inside the step under every method but `euler`, which the bit-identity tests
/// check under each (`twins_and_declared`).
const EVENT_BALL: &str = "\
model Ball {
    param g = 9.81;
    param e = 0.8;
    output real h = 10;
    output real v;
    output real t_impact = -1;
    event impact = h < 0;
    v = integral(-g);
    h = integral(v);
    when impact {
        v = -e * v;
        h = 0;
        t_impact = time;
    }
}
";

const PIVOTS_DENSE: &str = "\
model PivotsDense {
    method rodas5p rtol 1e-6 atol 1e-9;
    param k = 1e6, c = 50;
    output real x = 1, v = 0;
    x = integral(v);
    v = integral(-k * x - c * v);
}
";

/// [`PIVOTS_DENSE`] with a third state that reads `x`: `W`'s pattern leaves two cells
/// out (`(x, w)`, `(v, w)`; `(w, v)` is fill-in), so it is held as a pattern, whose
/// straight-line code gives way to the runtime's in the same way.
const PIVOTS_PATTERN: &str = "\
model PivotsPattern {
    method rodas5p rtol 1e-6 atol 1e-9;
    param k = 1e6, c = 50;
    output real x = 1, v = 0, w = 0;
    x = integral(v);
    v = integral(-k * x - c * v);
    w = integral(x - w);
}
";

/// Robertson's kinetics under `rodas4` with a guard that reads a state (watched,
/// located inside the steps), for the batch form's lanes (`counted`).
const ROBER_EVENTS: &str = "\
model RoberEvents {
    method rodas4 rtol 1e-6 atol 1e-10;
    param k1 = 0.04, k2 = 3e7, k3 = 1e4;
    output real y1 = 1, y2 = 0, y3 = 0;
    output real crossings = 0;
    y1 = integral(-k1 * y1 + k3 * y2 * y3);
    y2 = integral(k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2);
    y3 = integral(k2 * y2 * y2);
    crossings = crossings + 1 when y1 < 0.9995;
}
";

/// A chain of 8 states under `rodas4` (the chain a, e, b, f, c, g, d, h: a band of
/// width 4 in the declared order, 1 in the reordered one), for the batch form's
/// lanes (`counted`).
const CHAIN_BAND: &str = "\
model ChainBand {
    method rodas4 rtol 1e-5 atol 1e-7;
    param k = 3, u = 1, c = 0.5;
    output real a = 0, b = 0.1, c2 = 0.2, d = 0.3, e = 0.4, f = 0.5, g = 0.6, h = 0.7;
    a = integral(k * (u - 2 * a + e) - c * a * a * a);
    e = integral(k * (a - 2 * e + b) - c * e * e * e);
    b = integral(k * (e - 2 * b + f) - c * b * b * b);
    f = integral(k * (b - 2 * f + c2) - c * f * f * f);
    c2 = integral(k * (f - 2 * c2 + g) - c * c2 * c2 * c2);
    g = integral(k * (c2 - 2 * g + d) - c * g * g * g);
    d = integral(k * (g - 2 * d + h) - c * d * d * d);
    h = integral(k * (d - 2 * h) - c * h * h * h);
}
";

/// Tables read below, inside and above their grids: clamp and extrapolate, 1-D and
/// 2-D, in a derived param, a condition, a guarded rule, a guard's right operand and
/// two instances of a submodel, one of them reset by a σ rule (`counted`).
const TABLE_REACH: &str = "\
model Leaf {
    input real u;
    table g(x, y) = [0, 1], [0, 1] -> [[0, 1], [2, 3]] clamp;
    output real z;
    z = g(u, 0.5);
}

model Reach {
    table heat(T) = [0, 50, 100] -> [0, 2, 3] clamp;
    table far(x) = [0, 1] -> [0, 10] extrapolate;
    param T0 = -20;
    param rate = 70;
    param k = heat(T0 + 30);
    output real T = T0;
    output real q, e, w, c;
    sub a: Leaf(u = T / 100);
    sub b: Leaf(u = 2);
    pred hot = heat(T) > 2.5;
    q = heat(T);
    e = far(T / 50);
    w = k * 2 + a.z + b.z;
    c = far(T / 10) when T > 0 & heat(T) < 3;
    c = 0 otherwise;
    when hot => reset(b);
    T = integral(rate);
}
";

/// Some example models and random models built for the event log (`tests/events.rs`),
/// with a registry: (file stem, model name, constructor, table). Of the random models,
/// those with an even seed and the hand-written ones (not the 1 200-rule model): the
/// log's code is the same for every rule, and all of them made this crate's largest
/// test binary (docs/performance.md, "CI time").
fn logged(out: &Path, files: &[PathBuf]) {
    let chosen = |stem: &str| {
        let random = |rest: &str| match rest.parse::<u64>() {
            Ok(seed) => seed % 2 == 0,
            Err(_) => rest != "synthetic1200",
        };
        [
            "traffic_light",
            "traffic",
            "thermostat",
            "bouncing_ball",
            "controller",
            "rod",
        ]
        .contains(&stem)
            || stem.strip_prefix("random_").is_some_and(random)
    };
    let mut modules = String::new();
    let mut registry = String::from(
        "/// A constructor of a compiled model built for the event log, and its table.\n\
         pub type Logged = (fn() -> Box<dyn ::sit_runtime::Model>, fn() -> ::sit_runtime::events::Table);\n\
         /// Every model built for the log: (file stem, model name, constructor, table).\n\
         pub fn all() -> Vec<(&'static str, &'static str, Logged)> {\n    vec![\n",
    );
    let opts = sit_build::Options {
        events: true,
        ..Default::default()
    };
    for file in files.iter().filter(|f| chosen(&stem(f))) {
        let stem = stem(file);
        let module = format!("events_{stem}");
        emit_module(out, file, &opts, &module, &mut modules, &mut registry, |name| {
            format!("({stem:?}, {name:?}, (|| Box::new({module}::{name}::new()), {module}::{name}::event_table)),")
        })
        .unwrap_or_else(|e| fail(file, e));
    }
    registry.push_str("    ]\n}\n");
    write_if_changed(&out.join("logged.rs"), &(modules + &registry));
}

/// Compiles `file` as `opts` say into `OUT_DIR/MODULE.rs`, declares the module in
/// `modules`, and adds to `registry` one line per model of the file, given by `entry`
/// from the model's name. Nothing is added when the file does not compile.
fn emit_module(
    out: &Path,
    file: &Path,
    opts: &sit_build::Options,
    module: &str,
    modules: &mut String,
    registry: &mut String,
    entry: impl Fn(&str) -> String,
) -> Result<(), sit_build::Error> {
    let generated = sit_build::compile_file_with(file, opts)?;
    write_if_changed(&out.join(format!("{module}.rs")), &generated.code);
    let _ = writeln!(
        modules,
        "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}"
    );
    let program = sit_driver::check_file(file)
        .expect("readable")
        .program
        .expect("checked");
    for id in program.models_of_file(0) {
        // A copy made for a structural binding is run through its instance.
        if !program.models[id].name.contains('(') {
            let _ = writeln!(registry, "        {}", entry(&program.models[id].name));
        }
    }
    Ok(())
}

/// The file name of `file` without its extension.
fn stem(file: &Path) -> String {
    file.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Stops the build: `file` does not compile.
fn fail(file: &Path, e: sit_build::Error) -> ! {
    eprintln!("{}: {e}", file.display());
    std::process::exit(1)
}

/// A phase that counts to `target` in steps of 0.1, at most 100 of them, run when the
/// time reaches 0.5.
const PHASE_LIMIT: &str = "\
model Count {
    output real x;
    x = integral(1);
}
model PhaseLimit {
    param target = 1;
    output real took;
    phase count: Count step 0.1 limit 100 until count.x >= target;
    event go = time >= 0.5;
    when go => run(count);
    took = count.time;
}
";

/// Models that divide their steps (`tests/substeps.rs`, and the bit-identity tests).
const SUBSTEPS: &str = "\
/// Decays towards its drive, in four sub-steps while far above it.
model Decay {
    input real drive;
    output real y = 1, steps, t_last, dt_last;
    output flag low;
    event crossed = y < 0.5;
    substeps 4 when y > drive + 0.5 limit 4;
    y = integral(drive - 3 * y);
    steps = steps + 1;
    t_last = time;
    dt_last = dt;
    when crossed => low;
}
/// An oscillator under rk4, sub-stepped while it moves fast.
model Substeps {
    param n = 3;
    output real x = 1, v, steps, seen, t_in, h, w, runs, took;
    method rk4;
    event up = x > 0.9;
    pred moving = abs(v) > 0.5;
    substeps n * abs(v) when moving limit 50;
    sub decay: Decay(drive = x);
    phase settle: Decay(drive = 0) step 0.05 limit 1000 until settle.y < 0.2;
    v = integral(-4 * x);
    x = integral(v);
    steps = steps + 1;
    seen = 1 when up;
    seen = 0 otherwise;
    t_in = time;
    h = dt;
    when up => run(settle);
    runs = runs + 1 when up;
    w = settle.y + decay.y;
    took = settle.time;
}
";

/// A heater whose mode has the states `off` and `on`, compared (`heater == on`) and
/// changed (`heater: off -> on`) by those names, and a fan switched by its submodel's
/// `on`: each word in its place.
/// Submodels three deep (issue 53): a model's variable table is taken from its parent's
/// and its accessors hand a submodel's indices and names to the submodel, so the
/// tables of `Leaf` and `Mid` come from those of `Mid` and `Top`, with the params that
/// the parent binds (the first variable of `leaf`'s run among them) settable again; a
/// mode two levels down, a derived param, one model instantiated twice.
const CHAIN: &str = "\
model Leaf {
    param k = 0.5;
    input real u = 1;
    output real x = 1;
    output mode level { low, high }
    level: low -> high when x > 1.2;
    level: high -> low when x < 0.8;
    x = integral(u - k * x);
}
model Mid {
    param g = 2;
    param h = g * 3;
    input real u = 1;
    sub leaf: Leaf(k = g, u = u * h);
    output real x = 0;
    output flag hi;
    x = integral(leaf.x - x);
    when leaf.level == high => hi;
    when leaf.level == low => !hi;
}
model Top {
    param a = 1;
    sub m1: Mid(g = a, u = 1 + a);
    sub m2: Mid(u = m1.x);
    output real y;
    y = integral(m1.x + m2.x - y);
}
model ChainTop {
    sub t: Top(a = 0.5);
    output real z;
    z = integral(t.y - z);
}
";

const SWITCH_STATES: &str = "\
model Fan {
    output real turns, spun;
    output mode blade { off, on }
    turns = integral(1);
    blade: off -> on when turns >= 2 {
        turns = 0;
    }
    blade: on -> off when turns >= 3 {
        turns = 0;
        spun = spun + 1;
    }
}
model SwitchStates {
    param P = 6000, k = 150, C = 2.0e5;
    output real T = 12, Q, switched;
    output mode heater { off, on }
    sub fan: Fan off;
    heater: off -> on when T <= 19.5 {
        switched = switched + 1;
    }
    heater: on -> off when T >= 20.5;
    Q = P when heater == on;
    Q = 0 otherwise;
    T = integral((Q - k * (T - 5)) / C);
    when heater != off & T > 20 => fan.on;
    when heater == off => !fan.on;
    output situation blowing = fan.blade == on;
}
";

fn write_if_changed(path: &Path, text: &str) {
    sit_build::write_if_changed(path, text).expect("OUT_DIR is writable");
}
