//! The sparse form of an iteration matrix: a minimum-degree order of its unknowns for little fill-in and the symbolic LU factorisation on the pattern in that order, computed once when the model is lowered.
//!
//! **Order.** Minimum degree on the symmetrised pattern (`J`'s and its transpose's,
//! the diagonal left out), with the graph of the elimination kept explicitly: the
//! unknown of least degree in the remaining graph is eliminated next (the least index
//! at a tie), its neighbours joined into a clique. This is the ordering that AMD
//! approximates (AMD's quotient graph and approximate degrees only make it cheaper on
//! large graphs); its cost grows with the fill-in it creates, not with `n²`.
//!
//! **Symbolic factorisation.** Row by row in the chosen order, row `i`'s cells are its
//! entries of `W` and, for each cell `(i, k)` left of the diagonal in increasing `k`
//! (those added included), the cells `(i, j)` for the cells `(k, j)`, `j > k`, of row
//! `k`: the pattern of `L + U` without row swaps, closed under elimination, which
//! `sit_runtime::linear::sparse_factor_real` refactorises numerically at every step.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use sit_lir::SparseLu;

/// The minimum-degree order of the graph `adj` (neighbours sorted, no loops): the
/// unknowns in the order of their elimination.
pub(super) fn minimum_degree(adj: &[Vec<usize>]) -> Vec<usize> {
    let n = adj.len();
    let mut graph: Vec<Vec<usize>> = adj.to_vec();
    let mut gone = vec![false; n];
    let mut heap: BinaryHeap<Reverse<(usize, usize)>> =
        (0..n).map(|v| Reverse((graph[v].len(), v))).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse((deg, v))) = heap.pop() {
        if gone[v] || deg != graph[v].len() {
            continue;
        }
        gone[v] = true;
        order.push(v);
        let clique = std::mem::take(&mut graph[v]);
        for &u in &clique {
            let merged = merge(&graph[u], &clique, u, v);
            graph[u] = merged;
            heap.push(Reverse((graph[u].len(), u)));
        }
    }
    order
}

/// The sorted union of `a` and `b` without `u` and `v`.
fn merge(a: &[usize], b: &[usize], u: usize, v: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => break,
        };
        if next != u && next != v {
            out.push(next);
        }
    }
    out
}

/// The symbolic LU factorisation of the `n × n` pattern `pattern` (entries `(row,
/// column)` of `J`; the diagonal is added) with rows and columns in `order` (`order[r]`
/// the unknown of row `r`): the cells of `L + U` in that order (see the module
/// documentation).
pub(super) fn symbolic(n: usize, order: &[usize], pattern: &[(usize, usize)]) -> SparseLu {
    let mut pos = vec![0; n];
    for (r, &s) in order.iter().enumerate() {
        pos[s] = r;
    }
    let mut rows_in: Vec<Vec<usize>> = (0..n).map(|r| vec![r]).collect();
    for &(i, j) in pattern {
        rows_in[pos[i]].push(pos[j]);
    }
    // The cells right of the diagonal of each finished row.
    let mut upper: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut mark = vec![usize::MAX; n];
    let (mut rows, mut cols, mut diag) = (vec![0u32], Vec::new(), Vec::new());
    for (i, entries) in rows_in.iter().enumerate() {
        let mut row = Vec::new();
        let mut left = BinaryHeap::new();
        for &j in entries {
            if mark[j] != i {
                mark[j] = i;
                row.push(j);
                if j < i {
                    left.push(Reverse(j));
                }
            }
        }
        while let Some(Reverse(k)) = left.pop() {
            for &j in &upper[k] {
                if mark[j] != i {
                    mark[j] = i;
                    row.push(j);
                    if j < i {
                        left.push(Reverse(j));
                    }
                }
            }
        }
        row.sort_unstable();
        for &j in &row {
            if j == i {
                diag.push(cols.len() as u32);
            }
            cols.push(j as u32);
        }
        rows.push(cols.len() as u32);
        upper.push(row.into_iter().filter(|&j| j > i).collect());
    }
    SparseLu { rows, cols, diag }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The symmetric adjacency of a pattern.
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

    /// The pattern closed under elimination by the dense rule (cell `(i, j)` joins when
    /// `(i, k)` and `(k, j)` are in it, `k < min(i, j)`), in the order given.
    fn dense_closure(n: usize, order: &[usize], pattern: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut pos = vec![0; n];
        for (r, &s) in order.iter().enumerate() {
            pos[s] = r;
        }
        let mut m = vec![false; n * n];
        for i in 0..n {
            m[i * n + i] = true;
        }
        for &(i, j) in pattern {
            m[pos[i] * n + pos[j]] = true;
        }
        for k in 0..n {
            for i in k + 1..n {
                for j in k + 1..n {
                    if m[i * n + k] && m[k * n + j] {
                        m[i * n + j] = true;
                    }
                }
            }
        }
        (0..n * n)
            .filter(|&c| m[c])
            .map(|c| (c / n, c % n))
            .collect()
    }

    /// The symbolic factorisation is the dense closure, on random unsymmetric patterns
    /// in their own order and in the minimum-degree order.
    #[test]
    fn the_symbolic_lu_is_the_closure_under_elimination() {
        let mut seed = 0x9e37_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [1, 2, 5, 12, 30] {
            let pattern: Vec<(usize, usize)> = (0..3 * n)
                .map(|_| ((next() % n as u64) as usize, (next() % n as u64) as usize))
                .collect();
            let own: Vec<usize> = (0..n).collect();
            let md = minimum_degree(&adjacency(n, &pattern));
            let mut sorted = md.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, own, "an order of every unknown");
            for order in [own, md] {
                let lu = symbolic(n, &order, &pattern);
                let cells: Vec<(usize, usize)> = lu.cells().collect();
                assert_eq!(cells, dense_closure(n, &order, &pattern), "n = {n}");
                assert!(
                    lu.view()
                        .diag
                        .iter()
                        .enumerate()
                        .all(|(i, &d)| lu.cols[d as usize] as usize == i)
                );
            }
        }
    }

    /// An arrow whose hub is the first unknown fills the whole matrix in its own order;
    /// minimum degree eliminates the leaves first and the hub with the last, with no
    /// fill-in. On a 2-D grid of 12 × 12 it fills less than the reverse Cuthill–McKee
    /// band's profile.
    #[test]
    fn minimum_degree_avoids_fill() {
        let n = 10;
        let arrow: Vec<(usize, usize)> = (1..n).flat_map(|j| [(0, j), (j, 0)]).collect();
        let own: Vec<usize> = (0..n).collect();
        assert_eq!(symbolic(n, &own, &arrow).cols.len(), n * n);
        let md = minimum_degree(&adjacency(n, &arrow));
        // The hub goes when one leaf is left (its degree then 1, the least index).
        assert_eq!(md[n - 2], 0);
        assert_eq!(symbolic(n, &md, &arrow).cols.len(), n + 2 * (n - 1));
        let side = 12;
        let n = side * side;
        let mut grid = Vec::new();
        for x in 0..side {
            for y in 0..side {
                let i = x * side + y;
                if x + 1 < side {
                    grid.extend([(i, i + side), (i + side, i)]);
                }
                if y + 1 < side {
                    grid.extend([(i, i + 1), (i + 1, i)]);
                }
            }
        }
        let adj = adjacency(n, &grid);
        let md = symbolic(n, &minimum_degree(&adj), &grid).cols.len();
        let rcm = symbolic(n, &super::super::band::rcm(&adj), &grid)
            .cols
            .len();
        assert!(md < rcm, "minimum degree {md} against RCM {rcm}");
    }

    /// The 5-point pattern of a `side × side` grid (rows of `x`).
    fn grid(side: usize) -> Vec<(usize, usize)> {
        let mut p = Vec::new();
        for x in 0..side {
            for y in 0..side {
                let i = x * side + y;
                if x + 1 < side {
                    p.extend([(i, i + side), (i + side, i)]);
                }
                if y + 1 < side {
                    p.extend([(i, i + 1), (i + 1, i)]);
                }
            }
        }
        p
    }

    /// The measurement of docs/performance.md §26 (`cargo test -p sit-lower --release
    /// --lib fill_of_grids -- --ignored --nocapture`): the cells of the LU factors of
    /// 2-D grids in the minimum-degree order against the reverse Cuthill–McKee order
    /// (its profile, and the band's `n·(2·kl + ku + 1)` cells), and the time of the
    /// ordering and the symbolic factorisation.
    #[test]
    #[ignore = "a measurement"]
    fn fill_of_grids() {
        for side in [10, 30, 100] {
            let n = side * side;
            let p = grid(side);
            let adj = adjacency(n, &p);
            let start = std::time::Instant::now();
            let md_order = minimum_degree(&adj);
            let md = symbolic(n, &md_order, &p).cols.len();
            let took = start.elapsed();
            let rcm = super::super::band::rcm(&adj);
            let profile = symbolic(n, &rcm, &p).cols.len();
            let (kl, ku) = super::super::band::widths(&rcm, &p);
            eprintln!(
                "{side} × {side}: minimum degree {md} cells ({took:?}), RCM profile {profile}, \
                 RCM band {} cells",
                n * (2 * kl + ku + 1)
            );
            assert!(md < profile);
        }
    }
}
