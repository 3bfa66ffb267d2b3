//! `chaff-synth`: deterministic, exactly labelled synthetic web sites.
//!
//! What it is for: ground truth for every template-detection method of the project. A site is
//! a set of pages that share a template (header, main menu, breadcrumbs, sidebar with "Latest"
//! and "Related" lists, ads, dates, footer) wrapped around distinct article content, and every
//! node of every page carries a [`Label`] and a [`Region`]. The pages are made to be hard in
//! the ways real sites are hard:
//! * template text that varies per page (dates, comment counts, related links, ads drawn from a
//!   sponsor pool, session ids in every internal link);
//! * content text repeated inside the template (the headline in the breadcrumbs, other pages'
//!   headlines in "Latest" lists);
//! * content text with frequent phrases that recur across pages ("according to the", a site's
//!   topic words and people), from a Zipfian pseudo-English generator (see `words.rs`);
//! * three markup styles ([`Style`]) with different tags, class names (some obfuscated), block
//!   orders and parser-implied structure, so no method can key on tag or class names;
//! * article lengths from 100 to 1,500 words, one-sentence paragraphs, and a few pages per site
//!   that are a single short paragraph.
//!
//! # Labels
//!
//! Labels are per node of the page as parsed by [`chaff_dom::parse`], indexed by [`NodeId`]
//! (depth-first pre-order, root = 0):
//! * [`Label::Menu`]: the main menu's container element and everything inside it;
//! * [`Label::Template`]: every other template region (including a secondary "utility" menu);
//! * [`Label::Content`]: the article: headline, standfirst, body, and the author byline —
//!   *the byline is content* (it names the article's author, differs per article and sits with
//!   the headline; dates and comment counts next to it are template);
//! * [`Label::Structure`]: the root, doctype, `html`, `head` and everything in it, `body`, and
//!   every container whose subtree holds both content and template (page wrappers, columns,
//!   the `article` element when dates or breadcrumbs sit inside it).
//!
//! Every node also has an [`Origin`]: the site's layout, which every page repeats, or the
//! page's own data (the article, and the slot data of template regions: list headlines,
//! dates, ads). It is the truth for methods whose template is a token sequence: the article's
//! wrapper elements are layout though labelled content, a "Latest" headline is page data
//! though labelled template.
//!
//! Whitespace-only text nodes and comments take their parent's label and region. A node's
//! label is always its region's label ([`Region::label`]). Template regions may contain the
//! main menu (a header holding the menu is template), but no region contains content except
//! the content region itself.
//!
//! How the labels are made exact: each page is built as the generator's own tree (see
//! `tree.rs`) with a region on every node, serialised to HTML, and labelled in the tree's
//! order; the tests parse every page with `chaff_dom` and compare the trees node by node
//! (kinds, tags, attributes, text, parents), including the table style's implied `<tbody>`
//! elements and unclosed `<p>` / `<li>` elements.
//!
//! # Determinism
//!
//! Output is a pure function of ([`SiteConfig::seed`], [`SiteConfig::site_index`], the page
//! count, and the optional style and domain overrides): a self-contained PRNG and integer
//! arithmetic only, no hash-map iteration order, no clock. Page `i` depends on the page count
//! only through its "Latest" and "Related" lists and its previous/next links.
//!
//! # Output
//!
//! [`write_site`] writes `page-NNN.html` files and a `labels.json` sidecar (format in
//! [`sidecar`]); [`read_labels`] reads the sidecar back. [`word_counts`] measures, for a set
//! of removed text nodes, how many template, menu and content words were removed.

pub mod adversarial;
mod dates;
mod label;
mod page;
mod rng;
pub mod sidecar;
mod site;
mod styles;
mod tree;
mod words;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

pub use chaff_dom::NodeId;
pub use label::{
    Label, Origin, Region, WordCounts, word_counts, word_counts_by, word_counts_by_region,
};
pub use sidecar::{LABELS_FILE, PageLabels, SiteLabels, read_labels, write_site};

/// Errors of writing and reading site folders.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// A file could not be read or written.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The sidecar is not valid JSON of the expected shape.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// The sidecar is JSON but its content is inconsistent.
    #[error("labels file: {0}")]
    Format(String),
}

/// A markup style. Every style produces the same kinds of regions with different markup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// HTML5 semantic elements (`header`, `nav`, `main`, `article`, `aside`, `footer`).
    Html5,
    /// `div`s with ids and classes, some meaningful ("sidebar"), some obfuscated ("c-x7f").
    DivSoup,
    /// Nested layout tables, `<font>`, `<br>` separators, unclosed `<p>`/`<li>`, quirks mode.
    Tables,
}

impl Style {
    /// All styles.
    pub const ALL: [Style; 3] = [Style::Html5, Style::DivSoup, Style::Tables];

    /// The style's name: `html5`, `divsoup` or `tables`.
    pub fn name(self) -> &'static str {
        match self {
            Style::Html5 => "html5",
            Style::DivSoup => "divsoup",
            Style::Tables => "tables",
        }
    }

    /// The style with the given name.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Style {
    type Err = String;
    fn from_str(s: &str) -> Result<Style, String> {
        Style::from_name(s).ok_or_else(|| format!("unknown style {s:?} (html5, divsoup, tables)"))
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteConfig {
    /// The seed; together with `site_index` it determines everything.
    pub seed: u64,
    /// Which site of the seed; sites of one seed differ in everything.
    pub site_index: u32,
    /// Number of pages generated: the sample of the site one learns from.
    pub pages: usize,
    /// Number of articles the site has published; the generated pages are spread evenly over
    /// this archive, as a crawl samples a real site. `None` means five times `pages`. The
    /// archive matters for what links show: "Latest", "Related" and previous/next lists and
    /// inline links point at archive articles, mostly outside the sample. `Some(pages)` makes
    /// a closed world in which every linked headline is also a sampled page — a harder case
    /// for string-frequency methods, since each headline then recurs on about half the pages.
    pub archive: Option<usize>,
    /// The markup style; by default chosen from the seed and site index so that consecutive
    /// site indices cycle through all styles.
    pub style: Option<Style>,
    /// Overrides the generated domain (the site name stays generated).
    pub domain: Option<String>,
}

impl Default for SiteConfig {
    fn default() -> Self {
        SiteConfig {
            seed: 0,
            site_index: 0,
            pages: 20,
            archive: None,
            style: None,
            domain: None,
        }
    }
}

/// The archive positions of the sampled pages: `pages` articles spread evenly over an archive
/// of `archive`, each in the middle of its stretch.
pub fn sample_indices(archive: usize, pages: usize) -> Vec<usize> {
    let archive = archive.max(pages);
    if pages == 0 {
        return Vec::new();
    }
    let stride = archive / pages;
    (0..pages)
        .map(|j| j * archive / pages + stride / 2)
        .collect()
}

impl SiteConfig {
    /// The archive size in effect (see [`SiteConfig::archive`]).
    pub fn archive_len(&self) -> usize {
        self.archive.unwrap_or(self.pages * 5).max(self.pages)
    }

    /// A 20-page site of the given seed and index, with the default style.
    pub fn new(seed: u64, site_index: u32) -> SiteConfig {
        SiteConfig {
            seed,
            site_index,
            ..SiteConfig::default()
        }
    }
}

/// A generated site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthSite {
    /// The seed it was generated from.
    pub seed: u64,
    /// Its index within the seed.
    pub site_index: u32,
    /// Its domain, like `www.brindlegazette.co.uk`.
    pub domain: String,
    /// Its display name, like "The Brindle Gazette".
    pub name: String,
    /// Its markup style.
    pub style: Style,
    /// Its pages, in publication order (oldest first).
    pub pages: Vec<SynthPage>,
}

/// A generated page with its labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthPage {
    /// File name inside a site folder: `page-NNN.html`.
    pub file: String,
    /// The page's canonical URL (internal links on the page may carry a session id; this
    /// does not).
    pub url: String,
    /// The article's headline.
    pub title: String,
    /// The page's HTML, UTF-8.
    pub html: String,
    /// Label of every node of `chaff_dom::parse(html)`, indexed by node id.
    pub labels: Vec<Label>,
    /// Region of every node, indexed by node id.
    pub regions: Vec<Region>,
    /// Origin of every node, indexed by node id: the site's layout, repeated on every page,
    /// or this page's data (see [`Origin`]).
    pub origins: Vec<Origin>,
    /// The smallest element containing all content nodes.
    pub content_root: NodeId,
    /// The main menu's container element.
    pub menu_root: NodeId,
    /// Whether this is one of the site's very short (single-paragraph) pages.
    pub short: bool,
}

impl SynthPage {
    /// Parses the page with `chaff_dom`; the labels index this document's nodes.
    pub fn parse(&self) -> Result<chaff_dom::Document, chaff_dom::DomError> {
        chaff_dom::parse(self.html.as_bytes())
    }
}

/// The domain a site gets unless overridden. Distinct site indices of one seed almost always
/// get distinct domains; [`generate_sites`] guarantees it.
pub fn site_domain(seed: u64, site_index: u32) -> String {
    let plan = site::SitePlan::new(
        seed,
        site_index,
        &[],
        0,
        site::default_style(seed, site_index),
        None,
    );
    plan.domain
}

/// Generates one site.
pub fn generate_site(cfg: &SiteConfig) -> SynthSite {
    let style = cfg
        .style
        .unwrap_or_else(|| site::default_style(cfg.seed, cfg.site_index));
    let sample = sample_indices(cfg.archive_len(), cfg.pages);
    let plan = site::SitePlan::new(
        cfg.seed,
        cfg.site_index,
        &sample,
        cfg.archive_len(),
        style,
        cfg.domain.as_deref(),
    );
    let pages = sample
        .iter()
        .enumerate()
        .filter_map(|(i, &article)| {
            let (ctx, built) = page::build_page(&plan, article)?;
            let html = tree::serialize(&built.tree, built.ser);
            let tl = page::tree_labels(&built.tree);
            Some(SynthPage {
                file: format!("page-{i:03}.html"),
                url: ctx.url(),
                title: ctx.art.title.clone(),
                html,
                labels: tl.labels,
                regions: tl.regions,
                origins: tl.origins,
                content_root: tl.content_root,
                menu_root: tl.menu_root,
                short: ctx.art.short,
            })
        })
        .collect();
    SynthSite {
        seed: cfg.seed,
        site_index: cfg.site_index,
        domain: plan.domain.clone(),
        name: plan.name.clone(),
        style,
        pages,
    }
}

/// Generates sites `0..n` of `seed`, each with `pages` pages, with distinct domains; styles
/// cycle so that any three consecutive sites have three different styles. A domain that
/// collides with an earlier one gets the site index appended to its name.
pub fn generate_sites(seed: u64, n: usize, pages: usize) -> Vec<SynthSite> {
    generate_sites_with(seed, n, pages, None)
}

/// [`generate_sites`] with an explicit archive size (see [`SiteConfig::archive`]).
pub fn generate_sites_with(
    seed: u64,
    n: usize,
    pages: usize,
    archive: Option<usize>,
) -> Vec<SynthSite> {
    let mut seen = std::collections::HashSet::new();
    (0..n as u32)
        .map(|i| {
            let mut domain = site_domain(seed, i);
            if seen.contains(&domain) {
                domain = match domain.find('.') {
                    Some(_) => {
                        let (host, tld) = split_tld(&domain);
                        format!("{host}{i}{tld}")
                    }
                    None => format!("{domain}{i}"),
                };
            }
            seen.insert(domain.clone());
            generate_site(&SiteConfig {
                seed,
                site_index: i,
                pages,
                archive,
                style: None,
                domain: Some(domain),
            })
        })
        .collect()
}

/// Splits `www.name.co.uk` into (`www.name`, `.co.uk`).
fn split_tld(domain: &str) -> (&str, &str) {
    for tld in [".co.uk", ".com", ".net", ".org"] {
        if let Some(host) = domain.strip_suffix(tld) {
            return (host, &domain[host.len()..]);
        }
    }
    (domain, "")
}

/// Writes each site into `dir/<domain>/` (see [`write_site`]).
pub fn write_sites(sites: &[SynthSite], dir: &Path) -> Result<(), SynthError> {
    for s in sites {
        write_site(s, &dir.join(&s.domain))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
