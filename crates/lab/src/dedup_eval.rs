//! `chaff-lab dedup`: near-duplicate detection on synthetic sites whose pages share their
//! template and some share their article: copies of a page, copies with the date changed,
//! copies with a few words changed. The same detector (`chaff_dedup`, as `chaff extract
//! --dedup` runs it) is scored on the pages' whole visible text, which the template makes
//! alike, and on their extracted text (each site learned, then extracted, through
//! `chaff::Learner` and `chaff::Extractor`).

use std::collections::HashSet;

use chaff::corpus::{Media, Page};
use chaff::{Extractor, Learner, ProfileStore, Registry, SiteChoice};
use chaff_cli::common::Status;
use chaff_dedup::{Config, Index, Signature};
use clap::Args;

/// Arguments of `chaff-lab dedup`.
#[derive(Args)]
pub struct DedupArgs {
    /// Seeds 1..=N of the synthetic sites.
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    /// Sites per seed.
    #[arg(long, default_value_t = 3)]
    sites: usize,
    /// Pages per site (a third of them get a copy).
    #[arg(long, default_value_t = 24)]
    pages: usize,
    /// The first seed (seeds `first..first + seeds`): choose parameters on other seeds than
    /// those reported.
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    /// Words per shingle (default: the shipping configuration's).
    #[arg(long)]
    shingle: Option<usize>,
    /// Similarity threshold (default: the shipping configuration's).
    #[arg(long)]
    threshold: Option<f64>,
}

/// One page of the evaluation: its HTML and, for a copy, the page it copies.
struct Item {
    page: Page,
    copy_of: Option<usize>,
}

/// A copy of `html` of kind `k`: exact, with its date changed, with a few words changed.
fn copy(html: &str, k: usize) -> String {
    match k % 3 {
        0 => html.to_string(),
        1 => html
            .replacen("2011", "2012", 1)
            .replacen("Monday", "Friday", 1),
        _ => html.replacen(" the ", " a ", 3),
    }
}

fn items(args: &DedupArgs) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for seed in args.first_seed..args.first_seed + args.seeds {
        for site in chaff_synth::generate_sites(seed, args.sites, args.pages) {
            for (i, p) in site.pages.iter().enumerate() {
                let page = |html: String, suffix: &str| Page {
                    source: format!("{}{suffix}", p.url),
                    url: Some(format!("{}{suffix}", p.url)),
                    bytes: html.into_bytes(),
                    charset: None,
                    folder: None,
                    media: Media::Html,
                };
                let original = out.len();
                out.push(Item {
                    page: page(p.html.clone(), ""),
                    copy_of: None,
                });
                if i % 3 == 0 {
                    let html = copy(&p.html, i / 3);
                    out.push(Item {
                        page: page(html, "?copy"),
                        copy_of: Some(original),
                    });
                }
            }
        }
    }
    out
}

/// Pairs (copy, original) the index reports, over texts in item order.
fn found(texts: &[String], config: Config) -> HashSet<(usize, usize)> {
    let mut index = Index::new(config);
    let mut ids = Vec::new();
    let mut pairs = HashSet::new();
    for (i, t) in texts.iter().enumerate() {
        let Some(sig) = Signature::of(t, &config) else {
            continue;
        };
        let (_, kept) = index.insert(sig);
        ids.push(i);
        if let Some(k) = kept {
            pairs.insert((i, ids[k as usize]));
        }
    }
    pairs
}

/// Runs `chaff-lab dedup`.
pub fn run(args: DedupArgs) -> anyhow::Result<Status> {
    let items = items(&args);
    let default = Config::default();
    let config = Config {
        shingle: args.shingle.unwrap_or(default.shingle),
        threshold: args.threshold.unwrap_or(default.threshold),
        ..default
    };
    let truth: HashSet<(usize, usize)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| it.copy_of.map(|o| (i, o)))
        .collect();
    let registry = Registry::builtin()?;
    let learner = Learner::new(&registry, &["suffix"])?;
    let pages = items.iter().map(|it| Ok(it.page.clone()));
    let learned = learner.learn(pages, &SiteChoice::PerSite, &|_| {})?;
    let store: ProfileStore = learned.profiles.into_iter().collect();
    let ex = Extractor::builder()
        .registry(registry)
        .store(store)
        .build()?;
    let mut raw = Vec::new();
    let mut cleaned = Vec::new();
    for it in &items {
        let e = ex.extract(&it.page.bytes, it.page.url.as_deref())?;
        raw.push(e.view().text().to_string());
        cleaned.push(e.text().to_string());
    }
    outln!(
        "{} pages ({} copies: exact, date changed, words changed) on {} sites",
        items.len(),
        truth.len(),
        args.seeds as usize * args.sites
    )?;
    for (name, texts) in [("whole page text", &raw), ("extracted text", &cleaned)] {
        let got = found(texts, config);
        let tp = got.intersection(&truth).count() as f64;
        let p = if got.is_empty() {
            1.0
        } else {
            tp / got.len() as f64
        };
        let r = tp / truth.len().max(1) as f64;
        outln!(
            "{name:<16} pairs found {:>5}  precision {p:.3}  recall {r:.3}",
            got.len()
        )?;
    }
    Ok(Status::Ok)
}
