//! Validation, hiding of small nodes (section 5.3), the objective and segments.

use crate::{Penalty, Problem, SmoothConfig, SmoothError, SmoothInput};

/// Checks that `parent` numbers a tree in depth-first pre-order: the parent of node `i` is
/// `i − 1` or one of its ancestors. One pass with the root-to-`(i − 1)` path as a stack.
pub(crate) fn check_preorder(parent: &[u32]) -> Result<(), SmoothError> {
    if parent.len() > u32::MAX as usize {
        return Err(SmoothError::TooManyNodes(parent.len()));
    }
    let mut path: Vec<u32> = Vec::new();
    for (i, &p) in parent.iter().enumerate() {
        if i == 0 {
            path.push(0);
            continue;
        }
        while path.last().is_some_and(|&top| top != p) {
            path.pop();
        }
        if path.is_empty() {
            return Err(SmoothError::NotPreorder {
                node: i,
                parent: p,
                prev: i - 1,
            });
        }
        path.push(i as u32);
    }
    Ok(())
}

fn check_len(what: &'static str, nodes: usize, got: usize) -> Result<(), SmoothError> {
    if nodes == got {
        Ok(())
    } else {
        Err(SmoothError::LengthMismatch { what, nodes, got })
    }
}

fn check_score(node: usize, score: f32) -> Result<(), SmoothError> {
    if (0.0..=1.0).contains(&score) {
        Ok(())
    } else {
        Err(SmoothError::BadScore { node, score })
    }
}

/// Validates a [`Problem`]: lengths, pre-order, scores of observed nodes, penalties.
pub(crate) fn check_problem(problem: &Problem<'_>) -> Result<(), SmoothError> {
    let n = problem.parent.len();
    check_len("score", n, problem.score.len())?;
    check_len("multiplicity", n, problem.multiplicity.len())?;
    check_len("penalty", n, problem.penalty.len())?;
    check_preorder(problem.parent)?;
    for (i, (&x, &m)) in problem.score.iter().zip(problem.multiplicity).enumerate() {
        if m > 0 {
            check_score(i, x)?;
        }
    }
    for (i, &g) in problem.penalty.iter().enumerate() {
        if g.is_nan() || g < 0.0 {
            return Err(SmoothError::BadPenalty {
                node: i,
                penalty: g,
            });
        }
    }
    Ok(())
}

/// The candidate grid: the distinct observed scores in increasing order (Lemma 3), and each
/// observed node's index in it (`u32::MAX` for unobserved nodes).
pub(crate) fn candidate_grid(problem: &Problem<'_>) -> (Vec<f64>, Vec<u32>) {
    let mut grid: Vec<f32> = problem
        .score
        .iter()
        .zip(problem.multiplicity)
        .filter(|&(_, &m)| m > 0)
        .map(|(&x, _)| x)
        .collect();
    grid.sort_unstable_by(f32::total_cmp);
    grid.dedup();
    let index = problem
        .score
        .iter()
        .zip(problem.multiplicity)
        .map(|(&x, &m)| {
            if m == 0 {
                u32::MAX
            } else {
                // Present by construction; `partition_point` cannot miss it.
                grid.partition_point(|&g| g < x) as u32
            }
        })
        .collect();
    (grid.into_iter().map(f64::from).collect(), index)
}

/// `c(y)` for a feasible `y`: the penalty of every segment root (the root and each node whose
/// value differs from its parent's) plus `Σ m(i)·|x(i) − y(i)|`. Errors when `y` breaks
/// monotonicity or the problem is malformed.
pub fn objective(problem: &Problem<'_>, value: &[f32]) -> Result<f64, SmoothError> {
    check_problem(problem)?;
    checked_objective(problem, value)
}

/// [`objective`] for a problem already validated.
pub(crate) fn checked_objective(problem: &Problem<'_>, value: &[f32]) -> Result<f64, SmoothError> {
    check_len("value", problem.parent.len(), value.len())?;
    let mut cost = 0.0;
    for (i, &y) in value.iter().enumerate() {
        let opens = if i == 0 {
            true
        } else {
            let p = problem.parent[i] as usize;
            let yp = value[p];
            if y.is_nan() || yp.is_nan() || y < yp {
                return Err(SmoothError::Infeasible {
                    node: i,
                    value: y,
                    parent_value: yp,
                });
            }
            y != yp
        };
        if opens {
            cost += problem.penalty[i];
        }
        let m = problem.multiplicity[i];
        if m > 0 {
            cost += f64::from(m) * (f64::from(problem.score[i]) - f64::from(y)).abs();
        }
    }
    Ok(cost)
}

/// Segment roots (node 0 and every node whose value differs from its parent's, in pre-order)
/// and, per node, the segment root it belongs to. `parent` must be a pre-order parent array
/// of the same length as `value` (entries out of range are treated as the root).
pub fn segments(parent: &[u32], value: &[f32]) -> (Vec<u32>, Vec<u32>) {
    let mut roots = Vec::new();
    let mut segment_of = vec![0u32; value.len()];
    for (i, &y) in value.iter().enumerate() {
        let p = if i == 0 {
            None
        } else {
            parent.get(i).map(|&p| p as usize).filter(|&p| p < i)
        };
        match p {
            Some(p) if value[p] == y => segment_of[i] = segment_of[p],
            _ => {
                roots.push(i as u32);
                segment_of[i] = i as u32;
            }
        }
    }
    (roots, segment_of)
}

/// Section 5.3's instance: the visible nodes as a [`Problem`], and the map back.
#[derive(Debug, Clone, PartialEq)]
pub struct Contracted {
    /// Parent of each visible node among the visible nodes (pre-order kept).
    pub parent: Vec<u32>,
    /// Score of each visible node.
    pub score: Vec<f32>,
    /// `1 +` the number of hidden nodes rolled into it.
    pub multiplicity: Vec<u32>,
    /// `γ = c · A / A(i)` (`+∞` when `A(i) = 0 < A`; `c` when both are 0).
    pub penalty: Vec<f64>,
    /// Contracted id → input node id.
    pub original: Vec<u32>,
    /// Input node id → contracted id of the node itself or of the visible node it is rolled
    /// into (its nearest visible ancestor).
    pub owner: Vec<u32>,
}

impl Contracted {
    /// The contracted tree as a [`Problem`] for [`crate::solve`] / [`crate::solve_naive`].
    pub fn problem(&self) -> Problem<'_> {
        Problem {
            parent: &self.parent,
            score: &self.score,
            multiplicity: &self.multiplicity,
            penalty: &self.penalty,
        }
    }
}

/// Hides the non-root nodes with `size < config.min_size` (each is rolled into its nearest
/// visible ancestor, which counts once more) and computes `γ(i) = c · A / A(i)` with
/// `A = size[0]`. Validates the input; scores of hidden nodes are not read.
pub fn contract(input: &SmoothInput<'_>, config: &SmoothConfig) -> Result<Contracted, SmoothError> {
    if !(config.c.is_finite() && config.c >= 0.0) {
        return Err(SmoothError::BadConfig("c must be finite and non-negative"));
    }
    if config.min_size.is_nan() {
        return Err(SmoothError::BadConfig("min_size must not be NaN"));
    }
    let n = input.parent.len();
    check_len("score", n, input.score.len())?;
    check_len("size", n, input.size.len())?;
    check_preorder(input.parent)?;
    for (i, &s) in input.size.iter().enumerate() {
        if !(s.is_finite() && s >= 0.0) {
            return Err(SmoothError::BadSize { node: i, size: s });
        }
    }
    let total = input.size.first().copied().unwrap_or(0.0);
    // Subtree node counts, for `Penalty::SubtreeNodeRatio` (one reverse scan).
    let subtree = if config.penalty == Penalty::SubtreeNodeRatio {
        let mut count = vec![1.0f64; n];
        for i in (1..n).rev() {
            let p = input.parent[i] as usize;
            count[p] += count[i];
        }
        count
    } else {
        Vec::new()
    };
    let mut out = Contracted {
        parent: Vec::new(),
        score: Vec::new(),
        multiplicity: Vec::new(),
        penalty: Vec::new(),
        original: Vec::new(),
        owner: Vec::with_capacity(n),
    };
    for (i, &size) in input.size.iter().enumerate() {
        if i > 0 && size < config.min_size {
            let owner = out.owner[input.parent[i] as usize];
            out.owner.push(owner);
            let m = &mut out.multiplicity[owner as usize];
            *m = m.saturating_add(1);
            continue;
        }
        let score = input.score[i];
        check_score(i, score)?;
        let id = out.parent.len() as u32;
        out.parent.push(if i == 0 {
            0
        } else {
            out.owner[input.parent[i] as usize]
        });
        out.score.push(score);
        out.multiplicity.push(1);
        let ratio = match config.penalty {
            Penalty::AreaRatio => ratio(total, size),
            Penalty::SubtreeNodeRatio => ratio(n as f64, subtree[i]),
            Penalty::ParentAreaRatio if i == 0 => 1.0,
            Penalty::ParentAreaRatio => ratio(input.size[input.parent[i] as usize], size),
        };
        out.penalty.push(config.c * ratio);
        out.original.push(i as u32);
        out.owner.push(id);
    }
    Ok(out)
}

/// `a / b`, with `x / 0 = ∞` for `x > 0` and `0 / 0 = 1`.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else if a > 0.0 {
        f64::INFINITY
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preorder_accepts_dfs_and_rejects_bfs_numbering() {
        // 0 ─ 1 ─ 2, 0 ─ 3: depth-first.
        assert!(check_preorder(&[0, 0, 1, 0]).is_ok());
        // 0 ─ 1, 0 ─ 2, 1 ─ 3: breadth-first, parent 1 is not on the path to node 2.
        assert_eq!(
            check_preorder(&[0, 0, 0, 1]),
            Err(SmoothError::NotPreorder {
                node: 3,
                parent: 1,
                prev: 2
            })
        );
        // A parent after the child.
        assert!(check_preorder(&[0, 2, 0]).is_err());
        assert!(check_preorder(&[]).is_ok());
        assert!(check_preorder(&[7]).is_ok());
    }

    #[test]
    fn contraction_rolls_hidden_nodes_into_nearest_visible_ancestor() {
        // 0(100) ─ 1(50) ─ 2(1, hidden) ─ 3(1, hidden)
        //                               └ 4(30, visible under a hidden parent)
        //        └ 5(1, hidden)
        let parent = [0, 0, 1, 2, 2, 0];
        let size = [100.0, 50.0, 1.0, 1.0, 30.0, 1.0];
        let score = [0.1, 0.2, f32::NAN, f32::NAN, 0.9, f32::NAN];
        let c = contract(
            &SmoothInput {
                parent: &parent,
                score: &score,
                size: &size,
            },
            &SmoothConfig {
                c: 0.5,
                min_size: 10.0,
                penalty: Penalty::AreaRatio,
            },
        )
        .unwrap();
        assert_eq!(c.original, vec![0, 1, 4]);
        assert_eq!(c.parent, vec![0, 0, 1]);
        assert_eq!(c.multiplicity, vec![2, 3, 1]);
        assert_eq!(c.owner, vec![0, 1, 1, 1, 2, 0]);
        assert_eq!(c.score, vec![0.1, 0.2, 0.9]);
        assert_eq!(c.penalty, vec![0.5, 1.0, 0.5 * 100.0 / 30.0]);
    }

    #[test]
    fn the_three_penalty_functions_of_section_5_3() {
        // 0(1000) ─ 1(400) ─ 2(100)
        //         └ 3(500)
        let parent = [0, 0, 1, 0];
        let input = SmoothInput {
            parent: &parent,
            score: &[0.5; 4],
            size: &[1000.0, 400.0, 100.0, 500.0],
        };
        let with = |penalty| {
            let config = SmoothConfig {
                c: 2.0,
                min_size: 0.0,
                penalty,
            };
            contract(&input, &config).unwrap().penalty
        };
        assert_eq!(with(Penalty::AreaRatio), vec![2.0, 5.0, 20.0, 4.0]);
        assert_eq!(with(Penalty::SubtreeNodeRatio), vec![2.0, 4.0, 8.0, 8.0]);
        assert_eq!(with(Penalty::ParentAreaRatio), vec![2.0, 5.0, 8.0, 4.0]);
    }

    #[test]
    fn zero_sizes_give_infinite_penalty_and_bad_inputs_are_errors() {
        let parent = [0, 0];
        let input = SmoothInput {
            parent: &parent,
            score: &[0.5, 0.5],
            size: &[10.0, 0.0],
        };
        let c = contract(
            &input,
            &SmoothConfig {
                c: 1.0,
                min_size: 0.0,
                penalty: Penalty::AreaRatio,
            },
        )
        .unwrap();
        assert_eq!(c.penalty, vec![1.0, f64::INFINITY]);
        let bad_size = SmoothInput {
            size: &[10.0, -1.0],
            ..input
        };
        assert!(matches!(
            contract(&bad_size, &SmoothConfig::PAPER),
            Err(SmoothError::BadSize { node: 1, .. })
        ));
        let bad_len = SmoothInput {
            score: &[0.5],
            ..input
        };
        assert!(matches!(
            contract(&bad_len, &SmoothConfig::PAPER),
            Err(SmoothError::LengthMismatch { what: "score", .. })
        ));
        assert!(matches!(
            contract(
                &input,
                &SmoothConfig {
                    c: f64::NAN,
                    min_size: 0.0,
                    penalty: Penalty::AreaRatio,
                }
            ),
            Err(SmoothError::BadConfig(_))
        ));
    }

    #[test]
    fn objective_counts_root_and_changes_and_rejects_inversions() {
        let problem = Problem {
            parent: &[0, 0, 1],
            score: &[0.2, 0.9, 0.5],
            multiplicity: &[1, 2, 1],
            penalty: &[1.0, 10.0, 100.0],
        };
        // Segments at 0 and 1; node 2 stays in 1's.
        let cost = objective(&problem, &[0.2, 0.5, 0.5]).unwrap();
        assert!((cost - (1.0 + 10.0 + 2.0 * 0.4)).abs() < 1e-6);
        assert!(matches!(
            objective(&problem, &[0.6, 0.5, 0.5]),
            Err(SmoothError::Infeasible { node: 1, .. })
        ));
    }

    #[test]
    fn segments_are_the_changes() {
        let (roots, of) = segments(&[0, 0, 1, 0], &[0.1, 0.1, 0.7, 0.3]);
        assert_eq!(roots, vec![0, 2, 3]);
        assert_eq!(of, vec![0, 0, 2, 3]);
    }
}
