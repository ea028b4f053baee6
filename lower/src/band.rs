//! The banded form of an implicit method's iteration matrix, chosen by its Jacobian's pattern: a reverse Cuthill–McKee order of the states that narrows the band, its bandwidths, and the rule that picks band over dense storage.
//!
//! The iteration matrix `W = I/(γh) − J` has the pattern of `J` and the diagonal. Its
//! rows and columns are permuted alike (one order of the states): row `r` of the
//! permuted matrix is state `order[r]`. The bandwidths of an order are `kl = max(r − c)`
//! and `ku = max(c − r)` over the pattern's entries `(order[r], order[c])`. Two orders
//! are tried, the states' own and the reverse Cuthill–McKee order of the pattern's
//! symmetrised graph ([`rcm`]); the one with the fewer band cells `n·(2·kl + ku + 1)`
//! is kept, the states' own at a tie. **The band is used when `n ≥ 8` and its cells are
//! at most half the dense `n²`** (`2·(2·kl + ku + 1) ≤ n`); otherwise the matrix stays
//! dense, in the states' order. Everything is a function of the pattern and the
//! states' indices, so the choice is the same on every run and every back end.
//!
//! **Above 11 states the sparse form is tried first** (`super::sparse`): the cells of
//! the LU factors' pattern in the order, of minimum degree or reverse Cuthill–McKee,
//! that fills the fewer (minimum degree at a tie). It is used when its cells are at
//! most half the dense `n²` and no more than the band's (when a band qualifies): it
//! holds no cell the band would not, and its elimination touches only its own cells.

use super::rewrite::Storage;

/// The least number of unknowns held as a band.
pub(super) const BAND_FROM: usize = 8;

/// How the iteration matrix of `n` unknowns is held, and the order of its rows and
/// columns (`order[r]` the state of row `r`; `0 … n−1` when dense).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    /// The storage.
    pub storage: Storage,
    /// The state of each row (and column) of the matrix.
    pub order: Vec<usize>,
}

/// The layout of the iteration matrix of `n` states whose Jacobian has entries
/// `(row, column)` at `pattern` (indices below `n`; the diagonal is added), by the
/// rule of the module documentation.
pub(super) fn layout(n: usize, pattern: impl IntoIterator<Item = (usize, usize)>) -> Layout {
    let pattern: Vec<(usize, usize)> = pattern
        .into_iter()
        .filter(|&(i, j)| i < n && j < n)
        .collect();
    let dense = Layout {
        storage: dense(n, &pattern),
        order: (0..n).collect(),
    };
    if n < BAND_FROM {
        return dense;
    }
    let adj = adjacency(n, &pattern);
    let cells = |order: &[usize]| {
        let (kl, ku) = widths(order, &pattern);
        (n * (2 * kl + ku + 1), kl, ku)
    };
    let own: Vec<usize> = (0..n).collect();
    let reordered = rcm(&adj);
    let sparse = (n > PATTERN_UP_TO).then(|| sparse(n, &pattern));
    let (order, (len, kl, ku)) = [own, reordered]
        .into_iter()
        .map(|o| {
            let c = cells(&o);
            (o, c)
        })
        .min_by_key(|(_, (len, _, _))| *len)
        .expect("two orders");
    let band = (2 * len <= n * n).then_some(len);
    if let Some((order, lu)) = sparse
        && 2 * lu.cols.len() <= n * n
        && band.is_none_or(|len| lu.cols.len() <= len)
    {
        return Layout {
            storage: Storage::Sparse {
                lu: std::sync::Arc::new(lu),
                complex: false,
            },
            order,
        };
    }
    if band.is_none() {
        return dense;
    }
    Layout {
        storage: Storage::Band { kl, ku },
        order,
    }
}

/// The sparse layout of `n` unknowns whose Jacobian has entries at `pattern`, whatever
/// its cells: the order of minimum degree or reverse Cuthill–McKee that fills the
/// fewer (minimum degree at a tie) and its symbolic LU (`super::sparse`).
pub(super) fn sparse(n: usize, pattern: &[(usize, usize)]) -> (Vec<usize>, sit_lir::SparseLu) {
    let pattern: Vec<(usize, usize)> = pattern
        .iter()
        .copied()
        .filter(|&(i, j)| i < n && j < n)
        .collect();
    let adj = adjacency(n, &pattern);
    [super::sparse::minimum_degree(&adj), rcm(&adj)]
        .into_iter()
        .map(|o| {
            let lu = super::sparse::symbolic(n, &o, &pattern);
            (o, lu)
        })
        .min_by_key(|(_, lu)| lu.cols.len())
        .expect("two orders")
}

/// The symmetric adjacency of `pattern` (neighbours sorted, no loops).
fn adjacency(n: usize, pattern: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(i, j) in pattern {
        if i != j {
            adj[i].push(j);
            adj[j].push(i);
        }
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    adj
}

/// The largest order whose pattern fits a mask of 128 bits.
pub(super) const PATTERN_UP_TO: usize = 11;

/// The dense storage of `n` unknowns with the Jacobian's entries at `pattern`:
/// [`Storage::Pattern`] with the symbolic LU of the pattern and the diagonal (cell
/// `(i, j)` joins when `(i, k)` and `(k, j)` are in it for some `k < min(i, j)`, in
/// the order of elimination) when `n ≤ 11` and some cell stays out, else
/// [`Storage::Dense`].
fn dense(n: usize, pattern: &[(usize, usize)]) -> Storage {
    if n > PATTERN_UP_TO {
        return Storage::Dense;
    }
    let bit = |i: usize, j: usize| 1u128 << (i * n + j);
    let mut mask = (0..n).fold(0u128, |m, i| m | bit(i, i));
    for &(i, j) in pattern {
        mask |= bit(i, j);
    }
    for k in 0..n {
        for i in k + 1..n {
            if mask & bit(i, k) == 0 {
                continue;
            }
            for j in k + 1..n {
                if mask & bit(k, j) != 0 {
                    mask |= bit(i, j);
                }
            }
        }
    }
    if mask.count_ones() as usize == n * n {
        Storage::Dense
    } else {
        Storage::Pattern { mask }
    }
}

/// The bandwidths `(kl, ku)` of the pattern with rows and columns in `order`.
pub(super) fn widths(order: &[usize], pattern: &[(usize, usize)]) -> (usize, usize) {
    let mut pos = vec![0; order.len()];
    for (r, &s) in order.iter().enumerate() {
        pos[s] = r;
    }
    pattern.iter().fold((0, 0), |(kl, ku), &(i, j)| {
        let (r, c) = (pos[i], pos[j]);
        (kl.max(r.saturating_sub(c)), ku.max(c.saturating_sub(r)))
    })
}

/// The reverse Cuthill–McKee order of the graph `adj` (neighbours sorted, no loops):
/// each connected component in turn, from the unplaced node of least degree (the
/// first at a tie) moved to a pseudo-peripheral node ([`peripheral`]), breadth first,
/// each node's unplaced neighbours appended by increasing degree (then index); the
/// whole order reversed.
pub(super) fn rcm(adj: &[Vec<usize>]) -> Vec<usize> {
    let n = adj.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let first = (0..n)
            .filter(|&v| !placed[v])
            .min_by_key(|&v| (adj[v].len(), v))
            .expect("a node is left");
        let start = peripheral(adj, first);
        placed[start] = true;
        let mut head = order.len();
        order.push(start);
        while head < order.len() {
            let v = order[head];
            head += 1;
            let mut next: Vec<usize> = adj[v].iter().copied().filter(|&u| !placed[u]).collect();
            next.sort_by_key(|&u| (adj[u].len(), u));
            for u in next {
                placed[u] = true;
                order.push(u);
            }
        }
    }
    order.reverse();
    order
}

/// A pseudo-peripheral node of `first`'s component (George and Liu): from `first`,
/// the farthest level's node of least degree (the first at a tie) while its
/// eccentricity grows.
fn peripheral(adj: &[Vec<usize>], first: usize) -> usize {
    let (mut root, mut far) = (first, levels(adj, first));
    loop {
        let ecc = far.iter().filter_map(|&d| d).max().unwrap_or(0);
        let cand = (0..adj.len())
            .filter(|&v| far[v] == Some(ecc))
            .min_by_key(|&v| (adj[v].len(), v))
            .expect("the root is at some level");
        let next = levels(adj, cand);
        if next.iter().filter_map(|&d| d).max().unwrap_or(0) <= ecc {
            return root;
        }
        (root, far) = (cand, next);
    }
}

/// The breadth-first distance of each node from `root` (`None`: another component).
fn levels(adj: &[Vec<usize>], root: usize) -> Vec<Option<usize>> {
    let mut d = vec![None; adj.len()];
    d[root] = Some(0);
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        let dv = d[v].map(|x| x + 1);
        for &u in &adj[v] {
            if d[u].is_none() {
                d[u] = dv;
                queue.push_back(u);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of a chain of `n` (each state reading its neighbours).
    fn chain(n: usize) -> Vec<(usize, usize)> {
        (0..n)
            .flat_map(|i| [(i, i.saturating_sub(1)), (i, i), (i, (i + 1).min(n - 1))])
            .collect()
    }

    /// The cells of a sparse layout, or a panic naming the storage.
    fn sparse(l: &Layout) -> &sit_lir::SparseLu {
        match &l.storage {
            Storage::Sparse { lu, complex: false } => lu,
            other => panic!("not sparse: {other:?}"),
        }
    }

    /// Above 11 states a chain in order is held sparse with no fill-in (3n − 2 cells,
    /// fewer than the band's 4n) in an order of its own; at 8 to 11 it is a band.
    #[test]
    fn a_chain_is_sparse_without_fill_or_a_band_when_small() {
        let l = layout(40, chain(40));
        assert_eq!(sparse(&l).cols.len(), 3 * 40 - 2);
        let mut sorted = l.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..40).collect::<Vec<_>>());
        assert_eq!(
            layout(11, chain(11)).storage,
            Storage::Band { kl: 1, ku: 1 }
        );
    }

    /// A chain whose states are declared shuffled (state `s` at chain position
    /// `p(s)`): the reordering finds a pattern without fill-in again.
    #[test]
    fn a_shuffled_chain_is_reordered_without_fill() {
        let n = 30;
        let at = |p: usize| (p * 7) % n; // the state at chain position p (7 and 30 coprime)
        let pattern: Vec<(usize, usize)> =
            chain(n).into_iter().map(|(a, b)| (at(a), at(b))).collect();
        let own = widths(&(0..n).collect::<Vec<_>>(), &pattern);
        assert!(own.0 > 10, "shuffled: {own:?}");
        let l = layout(n, pattern.clone());
        assert_eq!(sparse(&l).cols.len(), 3 * n - 2);
        // Reproducible, and an ordering of all the states.
        assert_eq!(layout(n, pattern).order, l.order);
        let mut sorted = l.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    }

    /// A 2-D grid of 10 × 10 (5-point pattern) shuffled: sparse, with fewer cells than
    /// the RCM band of about the side's width; two components (two chains) are each
    /// ordered without fill.
    #[test]
    fn grids_and_components() {
        let side = 10;
        let n = side * side;
        let mut p = Vec::new();
        for x in 0..side {
            for y in 0..side {
                let i = x * side + y;
                p.push((i, i));
                if x + 1 < side {
                    p.push((i, i + side));
                    p.push((i + side, i));
                }
                if y + 1 < side {
                    p.push((i, i + 1));
                    p.push((i + 1, i));
                }
            }
        }
        let shuffle = |i: usize| (i * 13) % n;
        let p: Vec<_> = p
            .into_iter()
            .map(|(a, b)| (shuffle(a), shuffle(b)))
            .collect();
        let l = layout(n, p.clone());
        let (kl, ku) = widths(&rcm(&adjacency(n, &p)), &p);
        assert!(kl <= side + 1 && ku <= side + 1, "{kl} {ku}");
        let cells = sparse(&l).cols.len();
        assert!(
            cells < n * (2 * kl + ku + 1) / 2,
            "{cells} against a band of {kl}, {ku}"
        );
        let mut two = chain(10);
        two.extend(chain(10).into_iter().map(|(a, b)| (a + 10, b + 10)));
        let two: Vec<_> = two
            .into_iter()
            .map(|(a, b)| ((a * 3) % 20, (b * 3) % 20))
            .collect();
        assert_eq!(sparse(&layout(20, two)).cols.len(), 2 * (3 * 10 - 2));
    }

    /// Dense below 8 states, and for a pattern whose band is not at most half of n²;
    /// up to 11 states with the pattern of its LU when that leaves cells out.
    #[test]
    fn small_or_wide_stays_dense() {
        let l = layout(7, chain(7));
        // The tridiagonal pattern has no fill-in: 7 + 2·6 cells.
        let Storage::Pattern { mask } = l.storage else {
            panic!("{:?}", l.storage)
        };
        assert_eq!(mask.count_ones(), 19);
        assert_eq!(l.order, (0..7).collect::<Vec<_>>());
        let full: Vec<_> = (0..10).flat_map(|i| (0..10).map(move |j| (i, j))).collect();
        assert_eq!(layout(10, full).storage, Storage::Dense);
        // kl = ku = 1 at n = 8: 8·4 = 32 ≤ 64/2, the smallest band.
        assert_eq!(layout(8, chain(8)).storage, Storage::Band { kl: 1, ku: 1 });
        // A ring of 12 (a chain closed by 0–11): its best band has kl = ku = 2,
        // 12·(4 + 2 + 1) = 84 > 144/2, but its sparse LU is small; a full 12 × 12
        // is dense.
        let mut ring = chain(12);
        ring.extend([(0, 11), (11, 0)]);
        assert!(sparse(&layout(12, ring)).cols.len() < 60);
        let full: Vec<_> = (0..12).flat_map(|i| (0..12).map(move |j| (i, j))).collect();
        assert_eq!(layout(12, full).storage, Storage::Dense);
    }

    /// The symbolic LU in the order of elimination: an arrow whose first row and
    /// column are full fills the whole matrix (eliminating the first column touches
    /// every cell), the same arrow pointing to the last row and column fills nothing
    /// (5 + 2·4 cells), and the fill of one cell feeds the next column's: (2, 0) and
    /// (0, 1) fill (2, 1), which with (1, 3) fills (2, 3).
    #[test]
    fn the_pattern_is_closed_under_elimination() {
        let arrow = |hub: usize| {
            (0..5)
                .flat_map(move |j| [(hub, j), (j, hub)])
                .collect::<Vec<_>>()
        };
        assert_eq!(layout(5, arrow(0)).storage, Storage::Dense);
        let Storage::Pattern { mask } = layout(5, arrow(4)).storage else {
            panic!("no fill-in: a pattern")
        };
        assert_eq!(mask.count_ones(), 13);
        let Storage::Pattern { mask } = layout(4, [(2, 0), (0, 1), (1, 3)]).storage else {
            panic!("a pattern")
        };
        let holds = |i: usize, j: usize| mask >> (i * 4 + j) & 1 == 1;
        assert!(holds(2, 1) && holds(2, 3), "fill-in");
        assert!(
            !holds(3, 2) && !holds(0, 3) && !holds(1, 0),
            "no fill there"
        );
        assert_eq!(mask.count_ones(), 4 + 3 + 2);
    }
}
