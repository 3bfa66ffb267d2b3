//! HTML serialisation of a subtree, with hooks to leave nodes out or replace a text node's data.
//!
//! Iterative (an explicit stack of open elements), so arbitrarily deep documents serialise
//! without recursion. Escaping follows the HTML standard's fragment serialisation algorithm.

use std::borrow::Cow;

use crate::document::{Document, NodeId, NodeKind};

/// Decides what a serialisation includes. The defaults include everything unchanged.
pub trait SerializeFilter {
    /// Whether to write `id` and its subtree.
    fn include(&self, _doc: &Document, _id: NodeId) -> bool {
        true
    }

    /// The data to write for the text node `id`.
    fn text<'d>(&self, doc: &'d Document, id: NodeId) -> Cow<'d, str> {
        Cow::Borrowed(doc.text(id))
    }

    /// Whether to write the element `id`'s children without its own tags (a link written
    /// as its text). Asked only of elements [`SerializeFilter::include`] keeps.
    fn unwrap(&self, _doc: &Document, _id: NodeId) -> bool {
        false
    }
}

/// The filter that keeps everything.
pub struct All;

impl SerializeFilter for All {}

/// Elements without an end tag.
pub fn is_void(tag: &str) -> bool {
    matches!(
        tag,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

fn is_raw_text(tag: &str) -> bool {
    matches!(
        tag,
        "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext" | "noscript"
    )
}

/// Serialises the node `root` (itself included, unless it is the document) to HTML.
pub fn to_html(doc: &Document, root: NodeId) -> String {
    let mut out = String::new();
    write_html(doc, root, &All, &mut out);
    out
}

/// Serialises `root` and its subtree into `out`, consulting `filter`.
pub fn write_html(doc: &Document, root: NodeId, filter: &dyn SerializeFilter, out: &mut String) {
    let end = doc.subtree_end(root).0;
    // Open elements: (subtree end, id).
    let mut open: Vec<(u32, NodeId)> = Vec::new();
    let mut i = root.0;
    while i < end {
        while let Some(&(e, el)) = open.last() {
            if e > i {
                break;
            }
            close_tag(doc, el, out);
            open.pop();
        }
        let id = NodeId(i);
        if !filter.include(doc, id) {
            i = doc.subtree_end(id).0;
            continue;
        }
        match doc.kind(id) {
            NodeKind::Document => {}
            NodeKind::Doctype => {
                out.push_str("<!DOCTYPE ");
                out.push_str(doc.text(id));
                out.push('>');
            }
            NodeKind::Comment => {
                out.push_str("<!--");
                out.push_str(doc.text(id));
                out.push_str("-->");
            }
            NodeKind::ProcessingInstruction => {
                out.push_str("<?");
                out.push_str(doc.text(id));
                out.push('>');
            }
            NodeKind::Text => {
                let text = filter.text(doc, id);
                let raw = doc
                    .parent(id)
                    .is_some_and(|p| doc.is_element(p) && is_raw_text(doc.tag(p)));
                if raw {
                    out.push_str(&text);
                } else {
                    escape_text(&text, out);
                }
            }
            NodeKind::Element if filter.unwrap(doc, id) => {}
            NodeKind::Element => {
                let tag = doc.tag(id);
                out.push('<');
                out.push_str(tag);
                for a in doc.attrs(id) {
                    out.push(' ');
                    out.push_str(&a.name);
                    out.push_str("=\"");
                    escape_attr(&a.value, out);
                    out.push('"');
                }
                out.push('>');
                if !is_void(tag) {
                    open.push((doc.subtree_end(id).0, id));
                }
            }
        }
        i += 1;
    }
    while let Some((_, el)) = open.pop() {
        close_tag(doc, el, out);
    }
}

fn close_tag(doc: &Document, id: NodeId, out: &mut String) {
    out.push_str("</");
    out.push_str(doc.tag(id));
    out.push('>');
}

/// Escapes text content: `&`, `<`, `>` and U+00A0.
pub fn escape_text(s: &str, out: &mut String) {
    escape(s, out, false);
}

/// Escapes an attribute value (double-quoted): `&`, `"` and U+00A0.
pub fn escape_attr(s: &str, out: &mut String) {
    escape(s, out, true);
}

fn escape(s: &str, out: &mut String, attr: bool) {
    let mut last = 0;
    for (i, c) in s.char_indices() {
        let rep = match c {
            '&' => "&amp;",
            '\u{a0}' => "&nbsp;",
            '<' if !attr => "&lt;",
            '>' if !attr => "&gt;",
            '"' if attr => "&quot;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + c.len_utf8();
    }
    out.push_str(&s[last..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn round_trip_of_body() {
        let doc = parse(br#"<p class="a&quot;b">x &amp; &lt;y&gt;<br>z<img src=i></p><script>if (a<b) {}</script>"#).unwrap();
        let body = doc.body().unwrap();
        assert_eq!(
            to_html(&doc, body),
            r#"<body><p class="a&quot;b">x &amp; &lt;y&gt;<br>z<img src="i"></p><script>if (a<b) {}</script></body>"#
        );
    }

    #[test]
    fn an_unwrapped_element_writes_its_children_alone() {
        struct F;
        impl SerializeFilter for F {
            fn unwrap(&self, doc: &Document, id: NodeId) -> bool {
                doc.is_tag(id, "a")
            }
        }
        let doc = parse(b"<p>see <a href=x><b>this</b> page</a>, <a>and</a> more</p>").unwrap();
        let mut out = String::new();
        write_html(&doc, doc.body().unwrap(), &F, &mut out);
        assert_eq!(out, "<body><p>see <b>this</b> page, and more</p></body>");
    }

    #[test]
    fn filter_drops_and_rewrites() {
        struct F;
        impl SerializeFilter for F {
            fn include(&self, doc: &Document, id: NodeId) -> bool {
                !doc.is_tag(id, "nav")
            }
            fn text<'d>(&self, doc: &'d Document, id: NodeId) -> Cow<'d, str> {
                Cow::Owned(doc.text(id).to_uppercase())
            }
        }
        let doc = parse(b"<div><nav><a>m</a></nav><p>keep</p></div>").unwrap();
        let div = doc.find_tag("div").unwrap();
        let mut out = String::new();
        write_html(&doc, div, &F, &mut out);
        assert_eq!(out, "<div><p>KEEP</p></div>");
    }

    #[test]
    fn deep_document_serialises() {
        let mut html = String::new();
        for _ in 0..5000 {
            html.push_str("<span>");
        }
        let opts = crate::ParseOptions {
            max_depth: 10_000,
            ..Default::default()
        };
        let doc = crate::parse_with(html.as_bytes(), &opts).unwrap();
        assert!(doc.ids().map(|i| doc.depth(i)).max().unwrap() > 5000);
        let s = to_html(&doc, NodeId::ROOT);
        assert_eq!(s.matches("</span>").count(), 5000);
    }
}
