//! What the site's methods said of a page, as inputs of the content model.
//!
//! A site-level method (suffix expressions, alignment to the site's template, FOREST's
//! wrapper, SiteLevel's repeated subtrees) learns from a site's pages and then says of each
//! node of a new page how template-like it is. Each is right about different things; the
//! content model weighs them, with the page's own features, instead of a fixed rule. Per
//! unit (text node) and per method, four inputs:
//!
//! * `removed`: the share of the unit's text the method removes (1 for a node it labels
//!   template, the cut bytes' share for a node a string method cut partly, else 0);
//! * `score`: the method's templateness score of the node;
//! * `block_removed`: the word-weighted mean of `removed` over the units of the same parent
//!   element (a method that removes most of a paragraph's pieces says something of the rest);
//! * `page_removed`: the word-weighted mean of `removed` over the page (a wrapper that keeps
//!   a tenth of a page, or an expression set that removes everything, is told apart from one
//!   that removes the usual share).
//!
//! Evidence that is absent is missing (NaN), never zero: no profile, a method the profile
//! lacks, a method that abstained on this page, a node it does not cover. The tree ensemble
//! sends missing values their own way ([`crate::gbdt`]), so one model serves pages with and
//! without site knowledge, and a page without any gives exactly the page-level result.
//!
//! Two ways of keeping site evidence from hurting a page were measured on held-out Dragnet
//! training sites and dropped (`site_cv.py --dump`, folds 1 to 4 of 5: 352 pages of 50 sites,
//! each fold's model trained without its sites; page-level 0.930, site-aware 0.942, 43 of
//! 50 sites within 0.01 of page-level):
//!
//! * falling back to the page alone where the site's reading drops more than a share of the
//!   words the page's own reading keeps: at 5% of them 45 of 50 sites, but 4-gram F1 0.929,
//!   below page-level; at 10% to 40%, 43 or 44 sites and 0.930 to 0.934. The pages where the
//!   site's reading drops much are mostly those it gets right (a blog's sidebar, a share
//!   bar the page alone keeps); where it drops too much, the lost lines are text the gold
//!   keeps although every page of the site repeats it (a press office's contact lines, a
//!   "follow us" line inside the article, datelines);
//! * missing site inputs for the headline (a heading unit of three or more words, 80% of them
//!   in the `<title>`), whose place is template and whose words are the page's own: 0.941,
//!   44 of 50; it mends one site (a blog whose weekly titles share their words) and costs
//!   others, through the second stage's context.
//!
//! A third was measured on 2026-12-07 and dropped: mixing the two readings, each unit's
//! probability `w · p(site) + (1 − w) · p(page alone)` (folds 1 to 5, 414 pages of 59
//! sites, fold models trained that day: with `w` = 1, as shipped, 0.939 and 51 of 59 sites).
//! Sites within 0.01 rise as `w` falls (`w` 0.6: 53; 0.5: 54 at 0.939; 0.4: 56; 0.3: all 59
//! at 0.938), but on synthetic sites (seeds 6 to 10, never used for the bars) the template
//! removed falls from 99.57% to 98.62% at 0.5 and 97.30% at 0.3: the lines only the site's
//! evidence recognises (date lines the page alone keeps) are given back with the rest. What
//! the mixing recovers on Dragnet is mostly text the gold keeps although every page of the
//! site repeats it (blogs.nfl.com's comment guidelines under each post). Keeping the page's
//! probability where it is at least 0.7 to 0.95 (the site may only remove what the page
//! doubts) keeps 52 of 59 at 0.938 to 0.940.
//!
//! This module knows the site methods only by the names their evidence is registered under
//! ([`METHODS`]) and reads nothing but that evidence.

use chaff_core::{Evidence, SiteVerdict};
use chaff_dom::{Document, TextView};

use crate::units::Units;

/// The site methods whose evidence the model reads, by registered name, in row order.
pub const METHODS: [&str; 4] = ["suffix", "align", "forest", "subtree"];

/// The inputs per method, in row order.
const PER_METHOD: [&str; 4] = ["removed", "score", "block_removed", "page_removed"];

/// Inputs per unit.
pub const COUNT: usize = METHODS.len() * PER_METHOD.len();

/// Input names, in row order (`site_<method>_<input>`).
pub fn names() -> Vec<String> {
    METHODS
        .iter()
        .flat_map(|m| PER_METHOD.iter().map(move |f| format!("site_{m}_{f}")))
        .collect()
}

/// Every unit's site inputs, [`COUNT`] per unit, flat, NaN where evidence is absent.
pub fn rows(doc: &Document, view: &TextView, units: &Units, site: &[SiteVerdict<'_>]) -> Vec<f32> {
    let n = units.len();
    let mut out = vec![f32::NAN; n * COUNT];
    let mut seg_len = vec![0u32; doc.len()];
    for s in view.segments() {
        if let Some(l) = seg_len.get_mut(s.node.index()) {
            *l = s.range().len() as u32;
        }
    }
    for (i, name) in METHODS.iter().enumerate() {
        let Some(e) = site
            .iter()
            .find(|v| v.method == *name)
            .and_then(|v| v.verdict.evidence())
        else {
            continue;
        };
        let (removed, score) = per_unit(&seg_len, units, e);
        let block = block_means(units, &removed);
        let page = weighted_mean(units, &removed);
        for k in 0..n {
            let row = &mut out[k * COUNT + i * PER_METHOD.len()..][..PER_METHOD.len()];
            row[0] = removed[k];
            row[1] = score[k];
            row[2] = block[k];
            row[3] = page;
        }
    }
    out
}

/// Per unit: the share of its text `e` removes and its score (NaN where `e` does not cover
/// the node); `seg_len` is each node's visible text length in bytes.
fn per_unit(seg_len: &[u32], units: &Units, e: &Evidence) -> (Vec<f32>, Vec<f32>) {
    let cut = |id: chaff_dom::NodeId| -> u32 {
        e.labels().partial(id).map_or(0, |ranges| {
            ranges.iter().map(|r| r.end.saturating_sub(r.start)).sum()
        })
    };
    let mut removed = Vec::with_capacity(units.len());
    let mut score = Vec::with_capacity(units.len());
    for &id in &units.nodes {
        match (e.role(id), e.score(id)) {
            (Some(role), Some(s)) => {
                let share = if role.is_template() {
                    1.0
                } else {
                    let len = seg_len.get(id.index()).copied().unwrap_or(0).max(1);
                    (cut(id) as f32 / len as f32).min(1.0)
                };
                removed.push(share);
                score.push(s);
            }
            _ => {
                removed.push(f32::NAN);
                score.push(f32::NAN);
            }
        }
    }
    (removed, score)
}

/// Word-weighted mean of `values` over the units, ignoring NaN; NaN when none.
fn weighted_mean(units: &Units, values: &[f32]) -> f32 {
    let (mut sum, mut words) = (0.0f64, 0.0f64);
    for (k, v) in values.iter().enumerate() {
        if !v.is_nan() {
            let w = f64::from(units.words[k]);
            sum += w * f64::from(*v);
            words += w;
        }
    }
    if words > 0.0 {
        (sum / words) as f32
    } else {
        f32::NAN
    }
}

/// Per unit, the word-weighted mean of `values` over the units of its parent element.
fn block_means(units: &Units, values: &[f32]) -> Vec<f32> {
    let owners = &units.skeleton.owner;
    let slots = units.skeleton.parent.len() + 1;
    let slot = |k: usize| (owners[k] as usize).min(slots - 1);
    let mut sum = vec![0.0f64; slots];
    let mut words = vec![0.0f64; slots];
    for (k, v) in values.iter().enumerate() {
        if !v.is_nan() {
            let w = f64::from(units.words[k]);
            sum[slot(k)] += w * f64::from(*v);
            words[slot(k)] += w;
        }
    }
    (0..values.len())
        .map(|k| {
            let s = slot(k);
            if words[s] > 0.0 {
                (sum[s] / words[s]) as f32
            } else {
                f32::NAN
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaff_core::{Labels, Meaning, Role, Verdict};

    fn page(html: &str) -> (Document, TextView, Units) {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let units = Units::compute(&doc, &view, None);
        (doc, view, units)
    }

    #[test]
    fn removed_shares_block_and_page_means_by_hand() {
        // Units: "one two" (nav, 2 words), "three four five six" and "seven eight" (the
        // same <p>, 4 and 2 words).
        let (doc, view, units) =
            page("<nav>one two</nav><p>three four five six<b>x</b>seven eight</p>");
        let texts: Vec<_> = units.nodes.clone();
        assert_eq!(units.words, vec![2, 4, 1, 2]);
        let mut l = Labels::all_content(doc.len());
        l.set(texts[0], 0.9, Role::Template);
        // Cut "three " (6 of 19 bytes) from the second unit.
        l.set_partial(texts[1], std::iter::once(0..6).collect());
        let e = Verdict::Evidence(Evidence::new(l, Meaning::Share));
        let abstain = Verdict::Abstain("no wrapper match".into());
        let site = [
            SiteVerdict {
                method: "suffix",
                verdict: &e,
            },
            SiteVerdict {
                method: "forest",
                verdict: &abstain,
            },
        ];
        let r = rows(&doc, &view, &units, &site);
        let at = |k: usize, m: usize, f: usize| r[k * COUNT + m * 4 + f];
        assert_eq!(at(0, 0, 0), 1.0);
        assert!((at(0, 0, 1) - 0.9).abs() < 1e-6);
        let share = 6.0 / 19.0;
        assert!((at(1, 0, 0) - share).abs() < 1e-6);
        // Block of units 1, 2 and 3 (the <b> text is its own block): (4 share + 2 * 0) / 6.
        assert!((at(3, 0, 2) - 4.0 * share / 6.0).abs() < 1e-6);
        // Page: (2 * 1 + 4 * share) / 9.
        assert!((at(2, 0, 3) - (2.0 + 4.0 * share) / 9.0).abs() < 1e-6);
        // Align was not there, FOREST abstained: missing, not zero.
        for k in 0..units.len() {
            for m in 1..4 {
                for f in 0..4 {
                    assert!(at(k, m, f).is_nan(), "unit {k} method {m} input {f}");
                }
            }
        }
    }

    #[test]
    fn uncovered_nodes_are_missing() {
        let (doc, view, units) = page("<nav>one two</nav><main>three four</main>");
        let mut l = Labels::all_content(doc.len());
        l.set(units.nodes[0], 1.0, Role::Template);
        let covered: Vec<bool> = doc.ids().map(|id| id == units.nodes[0]).collect();
        let e = Verdict::Evidence(Evidence::partial(l, covered, Meaning::Membership));
        let site = [SiteVerdict {
            method: "subtree",
            verdict: &e,
        }];
        let r = rows(&doc, &view, &units, &site);
        let m = 3 * 4;
        assert_eq!(r[m], 1.0);
        assert!(r[COUNT + m].is_nan());
        // The page mean counts the covered unit only.
        assert_eq!(r[COUNT + m + 3], 1.0);
        assert_eq!(names().len(), COUNT);
        assert_eq!(names()[0], "site_suffix_removed");
    }
}
