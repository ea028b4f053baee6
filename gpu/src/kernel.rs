//! One parameter set's run as a C function (`sit_run`): the set applied, the steps, the summaries kept as they go; the CUDA kernel and the host program around it.

use crate::c::expr::{ExprGen, num};
use crate::c::{self, Out, Tables, Unsupported};
use sit_lir::{Access, Defined, Entry, Item, Lowering, ModelId, Reads, Ty, VarKind};
pub use sit_runtime::sweep::Collect;

/// The shape of a study, which the kernel's text depends on (its values do not: they are
/// the kernel's arguments).
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The variables swept (indices of `sit_lower::variables` of the root), the
    /// first varying slowest: set `k` takes the digits of `k` in the mixed radix of the
    /// axes' lengths, as `sit_runtime::sweep::grid` orders them.
    pub axes: Vec<usize>,
    /// Values set in every run, after the axes' (`--set`).
    pub fixed: Vec<(usize, f64)>,
    /// The columns of a row, computed as `sit_runtime::sweep::Sweep` computes them, to
    /// the bit.
    pub collect: Vec<Collect>,
    /// The inputs driven by time series (their series are [`crate::Launch::series`], in
    /// this order), each with its hold, as `sit_runtime::drive::Driven` drives them.
    pub inputs: Vec<(usize, sit_runtime::drive::Hold)>,
}

/// Why a study cannot run as C.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The program could not be written as C.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// A variable index out of the root's list.
    #[error("no variable with index {0}")]
    NoVariable(usize),
    /// A swept or fixed variable that cannot be set (computed, bound, a mode).
    #[error("`{0}` cannot be set")]
    NotSettable(String),
}

/// The C text of a study: every model of the instance tree, `sit_run`, the CUDA kernel
/// `sit_sweep` (under `__CUDACC__`) and a host `main` (under `SIT_HOST_MAIN`).
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The C source.
    pub source: String,
    /// The number of axes.
    pub axes: usize,
    /// The number of columns of a row.
    pub columns: usize,
    /// The number of driven inputs.
    pub inputs: usize,
}

/// The prelude: sit-runtime's procedures in C.
pub const PRELUDE: &str = include_str!("prelude.h");

/// Writes the C text of the study `spec` of model `root`.
pub fn kernel(lowered: &dyn Lowering, root: ModelId, spec: &Spec) -> Result<Kernel, SpecError> {
    let program = lowered.program();
    if root >= program.models.len() {
        return Err(Unsupported::Malformed(format!("no model with index {root}")).into());
    }
    let entries = lowered.variables(root).map_err(Unsupported::from)?;
    let tables = Tables::default();
    let mut models = Out::default();
    for id in c::tree(lowered, root) {
        c::model(lowered, id, &tables, &mut models)?;
        models.line("");
    }
    let entry = |i: usize| entries.get(i).ok_or(SpecError::NoVariable(i));
    let mut run = Out::default();
    let g = ExprGen {
        program,
        model: root,
        base: "s->".into(),
        tables: &tables,
    };

    // The reads of the collected variables.
    let mut read_vars: Vec<usize> = spec.collect.iter().map(Collect::var).collect();
    read_vars.sort_unstable();
    read_vars.dedup();
    for &i in &read_vars {
        let e = entry(i)?;
        run.open(format!(
            "SIT_DEVICE sit_real sit_get{i}(struct sit_m{root}* s) {{ /* {} */",
            e.name
        ));
        run.line(format!("return {};", read(lowered, &g, e)?));
        run.close("}");
    }

    // Applying a set: params and inputs, reset, the others (`sit_runtime::sweep::apply`).
    let na = spec.axes.len();
    let mut assigns: Vec<(String, &Entry)> = Vec::new();
    for (a, &i) in spec.axes.iter().enumerate() {
        assigns.push((format!("x[{a}]"), entry(i)?));
    }
    for &(i, v) in &spec.fixed {
        assigns.push((num(v), entry(i)?));
    }
    let early = |e: &Entry| matches!(e.item, Item::Var(_, VarKind::Param { .. } | VarKind::Input));
    let mut before = Vec::new();
    let mut after = Vec::new();
    for (value, e) in &assigns {
        let line = write(&g, e, value)?;
        if early(e) {
            before.push(line);
        } else {
            after.push(line);
        }
    }

    // The driven inputs: their series (`sit_runtime::drive`'s rule, in the prelude).
    let mut drive_all = Vec::new();
    let mut enter = Vec::new();
    for (j, &(i, hold)) in spec.inputs.iter().enumerate() {
        let e = entry(i)?;
        let (ts, vs, n) = (
            format!("ts{j}"),
            format!("vs{j}"),
            format!("series_lens[{j}]"),
        );
        let sample = match hold {
            sit_runtime::drive::Hold::Linear => "sit_sample",
            sit_runtime::drive::Hold::Zero => "sit_held",
        };
        drive_all.push(write(
            &g,
            e,
            &format!("{sample}({ts}, {vs}, {n}, s->time)"),
        )?);
        if hold == sit_runtime::drive::Hold::Zero {
            enter.push(write(
                &g,
                e,
                &format!("(sit_real)sit_true_within({ts}, {vs}, {n}, s->time, s->time + h)"),
            )?);
        }
    }

    run.open(
        "SIT_DEVICE int sit_run(long long set, const double* axes, const long long* lens, \
         long long steps, double dt, const double* series, const long long* series_lens, \
         double* row, double* seen) {",
    );
    run.line(format!("struct sit_m{root} m; struct sit_m{root}* s = &m;"));
    run.line("sit_fault fault; sit_fault* f = &fault;");
    run.line("f->code = 0; f->time = 0.0;");
    run.line(format!("sit_real x[{}];", na.max(1)));
    run.line("long long rem = set, off = 0;");
    run.line(format!("for (int a = 0; a < {na}; a++) off += lens[a];"));
    run.open(format!("for (int a = {na} - 1; a >= 0; a--) {{"));
    run.line("off -= lens[a]; x[a] = (sit_real)axes[off + rem % lens[a]]; rem /= lens[a];");
    run.close("}");
    run.line("(void)x; (void)rem; (void)series; (void)series_lens;");
    // Input j's rows: its times, then its values.
    for j in 0..spec.inputs.len() {
        let from = match j {
            0 => "series".to_string(),
            _ => format!("vs{} + series_lens[{}]", j - 1, j - 1),
        };
        run.line(format!(
            "const double* ts{j} = {from}; const double* vs{j} = ts{j} + series_lens[{j}];"
        ));
    }
    run.line(format!(
        "sit_m{root}_init(s, f); if (f->code) return f->code;"
    ));
    for l in &before {
        run.line(l);
    }
    run.line(format!(
        "sit_m{root}_reset(s, f); if (f->code) return f->code;"
    ));
    for l in &drive_all {
        run.line(l);
    }
    for l in &after {
        run.line(l);
    }
    // The watch of the recorded variables: the first non-finite value, its variable,
    // the time and the start of its step (NaN: the initial values).
    run.line("seen[0] = -1.0;");
    let watch = |run: &mut Out, from: &str| {
        for &i in &read_vars {
            run.line(format!(
                "if (seen[0] < 0.0) {{ sit_real v = sit_get{i}(s); if (!(v - v == SIT_R(0.0))) \
                 {{ seen[0] = {i}; seen[1] = v; seen[2] = s->time; seen[3] = {from}; }} }}"
            ));
        }
    };
    watch(&mut run, "sit_from_bits(0x7ff8000000000000ULL)");
    // The accumulators, on the row before the first step.
    for (k, c) in spec.collect.iter().enumerate() {
        let v = format!("sit_get{}(s)", c.var());
        match c {
            Collect::Final(_) => {}
            Collect::Max(_) | Collect::Min(_) => run.line(format!("sit_real acc{k} = {v};")),
            Collect::FirstCrossing { threshold, .. } => {
                run.line(format!("sit_real t{k} = s->time, prev{k} = {v};"));
                run.line(format!(
                    "int found{k} = prev{k} == {0}; sit_real at{k} = s->time;",
                    num(*threshold)
                ));
            }
        }
    }
    // The step in the study's precision, rounded once.
    run.line("sit_real h = (sit_real)dt;");
    run.open("for (long long n = 0; n < steps; n++) {");
    for l in &enter {
        run.line(l);
    }
    run.line(format!(
        "sit_m{root}_step(s, h, f); if (f->code) return f->code;"
    ));
    for l in &drive_all {
        run.line(l);
    }
    if spec.collect.iter().any(|c| !matches!(c, Collect::Final(_))) {
        run.line("sit_real t = s->time; (void)t;");
    }
    for (k, c) in spec.collect.iter().enumerate() {
        let v = format!("sit_get{}(s)", c.var());
        match c {
            Collect::Final(_) => {}
            Collect::Max(_) | Collect::Min(_) => {
                let beyond = if matches!(c, Collect::Max(_)) {
                    ">"
                } else {
                    "<"
                };
                run.open("{");
                run.line(format!("sit_real v = {v};"));
                run.line(format!(
                    "acc{k} = (sit_is_nan(acc{k}) || sit_is_nan(v)) ? \
                     SIT_NAN : (v {beyond} acc{k} ? v : acc{k});"
                ));
                run.close("}");
            }
            Collect::FirstCrossing { threshold, .. } => {
                let th = num(*threshold);
                run.open("{");
                run.line(format!("sit_real v = {v};"));
                run.open(format!(
                    "if (!found{k} && ((prev{k} < {th} && v >= {th}) || (prev{k} > {th} && v <= {th}))) {{"
                ));
                run.line(format!(
                    "at{k} = v == {th} ? t : sit_min(t{k} + (t - t{k}) * (({th} - prev{k}) / (v - prev{k})), t);"
                ));
                run.line(format!("found{k} = 1;"));
                run.close("}");
                run.line(format!("t{k} = t; prev{k} = v;"));
                run.close("}");
            }
        }
    }
    run.close("}");
    for (k, c) in spec.collect.iter().enumerate() {
        let value = match c {
            Collect::Final(v) => format!("sit_get{v}(s)"),
            Collect::Max(_) | Collect::Min(_) => format!("acc{k}"),
            Collect::FirstCrossing { .. } => {
                format!("found{k} ? at{k} : SIT_NAN")
            }
        };
        run.line(format!("row[{k}] = {value};"));
    }
    run.line("return 0;");
    run.close("}");

    let columns = spec.collect.len();
    let mut source = String::new();
    source.push_str(&format!(
        "/* @generated by sit-gpu (Sit {}) from the model {}: one run of a parameter set. */\n",
        env!("CARGO_PKG_VERSION"),
        program.models[root].name.replace("*/", "* /")
    ));
    source.push_str(PRELUDE);
    source.push_str(
        "\n#ifdef __CUDACC__\n#define SIT_TABLE __device__ static const\n#else\n#define SIT_TABLE static const\n#endif\n\n",
    );
    source.push_str(&tables.declarations());
    source.push_str(&models.text);
    source.push_str(&run.text);
    source.push_str(&format!(
        r#"
#ifdef __CUDACC__
/* One thread per parameter set `first + k` of the grid: its row at `rows + k * {columns}`,
 * its fault (0: none) at `faults[k]`, the first non-finite recorded value at
 * `seen + k * 4`. */
extern "C" __global__ void sit_sweep(const double* axes, const long long* lens, long long first,
                                     long long sets, long long steps, double dt,
                                     const double* series, const long long* series_lens,
                                     double* rows, int* faults, double* seen) {{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < sets)
        faults[k] = sit_run(first + k, axes, lens, steps, dt, series, series_lens,
                            rows + k * {columns}, seen + k * 4);
}}
#endif

#ifdef SIT_HOST_MAIN
#include <stdio.h>
#include <stdlib.h>
/* Reads `first sets steps dt`, the axes (each its length, then its values) and the inputs'
 * series (each its rows, then its times and its values), numbers as the hexadecimal bits
 * of a double; writes per set its fault code, its watch (4 values) and its row's bits. */
static double sit_read_bits(void) {{
    unsigned long long b = 0;
    if (scanf("%llx", &b) != 1) exit(3);
    return sit_from_bits(b);
}}
int main(void) {{
    long long first, sets, steps, total = 0, lens[{na1}], series_lens[{ni1}], rows = 0;
    double dt, *axes, *series, row[{col1}], seen[4];
    if (scanf("%lld %lld %lld", &first, &sets, &steps) != 3) return 3;
    dt = sit_read_bits();
    for (int a = 0; a < {na}; a++) {{ if (scanf("%lld", &lens[a]) != 1) return 3; total += lens[a]; }}
    axes = (double*)malloc(sizeof(double) * (size_t)(total + 1));
    for (long long k = 0; k < total; k++) axes[k] = sit_read_bits();
    for (int j = 0; j < {ni}; j++) {{ if (scanf("%lld", &series_lens[j]) != 1) return 3; rows += series_lens[j]; }}
    series = (double*)malloc(sizeof(double) * (size_t)(2 * rows + 1));
    for (long long k = 0; k < 2 * rows; k++) series[k] = sit_read_bits();
    for (long long set = first; set < first + sets; set++) {{
        int code = sit_run(set, axes, lens, steps, dt, series, series_lens, row, seen);
        printf("%d", code);
        for (int k = 0; k < 4; k++) {{
            union {{ double d; unsigned long long u; }} v;
            v.d = code ? sit_from_bits(0x7ff8000000000000ULL) : seen[k];
            if (code && k == 0) v.d = -1.0;
            printf(" %llx", v.u);
        }}
        for (int k = 0; k < {columns}; k++) {{
            union {{ double d; unsigned long long u; }} v;
            v.d = code ? sit_from_bits(0x7ff8000000000000ULL) : row[k];
            printf(" %llx", v.u);
        }}
        printf("\n");
    }}
    free(axes);
    free(series);
    return 0;
}}
#endif
"#,
        na1 = na.max(1),
        ni = spec.inputs.len(),
        ni1 = spec.inputs.len().max(1),
        col1 = columns.max(1),
    ));
    Ok(Kernel {
        source,
        axes: na,
        columns,
        inputs: spec.inputs.len(),
    })
}

/// The value of entry `e` as `sit_runtime::Model::get_at` gives it: a real as it is, a
/// flag 1 or 0, a mode the index of its state.
fn read(lowered: &dyn Lowering, root: &ExprGen<'_>, e: &Entry) -> Result<String, SpecError> {
    let (base, _) = root.base(&e.path);
    let program = lowered.program();
    let g = ExprGen {
        program,
        model: e.model,
        base: base.clone(),
        tables: root.tables,
    };
    let m = &program.models[e.model];
    let logical = |x: String| format!("(({x}) ? SIT_R(1.0) : SIT_R(0.0))");
    let term = |t: Result<sit_lir::Term, sit_lir::LowerError>| -> Result<String, SpecError> {
        let t = t.map_err(Unsupported::from)?;
        Ok(g.expr(&t))
    };
    Ok(match e.item {
        Item::Var(v, _) if e.access == Access::Derived => {
            term(lowered.definition(e.model, Defined::Var(v), Reads::Inline))?
        }
        Item::Var(v, _) if m.vars[v].ty == Ty::Flag => logical(format!("{base}v{v}")),
        Item::Var(v, _) => format!("{base}v{v}"),
        Item::Cond(c, _) => logical(term(lowered.read(
            e.model,
            Defined::Cond(c),
            Reads::Inline,
        ))?),
        Item::Event(ev) => logical(format!("{base}ev{ev}")),
        Item::On(s) => logical(format!("{base}on{s}")),
        Item::Mode(k) => format!("(sit_real)({base}mode{k})"),
    })
}

/// The statement setting entry `e` to `value` (a C expression of a `double`).
fn write(g: &ExprGen<'_>, e: &Entry, value: &str) -> Result<String, SpecError> {
    if e.access != Access::Settable {
        return Err(SpecError::NotSettable(e.name.clone()));
    }
    let (base, _) = g.base(&e.path);
    let program = g.program;
    Ok(match e.item {
        Item::Var(v, _) if program.models[e.model].vars[v].ty == Ty::Flag => {
            format!("{base}v{v} = ({value}) != 0.0;")
        }
        Item::Var(v, _) => format!("{base}v{v} = {value};"),
        Item::On(s) => format!("{base}on{s} = ({value}) != 0.0;"),
        _ => return Err(SpecError::NotSettable(e.name.clone())),
    })
}
