//! The rows of a sweep that are errors (a non-finite value, or one past 1e100), each named by the rule that made it, in the words `sitc sweep` and Python's `sit.sweep` both use.
//!
//! A sweep runs every row; the rows that went wrong are reported after the table
//! (issue 47, items 2 and 3): a row whose run met a NaN or an infinity, and a row whose
//! collected values (final values, maxima, minima) reach
//! [`sit_interp::replay::BLOWUP`], a probable instability, as `sitc run` stops at
//! one. The rows are the same to the bit under every back end (interpreter, compiled,
//! GPU), so the test on the collected values gives the same rows everywhere, and each
//! row is run again in the interpreter to name its rule.

use sit_interp::Instance;
use sit_interp::replay::{BLOWUP, first_beyond, first_fault};
use sit_runtime::drive::Driven;
use sit_runtime::sweep::Collect;

/// Why a sweep's row is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowFault {
    /// Its run met a NaN or an infinity.
    NonFinite,
    /// A collected value reached [`BLOWUP`] (a probable instability).
    Blowup,
}

/// Which row is an error, and why: row `k` met a non-finite value when `non_finite[k]`,
/// else it is a blow-up when one of its values in `rows[k]` (in the order of `columns`)
/// that is a value of the variable (a final value, a maximum, a minimum: not a
/// crossing's time) is finite and at least [`BLOWUP`] in magnitude.
pub fn row_faults(
    columns: &[Collect],
    rows: &[Vec<f64>],
    non_finite: &[bool],
) -> Vec<Option<RowFault>> {
    (rows.iter().enumerate())
        .map(|(k, row)| {
            if non_finite.get(k).copied().unwrap_or(false) {
                return Some(RowFault::NonFinite);
            }
            let blown = (columns.iter().zip(row))
                .filter(|(c, _)| !matches!(c, Collect::FirstCrossing { .. }))
                .any(|(_, v)| v.is_finite() && v.abs() >= BLOWUP);
            blown.then_some(RowFault::Blowup)
        })
        .collect()
}

/// What made row `set` go wrong (`fault`), in words, without the row's label: the
/// rule, its line, the time and the values it read (`m.sit:4: rule `y = 1 / x` made
/// `y` = inf at t = 2 (reading x = 0)`), found by running the set again in the
/// interpreter from `model` for `steps` steps of `dt`; a blow-up begins with
/// `probable instability: `. A run that does not repeat it (a value the plain run made
/// that compiled code saw only at the end) is described without a rule.
pub fn row_error(
    model: &Driven<Instance>,
    set: &[(usize, f64)],
    dt: f64,
    steps: u64,
    fault: RowFault,
) -> String {
    let mut run = model.clone();
    let applied = sit_runtime::sweep::apply(&mut run, set).is_ok();
    match fault {
        RowFault::NonFinite => match applied.then(|| first_fault(run, dt, steps)).flatten() {
            Some(fault) => fault.to_string(),
            None => "a value became NaN or infinite".to_string(),
        },
        RowFault::Blowup => {
            match (applied.then(|| first_beyond(run, dt, steps, BLOWUP))).flatten() {
                Some(fault) => format!("probable instability: {fault}"),
                None => format!("probable instability: a value reached {BLOWUP:e}"),
            }
        }
    }
}

/// The count of the rows that reached [`BLOWUP`] among `rows` rows, and why that is
/// taken for an error, after which the front end adds how to take them as the answer:
/// `3 of 8 rows reached a value past 1e100, a probable instability (a step too long
/// for the model's fastest time scale)`.
pub fn blowup_count(blown: usize, rows: usize) -> String {
    format!(
        "{blown} of {rows} rows reached a value past {BLOWUP:e}, a probable instability (a step \
         too long for the model's fastest time scale: `method dopri5;` in the model, \
         `rodas5p` for a stiff one, or a smaller dt)"
    )
}

/// What a run stopped by the bound of internal steps had reached inside its host step
/// (issue 47, item 7): `inside that host step it reached t = T (from t = T0): x = …, y = …
/// at its last accepted internal step`, read from `model` after the fault, for a fault of the root
/// model's adaptive method ([`sit_runtime::FaultKind::InternalSteps`]); `None` for any
/// other fault, or when no internal step was accepted. The values are the method's start
/// values of the next internal step (`NAME_METHOD_yc`), the first 8 continuous states.
pub fn reached_in_step(
    model: &dyn sit_runtime::Model,
    fault: &sit_runtime::ModelFault,
) -> Option<String> {
    if !matches!(fault.kind, sit_runtime::FaultKind::InternalSteps { .. }) {
        return None;
    }
    let total = model.var_count() + model.hidden_count();
    let find = |name: &str| {
        (model.var_count()..total).find(|&i| model.var_info(i).is_some_and(|v| v.name == name))
    };
    let method = sit_middle::ir::Method::ALL
        .iter()
        .map(|m| m.name())
        .find(|m| fault.message.contains(&format!("`{m}`")))?;
    let t = model.get_at(find(&format!("{method}_t"))?)?;
    if t.is_nan() || t <= 0.0 {
        return None;
    }
    let states: Vec<String> = (0..model.var_count())
        .filter_map(|i| {
            let name = model.var_info(i)?.name;
            let yc = find(&format!("{name}_{method}_yc"))?;
            Some(format!("{name} = {}", model.get_at(yc)?))
        })
        .take(8)
        .collect();
    let at = if states.is_empty() {
        String::new()
    } else {
        format!(": {} at its last accepted internal step", states.join(", "))
    };
    Some(format!(
        "inside that host step it reached t = {} (from t = {}){at}",
        fault.time + t,
        fault.time
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_past_the_bound_makes_an_error_of_its_row_and_a_time_does_not() {
        let columns = [
            Collect::Final(0),
            Collect::Max(1),
            Collect::FirstCrossing {
                var: 0,
                threshold: 1.0,
            },
        ];
        let rows = vec![
            vec![1.0, 2.0, 3.0],
            vec![1.0, -2e100, 3.0],
            vec![1e100, 0.0, f64::NAN],
            vec![f64::NAN, 0.0, 0.0],
            // A crossing's time is a time, never an instability.
            vec![0.0, 0.0, 1e200],
            vec![9.9e99, f64::INFINITY, 0.0],
        ];
        let non_finite = [false, false, false, true, false, false];
        assert_eq!(
            row_faults(&columns, &rows, &non_finite),
            [
                None,
                Some(RowFault::Blowup),
                Some(RowFault::Blowup),
                Some(RowFault::NonFinite),
                None,
                None,
            ]
        );
    }
}
