//! The arena document: nodes in depth-first pre-order, addressed by `u32` ids.
//!
//! Pre-order numbering is the central invariant: a node's subtree is the contiguous id range
//! `id..subtree_end(id)`, its first child (if any) is `id + 1`, and its next sibling (if any) is
//! `subtree_end(id)`. Per-subtree aggregates therefore need no recursion: a reverse scan over
//! the ids visits every child before its parent.

use std::ops::Range;
use std::sync::Arc;

use encoding_rs::Encoding;
use markup5ever::{LocalName, Namespace, ns};

use crate::encoding::EncodingSource;

/// The id of a node in a [`Document`]: its position in depth-first pre-order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root (document) node of every document.
    pub const ROOT: NodeId = NodeId(0);

    /// The id as an index into per-node vectors.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The number of an element's `class` value among the distinct values of its page.
///
/// Equal values get equal numbers, so a method that derives something from a class value
/// (its words, whether it names a byline) can compute it once per distinct value and look it
/// up by number for every element, and a walk can compare two elements' classes as two
/// integers. A page repeats a few values on most of its elements; several methods used to
/// hash the same values again, each in its own table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClassId(pub u32);

impl ClassId {
    /// No `class` attribute, or an empty one (and every node that is not an element).
    pub const NONE: ClassId = ClassId(0);

    /// The number as an index into a table of [`Document::class_table_len`] rows.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Something derived from each distinct `class` value of one page, computed when the first
/// element with that value asks and looked up by [`ClassId`] for the others.
#[derive(Clone, Debug)]
pub struct ClassMemo<T> {
    rows: Vec<Option<T>>,
}

impl<T: Copy> ClassMemo<T> {
    /// An empty table for `doc`'s class values.
    pub fn new(doc: &Document) -> ClassMemo<T> {
        ClassMemo {
            rows: vec![None; doc.class_table_len()],
        }
    }

    /// What `derive` gives for the `class` value of `id` (empty when it has none), derived
    /// once per value. `doc` must be the document the table was made for; with another
    /// one, a number it does not use is derived anew each time.
    pub fn get(&mut self, doc: &Document, id: NodeId, derive: impl FnOnce(&str) -> T) -> T {
        let class = doc.class_id(id);
        match self.rows.get_mut(class.index()) {
            Some(Some(known)) => *known,
            Some(row) => *row.insert(derive(doc.class_value(class))),
            None => derive(doc.class_value(class)),
        }
    }
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// The root; exactly one, with id 0.
    Document,
    /// `<!DOCTYPE ...>`.
    Doctype,
    /// An element; see [`Document::tag`] and [`Document::attrs`].
    Element,
    /// Character data; see [`Document::text`].
    Text,
    /// A comment; [`Document::text`] gives its data.
    Comment,
    /// A processing instruction (only in foreign content).
    ProcessingInstruction,
}

/// The namespace of an element, reduced to the three that occur in HTML documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementNs {
    /// The HTML namespace.
    Html,
    /// Inline `<svg>`.
    Svg,
    /// Inline `<math>`.
    MathMl,
    /// Anything else.
    Other,
}

impl ElementNs {
    pub(crate) fn from_namespace(ns: &Namespace) -> ElementNs {
        // Interned atoms: comparing them is comparing two words.
        match *ns {
            ns!(html) => ElementNs::Html,
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            _ => ElementNs::Other,
        }
    }
}

/// One attribute of an element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    /// The attribute's name, lower-cased by the parser for HTML elements.
    pub name: LocalName,
    /// The attribute's value, with character references decoded.
    pub value: Box<str>,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) kind: NodeKind,
    pub(crate) ns: ElementNs,
    pub(crate) parent: u32,
    pub(crate) subtree_end: u32,
    pub(crate) depth: u32,
    pub(crate) line: u32,
    /// For elements the range into `attrs`; for text and comments the byte range into `text`.
    pub(crate) data: (u32, u32),
    pub(crate) name: LocalName,
    /// The element's [`ClassId`] (it fits in the padding of the fields above).
    pub(crate) class: u32,
}

// The class number took room the other fields left as padding: a node is still 40 bytes.
const _: () = assert!(std::mem::size_of::<Node>() <= 40);

pub(crate) const NO_PARENT: u32 = u32::MAX;
/// The start of an unknown span in [`Document`]'s span table.
pub(crate) const NO_SPAN: u32 = u32::MAX;

/// A parsed HTML document.
///
/// Built by [`crate::parse()`]; immutable afterwards. All accessors take a [`NodeId`] and are O(1)
/// except where noted. Cloning is cheap: the clones share one immutable tree (site methods
/// keep the pages they learn from, and the parses kept for extraction are the same pages).
#[derive(Clone)]
pub struct Document {
    pub(crate) data: Arc<DocumentData>,
}

/// What a [`Document`] holds, shared by its clones.
pub(crate) struct DocumentData {
    pub(crate) nodes: Vec<Node>,
    pub(crate) attrs: Vec<Attr>,
    /// For each [`ClassId`] but [`ClassId::NONE`], the index into `attrs` of a `class`
    /// attribute holding its value (entry 0 is unused).
    pub(crate) class_attrs: Vec<u32>,
    /// The index into `attrs` of the `href` of the first HTML `<base>` that has one, noted
    /// as the nodes are laid out ([`Document::base_href`]).
    pub(crate) base_href: Option<u32>,
    pub(crate) text: String,
    pub(crate) encoding: &'static Encoding,
    pub(crate) encoding_source: EncodingSource,
    pub(crate) had_decode_errors: bool,
    pub(crate) source_len: usize,
    pub(crate) reparented: usize,
    /// Per node `(start, end)` byte offsets into the decoded text, `start == NO_SPAN` when
    /// unknown; empty when spans were not recorded (html5ever's tokenizer).
    pub(crate) spans: Vec<(u32, u32)>,
    pub(crate) spans_are_source_bytes: bool,
    /// Byte ranges of the decoded text taken out as archive inserts.
    pub(crate) archive_inserts: Vec<Range<usize>>,
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("nodes", &self.data.nodes.len())
            .field("encoding", &self.data.encoding.name())
            .field("source_len", &self.data.source_len)
            .finish()
    }
}

impl Document {
    /// Number of nodes, including the root.
    #[inline]
    pub fn len(&self) -> usize {
        self.data.nodes.len()
    }

    /// Always false: a document has at least its root node.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.nodes.is_empty()
    }

    /// All node ids in document (pre-)order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (0..self.data.nodes.len() as u32).map(NodeId)
    }

    /// The node's kind.
    #[inline]
    pub fn kind(&self, id: NodeId) -> NodeKind {
        self.data.nodes[id.index()].kind
    }

    /// True for element nodes.
    #[inline]
    pub fn is_element(&self, id: NodeId) -> bool {
        self.kind(id) == NodeKind::Element
    }

    /// True for text nodes.
    #[inline]
    pub fn is_text(&self, id: NodeId) -> bool {
        self.kind(id) == NodeKind::Text
    }

    /// The element's local name (lower-case for HTML elements); empty for other nodes.
    #[inline]
    pub fn tag(&self, id: NodeId) -> &str {
        &self.data.nodes[id.index()].name
    }

    /// The element's local name as an interned atom, for fast comparisons with `local_name!`.
    #[inline]
    pub fn tag_atom(&self, id: NodeId) -> &LocalName {
        &self.data.nodes[id.index()].name
    }

    /// True if `id` is an HTML element with the given (lower-case) local name.
    #[inline]
    pub fn is_tag(&self, id: NodeId, name: &str) -> bool {
        let n = &self.data.nodes[id.index()];
        n.kind == NodeKind::Element && &*n.name == name
    }

    /// The element's namespace.
    #[inline]
    pub fn namespace(&self, id: NodeId) -> ElementNs {
        self.data.nodes[id.index()].ns
    }

    /// The element's attributes in source order; empty for other nodes.
    #[inline]
    pub fn attrs(&self, id: NodeId) -> &[Attr] {
        let n = &self.data.nodes[id.index()];
        if n.kind == NodeKind::Element {
            &self.data.attrs[n.data.0 as usize..n.data.1 as usize]
        } else {
            &[]
        }
    }

    /// The number of the element's `class` value among the page's distinct values
    /// ([`ClassId::NONE`] when it has none, an empty one, or is not an element).
    #[inline]
    pub fn class_id(&self, id: NodeId) -> ClassId {
        ClassId(self.data.nodes[id.index()].class)
    }

    /// How many [`ClassId`]s the page uses, [`ClassId::NONE`] included: the rows of a table
    /// indexed by [`ClassId::index`].
    #[inline]
    pub fn class_table_len(&self) -> usize {
        self.data.class_attrs.len()
    }

    /// The `class` value numbered `class` (empty for [`ClassId::NONE`] or a number the page
    /// does not use).
    pub fn class_value(&self, class: ClassId) -> &str {
        match self.data.class_attrs.get(class.index()) {
            Some(&a) if class != ClassId::NONE => &self.data.attrs[a as usize].value,
            _ => "",
        }
    }

    /// The value of the attribute whose name is the interned atom `name`
    /// (`local_name!("id")`), if present: [`Document::attr`] with the names compared as
    /// integers, not as text, for the walks that ask it of every element.
    #[inline]
    pub fn attr_atom(&self, id: NodeId, name: &LocalName) -> Option<&str> {
        self.attrs(id)
            .iter()
            .find(|a| a.name == *name)
            .map(|a| &*a.value)
    }

    /// The value of the named attribute, if present.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attrs(id)
            .iter()
            .find(|a| &*a.name == name)
            .map(|a| &*a.value)
    }

    /// The data of a text or comment node (or the name of a doctype); empty otherwise.
    #[inline]
    pub fn text(&self, id: NodeId) -> &str {
        let n = &self.data.nodes[id.index()];
        match n.kind {
            NodeKind::Text
            | NodeKind::Comment
            | NodeKind::Doctype
            | NodeKind::ProcessingInstruction => {
                &self.data.text[n.data.0 as usize..n.data.1 as usize]
            }
            _ => "",
        }
    }

    /// The parent, or `None` for the root.
    #[inline]
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.data.nodes[id.index()].parent;
        (p != NO_PARENT).then_some(NodeId(p))
    }

    /// One past the last id of the node's subtree: the subtree is `id..subtree_end(id)`.
    #[inline]
    pub fn subtree_end(&self, id: NodeId) -> NodeId {
        NodeId(self.data.nodes[id.index()].subtree_end)
    }

    /// The ids of the node and all its descendants, in document order.
    #[inline]
    pub fn subtree(
        &self,
        id: NodeId,
    ) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (id.0..self.data.nodes[id.index()].subtree_end).map(NodeId)
    }

    /// The ids of the node's descendants (not the node itself).
    #[inline]
    pub fn descendants(
        &self,
        id: NodeId,
    ) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (id.0 + 1..self.data.nodes[id.index()].subtree_end).map(NodeId)
    }

    /// Whether `ancestor` is `node` or one of its ancestors. O(1).
    #[inline]
    pub fn contains(&self, ancestor: NodeId, node: NodeId) -> bool {
        ancestor <= node && node.0 < self.data.nodes[ancestor.index()].subtree_end
    }

    /// The first child, if any.
    #[inline]
    pub fn first_child(&self, id: NodeId) -> Option<NodeId> {
        let n = &self.data.nodes[id.index()];
        (n.subtree_end > id.0 + 1).then_some(NodeId(id.0 + 1))
    }

    /// The next sibling, if any.
    #[inline]
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        let n = &self.data.nodes[id.index()];
        if n.parent == NO_PARENT {
            return None;
        }
        let parent_end = self.data.nodes[n.parent as usize].subtree_end;
        (n.subtree_end < parent_end).then_some(NodeId(n.subtree_end))
    }

    /// The previous sibling, if any. O(number of earlier siblings).
    pub fn prev_sibling(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.parent(id)?;
        self.children(parent).take_while(|&c| c != id).last()
    }

    /// The children in document order.
    #[inline]
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            doc: self,
            next: id.0 + 1,
            end: self.data.nodes[id.index()].subtree_end,
        }
    }

    /// The element children only.
    pub fn element_children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.children(id).filter(move |&c| self.is_element(c))
    }

    /// The ancestors from the parent up to the root.
    pub fn ancestors(&self, id: NodeId) -> Ancestors<'_> {
        Ancestors {
            doc: self,
            next: self.data.nodes[id.index()].parent,
        }
    }

    /// Depth below the root (the root has depth 0).
    #[inline]
    pub fn depth(&self, id: NodeId) -> u32 {
        self.data.nodes[id.index()].depth
    }

    /// The 1-based source line of the token that created the node, as html5ever's tokenizer
    /// would report it (both tokenizers give the same lines). Nodes the parser inserted on its
    /// own (an implied `<tbody>`, say) carry the line of the token that caused them. For byte
    /// offsets see [`Document::span`].
    #[inline]
    pub fn source_line(&self, id: NodeId) -> u32 {
        self.data.nodes[id.index()].line
    }

    /// The node's source span: the byte range of the **decoded UTF-8 text** it was parsed from,
    /// or `None` where that is unknown.
    ///
    /// Offsets index the text the page decoded to ([`crate::encoding::decode`] with the same
    /// transport charset gives it back; [`crate::parse_str`]'s input is that text itself). They
    /// are offsets into the original bytes only when [`Document::spans_are_source_bytes`] says
    /// so: for pages in other encodings, with a byte order mark, or with invalid UTF-8 they are
    /// not. Taking out a web archive's inserts
    /// ([`crate::ParseOptions::strip_archive_inserts`]) moves no offset: they still index the
    /// text as given, inserts included. Spans are recorded by the default fast tokenizer only; with
    /// [`crate::TokenizerKind::Html5ever`], and for inputs of 4 GiB or more, every span is
    /// `None` (see [`Document::has_spans`]).
    ///
    /// What the range covers, by node kind:
    /// * **Document** (the root): the whole decoded text.
    /// * **Element created from its start tag**: from the `<` of the start tag to the `>` of the
    ///   end tag that closed it; without one (an unclosed `<p>`, a void element, a tag still open
    ///   at the end of the input, `</body>` and `</html>` when nothing closes them), to the end of
    ///   its last descendant's span, or of the start tag if it has none. It always starts with
    ///   `<`. Closing elements by their end tags is worked out approximately (html5ever does not
    ///   report every pop of its stack of open elements): in misnested markup an element may miss
    ///   its end tag or take one that the tree builder ignored; in every case it covers the spans
    ///   of all its children.
    /// * **Element the tree builder made without a tag of its own** (implied `html`, `head`,
    ///   `body`, `tbody`, `tr`, `colgroup`; clones of formatting elements from the adoption agency
    ///   or from reopening them in a new block): the hull of its children's spans, widened by its
    ///   end tag if one closed it; `None` if that leaves nothing (an empty implied `head`). The
    ///   `p` made by a stray `</p>` and the `br` made by `</br>` get that end tag's span.
    /// * **Text**: from the first to the last source character of the character data merged
    ///   into the node. The source may be longer than the text: character references (`&amp;`),
    ///   CR LF (read as LF) and NUL (read as U+FFFD) are counted as written, and a node merged
    ///   from non-adjacent pieces (text foster-parented out of a table next to text before it,
    ///   or text that merged across a tag the tree builder ignored) gets the hull of the pieces,
    ///   which may include markup. Whitespace the tree builder split off and put elsewhere, and
    ///   the newline it drops after `<pre>`, `<listing>` and `<textarea>`, are left out; where
    ///   such a cut cannot be traced (whitespace split off character data that also holds
    ///   character references, characters dropped in a frameset) the node gets the range of
    ///   the whole stretch of character data.
    /// * **Comment** and **DOCTYPE**: the token, from `<` to `>` (or the end of the input).
    ///
    /// Moved nodes keep their source span, so after foster parenting or the adoption agency an
    /// element's span can cover source that ended up elsewhere in the tree, and siblings' spans
    /// can overlap; a parent's span still covers its children's (where the parent's span is
    /// known and, if it is an element with a start tag, the children come after that tag).
    #[inline]
    pub fn span(&self, id: NodeId) -> Option<Range<usize>> {
        let &(start, end) = self.data.spans.get(id.index())?;
        (start != NO_SPAN).then_some(start as usize..end as usize)
    }

    /// Whether spans were recorded at all (they are with the default fast tokenizer).
    pub fn has_spans(&self) -> bool {
        !self.data.spans.is_empty()
    }

    /// True when the decoded text is the input byte for byte, so that [`Document::span`]
    /// offsets are also offsets into the bytes that were parsed: valid UTF-8 without a byte
    /// order mark (or plain ASCII in any ASCII-compatible encoding), or a string given to
    /// [`crate::parse_str`]. False when decoding changed anything (another encoding, a byte
    /// order mark, invalid bytes replaced): then spans index the decoded text only.
    pub fn spans_are_source_bytes(&self) -> bool {
        self.data.spans_are_source_bytes
    }

    /// The byte ranges of the decoded text (the same text [`Document::span`] indexes) that
    /// were taken out as a web archive's inserts ([`crate::archive`],
    /// [`crate::ParseOptions::strip_archive_inserts`]), in order; empty for most pages.
    pub fn archive_inserts(&self) -> &[Range<usize>] {
        &self.data.archive_inserts
    }

    /// The encoding the page was decoded from.
    pub fn encoding(&self) -> &'static Encoding {
        self.data.encoding
    }

    /// How the encoding was chosen.
    pub fn encoding_source(&self) -> EncodingSource {
        self.data.encoding_source
    }

    /// True if invalid byte sequences were replaced during decoding.
    pub fn had_decode_errors(&self) -> bool {
        self.data.had_decode_errors
    }

    /// Length in bytes of the input the document was parsed from.
    pub fn source_len(&self) -> usize {
        self.data.source_len
    }

    /// How many nodes were re-attached higher up because the tree was deeper than the
    /// configured maximum depth (see [`crate::ParseOptions::max_depth`]).
    pub fn reparented_for_depth(&self) -> usize {
        self.data.reparented
    }

    /// The `<html>` element's `<body>`, if the page has one.
    pub fn body(&self) -> Option<NodeId> {
        let html = self
            .element_children(NodeId::ROOT)
            .find(|&c| self.is_tag(c, "html"))?;
        self.element_children(html)
            .find(|&c| self.is_tag(c, "body"))
    }

    /// The `<head>` element, if present.
    pub fn head(&self) -> Option<NodeId> {
        let html = self
            .element_children(NodeId::ROOT)
            .find(|&c| self.is_tag(c, "html"))?;
        self.element_children(html)
            .find(|&c| self.is_tag(c, "head"))
    }

    /// The first element with the given tag, in document order.
    pub fn find_tag(&self, name: &str) -> Option<NodeId> {
        self.ids().find(|&id| self.is_tag(id, name))
    }

    /// The text of the page's `<title>` element, whitespace-collapsed: the first HTML
    /// `<title>` anywhere (error recovery can put it in the body), not SVG's.
    pub fn title(&self) -> Option<String> {
        let title = self
            .ids()
            .find(|&id| self.is_tag(id, "title") && self.namespace(id) == ElementNs::Html)?;
        let raw: String = self
            .descendants(title)
            .filter(|&d| self.is_text(d))
            .map(|d| self.text(d))
            .collect();
        Some(crate::text::collapse_whitespace(&raw))
    }

    /// The `href` of the page's first `<base href>` (trimmed), the base its relative
    /// addresses are resolved against, as the page wrote it (it may itself be relative to
    /// the page's URL).
    pub fn base_href(&self) -> Option<&str> {
        // Noted when the document was built: a `<base>` may stand anywhere, and a walk over
        // every node to find it was 1% of reading the metadata and writing Markdown.
        let k = self.data.base_href?;
        self.data.attrs.get(k as usize).map(|a| a.value.trim())
    }

    /// The page's base URL, against which its relative addresses resolve, as a browser
    /// finds it: the first `<base href>` resolved against `page_url` (the address the page
    /// was fetched from), else `page_url`. A `<base href>` that does not resolve gives way
    /// to `page_url`; `None` when neither gives an absolute URL.
    pub fn base_url(&self, page_url: Option<&str>) -> Option<url::Url> {
        let page = page_url.and_then(|u| url::Url::parse(u.trim()).ok());
        match self.base_href() {
            Some(href) => match &page {
                Some(p) => p.join(href).ok().or(page),
                None => url::Url::parse(href).ok(),
            },
            None => page,
        }
    }

    /// The page's own statement of its URL: `<link rel=canonical href>` or
    /// `<meta property=og:url content>`, whichever comes first.
    pub fn declared_url(&self) -> Option<&str> {
        for id in self.ids() {
            if self.is_tag(id, "link") {
                let rel = self.attr(id, "rel").unwrap_or("");
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                    && let Some(href) = self
                        .attr(id, "href")
                        .map(str::trim)
                        .filter(|h| !h.is_empty())
                {
                    return Some(href);
                }
            } else if self.is_tag(id, "meta") {
                let prop = self.attr(id, "property").unwrap_or("");
                if prop.eq_ignore_ascii_case("og:url")
                    && let Some(c) = self
                        .attr(id, "content")
                        .map(str::trim)
                        .filter(|h| !h.is_empty())
                {
                    return Some(c);
                }
            } else if self.is_tag(id, "body") {
                break;
            }
        }
        None
    }

    /// The concatenated data of all text nodes in the subtree, unmodified.
    pub fn subtree_text(&self, id: NodeId) -> String {
        self.subtree(id)
            .filter(|&d| self.is_text(d))
            .map(|d| self.text(d))
            .collect()
    }

    /// The byte range of a text node's data inside the document's shared text buffer; used by
    /// consumers that keep per-text-node offsets.
    pub fn text_range(&self, id: NodeId) -> Range<usize> {
        let n = &self.data.nodes[id.index()];
        match n.kind {
            NodeKind::Text | NodeKind::Comment => n.data.0 as usize..n.data.1 as usize,
            _ => 0..0,
        }
    }
}

/// Iterator over a node's children.
pub struct Children<'a> {
    doc: &'a Document,
    next: u32,
    end: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let id = NodeId(self.next);
        self.next = self.doc.data.nodes[id.index()].subtree_end;
        Some(id)
    }
}

/// Iterator over a node's ancestors, nearest first.
pub struct Ancestors<'a> {
    doc: &'a Document,
    next: u32,
}

impl Iterator for Ancestors<'_> {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        if self.next == NO_PARENT {
            return None;
        }
        let id = NodeId(self.next);
        self.next = self.doc.data.nodes[id.index()].parent;
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    /// A clone is the same tree, not a copy of it: its text and attributes are the very
    /// bytes of the original's.
    #[test]
    fn clones_share_the_tree() {
        let doc = crate::parse(b"<p class=lead>Shared words</p>").expect("parses");
        let copy = doc.clone();
        let p = doc.ids().find(|&id| doc.is_tag(id, "p")).expect("has a p");
        let text = doc.children(p).next().expect("has text");
        assert_eq!(copy.text(text), "Shared words");
        assert!(std::ptr::eq(doc.text(text), copy.text(text)));
        assert!(std::ptr::eq(
            doc.attr(p, "class").expect("has a class"),
            copy.attr(p, "class").expect("has a class")
        ));
    }
}
