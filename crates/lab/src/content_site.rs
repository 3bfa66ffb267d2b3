//! Training rows with site evidence, for `chaff-lab train-content --site-dataset`.
//!
//! Pages of multi-page sites are grouped by site; each site with at least `min_pages` of
//! them is learned from those pages alone (the gold is never read while learning), one
//! `chaff::Learner` per site method so that a method that cannot learn the site leaves its
//! inputs missing instead of losing the others; every page of the site is then extracted
//! through `chaff::Extractor` with that profile, and its site methods' verdicts become the
//! site inputs of its rows ([`chaff_content::site::rows`]), exactly as the content model
//! receives them when a user runs `chaff extract --learn`. The learned pages of a set are
//! its training split only.
//!
//! Two differences from `extract --learn`: a site here is learned alone, so the suffix
//! method's filter across the sites learned together does not run; and it is learned as one
//! template (`Learner::split_templates(false)`), as when the built-in model was fitted,
//! before sites were split into templates (`chaff::template`). Measured on held-out
//! Dragnet training sites, splitting at extraction alone already keeps a site's rarer
//! templates from its main one's evidence; rows learned per template are untried.

use std::collections::BTreeMap;

use anyhow::bail;
use chaff::{Extractor, Learner, LoadOptions, LoadedPage, Profile, Registry, SiteFrom};
use chaff_content::train::{Examples, Gold, page_examples};
use chaff_corpus::{Media, Page};
use rayon::prelude::*;

use crate::content::block_labels;

/// The site methods whose evidence the built-in model is trained with.
pub const SITE_METHODS: &str = "suffix,align,forest,subtree";

/// The sets that have multi-page sites to learn.
pub const SITE_SETS: &str = "dragnet-train,l3s-gn1,synthetic";

/// The seeds of the synthetic training sites: not those `chaff-lab eval --synthetic` scores
/// (1 to 5).
const SYNTH_SEEDS: std::ops::RangeInclusive<u64> = 101..=105;

/// One page of a site, as it is read when its site is processed.
pub(crate) enum SiteSource {
    /// A page with gold text.
    Gold(chaff_eval::GoldPage),
    /// A block-labelled page.
    Blocks(chaff_eval::BlockPage),
    /// A generated page with its node labels.
    Synth(Box<chaff_synth::SynthPage>),
}

/// A site's pages, read, with their gold.
struct Read {
    page: LoadedPage,
    gold: ReadGold,
}

enum ReadGold {
    Text(String),
    Nodes(Vec<Option<bool>>),
}

/// Groups a set's pages by site, keeping sites with at least `min_pages` pages; with
/// `holdout` `(k, n)`, the Dragnet sites of fold `k` of `n` are left out.
pub(crate) fn site_groups(
    root: &std::path::Path,
    set: &str,
    min_pages: usize,
    holdout: Option<(u32, u32)>,
) -> anyhow::Result<Vec<(String, Vec<SiteSource>)>> {
    let mut by_site: BTreeMap<String, Vec<SiteSource>> = BTreeMap::new();
    match set {
        "dragnet-train" => {
            for page in chaff_eval::dragnet(&root.join("dragnet"), Default::default())? {
                if page.split.as_deref() == Some("train")
                    && let Some(s) = page.site.clone()
                    && holdout.is_none_or(|(k, n)| crate::content::fold_of(&s, n) != k)
                {
                    by_site.entry(s).or_default().push(SiteSource::Gold(page));
                }
            }
        }
        "l3s-gn1" => {
            for page in chaff_eval::l3s_gn1(&root.join("l3s-gn1"))? {
                let key = chaff_corpus::site_key(page.url.as_deref(), None, None);
                by_site
                    .entry(key.to_string())
                    .or_default()
                    .push(SiteSource::Blocks(page));
            }
        }
        "synthetic" => {
            for seed in SYNTH_SEEDS {
                for site in chaff_synth::generate_sites_with(seed, 3, 20, None) {
                    let pages = site
                        .pages
                        .into_iter()
                        .map(|p| SiteSource::Synth(Box::new(p)));
                    by_site.entry(site.domain).or_default().extend(pages);
                }
            }
        }
        other => bail!("{other:?} has no multi-page sites to learn (known: {SITE_SETS})"),
    }
    Ok(by_site
        .into_iter()
        .filter(|(_, pages)| pages.len() >= min_pages)
        .collect())
}

/// Reads one page of a site as the extractor would see it, with its gold.
fn read(source: &SiteSource, folder: &str) -> Option<Read> {
    match source {
        SiteSource::Gold(g) => {
            let bytes = chaff_eval::read_maybe_gz(&g.html_path).ok()?;
            let page = Page {
                source: g.html_path.display().to_string(),
                url: None,
                bytes,
                charset: None,
                folder: Some(folder.into()),
                media: Media::Html,
            };
            let opts = LoadOptions {
                site_from: SiteFrom::Folder,
                ..LoadOptions::default()
            };
            let page = chaff::load_page(page, &opts).ok()?;
            Some(Read {
                page,
                gold: ReadGold::Text(g.gold_text.clone()),
            })
        }
        SiteSource::Blocks(b) => {
            let (doc, view, labels) = block_labels(b)?;
            let source = b.html_path.display().to_string();
            Some(node_labelled(source, folder, doc, view, labels))
        }
        SiteSource::Synth(p) => {
            let doc = p.parse().ok()?;
            let view = chaff_dom::TextView::new(&doc);
            let labels = p
                .labels
                .iter()
                .map(|l| match l {
                    chaff_synth::Label::Content => Some(true),
                    chaff_synth::Label::Template | chaff_synth::Label::Menu => Some(false),
                    chaff_synth::Label::Structure => None,
                })
                .collect();
            Some(node_labelled(p.file.clone(), folder, doc, view, labels))
        }
    }
}

/// A page parsed by its set's reader (node ids matching its labels) in the site's folder.
fn node_labelled(
    source: String,
    folder: &str,
    doc: chaff_dom::Document,
    view: chaff_dom::TextView,
    labels: Vec<Option<bool>>,
) -> Read {
    let page = LoadedPage {
        source,
        url: None,
        site: chaff_corpus::site_key(None, None, Some(std::path::Path::new(folder))),
        media: Media::Html,
        doc,
        view,
        text: None,
    };
    Read {
        page,
        gold: ReadGold::Nodes(labels),
    }
}

/// Learns a site from its pages, one method at a time; the methods that failed are named.
fn learn(
    registry: &Registry,
    methods: &[&str],
    site: &str,
    pages: &[LoadedPage],
) -> anyhow::Result<(Profile, Vec<String>)> {
    let mut profile = Profile::new(site, pages.len() as u32);
    let mut failed = Vec::new();
    for m in methods {
        let learner = Learner::new(registry, &[*m])?.split_templates(false);
        match learner.learn_pages(site, pages) {
            Ok(p) => profile.methods.extend(p.methods),
            Err(e) => failed.push(format!("{m}: {e}")),
        }
    }
    Ok((profile, failed))
}

/// The training rows of one site's pages, each with the site's evidence.
pub(crate) fn site_examples(
    registry: &Registry,
    methods: &[&str],
    site: &str,
    sources: &[SiteSource],
) -> anyhow::Result<(Examples, Vec<String>)> {
    let folder = chaff::corpus::site_file_stem(site).replace('.', "_");
    let read: Vec<Read> = sources.iter().filter_map(|s| read(s, &folder)).collect();
    if read.is_empty() {
        return Ok((
            Examples::default(),
            vec![format!("{site}: no readable page")],
        ));
    }
    let (pages, golds): (Vec<LoadedPage>, Vec<ReadGold>) =
        read.into_iter().map(|r| (r.page, r.gold)).unzip();
    let (profile, failed) = learn(registry, methods, site, &pages)?;
    let ex = Extractor::builder()
        .registry(registry.clone())
        .profile_for_every_page(profile)
        .page_methods(Vec::<String>::new())
        .build()?;
    let mut all = Examples::default();
    for (page, gold) in pages.into_iter().zip(&golds) {
        let extraction = ex.extract_loaded(page);
        let said = extraction.site_verdicts();
        let (doc, view) = (extraction.document(), extraction.view());
        let gold = match gold {
            ReadGold::Text(t) => Gold::Text(t),
            ReadGold::Nodes(n) => Gold::Nodes(n),
        };
        all.extend(page_examples(doc, view, None, &gold, &said));
    }
    let failed = failed.into_iter().map(|f| format!("{site}: {f}")).collect();
    Ok((all, failed))
}

/// Every site's rows of the named sets, by set: the rows, and what could not be learned.
pub(crate) fn sets_examples(
    root: &std::path::Path,
    sets: &[&str],
    methods: &[&str],
    (min_pages, holdout): (usize, Option<(u32, u32)>),
    registry: &Registry,
) -> anyhow::Result<Vec<(String, Examples, usize)>> {
    let mut out = Vec::new();
    for set in sets {
        let groups = site_groups(root, set, min_pages, holdout)?;
        let per_site: Vec<anyhow::Result<(Examples, Vec<String>)>> = groups
            .par_iter()
            .map(|(site, sources)| site_examples(registry, methods, site, sources))
            .collect();
        let mut ex = Examples::default();
        let mut failures = 0usize;
        for r in per_site {
            let (e, failed) = r?;
            for f in &failed {
                eprintln!("{set} (site evidence): {f}");
            }
            failures += failed.len();
            ex.extend(e);
        }
        out.push((
            format!("{set} with site evidence ({} sites)", groups.len()),
            ex,
            failures,
        ));
    }
    Ok(out)
}
