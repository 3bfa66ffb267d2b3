//! `chaff-lab train-title`: the recipe of the built-in title chooser
//! (`chaff_meta::title`), and its domain-disjoint cross-validated exact-title rate.
//!
//! Training data: wcxb-dev only (WCXB's gold titles of 1,497 pages from 1,300 hosts; a
//! development split, never a test set). Every page goes through `chaff::Extractor`, and the
//! candidates and their facts are read off that extraction (`Extraction::title_candidates`),
//! as extraction reads them. With `--page-type-folds` (the folder `chaff-lab train-page-type
//! --fold-models` writes) each page is typed by the page-type model that did not see its
//! domain, as `meta_eval.py --page-type-folds` types it. A candidate is right when it equals
//! the gold title after the scorer's normalisation (`chaff_meta::title::title_key`). The
//! pages' domains are dealt to `--folds` folds by the page-type recipe's hash; each fold's
//! titles are chosen by a model fitted on the others. The model written to `--out` is then
//! fitted on every page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use chaff::{Extractor, PageClassifier};
use chaff_cli::common::Status;
use chaff_content::page_classifier;
use chaff_meta::TitleModel;
use chaff_meta::title::title_key;
use clap::Args;
use rayon::prelude::*;

/// Arguments of `chaff-lab train-title`.
#[derive(Args)]
pub struct TrainTitleArgs {
    /// Where to write the model (JSON).
    #[arg(long)]
    out: PathBuf,
    /// Domain-disjoint folds of the cross-validation (0: none).
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Weigh the products of every two facts too (a model of pairs), not only the facts.
    #[arg(long)]
    pairs: bool,
    /// The L2 penalty per weight.
    #[arg(long, default_value_t = 0.001)]
    l2: f32,
    /// Type each page with the page-type fold model that did not see its domain, from this
    /// folder (`fold-K.json` and `fold-K.ids`, as `train-page-type --fold-models` writes).
    #[arg(long)]
    page_type_folds: Option<PathBuf>,
    /// Write each fold's title model here (`fold-K.title.json`) beside the page-type fold
    /// models, so `meta_eval.py --page-type-folds` scores titles out of domain.
    #[arg(long)]
    fold_models: Option<PathBuf>,
    /// Write each page's cross-validated title here (id, right, chosen, gold; tab separated).
    #[arg(long)]
    predictions: Option<PathBuf>,
    /// Write every page's candidates here (JSON Lines: id, gold, and per candidate its text,
    /// whether it is right and its facts), for study.
    #[arg(long)]
    candidates: Option<PathBuf>,
    /// The shared folder (default: found beside the repository or from CHAFF_SHARED).
    #[arg(long)]
    shared: Option<PathBuf>,
}

/// A page: its candidates' facts and whether each is right, the texts, its gold and domain.
struct Page {
    id: String,
    domain: String,
    gold: Option<String>,
    texts: Vec<String>,
    rows: Vec<(Vec<f32>, bool)>,
}

/// The page's fold by the page-type recipe's hash of its domain.
fn fold(domain: &str, folds: usize) -> usize {
    page_classifier::fold_of(&format!("outer:{domain}"), folds)
}

/// WCXB's gold title of a page.
fn gold_title(dir: &Path, id: &str) -> anyhow::Result<Option<String>> {
    let path = dir.join("ground-truth").join(format!("{id}.json"));
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
    Ok(v.pointer("/ground_truth/title")
        .and_then(|t| t.as_str())
        .map(str::to_string)
        .filter(|t| !t.trim().is_empty()))
}

/// One extractor per page-type fold model (`None`: the built-in), and each page's fold.
fn extractors(folds: Option<&Path>) -> anyhow::Result<(Vec<Extractor>, HashMap<String, usize>)> {
    let Some(dir) = folds else {
        return Ok((vec![Extractor::builder().build()?], HashMap::new()));
    };
    let mut out = Vec::new();
    let mut of = HashMap::new();
    for k in 0.. {
        let model = dir.join(format!("fold-{k}.json"));
        if !model.exists() {
            break;
        }
        let ids = dir.join(format!("fold-{k}.ids"));
        let ids = std::fs::read_to_string(&ids)
            .with_context(|| format!("cannot read {}", ids.display()))?;
        for id in ids.split_whitespace() {
            of.insert(id.to_string(), k);
        }
        out.push(
            Extractor::builder()
                .page_type_model(PageClassifier::load(&model)?)
                .build()?,
        );
    }
    if out.is_empty() {
        bail!("no fold-0.json in {}", dir.display());
    }
    Ok((out, of))
}

fn pages(dir: &Path, page_type_folds: Option<&Path>) -> anyhow::Result<Vec<Page>> {
    let pages = chaff_eval::wcxb(dir)?;
    let (extractors, fold_of_page) = extractors(page_type_folds)?;
    pages
        .par_iter()
        .map(|(page, _)| {
            let bytes = chaff_eval::read_maybe_gz(&page.html_path)
                .with_context(|| format!("cannot read {}", page.html_path.display()))?;
            let ex = match page_type_folds {
                None => &extractors[0],
                Some(_) => {
                    let k = fold_of_page
                        .get(&page.id)
                        .with_context(|| format!("page {} is in no page-type fold", page.id))?;
                    &extractors[*k]
                }
            };
            let e = ex
                .extract(&bytes, page.url.as_deref())
                .with_context(|| format!("page {}", page.id))?;
            let gold = gold_title(dir, &page.id)?;
            let key = gold.as_deref().map(title_key);
            let candidates = e.title_candidates();
            Ok(Page {
                id: page.id.clone(),
                domain: crate::page_type::domain(page.url.as_deref(), &page.id),
                rows: candidates
                    .iter()
                    .map(|c| (c.facts.clone(), key.as_deref() == Some(&title_key(&c.text))))
                    .collect(),
                texts: candidates.into_iter().map(|c| c.text).collect(),
                gold,
            })
        })
        .collect()
}

/// Runs `chaff-lab train-title`.
pub fn run(args: TrainTitleArgs) -> anyhow::Result<Status> {
    let shared = match args.shared.clone() {
        Some(s) => s,
        None => chaff_eval::shared_dir().context("no shared folder: pass --shared")?,
    };
    let pages = pages(
        &shared.join("datasets").join("wcxb-dev"),
        args.page_type_folds.as_deref(),
    )?;
    if pages.is_empty() {
        bail!("no wcxb-dev pages");
    }
    let domains: std::collections::HashSet<&str> =
        pages.iter().map(|p| p.domain.as_str()).collect();
    let titled = pages.iter().filter(|p| p.gold.is_some()).count();
    let reachable = pages
        .iter()
        .filter(|p| p.rows.iter().any(|(_, g)| *g))
        .count();
    eprintln!(
        "{} pages, {} domains; {titled} with a gold title, {reachable} of them with a right candidate",
        pages.len(),
        domains.len()
    );
    if let Some(path) = &args.candidates {
        let lines: String = pages
            .iter()
            .map(|p| {
                let cands: Vec<serde_json::Value> = p
                    .texts
                    .iter()
                    .zip(&p.rows)
                    .map(|(t, (x, g))| serde_json::json!({"text": t, "right": g, "facts": x}))
                    .collect();
                let line = serde_json::json!({"id": p.id, "domain": p.domain, "gold": p.gold, "candidates": cands});
                format!("{line}\n")
            })
            .collect();
        chaff_corpus::sink::atomic_write(path, lines.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let rules = TitleModel::rules();
    let rate = |right: usize| {
        format!(
            "{right}/{titled} = {:.1}%",
            100.0 * right as f64 / titled.max(1) as f64
        )
    };
    outln!(
        "hand-written rules: exact title {}",
        rate(right_of(&pages, |_| &rules))
    )?;
    if args.folds > 1 {
        cross_validate(&pages, &args, &rate)?;
    }
    let rows: Vec<Vec<(Vec<f32>, bool)>> = pages.iter().map(|p| p.rows.clone()).collect();
    let model = TitleModel::fit(
        &rows,
        args.l2,
        args.pairs,
        format!(
            "wcxb-dev: {} pages, {} domains (WCXB's gold titles), l2 {}, pairs {}",
            pages.len(),
            domains.len(),
            args.l2,
            args.pairs
        ),
    );
    outln!(
        "fitted on every page (in sample): exact title {}",
        rate(right_of(&pages, |_| &model))
    )?;
    chaff_corpus::sink::atomic_write(&args.out, model.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!("wrote {}", args.out.display());
    Ok(Status::Ok)
}

/// How many pages' chosen titles are right, each page's model given by `model`.
fn right_of<'a>(pages: &[Page], model: impl Fn(&Page) -> &'a TitleModel) -> usize {
    pages
        .iter()
        .filter(|p| chosen(model(p), p).is_some_and(|i| p.rows[i].1))
        .count()
}

/// The index of the candidate `model` chooses on `page`.
fn chosen(model: &TitleModel, page: &Page) -> Option<usize> {
    model.best(page.rows.iter().map(|(x, _)| x.as_slice()))
}

fn cross_validate(
    pages: &[Page],
    args: &TrainTitleArgs,
    rate: &dyn Fn(usize) -> String,
) -> anyhow::Result<()> {
    let folds = args.folds;
    if let Some(dir) = &args.fold_models {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let models: Vec<TitleModel> = (0..folds)
        .into_par_iter()
        .map(|k| {
            let rows: Vec<Vec<(Vec<f32>, bool)>> = pages
                .iter()
                .filter(|p| fold(&p.domain, folds) != k)
                .map(|p| p.rows.clone())
                .collect();
            let model = TitleModel::fit(
                &rows,
                args.l2,
                args.pairs,
                format!("wcxb-dev without fold {k} of {folds}, l2 {}", args.l2),
            );
            if let Some(dir) = &args.fold_models {
                let path = dir.join(format!("fold-{k}.title.json"));
                chaff_corpus::sink::atomic_write(&path, model.to_json().as_bytes())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            Ok(model)
        })
        .collect::<anyhow::Result<_>>()?;
    let model_of = |p: &Page| &models[fold(&p.domain, folds)];
    outln!(
        "title chooser, {folds}-fold domain-disjoint CV on wcxb-dev: exact title {}",
        rate(right_of(pages, model_of))
    )?;
    if let Some(path) = &args.predictions {
        let mut lines = String::new();
        for p in pages {
            let i = chosen(model_of(p), p);
            lines.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                p.id,
                i.is_some_and(|i| p.rows[i].1),
                i.map_or("", |i| p.texts[i].as_str()),
                p.gold.as_deref().unwrap_or("")
            ));
        }
        chaff_corpus::sink::atomic_write(path, lines.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
