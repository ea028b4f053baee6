//! Lowering of submodel instances: their bindings and the inputs left unbound.

use super::Sym;
use super::resolve::{Ctx, Resolver};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;
use std::collections::HashMap;

impl Resolver<'_> {
    pub(super) fn subs(&mut self) -> Vec<Sub> {
        let decls = self.t().subs.clone();
        let mut out = Vec::new();
        for (si, decl) in decls.iter().enumerate() {
            let (name, off, doc, bindings) = (&decl.name, decl.off, &decl.doc, &decl.bindings);
            // An instance of an unknown model (E0120, reported) is left out:
            // the program has an error and is not returned.
            let Some(child) = self.sub_models[self.this][si] else {
                continue;
            };
            let ct = &self.tables[child];
            let mut param_bindings = Vec::new();
            let mut input_bindings: Vec<Binding> = Vec::new();
            let mut seen: HashMap<VarId, Span> = HashMap::new();
            for (bn, be) in bindings {
                let sym = ct.names.get(&bn.text).copied();
                let Some(Sym::Var(v)) = sym else {
                    let candidates = ct
                        .vars
                        .iter()
                        .filter(|v| !matches!(v.kind, VarKind::State))
                        .map(|v| v.name.as_str());
                    let mut d = Diagnostic::error(
                        "E0180",
                        bn.span,
                        format!(
                            "`{}` is not an input or param of `{}`",
                            bn.text,
                            self.t().subs[si].model.text
                        ),
                    )
                    .with_label("cannot be bound");
                    if let Some(s) = self.suggest(&bn.text, candidates.clone()) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    }
                    let mut list = candidates.map(|c| format!("`{c}`")).peekable();
                    d = d.with_note(if list.peek().is_none() {
                        "it has no inputs or params".to_string()
                    } else {
                        format!("its inputs and params: {}", crate::diag::list(list))
                    });
                    self.err(d);
                    continue;
                };
                let var = &ct.vars[v];
                if let Some(prev) = seen.get(&v) {
                    self.err(
                        Diagnostic::error(
                            "E0181",
                            bn.span,
                            format!("`{}` is bound twice", bn.text),
                        )
                        .with_related(*prev, "first bound here"),
                    );
                    continue;
                }
                seen.insert(v, bn.span);
                match var.kind {
                    VarKind::State => {
                        self.err(
                            Diagnostic::error(
                                "E0180",
                                bn.span,
                                format!(
                                    "`{}` is a state of `{}`, not an input or param",
                                    bn.text,
                                    self.t().subs[si].model.text
                                ),
                            )
                            .with_label("states cannot be bound")
                            .with_help(
                                "declare it `input` in the submodel to set it from the parent",
                            ),
                        );
                    }
                    VarKind::Param { .. } if decl.phase.is_some() => {
                        // A phase's params are bound at each run, from any value.
                        let value = self.expr(be, Ty::Real, Ctx::Rule);
                        input_bindings.push(Binding {
                            var: v,
                            value,
                            span: bn.span.to(be.span),
                            prev_subs: Vec::new(),
                        });
                    }
                    VarKind::Param { .. } => {
                        let value = self.expr(be, Ty::Real, Ctx::Param);
                        param_bindings.push(Binding {
                            var: v,
                            value,
                            span: bn.span.to(be.span),
                            prev_subs: Vec::new(),
                        });
                    }
                    VarKind::Input => {
                        let at_step = decl.phase.is_none().then(|| (si, Vec::new()));
                        self.binding_of = at_step;
                        let value = self.expr(be, var.ty, Ctx::Rule);
                        let prev_subs = self.binding_of.take().map(|(_, s)| s).unwrap_or_default();
                        input_bindings.push(Binding {
                            var: v,
                            value,
                            span: bn.span.to(be.span),
                            prev_subs,
                        });
                    }
                }
            }
            // Derived params of the child cannot be bound: decided after
            // the child is lowered, in `finish`.
            let phase = decl.phase.as_deref().map(|spec| self.phase(spec));
            out.push(Sub {
                name: name.text.clone(),
                model: self.new_index[&child],
                param_bindings,
                input_bindings,
                initially_on: !off && phase.is_none(),
                doc: doc.clone(),
                span: name.span,
                phase,
                placed: None,
            });
            // Unbound inputs without a default.
            let child_vars = &self.tables[child].vars;
            let child_exprs = &self.tables[child].var_exprs;
            let mut missing = Vec::new();
            for (vi, cv) in child_vars.iter().enumerate() {
                if cv.kind == VarKind::Input && child_exprs[vi].is_none() && !seen.contains_key(&vi)
                {
                    missing.push(cv.name.clone());
                }
            }
            if !missing.is_empty() {
                let list = crate::diag::list(missing.iter().map(|m| format!("`{m}`")));
                let first = &missing[0];
                self.err(
                    Diagnostic::error(
                        "E0184",
                        name.span,
                        format!(
                            "{} of `{}` {} not bound",
                            if missing.len() == 1 {
                                "the input"
                            } else {
                                "the inputs"
                            }
                            .to_string()
                                + " "
                                + &list,
                            self.t().subs[si].model.text,
                            if missing.len() == 1 { "is" } else { "are" }
                        ),
                    )
                    .with_label("every input without a default must be bound")
                    .with_help({
                        // A copy for structural bindings (`Mid(n = 3)`) joins them.
                        let model = &self.t().subs[si].model.text;
                        let (written, bound) = match crate::check::arrays::specialise::split(model)
                        {
                            Some((m, b)) => (m, format!("{b}, ")),
                            None => (model.as_str(), String::new()),
                        };
                        format!(
                            "bind it, as in `sub {}: {written}({bound}{first} = ...)`, or give \
                             it a default in `{written}`",
                            name.text
                        )
                    }),
                );
            }
        }
        out
    }
}
