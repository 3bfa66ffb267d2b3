//! The recipe: labelled pages in, a [`ContentModel`] out.
//!
//! A page is labelled either by gold text ([`Gold::Text`], aligned with [`crate::gold`]) or
//! by node labels ([`Gold::Nodes`], block-labelled sets such as L3S-GN1 and CANOLA). Every
//! unit gives a row, weighted by its share of the page's words (times 100), so that each
//! page counts the same whatever its length, and within a page a unit counts by its words,
//! as the scorer counts them. Pages whose gold text mostly does not occur on the page (less
//! than [`MIN_GOLD_COVERAGE`] of its words align: the gold was written for another version
//! of the page) are left out and counted.

use chaff_core::SiteVerdict;
use chaff_dom::{Document, TextView};
use chaff_pagelevel::features;

use crate::context;
use crate::gbdt::{self, Dataset, GbdtParams};
use crate::gold;
use crate::model::{ContentModel, FORMAT, VERSION};
use crate::pagetype::{self, TypeModel};
use crate::site;
use crate::units::{self, Units};

/// Features per training row: a unit's, then its site inputs ([`site::COUNT`], missing on
/// pages learned without site evidence).
pub fn row_width() -> usize {
    units::width() + site::COUNT
}

/// Pages whose gold text aligns less than this share are left out of training.
pub const MIN_GOLD_COVERAGE: f64 = 0.3;

/// What a page's main content is, as a labelled set states it.
pub enum Gold<'a> {
    /// The main content as text.
    Text(&'a str),
    /// Per node id: `Some(true)` content, `Some(false)` boilerplate, `None` unlabelled
    /// (a unit takes the label of its closest labelled ancestor-or-self).
    Nodes(&'a [Option<bool>]),
}

/// Training parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainOptions {
    /// The tree ensemble's parameters.
    pub gbdt: GbdtParams,
    /// Probability of content at or above which a unit is kept.
    pub threshold: f32,
    /// Train the second stage on context features (stacking).
    pub stack: bool,
    /// Give the second stage the predicted page type ([`crate::pagetype`]; off by
    /// default: it measured lower, see the crate documentation).
    pub page_types: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            gbdt: GbdtParams::default(),
            threshold: 0.4,
            stack: true,
            page_types: false,
        }
    }
}

/// Training rows.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    /// Rows, [`row_width`] each, flat.
    pub rows: Vec<f32>,
    /// Each row's label (true: content).
    pub content: Vec<bool>,
    /// Each row's weight.
    pub weights: Vec<f32>,
    /// Pages that gave rows.
    pub pages: u32,
    /// Pages left out because their gold text did not fit.
    pub skipped: u32,
    /// Gold words over all text-labelled pages, and those aligned.
    pub gold_words: u64,
    /// Gold words that aligned.
    pub gold_aligned: u64,
    /// Page words over all text-labelled pages, and those in content units.
    pub page_words: u64,
    /// Page words labelled content.
    pub page_content_words: u64,
    /// Per page that gave rows: its first row, and its units' words and skeleton (for the
    /// second stage's context features).
    pub shapes: Vec<PageShape>,
}

/// What the context features need of a training page.
#[derive(Clone, Debug, Default)]
pub struct PageShape {
    /// Its first row in [`Examples::rows`].
    pub start: usize,
    /// The page's units (rows moved to [`Examples::rows`] and forgotten here).
    pub units: Units,
    /// The page's type ([`crate::pagetype::TYPES`]), when its set labels it.
    pub kind: Option<u8>,
}

impl Examples {
    /// Appends another set.
    pub fn extend(&mut self, other: Examples) {
        let offset = self.len();
        self.shapes.extend(other.shapes.into_iter().map(|mut s| {
            s.start += offset;
            s
        }));
        self.rows.extend(other.rows);
        self.content.extend(other.content);
        self.weights.extend(other.weights);
        self.pages += other.pages;
        self.skipped += other.skipped;
        self.gold_words += other.gold_words;
        self.gold_aligned += other.gold_aligned;
        self.page_words += other.page_words;
        self.page_content_words += other.page_content_words;
    }

    /// The page and word counts alone, without rows.
    pub fn counts(&self) -> Examples {
        Examples {
            pages: self.pages,
            skipped: self.skipped,
            gold_words: self.gold_words,
            gold_aligned: self.gold_aligned,
            page_words: self.page_words,
            page_content_words: self.page_content_words,
            ..Examples::default()
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.content.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty()
    }
}

/// The rows of one labelled page; `site` is what its site's methods said of it when the
/// page was extracted with its site's profile (empty otherwise: the site inputs are then
/// missing).
pub fn page_examples(
    doc: &Document,
    view: &TextView,
    url: Option<&str>,
    gold: &Gold<'_>,
    site: &[SiteVerdict<'_>],
) -> Examples {
    let units = Units::compute(doc, view, url);
    let site_rows = (!site.is_empty()).then(|| site::rows(doc, view, &units, site));
    let mut ex = Examples::default();
    let labels: Vec<bool> = match gold {
        Gold::Text(text) => {
            let a = gold::align(view, text);
            ex.gold_words = a.gold_words as u64;
            ex.gold_aligned = a.gold_aligned as u64;
            ex.page_words = a.page_words as u64;
            ex.page_content_words = (a.page_content_share() * a.page_words as f64).round() as u64;
            if a.gold_words > 0 && a.gold_coverage() < MIN_GOLD_COVERAGE {
                ex.skipped = 1;
                return ex;
            }
            let by_node = a.node_labels(doc);
            units
                .nodes
                .iter()
                .map(|id| by_node[id.index()].unwrap_or(false))
                .collect()
        }
        Gold::Nodes(by_node) => units
            .nodes
            .iter()
            .map(|&id| {
                std::iter::once(id)
                    .chain(doc.ancestors(id))
                    .find_map(|a| by_node.get(a.index()).copied().flatten())
                    .unwrap_or(false)
            })
            .collect(),
    };
    let total: f32 = units.words.iter().map(|w| *w as f32).sum::<f32>().max(1.0);
    let mut units = units;
    ex.rows = Vec::with_capacity(units.len() * row_width());
    for k in 0..units.len() {
        units.append_row(k, &mut ex.rows);
        match site_rows
            .as_deref()
            .and_then(|r| r.get(k * site::COUNT..(k + 1) * site::COUNT))
        {
            Some(s) => ex.rows.extend_from_slice(s),
            None => ex.rows.extend(std::iter::repeat_n(f32::NAN, site::COUNT)),
        }
    }
    units.forget_rows();
    ex.weights = units
        .words
        .iter()
        .map(|w| *w as f32 / total * 100.0)
        .collect();
    ex.shapes.push(PageShape {
        start: 0,
        units,
        kind: None,
    });
    ex.content = labels;
    ex.pages = 1;
    ex
}

/// Fits a model. Deterministic: the same examples and options give the same bytes.
///
/// With [`TrainOptions::stack`], the second stage learns from first-stage probabilities the
/// first stage did not see the answers of: pages are dealt to two halves (even and odd
/// positions), a first stage fitted on each half predicts the other, and those out-of-fold
/// probabilities make the context features of the training rows. The stored first stage is
/// then fitted on all pages.
pub fn fit(examples: &Examples, opts: &TrainOptions, note: &str) -> ContentModel {
    let width = row_width();
    let stage1 = gbdt::train(&dataset(examples, &examples.rows, width), &opts.gbdt);
    let (stage2, page_types) = if opts.stack {
        let (stage2, types) = second_stage(examples, &opts.gbdt, opts.page_types);
        (Some(stage2), types)
    } else {
        (None, None)
    };
    ContentModel {
        format: FORMAT.to_owned(),
        version: VERSION,
        features: units::names(),
        threshold: opts.threshold,
        site: site::names(),
        gbdt: stage1,
        context: if stage2.is_some() {
            context::NAMES.iter().map(|s| (*s).to_owned()).collect()
        } else {
            Vec::new()
        },
        stage2,
        page_types,
        trained_on: note.to_owned(),
    }
}

/// The second stage and the page-type model, both trained on out-of-fold inputs.
fn second_stage(
    examples: &Examples,
    params: &GbdtParams,
    page_types: bool,
) -> (gbdt::Gbdt, Option<TypeModel>) {
    let width = row_width();
    let oof = out_of_fold(examples, params);
    // Page rows from out-of-fold first-stage probabilities.
    let page_rows: Vec<Vec<f32>> = examples
        .shapes
        .iter()
        .map(|s| {
            let n = s.units.len();
            let own = |k: usize| &examples.rows[(s.start + k) * width..][..features::COUNT];
            pagetype::page_row(&s.units, &own, &oof[s.start..s.start + n])
        })
        .collect();
    let fit_types = |keep: &dyn Fn(usize) -> bool| {
        let mut rows = Vec::new();
        let mut kinds = Vec::new();
        for (k, shape) in examples.shapes.iter().enumerate() {
            if let Some(kind) = shape.kind.filter(|_| keep(k)) {
                rows.extend_from_slice(&page_rows[k]);
                kinds.push(kind);
            }
        }
        TypeModel::fit(&rows, &kinds)
    };
    let halves = page_types.then(|| [fit_types(&|k| k % 2 == 1), fit_types(&|k| k % 2 == 0)]);
    let width2 = width + context::COUNT;
    let mut rows = Vec::with_capacity(examples.len() * width2);
    let mut ctx = Vec::new();
    for (k, shape) in examples.shapes.iter().enumerate() {
        let n = shape.units.len();
        let types = halves
            .as_ref()
            .map_or([0.0; 7], |h| h[k % 2].predict(&page_rows[k]));
        ctx.clear();
        context::rows(
            &shape.units,
            &oof[shape.start..shape.start + n],
            &types,
            &mut ctx,
        );
        for j in 0..n {
            let r = shape.start + j;
            rows.extend_from_slice(&examples.rows[r * width..(r + 1) * width]);
            rows.extend_from_slice(&ctx[j * context::COUNT..(j + 1) * context::COUNT]);
        }
    }
    let stage2 = gbdt::train(&dataset(examples, &rows, width2), params);
    (stage2, page_types.then(|| fit_types(&|_| true)))
}

fn dataset<'a>(examples: &'a Examples, rows: &'a [f32], features: usize) -> Dataset<'a> {
    Dataset {
        rows,
        features,
        labels: &examples.content,
        weights: &examples.weights,
    }
}

/// First-stage probabilities of every row from a model that did not train on its page.
fn out_of_fold(examples: &Examples, params: &GbdtParams) -> Vec<f32> {
    let width = row_width();
    let mut p = vec![0f32; examples.len()];
    for half in 0..2 {
        let mut part = Examples::default();
        for (k, shape) in examples.shapes.iter().enumerate() {
            if k % 2 == half {
                continue;
            }
            let n = shape.units.len();
            part.rows
                .extend_from_slice(&examples.rows[shape.start * width..(shape.start + n) * width]);
            part.content
                .extend_from_slice(&examples.content[shape.start..shape.start + n]);
            part.weights
                .extend_from_slice(&examples.weights[shape.start..shape.start + n]);
        }
        let model = gbdt::train(&dataset(&part, &part.rows, width), params);
        for (k, shape) in examples.shapes.iter().enumerate() {
            if k % 2 != half {
                continue;
            }
            let rows = shape.start..shape.start + shape.units.len();
            for (r, out) in rows.clone().zip(&mut p[rows]) {
                *out = model.predict(&examples.rows[r * width..(r + 1) * width]);
            }
        }
    }
    p
}
