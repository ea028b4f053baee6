//! The variables of a model seen through `sit_runtime::Model`, in index order, with what may be set.
//!
//! The list ends with the hidden states ([`crate::ir::Var::hidden`]: solver memories,
//! event-log whys, the saltation's hidden events), after every visible variable, so that the visible ones keep the
//! indices `0..visible_count` whatever the method and the event log add.

use super::term::{LowerError, MAX_DEPTH, get};
use crate::ir::{ModelId, Program, SubId, Ty, VarId, VarKind};
pub use sit_lir::{Access, Entry, Item, Own, SubRun, visible_count};

/// The variables of `root`: its vars, conds, events and modes in declaration order, then for
/// each submodel `NAME.on` followed by the submodel's own list prefixed by `NAME.`; the
/// hidden states are left out of that order and follow it, in the same tree order
/// (`Entry::hidden`; [`visible_count`] counts the others).
pub fn variables<X>(program: &Program<X>, root: ModelId) -> Result<Vec<Entry>, LowerError> {
    let mut out = Vec::new();
    let mut hidden = Vec::new();
    flatten(
        program,
        root,
        "",
        &mut Vec::new(),
        &[],
        &mut out,
        &mut hidden,
    )?;
    out.append(&mut hidden);
    Ok(out)
}

/// The counts of a model's whole list: visible, hidden, whether a mode is among them.
fn counts<X>(
    program: &Program<X>,
    model: ModelId,
    memo: &mut [Option<(usize, usize, bool)>],
    depth: u32,
) -> Result<(usize, usize, bool), LowerError> {
    if depth > MAX_DEPTH {
        return Err(LowerError::TooLarge(
            "the instance tree is too deep (cyclic submodels?)".into(),
        ));
    }
    if let Some(Some(c)) = memo.get(model) {
        return Ok(*c);
    }
    let m = get(&program.models, model, "model")?;
    let hidden_vars = m.vars.iter().filter(|v| v.hidden).count();
    let hidden_events = m.events.iter().filter(|e| e.hidden).count();
    let mut visible = m.vars.len() - hidden_vars + m.conds.len() + m.events.len() - hidden_events
        + m.modes.len()
        + m.subs.len();
    let mut hidden = hidden_vars + hidden_events;
    let mut modes = !m.modes.is_empty();
    for sub in &m.subs {
        let (v, h, k) = counts(program, sub.model, memo, depth + 1)?;
        visible += v;
        hidden += h;
        modes |= k;
    }
    if let Some(slot) = memo.get_mut(model) {
        *slot = Some((visible, hidden, modes));
    }
    Ok((visible, hidden, modes))
}

/// The own part of the list of `model` (see [`Own`]): the same entries and indices as
/// [`variables`] gives them.
pub fn own_variables<X>(program: &Program<X>, model: ModelId) -> Result<Own, LowerError> {
    let mut memo = vec![None; program.models.len()];
    let (visible, hidden) = {
        let (v, h, _) = counts(program, model, &mut memo, 0)?;
        (v, h)
    };
    let m = get(&program.models, model, "model")?;
    let entry = |name: String, item, ty, output, access, hidden| Entry {
        name,
        path: Vec::new(),
        model,
        item,
        ty,
        output,
        access,
        hidden,
    };
    let mut entries = Vec::new();
    let (mut at, mut hidden_at) = (0, visible);
    for (i, v) in m.vars.iter().enumerate() {
        let access = if v.is_derived() {
            Access::Derived
        } else {
            Access::Settable
        };
        let e = entry(
            v.name.clone(),
            Item::Var(i, v.kind),
            v.ty,
            v.output,
            access,
            v.hidden,
        );
        if v.hidden {
            entries.push((hidden_at, e));
            hidden_at += 1;
        } else {
            entries.push((at, e));
            at += 1;
        }
    }
    for (c, cond) in m.conds.iter().enumerate() {
        let item = Item::Cond(c, cond.kind);
        let e = entry(
            cond.name.clone(),
            item,
            Ty::Flag,
            cond.output,
            Access::Computed,
            false,
        );
        entries.push((at, e));
        at += 1;
    }
    for (e, ev) in m.events.iter().enumerate() {
        let item = Item::Event(e);
        let e = entry(
            ev.name.clone(),
            item,
            Ty::Flag,
            ev.output,
            Access::Computed,
            ev.hidden,
        );
        if ev.hidden {
            entries.push((hidden_at, e));
            hidden_at += 1;
        } else {
            entries.push((at, e));
            at += 1;
        }
    }
    for (k, mode) in m.modes.iter().enumerate() {
        let e = entry(
            mode.name.clone(),
            Item::Mode(k),
            Ty::Real,
            mode.output,
            Access::Mode,
            false,
        );
        entries.push((at, e));
        at += 1;
    }
    let mut subs = Vec::new();
    for (s, sub) in m.subs.iter().enumerate() {
        let name = format!("{}.on", sub.name);
        entries.push((
            at,
            entry(name, Item::On(s), Ty::Flag, false, Access::Settable, false),
        ));
        at += 1;
        let (v, h, modes) = counts(program, sub.model, &mut memo, 1)?;
        let sm = get(&program.models, sub.model, "model")?;
        // A submodel's list starts with its visible vars, in declaration order.
        let mut bound: Vec<usize> = (sub.param_bindings.iter().chain(&sub.input_bindings))
            .filter_map(|b| {
                let var = sm.vars.get(b.var)?;
                let free = matches!(var.kind, VarKind::Param { .. } | VarKind::Input)
                    && !var.is_derived()
                    && !var.hidden;
                free.then(|| sm.vars[..b.var].iter().filter(|v| !v.hidden).count())
            })
            .collect();
        bound.sort_unstable();
        bound.dedup();
        subs.push(SubRun {
            visible_start: at,
            visible: v,
            hidden_start: hidden_at,
            hidden: h,
            bound,
            modes,
        });
        at += v;
        hidden_at += h;
    }
    // In index order (the hidden vars were numbered after the visible ones).
    entries.sort_by_key(|(i, _)| *i);
    Ok(Own {
        entries,
        subs,
        visible,
        hidden,
    })
}

/// Appends the entries of an instance of `model` at `path`, named with `prefix`, to
/// `out` and its hidden states to `hidden`; `bound` lists the variables its parent binds.
fn flatten<X>(
    program: &Program<X>,
    model: ModelId,
    prefix: &str,
    path: &mut Vec<SubId>,
    bound: &[VarId],
    out: &mut Vec<Entry>,
    hidden: &mut Vec<Entry>,
) -> Result<(), LowerError> {
    if path.len() > MAX_DEPTH as usize {
        return Err(LowerError::TooLarge(
            "the instance tree is too deep (cyclic submodels?)".into(),
        ));
    }
    let m = get(&program.models, model, "model")?;
    let here = path.clone();
    let entry = |name: String, item, ty, output, access| Entry {
        name,
        path: here.clone(),
        model,
        item,
        ty,
        output,
        access,
        hidden: false,
    };
    for (i, v) in m.vars.iter().enumerate() {
        let access = match v.kind {
            _ if v.is_derived() => Access::Derived,
            VarKind::Param { .. } | VarKind::Input if bound.contains(&i) => Access::Bound,
            _ => Access::Settable,
        };
        let name = format!("{prefix}{}", v.name);
        let e = entry(name, Item::Var(i, v.kind), v.ty, v.output, access);
        if v.hidden {
            hidden.push(Entry { hidden: true, ..e });
        } else {
            out.push(e);
        }
    }
    for (c, cond) in m.conds.iter().enumerate() {
        let name = format!("{prefix}{}", cond.name);
        let item = Item::Cond(c, cond.kind);
        out.push(entry(name, item, Ty::Flag, cond.output, Access::Computed));
    }
    for (e, ev) in m.events.iter().enumerate() {
        let name = format!("{prefix}{}", ev.name);
        let e = entry(name, Item::Event(e), Ty::Flag, ev.output, Access::Computed);
        if ev.hidden {
            hidden.push(Entry { hidden: true, ..e });
        } else {
            out.push(e);
        }
    }
    for (k, mode) in m.modes.iter().enumerate() {
        let name = format!("{prefix}{}", mode.name);
        out.push(entry(
            name,
            Item::Mode(k),
            Ty::Real,
            mode.output,
            Access::Mode,
        ));
    }
    for (s, sub) in m.subs.iter().enumerate() {
        let name = format!("{prefix}{}.on", sub.name);
        out.push(entry(name, Item::On(s), Ty::Flag, false, Access::Settable));
        let bound: Vec<VarId> = sub
            .param_bindings
            .iter()
            .chain(&sub.input_bindings)
            .map(|b| b.var)
            .collect();
        path.push(s);
        let sub_prefix = format!("{prefix}{}.", sub.name);
        flatten(program, sub.model, &sub_prefix, path, &bound, out, hidden)?;
        path.pop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Entry, own_variables, variables};
    use crate::{Lowered, Prepare};

    /// `own_variables` agrees with `variables` on every model of a tree three deep with
    /// bound params and inputs, modes, conditions, a derived param and the hidden states
    /// of `rk4` at every level.
    #[test]
    fn own_variables_is_the_own_part_of_variables() {
        let text = "\
model Leaf {
    method rk4;
    param k = 0.5;
    param kd = k * 2;
    input real u = 1;
    output real x = 1;
    output mode level { low, high }
    level: low -> high when x > 1.2;
    level: high -> low when x < 0.8;
    x = integral(u - k * x);
}
model Mid {
    method rk4;
    param g = 2;
    input real u = 1;
    sub leaf: Leaf(k = g, u = u);
    sub other: Leaf(u = leaf.x);
    output real x = 0;
    pred big = x > 1;
    event up = x > 2;
    x = integral(leaf.x - x);
}
model Top {
    method rk4;
    sub m: Mid(u = 2, g = 1);
    output real y;
    y = integral(m.x - y);
}
";
        let out = crate::check_source("own.sit", text);
        assert!(!out.has_errors(), "{}", out.render());
        let checked = out.program.expect("checked");
        let lowered = Lowered::new(&checked, Prepare::default()).expect("lowers");
        let program = lowered.program();
        let key = |e: &Entry| {
            format!(
                "{} {:?} {:?} {} {:?} {}",
                e.name, e.item, e.ty, e.output, e.access, e.hidden
            )
        };
        for model in 0..program.models.len() {
            let all = variables(program, model).expect("variables");
            let own = own_variables(program, model).expect("own");
            assert_eq!(own.visible + own.hidden, all.len());
            assert_eq!(own.visible, super::visible_count(&all));
            let mine: Vec<(usize, String)> =
                own.entries.iter().map(|(i, e)| (*i, key(e))).collect();
            let theirs: Vec<(usize, String)> = (all.iter().enumerate())
                .filter(|(_, e)| e.path.is_empty())
                .map(|(i, e)| (i, key(e)))
                .collect();
            assert_eq!(mine, theirs, "model {model}");
            for (s, run) in own.subs.iter().enumerate() {
                let at = |hidden: bool| {
                    let i: Vec<usize> = (0..all.len())
                        .filter(|&i| all[i].path.first() == Some(&s) && all[i].hidden == hidden)
                        .collect();
                    (i.first().copied().unwrap_or(0), i.len())
                };
                let (vs, v) = at(false);
                let (hs, h) = at(true);
                assert_eq!((run.visible, run.hidden), (v, h), "model {model}, sub {s}");
                if v > 0 {
                    assert_eq!(run.visible_start, vs, "model {model}, sub {s}");
                }
                if h > 0 {
                    assert_eq!(run.hidden_start, hs, "model {model}, sub {s}");
                }
                let bound: Vec<usize> = (0..all.len())
                    .filter(|&i| all[i].path == [s] && all[i].access == super::Access::Bound)
                    .map(|i| i - run.visible_start)
                    .collect();
                assert_eq!(run.bound, bound, "model {model}, sub {s}");
                let modes = (vs..vs + v).any(|i| matches!(all[i].item, super::Item::Mode(_)));
                assert_eq!(run.modes, modes, "model {model}, sub {s}");
            }
        }
        // The tree has hidden states at every level, and bound variables.
        let top = program.model("Top").expect("Top");
        let own = own_variables(program, top).expect("own");
        assert!(own.hidden > 10 && !own.subs[0].bound.is_empty());
    }
}
