//! The units of a loaded model's variables (issue 30), for trace headers and plot labels.

use sit_middle::ir::{ModelId, Program};
use sit_runtime::Model;
use std::collections::HashMap;

/// The unit of each variable of `model` (an instance of `root` of `program`), by index,
/// as shown (`m/s`); `None` where it is not known. A variable whose name is not the
/// listed one (a hidden state of a rewrite) has none.
pub fn by_index(program: &Program, root: ModelId, model: &dyn Model) -> Vec<Option<String>> {
    let entries = sit_middle::lower::variables(program, root).unwrap_or_default();
    let units = sit_middle::units::variable_units(program, root);
    (0..model.var_count())
        .map(|i| {
            let name = model.var_info(i)?.name;
            (entries.get(i)?.name == name).then(|| units.get(i).cloned().flatten())?
        })
        .collect()
}

/// The unit of each variable of an instance of `root` of `program` whose unit is known,
/// by the name a trace writes (`sub.x`).
pub fn by_name(program: &Program, root: ModelId) -> HashMap<String, String> {
    let entries = sit_middle::lower::variables(program, root).unwrap_or_default();
    let units = sit_middle::units::variable_units(program, root);
    (entries.into_iter().zip(units))
        .filter_map(|(e, u)| Some((e.name, u?)))
        .collect()
}

/// The units `--input`'s check of a data file's header needs (by variable index): `known`
/// where the caller already has them, else the model's when `inputs` are given, else none.
pub fn for_inputs(
    loaded: &sit_host::Loaded,
    known: Option<&[Option<String>]>,
    inputs: &[String],
) -> Vec<Option<String>> {
    match known {
        _ if inputs.is_empty() => Vec::new(),
        Some(units) => units.to_vec(),
        None => by_index(loaded.lowered.unrewritten(), loaded.root, &loaded.instance),
    }
}
