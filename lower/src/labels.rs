//! The unit of each variable of an instance tree, by its index: for the tools that label values.
//!
//! `sitc run --units` writes them in the trace's header, `sitc plot` on its axes, the Python
//! package in its `variables`. A variable of a submodel has the unit its model gives it
//! (declared, or inferred in that model or through the bindings of every instance).

use crate::ir::{ModelId, Program, Ty};
use crate::{Item, variables};
use sit_check::units::{ModelUnits, units_of_sources};
use std::collections::HashMap;

/// The unit of each variable of an instance of `root`, as shown (`m/s`), parallel to
/// [`crate::variables`] (the order of a model's indices): `None` for a variable
/// whose unit is not known, a logical value, a mode or `NAME.on`. Empty when the instance
/// tree cannot be listed.
pub fn variable_units<X>(program: &Program<X>, root: ModelId) -> Vec<Option<String>> {
    variable_units_with(program, root, &units_of_sources(&program.sources))
}

/// [`variable_units`] with each model's units already computed (by model name).
pub fn variable_units_with<X>(
    program: &Program<X>,
    root: ModelId,
    units: &HashMap<String, ModelUnits>,
) -> Vec<Option<String>> {
    let Ok(entries) = variables(program, root) else {
        return Vec::new();
    };
    (entries.iter())
        .map(|e| match e.item {
            Item::Var(v, _) if e.ty == Ty::Real => {
                let model = &program.models[e.model];
                let name = &model.vars[v].name;
                (units.get(&model.name)?.vars.get(name)).map(|(_, shown, _)| shown.clone())
            }
            _ => None,
        })
        .collect()
}

/// `name [unit]`, or the name alone without a unit: a column's label.
pub fn labelled(name: &str, unit: Option<&str>) -> String {
    match unit {
        Some(unit) => format!("{name} [{unit}]"),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        let (program, report) = crate::check_source("t.sit", text).into_report();
        program.unwrap_or_else(|| panic!("{}", report.render()))
    }

    #[test]
    fn submodels_variables_have_their_models_units() {
        let p = program(
            "model Fall { param g [m/s^2] = 9.81; output real v; v = integral(g); }\n\
             model Top { real x [m]; flag up; sub f: Fall(); step(f); x = integral(f.v); }",
        );
        let root = p.model("Top").unwrap();
        let names: Vec<String> = variables(&p, root)
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        let units = variable_units(&p, root);
        let got: Vec<(String, Option<String>)> = names.into_iter().zip(units).collect();
        let want = |n: &str, u: Option<&str>| (n.to_string(), u.map(str::to_string));
        assert_eq!(
            got,
            [
                want("x", Some("m")),
                want("up", None),
                want("f.on", None),
                want("f.g", Some("m/s^2")),
                want("f.v", Some("m/s")),
            ]
        );
        assert_eq!(labelled("x", Some("m")), "x [m]");
        assert_eq!(labelled("up", None), "up");
    }
}
