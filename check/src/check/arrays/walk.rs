//! Walks over the syntax of arrays and loops: whether a model has any, where its loops are, and which names sizes, bounds and indices read.

use crate::ast::{
    Action, ArrayInit, Decl, Expr, ExprKind, Generator, Guard, LoopRange, Model, Name, Rule,
};
use crate::source::Span;

/// The expressions directly inside `e`.
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) | ExprKind::Path(_) => {
            Vec::new()
        }
        ExprKind::Call(_, args) => args.iter().collect(),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => vec![a],
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::Compare(a, rest) => std::iter::once(&**a)
            .chain(rest.iter().map(|(_, b)| b))
            .collect(),
        ExprKind::Index(_, ix) => ix.iter().collect(),
        ExprKind::Reduce(_, g) => generator_exprs(g),
    }
}

/// The expressions of a generator: its body and its ranges' bounds.
fn generator_exprs(g: &Generator) -> Vec<&Expr> {
    std::iter::once(&g.body)
        .chain(g.ranges.iter().flat_map(|r| [&r.from, &r.to]))
        .collect()
}

/// Calls `f` on `e` and every expression inside it (pre-order, with an explicit stack).
fn each_expr<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        f(e);
        stack.extend(children(e));
    }
}

/// The expressions written directly in the rule `r` (not in its inner rules).
fn rule_exprs(r: &Rule) -> Vec<&Expr> {
    match r {
        Rule::Assign {
            index,
            value,
            guard,
            ..
        } => {
            let mut v: Vec<&Expr> = index.iter().chain([value]).collect();
            if let Guard::When(c) = guard {
                v.push(c);
            }
            v
        }
        Rule::Sigma { cond, actions, .. } => std::iter::once(cond)
            .chain(actions.iter().flat_map(|a| match a {
                Action::Set { index, .. } => index.as_slice(),
                _ => &[],
            }))
            .collect(),
        Rule::Block { cond, .. } => vec![cond],
        Rule::Equation { lhs, rhs, .. } => vec![lhs, rhs],
        Rule::Step { .. } => Vec::new(),
        Rule::Transition { guard, .. } => guard.iter().collect(),
        Rule::For(f) => f.ranges.iter().flat_map(|r| [&r.from, &r.to]).collect(),
    }
}

/// The rules inside `r`.
fn inner_rules(r: &Rule) -> &[Rule] {
    match r {
        Rule::Block { rules, .. } | Rule::Transition { rules, .. } => rules,
        Rule::For(f) => &f.rules,
        _ => &[],
    }
}

/// Whether any rule of `rules` is a loop, assigns a cell or reads an array.
pub(super) fn rules_use_arrays(rules: &[Rule]) -> bool {
    rules.iter().any(|r| {
        let direct = match r {
            Rule::For(_) => true,
            Rule::Assign { index, .. } => !index.is_empty(),
            Rule::Sigma { actions, .. } => (actions.iter())
                .any(|a| matches!(a, Action::Set { index, .. } if !index.is_empty())),
            _ => false,
        };
        direct
            || rule_exprs(r).into_iter().any(|e| {
                let mut found = false;
                each_expr(e, &mut |x| {
                    found |= matches!(x.kind, ExprKind::Index(..) | ExprKind::Reduce(..))
                });
                found
            })
            || rules_use_arrays(inner_rules(r))
    })
}

/// Whether an expression of `m` outside its rules reads an array cell or reduces over
/// a range: a declaration's value (`output real last = rod.T[4];`), a binding of a
/// submodel or a part, a phase's or a substep's expression.
pub(super) fn decls_use_arrays(m: &Model) -> bool {
    let mut exprs: Vec<&Expr> = Vec::new();
    for d in &m.decls {
        match d {
            Decl::Var { value: Some(v), .. } => exprs.push(v),
            Decl::Sub {
                bindings, phase, ..
            } => {
                exprs.extend(bindings.iter().map(|(_, e)| e));
                if let Some(p) = phase {
                    exprs.extend([&p.step, &p.limit, &p.until]);
                }
            }
            _ => {}
        }
    }
    for p in &m.parts {
        exprs.extend(p.bindings.iter().map(|(_, e)| e));
    }
    for s in &m.substeps {
        exprs.extend([&s.count, &s.limit]);
        exprs.extend(&s.when);
    }
    exprs.into_iter().any(|e| {
        let mut found = false;
        each_expr(e, &mut |x| {
            found |= matches!(x.kind, ExprKind::Index(..) | ExprKind::Reduce(..))
        });
        found
    })
}

/// Where `r` ends in the source (a block's or loop's last rule).
fn rule_end(r: &Rule) -> usize {
    let own = match r {
        Rule::Assign { span, .. }
        | Rule::Sigma { span, .. }
        | Rule::Block { span, .. }
        | Rule::Equation { span, .. }
        | Rule::Step { span, .. }
        | Rule::Transition { span, .. } => span.end,
        Rule::For(f) => f.span.end,
    };
    inner_rules(r).iter().map(rule_end).fold(own, usize::max)
}

/// Pushes the extent of every `for` loop of `rules` (from `for` to its last rule).
pub(super) fn loop_extents(rules: &[Rule], out: &mut Vec<Span>) {
    for r in rules {
        if let Rule::For(f) = r {
            out.push(Span::new(f.span.file, f.span.start, rule_end(r)));
        }
        loop_extents(inner_rules(r), out);
    }
}

/// Pushes the names read by the whole-number expressions of `m`: its arrays' sizes,
/// the bounds of its loops and generators, and its indices.
pub(super) fn integer_names<'m>(m: &'m Model, out: &mut Vec<&'m Name>) {
    let mut ints: Vec<&'m Expr> = Vec::new();
    let ranges = |rs: &'m [LoopRange], ints: &mut Vec<&'m Expr>| {
        ints.extend(rs.iter().flat_map(|r| [&r.from, &r.to]));
    };
    let mut all: Vec<&'m Expr> = Vec::new();
    for a in &m.arrays {
        ints.extend(&a.dims);
        match &a.init {
            Some(ArrayInit::Each(e)) => all.push(e),
            Some(ArrayInit::List(items, _)) => all.extend(items),
            Some(ArrayInit::Comprehension(g)) => {
                ranges(&g.ranges, &mut ints);
                all.push(&g.body);
            }
            None => {}
        }
    }
    for d in &m.decls {
        if let Decl::Var { value: Some(v), .. } = d {
            all.push(v);
        }
    }
    let mut stack: Vec<&'m Rule> = m.rules.iter().collect();
    while let Some(r) = stack.pop() {
        if let Rule::For(f) = r {
            ranges(&f.ranges, &mut ints);
        }
        if let Rule::Assign { index, .. } = r {
            ints.extend(index);
        }
        all.extend(rule_exprs(r));
        stack.extend(inner_rules(r));
    }
    for e in all {
        each_expr(e, &mut |x| match &x.kind {
            ExprKind::Index(_, ix) => ints.extend(ix),
            ExprKind::Reduce(_, g) => ints.extend(g.ranges.iter().flat_map(|r| [&r.from, &r.to])),
            _ => {}
        });
    }
    for e in ints {
        each_expr(e, &mut |x| {
            if let ExprKind::Path(names) = &x.kind
                && names.len() == 1
            {
                out.push(&names[0]);
            }
        });
    }
}

/// Whether `e` reads the name `var`.
pub(super) fn reads(e: &Expr, var: &str) -> bool {
    let mut found = false;
    each_expr(e, &mut |x| {
        if let ExprKind::Path(names) = &x.kind {
            found |= names.len() == 1 && names[0].text == var;
        }
    });
    found
}

/// Calls `f` with each single name read in `e` (a path of one name).
pub(super) fn each_name(e: &Expr, f: &mut dyn FnMut(&str)) {
    each_expr(e, &mut |x| {
        if let ExprKind::Path(names) = &x.kind
            && let [n] = &names[..]
        {
            f(&n.text);
        }
    });
}
