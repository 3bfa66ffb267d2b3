//! `chaff synth`: labelled synthetic sites on disk (pages plus a `labels.json` sidecar per
//! site), the ground truth the project's tests and benchmarks use.

use std::path::PathBuf;

use anyhow::Context;
use chaff_synth::{SiteConfig, Style, generate_site, generate_sites_with, write_site};
use clap::{Args, ValueEnum};

use crate::common::Status;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StyleArg {
    Html5,
    Divsoup,
    Tables,
}

#[derive(Args)]
pub struct SynthArgs {
    /// Folder to write into: one sub-folder per site, named by its domain.
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// The seed; the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of sites (consecutive sites use different markup styles).
    #[arg(long, default_value_t = 3)]
    sites: usize,
    /// Pages per site.
    #[arg(long, default_value_t = 20)]
    pages: usize,
    /// Articles each site has published (default 5 x pages); the pages sample them.
    #[arg(long)]
    archive: Option<usize>,
    /// One markup style for every site.
    #[arg(long, value_enum)]
    style: Option<StyleArg>,
}

pub fn run(args: SynthArgs) -> anyhow::Result<Status> {
    let sites = match args.style {
        None => generate_sites_with(args.seed, args.sites, args.pages, args.archive),
        Some(style) => (0..args.sites as u32)
            .map(|i| {
                generate_site(&SiteConfig {
                    seed: args.seed,
                    site_index: i,
                    pages: args.pages,
                    archive: args.archive,
                    style: Some(match style {
                        StyleArg::Html5 => Style::Html5,
                        StyleArg::Divsoup => Style::DivSoup,
                        StyleArg::Tables => Style::Tables,
                    }),
                    domain: None,
                })
            })
            .collect(),
    };
    for site in &sites {
        let dir = args.output.join(&site.domain);
        write_site(site, &dir).with_context(|| format!("cannot write {}", dir.display()))?;
        outln!(
            "{}\t{}\t{} pages\t{}",
            site.domain,
            site.style,
            site.pages.len(),
            dir.display()
        )?;
    }
    Ok(Status::Ok)
}
