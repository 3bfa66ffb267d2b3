//! FOREST's figures over a data set: F1 against the number of sample pages per site (the
//! paper's Figure 5) and against the number of signifiers per page (Figure 6).
//!
//! For each point, FOREST learns a wrapper per site from the site's first `n` pages (Figure
//! 5; every page for Figure 6) with `chaff::Learner` and every page of the site is extracted
//! with it by `chaff::Extractor` (page-level extraction where nothing could be learned); the points are the
//! set's 4-gram shingle and word-bigram F1 (of the mean precision and recall), beside the
//! COVERAGE baseline and the uncleaned page. Both figures are printed as tables too.

use std::path::Path;

use chaff::methods::forest::ForestMethod;
use chaff::{Extractor, Learner, LoadedPage, Registry};
use chaff_cli::flags::ForestArgs;
use chaff_core::Method;
use chaff_eval::GoldPage;
use chaff_forest::{ForestConfig, Ranking};
use rayon::prelude::*;

use crate::plot::{Line, lines};

/// The most sample pages Figure 5 goes to.
const MAX_PAGES: usize = 20;
/// The signifier counts of Figure 6.
const KEYWORDS: [usize; 13] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30];

type Sites = [(String, Vec<(GoldPage, LoadedPage)>)];

/// 4-gram and bigram F1 over the set when each site learns from its first `pages` pages.
fn score(sites: &Sites, config: &ForestConfig, pages: usize) -> (f64, f64) {
    let Ok(mut registry) = Registry::builtin() else {
        return (f64::NAN, f64::NAN);
    };
    registry.register(ForestMethod {
        config: config.clone(),
        feeds: None,
    });
    let scores: Vec<chaff_eval::PageScore> = sites
        .par_iter()
        .flat_map_iter(|(site, pages_of)| {
            let ex = site_extractor(&registry, site, pages_of, pages);
            pages_of
                .iter()
                .map(|(g, p)| {
                    let text = ex
                        .as_ref()
                        .map(|ex| ex.extract_loaded(p.clone()).text().to_string())
                        .unwrap_or_default();
                    chaff_eval::score_page(&g.id, &text, &g.gold_text)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let report = chaff_eval::aggregate(scores);
    (report.shingle4.f1_of_means, report.bigram.f1_of_means)
}

/// The extractor for one site: FOREST learned from its first `pages` pages, page-level
/// extraction when it learns nothing (as `chaff extract --learn` does).
fn site_extractor(
    registry: &Registry,
    site: &str,
    pages_of: &[(GoldPage, LoadedPage)],
    pages: usize,
) -> Option<Extractor> {
    let sample: Vec<LoadedPage> = pages_of
        .iter()
        .take(pages.max(1))
        .map(|(_, p)| p.clone())
        .collect();
    let builder = Extractor::builder().registry(registry.clone());
    let builder =
        match Learner::new(registry, &["forest"]).and_then(|l| l.learn_pages(site, &sample)) {
            Ok(profile) => builder.profile_for_every_page(profile),
            Err(_) => builder,
        };
    builder.build().ok()
}

/// The uncleaned pages' 4-gram F1.
fn full_page(sites: &Sites) -> f64 {
    let scores = sites
        .iter()
        .flat_map(|(_, s)| s)
        .map(|(g, p)| chaff_eval::score_page(&g.id, p.view.text(), &g.gold_text))
        .collect();
    chaff_eval::aggregate(scores).shingle4.f1_of_means
}

/// Draws (and prints) Figure 5 and/or Figure 6.
pub fn figures(
    args: &ForestArgs,
    sites: &Sites,
    fig5: Option<&Path>,
    fig6: Option<&Path>,
) -> anyhow::Result<()> {
    let config = args.config()?;
    let coverage = ForestConfig {
        ranking: Ranking::Coverage,
        ..config.clone()
    };
    let full = full_page(sites);
    if let Some(path) = fig5 {
        let mut forest4 = Vec::new();
        let mut forest2 = Vec::new();
        let mut cov4 = Vec::new();
        println!(
            "Figure 5: F1 by sample pages per site\npages\tforest-4gram\tforest-2gram\tcoverage-4gram"
        );
        for n in 1..=MAX_PAGES {
            let (f4, f2) = score(sites, &config, n);
            let (c4, _) = score(sites, &coverage, n);
            println!("{n}\t{f4:.3}\t{f2:.3}\t{c4:.3}");
            let x = n as f64;
            forest4.push((x, f4));
            forest2.push((x, f2));
            cov4.push((x, c4));
        }
        let flat = (1..=MAX_PAGES).map(|n| (n as f64, full)).collect();
        lines(
            path,
            "FOREST: F1 by the number of sample pages per site (Oita & Senellart, Figure 5)",
            "sample pages per site (at most)",
            "F1",
            &figure_lines(forest4, forest2, cov4, flat),
        )?;
        eprintln!("chaff: Figure 5 -> {}", path.display());
    }
    if let Some(path) = fig6 {
        let mut forest4 = Vec::new();
        let mut forest2 = Vec::new();
        let mut cov4 = Vec::new();
        println!(
            "Figure 6: F1 by signifiers per page\nsignifiers\tforest-4gram\tforest-2gram\tcoverage-4gram"
        );
        for k in KEYWORDS {
            let (f4, f2) = score(
                sites,
                &ForestConfig {
                    keywords: k,
                    ..config.clone()
                },
                usize::MAX,
            );
            let (c4, _) = score(
                sites,
                &ForestConfig {
                    keywords: k,
                    ..coverage.clone()
                },
                usize::MAX,
            );
            println!("{k}\t{f4:.3}\t{f2:.3}\t{c4:.3}");
            let x = k as f64;
            forest4.push((x, f4));
            forest2.push((x, f2));
            cov4.push((x, c4));
        }
        let flat = KEYWORDS.iter().map(|&k| (k as f64, full)).collect();
        lines(
            path,
            "FOREST: F1 by the number of signifiers per page (Oita & Senellart, Figure 6)",
            "signifiers per page (at most)",
            "F1",
            &figure_lines(forest4, forest2, cov4, flat),
        )?;
        eprintln!("chaff: Figure 6 -> {}", path.display());
    }
    Ok(())
}

/// `chaff bench forest`: learning time and the wrapper's time per page beside parsing.
#[derive(clap::Args)]
pub struct ForestBench {
    /// Pages of one site (files, folders, globs, WARCs).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Learn from this many pages (the first ones read).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pages: usize,
    /// Repeat each measurement this many times and keep the best.
    #[arg(long, default_value_t = 5, value_name = "N")]
    rounds: usize,
    #[command(flatten)]
    forest: ForestArgs,
}

/// Runs `bench forest` single-threaded, keeping the best of `rounds` for each figure.
pub fn bench(b: ForestBench) -> anyhow::Result<chaff_cli::common::Status> {
    use std::time::Instant;
    let config = b.forest.config()?;
    let raw: Vec<chaff::corpus::Page> =
        chaff::corpus::Pages::from_args(&b.inputs, chaff::corpus::PagesOptions::default())?
            .filter_map(Result::ok)
            .collect();
    if raw.is_empty() {
        anyhow::bail!("no pages in the inputs");
    }
    let opts = chaff::LoadOptions::default();
    let rounds = b.rounds.max(1);
    let mut parse_best = f64::MAX;
    let mut loaded = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        loaded = raw
            .iter()
            .cloned()
            .map(|p| chaff::load_page(p, &opts))
            .collect::<Result<Vec<_>, _>>()?;
        parse_best = parse_best.min(start.elapsed().as_secs_f64());
    }
    let n = b.pages.min(loaded.len()).max(1);
    let method = ForestMethod {
        config,
        feeds: None,
    };
    let mut registry = Registry::builtin()?;
    registry.register(method.clone());
    let learner = Learner::new(&registry, &["forest"])?;
    let mut learn_best = f64::MAX;
    let mut profile = None;
    for _ in 0..rounds {
        let start = Instant::now();
        let learned = learner.learn_pages("site", &loaded[..n])?;
        learn_best = learn_best.min(start.elapsed().as_secs_f64());
        profile = Some(learned);
    }
    let Some(model) = profile.and_then(|p| p.methods.get("forest").cloned()) else {
        anyhow::bail!("nothing learned");
    };
    let model: chaff_forest::ForestModel = serde_json::from_value(model)?;
    // Applying the wrapper alone: the method's evidence, without parsing or fusion.
    let compiled = method.compile(Some(model.clone()))?;
    let mut apply_best = f64::MAX;
    let mut kept = 0usize;
    for _ in 0..rounds {
        let start = Instant::now();
        kept = 0;
        for p in &loaded {
            if let Some(e) = method.evidence(&compiled, &p.input()).evidence() {
                kept += e
                    .labels()
                    .roles()
                    .iter()
                    .filter(|r| !r.is_template())
                    .count();
            }
        }
        apply_best = apply_best.min(start.elapsed().as_secs_f64());
    }
    let pages = loaded.len() as f64;
    let bytes: usize = raw.iter().map(|p| p.bytes.len()).sum();
    println!(
        "pages read          {} ({:.1} MB)",
        loaded.len(),
        bytes as f64 / 1e6
    );
    println!("wrapper             {}", model.xpath);
    println!(
        "learn ({n} pages)     {:.1} ms (parsing excluded)",
        learn_best * 1e3
    );
    println!("parse per page      {:.3} ms", parse_best / pages * 1e3);
    println!(
        "apply per page      {:.3} ms ({:.2}x the parse time; {kept} nodes kept)",
        apply_best / pages * 1e3,
        apply_best / parse_best
    );
    Ok(chaff_cli::common::Status::Ok)
}

/// The four curves of Figures 5 and 6: FOREST by 4-gram shingles and by word bigrams,
/// COVERAGE, and the whole page as a flat reference.
fn figure_lines(
    forest4: Vec<(f64, f64)>,
    forest2: Vec<(f64, f64)>,
    cov4: Vec<(f64, f64)>,
    flat: Vec<(f64, f64)>,
) -> [Line; 4] {
    [
        Line {
            name: "FOREST (tf-idf), 4-gram shingles".into(),
            points: forest4,
        },
        Line {
            name: "FOREST (tf-idf), word bigrams".into(),
            points: forest2,
        },
        Line {
            name: "COVERAGE, 4-gram shingles".into(),
            points: cov4,
        },
        Line {
            name: "whole page, 4-gram shingles".into(),
            points: flat,
        },
    ]
}
