//! From corpus pages to profiles (learning) and to cleaned outputs (cleaning).

use std::collections::BTreeMap;

use chaff_align::{AlignConfig, CompiledAlign, PageTokens};
use chaff_core::{Labeler, Labels, PageInput};
use chaff_corpus::{CorpusError, Media, Page, SiteKey, site_key};
use chaff_dom::{Document, ParseOptions, TextView};
use chaff_extract::{Format, PageMeta};
use chaff_forest::{CompiledForest, FeedItems, ForestConfig};
use chaff_suffix::{CompiledSuffix, SuffixConfig, View};
use rayon::prelude::*;

use crate::Error;
use crate::profile::{Methods, Profile};

/// A parsed page with its provenance.
pub struct LoadedPage {
    /// Where it came from.
    pub source: String,
    /// Its URL, if known.
    pub url: Option<String>,
    /// Its site key.
    pub site: SiteKey,
    /// HTML or plain text.
    pub media: Media,
    /// The DOM (a plain-text page is one `<pre>`).
    pub doc: Document,
    /// The visible-text view.
    pub view: TextView,
    /// The decoded source, kept only when asked for (the raw view needs it).
    pub text: Option<String>,
}

impl LoadedPage {
    /// The page as methods see it.
    pub fn input(&self) -> PageInput<'_> {
        PageInput {
            doc: &self.doc,
            view: &self.view,
            source: self.text.as_deref().unwrap_or(""),
            url: self.url.as_deref(),
        }
    }
}

/// How pages are parsed.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Parser limits.
    pub parse: ParseOptions,
    /// Keep the decoded source in [`LoadedPage::text`].
    pub keep_source: bool,
}

/// Parses a corpus page.
pub fn load_page(page: Page, opts: &LoadOptions) -> Result<LoadedPage, Error> {
    let fail = |e: chaff_dom::DomError| Error::Page {
        page: page.source.clone(),
        message: e.to_string(),
    };
    let html_page = page.media == Media::Html;
    let (doc, text) = if html_page && !opts.keep_source {
        let parse = ParseOptions {
            transport_charset: page.charset.clone(),
            ..opts.parse.clone()
        };
        (
            chaff_dom::parse_with(&page.bytes, &parse).map_err(fail)?,
            None,
        )
    } else {
        if page.bytes.len() > opts.parse.max_bytes {
            return Err(fail(chaff_dom::DomError::TooLarge {
                len: page.bytes.len(),
                limit: opts.parse.max_bytes,
            }));
        }
        if opts.parse.reject_binary && chaff_dom::looks_binary(&page.bytes) {
            return Err(fail(chaff_dom::DomError::Binary));
        }
        let text = chaff_dom::encoding::decode(&page.bytes, page.charset.as_deref())
            .text
            .into_owned();
        let doc = if html_page {
            chaff_dom::parse_str(&text, &opts.parse).map_err(fail)?
        } else {
            text_document(&text, &opts.parse).map_err(fail)?
        };
        (doc, Some(text))
    };
    let view = TextView::new(&doc);
    let site = site_key(
        page.url.as_deref(),
        doc.declared_url(),
        page.folder.as_deref(),
    );
    Ok(LoadedPage {
        source: page.source,
        url: page.url,
        site,
        media: page.media,
        doc,
        view,
        text,
    })
}

/// A plain-text page as a document: its text in one `<pre>`, so that its view is the text
/// itself and every output format works.
pub fn text_document(text: &str, opts: &ParseOptions) -> Result<Document, chaff_dom::DomError> {
    let mut html = String::with_capacity(text.len() + 32);
    // The parser drops one newline right after <pre>; give it one to drop.
    html.push_str("<!DOCTYPE html><body><pre>\n");
    chaff_dom::serialize::escape_text(text, &mut html);
    html.push_str("</pre></body>");
    chaff_dom::parse_str(
        &html,
        &ParseOptions {
            max_bytes: opts.max_bytes.saturating_add(html.len() - text.len()),
            ..opts.clone()
        },
    )
}

/// Which site(s) `learn` learns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SiteChoice {
    /// All pages must belong to one site.
    #[default]
    Single,
    /// Only the pages of this site key.
    Named(String),
    /// One profile per site.
    PerSite,
}

/// Which methods to learn or to clean with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodSet {
    /// Suffix-array template mining.
    pub suffix: bool,
    /// Multiple alignment of tag sequences.
    pub align: bool,
    /// The main content by significant tag paths (FOREST).
    pub forest: bool,
    /// Subtrees repeated across the site's pages (SiteLevel).
    pub subtree: bool,
}

impl Default for MethodSet {
    /// The suffix method alone.
    fn default() -> MethodSet {
        MethodSet {
            suffix: true,
            align: false,
            forest: false,
            subtree: false,
        }
    }
}

/// What `learn` does.
#[derive(Clone, Debug, Default)]
pub struct LearnOptions {
    /// The methods to learn (each stores its model in the profile).
    pub methods: MethodSet,
    /// The suffix method's configuration.
    pub suffix: SuffixConfig,
    /// The alignment method's configuration.
    pub align: AlignConfig,
    /// FOREST's configuration.
    pub forest: ForestConfig,
    /// Web-feed items giving FOREST signifiers for the pages they link to.
    pub feeds: Option<FeedItems>,
    /// Which site(s).
    pub site: SiteChoice,
    /// Cross-site filtering threshold for `PerSite` (None: the default, at least half the
    /// sites and at least three; 0 disables it).
    pub cross_site_min: Option<usize>,
    /// Parser limits.
    pub parse: ParseOptions,
}

/// The result of learning.
#[derive(Debug, Default)]
pub struct Learned {
    /// One profile per site learned.
    pub profiles: Vec<Profile>,
    /// Sites not learned, with their page counts and why.
    pub skipped: Vec<(String, usize, String)>,
    /// Pages that could not be read or parsed.
    pub page_errors: Vec<Error>,
    /// Expressions removed by cross-site filtering.
    pub cross_site_dropped: usize,
}

/// Learns site profiles from pages. `progress` is called with each page's size once it is
/// parsed.
pub fn learn(
    pages: impl Iterator<Item = Result<Page, CorpusError>>,
    opts: &LearnOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Learned, Error> {
    let mut learned = Learned::default();
    let mut raw = Vec::new();
    for p in pages {
        match p {
            Ok(p) => raw.push(p),
            Err(e) => learned.page_errors.push(Error::Corpus(e)),
        }
    }
    let suffix_raw = opts.methods.suffix && opts.suffix.view == View::Raw;
    let load = LoadOptions {
        parse: opts.parse.clone(),
        keep_source: suffix_raw,
    };
    // Parse in parallel, keeping only what each method needs of a page.
    let docs: Vec<Result<(String, Material), Error>> = raw
        .into_par_iter()
        .map(|page| {
            let size = page.bytes.len() as u64;
            let loaded = load_page(page, &load);
            progress(size);
            let loaded = loaded?;
            let tokens = opts
                .methods
                .align
                .then(|| chaff_align::tokenize(&loaded.doc, &opts.align.tokens));
            let text = match (opts.methods.suffix, suffix_raw) {
                (false, _) => String::new(),
                (true, false) => loaded.view.text().to_string(),
                (true, true) => loaded.text.unwrap_or_default(),
            };
            let site = loaded.site.as_str().to_string();
            let subtree = opts
                .methods
                .subtree
                .then(|| chaff_pagelevel::sitelevel::subtree_hashes(&loaded.doc));
            let forest = opts
                .methods
                .forest
                .then_some((loaded.doc, loaded.view, loaded.url));
            Ok((
                site,
                Material {
                    text,
                    tokens,
                    forest,
                    subtree,
                },
            ))
        })
        .collect();
    let mut by_site: BTreeMap<String, Vec<Material>> = BTreeMap::new();
    for d in docs {
        match d {
            Ok((site, material)) => by_site.entry(site).or_default().push(material),
            Err(e) => learned.page_errors.push(e),
        }
    }
    if by_site.is_empty() {
        return Err(Error::NoPages);
    }
    // The largest sites first, at most ten named.
    let summary = {
        let mut sites: Vec<(&String, usize)> = by_site.iter().map(|(s, d)| (s, d.len())).collect();
        sites.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let mut text = sites
            .iter()
            .take(10)
            .map(|(s, n)| format!("{s} ({n})"))
            .collect::<Vec<_>>()
            .join(", ");
        if sites.len() > 10 {
            text.push_str(&format!(" and {} more", sites.len() - 10));
        }
        text
    };
    let chosen: Vec<(String, Vec<Material>)> = match &opts.site {
        SiteChoice::Single if by_site.len() > 1 => {
            return Err(Error::MixedSites {
                count: by_site.len(),
                sites: summary,
            });
        }
        SiteChoice::Named(name) => match by_site.remove(name.as_str()) {
            Some(docs) => {
                for (s, d) in &by_site {
                    learned
                        .skipped
                        .push((s.clone(), d.len(), format!("not the site {name}")));
                }
                vec![(name.clone(), docs)]
            }
            None => {
                return Err(Error::NoSuchSite {
                    site: name.clone(),
                    sites: summary,
                });
            }
        },
        _ => by_site.into_iter().collect(),
    };
    let per_site = opts.site == SiteChoice::PerSite;
    let mut sites = Vec::new();
    for (site, docs) in chosen {
        if docs.len() < 2 && per_site {
            learned.skipped.push((
                site,
                docs.len(),
                "one page is not enough to learn from".into(),
            ));
            continue;
        }
        sites.push((site, docs));
    }
    let cross_site_min = if per_site {
        opts.cross_site_min
    } else {
        Some(0)
    };
    let mut profiles = if opts.methods.suffix {
        let texts: Vec<(String, Vec<String>)> = sites
            .iter_mut()
            .map(|(site, pages)| {
                let texts = pages.iter_mut().map(|m| std::mem::take(&mut m.text));
                (site.clone(), texts.collect())
            })
            .collect();
        let (profiles, dropped) = learn_sites(&texts, &opts.suffix, cross_site_min)?;
        learned.cross_site_dropped = dropped;
        profiles
    } else {
        sites
            .iter()
            .map(|(site, pages)| Profile::new(site.clone(), pages.len() as u32, Methods::default()))
            .collect()
    };
    if opts.methods.align {
        let models: Vec<Result<chaff_align::AlignModel, Error>> = sites
            .par_iter_mut()
            .map(|(_, pages)| {
                let tokens: Vec<PageTokens> =
                    pages.iter_mut().filter_map(|m| m.tokens.take()).collect();
                Ok(chaff_align::learn(&tokens, &opts.align)?.model)
            })
            .collect();
        for (profile, model) in profiles.iter_mut().zip(models) {
            profile.methods.align = Some(model?);
        }
    }
    if opts.methods.forest {
        let models: Vec<Result<chaff_forest::ForestModel, Error>> = sites
            .par_iter()
            .map(|(_, pages)| {
                let inputs: Vec<PageInput<'_>> = pages
                    .iter()
                    .filter_map(|m| m.forest.as_ref())
                    .map(|(doc, view, url)| PageInput {
                        doc,
                        view,
                        source: "",
                        url: url.as_deref(),
                    })
                    .collect();
                Ok(chaff_forest::learn(&inputs, &opts.forest, opts.feeds.as_ref())?.model)
            })
            .collect();
        for (profile, model) in profiles.iter_mut().zip(models) {
            profile.methods.forest = Some(model?);
        }
    }
    if opts.methods.subtree {
        for (profile, (_, pages)) in profiles.iter_mut().zip(&mut sites) {
            let hashes: Vec<_> = pages.iter_mut().filter_map(|m| m.subtree.take()).collect();
            profile.methods.subtree = Some(chaff_pagelevel::sitelevel::learn(
                &hashes,
                chaff_pagelevel::SiteLevelConfig::default(),
            ));
        }
    }
    learned.profiles = profiles;
    Ok(learned)
}

/// What one page contributes to learning.
struct Material {
    /// The suffix method's string of the page (empty when that method is not learned).
    text: String,
    /// The alignment method's tokens.
    tokens: Option<PageTokens>,
    /// FOREST's page: the DOM, its view and the URL.
    forest: Option<(Document, TextView, Option<String>)>,
    /// SiteLevel's subtree hashes.
    subtree: Option<chaff_pagelevel::sitelevel::SubtreeHashes>,
}

/// Learns one profile per site from each site's documents (already in the configured
/// view), then applies cross-site filtering across the sites: `cross_site_min` is the
/// threshold (None: [`chaff_suffix::default_min_sites`]; below 2: off). Returns the profiles
/// and the number of expressions cross-site filtering dropped.
pub fn learn_sites<S: AsRef<str>>(
    sites: &[(String, Vec<S>)],
    config: &SuffixConfig,
    cross_site_min: Option<usize>,
) -> Result<(Vec<Profile>, usize), Error> {
    let mut models = Vec::with_capacity(sites.len());
    for (site, docs) in sites {
        let refs: Vec<&str> = docs.iter().map(AsRef::as_ref).collect();
        models.push((
            site.clone(),
            docs.len(),
            chaff_suffix::learn(&refs, config)?,
        ));
    }
    let min_sites = cross_site_min.unwrap_or_else(|| chaff_suffix::default_min_sites(models.len()));
    let mut dropped = 0;
    if min_sites >= 2 {
        let mut refs: Vec<&mut chaff_suffix::SuffixModel> =
            models.iter_mut().map(|(_, _, m)| m).collect();
        dropped = chaff_suffix::cross_site_filter(&mut refs, min_sites);
    }
    let profiles = models
        .into_iter()
        .map(|(site, n, model)| {
            Profile::new(
                site,
                n as u32,
                Methods {
                    suffix: Some(model),
                    ..Methods::default()
                },
            )
        })
        .collect();
    Ok((profiles, dropped))
}

/// A page after cleaning.
pub struct CleanedPage {
    /// Where it came from.
    pub source: String,
    /// Its URL.
    pub url: Option<String>,
    /// Its site key.
    pub site: String,
    /// The document the labels refer to (for the raw view, the cleaned source re-parsed).
    pub doc: Document,
    /// Its view.
    pub view: TextView,
    /// The labels.
    pub labels: Labels,
}

impl CleanedPage {
    /// A loaded page with the labels some method gave it.
    pub fn new(page: LoadedPage, labels: Labels) -> CleanedPage {
        cleaned(page, labels)
    }

    /// Renders the page in `format`.
    pub fn render(&self, format: Format) -> String {
        chaff_extract::render(format, &self.doc, &self.view, &self.labels, &self.meta())
    }

    fn meta(&self) -> PageMeta<'_> {
        PageMeta {
            source: &self.source,
            url: self.url.as_deref(),
            site: Some(&self.site),
        }
    }

    /// The JSON Lines record of the page: for the JSON format the full record with per-node
    /// labels; otherwise provenance plus the rendered output under `text`.
    pub fn record(&self, format: Format) -> serde_json::Value {
        match format {
            Format::Json => chaff_extract::json(&self.doc, &self.view, &self.labels, &self.meta()),
            other => serde_json::json!({
                "source": self.source,
                "url": self.url,
                "site": self.site,
                "format": format_name(other),
                "text": self.render(other),
            }),
        }
    }
}

/// The command-line name of a format.
pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::Text => "text",
        Format::Markdown => "markdown",
        Format::Html => "html",
        Format::Json => "json",
    }
}

/// A profile ready to clean pages.
pub struct Cleaner {
    profile: Profile,
    suffix: Option<CompiledSuffix>,
    align: Option<CompiledAlign>,
    forest: Option<CompiledForest>,
    subtree: Option<chaff_pagelevel::SubtreeModel>,
    menu: Option<chaff_menu::MenuLabeler>,
    parse: ParseOptions,
}

impl Cleaner {
    /// Compiles all of a profile's models; pages are cleaned by all of them.
    pub fn new(profile: Profile, parse: ParseOptions) -> Result<Cleaner, Error> {
        Cleaner::with_methods(profile, parse, None)
    }

    /// Compiles the models of the `methods` chosen (all the profile has when `None`); a
    /// chosen method the profile lacks is an error.
    pub fn with_methods(
        profile: Profile,
        parse: ParseOptions,
        methods: Option<MethodSet>,
    ) -> Result<Cleaner, Error> {
        let has = &profile.methods;
        if let Some(m) = methods {
            for (asked, present, method) in [
                (m.suffix, has.suffix.is_some(), "suffix"),
                (m.align, has.align.is_some(), "align"),
                (m.forest, has.forest.is_some(), "forest"),
                (m.subtree, has.subtree.is_some(), "subtree"),
            ] {
                if asked && !present {
                    return Err(Error::MissingMethod {
                        method,
                        has: has.names().join(", "),
                    });
                }
            }
        }
        let wanted = methods.unwrap_or(MethodSet {
            suffix: true,
            align: true,
            forest: true,
            subtree: true,
        });
        let subtree = has.subtree.clone().filter(|_| wanted.subtree);
        let suffix = has
            .suffix
            .clone()
            .filter(|_| wanted.suffix)
            .map(CompiledSuffix::new)
            .transpose()?;
        let align = has
            .align
            .clone()
            .filter(|_| wanted.align)
            .map(CompiledAlign::new);
        let forest = has
            .forest
            .as_ref()
            .filter(|_| wanted.forest)
            .map(chaff_forest::ForestModel::compile)
            .transpose()?;
        Ok(Cleaner {
            profile,
            suffix,
            align,
            forest,
            subtree,
            menu: None,
            parse,
        })
    }

    /// Also labels each page's main menu (role `menu`, removed like template) with the menu
    /// detector and these parameters.
    pub fn with_menu(mut self, params: chaff_menu::MenuParams) -> Cleaner {
        self.menu = Some(chaff_menu::MenuLabeler::new(params));
        self
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// How pages must be loaded for this cleaner.
    pub fn load_options(&self) -> LoadOptions {
        LoadOptions {
            parse: self.parse.clone(),
            keep_source: self
                .suffix
                .as_ref()
                .is_some_and(|s| s.model().view == View::Raw),
        }
    }

    /// Cleans one loaded page.
    pub fn clean(&self, page: LoadedPage) -> Result<CleanedPage, Error> {
        match self.outcome(&page)? {
            Outcome::Labels(labels) => Ok(cleaned(page, labels)),
            Outcome::Reparsed(doc, view, labels) => Ok(CleanedPage {
                source: page.source,
                url: page.url,
                site: page.site.as_str().to_string(),
                doc,
                view,
                labels,
            }),
        }
    }

    /// Cleans a page it only borrows and renders it in `format`.
    pub fn render(&self, page: &LoadedPage, format: Format) -> Result<String, Error> {
        let meta = PageMeta {
            source: &page.source,
            url: page.url.as_deref(),
            site: Some(page.site.as_str()),
        };
        Ok(match self.outcome(page)? {
            Outcome::Labels(labels) => {
                chaff_extract::render(format, &page.doc, &page.view, &labels, &meta)
            }
            Outcome::Reparsed(doc, view, labels) => {
                chaff_extract::render(format, &doc, &view, &labels, &meta)
            }
        })
    }

    /// Labels for the page from every model, united; for a raw-view suffix model, the
    /// cleaned source parsed again (and labelled by the other models).
    fn outcome(&self, page: &LoadedPage) -> Result<Outcome, Error> {
        let others = |doc: &Document, view: &TextView, mut labels: Labels| {
            let input = PageInput {
                doc,
                view,
                source: "",
                url: page.url.as_deref(),
            };
            if let Some(align) = &self.align {
                labels.union(&align.label(&input));
            }
            if let Some(subtree) = &self.subtree {
                labels.union(&subtree.label(&input));
            }
            // FOREST keeps the wrapper's subtrees; the other models still remove inside them.
            if let Some(forest) = &self.forest {
                labels.union(&forest.label(&input));
            }
            if let Some(menu) = &self.menu {
                labels.union(&menu.label(&input));
            }
            labels
        };
        match &self.suffix {
            Some(suffix) if suffix.model().view == View::Raw => {
                let kept = suffix.clean_text(page.text.as_deref().unwrap_or(""));
                let fail = |e: chaff_dom::DomError| Error::Page {
                    page: page.source.clone(),
                    message: e.to_string(),
                };
                let doc = match page.media {
                    Media::Html => chaff_dom::parse_str(&kept, &self.parse).map_err(fail)?,
                    Media::Text => text_document(&kept, &self.parse).map_err(fail)?,
                };
                let view = TextView::new(&doc);
                let labels = others(&doc, &view, Labels::all_content(doc.len()));
                Ok(Outcome::Reparsed(doc, view, labels))
            }
            Some(suffix) => Ok(Outcome::Labels(others(
                &page.doc,
                &page.view,
                suffix.label(&page.input()),
            ))),
            None => Ok(Outcome::Labels(others(
                &page.doc,
                &page.view,
                Labels::all_content(page.doc.len()),
            ))),
        }
    }
}

enum Outcome {
    Labels(Labels),
    Reparsed(Document, TextView, Labels),
}

fn cleaned(page: LoadedPage, labels: Labels) -> CleanedPage {
    CleanedPage {
        source: page.source,
        url: page.url,
        site: page.site.as_str().to_string(),
        doc: page.doc,
        view: page.view,
        labels,
    }
}
