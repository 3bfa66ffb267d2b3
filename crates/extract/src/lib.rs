//! `chaff-extract`: from labels to main content, in every output format.
//!
//! What it is for: given a parsed page, its visible-text view and the [`Labels`] some method
//! produced, render what remains once template nodes (and the sub-node ranges a string
//! method cut) are removed: plain [`text`], [`markdown`], cleaned [`html`], a [`json`]
//! record with the per-node labels, or trafilatura's [`xml`] and [`tei`].
//!
//! What it must not know: how labels were made (any method's, or several combined), where
//! pages come from or where output goes.
//!
//! Text nodes are always rendered from their segment of the [`TextView`] (whitespace
//! collapsed as the view collapses it), so the sub-node ranges of [`Labels::partial`], which
//! are offsets into those segments, mean the same thing in every format.

mod address;
mod head;
mod markdown;
mod xml;

use std::borrow::Cow;
use std::ops::Range;

use chaff_core::{Labels, Role};
use chaff_dom::serialize::{SerializeFilter, write_html};
use chaff_dom::text::{is_hidden, is_non_rendered};
use chaff_dom::{Document, NodeId, NodeKind, TextView};
use serde::Serialize;

pub use head::{front_matter, html_head};
pub use markdown::{markdown, markdown_for};
pub use xml::{tei, xml};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Plain text, one block per line.
    Text,
    /// Markdown with headings, lists, links, emphasis, code and tables.
    Markdown,
    /// A minimal HTML document holding the kept nodes.
    Html,
    /// A JSON object with the text and the per-node labels.
    Json,
    /// trafilatura's XML (`<doc>` with the metadata as attributes, `<main>`, `<comments>`).
    Xml,
    /// TEI P5 as trafilatura writes it (`teiHeader`, `<div type="entry">`).
    Tei,
}

impl Format {
    /// Every format, in the order front ends list them.
    pub const ALL: [Format; 6] = [
        Format::Text,
        Format::Markdown,
        Format::Html,
        Format::Json,
        Format::Xml,
        Format::Tei,
    ];

    /// The format's name, as records and front ends spell it (`text`, `markdown`, `html`,
    /// `json`, `xml`, `tei`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::Json => "json",
            Format::Xml => "xml",
            Format::Tei => "tei",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Json => "json",
            Format::Xml | Format::Tei => "xml",
        }
    }
}

/// A format name that is not one of [`Format::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl std::fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "unknown output format {:?} (one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    /// Parses a [`Format::name`].
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}

/// What the structured formats (Markdown, HTML, XML, TEI) leave out of the kept content;
/// by default nothing. Plain text and the JSON record carry neither links nor images.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Omit {
    /// Links are written as their text alone.
    pub links: bool,
    /// Images are left out.
    pub images: bool,
}

/// Where a page came from, for the JSON record, and how its formats are written.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageMeta<'a> {
    /// Provenance (file path, WARC record...).
    pub source: &'a str,
    /// The page URL, if known.
    pub url: Option<&'a str>,
    /// The site key.
    pub site: Option<&'a str>,
    /// What the page states about itself, for the formats that carry it (`<head>` in HTML,
    /// front matter in Markdown).
    pub metadata: Option<&'a chaff_meta::Metadata>,
    /// Whether Markdown starts with YAML front matter holding [`PageMeta::metadata`].
    pub front_matter: bool,
    /// The readers' comments kept apart from the main text, for the formats that give them
    /// a place of their own (XML's `<comments>`, TEI's `<div type="comments">`).
    pub comments: Option<&'a str>,
    /// What the structured formats leave out.
    pub omit: Omit,
}

/// Renders a page in `format`.
pub fn render(
    format: Format,
    doc: &Document,
    view: &TextView,
    labels: &Labels,
    meta: &PageMeta<'_>,
) -> String {
    match format {
        Format::Text => text(view, labels),
        Format::Markdown => {
            let body = markdown_for(doc, view, labels, meta);
            match meta.metadata.filter(|_| meta.front_matter) {
                Some(m) => front_matter(m, meta.url, meta.site) + &body,
                None => body,
            }
        }
        Format::Html => html_for(doc, view, labels, meta),
        Format::Json => json(doc, view, labels, meta).to_string(),
        Format::Xml => xml(doc, view, labels, meta),
        Format::Tei => tei(doc, view, labels, meta),
    }
}

/// The text of a text node's segment with the label's partial ranges cut out; `None` if the
/// node is removed or has no visible text.
pub fn kept_segment_text<'v>(
    view: &'v TextView,
    labels: &Labels,
    node: NodeId,
) -> Option<Cow<'v, str>> {
    if labels.is_removed(node) {
        return None;
    }
    kept_text_of(view, labels, view.segment_of(node)?)
}

/// [`kept_segment_text`] for a segment already found (a walk in document order finds each
/// node's segment by moving along the view, without a search per node); `None` if its node
/// is removed or nothing of it is kept.
pub fn kept_text_of<'v>(
    view: &'v TextView,
    labels: &Labels,
    seg: &chaff_dom::Segment,
) -> Option<Cow<'v, str>> {
    let node = seg.node;
    if labels.is_removed(node) {
        return None;
    }
    let s = &view.text()[seg.range()];
    match labels.partial(node) {
        None => Some(Cow::Borrowed(s)),
        Some(ranges) => {
            let kept = cut(s, ranges);
            let kept = kept.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
            (!kept.is_empty()).then_some(Cow::Owned(kept))
        }
    }
}

fn cut(s: &str, ranges: &[Range<u32>]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last = 0usize;
    for r in ranges {
        let (a, b) = (r.start as usize, (r.end as usize).min(s.len()));
        if a > last && s.is_char_boundary(a) {
            out.push_str(&s[last..a]);
            if !out.ends_with(' ') {
                out.push(' ');
            }
        }
        if s.is_char_boundary(b) {
            last = b.max(last);
        }
    }
    if last < s.len() {
        out.push_str(&s[last..]);
    }
    out
}

/// Plain text: the view with removed nodes and ranges taken out, blank lines dropped.
pub fn text(view: &TextView, labels: &Labels) -> String {
    let full = view.text();
    let mut out = String::with_capacity(full.len());
    let mut pos = 0usize;
    for seg in view.segments() {
        let r = seg.range();
        out.push_str(&full[pos..r.start]);
        if let Some(kept) = kept_text_of(view, labels, seg) {
            out.push_str(&kept);
        }
        pos = r.end;
    }
    out.push_str(&full[pos..]);
    tidy_lines(&out)
}

/// Trims lines, collapses inner runs of spaces and drops empty lines.
fn tidy_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.lines() {
        let mut first = true;
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            if first {
                if !out.is_empty() {
                    out.push('\n');
                }
                first = false;
            } else {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

struct KeptFilter<'a> {
    view: &'a TextView,
    labels: &'a Labels,
    omit: Omit,
}

impl SerializeFilter for KeptFilter<'_> {
    fn include(&self, doc: &Document, id: NodeId) -> bool {
        match doc.kind(id) {
            NodeKind::Element => {
                let tag = doc.tag(id);
                let left_out = self.omit.images && matches!(tag, "img" | "picture");
                !self.labels.is_removed(id)
                    && !is_non_rendered(tag)
                    && !is_hidden(doc, id)
                    && !left_out
            }
            NodeKind::Text => !self.labels.is_removed(id),
            NodeKind::Comment | NodeKind::ProcessingInstruction | NodeKind::Doctype => false,
            NodeKind::Document => true,
        }
    }

    fn text<'d>(&self, doc: &'d Document, id: NodeId) -> Cow<'d, str> {
        match self.labels.partial(id) {
            Some(_) => {
                // Keep the node's edge whitespace: it separates it from inline neighbours.
                let raw = doc.text(id);
                let mut out = String::new();
                if raw.starts_with(|c: char| c.is_ascii_whitespace()) {
                    out.push(' ');
                }
                if let Some(kept) = kept_segment_text(self.view, self.labels, id) {
                    out.push_str(&kept);
                    if raw.ends_with(|c: char| c.is_ascii_whitespace()) {
                        out.push(' ');
                    }
                }
                Cow::Owned(out)
            }
            None => Cow::Borrowed(doc.text(id)),
        }
    }

    fn unwrap(&self, doc: &Document, id: NodeId) -> bool {
        self.omit.links && doc.is_tag(id, "a")
    }
}

/// A minimal HTML document with the kept part of the page's body.
pub fn html(doc: &Document, view: &TextView, labels: &Labels) -> String {
    html_with(doc, view, labels, None)
}

/// [`html`], its `<head>` carrying what `metadata` states ([`html_head`]) and its `<html>`
/// the page's language.
pub fn html_with(
    doc: &Document,
    view: &TextView,
    labels: &Labels,
    metadata: Option<&chaff_meta::Metadata>,
) -> String {
    let meta = PageMeta {
        metadata,
        ..PageMeta::default()
    };
    html_for(doc, view, labels, &meta)
}

/// [`html_with`] for the page `meta` describes: its `<head>` carries `meta.metadata` and a
/// `<base href>` naming the page's base (its own `<base href>`, else `meta.url`), so the
/// relative addresses the content keeps still point where they did; links and images are
/// left out as `meta.omit` names (a link becomes its content, `<img>` and `<picture>` are
/// dropped).
pub fn html_for(doc: &Document, view: &TextView, labels: &Labels, meta: &PageMeta<'_>) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html");
    if let Some(lang) = meta.metadata.and_then(|m| m.language.as_deref()) {
        out.push_str(" lang=\"");
        chaff_dom::serialize::escape_attr(lang, &mut out);
        out.push('"');
    }
    out.push('>');
    let addresses = address::Addresses::new(doc, meta.url);
    let base = addresses.base().map(url::Url::as_str);
    head::html_head_based(meta.metadata, doc.title().as_deref(), base, &mut out);
    out.push('\n');
    let filter = KeptFilter {
        view,
        labels,
        omit: meta.omit,
    };
    match doc.body() {
        Some(body) => write_html(doc, body, &filter, &mut out),
        None => out.push_str("<body></body>"),
    }
    out.push_str("\n</html>\n");
    out
}

/// One node in the JSON record.
#[derive(Serialize)]
struct JsonNode<'a> {
    id: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
    tag: &'a str,
    role: Role,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    removed: Option<Vec<[u32; 2]>>,
}

/// The JSON record of a page: provenance, the kept text, and every element's and visible
/// text node's label ([`nodes`]).
pub fn json(
    doc: &Document,
    view: &TextView,
    labels: &Labels,
    meta: &PageMeta<'_>,
) -> serde_json::Value {
    serde_json::json!({
        "source": meta.source,
        "url": meta.url,
        "site": meta.site,
        "title": doc.title(),
        "text": text(view, labels),
        "nodes": nodes(doc, view, labels),
    })
}

/// Every element's and visible text node's label, in document order: id, parent, tag,
/// role, score, a text node's text, and `removed`, the byte ranges cut from that text.
pub fn nodes(doc: &Document, view: &TextView, labels: &Labels) -> serde_json::Value {
    let mut nodes = Vec::new();
    for id in doc.ids() {
        let (tag, text) = match doc.kind(id) {
            NodeKind::Element => (doc.tag(id), None),
            NodeKind::Text => match view.segment_of(id) {
                Some(seg) => ("#text", Some(&view.text()[seg.range()])),
                None => continue,
            },
            _ => continue,
        };
        nodes.push(JsonNode {
            id: id.0,
            parent: doc.parent(id).map(|p| p.0),
            tag,
            role: labels.role(id),
            score: (f64::from(labels.score(id)) * 1000.0).round() / 1000.0,
            text,
            removed: labels
                .partial(id)
                .map(|rs| rs.iter().map(|r| [r.start, r.end]).collect()),
        });
    }
    serde_json::to_value(nodes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> (Document, TextView, Labels) {
        let doc = chaff_dom::parse(
            br#"<html><head><title>A day</title><script>x()</script></head><body>
            <nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></nav>
            <article><h1>Rain &amp; shine</h1><p>Published on Tuesday. It rained <em>all</em> day.</p>
            <ul><li>one</li><li>two <a href="/x">links</a></li></ul>
            <blockquote><p>Quoted words.</p></blockquote><pre>a  b
 c</pre><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table></article>
            <footer>Copyright 2007</footer></body></html>"#,
        )
        .unwrap();
        let view = TextView::new(&doc);
        let mut labels = Labels::all_content(doc.len());
        let nav = doc.find_tag("nav").unwrap();
        labels.set_subtree(&doc, nav, 1.0, Role::Menu);
        let footer = doc.find_tag("footer").unwrap();
        labels.set_subtree(&doc, footer, 1.0, Role::Template);
        // "Published on Tuesday." is template inside the paragraph's first text node.
        let p = doc.find_tag("p").unwrap();
        let t = doc.first_child(p).unwrap();
        labels.set_partial(t, std::iter::once(0..21).collect());
        (doc, view, labels)
    }

    #[test]
    fn text_output() {
        let (doc, view, labels) = fixture();
        insta::assert_snapshot!(render(
            Format::Text,
            &doc,
            &view,
            &labels,
            &PageMeta::default()
        ));
    }

    #[test]
    fn markdown_output() {
        let (doc, view, labels) = fixture();
        insta::assert_snapshot!(render(
            Format::Markdown,
            &doc,
            &view,
            &labels,
            &PageMeta::default()
        ));
    }

    #[test]
    fn html_output() {
        let (doc, view, labels) = fixture();
        insta::assert_snapshot!(render(
            Format::Html,
            &doc,
            &view,
            &labels,
            &PageMeta::default()
        ));
    }

    #[test]
    fn html_names_the_base_of_the_addresses_it_keeps() {
        let doc = chaff_dom::parse(b"<p><a href='next.html'>Next</a></p>").unwrap();
        let view = TextView::new(&doc);
        let labels = Labels::all_content(doc.len());
        let at = |url| {
            let meta = PageMeta {
                url,
                ..PageMeta::default()
            };
            render(Format::Html, &doc, &view, &labels, &meta)
        };
        let html = at(Some("https://example.org/a/b.html?q=\"1\""));
        assert!(
            html.contains("<base href=\"https://example.org/a/b.html?q=%221%22\">"),
            "{html}"
        );
        assert!(html.contains("<a href=\"next.html\">Next</a>"), "{html}");
        assert!(!at(None).contains("<base"));
    }

    #[test]
    fn json_output() {
        let (doc, view, labels) = fixture();
        let meta = PageMeta {
            source: "a.html",
            url: Some("https://example.org/a"),
            site: Some("example.org"),
            ..PageMeta::default()
        };
        let v = json(&doc, &view, &labels, &meta);
        assert_eq!(v["site"], "example.org");
        let removed: Vec<_> = v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["role"] != "content")
            .collect();
        assert!(
            removed
                .iter()
                .any(|n| n["tag"] == "nav" && n["role"] == "menu")
        );
        insta::assert_json_snapshot!(v);
    }

    #[test]
    fn links_and_images_can_be_left_out_of_every_structured_format() {
        let doc = chaff_dom::parse(
            br#"<body><p>See <a href="/a">the <b>docs</b></a> and <img src="/i.png" alt="a chart">
            <picture><source srcset="/p.webp"><img src="/p.png"></picture>.</p></body>"#,
        )
        .unwrap();
        let view = TextView::new(&doc);
        let labels = Labels::all_content(doc.len());
        let both = Omit {
            links: true,
            images: true,
        };
        let out = |format: Format, omit: Omit| {
            let meta = PageMeta {
                omit,
                ..PageMeta::default()
            };
            render(format, &doc, &view, &labels, &meta)
        };
        assert_eq!(
            out(Format::Markdown, Omit::default()),
            "See [the **docs**](/a) and ![a chart](/i.png) ![](/p.png)."
        );
        assert_eq!(out(Format::Markdown, both), "See the **docs** and .");
        let links_only = Omit {
            links: true,
            images: false,
        };
        assert_eq!(
            out(Format::Markdown, links_only),
            "See the **docs** and ![a chart](/i.png) ![](/p.png)."
        );
        let html = out(Format::Html, both);
        assert!(html.contains("<p>See the <b>docs</b> and \n"), "{html}");
        assert!(!html.contains("<a") && !html.contains("<img") && !html.contains("<picture"));
        for format in [Format::Xml, Format::Tei] {
            let x = out(format, both);
            assert!(x.contains("See the <hi rend=\"#b\">docs</hi> and"), "{x}");
            assert!(!x.contains("<ref") && !x.contains("<graphic"), "{x}");
            let kept = out(format, Omit::default());
            assert!(kept.contains("<ref target=\"/a\">") && kept.contains("<graphic"));
        }
        // Plain text has neither, whatever is asked.
        assert_eq!(out(Format::Text, both), out(Format::Text, Omit::default()));
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        let err = "txt".parse::<Format>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown output format \"txt\" (one of text, markdown, html, json, xml, tei)"
        );
    }

    #[test]
    fn cut_ranges() {
        assert_eq!(cut("abc def ghi", &[0..4, 8..11]), "def ");
        assert_eq!(cut("héllo", std::slice::from_ref(&(1..3))), "h llo");
    }
}
