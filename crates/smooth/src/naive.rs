//! The paper's dynamic programme as printed: `BuildError` fills `err(i, j)` / `val(i, j)`
//! for every node `i` and every candidate node `j` (the parent's value being `x(j)`),
//! `IsotoneSmooth` replays them from the root. `O(n²)` time and memory; the reference.

use crate::tree::{check_problem, checked_objective};
use crate::{Problem, SmoothError, Solution};

/// Largest tree [`solve_naive`] accepts (its tables take `12·n²` bytes: 200 MB here).
pub const NAIVE_MAX_NODES: usize = 4096;

/// Solves a [`Problem`] with `BuildError` and `IsotoneSmooth` (section 4), the candidates
/// being the observed nodes (Lemma 3). See the crate docs for the one fix at the root.
pub fn solve_naive(problem: &Problem<'_>) -> Result<Solution, SmoothError> {
    check_problem(problem)?;
    let n = problem.parent.len();
    if n == 0 {
        return Ok(Solution {
            value: Vec::new(),
            cost: 0.0,
        });
    }
    if n > NAIVE_MAX_NODES {
        return Err(SmoothError::NaiveTooLarge {
            nodes: n,
            max: NAIVE_MAX_NODES,
        });
    }
    let x = |i: usize| f64::from(problem.score[i]);
    // Candidate nodes j (observed), and node → column.
    let cand: Vec<usize> = (0..n).filter(|&i| problem.multiplicity[i] > 0).collect();
    if cand.is_empty() {
        return Err(SmoothError::NothingObserved);
    }
    let k = cand.len();
    let mut column = vec![usize::MAX; n];
    for (c, &j) in cand.iter().enumerate() {
        column[j] = c;
    }
    // Columns by decreasing x: step 4's "argmin over x(k) > x(j)" is a running minimum.
    let mut by_value: Vec<usize> = (0..k).collect();
    by_value.sort_by(|&a, &b| x(cand[b]).total_cmp(&x(cand[a])));

    let mut is_leaf = vec![true; n];
    for i in 1..n {
        is_leaf[problem.parent[i] as usize] = false;
    }
    let mut err = vec![0.0f64; n * k];
    let mut val = vec![0u32; n * k];
    // Σ_children err(child, j), accumulated as children finish (children have larger ids).
    let mut child_sum = vec![0.0f64; n * k];
    let mut stay = vec![0.0f64; k];
    let mut root_best = (f64::INFINITY, 0usize);

    for i in (0..n).rev() {
        let m = f64::from(problem.multiplicity[i]);
        let gamma = problem.penalty[i];
        let row = i * k..(i + 1) * k;
        if is_leaf[i] && i != 0 {
            // Step 1.
            for c in 0..k {
                let j = cand[c];
                if m * (x(i) - x(j)) > gamma {
                    err[row.start + c] = gamma;
                    val[row.start + c] = i as u32;
                } else {
                    err[row.start + c] = m * (x(i) - x(j)).abs();
                    val[row.start + c] = j as u32;
                }
            }
        } else {
            // Step 3: err0(j) − γ, i.e. the cost of staying at x(j); err0 = stay + γ.
            for c in 0..k {
                let own = if m > 0.0 {
                    m * (x(i) - x(cand[c])).abs()
                } else {
                    0.0
                };
                stay[c] = own + child_sum[row.start + c];
            }
            if i == 0 {
                // min_k err0(k) = γ + min_k stay(k); compared without γ, which may be ∞.
                for (c, &s) in stay.iter().enumerate() {
                    if c == 0 || s < root_best.0 {
                        root_best = (s, cand[c]);
                    }
                }
            } else {
                // Step 4, walking candidates by decreasing value; `best` covers x(k) > x(j).
                let mut best = (f64::INFINITY, usize::MAX);
                let mut t = 0;
                while t < k {
                    let level = x(cand[by_value[t]]);
                    let mut end = t;
                    while end < k && x(cand[by_value[end]]) == level {
                        end += 1;
                    }
                    for &c in &by_value[t..end] {
                        let idx = row.start + c;
                        if best.1 != usize::MAX && stay[c] >= best.0 {
                            err[idx] = best.0;
                            val[idx] = best.1 as u32;
                        } else {
                            err[idx] = stay[c];
                            val[idx] = cand[c] as u32;
                        }
                    }
                    for &c in &by_value[t..end] {
                        let err0 = stay[c] + gamma;
                        if err0 < best.0 {
                            best = (err0, cand[c]);
                        }
                    }
                    t = end;
                }
            }
        }
        if i > 0 {
            let p = problem.parent[i] as usize;
            for c in 0..k {
                child_sum[p * k + c] += err[i * k + c];
            }
        }
    }

    // IsotoneSmooth: p(root) = the best value, then p(i) = val(i, p(parent(i))).
    let mut pick = vec![0usize; n];
    pick[0] = root_best.1;
    for i in 1..n {
        let p = pick[problem.parent[i] as usize];
        pick[i] = val[i * k + column[p]] as usize;
    }
    let value: Vec<f32> = pick.iter().map(|&j| problem.score[j]).collect();
    let cost = checked_objective(problem, &value)?;
    Ok(Solution { value, cost })
}
