//! Tree building: an html5ever `TreeSink` that writes into a linked arena, then a single
//! iterative pass that renumbers the arena into depth-first pre-order.
//!
//! html5ever does all of the standard's error recovery (implied tags, foster parenting, the
//! adoption agency), which moves nodes around after they are created; that is why the build
//! arena is a doubly linked tree and the pre-order numbering happens only at the end.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, EndTag, StartTag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, QualName, local_name, ns};
use markup5ever::{LocalName, TokenizerResult};

use crate::document::{Attr, Document, ElementNs, NO_PARENT, Node, NodeKind};
use crate::encoding::{self, Decoded};
use crate::error::DomError;

/// Limits and hints for [`parse_with`].
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Inputs larger than this many bytes are refused with [`DomError::TooLarge`].
    pub max_bytes: usize,
    /// Elements nested deeper than this are attached to their ancestor at this depth instead,
    /// as browsers do (Blink uses 512). Keeps every consumer's per-depth work bounded.
    pub max_depth: u32,
    /// A charset label from outside the document (HTTP header, WARC record).
    pub transport_charset: Option<String>,
    /// Refuse inputs that look like binary files (see [`crate::looks_binary`]).
    pub reject_binary: bool,
    /// Which tokenizer feeds html5ever's tree builder. Both build identical documents.
    pub tokenizer: TokenizerKind,
}

/// The tokenizer choice of [`ParseOptions::tokenizer`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TokenizerKind {
    /// This crate's tokenizer (`tokenize.rs`): whole-input, memchr-driven, several times faster.
    #[default]
    Fast,
    /// html5ever's own tokenizer, kept as the reference the fast one is tested against.
    Html5ever,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_bytes: 64 << 20,
            max_depth: 512,
            transport_charset: None,
            reject_binary: true,
            tokenizer: TokenizerKind::default(),
        }
    }
}

/// Parses HTML bytes with the default options.
pub fn parse(bytes: &[u8]) -> Result<Document, DomError> {
    parse_with(bytes, &ParseOptions::default())
}

/// Parses HTML bytes: checks the size limit, sniffs and decodes the encoding, builds the tree.
pub fn parse_with(bytes: &[u8], opts: &ParseOptions) -> Result<Document, DomError> {
    if bytes.len() > opts.max_bytes {
        return Err(DomError::TooLarge {
            len: bytes.len(),
            limit: opts.max_bytes,
        });
    }
    if opts.reject_binary && encoding::looks_binary(bytes) {
        return Err(DomError::Binary);
    }
    let decoded = encoding::decode(bytes, opts.transport_charset.as_deref());
    Ok(build(decoded, bytes.len(), opts))
}

/// Parses a string that is already decoded (for example a JSON Lines `html` field).
pub fn parse_str(html: &str, opts: &ParseOptions) -> Result<Document, DomError> {
    if html.len() > opts.max_bytes {
        return Err(DomError::TooLarge {
            len: html.len(),
            limit: opts.max_bytes,
        });
    }
    let decoded = Decoded {
        text: Cow::Borrowed(html),
        encoding: encoding_rs::UTF_8,
        source: encoding::EncodingSource::Transport,
        had_errors: false,
    };
    Ok(build(decoded, html.len(), opts))
}

fn build(decoded: Decoded<'_>, source_len: usize, opts: &ParseOptions) -> Document {
    let max_depth = opts.max_depth.max(1);
    let guard = DepthGuard {
        tree_builder: TreeBuilder::new(Sink::new(), TreeBuilderOpts::default()),
        dropped: RefCell::new(Vec::new()),
        limit: max_depth,
    };
    // A BOM is removed by the decoder; html5ever also drops one more U+FEFF at the very start.
    let text = decoded
        .text
        .strip_prefix('\u{feff}')
        .unwrap_or(&decoded.text);
    let arena = match opts.tokenizer {
        TokenizerKind::Fast => {
            crate::tokenize::tokenize(text, &guard);
            guard.tree_builder.sink
        }
        TokenizerKind::Html5ever => {
            // `discard_bom` is off because html5ever would apply it at every `feed`, i.e. also
            // to a U+FEFF right after each `</script>` or `<meta charset>` pause below.
            let tokenizer = Tokenizer::new(
                guard,
                TokenizerOpts {
                    discard_bom: false,
                    ..TokenizerOpts::default()
                },
            );
            let input = BufferQueue::default();
            input.push_back(StrTendril::from(text));
            // `Script` and `EncodingIndicator` results only pause the tokenizer (for script
            // execution and for re-decoding); we run no scripts and have already sniffed the
            // encoding.
            while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
            tokenizer.end();
            tokenizer.sink.tree_builder.sink
        }
    };
    let mut doc = arena.into_document(max_depth);
    doc.encoding = decoded.encoding;
    doc.encoding_source = decoded.source;
    doc.had_decode_errors = decoded.had_errors;
    doc.source_len = source_len;
    doc
}

const NONE: u32 = u32::MAX;

/// Sits between html5ever's tokenizer and tree builder and keeps the tree builder's stack of
/// open elements shallow. The tree builder's scope checks walk that stack on every start tag,
/// so 100,000 nested `<div>`s would cost 10^10 steps; beyond `limit` we drop start tags (and
/// their matching end tags), so their content lands in the deepest allowed element, which is
/// also what browsers do.
struct DepthGuard {
    tree_builder: TreeBuilder<u32, Sink>,
    /// Names of dropped start tags and how many of each still await their end tag.
    dropped: RefCell<Vec<(LocalName, u32)>>,
    limit: u32,
}

impl TokenSink for DepthGuard {
    type Handle = u32;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<u32> {
        if let TagToken(tag) = &token {
            if tag.kind == StartTag
                && !tag.self_closing
                && !crate::serialize::is_void(&tag.name)
                && self.tree_builder.sink.insertion_depth.get() >= self.limit
            {
                let mut dropped = self.dropped.borrow_mut();
                match dropped.iter_mut().find(|(n, _)| *n == tag.name) {
                    Some((_, count)) => *count += 1,
                    None => dropped.push((tag.name.clone(), 1)),
                }
                return TokenSinkResult::Continue;
            }
            if tag.kind == EndTag {
                let mut dropped = self.dropped.borrow_mut();
                if let Some((_, count)) = dropped.iter_mut().find(|(n, c)| *c > 0 && *n == tag.name)
                {
                    *count -= 1;
                    return TokenSinkResult::Continue;
                }
            }
        }
        self.tree_builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.tree_builder.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tree_builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

struct BNode {
    kind: NodeKind,
    parent: u32,
    first_child: u32,
    last_child: u32,
    prev: u32,
    next: u32,
    line: u32,
    /// Depth at the time of the last attach; exact unless an ancestor moved later. Only the
    /// depth guard reads it, as an estimate of the insertion point's depth.
    depth: u32,
    template_contents: u32,
    attrs: Vec<Attribute>,
    text: StrTendril,
}

impl BNode {
    fn new(kind: NodeKind, line: u32) -> BNode {
        BNode {
            kind,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            line,
            depth: 0,
            template_contents: NONE,
            attrs: Vec::new(),
            text: StrTendril::new(),
        }
    }
}

/// The build arena. Element names live in their own cell so that `elem_name` can hand out a
/// borrow while the tree builder mutates links (it never holds a name across a mutation).
struct Sink {
    nodes: RefCell<Vec<BNode>>,
    names: RefCell<Vec<QualName>>,
    line: Cell<u32>,
    /// Depth of the parent of the most recent insertion: where the tree builder is working.
    insertion_depth: Cell<u32>,
}

/// A fragment node (template contents) is a document-like container without a name.
const FRAGMENT: NodeKind = NodeKind::Document;

impl Sink {
    fn new() -> Sink {
        let sink = Sink {
            nodes: RefCell::new(Vec::with_capacity(1024)),
            names: RefCell::new(Vec::with_capacity(1024)),
            line: Cell::new(1),
            insertion_depth: Cell::new(0),
        };
        sink.push(BNode::new(NodeKind::Document, 1), empty_name());
        sink
    }

    fn push(&self, node: BNode, name: QualName) -> u32 {
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len() as u32;
        nodes.push(node);
        self.names.borrow_mut().push(name);
        id
    }

    fn note_insertion(&self, parent: u32) {
        self.insertion_depth
            .set(self.nodes.borrow()[parent as usize].depth + 1);
    }

    fn new_text(&self, text: StrTendril) -> u32 {
        let mut node = BNode::new(NodeKind::Text, self.line.get());
        node.text = text;
        self.push(node, empty_name())
    }
}

fn empty_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

fn detach(nodes: &mut [BNode], id: u32) {
    let (parent, prev, next) = {
        let n = &nodes[id as usize];
        (n.parent, n.prev, n.next)
    };
    if parent == NONE {
        return;
    }
    if prev != NONE {
        nodes[prev as usize].next = next;
    } else {
        nodes[parent as usize].first_child = next;
    }
    if next != NONE {
        nodes[next as usize].prev = prev;
    } else {
        nodes[parent as usize].last_child = prev;
    }
    let n = &mut nodes[id as usize];
    n.parent = NONE;
    n.prev = NONE;
    n.next = NONE;
}

fn append_child(nodes: &mut [BNode], parent: u32, child: u32) {
    detach(nodes, child);
    nodes[child as usize].depth = nodes[parent as usize].depth + 1;
    let last = nodes[parent as usize].last_child;
    {
        let c = &mut nodes[child as usize];
        c.parent = parent;
        c.prev = last;
        c.next = NONE;
    }
    if last != NONE {
        nodes[last as usize].next = child;
    } else {
        nodes[parent as usize].first_child = child;
    }
    nodes[parent as usize].last_child = child;
}

fn insert_before(nodes: &mut [BNode], sibling: u32, child: u32) {
    detach(nodes, child);
    let (parent, prev) = {
        let s = &nodes[sibling as usize];
        (s.parent, s.prev)
    };
    if parent == NONE {
        return;
    }
    nodes[child as usize].depth = nodes[parent as usize].depth + 1;
    {
        let c = &mut nodes[child as usize];
        c.parent = parent;
        c.prev = prev;
        c.next = sibling;
    }
    nodes[sibling as usize].prev = child;
    if prev != NONE {
        nodes[prev as usize].next = child;
    } else {
        nodes[parent as usize].first_child = child;
    }
}

impl TreeSink for Sink {
    type Handle = u32;
    type Output = Sink;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Sink {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> Ref<'a, QualName> {
        Ref::map(self.names.borrow(), |names| &names[*target as usize])
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        let mut node = BNode::new(NodeKind::Element, self.line.get());
        node.attrs = attrs;
        let id = self.push(node, name);
        if flags.template {
            let contents = self.push(BNode::new(FRAGMENT, self.line.get()), empty_name());
            self.nodes.borrow_mut()[id as usize].template_contents = contents;
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        let mut node = BNode::new(NodeKind::Comment, self.line.get());
        node.text = text;
        self.push(node, empty_name())
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> u32 {
        let mut node = BNode::new(NodeKind::ProcessingInstruction, self.line.get());
        node.text = data;
        self.push(node, empty_name())
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        self.note_insertion(*parent);
        match child {
            NodeOrText::AppendNode(c) => append_child(&mut self.nodes.borrow_mut(), *parent, c),
            NodeOrText::AppendText(t) => {
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let last = nodes[*parent as usize].last_child;
                    if last != NONE && nodes[last as usize].kind == NodeKind::Text {
                        nodes[last as usize].text.push_tendril(&t);
                        return;
                    }
                }
                let id = self.new_text(t);
                append_child(&mut self.nodes.borrow_mut(), *parent, id);
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self.nodes.borrow()[*element as usize].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        _public_id: StrTendril,
        _system_id: StrTendril,
    ) {
        let mut node = BNode::new(NodeKind::Doctype, self.line.get());
        node.text = name;
        let id = self.push(node, empty_name());
        append_child(&mut self.nodes.borrow_mut(), 0, id);
    }

    fn get_template_contents(&self, target: &u32) -> u32 {
        let contents = self.nodes.borrow()[*target as usize].template_contents;
        if contents != NONE {
            contents
        } else {
            // Not a template: html5ever only asks for templates, but never panic on a contract
            // slip; hand out a fresh detached fragment.
            self.push(BNode::new(FRAGMENT, self.line.get()), empty_name())
        }
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        let parent = self.nodes.borrow()[*sibling as usize].parent;
        if parent != NONE {
            self.note_insertion(parent);
        }
        match new_node {
            NodeOrText::AppendNode(c) => insert_before(&mut self.nodes.borrow_mut(), *sibling, c),
            NodeOrText::AppendText(t) => {
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let prev = nodes[*sibling as usize].prev;
                    if prev != NONE && nodes[prev as usize].kind == NodeKind::Text {
                        nodes[prev as usize].text.push_tendril(&t);
                        return;
                    }
                }
                let id = self.new_text(t);
                insert_before(&mut self.nodes.borrow_mut(), *sibling, id);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        let mut nodes = self.nodes.borrow_mut();
        let existing = &mut nodes[*target as usize].attrs;
        for a in attrs {
            if !existing.iter().any(|e| e.name == a.name) {
                existing.push(a);
            }
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[*node as usize].first_child;
        while child != NONE {
            let next = nodes[child as usize].next;
            append_child(&mut nodes, *new_parent, child);
            child = next;
        }
    }

    fn set_current_line(&self, line_number: u64) {
        self.line
            .set(u32::try_from(line_number).unwrap_or(u32::MAX));
    }
}

impl Sink {
    /// Renumbers the linked arena into pre-order and packs it into a [`Document`].
    ///
    /// Template contents are emitted as children of their `<template>` element. Nodes deeper
    /// than `max_depth` become following siblings of their nearest allowed ancestor.
    fn into_document(self, max_depth: u32) -> Document {
        let mut bnodes = self.nodes.into_inner();
        let names = self.names.into_inner();
        let mut nodes: Vec<Node> = Vec::with_capacity(bnodes.len());
        let mut attrs: Vec<Attr> = Vec::new();
        let mut text = String::new();
        let mut reparented = 0usize;

        // Stack of (build id, final parent id, depth), children pushed in reverse.
        let mut stack: Vec<(u32, u32, u32)> = vec![(0, NO_PARENT, 0)];
        let mut kids: Vec<u32> = Vec::new();
        while let Some((b, parent, depth)) = stack.pop() {
            let id = nodes.len() as u32;
            let bn = &mut bnodes[b as usize];
            let (kind, ns, name, data) = match bn.kind {
                NodeKind::Element => {
                    let qn = &names[b as usize];
                    let start = attrs.len() as u32;
                    attrs.extend(bn.attrs.drain(..).map(|a| Attr {
                        name: a.name.local,
                        value: Box::from(&*a.value),
                    }));
                    (
                        NodeKind::Element,
                        ElementNs::from_namespace(&qn.ns),
                        qn.local.clone(),
                        (start, attrs.len() as u32),
                    )
                }
                kind => {
                    let start = text.len() as u32;
                    text.push_str(&bn.text);
                    bn.text = StrTendril::new();
                    (
                        kind,
                        ElementNs::Other,
                        LocalName::from(""),
                        (start, text.len() as u32),
                    )
                }
            };
            nodes.push(Node {
                kind,
                ns,
                parent,
                subtree_end: id + 1,
                depth,
                line: bn.line,
                data,
                name,
            });

            // Children: own children, then template contents' children.
            kids.clear();
            let mut c = bn.first_child;
            while c != NONE {
                kids.push(c);
                c = bnodes[c as usize].next;
            }
            let tc = bnodes[b as usize].template_contents;
            if tc != NONE {
                let mut c = bnodes[tc as usize].first_child;
                while c != NONE {
                    kids.push(c);
                    c = bnodes[c as usize].next;
                }
            }
            let (child_parent, child_depth) = if depth + 1 > max_depth && parent != NO_PARENT {
                reparented += kids.len();
                (parent, depth)
            } else {
                (id, depth + 1)
            };
            for &k in kids.iter().rev() {
                stack.push((k, child_parent, child_depth));
            }
        }

        // Subtree ends: children have larger ids than parents, so one reverse pass suffices.
        for i in (1..nodes.len()).rev() {
            let end = nodes[i].subtree_end;
            let p = nodes[i].parent as usize;
            if nodes[p].subtree_end < end {
                nodes[p].subtree_end = end;
            }
        }

        Document {
            nodes,
            attrs,
            text,
            encoding: encoding_rs::UTF_8,
            encoding_source: encoding::EncodingSource::ValidUtf8,
            had_decode_errors: false,
            source_len: 0,
            reparented,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeId;

    fn tags(doc: &Document) -> Vec<String> {
        doc.ids()
            .map(|id| match doc.kind(id) {
                NodeKind::Element => {
                    format!("{}{}", "  ".repeat(doc.depth(id) as usize), doc.tag(id))
                }
                NodeKind::Text => {
                    format!("{}#{}", "  ".repeat(doc.depth(id) as usize), doc.text(id))
                }
                k => format!("{}{:?}", "  ".repeat(doc.depth(id) as usize), k),
            })
            .collect()
    }

    #[test]
    fn preorder_and_links() {
        let doc = parse(b"<!doctype html><title>T</title><p>a<b>b</b>c<p>d").unwrap();
        assert_eq!(
            tags(&doc),
            vec![
                "Document",
                "  Doctype",
                "  html",
                "    head",
                "      title",
                "        #T",
                "    body",
                "      p",
                "        #a",
                "        b",
                "          #b",
                "        #c",
                "      p",
                "        #d"
            ]
        );
        let body = doc.body().unwrap();
        let ps: Vec<_> = doc.children(body).collect();
        assert_eq!(ps.len(), 2);
        assert_eq!(doc.next_sibling(ps[0]), Some(ps[1]));
        assert_eq!(doc.prev_sibling(ps[1]), Some(ps[0]));
        assert_eq!(doc.next_sibling(ps[1]), None);
        assert_eq!(doc.first_child(ps[0]).map(|c| doc.text(c)), Some("a"));
        assert!(doc.contains(body, NodeId(doc.len() as u32 - 1)));
        assert_eq!(doc.subtree_end(NodeId::ROOT).0 as usize, doc.len());
        assert_eq!(doc.title().as_deref(), Some("T"));
        let wrapped = parse(
            b"<text id=x><html><head><title> A  b </title></head><body><svg><title>s</title></svg>",
        )
        .unwrap();
        assert_eq!(wrapped.title().as_deref(), Some("A b"));
    }

    #[test]
    fn adoption_agency_and_foster_parenting() {
        // Misnested formatting and text inside a table exercise node moves after creation.
        let doc = parse(b"<p>1<b>2<i>3</b>4</i>5</p><table>x<tr><td>y</td></tr></table>").unwrap();
        for id in doc.ids().skip(1) {
            let p = doc.parent(id).unwrap();
            assert!(p < id && doc.contains(p, id));
            assert_eq!(doc.depth(id), doc.depth(p) + 1);
        }
        let text: String = doc
            .ids()
            .filter(|&i| doc.is_text(i))
            .map(|i| doc.text(i))
            .collect();
        assert_eq!(text, "12345xy");
    }

    #[test]
    fn attributes_and_template() {
        let doc =
            parse(br#"<div id=a class="x y" data-k='v'>t</div><template><p>in</p></template>"#)
                .unwrap();
        let div = doc.find_tag("div").unwrap();
        assert_eq!(doc.attr(div, "class"), Some("x y"));
        assert_eq!(doc.attr(div, "data-k"), Some("v"));
        assert_eq!(doc.attrs(div).len(), 3);
        let t = doc.find_tag("template").unwrap();
        let p = doc.first_child(t).unwrap();
        assert!(doc.is_tag(p, "p"));
    }

    #[test]
    fn size_limit_and_binary() {
        let opts = ParseOptions {
            max_bytes: 10,
            ..ParseOptions::default()
        };
        assert!(matches!(
            parse_with(b"<p>too long for it</p>", &opts),
            Err(DomError::TooLarge { .. })
        ));
        assert!(matches!(
            parse(b"\x89PNG\r\n\x1a\n\0\0\0"),
            Err(DomError::Binary)
        ));
    }

    #[test]
    fn empty_and_junk_inputs_parse() {
        for input in [
            &b""[..],
            b"<",
            b"</",
            b"<<<>>>",
            b"<!--",
            b"<![CDATA[",
            b"\xFF\xFE\xFD",
            b"<p \x00 a=>",
        ] {
            let doc = parse_with(
                input,
                &ParseOptions {
                    reject_binary: false,
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(doc.body().is_some());
        }
    }

    #[test]
    fn deep_nesting_is_flattened_below_max_depth() {
        let depth = 100_000;
        let mut html = String::with_capacity(depth * 11);
        for _ in 0..depth {
            html.push_str("<div>");
        }
        html.push_str("deep");
        let doc = parse(html.as_bytes()).unwrap();
        let max = doc.ids().map(|i| doc.depth(i)).max().unwrap();
        assert!(max <= 513, "{max}");
        let divs = doc.ids().filter(|&i| doc.is_tag(i, "div")).count();
        assert!((500..=512).contains(&divs), "{divs}");
        assert!(doc.ids().any(|i| doc.is_text(i) && doc.text(i) == "deep"));
    }

    #[test]
    fn pathological_nesting_of_every_kind_parses() {
        for open in [
            "<b>",
            "<a href=x>",
            "<table>",
            "<p>",
            "<li>",
            "<font>",
            "<div><span>",
            "<svg>",
            "<td>",
            "<ul><li>",
        ] {
            let html = open.repeat(50_000) + "end";
            let doc = parse(html.as_bytes()).unwrap();
            assert!(
                doc.ids().map(|i| doc.depth(i)).max().unwrap() <= 513,
                "{open}"
            );
            assert!(
                doc.ids()
                    .any(|i| doc.is_text(i) && doc.text(i).contains("end")),
                "{open}"
            );
        }
    }

    #[test]
    fn meta_charset_does_not_stop_the_parse() {
        let doc =
            parse(b"<html><head><meta charset=utf-8><title>t</title></head><body><p>after</p>")
                .unwrap();
        assert!(doc.ids().any(|i| doc.is_text(i) && doc.text(i) == "after"));
    }

    #[test]
    fn source_lines() {
        let doc = parse(b"<html>\n<body>\n<p>x</p>\n\n<span>y</span>").unwrap();
        assert_eq!(doc.source_line(doc.find_tag("p").unwrap()), 3);
        assert_eq!(doc.source_line(doc.find_tag("span").unwrap()), 5);
    }

    #[test]
    fn declared_url() {
        let doc = parse(br#"<head><meta property="og:url" content=" https://a.example/x "><link rel="Canonical" href="https://b.example/y"></head>"#).unwrap();
        assert_eq!(doc.declared_url(), Some("https://a.example/x"));
    }
}
