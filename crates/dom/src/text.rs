//! The visible-text view: what a reader sees of a page, as one string whose every character
//! maps back to the text node it came from.
//!
//! Rules, chosen to approximate a browser's rendering without a layout engine:
//! * `script`, `style`, `template`, `head` and similar non-rendered subtrees are skipped
//!   (`noscript` is rendered: chaff reads pages as a browser with scripting off does), as
//!   are comments and elements with the `hidden` attribute (except the segments React's
//!   streaming rendering sends hidden for its script to reveal, `id="S:…"`) or an inline
//!   `display:none` / `visibility:hidden` style, unless that element is the page's cover
//!   ([`is_page_cover`]: hiding it would hide the whole page, which its script shows once
//!   loaded) or the main region's ([`is_main_cover`]: the page's `<main>` has nothing else
//!   to show);
//! * runs of ASCII whitespace collapse to one space (not inside `pre`, `textarea`, `listing`);
//!   U+00A0 is kept, as browsers keep it;
//! * block-level elements, `br` and table cells start a new line.
//!
//! Each text node with visible characters owns one contiguous [`Segment`] of the view. The
//! characters between segments (a collapsed space, a line break) belong to no node.

use std::ops::Range;

use html5ever::local_name;

use crate::document::{Document, NodeId, NodeKind};

/// The part of the view that one text node produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First byte of the node's text in the view.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// The text node.
    pub node: NodeId,
}

impl Segment {
    /// The segment's byte range in the view.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A page's visible text with its map back to text nodes.
#[derive(Clone, Debug, Default)]
pub struct TextView {
    text: String,
    segments: Vec<Segment>,
}

impl TextView {
    /// Builds the view of the whole document.
    pub fn new(doc: &Document) -> TextView {
        TextView::of_subtree(doc, NodeId::ROOT)
    }

    /// Builds the view of one subtree.
    pub fn of_subtree(doc: &Document, root: NodeId) -> TextView {
        let mut b = ViewBuilder::default();
        b.walk(doc, root, &mut |_| true);
        b.finish()
    }

    /// Builds the view of a subtree, descending only into nodes for which `keep` is true.
    pub fn filtered(
        doc: &Document,
        root: NodeId,
        keep: &mut dyn FnMut(NodeId) -> bool,
    ) -> TextView {
        let mut b = ViewBuilder::default();
        b.walk(doc, root, keep);
        b.finish()
    }

    /// The view's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The segments in view order (which is also document order of their nodes).
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The segment of a text node, if it contributed visible text.
    pub fn segment_of(&self, node: NodeId) -> Option<&Segment> {
        self.segments
            .binary_search_by_key(&node, |s| s.node)
            .ok()
            .map(|i| &self.segments[i])
    }

    /// The text node that produced the byte at `offset`, or `None` for separators.
    pub fn node_at(&self, offset: usize) -> Option<NodeId> {
        let i = self
            .segments
            .partition_point(|s| (s.end as usize) <= offset);
        self.segments
            .get(i)
            .filter(|s| (s.start as usize) <= offset)
            .map(|s| s.node)
    }

    /// Indices of the segments of the text nodes under `id` ([`segments_under`]).
    pub fn segments_under(&self, doc: &Document, id: NodeId) -> Range<usize> {
        segments_under(&self.segments, doc, id)
    }

    /// Indices of the segments that overlap the byte range.
    pub fn segments_overlapping(&self, range: Range<usize>) -> Range<usize> {
        let first = self
            .segments
            .partition_point(|s| (s.end as usize) <= range.start);
        let last = self
            .segments
            .partition_point(|s| (s.start as usize) < range.end);
        first..last.max(first)
    }
}

/// Finds text nodes' segments for a walk that meets the nodes in document order, by moving
/// along the view's segments (which are in that order too) instead of searching for each
/// one: [`TextView::segment_of`] costs a binary search per node, and the writers that walk
/// the kept part of a page ask it of every text node.
#[derive(Clone, Debug)]
pub struct SegmentCursor<'v> {
    segments: &'v [Segment],
    next: usize,
}

impl<'v> SegmentCursor<'v> {
    /// A cursor over `view`'s segments, starting at the first node of the subtree at `root`.
    pub fn new(view: &'v TextView, root: NodeId) -> SegmentCursor<'v> {
        let segments = view.segments();
        SegmentCursor {
            segments,
            next: segments.partition_point(|s| s.node < root),
        }
    }

    /// The segment of text node `node`, if it has one. Nodes must be asked in document
    /// order (skipping any); a node before the last one asked finds nothing.
    pub fn seek(&mut self, node: NodeId) -> Option<&'v Segment> {
        while self.segments.get(self.next).is_some_and(|s| s.node < node) {
            self.next += 1;
        }
        self.segments.get(self.next).filter(|s| s.node == node)
    }

    /// The segments of the text nodes in the subtree of `id` ([`segments_under`]), the cursor
    /// left after them. Subtrees must be asked in document order and apart (a walk's
    /// outermost links, say); one that starts before the end of the last one asked finds
    /// only what lies after that end.
    pub fn under(&mut self, doc: &Document, id: NodeId) -> &'v [Segment] {
        let end = doc.subtree_end(id);
        while self.segments.get(self.next).is_some_and(|s| s.node < id) {
            self.next += 1;
        }
        let first = self.next;
        while self.segments.get(self.next).is_some_and(|s| s.node < end) {
            self.next += 1;
        }
        &self.segments[first..self.next]
    }
}

/// Indices into `segments` (a view's, in node order) of those of the text nodes in the
/// subtree of `id`: one run, found by two binary searches.
pub fn segments_under(segments: &[Segment], doc: &Document, id: NodeId) -> Range<usize> {
    let end = doc.subtree_end(id);
    let first = segments.partition_point(|s| s.node < id);
    let last = first + segments[first..].partition_point(|s| s.node < end);
    first..last
}

/// Elements whose subtree is never rendered as text.
pub fn is_non_rendered(tag: &str) -> bool {
    matches!(
        tag,
        "script"
            | "style"
            | "template"
            | "head"
            | "title"
            | "meta"
            | "link"
            | "iframe"
            | "object"
            | "embed"
            | "canvas"
            | "svg"
            | "math"
            | "select"
            | "datalist"
            | "input"
            | "textarea"
            | "noembed"
            | "noframes"
            | "param"
            | "source"
            | "track"
    )
}

/// `char::is_whitespace` for an ASCII byte: tab to carriage return (vertical tab too, which
/// `u8::is_ascii_whitespace` leaves out), and space.
pub fn is_ascii_blank(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// How many whitespace-separated words `text` has: `text.split_whitespace().count()`, for
/// less. ASCII text (most of a page's) is counted byte by byte, each start of a run of
/// non-blanks one word; other text as `split_whitespace` splits it. The fuser and the
/// comment detector count every segment of every page (a test holds the two equal).
pub fn count_words(text: &str) -> usize {
    if !text.is_ascii() {
        return text.split_whitespace().count();
    }
    let mut words = 0;
    let mut in_word = false;
    for &b in text.as_bytes() {
        let blank = is_ascii_blank(b);
        words += usize::from(!blank && !in_word);
        in_word = !blank;
    }
    words
}

/// Elements that start and end a line of text.
pub fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "caption"
            | "center"
            | "dd"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "frameset"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "legend"
            | "li"
            | "listing"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "plaintext"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
            | "xmp"
            | "option"
            | "optgroup"
    )
}

fn preserves_whitespace(tag: &str) -> bool {
    matches!(tag, "pre" | "listing" | "plaintext" | "xmp" | "textarea")
}

/// The most nodes a permalink mark has, itself included ([`is_permalink_mark`]): a sign
/// in a link, or in an element or two inside it (`<a><span><i>¶</i></span></a>` is four).
pub const PERMALINK_MARK_NODES: usize = 8;

/// Whether an element is a permalink mark: a link to a place on its own page (`href`
/// starting with `#`) whose whole text is one or two signs, no letter or digit among them
/// (Sphinx's "¶" after every heading, "#", "§", an icon font's glyph). It is a control of
/// the page, like a button, not something the page says. A link of more than
/// [`PERMALINK_MARK_NODES`] nodes is none, which also bounds the time of the question.
pub fn is_permalink_mark(doc: &Document, id: NodeId) -> bool {
    if !doc.is_tag(id, "a")
        || doc.subtree_end(id).index() - id.index() > PERMALINK_MARK_NODES
        || !doc.attr(id, "href").is_some_and(|h| h.starts_with('#'))
    {
        return false;
    }
    let mut signs = 0;
    for d in doc.subtree(id).filter(|&d| doc.is_text(d)) {
        for c in doc.text(d).chars().filter(|c| !c.is_whitespace()) {
            signs += 1;
            if c.is_alphanumeric() || signs > 2 {
                return false;
            }
        }
    }
    signs > 0
}

/// The permalink marks ([`is_permalink_mark`]) inside the page's headings, `h1` to `h6`,
/// beside words of the heading's own, in document order: one pass over the elements, and
/// over each heading's subtree once for its marks and, where it has any, once more for its
/// words. A heading whose only text is such a link (a reader's comment titled ":(") keeps
/// it: that is what the heading says.
pub fn heading_permalink_marks(doc: &Document) -> Vec<NodeId> {
    let mut marks = Vec::new();
    let mut past = 0;
    for id in doc.ids() {
        if id.index() < past || !doc.is_element(id) || !crate::is_heading(doc.tag_atom(id)) {
            continue;
        }
        past = doc.subtree_end(id).index();
        let found = marks.len();
        marks.extend(doc.subtree(id).filter(|&a| is_permalink_mark(doc, a)));
        let worded = || {
            doc.subtree(id)
                .filter(|&t| doc.is_text(t))
                .any(|t| doc.text(t).chars().any(char::is_alphanumeric))
        };
        if marks.len() > found && !worded() {
            marks.truncate(found);
        }
    }
    marks
}

/// Whether an element is hidden by its attributes (without CSS from style sheets).
pub fn is_hidden(doc: &Document, id: NodeId) -> bool {
    // Names compare as interned atoms (integers): every walk asks this of every element.
    for a in doc.attrs(id) {
        if a.name == local_name!("hidden") {
            if !is_streamed_segment(doc, id) {
                return true;
            }
        } else if a.name == local_name!("style")
            && style_hides(&a.value)
            && !is_page_cover(doc, id)
            && !is_main_cover(doc, id)
        {
            return true;
        }
    }
    false
}

/// The most children a parent of a page's cover may have ([`is_page_cover`]).
pub const COVER_SIBLINGS: usize = 64;

/// Whether an element wraps the whole page: it is `<body>` or `<html>`, or it and every
/// element between it and `<body>` is its parent's only child that can show anything
/// (no other child element but non-rendered ones, `noscript` and empty ones; no text but
/// blanks). Pages built by scripts often hide such a wrapper by its inline style until
/// their script has run (`<body><div id="__next"><div style="visibility:hidden;
/// min-height:100vh">`, against a flash of unstyled content); read as hidden, the page
/// would have no text at all, while a browser shows it all a moment later.
///
/// Asked only of elements whose style hides them; each step up stops at the first sibling
/// that shows something, and the walk at `<body>` (at most the parser's depth). A parent of
/// more than [`COVER_SIBLINGS`] children is no wrapper's, and no more of its children than
/// that are read, so a page of many hidden siblings costs a bounded read for each.
pub fn is_page_cover(doc: &Document, id: NodeId) -> bool {
    let mut at = id;
    loop {
        if doc.is_tag(at, "body") || doc.is_tag(at, "html") {
            return true;
        }
        let Some(parent) = doc.parent(at) else {
            return false;
        };
        let shows = |c: NodeId| c != at && can_show(doc, c);
        let mut children = doc.children(parent);
        if children.by_ref().take(COVER_SIBLINGS).any(shows) || children.next().is_some() {
            return false;
        }
        at = parent;
    }
}

/// Whether an element hidden by its style is the cover of the page's main region: its parent
/// is the page's `<main>` (or an element of role `main`), every child of that parent that
/// could show anything (as [`is_page_cover`] counts them) is hidden too, and of
/// those it is the largest (most nodes; the first of equals). Shopify's lockdown apps and
/// similar gates write a store's whole main region so (`<main><div class="…-notice"
/// style="display:none">…</div><div class="…-content" style="display:none">` the product
/// `</div></main>`) and their script shows one child once it has run; read as hidden, the
/// page's main content would be empty while a browser shows it a moment later. The largest
/// child stands for the one shown: the content, not the short notice beside it.
///
/// Reads at most [`COVER_SIBLINGS`] children of the parent, a node count each (the arena
/// stores a subtree as a run of ids), so a page of many hidden children costs a bounded
/// read for each.
pub fn is_main_cover(doc: &Document, id: NodeId) -> bool {
    let Some(main) = doc.parent(id) else {
        return false;
    };
    let is_main = doc.is_tag(main, "main")
        || doc
            .attr_atom(main, &local_name!("role"))
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"));
    if !is_main {
        return false;
    }
    let size = |c: NodeId| doc.subtree_end(c).0 - c.0;
    let own = size(id);
    let mut children = doc.children(main);
    for c in children.by_ref().take(COVER_SIBLINGS) {
        if c == id || !can_show(doc, c) {
            continue;
        }
        if doc.kind(c) != NodeKind::Element || !hidden_by_attributes(doc, c) {
            return false;
        }
        // A larger hidden sibling, or an equal one before it, is the cover instead.
        if size(c) > own || (size(c) == own && c.0 < id.0) {
            return false;
        }
    }
    children.next().is_none()
}

/// Whether a child could show anything, as the covers count siblings: an element that is
/// rendered, not `noscript` and not empty, or a text that is not all blanks.
fn can_show(doc: &Document, c: NodeId) -> bool {
    match doc.kind(c) {
        NodeKind::Element => {
            let tag = doc.tag(c);
            !is_non_rendered(tag) && tag != "noscript" && doc.first_child(c).is_some()
        }
        NodeKind::Text => doc.text(c).bytes().any(|b| !b.is_ascii_whitespace()),
        _ => false,
    }
}

/// Whether an element's `hidden` attribute or inline style (`display:none`,
/// `visibility:hidden`) hides it, without [`is_hidden`]'s exceptions for covers.
fn hidden_by_attributes(doc: &Document, id: NodeId) -> bool {
    doc.attrs(id).iter().any(|a| {
        a.name == local_name!("hidden") || (a.name == local_name!("style") && style_hides(&a.value))
    })
}

/// Whether an inline `style` value hides its element (`display:none`, `visibility:hidden`,
/// any case and spacing).
fn style_hides(value: &str) -> bool {
    squeezed_contains(value, "display:none") || squeezed_contains(value, "visibility:hidden")
}

/// Whether `value`, its whitespace dropped and its ASCII letters lower-cased, contains
/// `word` (lower case, no whitespace), without building that string: every element's
/// `style` is read this way, by every walk of the page.
///
/// A failed match starts again at the character that failed it, which is exact for a
/// word whose first character does not occur again in it (as in the two words read).
fn squeezed_contains(value: &str, word: &str) -> bool {
    // Style values are nearly always ASCII: then a byte is a character, and ASCII
    // whitespace (vertical tab included) is all the whitespace there is. Elsewhere a
    // character that is not ASCII reads as 0xFF, which no byte of `word` equals.
    if value.is_ascii() {
        match word.split_once(':') {
            Some((property, setting)) if !setting.contains(':') => {
                squeezed_declares(value.as_bytes(), property, setting)
            }
            _ => squeezed_bytes_contain(value.bytes().filter(|c| !is_ascii_space(*c)), word),
        }
    } else {
        squeezed_bytes_contain(
            value
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| u8::try_from(c).ok().filter(u8::is_ascii).unwrap_or(0xFF)),
            word,
        )
    }
}

/// ASCII whitespace, the vertical tab included (as `char::is_whitespace` reads ASCII).
fn is_ascii_space(c: u8) -> bool {
    c.is_ascii_whitespace() || c == 0x0b
}

/// [`squeezed_contains`] of `property:setting` (neither holding a `:`) in an ASCII value:
/// found from the value's colons (`memchr`), each asked whether the squeezed text before it
/// ends with `property` and the squeezed text after it starts with `setting`. A squeezed
/// match has its colon on one of the value's, so this is the same answer; reading every
/// byte of every element's `style` through the whitespace filter, twice, was three
/// quarters of [`is_hidden`]'s time, and the view's walk asks it of every element.
fn squeezed_declares(value: &[u8], property: &str, setting: &str) -> bool {
    let squeezed_ends_with = |head: &[u8], word: &[u8]| {
        let mut chars = head.iter().rev().filter(|&&c| !is_ascii_space(c));
        word.iter()
            .rev()
            .all(|w| chars.next().is_some_and(|c| c.to_ascii_lowercase() == *w))
    };
    let squeezed_starts_with = |tail: &[u8], word: &[u8]| {
        let mut chars = tail.iter().filter(|&&c| !is_ascii_space(c));
        word.iter()
            .all(|w| chars.next().is_some_and(|c| c.to_ascii_lowercase() == *w))
    };
    memchr::memchr_iter(b':', value).any(|at| {
        squeezed_starts_with(&value[at + 1..], setting.as_bytes())
            && squeezed_ends_with(&value[..at], property.as_bytes())
    })
}

/// [`squeezed_contains`] over the value's characters as bytes, its whitespace dropped.
fn squeezed_bytes_contain(chars: impl Iterator<Item = u8>, word: &str) -> bool {
    debug_assert!(!word.is_empty() && !word[1..].contains(&word[..1]));
    let word = word.as_bytes();
    let mut matched = 0;
    for c in chars {
        let c = c.to_ascii_lowercase();
        if c == word[matched] {
            matched += 1;
        } else {
            matched = usize::from(c == word[0]);
        }
        if matched == word.len() {
            return true;
        }
    }
    false
}

/// Whether a `hidden` element is a segment React's streaming server rendering sends late
/// (`<div hidden id="S:0">`): the page's own script moves it into place at once, so it is
/// the page's text, often its whole main content, and not hidden from a reader.
fn is_streamed_segment(doc: &Document, id: NodeId) -> bool {
    doc.attr(id, "id")
        .and_then(|v| v.strip_prefix("S:"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Collapses runs of ASCII whitespace to single spaces and trims the ends.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[derive(Default)]
struct ViewBuilder {
    text: String,
    segments: Vec<Segment>,
    pending_space: bool,
}

impl ViewBuilder {
    fn line_break(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.pending_space = false;
    }

    /// Iterative pre-order walk; `open` holds the subtree ends of open block and `pre`
    /// elements so that their end can be acted on when the walk passes it.
    fn walk(&mut self, doc: &Document, root: NodeId, keep: &mut dyn FnMut(NodeId) -> bool) {
        #[derive(Clone, Copy)]
        enum Open {
            Block(u32),
            Pre(u32),
        }
        let end = doc.subtree_end(root).0;
        let mut open: Vec<Open> = Vec::new();
        let mut pre_depth = 0u32;
        let mut i = root.0;
        while i < end {
            while let Some(&o) = open.last() {
                match o {
                    Open::Block(e) if e <= i => {
                        self.line_break();
                        open.pop();
                    }
                    Open::Pre(e) if e <= i => {
                        pre_depth -= 1;
                        open.pop();
                    }
                    _ => break,
                }
            }
            let id = NodeId(i);
            match doc.kind(id) {
                NodeKind::Element => {
                    let tag = doc.tag(id);
                    if is_non_rendered(tag) || is_hidden(doc, id) || !keep(id) {
                        i = doc.subtree_end(id).0;
                        continue;
                    }
                    let sub_end = doc.subtree_end(id).0;
                    if tag == "br" {
                        self.text.push('\n');
                        self.pending_space = false;
                    } else if is_block(tag) {
                        self.line_break();
                        open.push(Open::Block(sub_end));
                    }
                    if preserves_whitespace(tag) {
                        pre_depth += 1;
                        open.push(Open::Pre(sub_end));
                    }
                }
                NodeKind::Text => {
                    if keep(id) {
                        self.push_text(id, doc.text(id), pre_depth > 0);
                    }
                }
                NodeKind::Document => {}
                _ => {
                    i = doc.subtree_end(id).0;
                    continue;
                }
            }
            i += 1;
        }
        while let Some(o) = open.pop() {
            if let Open::Block(_) = o {
                self.line_break();
            }
        }
    }

    fn push_text(&mut self, node: NodeId, s: &str, preserve: bool) {
        let mut start = None;
        if preserve {
            if s.is_empty() {
                return;
            }
            if self.pending_space && !self.text.is_empty() && !self.text.ends_with('\n') {
                self.text.push(' ');
            }
            self.pending_space = false;
            start = Some(self.text.len());
            self.text.push_str(s);
        } else {
            let bytes = s.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i].is_ascii_whitespace() {
                    self.pending_space = true;
                    i += 1;
                    continue;
                }
                let run_end = bytes[i..]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .map_or(bytes.len(), |p| i + p);
                if self.pending_space && !self.text.is_empty() && !self.text.ends_with('\n') {
                    self.text.push(' ');
                }
                self.pending_space = false;
                if start.is_none() {
                    start = Some(self.text.len());
                }
                self.text.push_str(&s[i..run_end]);
                i = run_end;
            }
        }
        if let Some(start) = start {
            self.segments.push(Segment {
                start: start as u32,
                end: self.text.len() as u32,
                node,
            });
        }
    }

    fn finish(mut self) -> TextView {
        while self.text.ends_with('\n') {
            self.text.pop();
        }
        // Preserved text (`pre`) can end in the newlines just trimmed: keep its segment
        // inside the text, and drop one left empty.
        let len = self.text.len() as u32;
        while let Some(last) = self.segments.last_mut() {
            if last.end <= len {
                break;
            }
            last.end = len;
            if last.start >= len {
                self.segments.pop();
            } else {
                break;
            }
        }
        TextView {
            text: self.text,
            segments: self.segments,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::NodeId;

    /// The first `<a>` of a page, and whether it is a permalink mark.
    fn mark(html: &str) -> bool {
        let doc = crate::parse(html.as_bytes()).unwrap();
        let a = doc.ids().find(|&id| doc.is_tag(id, "a")).unwrap();
        super::is_permalink_mark(&doc, a)
    }

    #[test]
    fn a_permalink_mark_is_a_sign_or_two_linking_into_its_page() {
        assert!(mark(
            r##"<h1>Quickstart<a class="headerlink" href="#quickstart">¶</a></h1>"##
        ));
        assert!(mark(r##"<h2><a href="#x"> # </a>Setup</h2>"##));
        assert!(mark("<h2>Setup<a href=\"#x\">\u{f0c1}</a></h2>"));
        assert!(mark(r##"<h2>Setup<a href="#x"><span>§</span> </a></h2>"##));
        // Another page, a word, a number, three signs, nothing at all.
        assert!(!mark(r##"<h2>Setup<a href="/x">¶</a></h2>"##));
        assert!(!mark(r##"<h2><a href="#top">Top</a></h2>"##));
        assert!(!mark(r##"<h2><a href="#s3">§3</a></h2>"##));
        assert!(!mark(r##"<h2><a href="#x">¶¶¶</a></h2>"##));
        assert!(!mark(r##"<h2><a href="#x"><img src=i.png></a>Setup</h2>"##));
        // Eight nodes may hold a mark; nine may not, whatever they hold.
        let wrapped = |n: usize| {
            format!(
                r##"<h2>Setup<a href="#x">{}¶{}</a></h2>"##,
                "<b>".repeat(n),
                "</b>".repeat(n)
            )
        };
        assert!(mark(&wrapped(6)));
        assert!(!mark(&wrapped(7)));
    }

    #[test]
    fn only_marks_beside_a_heading_s_words_are_listed() {
        let doc = crate::parse(
            r##"<h1>One<a href="#one">¶</a></h1><p>Text <a href="#n1">*</a></p>
                <h3><span>Two<a href="#two">#</a></span></h3><h4><a href="#f">Four</a></h4>
                <h4><a href="#c7">:(</a></h4>"##
                .as_bytes(),
        )
        .unwrap();
        let marks = super::heading_permalink_marks(&doc);
        let hrefs: Vec<&str> = marks
            .iter()
            .map(|&id: &NodeId| doc.attr(id, "href").unwrap())
            .collect();
        assert_eq!(hrefs, ["#one", "#two"]);
    }

    /// Whether [`squeezed_contains`] finds each word read where the string with its
    /// whitespace dropped and its ASCII letters lower-cased contains it.
    fn agrees_with_the_squeezed_string(
        value: &str,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let squeezed: String = value
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        for word in ["display:none", "visibility:hidden"] {
            proptest::prop_assert_eq!(
                super::squeezed_contains(value, word),
                squeezed.contains(word),
                "{:?} {}",
                value,
                word
            );
        }
        Ok(())
    }

    #[test]
    fn words_counted_by_hand() {
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words(" \t\n\u{b}\u{c}\r "), 0);
        assert_eq!(count_words("one"), 1);
        assert_eq!(count_words(" a\u{b}b\u{c}c\rd \u{1f}e-f "), 5);
        // A no-break space is whitespace; U+200B is not.
        assert_eq!(count_words("été\u{a0}x\u{200b}y"), 2);
    }

    proptest::proptest! {
        /// Words are counted as `split_whitespace` splits them, ASCII or not.
        #[test]
        fn words_are_split_whitespaces(
            value in "( |\t|\n|\r|\u{b}|\u{c}|\u{1f}|\u{a0}|\u{2003}|é|a|Z|9|-|\\.)*",
        ) {
            proptest::prop_assert_eq!(count_words(&value), value.split_whitespace().count());
        }

        /// The squeezed match is the match in the string with its whitespace dropped and
        /// its ASCII letters lower-cased.
        #[test]
        fn a_squeezed_match_is_a_match_in_the_squeezed_string(
            value in "(DISPLAY|display|dis play|: ?|none|No ne|visibility|hidden|vis|d|;|\\t|\u{b}|\u{c}|\r|\n|\u{1f}|é|\u{a0})*",
        ) {
            agrees_with_the_squeezed_string(&value)?;
        }

        /// The same for ASCII values alone, which are read from their colons.
        #[test]
        fn an_ascii_value_is_read_from_its_colons(
            value in "(DISPLAY|display|dis play|: ?|::|none|No ne|visibility|hidden|Vis|d|n|;|\\t|\u{b}|\u{c}|\r|\n|\u{1f}| )*",
        ) {
            agrees_with_the_squeezed_string(&value)?;
        }
    }

    use super::*;
    use crate::parse;

    #[test]
    fn a_cursor_finds_the_segments_a_search_finds_in_document_order() {
        let doc =
            parse(b"<p>one <b>two</b></p><script>x</script><p> </p><div>three</div>").unwrap();
        let view = TextView::new(&doc);
        let texts: Vec<NodeId> = doc.ids().filter(|&id| doc.is_text(id)).collect();
        // Every text node asked in order, and every other one skipped: the same answers as
        // the search.
        for step in [1, 2] {
            let mut cursor = SegmentCursor::new(&view, NodeId::ROOT);
            for &id in texts.iter().step_by(step) {
                assert_eq!(cursor.seek(id), view.segment_of(id), "{id:?}");
            }
        }
        // The script's text and the blank paragraph have no segment; "two" has one.
        let found = |id: NodeId| SegmentCursor::new(&view, NodeId::ROOT).seek(id).is_some();
        assert_eq!(texts.iter().filter(|&&id| found(id)).count(), 3);
        // Asked out of order, an earlier node finds nothing.
        let mut cursor = SegmentCursor::new(&view, NodeId::ROOT);
        assert!(cursor.seek(texts[texts.len() - 1]).is_some(), "three");
        assert_eq!(cursor.seek(texts[0]), None);
    }

    #[test]
    fn a_cursor_finds_the_segments_under_subtrees_a_search_finds() {
        let doc = parse(
            b"<p>zero</p><a>one <b>two</b></a> <a></a><a><script>x</script></a><a>three</a>4",
        )
        .unwrap();
        let view = TextView::new(&doc);
        let links: Vec<NodeId> = doc.ids().filter(|&id| doc.is_tag(id, "a")).collect();
        let words = |segments: &[Segment]| -> Vec<&str> {
            segments.iter().map(|s| &view.text()[s.range()]).collect()
        };
        // Each link in order, and every other one skipped: the same runs as the search.
        for step in [1, 2] {
            let mut cursor = SegmentCursor::new(&view, NodeId::ROOT);
            for &id in links.iter().step_by(step) {
                let searched = &view.segments()[view.segments_under(&doc, id)];
                assert_eq!(cursor.under(&doc, id), searched, "{id:?}");
            }
        }
        let mut cursor = SegmentCursor::new(&view, NodeId::ROOT);
        assert_eq!(words(cursor.under(&doc, links[0])), ["one", "two"]);
        // Empty links, one holding only a script: nothing.
        assert!(cursor.under(&doc, links[1]).is_empty());
        assert!(cursor.under(&doc, links[2]).is_empty());
        assert_eq!(words(cursor.under(&doc, links[3])), ["three"]);
        // Asked again, a subtree behind the cursor finds nothing.
        assert!(cursor.under(&doc, links[0]).is_empty());
    }

    #[test]
    fn trailing_newlines_of_preformatted_text_stay_inside_the_view() {
        let doc = parse(b"<p>a</p><pre>code\n\n</pre><pre>\n</pre>").unwrap();
        let v = TextView::new(&doc);
        assert_eq!(v.text(), "a\ncode");
        for seg in v.segments() {
            assert!(seg.end as usize <= v.text().len() && seg.start < seg.end);
            assert!(v.text().get(seg.range()).is_some());
        }
        assert_eq!(v.segments().len(), 2);
    }

    #[test]
    fn blocks_inline_and_skipped() {
        let doc = parse(
            b"<html><head><title>T</title><style>p{}</style></head><body>\n  <div>Hello   <b>big</b>\nworld</div><script>x()</script><p>Two<br>lines</p><!-- c --><p hidden>no</p><span style='display: none'>no</span>tail&nbsp;end</body>",
        )
        .unwrap();
        let v = TextView::new(&doc);
        assert_eq!(v.text(), "Hello big world\nTwo\nlines\ntail\u{a0}end");
        for s in v.segments() {
            assert!(doc.is_text(s.node));
            let seg = &v.text()[s.range()];
            assert!(!seg.starts_with(' ') && !seg.ends_with(' '));
            assert_eq!(seg, collapse_whitespace(doc.text(s.node)));
        }
        assert_eq!(v.node_at(6).map(|n| doc.text(n)), Some("big"));
        assert_eq!(v.node_at(5), None, "collapsed space belongs to no node");
    }

    #[test]
    fn noscript_and_streamed_segments_are_read_other_hidden_elements_are_not() {
        let doc = parse(
            b"<body><div id=app>Loading</div><noscript><p>Thread <b>text</b></p></noscript>\
              <div hidden id=\"S:0\"><p>Streamed article</p></div>\
              <div hidden id=\"S:\"><p>no</p></div><div hidden id=\"menu\">no</div></body>",
        )
        .unwrap();
        assert_eq!(
            TextView::new(&doc).text(),
            "Loading\nThread text\nStreamed article"
        );
    }

    #[test]
    fn a_cover_over_the_whole_page_hides_nothing() {
        // A wrapper its script reveals: the only child that shows anything, up to <body>
        // (a script, an empty portal and a noscript beside it do not count).
        let page = |cover: &str, beside: &str| {
            format!(
                "<body><noscript><iframe src=x></iframe></noscript><div id=__next>\
                 <div style=\"{cover};min-height:100vh\"><h1>Title</h1>\
                 <p style=\"display:none\">menu</p><p>Text</p></div><div id=portal></div>\
                 <script>x()</script></div>{beside}</body>"
            )
        };
        let view = |html: String| {
            TextView::new(&parse(html.as_bytes()).unwrap())
                .text()
                .to_string()
        };
        assert_eq!(view(page("visibility:hidden", "")), "Title\nText");
        assert_eq!(view(page("display: none", "")), "Title\nText");
        // Beside other text, it is hidden like any element.
        assert_eq!(view(page("visibility:hidden", "<p>Footer</p>")), "Footer");
        assert_eq!(view(page("visibility:hidden", "tail")), "tail");
        // <body> itself hidden by its style is shown too; the `hidden` attribute still hides.
        let doc = parse(b"<body style='display:none'><p>All</p></body>").unwrap();
        assert_eq!(TextView::new(&doc).text(), "All");
        let doc = parse(b"<body><div hidden><p>Gone</p></div></body>").unwrap();
        assert_eq!(TextView::new(&doc).text(), "");
        // Under a parent of more children than a wrapper's, nothing is a cover: many hidden
        // empty siblings are not read against each other.
        let many = "<i style='display:none'></i>".repeat(COVER_SIBLINGS);
        let html = format!("<body>{many}<p style='display:none'>Hidden</p></body>");
        assert_eq!(view(html), "");
        let few = "<i style='display:none'></i>".repeat(COVER_SIBLINGS - 2);
        let html = format!("<body>{few}<p style='display:none'>Cover</p></body>");
        assert_eq!(view(html), "Cover");
    }

    #[test]
    fn a_main_region_whose_children_are_all_hidden_shows_its_largest() {
        let view = |html: &str| {
            TextView::new(&parse(html.as_bytes()).unwrap())
                .text()
                .to_string()
        };
        // A store's lockdown app: a notice and the content, both hidden until its script
        // shows one; the content has more nodes, so it is read, and the notice is not.
        let gate = "<header>Menu</header><main><div style='display:none;padding:5px'>\
                    <p>Enter the password</p></div><div class='gate-content' style='display: none'>\
                    <h1>Dark Roast</h1><p>Bold and smooth.</p></div><script>show()</script>\
                    <div style='display:none'></div></main><footer>Foot</footer>";
        assert_eq!(view(gate), "Menu\nDark Roast\nBold and smooth.\nFoot");
        // The same under an element of role main; a `hidden` sibling counts as hidden.
        let role = "<div role=Main><p hidden>Notice</p><div style='visibility:hidden'>\
                    <p>One</p><p>Two</p></div></div>";
        assert_eq!(view(role), "One\nTwo");
        // Of two equal children, the first.
        let equal = "<main><p style='display:none'>A</p><p style='display:none'>B</p></main>";
        assert_eq!(view(equal), "A");
        // A child the main region shows keeps its hidden siblings hidden: a closed tab, a
        // dialog.
        let shown = "<main><p>Shown</p><div style='display:none'><p>Tab</p><p>Two</p></div></main>";
        assert_eq!(view(shown), "Shown");
        let text = "<main>Shown<div style='display:none'><p>Tab</p></div></main>";
        assert_eq!(view(text), "Shown");
        // Elsewhere than under the main region, hidden stays hidden.
        let div = "<div><p style='display:none'>A</p><p style='display:none'>B</p></div><p>C</p>";
        assert_eq!(view(div), "C");
        // Under a main region of more children than a wrapper's, nothing is a cover.
        let many = "<i style='display:none'>x</i>".repeat(COVER_SIBLINGS);
        let html = format!("<main>{many}<p style='display:none'><b>Hidden</b></p></main><p>C</p>");
        assert_eq!(view(&html), "C");
        let few = "<i style='display:none'>x</i>".repeat(COVER_SIBLINGS - 1);
        let html = format!("<main>{few}<p style='display:none'><b>Cover</b></p></main><p>C</p>");
        assert_eq!(view(&html), "Cover\nC");
    }

    #[test]
    fn pre_keeps_whitespace() {
        let doc = parse(b"<p>a  b</p><pre>x  y\n z</pre><p>c</p>").unwrap();
        assert_eq!(TextView::new(&doc).text(), "a b\nx  y\n z\nc");
    }

    #[test]
    fn every_segment_maps_to_its_node_text() {
        let doc = parse("<ul><li>éa <a href=#>lïnk</a></li><li>  b  </li></ul><table><tr><td>1</td><td>2</td></tr></table>".as_bytes()).unwrap();
        let v = TextView::new(&doc);
        assert_eq!(v.text(), "éa lïnk\nb\n1\n2");
        let r = v.segments_overlapping(1..5);
        assert_eq!(r, 0..2);
    }

    #[test]
    fn filtered_view() {
        let doc = parse(b"<div><nav>menu</nav><p>body</p></div>").unwrap();
        let nav = doc.find_tag("nav").unwrap();
        let v = TextView::filtered(&doc, NodeId::ROOT, &mut |id| id != nav);
        assert_eq!(v.text(), "body");
    }
}
