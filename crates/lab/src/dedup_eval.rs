//! `chaff-lab dedup`: near-duplicate detection on the pages' whole visible text, which the
//! template makes alike (or, where its per-page parts differ, unlike), and on their
//! extracted text, with the same detector (`chaff_dedup::Seen`, as `chaff extract --dedup`
//! runs it). Sites are learned with the product's default site methods
//! (`chaff::DEFAULT_SITE_METHODS`, at least 5 pages a site, as `chaff extract --learn`
//! does) and extracted, through `chaff::Learner` and `chaff::Extractor`.
//!
//! Two sets of pages:
//! * synthetic sites (the default) whose pages share their template and some share their
//!   article: for every third page a copy, in turn exact, with its date changed, with three
//!   words of the article changed, or the same article served again with other "Related"
//!   headlines and previous / next links (a page fetched twice). A pair is right when both
//!   pages carry the same article. The detector's parameters were chosen on seeds 201–210
//!   (`--first-seed 201 --seeds 10`); the reported figures are seeds 1–3.
//! * `--dragnet`: the 1,381 real pages of the Dragnet set, each site learned (sites from the
//!   set's `sites.tsv`). Nothing is planted; a pair is right when the two pages' gold
//!   article texts are near-duplicates by the same rule. Here short posts under a large
//!   template show what the template does to the whole page text.
//!
//! A page should be reported when an earlier page is truly its near-duplicate; a reported
//! pair (page, the kept page it repeats) is right when the two truly are.

use std::collections::HashSet;
use std::path::PathBuf;

use anyhow::Context;
use chaff::corpus::{Media, Page};
use chaff::{Extractor, Learner, Registry, SiteFrom};
use chaff_cli::common::Status;
use chaff_dedup::{Config, Seen, Signature};
use clap::Args;
use rayon::prelude::*;

/// Arguments of `chaff-lab dedup`.
#[derive(Args)]
pub struct DedupArgs {
    /// Seeds of the synthetic sites (from --first-seed).
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
    /// Words near-duplicates may differ in (default: the shipping configuration's).
    #[arg(long)]
    words: Option<f64>,
    /// Share of their words long near-duplicates may differ in (default: the shipping
    /// configuration's).
    #[arg(long)]
    share: Option<f64>,
    /// The real pages of the Dragnet set instead of synthetic sites.
    #[arg(long)]
    dragnet: bool,
    /// Where the data sets are (default: ../shared/datasets, or $CHAFF_SHARED/datasets).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Print every missed and every wrong pair with its similarity and word counts.
    #[arg(long)]
    show: bool,
}

/// One page of the evaluation: its HTML and the article it carries (copies share it).
struct Item {
    page: Page,
    article: usize,
    short: bool,
}

/// The kinds of copy, in turn over the pages that get one.
const KINDS: usize = 4;

/// A copy of page `p` of kind `k`: exact; with its date changed (a digit of the date line);
/// with a few words of the article changed (three, spread over it, each replaced by another
/// word of the article); or the same article served again later (`again`: the page generated
/// from an archive one article longer, so its "Related" list and its previous / next links
/// are other pages', as when a page is fetched twice). `None` when the page has no date line
/// or too few words for the edit.
fn copy(p: &chaff_synth::SynthPage, again: Option<&String>, k: usize) -> Option<String> {
    match k % KINDS {
        0 => Some(p.html.clone()),
        1 => edit_text(p, chaff_synth::Region::Date, 1, |w| {
            // The last digit of the first number, moved on by one.
            let mut s: Vec<u8> = w.as_bytes().to_vec();
            let d = s.iter_mut().rev().find(|b| b.is_ascii_digit())?;
            *d = if *d == b'9' { b'0' } else { *d + 1 };
            String::from_utf8(s).ok()
        }),
        2 => edit_text(p, chaff_synth::Region::Content, 3, |_| None),
        _ => again.cloned(),
    }
}

/// The page with `n` words of its text nodes of `region` changed: spread evenly over those
/// words, each replaced by `change(word)`, or, where that gives `None`, by the word half the
/// region's words further on (another word of the same text, so the vocabulary stays the
/// page's). Words are runs of ASCII letters and digits; for the date, the region's words
/// that hold a digit.
fn edit_text(
    p: &chaff_synth::SynthPage,
    region: chaff_synth::Region,
    n: usize,
    change: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let doc = chaff_dom::parse(p.html.as_bytes()).ok()?;
    if !doc.spans_are_source_bytes() {
        return None;
    }
    let digits = region == chaff_synth::Region::Date;
    // Byte ranges of the region's words in the HTML.
    let mut words: Vec<std::ops::Range<usize>> = Vec::new();
    for id in (0..doc.len() as u32).map(chaff_dom::NodeId) {
        if !doc.is_text(id) || p.regions.get(id.index()) != Some(&region) {
            continue;
        }
        let Some(span) = doc.span(id) else { continue };
        let text = p.html.get(span.clone())?;
        let mut start = None;
        for (i, c) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            match (c.is_ascii_alphanumeric(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let w = &text[s..i];
                    if !digits || w.bytes().any(|b| b.is_ascii_digit()) {
                        words.push(span.start + s..span.start + i);
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    if words.len() < n.max(1) * 2 {
        return None;
    }
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for j in 0..n {
        let at = (2 * j + 1) * words.len() / (2 * n);
        let w = &p.html[words[at].clone()];
        let new = change(w).or_else(|| {
            let other = (at + words.len() / 2) % words.len();
            (1..words.len())
                .map(|d| &p.html[words[(other + d - 1) % words.len()].clone()])
                .find(|o| !o.eq_ignore_ascii_case(w))
                .map(str::to_string)
        })?;
        edits.push((words[at].clone(), new));
    }
    let mut html = p.html.clone();
    for (range, new) in edits.into_iter().rev() {
        html.replace_range(range, &new);
    }
    Some(html)
}

fn items(args: &DedupArgs) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for seed in args.first_seed..args.first_seed + args.seeds {
        for site in chaff_synth::generate_sites(seed, args.sites, args.pages) {
            // The same site generated from an archive one article longer: the same sample of
            // articles, other "Related" lists.
            let later = chaff_synth::generate_site(&chaff_synth::SiteConfig {
                seed,
                site_index: site.site_index,
                pages: args.pages,
                archive: Some(args.pages * 5 + 1),
                style: Some(site.style),
                domain: Some(site.domain.clone()),
            });
            for (i, p) in site.pages.iter().enumerate() {
                let page = |html: String, suffix: &str| Page {
                    source: format!("{}{suffix}", p.url),
                    url: Some(format!("{}{suffix}", p.url)),
                    bytes: html.into_bytes(),
                    charset: None,
                    folder: None,
                    media: Media::Html,
                };
                let article = out.len();
                out.push(Item {
                    page: page(p.html.clone(), ""),
                    article,
                    short: p.short,
                });
                let again = later.pages.iter().find(|q| q.url == p.url).map(|q| &q.html);
                if i % 3 == 0
                    && let Some(html) = copy(p, again, i / 3)
                {
                    out.push(Item {
                        page: page(html, "?copy"),
                        article,
                        short: p.short,
                    });
                }
            }
        }
    }
    out
}

/// The pages of an evaluation and which pairs are truly near-duplicates.
struct Set {
    items: Vec<Item>,
    /// Whether two pages (by position) are truly near-duplicates.
    same: Box<dyn Fn(usize, usize) -> bool + Sync>,
    /// What the pages are, for the report's first line.
    what: String,
}

/// Synthetic sites with planted copies; a pair is right when it carries one article.
fn synthetic(args: &DedupArgs) -> Set {
    let items = items(args);
    let articles: Vec<usize> = items.iter().map(|it| it.article).collect();
    let shorts = items.iter().filter(|it| it.short).count();
    Set {
        what: format!(
            "{} pages ({shorts} a single short paragraph) on {} synthetic sites, seeds {}..={}; \
             copies: exact, date changed, 3 words changed, served again",
            items.len(),
            args.seeds as usize * args.sites,
            args.first_seed,
            args.first_seed + args.seeds.max(1) - 1
        ),
        items,
        same: Box::new(move |a, b| articles[a] == articles[b]),
    }
}

/// Dragnet's pages, in a folder per gold site; a pair is right when their gold articles are
/// near-duplicates under `config`.
fn dragnet(args: &DedupArgs, config: Config) -> anyhow::Result<Set> {
    let root = match &args.data {
        Some(d) => d.clone(),
        None => chaff_eval::datasets_dir()
            .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED")?,
    };
    let gold = chaff_eval::dragnet(&root.join("dragnet"), chaff_eval::DragnetText::Article)?;
    let mut items = Vec::new();
    let mut sigs = Vec::new();
    let mut sites = HashSet::new();
    for g in &gold {
        let site = g.site.clone().unwrap_or_else(|| g.id.clone());
        items.push(Item {
            page: crate::eval::gold_page_as_input(&site, g)?,
            article: items.len(),
            short: false,
        });
        sigs.push(Signature::of(&g.gold_text, &config));
        sites.insert(site);
    }
    Ok(Set {
        what: format!(
            "{} Dragnet pages on {} sites; truth: their gold articles",
            items.len(),
            sites.len()
        ),
        items,
        same: Box::new(move |a, b| match (&sigs[a], &sigs[b]) {
            (Some(x), Some(y)) => x.is_near(y, &config),
            _ => false,
        }),
    })
}

/// Each page's whole visible text and extracted text, its site learned as `chaff extract
/// --learn` learns it.
fn texts(items: &[Item]) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let registry = Registry::builtin()?;
    let learner = Learner::new(&registry, chaff::DEFAULT_SITE_METHODS)?
        .site_from(SiteFrom::Folder)
        .min_pages(5);
    let pages = || items.iter().map(|it| Ok(it.page.clone()));
    let learned = learner.learn_sites(pages(), pages(), &|_| {})?;
    let ex = Extractor::builder()
        .registry(registry)
        .site_from(SiteFrom::Folder)
        .store(learned.profiles.into_iter().collect())
        .build()?;
    let out: Vec<(String, String)> = items
        .par_iter()
        .map(|it| {
            let e = ex.extract_page(it.page.clone())?;
            Ok((e.view().text().to_string(), e.text().to_string()))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(out.into_iter().unzip())
}

/// Runs `chaff-lab dedup`.
pub fn run(args: DedupArgs) -> anyhow::Result<Status> {
    let default = Config::default();
    let config = Config {
        shingle: args.shingle.unwrap_or(default.shingle),
        words: args.words.unwrap_or(default.words),
        share: args.share.unwrap_or(default.share),
        ..default
    };
    let set = if args.dragnet {
        dragnet(&args, config)?
    } else {
        synthetic(&args)
    };
    let (items, same) = (&set.items, &set.same);
    // Pages with a true near-duplicate before them.
    let should: Vec<bool> = (0..items.len())
        .into_par_iter()
        .map(|i| (0..i).any(|j| same(i, j)))
        .collect();
    let should_n = should.iter().filter(|&&s| s).count();
    let (raw, cleaned) = texts(items)?;
    outln!("{}", set.what)?;
    outln!("{should_n} pages to report (an earlier page is truly their near-duplicate); {config}")?;
    for (name, texts) in [("whole page text", &raw), ("extracted text", &cleaned)] {
        let mut seen = Seen::new(config);
        let got: Vec<(usize, usize)> = texts
            .iter()
            .enumerate()
            .filter_map(|(i, t)| seen.duplicate_of(i, t).map(|k| (i, k)))
            .collect();
        let right: HashSet<usize> = got
            .iter()
            .filter(|&&(i, k)| same(i, k))
            .map(|&(i, _)| i)
            .collect();
        let p = if got.is_empty() {
            1.0
        } else {
            right.len() as f64 / got.len() as f64
        };
        let r = if should_n == 0 {
            1.0
        } else {
            right.len() as f64 / should_n as f64
        };
        outln!(
            "{name:<16} pairs found {:>5}  precision {p:.3}  recall {r:.3}",
            got.len()
        )?;
        if args.show {
            let sig = |i: usize| Signature::of(&texts[i], &config);
            let line = |i: usize, k: usize| match (sig(i), sig(k)) {
                (Some(x), Some(y)) => format!(
                    "similarity {:.3}, changed words {:.1}; words {} / {}",
                    x.similarity(&y),
                    x.changed_words(&y, &config),
                    x.words(),
                    y.words()
                ),
                _ => "no words".into(),
            };
            for &(i, k) in got.iter().filter(|&&(i, _)| !right.contains(&i)) {
                outln!(
                    "  wrong {} -> {}: {}",
                    items[i].page.source,
                    items[k].page.source,
                    line(i, k)
                )?;
            }
            for i in (0..items.len()).filter(|&i| should[i] && !right.contains(&i)) {
                let Some(j) = (0..i).find(|&j| same(i, j)) else {
                    continue;
                };
                outln!(
                    "  missed {} ({}): {}{}",
                    items[i].page.source,
                    items[j].page.source,
                    line(i, j),
                    if items[i].short { " (short)" } else { "" }
                )?;
            }
        }
    }
    Ok(Status::Ok)
}
