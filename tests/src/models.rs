//! Loading the library's models (`examples/models/*.sit`) into interpreted instances.

use sit_interp::Instance;
use sit_runtime::Model;

/// Checks `examples/models/FILE` and instantiates its model `name` in the
/// interpreter; the error is the rendered diagnostics or the missing model.
pub fn load(file: &str, name: &str) -> Result<Instance, String> {
    load_with(file, name, None)
}

/// [`load`] with every model integrated by `method` when given (as `--method`).
pub fn load_with(
    file: &str,
    name: &str,
    method: Option<sit_middle::ir::Method>,
) -> Result<Instance, String> {
    let path = crate::repo_root().join("examples/models").join(file);
    let out = sit_middle::check_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if out.has_errors() {
        return Err(out.render());
    }
    let mut program = out
        .program
        .ok_or_else(|| format!("{}: no program", path.display()))?;
    if let Some(method) = method {
        program
            .set_method(method)
            .map_err(|d| sit_middle::diag::render_all(&d, &program.sources))?;
    }
    let root = program
        .model(name)
        .ok_or_else(|| format!("{}: no model `{name}`", path.display()))?;
    Ok(Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    ))
}

/// The value of the variable `name`; an error names a variable the model lacks.
pub fn get(model: &dyn Model, name: &str) -> Result<f64, String> {
    model
        .get(name)
        .ok_or_else(|| format!("no variable named `{name}`"))
}

/// Sets the variable `name` (a param, input or state).
pub fn set(model: &mut dyn Model, name: &str, value: f64) -> Result<(), String> {
    model.set(name, value).map_err(|e| e.to_string())
}

/// Steps `model` `n` times with `dt`, calling `each` after every step.
pub fn run(model: &mut dyn Model, dt: f64, n: usize, mut each: impl FnMut(&dyn Model)) {
    for _ in 0..n {
        model.step(dt);
        each(model);
    }
}

/// An interpreted instance of the one model of `text` (checked as `m.sit`), integrated
/// by `method`; panics with the rendered diagnostics if it does not check.
pub fn instance_of(text: &str, method: sit_middle::ir::Method) -> Instance {
    let out = sit_middle::check_source("m.sit", text);
    assert!(!out.has_errors(), "{}", out.render());
    let mut program = out.program.expect("a checked program");
    program
        .set_method(method)
        .expect("the rules split for the method");
    Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        0,
    )
}
