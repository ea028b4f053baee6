//! Lowering of the statement trees of [`Code`] into the flat programs of [`crate::ops`].
//!
//! The step of the whole instance tree becomes one program (each submodel's step inlined
//! behind a jump on its `on` flag); every node gets a reset program (a submodel's reset
//! is an [`Op::Reset`] call), and construction one more. Each comes unchecked and checked
//! (with an [`Op::Check`] after every real value a rule, declaration or binding stores).
//!
//! Literals get real slots after the model's own, temporaries after the literals. The
//! literals are only known once everything is lowered, so lowering runs twice: the first
//! pass numbers the literals, the second places the temporaries after them.

use crate::code::{Code, Init, Logic, Num, Stmt, Update};
use crate::ops::{Op, Slot};
use sit_parser::ir::CmpOp;
use std::collections::HashMap;

/// A program: its operations, the checked variant second.
pub(crate) type Pair = [Box<[Op]>; 2];

/// Everything lowered from one [`Code`].
#[derive(Debug)]
pub(crate) struct Programs {
    /// The step of the whole tree.
    pub step: Pair,
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
}

/// Lowers every program of `code`; `None` if a slot or site index does not fit a
/// [`Slot`] (more than 2³² values).
pub(crate) fn lower(code: &Code) -> Option<Programs> {
    let mut consts = Consts::default();
    // First pass: number the literals (temporaries placed anywhere, then discarded).
    lower_all(code, &mut consts, code.reals)?;
    let temp_base = code.reals.checked_add(consts.values.len())?;
    let (step, resets, construct, temps) = lower_all(code, &mut consts, temp_base)?;
    let reals = temp_base.checked_add(temps.0)?;
    let flags = code.flags.checked_add(temps.1)?;
    Slot::try_from(reals.max(flags)).ok()?;
    Some(Programs {
        step,
        resets,
        construct,
        consts: consts.values,
        reals,
        flags,
    })
}

/// The step, the resets, construction, and the most real and flag temporaries used.
type Lowered = (Pair, Vec<Pair>, Box<[Op]>, (usize, usize));

fn lower_all(code: &Code, consts: &mut Consts, temp_base: usize) -> Option<Lowered> {
    let mut max = (0, 0);
    let mut pair = |f: &dyn Fn(&mut Lowerer)| -> Option<Pair> {
        let mut out = [Box::default(), Box::default()];
        for (check, slot) in out.iter_mut().enumerate() {
            let mut l = Lowerer::new(code, &mut *consts, temp_base, check == 1);
            f(&mut l);
            max = (max.0.max(l.temps.1), max.1.max(l.flag_temps.1));
            *slot = l.finish()?;
        }
        Some(out)
    };
    let step = pair(&|l| l.step(0))?;
    let resets = (0..code.nodes.len())
        .map(|n| pair(&|l| l.reset(n)))
        .collect::<Option<Vec<_>>>()?;
    let mut l = Lowerer::new(code, consts, temp_base, false);
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
    Some((step, resets, construct, max))
}

/// The literals met so far, by bit pattern, with their slot.
#[derive(Default)]
struct Consts {
    slots: HashMap<u64, usize>,
    values: Vec<f64>,
}

/// The builder of one program.
struct Lowerer<'c> {
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
}

/// A jump target, before it is placed.
#[derive(Clone, Copy)]
struct Label(Slot);

impl<'c> Lowerer<'c> {
    fn new(code: &'c Code, consts: &'c mut Consts, temp_base: usize, check: bool) -> Self {
        Lowerer {
            code,
            consts,
            check,
            ops: Vec::new(),
            labels: Vec::new(),
            temp_base,
            temps: (0, 0),
            flag_temps: (0, 0),
            overflow: false,
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
        self.ops = ops;
        (!self.overflow).then(|| self.ops.into_boxed_slice())
    }

    fn slot(&mut self, i: usize) -> Slot {
        Slot::try_from(i).unwrap_or_else(|_| {
            self.overflow = true;
            0
        })
    }

    fn emit(&mut self, op: Op) {
        self.ops.push(op);
    }

    fn label(&mut self) -> Label {
        self.labels.push(None);
        let l = self.labels.len() - 1;
        Label(self.slot(l))
    }

    fn place(&mut self, l: Label) {
        self.labels[l.0 as usize] = Some(self.ops.len());
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
        let t = self.temp_base + self.temps.0;
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
        let node = &self.code.nodes[n];
        let d = self.slot(node.dt);
        self.emit(Op::SetDt { d });
        for sub in &node.subs {
            let skip = self.label();
            let a = self.slot(sub.on);
            self.emit(Op::JumpUnless { a, t: skip.0 });
            for b in &sub.inputs {
                self.init(b);
            }
            self.step(sub.node);
            self.place(skip);
        }
        for ev in &node.events {
            let a = self.flag_value(&ev.cond.0);
            let (d, prev) = (self.slot(ev.value), self.slot(ev.prev));
            self.emit(Op::Rising { d, a, prev });
            self.flag_temps.0 = 0;
        }
        self.clear_flags(node.fired.clone());
        self.stmts(&node.body);
        let d = self.slot(node.time);
        self.emit(Op::AdvanceTime { d });
    }

    /// The reset of node `n`; its submodels' resets are calls.
    fn reset(&mut self, n: usize) {
        let node = &self.code.nodes[n];
        for sub in &node.subs {
            for b in &sub.params {
                self.init(b);
            }
            let node = self.slot(sub.node);
            let check = self.check;
            self.emit(Op::Reset { node, check });
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
            self.emit(Op::Copy { d, a: zero });
        }
        for ev in &node.events {
            let d = self.slot(ev.value);
            self.emit(Op::SetFlag { d, v: false });
            let prev = self.slot(ev.prev);
            self.flag_into(&ev.cond.0, prev);
        }
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
                self.num(&e.0, Some(d));
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
                if let Some(f) = fired {
                    let f = self.slot(*f);
                    self.emit(Op::SetFlag { d: f, v: true });
                }
                self.checked(d, *site);
            }
            Stmt::Otherwise { fired, assign } => {
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
                let check = self.check;
                self.emit(Op::Reset { node, check });
            }
        }
    }

    /// `r[d] = rhs`, calling the runtime procedure of the right-hand side.
    fn update(&mut self, d: Slot, rhs: &Update) {
        match rhs {
            Update::Expr(e) => {
                self.num(&e.0, Some(d));
            }
            Update::Integral(x) => {
                let a = self.num(&x.0, None);
                self.emit(Op::Integral { d, a });
            }
            Update::IntegralLimited(xs) => {
                let a = self.num(&xs.0.0, None);
                let lo = self.num(&xs.1.0, None);
                let hi = self.num(&xs.2.0, None);
                self.emit(Op::IntegralLimited { d, a, lo, hi });
            }
            Update::Lag(xs) => {
                let a = self.num(&xs.0.0, None);
                let t = self.num(&xs.1.0, None);
                let k = self.num(&xs.2.0, None);
                self.emit(Op::Lag { d, a, t, k });
            }
            Update::Deriv(x, mem) => {
                let a = self.num(&x.0, None);
                let mem = self.slot(*mem);
                self.emit(Op::Deriv { d, a, mem });
            }
            Update::Hysteresis(xs) => {
                let a = self.num(&xs.0.0, None);
                let lo = self.num(&xs.1.0, None);
                let hi = self.num(&xs.2.0, None);
                let b = self.num(&xs.3.0, None);
                self.emit(Op::Hysteresis { d, a, lo, hi, b });
            }
        }
    }

    /// Emits the operations computing `e`; returns the slot holding its value: `dst`
    /// if given (the last operation writes it, after every operand is read), else a
    /// model slot, a literal's slot or a temporary.
    fn num(&mut self, e: &Num, dst: Option<Slot>) -> Slot {
        let leaf = |l: &mut Self, a: Slot| match dst {
            Some(d) => {
                l.emit(Op::Copy { d, a });
                d
            }
            None => a,
        };
        let mark = self.temps.0;
        let (op, d): (fn(Slot, Slot, Slot) -> Op, _) = match e {
            Num::Const(c) => {
                let a = self.constant(*c);
                return leaf(self, a);
            }
            Num::Slot(i) => {
                let a = self.slot(*i);
                return leaf(self, a);
            }
            Num::Neg(a) => {
                let a = self.num(a, None);
                let d = self.result(mark, dst);
                self.emit(Op::Neg { d, a });
                return d;
            }
            Num::F1(f, a) => {
                let a = self.num(a, None);
                let d = self.result(mark, dst);
                self.emit(Op::F1 { f: *f, d, a });
                return d;
            }
            Num::F2(f, ab) => {
                let (a, b) = (self.num(&ab.0, None), self.num(&ab.1, None));
                let d = self.result(mark, dst);
                self.emit(Op::F2 { f: *f, d, a, b });
                return d;
            }
            Num::F3(f, abc) => {
                let a = self.num(&abc.0, None);
                let b = self.num(&abc.1, None);
                let c = self.num(&abc.2, None);
                let d = self.result(mark, dst);
                self.emit(Op::F3(Box::new((*f, [d, a, b, c]))));
                return d;
            }
            Num::Add(ab) => (|d, a, b| Op::Add { d, a, b }, ab),
            Num::Sub(ab) => (|d, a, b| Op::Sub { d, a, b }, ab),
            Num::Mul(ab) => (|d, a, b| Op::Mul { d, a, b }, ab),
            Num::Div(ab) => (|d, a, b| Op::Div { d, a, b }, ab),
        };
        let (a, b) = (self.num(&d.0, None), self.num(&d.1, None));
        let d = self.result(mark, dst);
        self.emit(op(d, a, b));
        d
    }

    /// The slot of an operation's result: `dst`, or a temporary (the operands'
    /// temporaries from `mark` on are free again, since the operation reads them first).
    fn result(&mut self, mark: usize, dst: Option<Slot>) -> Slot {
        self.temps.0 = mark;
        dst.unwrap_or_else(|| self.temp())
    }

    /// The flag slot holding the value of `e` (a model flag, or a temporary).
    fn flag_value(&mut self, e: &Logic) -> Slot {
        if let Logic::Slot(i) = e {
            return self.slot(*i);
        }
        let t = self.flag_temp();
        self.flag_into(e, t);
        t
    }

    /// `f[d] = e` (through a temporary when `e` may read `d`).
    fn flag_into(&mut self, e: &Logic, d: Slot) {
        match e {
            Logic::Const(v) => self.emit(Op::SetFlag { d, v: *v }),
            Logic::Slot(i) => {
                let a = self.slot(*i);
                self.emit(Op::CopyFlag { d, a });
            }
            _ => {
                let t = self.flag_temp();
                let end = self.label();
                self.emit(Op::SetFlag { d: t, v: true });
                self.branch(e, true, end);
                self.emit(Op::SetFlag { d: t, v: false });
                self.place(end);
                self.emit(Op::CopyFlag { d, a: t });
                self.flag_temps.0 -= 1;
            }
        }
        self.temps.0 = 0;
    }

    /// Jumps to `to` if `e` is `when`, else falls through. `&` and `|` stop early (no
    /// expression has side effects, so this is only faster).
    fn branch(&mut self, e: &Logic, when: bool, to: Label) {
        let t = to.0;
        match e {
            Logic::Const(v) => {
                if *v == when {
                    self.emit(Op::Jump { t });
                }
            }
            Logic::Slot(i) => {
                let a = self.slot(*i);
                self.emit(if when {
                    Op::JumpIf { a, t }
                } else {
                    Op::JumpUnless { a, t }
                });
            }
            Logic::Not(a) => self.branch(a, !when, to),
            Logic::And(ab) | Logic::Or(ab) => {
                // `a & b` is false as soon as `a` is; `a | b` true as soon as `a` is.
                let stop = matches!(e, Logic::Or(_));
                if when == stop {
                    self.branch(&ab.0, when, to);
                    self.branch(&ab.1, when, to);
                } else {
                    let skip = self.label();
                    self.branch(&ab.0, stop, skip);
                    self.branch(&ab.1, when, to);
                    self.place(skip);
                }
            }
            Logic::Cmp(op, ab) => {
                let mark = self.temps.0;
                let (a, b) = (self.num(&ab.0, None), self.num(&ab.1, None));
                self.temps.0 = mark;
                // `a > b` is `b < a` (also for NaN); `a != b` is `!(a == b)`.
                let (a, b) = match op {
                    CmpOp::Gt | CmpOp::Ge => (b, a),
                    _ => (a, b),
                };
                self.emit(match (op, when) {
                    (CmpOp::Lt | CmpOp::Gt, true) => Op::JumpIfLt { a, b, t },
                    (CmpOp::Lt | CmpOp::Gt, false) => Op::JumpUnlessLt { a, b, t },
                    (CmpOp::Le | CmpOp::Ge, true) => Op::JumpIfLe { a, b, t },
                    (CmpOp::Le | CmpOp::Ge, false) => Op::JumpUnlessLe { a, b, t },
                    (CmpOp::Eq, true) | (CmpOp::Ne, false) => Op::JumpIfEq { a, b, t },
                    (CmpOp::Eq, false) | (CmpOp::Ne, true) => Op::JumpUnlessEq { a, b, t },
                });
            }
        }
    }
}

/// The jump target of `op`, if it is a jump.
fn target(op: &mut Op) -> Option<&mut Slot> {
    match op {
        Op::Jump { t }
        | Op::JumpIf { t, .. }
        | Op::JumpUnless { t, .. }
        | Op::JumpIfLt { t, .. }
        | Op::JumpUnlessLt { t, .. }
        | Op::JumpIfLe { t, .. }
        | Op::JumpUnlessLe { t, .. }
        | Op::JumpIfEq { t, .. }
        | Op::JumpUnlessEq { t, .. } => Some(t),
        _ => None,
    }
}
