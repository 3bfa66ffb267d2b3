//! `chaff-lab train-content`: the content model's recipe, from the shared data sets (and a
//! user's own labelled pages) to the model file compiled into chaff.
//!
//! Training sets only: wcxb-dev, the Dragnet training split, cleaneval-dev, L3S-GN1,
//! CANOLA and Mozilla's Readability test pages. The test sets (scrapinghub-aeb, the Dragnet
//! test split, cleaneval-final, cleanportaleval) are not readable from here.
//!
//! `--holdout K/N` leaves out the K-th of N domain-disjoint folds of wcxb-dev (domains are
//! dealt to folds by a hash of the domain name) and writes the held-out page ids, so the
//! cross-validation script can extract them with the fold's model through `chaff extract`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use chaff_content::gbdt::GbdtParams;
use chaff_content::train::{Examples, Gold, TrainOptions, fit, page_examples};
use chaff_eval::GoldPage;
use clap::Args;
use rayon::prelude::*;
use serde::Deserialize;

use chaff_cli::common::Status;

use crate::pagelevel::read_block_page;

/// The training sets the built-in model is fitted on.
pub const DEFAULT_SETS: &str =
    "wcxb-dev,dragnet-train,cleaneval-dev,l3s-gn1,canola-krdwrd,readability-testpages";

/// Test sets, refused as training data.
pub(crate) const TEST_SETS: &[&str] = &[
    "aeb",
    "scrapinghub-aeb",
    "dragnet-test",
    "cleaneval-final",
    "cleaneval",
    "cleanportaleval",
];

/// Options of `chaff-lab train-content`.
#[derive(Args, Debug)]
pub struct TrainContentArgs {
    /// Training sets, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_SETS)]
    dataset: Vec<String>,
    /// Labelled pages of your own: JSON Lines of `{"html" or "path", "url", "gold_text"}`
    /// (a relative path is relative to the file's folder). Repeatable.
    #[arg(long, value_name = "FILE")]
    jsonl: Vec<PathBuf>,
    /// The shared data sets folder (default: found beside the workspace).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Where to write the model.
    #[arg(short, long, value_name = "FILE")]
    out: PathBuf,
    /// Leave out fold K of N of wcxb-dev, split by domain, and of the Dragnet training
    /// split's sites (e.g. `2/5`).
    #[arg(long, value_name = "K/N")]
    holdout: Option<String>,
    /// Write the held-out wcxb-dev page ids here, one a line.
    #[arg(long, value_name = "FILE", requires = "holdout")]
    holdout_ids: Option<PathBuf>,
    /// Trees.
    #[arg(long, default_value_t = GbdtParams::default().trees)]
    trees: usize,
    /// Tree depth.
    #[arg(long, default_value_t = GbdtParams::default().max_depth)]
    depth: usize,
    /// Learning rate.
    #[arg(long, default_value_t = GbdtParams::default().learning_rate)]
    learning_rate: f64,
    /// Least hessian weight in a leaf.
    #[arg(long, default_value_t = GbdtParams::default().min_child_weight)]
    min_child_weight: f64,
    /// Share of the rows each tree is grown on (1: all).
    #[arg(long, default_value_t = GbdtParams::default().subsample)]
    subsample: f64,
    /// Share of the features each tree may split on (1: all).
    #[arg(long, default_value_t = GbdtParams::default().colsample)]
    colsample: f64,
    /// Probability of content at or above which a unit is kept.
    #[arg(long, default_value_t = TrainOptions::default().threshold)]
    threshold: f32,
    /// Give the second stage the predicted page type.
    #[arg(long)]
    page_types: bool,
    /// One stage only (no context features from first-stage probabilities).
    #[arg(long)]
    no_stack: bool,
    /// Sets whose multi-page sites are learned and whose pages then also train with their
    /// site's evidence, comma-separated (empty: none).
    #[arg(long, value_delimiter = ',', default_value = crate::content_site::SITE_SETS)]
    site_dataset: Vec<String>,
    /// The site methods learned for those sites.
    #[arg(long, value_delimiter = ',', default_value = crate::content_site::SITE_METHODS)]
    site_methods: Vec<String>,
    /// Sites with fewer pages (in the training split) are not learned.
    #[arg(long, default_value_t = 5, value_name = "N")]
    min_site_pages: usize,
    /// Weight of a page trained with its site's evidence, against 1 for the others.
    #[arg(long, default_value_t = 1.0, value_name = "W")]
    site_weight: f32,
}

/// One labelled page, read.
enum Source {
    Gold(GoldPage),
    Blocks(chaff_eval::BlockPage),
    Own {
        html: Vec<u8>,
        url: Option<String>,
        gold: String,
    },
}

#[derive(Deserialize)]
struct OwnRecord {
    #[serde(default)]
    html: Option<String>,
    #[serde(default)]
    path: Option<PathBuf>,
    #[serde(default)]
    url: Option<String>,
    gold_text: String,
}

fn read_own(path: &Path) -> anyhow::Result<Vec<Source>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: OwnRecord = serde_json::from_str(line)
            .with_context(|| format!("{}:{}: not a labelled page", path.display(), k + 1))?;
        let html = match (r.html, r.path) {
            (Some(h), _) => h.into_bytes(),
            (None, Some(p)) => chaff_eval::read_maybe_gz(base.join(&p)).with_context(|| {
                format!("{}:{}: cannot read {}", path.display(), k + 1, p.display())
            })?,
            (None, None) => bail!("{}:{}: needs \"html\" or \"path\"", path.display(), k + 1),
        };
        out.push(Source::Own {
            html,
            url: r.url,
            gold: r.gold_text,
        });
    }
    Ok(out)
}

/// A stable hash of a domain, for dealing domains to folds.
pub(crate) fn fold_of(domain: &str, folds: u32) -> u32 {
    let mut h: u32 = 0x811c9dc5;
    for b in domain.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x01000193);
    }
    h % folds
}

fn parse_holdout(s: &str) -> anyhow::Result<(u32, u32)> {
    let (k, n) = s.split_once('/').context("--holdout takes K/N, e.g. 1/5")?;
    let (k, n): (u32, u32) = (k.trim().parse()?, n.trim().parse()?);
    if n < 2 || k == 0 || k > n {
        bail!("--holdout K/N needs 1 <= K <= N and N >= 2");
    }
    Ok((k - 1, n))
}

/// Reads the named sets; returns the pages and the held-out wcxb ids.
/// Pages by set name, and the held-out wcxb-dev ids.
type Sets = (Vec<(String, Source)>, Vec<String>);

/// The set names of a comma-separated option, blanks dropped (`--dataset ''` is none).
fn set_names(option: &[String]) -> Vec<&str> {
    option
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The shared data sets folder: `--data`, or the one found beside the workspace.
fn data_root(args: &TrainContentArgs) -> anyhow::Result<PathBuf> {
    match &args.data {
        Some(d) => Ok(d.clone()),
        None => chaff_eval::datasets_dir()
            .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED"),
    }
}

fn read_sets(args: &TrainContentArgs) -> anyhow::Result<Sets> {
    let names = set_names(&args.dataset);
    let root = if names.is_empty() {
        PathBuf::new()
    } else {
        data_root(args)?
    };
    let holdout = args.holdout.as_deref().map(parse_holdout).transpose()?;
    let mut pages = Vec::new();
    let mut held = Vec::new();
    for set in names {
        if TEST_SETS.contains(&set) {
            bail!("{set} is a test set: the content model is never trained on it");
        }
        match set {
            "wcxb-dev" => {
                for (page, _) in chaff_eval::wcxb(&root.join("wcxb-dev"))? {
                    let domain = page.site.clone().unwrap_or_default();
                    if let Some((k, n)) = holdout
                        && fold_of(&domain, n) == k
                    {
                        held.push(page.id.clone());
                        continue;
                    }
                    pages.push((set.to_owned(), Source::Gold(page)));
                }
            }
            "dragnet-train" => {
                for page in chaff_eval::dragnet(&root.join("dragnet"), Default::default())? {
                    if page.split.as_deref() != Some("train") {
                        continue;
                    }
                    if let (Some((k, n)), Some(site)) = (holdout, page.site.as_deref())
                        && fold_of(site, n) == k
                    {
                        continue;
                    }
                    pages.push((set.to_owned(), Source::Gold(page)));
                }
            }
            "cleaneval-dev" => {
                for page in
                    chaff_eval::cleaneval(&root.join("cleaneval"), chaff_eval::CleanEvalSplit::Dev)?
                {
                    pages.push((set.to_owned(), Source::Gold(page)));
                }
            }
            "readability-testpages" => {
                for page in
                    chaff_eval::readability_testpages(&root.join("mozilla-readability-testpages"))?
                {
                    pages.push((set.to_owned(), Source::Gold(page)));
                }
            }
            "l3s-gn1" => {
                for page in chaff_eval::l3s_gn1(&root.join("l3s-gn1"))? {
                    pages.push((set.to_owned(), Source::Blocks(page)));
                }
            }
            "canola-krdwrd" => {
                for page in chaff_eval::canola(&root.join("canola-krdwrd"))? {
                    pages.push((set.to_owned(), Source::Blocks(page)));
                }
            }
            other => bail!("unknown training set {other:?} (known: {DEFAULT_SETS})"),
        }
    }
    for path in &args.jsonl {
        let name = path.display().to_string();
        pages.extend(read_own(path)?.into_iter().map(|s| (name.clone(), s)));
    }
    Ok((pages, held))
}

/// Per text node of a block-labelled page: content unless at least half its scored words are
/// template (comments count as content, as L3S scores them both ways).
pub(crate) fn block_labels(
    page: &chaff_eval::BlockPage,
) -> Option<(chaff_dom::Document, chaff_dom::TextView, Vec<Option<bool>>)> {
    let p = read_block_page(page).ok()?;
    let (scored, template) = p.word_counts();
    let labels = scored
        .iter()
        .zip(&template)
        .map(|(&s, &t)| (s > 0).then_some(2 * t < s))
        .collect();
    Some((p.doc, p.view, labels))
}

fn examples_of(source: &Source) -> Option<Examples> {
    match source {
        Source::Gold(page) => {
            let bytes = chaff_eval::read_maybe_gz(&page.html_path).ok()?;
            let doc = chaff_dom::parse(&bytes).ok()?;
            let view = chaff_dom::TextView::new(&doc);
            let mut ex = page_examples(&doc, &view, None, &Gold::Text(&page.gold_text), &[]);
            if let Some(shape) = ex.shapes.first_mut() {
                shape.kind = page
                    .kind
                    .as_deref()
                    .and_then(chaff_content::pagetype::type_index);
            }
            Some(ex)
        }
        Source::Own { html, url, gold } => {
            let doc = chaff_dom::parse(html).ok()?;
            let view = chaff_dom::TextView::new(&doc);
            Some(page_examples(
                &doc,
                &view,
                url.as_deref(),
                &Gold::Text(gold),
                &[],
            ))
        }
        Source::Blocks(page) => {
            let (doc, view, labels) = block_labels(page)?;
            Some(page_examples(&doc, &view, None, &Gold::Nodes(&labels), &[]))
        }
    }
}

/// Runs `chaff-lab train-content`.
pub fn run(args: TrainContentArgs) -> anyhow::Result<Status> {
    for (name, share) in [
        ("--subsample", args.subsample),
        ("--colsample", args.colsample),
    ] {
        if !(share > 0.0 && share <= 1.0) {
            bail!(
                "{name} is a share of the rows or features: more than 0, at most 1 (got {share})"
            );
        }
    }
    let site_sets = set_names(&args.site_dataset);
    if let Some(set) = site_sets.iter().find(|s| TEST_SETS.contains(s)) {
        bail!("{set} is a test set: the content model is never trained on it");
    }
    let (pages, held) = read_sets(&args)?;
    if pages.is_empty() && site_sets.is_empty() {
        bail!("no training pages");
    }
    let per_page: Vec<(String, Option<Examples>)> = pages
        .par_iter()
        .map(|(set, source)| (set.clone(), examples_of(source)))
        .collect();
    let mut all = Examples::default();
    let mut by_set: std::collections::BTreeMap<String, (Examples, u32)> = Default::default();
    for (set, ex) in per_page {
        let entry = by_set.entry(set).or_default();
        match ex {
            Some(ex) => {
                entry.0.extend(ex.counts());
                all.extend(ex);
            }
            None => entry.1 += 1,
        }
    }
    let mut note = Vec::new();
    for (set, (ex, unreadable)) in &by_set {
        let line = if ex.gold_words == 0 && ex.skipped == 0 {
            format!(
                "{set}: {} pages (labels on nodes), {unreadable} unreadable",
                ex.pages
            )
        } else {
            format!(
                "{set}: {} pages ({} gold not on the page, {unreadable} unreadable); gold words aligned {:.3}, page words labelled content {:.3}",
                ex.pages,
                ex.skipped,
                ex.gold_aligned as f64 / ex.gold_words.max(1) as f64,
                ex.page_content_words as f64 / ex.page_words.max(1) as f64,
            )
        };
        eprintln!("{line}");
        note.push(line);
    }
    if !site_sets.is_empty() {
        let root = data_root(&args)?;
        let methods: Vec<&str> = args.site_methods.iter().map(String::as_str).collect();
        // Site methods only: the rows are their verdicts, and the built-in content model
        // need not fit this build's features while a new one is fitted.
        let registry = chaff::Registry::site_level();
        let holdout = args.holdout.as_deref().map(parse_holdout).transpose()?;
        for (name, ex, failures) in crate::content_site::sets_examples(
            &root,
            &site_sets,
            &methods,
            (args.min_site_pages, holdout),
            &registry,
        )? {
            let line = format!(
                "{name}: {} pages ({} gold not on the page), {} rows; {failures} site models not learned",
                ex.pages,
                ex.skipped,
                ex.len()
            );
            eprintln!("{line}");
            note.push(line);
            let mut ex = ex;
            ex.weights.iter_mut().for_each(|w| *w *= args.site_weight);
            all.extend(ex);
        }
    }
    if all.is_empty() {
        bail!("the training pages gave no rows (no page had text, or no site was learned)");
    }
    eprintln!(
        "{} rows, {} content",
        all.len(),
        all.content.iter().filter(|c| **c).count()
    );
    let opts = TrainOptions {
        gbdt: GbdtParams {
            trees: args.trees,
            max_depth: args.depth,
            learning_rate: args.learning_rate,
            min_child_weight: args.min_child_weight,
            subsample: args.subsample,
            colsample: args.colsample,
            ..GbdtParams::default()
        },
        threshold: args.threshold,
        stack: !args.no_stack,
        page_types: args.page_types,
    };
    if let Some(h) = &args.holdout {
        note.push(format!("wcxb-dev fold {h} held out"));
    }
    let model = fit(&all, &opts, &note.join("; "));
    chaff_corpus::sink::atomic_write(&args.out, model.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    if let Some(path) = &args.holdout_ids {
        let mut text = held.join("\n");
        text.push('\n');
        chaff_corpus::sink::atomic_write(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!("wrote {}", args.out.display());
    Ok(Status::Ok)
}
