//! The incidence matrices in the paper's layout (rows: inertias; columns: elements of a
//! type, in number order), printed as tables or JSON.

use crate::ast::{Kind, Schematic};
use crate::search::{Crossing, Link};
use std::fmt::Write as _;

/// One matrix with its row and column labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    /// The paper's name.
    pub title: &'static str,
    /// The key in JSON output.
    pub key: &'static str,
    /// Row labels (inertias).
    pub rows: Vec<String>,
    /// Column labels.
    pub cols: Vec<String>,
    /// Entries, row by row.
    pub entries: Vec<Vec<i64>>,
}

/// All matrices of a schematic, in the paper's fill order.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrices {
    /// Inertial (Table 2), external actions (Table 3), elastic (Table 4), dissipative
    /// (Table 5), transformer between elastic/dissipative and inertial elements (Table 6).
    pub list: Vec<Matrix>,
}

/// Build the matrices from the recorded paths.
pub fn matrices(s: &Schematic, links: &[Link]) -> Matrices {
    let inertias: Vec<usize> = (0..s.elements.len())
        .filter(|&i| s.elements[i].kind == Kind::Inertia)
        .collect();
    let names =
        |v: &[usize]| -> Vec<String> { v.iter().map(|&i| s.elements[i].name.clone()).collect() };
    let elastic: Vec<usize> = (0..s.elements.len())
        .filter(|&i| s.elements[i].kind.is_elastic())
        .collect();
    let dissipative: Vec<usize> = (0..s.elements.len())
        .filter(|&i| s.elements[i].kind.is_dissipative())
        .collect();
    let clutches: Vec<usize> = (0..s.elements.len())
        .filter(|&i| s.elements[i].kind == Kind::Clutch)
        .collect();
    let rows = names(&inertias);
    let n = inertias.len();
    let row_of = |e: usize| inertias.iter().position(|&i| i == e);
    let mut inertial = vec![vec![0; n]; n];
    for (i, r) in inertial.iter_mut().enumerate() {
        r[i] = -1;
    }
    let mut actions = vec![vec![0; s.actions.len()]; n];
    for (k, a) in s.actions.iter().enumerate() {
        if let Some(r) = (s.elements.iter().position(|e| e.name == a.target)).and_then(row_of) {
            actions[r][k] = i64::from(a.sign);
        }
    }
    let incidence = |cols: &[usize], transformer: bool| {
        let mut m = vec![vec![0; cols.len()]; n];
        for l in links {
            if let (Some(c), Some(r)) =
                (cols.iter().position(|&j| j == l.element), row_of(l.inertia))
            {
                m[r][c] = if transformer {
                    i64::from(!l.gears.is_empty())
                } else {
                    i64::from(l.sign)
                };
            }
        }
        m
    };
    let mut transformer = incidence(&elastic, true);
    for (row, extra) in transformer.iter_mut().zip(incidence(&dissipative, true)) {
        row.extend(extra);
    }
    let col_names = |v: &[usize], prefix: &str| -> Vec<String> {
        v.iter()
            .map(|&i| {
                if s.elements[i].kind == Kind::SpringDamper {
                    format!("{prefix}{}", s.elements[i].name)
                } else {
                    s.elements[i].name.clone()
                }
            })
            .collect()
    };
    let c_cols = col_names(&elastic, "c:");
    let mu_cols = col_names(&dissipative, "mu:");
    let mut t_cols = c_cols.clone();
    t_cols.extend(mu_cols.iter().cloned());
    let mut list = vec![
        Matrix {
            title: "Matrix of inertial elements",
            key: "inertial",
            rows: rows.clone(),
            cols: rows.clone(),
            entries: inertial,
        },
        Matrix {
            title: "Matrix of external actions",
            key: "actions",
            rows: rows.clone(),
            cols: s.actions.iter().map(|a| a.name.clone()).collect(),
            entries: actions,
        },
        Matrix {
            title: "Matrix of elastic elements",
            key: "elastic",
            rows: rows.clone(),
            cols: c_cols,
            entries: incidence(&elastic, false),
        },
        Matrix {
            title: "Matrix of dissipative elements",
            key: "dissipative",
            rows: rows.clone(),
            cols: mu_cols,
            entries: incidence(&dissipative, false),
        },
    ];
    if !clutches.is_empty() {
        list.push(Matrix {
            title: "Matrix of switching frictions",
            key: "friction",
            rows: rows.clone(),
            cols: names(&clutches),
            entries: incidence(&clutches, false),
        });
    }
    list.push(Matrix {
        title: "Matrix of transformer elements (between elastic/dissipative and inertial)",
        key: "transformer",
        rows,
        cols: t_cols,
        entries: transformer,
    });
    Matrices { list }
}

impl Matrices {
    /// The matrix with this JSON key.
    pub fn get(&self, key: &str) -> Option<&Matrix> {
        self.list.iter().find(|m| m.key == key)
    }

    /// Tables like the paper's, one after another.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, m) in self.list.iter().enumerate() {
            let _ = writeln!(out, "Table {}: {}", k + 2, m.title);
            let width = (m.rows.iter().chain(&m.cols))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(1)
                .max(2);
            let _ = write!(out, "{:width$}", "");
            for c in &m.cols {
                let _ = write!(out, " {c:>width$}");
            }
            out.push('\n');
            for (r, row) in m.rows.iter().zip(&m.entries) {
                let _ = write!(out, "{r:width$}");
                for v in row {
                    let _ = write!(out, " {v:>width$}");
                }
                out.push('\n');
            }
            out.push('\n');
        }
        out
    }
}

/// The JSON form: `{"matrices": {...}, "rows": [...], "columns": {...}, "paths": [...]}`.
pub fn to_json(s: &Schematic, m: &Matrices, links: &[Link]) -> serde_json::Value {
    let mut mats = serde_json::Map::new();
    let mut cols = serde_json::Map::new();
    for x in &m.list {
        mats.insert(x.key.into(), serde_json::json!(x.entries));
        cols.insert(x.key.into(), serde_json::json!(x.cols));
    }
    let paths: Vec<serde_json::Value> = links
        .iter()
        .map(|l| {
            serde_json::json!({
                "element": s.elements[l.element].name,
                "pole": l.pole + 1,
                "inertia": s.elements[l.inertia].name,
                "sign": l.sign,
                "gears": l.gears.iter().map(|(g, c)| serde_json::json!({
                    "gear": s.elements[*g].name,
                    "direction": match c { Crossing::InToOut => "input_to_output", Crossing::OutToIn => "output_to_input" },
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "schematic": s.name,
        "matrices": mats,
        "rows": m.list.first().map(|x| x.rows.clone()).unwrap_or_default(),
        "columns": cols,
        "paths": paths,
    })
}
