//! Lowered terms as C expressions, one C operation per operation of the tree, fully parenthesised.

use super::Tables;
use sit_lir::decl::Program;
use sit_lir::{ArithOp, CmpOp, ModelId};
use sit_lir::{Place, Slot, Term};
use std::fmt::Write;

/// A real literal that C reads back as exactly `v`: the shortest decimal in exponent
/// form (`1e-1`, `4e2`; C compilers round decimal literals correctly) in `SIT_R`, which
/// makes it a literal of the study's precision (`1e-1` in double, `1e-1f`, the nearest
/// float, under `SIT_F32`), negatives in parentheses, infinities and NaN from their bits.
/// A value past float's range (beyond its largest, or nonzero below its least normal
/// value) is a double literal cast to `sit_real` instead (float's infinity or its
/// nearest, as a float literal of it could not be written).
pub(crate) fn num(v: f64) -> String {
    if !v.is_finite() {
        return format!("((sit_real)sit_from_bits(0x{:016x}ULL))", v.to_bits());
    }
    let a = v.abs();
    if a > f64::from(f32::MAX) || (a != 0.0 && a < f64::from(f32::MIN_POSITIVE)) {
        return format!("((sit_real)({v:e}))");
    }
    if v.is_sign_negative() {
        format!("(-SIT_R({:e}))", -v)
    } else {
        format!("SIT_R({v:e})")
    }
}

/// Writes terms of one model's scope, reading the instance through `base`.
pub(crate) struct ExprGen<'a> {
    /// The program (to follow submodel paths).
    pub program: &'a Program,
    /// The model whose scope the terms are in.
    pub model: ModelId,
    /// The instance, as a C prefix of its fields (`s->`, `s->s0.`).
    pub base: String,
    /// The lookup tables met, named as they are first read.
    pub tables: &'a Tables,
}

impl ExprGen<'_> {
    /// The C prefix of the instance at `path` below this one, and its model.
    pub(crate) fn base(&self, path: &[usize]) -> (String, ModelId) {
        let mut base = self.base.clone();
        let mut model = self.model;
        for &s in path {
            let _ = write!(base, "s{s}.");
            model = self.program.models[model].subs[s].model;
        }
        (base, model)
    }

    /// The C lvalue of a stored value.
    pub(crate) fn place(&self, p: &Place) -> String {
        let (base, _) = self.base(&p.path);
        format!("{base}{}", field(p.slot))
    }

    /// The C expression of `t` (a `sit_real` for a real term, an `int` 0 or 1 for a
    /// logical one).
    pub(crate) fn expr(&self, t: &Term) -> String {
        let mut out = String::new();
        self.write(t, &mut out);
        out
    }

    fn write(&self, t: &Term, out: &mut String) {
        match t {
            Term::Num(v) => out.push_str(&num(*v)),
            Term::Bool(b) => out.push_str(if *b { "1" } else { "0" }),
            Term::Read(p) | Term::Derived(p) => out.push_str(&self.place(p)),
            // Lowered with `Reads::Inline`: no condition is left by name. Were one left,
            // an undeclared name stops the C compiler rather than a wrong value.
            Term::Cond(..) => out.push_str("sit_condition_left_by_name"),
            Term::Neg(a) => self.unary("-", a, out),
            Term::Not(a) => self.unary("!", a, out),
            Term::Arith(ArithOp::Pow, a, b) => self.call("sit_pow", [&**a, &**b], out),
            Term::Arith(op, a, b) => {
                let op = match op {
                    ArithOp::Add => " + ",
                    ArithOp::Sub => " - ",
                    ArithOp::Mul => " * ",
                    _ => " / ",
                };
                self.binary(op, a, b, out);
            }
            Term::Cmp(op, a, b) => {
                let op = match op {
                    CmpOp::Lt => " < ",
                    CmpOp::Le => " <= ",
                    CmpOp::Gt => " > ",
                    CmpOp::Ge => " >= ",
                    CmpOp::Eq => " == ",
                    CmpOp::Ne => " != ",
                };
                self.binary(op, a, b, out);
            }
            Term::And(a, b) => self.binary(" && ", a, b, out),
            Term::Or(a, b) => self.binary(" || ", a, b, out),
            Term::Call(f, args) => {
                let name = format!("sit_{}", f.name());
                self.call(&name, args.iter(), out);
            }
            Term::Table(t, args) => {
                let k = self.tables.index(t);
                let data = format!("sit_table{k}");
                let extrapolate = match t.beyond {
                    sit_lir::Beyond::Clamp => 0,
                    sit_lir::Beyond::Extrapolate => 1,
                };
                match (&t.grids[..], &args[..]) {
                    ([g], [x]) => {
                        let _ = write!(
                            out,
                            "sit_lookup1({data}_g0, {data}_v, {}, {extrapolate}, ",
                            g.len()
                        );
                        self.write(x, out);
                        out.push(')');
                    }
                    ([g1, g2], [x, y]) => {
                        let _ = write!(
                            out,
                            "sit_lookup2({data}_g0, {}, {data}_g1, {}, {data}_v, {extrapolate}, ",
                            g1.len(),
                            g2.len()
                        );
                        self.write(x, out);
                        out.push_str(", ");
                        self.write(y, out);
                        out.push(')');
                    }
                    // A checked table has one or two grids, read with as many arguments.
                    _ => out.push_str("SIT_NAN"),
                }
            }
            // Only an implicit method's Jacobian reads a table's slope, and the C form
            // refuses those methods by name (`Unsupported::Method`) at their solves.
            Term::TableSlope(..) => out.push_str("SIT_NAN"),
            Term::InMode(p, k) => {
                let _ = write!(out, "({} == {k})", self.place(p));
            }
        }
    }

    fn unary(&self, op: &str, a: &Term, out: &mut String) {
        out.push('(');
        out.push_str(op);
        out.push('(');
        self.write(a, out);
        out.push_str("))");
    }

    fn binary(&self, op: &str, a: &Term, b: &Term, out: &mut String) {
        out.push('(');
        self.write(a, out);
        out.push_str(op);
        self.write(b, out);
        out.push(')');
    }

    fn call<'t>(&self, f: &str, args: impl IntoIterator<Item = &'t Term>, out: &mut String) {
        out.push_str(f);
        out.push('(');
        for (i, a) in args.into_iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write(a, out);
        }
        out.push(')');
    }
}

/// The C field of a stored value in its instance's struct.
pub(crate) fn field(slot: Slot) -> String {
    match slot {
        Slot::Var(v) => format!("v{v}"),
        Slot::Event(e) => format!("ev{e}"),
        Slot::On(s) => format!("on{s}"),
        Slot::Time => "time".into(),
        Slot::Dt => "dt".into(),
        Slot::Mode(m) => format!("mode{m}"),
        Slot::ModeStart(m) => format!("mstart{m}"),
    }
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn literals_read_back_exactly() {
        for v in [
            0.0,
            1.0,
            0.1,
            1e300,
            5e-324,
            f64::MAX,
            123456.789,
            2.0 / 3.0,
        ] {
            let t = num(v);
            let inner = (t
                .strip_prefix("SIT_R(")
                .or_else(|| t.strip_prefix("((sit_real)(")))
            .map(|t| t.trim_end_matches(')'));
            let inner = inner.unwrap_or_else(|| panic!("{t}"));
            assert_eq!(inner.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{t}");
        }
        assert_eq!(num(-0.5), "(-SIT_R(5e-1))");
        // Past float's range: a double literal cast (`SIT_R(1e300)` is no float literal).
        assert_eq!(num(1e300), "((sit_real)(1e300))");
        assert_eq!(num(-2.5e-308), "((sit_real)(-2.5e-308))");
        assert_eq!(num(3e38), "SIT_R(3e38)");
        assert_eq!(num(-0.0), "(-SIT_R(0e0))");
        assert_eq!(
            num(f64::INFINITY),
            "((sit_real)sit_from_bits(0x7ff0000000000000ULL))"
        );
    }
}
