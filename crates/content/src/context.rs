//! Context features for the second stage: what the first stage thinks of a unit's
//! neighbours, its containers and the whole page.
//!
//! The first stage judges each text node from its own features and its ancestors'. Many
//! decisions depend on the rest of the page: a link list is the content of a listing page
//! whose other text is all boilerplate, and noise on an article page; a short paragraph
//! between two confident article paragraphs is article. The second stage reads, besides the
//! first stage's inputs, the first stage's probabilities around the unit (stacking; trained
//! on out-of-fold first-stage predictions, see [`crate::train`]).

use crate::units::Units;

/// Names of the context features, in row order.
pub const NAMES: &[&str] = &[
    "s1_self",
    "s1_prev1",
    "s1_prev2",
    "s1_next1",
    "s1_next2",
    "s1_window",
    "s1_parent",
    "s1_grand",
    "s1_great",
    "s1_page_mean",
    "s1_page_kept_share",
    "s1_page_max",
    "s1_rank",
    "s1_in_main",
    "s1_main_share",
    "s1_main_mean",
    "type_article",
    "type_collection",
    "type_documentation",
    "type_forum",
    "type_listing",
    "type_product",
    "type_service",
];

/// Number of context features.
pub const COUNT: usize = NAMES.len();

/// Units on either side in the window mean.
const WINDOW: usize = 3;

/// Appends the context features of every unit to `out` ([`COUNT`] per unit), given the
/// first stage's probabilities `p` and the page's type probabilities
/// ([`crate::pagetype`]).
pub fn rows(units: &Units, p: &[f32], types: &[f32; 7], out: &mut Vec<f32>) {
    let n = units.len();
    if n == 0 {
        return;
    }
    let sk = &units.skeleton;
    let w: Vec<f64> = units.words.iter().map(|w| f64::from(*w)).collect();
    let total: f64 = w.iter().sum::<f64>().max(1.0);
    // Word-weighted sums of p over every element's subtree.
    let m = sk.parent.len();
    let mut sum = vec![0f64; m];
    let mut words = vec![0f64; m];
    let mut gain = vec![0f64; m];
    for k in 0..n {
        if let Some(e) = valid(sk.owner[k]) {
            sum[e] += w[k] * f64::from(p[k]);
            words[e] += w[k];
            gain[e] += w[k] * (f64::from(p[k]) - 0.5);
        }
    }
    for e in (0..m).rev() {
        if let Some(parent) = valid(sk.parent[e]) {
            sum[parent] += sum[e];
            words[parent] += words[e];
            gain[parent] += gain[e];
        }
    }
    let mean_of = |e: Option<usize>| e.map_or(-1.0, |e| (sum[e] / words[e].max(1.0)) as f32);
    // The main region: the element whose units gain most (words times p - 0.5); the deepest
    // on ties, so a wrapper with nothing else in it does not win over the article.
    let main = (0..m).fold(None, |best: Option<usize>, e| match best {
        Some(b) if gain[b] > gain[e] => Some(b),
        _ if gain[e] > 0.0 => Some(e),
        b => b,
    });
    let in_main: Vec<bool> = {
        let mut inside = vec![false; m];
        if let Some(r) = main {
            inside[r] = true;
            for e in r + 1..m {
                if let Some(parent) = valid(sk.parent[e]) {
                    inside[e] = inside[parent];
                }
            }
        }
        (0..n)
            .map(|k| valid(sk.owner[k]).is_some_and(|e| inside[e]))
            .collect()
    };
    let page_mean = (0..n).map(|k| w[k] * f64::from(p[k])).sum::<f64>() / total;
    let kept_share = (0..n).filter(|&k| p[k] >= 0.5).map(|k| w[k]).sum::<f64>() / total;
    let page_max = p.iter().copied().fold(0.0f32, f32::max);
    // Rank: share of page words in units more likely content than this one.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
    let mut above = vec![0f64; n];
    let mut acc = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j < n && p[order[j]] == p[order[i]] {
            j += 1;
        }
        for &k in &order[i..j] {
            above[k] = acc / total;
        }
        for &k in &order[i..j] {
            acc += w[k];
        }
        i = j;
    }
    let (main_share, main_mean) = main.map_or((0.0, -1.0), |r| {
        (
            (words[r] / total) as f32,
            (sum[r] / words[r].max(1.0)) as f32,
        )
    });
    for k in 0..n {
        let at = |d: isize| {
            let j = k as isize + d;
            if j < 0 || j >= n as isize {
                -1.0
            } else {
                p[j as usize]
            }
        };
        let lo = k.saturating_sub(WINDOW);
        let hi = (k + WINDOW + 1).min(n);
        let (ws, ps) = (lo..hi).fold((0.0, 0.0), |(ws, ps), j| {
            (ws + w[j], ps + w[j] * f64::from(p[j]))
        });
        let parent = valid(sk.owner[k]);
        let grand = parent.and_then(|e| valid(sk.parent[e]));
        let great = grand.and_then(|e| valid(sk.parent[e]));
        out.extend_from_slice(&[
            p[k],
            at(-1),
            at(-2),
            at(1),
            at(2),
            (ps / ws.max(1.0)) as f32,
            mean_of(parent),
            mean_of(grand),
            mean_of(great),
            page_mean as f32,
            kept_share as f32,
            page_max,
            above[k] as f32,
            if in_main[k] { 1.0 } else { 0.0 },
            main_share,
            main_mean,
        ]);
        out.extend_from_slice(types);
    }
}

fn valid(i: u32) -> Option<usize> {
    (i != u32::MAX).then_some(i as usize)
}
