//! Lookup tables: linear interpolation on a 1-D grid and bilinear on a 2-D grid, clamped or extrapolated beyond it.
//!
//! A `table` of a `.sit` model is stored as `static` arrays in generated code and as
//! data in the interpreter; both read it through these functions, so compiled and
//! interpreted runs agree to the bit. Nothing here allocates or panics.
//!
//! The rule, per axis with grid `g[0] < g[1] < … < g[n-1]` (`n >= 2`) and argument `x`:
//!
//! - **at a grid point** (`x == g[i]`): the table's value at that point, exactly (no
//!   arithmetic is done on it);
//! - **between** `g[i] < x < g[i+1]`: `v[i] + t·(v[i+1] − v[i])` with
//!   `t = (x − g[i]) / (g[i+1] − g[i])`, evaluated in that order;
//! - **beyond** the grid (`x < g[0]` or `x > g[n-1]`): with [`Beyond::Clamp`] the value
//!   at the nearest end (`v[0]` or `v[n-1]`); with [`Beyond::Extrapolate`] the same
//!   formula on the first segment (`i = 0`, so `t < 0`) or on the last (`i = n-2`,
//!   `t > 1`);
//! - a NaN argument gives NaN.
//!
//! In two dimensions the first argument picks the rows (`values[i * m + j]` is the
//! value at `(g1[i], g2[j])`, `m` the length of the second grid): each of the (one or
//! two) rows involved is interpolated along the second argument by the rule above,
//! then the results along the first argument. At a grid node, and so at the four
//! corners, the value is the table's exactly; on a grid line the interpolation is the
//! 1-D one along the other argument.
//!
//! ```
//! use sit_runtime::table::{Beyond, lookup1, lookup2};
//!
//! let (g, v) = ([0.0, 1.0, 2.0], [0.0, 10.0, 15.0]);
//! assert_eq!(lookup1(&g, &v, Beyond::Clamp, 1.0), 10.0);
//! assert_eq!(lookup1(&g, &v, Beyond::Clamp, 1.5), 12.5);
//! assert_eq!(lookup1(&g, &v, Beyond::Clamp, 3.0), 15.0);
//! assert_eq!(lookup1(&g, &v, Beyond::Extrapolate, 3.0), 20.0);
//! // 2-D: rows along the first argument.
//! let (g1, g2, z) = ([0.0, 1.0], [0.0, 2.0], [0.0, 2.0, 10.0, 30.0]);
//! assert_eq!(lookup2(&g1, &g2, &z, Beyond::Clamp, 1.0, 2.0), 30.0);
//! assert_eq!(lookup2(&g1, &g2, &z, Beyond::Clamp, 0.5, 1.0), 10.5);
//! ```

/// What a table gives beyond its grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Beyond {
    /// The value at the nearest end of the grid (held constant).
    Clamp,
    /// The straight line of the outermost segment, continued.
    Extrapolate,
}

/// Where `x` lies on `grid`: the segment `i` and the fraction `t`, with `t == 0` meaning
/// "exactly the point `i`" (then `i + 1` is not read). `None` for a NaN `x` or a grid
/// of fewer than two points.
#[inline]
fn locate(grid: &[f64], beyond: Beyond, x: f64) -> Option<(usize, f64)> {
    let n = grid.len();
    if n < 2 || x.is_nan() {
        return None;
    }
    let (first, last) = (grid[0], grid[n - 1]);
    let i = if x < first {
        if beyond == Beyond::Clamp {
            return Some((0, 0.0));
        }
        0
    } else if x >= last {
        if x == last || beyond == Beyond::Clamp {
            return Some((n - 1, 0.0));
        }
        n - 2
    } else {
        // The last point at or below `x`: `1 <= p <= n - 1` since `first <= x < last`.
        grid.partition_point(|&g| g <= x) - 1
    };
    let span = grid[i + 1] - grid[i];
    let t = if span.is_finite() {
        (x - grid[i]) / span
    } else {
        // A span past the largest f64 (a grid from -1e308 to 1e308): the fraction of
        // the halves, which do not overflow (the finite spans keep their bits).
        (x * 0.5 - grid[i] * 0.5) / (grid[i + 1] * 0.5 - grid[i] * 0.5)
    };
    Some((i, t))
}

/// `v[i] + t·(v[i+1] − v[i])`, or `v[i]` exactly when `t == 0`; NaN if out of range.
#[inline]
fn blend(v: &[f64], i: usize, t: f64) -> f64 {
    let Some(&a) = v.get(i) else {
        return f64::NAN;
    };
    if t == 0.0 {
        return a;
    }
    match v.get(i + 1) {
        Some(&b) => a + t * (b - a),
        None => f64::NAN,
    }
}

/// The 1-D table `(grid, values)` at `x` (see the module documentation for the rule).
///
/// `grid` must be strictly increasing with at least two points and `values` as long as
/// `grid` (the checker guarantees it for `.sit` tables); otherwise the result is NaN
/// where a missing value would be read, never a panic.
#[inline]
pub fn lookup1(grid: &[f64], values: &[f64], beyond: Beyond, x: f64) -> f64 {
    if values.len() != grid.len() {
        return f64::NAN;
    }
    match locate(grid, beyond, x) {
        Some((i, t)) => blend(values, i, t),
        None => f64::NAN,
    }
}

/// The 2-D table at `(x, y)`: `values[i * g2.len() + j]` is the value at
/// `(g1[i], g2[j])`. Rows (along `y`) are interpolated first, then along `x` (see the
/// module documentation).
///
/// Both grids strictly increasing with at least two points and
/// `values.len() == g1.len() * g2.len()`; otherwise NaN, never a panic.
#[inline]
pub fn lookup2(g1: &[f64], g2: &[f64], values: &[f64], beyond: Beyond, x: f64, y: f64) -> f64 {
    let m = g2.len();
    if values.len() != g1.len() * m {
        return f64::NAN;
    }
    let (Some((i, s)), Some((j, t))) = (locate(g1, beyond, x), locate(g2, beyond, y)) else {
        return f64::NAN;
    };
    let row = |k: usize| blend(&values[k * m..(k + 1) * m], j, t);
    let a = row(i);
    if s == 0.0 {
        return a;
    }
    let b = row(i + 1);
    a + s * (b - a)
}

/// The segment whose straight line gives the table's slope at `x`: `i` with
/// `g[i] <= x < g[i+1]` inside the grid, the last segment at its last point, the
/// outermost segment beyond it with [`Beyond::Extrapolate`]; `None` where the table is
/// flat (beyond the grid with [`Beyond::Clamp`]). The caller checks `x` and the grid.
#[inline]
fn segment(grid: &[f64], beyond: Beyond, x: f64) -> Option<usize> {
    let n = grid.len();
    let (first, last) = (grid[0], grid[n - 1]);
    if x < first || x > last {
        return match beyond {
            Beyond::Clamp => None,
            Beyond::Extrapolate => Some(if x < first { 0 } else { n - 2 }),
        };
    }
    if x == last {
        return Some(n - 2);
    }
    Some(grid.partition_point(|&g| g <= x) - 1)
}

/// The slope of segment `seg` of `(grid, v)` (0 for a flat piece).
#[inline]
fn segment_slope(grid: &[f64], v: &[f64], seg: Option<usize>) -> f64 {
    match seg {
        Some(i) => (v[i + 1] - v[i]) / (grid[i + 1] - grid[i]),
        None => 0.0,
    }
}

/// The slope `d lookup1(grid, values, beyond, x)/dx` of the piece that [`lookup1`]
/// reads at `x`: `(v[i+1] − v[i])/(g[i+1] − g[i])` on the segment `g[i] <= x < g[i+1]`
/// (at a grid point, the segment to its right; at the last point, the last segment),
/// the outermost segment's beyond the grid with [`Beyond::Extrapolate`], 0 beyond it
/// with [`Beyond::Clamp`]. NaN where [`lookup1`] gives NaN.
///
/// ```
/// use sit_runtime::table::{Beyond, slope1};
///
/// let (g, v) = ([0.0, 1.0, 2.0], [0.0, 10.0, 15.0]);
/// assert_eq!(slope1(&g, &v, Beyond::Clamp, 0.5), 10.0);
/// assert_eq!(slope1(&g, &v, Beyond::Clamp, 1.0), 5.0);
/// assert_eq!(slope1(&g, &v, Beyond::Clamp, 3.0), 0.0);
/// assert_eq!(slope1(&g, &v, Beyond::Extrapolate, 3.0), 5.0);
/// ```
#[inline]
pub fn slope1(grid: &[f64], values: &[f64], beyond: Beyond, x: f64) -> f64 {
    if grid.len() < 2 || values.len() != grid.len() || x.is_nan() {
        return f64::NAN;
    }
    segment_slope(grid, values, segment(grid, beyond, x))
}

/// The partial slopes `(∂/∂x, ∂/∂y)` of [`lookup2`] at `(x, y)`, on the cell its
/// segments (as [`slope1`] chooses them) span: along `x`, the difference of the two rows
/// (each interpolated along `y`) over the cell's width; along `y`, the rows' slopes
/// blended as [`lookup2`] blends their values. NaN where [`lookup2`] gives NaN.
#[inline]
pub fn slope2(
    g1: &[f64],
    g2: &[f64],
    values: &[f64],
    beyond: Beyond,
    x: f64,
    y: f64,
) -> (f64, f64) {
    let m = g2.len();
    if g1.len() < 2 || m < 2 || values.len() != g1.len() * m || x.is_nan() || y.is_nan() {
        return (f64::NAN, f64::NAN);
    }
    let (Some((i, s)), Some((j, t))) = (locate(g1, beyond, x), locate(g2, beyond, y)) else {
        return (f64::NAN, f64::NAN);
    };
    let row = |k: usize| &values[k * m..(k + 1) * m];
    let (sx, sy) = (segment(g1, beyond, x), segment(g2, beyond, y));
    let dy = |k: usize| segment_slope(g2, row(k), sy);
    let dx = match sx {
        Some(a) => (blend(row(a + 1), j, t) - blend(row(a), j, t)) / (g1[a + 1] - g1[a]),
        None => 0.0,
    };
    let ra = dy(i);
    let dy = if s == 0.0 {
        ra
    } else {
        ra + s * (dy(i + 1) - ra)
    };
    (dx, dy)
}

/// `∂ lookup2/∂x` at `(x, y)`: the first of [`slope2`].
#[inline]
pub fn slope2_x(g1: &[f64], g2: &[f64], values: &[f64], beyond: Beyond, x: f64, y: f64) -> f64 {
    slope2(g1, g2, values, beyond, x, y).0
}

/// `∂ lookup2/∂y` at `(x, y)`: the second of [`slope2`].
#[inline]
pub fn slope2_y(g1: &[f64], g2: &[f64], values: &[f64], beyond: Beyond, x: f64, y: f64) -> f64 {
    slope2(g1, g2, values, beyond, x, y).1
}

/// Where the reads of one table argument fell against its grid over a run (see
/// [`TableReach`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisReach {
    /// The grid's first point.
    pub first: f64,
    /// The grid's last point.
    pub last: f64,
    /// The limit below which a read is counted: `first` with [`Beyond::Clamp`],
    /// `first − (last − first)` (one grid span before the grid) with
    /// [`Beyond::Extrapolate`].
    pub lo: f64,
    /// The limit above which a read is counted: `last`, or `last + (last − first)`.
    pub hi: f64,
    /// Reads below `lo`.
    pub below: u64,
    /// Reads above `hi`.
    pub above: u64,
    /// The smallest argument read (NaN arguments are not counted); `+inf` before any.
    pub min_seen: f64,
    /// The largest argument read; `-inf` before any.
    pub max_seen: f64,
}

impl AxisReach {
    fn new(grid: &[f64], beyond: Beyond) -> AxisReach {
        // An unused axis (the second of a 1-D table) is 0 … 0, never read.
        let first = grid.first().copied().unwrap_or(0.0);
        let last = grid.last().copied().unwrap_or(first);
        let (lo, hi) = match beyond {
            Beyond::Clamp => (first, last),
            Beyond::Extrapolate => (first - (last - first), last + (last - first)),
        };
        AxisReach {
            first,
            last,
            lo,
            hi,
            below: 0,
            above: 0,
            min_seen: f64::INFINITY,
            max_seen: f64::NEG_INFINITY,
        }
    }

    /// Notes one read at `x`; true when it is past a limit. A NaN is neither (every
    /// comparison with it is false), and leaves the range as it was.
    #[inline]
    fn note(&mut self, x: f64) -> bool {
        if x < self.min_seen {
            self.min_seen = x;
        }
        if x > self.max_seen {
            self.max_seen = x;
        }
        if x < self.lo {
            self.below += 1;
            true
        } else if x > self.hi {
            self.above += 1;
            true
        } else {
            false
        }
    }

    /// Forgets the reads.
    fn clear(&mut self) {
        (self.below, self.above) = (0, 0);
        (self.min_seen, self.max_seen) = (f64::INFINITY, f64::NEG_INFINITY);
    }

    fn outside(&self) -> bool {
        self.below + self.above > 0
    }
}

/// The reads of one table over a run, against its grid: how many, how many were past
/// the grid (with `clamp`, where the table holds its end values) or more than one grid
/// span past it (with `extrapolate`, where the straight line of the outer segment is
/// trusted least), and the range of arguments seen, per argument.
///
/// Counting never changes a value: the interpreter notes each read beside the call of
/// [`lookup1`] or [`lookup2`], and so does generated code when generated with the
/// option to (without it, its step stays the bare lookup); a model gives its counts
/// through [`crate::Model::table_reach`]. [`TableReach::warning`] is the message every
/// host shows.
///
/// ```
/// use sit_runtime::table::{Beyond, TableReach};
///
/// let mut r = TableReach::new(&[&[0.0, 100.0]], Beyond::Clamp);
/// for x in [280.0, 350.0, 50.0] {
///     r.note1(x);
/// }
/// assert_eq!((r.reads, r.outside), (3, 2));
/// assert_eq!(
///     r.warning("heat", &["T"]).unwrap().to_string(),
///     "table `heat` was read at T = 50 … 350 outside its grid 0 … 100 (2 of 3 reads); \
///      it held its end values (clamp)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableReach {
    /// The table's rule beyond its grid.
    pub beyond: Beyond,
    /// The number of arguments (1 or 2); `axes[1]` is unused in 1-D.
    pub dims: usize,
    /// Every read, NaN arguments included.
    pub reads: u64,
    /// Reads with at least one argument past its limit ([`AxisReach::lo`],
    /// [`AxisReach::hi`]).
    pub outside: u64,
    /// Per argument, in argument order.
    pub axes: [AxisReach; 2],
}

impl TableReach {
    /// No read yet of a table with these grids (one or two) and rule.
    pub fn new(grids: &[&[f64]], beyond: Beyond) -> TableReach {
        let axis = |k: usize| AxisReach::new(grids.get(k).copied().unwrap_or(&[]), beyond);
        TableReach {
            beyond,
            dims: grids.len().clamp(1, 2),
            reads: 0,
            outside: 0,
            axes: [axis(0), axis(1)],
        }
    }

    /// Forgets the reads (a new run).
    pub fn clear(&mut self) {
        self.reads = 0;
        self.outside = 0;
        for a in &mut self.axes {
            a.clear();
        }
    }

    /// Adds the reads of `other`, of the same table (another run): the counts add up,
    /// the ranges seen join.
    pub fn merge(&mut self, other: &TableReach) {
        self.reads += other.reads;
        self.outside += other.outside;
        for (a, b) in self.axes.iter_mut().zip(&other.axes) {
            a.below += b.below;
            a.above += b.above;
            a.min_seen = a.min_seen.min(b.min_seen);
            a.max_seen = a.max_seen.max(b.max_seen);
        }
    }

    /// Notes a read of a 1-D table at `x`.
    #[inline]
    pub fn note1(&mut self, x: f64) {
        self.reads += 1;
        if self.axes[0].note(x) {
            self.outside += 1;
        }
    }

    /// Notes a read of a 2-D table at `(x, y)`.
    #[inline]
    pub fn note2(&mut self, x: f64, y: f64) {
        self.reads += 1;
        let a = self.axes[0].note(x);
        let b = self.axes[1].note(y);
        if a || b {
            self.outside += 1;
        }
    }

    /// The report of a table read past its limits, `None` if no read was; `args` are
    /// the argument names of the declaration (`table heat(T) = …`):
    ///
    /// ``table `heat` was read at T = 280 … 350 outside its grid 0 … 100 (1200 of 1200
    /// reads); it held its end values (clamp)``
    ///
    /// In 2-D each argument read past its limits is listed, joined by `and`. With
    /// `extrapolate` the end says `it extrapolated more than one grid span (0 … 100)
    /// beyond it`.
    pub fn warning<'a>(&'a self, table: &'a str, args: &'a [&'a str]) -> Option<ReachWarning<'a>> {
        (self.outside > 0).then_some(ReachWarning {
            reach: self,
            table,
            args,
        })
    }
}

/// A table declaration as a model names it to [`crate::Model::table_reach`]: its name,
/// its argument names (for [`TableReach::warning`]) and a key telling apart two
/// declarations of one name (tables are private to their model: two models may each
/// declare a `heat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableDecl<'a> {
    /// The table's name as declared.
    pub name: &'a str,
    /// Its argument names as declared (one or two).
    pub args: &'a [&'a str],
    /// Where it is declared: the index of its source file in the program times 2^32
    /// plus the byte offset of its name, the same in generated and interpreted code
    /// of one program.
    pub key: u64,
}

/// The words of [`TableReach::warning`] (without `warning: `).
#[derive(Debug, Clone, Copy)]
pub struct ReachWarning<'a> {
    reach: &'a TableReach,
    table: &'a str,
    args: &'a [&'a str],
}

impl core::fmt::Display for ReachWarning<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let r = self.reach;
        write!(f, "table `{}` was read at ", self.table)?;
        let mut first = true;
        for (k, axis) in r.axes[..r.dims].iter().enumerate() {
            if !axis.outside() {
                continue;
            }
            if !core::mem::take(&mut first) {
                f.write_str(" and ")?;
            }
            let arg = self.args.get(k).copied().unwrap_or("x");
            write!(
                f,
                "{arg} = {} … {} outside its grid {} … {}",
                axis.min_seen, axis.max_seen, axis.first, axis.last
            )?;
        }
        write!(f, " ({} of {} reads); ", r.outside, r.reads)?;
        match r.beyond {
            Beyond::Clamp => f.write_str("it held its end values (clamp)"),
            Beyond::Extrapolate => {
                f.write_str("it extrapolated more than one grid span beyond its grid (extrapolate)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    const G: [f64; 4] = [0.0, 0.1, 0.3, 1.0];
    const V: [f64; 4] = [0.7, 0.1, -0.2, 0.9];

    /// A grid whose span overflows (issue 53, item 7): `[-1e308, 1e308] -> [0, 1]` at 0 is
    /// 0.5 (the span, 2e308, is infinite; its halves are not), at 5e307 0.75; a 2-D
    /// table likewise; a finite span keeps the formula's bits.
    #[test]
    fn a_grid_span_past_the_largest_number_interpolates() {
        let (g, v) = ([-1e308, 1e308], [0.0, 1.0]);
        for b in [Beyond::Clamp, Beyond::Extrapolate] {
            assert_eq!(lookup1(&g, &v, b, 0.0), 0.5);
            assert_eq!(lookup1(&g, &v, b, 5e307), 0.75);
            assert_eq!(lookup1(&g, &v, b, -1e308), 0.0);
            assert_eq!(lookup2(&g, &g, &[0.0, 1.0, 1.0, 2.0], b, 0.0, 0.0), 1.0);
        }
        let x = 0.123_456_789;
        let t = (x - G[1]) / (G[2] - G[1]);
        assert_eq!(lookup1(&G, &V, Beyond::Clamp, x), V[1] + t * (V[2] - V[1]));
    }

    #[test]
    fn grid_points_are_exact_whatever_the_rule() {
        for b in [Beyond::Clamp, Beyond::Extrapolate] {
            for (g, v) in G.iter().zip(V) {
                assert_eq!(lookup1(&G, &V, b, *g).to_bits(), v.to_bits());
            }
        }
    }

    #[test]
    fn between_points_is_the_stated_formula() {
        // Hand: x = 0.2 lies in [0.1, 0.3], t = (0.2 - 0.1) / (0.3 - 0.1).
        let t = (0.2 - 0.1) / (0.3 - 0.1);
        let want = 0.1 + t * (-0.2 - 0.1);
        assert_eq!(lookup1(&G, &V, Beyond::Clamp, 0.2), want);
        assert!((lookup1(&G, &V, Beyond::Clamp, 0.2) - (-0.05)).abs() < 1e-15);
        // Midpoint of the last segment.
        assert!((lookup1(&G, &V, Beyond::Clamp, 0.65) - 0.35).abs() < 1e-15);
    }

    #[test]
    fn beyond_the_grid_clamps_or_extrapolates() {
        assert_eq!(lookup1(&G, &V, Beyond::Clamp, -5.0), 0.7);
        assert_eq!(lookup1(&G, &V, Beyond::Clamp, 5.0), 0.9);
        assert_eq!(lookup1(&G, &V, Beyond::Clamp, f64::INFINITY), 0.9);
        // First segment slope (0.1 - 0.7) / 0.1 = -6: at x = -0.1, 0.7 + 0.6 = 1.3.
        assert!((lookup1(&G, &V, Beyond::Extrapolate, -0.1) - 1.3).abs() < 1e-12);
        // Last segment slope (0.9 + 0.2) / 0.7: at x = 2, 0.9 + 1.1 / 0.7.
        let want = 0.9 + 1.1 / 0.7;
        assert!((lookup1(&G, &V, Beyond::Extrapolate, 2.0) - want).abs() < 1e-12);
    }

    #[test]
    fn nan_and_malformed_tables_give_nan() {
        assert!(lookup1(&G, &V, Beyond::Clamp, f64::NAN).is_nan());
        assert!(lookup1(&[1.0], &[2.0], Beyond::Clamp, 1.0).is_nan());
        assert!(lookup1(&G, &V[..3], Beyond::Clamp, 0.0).is_nan());
        assert!(lookup2(&G, &G, &V, Beyond::Clamp, 0.0, 0.0).is_nan());
        assert!(lookup2(&G, &G, &[0.0; 16], Beyond::Clamp, f64::NAN, 0.0).is_nan());
    }

    /// z = 1 + 2x + 3y + 4xy on a coarse grid: bilinear interpolation reproduces it.
    fn plane(x: f64, y: f64) -> f64 {
        1.0 + 2.0 * x + 3.0 * y + 4.0 * x * y
    }

    const G1: [f64; 3] = [0.0, 1.0, 3.0];
    const G2: [f64; 2] = [-1.0, 2.0];

    fn z() -> [f64; 6] {
        let mut z = [0.0; 6];
        for (i, x) in G1.iter().enumerate() {
            for (j, y) in G2.iter().enumerate() {
                z[i * 2 + j] = plane(*x, *y);
            }
        }
        z
    }

    #[test]
    fn two_d_corners_nodes_and_cells() {
        let z = z();
        for b in [Beyond::Clamp, Beyond::Extrapolate] {
            for (i, x) in G1.iter().enumerate() {
                for (j, y) in G2.iter().enumerate() {
                    assert_eq!(lookup2(&G1, &G2, &z, b, *x, *y), z[i * 2 + j]);
                }
            }
            for (x, y) in [(0.5, 0.0), (2.0, 1.5), (2.9, -0.9), (1.0, 0.5), (0.25, 2.0)] {
                let got = lookup2(&G1, &G2, &z, b, x, y);
                assert!((got - plane(x, y)).abs() < 1e-12, "{x} {y}: {got}");
            }
        }
    }

    #[test]
    fn two_d_beyond_the_grid() {
        let z = z();
        // Clamp: each argument is held at its nearest end, corners included.
        assert_eq!(
            lookup2(&G1, &G2, &z, Beyond::Clamp, -1.0, -5.0),
            plane(0.0, -1.0)
        );
        assert_eq!(
            lookup2(&G1, &G2, &z, Beyond::Clamp, 9.0, 9.0),
            plane(3.0, 2.0)
        );
        let edge = lookup2(&G1, &G2, &z, Beyond::Clamp, 2.0, 9.0);
        assert!((edge - plane(2.0, 2.0)).abs() < 1e-12);
        // Extrapolate: the bilinear form continues (exact for this surface).
        for (x, y) in [(-1.0, -5.0), (9.0, 9.0), (4.0, 0.0), (1.5, -2.0)] {
            let got = lookup2(&G1, &G2, &z, Beyond::Extrapolate, x, y);
            assert!((got - plane(x, y)).abs() < 1e-9, "{x} {y}: {got}");
        }
    }

    #[test]
    fn reach_counts_reads_exactly_and_never_changes_a_value() {
        let mut r = TableReach::new(&[&G], Beyond::Clamp);
        for k in 0..=20 {
            r.note1(-0.5 + 0.1 * k as f64);
        }
        r.note1(f64::NAN);
        // -0.5 … -0.1 below (5), 1.1 … 1.5 above (5; 1.0 is the last point, inside).
        assert_eq!((r.reads, r.outside), (22, 10));
        assert_eq!((r.axes[0].below, r.axes[0].above), (5, 5));
        assert_eq!(r.axes[0].min_seen, -0.5);
        r.clear();
        assert_eq!(r, TableReach::new(&[&G], Beyond::Clamp));
        assert!(r.warning("t", &["x"]).is_none());
    }

    #[test]
    fn merged_reaches_add_their_counts_and_join_their_ranges() {
        let (mut a, mut b) = (
            TableReach::new(&[&G], Beyond::Clamp),
            TableReach::new(&[&G], Beyond::Clamp),
        );
        a.note1(0.5);
        a.note1(2.0);
        b.note1(-3.0);
        a.merge(&b);
        assert_eq!((a.reads, a.outside), (3, 2));
        assert_eq!((a.axes[0].below, a.axes[0].above), (1, 1));
        assert_eq!((a.axes[0].min_seen, a.axes[0].max_seen), (-3.0, 2.0));
    }

    #[test]
    fn extrapolate_reports_past_one_grid_span() {
        // Grid 0 … 1: the limits are -1 and 2.
        let mut r = TableReach::new(&[&G], Beyond::Extrapolate);
        for x in [-1.0, 2.0, 1.5, -0.5] {
            r.note1(x);
        }
        assert!(r.warning("g", &["x"]).is_none());
        r.note1(2.5);
        assert_eq!(
            r.warning("g", &["x"]).unwrap().to_string(),
            "table `g` was read at x = -1 … 2.5 outside its grid 0 … 1 (1 of 5 reads); \
             it extrapolated more than one grid span beyond its grid (extrapolate)"
        );
    }

    #[test]
    fn two_d_reach_names_each_axis_past_its_grid() {
        let mut r = TableReach::new(&[&G1, &G2], Beyond::Clamp);
        r.note2(1.0, 0.0);
        r.note2(4.0, 0.5);
        r.note2(-1.0, 9.0);
        assert_eq!((r.reads, r.outside), (3, 2));
        assert_eq!(
            r.warning("loss", &["speed", "load"]).unwrap().to_string(),
            "table `loss` was read at speed = -1 … 4 outside its grid 0 … 3 and load = 0 … 9 \
             outside its grid -1 … 2 (2 of 3 reads); it held its end values (clamp)"
        );
        let mut r = TableReach::new(&[&G1, &G2], Beyond::Clamp);
        r.note2(1.0, 5.0);
        assert_eq!(
            r.warning("loss", &["speed", "load"]).unwrap().to_string(),
            "table `loss` was read at load = 5 … 5 outside its grid -1 … 2 (1 of 1 reads); \
             it held its end values (clamp)"
        );
    }

    /// The slopes are those of the piece read: on each segment, the central difference
    /// of the lookup (exact up to rounding, the piece being a straight line or a
    /// bilinear patch, for a step inside it), beyond the grid 0 or the outer segment's.
    #[test]
    fn slopes_are_those_of_the_piece_read() {
        let h = 1e-7;
        for b in [Beyond::Clamp, Beyond::Extrapolate] {
            for x in [-0.5, 0.05, 0.2, 0.65, 1.4] {
                let fd = (lookup1(&G, &V, b, x + h) - lookup1(&G, &V, b, x - h)) / (2.0 * h);
                let s = slope1(&G, &V, b, x);
                assert!((s - fd).abs() < 1e-6, "{b:?} at {x}: {s} vs {fd}");
            }
        }
        // At a grid point, the segment to the right; at the last point, the last one.
        assert_eq!(
            slope1(&G, &V, Beyond::Clamp, 0.1),
            (V[2] - V[1]) / (G[2] - G[1])
        );
        assert_eq!(
            slope1(&G, &V, Beyond::Clamp, 1.0),
            (V[3] - V[2]) / (G[3] - G[2])
        );
        assert_eq!(slope1(&G, &V, Beyond::Clamp, 2.0), 0.0);
        assert!(slope1(&G, &V, Beyond::Clamp, f64::NAN).is_nan());
        let (g1, g2) = ([0.0, 1.0, 3.0], [0.0, 2.0]);
        let z = [0.0, 2.0, 10.0, 30.0, -4.0, 1.0];
        for b in [Beyond::Clamp, Beyond::Extrapolate] {
            for (x, y) in [(0.5, 1.0), (2.0, 0.3), (1.7, 1.9), (4.0, 1.0), (0.2, -1.0)] {
                let f = |x, y| lookup2(&g1, &g2, &z, b, x, y);
                let fx = (f(x + h, y) - f(x - h, y)) / (2.0 * h);
                let fy = (f(x, y + h) - f(x, y - h)) / (2.0 * h);
                let (sx, sy) = slope2(&g1, &g2, &z, b, x, y);
                assert!(
                    (sx - fx).abs() < 1e-5,
                    "{b:?} ∂x at ({x}, {y}): {sx} vs {fx}"
                );
                assert!(
                    (sy - fy).abs() < 1e-5,
                    "{b:?} ∂y at ({x}, {y}): {sy} vs {fy}"
                );
                assert_eq!(slope2_x(&g1, &g2, &z, b, x, y), sx);
                assert_eq!(slope2_y(&g1, &g2, &z, b, x, y), sy);
            }
        }
    }
}
