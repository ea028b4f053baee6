//! Syntax trees built directly: the nodes syn would parse from the generated tokens.
//!
//! The rules of `step` are most of a large model's code; building their `syn` trees
//! here rather than tokens that `format` would parse back saves the parse (the largest
//! cost of `emit`). Each constructor makes the node syn's parser makes for the same text,
//! so that prettyplease prints the same text (the snapshots pin it).

use proc_macro2::{Ident, Span, TokenStream};
use syn::punctuated::Punctuated;
use syn::{BinOp, Block, Expr, Lit, Member, Path, PathSegment, Stmt, UnOp};

/// An identifier.
pub(crate) fn id(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// A path `a::b::c`, `::a::b` with `global`.
pub(crate) fn path(global: bool, segments: &[&str]) -> Expr {
    path_of(global, segments.iter().map(|s| id(s)))
}

/// A path of identifiers.
pub(crate) fn path_of(global: bool, segments: impl IntoIterator<Item = Ident>) -> Expr {
    Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path: Path {
            leading_colon: global.then(Default::default),
            segments: segments.into_iter().map(PathSegment::from).collect(),
        },
    })
}

/// `base.name`.
pub(crate) fn field(base: Expr, name: Ident) -> Expr {
    Expr::Field(syn::ExprField {
        attrs: Vec::new(),
        base: Box::new(base),
        dot_token: Default::default(),
        member: Member::Named(name),
    })
}

/// `base.name(args)`.
pub(crate) fn method(base: Expr, name: Ident, args: impl IntoIterator<Item = Expr>) -> Expr {
    Expr::MethodCall(syn::ExprMethodCall {
        attrs: Vec::new(),
        receiver: Box::new(base),
        dot_token: Default::default(),
        method: name,
        turbofish: None,
        paren_token: Default::default(),
        args: args
            .into_iter()
            .collect::<Punctuated<Expr, syn::Token![,]>>(),
    })
}

/// `func(args)`.
pub(crate) fn call(func: Expr, args: impl IntoIterator<Item = Expr>) -> Expr {
    Expr::Call(syn::ExprCall {
        attrs: Vec::new(),
        func: Box::new(func),
        paren_token: Default::default(),
        args: args.into_iter().collect(),
    })
}

/// `a op b`.
pub(crate) fn binary(a: Expr, op: BinOp, b: Expr) -> Expr {
    Expr::Binary(syn::ExprBinary {
        attrs: Vec::new(),
        left: Box::new(a),
        op,
        right: Box::new(b),
    })
}

/// `op e`.
pub(crate) fn unary(op: UnOp, e: Expr) -> Expr {
    Expr::Unary(syn::ExprUnary {
        attrs: Vec::new(),
        op,
        expr: Box::new(e),
    })
}

/// `(e)`.
pub(crate) fn paren(e: Expr) -> Expr {
    Expr::Paren(syn::ExprParen {
        attrs: Vec::new(),
        paren_token: Default::default(),
        expr: Box::new(e),
    })
}

/// A literal.
pub(crate) fn lit(lit: Lit) -> Expr {
    Expr::Lit(syn::ExprLit {
        attrs: Vec::new(),
        lit,
    })
}

/// `true` or `false`.
pub(crate) fn bool_lit(b: bool) -> Expr {
    lit(Lit::Bool(syn::LitBool::new(b, Span::call_site())))
}

/// An unsuffixed integer literal.
pub(crate) fn usize_lit(n: usize) -> Expr {
    lit(Lit::Int(syn::LitInt::new(
        &n.to_string(),
        Span::call_site(),
    )))
}

/// `base[index]`.
pub(crate) fn index(base: Expr, index: Expr) -> Expr {
    Expr::Index(syn::ExprIndex {
        attrs: Vec::new(),
        expr: Box::new(base),
        bracket_token: Default::default(),
        index: Box::new(index),
    })
}

/// `left = right;`
pub(crate) fn assign(left: Expr, right: Expr) -> Stmt {
    semi(Expr::Assign(syn::ExprAssign {
        attrs: Vec::new(),
        left: Box::new(left),
        eq_token: Default::default(),
        right: Box::new(right),
    }))
}

/// `e;`
pub(crate) fn semi(e: Expr) -> Stmt {
    Stmt::Expr(e, Some(Default::default()))
}

/// `if cond { stmts }`.
pub(crate) fn if_(cond: Expr, stmts: Vec<Stmt>) -> Stmt {
    Stmt::Expr(
        Expr::If(syn::ExprIf {
            attrs: Vec::new(),
            if_token: Default::default(),
            cond: Box::new(cond),
            then_branch: Block {
                brace_token: Default::default(),
                stmts,
            },
            else_branch: None,
        }),
        None,
    )
}

/// `name!(tokens);`
pub(crate) fn macro_stmt(name: &str, tokens: TokenStream) -> Stmt {
    Stmt::Macro(syn::StmtMacro {
        attrs: Vec::new(),
        mac: syn::Macro {
            path: Path::from(id(name)),
            bang_token: Default::default(),
            delimiter: syn::MacroDelimiter::Paren(Default::default()),
            tokens,
        },
        semi_token: Some(Default::default()),
    })
}
