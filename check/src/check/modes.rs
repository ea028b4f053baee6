//! Modes in the checker: their declarations, comparisons with a state, and transitions.

use super::Sym;
use super::resolve::{Ctx, Resolver};
use crate::ast::{self, ExprKind, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;

/// The names a state may have that name nothing else.
const SWITCH_STATES: [&str; 2] = ["on", "off"];

/// The mode declared as `mode name { states }`; E0420 for a state named twice.
pub(super) fn declare(
    doc: &[String],
    output: bool,
    name: &Name,
    states: &[Name],
    diags: &mut Vec<Diagnostic>,
) -> Mode {
    let mut mode = Mode {
        name: name.text.clone(),
        output,
        states: Vec::new(),
        state_spans: Vec::new(),
        doc: doc.to_vec(),
        span: name.span,
    };
    for s in states {
        // A state is read only in its own places: after `mode … {`, in
        // `mode == state` and in a transition `mode: a -> b`, where no other
        // name is read. So the states of a switch, `on` and `off`, may be
        // written as such, though `on` names a submodel's switch and `off`
        // is a keyword elsewhere.
        if !SWITCH_STATES.contains(&s.text.as_str()) {
            super::check_name(s, "state", diags);
        }
        if let Some(k) = mode.states.iter().position(|x| *x == s.text) {
            diags.push(
                Diagnostic::error(
                    "E0420",
                    s.span,
                    format!("the mode `{}` has two states `{}`", name.text, s.text),
                )
                .with_label("second state of this name")
                .with_related(mode.state_spans[k], "first here"),
            );
            continue;
        }
        mode.states.push(s.text.clone());
        mode.state_spans.push(s.span);
    }
    mode
}

/// A mode as seen from the model reading it.
enum Seen {
    /// A mode of this model.
    Own(ModeId),
    /// A mode of a direct submodel (readable when it is an output).
    Sub(SubId, ModeId),
}

impl Resolver<'_> {
    /// The mode that `path` names (its own, or a direct submodel's), if it names one.
    fn seen_mode(&self, path: &[Name]) -> Option<(Seen, Mode)> {
        match path {
            [one] => match self.t().names.get(&one.text) {
                Some(&Sym::Mode(m)) => Some((Seen::Own(m), self.t().modes[m].clone())),
                _ => None,
            },
            [sub, member] => {
                let Some(&Sym::Sub(s)) = self.t().names.get(&sub.text) else {
                    return None;
                };
                let child = self.sub_models[self.this][s]?;
                let ct = &self.tables[child];
                match ct.names.get(&member.text) {
                    Some(&Sym::Mode(m)) => Some((Seen::Sub(s, m), ct.modes[m].clone())),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `mode == state`, `mode != state` or `sub.mode == state` as a logical value;
    /// `None` when `first` is not a mode (an ordinary comparison).
    pub(super) fn mode_compare(
        &mut self,
        first: &ast::Expr,
        rest: &[(CmpOp, ast::Expr)],
        ctx: Ctx,
    ) -> Option<(Expr, Ty)> {
        let ExprKind::Path(path) = &first.kind else {
            return None;
        };
        if let [sub, _] = &path[..]
            && let Some(&Sym::Sub(s)) = self.t().names.get(&sub.text)
            && self.sub_models[self.this][s].is_none()
            && let [(CmpOp::Eq | CmpOp::Ne, rhs)] = rest
            && let ExprKind::Path(state) = &rhs.kind
            && let [state] = &state[..]
            && !self.t().names.contains_key(&state.text)
        {
            // `sub.x == name` of a submodel of an unknown model, `name` not declared
            // here: `x` may be a mode and `name` its state, unknown with the model.
            self.unknown_reads += 1;
            return Some((Expr::Bool(false), Ty::Flag));
        }
        let (seen, mode) = self.seen_mode(path)?;
        let bad = Some((Expr::Bool(false), Ty::Flag));
        if matches!(seen, Seen::Sub(..)) && !mode.output {
            // E0143, from the reading of a submodel's variable.
            let _ = self.path(path, first.span, ctx);
            return bad;
        }
        if ctx != Ctx::Rule {
            self.not_here(&path[0], ctx, "a mode");
            return bad;
        }
        let [(op @ (CmpOp::Eq | CmpOp::Ne), rhs)] = rest else {
            self.bare_mode(path.last().unwrap_or(&path[0]), &mode);
            return bad;
        };
        // An unknown state is its one error (E0422): the comparison is not read again as
        // an ordinary one, which would report the mode as a value and the state as an
        // unknown name.
        let Some(state) = self.state(&mode, rhs) else {
            return bad;
        };
        let x = match seen {
            Seen::Own(m) => Expr::InMode(m, state),
            Seen::Sub(s, m) => Expr::SubInMode(s, m, state),
        };
        Some((
            if *op == CmpOp::Ne {
                Expr::Not(Box::new(x))
            } else {
                x
            },
            Ty::Flag,
        ))
    }

    /// The state of `mode` that `e` names, or E0422.
    fn state(&mut self, mode: &Mode, e: &ast::Expr) -> Option<StateId> {
        let name = match &e.kind {
            ExprKind::Path(p) if p.len() == 1 => p[0].text.as_str(),
            _ => "",
        };
        if let Some(k) = mode.states.iter().position(|s| s == name) {
            return Some(k);
        }
        self.unknown_state(mode, e.span, name);
        None
    }

    /// E0422: `name` (empty when not a name) is not a state of `mode`.
    fn unknown_state(&mut self, mode: &Mode, span: Span, name: &str) {
        let states = crate::diag::list(mode.states.iter().map(|s| format!("`{s}`")));
        let mut d = if name.is_empty() {
            Diagnostic::error(
                "E0422",
                span,
                format!(
                    "a mode is compared with one of its states, and this is not a name (mode `{}`)",
                    mode.name
                ),
            )
            .with_label("expected a state")
        } else {
            Diagnostic::error(
                "E0422",
                span,
                format!("the mode `{}` has no state `{name}`", mode.name),
            )
            .with_label("unknown state")
        };
        match self.suggest(name, mode.states.iter().map(String::as_str)) {
            Some(s) if !name.is_empty() => d = d.with_help(format!("did you mean `{s}`?")),
            _ => d = d.with_note(format!("its states: {states}")),
        }
        self.err(d);
    }

    /// E0421: a mode read as a value instead of compared with a state.
    pub(super) fn bare_mode(&mut self, name: &Name, mode: &Mode) {
        let first = mode.states.first().map_or("STATE", String::as_str);
        self.err(
            Diagnostic::error(
                "E0421",
                name.span,
                format!(
                    "the mode `{}` is read by comparing it with one of its states",
                    name.text
                ),
            )
            .with_label("a mode, not a value")
            .with_help(format!(
                "write `{0} == {first}` or `{0} != {first}`",
                name.text
            )),
        );
    }

    /// E0421 for `sub.mode` read as a value (`sub` names the submodel).
    pub(super) fn bare_sub_mode(&mut self, sub: SubId, member: &Name) {
        let Some(child) = self.sub_models[self.this][sub] else {
            return;
        };
        let ct = &self.tables[child];
        let Some(&Sym::Mode(m)) = ct.names.get(&member.text) else {
            return;
        };
        let mode = ct.modes[m].clone();
        let name = Name {
            text: format!("{}.{}", self.t().subs[sub].name.text, member.text),
            span: member.span,
        };
        self.bare_mode(&name, &mode);
    }

    /// The transition `mode: from -> to when guard { then }`, as the guarded statements
    /// the contract of [`crate::ir`] gives it; `None` after an error.
    pub(super) fn transition(
        &mut self,
        mode: &Name,
        from: &Name,
        to: &Name,
        guard: Option<&ast::Expr>,
        then: Vec<Stmt>,
        span: Span,
    ) -> Option<Stmt> {
        let cond = guard.map(|g| self.expr(g, Ty::Flag, Ctx::Rule));
        let m = match self.t().names.get(&mode.text).copied() {
            Some(Sym::Mode(m)) => m,
            None => {
                self.unknown(mode, Ctx::Rule);
                return None;
            }
            Some(_) => {
                self.err(
                    Diagnostic::error("E0423", mode.span, format!("`{}` is not a mode", mode.text))
                        .with_label("a transition changes a mode")
                        .with_help(format!(
                            "declare it as one: `mode {} {{ {}, {} }}`",
                            mode.text, from.text, to.text
                        )),
                );
                return None;
            }
        };
        let md = self.t().modes[m].clone();
        let name_of = |s: &mut Self, n: &Name| {
            let k = md.states.iter().position(|x| *x == n.text);
            if k.is_none() {
                s.unknown_state(&md, n.span, &n.text);
            }
            k
        };
        let (f, t) = (name_of(self, from), name_of(self, to));
        let (f, t) = (f?, t?);
        if f == t {
            self.err(
                Diagnostic::error(
                    "E0424",
                    to.span,
                    format!(
                        "a transition of `{}` from `{}` to itself",
                        mode.text, to.text
                    ),
                )
                .with_label("the same state")
                .with_help(
                    "a transition changes the state; to act while in a state, write \
                     `when MODE == STATE { ... }`",
                ),
            );
            return None;
        }
        let at = Expr::And(
            Box::new(Expr::ModeAtStart(m, f)),
            Box::new(Expr::InMode(m, f)),
        );
        let cond = match cond {
            Some(c) => Expr::And(Box::new(at), Box::new(c)),
            None => at,
        };
        let mut body = vec![Stmt::SetMode {
            mode: m,
            state: t,
            span,
        }];
        body.extend(then);
        Some(Stmt::If {
            cond,
            then: body,
            span,
        })
    }
}
