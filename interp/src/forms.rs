//! Operand forms and jumps: which operation computes `x op y` for the operands at hand,
//! and the jump threading of finished programs.

use crate::ops::{Call, Op, Slot};
use sit_lir::CmpOp;

/// An operand of one operation: a slot, or the accumulator.
pub(crate) enum V {
    S(Slot),
    A,
}

/// The two operands of an operation (at most one is the accumulator).
#[derive(Clone, Copy)]
pub(crate) enum Two {
    /// `r[a]`, `r[b]`.
    SS(Slot, Slot),
    /// `acc`, `r[b]`.
    AS(Slot),
    /// `r[a]`, `acc`.
    SA(Slot),
}

impl Two {
    /// The operands in the other order.
    pub(crate) fn swap(self) -> Two {
        match self {
            Two::SS(a, b) => Two::SS(b, a),
            Two::AS(b) => Two::SA(b),
            Two::SA(a) => Two::AS(a),
        }
    }
}

/// An arithmetic operator.
#[derive(Clone, Copy)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

impl Arith {
    /// The operation `r[d] = acc = x op y`.
    pub(crate) fn op(self, d: Slot, two: Two) -> Op {
        match (self, two) {
            (Arith::Add, Two::SS(a, b)) => Op::AddSS { d, a, b },
            (Arith::Add, Two::AS(b)) => Op::AddAS { d, b },
            (Arith::Add, Two::SA(a)) => Op::AddSA { d, a },
            (Arith::Sub, Two::SS(a, b)) => Op::SubSS { d, a, b },
            (Arith::Sub, Two::AS(b)) => Op::SubAS { d, b },
            (Arith::Sub, Two::SA(a)) => Op::SubSA { d, a },
            (Arith::Mul, Two::SS(a, b)) => Op::MulSS { d, a, b },
            (Arith::Mul, Two::AS(b)) => Op::MulAS { d, b },
            (Arith::Mul, Two::SA(a)) => Op::MulSA { d, a },
            (Arith::Div, Two::SS(a, b)) => Op::DivSS { d, a, b },
            (Arith::Div, Two::AS(b)) => Op::DivAS { d, b },
            (Arith::Div, Two::SA(a)) => Op::DivSA { d, a },
        }
    }
}

/// The jump to `t` if `x op y` is `when`. `x > y` is `y < x` (also for NaN), `x != y`
/// is `!(x == y)`, and `==` is symmetric.
pub(crate) fn compare_jump(op: CmpOp, when: bool, two: Two, t: Slot) -> Op {
    let two = match op {
        CmpOp::Gt | CmpOp::Ge => two.swap(),
        _ => two,
    };
    let when = if op == CmpOp::Ne { !when } else { when };
    match (op, when, two) {
        (CmpOp::Lt | CmpOp::Gt, true, Two::SS(a, b)) => Op::JumpIfLtSS { a, b, t },
        (CmpOp::Lt | CmpOp::Gt, true, Two::AS(b)) => Op::JumpIfLtAS { b, t },
        (CmpOp::Lt | CmpOp::Gt, true, Two::SA(a)) => Op::JumpIfLtSA { a, t },
        (CmpOp::Lt | CmpOp::Gt, false, Two::SS(a, b)) => Op::JumpUnlessLtSS { a, b, t },
        (CmpOp::Lt | CmpOp::Gt, false, Two::AS(b)) => Op::JumpUnlessLtAS { b, t },
        (CmpOp::Lt | CmpOp::Gt, false, Two::SA(a)) => Op::JumpUnlessLtSA { a, t },
        (CmpOp::Le | CmpOp::Ge, true, Two::SS(a, b)) => Op::JumpIfLeSS { a, b, t },
        (CmpOp::Le | CmpOp::Ge, true, Two::AS(b)) => Op::JumpIfLeAS { b, t },
        (CmpOp::Le | CmpOp::Ge, true, Two::SA(a)) => Op::JumpIfLeSA { a, t },
        (CmpOp::Le | CmpOp::Ge, false, Two::SS(a, b)) => Op::JumpUnlessLeSS { a, b, t },
        (CmpOp::Le | CmpOp::Ge, false, Two::AS(b)) => Op::JumpUnlessLeAS { b, t },
        (CmpOp::Le | CmpOp::Ge, false, Two::SA(a)) => Op::JumpUnlessLeSA { a, t },
        (CmpOp::Eq | CmpOp::Ne, true, Two::SS(a, b)) => Op::JumpIfEqSS { a, b, t },
        (CmpOp::Eq | CmpOp::Ne, true, Two::AS(b) | Two::SA(b)) => Op::JumpIfEqAS { b, t },
        (CmpOp::Eq | CmpOp::Ne, false, Two::SS(a, b)) => Op::JumpUnlessEqSS { a, b, t },
        (CmpOp::Eq | CmpOp::Ne, false, Two::AS(b) | Two::SA(b)) => Op::JumpUnlessEqAS { b, t },
    }
}

/// What a conditional jump tests, without its polarity and target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Test {
    Flag(Slot),
    LtSS(Slot, Slot),
    LtAS(Slot),
    LtSA(Slot),
    LeSS(Slot, Slot),
    LeAS(Slot),
    LeSA(Slot),
    EqSS(Slot, Slot),
    EqAS(Slot),
}

/// The test of a conditional jump, whether it jumps when the test holds, and its target.
fn test(op: &Op) -> Option<(Test, bool, Slot)> {
    Some(match *op {
        Op::JumpIf { a, t } => (Test::Flag(a), true, t),
        Op::JumpUnless { a, t } => (Test::Flag(a), false, t),
        Op::JumpIfLtSS { a, b, t } => (Test::LtSS(a, b), true, t),
        Op::JumpIfLtAS { b, t } => (Test::LtAS(b), true, t),
        Op::JumpIfLtSA { a, t } => (Test::LtSA(a), true, t),
        Op::JumpUnlessLtSS { a, b, t } => (Test::LtSS(a, b), false, t),
        Op::JumpUnlessLtAS { b, t } => (Test::LtAS(b), false, t),
        Op::JumpUnlessLtSA { a, t } => (Test::LtSA(a), false, t),
        Op::JumpIfLeSS { a, b, t } => (Test::LeSS(a, b), true, t),
        Op::JumpIfLeAS { b, t } => (Test::LeAS(b), true, t),
        Op::JumpIfLeSA { a, t } => (Test::LeSA(a), true, t),
        Op::JumpUnlessLeSS { a, b, t } => (Test::LeSS(a, b), false, t),
        Op::JumpUnlessLeAS { b, t } => (Test::LeAS(b), false, t),
        Op::JumpUnlessLeSA { a, t } => (Test::LeSA(a), false, t),
        Op::JumpIfEqSS { a, b, t } => (Test::EqSS(a, b), true, t),
        Op::JumpIfEqAS { b, t } => (Test::EqAS(b), true, t),
        Op::JumpUnlessEqSS { a, b, t } => (Test::EqSS(a, b), false, t),
        Op::JumpUnlessEqAS { b, t } => (Test::EqAS(b), false, t),
        _ => return None,
    })
}

/// Jump threading: a conditional jump that lands on a jump with the same test (as
/// guards on the same condition, `x = .. when contact; y = .. when contact`) goes
/// straight on to where that one leads, since nothing runs in between and the test
/// gives the same answer; likewise through unconditional jumps.
pub(crate) fn thread_jumps(ops: &mut [Op]) {
    for i in (0..ops.len()).rev() {
        let Some((mine, when, mut to)) = test(&ops[i]) else {
            continue;
        };
        while let Some(next) = ops.get(to as usize) {
            to = match (test(next), next) {
                (Some((theirs, w, t)), _) if theirs == mine => {
                    if w == when {
                        t
                    } else {
                        to + 1
                    }
                }
                (_, Op::Jump { t }) => *t,
                _ => break,
            };
        }
        if let Some(t) = target(&mut ops[i]) {
            *t = to;
        }
    }
}

/// `op` followed by `f[fl] = true` as one operation, if `op` stores a real value
/// without a call and `fl` fits in 16 bits.
pub(crate) fn with_flag(op: &Op, fl: Slot) -> Option<Op> {
    let fl = u16::try_from(fl).ok()?;
    Some(match *op {
        Op::Copy { d, a } => Op::CopyF { fl, d, a },
        Op::AddSS { d, a, b } => Op::AddSSF { fl, d, a, b },
        Op::AddAS { d, b } => Op::AddASF { fl, d, b },
        Op::AddSA { d, a } => Op::AddSAF { fl, d, a },
        Op::SubSS { d, a, b } => Op::SubSSF { fl, d, a, b },
        Op::SubAS { d, b } => Op::SubASF { fl, d, b },
        Op::SubSA { d, a } => Op::SubSAF { fl, d, a },
        Op::MulSS { d, a, b } => Op::MulSSF { fl, d, a, b },
        Op::MulAS { d, b } => Op::MulASF { fl, d, b },
        Op::MulSA { d, a } => Op::MulSAF { fl, d, a },
        Op::DivSS { d, a, b } => Op::DivSSF { fl, d, a, b },
        Op::DivAS { d, b } => Op::DivASF { fl, d, b },
        Op::DivSA { d, a } => Op::DivSAF { fl, d, a },
        Op::IntegralS { d, a, dt } => Op::IntegralSF { fl, d, a, dt },
        Op::IntegralA { d, dt } => Op::IntegralAF { fl, d, dt },
        _ => return None,
    })
}

/// The operation calling `c`.
pub(crate) fn call(c: Call) -> Op {
    Op::Call(Box::new(c))
}

/// The jump target of `op`, if it is a jump.
pub(crate) fn target(op: &mut Op) -> Option<&mut Slot> {
    match op {
        Op::Jump { t }
        | Op::JumpIf { t, .. }
        | Op::JumpUnless { t, .. }
        | Op::JumpIfEither { t, .. }
        | Op::JumpIfLtSS { t, .. }
        | Op::JumpIfLtAS { t, .. }
        | Op::JumpIfLtSA { t, .. }
        | Op::JumpUnlessLtSS { t, .. }
        | Op::JumpUnlessLtAS { t, .. }
        | Op::JumpUnlessLtSA { t, .. }
        | Op::JumpIfLeSS { t, .. }
        | Op::JumpIfLeAS { t, .. }
        | Op::JumpIfLeSA { t, .. }
        | Op::JumpUnlessLeSS { t, .. }
        | Op::JumpUnlessLeAS { t, .. }
        | Op::JumpUnlessLeSA { t, .. }
        | Op::JumpIfEqSS { t, .. }
        | Op::JumpIfEqAS { t, .. }
        | Op::JumpUnlessEqSS { t, .. }
        | Op::JumpUnlessEqAS { t, .. } => Some(t),
        _ => None,
    }
}
