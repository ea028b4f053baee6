//! Expressions and conditions into operations: each value left in `acc` and its slot,
//! each condition a jump.

use super::{Flattener, Label};
use crate::code::{Logic, Num, Update};
use crate::forms::{Arith, Two, V, call, compare_jump};
use crate::ops::{Call, Op, Slot};

impl Flattener<'_> {
    /// `r[d] = rhs`, calling the runtime procedure of the right-hand side.
    pub(super) fn update(&mut self, d: Slot, rhs: &Update) {
        let dt = self.dt();
        let op = match rhs {
            Update::Expr(e) => return self.value(&e.0, d),
            Update::Integral(x) => match self.operand(&x.0) {
                V::S(a) => Op::IntegralS { d, a, dt },
                V::A => Op::IntegralA { d, dt },
            },
            Update::IntegralLimited(xs) => {
                let a = self.in_slot(&xs.0.0);
                let lo = self.in_slot(&xs.1.0);
                let hi = self.in_slot(&xs.2.0);
                call(Call::IntegralLimited { d, a, lo, hi, dt })
            }
            Update::Lag(xs) => {
                let a = self.in_slot(&xs.0.0);
                let t = self.in_slot(&xs.1.0);
                let k = self.in_slot(&xs.2.0);
                call(Call::Lag { d, a, t, k, dt })
            }
            Update::Deriv(x, mem) => {
                let a = self.in_slot(&x.0);
                let mem = self.slot(*mem);
                call(Call::Deriv { d, a, mem, dt })
            }
            Update::Hysteresis(xs) => {
                let a = self.in_slot(&xs.0.0);
                let lo = self.in_slot(&xs.1.0);
                let hi = self.in_slot(&xs.2.0);
                let b = self.in_slot(&xs.3.0);
                call(Call::Hysteresis { d, a, lo, hi, b })
            }
            Update::Timer(c) => {
                let mark = self.flag_temps.0;
                let a = self.flag_value(&c.0);
                self.emit(Op::Timer { d, a, dt });
                self.flag_temps.0 = mark;
                self.held = None;
                return;
            }
        };
        self.put(op, d);
    }

    /// The slot holding a leaf's value (a model slot or a literal's), `None` if `e` is
    /// an operation.
    pub(super) fn leaf(&mut self, e: &Num) -> Option<Slot> {
        match e {
            Num::Const(c) => Some(self.constant(*c)),
            Num::Slot(i) => {
                if let Some(r) = self.consts.read.get_mut(*i) {
                    *r = true;
                }
                Some(self.slot(*i))
            }
            _ => None,
        }
    }

    /// Emits the operations computing `e`, leaving its value in `acc` and in `r[d]`.
    pub(super) fn value(&mut self, e: &Num, d: Slot) {
        let mark = self.temps.0;
        let (kind, ab) = match e {
            Num::Const(_) | Num::Slot(_) => {
                if let Some(a) = self.leaf(e) {
                    self.put(Op::Copy { d, a }, d);
                }
                return;
            }
            Num::Neg(x) => {
                let op = match self.operand(x) {
                    V::S(a) => Op::NegS { d, a },
                    V::A => Op::NegA { d },
                };
                return self.put(op, d);
            }
            Num::F1(f, x) => {
                let f = *f;
                let op = match self.operand(x) {
                    V::S(a) => call(Call::F1S { f, d, a }),
                    V::A => call(Call::F1A { f, d }),
                };
                return self.put(op, d);
            }
            Num::F2(f, ab) => {
                let (a, b) = (self.in_slot(&ab.0), self.in_slot(&ab.1));
                self.temps.0 = mark;
                return self.put(call(Call::F2 { f: *f, d, a, b }), d);
            }
            Num::F3(f, abc) => {
                let a = self.in_slot(&abc.0);
                let b = self.in_slot(&abc.1);
                let c = self.in_slot(&abc.2);
                self.temps.0 = mark;
                let f = *f;
                return self.put(call(Call::F3 { f, d, a, b, c }), d);
            }
            Num::Table1(t, k, x) => {
                let a = self.in_slot(x);
                self.temps.0 = mark;
                let (t, k) = (t.clone(), *k);
                return self.put(call(Call::Table1 { t, k, d, a }), d);
            }
            Num::Table2(t, k, ab) => {
                let (a, b) = (self.in_slot(&ab.0), self.in_slot(&ab.1));
                self.temps.0 = mark;
                let (t, k) = (t.clone(), *k);
                return self.put(call(Call::Table2 { t, k, d, a, b }), d);
            }
            Num::Slope1(t, x) => {
                let a = self.in_slot(x);
                self.temps.0 = mark;
                let t = t.clone();
                return self.put(call(Call::Slope1 { t, d, a }), d);
            }
            Num::Slope2(t, axis, ab) => {
                let (a, b) = (self.in_slot(&ab.0), self.in_slot(&ab.1));
                self.temps.0 = mark;
                let (t, axis) = (t.clone(), *axis);
                return self.put(call(Call::Slope2 { t, axis, d, a, b }), d);
            }
            Num::Add(ab) => (Arith::Add, ab),
            Num::Sub(ab) => (Arith::Sub, ab),
            Num::Mul(ab) => (Arith::Mul, ab),
            Num::Div(ab) => (Arith::Div, ab),
        };
        let two = self.operands(&ab.0, &ab.1);
        let op = kind.op(d, two);
        self.temps.0 = mark;
        self.put(op, d);
    }

    /// One operand: `acc` if it is a leaf whose value `acc` holds or an operation
    /// (computed into `acc`), else its slot.
    pub(super) fn operand(&mut self, e: &Num) -> V {
        match self.leaf(e) {
            Some(a) if self.held == Some(a) => V::A,
            Some(a) => V::S(a),
            None => {
                let junk = self.junk();
                self.value(e, junk);
                V::A
            }
        }
    }

    /// Two operands, computed left to right; at most one is `acc` (an operation on the
    /// left is spilled to a temporary when the right is an operation too).
    pub(super) fn operands(&mut self, x: &Num, y: &Num) -> Two {
        match (self.leaf(x), self.leaf(y)) {
            (Some(a), Some(b)) => {
                if self.held == Some(a) {
                    Two::AS(b)
                } else if self.held == Some(b) {
                    Two::SA(a)
                } else {
                    Two::SS(a, b)
                }
            }
            (None, Some(b)) => {
                let junk = self.junk();
                self.value(x, junk);
                Two::AS(b)
            }
            (Some(a), None) => {
                // Reading the slot after `y` is computed reads the same value: an
                // expression writes only temporaries.
                let junk = self.junk();
                self.value(y, junk);
                Two::SA(a)
            }
            (None, None) => {
                let t = self.temp();
                self.value(x, t);
                let junk = self.junk();
                self.value(y, junk);
                Two::SA(t)
            }
        }
    }

    /// The slot holding the value of `e`: a leaf's own, or a temporary it is computed
    /// into (freed by the caller).
    pub(super) fn in_slot(&mut self, e: &Num) -> Slot {
        self.leaf(e).unwrap_or_else(|| {
            let t = self.temp();
            self.value(e, t);
            t
        })
    }

    /// Emits an operation that leaves its result in `acc` and in `r[d]`. Two
    /// integrals where the second integrates the first (`v = integral(a);
    /// x = integral(v)`) become one operation.
    pub(super) fn put(&mut self, op: Op, d: Slot) {
        self.held = Some(d);
        let joined = self.landing == Some(self.ops.len());
        let fused = match (self.ops.last(), &op) {
            (Some(&Op::IntegralA { d, dt }), &Op::IntegralA { d: e, dt: dt2 }) if dt == dt2 => {
                Some(Op::Integral2A { d, e, dt })
            }
            _ => None,
        };
        if let (Some(fused), Some(last)) = (fused.filter(|_| !joined), self.ops.last_mut()) {
            *last = fused;
            return;
        }
        self.ops.push(op);
    }

    /// The slot of the step's `dt`: the root's (`exec::step` stores it there before
    /// the program runs).
    pub(super) fn dt(&mut self) -> Slot {
        match (self.body_dt, self.dt_override) {
            (Some(own), _) => own,
            (None, Some(h)) => h,
            (None, None) => self.slot(self.code.nodes[0].dt),
        }
    }

    /// The slot that receives intermediate results nobody reads.
    pub(super) fn junk(&mut self) -> Slot {
        self.slot(self.temp_base)
    }

    /// The flag slot holding the value of `e` (a model flag, or a temporary).
    pub(super) fn flag_value(&mut self, e: &Logic) -> Slot {
        if let Logic::Slot(i) = e {
            return self.slot(*i);
        }
        let t = self.flag_temp();
        self.flag_into(e, t);
        t
    }

    /// `f[d] = e` (through a temporary when `e` may read `d`).
    pub(super) fn flag_into(&mut self, e: &Logic, d: Slot) {
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
    pub(super) fn branch(&mut self, e: &Logic, when: bool, to: Label) {
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
                let two = self.operands(&ab.0, &ab.1);
                self.temps.0 = mark;
                self.emit(compare_jump(*op, when, two, t));
            }
        }
    }
}
