//! `chaff-meta`: what a page says about itself — its headline, authors, dates, site, language,
//! description, canonical URL, image, tags, licence and kind — read from its markup, each value
//! with the source it came from.
//!
//! What it is for: the fields a corpus record or an archive keeps beside the text. Sources, in
//! the order of precedence used when they disagree: JSON-LD (schema.org, `@graph`s, arrays,
//! nested authors), microdata (`itemprop`), OpenGraph and Twitter cards, Dublin Core and other
//! `<meta>` names, then the document itself (`<time datetime>`, `rel=author`, `<title>`).
//! Structured markup states a field on purpose; a `<meta name=date>` can be a template's build
//! date, a `<time>` anywhere can be a comment's. A field the page does not give is absent, not
//! guessed: answering where there is nothing to answer is an error in every benchmark of this
//! task.
//!
//! Dates are kept as the page states them (an ISO 8601 string stays as written, zone and all;
//! a date in words becomes `YYYY-MM-DD`), never shifted to another time zone.
//!
//! What it must not know: templates, methods, what the main content is.

mod dates;
mod jsonld;
mod markup;

use std::collections::BTreeMap;

use chaff_dom::Document;
use serde::Serialize;

pub use dates::normalize_date;
pub use markup::first_poster;

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A `<script type="application/ld+json">` block.
    JsonLd,
    /// Microdata (`itemprop`).
    Microdata,
    /// OpenGraph (`og:*`, `article:*`).
    OpenGraph,
    /// Twitter cards (`twitter:*`).
    Twitter,
    /// Dublin Core (`dc.*`, `dcterms.*`).
    DublinCore,
    /// Another `<meta>` name (`author`, `description`, `date`, `citation_*`...).
    Meta,
    /// The document itself: `<html lang>`, `<time datetime>`, `rel=author`, `<link
    /// rel=canonical>`, `<title>`.
    Html,
    /// Predicted from the page as a whole by a learned model (the page type).
    Model,
}

/// The kinds of page WCXB distinguishes, as markup states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// An article, a news story, a blog post.
    Article,
    /// A forum thread, a question and its answers.
    Forum,
    /// A product page.
    Product,
    /// A collection or category page.
    Collection,
    /// A list of items (search results, an index).
    Listing,
    /// Documentation.
    Documentation,
    /// A service, company or organisation page.
    Service,
}

impl PageType {
    /// Every type, in WCXB's order of names sorted.
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Collection,
        PageType::Documentation,
        PageType::Forum,
        PageType::Listing,
        PageType::Product,
        PageType::Service,
    ];

    /// WCXB's name for the type.
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
        }
    }
}

/// A page's metadata. Every field is what the page states, or absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metadata {
    /// The page's name: the headline it shows (an article's, a thread's, or one the title it
    /// states contains), else that stated title without the site's name ([`extract_with`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The `<title>` as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_title: Option<String>,
    /// The authors, people before organisations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// When it was published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    /// When it was last modified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// The site's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    /// The page's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The language, as a BCP 47 tag (`en`, `pt-BR`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The URL the page declares for itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<String>,
    /// The page's main image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Keywords and tags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Sections and categories.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// The licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The kind of page, when markup states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<PageType>,
    /// Where each field present came from, by field name.
    pub sources: BTreeMap<&'static str, Source>,
}

/// Candidate values by field, gathered from every source; the first candidate of the best
/// source wins.
#[derive(Default)]
pub(crate) struct Candidates {
    fields: BTreeMap<&'static str, Vec<(Source, String)>>,
    lists: BTreeMap<&'static str, Vec<(Source, Vec<String>)>>,
}

impl Candidates {
    pub(crate) fn add(&mut self, field: &'static str, source: Source, value: &str) {
        let value = clean(value);
        if !value.is_empty() {
            self.fields.entry(field).or_default().push((source, value));
        }
    }

    pub(crate) fn add_list(&mut self, field: &'static str, source: Source, values: Vec<String>) {
        let values: Vec<String> = values
            .iter()
            .map(|v| clean(v))
            .filter(|v| !v.is_empty())
            .collect();
        if !values.is_empty() {
            self.lists.entry(field).or_default().push((source, values));
        }
    }

    fn best(&self, field: &str) -> Option<(Source, &str)> {
        self.ranked(field).next()
    }

    /// Every candidate of `field`, best source first (in the order found within a source).
    fn ranked(&self, field: &str) -> impl Iterator<Item = (Source, &str)> {
        let mut all: Vec<(Source, &str)> = self
            .fields
            .get(field)
            .into_iter()
            .flatten()
            .map(|(s, v)| (*s, v.as_str()))
            .collect();
        all.sort_by_key(|(s, _)| *s);
        all.into_iter()
    }

    fn best_list(&self, field: &str) -> Option<(Source, &[String])> {
        let all = self.lists.get(field)?;
        let source = all.iter().map(|(s, _)| *s).min()?;
        all.iter()
            .find(|(s, _)| *s == source)
            .map(|(s, v)| (*s, v.as_slice()))
    }
}

/// Collapses whitespace and trims; decodes character references, which many sites leave
/// (or double) in JSON-LD and `<meta>` values (`&#8211;`, `&amp;#39;`).
fn clean(s: &str) -> String {
    let mut s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    for _ in 0..2 {
        if !(s.contains('&') && s.contains(';')) {
            break;
        }
        s = decode_references(&s);
    }
    s
}

/// The text an HTML parser makes of `s` (markup characters kept as they are).
fn decode_references(s: &str) -> String {
    let html = format!("<body><p>{}", s.replace('<', "&lt;"));
    match chaff_dom::parse_str(&html, &chaff_dom::ParseOptions::default()) {
        Ok(doc) => doc
            .find_tag("p")
            .map(|p| doc.subtree_text(p))
            .unwrap_or_else(|| s.to_string()),
        Err(_) => s.to_string(),
    }
}

/// Reads a page's metadata. `url` is the page's address, when known (for resolving relative
/// links). The page is taken for an article: the headline it shows is its title (see
/// [`extract_with`]).
pub fn extract(doc: &Document, url: Option<&str>) -> Metadata {
    extract_with(doc, url, |_| true)
}

/// Reads a page's metadata, asking `headline_names_page` (given everything read but the
/// title) whether the headline the page shows names it.
///
/// On an article or a forum thread the `<h1>` is the headline, and titles in markup are
/// often written for search engines and sharing. On a shop's, a service's or a listing's
/// page the `<h1>` is often a slogan ("Marketing made to meet your goals") and the title the
/// page states for itself (JSON-LD, OpenGraph, `<title>`), without the site's name, names it;
/// there the headline is kept only where that title contains it. On wcxb-dev, with the
/// page-type classifier answering (`chaff_content::page_classifier`, each page typed by a
/// fold model that did not see its domain), this took exact titles from 73.8% to 74.8%,
/// and a site's name recognised inside a longer part ("Tom's Hardware Forum") to 76.3%.
pub fn extract_with(
    doc: &Document,
    url: Option<&str>,
    headline_names_page: impl FnOnce(&Metadata) -> bool,
) -> Metadata {
    let mut c = Candidates::default();
    let page_type = jsonld::read(doc, &mut c);
    markup::read(doc, &mut c);
    if c.best("published").is_none()
        && let Some(d) = markup::date_near_headline(doc)
    {
        c.add("published", Source::Html, &d);
    }
    if c.best_list("authors").is_none()
        && let Some(name) = markup::byline_near_headline(doc)
    {
        c.add_list("authors", Source::Html, vec![name]);
    }
    let mut m = Metadata {
        page_type,
        page_title: doc.title().filter(|t| !t.is_empty()),
        ..Metadata::default()
    };
    let take = |field: &'static str, m: &mut Metadata| -> Option<String> {
        let (source, value) = c.best(field)?;
        m.sources.insert(field, source);
        Some(value.to_string())
    };
    m.site_name = take("site_name", &mut m);
    m.description = take("description", &mut m);
    m.canonical_url = take("canonical_url", &mut m).map(|u| resolve(&u, url));
    m.image = take("image", &mut m).map(|u| resolve(&u, url));
    m.license = take("license", &mut m);
    m.language = take("language", &mut m).and_then(|l| bcp47(&l));
    if m.language.is_none() {
        m.sources.remove("language");
    }
    // A date that does not read as one gives way to the next source's (a JSON-LD
    // `datePublished` of `"\"2025-12-17\""` to the page's `article:published_time`).
    for (field, slot) in [("published", 0), ("modified", 1)] {
        if let Some((source, d)) = c
            .ranked(field)
            .find_map(|(source, d)| Some((source, normalize_date(d)?)))
        {
            m.sources.insert(field, source);
            match slot {
                0 => m.published = Some(d),
                _ => m.modified = Some(d),
            }
        }
    }
    for (field, slot) in [("authors", 0), ("tags", 1), ("categories", 2)] {
        let best = c.best_list(field).or_else(|| {
            (slot == 0)
                .then(|| c.best_list("organisation_authors"))
                .flatten()
        });
        if let Some((source, values)) = best {
            let values = dedup(values);
            m.sources.insert(field, source);
            match slot {
                0 => m.authors = values,
                1 => m.tags = values,
                _ => m.categories = values,
            }
        }
    }
    let stated = c.best("title").map(|(source, t)| (source, t.to_string()));
    choose_title(doc, url, stated, headline_names_page, &mut m);
    m
}

/// Sets the title: the headline the page shows where `headline_names_page` (always asked,
/// once) says so or where the title the page states contains it, else the stated title
/// (markup, else `<title>`) without the site's name, else the headline.
fn choose_title(
    doc: &Document,
    url: Option<&str>,
    stated: Option<(Source, String)>,
    headline_names_page: impl FnOnce(&Metadata) -> bool,
    m: &mut Metadata,
) {
    let names_page = headline_names_page(m);
    let stated = stated.or_else(|| m.page_title.clone().map(|t| (Source::Html, t)));
    let headline = markup::headline(doc);
    let within = |h: &str, t: Option<&str>| t.is_some_and(|t| fold(t).contains(&fold(h)));
    let headline_first = headline.as_deref().is_some_and(|h| {
        names_page
            || within(h, stated.as_ref().map(|(_, t)| t.as_str()))
            || within(h, m.page_title.as_deref())
    });
    let (source, title) = match (headline, stated) {
        (Some(h), _) if headline_first => (Source::Html, h),
        (_, Some((source, t))) => (source, strip_site_name(&t, m.site_name.as_deref(), url)),
        (Some(h), None) => (Source::Html, h),
        (None, None) => return,
    };
    m.sources.insert("title", source);
    m.title = Some(title);
}

/// Values without repeats (case-insensitively), in order.
fn dedup(values: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    values
        .iter()
        .filter(|v| seen.insert(v.to_lowercase()))
        .cloned()
        .collect()
}

/// A URL made absolute against the page's.
fn resolve(u: &str, base: Option<&str>) -> String {
    match base.and_then(|b| url::Url::parse(b).ok()) {
        Some(b) => b
            .join(u)
            .map(|j| j.to_string())
            .unwrap_or_else(|_| u.to_string()),
        None => u.to_string(),
    }
}

/// `en_US`, `EN-us` → `en-US`; `None` for what is no language tag.
fn bcp47(tag: &str) -> Option<String> {
    let mut parts = tag.trim().split(['-', '_']);
    let lang = parts.next()?.to_ascii_lowercase();
    if !(2..=3).contains(&lang.len()) || !lang.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let mut out = lang;
    for p in parts {
        if p.is_empty() || p.len() > 8 || !p.bytes().all(|b| b.is_ascii_alphanumeric()) {
            break;
        }
        out.push('-');
        match p.len() {
            2 => out.push_str(&p.to_ascii_uppercase()),
            4 => {
                let mut cs = p.chars();
                out.extend(cs.next().map(|c| c.to_ascii_uppercase()));
                out.push_str(&cs.as_str().to_ascii_lowercase());
            }
            _ => out.push_str(&p.to_ascii_lowercase()),
        }
    }
    Some(out)
}

/// A title without the site's name: `Headline | Site`, `Site - Headline`, `Headline — Site`.
/// The part dropped must be the site's name (or its domain's first label); a title whose
/// separators split something else stays whole.
pub fn strip_site_name(title: &str, site: Option<&str>, url: Option<&str>) -> String {
    let names = site_names(site, url);
    if names.is_empty() {
        return title.trim().to_string();
    }
    for sep in [
        " | ", " - ", " – ", " — ", " :: ", " · ", " • ", " / ", ": ",
    ] {
        let Some((a, b)) = title.rsplit_once(sep) else {
            continue;
        };
        if is_site(b, &names) && !a.trim().is_empty() {
            return a.trim().to_string();
        }
        if let Some((a, b)) = title.split_once(sep)
            && is_site(a, &names)
            && !b.trim().is_empty()
        {
            return b.trim().to_string();
        }
    }
    title.trim().to_string()
}

fn site_names(site: Option<&str>, url: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = site.map(fold).into_iter().collect();
    if let Some(host) = url
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_string))
    {
        let host = host.trim_start_matches("www.");
        names.push(fold(host));
        if let Some(first) = host.split('.').next() {
            names.push(fold(first));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_site(part: &str, names: &[String]) -> bool {
    let p = fold(part);
    !p.is_empty()
        && names.iter().any(|n| {
            *n == p
                // "Tom's Hardware Forum" of tomshardware.com; a name of four letters or
                // more, so "bbc" inside a headline's word does not make it the site's.
                || (n.len() >= 4 && (p.contains(n.as_str()) || (p.len() >= 4 && n.contains(&p))))
        })
}

#[cfg(test)]
mod tests;
