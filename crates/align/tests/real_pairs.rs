//! The fast path against the reference on real pages of one site, crudely tokenised (every
//! tag one token, every text between tags one token). Skips when `../shared` is absent.

mod common;

use chaff_align::nw::{AlignOptions, align_exact, align_report, score_of};
use common::real;

#[test]
fn fast_path_is_exact_on_real_page_pairs() {
    if real::datasets().is_none() {
        println!("skipped: ../shared/datasets is absent");
        return;
    }
    // Debug builds are slow: a few thousand tokens per page keep this test in seconds.
    let pairs = real::site_pairs(4, 2_500);
    if pairs.is_empty() {
        println!("skipped: no multi-page site found under ../shared/datasets");
        return;
    }
    let (mut certified, mut checked, mut cells) = (0, 0u64, 0u64);
    for (name, a, b) in &pairs {
        let exact = align_exact(a, b);
        let (fast, report) = align_report(a, b, &AlignOptions::default());
        assert_eq!(fast.score, exact.score, "{name}");
        assert_eq!(score_of(a, b, &fast.steps), Some(fast.score), "{name}");
        assert_eq!(score_of(a, b, &exact.steps), Some(exact.score), "{name}");
        certified += usize::from(report.certified);
        checked += report.checked_cells;
        cells += (a.len() as u64 + 1) * (b.len() as u64 + 1);
    }
    println!(
        "{} pairs: {certified} anchored bounds already optimal; the bounded solve evaluated \
         {:.1}% of the cells",
        pairs.len(),
        100.0 * checked as f64 / cells as f64
    );
}
