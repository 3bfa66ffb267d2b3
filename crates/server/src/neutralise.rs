//! A page made safe to show in the inspector: nothing in it can run, and nothing can load
//! from outside.
//!
//! The inspector shows a page in an iframe sandboxed without `allow-scripts`, under a
//! Content-Security-Policy (the inspector's own, which a `srcdoc` frame inherits, and one
//! written into the page's head). This module is the third layer, on the server: the page is
//! re-serialised from chaff's parse with scripts, frames, plug-ins, `<base>`, `<link>` and
//! `<meta http-equiv>` left out, every `on*` attribute and every attribute that names a URL
//! removed (a link's address is kept as `data-chaff-href`, shown on hover; an image given
//! inline as `data:image/...` stays), `javascript:` values dropped whatever their
//! attribute, and CSS `url(...)`, `image-set(...)`, `expression(...)` and `@import` made
//! inert. Every element gets `data-chaff-id`, its node id in chaff's document, and every
//! visible text node is wrapped in `<chaff-t data-chaff-id=...>` so that a text node's own
//! label can be shown. Iterative, like every walk over a document.

use chaff::dom::serialize::{escape_attr, escape_text, is_void};
use chaff::dom::{Document, ElementNs, NodeId, NodeKind};

/// The policy written into the page: inline styles and `data:` images only.
pub const PAGE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     font-src data:; form-action 'none'; base-uri 'none'";

/// Elements left out with their subtree.
const DROPPED: &[&str] = &[
    "script",
    "noscript",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "base",
    "link",
    "portal",
    "fencedframe",
    "template",
    "param",
    // SVG animation can set attributes (an `href`) after the fact.
    "set",
    "animate",
    "animatemotion",
    "animatetransform",
    "discard",
    "handler",
    "listener",
];

/// Attributes whose value is a URL the browser would fetch or follow.
const URL_ATTRS: &[&str] = &[
    "src",
    "srcset",
    "href",
    "action",
    "formaction",
    "poster",
    "background",
    "data",
    "ping",
    "lowsrc",
    "dynsrc",
    "codebase",
    "cite",
    "longdesc",
    "manifest",
    "archive",
    "classid",
    "profile",
    "icon",
    "imagesrcset",
    "srcdoc",
    "attributionsrc",
];

/// Parents whose text is raw (written as is).
fn is_raw_text(tag: &str) -> bool {
    matches!(
        tag,
        "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext" | "noscript"
    )
}

/// Parents whose text must not be wrapped in an element.
fn keeps_bare_text(tag: &str) -> bool {
    is_raw_text(tag)
        || matches!(
            tag,
            "title"
                | "textarea"
                | "option"
                | "optgroup"
                | "select"
                | "datalist"
                | "table"
                | "tbody"
                | "thead"
                | "tfoot"
                | "tr"
                | "colgroup"
                | "head"
                | "html"
        )
}

/// The page as HTML safe to show, with node ids (see the module docs).
pub fn neutralise(doc: &Document) -> String {
    let mut out = String::with_capacity(doc.source_len() + doc.len() * 24 + 256);
    let root = NodeId(0);
    let end = doc.subtree_end(root).0;
    let mut open: Vec<(u32, NodeId)> = Vec::new();
    let mut policy_written = false;
    let mut i = root.0;
    while i < end {
        while let Some(&(e, el)) = open.last() {
            if e > i {
                break;
            }
            close(doc, el, &mut out);
            open.pop();
        }
        let id = NodeId(i);
        let kind = doc.kind(id);
        if !policy_written
            && !matches!(
                kind,
                NodeKind::Document | NodeKind::Doctype | NodeKind::Comment
            )
        {
            out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"");
            escape_attr(PAGE_CSP, &mut out);
            out.push_str("\">");
            policy_written = true;
        }
        match kind {
            NodeKind::Document | NodeKind::ProcessingInstruction => {}
            NodeKind::Doctype => {
                out.push_str("<!DOCTYPE ");
                out.push_str(doc.text(id));
                out.push('>');
            }
            NodeKind::Comment => {
                // A comment's text cannot end it early: the parser stopped at its `-->`.
                out.push_str("<!--");
                out.push_str(&doc.text(id).replace("--", "- -"));
                out.push_str("-->");
            }
            NodeKind::Text => text(doc, id, &mut out),
            NodeKind::Element => {
                let tag = doc.tag(id);
                if dropped(doc, id) {
                    i = doc.subtree_end(id).0;
                    continue;
                }
                out.push('<');
                out.push_str(tag);
                attributes(doc, id, &mut out);
                out.push_str(" data-chaff-id=\"");
                out.push_str(&id.0.to_string());
                out.push_str("\">");
                if !is_void(tag) {
                    open.push((doc.subtree_end(id).0, id));
                }
            }
        }
        i += 1;
    }
    while let Some((_, el)) = open.pop() {
        close(doc, el, &mut out);
    }
    if !policy_written {
        out.insert_str(
            0,
            &format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{PAGE_CSP}\">"),
        );
    }
    out
}

fn dropped(doc: &Document, id: NodeId) -> bool {
    let tag = doc.tag(id);
    DROPPED.contains(&tag.to_ascii_lowercase().as_str())
        || (tag == "meta" && doc.attr(id, "http-equiv").is_some())
}

fn close(doc: &Document, id: NodeId, out: &mut String) {
    out.push_str("</");
    out.push_str(doc.tag(id));
    out.push('>');
}

fn text(doc: &Document, id: NodeId, out: &mut String) {
    let data = doc.text(id);
    let parent = doc.parent(id).filter(|&p| doc.is_element(p));
    let parent_tag = parent.map(|p| doc.tag(p));
    if let Some(tag) = parent_tag.filter(|t| is_raw_text(t)) {
        if tag == "style" {
            out.push_str(&neutralise_css(data));
        } else {
            out.push_str(data);
        }
        return;
    }
    let wrap = !data.trim().is_empty()
        && parent.is_some_and(|p| doc.namespace(p) == ElementNs::Html)
        && !parent_tag.is_some_and(keeps_bare_text);
    if wrap {
        out.push_str("<chaff-t data-chaff-id=\"");
        out.push_str(&id.0.to_string());
        out.push_str("\">");
        escape_text(data, out);
        out.push_str("</chaff-t>");
    } else {
        escape_text(data, out);
    }
}

fn attributes(doc: &Document, id: NodeId, out: &mut String) {
    let tag = doc.tag(id);
    for a in doc.attrs(id) {
        let name: &str = &a.name;
        let lower = name.to_ascii_lowercase();
        let local = lower.rsplit(':').next().unwrap_or(&lower);
        if lower.starts_with("on")
            || local.starts_with("on")
            || lower.starts_with("data-chaff-")
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
        {
            continue;
        }
        let value: &str = &a.value;
        let squeezed: String = value
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control())
            .flat_map(char::to_lowercase)
            .collect();
        if squeezed.starts_with("javascript:") || squeezed.starts_with("vbscript:") {
            continue;
        }
        if URL_ATTRS.contains(&local) {
            let inline_image =
                local == "src" && tag == "img" && squeezed.starts_with("data:image/");
            if !inline_image {
                if local == "href" {
                    out.push_str(" data-chaff-href=\"");
                    escape_attr(value, out);
                    out.push('"');
                }
                continue;
            }
        }
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        if local == "style" {
            escape_attr(&neutralise_css(value), out);
        } else {
            escape_attr(value, out);
        }
        out.push('"');
    }
}

/// CSS with nothing that fetches: `url(`, `image-set(`, `expression(` and `@import` renamed
/// into unknown functions and rules (which browsers skip), and escapes removed so that none
/// of them can be spelled in another way.
pub(crate) fn neutralise_css(css: &str) -> String {
    let plain: String = css.chars().filter(|&c| c != '\\').collect();
    let mut out = String::with_capacity(plain.len());
    let lower = plain.to_ascii_lowercase();
    let mut i = 0;
    while i < plain.len() {
        let rest = &lower[i..];
        let hit = ["url(", "image-set(", "expression(", "@import", "src("]
            .iter()
            .find(|p| rest.starts_with(**p));
        match hit {
            Some(p) => {
                out.push_str(if p.starts_with('@') {
                    "@chaff-blocked"
                } else {
                    "chaff-blocked("
                });
                i += p.len();
            }
            None => {
                let c = plain[i..].chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn safe(html: &str) -> String {
        neutralise(&chaff::dom::parse(html.as_bytes()).expect("parses"))
    }

    #[test]
    fn scripts_handlers_and_urls_are_gone() {
        let out = safe(
            "<!DOCTYPE html><html><head><script>alert(1)</script>\
             <link rel=stylesheet href=http://x/s.css><base href=http://x/>\
             <meta http-equiv=refresh content='0;url=http://x/'></head>\
             <body onload=alert(2)><a href=\"javascript:alert(3)\">a</a>\
             <a href=/next title=t>b</a><img src=http://x/i.png onerror=alert(4)>\
             <img src=\"data:image/png;base64,AA==\"><iframe src=http://x/f></iframe>\
             <div style=\"background:URL(http://x/b.png)\">c</div>\
             <style>@import 'http://x/i.css'; p{background:u\\72l(http://x/e.png)}</style>\
             <svg><a xlink:href=http://x/s><text>d</text></a></svg></body></html>",
        );
        for bad in [
            "<script",
            "alert",
            "http://x/s.css",
            "<base",
            "refresh",
            "<iframe",
            "http://x/i.png",
            "url(",
            "URL(",
            "@import",
            "http://x/f",
        ] {
            assert!(!out.contains(bad), "{bad} left in {out}");
        }
        assert!(out.contains("data-chaff-href=\"/next\""), "{out}");
        assert!(out.contains("title=\"t\""));
        assert!(out.contains("src=\"data:image/png;base64,AA==\""));
        assert!(out.starts_with("<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\""));
    }

    #[test]
    fn every_element_and_text_has_its_id() {
        let html = "<html><head><title>T</title></head><body><p>One <b>two</b></p>\
                    <table><tr><td>x</td></tr></table></body></html>";
        let doc = chaff::dom::parse(html.as_bytes()).expect("parses");
        let out = neutralise(&doc);
        for id in doc.ids().filter(|&n| doc.is_element(n)) {
            assert!(
                out.contains(&format!("data-chaff-id=\"{}\"", id.0)),
                "{id:?} in {out}"
            );
        }
        let p = doc.find_tag("p").expect("p");
        let one = doc.first_child(p).expect("text");
        assert!(out.contains(&format!(
            "<chaff-t data-chaff-id=\"{}\">One </chaff-t>",
            one.0
        )));
        assert!(
            out.contains("<title data-chaff-id=\"3\">T</title>"),
            "{out}"
        );
        // Re-parsed, the page keeps its structure: one element per element, none lost.
        let again = chaff::dom::parse(out.as_bytes()).expect("parses");
        let tags = |d: &Document| {
            d.ids()
                .filter(|&n| d.is_element(n) && d.tag(n) != "chaff-t" && d.tag(n) != "meta")
                .count()
        };
        assert_eq!(tags(&again), tags(&doc));
    }

    #[test]
    fn css_escapes_and_cases_cannot_spell_a_fetch() {
        assert_eq!(neutralise_css("a{b:URL(x)}"), "a{b:chaff-blocked(x)}");
        assert!(
            !neutralise_css("a{b:u\\72 l(x)}")
                .to_ascii_lowercase()
                .contains("url(")
        );
        assert_eq!(neutralise_css("@IMPORT 'x';"), "@chaff-blocked 'x';");
        assert_eq!(neutralise_css("p{color:red}"), "p{color:red}");
    }
}
