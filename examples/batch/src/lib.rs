//! The batch form of generated models: `NameBatch<const N: usize>` from
//! `sit_codegen::generate_with_batch`, N instances stepped at once in structure-of-arrays
//! form. `build.rs` compiles every model of `examples/models` and a set of random models;
//! [`check`] compares a batch with N scalar models, bit for bit, and `tests/batch.rs`
//! runs it on every model that has a batch form.

use sit_runtime::Model;

include!(concat!(env!("OUT_DIR"), "/models.rs"));

/// Lanes in the batches of the registry ([`all`]).
pub const LANES: usize = 8;

/// The operations of a generated batch type that [`check`] uses (implemented by
/// `build.rs` for every `NameBatch<8>` by delegating to its inherent methods).
pub trait Lanes: Clone {
    /// The scalar model.
    type Scalar: Model + Clone + Default;
    /// N copies of `m`.
    fn splat(m: &Self::Scalar) -> Self;
    /// Lane `i` as a scalar model.
    fn lane(&self, i: usize) -> Option<Self::Scalar>;
    /// Replaces lane `i`.
    fn set_lane(&mut self, i: usize, m: &Self::Scalar) -> bool;
    /// One step of every lane.
    fn step(&mut self, dt: f64);
    /// Resets every lane.
    fn reset(&mut self);
}

/// A bit-identity check of one batch type: `check(dt, steps)`.
pub type Check = fn(f64, u64) -> Result<(), String>;

/// Runs [`LANES`] scalar models and one batch side by side for `steps` steps of `dt`,
/// then resets both and runs `steps / 2` more, comparing time and every variable of every
/// lane after each step. Lane `l` has every settable real param and input moved by
/// `0.03·l·(|v| + 1)`, so the lanes take different paths through the guards.
///
/// NaNs compare equal whatever their sign and payload (Rust leaves them unspecified, see
/// `tests/tests/bit_identity.rs`).
pub fn check<B: Lanes>(dt: f64, steps: u64) -> Result<(), String> {
    let base = B::Scalar::default();
    let mut scalars = Vec::with_capacity(LANES);
    let mut batch = B::splat(&base);
    for l in 0..LANES {
        let mut m = base.clone();
        for i in 0..m.var_count() {
            let Some(info) = m.var_info(i) else { continue };
            let moved = matches!(
                info.kind,
                sit_runtime::VarKind::Param | sit_runtime::VarKind::Input
            ) && info.settable
                && info.ty == sit_runtime::ValueType::Real;
            if moved {
                let v = m.get_at(i).unwrap_or(0.0);
                m.set_at(i, v + 0.03 * l as f64 * (v.abs() + 1.0))
                    .map_err(|e| e.to_string())?;
            }
        }
        m.reset();
        if !batch.set_lane(l, &m) {
            return Err(format!("lane {l} out of range"));
        }
        scalars.push(m);
    }
    if batch.set_lane(LANES, &base) || batch.lane(LANES).is_some() {
        return Err("a lane past the end was accepted".into());
    }
    compare(&batch, &scalars, 0)?;
    for k in 1..=steps {
        if !step_both(&mut batch, &mut scalars, dt)? {
            return Ok(());
        }
        compare(&batch, &scalars, k)?;
    }
    batch.reset();
    scalars.iter_mut().for_each(|m| m.reset());
    compare(&batch, &scalars, 0)?;
    for k in 1..=steps / 2 {
        if !step_both(&mut batch, &mut scalars, dt)? {
            return Ok(());
        }
        compare(&batch, &scalars, k)?;
    }
    Ok(())
}

/// One step of the batch and of the scalars; `Ok(false)` if both stopped with the same
/// overrun of an adaptive method's bound of internal steps or of located events (a
/// fault of the model, the first lane's in both), an error if only one did or with
/// another message.
fn step_both<B: Lanes>(batch: &mut B, scalars: &mut [B::Scalar], dt: f64) -> Result<bool, String> {
    use sit_runtime::catch_fault;
    let message = |r: Result<(), sit_runtime::ModelFault>| match r {
        Ok(()) => None,
        Err(f) if f.kind.is_method() => Some(f.to_string()),
        Err(f) => panic!("a fault that is not the method's: {f}"),
    };
    let b = message(catch_fault(|| batch.step(dt)));
    let s = message(catch_fault(|| scalars.iter_mut().for_each(|m| m.step(dt))));
    if b != s {
        return Err(format!(
            "the batch stops with {b:?}, the scalars with {s:?}"
        ));
    }
    Ok(b.is_none())
}

fn compare<B: Lanes>(batch: &B, scalars: &[B::Scalar], step: u64) -> Result<(), String> {
    for (l, s) in scalars.iter().enumerate() {
        let b = batch.lane(l).ok_or_else(|| format!("no lane {l}"))?;
        if b.time().to_bits() != s.time().to_bits() {
            return Err(format!(
                "lane {l}, step {step}: time {} vs {}",
                b.time(),
                s.time()
            ));
        }
        for i in 0..s.var_count() {
            let (x, y) = (b.get_at(i).unwrap_or(0.0), s.get_at(i).unwrap_or(0.0));
            if x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()) {
                let name = s.var_info(i).map_or("?", |v| v.name);
                return Err(format!(
                    "lane {l}, step {step}: `{name}` is {x:?} in the batch, {y:?} alone"
                ));
            }
        }
    }
    Ok(())
}
