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

/// How FOREST ranks structural patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ForestRanking {
    /// Informativeness J x U (the paper's FOREST).
    Informativeness,
    /// Jeffreys' density J alone (Figure 7).
    Density,
    /// Unexpectedness U alone (Figure 7).
    Unexpectedness,
    /// The COVERAGE baseline (eq. 6-7).
    Coverage,
}

/// FOREST's parameters (shared by `learn`, `eval` and `bench`).
#[derive(Args, Clone, Debug)]
pub struct ForestArgs {
    /// FOREST: signifiers per page (top-k tf-idf terms), 1 to 64.
    #[arg(long, default_value_t = chaff_forest::DEFAULT_KEYWORDS, value_name = "K")]
    keywords: usize,
    /// FOREST: rank patterns by the COVERAGE baseline instead of informativeness.
    #[arg(long)]
    coverage: bool,
    /// FOREST: the ranking measure (--coverage is short for `coverage`).
    #[arg(
        long,
        value_enum,
        default_value = "informativeness",
        value_name = "MEASURE"
    )]
    forest_ranking: ForestRanking,
    /// FOREST: element types with whole attribute values instead of the tolerant form.
    #[arg(long)]
    full_attributes: bool,
    /// FOREST: keep the significant paths through comment blocks (elements whose id or
    /// class mentions "comment"), which are left out by default.
    #[arg(long)]
    comment_paths: bool,
    /// FOREST: keep the top pattern even when the runner-up is its parent and at least as
    /// relevant before the level factor (the paper's ranking as printed picks the deeper one).
    #[arg(long)]
    no_informative_parent: bool,
    /// FOREST: when the wrapper matches nothing on at least this share of the pages (a second
    /// template), add the top pattern of those pages as an alternative; above 1, never.
    #[arg(long, default_value_t = chaff_forest::DEFAULT_MIN_TEMPLATE_SHARE, value_name = "SHARE")]
    min_template_share: f64,
    /// FOREST: a web feed (RSS or Atom) whose items give signifiers (title and description)
    /// to the pages they link to; repeatable.
    #[arg(long, value_name = "FEED.xml")]
    feed: Vec<PathBuf>,
}

impl ForestArgs {
    /// The learner's configuration.
    pub fn config(&self) -> anyhow::Result<chaff_forest::ForestConfig> {
        if !(1..=64).contains(&self.keywords) {
            bail!("--keywords must be between 1 and 64, got {}", self.keywords);
        }
        use chaff_forest::Ranking;
        let ranking = match (self.coverage, self.forest_ranking) {
            (true, _) | (_, ForestRanking::Coverage) => Ranking::Coverage,
            (_, ForestRanking::Informativeness) => Ranking::Informativeness,
            (_, ForestRanking::Density) => Ranking::Density,
            (_, ForestRanking::Unexpectedness) => Ranking::Unexpectedness,
        };
        Ok(chaff_forest::ForestConfig {
            keywords: self.keywords,
            ranking,
            attributes: if self.full_attributes {
                chaff_forest::AttributeForm::Full
            } else {
                chaff_forest::AttributeForm::Tolerant
            },
            min_template_share: self.min_template_share,
            skip_comments: !self.comment_paths,
            informative_parent: !self.no_informative_parent,
        })
    }

    /// The items of the feeds given with --feed, if any.
    pub fn feeds(&self) -> anyhow::Result<Option<chaff_forest::FeedItems>> {
        if self.feed.is_empty() {
            return Ok(None);
        }
        let mut items = chaff_forest::FeedItems::new();
        for path in &self.feed {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            items
                .add_feed(&bytes)
                .with_context(|| format!("{}", path.display()))?;
        }
        Ok(Some(items))
    }
}

/// The alignment method's parameters (shared by `learn`, `eval` and `bench`; the number of
/// sample pages is `--pages` in `learn` and `--align-pages` elsewhere).
#[derive(Args, Clone, Debug)]
pub struct AlignArgs {
    /// Alignment: keep template tokens found on at least this share of the sample pages.
    #[arg(long, default_value_t = chaff_align::model::DEFAULT_KEEP, value_name = "SHARE")]
    keep: f64,
    /// Alignment: remove page tokens aligned to template tokens of at least this confidence
    /// (default: --keep).
    #[arg(long, value_name = "SHARE")]
    min_confidence: Option<f64>,
    /// Alignment: the seed of the page sample.
    #[arg(long, default_value_t = 0, value_name = "N")]
    align_seed: u64,
    /// Alignment: keep digits in tokens (by default every digit run reads as 0, so that ids
    /// and dates in links do not split a template slot).
    #[arg(long)]
    keep_digits: bool,
    /// Alignment: keep URLs in attributes whole (by default they read as their host).
    #[arg(long)]
    keep_urls: bool,
}

impl AlignArgs {
    /// The configuration for `pages` sample pages.
    pub fn config(&self, pages: usize) -> anyhow::Result<chaff_align::AlignConfig> {
        if pages < 2 {
            bail!("the alignment method needs at least 2 sample pages, got {pages}");
        }
        if !(self.keep > 0.0 && self.keep <= 1.0) {
            bail!("--keep must be above 0 and at most 1, got {}", self.keep);
        }
        let min_confidence = self.min_confidence.unwrap_or(self.keep);
        if !(0.0..=1.0).contains(&min_confidence) {
            bail!("--min-confidence must be between 0 and 1, got {min_confidence}");
        }
        Ok(chaff_align::AlignConfig {
            pages,
            keep: self.keep,
            min_confidence,
            seed: self.align_seed,
            tokens: chaff_align::TokenOptions {
                mask_digits: !self.keep_digits,
                mask_urls: !self.keep_urls,
            },
        })
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ViewArg {
    /// The visible text; every output format works.
    Text,
    /// The raw source, markup included, as in the thesis.
    Raw,
}

/// The suffix method's parameters (shared by `learn` and `eval`).
#[derive(Args, Clone, Debug)]
pub struct SuffixArgs {
    /// Drop strings found in at least this many sites' templates (--per-site; default: half
    /// the sites and at least 3; 0 disables).
    #[arg(long, value_name = "N")]
    cross_site_min: Option<usize>,
    /// What string of a page to mine.
    #[arg(long, value_enum, default_value = "text")]
    view: ViewArg,
    /// Extra mutable patterns: one regex per line, `token: RE` (whole tokens) or
    /// `inside: RE` (inside tokens).
    #[arg(long, value_name = "FILE")]
    mutable: Option<PathBuf>,
    /// Do not use the built-in mutable patterns (dates, numbers, URLs...).
    #[arg(long)]
    no_builtin_mutable: bool,
    /// The tokenisation parameter: a regex for one token.
    #[arg(long, default_value = r"\S+", value_name = "REGEX")]
    token_pattern: String,
    /// What separates tokens (derived from --token-pattern when it is a repeated class).
    #[arg(long, value_name = "REGEX")]
    separator: Option<String>,
    /// Ignore strings found in fewer documents.
    #[arg(long, default_value_t = 2, value_name = "N")]
    min_docs: u32,
    /// Ignore strings of fewer tokens.
    #[arg(long, default_value_t = 2, value_name = "N")]
    min_tokens: u32,
    /// Merge removals closer than this many characters (default: 60 in the text view, 0 in
    /// the raw view).
    #[arg(long, value_name = "CHARS")]
    merge_gap: Option<u32>,
    /// Text view: remove runs of link text between removals shorter than this (default 1000).
    #[arg(long, value_name = "CHARS")]
    link_gap: Option<u32>,
    /// Text view: keep a line whole when matches cover less than this share of it (default
    /// 0.5; 0 removes every match).
    #[arg(long, value_name = "SHARE")]
    line_coverage: Option<f32>,
    /// Text view: no locality rules; remove every match and merge intervals across
    /// --merge-gap only, as the thesis prints the method.
    #[arg(long)]
    plain: bool,
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

impl SuffixArgs {
    /// The cross-site filtering threshold (None: the default).
    pub fn cross_site_min(&self) -> Option<usize> {
        self.cross_site_min
    }

    /// The method configuration these arguments describe.
    pub fn config(&self) -> anyhow::Result<SuffixConfig> {
        let args = self;
        let tokenizer = TokenizerSpec::new(&args.token_pattern, args.separator.as_deref())
            .map_err(anyhow::Error::msg)?;
        let mut patterns: Vec<MutablePattern> = if args.no_builtin_mutable {
            Vec::new()
        } else {
            mutable::builtin()
        };
        if let Some(path) = &args.mutable {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let extra = mutable::parse_file(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            // User patterns first: they are usually more specific than the built-in ones.
            patterns.splice(0..0, extra);
        }
        let view = match args.view {
            ViewArg::Text => View::Text,
            ViewArg::Raw => View::Raw,
        };
        let mut config = SuffixConfig {
            tokenizer,
            mutable: Some(patterns),
            ..SuffixConfig::for_view(view)
        };
        config.mining.min_docs = args.min_docs;
        config.mining.min_tokens = args.min_tokens;
        if let Some(g) = args.merge_gap {
            config.clean.merge_gap = g;
        }
        if args.plain {
            config.clean.locality = false;
            config.clean.merge_gap = args.merge_gap.unwrap_or(0);
        }
        if let Some(g) = args.link_gap {
            config.clean.link_gap = g;
        }
        if let Some(c) = args.line_coverage {
            if !(0.0..=1.0).contains(&c) {
                bail!("--line-coverage must be between 0 and 1");
            }
            config.clean.line_coverage = c;
        }
        Ok(config)
    }
}
