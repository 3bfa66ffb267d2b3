//! The distillation tree: merge semantics, per-step pruning thresholds, any number of pages.

mod common;

use chaff_align::distill::{DistillOptions, Weighted, distill, merge};
use chaff_align::nw::{Alignment, Step, align, align_exact};
use proptest::prelude::*;

fn w(tokens: &[u32], support: &[u32]) -> Weighted {
    Weighted {
        tokens: tokens.to_vec(),
        support: support.to_vec(),
    }
}

#[test]
fn merge_follows_the_alignment() {
    let a = w(&[1, 2, 3, 4], &[2, 1, 3, 1]);
    let b = w(&[1, 5, 3, 6], &[1, 1, 2, 4]);
    let alignment = Alignment {
        steps: vec![
            Step::Match,    // 1: supports summed
            Step::Mismatch, // 2 | 5: a's then b's
            Step::Match,    // 3
            Step::GapA,     // 4 from a
            Step::GapB,     // 6 from b
        ],
        score: 1,
    };
    let m = merge(&a, &b, &alignment);
    assert_eq!(m, w(&[1, 2, 5, 3, 4, 6], &[3, 1, 1, 5, 1, 4]));
}

#[test]
fn merge_of_the_figure_1_pages() {
    // <H1> Title1 </H1> <BR> Text1 <HR>  /  <H1> Title2 </H1> <BR> Text2 <IMG> <HR>
    let u = Weighted::page(vec![1, 2, 3, 4, 5, 6]);
    let v = Weighted::page(vec![1, 7, 3, 4, 8, 9, 6]);
    let m = merge(&u, &v, &align(&u.tokens, &v.tokens));
    assert_eq!(
        m,
        w(&[1, 2, 7, 3, 4, 5, 8, 9, 6], &[2, 1, 1, 2, 2, 1, 1, 1, 2])
    );
}

#[test]
fn merge_with_empty_sides() {
    let a = w(&[1, 2], &[3, 4]);
    let empty = Weighted::default();
    assert_eq!(merge(&a, &empty, &align(&a.tokens, &[])), a);
    assert_eq!(merge(&empty, &a, &align(&[], &a.tokens)), a);
    assert_eq!(merge(&empty, &empty, &align(&[], &[])), empty);
}

/// Eight pages sharing a frame `0, 51, …, 55, 99`; token `10 + c` follows frame token `50 + c`
/// on the first `c` pages (c = 1..=5), and token 20 is on page 7 only, so each level's pruning
/// can be read off. (The frame keeps the alignments unambiguous: without it the scores prefer
/// mismatching `11` against `15` to gapping both.)
fn eight_pages() -> Vec<Vec<u32>> {
    (0..8u32)
        .map(|page| {
            let mut p = vec![0];
            for c in 1..=5u32 {
                p.push(50 + c);
                if page < c {
                    p.push(10 + c);
                }
            }
            if page == 7 {
                p.push(20);
            }
            p.push(99);
            p
        })
        .collect()
}

#[test]
fn pruning_thresholds_per_step() {
    let pages = eight_pages();
    let d = distill(pages.clone(), &DistillOptions::default());
    assert_eq!(d.pages, 8);
    assert_eq!(d.levels.len(), 3);
    assert_eq!(
        d.levels.iter().map(|l| l.sequences).collect::<Vec<_>>(),
        vec![8, 4, 2]
    );
    assert_eq!(
        d.levels.iter().map(|l| l.threshold).collect::<Vec<_>>(),
        vec![0.5 / 8.0, 1.0 / 8.0, 2.0 / 8.0]
    );
    // Steps 1 and 2 (confidence below 1/16 and 1/8: less than one page) prune nothing.
    assert_eq!(d.levels[0].tokens_before, d.levels[0].tokens_after);
    assert_eq!(d.levels[1].tokens_before, d.levels[1].tokens_after);
    // Step 3 (below 2/8) drops the tokens seen on one page only: 11 (page 0), 20 (page 7).
    assert_eq!(d.levels[2].tokens_before, 13);
    assert_eq!(d.levels[2].tokens_after, 11);
    // The root keeps support >= 4 = t/2: the frame (8) and the tokens on 4 and 5 pages.
    let frame = [0, 51, 52, 53, 54, 55, 99];
    assert_eq!(
        d.template,
        w(
            &[0, 51, 52, 53, 54, 14, 55, 15, 99],
            &[8, 8, 8, 8, 8, 4, 8, 5, 8]
        )
    );

    // Without per-step pruning only the root threshold applies, with the same result here.
    let unpruned = distill(
        pages.clone(),
        &DistillOptions {
            prune: false,
            ..DistillOptions::default()
        },
    );
    assert_eq!(unpruned.template, d.template);
    assert_eq!(unpruned.levels[2].tokens_after, 13);

    // A root threshold of 1/4 lets the tokens on 2 and 3 pages through; the one-page tokens
    // were pruned at step 3 already.
    let lenient = distill(
        pages.clone(),
        &DistillOptions {
            keep: 0.25,
            ..DistillOptions::default()
        },
    );
    assert_eq!(
        lenient.template.tokens,
        vec![0, 51, 52, 12, 53, 13, 54, 14, 55, 15, 99]
    );
    // Keeping everything at the root still shows the step-3 pruning.
    let all = distill(
        pages,
        &DistillOptions {
            keep: 0.0,
            ..DistillOptions::default()
        },
    );
    assert_eq!(all.template.len(), 11);
    assert!(frame.iter().all(|t| all.template.tokens.contains(t)));
    assert!(!all.template.tokens.contains(&11) && !all.template.tokens.contains(&20));
}

#[test]
fn no_pages_and_one_page() {
    let none = distill(Vec::new(), &DistillOptions::default());
    assert!(none.template.is_empty());
    assert_eq!(none.pages, 0);
    assert!(none.levels.is_empty());

    let one = distill(vec![vec![3, 1, 4, 1, 5]], &DistillOptions::default());
    assert_eq!(one.template, Weighted::page(vec![3, 1, 4, 1, 5]));
    assert_eq!(one.pages, 1);
    assert!(one.levels.is_empty());

    let empty_pages = distill(vec![vec![], vec![], vec![]], &DistillOptions::default());
    assert!(empty_pages.template.is_empty());
}

#[test]
fn pages_not_a_power_of_two() {
    for t in [2usize, 3, 5, 6, 7, 9, 12] {
        let mut rng = common::Rng::new(t as u64);
        let template = common::template(&mut rng, 120);
        let mut fresh = 1_000_000;
        let pages: Vec<Vec<u32>> = (0..t)
            .map(|_| common::page(&mut rng, &template, 0.05, &mut fresh))
            .collect();
        let d = distill(pages.clone(), &DistillOptions::default());
        assert_eq!(d.pages as usize, t);
        // ceil(log2 t) levels; sequence counts halve, rounding up.
        let mut expected = Vec::new();
        let mut k = t;
        while k > 1 {
            expected.push(k);
            k = k.div_ceil(2);
        }
        assert_eq!(
            d.levels.iter().map(|l| l.sequences).collect::<Vec<_>>(),
            expected
        );
        assert!(d.template.support.iter().all(|&s| s as usize <= t));
        assert!(d.template.support.iter().all(|&s| 2 * s as usize >= t));
        assert_eq!(d.template.tokens.len(), d.template.support.len());
        // A token on every page survives with support t.
        let common_frame: Vec<u32> = vec![u32::MAX - 1, u32::MAX];
        let framed: Vec<Vec<u32>> = pages
            .iter()
            .map(|p| [&common_frame[..1], p.as_slice(), &common_frame[1..]].concat())
            .collect();
        let f = distill(framed, &DistillOptions::default());
        assert_eq!(f.template.tokens.first(), Some(&(u32::MAX - 1)));
        assert_eq!(f.template.tokens.last(), Some(&u32::MAX));
        assert_eq!(f.template.support.first(), Some(&(t as u32)));
        assert_eq!(f.template.support.last(), Some(&(t as u32)));
        // The template is a sensible fraction of the shared template.
        // Most of the shared template is found (with t = 2 the root keeps the union: every
        // token has confidence at least 1/2).
        assert!(f.template.len() >= template.len() * 3 / 4, "t = {t}");
        if t > 2 {
            assert!(f.template.len() <= template.len() * 5 / 4, "t = {t}");
        }
    }
}

#[test]
fn identical_pages_give_themselves_with_full_support() {
    let page: Vec<u32> = (0..300).map(|k| k % 17).collect();
    for t in [2, 3, 4, 7, 8] {
        let d = distill(vec![page.clone(); t], &DistillOptions::default());
        assert_eq!(d.template.tokens, page);
        assert!(d.template.support.iter().all(|&s| s as usize == t));
    }
}

#[test]
fn result_does_not_depend_on_the_thread_count() {
    let mut rng = common::Rng::new(99);
    let template = common::template(&mut rng, 400);
    let mut fresh = 1_000_000;
    let pages: Vec<Vec<u32>> = (0..11)
        .map(|_| common::page(&mut rng, &template, 0.2, &mut fresh))
        .collect();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(|pool| pool.install(|| distill(pages.clone(), &DistillOptions::default())))
    };
    let (Ok(one), Ok(four)) = (run(1), run(4)) else {
        return; // no threads available: nothing to compare
    };
    assert_eq!(one, four);
}

#[test]
fn weighted_round_trips_through_json() {
    let x = w(&[1, 2, 3], &[4, 5, 6]);
    let json = serde_json::to_string(&x).unwrap();
    assert_eq!(serde_json::from_str::<Weighted>(&json).unwrap(), x);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Pages built from a shared template plus noise: every template token is supported by
    /// at least half of the pages, and no token id present on fewer than half of the pages can
    /// reach the template (a position's support counts distinct pages holding its id).
    #[test]
    fn template_tokens_have_majority_support(
        seed in any::<u64>(), t in 1usize..12, len in 0usize..150, noise in 0.0f64..0.6
    ) {
        let mut rng = common::Rng::new(seed);
        let template = common::template(&mut rng, len);
        let mut fresh = 1_000_000;
        let pages: Vec<Vec<u32>> = (0..t)
            .map(|_| common::page(&mut rng, &template, noise, &mut fresh))
            .collect();
        let d = distill(pages.clone(), &DistillOptions::default());
        prop_assert_eq!(d.template.tokens.len(), d.template.support.len());
        for (&token, &support) in d.template.tokens.iter().zip(&d.template.support) {
            prop_assert!(2 * support as usize >= t);
            let holders = pages.iter().filter(|p| p.contains(&token)).count();
            prop_assert!(support as usize <= holders);
        }
    }

    /// `merge` keeps every token: the merged length is the number of alignment columns, and
    /// the support total is preserved.
    #[test]
    fn merge_preserves_support(
        a in prop::collection::vec(0u32..6, 0..30), b in prop::collection::vec(0u32..6, 0..30)
    ) {
        let (wa, wb) = (Weighted::page(a.clone()), Weighted::page(b.clone()));
        let alignment = align_exact(&a, &b);
        let m = merge(&wa, &wb, &alignment);
        let mismatches = alignment.steps.iter().filter(|s| **s == Step::Mismatch).count();
        prop_assert_eq!(m.len(), alignment.steps.len() + mismatches);
        prop_assert_eq!(m.support.iter().sum::<u32>() as usize, a.len() + b.len());
    }
}
