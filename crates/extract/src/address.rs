//! Link and image addresses made absolute.
//!
//! Extracted content leaves its page: a Markdown file in a corpus, an XML record in an
//! archive. A relative address (`/about`, `../img/a.png`, `//cdn.example/x.js`) means
//! nothing there, so the writers resolve every address they write against the page's base:
//! the first `<base href>` of the document (itself resolved against the page's URL), else
//! the page's URL, as a browser does. An address that is already absolute is written as the
//! page has it, byte for byte. Without a base (no URL given and no absolute `<base href>`),
//! or where resolution fails (`http://[bad`), the address is written as it is.
//!
//! The base is looked up only when the first relative address is met: a page whose content
//! has no links pays nothing.

use std::borrow::Cow;
use std::cell::OnceCell;

use chaff_dom::Document;
use url::Url;

/// Resolves a page's addresses; built per rendering, its base found on first need.
pub(crate) struct Addresses<'a> {
    doc: &'a Document,
    page_url: Option<&'a str>,
    base: OnceCell<Option<Url>>,
}

impl<'a> Addresses<'a> {
    /// Addresses of `doc`, fetched from `page_url` when it is known.
    pub(crate) fn new(doc: &'a Document, page_url: Option<&'a str>) -> Addresses<'a> {
        Addresses {
            doc,
            page_url,
            base: OnceCell::new(),
        }
    }

    /// The page's base URL, when it has one.
    pub(crate) fn base(&self) -> Option<&Url> {
        self.base
            .get_or_init(|| self.doc.base_url(self.page_url))
            .as_ref()
    }

    /// `raw` made absolute against the page's base, or `raw` itself when it is absolute
    /// already or cannot be resolved.
    pub(crate) fn resolve<'r>(&self, raw: &'r str) -> Cow<'r, str> {
        if has_scheme(raw) {
            return Cow::Borrowed(raw);
        }
        match self.base().and_then(|b| b.join(raw).ok()) {
            Some(u) => Cow::Owned(u.into()),
            None => Cow::Borrowed(raw),
        }
    }
}

/// Whether `s` starts with a URL scheme and its colon (`https:`, `mailto:`, `tel:`): RFC
/// 3986's letter, then letters, digits, `+`, `-` or `.`.
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(html: &str, page: Option<&str>, raw: &str) -> String {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        Addresses::new(&doc, page).resolve(raw).into_owned()
    }

    #[test]
    fn relative_addresses_against_the_page() {
        let page = Some("https://example.org/news/2024/story.html?x=1");
        assert_eq!(
            resolve("<p>x</p>", page, "/about"),
            "https://example.org/about"
        );
        assert_eq!(
            resolve("<p>x</p>", page, "../img/a.png"),
            "https://example.org/news/img/a.png"
        );
        assert_eq!(
            resolve("<p>x</p>", page, "other.html"),
            "https://example.org/news/2024/other.html"
        );
        assert_eq!(
            resolve("<p>x</p>", page, "//cdn.example.net/a.js"),
            "https://cdn.example.net/a.js"
        );
        assert_eq!(
            resolve("<p>x</p>", page, "?page=2"),
            "https://example.org/news/2024/story.html?page=2"
        );
    }

    #[test]
    fn absolute_addresses_are_kept_byte_for_byte() {
        let page = Some("https://example.org/");
        for raw in [
            "HTTP://Example.ORG/A b",
            "mailto:someone@example.org",
            "tel:+1-555",
            "ftp://host/file",
        ] {
            assert_eq!(resolve("<p>x</p>", page, raw), raw);
        }
    }

    #[test]
    fn the_base_element_wins_over_the_page_url() {
        let html = "<head><base target=_blank><base href='/docs/v2/'></head><p>x</p>";
        assert_eq!(
            resolve(html, Some("https://example.org/a/b"), "intro.html"),
            "https://example.org/docs/v2/intro.html"
        );
        // An absolute <base href> serves a page whose URL is unknown.
        let html = "<base href='https://mirror.example/root/'><p>x</p>";
        assert_eq!(
            resolve(html, None, "a.png"),
            "https://mirror.example/root/a.png"
        );
    }

    #[test]
    fn without_a_base_or_when_resolution_fails_the_address_stays() {
        assert_eq!(resolve("<p>x</p>", None, "/about"), "/about");
        assert_eq!(resolve("<p>x</p>", Some("not a url"), "/about"), "/about");
        // A relative <base href> with no page URL gives no base.
        assert_eq!(resolve("<base href='/x/'>", None, "a"), "a");
        assert_eq!(
            resolve("<p>x</p>", Some("https://example.org/"), "//[bad"),
            "//[bad"
        );
    }

    #[test]
    fn schemes_by_hand() {
        assert!(has_scheme("https://a"));
        assert!(has_scheme("svn+ssh://a"));
        assert!(has_scheme("mailto:x"));
        assert!(!has_scheme("/a:b"));
        assert!(!has_scheme("a/b:c"));
        assert!(!has_scheme("1http:x"));
        assert!(!has_scheme(":x"));
        assert!(!has_scheme("page.html"));
    }
}
