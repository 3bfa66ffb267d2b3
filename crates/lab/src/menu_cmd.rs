//! `chaff-lab menu`: each page's main menu (Alarte, Insa & Silva), its selector and links.

use std::path::PathBuf;

use chaff::corpus::{JsonlWriter, WriteOutcome};
use chaff::methods::menu::{self, MenuParams, MenuReport};
use chaff::{LoadOptions, load_page};
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use chaff_cli::common::{self, InputArgs, Status};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MenuFormat {
    /// The selector, then one `text <url>` line per link.
    Text,
    /// JSON Lines: {"source", "selector", "links": [{"text", "url"}]} per page.
    Json,
}

/// Arguments of `chaff-lab menu`.
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
    /// Parameters written by `chaff-lab train-menu` (default: the built-in model; `--paper` for
    /// the paper's method and weights).
    #[arg(long, value_name = "FILE", conflicts_with = "paper")]
    params: Option<PathBuf>,
    /// The paper's method with its section 4.1 weights and thresholds, instead of the model.
    #[arg(long)]
    paper: bool,
}

/// Runs `chaff-lab menu`.
pub fn run(args: MenuArgs) -> anyhow::Result<Status> {
    let params = if args.paper {
        MenuParams::PAPER
    } else {
        chaff::methods::menu::MenuParams::load_or_default(args.params.as_deref())?
    };
    let load = LoadOptions {
        parse: args.input.parse_options(),
        ..LoadOptions::default()
    };
    let siblings: Vec<chaff::dom::Document> = match &args.site_pages {
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
    let prepared: Vec<menu::siblings::SiblingPage<'_>> = siblings
        .iter()
        .map(menu::siblings::SiblingPage::new)
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
                    menu::detect(&loaded.doc, &params)
                } else {
                    menu::detect_with_prepared_siblings(&loaded.doc, &prepared, &params)
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
