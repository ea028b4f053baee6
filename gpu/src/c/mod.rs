//! The lowered program as C: one struct per model of the instance tree and its construction, reset and step, statement for statement.
//!
//! A storage strategy over `sit_lir`, as the scalar generator of `sit-codegen`
//! is: every value of an instance is a field of its model's struct (a submodel is a
//! struct inside its parent's), the step is the lowered statements in their order, every
//! runtime procedure a function of `prelude.h` that does what `sit-runtime`'s does,
//! operation for operation. The text is C99 that is also CUDA C++: the functions are
//! `__device__` under NVRTC, plain `static inline` under a host C compiler.
//!
//! Names: model `k` is `struct sit_mK` with functions `sit_mK_init`, `sit_mK_reset`,
//! `sit_mK_step`; its variable `i` is the field `vi` (a `sit_real`: `double`, or `float` under `SIT_F32`; an `int` for a flag),
//! submodel `i` the field `si` with its switch `oni`, event `e` the fields `eve` and `evpe`
//! (its previous condition), mode `k` the fields `modek` and `mstartk`, the memory of a
//! `deriv` rule `memk`; `time`, `dt` and `clock` as in the generated Rust. Each field's
//! `.sit` name is in a comment beside it.

pub(crate) mod expr;
mod stmt;

use expr::{ExprGen, num};
use sit_lir::{self as lower, FlagUse, Lowering, Reads, Stmt};
use sit_lir::{LookupTable, ModelId, Ty};
use std::cell::RefCell;
use std::sync::Arc;
use stmt::StmtGen;

/// C text with indentation.
#[derive(Default)]
pub(crate) struct Out {
    /// The text.
    pub text: String,
    depth: usize,
}

impl Out {
    /// One line at the current depth.
    pub(crate) fn line(&mut self, line: impl AsRef<str>) {
        for _ in 0..self.depth {
            self.text.push_str("    ");
        }
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    /// A line that opens a block.
    pub(crate) fn open(&mut self, line: impl AsRef<str>) {
        self.line(line);
        self.depth += 1;
    }

    /// A line that closes a block.
    pub(crate) fn close(&mut self, line: impl AsRef<str>) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
    }
}

/// Why the C form of a program could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Unsupported {
    /// The lowering failed (a model too large, a malformed program).
    #[error("{0}")]
    Lower(#[from] lower::LowerError),
    /// The lowered program is not one the lowering makes.
    #[error("malformed program: {0}")]
    Malformed(String),
    /// A method whose statements the C form does not write (an implicit method's
    /// stage solves: no C LU yet).
    #[error(
        "the C form (GPU) does not run the implicit method `{0}` yet (its stage solves need an LU in C); use an explicit method (dopri5, tsit5, dop853, rk4) on the GPU, or run `{0}` on the CPU"
    )]
    Method(&'static str),
}

/// The lookup tables of the program, each written once as constant arrays.
#[derive(Default)]
pub(crate) struct Tables {
    list: RefCell<Vec<Arc<LookupTable>>>,
}

impl Tables {
    /// The index of table `t`, given when it is first read.
    pub(crate) fn index(&self, t: &Arc<LookupTable>) -> usize {
        let mut list = self.list.borrow_mut();
        if let Some(k) = list.iter().position(|u| Arc::ptr_eq(u, t) || **u == **t) {
            return k;
        }
        list.push(t.clone());
        list.len() - 1
    }

    /// The declarations of the tables met (`SIT_TABLE` is `__device__ static const` on the
    /// GPU, `static const` on the host).
    pub(crate) fn declarations(&self) -> String {
        let mut out = Out::default();
        for (k, t) in self.list.borrow().iter().enumerate() {
            out.line(format!("/* table {} */", t.name));
            for (j, g) in t.grids.iter().enumerate() {
                out.line(format!(
                    "SIT_TABLE sit_real sit_table{k}_g{j}[] = {};",
                    array(g)
                ));
            }
            out.line(format!(
                "SIT_TABLE sit_real sit_table{k}_v[] = {};",
                array(&t.values)
            ));
        }
        out.text
    }
}

fn array(xs: &[f64]) -> String {
    let items: Vec<String> = xs.iter().map(|&x| num(x)).collect();
    format!("{{{}}}", items.join(", "))
}

/// The models of the instance tree of `root`, leaves first (the program's order).
pub(crate) fn tree(lowered: &dyn Lowering, root: ModelId) -> Vec<ModelId> {
    let program = lowered.program();
    let mut keep = vec![false; program.models.len()];
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if let Some(k) = keep.get_mut(id)
            && !std::mem::replace(k, true)
        {
            stack.extend(program.models[id].subs.iter().map(|s| s.model));
        }
    }
    (0..program.models.len()).filter(|&i| keep[i]).collect()
}

/// The struct and functions of model `id`, appended to `out`.
pub(crate) fn model(
    lowered: &dyn Lowering,
    id: ModelId,
    tables: &Tables,
    out: &mut Out,
) -> Result<(), Unsupported> {
    let program = lowered.program();
    let m = &program.models[id];
    let low = lowered.model(id, Reads::Inline)?;

    out.line(format!("/* model {} */", m.name));
    out.open(format!("struct sit_m{id} {{"));
    for (i, v) in m.vars.iter().enumerate() {
        if v.is_derived() {
            continue;
        }
        let ty = match v.ty {
            Ty::Real => "sit_real",
            Ty::Flag => "int",
        };
        out.line(format!("{ty} v{i}; /* {} */", v.name));
    }
    for (s, sub) in m.subs.iter().enumerate() {
        out.line(format!(
            "struct sit_m{} s{s}; /* {} */",
            sub.model, sub.name
        ));
        out.line(format!("int on{s};"));
    }
    for (e, ev) in m.events.iter().enumerate() {
        out.line(format!("int ev{e}; int evp{e}; /* {} */", ev.name));
    }
    for (k, mode) in m.modes.iter().enumerate() {
        out.line(format!("int mode{k}; int mstart{k}; /* {} */", mode.name));
    }
    for k in 0..m.memories.len() {
        out.line(format!("sit_deriv mem{k};"));
    }
    out.line("sit_real time; sit_real dt; sit_clock clock;");
    out.close("};");

    let mut sets_dt = false;
    lower::walk(&low.body, &mut |s| {
        sets_dt |= matches!(s, Stmt::SetDt { .. })
    });
    let mut sg = StmtGen {
        g: ExprGen {
            program,
            model: id,
            base: "s->".into(),
            tables,
        },
        low: &low,
        sets_dt,
        locals: 0,
    };
    reset(&mut sg, id, out)?;
    init(&sg, id, out);
    step(&mut sg, id, out)?;
    Ok(())
}

/// `sit_mK_reset`: in the order of the lowering.
fn reset(sg: &mut StmtGen<'_>, id: ModelId, out: &mut Out) -> Result<(), Unsupported> {
    let low = sg.low;
    out.open(format!(
        "SIT_DEVICE void sit_m{id}_reset(struct sit_m{id}* s, sit_fault* f) {{"
    ));
    out.line("sit_real dt = 0.0; (void)dt;");
    for link in &low.subs {
        sg.reset_sub(link, out);
    }
    for link in &low.subs {
        out.line(format!("s->on{} = {};", link.sub, link.initially_on as u8));
    }
    for init in &low.inits {
        out.line(format!("s->v{} = {};", init.var, sg.g.expr(&init.value)));
    }
    for k in 0..sg.g.program.models[id].memories.len() {
        out.line(format!("sit_deriv_reset(&s->mem{k});"));
    }
    out.line("s->time = 0.0; sit_clock_reset(&s->clock); s->dt = 0.0;");
    for md in &low.modes {
        out.line(format!("s->mode{} = {};", md.mode, md.initial));
    }
    let pass = !low.initial.is_empty();
    if pass {
        for ev in &low.events {
            out.line(format!("s->ev{} = 0;", ev.event));
        }
        out.open("{");
        flags(&low.initial_flags, out);
        sg.stmts(&low.initial, out)?;
        out.close("}");
    }
    for ev in &low.events {
        if !pass {
            out.line(format!("s->ev{} = 0;", ev.event));
        }
        out.line(format!("s->evp{} = {};", ev.event, sg.g.expr(&ev.cond)));
    }
    out.close("}");
    Ok(())
}

/// `sit_mK_init`: construction (every field, the defaults in declaration order, the
/// submodels constructed), then a reset.
fn init(sg: &StmtGen<'_>, id: ModelId, out: &mut Out) {
    let low = sg.low;
    let m = &sg.g.program.models[id];
    out.open(format!(
        "SIT_DEVICE void sit_m{id}_init(struct sit_m{id}* s, sit_fault* f) {{"
    ));
    for (i, v) in m.vars.iter().enumerate() {
        if !v.is_derived() {
            let zero = if v.ty == Ty::Real { "0.0" } else { "0" };
            out.line(format!("s->v{i} = {zero};"));
        }
    }
    // Constant defaults and initial values first, as the generated struct literal has them.
    let mut later = Vec::new();
    let mut values: Vec<(usize, &lower::Term, bool)> = Vec::new();
    values.extend(low.defaults.iter().map(|i| (i.var, &i.value, true)));
    values.extend(low.inits.iter().map(|i| (i.var, &i.value, false)));
    values.sort_by_key(|v| v.0);
    for (v, value, is_default) in values {
        if value.is_constant() {
            out.line(format!("s->v{v} = {};", sg.g.expr(value)));
        } else if is_default {
            later.push((v, value));
        }
    }
    for (s, sub) in m.subs.iter().enumerate() {
        out.line(format!(
            "sit_m{}_init(&s->s{s}, f); if (f->code) return;",
            sub.model
        ));
        out.line(format!("s->on{s} = {};", sub.initially_on as u8));
    }
    for e in 0..m.events.len() {
        out.line(format!("s->ev{e} = 0; s->evp{e} = 0;"));
    }
    for md in &low.modes {
        out.line(format!(
            "s->mode{0} = {1}; s->mstart{0} = {1};",
            md.mode, md.initial
        ));
    }
    for k in 0..m.memories.len() {
        out.line(format!("sit_deriv_reset(&s->mem{k});"));
    }
    out.line("s->time = 0.0; s->dt = 0.0; sit_clock_reset(&s->clock);");
    for (v, value) in later {
        out.line(format!("s->v{v} = {};", sg.g.expr(value)));
    }
    out.line(format!("sit_m{id}_reset(s, f);"));
    out.close("}");
}

/// The `otherwise` flags of a rule list as locals.
fn flags(uses: &[FlagUse], out: &mut Out) {
    for (k, flag) in uses.iter().enumerate() {
        match flag {
            FlagUse::Unread => {}
            FlagUse::AlwaysSet => out.line(format!("int fired_{k} = 1; (void)fired_{k};")),
            FlagUse::Tracked { .. } => out.line(format!("int fired_{k} = 0; (void)fired_{k};")),
        }
    }
}

/// `sit_mK_step` (and `sit_mK_step_once` for a model that divides its step).
fn step(sg: &mut StmtGen<'_>, id: ModelId, out: &mut Out) -> Result<(), Unsupported> {
    let low = sg.low;
    let once = match low.substeps {
        Some(_) => format!("sit_m{id}_step_once"),
        None => format!("sit_m{id}_step"),
    };
    out.open(format!(
        "SIT_DEVICE void {once}(struct sit_m{id}* s, sit_real dt, sit_fault* f) {{"
    ));
    out.line("s->dt = dt;");
    for link in low.subs.iter().filter(|l| !l.placed) {
        sg.step_sub(link, "dt", out);
    }
    for ev in low.events.iter().filter(|_| low.events_at_start) {
        let e = ev.event;
        out.line(format!(
            "s->ev{e} = sit_rising({}, &s->evp{e});",
            sg.g.expr(&ev.cond)
        ));
    }
    sg.note_modes(out);
    flags(&low.flags, out);
    sg.stmts(&low.body, out)?;
    out.line("s->time = sit_clock_advance(&s->clock, dt);");
    out.close("}");
    if let Some(link) = &low.substeps {
        out.open(format!(
            "SIT_DEVICE void sit_m{id}_step(struct sit_m{id}* s, sit_real dt, sit_fault* f) {{"
        ));
        out.line("s->dt = dt;");
        out.open(format!("if ({}) {{", sg.g.expr(&link.when)));
        out.line(format!(
            "sit_real n = SIT_F(ceil)({});",
            sg.g.expr(&link.count)
        ));
        out.open(format!(
            "if (!(n >= 1.0 && n <= {})) {{",
            num(link.limit as f64)
        ));
        stmt::fault(out, "SIT_FAULT_SUBSTEPS");
        out.close("}");
        out.line("unsigned long long count = (unsigned long long)n;");
        out.line("sit_real h = dt / (sit_real)count;");
        out.line("sit_clock clock = s->clock;");
        out.open("for (unsigned long long k = 0; k < count; k++) {");
        out.line(format!("{once}(s, h, f); if (f->code) return;"));
        out.close("}");
        out.line("s->clock = clock;");
        out.line("s->time = sit_clock_advance(&s->clock, dt);");
        out.close("} else {");
        out.depth += 1;
        out.line(format!("{once}(s, dt, f);"));
        out.close("}");
        out.close("}");
    }
    Ok(())
}
