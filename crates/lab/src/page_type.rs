//! `chaff-lab train-page-type`: the recipe of the built-in page-type classifier
//! (`chaff_content::page_classifier`), and its domain-disjoint cross-validated accuracy.
//!
//! Training data: wcxb-dev only (WCXB's labels of 1,497 pages from 1,295 domains; a
//! development split, never a test set). Every page goes through `chaff::Extractor` with
//! the built-in settings, and the classifier's inputs are read off that extraction
//! (`Extraction::page_type_input`), as extraction reads them. The pages' domains are dealt to
//! `--folds` folds; each fold is classified by a model fitted on the others, through the
//! same `PageClassifier::probabilities` extraction calls. The model written to `--out` is
//! then fitted on every page.

use std::path::PathBuf;

use anyhow::{Context, bail};
use chaff::Extractor;
use chaff_cli::common::Status;
use chaff_content::page_classifier::{self, Example, PageClassifier};
use chaff_content::pagetype::{TYPES, type_index};
use clap::Args;
use rayon::prelude::*;

/// Arguments of `chaff-lab train-page-type`.
#[derive(Args)]
pub struct TrainPageTypeArgs {
    /// Where to write the model (JSON).
    #[arg(long)]
    out: PathBuf,
    /// Domain-disjoint folds of the cross-validation (0: none).
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Cross-validate this many times, dealing the domains to folds by a different hash each
    /// time (the first deal is the usual one and the only one whose predictions, table and
    /// fold models are written), and print the mean: the spread over deals tells a real
    /// gain from the luck of one deal.
    #[arg(long, default_value_t = 1)]
    deals: u32,
    /// Write each page's cross-validated prediction here (id, gold, predicted, URL; tab
    /// separated).
    #[arg(long)]
    predictions: Option<PathBuf>,
    /// Write each fold's model here (`fold-K.json`) with the ids of the pages it did not see
    /// (`fold-K.ids`), so extraction can be scored with out-of-domain page types.
    #[arg(long)]
    fold_models: Option<PathBuf>,
    /// The shared folder (default: found beside the repository or from CHAFF_SHARED).
    #[arg(long)]
    shared: Option<PathBuf>,
}

/// A page's domain: its host without a leading `www.`.
pub(crate) fn domain(url: Option<&str>, id: &str) -> String {
    let host = url
        .and_then(|u| u.split_once("://"))
        .map(|(_, r)| r.split(['/', '?', '#']).next().unwrap_or(""))
        .unwrap_or("");
    let host = host.strip_prefix("www.").unwrap_or(host);
    if host.is_empty() {
        format!("page:{id}")
    } else {
        host.to_ascii_lowercase()
    }
}

/// Per page: its id and URL, and the type its markup states.
struct PageNote {
    id: String,
    url: String,
    stated: Option<String>,
}

fn examples(dir: &std::path::Path) -> anyhow::Result<(Vec<Example>, Vec<PageNote>)> {
    let pages = chaff_eval::wcxb(dir)?;
    let ex = Extractor::builder().build()?;
    let rows: Vec<anyhow::Result<(Example, PageNote)>> = pages
        .par_iter()
        .map(|(page, _)| {
            let bytes = chaff_eval::read_maybe_gz(&page.html_path)
                .with_context(|| format!("cannot read {}", page.html_path.display()))?;
            let kind = page
                .kind
                .as_deref()
                .and_then(type_index)
                .with_context(|| format!("page {} has no known type", page.id))?;
            let e = ex
                .extract(&bytes, page.url.as_deref())
                .with_context(|| format!("page {}", page.id))?;
            let (numeric, tokens) = e.page_type_input();
            let stated = chaff_meta::extract(e.document(), e.url())
                .page_type
                .map(|t| t.name().to_owned());
            let domain = domain(page.url.as_deref(), &page.id);
            Ok((
                Example {
                    numeric,
                    tokens,
                    kind,
                    domain,
                },
                PageNote {
                    id: page.id.clone(),
                    url: page.url.clone().unwrap_or_default(),
                    stated,
                },
            ))
        })
        .collect();
    let mut out = (Vec::new(), Vec::new());
    for r in rows {
        let (e, s) = r?;
        out.0.push(e);
        out.1.push(s);
    }
    Ok(out)
}

/// Runs `chaff-lab train-page-type`.
pub fn run(args: TrainPageTypeArgs) -> anyhow::Result<Status> {
    let shared = match args.shared.clone() {
        Some(s) => s,
        None => chaff_eval::shared_dir().context("no shared folder: pass --shared")?,
    };
    let (examples, notes) = examples(&shared.join("datasets").join("wcxb-dev"))?;
    if examples.is_empty() {
        bail!("no wcxb-dev pages");
    }
    let domains: std::collections::HashSet<&str> =
        examples.iter().map(|e| e.domain.as_str()).collect();
    eprintln!("{} pages, {} domains", examples.len(), domains.len());
    if args.folds > 1 {
        let mut sum = cross_validate(&examples, &notes, args.folds, 0, Some(&args))?;
        for deal in 1..args.deals {
            let a = cross_validate(&examples, &notes, args.folds, deal, None)?;
            outln!("deal {deal}: {:.1}%", 100.0 * a)?;
            sum += a;
        }
        if args.deals > 1 {
            outln!(
                "mean over {} deals: {:.2}%",
                args.deals,
                100.0 * sum / f64::from(args.deals)
            )?;
        }
    }
    let model = PageClassifier::fit(
        &examples,
        &format!(
            "wcxb-dev: {} pages, {} domains (WCXB's page-type labels)",
            examples.len(),
            domains.len()
        ),
    );
    chaff_corpus::sink::atomic_write(&args.out, model.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!("wrote {}", args.out.display());
    Ok(Status::Ok)
}

/// The accuracy of one deal's cross-validation; with `args` (the first deal), the
/// predictions, fold models and the table too.
fn cross_validate(
    examples: &[Example],
    notes: &[PageNote],
    folds: usize,
    deal: u32,
    args: Option<&TrainPageTypeArgs>,
) -> anyhow::Result<f64> {
    let fold_models = args.and_then(|a| a.fold_models.as_ref());
    if let Some(dir) = fold_models {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let salt = match deal {
        0 => String::new(),
        s => s.to_string(),
    };
    let fold = |e: &Example| page_classifier::fold_of(&format!("outer{salt}:{}", e.domain), folds);
    let predicted: Vec<Vec<(usize, u8)>> = (0..folds)
        .into_par_iter()
        .map(|k| {
            let train: Vec<Example> = examples.iter().filter(|e| fold(e) != k).cloned().collect();
            let model =
                PageClassifier::fit(&train, &format!("wcxb-dev without fold {k} of {folds}"));
            if let Some(dir) = fold_models {
                let ids: String = (0..examples.len())
                    .filter(|&i| fold(&examples[i]) == k)
                    .map(|i| format!("{}\n", notes[i].id))
                    .collect();
                for (name, text) in [("json", model.to_json()), ("ids", ids)] {
                    let path = dir.join(format!("fold-{k}.{name}"));
                    chaff_corpus::sink::atomic_write(&path, text.as_bytes())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
            }
            Ok(examples
                .iter()
                .enumerate()
                .filter(|(_, e)| fold(e) == k)
                .map(|(i, e)| {
                    let p = model.probabilities(&e.numeric, &e.tokens);
                    (i, page_classifier::best(&p).0)
                })
                .collect())
        })
        .collect::<anyhow::Result<_>>()?;
    let mut confusion = [[0usize; 7]; 7];
    let mut lines = String::new();
    for (i, p) in predicted.into_iter().flatten() {
        let gold = usize::from(examples[i].kind);
        confusion[gold][usize::from(p)] += 1;
        let n = &notes[i];
        lines.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            n.id,
            TYPES[gold],
            TYPES[usize::from(p)],
            n.url
        ));
    }
    let right: usize = (0..7).map(|k| confusion[k][k]).sum();
    let accuracy = right as f64 / examples.len() as f64;
    let Some(args) = args else {
        return Ok(accuracy);
    };
    if let Some(path) = &args.predictions {
        chaff_corpus::sink::atomic_write(path, lines.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    outln!(
        "page type, {folds}-fold domain-disjoint CV on wcxb-dev: {right}/{} = {:.1}%",
        examples.len(),
        100.0 * right as f64 / examples.len() as f64
    )?;
    let given: Vec<usize> = (0..examples.len())
        .filter(|&i| notes[i].stated.is_some())
        .collect();
    let markup_right = given
        .iter()
        .filter(|&&i| notes[i].stated.as_deref() == Some(TYPES[usize::from(examples[i].kind)]))
        .count();
    outln!(
        "markup alone: states a type on {}/{} pages, right on {markup_right} ({:.1}% of all pages)",
        given.len(),
        examples.len(),
        100.0 * markup_right as f64 / examples.len() as f64
    )?;
    outln!("| gold \\ predicted | {} | recall |", TYPES.join(" | "))?;
    outln!("|---{}|---|", "|---".repeat(7))?;
    for (k, row) in confusion.iter().enumerate() {
        let n: usize = row.iter().sum();
        let cells: Vec<String> = row.iter().map(usize::to_string).collect();
        outln!(
            "| {} | {} | {:.2} |",
            TYPES[k],
            cells.join(" | "),
            row[k] as f64 / n.max(1) as f64
        )?;
    }
    Ok(accuracy)
}
