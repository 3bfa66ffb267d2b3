//! Training the page-level classifier from multi-page sites (sections 3 and 5.1-5.2):
//! SiteLevel(θ) labels each site's nodes, the features of the labelled nodes become rows, and
//! one logistic regression is fitted per node-size bucket.

use chaff_dom::{Document, TextView};
use rayon::prelude::*;

use crate::features::{self, PageFeatures};
use crate::logreg::{FitOptions, LogReg};
use crate::model::{self, PageModel, TrainedOn};
use crate::sitelevel::{self, CoverMeasure, SiteLevelConfig};

/// One page of a training site.
pub struct TrainPage {
    /// The DOM.
    pub doc: Document,
    /// Its visible text.
    pub view: TextView,
    /// Its URL, if known (for the intra-site link feature).
    pub url: Option<String>,
}

/// Training parameters.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// SiteLevel's parameters (θ = 0.1, 85%).
    pub site_level: SiteLevelConfig,
    /// Pages used per site at most (evenly spread over the site's pages).
    pub max_pages_per_site: usize,
    /// Rows kept per page at most (evenly spread over its nodes).
    pub max_rows_per_page: usize,
    /// The regression's L2 penalty.
    pub lambda: f64,
    /// Area under which nodes are hidden (not classified).
    pub hide_area: f64,
    /// What the 85% rule measures: the paper measures HTML; text is the default here (see
    /// the crate documentation).
    pub cover_measure: CoverMeasure,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            site_level: SiteLevelConfig::default(),
            max_pages_per_site: 40,
            max_rows_per_page: 400,
            lambda: 1.0,
            hide_area: model::DEFAULT_HIDE_AREA,
            cover_measure: CoverMeasure::Text,
        }
    }
}

/// Training rows of one or more sites.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    /// Feature rows.
    pub rows: Vec<[f32; features::COUNT]>,
    /// Each row's area (picks its bucket).
    pub area: Vec<f64>,
    /// Each row's SiteLevel label (true: template).
    pub template: Vec<bool>,
    /// Sites and pages the rows came from.
    pub sites: u32,
    /// Pages the rows came from.
    pub pages: u32,
}

impl Examples {
    /// Appends another set.
    pub fn extend(&mut self, other: Examples) {
        self.rows.extend(other.rows);
        self.area.extend(other.area);
        self.template.extend(other.template);
        self.sites += other.sites;
        self.pages += other.pages;
    }
}

/// Spreads `keep` picks evenly over `0..n`.
fn spread(n: usize, keep: usize) -> Vec<usize> {
    if n <= keep {
        return (0..n).collect();
    }
    (0..keep).map(|k| k * n / keep).collect()
}

/// Labels a site's pages with SiteLevel and turns their nodes into rows. A site of fewer than
/// two pages gives no rows (nothing can repeat).
pub fn site_examples(pages: &[TrainPage], opts: &TrainOptions) -> Examples {
    if pages.len() < 2 {
        return Examples::default();
    }
    let picked: Vec<&TrainPage> = spread(pages.len(), opts.max_pages_per_site)
        .into_iter()
        .map(|k| &pages[k])
        .collect();
    let hashes: Vec<sitelevel::SubtreeHashes> = picked
        .par_iter()
        .map(|p| sitelevel::subtree_hashes(&p.doc))
        .collect();
    let model = sitelevel::learn(&hashes, opts.site_level);
    let per_page: Vec<Examples> = picked
        .par_iter()
        .zip(&hashes)
        .map(|(p, h)| {
            let template = model.template_nodes(&p.doc, h, opts.cover_measure);
            let f = PageFeatures::compute(&p.doc, &p.view, p.url.as_deref(), None);
            let eligible: Vec<usize> = (0..f.nodes.len())
                .filter(|&k| f.area[f.nodes[k].index()] >= opts.hide_area)
                .collect();
            let mut ex = Examples {
                pages: 1,
                ..Examples::default()
            };
            for k in spread(eligible.len(), opts.max_rows_per_page) {
                let k = eligible[k];
                let id = f.nodes[k];
                ex.rows.push(f.rows[k]);
                ex.area.push(f.area[id.index()]);
                ex.template.push(template[id.index()]);
            }
            ex
        })
        .collect();
    let mut out = Examples {
        sites: 1,
        ..Examples::default()
    };
    for e in per_page {
        out.extend(e);
    }
    out.sites = 1;
    out
}

/// Turns a page whose nodes carry labels from elsewhere (human block labels, for
/// cross-set experiments) into rows: `template[id]` is `Some(true)` for a template node,
/// `Some(false)` for content and `None` for a node that gives no row. Nodes under the hidden
/// area give no row, as in [`site_examples`].
pub fn labelled_examples(
    page: &TrainPage,
    template: &[Option<bool>],
    opts: &TrainOptions,
) -> Examples {
    let f = PageFeatures::compute(&page.doc, &page.view, page.url.as_deref(), None);
    let eligible: Vec<(usize, bool)> = (0..f.nodes.len())
        .filter_map(|k| {
            let id = f.nodes[k].index();
            let label = template.get(id).copied().flatten()?;
            (f.area[id] >= opts.hide_area).then_some((k, label))
        })
        .collect();
    let mut ex = Examples {
        pages: 1,
        ..Examples::default()
    };
    for k in spread(eligible.len(), opts.max_rows_per_page) {
        let (k, label) = eligible[k];
        let id = f.nodes[k];
        ex.rows.push(f.rows[k]);
        ex.area.push(f.area[id.index()]);
        ex.template.push(label);
    }
    ex
}

/// The value below which a share `q` of the sorted values lie.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

/// Fits the four bucket models. Bucket bounds are the area quartiles of the rows, so each
/// model sees a quarter of the data.
pub fn train(examples: &Examples, opts: &TrainOptions, note: &str) -> PageModel {
    let mut sorted = examples.area.clone();
    sorted.sort_by(f64::total_cmp);
    let bounds = [
        quantile(&sorted, 0.25),
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.75),
    ];
    let mut template = PageModel {
        format: model::FORMAT.into(),
        version: model::VERSION,
        features: features::NAMES.iter().map(|s| s.to_string()).collect(),
        bucket_bounds: bounds,
        buckets: Vec::new(),
        threshold: model::DEFAULT_THRESHOLD,
        c: model::DEFAULT_C,
        hide_area: opts.hide_area,
        trained_on: TrainedOn {
            sites: examples.sites,
            pages: examples.pages,
            rows: vec![0; 4],
            positives: vec![0; 4],
            note: note.to_string(),
        },
    };
    let mut by_bucket: Vec<Vec<usize>> = vec![Vec::new(); 4];
    for (k, &a) in examples.area.iter().enumerate() {
        by_bucket[template.bucket(a)].push(k);
    }
    let fit = FitOptions {
        lambda: opts.lambda,
        ..FitOptions::default()
    };
    let buckets: Vec<LogReg> = by_bucket
        .par_iter()
        .map(|idx| {
            let rows: Vec<Vec<f64>> = idx
                .iter()
                .map(|&k| examples.rows[k].iter().map(|&v| f64::from(v)).collect())
                .collect();
            let labels: Vec<bool> = idx.iter().map(|&k| examples.template[k]).collect();
            LogReg::fit(&rows, &labels, &vec![1.0; rows.len()], fit)
        })
        .collect();
    for (b, idx) in by_bucket.iter().enumerate() {
        template.trained_on.rows[b] = idx.len() as u32;
        template.trained_on.positives[b] =
            idx.iter().filter(|&&k| examples.template[k]).count() as u32;
    }
    template.buckets = buckets;
    template
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_picks_evenly_and_all_when_few() {
        assert_eq!(spread(3, 5), vec![0, 1, 2]);
        assert_eq!(spread(10, 5), vec![0, 2, 4, 6, 8]);
        assert!(spread(0, 5).is_empty());
    }

    #[test]
    fn labelled_examples_keep_the_given_labels_of_large_enough_nodes() {
        let html = format!(
            "<body><ul><li><a href=\"/\">Home</a></li></ul><p>{}</p><div></div></body>",
            "Words of the article. ".repeat(20)
        );
        let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
        let view = TextView::new(&doc);
        let page = TrainPage {
            doc,
            view,
            url: None,
        };
        let mut labels = vec![None; page.doc.len()];
        let ul = page
            .doc
            .ids()
            .find(|&i| page.doc.is_tag(i, "ul"))
            .expect("ul");
        let p = page
            .doc
            .ids()
            .find(|&i| page.doc.is_tag(i, "p"))
            .expect("p");
        labels[ul.index()] = Some(true);
        labels[p.index()] = Some(false);
        let opts = TrainOptions {
            hide_area: 0.0,
            ..TrainOptions::default()
        };
        let ex = labelled_examples(&page, &labels, &opts);
        // Only the two labelled nodes give rows, with their labels, in document order.
        assert_eq!(ex.template, vec![true, false]);
        assert_eq!(ex.rows.len(), 2);
        assert_eq!(ex.pages, 1);
        // A hidden area above the list's drops it and keeps the paragraph.
        let opts = TrainOptions {
            hide_area: 10.0,
            ..TrainOptions::default()
        };
        assert_eq!(
            labelled_examples(&page, &labels, &opts).template,
            vec![false]
        );
    }

    #[test]
    fn quantiles_of_sorted_values() {
        let v: Vec<f64> = (0..=100).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.25), 25.0);
        assert_eq!(quantile(&v, 0.5), 50.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
