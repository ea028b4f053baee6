//! An implicit method's linear algebra as an operation of the interpreter: the factorisation, the stage solves and the step-underflow stop on real slots, by the runtime functions the generated code calls.

/// An implicit method's linear algebra on real slots (`sit_lir::Stmt::Factor`,
/// `Solve` and `Underflow`), by the runtime's functions that generated code calls.
/// Before flattening the slots are the node's; after, the program's.
use sit_lir::Storage;

#[derive(Debug, Clone)]
pub(crate) enum Linear {
    /// `r[a]` become the LU factors of the matrix they hold, `r[p]` the pivot rows, by
    /// `sit_runtime::stage_factor` (a fault on a singular matrix), or
    /// `sit_runtime::stage_band_factor` for a band.
    Factor {
        /// The matrix, in its storage.
        a: Vec<usize>,
        /// The band's `(kl, ku)`; `None`: dense.
        storage: Storage,
        /// The pivots.
        p: Vec<usize>,
        /// The real slot of the model's time (for the fault).
        time: usize,
        /// The model's name (for the fault).
        model: String,
        /// The method's name (for the fault).
        method: &'static str,
    },
    /// `r[b]` become the solution of `A·x = r[b]` with the factors in `r[a]`, `r[p]`.
    Solve {
        /// The factors, in their storage.
        a: Vec<usize>,
        /// The band's `(kl, ku)`; `None`: dense.
        storage: Storage,
        /// The pivots.
        p: Vec<usize>,
        /// The right-hand side.
        b: Vec<usize>,
    },
    /// Stops the program: the step `r[step]` underflowed.
    Underflow {
        /// The real slot of the step.
        step: usize,
        /// The real slot of the model's time.
        time: usize,
        /// The model's name.
        model: String,
        /// The method's name.
        method: &'static str,
    },
}

impl Linear {
    /// The same operation on the slots `slot(i)` of the slots `i` it names.
    pub(crate) fn map(&self, slot: &mut impl FnMut(usize) -> usize) -> Linear {
        let mut all = |v: &[usize]| v.iter().map(|&i| slot(i)).collect::<Vec<_>>();
        match self {
            Linear::Factor {
                a,
                storage,
                p,
                time,
                model,
                method,
            } => {
                let (a, p) = (all(a), all(p));
                Linear::Factor {
                    a,
                    storage: storage.clone(),
                    p,
                    time: slot(*time),
                    model: model.clone(),
                    method,
                }
            }
            Linear::Solve { a, storage, p, b } => Linear::Solve {
                a: all(a),
                storage: storage.clone(),
                p: all(p),
                b: all(b),
            },
            Linear::Underflow {
                step,
                time,
                model,
                method,
            } => Linear::Underflow {
                step: slot(*step),
                time: slot(*time),
                model: model.clone(),
                method,
            },
        }
    }

    /// Runs it on the real slots `r`.
    pub(crate) fn run(&self, r: &mut [f64]) {
        let read = |r: &[f64], v: &[usize]| v.iter().map(|&i| r[i]).collect::<Vec<_>>();
        match self {
            Linear::Factor {
                a,
                storage,
                p,
                time,
                model,
                method,
            } => {
                let (mut m, mut piv) = (read(r, a), read(r, p));
                let time = r[*time];
                match storage {
                    Storage::Dense => {
                        sit_runtime::stage_factor(model, method, time, &mut m, &mut piv)
                    }
                    Storage::Pattern { mask } => sit_runtime::stage_factor_masked(
                        model, method, time, *mask, &mut m, &mut piv,
                    ),
                    Storage::Band { kl, ku } => sit_runtime::stage_band_factor(
                        model,
                        method,
                        time,
                        (*kl, *ku),
                        &mut m,
                        &mut piv,
                    ),
                    Storage::Sparse { lu, complex: false } => {
                        sit_runtime::stage_sparse_factor(model, method, time, &lu.view(), &mut m)
                    }
                    Storage::Sparse { lu, complex: true } => {
                        sit_runtime::stage_sparse_complex_factor(
                            model,
                            method,
                            time,
                            &lu.view(),
                            &mut m,
                        )
                    }
                }
                for (&i, x) in a.iter().zip(m).chain(p.iter().zip(piv)) {
                    r[i] = x;
                }
            }
            Linear::Solve { a, storage, p, b } => {
                let mut x = read(r, b);
                let (a, p) = (read(r, a), read(r, p));
                match storage {
                    Storage::Dense => sit_runtime::stage_solve(&a, &p, &mut x),
                    Storage::Pattern { mask } => {
                        sit_runtime::stage_solve_masked(*mask, &a, &p, &mut x)
                    }
                    Storage::Band { kl, ku } => {
                        sit_runtime::stage_band_solve((*kl, *ku), &a, &p, &mut x)
                    }
                    Storage::Sparse { lu, complex: false } => {
                        sit_runtime::stage_sparse_solve(&lu.view(), &a, &mut x)
                    }
                    Storage::Sparse { lu, complex: true } => {
                        sit_runtime::stage_sparse_complex_solve(&lu.view(), &a, &mut x)
                    }
                }
                for (&i, v) in b.iter().zip(x) {
                    r[i] = v;
                }
            }
            Linear::Underflow {
                step,
                time,
                model,
                method,
            } => sit_runtime::step_underflow(model, method, r[*time], r[*step]),
        }
    }
}
