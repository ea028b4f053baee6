//! The initial pass of reset: the rules that compute a variable from others, run once so that the t = 0 row is consistent.
//!
//! A real state is *computed* when every one of its rules is a plain expression (no
//! `integral`, `lag`, `deriv`, `hysteresis`) that reads neither the state itself nor
//! `dt`, a top-level rule (unguarded, or `otherwise`) assigns it in every step, and
//! nothing in a step reads it before that rule: no earlier rule or guard, no event
//! (events are evaluated before the rules), no input binding of its own submodels, and
//! no input binding in a parent of a submodel declared before this instance (those are
//! evaluated before this instance steps), no condition or count of sub-steps (read at
//! the start of the step). A step therefore never sees, and always
//! overwrites, the value a computed state had before it: running its rules once more at
//! reset changes nothing a step computes, only the values at t = 0 (`total = a + b`
//! shows `a + b`, not its declared initial value), as the host sees them.
//!
//! The pass is the model's body with only the rules of computed states kept (their
//! guards kept around them, σ actions dropped), run with every event false and `dt = 0`.

use crate::ir::{self, Expr, ModelId, Program, Rhs, Stmt};

/// The rules of the initial pass of model `id`: its body restricted to the rules of
/// computed states, in textual order, with their guards.
pub(crate) fn pass(program: &Program, id: ModelId) -> Vec<Stmt> {
    let computed = computed(program, id);
    keep(&program.models[id].body, &computed)
}

/// Per variable of model `id`: whether it is a computed state (see the module
/// documentation).
pub(crate) fn computed(program: &Program, id: ModelId) -> Vec<bool> {
    let m = &program.models[id];
    let n = m.vars.len();
    let mut bad = vec![false; n];
    // Read before the rules: by the events, by the input bindings of the submodels, and
    // by a parent's bindings evaluated before this instance steps.
    let mut before: Vec<&Expr> = m.events.iter().map(|e| &e.cond).collect();
    // The sub-steps' condition and count are read at the very start of the step.
    before.extend(m.substeps.iter().flat_map(|s| [&s.when, &s.count]));
    // (A phase's bindings are read where its `run` stands, a placed submodel's where its
    // `step` stands: see `early_reads`.)
    before.extend(
        m.subs
            .iter()
            .filter(|s| s.phase.is_none() && s.placed.is_none())
            .flat_map(|s| s.input_bindings.iter().map(|b| &b.value)),
    );
    for v in reads_of(m, before).vars {
        bad[v] = true;
    }
    for parent in &program.models {
        read_before_stepping(parent, id, m, &mut bad);
    }
    visit_assigns(&m.body, &mut |a| {
        let reads = reads_of(m, a.rhs.operands());
        if !matches!(a.rhs, Rhs::Expr(_)) || reads.dt || reads.vars.contains(&a.target) {
            bad[a.target] = true;
        }
    });
    let mut assigned = vec![false; n];
    early_reads(m, &m.body, true, &mut assigned, &mut bad);
    (0..n).map(|v| assigned[v] && !bad[v]).collect()
}

/// Marks in `bad` every variable read by `body` before a top-level rule of the step has
/// assigned it (`assigned`, updated as the body goes on).
fn early_reads(m: &ir::Model, body: &[Stmt], top: bool, assigned: &mut [bool], bad: &mut [bool]) {
    for s in body {
        match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                for v in reads_of(m, a.rhs.operands()).vars {
                    bad[v] |= !assigned[v];
                }
                if top {
                    assigned[a.target] = true;
                }
            }
            Stmt::If { cond, then, .. } => {
                for v in reads_of(m, vec![cond]).vars {
                    bad[v] |= !assigned[v];
                }
                early_reads(m, then, false, assigned, bad);
            }
            // A phase's run reads its bindings (params and inputs) and, after each of
            // its steps, its end condition, all in this model, where it stands.
            Stmt::Run { sub, .. } => {
                if let Some(s) = m.subs.get(*sub) {
                    let mut read: Vec<&Expr> = (s.param_bindings.iter())
                        .chain(&s.input_bindings)
                        .map(|b| &b.value)
                        .collect();
                    read.extend(s.phase.iter().map(|p| &p.until));
                    for v in reads_of(m, read).vars {
                        bad[v] |= !assigned[v];
                    }
                }
            }
            // A placed submodel's bindings are read where its `step` stands.
            Stmt::Step { sub, .. } => {
                if let Some(s) = m.subs.get(*sub) {
                    let read = s.input_bindings.iter().map(|b| &b.value).collect();
                    for v in reads_of(m, read).vars {
                        bad[v] |= !assigned[v];
                    }
                }
            }
            Stmt::Added(x) => match *x {},
            Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::Reset { .. }
            | Stmt::SetMode { .. } => {}
        }
    }
}

/// Marks in `bad` each variable of model `id` (`m`) that `parent` reads, in an instance
/// of `id`, before that instance steps in the step: in the input bindings of a submodel
/// that steps no later (the submodels that are not placed step first, in declaration
/// order, then the placed ones in the order of their `step` statements; a binding is
/// evaluated just before its submodel steps) and, for a placed instance, in the events,
/// the sub-steps and the statements above its `step`.
fn read_before_stepping(parent: &ir::Model, id: ModelId, m: &ir::Model, bad: &mut [bool]) {
    if !parent.subs.iter().any(|s| s.model == id) {
        return;
    }
    let n = parent.subs.len();
    let rank = crate::ir::step_rank(n, &parent.body);
    // Marks what `e` reads of an instance `j` of `id` with `j_of(j)`, through the
    // parent's preds and situations.
    let mark = |e: &Expr, j_of: &dyn Fn(usize) -> bool, bad: &mut [bool]| {
        let mut stack = vec![e];
        let mut seen = std::collections::HashSet::new();
        while let Some(e) = stack.pop() {
            e.visit(&mut |x| match *x {
                Expr::SubVar(j, v) if j_of(j) && parent.subs[j].model == id => bad[v] = true,
                Expr::SubCond(j, c) if j_of(j) && parent.subs[j].model == id => {
                    let cond = m.conds.get(c).map(|c| &c.expr);
                    for v in reads_of(m, cond.into_iter().collect()).vars {
                        bad[v] = true;
                    }
                }
                Expr::Cond(c) if c < parent.conds.len() && seen.insert(c) => {
                    stack.push(&parent.conds[c].expr);
                }
                _ => {}
            });
        }
    };
    for (k, sub) in parent.subs.iter().enumerate() {
        for b in &sub.input_bindings {
            mark(&b.value, &|j| rank[j] >= rank[k], bad);
        }
    }
    // The placed instances of `id`: read by the events and sub-steps (before the rules)
    // and by the statements above their `step`, in one pass over the body.
    let here: Vec<bool> = (parent.subs.iter())
        .map(|s| s.model == id && s.placed.is_some())
        .collect();
    if !here.contains(&true) {
        return;
    }
    let placed_here = |j: usize| here[j];
    for e in parent.events.iter().map(|e| &e.cond) {
        mark(e, &placed_here, bad);
    }
    if let Some(s) = &parent.substeps {
        mark(&s.when, &placed_here, bad);
        mark(&s.count, &placed_here, bad);
    }
    let mut stepped = vec![false; n];
    for s in &parent.body {
        if let Stmt::Step { sub, .. } = s {
            if let Some(d) = stepped.get_mut(*sub) {
                *d = true;
            }
            continue;
        }
        let not_yet = |j: usize| here[j] && !stepped[j];
        ir::walk(std::slice::from_ref(s), &mut |s| match s {
            Stmt::If { cond, .. } => mark(cond, &not_yet, bad),
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                (a.rhs.operands().into_iter()).for_each(|e| mark(e, &not_yet, bad))
            }
            Stmt::Run { sub, .. } => {
                if let Some(p) = parent.subs.get(*sub) {
                    for b in &p.input_bindings {
                        mark(&b.value, &not_yet, bad);
                    }
                    if let Some(u) = &p.phase {
                        mark(&u.until, &not_yet, bad);
                    }
                }
            }
            _ => {}
        });
    }
}

/// The variables and whether `dt` are read by `exprs`, through preds and situations.
struct Reads {
    vars: Vec<usize>,
    dt: bool,
}

fn reads_of(m: &ir::Model, exprs: Vec<&Expr>) -> Reads {
    let mut out = Reads {
        vars: Vec::new(),
        dt: false,
    };
    let mut stack = exprs;
    let mut seen = vec![false; m.conds.len()];
    while let Some(e) = stack.pop() {
        e.visit(&mut |x| match x {
            Expr::Var(v) => out.vars.push(*v),
            Expr::Dt => out.dt = true,
            Expr::Cond(c) if !seen.get(*c).copied().unwrap_or(true) => {
                seen[*c] = true;
                stack.push(&m.conds[*c].expr);
            }
            _ => {}
        });
    }
    out
}

/// Calls `f` on every δ assignment of `body`, nested ones included.
fn visit_assigns(body: &[Stmt], f: &mut impl FnMut(&ir::Assign)) {
    ir::walk(body, &mut |s| {
        if let Some(a) = s.assign() {
            f(a);
        }
    });
}

/// `body` with only the rules whose target is `computed`, and the guards holding some.
fn keep(body: &[Stmt], computed: &[bool]) -> Vec<Stmt> {
    body.iter()
        .filter_map(|s| match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => computed
                .get(a.target)
                .copied()
                .unwrap_or(false)
                .then(|| s.clone()),
            // A mode's transition never fires in the initial pass: the mode stays in
            // its first state until a step moves it.
            Stmt::If { then, .. } if matches!(then.first(), Some(Stmt::SetMode { .. })) => None,
            Stmt::If { cond, then, span } => {
                let then = keep(then, computed);
                (!then.is_empty()).then(|| Stmt::If {
                    cond: cond.clone(),
                    then,
                    span: *span,
                })
            }
            Stmt::SetFlag { .. }
            | Stmt::Switch { .. }
            | Stmt::Reset { .. }
            | Stmt::Run { .. }
            | Stmt::Step { .. }
            | Stmt::SetMode { .. } => None,
            Stmt::Added(x) => match *x {},
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let out = crate::check_source("t.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        out.program.expect("checks")
    }

    fn computed_names_of(src: &str, name: &str) -> Vec<String> {
        let p = program(src);
        let id = p.model(name).expect("the model");
        let m = &p.models[id];
        let c = computed(&p, id);
        (0..m.vars.len())
            .filter(|&v| c[v])
            .map(|v| m.vars[v].name.clone())
            .collect()
    }

    fn computed_names(src: &str) -> Vec<String> {
        computed_names_of(src, "M")
    }

    #[test]
    fn computed_states_are_those_no_step_reads_before_assigning() {
        let got = computed_names(
            "model M {
                param k = 2;
                real a = 1, b = 2, total, n, next, late, rate, acc, lat, self_ref, d, w;
                flag q;
                event e = w > 1;
                total = a + b;
                w = a;
                a = integral(-k * a);
                next = n + 1;
                n = 2 * a;
                d = late * 2;
                late = a;
                rate = (a - acc) / dt;
                acc = a;
                lat = 1 when a > 5;
                self_ref = self_ref + 1;
                when e => q;
            }",
        );
        // `a`: an integral; `n`: read by `next` before its rule; `late`: read by `d`
        // before its rule; `rate`: reads `dt`; `self_ref`: reads itself; `acc`: read
        // by `rate` before its rule; `lat`: not assigned in every step (a latch); `w`:
        // read by an event, before the rules.
        assert_eq!(got, ["total", "next", "d"]);
    }

    #[test]
    fn a_guard_read_counts_and_an_otherwise_assigns() {
        let got = computed_names(
            "model M {
                real h = 1, f, g, y;
                pred low = g < 0;
                f = 3 when h < 0;
                f = 0 otherwise;
                y = 1 when low;
                g = h * 2;
                h = integral(f);
            }",
        );
        // `g` is read through the pred `low` before its rule; `y` only under a guard.
        assert_eq!(got, ["f"]);
    }

    #[test]
    fn a_parent_binding_before_the_instance_steps_counts() {
        let src = "model Leaf { input real u; output real y, z; y = u * 2; z = u + 1; }
            model M {
                sub a: Leaf(u = b.y);
                sub b: Leaf(u = a.z);
            }";
        // `a.z` is read after `a` stepped; `b.y` before `b` steps (`b` is declared
        // after `a`): `y` keeps its initial value in every `Leaf`.
        assert_eq!(computed_names_of(src, "Leaf"), ["z"]);
    }

    #[test]
    fn a_placed_step_reads_where_it_stands() {
        let src = "model Leaf { input real u; output real y; y = u * 2; }
            model M {
                output real x, early, late;
                sub a: Leaf(u = x);
                early = a.y;
                x = time + 1;
                step(a);
                late = a.y;
            }";
        // The binding reads `x` below its rule: `x` is computed. `early` reads `a.y`
        // before `a` steps: `y` keeps its initial value in every `Leaf`.
        assert_eq!(computed_names_of(src, "M"), ["x", "early", "late"]);
        assert!(computed_names_of(src, "Leaf").is_empty());
        // Unplaced, the binding reads `x` before its rule, and `a` steps before `early`.
        let unplaced = src.replace("step(a);", "");
        assert_eq!(computed_names_of(&unplaced, "M"), ["early", "late"]);
        assert_eq!(computed_names_of(&unplaced, "Leaf"), ["y"]);
    }

    #[test]
    fn the_pass_keeps_guards_and_drops_actions() {
        let p = program(
            "model M {
                real a = 1, b, c;
                flag q;
                b = 0;
                when a > 0 { b = a; c = integral(1); when a > 2 => q; }
                when a < 0 => !q;
            }",
        );
        let m = &p.models[0];
        let pass = pass(&p, 0);
        assert_eq!(pass.len(), 2);
        let Stmt::If { then, .. } = &pass[1] else {
            panic!("a guard: {pass:?}")
        };
        assert!(matches!(then.as_slice(), [Stmt::Assign(a)] if m.vars[a.target].name == "b"));
    }
}
