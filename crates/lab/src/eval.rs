//! `chaff-lab eval`: scores against gold text, per page, per site and over a set.
//!
//! Four ways in:
//! * `--dataset NAME --run suffix`: the whole protocol in one command — learn a profile per
//!   site on the set's pages and extract them, exactly as `chaff extract --learn
//!   --site-from folder` does (`chaff::Learner::learn`, then `chaff::Extractor::extract_page`
//!   with the learned profiles), and score the extracted text beside the page's whole
//!   visible text;
//! * `--dataset NAME --predictions FILE`: score predictions made elsewhere (JSON Lines with
//!   `source` and `text`, as `chaff extract` writes them), matched to gold pages by `source`;
//! * `--synthetic`: generated sites with known labels; reports the share of template and
//!   content words removed;
//! * `--dataset NAME --write-gold FILE`: no scoring; the pages' gold as the set's format
//!   defines it, for checking another scorer's reading (`scripts/gold_check.py`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use chaff::corpus::{JsonlWriter, Media, Page};
use chaff::{
    Extractor, Learner, LoadOptions, LoadedPage, ProfileStore, SiteChoice, SiteFrom, load_page,
};
use chaff_eval::synthetic::LabelledPage;
use chaff_eval::{GoldPage, PageScore, SetReport};
use chaff_synth::WordCounts;
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;

use chaff_cli::common::{self, Status};
use chaff_cli::flags::{MethodArgs, ModelArgs};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Dataset {
    /// CleanPortalEval: 4 portals of 12-30 pages.
    Cleanportaleval,
    /// Dragnet: news and blog sites (use --min-site-pages to keep multi-page sites).
    Dragnet,
    /// The article-extraction-benchmark pages (1-2 per site).
    ScrapinghubAeb,
    /// CleanEval dev and final pages (1 per site).
    Cleaneval,
    /// L3S-GN1 news pages with block labels: template detection in words and links
    /// (page-level method).
    L3sGn1,
    /// KrdWrd CANOLA pages with node labels: template detection in words and links
    /// (page-level method).
    CanolaKrdwrd,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Run {
    /// Learn with the suffix method per site, then clean.
    Suffix,
    /// Learn with the alignment method per site, then clean.
    Align,
    /// Learn both and clean with both (a node goes when either removes it).
    SuffixAlign,
    /// Learn the suffix method and FOREST (FOREST picks the content, the suffix method
    /// removes inside it).
    SuffixForest,
    /// Learn the methods named by --method.
    Methods,
    /// Learn FOREST's main-content XPath per site (on all its pages), then clean.
    Forest,
    /// Learn SiteLevel's repeated subtrees per site, then clean.
    Subtree,
    /// The page-level classifier with isotonic smoothing, page by page (no site learning).
    Pagelevel,
    /// No cleaning: score each page's whole visible text.
    Full,
}

#[derive(Args)]
pub struct EvalArgs {
    /// A data set under the shared data folder.
    #[arg(long, value_enum, required_unless_present_any = ["synthetic", "jsonl"])]
    dataset: Option<Dataset>,
    /// A gold set in JSON Lines: {"id","html_path","gold_text","site"} per line.
    #[arg(long, value_name = "FILE", conflicts_with = "dataset")]
    jsonl: Option<PathBuf>,
    /// Where the data sets are (default: ../shared/datasets, or $CHAFF_SHARED/datasets).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// What to run on the pages.
    #[arg(long, value_enum, default_value = "suffix")]
    run: Run,
    /// Score these predictions instead of running anything.
    #[arg(long, value_name = "FILE", conflicts_with = "run")]
    predictions: Option<PathBuf>,
    /// Keep only sites with at least this many pages.
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_site_pages: usize,
    /// Keep only pages of this split (dragnet: train/test; cleaneval: dev/final).
    #[arg(long)]
    split: Option<String>,
    /// Write the pages' gold as read here (JSON Lines, the form `--jsonl` reads) and stop:
    /// what another scorer can check its own reading of the set against.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["predictions", "synthetic"])]
    write_gold: Option<PathBuf>,
    /// Generated sites instead of a data set.
    #[arg(long, conflicts_with_all = ["dataset", "predictions"])]
    pub(crate) synthetic: bool,
    /// Synthetic: this many seeds, from --first-seed on.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub(crate) seeds: u64,
    /// Synthetic: the first seed. Seeds 1 to 5 are the figure issue 16 reports; choose
    /// anything on other seeds (the content model trains on 101 to 105).
    #[arg(long, default_value_t = 1, value_name = "SEED")]
    pub(crate) first_seed: u64,
    /// Synthetic: sites per seed (consecutive sites use different markup styles).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub(crate) sites: usize,
    /// Synthetic: pages per site.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub(crate) pages: usize,
    /// Synthetic: articles each site has published, the pages being a sample of them
    /// (default 5 x pages; equal to --pages for a closed world where every linked headline
    /// is a sampled page).
    #[arg(long, value_name = "N")]
    pub(crate) archive: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also report every page (a table row each, or a "pages" array in JSON).
    #[arg(long)]
    per_page: bool,
    #[command(flatten)]
    pub(crate) methods: MethodArgs,
    /// Synthetic, alignment: report template-token precision and recall for each of these
    /// sample sizes (the paper's Table 2), e.g. 2,4,8,16,32.
    #[arg(long, value_delimiter = ',', value_name = "T,...")]
    pub(crate) sweep: Vec<usize>,
    /// FOREST: draw the paper's Figure 5, F1 against the number of sample pages per site
    /// (1 to 20), as SVG.
    #[arg(long, value_name = "FILE.svg")]
    fig5: Option<PathBuf>,
    /// FOREST: draw the paper's Figure 6, F1 against the number of signifiers, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    fig6: Option<PathBuf>,
    #[command(flatten)]
    pagelevel: ModelArgs,
    /// L3S-GN1 and CANOLA: K-fold cross-validation on the set's own human labels (page i is
    /// in fold i mod K; each fold is scored by a model trained on the other folds).
    #[arg(long, value_name = "K")]
    cv: Option<usize>,
}

impl Run {
    /// The site-level methods a run learns (`--method` for [`Run::Methods`]).
    fn method_names(self, args: &EvalArgs) -> Vec<&str> {
        match self {
            Run::Suffix => vec!["suffix"],
            Run::Align => vec!["align"],
            Run::SuffixAlign => vec!["suffix", "align"],
            Run::SuffixForest => vec!["suffix", "forest"],
            Run::Forest => vec!["forest"],
            Run::Subtree => vec!["subtree"],
            Run::Methods => args.methods.names_or(&["suffix"]),
            Run::Pagelevel | Run::Full => Vec::new(),
        }
    }
}

pub fn run(args: EvalArgs) -> anyhow::Result<Status> {
    if args.synthetic && !args.sweep.is_empty() {
        return crate::align_sweep::run(&args);
    }
    if args.synthetic {
        return synthetic(&args);
    }
    if let Some(set @ (Dataset::L3sGn1 | Dataset::CanolaKrdwrd)) = args.dataset {
        let root = datasets_root(&args)?;
        let pages = if set == Dataset::L3sGn1 {
            chaff_eval::l3s_gn1(&root.join("l3s-gn1"))?
        } else {
            chaff_eval::canola(&root.join("canola-krdwrd"))?
        };
        return crate::pagelevel::eval_templates(
            &pages,
            &args.pagelevel,
            args.json,
            args.per_page,
            args.cv,
        );
    }
    let gold = gold_pages(&args)?;
    let mut by_site: BTreeMap<String, Vec<GoldPage>> = BTreeMap::new();
    for g in gold {
        if args
            .split
            .as_deref()
            .is_some_and(|s| g.split.as_deref() != Some(s))
        {
            continue;
        }
        let site = g.site.clone().unwrap_or_else(|| g.id.clone());
        by_site.entry(site).or_default().push(g);
    }
    by_site.retain(|_, pages| pages.len() >= args.min_site_pages);
    if by_site.is_empty() {
        bail!(
            "no site of the data set has {} or more pages",
            args.min_site_pages
        );
    }
    if let Some(path) = &args.write_gold {
        write_gold(path, by_site.values().flatten())?;
        return Ok(Status::Ok);
    }
    let load = LoadOptions {
        keep_source: true,
        ..LoadOptions::default()
    };
    // Parse every page once.
    let mut sites: Vec<(String, Vec<(GoldPage, LoadedPage)>)> = Vec::new();
    let mut status = Status::Ok;
    for (site, golds) in by_site {
        let loaded: Vec<_> = golds
            .into_par_iter()
            .map(|g| {
                let bytes = chaff_eval::read_maybe_gz(&g.html_path)
                    .with_context(|| format!("cannot read {}", g.html_path.display()))?;
                let page = Page {
                    source: g.html_path.display().to_string(),
                    url: g.url.clone(),
                    bytes,
                    charset: None,
                    folder: None,
                    media: Media::Html,
                };
                let loaded = load_page(page, &load)?;
                Ok::<_, anyhow::Error>((g, loaded))
            })
            .collect();
        let mut ok = Vec::new();
        for r in loaded {
            match r {
                Ok(p) => ok.push(p),
                Err(e) => {
                    common::warn(format!("{e:#}"));
                    status = Status::Partial;
                }
            }
        }
        if !ok.is_empty() {
            sites.push((site, ok));
        }
    }
    if args.fig5.is_some() || args.fig6.is_some() {
        crate::forest_eval::figures(
            &args.methods.forest,
            &sites,
            args.fig5.as_deref(),
            args.fig6.as_deref(),
        )?;
    }
    let predicted: BTreeMap<String, String> = match (&args.predictions, args.run) {
        (Some(path), _) => read_predictions(path)?,
        (None, Run::Full) => BTreeMap::new(),
        (None, Run::Pagelevel) => crate::pagelevel::predict_texts(
            sites
                .iter()
                .flat_map(|(_, pages)| pages.iter().map(|(_, p)| p))
                .collect::<Vec<_>>(),
            &args.pagelevel,
        )?,
        (None, run) => run_learned(&args, &sites, &run.method_names(&args))?,
    };
    let mut rows = Vec::new();
    let mut all_cleaned = Vec::new();
    let mut all_full = Vec::new();
    for (site, pages) in &sites {
        let mut cleaned = Vec::new();
        let mut full = Vec::new();
        for (g, p) in pages {
            let full_text = p.view.text();
            let pred = match (&args.predictions, args.run) {
                (None, Run::Full) => full_text,
                _ => predicted.get(&p.source).map(String::as_str).unwrap_or(""),
            };
            cleaned.push(chaff_eval::score_page_with_full(
                &g.id,
                full_text,
                pred,
                &g.gold_text,
            ));
            full.push(chaff_eval::score_page(&g.id, full_text, &g.gold_text));
        }
        rows.push(Row::new(site, &cleaned, &full));
        all_cleaned.extend(cleaned);
        all_full.extend(full);
    }
    let overall = Row::new("overall", &all_cleaned, &all_full);
    let pages: Vec<PageRow> = if args.per_page {
        let sites_of = sites
            .iter()
            .flat_map(|(site, pages)| pages.iter().map(move |_| site.as_str()));
        all_cleaned
            .iter()
            .zip(&all_full)
            .zip(sites_of)
            .map(|((c, f), site)| PageRow::new(site, c, f))
            .collect()
    } else {
        Vec::new()
    };
    print_report(&args, &rows, &overall, &pages)?;
    Ok(status)
}

fn gold_pages(args: &EvalArgs) -> anyhow::Result<Vec<GoldPage>> {
    if let Some(path) = &args.jsonl {
        return Ok(chaff_eval::jsonl(path)?);
    }
    let root = datasets_root(args)?;
    let Some(dataset) = args.dataset else {
        bail!("name a data set with --dataset, a gold file with --jsonl, or use --synthetic");
    };
    Ok(match dataset {
        Dataset::Cleanportaleval => chaff_eval::cleanportaleval(
            &root.join("cleanportaleval"),
            chaff_eval::PortalGrouping::MergeWashingtonPost,
        )?,
        Dataset::Dragnet => {
            chaff_eval::dragnet(&root.join("dragnet"), chaff_eval::DragnetText::Article)?
        }
        Dataset::ScrapinghubAeb => chaff_eval::scrapinghub_aeb(&root.join("scrapinghub-aeb"))?,
        Dataset::Cleaneval => {
            chaff_eval::cleaneval(&root.join("cleaneval"), chaff_eval::CleanEvalSplit::Both)?
        }
        Dataset::L3sGn1 | Dataset::CanolaKrdwrd => {
            bail!("this data set has block labels, not gold text: it has its own report")
        }
    })
}

/// The folder of the shared data sets.
fn datasets_root(args: &EvalArgs) -> anyhow::Result<PathBuf> {
    match &args.data {
        Some(d) => Ok(d.clone()),
        None => chaff_eval::datasets_dir()
            .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED"),
    }
}

/// Learns a profile per site with `methods` and extracts each page with it, through the
/// same calls as `chaff extract --learn --site-from folder`: the pages, named by a folder per
/// gold site, go through [`Learner::learn`] (per site, with cross-site filtering) and then
/// [`Extractor::extract_page`] with the learned profiles; a site without a profile (one page,
/// or no method could learn) gets page-level extraction.
fn run_learned(
    args: &EvalArgs,
    sites: &[(String, Vec<(GoldPage, LoadedPage)>)],
    methods: &[&str],
) -> anyhow::Result<BTreeMap<String, String>> {
    let registry = args.methods.registry()?;
    let pages = || {
        sites
            .iter()
            .flat_map(|(site, pages)| pages.iter().map(move |(g, _)| gold_page_as_input(site, g)))
    };
    let learner = Learner::new(&registry, methods)?.site_from(SiteFrom::Folder);
    let learned = learner.learn(pages(), &SiteChoice::PerSite, &|_| {})?;
    for w in &learned.warnings {
        common::warn(w);
    }
    let store: ProfileStore = learned.profiles.into_iter().collect();
    let ex = Extractor::builder()
        .registry(registry)
        .store(store)
        .site_from(SiteFrom::Folder)
        .build()?;
    let items: Vec<_> = pages().collect();
    items
        .into_par_iter()
        .map(|page| {
            let page = page?;
            let source = page.source.clone();
            Ok((source, ex.extract_page(page)?.text().to_string()))
        })
        .collect()
}

/// A gold page as a corpus page in a folder named after its gold site.
pub(crate) fn gold_page_as_input(
    site: &str,
    g: &GoldPage,
) -> Result<Page, chaff::corpus::CorpusError> {
    let bytes = chaff_eval::read_maybe_gz(&g.html_path).map_err(|e| {
        chaff::corpus::CorpusError::Unreadable {
            path: g.html_path.clone(),
            source: e,
        }
    })?;
    Ok(Page {
        source: g.html_path.display().to_string(),
        url: None,
        bytes,
        charset: None,
        // Dots replaced: a folder named like a host is keyed by its registrable domain, which
        // would merge the set's sites that share one (blogs.x.com and www.x.com).
        folder: Some(PathBuf::from(
            chaff::corpus::site_file_stem(site).replace('.', "_"),
        )),
        media: Media::Html,
    })
}

/// Writes gold pages as JSON Lines (a line each, as every JSON Lines output of chaff's is
/// written), atomically.
fn write_gold<'a>(
    path: &std::path::Path,
    pages: impl Iterator<Item = &'a GoldPage>,
) -> anyhow::Result<()> {
    let mut lines = JsonlWriter::new(Vec::new(), path.display().to_string());
    for page in pages {
        lines.write(page)?;
    }
    chaff::corpus::atomic_write(path, &lines.into_inner())
        .with_context(|| format!("cannot write {}", path.display()))
}

fn read_predictions(path: &std::path::Path) -> anyhow::Result<BTreeMap<String, String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = BTreeMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{}:{}: not JSON", path.display(), n + 1))?;
        let (Some(source), Some(text)) = (v["source"].as_str(), v["text"].as_str()) else {
            bail!(
                "{}:{}: a prediction needs \"source\" and \"text\"",
                path.display(),
                n + 1
            );
        };
        out.insert(source.to_string(), text.to_string());
    }
    Ok(out)
}

/// One line of the report.
#[derive(Serialize)]
struct Row {
    site: String,
    pages: usize,
    /// 4-gram shingle F1 (of the means) of the cleaned text.
    f1: f64,
    precision: f64,
    recall: f64,
    /// The same for the page's whole visible text.
    f1_full: f64,
    /// Word-bigram-set F1 and bag-of-words F1 of the cleaned text.
    f1_bigram: f64,
    f1_bag: f64,
    /// Of the words removed, the share aligned to the gold text (pooled).
    removed_words: u64,
    removed_gold_share: f64,
}

impl Row {
    fn new(site: &str, cleaned: &[PageScore], full: &[PageScore]) -> Row {
        let c: SetReport = chaff_eval::aggregate(cleaned.to_vec());
        let f: SetReport = chaff_eval::aggregate(full.to_vec());
        Row {
            site: site.to_string(),
            pages: cleaned.len(),
            f1: c.shingle4.f1_of_means,
            precision: c.shingle4.precision,
            recall: c.shingle4.recall,
            f1_full: f.shingle4.f1_of_means,
            f1_bigram: c.bigram.f1_of_means,
            f1_bag: c.bag.f1_of_means,
            removed_words: c.removal.as_ref().map_or(0, |r| r.removed_words),
            removed_gold_share: c.removal.as_ref().map_or(0.0, |r| r.share),
        }
    }
}

/// One page's line of the report.
#[derive(Serialize)]
struct PageRow {
    site: String,
    id: String,
    f1: f64,
    precision: f64,
    recall: f64,
    f1_full: f64,
    removed_words: u64,
    removed_gold_words: u64,
}

impl PageRow {
    fn new(site: &str, cleaned: &PageScore, full: &PageScore) -> PageRow {
        PageRow {
            site: site.to_string(),
            id: cleaned.id.clone(),
            f1: cleaned.shingle4.f1,
            precision: cleaned.shingle4.precision,
            recall: cleaned.shingle4.recall,
            f1_full: full.shingle4.f1,
            removed_words: cleaned.removal.map_or(0, |r| r.removed_words),
            removed_gold_words: cleaned.removal.map_or(0, |r| r.removed_gold_words),
        }
    }
}

fn print_report(
    args: &EvalArgs,
    rows: &[Row],
    overall: &Row,
    pages: &[PageRow],
) -> anyhow::Result<()> {
    if args.json {
        let mut report = serde_json::json!({ "sites": rows, "overall": overall });
        if args.per_page {
            report["pages"] = serde_json::to_value(pages)?;
        }
        outln!("{report}")?;
        return Ok(());
    }
    if args.per_page {
        outln!(
            "{:<34} {:<24} {:>7} {:>7} {:>7} {:>8} {:>9} {:>6}",
            "site",
            "page",
            "F1",
            "P",
            "R",
            "F1 full",
            "removed",
            "gold"
        )?;
        for p in pages {
            outln!(
                "{:<34} {:<24} {:>7.3} {:>7.3} {:>7.3} {:>8.3} {:>9} {:>6}",
                truncate(&p.site, 34),
                truncate(&p.id, 24),
                p.f1,
                p.precision,
                p.recall,
                p.f1_full,
                p.removed_words,
                p.removed_gold_words
            )?;
        }
        outln!()?;
    }
    outln!(
        "{:<34} {:>5} {:>7} {:>7} {:>7} {:>8} {:>7} {:>7} {:>9} {:>8}",
        "site",
        "pages",
        "F1",
        "P",
        "R",
        "F1 full",
        "F1 bi",
        "F1 bag",
        "removed",
        "gold %"
    )?;
    for r in rows.iter().chain(std::iter::once(overall)) {
        outln!(
            "{:<34} {:>5} {:>7.3} {:>7.3} {:>7.3} {:>8.3} {:>7.3} {:>7.3} {:>9} {:>8.2}",
            truncate(&r.site, 34),
            r.pages,
            r.f1,
            r.precision,
            r.recall,
            r.f1_full,
            r.f1_bigram,
            r.f1_bag,
            r.removed_words,
            100.0 * r.removed_gold_share
        )?;
    }
    Ok(())
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Synthetic sites: per style and overall, the share of template, menu and content words
/// removed, measured against the generator's labels.
fn synthetic(args: &EvalArgs) -> anyhow::Result<Status> {
    if matches!(args.run, Run::Full | Run::Pagelevel) {
        bail!("--synthetic scores site learning: use --run suffix, align, suffix-align, ...");
    }
    let registry = args.methods.registry()?;
    let methods = args.run.method_names(args);
    let report = chaff_eval::synthetic::evaluate(
        args.first_seed..args.first_seed.saturating_add(args.seeds),
        args.sites,
        args.pages,
        args.archive,
        |sites| synthetic_seed(&registry, &methods, sites),
    )?;
    if args.json {
        let styles: BTreeMap<String, serde_json::Value> = report
            .by_style
            .iter()
            .map(|(k, v)| (k.clone(), counts_json(v)))
            .collect();
        let regions: BTreeMap<&str, serde_json::Value> = template_rows(&report)
            .map(|(r, c)| {
                let json = serde_json::json!({
                    "words": c.template_total,
                    "removed": c.template_removed,
                    "kept": c.template_kept(),
                });
                (r.name(), json)
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({
                "styles": styles,
                "overall": counts_json(&report.total),
                "template_regions": regions,
            })
        )?;
    } else {
        outln!(
            "{:<10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "style",
            "template",
            "removed %",
            "content",
            "removed %",
            "menu rm %"
        )?;
        let overall = "overall".to_string();
        for (style, c) in report
            .by_style
            .iter()
            .chain(std::iter::once((&overall, &report.total)))
        {
            outln!(
                "{:<10} {:>10} {:>10.2} {:>10} {:>10.2} {:>10.2}",
                style,
                c.template_total,
                100.0 * c.template_removed_fraction(),
                c.content_total,
                100.0 * c.content_removed_fraction(),
                100.0 * c.menu_removed_fraction()
            )?;
        }
        template_regions(&report)?;
    }
    Ok(Status::Ok)
}

/// The generator's regions that hold template words, with their counts.
fn template_rows(
    report: &chaff_eval::synthetic::SyntheticReport,
) -> impl Iterator<Item = (&chaff_synth::Region, &WordCounts)> {
    report
        .by_region
        .iter()
        .filter(|(_, c)| c.template_total > 0)
}

/// Where the template words a run keeps lie: a row per region of the generator's template,
/// most kept words first.
fn template_regions(report: &chaff_eval::synthetic::SyntheticReport) -> anyhow::Result<()> {
    let mut rows: Vec<_> = template_rows(report).collect();
    rows.sort_by_key(|(_, c)| std::cmp::Reverse(c.template_kept()));
    outln!(
        "{:<16} {:>10} {:>10} {:>10}",
        "template region",
        "words",
        "removed %",
        "kept"
    )?;
    for (region, c) in rows {
        outln!(
            "{:<16} {:>10} {:>10.2} {:>10}",
            region.name(),
            c.template_total,
            100.0 * c.template_removed_fraction(),
            c.template_kept()
        )?;
    }
    Ok(())
}

/// One seed's sites learned together (per site, cross-site filtered) and every page
/// extracted with its site's profile, through the facade as `chaff extract --learn` does.
fn synthetic_seed(
    registry: &chaff::Registry,
    methods: &[&str],
    sites: &[chaff_synth::SynthSite],
) -> anyhow::Result<Vec<Vec<LabelledPage>>> {
    let pages = sites.iter().flat_map(|s| {
        s.pages.iter().map(|p| {
            Ok(Page {
                source: p.file.clone(),
                url: Some(p.url.clone()),
                bytes: p.html.as_bytes().to_vec(),
                charset: None,
                folder: None,
                media: Media::Html,
            })
        })
    });
    let learner = Learner::new(registry, methods)?;
    let learned = learner.learn(pages, &SiteChoice::PerSite, &|_| {})?;
    let store: ProfileStore = learned.profiles.into_iter().collect();
    let ex = Extractor::builder()
        .registry(registry.clone())
        .store(store)
        .build()?;
    sites
        .iter()
        .map(|s| {
            s.pages
                .par_iter()
                .map(|p| {
                    let (doc, view, labels) =
                        ex.extract(p.html.as_bytes(), Some(&p.url))?.into_parts();
                    Ok(LabelledPage { doc, view, labels })
                })
                .collect()
        })
        .collect()
}

fn counts_json(c: &WordCounts) -> serde_json::Value {
    serde_json::json!({
        "template_words": c.template_total, "template_removed": c.template_removed,
        "content_words": c.content_total, "content_removed": c.content_removed,
        "menu_words": c.menu_total, "menu_removed": c.menu_removed,
        "template_removed_share": c.template_removed_fraction(),
        "content_removed_share": c.content_removed_fraction(),
    })
}
