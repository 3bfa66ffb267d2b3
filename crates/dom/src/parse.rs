//! Tree building: an html5ever `TreeSink` that writes into a linked arena, then a single
//! iterative pass that renumbers the arena into depth-first pre-order.
//!
//! html5ever does all of the standard's error recovery (implied tags, foster parenting, the
//! adoption agency), which moves nodes around after they are created; that is why the build
//! arena is a doubly linked tree and the pre-order numbering happens only at the end.
//!
//! **Source spans** (fast tokenizer only; see [`Document::span`] for what they mean). Just
//! before each token the tokenizer reports its byte range and kind ([`SpanSink`]), which the
//! sink keeps while the tree builder processes the token, and stamps nodes as they are made:
//!
//! * an element gets the start tag's range when it is the last element created for that start
//!   tag whose name is the tag's (implied parents, clones of formatting elements and the like
//!   are created before it and have other names, or are overtaken by it);
//! * text gets the range of the part of the character token the tree builder inserted (it
//!   splits leading whitespace off and drops the LF after `<pre>`), or, when it inserts pending
//!   table text while processing the next token, the hull of the character tokens before that
//!   token; text merged into an existing node widens that node's range to the hull.
//!
//! Where elements *end* needs their end tags, and html5ever reports only some pops of its stack
//! of open elements to the sink (`TreeSink::pop`; closing by `pop_until` is silent). So the sink
//! tracks the tree builder's current node instead: an element inserted fresh becomes current
//! (not a void one, which is never pushed, nor a clone the adoption agency assembles), as does
//! an element that text is appended to; the stack below the current node is read off the tree
//! as its chain of parents (a foster-parented element remembers the table part that was current
//! instead). An end tag is matched against that chain from the current node down, within the
//! scope the standard checks for that tag; the element it closes records the end tag's end as
//! its end, and its parent becomes current (unless the tag runs the adoption agency past a
//! special element, which stays open, or is `</body>` or `</html>`, which only switch the
//! insertion mode). The approximation can only go wrong in misnested markup, and then only by
//! leaving an end tag out of an element's range or giving it one the tree builder ignored; the
//! final pass widens every element to cover its children either way. (On the 5,131 pages of
//! the shared datasets, 29 of 3.5 million elements end right before an end tag of their own name
//! that was not counted to them, stray end tags of void elements aside, and the tree builder
//! ignores some of those too.)

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};
use std::time::Instant;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, EndTag, StartTag, Tag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, QualName, local_name, ns};
use markup5ever::{LocalName, TokenizerResult};
use rustc_hash::FxHashMap;

use crate::archive;
use crate::document::{
    Attr, ClassId, Document, DocumentData, ElementNs, NO_PARENT, NO_SPAN, Node, NodeKind,
};
use crate::encoding::{self, Decoded};
use crate::error::DomError;
use crate::tokenize::{SpanKind, SpanSink, utf8_len};

/// Limits and hints for [`parse_with`].
#[derive(Clone, Debug, PartialEq)]
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
    /// Which tokenizer feeds html5ever's tree builder. Both build identical documents, except
    /// that only the fast one records source spans ([`Document::span`]).
    pub tokenizer: TokenizerKind,
    /// Take out what a web archive injected into a captured page (the Wayback Machine's head
    /// scripts, toolbar and closing notice; see [`crate::archive`]) before building the tree.
    /// On by default. Pages without the archive's markers are parsed exactly as they are.
    ///
    /// Source spans and lines stay those of the text as given: each insert is replaced by a
    /// comment of the same length and the same line breaks, which is then dropped from the
    /// tree (text on both sides of it merges into one node, whose span is the hull of both
    /// pieces). No node's span starts or ends inside an insert; spans of the elements around
    /// one cover it. [`Document::archive_inserts`] lists the byte ranges taken out.
    pub strip_archive_inserts: bool,
    /// When set, building the tree stops once this instant has passed (checked every few
    /// thousand tokens) and the parse fails with [`DomError::Deadline`]: a caller with a time
    /// budget per page need not wait for a huge page's whole tree.
    pub deadline: Option<Instant>,
    /// The most nodes a page may have for its size; a page with more is refused with
    /// [`DomError::TooManyNodes`] as soon as its tree passes the limit (so the refusal
    /// itself costs no more than the limit).
    pub node_budget: NodeBudget,
    /// When a page's text holds C1 controls, read its text again as the UTF-8 some program
    /// misread as Latin-1 or Windows-1252 before the page was served ([`crate::mojibake`]).
    /// On by default; a page whose text holds no C1 control is never changed, nor are scripts
    /// and styles. Spans stay those of the source.
    pub mend_misread_utf8: bool,
}

/// How many nodes a page of a given size may have: at least `floor`, or one per
/// `bytes_per_node` bytes of the page, whichever is more (`bytes_per_node == 0`: no limit).
///
/// Memory per page grows with its nodes (each costs some hundred bytes across the tree, the
/// text view and the features methods compute), so a page made of many tiny elements would
/// cost many times its size; the budget keeps a page's memory within a fixed multiple of its
/// size. [`NodeBudget::FOR_EXTRACTION`] refuses no page of up to `floor` nodes whatever its
/// size (about 25 MB of extraction at most), nor any larger page with at least
/// `bytes_per_node` bytes per node. The default is [`NodeBudget::UNLIMITED`]: parsing alone
/// describes any page it is given; the `chaff` facade's default load options and the `chaff`
/// command use [`NodeBudget::FOR_EXTRACTION`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeBudget {
    /// Nodes allowed whatever the page's size.
    pub floor: usize,
    /// Bytes of page per node allowed beyond the floor; 0 lifts the limit.
    pub bytes_per_node: usize,
}

impl NodeBudget {
    /// No limit.
    pub const UNLIMITED: NodeBudget = NodeBudget {
        floor: usize::MAX,
        bytes_per_node: 0,
    };

    /// The budget for pages that are to be extracted, from measurements: see
    /// [`DEFAULT_NODE_FLOOR`] and [`DEFAULT_BYTES_PER_NODE`].
    pub const FOR_EXTRACTION: NodeBudget = NodeBudget {
        floor: DEFAULT_NODE_FLOOR,
        bytes_per_node: DEFAULT_BYTES_PER_NODE,
    };

    /// The most nodes a page of `len` bytes may have.
    pub fn limit(&self, len: usize) -> usize {
        match len.checked_div(self.bytes_per_node) {
            Some(n) => n.max(self.floor),
            None => usize::MAX,
        }
    }
}

impl Default for NodeBudget {
    fn default() -> Self {
        NodeBudget::UNLIMITED
    }
}

/// [`NodeBudget::floor`] of [`NodeBudget::FOR_EXTRACTION`]: past the most nodes of any of 2,878 real pages
/// (wcxb-dev and Dragnet: 34,450 nodes), about 25 MB of extraction at the cost below.
pub const DEFAULT_NODE_FLOOR: usize = 50_000;
/// [`NodeBudget::bytes_per_node`] of [`NodeBudget::FOR_EXTRACTION`]. Extraction with the built-in methods costs
/// about 480 bytes per node at its peak (the tree, the text view and the content model's
/// per-node sums and feature rows; measured on pages of 3·10^5 to 2·10^6 nodes), so a page of
/// at least 48 bytes per node stays within 10 times its size. Real pages have a median of
/// 46 bytes per node and 5% have fewer than 30 (wcxb-dev and Dragnet); none of them has
/// enough nodes to reach past the floor.
pub const DEFAULT_BYTES_PER_NODE: usize = 48;

/// The tokenizer choice of [`ParseOptions::tokenizer`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TokenizerKind {
    /// This crate's tokenizer (`tokenize.rs`): whole-input, memchr-driven, several times faster.
    /// Records source spans.
    #[default]
    Fast,
    /// html5ever's own tokenizer, kept as the reference the fast one is tested against. It
    /// reports no source positions, so [`Document::span`] is `None` for every node.
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
            strip_archive_inserts: true,
            deadline: None,
            node_budget: NodeBudget::UNLIMITED,
            mend_misread_utf8: true,
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
    // Spans index the input itself when the decoder handed it through unchanged.
    let as_is = matches!(&decoded.text, Cow::Borrowed(t) if t.as_ptr() == bytes.as_ptr());
    build(decoded, bytes.len(), as_is, opts)
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
    build(decoded, html.len(), true, opts)
}

fn build(
    decoded: Decoded<'_>,
    source_len: usize,
    spans_are_source_bytes: bool,
    opts: &ParseOptions,
) -> Result<Document, DomError> {
    let max_depth = opts.max_depth.max(1);
    // A BOM is removed by the decoder; html5ever also drops one more U+FEFF at the very start.
    let text = decoded
        .text
        .strip_prefix('\u{feff}')
        .unwrap_or(&decoded.text);
    // Spans are u32 offsets into the decoded text; `base` is what was stripped before `text`.
    let base = decoded.text.len() - text.len();
    // Archive inserts become comments of the same length, dropped once the tree is built.
    let inserts = if opts.strip_archive_inserts {
        archive::find_inserts(text.as_bytes())
    } else {
        Vec::new()
    };
    let blanked;
    let text: &str = if inserts.is_empty() {
        text
    } else {
        blanked = archive::blank(text, &inserts);
        &blanked
    };
    let track_spans = opts.tokenizer == TokenizerKind::Fast && decoded.text.len() < NONE as usize;
    let guard = DepthGuard {
        tree_builder: TreeBuilder::new(
            Sink::new(track_spans.then_some(text)),
            // chaff runs no scripts, so it reads a page as a browser with scripting off
            // does: `<noscript>` content is parsed as markup (forum software and other
            // script-built pages put their whole text there for such readers).
            TreeBuilderOpts {
                scripting_enabled: false,
                ..TreeBuilderOpts::default()
            },
        ),
        dropped: RefCell::new(Vec::new()),
        limit: max_depth,
        deadline: opts.deadline,
        tokens: Cell::new(0),
        max_nodes: opts.node_budget.limit(source_len),
        stopped: Cell::new(None),
        in_text: Cell::new(false),
    };
    let stopped = |why: Option<Stopped>| match why {
        None => Ok(()),
        Some(Stopped::Deadline) => Err(DomError::Deadline),
        Some(Stopped::Nodes) => Err(DomError::TooManyNodes {
            len: source_len,
            limit: opts.node_budget.limit(source_len),
            budget: opts.node_budget,
        }),
    };
    let arena = match opts.tokenizer {
        TokenizerKind::Fast => {
            crate::tokenize::tokenize(text, &guard);
            stopped(guard.stopped.get())?;
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
            stopped(tokenizer.sink.stopped.get())?;
            tokenizer.sink.tree_builder.sink
        }
    };
    if !inserts.is_empty() {
        arena.drop_blanked_comments();
    }
    let mut doc = arena.into_document(max_depth, base as u32, opts.mend_misread_utf8);
    doc.archive_inserts = inserts
        .into_iter()
        .map(|i| i.range.start + base..i.range.end + base)
        .collect();
    doc.spans_are_source_bytes = spans_are_source_bytes;
    doc.encoding = decoded.encoding;
    doc.encoding_source = decoded.source;
    doc.had_decode_errors = decoded.had_errors;
    doc.source_len = source_len;
    Ok(Document {
        data: std::sync::Arc::new(doc),
    })
}

const NONE: u32 = u32::MAX;
// Unknown spans are `(NONE, 0)` here and in the document's span table.
const _: () = assert!(NONE == NO_SPAN);

/// Sits between html5ever's tokenizer and tree builder and keeps the tree builder's stack of
/// open elements shallow. The tree builder's scope checks walk that stack on every start tag,
/// so 100,000 nested `<div>`s would cost 10^10 steps; beyond `limit` we drop start tags (and
/// their matching end tags), so their content lands in the deepest allowed element, which is
/// also what browsers do.
struct DepthGuard<'a> {
    tree_builder: TreeBuilder<u32, Sink<'a>>,
    /// Names of dropped start tags and how many of each still await their end tag.
    dropped: RefCell<Vec<(LocalName, u32)>>,
    limit: u32,
    /// [`ParseOptions::deadline`]; once it has passed, `stopped` is set and every further
    /// token is dropped (the tokenizer's own scan is cheap; the tree is the cost).
    deadline: Option<Instant>,
    tokens: Cell<u32>,
    /// The most nodes the tree may get ([`NodeBudget::limit`]); past it, as past the
    /// deadline, every further token is dropped.
    max_nodes: usize,
    /// Why the tree was stopped, if it was.
    stopped: Cell<Option<Stopped>>,
    /// The tree builder is in its text mode (the content of a `<script>`, `<title>`,
    /// `<textarea>`…): the next end tag is the one that ends it and always reaches the tree
    /// builder, even when an element of that name was dropped deeper up the page. Swallowing
    /// it left the tree builder in text mode while the tokenizer read markup again, and
    /// html5ever panicked on the next start tag ("impossible case in Text mode"); found by
    /// the `html_extract` fuzz target.
    in_text: Cell<bool>,
}

/// Why [`DepthGuard`] stopped building the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stopped {
    Deadline,
    Nodes,
}

/// Tokens between two looks at the clock.
const DEADLINE_EVERY: u32 = 4096;

impl SpanSink for DepthGuard<'_> {
    #[inline(always)]
    fn token_span(&self, start: usize, end: usize, kind: SpanKind) {
        // `build` checked that the whole input fits in u32 offsets.
        self.tree_builder
            .sink
            .note_token(start as u32, end as u32, kind);
    }
}

impl TokenSink for DepthGuard<'_> {
    type Handle = u32;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<u32> {
        if self.stopped.get().is_some() {
            return TokenSinkResult::Continue;
        }
        if self.tree_builder.sink.nodes.borrow().len() > self.max_nodes {
            self.stopped.set(Some(Stopped::Nodes));
            return TokenSinkResult::Continue;
        }
        if let Some(deadline) = self.deadline {
            let n = self.tokens.get().wrapping_add(1);
            self.tokens.set(n);
            if n.is_multiple_of(DEADLINE_EVERY) && Instant::now() >= deadline {
                self.stopped.set(Some(Stopped::Deadline));
                return TokenSinkResult::Continue;
            }
        }
        if let TagToken(tag) = &token {
            if tag.kind == StartTag
                && self.tree_builder.sink.insertion_depth.get() >= self.limit
                && !tag.self_closing
                && !crate::serialize::is_void(&tag.name)
            {
                let mut dropped = self.dropped.borrow_mut();
                match dropped.iter_mut().find(|(n, _)| *n == tag.name) {
                    Some((_, count)) => *count += 1,
                    None => dropped.push((tag.name.clone(), 1)),
                }
                return TokenSinkResult::Continue;
            }
            if tag.kind == EndTag && !self.in_text.get() {
                let mut dropped = self.dropped.borrow_mut();
                if let Some((_, count)) = dropped.iter_mut().find(|(n, c)| *c > 0 && *n == tag.name)
                {
                    *count -= 1;
                    return TokenSinkResult::Continue;
                }
            }
        }
        if let TagToken(tag) = &token
            && self.tree_builder.sink.spans.is_some()
        {
            self.tree_builder.sink.begin_tag(tag);
        }
        let end_tag = matches!(&token, TagToken(tag) if tag.kind == EndTag);
        let result = self.tree_builder.process_token(token, line_number);
        match result {
            TokenSinkResult::RawData(_) | TokenSinkResult::Plaintext => self.in_text.set(true),
            _ if end_tag => self.in_text.set(false),
            _ => {}
        }
        result
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
    /// [`NOT_OPENED`], [`FOSTERED`].
    flags: u8,
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
    /// For a foster-parented element, the node that was current when it was inserted (the
    /// table part it stands in for on the stack of open elements); for a template's contents
    /// fragment, the template. See the module docs.
    below: u32,
    /// Source span: `(NONE, 0)` while unknown, so that widening is a plain min and max.
    span: (u32, u32),
    attrs: Vec<Attribute>,
    text: StrTendril,
}

/// The element was never open: a void element (html5ever inserts it without pushing it), or
/// a `p` or `br` made from an end tag.
const NOT_OPENED: u8 = 1;
/// The element was foster-parented (inserted before a table rather than into the current node).
const FOSTERED: u8 = 2;

impl BNode {
    fn new(kind: NodeKind, line: u32) -> BNode {
        BNode {
            kind,
            flags: 0,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            line,
            depth: 0,
            template_contents: NONE,
            below: NONE,
            span: (NONE, 0),
            attrs: Vec::new(),
            text: StrTendril::new(),
        }
    }
}

/// Widens `a` to cover `b` (either may be unknown).
#[inline]
fn hull(a: (u32, u32), b: (u32, u32)) -> (u32, u32) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// What kind of token the tree builder is processing, as far as spans care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cur {
    /// Before the first token.
    Nothing,
    Start,
    End,
    Chars,
    Nul,
    /// Comment, DOCTYPE, end of file.
    Other,
}

/// The token the tree builder is processing.
#[derive(Clone, Copy, Debug)]
struct Tok {
    /// Its span.
    start: u32,
    end: u32,
    /// A character token's text length, and how far into it the pieces the tree builder
    /// inserted have reached.
    len: u32,
    used: u32,
    cur: Cur,
    /// A character token's text is exactly `src[start..end]`.
    verbatim: bool,
    /// Right after `<pre>`, `<listing>` or `<textarea>`: a character token's leading LF is
    /// dropped.
    lf: bool,
}

impl Tok {
    #[inline]
    fn span(&self) -> (u32, u32) {
        (self.start, self.end)
    }
}

/// The span bookkeeping of a [`Sink`] fed by the fast tokenizer.
struct Spans<'a> {
    /// The tokenizer's input; token spans index it.
    src: &'a str,
    tok: Cell<Tok>,
    /// The current tag token's name and self-closing flag.
    name: RefCell<LocalName>,
    self_closing: Cell<bool>,
    /// Hull of the run of character tokens since the last other token (NULs and DOCTYPEs,
    /// which the tree builder drops there, do not end it): pending table text that the tree
    /// builder inserts while processing the token after the run.
    run: Cell<(u32, u32)>,
    in_run: Cell<bool>,
    /// The element holding the current start tag's span so far.
    holder: Cell<u32>,
    /// The tree builder's current node, as far as the sink can tell (see the module docs).
    cursor: Cell<u32>,
}

/// The build arena. Element names live in their own cell so that `elem_name` can hand out a
/// borrow while the tree builder mutates links (it never holds a name across a mutation).
struct Sink<'a> {
    nodes: RefCell<Vec<BNode>>,
    names: RefCell<Vec<QualName>>,
    line: Cell<u32>,
    /// Depth of the parent of the most recent insertion: where the tree builder is working.
    insertion_depth: Cell<u32>,
    /// Present when spans are recorded (fast tokenizer).
    spans: Option<Spans<'a>>,
}

/// A fragment node (template contents) is a document-like container without a name.
const FRAGMENT: NodeKind = NodeKind::Document;

impl<'a> Sink<'a> {
    fn new(span_source: Option<&'a str>) -> Sink<'a> {
        let sink = Sink {
            nodes: RefCell::new(Vec::with_capacity(1024)),
            names: RefCell::new(Vec::with_capacity(1024)),
            line: Cell::new(1),
            insertion_depth: Cell::new(0),
            spans: span_source.map(|src| Spans {
                src,
                tok: Cell::new(Tok {
                    start: NONE,
                    end: 0,
                    len: 0,
                    used: 0,
                    cur: Cur::Nothing,
                    verbatim: false,
                    lf: false,
                }),
                name: RefCell::new(local_name!("")),
                self_closing: Cell::new(false),
                run: Cell::new((NONE, 0)),
                in_run: Cell::new(false),
                holder: Cell::new(NONE),
                cursor: Cell::new(NONE),
            }),
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

    fn new_text(&self, text: StrTendril, span: (u32, u32)) -> u32 {
        let mut node = BNode::new(NodeKind::Text, self.line.get());
        node.text = text;
        node.span = span;
        self.push(node, empty_name())
    }

    /// The span of the token being processed, for comments and the DOCTYPE.
    fn token_span(&self) -> (u32, u32) {
        self.spans
            .as_ref()
            .map_or((NONE, 0), |sp| sp.tok.get().span())
    }

    /// Notes the span and kind of the token the tree builder is about to process (from the
    /// tokenizer, just before the token itself).
    #[inline(always)]
    fn note_token(&self, start: u32, end: u32, kind: SpanKind) {
        let Some(sp) = &self.spans else { return };
        let (cur, len, verbatim, lf) = match kind {
            SpanKind::Text {
                len,
                verbatim,
                after_lf_tag,
            } => (Cur::Chars, len, verbatim, after_lf_tag),
            SpanKind::Nul => (Cur::Nul, 0, false, false),
            SpanKind::StartTag => (Cur::Start, 0, false, false),
            SpanKind::EndTag => (Cur::End, 0, false, false),
            SpanKind::Doctype | SpanKind::Other => (Cur::Other, 0, false, false),
        };
        sp.tok.set(Tok {
            start,
            end,
            len,
            used: 0,
            cur,
            verbatim,
            lf,
        });
        if matches!(cur, Cur::Chars | Cur::Nul) {
            let run = if sp.in_run.get() {
                hull(sp.run.get(), (start, end))
            } else {
                (start, end)
            };
            sp.run.set(run);
            sp.in_run.set(true);
        } else if kind != SpanKind::Doctype {
            // A DOCTYPE after the start is dropped without a look at pending table text.
            sp.in_run.set(false);
        }
    }

    /// A tag token the tree builder is about to process: remembers its name, and closes
    /// elements for an end tag.
    #[inline(never)]
    fn begin_tag(&self, tag: &Tag) {
        let Some(sp) = &self.spans else { return };
        {
            let mut name = sp.name.borrow_mut();
            if *name != tag.name {
                *name = tag.name.clone();
            }
        }
        sp.self_closing.set(tag.self_closing);
        sp.holder.set(NONE);
        if tag.kind == EndTag {
            self.close_for_end_tag(sp, sp.tok.get().span());
        }
    }

    /// The span of a piece of text the tree builder inserts now.
    #[inline(always)]
    fn text_span(&self, piece: &str) -> (u32, u32) {
        let Some(sp) = &self.spans else {
            return (NONE, 0);
        };
        let mut tok = sp.tok.get();
        match tok.cur {
            Cur::Chars => {
                if tok.used == 0 && piece.len() as u32 == tok.len {
                    // The whole token, by far the most common case.
                    tok.used = tok.len;
                    sp.tok.set(tok);
                    tok.span()
                } else {
                    sp.piece_span(piece)
                }
            }
            Cur::Nul => tok.span(),
            // Pending table text, inserted when the next token arrives.
            Cur::Start | Cur::End | Cur::Other => sp.run.get(),
            Cur::Nothing => (NONE, 0),
        }
    }

    /// The span and flags of an element about to be created, if it is the current tag's own
    /// element (see the module docs).
    fn element_stamp(&self, name: &QualName) -> Option<((u32, u32), u8)> {
        let sp = self.spans.as_ref()?;
        let tok = sp.tok.get();
        let span = tok.span();
        match tok.cur {
            Cur::Start => {
                let tag = sp.name.borrow();
                let same = *tag == name.local
                    || (name.ns != ns!(html) && tag.eq_ignore_ascii_case(&name.local))
                    || (*tag == local_name!("image") && name.local == local_name!("img"));
                if !same {
                    return None;
                }
                let mut nodes = self.nodes.borrow_mut();
                let prev = sp.holder.replace(nodes.len() as u32);
                if prev != NONE {
                    // An earlier element of the same name (a reconstructed formatting element)
                    // was not the tag's own after all.
                    let p = &mut nodes[prev as usize];
                    p.span = (NONE, 0);
                    p.flags &= !NOT_OPENED;
                }
                let void = name.ns == ns!(html) && is_void_atom(&name.local);
                Some((span, if void { NOT_OPENED } else { 0 }))
            }
            // `</p>` without an open `p`, and `</br>`, create their element from the end tag.
            Cur::End => (name.ns == ns!(html)
                && *sp.name.borrow() == name.local
                && matches!(name.local, local_name!("p") | local_name!("br")))
            .then_some((span, NOT_OPENED)),
            _ => None,
        }
    }

    /// A fresh element was inserted into the tree; it becomes the current node, or, if it is
    /// never opened (a void element), its parent is. (Elements the adoption agency assembles
    /// already have children; end tags only create such clones and elements that are not
    /// opened, so they are left out.)
    #[inline]
    fn opened(&self, id: u32, fostered_from: Option<u32>) {
        let Some(sp) = &self.spans else { return };
        if sp.tok.get().cur == Cur::End {
            return;
        }
        let mut nodes = self.nodes.borrow_mut();
        let n = &mut nodes[id as usize];
        if n.kind != NodeKind::Element || n.first_child != NONE {
            return;
        }
        if n.flags & NOT_OPENED != 0 {
            if fostered_from.is_none() {
                sp.cursor.set(Self::below(&nodes, id));
            }
            return;
        }
        if let Some(current) = fostered_from {
            n.flags |= FOSTERED;
            n.below = current;
        }
        sp.cursor.set(id);
    }

    /// Text was appended to `parent`, which is therefore the current node (except while an
    /// end tag flushes pending table text: the end tag has been accounted for already).
    #[inline]
    fn text_appended(&self, parent: u32) {
        let Some(sp) = &self.spans else { return };
        if sp.cursor.get() == parent || sp.tok.get().cur == Cur::End {
            return;
        }
        let nodes = self.nodes.borrow();
        let node = &nodes[parent as usize];
        let current = if node.kind == FRAGMENT && parent != 0 {
            node.below
        } else {
            parent
        };
        sp.cursor.set(current);
    }

    /// The node below `n` on the tree builder's stack of open elements, going by the tree: its
    /// parent, or for a foster-parented element the table part it was current in, or for
    /// template contents the template.
    #[inline]
    fn below(nodes: &[BNode], n: u32) -> u32 {
        let node = &nodes[n as usize];
        if node.flags & FOSTERED != 0 {
            return node.below;
        }
        let p = node.parent;
        if p != NONE && p != 0 && nodes[p as usize].kind == FRAGMENT {
            nodes[p as usize].below
        } else {
            p
        }
    }

    /// An end tag is about to be processed: find the open element it closes, as the tree
    /// builder will (nearest match from the current node down, within the scope the standard
    /// checks for that tag), and record the end tag's end as its end.
    #[inline(never)]
    fn close_for_end_tag(&self, sp: &Spans<'_>, span: (u32, u32)) {
        let tag = sp.name.borrow();
        // Worked out at the first open element the tag does not close (usually there is none).
        let mut kind = None;
        // For a formatting element: whether a special element stands above it, which the
        // adoption agency leaves open (with everything above it) as its "furthest block".
        let mut furthest = false;
        let mut nodes = self.nodes.borrow_mut();
        let names = self.names.borrow();
        let mut n = sp.cursor.get();
        let mut steps = 0;
        let found = loop {
            if n == NONE || n == 0 || steps > 1024 {
                return;
            }
            steps += 1;
            let q = &names[n as usize];
            if end_tag_matches(&tag, q) {
                break n;
            }
            let kind = *kind.get_or_insert_with(|| end_tag_scope(&tag));
            if stops_end_tag(kind, q) {
                return;
            }
            if kind == EndScope::Formatting && is_special(q) {
                furthest = true;
            }
            n = Self::below(&nodes, n);
        };
        // `</body>` and `</html>` only change the insertion mode: later content still goes
        // into what is open. A formatting end tag leaves the furthest block open.
        let pops = !furthest && !matches!(*tag, local_name!("body") | local_name!("html"));
        if pops {
            sp.cursor.set(Self::below(&nodes, found));
        }
        let node = &mut nodes[found as usize];
        node.span = hull(node.span, span);
    }
}

impl Spans<'_> {
    /// The span of `piece`, a part of the current character token the tree builder inserts.
    /// Pieces come in order, and what the tree builder leaves out is leading whitespace (a
    /// run split off and ignored, or the LF after `<pre>`), so the piece is found by skipping
    /// whitespace. Falls back to the whole token's span where that does not find it (the tree
    /// builder drops other characters in framesets) or, in a token with character references,
    /// where [`Spans::piece_span_with_references`] cannot place the piece.
    #[cold]
    fn piece_span(&self, piece: &str) -> (u32, u32) {
        let mut tok = self.tok.get();
        let whole = tok.span();
        let src = &self.src[whole.0 as usize..whole.1 as usize];
        // The token's text where it can be rebuilt: the source itself, or with CR LF, CR and
        // NUL rewritten (this path is rare; a copy is fine); not with character references.
        let rewritten;
        let text = if tok.verbatim {
            Some(src)
        } else if memchr::memchr(b'&', src.as_bytes()).is_some() {
            None
        } else {
            rewritten = preprocess(src);
            Some(rewritten.as_str())
        }
        .filter(|t| t.len() == tok.len as usize);
        if tok.lf
            && tok.used == 0
            && piece.len() + 1 == tok.len as usize
            && text.is_none_or(|t| t.as_bytes().get(1..) == Some(piece.as_bytes()))
        {
            // All but the dropped LF, which was written as CR LF, CR or LF. (The tree builder
            // may have ignored the start tag; where the text can be rebuilt, it is checked.)
            let lf = match src.as_bytes() {
                [b'\r', b'\n', ..] => 2,
                [b'\r' | b'\n', ..] => 1,
                _ => return whole,
            };
            tok.used = tok.len;
            self.tok.set(tok);
            return (whole.0 + lf, whole.1);
        }
        let Some(text) = text else {
            return self.piece_span_with_references(piece, tok, src);
        };
        let (bytes, len) = (text.as_bytes(), piece.len());
        let mut o = tok.used as usize;
        while bytes.get(o..o + len) != Some(piece.as_bytes()) {
            match bytes.get(o) {
                Some(b) if b.is_ascii_whitespace() => o += 1,
                _ => return whole,
            }
        }
        tok.used = (o + len) as u32;
        self.tok.set(tok);
        if tok.verbatim {
            return (whole.0 + o as u32, whole.0 + (o + len) as u32);
        }
        let (a, b) = source_offsets(src, o, o + len);
        (whole.0 + a as u32, whole.0 + b as u32)
    }

    /// [`Spans::piece_span`] for a token whose text cannot be rebuilt from its source
    /// (character references). Up to where the pieces have reached, the source was read
    /// literally, so text offsets are source offsets there; from that point whitespace the
    /// tree builder left out is skipped as in `piece_span`, and a piece is exact when it is
    /// written literally next or is all the rest of the token. Anything else gets the whole
    /// token's span (a piece after a reference, which only the tree builder could place).
    #[cold]
    fn piece_span_with_references(&self, piece: &str, mut tok: Tok, src: &str) -> (u32, u32) {
        let whole = tok.span();
        let bytes = src.as_bytes();
        let literal = !piece.bytes().any(|b| matches!(b, b'&' | b'\r' | b'\0'));
        let mut o = tok.used as usize;
        let (a, b) = loop {
            if literal && src.get(o..).is_some_and(|s| s.starts_with(piece)) {
                tok.used = (o + piece.len()) as u32;
                break (o, o + piece.len());
            }
            // All the rest: straight after the last piece, or after whitespace the tree
            // builder dropped, and then the piece starts where the text stops being
            // whitespace (a reference may have written some, as in ` &#32;x`).
            let after_dropped =
                o == tok.used as usize || !piece.starts_with(|c: char| c.is_ascii_whitespace());
            if after_dropped && (tok.len as usize).checked_sub(o) == Some(piece.len()) {
                tok.used = tok.len;
                break (o, src.len());
            }
            match bytes.get(o) {
                Some(b' ' | b'\t' | b'\n' | b'\x0c') => o += 1,
                _ => return whole,
            }
        };
        self.tok.set(tok);
        (whole.0 + a as u32, whole.0 + b as u32)
    }
}

/// `src` with the input stream preprocessing applied: CR LF and CR become LF, NUL U+FFFD.
fn preprocess(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push('\n');
            }
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The offsets in `src` of the text offsets `a <= b` of [`preprocess`]`(src)`.
fn source_offsets(src: &str, a: usize, b: usize) -> (usize, usize) {
    let bytes = src.as_bytes();
    let (mut at_a, mut p, mut t) = (0, 0, 0);
    while p < bytes.len() && t < b {
        if t == a {
            at_a = p;
        }
        let (s, n) = match bytes[p] {
            b'\r' => (1 + usize::from(bytes.get(p + 1) == Some(&b'\n')), 1),
            0 => (1, 3),
            c => {
                let l = utf8_len(c);
                (l, l)
            }
        };
        p += s;
        t += n;
    }
    if t <= a {
        at_a = p;
    }
    (at_a, p)
}

/// Which elements bound the search for the element an end tag closes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EndScope {
    /// Table parts: only `html`, `table` and `template` (the standard's table scope).
    Table,
    /// The default scope plus `button` (for `</p>`).
    Button,
    /// The default scope plus `ol` and `ul` (for `</li>`).
    ListItem,
    /// The default scope (special elements).
    Default,
    /// The default scope, for formatting elements (the adoption agency).
    Formatting,
    /// Any other end tag: also stops at special elements.
    Special,
}

fn end_tag_scope(tag: &LocalName) -> EndScope {
    match *tag {
        local_name!("table")
        | local_name!("tbody")
        | local_name!("thead")
        | local_name!("tfoot")
        | local_name!("tr")
        | local_name!("td")
        | local_name!("th")
        | local_name!("caption") => EndScope::Table,
        local_name!("p") => EndScope::Button,
        local_name!("li") => EndScope::ListItem,
        local_name!("a")
        | local_name!("b")
        | local_name!("big")
        | local_name!("code")
        | local_name!("em")
        | local_name!("font")
        | local_name!("i")
        | local_name!("nobr")
        | local_name!("s")
        | local_name!("small")
        | local_name!("strike")
        | local_name!("strong")
        | local_name!("tt")
        | local_name!("u") => EndScope::Formatting,
        ref t if is_special_html(t) => EndScope::Default,
        _ => EndScope::Special,
    }
}

/// Whether an end tag named `tag` closes the element `q`.
fn end_tag_matches(tag: &LocalName, q: &QualName) -> bool {
    if q.ns == ns!(html) {
        *tag == q.local || (is_heading(tag) && is_heading(&q.local))
    } else {
        tag.eq_ignore_ascii_case(&q.local)
    }
}

/// [`crate::serialize::is_void`] for an atom.
fn is_void_atom(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("keygen")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// Whether an element's name is a heading's, `h1` to `h6`.
pub fn is_heading(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
    )
}

/// Whether an open element `q` that an end tag does not close keeps it from closing anything
/// below.
fn stops_end_tag(scope: EndScope, q: &QualName) -> bool {
    let html = q.ns == ns!(html);
    match scope {
        EndScope::Table => {
            html && matches!(
                q.local,
                local_name!("html") | local_name!("table") | local_name!("template")
            )
        }
        EndScope::Button => in_default_scope(q) || (html && q.local == local_name!("button")),
        EndScope::ListItem => {
            in_default_scope(q)
                || (html && matches!(q.local, local_name!("ol") | local_name!("ul")))
        }
        EndScope::Default | EndScope::Formatting => in_default_scope(q),
        EndScope::Special => in_default_scope(q) || is_special(q),
    }
}

/// The elements that bound the standard's default scope (as html5ever has it).
fn in_default_scope(q: &QualName) -> bool {
    match q.ns {
        ns!(html) => html_default_scope(&q.local),
        ns!(svg) => matches!(
            q.local,
            local_name!("desc") | local_name!("foreignObject") | local_name!("title")
        ),
        ns!(mathml) => matches!(
            q.local,
            local_name!("annotation-xml")
                | local_name!("mi")
                | local_name!("mn")
                | local_name!("mo")
                | local_name!("ms")
                | local_name!("mtext")
        ),
        _ => false,
    }
}

/// The HTML elements among [`in_default_scope`].
fn html_default_scope(local: &LocalName) -> bool {
    matches!(
        *local,
        local_name!("applet")
            | local_name!("caption")
            | local_name!("html")
            | local_name!("marquee")
            | local_name!("object")
            | local_name!("select")
            | local_name!("table")
            | local_name!("td")
            | local_name!("template")
            | local_name!("th")
    )
}

/// The standard's "special" category, which stops a generic end tag such as `</span>`.
fn is_special(q: &QualName) -> bool {
    if q.ns == ns!(html) {
        is_special_html(&q.local)
    } else {
        in_default_scope(q)
    }
}

/// The HTML elements among [`is_special`].
fn is_special_html(local: &LocalName) -> bool {
    html_default_scope(local)
        || is_heading(local)
        || matches!(
            *local,
            local_name!("address")
                | local_name!("area")
                | local_name!("article")
                | local_name!("aside")
                | local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("blockquote")
                | local_name!("body")
                | local_name!("br")
                | local_name!("button")
                | local_name!("center")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("dd")
                | local_name!("details")
                | local_name!("dir")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dt")
                | local_name!("embed")
                | local_name!("fieldset")
                | local_name!("figcaption")
                | local_name!("figure")
                | local_name!("footer")
                | local_name!("form")
                | local_name!("frame")
                | local_name!("frameset")
                | local_name!("head")
                | local_name!("header")
                | local_name!("hgroup")
                | local_name!("hr")
                | local_name!("iframe")
                | local_name!("img")
                | local_name!("input")
                | local_name!("keygen")
                | local_name!("li")
                | local_name!("link")
                | local_name!("listing")
                | local_name!("main")
                | local_name!("menu")
                | local_name!("meta")
                | local_name!("nav")
                | local_name!("noembed")
                | local_name!("noframes")
                | local_name!("noscript")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("param")
                | local_name!("plaintext")
                | local_name!("pre")
                | local_name!("script")
                | local_name!("search")
                | local_name!("section")
                | local_name!("source")
                | local_name!("style")
                | local_name!("summary")
                | local_name!("tbody")
                | local_name!("textarea")
                | local_name!("tfoot")
                | local_name!("thead")
                | local_name!("title")
                | local_name!("tr")
                | local_name!("track")
                | local_name!("ul")
                | local_name!("wbr")
                | local_name!("xmp")
        )
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

impl<'s> TreeSink for Sink<'s> {
    type Handle = u32;
    type Output = Sink<'s>;
    type ElemName<'a>
        = Ref<'a, QualName>
    where
        's: 'a;

    fn finish(self) -> Sink<'s> {
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
        if let Some((span, flags)) = self.element_stamp(&name) {
            node.span = span;
            node.flags = flags;
        }
        let id = self.push(node, name);
        if flags.template {
            let mut fragment = BNode::new(FRAGMENT, self.line.get());
            fragment.below = id;
            let contents = self.push(fragment, empty_name());
            self.nodes.borrow_mut()[id as usize].template_contents = contents;
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        let mut node = BNode::new(NodeKind::Comment, self.line.get());
        node.text = text;
        node.span = self.token_span();
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
            NodeOrText::AppendNode(c) => {
                let fresh = {
                    let mut nodes = self.nodes.borrow_mut();
                    let fresh = nodes[c as usize].parent == NONE;
                    append_child(&mut nodes, *parent, c);
                    fresh
                };
                if fresh {
                    self.opened(c, None);
                }
            }
            NodeOrText::AppendText(t) => {
                let span = self.text_span(&t);
                self.text_appended(*parent);
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let last = nodes[*parent as usize].last_child;
                    if last != NONE && nodes[last as usize].kind == NodeKind::Text {
                        let n = &mut nodes[last as usize];
                        n.text.push_tendril(&t);
                        n.span = hull(n.span, span);
                        return;
                    }
                }
                let id = self.new_text(t, span);
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
        node.span = self.token_span();
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
            NodeOrText::AppendNode(c) => {
                let fresh = {
                    let mut nodes = self.nodes.borrow_mut();
                    let fresh = nodes[c as usize].parent == NONE;
                    insert_before(&mut nodes, *sibling, c);
                    fresh
                };
                // Foster parenting: it stands in for the table part on the stack.
                if fresh && let Some(sp) = &self.spans {
                    self.opened(c, Some(sp.cursor.get()));
                }
            }
            NodeOrText::AppendText(t) => {
                let span = self.text_span(&t);
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let prev = nodes[*sibling as usize].prev;
                    if prev != NONE && nodes[prev as usize].kind == NodeKind::Text {
                        let n = &mut nodes[prev as usize];
                        n.text.push_tendril(&t);
                        n.span = hull(n.span, span);
                        return;
                    }
                }
                let id = self.new_text(t, span);
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

    fn pop(&self, node: &u32) {
        let Some(sp) = &self.spans else { return };
        if sp.cursor.get() == *node {
            sp.cursor.set(Self::below(&self.nodes.borrow(), *node));
        }
    }
}

impl Sink<'_> {
    /// Detaches the comments that stand for archive inserts ([`archive::blank`]), merging the
    /// text nodes on both sides of one as if it had never been there.
    fn drop_blanked_comments(&self) {
        let mut nodes = self.nodes.borrow_mut();
        for id in 0..nodes.len() {
            let n = &nodes[id];
            if n.kind != NodeKind::Comment || n.parent == NONE || !archive::is_blanked(&n.text) {
                continue;
            }
            let (prev, next) = (n.prev, n.next);
            detach(&mut nodes, id as u32);
            if prev != NONE
                && next != NONE
                && nodes[prev as usize].kind == NodeKind::Text
                && nodes[next as usize].kind == NodeKind::Text
            {
                let text = std::mem::take(&mut nodes[next as usize].text);
                let span = nodes[next as usize].span;
                let p = &mut nodes[prev as usize];
                p.text.push_tendril(&text);
                p.span = hull(p.span, span);
                detach(&mut nodes, next);
            }
        }
    }

    /// Renumbers the linked arena into pre-order and packs it into a [`Document`].
    ///
    /// Template contents are emitted as children of their `<template>` element. Nodes deeper
    /// than `max_depth` become following siblings of their nearest allowed ancestor. Recorded
    /// spans are shifted by `base` and widened to cover the element's children.
    fn into_document(self, max_depth: u32, base: u32, mend: bool) -> DocumentData {
        let span_source_len = self.spans.as_ref().map(|sp| sp.src.len() as u32);
        let mut bnodes = self.nodes.into_inner();
        let names = self.names.into_inner();
        let mut nodes: Vec<Node> = Vec::with_capacity(bnodes.len());
        let mut spans: Vec<(u32, u32)> = Vec::with_capacity(match span_source_len {
            Some(_) => bnodes.len(),
            None => 0,
        });
        // Sized once from the build nodes, rather than grown by copying.
        let (attr_count, text_len) = bnodes.iter().fold((0, 0), |(a, t), bn| match bn.kind {
            NodeKind::Element => (a + bn.attrs.len(), t),
            _ => (a, t + bn.text.len()),
        });
        let mut attrs: Vec<Attr> = Vec::with_capacity(attr_count);
        let mut text = String::with_capacity(text_len);
        let mend = mend && misread(&bnodes, &names);
        let mut reparented = 0usize;
        let mut classes = ClassNumbers::default();
        let mut base_href = None;

        // Stack of (build id, final parent id, depth), children pushed in reverse.
        let mut stack: Vec<(u32, u32, u32)> = vec![(0, NO_PARENT, 0)];
        let mut kids: Vec<u32> = Vec::new();
        while let Some((b, parent, depth)) = stack.pop() {
            let id = nodes.len() as u32;
            let bn = &mut bnodes[b as usize];
            let mut class = ClassId::NONE.0;
            let (kind, ns, name, data) = match bn.kind {
                NodeKind::Element => {
                    let qn = &names[b as usize];
                    let start = attrs.len() as u32;
                    attrs.extend(bn.attrs.drain(..).map(|a| Attr {
                        name: a.name.local,
                        value: Box::from(&*a.value),
                    }));
                    class = classes.number(&attrs, start as usize);
                    let ns = ElementNs::from_namespace(&qn.ns);
                    if base_href.is_none()
                        && qn.local == local_name!("base")
                        && ns == ElementNs::Html
                    {
                        base_href = attrs[start as usize..]
                            .iter()
                            .position(|a| a.name == local_name!("href"))
                            .map(|k| start + k as u32);
                    }
                    (
                        NodeKind::Element,
                        ns,
                        qn.local.clone(),
                        (start, attrs.len() as u32),
                    )
                }
                kind => {
                    let start = text.len() as u32;
                    if mend && is_page_text(bn, &names) {
                        crate::mojibake::push_read_again(&mut text, &bn.text);
                    } else {
                        text.push_str(&bn.text);
                    }
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
                class,
            });
            if span_source_len.is_some() {
                spans.push(bn.span);
            }

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
        // Element spans grow to cover their children's in the same pass. Unknown spans are
        // `(NONE, 0)`, which min and max leave alone; only the root is not an element among
        // the parents, and its span is set below. An element with a start tag of its own keeps
        // that start: its children never start before it (they are created after the tag or
        // moved up from below it when the tree is too deep, and the tree builder moves older
        // nodes only into elements it makes without a tag, the adoption agency's clones). The
        // span tests check this on random markup and on every page of the shared datasets.
        let track = span_source_len.is_some();
        for i in (1..nodes.len()).rev() {
            let end = nodes[i].subtree_end;
            let p = nodes[i].parent as usize;
            if nodes[p].subtree_end < end {
                nodes[p].subtree_end = end;
            }
            if track {
                let (s, e) = spans[i];
                let ps = &mut spans[p];
                *ps = (ps.0.min(s), ps.1.max(e));
            }
        }
        if let Some(len) = span_source_len {
            if base != 0 {
                for s in spans.iter_mut().filter(|s| s.0 != NONE) {
                    *s = (s.0 + base, s.1 + base);
                }
            }
            // The root covers the whole decoded text, a stripped U+FEFF included.
            spans[0] = (0, base + len);
        }

        DocumentData {
            nodes,
            attrs,
            class_attrs: classes.attrs,
            base_href,
            text,
            encoding: encoding_rs::UTF_8,
            encoding_source: encoding::EncodingSource::ValidUtf8,
            had_decode_errors: false,
            source_len: 0,
            reparented,
            spans,
            spans_are_source_bytes: false,
            archive_inserts: Vec::new(),
        }
    }
}

/// Numbers the distinct `class` values of a page as its elements are laid out
/// ([`ClassId`]), in order of first appearance.
struct ClassNumbers {
    /// The number of each value seen.
    numbers: FxHashMap<Box<str>, u32>,
    /// For each number, the index into the attributes of its first appearance; entry 0
    /// stands for [`ClassId::NONE`].
    attrs: Vec<u32>,
}

impl Default for ClassNumbers {
    fn default() -> ClassNumbers {
        ClassNumbers {
            numbers: FxHashMap::default(),
            attrs: vec![0],
        }
    }
}

/// Whether an element of this name holds code rather than text: scripts and styles, kept as
/// written when a page is mended (chaff-meta mends the values it reads from JSON-LD itself).
fn is_code(name: &LocalName) -> bool {
    matches!(*name, local_name!("script") | local_name!("style"))
}

/// Whether `bn` is text of the page rather than code: a text node whose parent, as the tree
/// builder made it, is not a script or a style. The one test of what mending reads and
/// changes.
fn is_page_text(bn: &BNode, names: &[QualName]) -> bool {
    bn.kind == NodeKind::Text && !(bn.parent != NONE && is_code(&names[bn.parent as usize].local))
}

/// Whether the page's text shows it was misread as Latin-1 ([`crate::mojibake`]): a text
/// node outside scripts and styles holds a C1 control.
fn misread(bnodes: &[BNode], names: &[QualName]) -> bool {
    bnodes
        .iter()
        .any(|bn| is_page_text(bn, names) && crate::mojibake::holds_c1_control(&bn.text))
}

impl ClassNumbers {
    /// The number of the `class` value among `attrs[start..]`, an element's attributes
    /// (the first `class` one, as [`Document::attr`] finds it).
    fn number(&mut self, attrs: &[Attr], start: usize) -> u32 {
        let Some((k, value)) = attrs[start..]
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == local_name!("class"))
            .map(|(k, a)| (start + k, &*a.value))
        else {
            return ClassId::NONE.0;
        };
        if value.is_empty() {
            return ClassId::NONE.0;
        }
        if let Some(&n) = self.numbers.get(value) {
            return n;
        }
        let n = self.attrs.len() as u32;
        self.attrs.push(k as u32);
        self.numbers.insert(Box::from(value), n);
        n
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

    /// A deadline that has passed stops the tree at the first look at the clock (every
    /// 4096 tokens), with either tokenizer; a page of fewer tokens is parsed whole.
    #[test]
    fn a_passed_deadline_stops_the_parse() {
        let big = "<p>a <b>b</b></p>".repeat(4096);
        for tokenizer in [TokenizerKind::Fast, TokenizerKind::Html5ever] {
            let opts = ParseOptions {
                deadline: Some(Instant::now()),
                tokenizer,
                ..ParseOptions::default()
            };
            assert!(matches!(parse_str(&big, &opts), Err(DomError::Deadline)));
            assert!(parse_str("<p>small</p>", &opts).is_ok());
            let later = ParseOptions {
                deadline: Some(Instant::now() + std::time::Duration::from_secs(3600)),
                ..opts
            };
            assert_eq!(
                parse_str(&big, &later).unwrap().len(),
                parse_str(&big, &ParseOptions::default()).unwrap().len()
            );
        }
    }

    /// A page with more nodes than its budget is refused, naming the budget; the floor
    /// and a lifted limit let it through.
    #[test]
    fn the_node_budget_refuses_pages_of_tiny_elements() {
        let html = "<i>x</i>".repeat(1000); // 8 bytes per element and its text
        let budget = NodeBudget {
            floor: 100,
            bytes_per_node: 16,
        };
        assert_eq!(budget.limit(html.len()), 500);
        assert_eq!(budget.limit(10), 100);
        let opts = ParseOptions {
            node_budget: budget,
            ..ParseOptions::default()
        };
        let e = parse_str(&html, &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            "page has over 500 nodes in 8000 bytes, past the node budget (at least 100, else one per 16 bytes)"
        );
        assert!(parse_str(&"<i>x</i>".repeat(40), &opts).is_ok());
        let unlimited = ParseOptions {
            node_budget: NodeBudget::UNLIMITED,
            ..ParseOptions::default()
        };
        assert!(parse_str(&html, &unlimited).unwrap().len() > 2000);
        assert_eq!(NodeBudget::UNLIMITED.limit(usize::MAX), usize::MAX);
        // The extraction budget: a page of at least 48 bytes per node passes whatever its
        // size, a denser one only up to the floor; parsing alone has no budget.
        let extraction = ParseOptions {
            node_budget: NodeBudget::FOR_EXTRACTION,
            ..ParseOptions::default()
        };
        let p = "<p>Words enough to make a paragraph of some hundred bytes, fifty-five for each \
                 of its two nodes.</p>"
            .repeat(30_000);
        assert!(parse_str(&p, &extraction).unwrap().len() > 50_000);
        let dense = "<i>x</i>".repeat(30_000);
        assert!(matches!(
            parse_str(&dense, &extraction),
            Err(DomError::TooManyNodes { limit: 50_000, .. })
        ));
        assert!(parse_str(&dense, &ParseOptions::default()).is_ok());
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

    #[test]
    fn base_url_is_the_first_base_href_resolved_against_the_page() {
        let base = |html: &str, page: Option<&str>| {
            parse(html.as_bytes())
                .unwrap()
                .base_url(page)
                .map(String::from)
        };
        let page = Some("https://a.example/x/y.html");
        assert_eq!(
            base("<base href='../z/'><base href='https://c.example/'>", page).as_deref(),
            Some("https://a.example/z/")
        );
        assert_eq!(
            base("<base href=' https://b.example/d/ '>", None).as_deref(),
            Some("https://b.example/d/")
        );
        // No <base>, or one that does not resolve: the page's URL.
        assert_eq!(base("<p>x", page).as_deref(), page);
        assert_eq!(base("<base href='http://[bad/'>", page).as_deref(), page);
        // A relative <base> without the page's URL, or no URL at all: none.
        assert_eq!(base("<base href='/d/'>", None), None);
        assert_eq!(base("<p>x", Some("not a url")), None);
        // <base target> alone names no base.
        assert_eq!(base("<base target=_blank>", page).as_deref(), page);
    }

    /// The first HTML `<base>` with an `href`, looked for node by node as a reader would.
    fn first_base_href_by_walking(doc: &Document) -> Option<&str> {
        doc.ids()
            .filter(|&id| doc.is_tag(id, "base") && doc.namespace(id) == ElementNs::Html)
            .find_map(|id| doc.attr(id, "href"))
            .map(str::trim)
    }

    #[test]
    fn the_base_noted_when_building_is_the_first_found_by_walking() {
        for html in [
            "<base target=_top><p>x</p><base href='/b/'><base href='/c/'>",
            "<svg><base href='/svg/'></base></svg><base href=' /html/ '>",
            "<body><div><base href='/in-body/'></div>",
            "<template><base href='/t/'></template><base href='/after/'>",
            "<p>no base at all",
            "<base>",
        ] {
            let doc = parse(html.as_bytes()).unwrap();
            assert_eq!(doc.base_href(), first_base_href_by_walking(&doc), "{html}");
        }
        let doc = parse(b"<svg><base href='/svg/'></base></svg><base href=' /html/ '>").unwrap();
        assert_eq!(doc.base_href(), Some("/html/"));
    }

    proptest::proptest! {
        #[test]
        fn the_base_noted_on_random_markup_is_the_walk_s(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "<base href='/a/'>", "<base target=x>", "<base href=''>", "<svg>",
                    "</svg>", "<base href=/b/>", "<template>", "</template>", "<p>t",
                    "<math><base href=/m/>", "</math>", "<table><base href=/tb/>", "<div>",
                ]),
                0..10,
            )
        ) {
            let html = parts.concat();
            let doc = parse(html.as_bytes()).unwrap();
            proptest::prop_assert_eq!(doc.base_href(), first_base_href_by_walking(&doc));
        }
    }
}
