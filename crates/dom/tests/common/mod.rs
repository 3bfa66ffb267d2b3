//! Shared helpers of the differential tests: parse with both tokenizers, compare everything.

#![allow(dead_code)]

use std::fmt::Write;

use chaff_dom::serialize::to_html;
use chaff_dom::{Document, NodeId, NodeKind, ParseOptions, TokenizerKind, parse_str};

/// Everything a consumer can observe about a document, one line per node.
pub fn dump(doc: &Document) -> String {
    let mut out = String::new();
    for id in doc.ids() {
        let _ = write!(
            out,
            "{}{:?} line={}",
            "  ".repeat(doc.depth(id) as usize),
            doc.kind(id),
            doc.source_line(id)
        );
        match doc.kind(id) {
            NodeKind::Element => {
                let _ = write!(out, " {:?}:{}", doc.namespace(id), doc.tag(id));
                for a in doc.attrs(id) {
                    let _ = write!(out, " {}={:?}", &*a.name, &*a.value);
                }
            }
            _ => {
                let _ = write!(out, " {:?}", doc.text(id));
            }
        }
        out.push('\n');
    }
    out
}

/// Whether two documents are identical in everything [`dump`] shows (cheaper than dumping).
pub fn same_document(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.ids().all(|id| {
            a.kind(id) == b.kind(id)
                && a.depth(id) == b.depth(id)
                && a.source_line(id) == b.source_line(id)
                && match a.kind(id) {
                    NodeKind::Element => {
                        a.namespace(id) == b.namespace(id)
                            && a.tag(id) == b.tag(id)
                            && a.attrs(id) == b.attrs(id)
                    }
                    _ => a.text(id) == b.text(id),
                }
        })
}

pub fn parse_both(html: &str) -> (Document, Document) {
    let opts = |tokenizer| ParseOptions {
        tokenizer,
        reject_binary: false,
        max_bytes: usize::MAX,
        ..ParseOptions::default()
    };
    let fast = parse_str(html, &opts(TokenizerKind::Fast)).expect("within limits");
    let reference = parse_str(html, &opts(TokenizerKind::Html5ever)).expect("within limits");
    (fast, reference)
}

/// `None` if both tokenizers give the same document, else a description of the first
/// difference.
pub fn difference(html: &str) -> Option<String> {
    let (fast, reference) = parse_both(html);
    if same_document(&fast, &reference)
        && to_html(&fast, NodeId::ROOT) == to_html(&reference, NodeId::ROOT)
    {
        return None;
    }
    let (a, b) = (dump(&fast), dump(&reference));
    let al: Vec<&str> = a.lines().collect();
    let bl: Vec<&str> = b.lines().collect();
    let i = al
        .iter()
        .zip(&bl)
        .position(|(x, y)| x != y)
        .unwrap_or(al.len().min(bl.len()));
    let from = i.saturating_sub(3);
    let mut cut = html.len().min(2000);
    while !html.is_char_boundary(cut) {
        cut -= 1;
    }
    Some(format!(
        "input {:?}\nfirst difference at node {i}\nfast:\n{}\nhtml5ever:\n{}",
        &html[..cut],
        al[from..al.len().min(i + 4)].join("\n"),
        bl[from..bl.len().min(i + 4)].join("\n"),
    ))
}
