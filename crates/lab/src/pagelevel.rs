//! `chaff-lab train`: the page-level classifier's training recipe (Chakrabarti, Kumar &
//! Punera); its evaluation on block-labelled sets; page-level predictions and timing through
//! the facade.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use chaff::corpus::{Media, Page};
use chaff::methods::pagelevel::PageLevelMethod;
use chaff::{Extractor, LoadOptions, Registry, load_page};
use chaff_eval::{BlockGold, BlockPage};
use chaff_pagelevel::train::{Examples, TrainOptions, TrainPage};
use chaff_pagelevel::{ApplyOptions, PageModel};
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;

use chaff_cli::common::{self, Status};
use chaff_cli::flags::ModelArgs;

/// Data sets `chaff train` can take its sites from.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum TrainSet {
    /// Dragnet sites none of whose pages are in the test split (58 sites, 167 pages).
    DragnetTrainSites,
    /// The training-split pages of every Dragnet site (test pages never used).
    DragnetTrain,
    /// The four CleanPortalEval portals.
    Cleanportaleval,
    /// The two SWDE book sites.
    SwdeBooks,
}

/// Block-labelled sets `chaff train --blocks` can take human labels from.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum BlockTrainSet {
    /// L3S-GN1 (621 news pages).
    L3sGn1,
    /// KrdWrd CANOLA (208 pages).
    CanolaKrdwrd,
}

#[derive(Args)]
pub struct TrainArgs {
    /// Site folders, one site each (with --per-site: any inputs, grouped by site).
    #[arg(value_name = "SITE_DIR")]
    sites: Vec<String>,
    /// Group all inputs by site (URL host or folder) instead of one site per argument.
    #[arg(long)]
    per_site: bool,
    /// Also take sites from these shared data sets.
    #[arg(long, value_enum, value_delimiter = ',')]
    dataset: Vec<TrainSet>,
    /// Also train on the human block labels of these sets (a cross-set experiment: the
    /// paper trains on SiteLevel's automatic labels only, as the built-in model does).
    #[arg(long, value_enum, value_delimiter = ',')]
    blocks: Vec<BlockTrainSet>,
    /// Where the data sets are (default: ../shared/datasets, or $CHAFF_SHARED/datasets).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Where to write the model.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
    /// SiteLevel's θ: share of a site's pages a subtree must be on to be template.
    #[arg(long, default_value_t = chaff_pagelevel::sitelevel::DEFAULT_THETA)]
    theta: f64,
    /// The regression's L2 penalty.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Pages used per site at most.
    #[arg(long, default_value_t = 40)]
    max_pages_per_site: usize,
    /// Do not show progress.
    #[arg(long, short)]
    quiet: bool,
}

fn train_page(bytes: Vec<u8>, source: String, url: Option<String>) -> anyhow::Result<TrainPage> {
    let page = Page {
        source,
        url,
        bytes,
        charset: None,
        folder: None,
        media: Media::Html,
    };
    let p = load_page(page, &LoadOptions::default())?;
    Ok(TrainPage {
        url: p.url.or_else(|| p.doc.declared_url().map(str::to_string)),
        doc: p.doc,
        view: p.view,
    })
}

/// Training sites: each a name and its pages' paths (with URLs where known).
type SiteFiles = Vec<(String, Vec<(PathBuf, Option<String>)>)>;

/// Sites of the shared data sets, as (site, page paths).
fn dataset_sites(sets: &[TrainSet], data: Option<&PathBuf>) -> anyhow::Result<SiteFiles> {
    if sets.is_empty() {
        return Ok(Vec::new());
    }
    let root = match data {
        Some(d) => d.clone(),
        None => chaff_eval::datasets_dir()
            .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED")?,
    };
    let mut sites: BTreeMap<String, Vec<(PathBuf, Option<String>)>> = BTreeMap::new();
    for set in sets {
        match set {
            TrainSet::DragnetTrainSites | TrainSet::DragnetTrain => {
                let pages =
                    chaff_eval::dragnet(&root.join("dragnet"), chaff_eval::DragnetText::Article)?;
                let mut test_sites = std::collections::HashSet::new();
                for p in &pages {
                    if p.split.as_deref() == Some("test")
                        && let Some(s) = &p.site
                    {
                        test_sites.insert(s.clone());
                    }
                }
                if *set == TrainSet::DragnetTrain {
                    test_sites.clear();
                }
                for p in pages {
                    if p.split.as_deref() == Some("test") {
                        continue;
                    }
                    if let Some(s) = p.site.filter(|s| !test_sites.contains(s)) {
                        sites
                            .entry(format!("dragnet:{s}"))
                            .or_default()
                            .push((p.html_path, p.url));
                    }
                }
            }
            TrainSet::Cleanportaleval => {
                for p in chaff_eval::cleanportaleval(
                    &root.join("cleanportaleval"),
                    chaff_eval::PortalGrouping::MergeWashingtonPost,
                )? {
                    let s = p.site.unwrap_or_else(|| p.id.clone());
                    sites
                        .entry(format!("cpe:{s}"))
                        .or_default()
                        .push((p.html_path, p.url));
                }
            }
            TrainSet::SwdeBooks => {
                let html = root.join("swde-books-subset").join("html");
                let dirs = std::fs::read_dir(&html)
                    .with_context(|| format!("cannot read {}", html.display()))?;
                for d in dirs {
                    let d = d?.path();
                    if !d.is_dir() {
                        continue;
                    }
                    let mut files: Vec<PathBuf> = std::fs::read_dir(&d)?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .collect();
                    files.sort();
                    let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
                    sites
                        .entry(format!("swde:{}", name.unwrap_or_default()))
                        .or_default()
                        .extend(files.into_iter().map(|f| (f, None)));
                }
            }
        }
    }
    sites.retain(|_, p| p.len() >= 2);
    Ok(sites.into_iter().collect())
}

pub fn train(args: TrainArgs) -> anyhow::Result<Status> {
    if !(0.0..=1.0).contains(&args.theta) {
        bail!("--theta must be between 0 and 1");
    }
    let opts = TrainOptions {
        site_level: chaff_pagelevel::SiteLevelConfig {
            theta: args.theta,
            ..chaff_pagelevel::SiteLevelConfig::default()
        },
        max_pages_per_site: args.max_pages_per_site.max(2),
        lambda: args.lambda,
        ..TrainOptions::default()
    };
    let bar = common::Progress::new(args.quiet, "training on");
    let mut examples = Examples::default();
    let mut status = Status::Ok;
    let mut note = Vec::new();
    // Sites from the shared sets.
    let sets = dataset_sites(&args.dataset, args.data.as_ref())?;
    if !args.dataset.is_empty() {
        note.push(format!(
            "data sets: {}",
            args.dataset
                .iter()
                .map(|d| d
                    .to_possible_value()
                    .map(|v| v.get_name().to_string())
                    .unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (_site, files) in &sets {
        let read: Vec<anyhow::Result<TrainPage>> = files
            .par_iter()
            .map(|(path, url)| {
                let bytes = chaff_eval::read_maybe_gz(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                train_page(bytes, path.display().to_string(), url.clone())
            })
            .collect();
        let mut pages = Vec::with_capacity(read.len());
        for r in read {
            match r {
                Ok(p) => pages.push(p),
                Err(e) => {
                    bar.warn(format!("training page skipped: {e:#}"));
                    status = Status::Partial;
                }
            }
        }
        bar.pages(pages.len() as u64);
        examples.extend(chaff_pagelevel::train::site_examples(&pages, &opts));
    }
    // Human block labels.
    if !args.blocks.is_empty() {
        let root = match args.data.as_ref() {
            Some(d) => d.clone(),
            None => chaff_eval::datasets_dir()
                .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED")?,
        };
        for set in &args.blocks {
            let (pages, name) = match set {
                BlockTrainSet::L3sGn1 => (chaff_eval::l3s_gn1(&root.join("l3s-gn1"))?, "l3s-gn1"),
                BlockTrainSet::CanolaKrdwrd => (
                    chaff_eval::canola(&root.join("canola-krdwrd"))?,
                    "canola-krdwrd",
                ),
            };
            note.push(format!("human block labels: {name}"));
            let sets: Vec<Examples> = pages
                .par_iter()
                .filter_map(|page| block_examples(page, &opts))
                .collect();
            bar.pages(pages.len() as u64);
            for e in sets {
                examples.extend(e);
            }
        }
    }
    // Sites from the command line.
    let mut groups: BTreeMap<String, Vec<TrainPage>> = BTreeMap::new();
    let mut load_group = |key: Option<String>, inputs: Vec<String>| -> anyhow::Result<()> {
        let pages = chaff::corpus::Pages::from_args(&inputs, Default::default())?;
        for page in pages {
            let loaded = page
                .map_err(chaff::Error::from)
                .and_then(|p| load_page(p, &LoadOptions::default()));
            match loaded {
                Ok(p) => {
                    let k = key.clone().unwrap_or_else(|| p.site.as_str().to_string());
                    bar.pages(1);
                    groups.entry(k).or_default().push(TrainPage {
                        url: p.url.or_else(|| p.doc.declared_url().map(str::to_string)),
                        doc: p.doc,
                        view: p.view,
                    });
                }
                Err(e) => {
                    bar.warn(&e);
                    status = Status::Partial;
                }
            }
        }
        Ok(())
    };
    if args.per_site {
        load_group(None, args.sites.clone())?;
    } else {
        for s in &args.sites {
            load_group(Some(s.clone()), vec![s.clone()])?;
        }
    }
    if !args.sites.is_empty() {
        note.push(format!("{} site argument(s)", args.sites.len()));
    }
    for pages in groups.values() {
        if pages.len() < 2 {
            continue;
        }
        examples.extend(chaff_pagelevel::train::site_examples(pages, &opts));
    }
    bar.finish();
    if examples.rows.is_empty() {
        bail!("no site with two or more readable pages: nothing to learn from");
    }
    let positives = examples.template.iter().filter(|&&t| t).count();
    let model = chaff_pagelevel::train::train(&examples, &opts, &note.join("; "));
    chaff::corpus::atomic_write(&args.out, model.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "chaff: trained on {} sites, {} pages, {} nodes ({} template); wrote {}",
        examples.sites,
        examples.pages,
        examples.rows.len(),
        positives,
        args.out.display()
    );
    Ok(status)
}

/// Word and link counts of template detection.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct TemplateCounts {
    /// Predicted template and gold template.
    pub tp: u64,
    /// Predicted template, gold content.
    pub fp: u64,
    /// Predicted content, gold template.
    pub fn_: u64,
}

impl TemplateCounts {
    fn add(&mut self, predicted: bool, gold: bool, n: u64) {
        match (predicted, gold) {
            (true, true) => self.tp += n,
            (true, false) => self.fp += n,
            (false, true) => self.fn_ += n,
            (false, false) => {}
        }
    }
    fn merge(&mut self, o: &TemplateCounts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
    fn prf(&self) -> (f64, f64, f64) {
        let p = if self.tp + self.fp > 0 {
            self.tp as f64 / (self.tp + self.fp) as f64
        } else {
            1.0
        };
        let r = if self.tp + self.fn_ > 0 {
            self.tp as f64 / (self.tp + self.fn_) as f64
        } else {
            1.0
        };
        let f = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        (p, r, f)
    }
}

/// One page's counts: words and links, with comments as template and as content.
#[derive(Clone, Copy, Debug, Default)]
struct PageCounts {
    words: [TemplateCounts; 2],
    links: [TemplateCounts; 2],
}

/// A block-labelled page as a method sees it (labels stripped), with the gold of each of its
/// scored words.
pub(crate) struct LabelledPage {
    pub(crate) doc: chaff_dom::Document,
    pub(crate) view: chaff_dom::TextView,
    /// Each scored word (with a letter or digit) of the view: its text node and gold.
    pub(crate) words: Vec<(chaff_dom::NodeId, BlockGold)>,
}

impl LabelledPage {
    /// Per node id, the scored words of its own text and how many of them are template.
    pub(crate) fn word_counts(&self) -> (Vec<u32>, Vec<u32>) {
        let mut scored = vec![0u32; self.doc.len()];
        let mut template = vec![0u32; self.doc.len()];
        for &(id, g) in &self.words {
            scored[id.index()] += 1;
            if g == BlockGold::Template {
                template[id.index()] += 1;
            }
        }
        (scored, template)
    }
}

pub(crate) fn read_block_page(page: &BlockPage) -> anyhow::Result<LabelledPage> {
    let bytes = chaff_eval::read_maybe_gz(&page.html_path)
        .with_context(|| format!("cannot read {}", page.html_path.display()))?;
    let decoded = chaff_dom::encoding::decode(&bytes, None).text.into_owned();
    let labelled = chaff_dom::parse_str(&decoded, &chaff_dom::ParseOptions::default())?;
    let gold = page.text_gold(&labelled);
    let labelled_view = chaff_dom::TextView::new(&labelled);
    let doc = chaff_dom::parse_str(&page.unlabelled_html(&decoded), &Default::default())?;
    let view = chaff_dom::TextView::new(&doc);
    // The stripped page may differ in markup (CANOLA's `<kw>` wrappers are gone) but not in
    // visible text: the gold of a word is read at its offset in the labelled page's view.
    if view.text() != labelled_view.text() {
        bail!("{}: stripping the labels changed the visible text", page.id);
    }
    let mut words = Vec::new();
    for seg in view.segments() {
        let text = view.text().get(seg.range()).unwrap_or("");
        for (offset, word) in word_spans(text) {
            if !word.chars().any(char::is_alphanumeric) {
                continue;
            }
            let g = labelled_view
                .node_at(seg.start as usize + offset)
                .and_then(|n| gold.get(n.index()).copied().flatten());
            match g {
                None | Some(BlockGold::Unscored) => {}
                Some(g) => words.push((seg.node, g)),
            }
        }
    }
    Ok(LabelledPage { doc, view, words })
}

/// Node labels of a block-labelled page for training (comments count as content): a node is
/// template when at least 85% of its scored words are (the text form of section 5.1's rule),
/// content otherwise, and unlabelled without scored words.
fn block_node_labels(p: &LabelledPage) -> Vec<Option<bool>> {
    let (mut scored, mut template) = p.word_counts();
    for id in p.doc.ids().rev() {
        if let Some(parent) = p.doc.parent(id) {
            scored[parent.index()] += scored[id.index()];
            template[parent.index()] += template[id.index()];
        }
    }
    scored
        .iter()
        .zip(&template)
        .map(|(&s, &t)| (s > 0).then(|| f64::from(t) >= 0.85 * f64::from(s)))
        .collect()
}

/// Training rows from a block-labelled page's human labels (`None` when it cannot be read).
fn block_examples(page: &BlockPage, opts: &TrainOptions) -> Option<Examples> {
    let p = read_block_page(page).ok()?;
    let labels = block_node_labels(&p);
    let tp = TrainPage {
        doc: p.doc,
        view: p.view,
        url: page.url.clone(),
    };
    Some(chaff_pagelevel::train::labelled_examples(
        &tp, &labels, opts,
    ))
}

/// Scores one block-labelled page's words and links with the labels `ex` gives it (the
/// extractor `chaff extract` builds for this model and these options).
fn score_block_page(page: &BlockPage, ex: &Extractor) -> anyhow::Result<PageCounts> {
    let LabelledPage { doc, view, words } = read_block_page(page)?;
    let loaded = chaff::LoadedPage {
        source: page.id.clone(),
        url: page.url.clone(),
        site: chaff::corpus::site_key(page.url.as_deref(), None, None),
        media: chaff::corpus::Media::Html,
        doc,
        view,
        text: None,
    };
    let (doc, _, labels) = ex.extract_loaded(loaded).into_parts();
    let mut c = PageCounts::default();
    // Words of visible text nodes, and link votes of the words in each link.
    let mut link_votes: BTreeMap<u32, [u64; 3]> = BTreeMap::new();
    let mut link_of: Option<(chaff_dom::NodeId, Option<chaff_dom::NodeId>)> = None;
    for (id, g) in words {
        let pred = labels.is_removed(id);
        let link = match link_of {
            Some((node, link)) if node == id => link,
            _ => {
                let link = doc
                    .ancestors(id)
                    .find(|&a| doc.is_tag(a, "a") && doc.attr(a, "href").is_some());
                link_of = Some((id, link));
                link
            }
        };
        for (k, comments_template) in [true, false].into_iter().enumerate() {
            let gold_t = match g {
                BlockGold::Template => true,
                BlockGold::Content => false,
                BlockGold::Comments => comments_template,
                BlockGold::Unscored => continue,
            };
            c.words[k].add(pred, gold_t, 1);
        }
        if let Some(a) = link {
            let v = link_votes.entry(a.0).or_default();
            let slot = match g {
                BlockGold::Template => 0,
                BlockGold::Content => 1,
                BlockGold::Comments => 2,
                BlockGold::Unscored => continue,
            };
            v[slot] += 1;
        }
    }
    for (a, v) in link_votes {
        let pred = labels.is_removed(chaff_dom::NodeId(a));
        for (k, comments_template) in [true, false].into_iter().enumerate() {
            let t = v[0] + if comments_template { v[2] } else { 0 };
            let n = v[1] + if comments_template { 0 } else { v[2] };
            c.links[k].add(pred, t >= n, 1);
        }
    }
    Ok(c)
}

/// The words of a text (whitespace-separated) with their byte offsets.
fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// `chaff eval --dataset l3s-gn1|canola-krdwrd`: template detection in the paper's terms
/// (f-measure of the words and links inside template regions), with and without smoothing.
pub fn eval_templates(
    pages: &[BlockPage],
    model_args: &ModelArgs,
    json: bool,
    per_page: bool,
    cv: Option<usize>,
) -> anyhow::Result<Status> {
    let base = model_args.apply()?;
    // One model, or with --cv K one per fold, trained on the human labels of the other
    // folds' pages (page i is in fold i mod K).
    let models: Vec<PageModel> = match cv {
        None => vec![model_args.load()?],
        Some(k) if k < 2 || k > pages.len() => {
            bail!("--cv needs between 2 and {} folds", pages.len())
        }
        Some(k) => {
            let opts = TrainOptions::default();
            let rows: Vec<Option<Examples>> = pages
                .par_iter()
                .map(|page| block_examples(page, &opts))
                .collect();
            (0..k)
                .map(|fold| {
                    let mut ex = Examples::default();
                    for (i, r) in rows.iter().enumerate() {
                        if i % k != fold
                            && let Some(r) = r
                        {
                            ex.extend(r.clone());
                        }
                    }
                    chaff_pagelevel::train::train(&ex, &opts, "cross-validation fold")
                })
                .collect()
        }
    };
    let mut report = Vec::new();
    for smooth in [false, true] {
        let options = ApplyOptions { smooth, ..base };
        let extractors = models
            .iter()
            .map(|m| model_extractor(m.clone(), options))
            .collect::<anyhow::Result<Vec<Extractor>>>()?;
        let results: Vec<anyhow::Result<PageCounts>> = pages
            .par_iter()
            .enumerate()
            .map(|(i, p)| score_block_page(p, &extractors[i % extractors.len()]))
            .collect();
        let mut micro = PageCounts::default();
        let mut macro_f = [[0f64; 2]; 2];
        let mut n = 0usize;
        for (r, page) in results.into_iter().zip(pages) {
            match r {
                Ok(c) => {
                    if per_page {
                        let w = &c.words[0];
                        outln!(
                            "{}\t{}\ttp {}\tfp {}\tfn {}\tF {:.3}",
                            if smooth { "smooth" } else { "basic" },
                            page.id,
                            w.tp,
                            w.fp,
                            w.fn_,
                            w.prf().2
                        )?;
                    }
                    n += 1;
                    for (k, (w, l)) in c.words.iter().zip(&c.links).enumerate() {
                        micro.words[k].merge(w);
                        micro.links[k].merge(l);
                        macro_f[0][k] += w.prf().2;
                        macro_f[1][k] += l.prf().2;
                    }
                }
                Err(e) => common::warn(format!("{e:#}")),
            }
        }
        let nf = n.max(1) as f64;
        report.push(serde_json::json!({
            "smoothing": smooth,
            "pages": n,
            "words": {"comments_template": prf_json(&micro.words[0], macro_f[0][0] / nf),
                      "comments_content": prf_json(&micro.words[1], macro_f[0][1] / nf)},
            "links": {"comments_template": prf_json(&micro.links[0], macro_f[1][0] / nf),
                      "comments_content": prf_json(&micro.links[1], macro_f[1][1] / nf)},
        }));
    }
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        outln!(
            "{:<10} {:>5}  {:>27}  {:>27}",
            "smoothing",
            "pages",
            "words P / R / F (macro F)",
            "links P / R / F (macro F)"
        )?;
        for r in &report {
            for (k, name) in [(0, "comments_template"), (1, "comments_content")] {
                let w = &r["words"][name];
                let l = &r["links"][name];
                outln!(
                    "{:<10} {:>5}  {:.3} / {:.3} / {:.3} ({:.3})  {:.3} / {:.3} / {:.3} ({:.3})  [{}]",
                    if r["smoothing"] == true {
                        "smooth"
                    } else {
                        "basic"
                    },
                    r["pages"],
                    w["p"].as_f64().unwrap_or(0.0),
                    w["r"].as_f64().unwrap_or(0.0),
                    w["f"].as_f64().unwrap_or(0.0),
                    w["macro_f"].as_f64().unwrap_or(0.0),
                    l["p"].as_f64().unwrap_or(0.0),
                    l["r"].as_f64().unwrap_or(0.0),
                    l["f"].as_f64().unwrap_or(0.0),
                    l["macro_f"].as_f64().unwrap_or(0.0),
                    if k == 0 {
                        "comments as template"
                    } else {
                        "comments as content"
                    }
                )?;
            }
        }
    }
    Ok(Status::Ok)
}

fn prf_json(c: &TemplateCounts, macro_f: f64) -> serde_json::Value {
    let (p, r, f) = c.prf();
    let round = |v: f64| (v * 10_000.0).round() / 10_000.0;
    serde_json::json!({"p": round(p), "r": round(r), "f": round(f), "macro_f": round(macro_f),
                       "tp": c.tp, "fp": c.fp, "fn": c.fn_})
}

/// Main-content predictions of the page-level method for loaded pages, by source.
pub fn predict_texts<'a>(
    pages: impl IntoParallelIterator<Item = &'a chaff::LoadedPage>,
    model_args: &ModelArgs,
) -> anyhow::Result<BTreeMap<String, String>> {
    let ex = pagelevel_extractor(model_args)?;
    Ok(pages
        .into_par_iter()
        .map(|p| {
            let text = ex.extract_loaded(p.clone()).text().to_string();
            (p.source.clone(), text)
        })
        .collect())
}

/// The extractor `chaff extract` builds without profiles, with the page-level model and
/// options these flags give.
pub fn pagelevel_extractor(model_args: &ModelArgs) -> anyhow::Result<Extractor> {
    model_extractor(model_args.load()?, model_args.apply()?)
}

/// The extractor `chaff extract --model` builds for this model and these options.
fn model_extractor(model: PageModel, options: ApplyOptions) -> anyhow::Result<Extractor> {
    let mut registry = Registry::builtin()?;
    registry.register(PageLevelMethod {
        model: std::sync::Arc::new(model),
        options,
    });
    Ok(Extractor::builder()
        .registry(registry)
        .page_methods(["pagelevel"])
        .build()?)
}

#[derive(Args)]
pub struct PagelevelBench {
    /// Pages to time (files, folders, archives...).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Time each page this many times and keep the best.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    #[command(flatten)]
    model: ModelArgs,
}

/// `chaff-lab bench pagelevel`: per page, the best of `rounds` runs of `Extractor::extract`
/// (parse, classify, smooth, text: what `chaff extract` does per page) on the calling
/// thread, of parsing alone, and of the smoothing step alone.
pub fn bench(args: PagelevelBench) -> anyhow::Result<Status> {
    use std::time::{Duration, Instant};
    let model = args.model.load()?;
    let opts = args.model.apply()?;
    let ex = pagelevel_extractor(&args.model)?;
    let options = chaff::corpus::PagesOptions::default();
    let input = chaff::corpus::Pages::from_args(&args.inputs, options)?;
    let rounds = args.rounds.max(1);
    let (mut pages, mut bytes, mut nodes) = (0usize, 0usize, 0usize);
    let (mut parse_t, mut total_t, mut smooth_t) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut meta_t = Duration::ZERO;
    let mut max_tree = (0usize, Duration::ZERO);
    for page in input {
        let Ok(page) = page else { continue };
        let (mut best_parse, mut best_total, mut best_smooth) =
            (Duration::MAX, Duration::MAX, Duration::MAX);
        let mut best_meta = Duration::MAX;
        let mut tree_nodes = 0;
        for _ in 0..rounds {
            let start = Instant::now();
            let Ok(extraction) = ex.extract(&page.bytes, None) else {
                break;
            };
            std::hint::black_box(extraction.text());
            let total = start.elapsed();
            let start = Instant::now();
            std::hint::black_box(extraction.metadata());
            best_meta = best_meta.min(start.elapsed());
            let start = Instant::now();
            let Ok(doc) = chaff_dom::parse(&page.bytes) else {
                break;
            };
            let view = chaff_dom::TextView::new(&doc);
            let parsed = start.elapsed();
            let scores = chaff_pagelevel::score_page(&model, &doc, &view, None, None, opts);
            // Smoothing alone, on the same contracted tree.
            let gamma: Vec<f64> = scores
                .area
                .iter()
                .map(|&a| model.c * scores.area[0].max(1.0) / a.max(1.0))
                .collect();
            let t = Instant::now();
            let y = chaff_pagelevel::smoothing::smooth(
                &scores.parent,
                &scores.raw,
                &scores.multiplicity,
                &gamma,
            );
            std::hint::black_box(&y);
            best_smooth = best_smooth.min(t.elapsed());
            best_parse = best_parse.min(parsed);
            best_total = best_total.min(total);
            tree_nodes = scores.nodes.len();
            nodes = nodes.max(doc.len());
        }
        if best_total == Duration::MAX {
            continue;
        }
        pages += 1;
        bytes += page.bytes.len();
        parse_t += best_parse;
        total_t += best_total;
        smooth_t += best_smooth;
        meta_t += best_meta;
        if tree_nodes > max_tree.0 {
            max_tree = (tree_nodes, best_smooth);
        }
    }
    if pages == 0 {
        bail!("no page could be read");
    }
    let per = |d: Duration| d.as_secs_f64() * 1000.0 / pages as f64;
    outln!(
        "{pages} pages, mean {:.1} KB: extract (Extractor::extract: parse, classify, smooth, text) {:.2} ms, of which parse {:.2} ms and smoothing {:.3} ms per page (one thread, best of {rounds})",
        bytes as f64 / pages as f64 / 1000.0,
        per(total_t),
        per(parse_t),
        per(smooth_t)
    )?;
    outln!(
        "metadata (Extraction::metadata, read after extraction): {:.3} ms per page",
        per(meta_t)
    )?;
    outln!(
        "largest smoothing tree: {} nodes in {:.2} ms; largest document {} nodes",
        max_tree.0,
        max_tree.1.as_secs_f64() * 1000.0,
        nodes
    )?;
    Ok(Status::Ok)
}
