//! Section 4.1's training: every combination of the six weights and two thresholds over the
//! paper's ranges and steps, scored on labelled pages; the best one wins.
//!
//! The grid ([`Grid::paper`]):
//!
//! | parameter | range | step | values |
//! |---|---|---|---|
//! | node amplitude | 0.00–0.20 | 0.05 | 5 |
//! | link ratio | 0.05–0.40 | 0.05 | 8 |
//! | text ratio | 0.25–0.60 | 0.05 | 8 |
//! | UL ratio | 0.00–0.20 | 0.05 | 5 |
//! | representative tag | 0.00–0.20 | 0.05 | 5 |
//! | node position | 0.00–0.25 | 0.05 | 6 |
//! | menu threshold | 0.80–0.90 | 0.05 | 3 |
//! | root threshold | 0.70–0.90 | 0.10 | 3 |
//!
//! with the paper's constraint that the weights sum to 1 (`A + B + C + ... = 1`): 3,995 weight
//! vectors, 35,955 combinations. The candidate threshold stays at 0.85, as in the paper. On
//! about 40 training pages that is the paper's "more than 1.5 million experiments".
//!
//! How it takes seconds instead of 85 days: each page's [`NodeFeatures`] and leaf counts are
//! computed once ([`TrainPage`]); a weight vector then costs one dot product per element, the
//! candidates and Algorithm 1 once per root threshold, Algorithm 2 once per menu threshold
//! (prefix sums make each subtree's heavy nodes O(1)), and scoring O(1) per page. Weight
//! vectors are spread over threads with rayon; every (combination, page) score is kept, so
//! all folds of a cross-validation choose from one pass over the grid.
//!
//! Model selection: the highest mean F1 on the training pages; ties go to the higher share of
//! perfect pages, then to the combination nearest the paper's (L1 distance), then to the
//! earlier one in grid order — a deterministic stand-in for the paper's "fastest combination
//! that produces the best F1".
//!
//! Cross-validation ([`cross_validate`]) splits by site, so that no site has pages on both
//! sides, and reports every page as scored by the combination trained without its fold.

use std::collections::BTreeMap;

use chaff_dom::{Document, NodeId};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::algo::{MenuSelector, RootSelector, candidates, drop_nested};
use crate::eval::{Gold, LeafCounts, PageScore, Summary, summarize};
use crate::features::{NodeFeatures, PROPERTIES, Readings, Roots};
use crate::{MenuError, MenuParams, Weights};

/// Values `from, from + step, ..., to`, in integer multiples of `step` (no float drift).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    /// First value.
    pub from: f32,
    /// Last value (inclusive).
    pub to: f32,
    /// Step.
    pub step: f32,
}

impl Steps {
    /// `from..=to` by `step`.
    pub const fn new(from: f32, to: f32, step: f32) -> Steps {
        Steps { from, to, step }
    }

    /// A single value.
    pub const fn fixed(v: f32) -> Steps {
        Steps {
            from: v,
            to: v,
            step: 1.0,
        }
    }

    /// The values.
    pub fn values(&self) -> Vec<f32> {
        if self.step.is_nan() || self.step <= 0.0 || !self.from.is_finite() || !self.to.is_finite()
        {
            return vec![self.from];
        }
        let n = ((self.to - self.from) / self.step + 1e-4).floor();
        if n < 0.0 {
            return Vec::new();
        }
        let n = (n as usize).min(10_000);
        (0..=n)
            .map(|k| {
                // Round to 1e-6 so that 0.05 * 3 is 0.15, not 0.15000001.
                let v = f64::from(self.from) + k as f64 * f64::from(self.step);
                ((v * 1e6).round() / 1e6) as f32
            })
            .collect()
    }
}

/// The training grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// Weight ranges in property order (amplitude, link, text, UL, representative, position).
    pub weights: [Steps; PROPERTIES],
    /// Algorithm 2's menu threshold.
    pub menu_threshold: Steps,
    /// Algorithm 1's root threshold.
    pub root_threshold: Steps,
    /// The candidate threshold (fixed at 0.85 in the paper).
    pub candidate_threshold: Steps,
    /// Keep only weight vectors that sum to 1 (the paper's constraint).
    pub sum_to_one: bool,
    /// The readings the features are computed with.
    pub readings: Readings,
}

impl Grid {
    /// Section 4.1's grid.
    pub fn paper() -> Grid {
        Grid {
            weights: [
                Steps::new(0.00, 0.20, 0.05),
                Steps::new(0.05, 0.40, 0.05),
                Steps::new(0.25, 0.60, 0.05),
                Steps::new(0.00, 0.20, 0.05),
                Steps::new(0.00, 0.20, 0.05),
                Steps::new(0.00, 0.25, 0.05),
            ],
            menu_threshold: Steps::new(0.80, 0.90, 0.05),
            root_threshold: Steps::new(0.70, 0.90, 0.10),
            candidate_threshold: Steps::fixed(0.85),
            sum_to_one: true,
            readings: Readings::default(),
        }
    }

    /// Every weight vector of the grid, in lexicographic order of the ranges.
    pub fn weight_vectors(&self) -> Vec<Weights> {
        let axes: Vec<Vec<f32>> = self.weights.iter().map(Steps::values).collect();
        if axes.iter().any(Vec::is_empty) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut idx = [0usize; PROPERTIES];
        loop {
            let mut a = [0f32; PROPERTIES];
            for (k, v) in a.iter_mut().enumerate() {
                *v = axes[k][idx[k]];
            }
            let sum: f64 = a.iter().map(|&v| f64::from(v)).sum();
            if !self.sum_to_one || (sum - 1.0).abs() < 1e-4 {
                out.push(Weights::from_array(a));
            }
            // Odometer increment, last axis fastest.
            let mut k = PROPERTIES;
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < axes[k].len() {
                    break;
                }
                idx[k] = 0;
            }
        }
    }

    /// The (candidate, root, menu) threshold triples, in grid order.
    pub fn thresholds(&self) -> Vec<(f32, f32, f32)> {
        let mut out = Vec::new();
        for c in self.candidate_threshold.values() {
            for r in self.root_threshold.values() {
                for m in self.menu_threshold.values() {
                    out.push((c, r, m));
                }
            }
        }
        out
    }

    /// Every combination, in grid order (weight vector major, then thresholds).
    pub fn combinations(&self) -> Vec<MenuParams> {
        let th = self.thresholds();
        self.weight_vectors()
            .into_iter()
            .flat_map(|w| {
                th.iter().map(move |&(c, r, m)| MenuParams {
                    method: crate::Method::Paper,
                    model: crate::model::MenuModel::DEFAULT,
                    weights: w,
                    menu_threshold: m,
                    root_threshold: r,
                    candidate_threshold: c,
                    readings: self.readings,
                })
            })
            .collect()
    }
}

impl Default for Grid {
    fn default() -> Grid {
        Grid::paper()
    }
}

/// What the grid needs of a labelled page: its features, leaf counts per element and gold
/// element, computed once.
#[derive(Clone, Debug)]
pub struct TrainPage {
    /// The page's site (cross-validation folds never split a site).
    pub site: String,
    features: NodeFeatures,
    leaves: Vec<u32>,
    gold: TrainGold,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TrainGold {
    Null,
    Elem(u32),
    /// A gold menu the detector cannot output (unresolved, or outside the body).
    Unreachable,
}

impl TrainPage {
    /// Prepares a page: features with `readings`, leaf counts, the gold element.
    pub fn new(doc: &Document, gold: Gold, site: &str, readings: &Readings) -> TrainPage {
        let features = NodeFeatures::compute(doc, readings);
        let counts = LeafCounts::new(doc);
        let leaves = (0..features.len() as u32)
            .map(|e| counts.get(features.node(e)))
            .collect();
        let gold = match gold {
            Gold::Null => TrainGold::Null,
            Gold::Unresolved => TrainGold::Unreachable,
            Gold::Selector(n) | Gold::LinkTexts(n) => match features.elem(n) {
                Some(e) => TrainGold::Elem(e),
                None => TrainGold::Unreachable,
            },
        };
        TrainPage {
            site: site.to_owned(),
            features,
            leaves,
            gold,
        }
    }

    /// The page's features.
    pub fn features(&self) -> &NodeFeatures {
        &self.features
    }

    /// Whether the gold is null.
    pub fn gold_is_null(&self) -> bool {
        self.gold == TrainGold::Null
    }

    /// Scores a predicted element (as in [`crate::eval::score`]).
    pub fn score(&self, pred: Option<u32>) -> PageScore {
        match (self.gold, pred) {
            (TrainGold::Null, None) => PageScore::all(1.0),
            (TrainGold::Null, Some(_)) => PageScore::all(0.0),
            (TrainGold::Unreachable, _) | (_, None) => PageScore::default(),
            (TrainGold::Elem(g), Some(p)) => {
                let f = &self.features;
                let lp = self.leaves[p as usize];
                let lg = self.leaves[g as usize];
                let inter = if f.contains(p, g) {
                    lg
                } else if f.contains(g, p) {
                    lp
                } else {
                    0
                };
                PageScore::from_counts(inter, lp, lg)
            }
        }
    }

    /// The node a predicted element stands for.
    pub fn node(&self, e: u32) -> NodeId {
        self.features.node(e)
    }
}

/// Prepares labelled pages for the grid (features with `readings`, computed in parallel).
pub fn prepare(pages: &[crate::eval::LabelledPage], readings: &Readings) -> Vec<TrainPage> {
    pages
        .par_iter()
        .map(|p| TrainPage::new(&p.doc, p.gold, &p.entry.site, readings))
        .collect()
}

/// `chaff train-menu --labels FILE` in one call: loads the labelled pages, fits the grid to all
/// of them, and (with `folds >= 2`) cross-validates by site to estimate held-out accuracy.
pub fn train_from_labels(
    labels: &std::path::Path,
    grid: &Grid,
    folds: usize,
) -> Result<(Trained, Option<CrossValidation>), MenuError> {
    let pages = crate::eval::load_labelled(labels)?;
    if pages.is_empty() {
        return Err(MenuError::Invalid(format!(
            "{}: no labelled pages",
            labels.display()
        )));
    }
    let prepared = prepare(&pages, &grid.readings);
    let scores = evaluate_grid(&prepared, grid);
    let trained = train_with(&prepared, &scores)?;
    let cv = if folds >= 2 {
        cross_validate_with(&prepared, &scores, folds).ok()
    } else {
        None
    };
    Ok((trained, cv))
}

/// Scores of every combination on every page.
#[derive(Clone, Debug)]
pub struct GridScores {
    /// The combinations, in grid order.
    pub combos: Vec<MenuParams>,
    /// Number of pages.
    pub pages: usize,
    /// `scores[c * pages + p]`: combination `c` on page `p`.
    pub scores: Vec<PageScore>,
}

impl GridScores {
    /// The scores of one combination, by page.
    pub fn of(&self, combo: usize) -> &[PageScore] {
        &self.scores[combo * self.pages..(combo + 1) * self.pages]
    }

    /// The best combination on the given pages (see the module docs for ties); `None` when
    /// the grid is empty.
    pub fn best_on(&self, pages: &[usize]) -> Option<usize> {
        let paper = MenuParams::PAPER;
        let mut best: Option<(usize, f64, usize, f64)> = None;
        for c in 0..self.combos.len() {
            let s = self.of(c);
            let f1: f64 = pages.iter().map(|&p| s[p].f1).sum();
            let perfect = pages.iter().filter(|&&p| s[p].perfect()).count();
            let dist = distance(&self.combos[c], &paper);
            let better = match best {
                None => true,
                Some((_, bf, bp, bd)) => {
                    f1 > bf + 1e-9
                        || ((f1 - bf).abs() <= 1e-9
                            && (perfect > bp || (perfect == bp && dist < bd - 1e-9)))
                }
            };
            if better {
                best = Some((c, f1, perfect, dist));
            }
        }
        best.map(|b| b.0)
    }
}

/// L1 distance between two parameter sets (weights and thresholds).
fn distance(a: &MenuParams, b: &MenuParams) -> f64 {
    let wa = a.weights.as_array();
    let wb = b.weights.as_array();
    let w: f64 = wa
        .iter()
        .zip(&wb)
        .map(|(x, y)| f64::from((x - y).abs()))
        .sum();
    w + f64::from((a.menu_threshold - b.menu_threshold).abs())
        + f64::from((a.root_threshold - b.root_threshold).abs())
        + f64::from((a.candidate_threshold - b.candidate_threshold).abs())
}

/// Runs one parameter set on a prepared page.
pub fn predict(page: &TrainPage, params: &MenuParams) -> Option<u32> {
    crate::detect_features(&page.features, params)
}

/// Scores every combination of `grid` on every page, in parallel over weight vectors.
pub fn evaluate_grid(pages: &[TrainPage], grid: &Grid) -> GridScores {
    let weights = grid.weight_vectors();
    let th = grid.thresholds();
    let how = grid.readings.menu_selection;
    let n = pages.len();
    let per_weight: Vec<Vec<PageScore>> = weights
        .par_iter()
        .map_init(Buffers::default, |b, w| {
            let mut out = vec![PageScore::default(); th.len() * n];
            for (p, page) in pages.iter().enumerate() {
                let f = &page.features;
                f.weights_into(w, &mut b.w);
                let mut last_cand = f32::NAN;
                let mut last_root = f32::NAN;
                for (t, &(ct, rt, mt)) in th.iter().enumerate() {
                    if ct != last_cand {
                        candidates(f, &b.w, ct, &mut b.cands);
                        last_cand = ct;
                        last_root = f32::NAN;
                    }
                    if rt != last_root {
                        b.rs.clear();
                        b.roots.clear();
                        b.seen.clear();
                        b.seen.resize(f.len(), false);
                        for &c in &b.cands {
                            let r = b.rs.root(f, &b.w, c, rt);
                            if !std::mem::replace(&mut b.seen[r as usize], true) {
                                b.roots.push(r);
                            }
                        }
                        if grid.readings.roots == Roots::Outermost {
                            drop_nested(f, &mut b.roots, &mut b.scratch);
                        }
                        last_root = rt;
                    }
                    let pred = b.ms.select(f, &b.w, &b.roots, mt, how);
                    out[t * n + p] = page.score(pred);
                }
            }
            out
        })
        .collect();
    let combos = grid.combinations();
    let mut scores = Vec::with_capacity(combos.len() * n);
    for block in per_weight {
        scores.extend(block);
    }
    GridScores {
        combos,
        pages: n,
        scores,
    }
}

#[derive(Default)]
struct Buffers {
    w: Vec<f32>,
    cands: Vec<u32>,
    roots: Vec<u32>,
    seen: Vec<bool>,
    scratch: Vec<u32>,
    rs: RootSelector,
    ms: MenuSelector,
}

/// The outcome of training on a set of pages.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Trained {
    /// The chosen parameters.
    pub params: MenuParams,
    /// Their scores on the training pages.
    pub summary: Summary,
    /// Number of combinations evaluated.
    pub combinations: usize,
}

/// Fits the grid to all `pages` and returns the best combination.
pub fn train(pages: &[TrainPage], grid: &Grid) -> Result<Trained, MenuError> {
    train_with(pages, &evaluate_grid(pages, grid))
}

/// [`train`] from the grid's scores on `pages`.
pub fn train_with(pages: &[TrainPage], scores: &GridScores) -> Result<Trained, MenuError> {
    let all: Vec<usize> = (0..pages.len()).collect();
    let best = scores
        .best_on(&all)
        .ok_or_else(|| MenuError::Invalid("the training grid is empty".into()))?;
    let null: Vec<bool> = pages.iter().map(TrainPage::gold_is_null).collect();
    Ok(Trained {
        params: scores.combos[best],
        summary: summarize(scores.of(best), &null),
        combinations: scores.combos.len(),
    })
}

/// One fold of a cross-validation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fold {
    /// The sites held out.
    pub test_sites: Vec<String>,
    /// Parameters trained on the other folds.
    pub params: MenuParams,
    /// Their scores on the training pages.
    pub train: Summary,
    /// Their scores on the held-out pages.
    pub test: Summary,
}

/// A cross-validation's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CrossValidation {
    /// The folds.
    pub folds: Vec<Fold>,
    /// Every page scored by the parameters trained without it.
    pub pooled: Summary,
    /// Per-page scores behind `pooled`, in page order.
    pub page_scores: Vec<PageScore>,
    /// The fold of each page.
    pub page_fold: Vec<usize>,
    /// Number of combinations in the grid.
    pub combinations: usize,
}

/// The fold of each page: sites are ordered by a hash of their name (so that folds mix data
/// sets) and dealt round-robin into `k` folds.
pub fn site_folds(pages: &[TrainPage], k: usize) -> Vec<usize> {
    let k = k.max(1);
    let mut sites: Vec<&str> = pages.iter().map(|p| p.site.as_str()).collect();
    sites.sort_unstable();
    sites.dedup();
    sites.sort_by_key(|s| (fnv1a(s), *s));
    let fold_of: BTreeMap<&str, usize> =
        sites.iter().enumerate().map(|(i, s)| (*s, i % k)).collect();
    pages.iter().map(|p| fold_of[p.site.as_str()]).collect()
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `k`-fold cross-validation by site: for each fold, the best combination on the other folds,
/// scored on it.
pub fn cross_validate(
    pages: &[TrainPage],
    grid: &Grid,
    k: usize,
) -> Result<CrossValidation, MenuError> {
    if pages.is_empty() {
        return Err(MenuError::Invalid("no labelled pages".into()));
    }
    cross_validate_with(pages, &evaluate_grid(pages, grid), k)
}

/// [`cross_validate`] from the grid's scores on `pages`.
pub fn cross_validate_with(
    pages: &[TrainPage],
    scores: &GridScores,
    k: usize,
) -> Result<CrossValidation, MenuError> {
    if pages.is_empty() || scores.pages != pages.len() {
        return Err(MenuError::Invalid("no labelled pages".into()));
    }
    let folds_of = site_folds(pages, k);
    let k = folds_of.iter().max().map_or(1, |m| m + 1);
    if k < 2 {
        return Err(MenuError::Invalid(
            "cross-validation needs pages of at least two sites".into(),
        ));
    }
    let null: Vec<bool> = pages.iter().map(TrainPage::gold_is_null).collect();
    let mut page_scores = vec![PageScore::default(); pages.len()];
    let mut folds = Vec::new();
    for fold in 0..k {
        let test: Vec<usize> = (0..pages.len()).filter(|&p| folds_of[p] == fold).collect();
        let train: Vec<usize> = (0..pages.len()).filter(|&p| folds_of[p] != fold).collect();
        let best = scores
            .best_on(&train)
            .ok_or_else(|| MenuError::Invalid("the training grid is empty".into()))?;
        let s = scores.of(best);
        let pick = |idx: &[usize]| -> Summary {
            let sc: Vec<PageScore> = idx.iter().map(|&p| s[p]).collect();
            let nl: Vec<bool> = idx.iter().map(|&p| null[p]).collect();
            summarize(&sc, &nl)
        };
        for &p in &test {
            page_scores[p] = s[p];
        }
        let mut test_sites: Vec<String> = test.iter().map(|&p| pages[p].site.clone()).collect();
        test_sites.dedup();
        folds.push(Fold {
            test_sites,
            params: scores.combos[best],
            train: pick(&train),
            test: pick(&test),
        });
    }
    Ok(CrossValidation {
        folds,
        pooled: summarize(&page_scores, &null),
        page_scores,
        page_fold: folds_of,
        combinations: scores.combos.len(),
    })
}
