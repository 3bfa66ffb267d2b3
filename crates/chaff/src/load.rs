//! From corpus pages to parsed pages: decoding, parsing, the text view and the site key.

use chaff_core::PageInput;
use chaff_corpus::{Media, Page, SiteKey, site_key};
use chaff_dom::{Document, ParseOptions, TextView};

use crate::Error;

/// Which evidence names a page's site first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SiteFrom {
    /// The page's URL, else the URL it declares (canonical link, `og:url`), else its folder.
    /// Web-archive capture URLs name the original page's site.
    #[default]
    Url,
    /// The folder the page was found in, else its URL: for inputs laid out one folder per
    /// site, whatever their URLs say.
    Folder,
}

/// A parsed page with its provenance.
#[derive(Clone, Debug)]
pub struct LoadedPage {
    /// Where it came from (a path, `archive.warc.gz#offset`, `stdin:3`).
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
    /// The decoded source, kept only when a method needs it.
    pub text: Option<String>,
}

impl LoadedPage {
    /// The page as methods see it.
    pub fn input(&self) -> PageInput<'_> {
        PageInput {
            doc: &self.doc,
            view: &self.view,
            source: self.text.as_deref(),
            url: self.url.as_deref(),
        }
    }
}

/// How pages are parsed. The default parser options are chaff-dom's with the node budget
/// for extraction ([`chaff_dom::NodeBudget::FOR_EXTRACTION`]), which keeps a page's memory
/// within about 10 times its size.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// Parser limits.
    pub parse: ParseOptions,
    /// Keep the decoded source in [`LoadedPage::text`].
    pub keep_source: bool,
    /// Which evidence names the site.
    pub site_from: SiteFrom,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            parse: ParseOptions {
                node_budget: chaff_dom::NodeBudget::FOR_EXTRACTION,
                ..ParseOptions::default()
            },
            keep_source: false,
            site_from: SiteFrom::default(),
        }
    }
}

/// Parses a corpus page.
pub fn load_page(mut page: Page, opts: &LoadOptions) -> Result<LoadedPage, Error> {
    let bytes = std::mem::take(&mut page.bytes);
    load_bytes(page, &bytes, opts)
}

/// Parses `bytes` as the page `page` describes (its own bytes are not read, so a caller
/// holding borrowed bytes need not copy them into it).
pub(crate) fn load_bytes(
    page: Page,
    bytes: &[u8],
    opts: &LoadOptions,
) -> Result<LoadedPage, Error> {
    let (doc, view, text, site) = parse_parts(&page, bytes, opts)?;
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

type Parsed = (Document, TextView, Option<String>, SiteKey);

/// Parses `bytes` described by `page` (whose own bytes are not read, so a caller holding
/// borrowed bytes need not copy them into the page). What a web archive injected into a
/// captured page (its toolbar, scripts and notice) is left out by the parser
/// ([`chaff_dom::ParseOptions::strip_archive_inserts`], on by default): it is not part of the
/// page.
pub(crate) fn parse_parts(page: &Page, bytes: &[u8], opts: &LoadOptions) -> Result<Parsed, Error> {
    let fail = |e: chaff_dom::DomError| match e {
        // The extractor fills in its limit.
        chaff_dom::DomError::Deadline => Error::Deadline {
            page: page.source.clone(),
            limit: std::time::Duration::ZERO,
            stage: "parse".into(),
        },
        e => Error::Page {
            page: page.source.clone(),
            message: e.to_string(),
        },
    };
    let html_page = page.media == Media::Html;
    let (doc, text) = if html_page && !opts.keep_source {
        let parse = ParseOptions {
            transport_charset: page.charset.clone(),
            ..opts.parse.clone()
        };
        (chaff_dom::parse_with(bytes, &parse).map_err(fail)?, None)
    } else {
        if bytes.len() > opts.parse.max_bytes {
            return Err(fail(chaff_dom::DomError::TooLarge {
                len: bytes.len(),
                limit: opts.parse.max_bytes,
            }));
        }
        if opts.parse.reject_binary && chaff_dom::looks_binary(bytes) {
            return Err(fail(chaff_dom::DomError::Binary));
        }
        let text = chaff_dom::encoding::decode(bytes, page.charset.as_deref())
            .text
            .into_owned();
        if html_page {
            (
                chaff_dom::parse_str(&text, &opts.parse).map_err(fail)?,
                Some(text),
            )
        } else {
            // The source of a text page is the HTML it is parsed as, so that source spans
            // and the source a method reads agree.
            let html = text_html(&text);
            let doc = parse_text_html(&html, text.len(), &opts.parse).map_err(fail)?;
            (doc, Some(html))
        }
    };
    let view = TextView::new(&doc);
    let site = page_site(page, doc.declared_url(), opts.site_from);
    Ok((doc, view, text, site))
}

/// The site key of a page, given the URL its DOM declares.
pub fn page_site(page: &Page, declared_url: Option<&str>, from: SiteFrom) -> SiteKey {
    match from {
        SiteFrom::Url => site_key(page.url.as_deref(), declared_url, page.folder.as_deref()),
        SiteFrom::Folder if page.folder.is_some() => site_key(None, None, page.folder.as_deref()),
        SiteFrom::Folder => site_key(page.url.as_deref(), declared_url, None),
    }
}

/// The site key of a page when it can be told without parsing it (from its URL or folder),
/// `None` when only its DOM could tell.
pub fn site_without_parsing(page: &Page, from: SiteFrom) -> Option<SiteKey> {
    let known = match from {
        SiteFrom::Url => page.url.is_some(),
        SiteFrom::Folder => page.folder.is_some(),
    };
    let key = page_site(page, None, from);
    let certain = known && key.source() != chaff_corpus::SiteKeySource::Unknown;
    certain.then_some(key)
}

/// A plain-text page as a document: its text in one `<pre>`, so that its view is the text
/// itself and every output format works.
pub fn text_document(text: &str, opts: &ParseOptions) -> Result<Document, chaff_dom::DomError> {
    parse_text_html(&text_html(text), text.len(), opts)
}

/// A plain text as the HTML [`text_document`] parses.
fn text_html(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 32);
    // The parser drops one newline right after <pre>; give it one to drop.
    html.push_str("<!DOCTYPE html><body><pre>\n");
    chaff_dom::serialize::escape_text(text, &mut html);
    html.push_str("</pre></body>");
    html
}

/// Parses the HTML of a plain text of `text_len` bytes; the size limit applies to the text.
fn parse_text_html(
    html: &str,
    text_len: usize,
    opts: &ParseOptions,
) -> Result<Document, chaff_dom::DomError> {
    chaff_dom::parse_str(
        html,
        &ParseOptions {
            max_bytes: opts.max_bytes.saturating_add(html.len() - text_len),
            ..opts.clone()
        },
    )
}
