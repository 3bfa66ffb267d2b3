//! `chaff learn`: pages of a site in, a site profile out.

use std::path::PathBuf;

use anyhow::{Context, bail};
use chaff::{LearnOptions, SiteChoice};
use chaff_suffix::mutable::{self, MutablePattern};
use chaff_suffix::tokens::TokenizerSpec;
use chaff_suffix::{SuffixConfig, View};
use clap::{Args, ValueEnum};

use crate::common::{self, InputArgs, Status};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Suffix-array template mining (Foschini).
    Suffix,
    /// Multiple alignment of tag sequences (Geraci & Maggini).
    Align,
    /// The main content's generic XPath by significant tag paths (Oita & Senellart).
    Forest,
    /// Subtrees repeated on at least a tenth of the site's pages (SiteLevel, Chakrabarti,
    /// Kumar & Punera).
    Subtree,
}

/// The methods named on the command line as a set.
pub fn method_set(methods: &[Method]) -> chaff::MethodSet {
    chaff::MethodSet {
        suffix: methods.contains(&Method::Suffix),
        align: methods.contains(&Method::Align),
        forest: methods.contains(&Method::Forest),
        subtree: methods.contains(&Method::Subtree),
    }
}

#[derive(Args)]
pub struct LearnArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The method(s) to learn, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "suffix")]
    method: Vec<Method>,
    /// Where to write the profile (with --per-site: a directory, one profile per site).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Learn only the pages of this site (a registrable domain, or a folder name for pages
    /// without URLs).
    #[arg(long, conflicts_with = "per_site")]
    site: Option<String>,
    /// Learn one profile per site found in the inputs, with cross-site filtering.
    #[arg(long)]
    per_site: bool,
    #[command(flatten)]
    suffix: SuffixArgs,
    /// Alignment: the number of sample pages `t` in the consensus tree.
    #[arg(long, default_value_t = chaff_align::model::DEFAULT_PAGES, value_name = "T")]
    pages: usize,
    #[command(flatten)]
    align: AlignArgs,
    #[command(flatten)]
    forest: ForestArgs,
    /// Print the cleaning expressions, one per line, on stdout.
    #[arg(long)]
    print_regexes: bool,
    /// Draw the document-frequency histogram with its cutoff as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

pub fn run(args: LearnArgs) -> anyhow::Result<Status> {
    if args.output.is_none() && !args.print_regexes {
        bail!(
            "say where the profile goes with -o PATH (or print the expressions with --print-regexes)"
        );
    }
    let methods = method_set(&args.method);
    let config = args.suffix.config()?;
    let align = args.align.config(args.pages)?;
    let site = match (&args.site, args.per_site) {
        (Some(s), _) => SiteChoice::Named(s.clone()),
        (None, true) => SiteChoice::PerSite,
        (None, false) => SiteChoice::Single,
    };
    let opts = LearnOptions {
        methods,
        suffix: config,
        align,
        forest: args.forest.config()?,
        feeds: args.forest.feeds()?,
        site,
        cross_site_min: args.suffix.cross_site_min,
        parse: args.input.parse_options(),
    };
    let pages = args.input.pages()?;
    let bar = common::progress(args.input.quiet, "learning from");
    let learned = chaff::learn(pages, &opts, &|bytes| {
        bar.inc(1);
        bar.inc_length(bytes);
    });
    bar.finish_and_clear();
    let learned = learned?;
    let mut status = Status::Ok;
    for e in &learned.page_errors {
        common::warn(e);
        status = Status::Partial;
    }
    for (site, n, why) in &learned.skipped {
        common::warn(format!("skipped site {site} ({n} pages): {why}"));
    }
    if learned.profiles.is_empty() {
        bail!("no site had enough pages to learn from");
    }
    if learned.cross_site_dropped > 0 {
        eprintln!(
            "chaff: cross-site filtering dropped {} expressions",
            learned.cross_site_dropped
        );
    }
    let per_site = args.per_site;
    if let (Some(out), true) = (&args.output, per_site) {
        std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    }
    for profile in &learned.profiles {
        let suffix = profile.methods.suffix.as_ref();
        if let Some(out) = &args.output {
            let path = if per_site {
                out.join(format!(
                    "{}.profile.json",
                    common::site_file_stem(&profile.site)
                ))
            } else {
                out.clone()
            };
            profile.save(&path)?;
            if let Some(m) = suffix {
                eprintln!(
                    "chaff: {}: {} pages, {} tokens, {} candidate strings, cutoff at {}% of pages, {} expressions -> {}",
                    profile.site,
                    profile.pages,
                    m.tokens,
                    m.candidates,
                    m.histogram.cutoff,
                    m.expressions.len(),
                    path.display()
                );
            }
            if let Some(m) = &profile.methods.align {
                eprintln!(
                    "chaff: {}: aligned {} of {} pages, template of {} tokens -> {}",
                    profile.site,
                    m.sample_pages,
                    profile.pages,
                    m.template.len(),
                    path.display()
                );
            }
        }
        if let (Some(m), Some(out)) = (&profile.methods.forest, &args.output) {
            eprintln!(
                "chaff: {}: main content at {} (on {} of {} pages{}) -> {}",
                profile.site,
                m.xpath,
                m.pages,
                profile.pages,
                m.css
                    .as_deref()
                    .map(|c| format!("; CSS {c}"))
                    .unwrap_or_default(),
                out.display()
            );
        }
        if let (Some(plot), Some(m)) = (&args.plot, suffix) {
            let path = if per_site {
                site_plot_path(plot, &profile.site)
            } else {
                plot.clone()
            };
            crate::plot::histogram(&path, &profile.site, &m.histogram)?;
        }
        if args.print_regexes {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for e in suffix.map(|m| m.expressions.as_slice()).unwrap_or_default() {
                writeln!(out, "{}", e.regex)?;
            }
        }
    }
    Ok(status)
}

fn site_plot_path(plot: &std::path::Path, site: &str) -> PathBuf {
    let stem = plot
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("histogram");
    plot.with_file_name(format!("{stem}-{}.svg", common::site_file_stem(site)))
}

