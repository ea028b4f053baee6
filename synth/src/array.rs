//! Arrays and loops in random models: an array of states relaxing in a chain, a param array, a 2-D array written in nested loops, and reductions.

use super::{Decls, Gen};
use std::fmt::Write as _;

impl Gen {
    /// Appends to `body`, for about a third of the models, arrays and the loops that
    /// write them (issue 49): `ar[an]` (2 to 5 cells) initialised by a comprehension,
    /// its first cell driven by a param and `time`, each other cell relaxing toward
    /// the one before it in a `for` loop, weighted by the param array `aw` (a
    /// comprehension, so that an instance may bind another size `an`);
    /// `ag[2, an]` written in a nested loop under a guard; a flag array `af[an]`, each
    /// cell latched by a σ action when its `ar` cell passes the param; `asum` and `amax`, a `sum`
    /// and a `max` over them. Drawn from a generator of its own, so that the rest of
    /// the file is what it would be without arrays. The number of cells of `ar` (0:
    /// none drawn).
    pub(crate) fn arrays(&mut self, d: &Decls, seed: u64, body: &mut String) -> usize {
        let mut own = fastrand::Rng::with_seed(seed ^ 0x6172_7261_7973);
        if own.u8(..3) != 0 {
            return 0;
        }
        let n = own.usize(2..6);
        let p = &d.params[own.usize(..d.params.len())];
        // The weights follow the size (`an` may be bound by an instance): a
        // comprehension of one drawn weight.
        let w = own.u8(1..5);
        let _ = writeln!(body, "    param an = {n};");
        let _ = writeln!(body, "    param aw[an] = [{w} + 0.25 * i for i in 1:an];");
        let _ = writeln!(
            body,
            "    output real ar[an] = [{p} + 0.5 * i for i in 1:an];"
        );
        let _ = writeln!(body, "    output real ag[2, an];");
        let _ = writeln!(body, "    output real asum, amax;");
        let _ = writeln!(
            body,
            "    ar[1] = integral(aw[1] * ({p} * sin(time) - ar[1]));"
        );
        let _ = writeln!(body, "    for i in 2:an {{");
        let _ = writeln!(body, "        ar[i] = integral(aw[i] * (ar[i-1] - ar[i]));");
        let _ = writeln!(body, "    }}");
        let _ = writeln!(body, "    for i in 1:2, j in 1:an {{");
        let _ = writeln!(body, "        ag[i, j] = ar[j] * i when en;");
        let _ = writeln!(body, "    }}");
        // A flag array latched by σ actions on its cells.
        let _ = writeln!(body, "    output flag af[an] = false;");
        let _ = writeln!(body, "    for i in 1:an {{");
        let _ = writeln!(body, "        when ar[i] > {p} => af[i];");
        let _ = writeln!(body, "    }}");
        let _ = writeln!(body, "    asum = sum(ar[i] * aw[i] for i in 1:an);");
        let _ = writeln!(body, "    amax = max(ag[i, j] for i in 1:2, j in 1:an);");
        n
    }

    /// Appends to `body`, for each submodel whose model has arrays, an output `sa_S`
    /// reading its cells through its path: a cell of `ar` and one of `ag` (`s0.ar[2] +
    /// s0.ag[1, 3]`), and, in a loop, the sum of `ar`'s cells (`sum(s0.ar[i] for i in
    /// 1:N)`). Drawn from a generator of its own, as [`Gen::arrays`].
    pub(crate) fn sub_cells(&mut self, d: &Decls, seed: u64, body: &mut String) {
        let mut own = fastrand::Rng::with_seed(seed ^ 0x7375_6263_656c);
        for ((inst, _), &n) in d.subs.iter().zip(&d.sub_sizes) {
            if n == 0 {
                continue;
            }
            let (k, j) = (own.usize(1..=n), own.usize(1..=n));
            let _ = writeln!(body, "    output real sa_{inst};");
            let _ = writeln!(
                body,
                "    sa_{inst} = {inst}.ar[{k}] + {inst}.ag[{}, {j}] + sum({inst}.ar[i] for i in 1:{n});",
                own.usize(1..=2)
            );
        }
    }
}
