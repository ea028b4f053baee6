//! The cells of arrays: each array's sizes, one declaration per cell at the array's place with its value, and the check that every cell of an array of states is assigned.

use super::{Array, Cx, MAX_CELLS, cell_name, eval, unflatten};
use crate::ast::{ArrayDecl, ArrayInit, Decl, DeclKind, Expr, ExprKind, Model, Name};
use crate::diag::Diagnostic;
use crate::source::Span;

impl<'a> Cx<'a> {
    /// Records the arrays with their sizes.
    pub(super) fn declare_arrays(&mut self, arrays: &'a [ArrayDecl]) {
        let mut cells: i64 = 0;
        for a in arrays {
            if self.declared.contains(a.name.text.as_str())
                || self.arrays.contains_key(&a.name.text)
            {
                self.report(
                    Diagnostic::error(
                        "E0102",
                        a.name.span,
                        format!("`{}` is declared twice", a.name.text),
                    )
                    .with_label("second declaration, an array"),
                );
                continue;
            }
            let what = format!("the size of `{}`", a.name.text);
            let mut dims = Vec::with_capacity(a.dims.len());
            for d in &a.dims {
                match self.whole(d, &what) {
                    Some(n) if n >= 1 => dims.push(n),
                    Some(n) => {
                        self.report(
                            Diagnostic::error(
                                "E0460",
                                d.span,
                                format!(
                                    "{what} must be at least 1, and `{}` is {n}",
                                    eval::show(d)
                                ),
                            )
                            .with_label("no cell"),
                        );
                    }
                    None => {}
                }
            }
            if dims.len() != a.dims.len() {
                dims.clear();
            }
            let count = dims.iter().try_fold(1i64, |n, d| n.checked_mul(*d));
            match count {
                Some(n) if cells.saturating_add(n) <= MAX_CELLS => cells += n,
                _ => {
                    self.report(
                        Diagnostic::error(
                            "E0466",
                            a.name.span,
                            format!(
                                "the arrays of the model hold more than {MAX_CELLS} cells with `{}`",
                                a.name.text
                            ),
                        )
                        .with_label("too many cells"),
                    );
                    dims.clear();
                }
            }
            let n = if dims.is_empty() {
                0
            } else {
                count.unwrap_or(0) as usize
            };
            self.arrays.insert(
                a.name.text.clone(),
                Array {
                    dims,
                    kind: a.kind,
                    name: a.name.span,
                    assigned: vec![false; n],
                },
            );
        }
    }

    /// The declarations of `m`, the arrays' cells at their places, the structural
    /// params left out, the values expanded.
    pub(super) fn decls(&mut self, m: &'a Model) -> Vec<Decl> {
        let cells: usize = self.arrays.values().map(|a| a.assigned.len()).sum();
        let mut out = Vec::with_capacity(m.decls.len() + cells);
        let mut arrays = m.arrays.iter().peekable();
        for (k, d) in m.decls.iter().enumerate() {
            while let Some(a) = arrays.next_if(|a| a.at <= k) {
                self.cells(a, &mut out);
            }
            match d {
                Decl::Var {
                    kind: DeclKind::Param,
                    name,
                    ..
                } if self.values.contains_key(&name.text) => {}
                Decl::Var {
                    doc,
                    kind,
                    output,
                    name,
                    unit,
                    value,
                } => out.push(Decl::Var {
                    doc: doc.clone(),
                    kind: *kind,
                    output: *output,
                    name: name.clone(),
                    unit: unit.clone(),
                    value: value.as_ref().map(|v| self.expr(v)),
                }),
                Decl::Sub {
                    doc,
                    name,
                    model,
                    bindings,
                    off,
                    phase,
                } => {
                    let bindings = (bindings.iter())
                        .map(|(n, e)| (n.clone(), self.expr(e)))
                        .collect();
                    let phase = phase.as_ref().map(|p| {
                        let mut p = p.clone();
                        p.until = self.expr(&p.until);
                        p
                    });
                    out.push(Decl::Sub {
                        doc: doc.clone(),
                        name: name.clone(),
                        model: model.clone(),
                        bindings,
                        off: *off,
                        phase,
                    });
                }
                d => out.push(d.clone()),
            }
        }
        for a in arrays {
            self.cells(a, &mut out);
        }
        out
    }

    /// The declarations of the cells of `a`, in row-major order.
    fn cells(&mut self, a: &ArrayDecl, out: &mut Vec<Decl>) {
        let dims = match self.arrays.get(&a.name.text) {
            Some(arr) if arr.name == a.name.span && !arr.dims.is_empty() => arr.dims.clone(),
            // An error in its sizes: one variable of its name stands for it, so that
            // its reads report nothing more.
            Some(arr) if arr.name == a.name.span => {
                let zero = Expr {
                    kind: ExprKind::Num(0.0),
                    span: a.name.span,
                };
                out.push(Decl::Var {
                    doc: a.doc.clone(),
                    kind: a.kind,
                    output: a.output,
                    name: a.name.clone(),
                    unit: a.unit.clone(),
                    value: Some(zero),
                });
                return;
            }
            _ => return,
        };
        let total = dims.iter().product::<i64>() as usize;
        // The value of each cell, in row-major order.
        let values: Vec<Option<Expr>> = match &a.init {
            None => vec![None; total],
            Some(ArrayInit::Each(e)) => vec![Some(self.expr(e)); total],
            Some(ArrayInit::List(items, span)) => {
                if dims.len() != 1 || items.len() != total {
                    self.mismatch(a, *span, &format!("{} values", items.len()), &dims);
                    return self.placeholders(a, &dims, out);
                }
                items.iter().map(|e| Some(self.expr(e))).collect()
            }
            Some(ArrayInit::Comprehension(g)) => {
                let mut fits = g.ranges.len() == dims.len();
                for (r, &n) in g.ranges.iter().zip(&dims) {
                    let what = format!("the bound of `{}`", r.var.text);
                    let (from, to) = (self.whole(&r.from, &what), self.whole(&r.to, &what));
                    if from.is_none() || to.is_none() {
                        return;
                    }
                    fits &= from == Some(1) && to == Some(n);
                }
                if !fits {
                    let ranges: Vec<String> = (g.ranges.iter())
                        .map(|r| {
                            format!(
                                "{} in {}:{}",
                                r.var.text,
                                eval::show(&r.from),
                                eval::show(&r.to)
                            )
                        })
                        .collect();
                    self.mismatch(a, g.span, &format!("`{}`", ranges.join(", ")), &dims);
                    return self.placeholders(a, &dims, out);
                }
                let mut values = Vec::with_capacity(total);
                let body = &g.body;
                self.each(&g.ranges, &mut |cx| values.push(Some(cx.expr(body))));
                if values.len() != total {
                    return self.placeholders(a, &dims, out);
                }
                values
            }
        };
        self.declare_cells(a, &dims, values, out);
    }

    /// The cells of `a` declared with the value 0, after an error in its values (so
    /// that its reads report nothing more).
    fn placeholders(&mut self, a: &ArrayDecl, dims: &[i64], out: &mut Vec<Decl>) {
        let total = dims.iter().product::<i64>() as usize;
        let zero = Expr {
            kind: ExprKind::Num(0.0),
            span: a.name.span,
        };
        self.declare_cells(a, dims, vec![Some(zero); total], out);
    }

    /// Declares the cells of `a` with `values` (row-major).
    fn declare_cells(
        &mut self,
        a: &ArrayDecl,
        dims: &[i64],
        values: Vec<Option<Expr>>,
        out: &mut Vec<Decl>,
    ) {
        let mut idx = vec![1i64; dims.len()];
        for value in values {
            out.push(Decl::Var {
                doc: a.doc.clone(),
                kind: a.kind,
                output: a.output,
                name: Name {
                    text: cell_name(&a.name.text, &idx),
                    span: a.name.span,
                },
                unit: a.unit.clone(),
                value,
            });
            for k in (0..dims.len()).rev() {
                idx[k] += 1;
                if idx[k] <= dims[k] {
                    break;
                }
                idx[k] = 1;
            }
        }
    }

    /// Reports E0465: the initial values `what` of `a` do not fit its `dims`.
    fn mismatch(&mut self, a: &ArrayDecl, span: Span, what: &str, dims: &[i64]) {
        let ranges: Vec<String> = dims.iter().map(|n| format!("1:{n}")).collect();
        let vars = ["i", "j", "k", "l"];
        let example: Vec<String> = (dims.iter().enumerate())
            .map(|(k, n)| format!("{} in 1:{n}", vars.get(k).unwrap_or(&"i")))
            .collect();
        self.report(
            Diagnostic::error(
                "E0465",
                span,
                format!(
                    "the values of `{}` do not fit its cells: {what} for the indices {}",
                    a.name.text,
                    ranges.join(", ")
                ),
            )
            .with_label("does not match the size")
            .with_related(a.name.span, "declared here")
            .with_help(format!(
                "give one value per cell, `[… for {}]`, or one value for all",
                example.join(", ")
            )),
        );
    }

    /// Reports E0463 for each array of states with cells that no rule assigns.
    pub(super) fn unassigned(&mut self, arrays: &[ArrayDecl]) {
        for decl in arrays {
            let Some(a) = self.arrays.get(&decl.name.text) else {
                continue;
            };
            if a.kind != DeclKind::Real || a.name != decl.name.span || a.dims.is_empty() {
                continue;
            }
            let missing: Vec<usize> = (a.assigned.iter().enumerate())
                .filter(|(_, done)| !**done)
                .map(|(k, _)| k)
                .collect();
            if missing.is_empty() {
                continue;
            }
            let dims = a.dims.clone();
            let shown: Vec<String> = (missing.iter().take(4))
                .map(|&k| format!("`{}`", cell_name(&decl.name.text, &unflatten(k, &dims))))
                .collect();
            let more = match missing.len() {
                n if n > 4 => format!(" and {} more", n - 4),
                _ => String::new(),
            };
            self.report(
                Diagnostic::error(
                    "E0463",
                    decl.name.span,
                    format!(
                        "{} of the {} cells of `{}` {} never assigned: {}{more}",
                        missing.len(),
                        a.assigned.len(),
                        decl.name.text,
                        if missing.len() == 1 { "is" } else { "are" },
                        shown.join(", ")
                    ),
                )
                .with_label("a cell no rule assigns keeps its initial value")
                .with_help(
                    "assign the boundary cells in rules outside the loop (`T[1] = …;`), or \
                     declare a constant array as a `param`",
                ),
            );
        }
    }
}
