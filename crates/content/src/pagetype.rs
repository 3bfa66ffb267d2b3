//! The page's type, predicted: WCXB's seven kinds (article, collection, documentation,
//! forum, listing, product, service) as an input of the second stage.
//!
//! What counts as main content depends on the kind of page: the list of items is the
//! content of a listing and noise beside an article; the posts are the content of a forum
//! thread and the comments are not part of a news story. A page's type is read off a page
//! row (the word-weighted mean of its units' own features, plus the first stage's view of the
//! page) by one small tree ensemble per type, one against the rest, trained on wcxb-dev's
//! labels. The seven probabilities go to every unit's second-stage row.

use chaff_pagelevel::features;
use serde::{Deserialize, Serialize};

use crate::gbdt::{self, Dataset, Gbdt, GbdtParams};
use crate::units::Units;

/// The types, in feature order (WCXB's names; `category` is read as `collection`).
pub const TYPES: [&str; 7] = [
    "article",
    "collection",
    "documentation",
    "forum",
    "listing",
    "product",
    "service",
];

/// Width of a page row.
pub const PAGE_WIDTH: usize = features::COUNT + 5;

/// The index of a type name.
pub fn type_index(name: &str) -> Option<u8> {
    let name = if name == "category" {
        "collection"
    } else {
        name
    };
    TYPES.iter().position(|t| *t == name).map(|i| i as u8)
}

/// A page's row: the word-weighted mean of its units' own features, then the log of units
/// and words, and the first stage's mean probability, share of words kept and maximum.
/// `own(k)` gives unit `k`'s own page-level features.
pub fn page_row<'a>(units: &Units, own: &dyn Fn(usize) -> &'a [f32], p1: &[f32]) -> Vec<f32> {
    let mut row = vec![0f32; PAGE_WIDTH];
    let total: f64 = units.words.iter().map(|w| f64::from(*w)).sum();
    if units.is_empty() || total == 0.0 {
        return row;
    }
    let mut acc = vec![0f64; features::COUNT];
    for k in 0..units.len() {
        let w = f64::from(units.words[k]);
        for (a, x) in acc.iter_mut().zip(own(k)) {
            *a += w * f64::from(*x);
        }
    }
    for (r, a) in row.iter_mut().zip(&acc) {
        *r = (a / total) as f32;
    }
    let mean = (0..units.len())
        .map(|k| f64::from(units.words[k]) * f64::from(p1[k]))
        .sum::<f64>()
        / total;
    let kept = (0..units.len())
        .filter(|&k| p1[k] >= 0.5)
        .map(|k| f64::from(units.words[k]))
        .sum::<f64>()
        / total;
    let c = features::COUNT;
    row[c] = (units.len() as f32).ln_1p();
    row[c + 1] = (total as f32).ln_1p();
    row[c + 2] = mean as f32;
    row[c + 3] = kept as f32;
    row[c + 4] = p1.iter().copied().fold(0.0, f32::max);
    row
}

/// One ensemble per type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypeModel {
    /// Per type of [`TYPES`], the ensemble for "this type, not another".
    pub one_vs_rest: Vec<Gbdt>,
}

/// Parameters of the per-type ensembles (few pages: small trees).
pub fn params() -> GbdtParams {
    GbdtParams {
        trees: 100,
        max_depth: 3,
        learning_rate: 0.1,
        lambda: 1.0,
        min_child_weight: 2.0,
        min_gain: 0.0,
        bins: 32,
        subsample: 1.0,
        colsample: 1.0,
    }
}

impl TypeModel {
    /// Fits the ensembles on page rows (flat, [`PAGE_WIDTH`] each) and their types.
    pub fn fit(rows: &[f32], kinds: &[u8]) -> TypeModel {
        TypeModel {
            one_vs_rest: fit_one_vs_rest(rows, PAGE_WIDTH, kinds, &params()),
        }
    }

    /// The probability of each type, normalised to sum to one.
    pub fn predict(&self, row: &[f32]) -> [f32; 7] {
        predict_one_vs_rest(&self.one_vs_rest, row)
    }

    /// Checks the ensembles.
    pub fn check(&self) -> Result<(), String> {
        if self.one_vs_rest.len() != TYPES.len() {
            return Err(format!(
                "{} type models, expected {}",
                self.one_vs_rest.len(),
                TYPES.len()
            ));
        }
        for m in &self.one_vs_rest {
            if m.features != PAGE_WIDTH {
                return Err("type model made for another page row".into());
            }
            m.check()?;
        }
        Ok(())
    }
}

/// Per type of [`TYPES`], an ensemble for "this type, not another", fitted on flat rows of
/// `width` features and their types (indices of [`TYPES`]).
pub fn fit_one_vs_rest(rows: &[f32], width: usize, kinds: &[u8], params: &GbdtParams) -> Vec<Gbdt> {
    let weights = vec![1.0f32; kinds.len()];
    (0..TYPES.len() as u8)
        .map(|t| {
            let labels: Vec<bool> = kinds.iter().map(|k| *k == t).collect();
            gbdt::train(
                &Dataset {
                    rows,
                    features: width,
                    labels: &labels,
                    weights: &weights,
                },
                params,
            )
        })
        .collect()
}

/// Each ensemble's probability for `row`, normalised to sum to one.
pub fn predict_one_vs_rest(models: &[Gbdt], row: &[f32]) -> [f32; 7] {
    let mut out = [0f32; 7];
    for (o, m) in out.iter_mut().zip(models) {
        *o = m.predict(row);
    }
    let sum: f32 = out.iter().sum();
    if sum > 0.0 {
        for o in &mut out {
            *o /= sum;
        }
    }
    out
}
