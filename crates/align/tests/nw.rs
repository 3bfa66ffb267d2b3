//! Pairwise alignment: the paper's worked example, exactness of `align_exact` against brute
//! force, and of the fast path `align` against `align_exact`.

mod common;

use chaff_align::nw::{
    AlignOptions, Alignment, Step, align, align_exact, align_exact_with, align_report, align_with,
    score_of, score_table,
};
use proptest::prelude::*;

// Figure 1 tokens.
const H1: u32 = 1;
const TITLE1: u32 = 2;
const H1_END: u32 = 3;
const BR: u32 = 4;
const TEXT1: u32 = 5;
const HR: u32 = 6;
const TITLE2: u32 = 7;
const TEXT2: u32 = 8;
const IMG: u32 = 9;
const U: [u32; 6] = [H1, TITLE1, H1_END, BR, TEXT1, HR];
const V: [u32; 7] = [H1, TITLE2, H1_END, BR, TEXT2, IMG, HR];

#[test]
fn figure_1_table() {
    let s = score_table(&U, &V);
    assert_eq!(s.len(), U.len() + 1);
    assert!(s.iter().all(|row| row.len() == V.len() + 1));
    // Initialisation: S[0][j] = -j, S[i][0] = -i.
    assert_eq!(s[0], vec![0, -1, -2, -3, -4, -5, -6, -7]);
    assert_eq!(
        s.iter().map(|row| row[0]).collect::<Vec<_>>(),
        vec![0, -1, -2, -3, -4, -5, -6]
    );
    // The paper draws V as rows: row j is S[1..=6][j].
    let rows: Vec<Vec<i32>> = (1..=V.len())
        .map(|j| (1..=U.len()).map(|i| s[i][j]).collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec![1, 0, -1, -2, -3, -4],
            vec![0, 1, 0, -1, -2, -3],
            vec![-1, 0, 2, 1, 0, -1],
            vec![-2, -1, 1, 3, 2, 1],
            vec![-3, -2, 0, 2, 3, 2],
            vec![-4, -3, -1, 1, 2, 3],
            vec![-5, -4, -2, 0, 1, 3],
        ]
    );
    assert_eq!(s[U.len()][V.len()], 3);
}

#[test]
fn figure_1_alignment() {
    let expected = vec![
        Step::Match,    // <H1>
        Step::Mismatch, // Title 1 / Title 2
        Step::Match,    // </H1>
        Step::Match,    // <BR>
        Step::Mismatch, // Text 1 / Text 2
        Step::GapB,     // <IMG SRC="#"> against a gap
        Step::Match,    // <HR>
    ];
    for al in [align_exact(&U, &V), align(&U, &V)] {
        assert_eq!(al.score, 3);
        assert_eq!(al.steps, expected);
        assert_eq!(score_of(&U, &V, &al.steps), Some(3));
    }
    // Swapping the sequences swaps the gap's side.
    let swapped = align_exact(&V, &U);
    assert_eq!(swapped.score, 3);
    assert_eq!(swapped.steps[5], Step::GapA);
}

#[test]
fn empty_and_identical_inputs() {
    let empty: [u32; 0] = [];
    let abc = [1, 2, 3];
    let forced = AlignOptions {
        full_table_cells: 16,
        ..AlignOptions::default()
    };
    for opts in [AlignOptions::default(), forced] {
        for al in [
            align_with(&empty, &empty, &opts),
            align_exact_with(&empty, &empty, &opts),
        ] {
            assert_eq!(
                al,
                Alignment {
                    steps: vec![],
                    score: 0
                }
            );
        }
        for al in [
            align_with(&abc, &empty, &opts),
            align_exact_with(&abc, &empty, &opts),
        ] {
            assert_eq!(al.steps, vec![Step::GapA; 3]);
            assert_eq!(al.score, -3);
        }
        for al in [
            align_with(&empty, &abc, &opts),
            align_exact_with(&empty, &abc, &opts),
        ] {
            assert_eq!(al.steps, vec![Step::GapB; 3]);
            assert_eq!(al.score, -3);
        }
        let long: Vec<u32> = (0..500).map(|k| k % 7).collect();
        for al in [
            align_with(&long, &long, &opts),
            align_exact_with(&long, &long, &opts),
        ] {
            assert_eq!(al.steps, vec![Step::Match; 500]);
            assert_eq!(al.score, 500);
        }
    }
}

#[test]
fn score_of_rejects_invalid_steps() {
    let a = [1, 2];
    let b = [1, 3];
    assert_eq!(score_of(&a, &b, &[Step::Match, Step::Mismatch]), Some(1));
    assert_eq!(score_of(&a, &b, &[Step::Match, Step::Match]), None); // 2 != 3
    assert_eq!(score_of(&a, &b, &[Step::Mismatch, Step::Mismatch]), None); // 1 == 1
    assert_eq!(score_of(&a, &b, &[Step::Match]), None); // leaves tokens
    assert_eq!(
        score_of(&a, &b, &[Step::Match, Step::GapA, Step::GapB]),
        Some(-1)
    );
    assert_eq!(
        score_of(&a, &b, &[Step::Match, Step::GapA, Step::GapB, Step::GapB]),
        None
    ); // too many
    assert_eq!(score_of(&[], &[], &[]), Some(0));
}

/// The best score over every alignment, enumerated exhaustively (tiny inputs only).
fn brute_force(a: &[u32], b: &[u32]) -> i64 {
    let mut best = i64::MIN;
    let mut stack = vec![(0usize, 0usize, 0i64)];
    while let Some((i, j, s)) = stack.pop() {
        if i == a.len() && j == b.len() {
            best = best.max(s);
            continue;
        }
        if i < a.len() && j < b.len() {
            stack.push((i + 1, j + 1, s + i64::from(a[i] == b[j])));
        }
        if i < a.len() {
            stack.push((i + 1, j, s - 1));
        }
        if j < b.len() {
            stack.push((i, j + 1, s - 1));
        }
    }
    best
}

fn table_score(a: &[u32], b: &[u32]) -> i64 {
    i64::from(score_table(a, b)[a.len()][b.len()])
}

fn forced_hirschberg() -> AlignOptions {
    AlignOptions {
        full_table_cells: 16,
        ..AlignOptions::default()
    }
}

/// Checks an alignment is valid for `a`, `b` and has the given optimal score.
fn check(a: &[u32], b: &[u32], al: &Alignment, optimum: i64) -> Result<(), TestCaseError> {
    prop_assert_eq!(score_of(a, b, &al.steps), Some(al.score));
    prop_assert_eq!(al.score, optimum);
    Ok(())
}

fn seq(alphabet: u32, max_len: usize) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0..alphabet, 0..=max_len)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn tiny_exhaustive((a, b) in (2u32..5).prop_flat_map(|k| (seq(k, 6), seq(k, 6)))) {
        let best = brute_force(&a, &b);
        prop_assert_eq!(table_score(&a, &b), best);
        check(&a, &b, &align_exact(&a, &b), best)?;
        check(&a, &b, &align_exact_with(&a, &b, &forced_hirschberg()), best)?;
        check(&a, &b, &align(&a, &b), best)?;
        check(&a, &b, &align_with(&a, &b, &forced_hirschberg()), best)?;
    }

    #[test]
    fn small_against_full_table((a, b) in (2u32..8).prop_flat_map(|k| (seq(k, 40), seq(k, 40)))) {
        let best = table_score(&a, &b);
        check(&a, &b, &align_exact(&a, &b), best)?;
        check(&a, &b, &align_exact_with(&a, &b, &forced_hirschberg()), best)?;
        check(&a, &b, &align_with(&a, &b, &forced_hirschberg()), best)?;
    }

    /// Matching the common prefix and suffix outright is optimal.
    #[test]
    fn common_ends_are_matched(
        (ends, a, b) in (2u32..5).prop_flat_map(|k| ((seq(k, 8), seq(k, 8)), seq(k, 20), seq(k, 20)))
    ) {
        let (prefix, suffix) = ends;
        let wrap = |x: &[u32]| [prefix.as_slice(), x, suffix.as_slice()].concat();
        let (wa, wb) = (wrap(&a), wrap(&b));
        prop_assert_eq!(
            table_score(&wa, &wb),
            table_score(&a, &b) + (prefix.len() + suffix.len()) as i64
        );
    }

    #[test]
    fn fast_path_on_random_sequences((a, b) in (2u32..40).prop_flat_map(|k| (seq(k, 300), seq(k, 300)))) {
        let best = align_exact(&a, &b).score;
        check(&a, &b, &align(&a, &b), best)?;
        check(&a, &b, &align_with(&a, &b, &forced_hirschberg()), best)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Pages of one site: a shared template, page-specific insertions and substitutions,
    /// deletions, and common markup everywhere.
    #[test]
    fn fast_path_on_template_pairs(seed in any::<u64>(), len in 0usize..600, noise in 0.0f64..0.7) {
        let (a, b) = common::site_pair(seed, len, noise);
        let exact = align_exact(&a, &b);
        check(&a, &b, &exact, exact.score)?;
        check(&a, &b, &align(&a, &b), exact.score)?;
        let small = AlignOptions { full_table_cells: 256, min_anchor_run: 3 };
        check(&a, &b, &align_with(&a, &b, &small), exact.score)?;
        check(&a, &b, &align_exact_with(&a, &b, &small), exact.score)?;
    }

    /// Hirschberg with tiny leaves equals the full table.
    #[test]
    fn forced_hirschberg_equals_full_table(seed in any::<u64>(), len in 0usize..120, noise in 0.0f64..0.7) {
        let (a, b) = common::site_pair(seed, len, noise);
        let best = table_score(&a, &b);
        check(&a, &b, &align_exact_with(&a, &b, &forced_hirschberg()), best)?;
        check(&a, &b, &align_with(&a, &b, &forced_hirschberg()), best)?;
    }
}

/// Larger template pairs, through the default options, with how the fast path fared.
#[test]
fn fast_path_on_large_template_pairs() {
    let (mut certified, mut checked, mut full) = (0, 0u64, 0u64);
    let runs = 12;
    for seed in 0..runs {
        let (a, b) =
            common::site_pair(seed, 1_500 + 100 * seed as usize, 0.05 + 0.04 * seed as f64);
        let exact = align_exact(&a, &b);
        let (fast, report) = align_report(&a, &b, &AlignOptions::default());
        assert_eq!(score_of(&a, &b, &fast.steps), Some(fast.score));
        assert_eq!(fast.score, exact.score, "seed {seed}");
        certified += usize::from(report.certified);
        checked += report.checked_cells;
        full += (a.len() as u64 + 1) * (b.len() as u64 + 1);
    }
    println!(
        "{certified}/{runs} anchored bounds certified; check pass evaluated {:.1}% of the cells",
        100.0 * checked as f64 / full as f64
    );
}

/// Anchor runs that are not on any optimal path: the anchored bound is below the optimum,
/// and the bounded solve must still find the optimum.
#[test]
fn anchored_bound_below_optimum_is_corrected() {
    let mut corrected = 0;
    for seed in 0..40 {
        let (a, b) = common::site_pair(1_000 + seed, 800, 0.3);
        let (fast, report) = align_report(&a, &b, &AlignOptions::default());
        let exact = align_exact(&a, &b);
        assert_eq!(fast.score, exact.score, "seed {seed}");
        assert_eq!(score_of(&a, &b, &fast.steps), Some(fast.score));
        if report.anchored_score.is_some_and(|l| l < report.optimum) {
            corrected += 1;
        }
    }
    assert!(corrected > 0, "no pair exercised the correction");
}

/// A unique token far off the diagonal is not chained, whatever the minimum run.
#[test]
fn a_displaced_unique_token_is_not_an_anchor() {
    // `a` = R u, `b` = u R with R repetitive: the only unique token u would be a bad anchor.
    let r: Vec<u32> = (0..400).map(|k| k % 3).collect();
    let a = [r.as_slice(), &[99]].concat();
    let b = [&[99], r.as_slice()].concat();
    let opts = AlignOptions {
        min_anchor_run: 1,
        ..AlignOptions::default()
    };
    let (fast, report) = align_report(&a, &b, &opts);
    assert_eq!(report.anchors, 0);
    assert_eq!(fast.score, align_exact(&a, &b).score);
    assert_eq!(fast.score, 398);
}
