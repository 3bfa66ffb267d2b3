//! Hand-computed cases, properties against brute force, and the deep-path test.

use chaff_smooth::{
    NAIVE_MAX_NODES, Problem, SmoothConfig, SmoothError, SmoothInput, Solution, contract,
    objective, smooth, smooth_naive, solve, solve_naive,
};
use proptest::prelude::*;

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()))
}

fn both(problem: &Problem<'_>) -> (Solution, Solution) {
    let fast = solve(problem).unwrap();
    let naive = solve_naive(problem).unwrap();
    (fast, naive)
}

// ---------------------------------------------------------------------------------------
// Hand-computed cases.

#[test]
fn parent_with_two_children_small_penalty_keeps_every_score() {
    // Root 0.2, children 0.9 and 0.8, γ = 0.1 everywhere: each child opens its own segment
    // (0.1 each) rather than staying at 0.2 (0.7 and 0.6): c = 0.1 + 0.1 + 0.1.
    let problem = Problem {
        parent: &[0, 0, 0],
        score: &[0.2, 0.9, 0.8],
        multiplicity: &[1, 1, 1],
        penalty: &[0.1, 0.1, 0.1],
    };
    for s in [solve(&problem).unwrap(), solve_naive(&problem).unwrap()] {
        assert_eq!(s.value, vec![0.2, 0.9, 0.8]);
        assert!(close(s.cost, 0.3), "{}", s.cost);
    }
}

#[test]
fn parent_with_two_children_large_penalty_lifts_the_parent_to_the_median() {
    // γ = 1: one segment; its value is the median of {0.2, 0.9, 0.8} = 0.8, c = 1 + 0.6 + 0.1.
    let problem = Problem {
        parent: &[0, 0, 0],
        score: &[0.2, 0.9, 0.8],
        multiplicity: &[1, 1, 1],
        penalty: &[1.0, 1.0, 1.0],
    };
    for s in [solve(&problem).unwrap(), solve_naive(&problem).unwrap()] {
        assert_eq!(s.value, vec![0.8, 0.8, 0.8]);
        assert!(close(s.cost, 1.7), "{}", s.cost);
    }
    // γ = 0.5: opening both children costs 1.5, one child 1.6, none 1.2.
    let half = Problem {
        penalty: &[0.5, 0.5, 0.5],
        ..problem
    };
    let (fast, naive) = both(&half);
    assert_eq!(fast.value, vec![0.8, 0.8, 0.8]);
    assert!(close(fast.cost, 1.2) && close(naive.cost, 1.2));
}

#[test]
fn a_child_below_its_parent_is_pulled_together_with_it() {
    // Monotonicity forbids y(child) < y(parent): both take one value in [0.1, 0.9].
    let problem = Problem {
        parent: &[0, 0],
        score: &[0.9, 0.1],
        multiplicity: &[1, 1],
        penalty: &[0.01, 5.0],
    };
    let (fast, naive) = both(&problem);
    for s in [fast, naive] {
        assert_eq!(s.value[0], s.value[1]);
        assert!(close(s.cost, 0.81), "{}", s.cost);
    }
}

#[test]
fn multiplicity_weighs_the_distance() {
    // Root 0.1 counted 3 times, child 0.9. γ = 0.5: opening the child (0.5) beats staying at
    // the weighted median 0.1 (0.8).
    let problem = Problem {
        parent: &[0, 0],
        score: &[0.1, 0.9],
        multiplicity: &[3, 1],
        penalty: &[0.5, 0.5],
    };
    let (fast, naive) = both(&problem);
    assert_eq!(fast.value, vec![0.1, 0.9]);
    assert!(close(fast.cost, 1.0) && close(naive.cost, 1.0));
    // γ = 1: staying (1 + 0.8) beats opening (2); the median of {0.1 ×3, 0.9} is 0.1.
    let dear = Problem {
        penalty: &[1.0, 1.0],
        ..problem
    };
    let (fast, naive) = both(&dear);
    assert_eq!(fast.value, vec![0.1, 0.1]);
    assert_eq!(naive.value, vec![0.1, 0.1]);
    assert!(close(fast.cost, 1.8));
}

#[test]
fn a_page_with_a_header_and_content_gives_two_segments() {
    // 0 page ─ 1 header ─ 2, 3, 4 links
    //        └ 5 content ─ 6, 7 paragraphs
    // The header opens a segment at the median of its four scores (0.9): 0.3 + 0.05 + 0.05,
    // instead of 3.2 at the page's 0.1; a paragraph at 0.2 is not worth 0.3.
    let parent = [0, 0, 1, 1, 1, 0, 5, 5];
    let score = [0.1, 0.9, 0.95, 0.85, 0.9, 0.1, 0.2, 0.05];
    let problem = Problem {
        parent: &parent,
        score: &score,
        multiplicity: &[1; 8],
        penalty: &[0.3; 8],
    };
    let (fast, naive) = both(&problem);
    let want = vec![0.1, 0.9, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1];
    assert_eq!(fast.value, want);
    assert_eq!(naive.value, want);
    assert!(close(fast.cost, 0.3 + 0.4 + 0.15), "{}", fast.cost);
}

#[test]
fn smooth_applies_section_5_3_and_reports_segments() {
    // The same page with areas: the root is 1,000,000; with c = 0.01 the penalty is
    // 0.01·A/A(i). The header (100,000) pays 0.1, the links (1,000 each) are hidden (< 2,000)
    // and roll into the header, which then counts 4 times at 0.9.
    let parent = [0, 0, 1, 1, 1, 0, 5, 5];
    let score = [0.1, 0.9, f32::NAN, f32::NAN, f32::NAN, 0.1, 0.2, 0.05];
    let size = [1e6, 1e5, 1e3, 1e3, 1e3, 8e5, 1e4, 1e4];
    let input = SmoothInput {
        parent: &parent,
        score: &score,
        size: &size,
    };
    let out = smooth(&input, &SmoothConfig::PAPER).unwrap();
    let naive = smooth_naive(&input, &SmoothConfig::PAPER).unwrap();
    assert_eq!(out.value, vec![0.1, 0.9, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1]);
    assert_eq!(out.segments, vec![0, 1]);
    assert_eq!(out.segment_of, vec![0, 1, 1, 1, 1, 0, 0, 0]);
    assert_eq!(
        out.segment_values().collect::<Vec<_>>(),
        vec![(0, 0.1), (1, 0.9)]
    );
    // γ: root 0.01, header 0.1; distances 0.1 + 0.05 for the paragraphs (γ = 1 each).
    assert!(close(out.cost, 0.01 + 0.1 + 0.15), "{}", out.cost);
    assert_eq!(out, naive);
}

#[test]
fn empty_and_single_node_trees() {
    let empty = Problem {
        parent: &[],
        score: &[],
        multiplicity: &[],
        penalty: &[],
    };
    assert_eq!(solve(&empty).unwrap().value, Vec::<f32>::new());
    assert_eq!(solve_naive(&empty).unwrap().value, Vec::<f32>::new());
    let one = Problem {
        parent: &[0],
        score: &[0.4],
        multiplicity: &[2],
        penalty: &[0.25],
    };
    let (fast, naive) = both(&one);
    assert_eq!(fast.value, vec![0.4]);
    assert_eq!(naive.value, vec![0.4]);
    assert!(close(fast.cost, 0.25));
    let out = smooth(
        &SmoothInput {
            parent: &[0],
            score: &[0.7],
            size: &[0.0],
        },
        &SmoothConfig::PAPER,
    )
    .unwrap();
    assert_eq!(out.value, vec![0.7]);
    assert_eq!(out.segments, vec![0]);
    let none = smooth(
        &SmoothInput {
            parent: &[],
            score: &[],
            size: &[],
        },
        &SmoothConfig::PAPER,
    )
    .unwrap();
    assert!(none.value.is_empty() && none.segments.is_empty());
}

#[test]
fn bad_scores_and_penalties_are_errors() {
    for bad in [f32::NAN, f32::INFINITY, -0.1, 1.5] {
        let problem = Problem {
            parent: &[0, 0],
            score: &[0.5, bad],
            multiplicity: &[1, 1],
            penalty: &[0.1, 0.1],
        };
        assert!(matches!(
            solve(&problem),
            Err(SmoothError::BadScore { node: 1, .. })
        ));
        assert!(matches!(
            solve_naive(&problem),
            Err(SmoothError::BadScore { node: 1, .. })
        ));
        let input = SmoothInput {
            parent: &[0, 0],
            score: &[0.5, bad],
            size: &[1e4, 1e4],
        };
        assert!(matches!(
            smooth(&input, &SmoothConfig::PAPER),
            Err(SmoothError::BadScore { node: 1, .. })
        ));
    }
    // An unobserved node's score is not read.
    let unobserved = Problem {
        parent: &[0, 0],
        score: &[0.5, f32::NAN],
        multiplicity: &[1, 0],
        penalty: &[0.1, 0.1],
    };
    assert_eq!(solve(&unobserved).unwrap().value, vec![0.5, 0.5]);
    for bad in [f64::NAN, -1.0] {
        let problem = Problem {
            penalty: &[0.1, bad],
            ..unobserved
        };
        assert!(matches!(
            solve(&problem),
            Err(SmoothError::BadPenalty { node: 1, .. })
        ));
    }
    let nothing = Problem {
        multiplicity: &[0, 0],
        ..unobserved
    };
    assert_eq!(solve(&nothing), Err(SmoothError::NothingObserved));
    assert_eq!(solve_naive(&nothing), Err(SmoothError::NothingObserved));
    let bfs = Problem {
        parent: &[0, 0, 0, 1],
        score: &[0.5; 4],
        multiplicity: &[1; 4],
        penalty: &[0.1; 4],
    };
    assert!(matches!(
        solve(&bfs),
        Err(SmoothError::NotPreorder { node: 3, .. })
    ));
}

#[test]
fn naive_refuses_large_trees() {
    let n = NAIVE_MAX_NODES + 1;
    let parent: Vec<u32> = (0..n as u32).map(|i| i.saturating_sub(1)).collect();
    let score = vec![0.5f32; n];
    let multiplicity = vec![1u32; n];
    let penalty = vec![0.1f64; n];
    let problem = Problem {
        parent: &parent,
        score: &score,
        multiplicity: &multiplicity,
        penalty: &penalty,
    };
    assert!(matches!(
        solve_naive(&problem),
        Err(SmoothError::NaiveTooLarge { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// References: exhaustive search and the dense O(n·K) programme.

/// Distinct observed scores, increasing.
fn candidates(problem: &Problem<'_>) -> Vec<f32> {
    let mut c: Vec<f32> = (0..problem.parent.len())
        .filter(|&i| problem.multiplicity[i] > 0)
        .map(|i| problem.score[i])
        .collect();
    c.sort_by(f32::total_cmp);
    c.dedup();
    c
}

/// Cost of `y` written out from the definition (no shared code with the crate).
fn cost_of(problem: &Problem<'_>, y: &[f32]) -> f64 {
    let mut cost = 0.0;
    for i in 0..y.len() {
        if i == 0 || y[i] != y[problem.parent[i] as usize] {
            cost += problem.penalty[i];
        }
        cost += f64::from(problem.multiplicity[i])
            * (f64::from(problem.score[i]) - f64::from(y[i])).abs();
    }
    cost
}

/// The best cost over every monotone assignment of values from `values`.
fn brute_force(problem: &Problem<'_>, values: &[f32]) -> f64 {
    fn go(problem: &Problem<'_>, values: &[f32], y: &mut Vec<f32>, best: &mut f64) {
        let i = y.len();
        if i == problem.parent.len() {
            *best = best.min(cost_of(problem, y));
            return;
        }
        let floor = if i == 0 {
            f32::NEG_INFINITY
        } else {
            y[problem.parent[i] as usize]
        };
        for &v in values.iter().filter(|&&v| v >= floor) {
            y.push(v);
            go(problem, values, y, best);
            y.pop();
        }
    }
    let mut best = f64::INFINITY;
    go(problem, values, &mut Vec::new(), &mut best);
    best
}

/// The dynamic programme with one array of `K` values per node, `O(n·K)`: cost only.
fn dense(problem: &Problem<'_>) -> f64 {
    let grid: Vec<f64> = candidates(problem).into_iter().map(f64::from).collect();
    let (n, k) = (problem.parent.len(), grid.len());
    let mut sum = vec![0.0f64; n * k];
    let mut total = f64::INFINITY;
    for i in (0..n).rev() {
        let m = f64::from(problem.multiplicity[i]);
        let s: Vec<f64> = (0..k)
            .map(|t| {
                let own = if m > 0.0 {
                    m * (f64::from(problem.score[i]) - grid[t]).abs()
                } else {
                    0.0
                };
                own + sum[i * k + t]
            })
            .collect();
        if i == 0 {
            total = problem.penalty[0] + s.iter().copied().fold(f64::INFINITY, f64::min);
            break;
        }
        let p = problem.parent[i] as usize;
        let mut right = f64::INFINITY;
        for t in (0..k).rev() {
            sum[p * k + t] += s[t].min(problem.penalty[i] + right);
            right = right.min(s[t]);
        }
    }
    total
}

fn assert_feasible(problem: &Problem<'_>, s: &Solution) {
    let cost = objective(problem, &s.value).expect("monotone output");
    assert!(close(cost, s.cost));
    let cands = candidates(problem);
    for (i, v) in s.value.iter().enumerate() {
        assert!(cands.contains(v), "node {i} value {v} is not observed");
        if i > 0 {
            assert!(s.value[problem.parent[i] as usize] <= *v);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Random trees.

/// A pre-order tree from raw choices: node `i` hangs under `i − 1` or one of its ancestors.
fn tree_from(choices: &[u32]) -> Vec<u32> {
    let mut parent = vec![0u32];
    let mut path = vec![0u32];
    for (i, &c) in choices.iter().enumerate() {
        let at = c as usize % path.len();
        parent.push(path[at]);
        path.truncate(at + 1);
        path.push(i as u32 + 1);
    }
    parent
}

#[derive(Debug, Clone)]
struct Case {
    parent: Vec<u32>,
    score: Vec<f32>,
    multiplicity: Vec<u32>,
    penalty: Vec<f64>,
}

impl Case {
    fn problem(&self) -> Problem<'_> {
        Problem {
            parent: &self.parent,
            score: &self.score,
            multiplicity: &self.multiplicity,
            penalty: &self.penalty,
        }
    }
}

fn score_strategy() -> impl Strategy<Value = f32> {
    prop_oneof![
        (0u32..=4).prop_map(|l| l as f32 / 4.0),
        (0u32..=1000).prop_map(|l| l as f32 / 1000.0),
    ]
}

fn penalty_strategy() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(f64::INFINITY),
        (0u32..=300).prop_map(|p| f64::from(p) / 100.0),
    ]
}

fn case(max_nodes: usize) -> impl Strategy<Value = Case> {
    (1..=max_nodes).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<u32>(), n - 1),
            prop::collection::vec(score_strategy(), n),
            prop::collection::vec(prop_oneof![3 => Just(1u32), 1 => 0u32..=3], n),
            prop::collection::vec(penalty_strategy(), n),
        )
            .prop_map(|(choices, score, mut multiplicity, penalty)| {
                if multiplicity.iter().all(|&m| m == 0) {
                    multiplicity[0] = 1;
                }
                Case {
                    parent: tree_from(&choices),
                    score,
                    multiplicity,
                    penalty,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fast_equals_naive_equals_brute_force(case in case(7)) {
        let problem = case.problem();
        let (fast, naive) = both(&problem);
        let brute = brute_force(&problem, &candidates(&problem));
        assert_feasible(&problem, &fast);
        assert_feasible(&problem, &naive);
        prop_assert!(close(fast.cost, brute), "fast {} brute {}", fast.cost, brute);
        prop_assert!(close(naive.cost, brute), "naive {} brute {}", naive.cost, brute);
        prop_assert!(close(dense(&problem), brute));
    }

    /// Lemma 3: values between, below or above the observed ones never do better.
    #[test]
    fn observed_values_suffice(case in case(5)) {
        let problem = case.problem();
        let cands = candidates(&problem);
        let mut finer = cands.clone();
        finer.extend(cands.windows(2).map(|w| (w[0] + w[1]) / 2.0));
        finer.extend([0.0, 1.0, cands[0] - 0.01, cands[cands.len() - 1] + 0.01]);
        finer.sort_by(f32::total_cmp);
        finer.dedup();
        let on_candidates = brute_force(&problem, &cands);
        prop_assert!(brute_force(&problem, &finer) >= on_candidates - 1e-6);
    }

    #[test]
    fn fast_equals_naive_on_larger_trees(case in case(150)) {
        let problem = case.problem();
        let (fast, naive) = both(&problem);
        assert_feasible(&problem, &fast);
        assert_feasible(&problem, &naive);
        prop_assert!(close(fast.cost, naive.cost), "fast {} naive {}", fast.cost, naive.cost);
        prop_assert!(close(fast.cost, dense(&problem)));
    }

    #[test]
    fn smooth_is_monotone_on_the_whole_tree_and_segments_are_its_changes(
        choices in prop::collection::vec(any::<u32>(), 0..120),
        scores in prop::collection::vec(score_strategy(), 120),
        sizes in prop::collection::vec(prop_oneof![Just(0.0), 0.0f64..5000.0, 1e3f64..1e5], 120),
        c in prop_oneof![Just(0.01), 0.0f64..0.5],
    ) {
        let parent = tree_from(&choices);
        let n = parent.len();
        let mut size = sizes[..n].to_vec();
        size[0] = 1e6;
        let input = SmoothInput { parent: &parent, score: &scores[..n], size: &size };
        let config = SmoothConfig { c, min_size: 2000.0, ..SmoothConfig::PAPER };
        let out = smooth(&input, &config).unwrap();
        let naive = smooth_naive(&input, &config).unwrap();
        prop_assert!(close(out.cost, naive.cost));
        let contracted = contract(&input, &config).unwrap();
        for (i, &owner) in contracted.owner.iter().enumerate() {
            let owner = owner as usize;
            prop_assert_eq!(out.value[i], out.value[contracted.original[owner] as usize]);
            if i > 0 {
                let p = parent[i] as usize;
                prop_assert!(out.value[p] <= out.value[i]);
                let opens = out.value[p] != out.value[i];
                prop_assert_eq!(opens, out.segments.contains(&(i as u32)));
                let root = out.segment_of[i] as usize;
                prop_assert_eq!(out.value[root], out.value[i]);
                if !opens {
                    prop_assert_eq!(out.segment_of[i], out.segment_of[p]);
                }
            }
        }
        prop_assert_eq!(out.segments.first(), Some(&0));
    }
}

// ---------------------------------------------------------------------------------------
// Deep trees: nothing may recurse.

/// SplitMix64: deterministic inputs without a dependency.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn a_path_of_100000_nodes_neither_overflows_nor_differs_from_the_dense_programme() {
    let n = 100_000;
    let parent: Vec<u32> = (0..n as u32).map(|i| i.saturating_sub(1)).collect();
    let mut rng = 7u64;
    // Five levels, drifting upwards with noise, so segments open along the path.
    let score: Vec<f32> = (0..n)
        .map(|i| {
            let base = (i * 5 / n) as u64;
            let level = (base + splitmix(&mut rng) % 2).min(4);
            level as f32 / 4.0
        })
        .collect();
    let multiplicity = vec![1u32; n];
    let penalty = vec![2.0f64; n];
    let problem = Problem {
        parent: &parent,
        score: &score,
        multiplicity: &multiplicity,
        penalty: &penalty,
    };
    let fast = solve(&problem).unwrap();
    assert_feasible(&problem, &fast);
    assert!(close(fast.cost, dense(&problem)), "{}", fast.cost);
    let changes = (1..n)
        .filter(|&i| fast.value[i] != fast.value[i - 1])
        .count();
    assert!((1..=8).contains(&changes), "{changes} changes");

    let size: Vec<f64> = (0..n).map(|i| (n - i) as f64 * 10.0).collect();
    let out = smooth(
        &SmoothInput {
            parent: &parent,
            score: &score,
            size: &size,
        },
        &SmoothConfig {
            c: 0.01,
            min_size: 0.0,
            ..SmoothConfig::PAPER
        },
    )
    .unwrap();
    assert_eq!(out.segment_of.len(), n);
    assert!(out.value.windows(2).all(|w| w[0] <= w[1]));
}
