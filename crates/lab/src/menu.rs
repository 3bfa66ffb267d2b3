//! `chaff menu`: each page's main menu (Alarte, Insa & Silva), and `chaff train-menu`: the
//! method's weights and thresholds fitted to labelled pages.

use std::path::PathBuf;

use anyhow::Context;
use chaff::corpus::{JsonlWriter, WriteOutcome};
use chaff::{LoadOptions, load_page};
use chaff_menu::{MenuParams, MenuReport};
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use crate::common::{self, InputArgs, Status};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MenuFormat {
    /// The selector, then one `text <url>` line per link.
    Text,
    /// JSON Lines: {"source", "selector", "links": [{"text", "url"}]} per page.
    Json,
}

#[derive(Args)]
pub struct MenuArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: MenuFormat,
    /// Other pages of the same site: a menu must recur on one of them (Definition 5).
    #[arg(long, value_name = "DIR")]
    site_pages: Option<String>,
    /// Parameters written by `chaff train-menu` (default: the built-in model; `--paper` for
    /// the paper's method and weights).
    #[arg(long, value_name = "FILE", conflicts_with = "paper")]
    params: Option<PathBuf>,
    /// The paper's method with its section 4.1 weights and thresholds, instead of the model.
    #[arg(long)]
    paper: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TrainMethod {
    /// The scored-element model (the default detector).
    Model,
    /// The paper's section 4.1 grid over its six weights and two thresholds.
    Paper,
}

#[derive(Args)]
pub struct TrainMenuArgs {
    /// What to fit.
    #[arg(long, value_enum, default_value = "model")]
    method: TrainMethod,
    /// Labelled pages in the format of ../shared/datasets/menu-labels/labels.json.
    #[arg(long, value_name = "FILE")]
    labels: PathBuf,
    /// Cross-validation folds, by site (0 or 1: none).
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Where to write the fitted parameters (JSON, for `chaff menu --params`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn load_params(path: Option<&PathBuf>) -> anyhow::Result<MenuParams> {
    let Some(path) = path else {
        return Ok(MenuParams::default());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let params = MenuParams::from_json(&text)
        .with_context(|| format!("{}: not menu parameters", path.display()))?;
    params
        .validate()
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(params)
}

pub fn run(args: MenuArgs) -> anyhow::Result<Status> {
    let params = if args.paper {
        MenuParams::PAPER
    } else {
        load_params(args.params.as_ref())?
    };
    let load = LoadOptions {
        parse: args.input.parse_options(),
        keep_source: false,
    };
    let siblings: Vec<chaff_dom::Document> = match &args.site_pages {
        None => Vec::new(),
        Some(dir) => chaff::corpus::Pages::from_args(
            std::slice::from_ref(dir),
            chaff::corpus::PagesOptions::default(),
        )?
        .filter_map(Result::ok)
        .par_bridge()
        .filter_map(|p| load_page(p, &load).ok().map(|l| l.doc))
        .collect(),
    };
    let prepared: Vec<chaff_menu::siblings::SiblingPage<'_>> = siblings
        .iter()
        .map(chaff_menu::siblings::SiblingPage::new)
        .collect();
    let mut status = Status::Ok;
    let mut seen = 0usize;
    let mut out = JsonlWriter::new(std::io::stdout().lock(), "stdout");
    // Pages are read and detected in parallel batches, printed in input order, so that a
    // large crawl is never held in memory at once.
    let mut pages = args.input.pages()?;
    loop {
        let batch: Vec<_> = pages.by_ref().take(64).collect();
        if batch.is_empty() {
            break;
        }
        let results: Vec<anyhow::Result<(String, MenuReport)>> = batch
            .into_par_iter()
            .map(|page| {
                let page = page.map_err(chaff::Error::from)?;
                let loaded = load_page(page, &load)?;
                let menu = if prepared.is_empty() {
                    chaff_menu::detect(&loaded.doc, &params)
                } else {
                    chaff_menu::detect_with_prepared_siblings(&loaded.doc, &prepared, &params)
                };
                // Links are made absolute against the page's URL, else its declared one.
                let base = loaded.url.as_deref().or(loaded.doc.declared_url());
                let report = MenuReport::new(&loaded.doc, menu, base);
                Ok((loaded.source, report))
            })
            .collect();
        for r in results {
            seen += 1;
            let (source, report) = match r {
                Ok(ok) => ok,
                Err(e) => {
                    common::warn(format!("{e:#}"));
                    status = Status::Partial;
                    continue;
                }
            };
            match args.format {
                MenuFormat::Json => {
                    let record = serde_json::json!({
                        "source": source,
                        "selector": report.selector,
                        "links": report.links,
                    });
                    if out.write(&record)? == WriteOutcome::Closed {
                        return Ok(status);
                    }
                }
                MenuFormat::Text => {
                    outln!(
                        "{source}\t{}",
                        report.selector.as_deref().unwrap_or("(no main menu)")
                    )?;
                    for link in &report.links {
                        outln!("  {} <{}>", link.text, link.url)?;
                    }
                }
            }
        }
    }
    out.flush()?;
    if seen == 0 {
        anyhow::bail!("no pages found in the inputs");
    }
    Ok(status)
}

pub fn train(args: TrainMenuArgs) -> anyhow::Result<Status> {
    let show = |what: &str, s: &chaff_menu::eval::Summary| {
        outln!(
            "{what:<28} pages {:>4}  P {:>6.2}  R {:>6.2}  F1 {:>6.2}  perfect {:>5.1}%",
            s.pages,
            100.0 * s.precision,
            100.0 * s.recall,
            100.0 * s.f1,
            100.0 * s.perfect
        )
    };
    if let TrainMethod::Model = args.method {
        let opts = chaff_menu::model::FitOptions::default();
        let (model, fitted, cv) =
            chaff_menu::model::fit_from_labels(&args.labels, args.folds, &opts)
                .map_err(|e| anyhow::anyhow!("{}: {e}", args.labels.display()))?;
        outln!("model of {} features", chaff_menu::model::FEATURES)?;
        show("fitted (on its own pages)", &fitted)?;
        if let Some(cv) = &cv {
            show(
                &format!("{}-fold cross-validation", cv.models.len()),
                &cv.pooled,
            )?;
        }
        if let Some(path) = &args.output {
            let params = MenuParams {
                model,
                ..MenuParams::default()
            };
            chaff::corpus::atomic_write(path, params.to_json().as_bytes())?;
            eprintln!("chaff: parameters -> {}", path.display());
        }
        return Ok(Status::Ok);
    }
    let grid = chaff_menu::train::Grid::paper();
    let (trained, cv) = chaff_menu::train::train_from_labels(&args.labels, &grid, args.folds)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.labels.display()))?;
    outln!("{} combinations of the paper's grid", trained.combinations)?;
    show("fitted (on its own pages)", &trained.summary)?;
    if let Some(cv) = &cv {
        show(
            &format!("{}-fold cross-validation", cv.folds.len()),
            &cv.pooled,
        )?;
    }
    if let Some(path) = &args.output {
        chaff::corpus::atomic_write(path, trained.params.to_json().as_bytes())?;
        eprintln!("chaff: parameters -> {}", path.display());
    }
    Ok(Status::Ok)
}
