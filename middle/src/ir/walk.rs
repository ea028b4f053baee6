//! The one walk over the IR's statements, and what every analysis asks of a statement.

use super::{Assign, Span, Stmt};

impl Stmt {
    /// The statements this one holds (a guarded block's, a loop's body), in order; empty
    /// for the others.
    pub fn children(&self) -> &[Stmt] {
        match self {
            Stmt::If { then: body, .. } | Stmt::Repeat { body, .. } => body,
            Stmt::Assign(_)
            | Stmt::Otherwise { .. }
            | Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::SetMode { .. }
            | Stmt::Reset { .. }
            | Stmt::Run { .. }
            | Stmt::NoteModes { .. }
            | Stmt::SetDt { .. } => &[],
        }
    }

    /// Where the statement is written: its rule, action, guard or (for the statements
    /// of a method's rewrite) the model.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => a.span,
            Stmt::If { span, .. }
            | Stmt::SetFlag { span, .. }
            | Stmt::Switch { span, .. }
            | Stmt::SetMode { span, .. }
            | Stmt::Reset { span, .. }
            | Stmt::Run { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::NoteModes { span }
            | Stmt::SetDt { span, .. } => *span,
        }
    }

    /// The δ assignment of a rule (plain or `otherwise`), if this is one.
    pub fn assign(&self) -> Option<&Assign> {
        match self {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => Some(a),
            _ => None,
        }
    }
}

/// Calls `f` on every statement of `body` and of the statements it holds, in
/// pre-order (each statement before those it holds, in textual order): the one walk
/// over statements that the analyses of the IR share.
pub fn walk<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in body {
        f(s);
        walk(s.children(), f);
    }
}
