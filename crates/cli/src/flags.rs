//! The flags that configure chaff's methods and outputs, shared by the `chaff` command and
//! the research harness: each turns what the user typed into the library's configuration
//! (a method registered with its options, an output format), checking values on the way.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::bail;
use chaff::methods::align::{self, AlignMethod};
use chaff::methods::content::{ContentMethod, ContentModel, Decide, Favor};
use chaff::methods::forest::{self, FeedItems, ForestMethod};
use chaff::methods::menu::{MenuMethod, MenuParams};
use chaff::methods::pagelevel::{ApplyOptions, PageLevelMethod, PageModel, SmoothWeights};
use chaff::methods::suffix::{SuffixConfig, SuffixMethod, TokenizerSpec, View, mutable};
use chaff::{Format, Registry};
use clap::{Args, ValueEnum};

/// The `--format` values: every format the library writes, by its name.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    let names = Format::ALL.map(Format::name);
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<Format>())
}

/// How to apply the page-level model.
#[derive(Args, Clone, Debug)]
pub struct ModelArgs {
    /// A model written by `chaff train` (default: the built-in one).
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// Use the classifier's scores as they are (the paper's PageLevel-Basic).
    #[arg(long)]
    no_smooth: bool,
    /// The smoothing constant c in the penalty c·A/Ai (default: the model's, 0.01).
    #[arg(long, value_name = "C", value_parser = non_negative)]
    c: Option<f64>,
    /// Smoothed templateness at or above which a node is template (default: the model's).
    #[arg(long, value_name = "SCORE", value_parser = share)]
    threshold: Option<f64>,
    /// Weigh every node once in the smoothing's distance, as the paper does (default: by
    /// the words each node holds itself).
    #[arg(long)]
    node_weights: bool,
}

impl ModelArgs {
    /// Whether any page-level option was given.
    pub fn is_set(&self) -> bool {
        self.model.is_some()
            || self.no_smooth
            || self.c.is_some()
            || self.threshold.is_some()
            || self.node_weights
    }

    /// The model: the file given, or the built-in one.
    pub fn load(&self) -> anyhow::Result<PageModel> {
        Ok(PageModel::load_or_builtin(self.model.as_deref())?)
    }

    /// How to apply it.
    pub fn apply(&self) -> anyhow::Result<ApplyOptions> {
        Ok(ApplyOptions {
            smooth: !self.no_smooth,
            c: self.c,
            threshold: self.threshold,
            weights: if self.node_weights {
                SmoothWeights::Nodes
            } else {
                SmoothWeights::Words
            },
        })
    }
}

value_enum! {
    /// How FOREST ranks structural patterns.
    pub enum ForestRanking => forest::Ranking {
        /// Informativeness J x U (the paper's FOREST).
        Informativeness,
        /// Jeffreys' density J alone (Figure 7).
        Density,
        /// Unexpectedness U alone (Figure 7).
        Unexpectedness,
        /// The COVERAGE baseline (eq. 6-7).
        Coverage,
    }
}

/// FOREST's parameters.
#[derive(Args, Clone, Debug)]
pub struct ForestArgs {
    /// FOREST: signifiers per page (top-k tf-idf terms), 1 to 64.
    #[arg(long, default_value_t = forest::DEFAULT_KEYWORDS as u64, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..=64))]
    keywords: u64,
    /// FOREST: rank patterns by the COVERAGE baseline instead of informativeness.
    #[arg(long)]
    coverage: bool,
    /// FOREST: the ranking measure (--coverage is short for `coverage`).
    #[arg(long, value_enum, default_value = "informativeness")]
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
    #[arg(long, default_value_t = forest::DEFAULT_MIN_TEMPLATE_SHARE, value_name = "SHARE")]
    min_template_share: f64,
    /// FOREST: a web feed (RSS or Atom) whose items give signifiers (title and description)
    /// to the pages they link to; repeatable.
    #[arg(long, value_name = "FEED.xml")]
    feed: Vec<PathBuf>,
}

impl ForestArgs {
    /// The learner's configuration.
    pub fn config(&self) -> anyhow::Result<forest::ForestConfig> {
        let ranking = if self.coverage {
            forest::Ranking::Coverage
        } else {
            self.forest_ranking.into()
        };
        Ok(forest::ForestConfig {
            keywords: self.keywords as usize,
            ranking,
            attributes: if self.full_attributes {
                forest::AttributeForm::Full
            } else {
                forest::AttributeForm::Tolerant
            },
            min_template_share: self.min_template_share,
            skip_comments: !self.comment_paths,
            informative_parent: !self.no_informative_parent,
        })
    }

    /// The items of the feeds given with --feed, if any.
    pub fn feeds(&self) -> anyhow::Result<Option<FeedItems>> {
        Ok(FeedItems::from_files(&self.feed)?)
    }
}

/// The alignment method's parameters.
#[derive(Args, Clone, Debug)]
pub struct AlignArgs {
    /// Alignment: keep template tokens found on at least this share of the sample pages.
    #[arg(long, default_value_t = align::DEFAULT_KEEP, value_name = "SHARE", value_parser = share)]
    keep: f64,
    /// Alignment: remove page tokens aligned to template tokens of at least this confidence
    /// (default: --keep).
    #[arg(long, value_name = "SHARE", value_parser = share)]
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
    pub fn config(&self, pages: usize) -> anyhow::Result<align::AlignConfig> {
        if pages < 2 || self.keep == 0.0 {
            bail!("the alignment method needs at least 2 sample pages and --keep above 0");
        }
        Ok(align::AlignConfig {
            pages,
            keep: self.keep,
            min_confidence: self.min_confidence.unwrap_or(self.keep),
            seed: self.align_seed,
            tokens: align::TokenOptions {
                mask_digits: !self.keep_digits,
                mask_urls: !self.keep_urls,
            },
        })
    }
}

value_enum! {
    /// Which string of a page the suffix method mines.
    pub enum ViewArg => View {
        /// The visible text; every output format works.
        Text,
        /// The raw source, markup included, as in the thesis.
        Raw,
    }
}

/// The suffix method's parameters.
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
    /// Text view: mine only the strings above the cutoff, not also the rarer ones that
    /// continue a template string on its line (implied by --plain).
    #[arg(long)]
    no_continuations: bool,
    /// Merge removals closer than this many characters (default: 60 in the text view, 0 in
    /// the raw view).
    #[arg(long, value_name = "CHARS")]
    merge_gap: Option<u32>,
    /// Text view: remove runs of link text between removals shorter than this (default 1000).
    #[arg(long, value_name = "CHARS")]
    link_gap: Option<u32>,
    /// Text view: keep a line whole when matches cover less than this share of it (default
    /// 0.5; 0 removes every match).
    #[arg(long, value_name = "SHARE", value_parser = share)]
    line_coverage: Option<f64>,
    /// Text view: no locality rules and no continuations; remove every match and merge
    /// intervals across --merge-gap only, as the thesis prints the method (implies
    /// --regex-matching).
    #[arg(long)]
    plain: bool,
    /// Match the expressions as regexes on the page's text, as the thesis does, instead of
    /// the mined token strings on its tokens (faster; they differ only where mutable
    /// patterns overlap).
    #[arg(long)]
    regex_matching: bool,
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
        let mut patterns: Vec<mutable::MutablePattern> = if args.no_builtin_mutable {
            Vec::new()
        } else {
            mutable::builtin()
        };
        if let Some(path) = &args.mutable {
            let extra = mutable::load_file(path).map_err(anyhow::Error::msg)?;
            // User patterns first: they are usually more specific than the built-in ones.
            patterns.splice(0..0, extra);
        }
        let view = args.view.into();
        let mut config = SuffixConfig {
            tokenizer,
            mutable: Some(patterns),
            ..SuffixConfig::for_view(view)
        };
        config.mining.min_docs = args.min_docs;
        config.mining.min_tokens = args.min_tokens;
        config.mining.line_continuations = !(args.no_continuations || args.plain);
        if let Some(g) = args.merge_gap {
            config.clean.merge_gap = g;
        }
        config.clean.regex_matching = args.regex_matching || args.plain;
        if args.plain {
            config.clean.locality = false;
            config.clean.merge_gap = args.merge_gap.unwrap_or(0);
        }
        if let Some(g) = args.link_gap {
            config.clean.link_gap = g;
        }
        if let Some(c) = args.line_coverage {
            config.clean.line_coverage = c as f32;
        }
        Ok(config)
    }
}

/// Every method's options, and which methods: what `learn`, `extract` and the research
/// harness share.
#[derive(Args, Clone, Debug)]
pub struct MethodArgs {
    /// Site-level methods, comma-separated (suffix, align, forest, subtree, or any
    /// registered; default: the four the content model weighs).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub method: Vec<String>,
    /// The suffix method's options.
    #[command(flatten)]
    pub suffix: SuffixArgs,
    /// Alignment: the number of sample pages `t` in the consensus tree.
    #[arg(long, default_value_t = align::DEFAULT_PAGES, value_name = "T")]
    pub align_pages: usize,
    /// The alignment method's options.
    #[command(flatten)]
    pub align: AlignArgs,
    /// FOREST's options.
    #[command(flatten)]
    pub forest: ForestArgs,
}

impl MethodArgs {
    /// The built-in registry with the site-level methods configured by these flags.
    pub fn registry(&self) -> anyhow::Result<Registry> {
        let mut registry = Registry::builtin()?;
        registry
            .register(SuffixMethod {
                config: self.suffix.config()?,
                cross_site_min: self.suffix.cross_site_min(),
            })
            .register(AlignMethod {
                config: self.align.config(self.align_pages)?,
            })
            .register(ForestMethod {
                config: self.forest.config()?,
                feeds: self.forest.feeds()?.map(Arc::new),
            });
        Ok(registry)
    }

    /// A learner of the methods named (default: the four the content model weighs), reading
    /// pages as `input` says.
    pub fn learner(
        &self,
        registry: &Registry,
        input: &crate::common::InputArgs,
        min_pages: usize,
    ) -> anyhow::Result<chaff::Learner> {
        let names = self.names_or(chaff::DEFAULT_SITE_METHODS);
        Ok(chaff::Learner::new(registry, &names)?
            .parse_options(input.parse_options())
            .site_from(input.site_from.into())
            .min_pages(min_pages))
    }

    /// The methods named, or `default` when none was.
    pub fn names_or<'a>(&'a self, default: &[&'a str]) -> Vec<&'a str> {
        if self.method.is_empty() {
            default.to_vec()
        } else {
            self.method.iter().map(String::as_str).collect()
        }
    }
}

/// Which classifier judges the pages no site profile covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Classifier {
    /// The content model, trained on human gold text (`chaff-lab train-content`).
    Content,
    /// The page-level template classifier (Chakrabarti et al.), trained on SiteLevel labels.
    Pagelevel,
}

value_enum! {
    /// What the content model's keep-or-drop decision covers.
    pub enum DecideArg => Decide {
        /// Each text node.
        Node,
        /// Each block, whole.
        Block,
        /// Each block, kept whole when any of its text nodes is.
        BlockMax,
    }
}

/// The page-level methods' options.
#[derive(Args, Clone, Debug)]
pub struct PageMethodArgs {
    /// Which classifier judges a page without site evidence [default: content, or
    /// pagelevel when a page-level option such as --model is given].
    #[arg(long, value_enum)]
    pub classifier: Option<Classifier>,
    /// A content model written by `chaff-lab train-content` (default: the built-in one).
    #[arg(long, value_name = "FILE")]
    pub content_model: Option<PathBuf>,
    /// Probability of content at or above which the content model keeps a text node
    /// (default: the model's).
    #[arg(long, value_name = "P", value_parser = share,
          conflicts_with_all = ["favor_precision", "favor_recall"])]
    pub content_threshold: Option<f64>,
    /// Keep less: fewer boilerplate words, more content missed (the content model's
    /// threshold moved to a point chosen on training data).
    #[arg(long, conflicts_with = "favor_recall")]
    pub favor_precision: bool,
    /// Keep more: more of the content, more boilerplate with it (text nodes the model
    /// doubts kept when they join kept text: hysteresis down to a low threshold).
    #[arg(long)]
    pub favor_recall: bool,
    /// Decide per text node (default) or per block (a block's text nodes kept or dropped
    /// together, on their mean or their largest probability).
    #[arg(long, value_enum)]
    pub content_decide: Option<DecideArg>,
    /// With site evidence, the content model's probability from the page alone at or above
    /// which a text node stays kept whatever the site's evidence says; `off`: the site's
    /// evidence decides alone [default: 0.9].
    #[arg(long, value_name = "P|off", value_parser = site_guard)]
    pub site_guard: Option<SiteGuard>,
    /// The page-level classifier's options (with `--classifier pagelevel`).
    #[command(flatten)]
    pub model: ModelArgs,
    /// Also remove each page's main menu, found by the menu detector (role `menu`).
    #[arg(long)]
    pub menu: bool,
    /// The menu detector's parameters, as written by `chaff-lab train-menu` (implies --menu).
    #[arg(long, value_name = "FILE")]
    pub menu_params: Option<PathBuf>,
    /// Keep readers' comments in the main text (JSON records give them apart, `comments`).
    #[arg(long)]
    pub comments: bool,
}

impl PageMethodArgs {
    /// Registers the configured page-level methods and returns their names.
    pub fn register(&self, registry: &mut Registry) -> anyhow::Result<Vec<&'static str>> {
        let classifier = self.classifier.unwrap_or(if self.model.is_set() {
            Classifier::Pagelevel
        } else {
            Classifier::Content
        });
        if classifier == Classifier::Pagelevel
            && (self.content_model.is_some()
                || self.content_threshold.is_some()
                || self.site_guard.is_some()
                || self.favor_precision
                || self.favor_recall)
        {
            bail!(
                "--content-model, --content-threshold, --site-guard and --favor-* apply to \
                 --classifier content"
            );
        }
        if classifier == Classifier::Content && self.model.is_set() {
            bail!("the page-level classifier's options apply to --classifier pagelevel");
        }
        let mut names = match classifier {
            Classifier::Pagelevel => {
                registry.register(PageLevelMethod {
                    model: Arc::new(self.model.load()?),
                    options: self.model.apply()?,
                });
                vec!["pagelevel", "comments"]
            }
            Classifier::Content => {
                let favor = if self.favor_precision {
                    Some(Favor::Precision)
                } else {
                    self.favor_recall.then_some(Favor::Recall)
                };
                let model = ContentModel::load_or_builtin(self.content_model.as_deref())?;
                let mut method = ContentMethod::favoring(Arc::new(model), favor);
                if let Some(t) = self.content_threshold {
                    method.threshold = Some(t as f32);
                }
                if let Some(d) = self.content_decide {
                    method.decide = d.into();
                }
                if let Some(SiteGuard(bound)) = self.site_guard {
                    method.site_guard = bound;
                }
                registry.register(method);
                vec!["content", "comments"]
            }
        };
        if self.menu || self.menu_params.is_some() {
            registry.register(MenuMethod {
                params: MenuParams::load_or_default(self.menu_params.as_deref())?,
            });
            names.push("menu");
        }
        Ok(names)
    }
}

/// `--site-guard`'s value: a bound, or none (`off`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiteGuard(pub Option<f32>);

/// `off`, or a number from 0 to 1.
fn site_guard(s: &str) -> Result<SiteGuard, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(SiteGuard(None));
    }
    share(s)
        .map(|v| SiteGuard(Some(v as f32)))
        .map_err(|e| format!("{e}, or 'off'"))
}

/// A share: a number from 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

/// A number at least 0.
fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a non-negative number")),
    }
}
