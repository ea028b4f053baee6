//! What the tests of the GPU's C form share: the study they run on a model, the library.
#![allow(dead_code)] // each test uses part of it

use sit_gpu::{Collect, Spec};
use sit_interp::Instance;
use sit_runtime::{Model, ValueType, VarKind};
use std::path::{Path, PathBuf};

/// The study of a model as the test runs it: its first settable real params swept
/// around their defaults, every visible variable's final value, the extremes and a
/// crossing of the real ones.
pub struct Study {
    pub spec: Spec,
    pub axes: Vec<Vec<f64>>,
}

pub fn study(model: &Instance) -> Study {
    let mut axes = Vec::new();
    let mut axis_vars = Vec::new();
    let mut collect = Vec::new();
    let shown = (0..model.var_count())
        .take_while(|&i| model.var_info(i).is_some())
        .count();
    for i in 0..shown {
        let info = model.var_info(i).unwrap();
        let value = model.get_at(i).unwrap();
        let real = info.ty == ValueType::Real;
        if real && info.kind == VarKind::Param && info.settable && axis_vars.len() < 2 {
            let around = if value == 0.0 { 0.5 } else { value };
            axes.push(vec![value, around * 0.9, around * 1.1]);
            axis_vars.push(i);
        }
        collect.push(Collect::Final(i));
        if real {
            collect.push(Collect::Max(i));
            collect.push(Collect::Min(i));
            let threshold = if value == 0.0 { 0.25 } else { value * 0.5 };
            collect.push(Collect::FirstCrossing { var: i, threshold });
        }
    }
    Study {
        spec: Spec {
            axes: axis_vars,
            fixed: Vec::new(),
            collect,
        },
        axes,
    }
}

/// The step of a model's documented run line (`--dt X`), or 0.01.
pub fn documented_dt(path: &Path) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| l.contains("Run: `sitc run"))
        .find_map(|l| {
            l.split("--dt ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0.01)
}

/// The `.sit` files of the library (examples/models), in order.
pub fn library() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let mut files = sit_driver::sit_files(&root);
    files.sort();
    files
}
