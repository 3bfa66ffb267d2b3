//! The fast exact algorithm: the same dynamic programme as [`crate::solve_naive`], with each
//! node's cost function kept as its bends on the candidate grid (see the crate docs).

use crate::tree::{candidate_grid, check_problem, checked_objective};
use crate::{Problem, SmoothError, Solution};

/// For parent values (grid indices) `lo..=hi`, the node opens a segment at grid index
/// `target`; for parent values outside every clip it stays in the parent's segment.
#[derive(Debug, Clone, Copy)]
struct Clip {
    lo: u32,
    hi: u32,
    target: u32,
}

/// A child's `E` on the stack: its slope changes are `entries[start..]` up to the next
/// frame's start; `f0` is its value at the first grid point and `s0` its first slope.
#[derive(Debug, Clone, Copy)]
struct Frame {
    start: usize,
    f0: f64,
    s0: f64,
}

/// Solves a [`Problem`] exactly (the crate docs give the algorithm and its cost).
pub fn solve(problem: &Problem<'_>) -> Result<Solution, SmoothError> {
    check_problem(problem)?;
    let n = problem.parent.len();
    if n == 0 {
        return Ok(Solution {
            value: Vec::new(),
            cost: 0.0,
        });
    }
    let (grid, grid_index) = candidate_grid(problem);
    if grid.is_empty() {
        return Err(SmoothError::NothingObserved);
    }
    if grid.len() == 1 {
        let value = vec![grid[0] as f32; n];
        let cost = checked_objective(problem, &value)?;
        return Ok(Solution { value, cost });
    }

    let mut degree = vec![0u32; n];
    for &p in &problem.parent[1..] {
        degree[p as usize] += 1;
    }
    let mut sweep = Sweep {
        grid: &grid,
        entries: Vec::new(),
        frames: Vec::new(),
        bends: Vec::new(),
        clipped: Vec::new(),
        clips: Vec::new(),
    };
    let mut clip_range = vec![(0usize, 0usize); n];
    let mut root_target = 0u32;

    // Children before parents: reverse pre-order. Each finished subtree leaves one frame.
    for i in (0..n).rev() {
        let deg = degree[i] as usize;
        let first = sweep.frames.len().saturating_sub(deg);
        debug_assert_eq!(sweep.frames.len() - first, deg, "pre-order checked");
        let start = sweep
            .frames
            .get(first)
            .map_or(sweep.entries.len(), |f| f.start);
        let (mut f0, mut s0) = sweep.frames[first..]
            .iter()
            .fold((0.0, 0.0), |(f, s), fr| (f + fr.f0, s + fr.s0));
        sweep.frames.truncate(first);
        let m = problem.multiplicity[i];
        if m > 0 {
            // m·|x − v|: value m·(x − v_0) at the first grid point, slope −m, then +m past x.
            let m = f64::from(m);
            f0 += m * (f64::from(problem.score[i]) - grid[0]);
            s0 -= m;
            sweep.entries.push((grid_index[i], 2.0 * m));
        }
        let region = &mut sweep.entries[start..];
        if deg >= 2 {
            // Sorted runs, one per child (and the own bend): a stable sort merges them.
            region.sort_by_key(|e| e.0);
        } else if let Some((&own, child)) = region.split_last().filter(|_| m > 0) {
            // One child's sorted list and the own bend after it: insert, don't sort.
            let at = child.partition_point(|e| e.0 <= own.0);
            region[at..].rotate_right(1);
        }
        sweep.bends_of_sum(start, f0, s0);
        sweep.entries.truncate(start);
        if i == 0 {
            root_target = sweep.argmin();
        } else {
            let begin = sweep.clips.len();
            sweep.clip(problem.penalty[i]);
            clip_range[i] = (begin, sweep.clips.len());
            sweep.push_frame(start);
        }
    }

    // IsotoneSmooth: the root's best value, then each node's choice given its parent's.
    let mut pick = vec![0u32; n];
    pick[0] = root_target;
    for i in 1..n {
        let p = pick[problem.parent[i] as usize];
        let (begin, end) = clip_range[i];
        let clips = &sweep.clips[begin..end];
        let at = clips.partition_point(|c| c.hi < p);
        pick[i] = match clips.get(at) {
            Some(c) if c.lo <= p => c.target,
            _ => p,
        };
    }
    let value: Vec<f32> = pick.iter().map(|&t| grid[t as usize] as f32).collect();
    let cost = checked_objective(problem, &value)?;
    Ok(Solution { value, cost })
}

/// Work buffers shared by all nodes (no allocation per node).
struct Sweep<'g> {
    /// Candidate values, increasing.
    grid: &'g [f64],
    /// Stack of slope changes `(grid index, Δslope)` of the pending children's `E`.
    entries: Vec<(u32, f64)>,
    frames: Vec<Frame>,
    /// The current function as bends `(grid index, value)`, first at 0, last at `K − 1`.
    bends: Vec<(u32, f64)>,
    /// `E` as bends, built right to left.
    clipped: Vec<(u32, f64)>,
    clips: Vec<Clip>,
}

impl Sweep<'_> {
    /// `S` from its value and slope at the first grid point and its sorted slope changes.
    fn bends_of_sum(&mut self, start: usize, f0: f64, s0: f64) {
        let grid = self.grid;
        let last = grid.len() - 1;
        self.bends.clear();
        self.bends.push((0, f0));
        let (mut at, mut value, mut slope) = (0usize, f0, s0);
        let changes = &self.entries[start..];
        let mut r = 0;
        while r < changes.len() {
            let t = changes[r].0 as usize;
            let mut ds = 0.0;
            while r < changes.len() && changes[r].0 as usize == t {
                ds += changes[r].1;
                r += 1;
            }
            if t == 0 {
                slope += ds;
                continue;
            }
            if t >= last {
                break;
            }
            if ds == 0.0 {
                continue;
            }
            value += slope * (grid[t] - grid[at]);
            at = t;
            self.bends.push((t as u32, value));
            slope += ds;
        }
        value += slope * (grid[last] - grid[at]);
        self.bends.push((last as u32, value));
    }

    /// The grid index where `S` is smallest (a bend: `S` is linear between bends).
    fn argmin(&self) -> u32 {
        let mut best = (f64::INFINITY, 0u32);
        for &(t, v) in &self.bends {
            if v < best.0 {
                best = (v, t);
            }
        }
        best.1
    }

    /// `E(p) = min(S(p), γ + min_{u > p} S(u))` from `S` in `bends`, into `clipped`
    /// (reversed), recording where the node opens a segment into `clips` (increasing).
    fn clip(&mut self, gamma: f64) {
        let grid = self.grid;
        let bends = &self.bends;
        let out = &mut self.clipped;
        out.clear();
        let push = |out: &mut Vec<(u32, f64)>, t: usize, v: f64| {
            if out.last().is_none_or(|&(u, _)| u as usize != t) {
                out.push((t as u32, v));
            }
        };
        let begin = self.clips.len();
        let Some(&(last, s_last)) = bends.last() else {
            return;
        };
        out.push((last, s_last));
        // min and argmin of S over grid points ≥ the current bend b.
        let (mut min_right, mut arg_right) = (s_last, last);
        let mut b_clipped = false;
        for j in (0..bends.len() - 1).rev() {
            let (a, sa) = (bends[j].0 as usize, bends[j].1);
            let (b, sb) = (bends[j + 1].0 as usize, bends[j + 1].1);
            let level = gamma + min_right;
            let a_clipped = sa > level;
            // The clipped run of interior grid points of this piece, if any.
            let mut run: Option<(usize, usize)> = None;
            // Most pieces lie below the level with `b` unclipped: `E = S` on them, no bend.
            if b > a + 1 && !(sa <= level && sb <= level && !b_clipped) {
                let slope = (sb - sa) / (grid[b] - grid[a]);
                let s_at = |u: usize| sa + slope * (grid[u] - grid[a]);
                let (first, last) = (a + 1, b - 1);
                match (s_at(first) > level, s_at(last) > level) {
                    (false, false) => {
                        if b_clipped {
                            push(out, last, s_at(last));
                        }
                        if a_clipped {
                            push(out, first, s_at(first));
                        }
                    }
                    (true, true) => {
                        if !b_clipped {
                            push(out, last, level);
                        }
                        if !a_clipped {
                            push(out, first, level);
                        }
                        run = Some((first, last));
                    }
                    (false, true) => {
                        // Increasing: the first clipped point `c`, in (first, last].
                        let c =
                            first + 1 + partition(last - first, |d| s_at(first + 1 + d) > level);
                        if !b_clipped {
                            push(out, last, level);
                        }
                        push(out, c, level);
                        push(out, c - 1, s_at(c - 1));
                        run = Some((c, last));
                    }
                    (true, false) => {
                        // Decreasing: the last clipped point `c`, in [first, last).
                        let c = first + partition(last - first, |d| s_at(first + 1 + d) <= level);
                        if b_clipped {
                            push(out, last, s_at(last));
                        }
                        push(out, c + 1, s_at(c + 1));
                        push(out, c, level);
                        run = Some((first, c));
                    }
                }
            }
            push(out, a, if a_clipped { level } else { sa });
            let range = match (run, a_clipped) {
                (Some((_, hi)), true) => Some((a, hi)),
                (Some(r), false) => Some(r),
                (None, true) => Some((a, a)),
                (None, false) => None,
            };
            if let Some((lo, hi)) = range {
                let target = arg_right;
                let mine = self.clips.len() > begin;
                match self.clips.last_mut() {
                    Some(prev) if mine && prev.target == target && prev.lo as usize == hi + 1 => {
                        prev.lo = lo as u32;
                    }
                    _ => self.clips.push(Clip {
                        lo: lo as u32,
                        hi: hi as u32,
                        target,
                    }),
                }
            }
            if sa < min_right {
                (min_right, arg_right) = (sa, a as u32);
            }
            b_clipped = a_clipped;
        }
        self.clips[begin..].reverse();
        out.reverse();
    }

    /// Pushes `E` (in `clipped`) as a frame of slope changes starting at `entries[start]`.
    fn push_frame(&mut self, start: usize) {
        let grid = self.grid;
        let e = &self.clipped;
        debug_assert!(e.len() >= 2 && e[0].0 == 0);
        let slope = |w: &[(u32, f64)]| {
            let ((t0, v0), (t1, v1)) = (w[0], w[1]);
            (v1 - v0) / (grid[t1 as usize] - grid[t0 as usize])
        };
        let mut pieces = e.windows(2);
        let s0 = pieces.next().map_or(0.0, slope);
        let mut prev = s0;
        for w in pieces {
            let s = slope(w);
            self.entries.push((w[0].0, s - prev));
            prev = s;
        }
        let f0 = e.first().map_or(0.0, |b| b.1);
        self.frames.push(Frame { start, f0, s0 });
    }
}

/// The number of `d` in `0..len` for which `pred(d)` is false, `pred` being monotone
/// (false then true): a binary search.
fn partition(len: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Value at every grid point of a function given by bends (linear in the value between).
    fn dense_of(grid: &[f64], bends: &[(u32, f64)]) -> Vec<f64> {
        let mut out = Vec::new();
        for w in bends.windows(2) {
            let ((a, fa), (b, fb)) = (w[0], w[1]);
            let (a, b) = (a as usize, b as usize);
            for u in a..b {
                out.push(fa + (fb - fa) * (grid[u] - grid[a]) / (grid[b] - grid[a]));
            }
        }
        if let Some(&(_, v)) = bends.last() {
            out.push(v);
        }
        out
    }

    fn sweep_case() -> impl Strategy<Value = (Vec<f64>, Vec<(u32, f64)>, f64)> {
        (3usize..40).prop_flat_map(|k| {
            (
                prop::collection::btree_set(0u32..100_000, k),
                prop::collection::btree_set(1..k as u32 - 1, 0..k - 2),
                prop::collection::vec(-5.0f64..5.0, k),
                prop_oneof![Just(0.0), 0.0f64..3.0, Just(f64::INFINITY)],
            )
                .prop_map(move |(grid, inner, values, gamma)| {
                    let grid: Vec<f64> = grid.into_iter().map(|g| f64::from(g) / 1e5).collect();
                    let mut at: Vec<u32> = vec![0];
                    at.extend(inner);
                    at.push(grid.len() as u32 - 1);
                    let bends = at.iter().map(|&t| (t, values[t as usize])).collect();
                    (grid, bends, gamma)
                })
        })
    }

    proptest! {
        /// `clip` against `E(u) = min(S(u), γ + min_{w > u} S(w))` at every grid point, and
        /// its clips against the same decision; then the frame round trip.
        #[test]
        fn clip_matches_the_definition_pointwise((grid, bends, gamma) in sweep_case()) {
            let mut sweep = Sweep {
                grid: &grid,
                entries: Vec::new(),
                frames: Vec::new(),
                bends: bends.clone(),
                clipped: Vec::new(),
                clips: Vec::new(),
            };
            sweep.clip(gamma);
            let s = dense_of(&grid, &bends);
            let e = dense_of(&grid, &sweep.clipped);
            prop_assert_eq!(sweep.clipped.first().map(|b| b.0), Some(0));
            prop_assert_eq!(e.len(), grid.len());
            let mut right = f64::INFINITY;
            for u in (0..grid.len()).rev() {
                let want = s[u].min(gamma + right);
                prop_assert!((e[u] - want).abs() < 1e-9, "u {} e {} want {}", u, e[u], want);
                let clip = sweep.clips.iter().find(|c| c.lo as usize <= u && u <= c.hi as usize);
                let opens = s[u] > gamma + right;
                prop_assert_eq!(clip.is_some(), opens, "u {}", u);
                if let Some(c) = clip {
                    prop_assert!(c.target as usize > u);
                    prop_assert!((s[c.target as usize] - right).abs() < 1e-9);
                }
                right = right.min(s[u]);
            }
            prop_assert!(sweep.clips.windows(2).all(|w| w[0].hi < w[1].lo));
            // Slope changes of E, summed back, give E again.
            sweep.push_frame(0);
            let frame = sweep.frames[0];
            sweep.entries.sort_by_key(|x| x.0);
            sweep.bends_of_sum(0, frame.f0, frame.s0);
            let back = dense_of(&grid, &sweep.bends);
            for u in 0..grid.len() {
                prop_assert!((back[u] - e[u]).abs() < 1e-6, "u {} {} {}", u, back[u], e[u]);
            }
        }
    }
}
