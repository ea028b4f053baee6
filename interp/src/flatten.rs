//! Flattening of the statement trees of [`Code`] into the flat programs of [`crate::ops`].
//!
//! The step of the whole instance tree becomes one program (each submodel's step inlined
//! behind a jump on its `on` flag); every node gets a reset program (a submodel's reset
//! is an [`Op::Reset`] call), and construction one more. Each comes unchecked and checked
//! (with an [`Op::Check`] after every real value a rule, declaration or binding stores).
//!
//! Literals get real slots after the model's own, temporaries after the literals. The
//! literals are only known once everything is lowered, so lowering runs twice: the first
//! pass numbers the literals, the second places the temporaries after them.

use crate::code::{Code, EventCode, Init, Read, Stmt, Update};
use crate::forms::{target, thread_jumps, with_flag};
use crate::ops::{Op, Slot};
use std::collections::HashMap;

mod expr;
mod substep;

pub(crate) use substep::SubstepProgram;

/// A program: its operations, the checked variant second.
pub(crate) type Pair = [Box<[Op]>; 2];

/// Everything lowered from one [`Code`].
#[derive(Debug)]
pub(crate) struct Programs {
    /// The step of the whole tree, but for the `otherwise` flags, cleared before it,
    /// and the root's time, advanced after it.
    pub step: Pair,
    /// The `otherwise` flags (of every node) that some `otherwise` reads.
    pub fired: Box<[usize]>,
    /// The reset of each node (with its submodels).
    pub resets: Vec<Pair>,
    /// Construction: every default, then the root's reset (unchecked only).
    pub construct: Box<[Op]>,
    /// The literals, stored from real slot [`Code::reals`] on.
    pub consts: Vec<f64>,
    /// Number of real slots: the model's, the literals, the temporaries.
    pub reals: usize,
    /// Number of flag slots: the model's, then the temporaries.
    pub flags: usize,
    /// The instantaneous phases of every node, in node order (see [`Op::Phase`]).
    pub phases: Vec<PhaseProgram>,
    /// The sub-steps of every node that divides its step, in node order (see
    /// [`Op::Substeps`]).
    pub substeps: Vec<SubstepProgram>,
}

/// The programs of one instantaneous phase, run by [`Op::Phase`]: `enter` once (the
/// bindings and the reset of the phase's node), then `step` (a step of the phase's
/// node with the phase's own `dt`, then its end condition into flag slot `done`)
/// until `done` holds or `limit` steps were taken.
#[derive(Debug)]
pub(crate) struct PhaseProgram {
    /// The bindings and the reset.
    pub enter: Pair,
    /// One step and the end condition.
    pub step: Pair,
    /// The flag slot of the end condition, after `step` (unchecked, checked).
    pub done: [Slot; 2],
    /// The most steps of one run.
    pub limit: u64,
    /// The real slot of the parent's time (for the run-time error).
    pub time: Slot,
    /// The parent's model name (for the run-time error).
    pub model: String,
    /// The phase's name (for the run-time error).
    pub name: String,
}

/// Lowers every program of `code`; `None` if a slot or site index does not fit a
/// [`Slot`] (more than 2³² values).
pub(crate) fn flatten(code: &Code) -> Option<Programs> {
    let mut consts = Consts {
        read: vec![false; code.reals],
        ..Consts::default()
    };
    // First pass: number the literals and find the slots read (temporaries placed
    // anywhere, then discarded). The reads from outside count too. The unchecked
    // programs suffice: a checked one adds only tests of the values stored (no literal,
    // no read), so lowering it here too would double the pass for nothing.
    lower_all(code, &mut consts, code.reals, &[false])?;
    let mut l = Flattener::new(code, &mut consts, code.reals, false);
    for v in &code.vars {
        match &v.read {
            Read::Num(e) => {
                let junk = l.junk();
                l.value(&e.0, junk);
            }
            Read::Logic(e) => {
                l.flag_value(&e.0);
            }
            Read::Real(_) | Read::Flag(_) => {}
        }
    }
    let temp_base = code.reals.checked_add(consts.values.len())?;
    let (step, fired, resets, construct, temps, phases, substeps) =
        lower_all(code, &mut consts, temp_base, &[false, true])?;
    // The second pass met no literal the first did not: they all sit below `temp_base`.
    debug_assert_eq!(consts.values.len(), temp_base - code.reals);
    let reals = temp_base.checked_add(temps.0 + 1)?;
    let flags = code.flags.checked_add(temps.1)?;
    Slot::try_from(reals.max(flags)).ok()?;
    Some(Programs {
        step,
        fired,
        resets,
        construct,
        consts: consts.values,
        reals,
        flags,
        phases,
        substeps,
    })
}

/// The step, the live `otherwise` flags, the resets, construction, the most real and
/// flag temporaries used, and the phases.
type Lowered = (
    Pair,
    Box<[usize]>,
    Vec<Pair>,
    Box<[Op]>,
    (usize, usize),
    Vec<PhaseProgram>,
    Vec<SubstepProgram>,
);

/// Lowers every program of `code` in the variants `checks` (unchecked `false`,
/// checked `true`); a variant not asked for is left empty.
fn lower_all(
    code: &Code,
    consts: &mut Consts,
    temp_base: usize,
    checks: &[bool],
) -> Option<Lowered> {
    let mut max = (0, 0);
    let fired = std::cell::Cell::new(Vec::new());
    let mut pair = |f: &dyn Fn(&mut Flattener)| -> Option<Pair> {
        let mut out = [Box::default(), Box::default()];
        for &check in checks {
            let mut l = Flattener::new(code, &mut *consts, temp_base, check);
            f(&mut l);
            max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
            fired.set(std::mem::take(&mut l.fired));
            out[usize::from(check)] = l.finish()?;
        }
        Some(out)
    };
    let step = pair(&|l| l.step(0))?;
    let fired = fired.take().into_boxed_slice();
    let resets = (0..code.nodes.len())
        .map(|n| pair(&|l| l.reset(n)))
        .collect::<Option<Vec<_>>>()?;
    let mut l = Flattener::new(code, consts, temp_base, false);
    for node in &code.nodes {
        for d in &node.defaults {
            l.init(d);
        }
    }
    l.emit(Op::Reset {
        node: 0,
        check: false,
    });
    max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
    let construct = l.finish()?;
    let mut phases = Vec::new();
    for (n, node) in code.nodes.iter().enumerate() {
        for p in &node.phases {
            let mut enter = [Box::default(), Box::default()];
            let mut step = [Box::default(), Box::default()];
            let mut done = [0; 2];
            for &check in checks {
                let c = usize::from(check);
                let mut l = Flattener::new(code, &mut *consts, temp_base, check);
                for b in &p.binds {
                    l.init(b);
                }
                let sub = l.slot(p.node);
                l.call_reset(sub);
                max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
                enter[c] = l.finish()?;
                let mut l = Flattener::new(code, &mut *consts, temp_base, check);
                let h = l.constant(p.step);
                l.dt_override = Some(h);
                l.step(p.node);
                done[c] = l.flag_value(&p.until.0);
                // The `otherwise` flags of the phase's nodes, false for its next step.
                for f in std::mem::take(&mut l.fired) {
                    let d = l.slot(f);
                    l.emit(Op::SetFlag { d, v: false });
                }
                max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
                step[c] = l.finish()?;
            }
            phases.push(PhaseProgram {
                enter,
                step,
                done,
                limit: p.limit,
                time: Slot::try_from(code.nodes[n].time).ok()?,
                model: p.model.clone(),
                name: p.name.clone(),
            });
        }
    }
    let substeps = substep::programs(code, consts, temp_base, checks, &mut max)?;
    Some((step, fired, resets, construct, max, phases, substeps))
}

/// What the passes share: the literals met so far (by bit pattern, with their slot),
/// and which model real slots some expression reads (known after the first pass).
#[derive(Default)]
struct Consts {
    slots: HashMap<u64, usize>,
    values: Vec<f64>,
    read: Vec<bool>,
}

/// The builder of one program.
struct Flattener<'c> {
    code: &'c Code,
    consts: &'c mut Consts,
    check: bool,
    ops: Vec<Op>,
    /// Position of each label, once placed.
    labels: Vec<Option<usize>>,
    /// First real temporary slot.
    temp_base: usize,
    /// Real temporaries in use, and the most in use at once.
    temps: (usize, usize),
    /// Flag temporaries in use, and the most in use at once.
    flag_temps: (usize, usize),
    /// Some slot or site did not fit a [`Slot`].
    overflow: bool,
    /// The real slot whose value `acc` holds at this point of the program, if known.
    held: Option<Slot>,
    /// The last position a label was placed at (no operation is fused across it).
    landing: Option<usize>,
    /// Number of the statement being lowered in the body of its node (see
    /// [`last_reads`]).
    counter: usize,
    /// For each `otherwise` flag of the node, the number of the last statement that
    /// reads it.
    last_read: HashMap<usize, usize>,
    /// The `otherwise` flags of the nodes stepped so far that an `otherwise` reads.
    fired: Vec<usize>,
    /// The node whose body is being lowered.
    node: usize,
    /// The slot of `dt` when it is not the root's: a phase's own step, or the `dt` of a
    /// node that divides its step.
    dt_override: Option<Slot>,
    /// The node whose sub-step program is being lowered: its `step` is inlined once,
    /// not run through [`Op::Substeps`].
    substep_self: Option<usize>,
    /// The slot of `dt` while lowering a body that writes it (`Stmt::SetDt`): the node's
    /// own.
    body_dt: Option<Slot>,
}

/// A jump target, before it is placed.
#[derive(Clone, Copy)]
struct Label(Slot);

impl<'c> Flattener<'c> {
    fn new(code: &'c Code, consts: &'c mut Consts, temp_base: usize, check: bool) -> Self {
        Flattener {
            code,
            consts,
            check,
            ops: Vec::new(),
            labels: Vec::new(),
            temp_base,
            temps: (0, 0),
            flag_temps: (0, 0),
            overflow: false,
            held: None,
            landing: None,
            counter: 0,
            last_read: HashMap::new(),
            fired: Vec::new(),
            node: 0,
            dt_override: None,
            substep_self: None,
            body_dt: None,
        }
    }

    /// The program, with jump targets resolved.
    fn finish(mut self) -> Option<Box<[Op]>> {
        let mut ops = std::mem::take(&mut self.ops);
        for op in &mut ops {
            if let Some(t) = target(op) {
                match self.labels[*t as usize] {
                    Some(at) => *t = self.slot(at),
                    None => self.overflow = true,
                }
            }
        }
        thread_jumps(&mut ops);
        (!self.overflow).then(|| ops.into_boxed_slice())
    }

    fn slot(&mut self, i: usize) -> Slot {
        Slot::try_from(i).unwrap_or_else(|_| {
            self.overflow = true;
            0
        })
    }

    /// Appends `op`, or fuses it with the previous operation when no jump lands
    /// between them: two jumps on flags to one target, or two flag stores.
    fn emit(&mut self, op: Op) {
        let joined = self.landing == Some(self.ops.len());
        if let Some(last) = self.ops.last_mut().filter(|_| !joined) {
            let fused = match (&*last, &op) {
                (&Op::JumpIf { a, t }, &Op::JumpIf { a: b, t: u }) if t == u => {
                    Some(Op::JumpIfEither { a, b, t })
                }
                (&Op::SetFlag { d, v }, &Op::SetFlag { d: e, v: w }) => {
                    Some(Op::SetFlag2 { d, v, e, w })
                }
                _ => None,
            };
            if let Some(fused) = fused {
                *last = fused;
                return;
            }
        }
        self.ops.push(op);
    }

    fn label(&mut self) -> Label {
        self.labels.push(None);
        let l = self.labels.len() - 1;
        Label(self.slot(l))
    }

    fn place(&mut self, l: Label) {
        self.labels[l.0 as usize] = Some(self.ops.len());
        self.landing = Some(self.ops.len());
        // Paths join here: what `acc` holds is no longer known.
        self.held = None;
    }

    fn constant(&mut self, c: f64) -> Slot {
        let base = self.code.reals;
        let consts = &mut *self.consts;
        let i = *consts.slots.entry(c.to_bits()).or_insert_with(|| {
            consts.values.push(c);
            base + consts.values.len() - 1
        });
        self.slot(i)
    }

    fn temp(&mut self) -> Slot {
        // The first temporary is the junk slot.
        let t = self.temp_base + 1 + self.temps.0;
        self.temps.0 += 1;
        self.temps.1 = self.temps.1.max(self.temps.0);
        self.slot(t)
    }

    fn flag_temp(&mut self) -> Slot {
        let t = self.code.flags + self.flag_temps.0;
        self.flag_temps.0 += 1;
        self.flag_temps.1 = self.flag_temps.1.max(self.flag_temps.0);
        self.slot(t)
    }

    /// The step of node `n` and, inlined, of its switched-on submodels.
    fn step(&mut self, n: usize) {
        if self.substeps_of(n) {
            return;
        }
        let node = &self.code.nodes[n];
        // A submodel's `dt` and time are stored only if an expression reads them (the
        // root's are stored by `exec::step`).
        if n != 0 && self.is_read(node.dt) {
            let d = self.slot(node.dt);
            let a = self.dt();
            self.put(Op::Copy { d, a }, d);
        }
        for k in 0..node.subs.len() {
            if !self.code.nodes[n].subs[k].placed {
                self.step_sub(n, k);
            }
        }
        if node.events_at_start {
            for ev in &node.events {
                self.event(ev);
            }
        }
        // The `otherwise` flags: only those an `otherwise` reads are kept, and a rule
        // sets its flag only if an `otherwise` after it reads it.
        for md in &node.modes {
            if let Some(start) = md.start {
                let (d, a) = (self.slot(start), self.slot(md.slot));
                self.put(Op::Copy { d, a }, d);
            }
        }
        self.last_read.clear();
        self.counter = 0;
        last_reads(&node.body, &mut self.counter, &mut self.last_read);
        self.counter = 0;
        // They are cleared by `exec::step` before the program runs: only this node's
        // body touches them, so clearing them earlier is the same.
        let mut live: Vec<usize> = self.last_read.keys().copied().collect();
        live.sort_unstable();
        self.fired.extend(live);
        self.node = n;
        // A body that writes its `dt` (events located inside a step) has its procedures
        // read the node's own slot, which holds the step's `dt` until the body writes it.
        let writes_dt = sets_dt(&node.body);
        if writes_dt {
            self.body_dt = Some(self.slot(node.dt));
        }
        self.stmts(&node.body);
        self.body_dt = None;
        // The root's time is advanced by `exec::step`, after the program. A node with
        // phases keeps its time for their run-time error. A node that divides its step
        // ticks its clock in each sub-step, the root's included (`Op::Substeps` puts it
        // back and advances it by the whole step).
        if node.substeps.is_some()
            || (n != 0 && (self.is_read(node.time) || !node.phases.is_empty()))
        {
            let d = self.slot(node.time);
            let (clock, dt) = (self.slot(n), self.dt());
            self.emit(Op::Tick { d, clock, dt });
            self.held = None;
        }
    }

    /// The step of submodel `k` of node `n`, inlined, when it is on: its input bindings,
    /// then its step. Where a placed submodel steps in `n`'s body, what the body's
    /// lowering keeps of `n` is saved around it.
    fn step_sub(&mut self, n: usize, k: usize) {
        let code = self.code;
        let sub = &code.nodes[n].subs[k];
        let skip = self.label();
        let a = self.slot(sub.on);
        self.emit(Op::JumpUnless { a, t: skip.0 });
        for b in &sub.inputs {
            self.init(b);
        }
        let node = self.node;
        let counter = self.counter;
        let last_read = std::mem::take(&mut self.last_read);
        let body_dt = self.body_dt;
        self.step(sub.node);
        self.node = node;
        self.counter = counter;
        self.last_read = last_read;
        self.body_dt = body_dt;
        self.held = None;
        self.place(skip);
    }

    /// Whether an expression reads real slot `i` (always, in the first pass).
    fn is_read(&self, i: usize) -> bool {
        self.consts.read.get(i).is_none_or(|r| *r)
    }

    /// The reset of node `n`; its submodels' resets are calls.
    fn reset(&mut self, n: usize) {
        let node = &self.code.nodes[n];
        for sub in &node.subs {
            for b in &sub.params {
                self.init(b);
            }
            let node = self.slot(sub.node);
            self.call_reset(node);
        }
        for sub in &node.subs {
            let d = self.slot(sub.on);
            self.emit(Op::SetFlag {
                d,
                v: sub.initially_on,
            });
        }
        for init in &node.inits {
            self.init(init);
        }
        if !node.mems.is_empty() {
            let (start, end) = (self.slot(node.mems.start), self.slot(node.mems.end));
            self.emit(Op::ResetDerivs { start, end });
        }
        self.clear_flags(node.fired.clone());
        let zero = self.constant(0.0);
        for d in [node.time, node.dt] {
            let d = self.slot(d);
            self.put(Op::Copy { d, a: zero }, d);
        }
        for md in &node.modes {
            let d = self.slot(md.slot);
            let a = self.constant(md.initial);
            self.put(Op::Copy { d, a }, d);
        }
        if n == 0 || self.is_read(node.time) || node.substeps.is_some() {
            let clock = self.slot(n);
            self.emit(Op::ResetClock { clock });
        }
        if !node.initial.is_empty() {
            self.initial_pass(n);
        }
        for ev in &node.events {
            let d = self.slot(ev.value);
            self.emit(Op::SetFlag { d, v: false });
            let prev = self.slot(ev.prev);
            self.flag_into(&ev.cond.0, prev);
        }
    }

    /// The update of event `ev`: `value = rising(cond, prev)`.
    fn event(&mut self, ev: &EventCode) {
        let a = self.flag_value(&ev.cond.0);
        let (d, prev) = (self.slot(ev.value), self.slot(ev.prev));
        self.emit(Op::Rising { d, a, prev });
        self.flag_temps.0 = 0;
    }

    /// The initial pass of node `n`, with every event of the node false (its `otherwise`
    /// flags are cleared before it by the reset).
    fn initial_pass(&mut self, n: usize) {
        let node = &self.code.nodes[n];
        for ev in &node.events {
            let d = self.slot(ev.value);
            self.emit(Op::SetFlag { d, v: false });
        }
        let saved = (std::mem::take(&mut self.last_read), self.counter);
        self.counter = 0;
        last_reads(&node.initial, &mut self.counter, &mut self.last_read);
        self.counter = 0;
        self.stmts(&node.initial);
        (self.last_read, self.counter) = saved;
    }

    /// Resets `node`: any real slot may change.
    fn call_reset(&mut self, node: Slot) {
        let check = self.check;
        self.emit(Op::Reset { node, check });
        self.held = None;
    }

    fn clear_flags(&mut self, r: std::ops::Range<usize>) {
        if !r.is_empty() {
            let (start, end) = (self.slot(r.start), self.slot(r.end));
            self.emit(Op::ClearFlags { start, end });
        }
    }

    /// Stores a value (then checks it, in a checked program).
    fn init(&mut self, i: &Init) {
        match i {
            Init::Real(slot, e, site) => {
                let d = self.slot(*slot);
                self.value(&e.0, d);
                self.checked(d, *site);
            }
            Init::Flag(slot, e) => {
                let d = self.slot(*slot);
                self.flag_into(&e.0, d);
            }
        }
        self.temps.0 = 0;
    }

    fn checked(&mut self, a: Slot, site: usize) {
        if self.check {
            let site = self.slot(site);
            self.emit(Op::Check { a, site });
        }
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for st in body {
            self.stmt(st);
        }
    }

    fn stmt(&mut self, st: &Stmt) {
        self.counter += 1;
        let at = self.counter;
        match st {
            Stmt::Assign {
                slot,
                rhs,
                fired,
                site,
            } => {
                let d = self.slot(*slot);
                self.update(d, rhs);
                self.temps.0 = 0;
                if let Some(f) = fired.filter(|f| self.last_read.get(f).is_some_and(|l| *l > at)) {
                    let f = self.slot(f);
                    self.set_fired(f);
                }
                self.checked(d, *site);
            }
            Stmt::Otherwise { fired, assign } => {
                if let Some((d, a)) = self.leaf_assign(assign) {
                    let flag = self.slot(*fired);
                    self.emit(Op::CopyUnless { flag, d, a });
                    // `acc` now holds either value.
                    self.held = None;
                    return;
                }
                let skip = self.label();
                let a = self.slot(*fired);
                self.emit(Op::JumpIf { a, t: skip.0 });
                self.stmt(assign);
                self.place(skip);
            }
            Stmt::If { cond, then } => {
                let skip = self.label();
                self.branch(&cond.0, false, skip);
                self.temps.0 = 0;
                self.flag_temps.0 = 0;
                self.stmts(then);
                self.place(skip);
            }
            Stmt::SetFlag { slot, value } => {
                let d = self.slot(*slot);
                self.emit(Op::SetFlag { d, v: *value });
            }
            Stmt::Reset(node) => {
                let node = self.slot(*node);
                self.call_reset(node);
            }
            Stmt::Repeat(r) => {
                // The loop's head: the back edge lands here.
                let to = self.ops.len();
                self.landing = Some(to);
                self.held = None;
                self.stmts(&r.body);
                for &f in &r.clear {
                    let d = self.slot(f);
                    self.emit(Op::SetFlag { d, v: false });
                }
                let until = self.flag_value(&r.until.0);
                self.temps.0 = 0;
                self.flag_temps.0 = 0;
                let (count, time) = (self.slot(r.count), self.slot(r.time));
                let events = r.events.map(|(e, most)| (self.slot(e), most));
                self.emit(Op::Again(Box::new(crate::ops::Again {
                    until,
                    count,
                    limit: r.limit,
                    leave: r.leave,
                    events,
                    to,
                    time,
                    model: r.model.clone(),
                    method: r.method,
                })));
                self.held = None;
            }
            Stmt::Linear(l) => {
                let l = l.map(&mut |i| self.slot(i) as usize);
                self.emit(Op::Linear(Box::new(l)));
                self.temps.0 = 0;
                self.held = None;
            }
            Stmt::Event(ev) => {
                self.event(ev);
                self.temps.0 = 0;
            }
            Stmt::NoteModes => {
                let starts: Vec<(usize, usize)> = self.code.nodes[self.node]
                    .modes
                    .iter()
                    .filter_map(|md| md.start.map(|s| (s, md.slot)))
                    .collect();
                for (start, slot) in starts {
                    let (d, a) = (self.slot(start), self.slot(slot));
                    self.put(Op::Copy { d, a }, d);
                }
            }
            // The node's own `dt`, which its procedures read in a body that writes it
            // (`body_dt`): a phase's `dt` is a shared constant, never written.
            Stmt::SetDt { value, dt } => {
                let d = self.slot(*dt);
                self.value(&value.0, d);
                self.temps.0 = 0;
                self.held = None;
            }
            Stmt::Step(k) => self.step_sub(self.node, *k),
            Stmt::Run(phase) => {
                let before: usize = self.code.nodes[..self.node]
                    .iter()
                    .map(|n| n.phases.len())
                    .sum();
                let id = self.slot(before + phase);
                let check = self.check;
                self.emit(Op::Phase { id, check });
                // Any slot may change.
                self.held = None;
            }
        }
    }

    /// `f[fl] = true` after the operation of a rule: folded into that operation when
    /// it can carry the flag (one dispatch less per guarded rule that fires).
    fn set_fired(&mut self, fl: Slot) {
        let joined = self.landing == Some(self.ops.len());
        if let Some(last) = self.ops.last_mut().filter(|_| !joined)
            && let Some(fused) = with_flag(last, fl)
        {
            *last = fused;
            return;
        }
        self.emit(Op::SetFlag { d: fl, v: true });
    }

    /// `(d, a)` if `st` is `r[d] = r[a]` (a slot or a literal) that neither checks its
    /// value nor sets a flag that is read later: an `otherwise` then needs one
    /// operation, [`Op::CopyUnless`].
    fn leaf_assign(&mut self, st: &Stmt) -> Option<(Slot, Slot)> {
        let Stmt::Assign {
            slot,
            rhs: Update::Expr(e),
            fired,
            ..
        } = st
        else {
            return None;
        };
        let after = self.counter + 1;
        let flag_read = fired.is_some_and(|f| self.last_read.get(&f).is_some_and(|l| *l > after));
        if self.check || flag_read {
            return None;
        }
        let a = self.leaf(&e.0)?;
        // The statement is lowered here: count it as `stmt` would.
        self.counter += 1;
        Some((self.slot(*slot), a))
    }
}

/// Whether `body` writes its `dt`, at any depth.
fn sets_dt(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::SetDt { .. } => true,
        Stmt::If { then, .. } => sets_dt(then),
        Stmt::Repeat(r) => sets_dt(&r.body),
        _ => false,
    })
}

/// Numbers the statements of `body` in the order [`Flattener::stmt`] meets them (from
/// `counter + 1` on) and records, per `otherwise` flag, the last one that reads it.
fn last_reads(body: &[Stmt], counter: &mut usize, out: &mut HashMap<usize, usize>) {
    for st in body {
        *counter += 1;
        match st {
            Stmt::Otherwise { fired, assign } => {
                out.insert(*fired, *counter);
                last_reads(std::slice::from_ref(assign), counter, out);
            }
            Stmt::If { then, .. } => last_reads(then, counter, out),
            Stmt::Repeat(r) => last_reads(&r.body, counter, out),
            Stmt::Assign { .. }
            | Stmt::SetFlag { .. }
            | Stmt::Reset(_)
            | Stmt::Run(_)
            | Stmt::Step(_)
            | Stmt::NoteModes
            | Stmt::Event(_)
            | Stmt::Linear(_)
            | Stmt::SetDt { .. } => {}
        }
    }
}
