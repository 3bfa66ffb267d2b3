//! A menu's links (text and absolute URL), and the link keys Definition 5 compares across the
//! pages of a site.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use chaff_dom::{Document, NodeId};
use serde::{Deserialize, Serialize};
use url::Url;

/// One link of a menu.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuLink {
    /// The link's visible text, whitespace collapsed; for a link without text, its
    /// `aria-label`, `title`, or the `alt` of an image inside it.
    pub text: String,
    /// The `href` resolved against the page's `<base href>` and URL; the `href` as written
    /// when it cannot be resolved (no page URL and a relative `href`).
    pub url: String,
}

/// The links (`<a href>`) in the subtree of `node`, in document order, with URLs resolved
/// against `<base href>` and `base_url`.
pub fn menu_links(doc: &Document, node: NodeId, base_url: Option<&str>) -> Vec<MenuLink> {
    if node.index() >= doc.len() {
        return Vec::new();
    }
    let base = effective_base(doc, base_url);
    doc.subtree(node)
        .filter(|&a| doc.is_tag(a, "a"))
        .filter_map(|a| {
            let href = doc.attr(a, "href")?.trim();
            Some(MenuLink {
                text: link_text(doc, a),
                url: resolve(base.as_ref(), href),
            })
        })
        .collect()
}

/// The page's base URL: `<base href>` resolved against `base_url`, else `base_url`.
pub fn effective_base(doc: &Document, base_url: Option<&str>) -> Option<Url> {
    let page = base_url.and_then(|u| Url::parse(u.trim()).ok());
    let declared = doc
        .head()
        .and_then(|h| doc.descendants(h).find(|&n| doc.is_tag(n, "base")))
        .and_then(|b| doc.attr(b, "href"))
        .map(str::trim)
        .filter(|h| !h.is_empty());
    match declared {
        Some(h) => match &page {
            Some(p) => p.join(h).ok().or(page.clone()),
            None => Url::parse(h).ok(),
        },
        None => page,
    }
}

fn resolve(base: Option<&Url>, href: &str) -> String {
    match base {
        Some(b) => b
            .join(href)
            .map(String::from)
            .unwrap_or_else(|_| href.to_owned()),
        None => Url::parse(href)
            .map(String::from)
            .unwrap_or_else(|_| href.to_owned()),
    }
}

/// The whitespace-collapsed text of a link (all text nodes below it, as `textContent`), else
/// its `aria-label` or `title`, else the `alt` of an image inside it.
pub fn link_text(doc: &Document, a: NodeId) -> String {
    let text = collapse(
        doc.subtree(a)
            .filter(|&n| doc.is_text(n))
            .flat_map(|n| doc.text(n).split_whitespace()),
    );
    if !text.is_empty() {
        return text;
    }
    for name in ["aria-label", "title"] {
        if let Some(v) = doc.attr(a, name) {
            let v = collapse(v.split_whitespace());
            if !v.is_empty() {
                return v;
            }
        }
    }
    doc.subtree(a)
        .filter(|&n| doc.is_tag(n, "img"))
        .find_map(|n| doc.attr(n, "alt"))
        .map(|v| collapse(v.split_whitespace()))
        .unwrap_or_default()
}

/// The texts of every `<a>` in the subtree, whitespace collapsed (Unicode whitespace, as
/// Python's `str.split()`), empty ones dropped: the data set's `menu_link_texts`.
pub fn anchor_texts(doc: &Document, node: NodeId) -> Vec<String> {
    doc.subtree(node)
        .filter(|&a| doc.is_tag(a, "a"))
        .map(|a| {
            collapse(
                doc.subtree(a)
                    .filter(|&n| doc.is_text(n))
                    .flat_map(|n| doc.text(n).split_whitespace()),
            )
        })
        .filter(|t| !t.is_empty())
        .collect()
}

fn collapse<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for w in words {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// A link's identity across the pages of a site: its lower-cased text, or for a link without
/// text its `href` without query and fragment (internal links often carry session ids).
pub fn link_key(doc: &Document, a: NodeId) -> u64 {
    let mut h = DefaultHasher::new();
    let text = link_text(doc, a).to_lowercase();
    if text.is_empty() {
        let href = doc.attr(a, "href").unwrap_or("").trim();
        let cut = href.find(['?', '#']).unwrap_or(href.len());
        1u8.hash(&mut h);
        href[..cut].hash(&mut h);
    } else {
        0u8.hash(&mut h);
        text.hash(&mut h);
    }
    h.finish()
}

/// Every hyperlink (`<a href>`) of the document with its [`link_key`], in document order.
pub fn keyed_links(doc: &Document) -> Vec<(NodeId, u64)> {
    doc.ids()
        .filter(|&a| doc.is_tag(a, "a") && doc.attr(a, "href").is_some())
        .map(|a| (a, link_key(doc, a)))
        .collect()
}
