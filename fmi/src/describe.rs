//! The FMI view of a checked model: variables with causality, variability and start
//! values, and the `modelDescription.xml` that says so.
//!
//! Value references are the `sit_runtime::Model` indices (the interpreter's and the
//! generated code's table order is the same). Names, kinds and start values come from an
//! interpreted instance of the model; documentation and which params are fixed come from
//! the IR.

use crate::instance::Access;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, Event};
use sit_interp::Instance as Interpreted;
use sit_middle::ir::{self, Expr};
use sit_middle::lower::Lowered;
use sit_middle::lower::rewrite::{Model as IrModel, Program};
use sit_middle::units::{DIMENSIONS, ModelUnits, parse_unit};
use sit_runtime::{Model, ValueType, VarKind};
use std::collections::HashMap;
use std::io;

/// `causality` of a scalar variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    /// A free param.
    Parameter,
    /// A derived param, or a param bound by the parent model.
    CalculatedParameter,
    /// An input not bound by a parent.
    Input,
    /// An `output` of the root model.
    Output,
    /// Everything else.
    Local,
}

/// `variability` of a scalar variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    /// Set before initialisation only (a param read by initial values or bindings).
    Fixed,
    /// Changeable between communication steps.
    Tunable,
    /// A Boolean (or any value changing only at steps).
    Discrete,
    /// A Real changing at every step.
    Continuous,
}

/// One `ScalarVariable`.
#[derive(Clone, Debug)]
pub struct Variable {
    /// The dotted `.sit` name.
    pub name: String,
    /// `Real` or `Boolean`.
    pub ty: ValueType,
    /// `causality`.
    pub causality: Causality,
    /// `variability`.
    pub variability: Variability,
    /// The start value (`initial` is `exact` when present, else `calculated`; inputs and
    /// parameters always have one).
    pub start: Option<f64>,
    /// The `///` documentation.
    pub description: Option<String>,
    /// The unit, from the doc comment (see [`crate::unit`]); Real variables only.
    pub unit: Option<String>,
    /// When `fmi2Set…` accepts it.
    pub access: Access,
}

/// The model as an FMU sees it.
#[derive(Clone, Debug)]
pub struct Description {
    /// The `.sit` model name.
    pub model_name: String,
    /// `modelIdentifier`: the name as a C identifier (also the library's name).
    pub identifier: String,
    /// The `guid`.
    pub guid: String,
    /// The first paragraph of the model's `///` documentation.
    pub description: Option<String>,
    /// The internal step, `DefaultExperiment stepSize`.
    pub dt: f64,
    /// The `--t-end` of the model's documented `sitc run`, `DefaultExperiment stopTime`.
    pub stop_time: Option<f64>,
    /// Every variable, by value reference.
    pub variables: Vec<Variable>,
    /// A model of the tree says `#[allow(non_finite, …)]` (`Fmu::allow_non_finite`).
    pub allow_non_finite: bool,
    /// The directional derivatives the FMU provides (`Fmu::directional`): empty unless
    /// it was built with forward sensitivities.
    pub directional: Vec<Directional>,
    /// The value references of the knowns with sensitivities (`Fmu::sensitive`).
    pub sensitive: Vec<u32>,
}

/// One partial derivative an FMU built with sensitivities provides: the value
/// reference of an unknown, of a known (a param, or a state for its start value), and of
/// the sensitivity variable `d(unknown)/d(known)` holding the derivative.
pub type Directional = (u32, u32, u32);

impl Description {
    /// The directional derivatives of the variables with respect to `wrt` (params, or
    /// states for their start values), from the sensitivity variables `d(x)/d(k)` and
    /// `d(x)/d(v(0))` of a model compiled with them; an error for a name of `wrt` that is
    /// not a variable.
    pub fn set_sensitivities(&mut self, wrt: &[String]) -> Result<(), String> {
        let index = |name: &str| (self.variables.iter()).position(|v| v.name == name);
        let mut directional = Vec::new();
        let mut sensitive = Vec::new();
        for w in wrt {
            let known = index(w).ok_or_else(|| format!("no variable `{w}` to differentiate by"))?;
            sensitive.push(known as u32);
            for (i, v) in self.variables.iter().enumerate() {
                let found = index(&format!("d({})/d({w})", v.name))
                    .or_else(|| index(&format!("d({})/d({w}(0))", v.name)));
                if let Some(s) = found {
                    directional.push((i as u32, known as u32, s as u32));
                }
            }
        }
        self.directional = directional;
        self.sensitive = sensitive;
        Ok(())
    }
}

/// The log categories that `fmi2SetDebugLogging` accepts.
pub const LOG_CATEGORIES: &[(&str, &str)] = &[
    (
        "logStatusWarning",
        "A value that is not finite after fmi2DoStep (once)",
    ),
    ("logStatusError", "Calls rejected with fmi2Error"),
    ("logStatusFatal", "Calls ending with fmi2Fatal"),
    ("logCalls", "What fmi2DoStep does (debug logging)"),
];

/// What the IR says about a variable that the `Model` view does not.
struct IrVar {
    doc: Vec<String>,
    /// A free param not read by initial values or param bindings, or a derived param
    /// reading such a param.
    tunable: bool,
    /// A state whose initial value is a constant.
    constant_init: bool,
    /// A param or input bound by the parent.
    bound: bool,
    /// The unit the unit check gives it (declared or inferred), as shown.
    unit: Option<String>,
}

/// The description of `root` of a lowered program, with internal step `dt` (default: the
/// `--dt` of the `sitc run` line in the model's documentation, else 0.01).
pub fn describe(
    lowered: &Lowered,
    root: ir::ModelId,
    dt: Option<f64>,
    code: &str,
) -> Result<Description, String> {
    let program = lowered.program();
    let model = &program.models[root];
    let instance = Interpreted::try_new(lowered, root).map_err(|e| e.to_string())?;
    let mut ir_vars = Vec::new();
    // Declared and inferred units (issue 30); a variable without one falls back on the
    // unit of its doc comment.
    let units = sit_middle::units::units_of_sources(&program.sources);
    collect(program, root, &[], &units, &mut ir_vars);
    if ir_vars.len() != instance.var_count() {
        return Err(format!(
            "internal error: {} IR variables for {} model variables",
            ir_vars.len(),
            instance.var_count()
        ));
    }
    let (doc_dt, stop_time) = documented_run(&model.doc);
    let dt = dt.or(doc_dt).unwrap_or(0.01);
    if !(dt.is_finite() && dt > 0.0) {
        return Err(format!("the step must be a finite number > 0, not {dt}"));
    }
    let mut variables = Vec::with_capacity(ir_vars.len());
    for (index, ir) in ir_vars.into_iter().enumerate() {
        let info = instance.var_info(index).expect("index below var_count");
        let value = instance.get_at(index).unwrap_or(0.0);
        let own = instance.is_root_var(index);
        let continuous = if info.ty == ValueType::Real {
            Variability::Continuous
        } else {
            Variability::Discrete
        };
        let param_variability = if ir.tunable {
            Variability::Tunable
        } else {
            Variability::Fixed
        };
        let (causality, variability, start, access) = match info.kind {
            VarKind::Param if info.settable => {
                let access = if ir.tunable {
                    Access::Tunable
                } else {
                    Access::Fixed
                };
                (Causality::Parameter, param_variability, Some(value), access)
            }
            VarKind::Param => (
                Causality::CalculatedParameter,
                if ir.bound {
                    Variability::Fixed
                } else {
                    param_variability
                },
                None,
                Access::Computed,
            ),
            VarKind::Input if info.settable && !ir.bound => {
                (Causality::Input, continuous, Some(value), Access::Input)
            }
            VarKind::State if info.settable && ir.constant_init => {
                let causality = if own && info.output {
                    Causality::Output
                } else {
                    Causality::Local
                };
                (causality, continuous, Some(value), Access::Start)
            }
            _ => {
                let causality = if own && info.output {
                    Causality::Output
                } else {
                    Causality::Local
                };
                (causality, continuous, None, Access::Computed)
            }
        };
        let description = paragraph(&ir.doc);
        let unit = (info.ty == ValueType::Real)
            .then(|| ir.unit.clone().or_else(|| crate::unit::unit_of(&ir.doc)))
            .flatten();
        variables.push(Variable {
            name: info.name.to_string(),
            ty: info.ty,
            causality,
            variability,
            start,
            description,
            unit,
            access,
        });
    }
    let identifier = c_identifier(&model.name);
    Ok(Description {
        guid: guid(&[
            model.name.as_bytes(),
            &dt.to_bits().to_le_bytes(),
            code.as_bytes(),
        ]),
        model_name: model.name.clone(),
        identifier,
        description: paragraph(&model.doc),
        dt,
        stop_time,
        variables,
        allow_non_finite: lowered.unrewritten().allows_non_finite(root),
        directional: Vec::new(),
        sensitive: Vec::new(),
    })
}

/// The IR facts of every variable of `model_id`, in `Model` index order: vars, conds,
/// events, modes, then per submodel `NAME.on` and the submodel's list. `bound` are the vars the
/// parent binds.
fn collect(
    program: &Program,
    model_id: ir::ModelId,
    bound: &[ir::VarId],
    units: &HashMap<String, ModelUnits>,
    out: &mut Vec<IrVar>,
) {
    let model = &program.models[model_id];
    let model_units = units.get(&model.name);
    let fixed = fixed_params(model, bound);
    for (id, var) in model.vars.iter().enumerate() {
        if var.hidden {
            // A method's memory or an event-log why: saved in the FMU state, not a
            // variable of the FMU (it follows the variables in the model's indices).
            continue;
        }
        let tunable = match var.kind {
            ir::VarKind::Param { derived: false } => !fixed[id] && !bound.contains(&id),
            ir::VarKind::Param { derived: true } => {
                let mut reads = Vec::new();
                param_reads(model, &var.init, &mut reads);
                reads.iter().any(|&p| !fixed[p] && !bound.contains(&p))
            }
            _ => false,
        };
        let mut constant_init = true;
        var.init.visit(&mut |e| {
            if !matches!(
                e,
                Expr::Num(_)
                    | Expr::Bool(_)
                    | Expr::Neg(_)
                    | Expr::Not(_)
                    | Expr::Arith(..)
                    | Expr::Cmp(..)
                    | Expr::And(..)
                    | Expr::Or(..)
                    | Expr::Call(..)
                    | Expr::Table(..)
                    | Expr::TableSlope(..)
            ) {
                constant_init = false;
            }
        });
        out.push(IrVar {
            doc: var.doc.clone(),
            tunable,
            constant_init,
            bound: bound.contains(&id),
            unit: model_units
                .and_then(|u| u.vars.get(&var.name))
                .map(|u| u.1.clone()),
        });
    }
    for doc in model
        .conds
        .iter()
        .map(|c| &c.doc)
        .chain(model.events.iter().map(|e| &e.doc))
        .chain(model.modes.iter().map(|m| &m.doc))
    {
        out.push(IrVar {
            doc: doc.clone(),
            tunable: false,
            constant_init: false,
            bound: false,
            unit: None,
        });
    }
    for sub in &model.subs {
        out.push(IrVar {
            doc: sub.doc.clone(),
            tunable: false,
            constant_init: false,
            bound: false,
            unit: None,
        });
        let sub_bound: Vec<ir::VarId> = sub
            .param_bindings
            .iter()
            .chain(&sub.input_bindings)
            .map(|b| b.var)
            .collect();
        collect(program, sub.model, &sub_bound, units, out);
    }
}

/// The attributes of FMI 2.0's `<BaseUnit>` of a unit written in the unit language (the
/// exponents of `kg m s A K mol cd rad`, `factor` and `offset` where not 1 and 0), or
/// `None` for a unit it cannot read (a doc comment's `m/s²`).
fn base_unit(name: &str) -> Option<Vec<(&'static str, String)>> {
    let u = parse_unit(name).ok()?;
    let mut attrs: Vec<(&'static str, String)> = (DIMENSIONS.iter().zip(u.dim))
        .filter(|(_, e)| *e != 0)
        .map(|(n, e)| (*n, e.to_string()))
        .collect();
    if u.scale != 1.0 {
        attrs.push(("factor", real(u.scale)));
    }
    if u.offset != 0.0 {
        attrs.push(("offset", real(u.offset)));
    }
    Some(attrs)
}

/// Which free params of `model` are fixed: read (directly or through derived params) by a
/// state's initial value or a submodel's param binding, which are evaluated only at
/// reset, or bound by the parent (re-applied only at reset).
fn fixed_params(model: &IrModel, bound: &[ir::VarId]) -> Vec<bool> {
    let mut fixed = vec![false; model.vars.len()];
    let mut reads = Vec::new();
    for var in &model.vars {
        if var.kind == ir::VarKind::State {
            param_reads(model, &var.init, &mut reads);
        }
    }
    for sub in &model.subs {
        for b in &sub.param_bindings {
            param_reads(model, &b.value, &mut reads);
        }
    }
    reads.extend_from_slice(bound);
    for p in reads {
        fixed[p] = true;
    }
    fixed
}

/// The free params `expr` reads, through derived params.
fn param_reads(model: &IrModel, expr: &Expr, out: &mut Vec<ir::VarId>) {
    expr.visit(&mut |e| {
        if let Expr::Var(id) = e {
            match model.vars[*id].kind {
                ir::VarKind::Param { derived: false } => out.push(*id),
                ir::VarKind::Param { derived: true } => {
                    param_reads(model, &model.vars[*id].init, out)
                }
                _ => {}
            }
        }
    });
}

/// The first paragraph of doc lines, joined by spaces; `None` when empty.
fn paragraph(doc: &[String]) -> Option<String> {
    let text: Vec<&str> = doc
        .iter()
        .map(|l| l.trim())
        .take_while(|l| !l.is_empty())
        .collect();
    (!text.is_empty()).then(|| text.join(" "))
}

/// `--dt` and `--t-end` of the `sitc run` command in the model's documentation.
fn documented_run(doc: &[String]) -> (Option<f64>, Option<f64>) {
    let Some(line) = doc.iter().find(|l| l.contains("sitc run")) else {
        return (None, None);
    };
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '`')
        .filter(|w| !w.is_empty())
        .collect();
    let value = |flag: &str| {
        words
            .windows(2)
            .find(|w| w[0] == flag)
            .and_then(|w| w[1].parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    (value("--dt"), value("--t-end"))
}

/// `name` as a C identifier: characters other than ASCII letters, digits and `_` become
/// `_`, and a leading digit gets a `_` before it.
pub fn c_identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, '_');
    }
    id
}

/// A GUID from a 128-bit FNV-1a hash of `parts` (each length-prefixed), so that the same
/// model and step always give the same GUID.
fn guid(parts: &[&[u8]]) -> String {
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in parts {
        for &b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= u128::from(b);
            h = h.wrapping_mul(PRIME);
        }
    }
    let x = format!("{h:032x}");
    format!(
        "{{{}-{}-{}-{}-{}}}",
        &x[0..8],
        &x[8..12],
        &x[12..16],
        &x[16..20],
        &x[20..32]
    )
}

fn causality_name(c: Causality) -> &'static str {
    match c {
        Causality::Parameter => "parameter",
        Causality::CalculatedParameter => "calculatedParameter",
        Causality::Input => "input",
        Causality::Output => "output",
        Causality::Local => "local",
    }
}

fn variability_name(v: Variability) -> &'static str {
    match v {
        Variability::Fixed => "fixed",
        Variability::Tunable => "tunable",
        Variability::Discrete => "discrete",
        Variability::Continuous => "continuous",
    }
}

/// The shortest text that reads back to the same `f64` (Rust's `Display`), which is also
/// valid `xs:double` for finite values.
fn real(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "INF".into() } else { "-INF".into() }
    } else {
        format!("{v:?}")
    }
}

impl Description {
    /// `modelDescription.xml` (FMI 2.0, co-simulation).
    pub fn xml(&self) -> String {
        let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
        self.write(&mut w).expect("writing to a Vec cannot fail");
        let mut text = String::from_utf8(w.into_inner()).expect("the writer writes UTF-8");
        text.push('\n');
        text
    }

    fn write(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        let mut root = vec![
            ("fmiVersion", "2.0"),
            ("modelName", self.model_name.as_str()),
            ("guid", self.guid.as_str()),
        ];
        if let Some(d) = &self.description {
            root.push(("description", d));
        }
        root.extend([
            (
                "generationTool",
                concat!("sitc ", env!("CARGO_PKG_VERSION")),
            ),
            ("variableNamingConvention", "flat"),
            ("numberOfEventIndicators", "0"),
        ]);
        w.create_element("fmiModelDescription")
            .with_attributes(root)
            .write_inner_content(|w| {
                w.create_element("CoSimulation")
                    .with_attributes([
                        ("modelIdentifier", self.identifier.as_str()),
                        ("needsExecutionTool", "false"),
                        ("canHandleVariableCommunicationStepSize", "true"),
                        ("canInterpolateInputs", "false"),
                        ("maxOutputDerivativeOrder", "0"),
                        ("canRunAsynchronuously", "false"),
                        ("canBeInstantiatedOnlyOncePerProcess", "false"),
                        ("canNotUseMemoryManagementFunctions", "true"),
                        ("canGetAndSetFMUstate", "true"),
                        ("canSerializeFMUstate", "true"),
                        (
                            "providesDirectionalDerivative",
                            if self.sensitive.is_empty() {
                                "false"
                            } else {
                                "true"
                            },
                        ),
                    ])
                    .write_empty()?;
                let mut units: Vec<&str> = self
                    .variables
                    .iter()
                    .filter_map(|v| v.unit.as_deref())
                    .collect();
                units.sort_unstable();
                units.dedup();
                if !units.is_empty() {
                    w.create_element("UnitDefinitions")
                        .write_inner_content(|w| {
                            for unit in units {
                                let element =
                                    w.create_element("Unit").with_attribute(("name", unit));
                                match base_unit(unit) {
                                    Some(attrs) => element.write_inner_content(|w| {
                                        let attrs = attrs.iter().map(|(k, v)| (*k, v.as_str()));
                                        w.create_element("BaseUnit")
                                            .with_attributes(attrs)
                                            .write_empty()?;
                                        Ok(())
                                    })?,
                                    None => element.write_empty()?,
                                };
                            }
                            Ok(())
                        })?;
                }
                w.create_element("LogCategories").write_inner_content(|w| {
                    for (name, description) in LOG_CATEGORIES {
                        w.create_element("Category")
                            .with_attributes([("name", *name), ("description", *description)])
                            .write_empty()?;
                    }
                    Ok(())
                })?;
                let step = real(self.dt);
                let stop = self.stop_time.map(real);
                let mut experiment = vec![("startTime", "0.0")];
                if let Some(stop) = &stop {
                    experiment.push(("stopTime", stop));
                }
                experiment.push(("stepSize", &step));
                w.create_element("DefaultExperiment")
                    .with_attributes(experiment)
                    .write_empty()?;
                w.create_element("ModelVariables")
                    .write_inner_content(|w| self.write_variables(w))?;
                self.write_structure(w)
            })?;
        Ok(())
    }

    fn write_variables(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        for (vr, v) in self.variables.iter().enumerate() {
            let vr = vr.to_string();
            let mut attrs = vec![("name", v.name.as_str()), ("valueReference", vr.as_str())];
            if let Some(d) = &v.description {
                attrs.push(("description", d));
            }
            attrs.push(("causality", causality_name(v.causality)));
            attrs.push(("variability", variability_name(v.variability)));
            match (v.causality, v.start) {
                (Causality::Parameter | Causality::Input, _) => {}
                (_, Some(_)) => attrs.push(("initial", "exact")),
                (_, None) => attrs.push(("initial", "calculated")),
            }
            let (ty, start) = match v.ty {
                ValueType::Real => ("Real", v.start.map(real)),
                ValueType::Logical => ("Boolean", v.start.map(|s| (s == 1.0).to_string())),
            };
            w.create_element("ScalarVariable")
                .with_attributes(attrs)
                .write_inner_content(|w| {
                    let mut element = w.create_element(ty);
                    if let Some(unit) = &v.unit {
                        element = element.with_attribute(("unit", unit.as_str()));
                    }
                    if let Some(start) = &start {
                        element = element.with_attribute(("start", start.as_str()));
                    }
                    element.write_empty()?;
                    Ok(())
                })?;
        }
        Ok(())
    }

    fn write_structure(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        // 1-based positions in ModelVariables.
        let outputs: Vec<String> = (self.variables.iter().enumerate())
            .filter(|(_, v)| v.causality == Causality::Output)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let initial: Vec<String> = (self.variables.iter().enumerate())
            .filter(|(_, v)| {
                (v.causality == Causality::Output && v.start.is_none())
                    || v.causality == Causality::CalculatedParameter
            })
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        w.create_element("ModelStructure")
            .write_inner_content(|w| {
                for (tag, list) in [("Outputs", &outputs), ("InitialUnknowns", &initial)] {
                    if list.is_empty() {
                        continue;
                    }
                    w.create_element(tag).write_inner_content(|w| {
                        for index in list {
                            w.create_element("Unknown")
                                .with_attribute(("index", index.as_str()))
                                .write_empty()?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })?;
        Ok(())
    }
}
