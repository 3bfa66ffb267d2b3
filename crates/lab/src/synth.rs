//! `chaff synth`: labelled synthetic sites on disk (pages plus a `labels.json` sidecar per
//! site), the ground truth the project's tests and benchmarks use; or as one WARC of HTTP
//! responses (`--warc`) with the truth per page as JSON Lines (`--truth`: the content's words
//! and the template's), for the jobs that read crawls (the Python package's Spark job).

use std::cell::RefCell;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use chaff::corpus::{WarcCompression, WarcWriter};
use chaff_synth::{
    Label, SiteConfig, Style, SynthSite, generate_site, generate_sites_with, word_counts_by,
    write_site,
};
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
    #[arg(short, long, value_name = "DIR", required_unless_present = "warc")]
    output: Option<PathBuf>,
    /// Write the pages as HTTP response records of one WARC file instead (gzip when the
    /// name ends in `.gz`), sites one after another.
    #[arg(long, value_name = "FILE", conflicts_with = "output")]
    warc: Option<PathBuf>,
    /// With --warc: the truth of every page as JSON Lines: `url`, `site`, `content` (the
    /// words of its content text nodes) and `template` (those of its template and menu
    /// text nodes), each a space-joined string.
    #[arg(long, value_name = "FILE", requires = "warc")]
    truth: Option<PathBuf>,
    /// Pages of each site, one number per site (`200,50,8`: three sites), instead of
    /// --sites and --pages.
    #[arg(long, value_delimiter = ',', value_name = "N,...")]
    site_pages: Vec<usize>,
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
    if let Some(warc) = &args.warc {
        return write_warc(&args, warc);
    }
    let Some(output) = &args.output else {
        anyhow::bail!("name a folder (-o) or a WARC file (--warc)");
    };
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
        let dir = output.join(&site.domain);
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

/// One site of a `--warc` run: site `i` with `pages` pages, its domain made unique.
fn warc_site(args: &SynthArgs, i: usize, pages: usize, seen: &mut Vec<String>) -> SynthSite {
    let style = args.style.map(|s| match s {
        StyleArg::Html5 => Style::Html5,
        StyleArg::Divsoup => Style::DivSoup,
        StyleArg::Tables => Style::Tables,
    });
    let mut domain = chaff_synth::site_domain(args.seed, i as u32);
    if seen.contains(&domain) {
        // Another name, not another host of the same name: site keys must differ.
        let mut labels: Vec<String> = domain.split('.').map(str::to_string).collect();
        let at = usize::from(labels.len() > 2 && labels[0] == "www");
        labels[at] = format!("{}{i}", labels[at]);
        domain = labels.join(".");
    }
    seen.push(domain.clone());
    generate_site(&SiteConfig {
        seed: args.seed,
        site_index: i as u32,
        pages,
        archive: args.archive,
        style,
        domain: Some(domain),
    })
}

/// Writes the sites as one WARC (each written to a temporary name, then renamed) and,
/// with `--truth`, the truth of each page.
fn write_warc(args: &SynthArgs, path: &Path) -> anyhow::Result<Status> {
    let counts: Vec<usize> = if args.site_pages.is_empty() {
        vec![args.pages; args.sites]
    } else {
        args.site_pages.clone()
    };
    let gz = path.extension().is_some_and(|e| e == "gz");
    let compression = if gz {
        WarcCompression::Gzip
    } else {
        WarcCompression::None
    };
    let tmp = |p: &Path| p.with_extension(format!("tmp{}", std::process::id()));
    let warc_tmp = tmp(path);
    let file = std::fs::File::create(&warc_tmp)
        .with_context(|| format!("cannot write {}", warc_tmp.display()))?;
    let mut warc = WarcWriter::new(BufWriter::new(file), compression);
    let mut truth = match &args.truth {
        Some(p) => Some((p, BufWriter::new(std::fs::File::create(tmp(p))?))),
        None => None,
    };
    let mut seen = Vec::new();
    let (mut pages, mut bytes) = (0usize, 0usize);
    for (i, &n) in counts.iter().enumerate() {
        let site = warc_site(args, i, n, &mut seen);
        for page in &site.pages {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
                page.html.len()
            );
            let mut response = head.into_bytes();
            response.extend_from_slice(page.html.as_bytes());
            warc.write_response(&page.url, &response)?;
            pages += 1;
            bytes += page.html.len();
            if let Some((_, out)) = truth.as_mut() {
                let (content, template) = truth_words(page)?;
                let line = serde_json::json!({
                    "url": page.url, "site": site.domain,
                    "content": content, "template": template,
                });
                writeln!(out, "{line}")?;
            }
        }
        outln!(
            "{}\t{}\t{} pages",
            site.domain,
            site.style,
            site.pages.len()
        )?;
    }
    let mut file = warc.into_inner()?;
    file.flush()?;
    std::fs::rename(&warc_tmp, path)?;
    if let Some((p, mut out)) = truth {
        out.flush()?;
        std::fs::rename(tmp(p), p)?;
    }
    outln!(
        "{pages} pages, {:.1} MB of HTML in {}",
        bytes as f64 / 1e6,
        path.display()
    )?;
    Ok(Status::Ok)
}

/// A page's content words and template (and menu) words, space-joined, with the text-node
/// rules of `chaff_synth::word_counts` (no structure, script or style text).
fn truth_words(page: &chaff_synth::SynthPage) -> anyhow::Result<(String, String)> {
    let doc = page.parse()?;
    let words = RefCell::new((String::new(), String::new()));
    word_counts_by(&doc, &page.labels, &|id, text| {
        let mut w = words.borrow_mut();
        let dest = match page.labels.get(id.index()) {
            Some(Label::Content) => &mut w.0,
            Some(Label::Template | Label::Menu) => &mut w.1,
            _ => return 0,
        };
        for word in text.split_whitespace() {
            if !dest.is_empty() {
                dest.push(' ');
            }
            dest.push_str(word);
        }
        0
    });
    Ok(words.into_inner())
}
