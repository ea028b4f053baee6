//! Which variables an expression reads, through the preds and situations it reads.

use crate::ir::{CondId, Expr, Model, VarId};

/// Sets larger than this are not listed: they count as reading everything
/// (which only ever silences a warning).
const MAX_LISTED: usize = 4096;

/// The variables read by an expression, sorted, or `None` for "too many to
/// list" (treated as every variable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarSet(Option<Vec<VarId>>);

impl VarSet {
    /// Whether `v` is (or may be) read.
    pub fn contains(&self, v: VarId) -> bool {
        self.0
            .as_ref()
            .is_none_or(|vs| vs.binary_search(&v).is_ok())
    }

    /// The listed variables, or `None` when the set is "everything".
    pub fn listed(&self) -> Option<&[VarId]> {
        self.0.as_deref()
    }

    /// The set of the given variables.
    pub fn from_vars(vs: Vec<VarId>) -> VarSet {
        VarSet::from_vec(vs)
    }

    fn from_vec(mut vs: Vec<VarId>) -> VarSet {
        vs.sort_unstable();
        vs.dedup();
        if vs.len() > MAX_LISTED {
            VarSet(None)
        } else {
            VarSet(Some(vs))
        }
    }

    /// The union of two sets.
    pub fn union(&self, other: &VarSet) -> VarSet {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => VarSet::from_vec(a.iter().chain(b).copied().collect()),
            _ => VarSet(None),
        }
    }

    /// The empty set.
    pub fn empty() -> VarSet {
        VarSet(Some(Vec::new()))
    }
}

/// The direct reads of `e`: variables and conds.
fn direct(e: &Expr) -> (Vec<VarId>, Vec<CondId>) {
    let mut vars = Vec::new();
    let mut conds = Vec::new();
    e.visit(&mut |x| match x {
        Expr::Var(v) => vars.push(*v),
        Expr::Cond(c) => conds.push(*c),
        _ => {}
    });
    (vars, conds)
}

/// For each pred and situation of `m`, the variables it reads, through the
/// preds and situations it reads (computed without recursion, so chains of
/// any length are fine); and the conditions in an order where each comes
/// after the ones it reads.
pub fn cond_vars(m: &Model) -> (Vec<VarSet>, Vec<CondId>) {
    let mut order = Vec::with_capacity(m.conds.len());
    let n = m.conds.len();
    let deps: Vec<(Vec<VarId>, Vec<CondId>)> = m.conds.iter().map(|c| direct(&c.expr)).collect();
    let mut done: Vec<Option<VarSet>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for start in 0..n {
        if done[start].is_some() {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        on_stack[start] = true;
        while let Some(&mut (c, ref mut k)) = stack.last_mut() {
            let ds = &deps[c].1;
            if *k < ds.len() {
                let d = ds[*k];
                *k += 1;
                // A cycle (already an error) is cut where it closes.
                if d < n && done[d].is_none() && !on_stack[d] {
                    on_stack[d] = true;
                    stack.push((d, 0));
                }
                continue;
            }
            let mut set = VarSet::from_vec(deps[c].0.clone());
            for &d in ds {
                match done.get(d).and_then(Option::as_ref) {
                    Some(s) => set = set.union(s),
                    None if d < n && on_stack[d] => {}
                    None => set = VarSet(None),
                }
            }
            done[c] = Some(set);
            order.push(c);
            on_stack[c] = false;
            stack.pop();
        }
    }
    let sets = done
        .into_iter()
        .map(|s| s.unwrap_or(VarSet(None)))
        .collect();
    (sets, order)
}

/// The variables `e` reads, with `conds` from [`cond_vars`].
pub fn expr_vars(e: &Expr, conds: &[VarSet]) -> VarSet {
    let (vars, cs) = direct(e);
    let mut set = VarSet::from_vec(vars);
    let mut seen: Vec<CondId> = cs;
    seen.sort_unstable();
    seen.dedup();
    for c in seen {
        match conds.get(c) {
            Some(s) => set = set.union(s),
            None => return VarSet(None),
        }
    }
    set
}
