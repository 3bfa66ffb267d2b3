//! Scoring against the synthetic sites' exact labels: how many template, menu and content
//! words a labelling removes (the acceptance measure "at least 99% of template words removed,
//! at most 1% of content words removed").
//!
//! The method under test is a closure that receives all sites of one seed (site-level methods
//! may filter across sites) and returns, for every page, its parsed document, view and labels.

use std::collections::BTreeMap;

use chaff_core::Labels;
use chaff_dom::{Document, NodeId, TextView};
use chaff_synth::{Region, SynthSite, WordCounts, generate_sites_with, word_counts_by_region};

/// A labelled page as the method under test returns it.
pub struct LabelledPage {
    /// The parsed page.
    pub doc: Document,
    /// Its view.
    pub view: TextView,
    /// The method's labels.
    pub labels: Labels,
}

/// Word counts per markup style and overall.
#[derive(Debug, Default, Clone)]
pub struct SyntheticReport {
    /// Counts per style name.
    pub by_style: BTreeMap<String, WordCounts>,
    /// Counts over everything.
    pub total: WordCounts,
    /// Counts per region of the generator, over everything: where the misses lie.
    pub by_region: BTreeMap<Region, WordCounts>,
}

/// Generates `sites` sites of `pages` pages for every seed in `seeds` (archive size as in
/// [`chaff_synth::SiteConfig::archive`]), labels them with `label` and counts removed words
/// against the generator's labels.
pub fn evaluate<E>(
    seeds: impl IntoIterator<Item = u64>,
    sites: usize,
    pages: usize,
    archive: Option<usize>,
    mut label: impl FnMut(&[SynthSite]) -> Result<Vec<Vec<LabelledPage>>, E>,
) -> Result<SyntheticReport, E> {
    let mut report = SyntheticReport::default();
    for seed in seeds {
        let generated = generate_sites_with(seed, sites, pages, archive);
        let labelled = label(&generated)?;
        for (site, pages) in generated.iter().zip(labelled) {
            for (page, lp) in site.pages.iter().zip(pages) {
                let removed = |id, text: &str| removed_words(&lp.view, &lp.labels, id, text);
                // The generator gives every node a label and a region, so the regions'
                // counts sum to the page's.
                let regions = word_counts_by_region(&lp.doc, &page.labels, &page.regions, &removed);
                let counts: WordCounts = regions.values().copied().sum();
                *report.by_style.entry(site.style.to_string()).or_default() += counts;
                report.total += counts;
                for (region, words) in regions {
                    *report.by_region.entry(region).or_default() += words;
                }
            }
        }
    }
    Ok(report)
}

/// Words of text node `id` the labels remove: all of them for a removed node, those that
/// vanish for a partly cut node, none otherwise.
pub fn removed_words(view: &TextView, labels: &Labels, id: NodeId, text: &str) -> u64 {
    let words = text.split_whitespace().count() as u64;
    if labels.is_removed(id) {
        return words;
    }
    if let (Some(ranges), Some(seg)) = (labels.partial(id), view.segment_of(id)) {
        let s = &view.text()[seg.range()];
        let mut kept = 0u64;
        let mut pos = 0usize;
        for r in ranges {
            kept += s
                .get(pos..r.start as usize)
                .map_or(0, |k| k.split_whitespace().count() as u64);
            pos = r.end as usize;
        }
        kept += s
            .get(pos..)
            .map_or(0, |k| k.split_whitespace().count() as u64);
        return words.saturating_sub(kept);
    }
    0
}
