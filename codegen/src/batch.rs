//! The batch form of a model: `NameBatch<const N: usize>`, N instances stepped at once.
//!
//! Structure of arrays: every field of the scalar struct becomes an array of N lanes, and
//! `step` is one loop over the lanes whose body is the scalar step of lane `i` written
//! without branches, which the compiler vectorises. The lanes share nothing, so each lane
//! gets exactly the scalar step. Guards become masks (`bool` locals, evaluated once per
//! guard, ANDed with the enclosing mask), and a guarded rule becomes a select: its
//! right-hand side is computed on every lane (expressions and the dynamic links are pure
//! functions of their operands, so the unused results change nothing) and stored only
//! where the mask holds; σ actions on flags are `|=`/`&=` with the mask. `otherwise`
//! flags are `[bool; N]` locals. A `deriv` rule, which updates a hidden memory, runs
//! under a real branch (its model's loop is not vectorised).
//!
//! One loop over the whole body, rather than one loop per rule, keeps each lane's values
//! in registers between rules: on VanDerPol it halves the memory traffic. Derived params and conditions are inlined where they are read (the same tree,
//! so the same operations in the same order). Reset and the conversions to and from the
//! scalar model go lane by lane through the scalar struct's own `reset`.
//!
//! Models with submodels get no batch form (a submodel's switch and reset are per lane
//! control flow, not selects).

use crate::expr::literal;
use crate::lints::Lints;
use crate::names::{ident, is_camel_case};
use crate::plan::Plan;
use crate::provenance::{Comments, Provenance};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use sit_parser::ir::{ArithOp, Assign, CmpOp, Expr, ModelId, Rhs, Stmt, Ty, VarKind};

/// Binding strength of a generated Rust expression (higher binds tighter). Logical `&`
/// and `|` are the non-short-circuit operators, which bind tighter than comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Cmp,
    BitOr,
    BitAnd,
    Add,
    Mul,
    Unary,
    Atom,
}

/// The name of the batch struct of a model whose struct is `ty`, unique among `taken`.
pub(crate) fn batch_name(ty: &str, taken: &[String]) -> String {
    let mut name = format!("{}Batch", ty.strip_prefix("r#").unwrap_or(ty));
    while taken.contains(&name) {
        name.push('_');
    }
    name
}

/// Every item of the batch form of model `id`, or `None` for a model with submodels.
pub(crate) fn batch_items(
    plan: &Plan<'_>,
    id: ModelId,
    prov: &Provenance<'_>,
    comments: &mut Comments,
) -> Option<TokenStream> {
    let m = &plan.program.models[id];
    if !m.subs.is_empty() {
        return None;
    }
    let names = &plan.names[id];
    let types: Vec<String> = plan.names.iter().map(|n| n.ty.clone()).collect();
    let batch_spelling = batch_name(&names.ty, &types);
    let batch = ident(&batch_spelling);
    let ty = ident(&names.ty);

    // Fields, as (identifier, element type, public, doc).
    let mut fields: Vec<(Ident, TokenStream, bool, String)> = Vec::new();
    for (i, v) in m.vars.iter().enumerate() {
        if matches!(v.kind, VarKind::Param { derived: true }) {
            continue;
        }
        let elem = match v.ty {
            Ty::Real => quote!(f64),
            Ty::Flag => quote!(bool),
        };
        let what = match v.kind {
            VarKind::Param { .. } => "param",
            VarKind::Input => "input",
            VarKind::State => "state",
        };
        let doc = format!("The {what} `{}` of every lane.", v.name);
        fields.push((ident(&names.vars[i]), elem, true, doc));
    }
    for (e, ev) in m.events.iter().enumerate() {
        let doc = format!("Value of event `{}` in this step, per lane.", ev.name);
        fields.push((ident(&names.event_fields[e]), quote!(bool), false, doc));
        let doc = format!(
            "Value of the condition of `{}` in the previous step, per lane.",
            ev.name
        );
        fields.push((ident(&names.event_prev[e]), quote!(bool), false, doc));
    }
    for k in &names.mems {
        let doc = "Memory of a `deriv` rule, per lane.".to_string();
        fields.push((ident(k), quote!(::sit_runtime::Deriv), false, doc));
    }
    fields.push((
        ident(&names.time),
        quote!(f64),
        false,
        "The clock of every lane.".into(),
    ));
    if names.uses_dt {
        let doc = "Length of the last step, per lane.".to_string();
        fields.push((ident(&names.dt), quote!(f64), false, doc));
    }

    let decls = fields.iter().map(|(f, elem, public, doc)| {
        let vis = if *public { quote!(pub) } else { quote!() };
        let doc = format!(" {doc}");
        quote!(#[doc = #doc] #vis #f: [#elem; N],)
    });
    let splat = fields.iter().map(|(f, ..)| quote!(#f: [m.#f; N],));
    let load = fields.iter().map(|(f, ..)| quote!(#f: self.#f[i],));
    let store = fields.iter().map(|(f, ..)| quote!(self.#f[i] = m.#f;));

    let mut steps = StepGen {
        plan,
        model: id,
        prov,
        comments,
        lints: Lints::default(),
        masks: 0,
        pos: 0,
        fired: FiredUses::scan(&m.body, m.fired),
    };
    let step = steps.step()?;
    let mut lints = steps.lints;
    lints.add("clippy::needless_range_loop");
    lints.add("clippy::manual_memcpy");
    let step_allow = lints.attr();

    let mut allows = TokenStream::new();
    let snake = fields
        .iter()
        .any(|(f, ..)| !crate::names::is_snake_case(&f.to_string()));
    if snake {
        allows.extend(quote!(#[allow(non_snake_case)]));
    }
    if !is_camel_case(&batch_spelling) {
        allows.extend(quote!(#[allow(non_camel_case_types)]));
    }
    let name = &m.name;
    let struct_doc =
        format!(" `N` instances of `{name}` in structure-of-arrays form, stepped at once (see");
    let struct_doc2 = format!(
        " [`{}`] for one instance). Lane `i` of a field is instance `i`'s value; `step` gives",
        names.ty.strip_prefix("r#").unwrap_or(&names.ty)
    );
    Some(quote! {
        #[doc = #struct_doc]
        #[doc = #struct_doc2]
        #[doc = " every lane exactly the values of the scalar `step`."]
        #[derive(Debug, Clone)]
        #allows
        pub struct #batch<const N: usize> {
            #(#decls)*
        }

        #allows
        impl<const N: usize> #batch<N> {
            #[doc = " N instances, each as `new()` of the scalar model makes it."]
            pub fn new() -> Self {
                Self::splat(&#ty::new())
            }

            #[doc = " N copies of `m`."]
            pub fn splat(m: &#ty) -> Self {
                Self { #(#splat)* }
            }

            #[doc = " Lane `i` as a scalar model (`None` if `i >= N`)."]
            pub fn lane(&self, i: usize) -> Option<#ty> {
                if i < N { Some(self.load(i)) } else { None }
            }

            #[doc = " Replaces lane `i` by `m`; `false` (and no change) if `i >= N`."]
            #[must_use]
            pub fn set_lane(&mut self, i: usize, m: &#ty) -> bool {
                if i < N {
                    self.store(i, m);
                    true
                } else {
                    false
                }
            }

            #[doc = " The value of the variable called `name` in lane `lane` (see"]
            #[doc = " `sit_runtime::Model::get`); `None` if there is no such lane or variable."]
            pub fn get(&self, lane: usize, name: &str) -> Option<f64> {
                ::sit_runtime::Model::get(&self.lane(lane)?, name)
            }

            #[doc = " Sets the variable called `name` in lane `lane` (see"]
            #[doc = " `sit_runtime::Model::set`); `None` (and no change) if `lane >= N`."]
            pub fn set<'n>(
                &mut self,
                lane: usize,
                name: &'n str,
                value: f64,
            ) -> Option<Result<(), ::sit_runtime::SetError<'n>>> {
                let mut m = self.lane(lane)?;
                let r = ::sit_runtime::Model::set(&mut m, name, value);
                if r.is_ok() {
                    self.store(lane, &m);
                }
                Some(r)
            }

            #[doc = " The model time of every lane."]
            pub fn times(&self) -> &[f64; N] {
                &self.time
            }

            #[doc = " Resets every lane, as the scalar `reset` does; params and inputs keep"]
            #[doc = " their values."]
            pub fn reset(&mut self) {
                for i in 0..N {
                    let mut m = self.load(i);
                    m.reset();
                    self.store(i, &m);
                }
            }

            #[doc = " Advances every lane by one step of `dt`, exactly as the scalar `step`"]
            #[doc = " advances each instance."]
            #step_allow
            pub fn step(&mut self, dt: f64) {
                #step
            }

            fn load(&self, i: usize) -> #ty {
                #ty { #(#load)* }
            }

            fn store(&mut self, i: usize, m: &#ty) {
                #(#store)*
            }
        }

        #allows
        impl<const N: usize> ::core::default::Default for #batch<N> {
            fn default() -> Self {
                Self::new()
            }
        }
    })
}

/// Per `otherwise` flag: the pre-order positions of its reads, to know which sets matter.
struct FiredUses {
    last_read: Vec<Option<usize>>,
    set_before_read: Vec<bool>,
}

impl FiredUses {
    fn scan(body: &[Stmt], count: usize) -> FiredUses {
        fn reads(body: &[Stmt], pos: &mut usize, out: &mut [Option<usize>]) {
            for s in body {
                *pos += 1;
                match s {
                    Stmt::Otherwise { fired, .. } => {
                        if let Some(r) = out.get_mut(*fired) {
                            *r = Some(*pos);
                        }
                    }
                    Stmt::If { then, .. } => reads(then, pos, out),
                    _ => {}
                }
            }
        }
        fn sets(body: &[Stmt], pos: &mut usize, last: &[Option<usize>], out: &mut [bool]) {
            for s in body {
                *pos += 1;
                match s {
                    Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                        if let Some(k) = a.fired
                            && last.get(k).copied().flatten().is_some_and(|r| r > *pos)
                        {
                            out[k] = true;
                        }
                    }
                    Stmt::If { then, .. } => sets(then, pos, last, out),
                    _ => {}
                }
            }
        }
        let mut last_read = vec![None; count];
        reads(body, &mut 0, &mut last_read);
        let mut set_before_read = vec![false; count];
        sets(body, &mut 0, &last_read, &mut set_before_read);
        FiredUses {
            last_read,
            set_before_read,
        }
    }

    /// Whether the assignment at `pos` must record that flag `k` fired.
    fn needs_set(&self, k: usize, pos: usize) -> bool {
        self.last_read
            .get(k)
            .copied()
            .flatten()
            .is_some_and(|r| r > pos)
    }
}

/// Generates the batch `step` of one model.
struct StepGen<'a, 'c> {
    plan: &'a Plan<'a>,
    model: ModelId,
    prov: &'a Provenance<'a>,
    comments: &'c mut Comments,
    lints: Lints,
    /// Number of mask locals made so far.
    masks: usize,
    /// Pre-order position of the current statement (as in [`FiredUses::scan`]).
    pos: usize,
    fired: FiredUses,
}

impl StepGen<'_, '_> {
    fn ir(&self) -> &sit_parser::ir::Model {
        &self.plan.program.models[self.model]
    }

    fn step(&mut self) -> Option<TokenStream> {
        let plan = self.plan;
        let m = &plan.program.models[self.model];
        let names = &plan.names[self.model];
        let mut out = Vec::new();
        if names.uses_dt {
            let f = ident(&names.dt);
            out.push(quote!(self.#f = [dt; N];));
        }
        for k in 0..m.fired {
            if self.fired.last_read[k].is_some() {
                let f = fired_ident(k);
                out.push(if self.fired.set_before_read[k] {
                    quote!(let mut #f = [false; N];)
                } else {
                    quote!(let #f = [false; N];)
                });
            }
        }
        let mut lane = Vec::new();
        for (e, ev) in m.events.iter().enumerate() {
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            let cond = self.expr(&ev.cond)?;
            let c = self.comment(ev.span, true);
            lane.push(quote! {
                #c
                self.#v[i] = ::sit_runtime::rising(#cond, &mut self.#p[i]);
            });
        }
        lane.push(self.stmts(&m.body, None)?);
        let time = ident(&names.time);
        lane.push(quote!(self.#time[i] += dt;));
        out.push(quote! {
            for i in 0..N {
                #(#lane)*
            }
        });
        Some(quote!(#(#out)*))
    }

    fn comment(&mut self, span: sit_parser::Span, whole_line: bool) -> TokenStream {
        let text = if whole_line {
            self.prov.line_text(span)
        } else {
            self.prov.span_text(span)
        };
        let text = format!("{}: {}", self.prov.location(span), text);
        self.comments.marker(text)
    }

    fn stmts(&mut self, body: &[Stmt], mask: Option<&Ident>) -> Option<TokenStream> {
        let mut out = Vec::new();
        for s in body {
            self.pos += 1;
            out.push(self.stmt(s, mask)?);
        }
        Some(quote!(#(#out)*))
    }

    /// A new mask local `mask_K` of lane `i`: `outer & cond` (or `cond`).
    fn new_mask(&mut self, outer: Option<&Ident>, cond: TokenStream) -> (Ident, TokenStream) {
        let g = format_ident!("mask_{}", self.masks);
        self.masks += 1;
        let value = match outer {
            Some(o) => quote!(#o & #cond),
            None => cond,
        };
        let tokens = quote!(let #g = #value;);
        (g, tokens)
    }

    fn stmt(&mut self, s: &Stmt, mask: Option<&Ident>) -> Option<TokenStream> {
        let plan = self.plan;
        let names = &plan.names[self.model];
        match s {
            Stmt::Assign(a) => {
                let c = self.comment(a.span, false);
                let body = self.assign(a, mask)?;
                Some(quote!(#c #body))
            }
            Stmt::Otherwise { assign, fired } => {
                let c = self.comment(assign.span, false);
                let f = fired_ident(*fired);
                let (g, decl) = self.new_mask(mask, quote!(!#f[i]));
                let body = self.assign(assign, Some(&g))?;
                Some(quote!(#c #decl #body))
            }
            Stmt::If { cond, then, span } => {
                // `x = e when c;`: one comment, the rule's, above the guard.
                let one_rule = match then.as_slice() {
                    [Stmt::Assign(a)] if a.span.start <= span.start && span.end <= a.span.end => {
                        Some(a)
                    }
                    _ => None,
                };
                let c = match one_rule {
                    Some(a) => self.comment(a.span, false),
                    None => self.comment(*span, true),
                };
                let (cond, prec) = self.lower_checked(cond)?;
                let cond = if mask.is_some() && prec < Prec::BitAnd {
                    quote!((#cond))
                } else {
                    cond
                };
                let (g, decl) = self.new_mask(mask, cond);
                let then = match one_rule {
                    Some(a) => {
                        self.pos += 1;
                        self.assign(a, Some(&g))?
                    }
                    None => self.stmts(then, Some(&g))?,
                };
                Some(quote!(#c #decl #then))
            }
            Stmt::SetFlag { var, value, .. } => {
                let f = ident(&names.vars[*var]);
                Some(match (mask, value) {
                    (None, v) => quote!(self.#f[i] = #v;),
                    (Some(g), true) => quote!(self.#f[i] |= #g;),
                    (Some(g), false) => quote!(self.#f[i] &= !#g;),
                })
            }
            // Submodels have no batch form (see the module documentation).
            Stmt::Switch { .. } | Stmt::Reset { .. } => None,
        }
    }

    /// One δ rule over the lanes of `mask` (all lanes when `None`).
    fn assign(&mut self, a: &Assign, mask: Option<&Ident>) -> Option<TokenStream> {
        let plan = self.plan;
        let names = &plan.names[self.model];
        let y = ident(&names.vars[a.target]);
        if let Rhs::Expr(x) = &a.rhs {
            let is_target = |e: &Expr| *e == Expr::Var(a.target);
            match x {
                e if is_target(e) => self.lints.add("clippy::self_assignment"),
                Expr::Arith(_, l, r) if is_target(l) || is_target(r) => {
                    self.lints.add("clippy::assign_op_pattern");
                    self.lints.add("clippy::misrefactored_assign_op");
                }
                _ => {}
            }
        }
        let mut e = |x: &Expr| self.expr(x);
        let (rhs, stateful) = match &a.rhs {
            Rhs::Expr(x) => (e(x)?, false),
            Rhs::Integral { x } => {
                let x = e(x)?;
                (quote!(::sit_runtime::integral(self.#y[i], #x, dt)), false)
            }
            Rhs::IntegralLimited { x, lo, hi } => {
                let (x, lo, hi) = (e(x)?, e(lo)?, e(hi)?);
                let call = quote!(::sit_runtime::integral_limited(self.#y[i], #x, #lo, #hi, dt));
                (call, false)
            }
            Rhs::Lag { x, t, k } => {
                let (x, t, k) = (e(x)?, e(t)?, e(k)?);
                (
                    quote!(::sit_runtime::lag(self.#y[i], #x, #t, #k, dt)),
                    false,
                )
            }
            Rhs::Deriv { x, mem } => {
                let x = e(x)?;
                let mem = ident(names.mems.get(*mem)?);
                (quote!(self.#mem[i].next(#x, dt)), true)
            }
            Rhs::Hysteresis { x, lo, hi, a } => {
                let (x, lo, hi, a) = (e(x)?, e(lo)?, e(hi)?, e(a)?);
                let call = quote!(::sit_runtime::hysteresis(self.#y[i], #x, #lo, #hi, #a));
                (call, false)
            }
        };
        let body = match (mask, stateful) {
            (None, _) => quote!(self.#y[i] = #rhs;),
            // The memory may change only where the rule runs: a real branch.
            (Some(g), true) => quote! {
                if #g {
                    self.#y[i] = #rhs;
                }
            },
            // Pure: compute on every lane, keep where the mask holds.
            (Some(g), false) => quote! {
                let next = #rhs;
                self.#y[i] = if #g { next } else { self.#y[i] };
            },
        };
        let fired = match a.fired {
            Some(k) if self.fired.needs_set(k, self.pos) => {
                let f = fired_ident(k);
                match mask {
                    None => quote!(#f[i] = true;),
                    Some(g) => quote!(#f[i] |= #g;),
                }
            }
            _ => TokenStream::new(),
        };
        Some(quote!(#body #fired))
    }

    /// The tokens of `e` read in lane `i`, with its lints recorded.
    fn expr(&mut self, e: &Expr) -> Option<TokenStream> {
        Some(self.lower_checked(e)?.0)
    }

    /// `e` with derived params and conditions inlined, its lints recorded, lowered.
    fn lower_checked(&mut self, e: &Expr) -> Option<(TokenStream, Prec)> {
        let inlined = self.inline(e, 0)?;
        self.lints.check_tree(&inlined);
        self.lower(&inlined)
    }

    /// `e` with every derived param and condition replaced by its definition (the
    /// checker rejects cycles; `depth` guards against a malformed IR anyway).
    fn inline(&self, e: &Expr, depth: usize) -> Option<Expr> {
        if depth > 256 {
            return None;
        }
        let m = self.ir();
        let rec = |x: &Expr| self.inline(x, depth + 1).map(Box::new);
        Some(match e {
            Expr::Var(v) if matches!(m.vars.get(*v)?.kind, VarKind::Param { derived: true }) => {
                self.inline(&m.vars[*v].init, depth + 1)?
            }
            Expr::Cond(c) => self.inline(&m.conds.get(*c)?.expr, depth + 1)?,
            Expr::Neg(a) => Expr::Neg(rec(a)?),
            Expr::Not(a) => Expr::Not(rec(a)?),
            Expr::Arith(op, a, b) => Expr::Arith(*op, rec(a)?, rec(b)?),
            Expr::Cmp(op, a, b) => Expr::Cmp(*op, rec(a)?, rec(b)?),
            Expr::And(a, b) => Expr::And(rec(a)?, rec(b)?),
            Expr::Or(a, b) => Expr::Or(rec(a)?, rec(b)?),
            Expr::Call(f, args) => Expr::Call(
                *f,
                args.iter()
                    .map(|x| self.inline(x, depth + 1))
                    .collect::<Option<_>>()?,
            ),
            other => other.clone(),
        })
    }

    /// An inlined expression in lane `i`; `None` for what has no batch form.
    fn lower(&self, e: &Expr) -> Option<(TokenStream, Prec)> {
        let n = &self.plan.names[self.model];
        let atom = |t: TokenStream| Some((t, Prec::Atom));
        match e {
            Expr::Num(v) => Some(num(*v)),
            Expr::Bool(b) => atom(quote!(#b)),
            Expr::Var(v) => {
                let f = ident(n.vars.get(*v)?);
                atom(quote!(self.#f[i]))
            }
            Expr::Event(ev) => {
                let f = ident(n.event_fields.get(*ev)?);
                atom(quote!(self.#f[i]))
            }
            Expr::Time => {
                let f = ident(&n.time);
                atom(quote!(self.#f[i]))
            }
            Expr::Dt => {
                let f = ident(&n.dt);
                atom(quote!(self.#f[i]))
            }
            Expr::Neg(a) => {
                let t = self.unary_operand(a)?;
                Some((quote!(-#t), Prec::Unary))
            }
            Expr::Not(a) => {
                let t = self.unary_operand(a)?;
                Some((quote!(!#t), Prec::Unary))
            }
            Expr::Arith(ArithOp::Pow, a, b) => {
                let (a, b) = (self.lower(a)?.0, self.lower(b)?.0);
                atom(quote!(::sit_runtime::math::pow(#a, #b)))
            }
            Expr::Arith(op, a, b) => {
                let (tok, prec) = match op {
                    ArithOp::Add => (quote!(+), Prec::Add),
                    ArithOp::Sub => (quote!(-), Prec::Add),
                    ArithOp::Mul => (quote!(*), Prec::Mul),
                    _ => (quote!(/), Prec::Mul),
                };
                self.binary(tok, prec, a, b, false)
            }
            Expr::Cmp(op, a, b) => {
                let tok = match op {
                    CmpOp::Lt => quote!(<),
                    CmpOp::Le => quote!(<=),
                    CmpOp::Gt => quote!(>),
                    CmpOp::Ge => quote!(>=),
                    CmpOp::Eq => quote!(==),
                    CmpOp::Ne => quote!(!=),
                };
                self.binary(tok, Prec::Cmp, a, b, true)
            }
            // Expressions have no side effects: `&` and `|` give the values of `&&` and
            // `||`, without a branch.
            Expr::And(a, b) => self.binary(quote!(&), Prec::BitAnd, a, b, false),
            Expr::Or(a, b) => self.binary(quote!(|), Prec::BitOr, a, b, false),
            Expr::Call(f, args) => {
                let name = ident(f.name());
                let args = args
                    .iter()
                    .map(|a| self.lower(a).map(|x| x.0))
                    .collect::<Option<Vec<_>>>()?;
                let path = if f.is_math() {
                    quote!(::sit_runtime::math::#name)
                } else {
                    quote!(::sit_runtime::#name)
                };
                atom(quote!(#path(#(#args),*)))
            }
            // Inlined away, or submodels (no batch form).
            Expr::Cond(_)
            | Expr::SubVar(..)
            | Expr::SubCond(..)
            | Expr::SubEvent(..)
            | Expr::SubOn(_) => None,
        }
    }

    fn unary_operand(&self, a: &Expr) -> Option<TokenStream> {
        let (t, p) = self.lower(a)?;
        Some(if p == Prec::Atom { t } else { quote!((#t)) })
    }

    /// `a op b`, parenthesised by the tree as in `expr.rs`.
    fn binary(
        &self,
        op: TokenStream,
        prec: Prec,
        a: &Expr,
        b: &Expr,
        non_assoc: bool,
    ) -> Option<(TokenStream, Prec)> {
        let (at, ap) = self.lower(a)?;
        let (bt, bp) = self.lower(b)?;
        let at = if ap < prec || (non_assoc && ap == prec) {
            quote!((#at))
        } else {
            at
        };
        let bt = if bp <= prec { quote!((#bt)) } else { bt };
        Some((quote!(#at #op #bt), prec))
    }
}

/// The local flag of `otherwise` bookkeeping number `k`.
fn fired_ident(k: usize) -> Ident {
    format_ident!("fired_{}", k)
}

/// A real literal (see `expr::literal`) with this module's precedence.
fn num(v: f64) -> (TokenStream, Prec) {
    let (t, negated) = literal(v);
    (t, if negated { Prec::Unary } else { Prec::Atom })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_avoid_other_models() {
        let taken = vec!["Hoop".to_string(), "HoopBatch".to_string()];
        assert_eq!(batch_name("Hoop", &taken), "HoopBatch_");
        assert_eq!(batch_name("r#fn", &taken), "fnBatch");
    }
}
