//! Pass 1: each model's table of declared names, their kinds and their unlowered values.

use super::{Sym, check_name};
use crate::ast::{self, DeclKind, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;
use std::collections::HashMap;

/// A submodel declaration as written.
#[derive(Debug, Clone)]
pub(super) struct SubDecl {
    /// The instance name.
    pub name: Name,
    /// The model instantiated (resolved in pass 2).
    pub model: Name,
    /// Declared `off`.
    pub off: bool,
    /// Its doc comment lines.
    pub doc: Vec<String>,
    /// `input = value` and `param = value` bindings.
    pub bindings: Vec<(Name, ast::Expr)>,
    /// Declared as a `phase`.
    pub phase: Option<Box<ast::PhaseSpec>>,
}

/// What pass 1 learns of a model: its names and their kinds.
pub(super) struct Table {
    pub names: HashMap<String, Sym>,
    pub vars: Vec<Var>,
    pub conds: Vec<Cond>,
    pub events: Vec<Event>,
    /// Submodel declarations (model resolved in pass 2).
    pub subs: Vec<SubDecl>,
    /// Declaration source of each var/cond/event init expression.
    pub var_exprs: Vec<Option<ast::Expr>>,
    pub cond_exprs: Vec<Option<ast::Expr>>,
    pub event_exprs: Vec<Option<ast::Expr>>,
    /// Modes, complete (states checked).
    pub modes: Vec<Mode>,
    /// Lookup tables by name, checked (absent if they have errors).
    pub lookups: HashMap<String, Option<std::sync::Arc<LookupTable>>>,
}

pub(super) fn declare(
    m: &ast::Model,
    sources: &crate::source::SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Table {
    let mut t = Table {
        names: HashMap::new(),
        vars: Vec::new(),
        conds: Vec::new(),
        events: Vec::new(),
        subs: Vec::new(),
        var_exprs: Vec::new(),
        cond_exprs: Vec::new(),
        event_exprs: Vec::new(),
        modes: Vec::new(),
        lookups: HashMap::new(),
    };
    let mut spans: HashMap<String, Span> = HashMap::new();
    for d in &m.decls {
        let name = match d {
            ast::Decl::Var { name, .. } => name,
            ast::Decl::Sub { name, .. } => name,
            ast::Decl::Mode { name, .. } => name,
            ast::Decl::Table(t) => &t.name,
        };
        let what = match d {
            ast::Decl::Var { kind, .. } => kind.describe(),
            ast::Decl::Sub { .. } => "submodel",
            ast::Decl::Mode { .. } => "mode",
            ast::Decl::Table(_) => "table",
        };
        // A keyword or reserved name is reported, and still declared so
        // that its uses do not also read as unknown names.
        check_name(name, what, diags);
        if let Some(prev) = spans.get(&name.text) {
            diags.push(
                Diagnostic::error(
                    "E0102",
                    name.span,
                    format!(
                        "`{}` is declared twice in model `{}`",
                        name.text, m.name.text
                    ),
                )
                .with_label("second declaration")
                .with_related(*prev, "first declared here"),
            );
            continue;
        }
        spans.insert(name.text.clone(), name.span);
        match d {
            ast::Decl::Var {
                doc,
                kind,
                output,
                name,
                value,
                ..
            } => {
                let placeholder = Expr::Num(0.0);
                match kind {
                    DeclKind::Param
                    | DeclKind::InputReal
                    | DeclKind::InputFlag
                    | DeclKind::Real
                    | DeclKind::Flag => {
                        let (vk, ty) = match kind {
                            DeclKind::Param => (VarKind::Param { derived: false }, Ty::Real),
                            DeclKind::InputReal => (VarKind::Input, Ty::Real),
                            DeclKind::InputFlag => (VarKind::Input, Ty::Flag),
                            DeclKind::Real => (VarKind::State, Ty::Real),
                            _ => (VarKind::State, Ty::Flag),
                        };
                        if *kind == DeclKind::Param && value.is_none() {
                            diags.push(
                                Diagnostic::error(
                                    "E0105",
                                    name.span,
                                    format!("the param `{}` has no value", name.text),
                                )
                                .with_label("a param needs `= value`")
                                .with_help(format!("write `param {} = 1.0;`", name.text)),
                            );
                        }
                        // The iterates of an equation block's Newton steps.
                        let hidden = super::equations::is_hidden(doc);
                        t.names.insert(name.text.clone(), Sym::Var(t.vars.len()));
                        t.vars.push(Var {
                            name: name.text.clone(),
                            kind: vk,
                            ty,
                            output: *output,
                            init: if ty == Ty::Flag {
                                Expr::Bool(false)
                            } else {
                                placeholder
                            },
                            doc: if hidden { Vec::new() } else { doc.clone() },
                            span: name.span,
                            hidden,
                        });
                        t.var_exprs.push(value.clone());
                    }
                    DeclKind::Pred | DeclKind::Situation | DeclKind::Event => {
                        if value.is_none() {
                            diags.push(
                                Diagnostic::error(
                                    "E0105",
                                    name.span,
                                    format!(
                                        "the {} `{}` has no condition",
                                        kind.describe(),
                                        name.text
                                    ),
                                )
                                .with_label("expected `= condition`")
                                .with_help(format!(
                                    "write `{} {} = x > 0;`",
                                    kind.describe(),
                                    name.text
                                )),
                            );
                        }
                        if *kind == DeclKind::Event {
                            t.names
                                .insert(name.text.clone(), Sym::Event(t.events.len()));
                            t.events.push(Event {
                                name: name.text.clone(),
                                output: *output,
                                cond: Expr::Bool(false),
                                hidden: false,
                                doc: doc.clone(),
                                span: name.span,
                            });
                            t.event_exprs.push(value.clone());
                        } else {
                            t.names.insert(name.text.clone(), Sym::Cond(t.conds.len()));
                            t.conds.push(Cond {
                                name: name.text.clone(),
                                kind: if *kind == DeclKind::Pred {
                                    CondKind::Pred
                                } else {
                                    CondKind::Situation
                                },
                                output: *output,
                                expr: Expr::Bool(false),
                                doc: doc.clone(),
                                span: name.span,
                            });
                            t.cond_exprs.push(value.clone());
                        }
                    }
                }
            }
            ast::Decl::Sub {
                doc,
                name,
                model,
                bindings,
                off,
                phase,
            } => {
                t.names.insert(name.text.clone(), Sym::Sub(t.subs.len()));
                t.subs.push(SubDecl {
                    name: name.clone(),
                    model: model.clone(),
                    off: *off,
                    doc: doc.clone(),
                    bindings: bindings.clone(),
                    phase: phase.clone(),
                });
            }
            ast::Decl::Mode {
                doc,
                output,
                name,
                states,
            } => {
                t.names.insert(name.text.clone(), Sym::Mode(t.modes.len()));
                t.modes
                    .push(super::modes::declare(doc, *output, name, states, diags));
            }
            ast::Decl::Table(d) => {
                let table = super::table::build(d, sources, diags);
                t.lookups
                    .insert(name.text.clone(), table.map(std::sync::Arc::new));
            }
        }
    }
    t
}
