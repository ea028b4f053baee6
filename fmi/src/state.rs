//! Serialised FMU states: every field of a model, written and read back to the bit.
//!
//! [`State`] is implemented here for the field types of generated models (`f64`, `bool`,
//! `sit_runtime::Deriv`, `sit_runtime::Clock`) and by `sitc fmu` for each generated model struct (field by
//! field, in the same module as the struct, so private fields such as the clock are
//! included). Reading checks everything it reads and never panics: a foreign or damaged
//! buffer is an error.

use sit_runtime::{Clock, Deriv};

/// A value that can be written to bytes and read back identically.
pub trait State {
    /// Appends the value's bytes to `out`.
    fn save(&self, out: &mut Vec<u8>);
    /// Replaces the value with the one `input` starts with, consuming its bytes.
    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String>;
}

/// A cursor over serialised bytes.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err("the serialized state ends too early".into());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    /// The next 8 bytes as a little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, String> {
        let bytes = self.take(8)?;
        Ok(u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl State for f64 {
    fn save(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bits().to_le_bytes());
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        *self = f64::from_bits(input.u64()?);
        Ok(())
    }
}

impl State for bool {
    fn save(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        *self = match input.take(1)?[0] {
            0 => false,
            1 => true,
            b => {
                return Err(format!(
                    "the serialized state has {b} where a flag (0 or 1) is"
                ));
            }
        };
        Ok(())
    }
}

/// Through `Deriv`'s public API: whether it has a previous input (`!= Deriv::new()`) and
/// which (`-(next(-0.0, 1.0))`, exact for every value and both zeros); restored by one
/// `next` call on a new `Deriv`.
impl State for Deriv {
    fn save(&self, out: &mut Vec<u8>) {
        if *self == Deriv::new() {
            out.push(0);
        } else {
            out.push(1);
            let mut probe = *self;
            (-probe.next(-0.0, 1.0)).save(out);
        }
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        let mut has_previous = false;
        has_previous.load(input)?;
        *self = Deriv::new();
        if has_previous {
            let mut previous = 0.0;
            previous.load(input)?;
            self.next(previous, 1.0);
        }
        Ok(())
    }
}

/// Through `Clock`'s public API: its state `(t₀, n, h)`, from which `Clock::resume`
/// rebuilds the same clock.
impl State for Clock {
    fn save(&self, out: &mut Vec<u8>) {
        let (start, steps, step) = self.state();
        start.save(out);
        steps.save(out);
        step.save(out);
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        let (mut start, mut steps, mut step) = (0.0, 0.0, 0.0);
        start.load(input)?;
        steps.load(input)?;
        step.load(input)?;
        *self = Clock::resume(start, steps, step);
        Ok(())
    }
}

/// The counts of a table's reads (the grid and rule are the generated code's own).
impl State for sit_runtime::table::TableReach {
    fn save(&self, out: &mut Vec<u8>) {
        for w in [self.reads, self.outside] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for a in &self.axes {
            for w in [a.below, a.above] {
                out.extend_from_slice(&w.to_le_bytes());
            }
            a.min_seen.save(out);
            a.max_seen.save(out);
        }
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        self.reads = input.u64()?;
        self.outside = input.u64()?;
        for a in &mut self.axes {
            a.below = input.u64()?;
            a.above = input.u64()?;
            a.min_seen.load(input)?;
            a.max_seen.load(input)?;
        }
        Ok(())
    }
}

/// Each element in order (the counts of a model's tables).
impl<T: State, const N: usize> State for [T; N] {
    fn save(&self, out: &mut Vec<u8>) {
        for x in self {
            x.save(out);
        }
    }

    fn load(&mut self, input: &mut Reader<'_>) -> Result<(), String> {
        for x in self {
            x.load(input)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_counts_round_trip() {
        let fresh = || {
            sit_runtime::table::TableReach::new(&[&[0.0, 1.0]], sit_runtime::table::Beyond::Clamp)
        };
        let mut r = [fresh(), fresh()];
        r[1].note1(3.0);
        r[1].note1(0.5);
        let mut bytes = Vec::new();
        r.save(&mut bytes);
        let mut back = [fresh(), fresh()];
        let mut input = Reader::new(&bytes);
        back.load(&mut input).unwrap();
        assert!(input.is_empty());
        assert_eq!(back, r);
    }

    fn round_trip<T: State + Default>(value: &T) -> T {
        let mut bytes = Vec::new();
        value.save(&mut bytes);
        let mut back = T::default();
        let mut input = Reader::new(&bytes);
        back.load(&mut input).unwrap();
        assert!(input.is_empty());
        back
    }

    #[test]
    fn reals_and_flags_to_the_bit() {
        for x in [0.0, -0.0, 1.5, f64::MIN_POSITIVE, f64::INFINITY, -1e300] {
            assert_eq!(round_trip(&x).to_bits(), x.to_bits());
        }
        assert!(round_trip(&f64::NAN).is_nan());
        assert!(round_trip(&true));
        assert!(!round_trip(&false));
        let mut flag = false;
        assert!(flag.load(&mut Reader::new(&[2])).is_err());
        assert!(flag.load(&mut Reader::new(&[])).is_err());
    }

    #[test]
    fn a_clock_continues_identically() {
        let mut c = Clock::new();
        for _ in 0..3 {
            c.advance(0.1);
        }
        let mut back = round_trip(&c);
        assert_eq!(back, c);
        assert_eq!(back.advance(0.1), c.advance(0.1));
        assert_eq!(back.advance(0.1), 0.5);
    }

    #[test]
    fn a_differentiator_continues_identically() {
        assert_eq!(round_trip(&Deriv::new()), Deriv::new());
        for previous in [0.0, -0.0, 2.5, -1e-300, f64::MAX] {
            let mut d = Deriv::new();
            d.next(previous, 0.1);
            let mut back = round_trip(&d);
            assert_eq!(back, d);
            // Same next output, to the bit, for inputs that tell the zeros apart.
            for x in [-0.0, 0.0, 1.0] {
                let (mut a, mut b) = (d, back);
                assert_eq!(a.next(x, 1.0).to_bits(), b.next(x, 1.0).to_bits());
            }
            back.next(1.0, 1.0);
        }
    }
}
