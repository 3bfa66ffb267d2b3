//! XML and TEI output with trafilatura's element names, for pipelines built on its XML.
//!
//! trafilatura writes a page as `<doc …attributes…><main>…</main><comments>…</comments></doc>`
//! (and, for TEI, `<TEI><teiHeader>…</teiHeader><text><body><div type="entry">…`), with one
//! small vocabulary inside: `head rend="h2"`, `p`, `list rend="ul"` / `item`, `quote`, `code`,
//! `table` / `row` / `cell role="head"`, `hi rend="#b"` (`#i`, `#u`, `#t`, `#sub`, `#sup`),
//! `del`, `ref target`, `graphic src alt` and `lb`. Readers of that format (corpus tools,
//! TEI processors) need exactly those names, so this writer maps the kept part of the page
//! onto them and onto nothing else.
//!
//! The mapping, walked iteratively in document order like the Markdown writer:
//! * Text that would sit directly in `<main>` (inside `div`, `section`, layout tables…) is
//!   wrapped in a `<p>` opened for it, closed at the next block boundary; text directly in a
//!   list gets an `<item>` the same way. Block elements met inside a paragraph, heading or
//!   inline element add no element (their text stays in the paragraph).
//! * Only data tables (see the Markdown writer's rule) become `<table>`; a layout table's
//!   cells are block boundaries.
//! * `<pre>` is literal: its text keeps its line breaks and nothing inside it is marked up.
//! * An element left empty once removed nodes are gone is taken back whole, so a link whose
//!   text was all template leaves nothing behind.
//!
//! Values are escaped for XML 1.0: `&`, `<`, `>` and `"` as entities, and the characters XML
//! forbids (C0 controls other than tab and line breaks, U+FFFE, U+FFFF) dropped, so the
//! output always parses.

use chaff_core::Labels;
use chaff_dom::text::{is_hidden, is_non_rendered};
use chaff_dom::{Document, NodeId, NodeKind, Segment, SegmentCursor, TextView};

use crate::address::Addresses;
use crate::markdown::{code_language, image_source, is_data_table, starts_with_ignore_case};
use crate::{Omit, PageMeta, kept_text_of};

/// trafilatura's XML: `<doc>` with the metadata as attributes, the main content in
/// `<main>`, the readers' comments (when the page has some and they were kept apart) in
/// `<comments>`.
pub fn xml(doc: &Document, view: &TextView, labels: &Labels, meta: &PageMeta<'_>) -> String {
    let mut out = String::from("<doc");
    doc_attributes(doc, meta, &mut out);
    out.push_str(">\n<main>");
    body(doc, view, labels, meta, &mut out);
    out.push_str("\n</main>");
    if let Some(comments) = meta.comments {
        out.push_str("\n<comments>");
        paragraphs(comments, &mut out);
        out.push_str("\n</comments>");
    }
    out.push_str("\n</doc>");
    out
}

/// TEI (P5), as trafilatura writes it: a `teiHeader` with the metadata, the main content in
/// `<div type="entry">` and the comments in `<div type="comments">`.
pub fn tei(doc: &Document, view: &TextView, labels: &Labels, meta: &PageMeta<'_>) -> String {
    let mut out = String::from("<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">\n");
    tei_header(doc, meta, &mut out);
    out.push_str("<text>\n<body>\n<div type=\"entry\">");
    body(doc, view, labels, meta, &mut out);
    out.push_str("\n</div>");
    if let Some(comments) = meta.comments {
        out.push_str("\n<div type=\"comments\">");
        paragraphs(comments, &mut out);
        out.push_str("\n</div>");
    }
    out.push_str("\n</body>\n</text>\n</TEI>");
    out
}

/// The metadata as trafilatura names `<doc>`'s attributes; absent values are left out.
fn doc_attributes(doc: &Document, meta: &PageMeta<'_>, out: &mut String) {
    let m = meta.metadata;
    let title = m.and_then(|m| m.title.clone()).or_else(|| doc.title());
    let url = m
        .and_then(|m| m.canonical_url.as_deref())
        .or(meta.url)
        .map(str::to_owned);
    let hostname = url.as_deref().and_then(host_of).map(str::to_owned);
    let join = |v: &[String], sep: &str| (!v.is_empty()).then(|| v.join(sep));
    let pairs: [(&str, Option<String>); 13] = [
        ("sitename", m.and_then(|m| m.site_name.clone())),
        ("title", title),
        ("author", m.and_then(|m| join(&m.authors, "; "))),
        ("date", m.and_then(|m| m.published.as_deref().map(day))),
        ("url", url),
        ("hostname", hostname),
        ("description", m.and_then(|m| m.description.clone())),
        ("categories", m.and_then(|m| join(&m.categories, ","))),
        ("tags", m.and_then(|m| join(&m.tags, ","))),
        ("license", m.and_then(|m| m.license.clone())),
        ("language", m.and_then(|m| m.language.clone())),
        ("image", m.and_then(|m| m.image.clone())),
        (
            "pagetype",
            m.and_then(|m| m.page_type)
                .and_then(|t| serde_json::to_value(t).ok())
                .and_then(|v| v.as_str().map(str::to_owned)),
        ),
    ];
    for (name, value) in pairs {
        if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
            attribute(name, &value, out);
        }
    }
}

fn tei_header(doc: &Document, meta: &PageMeta<'_>, out: &mut String) {
    let m = meta.metadata;
    let title = m.and_then(|m| m.title.clone()).or_else(|| doc.title());
    out.push_str("<teiHeader>\n<fileDesc>\n<titleStmt>\n");
    element("title type=\"main\"", "title", title.as_deref(), out);
    for author in m.map(|m| m.authors.as_slice()).unwrap_or_default() {
        element("author", "author", Some(author), out);
    }
    out.push_str("</titleStmt>\n<publicationStmt>\n");
    let publisher = m.and_then(|m| m.site_name.as_deref());
    let license = m.and_then(|m| m.license.as_deref());
    if publisher.is_none() && license.is_none() {
        out.push_str("<p/>\n");
    }
    element("publisher", "publisher", publisher, out);
    if let Some(license) = license {
        out.push_str("<availability><p>");
        escape(license, out);
        out.push_str("</p></availability>\n");
    }
    out.push_str("</publicationStmt>\n<sourceDesc>\n<bibl>");
    let url = m.and_then(|m| m.canonical_url.as_deref()).or(meta.url);
    let summary: Vec<&str> = [
        title.as_deref(),
        m.and_then(|m| m.published.as_deref()),
        publisher,
    ]
    .into_iter()
    .flatten()
    .collect();
    escape(&summary.join(", "), out);
    out.push_str("</bibl>\n");
    if let Some(url) = url {
        out.push_str("<ptr type=\"URL\"");
        attribute("target", url, out);
        out.push_str("/>\n");
    }
    out.push_str("</sourceDesc>\n</fileDesc>\n");
    tei_profile(m, out);
    out.push_str("</teiHeader>\n");
}

fn tei_profile(m: Option<&chaff_meta::Metadata>, out: &mut String) {
    let Some(m) = m else { return };
    let keywords = !m.tags.is_empty() || !m.categories.is_empty();
    if m.description.is_none() && !keywords && m.published.is_none() {
        return;
    }
    out.push_str("<profileDesc>\n");
    if let Some(d) = &m.description {
        out.push_str("<abstract><p>");
        escape(d, out);
        out.push_str("</p></abstract>\n");
    }
    if keywords {
        out.push_str("<textClass><keywords>");
        for (kind, terms) in [("categories", &m.categories), ("tags", &m.tags)] {
            if !terms.is_empty() {
                out.push_str("<term type=\"");
                out.push_str(kind);
                out.push_str("\">");
                escape(&terms.join(","), out);
                out.push_str("</term>");
            }
        }
        out.push_str("</keywords></textClass>\n");
    }
    if let Some(date) = &m.published {
        out.push_str("<creation><date");
        attribute("when", date, out);
        out.push_str("/></creation>\n");
    }
    out.push_str("</profileDesc>\n");
}

/// `<open>value</close>` on its own line, when there is a value.
fn element(open: &str, close: &str, value: Option<&str>, out: &mut String) {
    if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
        out.push('<');
        out.push_str(open);
        out.push('>');
        escape(v, out);
        out.push_str("</");
        out.push_str(close);
        out.push_str(">\n");
    }
}

/// One `<p>` per line of already extracted text.
fn paragraphs(text: &str, out: &mut String) {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        out.push_str("\n<p>");
        escape(line, out);
        out.push_str("</p>");
    }
}

/// The calendar day of an ISO 8601 date as the page states it (`2024-05-01T09:00+02:00`
/// gives `2024-05-01`: cut, never shifted to another zone); other values as they are.
fn day(date: &str) -> String {
    let b = date.as_bytes();
    let is_day = b.len() >= 10
        && b[..10].iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if is_day { &date[..10] } else { date }.to_owned()
}

fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split(':').next()?;
    (!host.is_empty()).then_some(host)
}

fn attribute(name: &str, value: &str, out: &mut String) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    escape(value, out);
    out.push('"');
}

/// Escapes for XML 1.0 text and double-quoted attributes, dropping forbidden characters.
fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

/// What an open element may hold, which decides what its children become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `main`, `quote`, `item`, `cell`: blocks, and (except `main`) text of their own.
    Container,
    /// `p`, `head`: text and inline elements only.
    TextBlock,
    /// `code` from `<pre>`: literal text.
    Code,
    /// `list`: items.
    List,
    /// `table`, `row`.
    Table,
    /// `hi`, `ref`, `del`, inline `code`.
    Inline,
}

/// An open element of the output (or a transparent one: `name` empty).
struct Frame {
    /// Where the DOM node's subtree ends (the synthetic `<p>`/`<item>`: its parent's).
    end: u32,
    name: &'static str,
    kind: Kind,
    /// Output length before the open tag and after it (to take an empty element back).
    start: usize,
    content_at: usize,
    /// Opened for loose text, not by a DOM element.
    synthetic: bool,
}

/// Writes the kept part of the page's body as trafilatura's block elements, links and
/// images left out as `meta.omit` says and their addresses made absolute against the page's
/// base (`crate::address`).
fn body(doc: &Document, view: &TextView, labels: &Labels, meta: &PageMeta<'_>, out: &mut String) {
    let root = doc.body().unwrap_or(NodeId::ROOT);
    let addresses = Addresses::new(doc, meta.url);
    let mut w = Writer {
        out,
        frames: Vec::new(),
        pending_space: false,
        omit: meta.omit,
        addresses: &addresses,
    };
    let base = w.out.len();
    w.frames.push(Frame {
        end: doc.subtree_end(root).0,
        name: "main",
        kind: Kind::Container,
        start: base,
        content_at: base,
        synthetic: false,
    });
    let end = doc.subtree_end(root).0;
    let mut segments = SegmentCursor::new(view, root);
    let mut i = root.0 + 1;
    while i < end {
        w.close_ended(i);
        let id = NodeId(i);
        match doc.kind(id) {
            NodeKind::Element => {
                let tag = doc.tag(id);
                if labels.is_removed(id) || is_non_rendered(tag) || is_hidden(doc, id) {
                    i = doc.subtree_end(id).0;
                    continue;
                }
                w.open(doc, id, tag);
            }
            NodeKind::Text => w.text_node(doc, view, labels, id, segments.seek(id)),
            _ => {}
        }
        i += 1;
    }
    w.close_ended(u32::MAX);
}

struct Writer<'o> {
    out: &'o mut String,
    frames: Vec<Frame>,
    pending_space: bool,
    /// What is left out.
    omit: Omit,
    /// Resolves links' and images' addresses.
    addresses: &'o Addresses<'o>,
}

impl Writer<'_> {
    /// Closes every frame whose DOM subtree ends at or before node `i` (the root frame
    /// `main` too when `i` is past everything; its tag is the caller's).
    fn close_ended(&mut self, i: u32) {
        while self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.end <= i) {
            self.pop();
        }
    }

    fn pop(&mut self) {
        let Some(f) = self.frames.pop() else { return };
        if f.kind != Kind::Inline {
            self.pending_space = false;
        }
        if f.name.is_empty() {
            return;
        }
        if self.out.len() == f.content_at {
            self.out.truncate(f.start);
            return;
        }
        if matches!(f.kind, Kind::List | Kind::Table) || f.name == "quote" {
            self.out.push('\n');
        }
        self.out.push_str("</");
        self.out.push_str(f.name);
        self.out.push('>');
    }

    /// The innermost element written (transparent frames skipped).
    fn written(&self) -> Option<&Frame> {
        self.frames.iter().rev().find(|f| !f.name.is_empty())
    }

    /// What the innermost element written may hold.
    fn context(&self) -> Kind {
        self.written().map_or(Kind::Container, |f| f.kind)
    }

    fn in_code(&self) -> bool {
        self.frames.iter().any(|f| f.kind == Kind::Code)
    }

    /// A block boundary: a synthetic `<p>`/`<item>` on top is closed.
    fn boundary(&mut self) {
        while self.frames.last().is_some_and(|f| f.synthetic) {
            self.pop();
        }
        self.pending_space = false;
    }

    fn push(&mut self, end: u32, name: &'static str, kind: Kind, attrs: &[(&str, &str)]) {
        let start = self.out.len();
        if !name.is_empty() {
            if !matches!(kind, Kind::Inline) {
                self.out.push('\n');
            }
            self.out.push('<');
            self.out.push_str(name);
            for (k, v) in attrs {
                attribute(k, v, self.out);
            }
            self.out.push('>');
        }
        let content_at = self.out.len();
        self.frames.push(Frame {
            end,
            name,
            kind,
            start,
            content_at,
            synthetic: false,
        });
    }

    /// Before inline content: a `<p>` (in `main`, a quote or a cell… with blocks) or an
    /// `<item>` (in a list) is opened when the content would be loose, then the owed space.
    fn begin_inline(&mut self, end: u32) {
        let loose = match self.context() {
            Kind::List => Some("item"),
            Kind::Container if self.top_written_is("main") => Some("p"),
            _ => None,
        };
        if let Some(name) = loose {
            let kind = if name == "item" {
                Kind::Container
            } else {
                Kind::TextBlock
            };
            self.push(end, name, kind, &[]);
            if let Some(f) = self.frames.last_mut() {
                f.synthetic = true;
            }
            self.pending_space = false;
        }
        if self.pending_space {
            let has_content = self
                .frames
                .iter()
                .rev()
                .find(|f| !f.name.is_empty() && f.kind != Kind::Inline)
                .is_some_and(|f| self.out.len() > f.content_at);
            if has_content && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
            }
            self.pending_space = false;
        }
    }

    fn top_written_is(&self, name: &str) -> bool {
        self.written().is_some_and(|f| f.name == name)
    }

    /// Where a synthetic element opened now closes: with the innermost block around it
    /// (a transparent `<span>` does not end a paragraph).
    fn parent_end(&self) -> u32 {
        self.frames
            .iter()
            .rev()
            .find(|f| f.kind != Kind::Inline)
            .map_or(u32::MAX, |f| f.end)
    }

    /// Writes text node `id`, whose segment in `view` is `segment` (none: nothing visible).
    fn text_node(
        &mut self,
        doc: &Document,
        view: &TextView,
        labels: &Labels,
        id: NodeId,
        segment: Option<&Segment>,
    ) {
        let Some(t) = segment.and_then(|seg| kept_text_of(view, labels, seg)) else {
            if !labels.is_removed(id) && !doc.text(id).is_empty() {
                self.pending_space = true;
            }
            return;
        };
        if self.in_code() {
            escape(&t, self.out);
            return;
        }
        let raw = doc.text(id);
        if raw.starts_with(|c: char| c.is_ascii_whitespace()) {
            self.pending_space = true;
        }
        self.begin_inline(self.parent_end());
        escape(&t, self.out);
        self.pending_space = raw.ends_with(|c: char| c.is_ascii_whitespace());
    }

    fn open(&mut self, doc: &Document, id: NodeId, tag: &str) {
        let end = doc.subtree_end(id).0;
        if self.in_code() {
            if tag == "br" {
                self.out.push('\n');
            }
            return self.push(end, "", Kind::Inline, &[]);
        }
        let context = self.context();
        let in_text = matches!(context, Kind::TextBlock | Kind::Inline);
        match tag {
            "br" => {
                let has_text = self
                    .written()
                    .is_some_and(|f| self.out.len() > f.content_at);
                if in_text && has_text {
                    self.out.push_str("<lb/>");
                    self.pending_space = false;
                } else if !in_text {
                    self.boundary();
                }
                self.push(end, "", Kind::Inline, &[]);
            }
            "img" if self.omit.images => self.push(end, "", Kind::Inline, &[]),
            "img" => {
                if let Some(src) = image_source(doc, id) {
                    self.begin_inline(self.parent_end());
                    self.out.push_str("<graphic");
                    attribute("src", &self.addresses.resolve(src), self.out);
                    if let Some(alt) = doc.attr(id, "alt").map(str::trim).filter(|a| !a.is_empty())
                    {
                        attribute("alt", alt, self.out);
                    }
                    self.out.push_str("/>");
                }
                self.push(end, "", Kind::Inline, &[]);
            }
            _ if is_block(tag) && in_text => self.push(end, "", Kind::Inline, &[]),
            _ if is_block(tag) => self.open_block(doc, id, tag, end, context),
            _ => self.open_inline(doc, id, tag, end),
        }
    }

    fn open_block(&mut self, doc: &Document, id: NodeId, tag: &str, end: u32, context: Kind) {
        self.boundary();
        let in_table = context == Kind::Table;
        match tag {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.push(end, "head", Kind::TextBlock, &[("rend", tag)])
            }
            "p" => self.push(end, "p", Kind::TextBlock, &[]),
            "ul" | "menu" => self.push(end, "list", Kind::List, &[("rend", "ul")]),
            "ol" => self.push(end, "list", Kind::List, &[("rend", "ol")]),
            "dl" => self.push(end, "list", Kind::List, &[("rend", "dl")]),
            "li" | "dt" | "dd" => self.push(end, "item", Kind::Container, &[]),
            "blockquote" => self.push(end, "quote", Kind::Container, &[]),
            "pre" => match code_language(doc, id) {
                Some(lang) if !lang.is_empty() => {
                    self.push(end, "code", Kind::Code, &[("lang", lang)])
                }
                _ => self.push(end, "code", Kind::Code, &[]),
            },
            "table" if is_data_table(doc, id) => self.push(end, "table", Kind::Table, &[]),
            "tr" if in_table => self.push(end, "row", Kind::Table, &[]),
            "th" if in_table => self.push(end, "cell", Kind::Container, &[("role", "head")]),
            "td" if in_table => self.push(end, "cell", Kind::Container, &[]),
            _ => self.push(end, "", Kind::Container, &[]),
        }
    }

    fn open_inline(&mut self, doc: &Document, id: NodeId, tag: &str, end: u32) {
        let target;
        let (name, attrs): (&'static str, Vec<(&str, &str)>) = match tag {
            "b" | "strong" => ("hi", vec![("rend", "#b")]),
            "i" | "em" => ("hi", vec![("rend", "#i")]),
            "u" => ("hi", vec![("rend", "#u")]),
            "tt" | "kbd" | "samp" => ("hi", vec![("rend", "#t")]),
            "sub" => ("hi", vec![("rend", "#sub")]),
            "sup" => ("hi", vec![("rend", "#sup")]),
            "del" | "s" | "strike" => ("del", Vec::new()),
            "code" => ("code", Vec::new()),
            "a" => match doc.attr(id, "href").map(str::trim) {
                Some(h)
                    if !self.omit.links
                        && !h.is_empty()
                        && !h.starts_with('#')
                        && !starts_with_ignore_case(h, "javascript:") =>
                {
                    target = self.addresses.resolve(h);
                    ("ref", vec![("target", &*target)])
                }
                _ => ("", Vec::new()),
            },
            _ => ("", Vec::new()),
        };
        if !name.is_empty() {
            self.begin_inline(self.parent_end());
        }
        self.push(end, name, Kind::Inline, &attrs);
    }
}

/// Tags that start a block of their own (everything else is inline); the Markdown writer
/// asks the same question.
pub(crate) fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "h1" | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "p"
            | "div"
            | "section"
            | "article"
            | "main"
            | "header"
            | "footer"
            | "aside"
            | "nav"
            | "figure"
            | "figcaption"
            | "address"
            | "details"
            | "summary"
            | "center"
            | "form"
            | "fieldset"
            | "ul"
            | "ol"
            | "menu"
            | "li"
            | "dl"
            | "dt"
            | "dd"
            | "blockquote"
            | "pre"
            | "hr"
            | "table"
            | "caption"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_xml(html: &str) -> String {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let labels = Labels::all_content(doc.len());
        xml(&doc, &view, &labels, &PageMeta::default())
    }

    fn main_of(x: &str) -> String {
        let start = x.find("<main>").unwrap() + "<main>".len();
        let end = x.find("</main>").unwrap();
        x[start..end].replace('\n', "")
    }

    #[test]
    fn link_and_image_addresses_are_absolute() {
        let doc = chaff_dom::parse(
            b"<p><a href='../a'>A</a> <a href='mailto:x@example.org'>M</a></p>\
              <img src='/i.png' alt=i>",
        )
        .unwrap();
        let view = TextView::new(&doc);
        let meta = PageMeta {
            url: Some("http://example.org/x/y/z.html"),
            ..PageMeta::default()
        };
        let x = xml(&doc, &view, &Labels::all_content(doc.len()), &meta);
        let main = main_of(&x);
        assert!(
            main.contains("<ref target=\"http://example.org/x/a\">A</ref>"),
            "{main}"
        );
        assert!(
            main.contains("<ref target=\"mailto:x@example.org\">M</ref>"),
            "{main}"
        );
        assert!(
            main.contains("<graphic src=\"http://example.org/i.png\" alt=\"i\"/>"),
            "{main}"
        );
    }

    #[test]
    fn blocks_get_trafilatura_names() {
        let x = page_xml(
            "<h2>Top</h2><p>One <b>bold</b> and <i>it</i> <a href='/x'>link</a>.</p>\
             <ul><li>a</li><li>b<ol><li>c</li></ol></li></ul><blockquote>q</blockquote>\
             <pre class='language-rust'>fn x() {\n  <b>y</b>\n}</pre>",
        );
        assert_eq!(
            main_of(&x),
            "<head rend=\"h2\">Top</head><p>One <hi rend=\"#b\">bold</hi> and \
             <hi rend=\"#i\">it</hi> <ref target=\"/x\">link</ref>.</p>\
             <list rend=\"ul\"><item>a</item><item>b<list rend=\"ol\"><item>c</item></list></item></list>\
             <quote>q</quote><code lang=\"rust\">fn x() {  y}</code>"
        );
    }

    #[test]
    fn a_lexer_that_names_no_language_gives_no_lang() {
        let x = page_xml(
            "<div class='highlight-default'><div class='highlight'><pre>$ ls</pre></div></div>\
             <div class='highlight-python3'><div class='highlight'><pre>x</pre></div></div>",
        );
        assert_eq!(
            main_of(&x),
            "<code>$ ls</code><code lang=\"python3\">x</code>"
        );
    }

    #[test]
    fn a_graphic_is_where_its_address_is() {
        let x = page_xml(
            "<p>a <img src='data:image/gif;base64,R0lG' data-lazy-src='/a.jpg' alt='A'>\
             <img src='data:image/gif;base64,R0lG'></p>",
        );
        assert_eq!(main_of(&x), "<p>a <graphic src=\"/a.jpg\" alt=\"A\"/></p>");
    }

    #[test]
    fn loose_text_gets_a_paragraph_and_breaks_are_lb() {
        let x = page_xml("<div>first<br>second</div><div><span>third</span></div>");
        assert_eq!(main_of(&x), "<p>first<lb/>second</p><p>third</p>");
    }

    #[test]
    fn data_tables_only() {
        let x = page_xml(
            "<table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>\
             <table><tr><td>layout</td></tr></table>",
        );
        assert_eq!(
            main_of(&x),
            "<table><row><cell role=\"head\">k</cell><cell role=\"head\">v</cell></row>\
             <row><cell>1</cell><cell>2</cell></row></table><p>layout</p>"
        );
    }

    #[test]
    fn removed_text_leaves_no_empty_elements() {
        let doc =
            chaff_dom::parse(b"<p>kept <a href='/a'>gone</a></p><ul><li>gone</li></ul>").unwrap();
        let view = TextView::new(&doc);
        let mut labels = Labels::all_content(doc.len());
        for tag in ["a", "li"] {
            let id = doc.find_tag(tag).unwrap();
            labels.set_subtree(&doc, id, 1.0, chaff_core::Role::Template);
        }
        let x = xml(&doc, &view, &labels, &PageMeta::default());
        assert_eq!(main_of(&x), "<p>kept</p>");
    }

    #[test]
    fn forbidden_characters_are_dropped_and_markup_escaped() {
        let x = page_xml("<p>a\u{1}b &lt;c&gt; &amp; \"d\"</p>");
        assert_eq!(main_of(&x), "<p>ab &lt;c&gt; &amp; &quot;d&quot;</p>");
    }

    #[test]
    fn dates_are_cut_to_the_day_never_shifted() {
        assert_eq!(day("2024-05-01T23:30:00-05:00"), "2024-05-01");
        assert_eq!(day("May 2024"), "May 2024");
        assert_eq!(
            host_of("https://u@News.example.org:8080/x"),
            Some("News.example.org")
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of a page: tags of every kind the writer maps, text with XML's special and
    /// forbidden characters.
    fn piece() -> impl Strategy<Value = String> {
        let tags = [
            "p",
            "div",
            "span",
            "b",
            "i",
            "a href='/x'",
            "ul",
            "ol",
            "li",
            "h2",
            "blockquote",
            "pre",
            "code",
            "table",
            "tr",
            "td",
            "th",
            "br",
            "img src='i.png'",
            "dl",
            "dd",
            "sub",
        ];
        prop_oneof![
            proptest::sample::select(tags.to_vec()).prop_map(|t| format!("<{t}>")),
            proptest::sample::select(tags.to_vec())
                .prop_map(|t| format!("</{}>", t.split(' ').next().unwrap_or(t))),
            "[a-z<>&\"' \u{1}\u{b}\n]{1,8}".prop_map(|s| s.replace('<', "&lt;")),
        ]
    }

    fn squeeze(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    }

    proptest! {
        /// Whatever the page and whatever was removed, the XML parses and holds exactly the
        /// kept text, as the plain-text output does.
        #[test]
        fn always_well_formed_and_holds_the_kept_text(
            pieces in proptest::collection::vec(piece(), 0..40),
            removed in proptest::collection::vec(any::<bool>(), 64),
        ) {
            let html = pieces.concat();
            // A page the parser refuses (it reads as binary) has no XML to check.
            let parsed = chaff_dom::parse(html.as_bytes());
            prop_assume!(parsed.is_ok());
            let doc = parsed.unwrap();
            let view = TextView::new(&doc);
            let mut labels = Labels::all_content(doc.len());
            for id in doc.ids() {
                if removed[id.0 as usize % removed.len()] && id.0 % 3 == 0 {
                    labels.set_subtree(&doc, id, 1.0, chaff_core::Role::Template);
                }
            }
            let out = xml(&doc, &view, &labels, &PageMeta::default());
            let parsed = roxmltree::Document::parse(&out);
            prop_assert!(parsed.is_ok(), "{:?}\n{}", parsed.err(), out);
            let parsed = parsed.unwrap();
            let main = parsed.descendants().find(|n| n.has_tag_name("main")).unwrap();
            let kept: String = main.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect();
            let forbidden = |c: char| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r');
            let text = crate::text(&view, &labels).replace(forbidden, "");
            prop_assert_eq!(squeeze(&kept), squeeze(&text));
        }
    }
}
