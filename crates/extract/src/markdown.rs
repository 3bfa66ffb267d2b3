//! Markdown rendering of the kept part of a page.
//!
//! An iterative pre-order walk (open elements on an explicit stack) drives a small line
//! writer that knows about block breaks, line prefixes (block quotes, list continuation) and
//! inline wrappers whose content may turn out empty (a link whose text was all removed
//! leaves nothing behind, not `[](url)`).
//!
//! Structure rules, each chosen so that the Markdown says what the page's markup says:
//! * A list item's first block starts on the marker's line (`- text`, never `- ` followed by
//!   an indented paragraph); its later blocks are indented continuation lines.
//! * Only data tables become GFM pipe tables. A table is read as layout (its cells become
//!   blocks) when it says so (`role="presentation"`/`"none"`), holds another table, or has
//!   fewer than two rows or two columns. A pipe table's cells stay on one line: blocks,
//!   breaks and list items inside a cell become spaces, and `|` is escaped.
//! * A heading is one line: blocks and breaks inside it become spaces.
//! * A heading needs a word (a letter or digit in its text): an empty one (`## `, `###
//!   &nbsp;`) is left out, and one holding only an image or a stray sign loses its marker
//!   and is a paragraph. Such a line heads nothing, and readers and chunkers that split on
//!   headings get an empty section.
//! * A list whose own items hold headings lays out cards (teasers, products, jobs), not a
//!   list: its items are written as blocks without markers, so each card's heading is a
//!   heading and not a `- ###` inside an item. Only the list's own items count; a nested
//!   list decides for itself, so each node is scanned by one list at most. A list whose
//!   every item is nothing but a heading is a list of titles (tools, products, chapters),
//!   not of cards: nothing under the headings needs laying out, so it stays a list and each
//!   heading is its item's text, without a marker.
//!
//! Measured on wcxb-dev against WCXB's gold Markdown (`crates/lab/scripts/md_eval.py`,
//! heading F1 counts a heading with its level): the two heading rules above took heading
//! F1 from 0.770 (P 0.669, R 0.908) to 0.780 (P 0.684, R 0.906) and list-item F1 from
//! 0.578 to 0.585; the empty/wordless rule alone gave 0.774. Plain-text output does not
//! go through this module and is unchanged. Tried and not kept (heading F1, each with the
//! wordless rule): writing a heading wrapped in a link as plain text, 0.786, but the whole
//! gain is one listing page whose hundreds of linked card titles the gold keeps as links,
//! and a heading is what a card title is; dropping the marker of every heading in a list
//! of cards, 0.783 (recall 0.906 -> 0.863: the cards' headings are headings in the gold
//! too); dropping level-1 headings, 0.775 (the gold often leaves the page title out, which
//! is a choice of content, not of Markdown). Level normalisation has nothing to gain:
//! only 38 of chaff's unmatched headings have the gold's text at another level. Most of
//! the unmatched headings are real `<h1>`-`<h6>` that the gold writes as plain lines or
//! links (about 4,400 of 7,500), or boilerplate headings whose text the gold leaves out
//! (about 2,300): the first no Markdown rule can follow, the second is extraction's.
//! * A link that wraps blocks is never split across lines (`[` on one line, `](url)` after
//!   a heading three lines down, as a naive writer leaves it). If it wraps a heading, the
//!   link is dropped and its blocks are written as blocks (the card's title stays a
//!   heading); otherwise its blocks are flattened to one line of link text.
//! * An image is written where its address is ([`image_source`]): a `data:` URI in `src` is
//!   a lazy loader's placeholder or an inlined icon, so the loader's own attribute
//!   (`data-src`, `data-lazy-src`, `data-original`, `srcset`) is read instead, and an image
//!   with no address is left out. Before, wcxb-dev's Markdown carried 1,416 `data:` URIs on
//!   138 pages (323 KB of base64); after, 968 of those images carry the loader's address and
//!   448 are left out. The scorer, which reads an image as its alt text, prints the same
//!   figures (2026-12-02).
//! * Code blocks are literal: emphasis and links inside `<pre>` add no markers, and the
//!   fence names the language from a `language-*`/`lang-*`/`highlight-*` class of the
//!   `<pre>` or of its `<code>`.
//!
//! Rules that keep markup from being written as structure the page does not mean (each
//! measured on wcxb-dev, development data, with `crates/lab/scripts/md_eval.py`: the
//! reference scorer's `markdown_structure` F1; before them list items 0.578, code lines
//! 0.293, headings 0.770 and table cells 0.764):
//! * Navigation is not itemised: a list inside a `<nav>`, a `<footer>` or an element whose
//!   role is `navigation`, `menu` or `menubar` (or carrying such a role itself) writes each
//!   item as a plain line. Alone: items 0.578 -> 0.582. The writer notes where the outermost
//!   open navigation element ends, so no list walks its ancestors.
//! * A list where more than half of the own items have a `<div>` child lays out boxes, not
//!   a list: plain lines too. Alone: items 0.583. With the navigation rule: 0.588.
//! * A `<pre>` inside a table (layout tables included; in a pipe-table cell it is a space
//!   anyway) is not fenced. Alone: code lines 0.299.
//! * A `<pre>` is fenced only when it declares code: a `<code>` child, or a language class
//!   on it or its `<code>`. Other `<pre>` (preformatted prose, addresses, ASCII layout) are
//!   written as plain lines, each trimmed, blank ones dropped. Alone: code lines 0.300,
//!   recall 0.756 -> 0.531 (the gold fences some bare `<pre>`), precision 0.182 -> 0.209;
//!   with the table rule 0.310 (0.299 for the table rule alone), so both ship.
//! * A highlighter's markup declares code too: a language class on the `<pre>`'s parent or
//!   grandparent (Sphinx's `<div class="highlight-python3"><div class="highlight"><pre>`,
//!   GitHub's `highlight-source-rust`), or Pygments' `<div class="highlight">` around it;
//!   a lexer that names no language (`highlight-default`) gives a bare fence. Python's,
//!   Flask's and PostgreSQL's manuals write their examples that way, and the rule above
//!   wrote them as plain lines: code lines 0.310 -> 0.328 (recall 0.531 -> 0.703, precision
//!   0.219 -> 0.214), list items 0.600 -> 0.599 (2026-12-02).
//!
//! All four together: headings 0.770, list items 0.589 (p 0.477, r 0.768), table cells
//! 0.765, code lines 0.310 (p 0.219, r 0.531); plain-text output unchanged (it does not go
//! through this module). Measured and dropped (item F1, each alone unless said): a list
//! whose items are all one linked word, 0.579; every nested list written as lines, 0.575
//! (recall 0.775 -> 0.746); class or id naming navigation, a menu, breadcrumbs or a footer
//! on the list or an ancestor, with the navigation rule, 0.518 (recall 0.775 -> 0.613:
//! content lists inside such containers are common).
//!
//! The heading rules and the list and `<pre>` rules together (measured after both were in,
//! 2026-11-28): headings 0.780 (p 0.684, r 0.906), list items 0.596 (p 0.481, r 0.785),
//! table cells 0.765, code lines 0.310; plain text unchanged. A heading that is all of an
//! item of a list written as plain lines (navigation, boxes) is that line's text, as in a
//! list of titles: the same figures as leaving its marker (recall 0.907), and navigation
//! holds no sections.
//!
//! Escaping: text is escaped only where CommonMark would read it as structure. An
//! underscore run with a letter or digit on both sides cannot open or close emphasis, so it
//! is written bare (`is_eligible_search`); before (every `_` escaped), 4,435 backslashes on
//! 127 of wcxb-dev's pages, and the scorer, which drops `_` but not `\`, read each such
//! name as separate words: table cells 0.765 -> 0.773, list items 0.596 -> 0.600, headings
//! 0.780 -> 0.782 (2026-12-02). A CommonMark reader (pulldown-cmark, in the tests) reads
//! every escaped text back as the text. A `<` that could open inline HTML or an autolink
//! (`<div>`, `</p>`, `<!--`, `<https://…>`) and a `&` that would read as a character
//! reference (`&amp;`, `&#38;`) are escaped too: a documentation page that names a tag
//! (`Use the <div> element`) rendered as an empty element and its words vanished, and
//! `&amp;` as written became `&`. Other `<` and `&` (`a < b`, `R&D`) stay bare. The scorer
//! reads words only, so the structure figures do not move (2026-12-04: the same four
//! figures; 362 `<` on 25 pages and 3 `&` escaped over wcxb-dev's Markdown).
//!
//! Every text reads back as itself (two property tests write random texts in every block
//! and split by every inline element, and read the Markdown back with pulldown-cmark).
//! What they found, now mended: a heading ending in ` #` lost it (a closing sequence);
//! text right after a list marker that read as a quote or heading; `1.` at a line's start
//! escaped as `\1.` (a backslash before a digit is shown; now `1\.`, and only where a
//! space follows); a number and its dot in two texts; emphasis that began or ended with a
//! space, or stood between a letter and a sign (`a*(b)*c`), or beside another (`**B****r**`),
//! shown as asterisks (such markers are now left out, the text kept, or the two joined);
//! a `!` before a link (an image); a character reference split over two texts. Over
//! wcxb-dev's Markdown, read back by markdown-it-py (`crates/lab/scripts/md_literal.py`,
//! 2026-12-04),
//! asterisks shown as text fell from 3,751 to 1,218 (the pages' own text holds 1,583),
//! backslashes shown from 1,028 to 394 (513 in the text), inline and block HTML from 185
//! to none; the structure figures are unchanged (list items p 0.483 -> 0.484).
//!
//! Code spans are literal, as CommonMark reads them: nothing inside is escaped (a
//! backslash there is shown as one; wcxb-dev's spans held 629 backslashes, 54 after, all
//! the pages' own), markup inside is its text, and the fence is longer than any run of
//! backticks inside. A `<code>` in a `<pre>` written as plain lines is plain text, since
//! those lines are escaped one by one.

use std::borrow::Cow;

use chaff_core::Labels;
use chaff_dom::text::{is_hidden, is_non_rendered};
use chaff_dom::{Document, NodeId, NodeKind, SegmentCursor, TextView};
use markup5ever::local_name;

use crate::address::Addresses;
use crate::xml::is_block;
use crate::{Omit, PageMeta, kept_text_of};

/// Renders the kept part of the page's body as Markdown, its addresses as the page has them.
pub fn markdown(doc: &Document, view: &TextView, labels: &Labels) -> String {
    markdown_for(doc, view, labels, &PageMeta::default())
}

/// [`markdown`] for the page `meta` describes: links and images left out as `meta.omit`
/// names (a link written as its text, an image not at all), and every address made
/// absolute against the page's base (its `<base href>`, else `meta.url`).
pub fn markdown_for(
    doc: &Document,
    view: &TextView,
    labels: &Labels,
    meta: &PageMeta<'_>,
) -> String {
    let root = doc.body().unwrap_or(NodeId::ROOT);
    let addresses = Addresses::new(doc, meta.url);
    let mut w = Writer {
        // Sized by the page's visible text, which the main text's Markdown seldom
        // outgrows, rather than grown by copying (a few thousand reallocations over 200
        // wcxb-dev pages; pages never touched are not paid for).
        out: String::with_capacity(view.text().len().min(MAX_RESERVED)),
        omit: meta.omit,
        addresses: Some(&addresses),
        ..Writer::default()
    };
    let end = doc.subtree_end(root).0;
    let mut open: Vec<(u32, Close)> = Vec::new();
    // A search per text node for its segment was a fifth of this function's time.
    let mut segments = SegmentCursor::new(view, root);
    let mut i = root.0;
    while i < end {
        while let Some(&(e, _)) = open.last() {
            if e > i {
                break;
            }
            if let Some((_, close)) = open.pop() {
                w.close(close);
            }
        }
        let id = NodeId(i);
        match doc.kind(id) {
            NodeKind::Element => {
                let tag = doc.tag(id);
                if labels.is_removed(id) || is_non_rendered(tag) || is_hidden(doc, id) {
                    i = doc.subtree_end(id).0;
                    continue;
                }
                let close = w.open(doc, id, tag);
                open.push((doc.subtree_end(id).0, close));
            }
            NodeKind::Text => {
                let segment = segments.seek(id);
                if let Some(t) = segment.and_then(|seg| kept_text_of(view, labels, seg)) {
                    // Segments are trimmed; the node's own edge whitespace separates it from
                    // its inline neighbours.
                    let raw = doc.text(id);
                    if raw.starts_with(|c: char| c.is_ascii_whitespace()) {
                        w.space();
                    }
                    w.text(&t);
                    if raw.ends_with(|c: char| c.is_ascii_whitespace()) {
                        w.space();
                    }
                } else if !labels.is_removed(id) && segment.is_none() && !doc.text(id).is_empty() {
                    w.space();
                }
            }
            _ => {}
        }
        i += 1;
    }
    while let Some((_, close)) = open.pop() {
        w.close(close);
    }
    w.finish()
}

#[derive(Clone, Copy, Debug)]
enum Close {
    Nothing,
    /// An element flattened to a space on each side (a block inside a heading).
    Space,
    Block,
    /// A heading: the writer's state before it (to take an empty heading back), where its
    /// marker starts and where its content starts (equal when it has no marker).
    Heading {
        before: Undo,
        start: usize,
        content_at: usize,
    },
    Line,
    /// A list item: its continuation prefix is popped.
    Item,
    List,
    Quote,
    Pre,
    /// A `<pre>` written as plain lines, not fenced.
    PlainPre,
    /// A list written as plain lines (not itemised).
    PlainList,
    /// Inline wrapper: the marker to close with, and where the opening marker starts (to
    /// take it back if nothing was written inside).
    Inline {
        marker: &'static str,
        start: usize,
        content_at: usize,
        /// The page's first character after the element (`None`: a space, a block's edge
        /// or nothing), which decides whether its closing marker can close.
        after: Option<char>,
    },
    /// An inline code span: where its opening backtick starts and where its content does
    /// (the fence is lengthened at the close when the content holds backticks).
    Code {
        start: usize,
        content_at: usize,
    },
    Link {
        start: usize,
        content_at: usize,
        href_at: usize,
    },
    Table,
    /// A layout table: its rows and cells were blocks.
    LayoutTable,
    /// A layout list (cards): its items were blocks.
    LayoutList,
    /// A link that wraps blocks and was flattened to one line.
    FlatLink {
        start: usize,
        content_at: usize,
        href_at: usize,
    },
    Row,
    Cell,
}

/// Where an inline element just written lies in the output (byte offsets), so that one
/// opened right after it can join it.
#[derive(Clone, Copy, Debug)]
struct Written {
    /// Its opening marker.
    start: usize,
    /// Its content.
    content_at: usize,
    /// Its closing marker.
    content_end: usize,
    /// Just after it.
    end: usize,
}

/// How a list's items are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ListKind {
    /// `- item` / `1. item`.
    Items,
    /// Cards: each item's blocks as blocks.
    Cards,
    /// Each item as a plain line, no marker.
    Plain,
}

/// The writer's state at a point, to take back what was written after it.
#[derive(Clone, Copy, Debug)]
struct Undo {
    len: usize,
    owed: u8,
    pending_space: bool,
    quote_opened: bool,
    item_opened: bool,
}

#[derive(Default)]
struct Writer<'a> {
    out: String,
    /// Line prefixes: "> " for quotes, indentation for list items.
    prefixes: Vec<String>,
    /// Newlines owed before the next content (1 = new line, 2 = blank line).
    owed: u8,
    pending_space: bool,
    /// Lists written as lists: (ordered, next number).
    lists: Vec<(bool, u32)>,
    /// Every open list, innermost last: how its items are written.
    layout_lists: Vec<ListKind>,
    pre: u32,
    /// Open inline code spans (`<code>`, `<kbd>`, `<samp>`, `<tt>` outside a `<pre>`): their
    /// text is literal, as CommonMark reads a code span, so it is not escaped.
    code: u32,
    /// Open `<pre>` written as plain lines.
    plain_pre: u32,
    /// Where the outermost open navigation element (`<nav>`, `<footer>`, a navigation or
    /// menu role) ends: a node before it is inside navigation.
    nav_end: u32,
    /// Links' targets, kept aside until the link closes.
    hrefs: Vec<String>,
    /// Table: cells in the current row, whether it is the first row, whether it had headers.
    row_cells: u32,
    row_is_first: bool,
    row_has_th: bool,
    /// Open tables, innermost last: whether each is rendered as a pipe table.
    tables: Vec<bool>,
    /// Open pipe-table cells (everything inside one stays on the row's line).
    cells: u32,
    /// A block quote was just opened and nothing written in it yet.
    quote_opened: bool,
    /// A list item's marker was just written and nothing after it yet.
    item_opened: bool,
    /// The last code span written. A span opened right where it ends joins it (two spans
    /// side by side, `` `a``b` ``, would read as one with backticks inside).
    last_code: Option<Written>,
    /// The last emphasis written, and its marker (see [`Writer::inline`]).
    last_emphasis: Option<(&'static str, Written)>,
    /// The markers of the open emphases.
    emphasis_open: Vec<&'static str>,
    /// Where the last list item's marker ends in the output: text written there starts the
    /// item's first line.
    marker_end: usize,
    /// Open one-line contexts (headings, flattened links): blocks inside them are spaces.
    flat: u32,
    /// The open heading has a letter or digit in its text so far.
    heading_words: bool,
    /// What is left out.
    omit: Omit,
    /// Resolves links' and images' addresses (none: written as the page has them).
    addresses: Option<&'a Addresses<'a>>,
}

impl Writer<'_> {
    /// Asks for a break of `n` newlines before the next content (a space inside a cell).
    fn block(&mut self, n: u8) {
        if self.cells > 0 {
            self.pending_space = true;
            return;
        }
        // Right after a quote opens, its "> " is already written at the start of a line,
        // and right after a list marker the item's first block belongs on the marker's
        // line: any break there would leave an empty quoted line or an empty item.
        if self.quote_opened || self.item_opened {
            return;
        }
        if !self.out.is_empty() {
            self.owed = self.owed.max(n);
        }
        self.pending_space = false;
    }

    fn flush_owed(&mut self) {
        if self.owed == 0 {
            return;
        }
        for k in 0..self.owed {
            self.out.push('\n');
            let prefix: String = self.prefixes.concat();
            if k + 1 < self.owed {
                self.out.push_str(prefix.trim_end());
            } else {
                self.out.push_str(&prefix);
            }
        }
        self.owed = 0;
        self.pending_space = false;
        self.quote_opened = false;
    }

    fn at_line_start(&self) -> bool {
        self.at_line_start_at(self.out.len())
    }

    /// Whether `at` (a position in the output) is the start of a line, after its prefixes.
    fn at_line_start_at(&self, at: usize) -> bool {
        let before = &self.out[..at];
        before.is_empty() || before.ends_with('\n') || self.ends_with_prefixes(before)
    }

    /// Whether `before` ends with the line prefixes (not all empty), compared one by one
    /// from the innermost, without joining them.
    fn ends_with_prefixes(&self, before: &str) -> bool {
        let mut rest = before;
        let mut any = false;
        for p in self.prefixes.iter().rev() {
            match rest.strip_suffix(p.as_str()) {
                Some(r) => rest = r,
                None => return false,
            }
            any |= !p.is_empty();
        }
        any
    }

    /// Gets the writer ready for inline content: owed breaks written, a pending space
    /// written unless the line starts or already ends with one.
    fn begin(&mut self) {
        self.quote_opened = false;
        self.item_opened = false;
        self.flush_owed();
        if self.pending_space && !self.at_line_start() && !self.out.ends_with(' ') {
            self.out.push(' ');
        }
        self.pending_space = false;
    }

    /// [`Writer::begin`] for text, and whether the text starts a line's blocks: at the start
    /// of a line, or right after a list item's marker, where `> x`, `# x` or `- x` would
    /// open a quote, a heading or a list inside the item.
    fn begin_line(&mut self) -> bool {
        self.begin();
        self.starts_blocks_at(self.out.len())
    }

    /// Whether text at `at` would start a line's blocks: a line's start, after its
    /// prefixes, or the end of a list item's marker.
    fn starts_blocks_at(&self, at: usize) -> bool {
        at == self.marker_end || self.at_line_start_at(at)
    }

    fn raw(&mut self, s: &str) {
        self.begin();
        self.out.push_str(s);
    }

    fn space(&mut self) {
        self.pending_space = true;
    }

    fn text(&mut self, s: &str) {
        if self.pre > 0 {
            self.quote_opened = false;
            self.item_opened = false;
            self.flush_owed();
            self.out.push_str(s);
            return;
        }
        if self.plain_pre > 0 && self.cells == 0 && self.flat == 0 {
            for (k, line) in s.split('\n').enumerate() {
                if k > 0 && !self.out.is_empty() && !self.item_opened && !self.quote_opened {
                    self.owed = self.owed.max(1);
                }
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                let line_start = self.begin_line();
                let mark = self.line_mark(line, line_start);
                escape_md(line, mark, false, &mut self.out);
            }
            return;
        }
        let line_start = self.begin_line();
        if s.chars().any(char::is_alphanumeric) {
            self.heading_words = true;
        }
        if self.code > 0 {
            // A backslash is literal in a code span; only a table's `|` must still be
            // escaped there (GFM splits the row before it reads the span).
            write_code_span_text(s, self.cells > 0, &mut self.out);
            return;
        }
        self.escape_split_reference(s);
        let mark = self.line_mark(s, line_start);
        escape_md(s, mark, self.cells > 0, &mut self.out);
    }

    /// Where text `s` needs a backslash so that its line does not open a block
    /// ([`line_start_escape`]): when it starts the line, or when the line so far holds only
    /// the digits of what `s` would make an ordered list's marker (`1` then `. x`).
    fn line_mark(&self, s: &str, line_start: bool) -> Option<usize> {
        if line_start {
            return line_start_escape(s);
        }
        let digits = self.out.len()
            - self
                .out
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .len();
        if digits == 0 || digits > 9 || !self.starts_blocks_at(self.out.len() - digits) {
            return None;
        }
        let number = &self.out[self.out.len() - digits..];
        line_start_escape(&format!("{number}{s}")).and_then(|at| at.checked_sub(digits))
    }

    /// A character reference split between two of the page's texts (`&O` then `r;`) is one
    /// once written together: the `&` already written is escaped when `next` completes it.
    fn escape_split_reference(&mut self, next: &str) {
        let run = next
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
            .count();
        if next.as_bytes().get(run) != Some(&b';') {
            return;
        }
        let body = self
            .out
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '#');
        let Some(before) = body.strip_suffix('&') else {
            return;
        };
        let tail = format!("{}{}", &self.out[body.len()..], &next[..=run]);
        if !ends_escaping(before) && names_a_character(tail.as_bytes()) {
            self.out.insert(before.len(), '\\');
        }
    }

    fn open(&mut self, doc: &Document, id: NodeId, tag: &str) -> Close {
        // Navigation elements nest, so the outermost one's end covers every inner one.
        if id.0 >= self.nav_end && is_navigation(doc, id, tag) {
            self.nav_end = doc.subtree_end(id).0;
        }
        if self.code > 0 {
            // A code span is literal and on one line: no markers inside it, and a block or
            // a break in it is a space.
            if tag == "br" || is_block(tag) {
                self.space();
            }
            return Close::Nothing;
        }
        if self.cells > 0 {
            return self.open_in_cell(doc, id, tag);
        }
        if self.flat > 0 {
            return self.open_flat(doc, id, tag);
        }
        if self.pre > 0 {
            // Code is literal: no emphasis, link or image markers inside it.
            return match tag {
                "br" => {
                    self.out.push('\n');
                    Close::Nothing
                }
                _ => Close::Nothing,
            };
        }
        match tag {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                // A heading that is all its list item holds is that item's text (a list
                // of titles, see `items_hold_headings`, or a list written as plain lines),
                // so it stays on the item's line.
                let title_item = matches!(
                    self.layout_lists.last(),
                    Some(ListKind::Items | ListKind::Plain)
                ) && doc
                    .ancestors(id)
                    .find(|&a| doc.tag(a) == "li")
                    .is_some_and(|li| is_all_of(doc, id, li));
                self.block(if title_item { 1 } else { 2 });
                let before = Undo {
                    len: self.out.len(),
                    owed: self.owed,
                    pending_space: self.pending_space,
                    quote_opened: self.quote_opened,
                    item_opened: self.item_opened,
                };
                self.begin();
                let start = self.out.len();
                if !title_item {
                    let level = usize::from(tag.as_bytes()[1] - b'0');
                    self.out.push_str(&"#".repeat(level));
                    self.out.push(' ');
                }
                self.flat += 1;
                self.heading_words = false;
                Close::Heading {
                    before,
                    start,
                    content_at: self.out.len(),
                }
            }
            "p" | "div" | "section" | "article" | "main" | "header" | "footer" | "aside"
            | "nav" | "figure" | "figcaption" | "address" | "details" | "summary" | "dl"
            | "center" | "form" | "fieldset" => {
                self.block(2);
                Close::Block
            }
            "dt" | "dd" => {
                self.block(1);
                Close::Line
            }
            "br" => {
                if !self.item_opened && !self.quote_opened {
                    self.owed = self.owed.max(1);
                }
                Close::Nothing
            }
            "hr" => {
                self.block(2);
                self.raw("---");
                self.block(2);
                Close::Nothing
            }
            "ul" | "ol" | "menu" if items_hold_headings(doc, id) => {
                self.block(2);
                self.layout_lists.push(ListKind::Cards);
                Close::LayoutList
            }
            "ul" | "ol" | "menu" if self.is_plain_list(doc, id) => {
                self.block(2);
                self.layout_lists.push(ListKind::Plain);
                Close::PlainList
            }
            "ul" | "ol" | "menu" => {
                self.block(if self.lists.is_empty() { 2 } else { 1 });
                let start = doc
                    .attr_atom(id, &local_name!("start"))
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(1);
                self.lists.push((tag == "ol", start));
                self.layout_lists.push(ListKind::Items);
                Close::List
            }
            "li" if self.layout_lists.last() == Some(&ListKind::Cards) => {
                self.block(2);
                Close::Block
            }
            "li" if self.layout_lists.last() == Some(&ListKind::Plain) => {
                self.block(1);
                Close::Line
            }
            "li" => self.open_item(),
            "blockquote" => {
                self.block(2);
                self.item_opened = false;
                self.flush_owed();
                if !self.at_line_start() {
                    self.out.push('\n');
                    self.out.push_str(&self.prefixes.concat());
                }
                self.prefixes.push("> ".into());
                self.out.push_str("> ");
                self.quote_opened = true;
                Close::Quote
            }
            "pre" if self.is_plain_pre(doc, id) => {
                self.block(2);
                self.plain_pre += 1;
                Close::PlainPre
            }
            "pre" => {
                self.block(2);
                let language = code_language(doc, id).unwrap_or("");
                self.raw(&format!("```{language}\n"));
                self.pre += 1;
                Close::Pre
            }
            "table" => {
                self.block(2);
                if is_data_table(doc, id) {
                    self.tables.push(true);
                    self.row_is_first = true;
                    Close::Table
                } else {
                    self.tables.push(false);
                    Close::LayoutTable
                }
            }
            "tr" if self.tables.last() == Some(&true) => {
                self.block(1);
                self.raw("|");
                self.row_cells = 0;
                self.row_has_th = false;
                Close::Row
            }
            "td" | "th" if self.tables.last() == Some(&true) => {
                self.row_cells += 1;
                self.row_has_th |= tag == "th";
                self.out.push(' ');
                self.cells += 1;
                Close::Cell
            }
            "tr" | "td" | "th" | "caption" => {
                self.block(2);
                Close::Block
            }
            _ => self.open_inline(doc, id, tag),
        }
    }

    /// Inside a pipe-table cell everything stays on the row's line: blocks are spaces, and
    /// a table inside a cell is read as layout.
    fn open_in_cell(&mut self, doc: &Document, id: NodeId, tag: &str) -> Close {
        match tag {
            "table" => {
                self.tables.push(false);
                self.block(1);
                Close::LayoutTable
            }
            "br" | "hr" => {
                self.space();
                Close::Nothing
            }
            _ if is_block(tag) => {
                self.block(1);
                Close::Block
            }
            _ => self.open_inline(doc, id, tag),
        }
    }

    /// Inside a heading or a flattened link everything stays on one line: blocks and
    /// breaks are spaces.
    fn open_flat(&mut self, doc: &Document, id: NodeId, tag: &str) -> Close {
        match tag {
            "br" | "hr" => {
                self.space();
                Close::Nothing
            }
            _ if is_block(tag) => {
                self.space();
                Close::Space
            }
            _ => self.open_inline(doc, id, tag),
        }
    }

    /// Whether a list is written as plain lines rather than items: it is navigation (a
    /// navigation element holds it or it is one), or most of its items wrap a `<div>`.
    fn is_plain_list(&self, doc: &Document, list: NodeId) -> bool {
        list.0 < self.nav_end || items_wrap_divs(doc, list)
    }

    /// Whether a `<pre>` is written as plain lines rather than a fenced code block: it
    /// sits in a table, or it declares no code (no `<code>` child, no language class, no
    /// highlighter's wrapper).
    fn is_plain_pre(&self, doc: &Document, pre: NodeId) -> bool {
        !self.tables.is_empty()
            || (!doc.element_children(pre).any(|c| doc.tag(c) == "code")
                && code_language(doc, pre).is_none()
                && !in_highlighter(doc, pre))
    }

    fn open_item(&mut self) -> Close {
        self.block(1);
        let depth = self.lists.len().max(1);
        let marker = match self.lists.last_mut() {
            Some((true, n)) => {
                let m = format!("{n}. ");
                *n += 1;
                m
            }
            _ => "- ".to_string(),
        };
        self.quote_opened = false;
        self.flush_owed();
        if !self.at_line_start() {
            self.out.push('\n');
            self.out.push_str(self.prefixes.concat().trim_end());
        }
        self.out.push_str(&"  ".repeat(depth - 1));
        self.out.push_str(&marker);
        self.marker_end = self.out.len();
        self.prefixes.push("  ".repeat(depth));
        self.item_opened = true;
        Close::Item
    }

    fn open_inline(&mut self, doc: &Document, id: NodeId, tag: &str) -> Close {
        match tag {
            // A `<pre>` written as plain lines is escaped line by line as text: a code span
            // across its lines could not be (a backslash is literal inside one).
            "code" | "kbd" | "samp" | "tt" if self.plain_pre > 0 => Close::Nothing,
            "code" | "kbd" | "samp" | "tt" => self.open_code(),
            "strong" | "b" => self.inline("**", next_char(doc, id)),
            "em" | "i" => self.inline("*", next_char(doc, id)),
            "a" => {
                let href = doc.attr_atom(id, &local_name!("href")).unwrap_or("").trim();
                if self.omit.links
                    || href.is_empty()
                    || href.starts_with('#')
                    || starts_with_ignore_case(href, "javascript:")
                {
                    return Close::Nothing;
                }
                let wraps = link_wraps(doc, id);
                if wraps == Wraps::Heading {
                    return Close::Nothing;
                }
                self.begin();
                self.escape_bang();
                let start = self.out.len();
                self.out.push('[');
                let href = self.address(href).into_owned();
                self.hrefs.push(href);
                let (content_at, href_at) = (self.out.len(), self.hrefs.len() - 1);
                if wraps == Wraps::Blocks {
                    self.flat += 1;
                    return Close::FlatLink {
                        start,
                        content_at,
                        href_at,
                    };
                }
                Close::Link {
                    start,
                    content_at,
                    href_at,
                }
            }
            "img" if self.omit.images => Close::Nothing,
            "img" => {
                if let Some(src) = image_source(doc, id) {
                    let alt = doc
                        .attr_atom(id, &local_name!("alt"))
                        .unwrap_or("")
                        .trim()
                        .replace(['[', ']'], "");
                    let mut image = format!("![{alt}](");
                    destination(&self.address(src), &mut image);
                    image.push(')');
                    self.raw(&image);
                }
                Close::Nothing
            }
            _ => Close::Nothing,
        }
    }

    /// `raw` resolved against the page's base, when the writer has one.
    fn address<'r>(&self, raw: &'r str) -> Cow<'r, str> {
        match self.addresses {
            Some(a) => a.resolve(raw),
            None => Cow::Borrowed(raw),
        }
    }

    fn open_code(&mut self) -> Close {
        self.begin();
        self.code += 1;
        if let Some(last) = self.last_code
            && last.end == self.out.len()
            && self.out.as_bytes().get(last.start) == Some(&b'`')
            && self.out.ends_with('`')
        {
            // Reopened: its closing fence goes, and its opening one becomes one backtick
            // (the close measures the fence the joined content needs).
            self.out.truncate(last.content_end);
            self.out.replace_range(last.start..last.content_at, "`");
            return Close::Code {
                start: last.start,
                content_at: last.start + 1,
            };
        }
        let start = self.out.len();
        self.out.push('`');
        Close::Code {
            start,
            content_at: self.out.len(),
        }
    }

    fn inline(&mut self, marker: &'static str, after: Option<char>) -> Close {
        if self.emphasis_open.contains(&marker) {
            // Bold inside bold says nothing more, and its markers would end the outer one.
            return Close::Nothing;
        }
        self.begin();
        if let Some((m, last)) = self.last_emphasis
            && last.end == self.out.len()
            && self.out.ends_with(m)
        {
            // Right after an emphasis, the markers would run together (`**a****b**`,
            // `**a***b*`) and read as neither: one of its kind goes on inside it, another
            // kind is left out, its text kept.
            if m != marker {
                return Close::Nothing;
            }
            self.emphasis_open.push(marker);
            self.out.truncate(last.content_end);
            return Close::Inline {
                marker,
                start: last.start,
                content_at: last.content_at,
                after,
            };
        }
        self.emphasis_open.push(marker);
        let start = self.out.len();
        self.out.push_str(marker);
        Close::Inline {
            marker,
            start,
            content_at: self.out.len(),
            after,
        }
    }

    fn close(&mut self, close: Close) {
        match close {
            Close::Nothing => {}
            Close::Space => self.space(),
            Close::Block => self.block(2),
            Close::Heading {
                before,
                start,
                content_at,
            } => {
                self.flat = self.flat.saturating_sub(1);
                if start == content_at {
                    // A list item's title: the item's end breaks the line.
                    return;
                }
                if !self.heading_words {
                    self.unmark_heading(before, start, content_at);
                } else {
                    self.escape_closing_hashes(content_at);
                }
                self.block(2);
            }
            Close::LayoutList | Close::PlainList => {
                self.layout_lists.pop();
                self.block(2);
            }
            Close::PlainPre => {
                self.plain_pre = self.plain_pre.saturating_sub(1);
                self.block(2);
            }
            Close::FlatLink {
                start,
                content_at,
                href_at,
            } => {
                self.flat = self.flat.saturating_sub(1);
                self.close_link(start, content_at, href_at);
            }
            Close::Line => self.block(1),
            Close::Item => {
                self.prefixes.pop();
                self.item_opened = false;
                self.block(1);
            }
            Close::List => {
                self.lists.pop();
                self.layout_lists.pop();
                self.block(if self.lists.is_empty() { 2 } else { 1 });
            }
            Close::Quote => {
                self.prefixes.pop();
                self.block(2);
            }
            Close::Pre => {
                self.pre = self.pre.saturating_sub(1);
                if !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                self.out.push_str("```");
                self.block(2);
            }
            Close::Inline {
                marker,
                start,
                content_at,
                after,
            } => self.close_inline(marker, start, content_at, after),
            Close::Code { start, content_at } => self.close_code(start, content_at),
            Close::Link {
                start,
                content_at,
                href_at,
            } => self.close_link(start, content_at, href_at),
            Close::Table | Close::LayoutTable => {
                self.tables.pop();
                self.block(2);
            }
            Close::Row => self.close_row(),
            Close::Cell => {
                self.cells = self.cells.saturating_sub(1);
                let trimmed = self.out.trim_end().len();
                self.out.truncate(trimmed);
                self.out.push_str(" |");
                self.pending_space = false;
            }
        }
    }

    /// A heading without a word (empty, only spaces, an image, a stray `*`) heads nothing:
    /// an empty one is taken back whole, and otherwise its marker goes and its content is a
    /// paragraph, escaped as a line start.
    fn unmark_heading(&mut self, before: Undo, start: usize, content_at: usize) {
        if self.out[content_at..].trim().is_empty() {
            self.out.truncate(before.len);
            self.owed = self.owed.max(before.owed);
            self.pending_space = before.pending_space;
            self.quote_opened = before.quote_opened;
            self.item_opened = before.item_opened;
            return;
        }
        self.out.replace_range(start..content_at, "");
        if let Some(at) = line_start_escape(&self.out[start..]) {
            self.out.insert(start + at, '\\');
        }
    }

    /// A `!` of the text right before a link's `[` would make the link an image: it is
    /// escaped (unless a backslash escapes it already).
    fn escape_bang(&mut self) {
        let Some(body) = self.out.strip_suffix('!') else {
            return;
        };
        if !ends_escaping(body) {
            self.out.insert(self.out.len() - 1, '\\');
        }
    }

    /// Ends an emphasis: spaces at its ends stand outside its markers (CommonMark opens no
    /// emphasis before a space, nor closes one after it), and an empty one is taken back.
    /// Markers CommonMark would not read as emphasis are left out, the text kept: an opening
    /// one between a letter and a sign (`a*(b)*`), a closing one between a sign and a letter
    /// (`*(b)*c`), which would otherwise show as asterisks.
    fn close_inline(
        &mut self,
        marker: &'static str,
        start: usize,
        content_at: usize,
        after: Option<char>,
    ) {
        self.emphasis_open.pop();
        let Some(lead) = self.move_spaces_out(start, content_at) else {
            return;
        };
        let content = &self.out[content_at..];
        let line_start = self.starts_blocks_at(start);
        let before = if lead || line_start {
            None
        } else {
            self.out[..start].chars().next_back()
        };
        // A space moved out of the content (or owed already) follows the closing marker.
        let after = after.filter(|_| !self.pending_space && self.owed == 0);
        let opens =
            !(content.chars().next().is_some_and(is_sign) && before.is_some_and(is_word_char));
        let closes =
            !(content.chars().next_back().is_some_and(is_sign) && after.is_some_and(is_word_char));
        if opens && closes {
            let content_end = self.out.len();
            self.out.push_str(marker);
            let moved = usize::from(lead && self.insert_space_before(start));
            let written = Written {
                start: start + moved,
                content_at: content_at + moved,
                content_end: content_end + moved,
                end: self.out.len(),
            };
            self.last_emphasis = Some((marker, written));
            return;
        }
        self.out.replace_range(start..content_at, "");
        // The space it began with goes back first (no space is put at a line's start), then
        // the text joins what comes before it on its line.
        let start = start + usize::from(lead && self.insert_space_before(start));
        let tail = self.out.split_off(start);
        self.escape_split_reference(&tail);
        let mark = self.line_mark(&tail, line_start);
        escape_md_marked_only(&tail, mark, &mut self.out);
    }

    /// Takes the spaces at the ends of an inline element's content (from `content_at`) out
    /// of it: a trailing one becomes a pending space; `Some(whether a leading one was
    /// dropped)`, or `None` when nothing is left, after taking the element's opening (from
    /// `start`) back.
    fn move_spaces_out(&mut self, start: usize, content_at: usize) -> Option<bool> {
        let trimmed = self.out.trim_end().len().max(content_at);
        if self.out.len() > trimmed {
            self.out.truncate(trimmed);
            self.pending_space = true;
        }
        let content = &self.out[content_at..];
        let mut lead = content.len() - content.trim_start().len();
        if content[..lead].contains('\n') {
            // A line break the content began with (a `<br>` first): its line's prefixes go
            // with it, and the break becomes a space before the element.
            let prefix = self.prefixes.concat();
            let rest = &content[lead..];
            if let Some(after) = rest.strip_prefix(prefix.trim_end()) {
                lead += rest.len() - after.trim_start().len();
            }
        }
        self.out.drain(content_at..content_at + lead);
        if self.out.len() == content_at {
            self.out.truncate(start);
            self.pending_space |= lead > 0;
            return None;
        }
        Some(lead > 0)
    }

    /// A space before `start` (where an inline element opens) unless one, or the line's
    /// start, is there already.
    fn insert_space_before(&mut self, start: usize) -> bool {
        let insert =
            !self.out[..start].ends_with(char::is_whitespace) && !self.at_line_start_at(start);
        if insert {
            self.out.insert(start, ' ');
        }
        insert
    }

    /// A heading's text that ends in a run of `#` after a space (`Learn C #`) would lose it:
    /// CommonMark reads the run as the heading's optional closing sequence. A backslash
    /// before the run keeps it text.
    fn escape_closing_hashes(&mut self, content_at: usize) {
        let end = self.out.trim_end().len();
        let run = self.out[..end].len() - self.out[..end].trim_end_matches('#').len();
        let at = end - run;
        if run > 0 && at > content_at && self.out[..at].ends_with([' ', '\t']) {
            self.out.insert(at, '\\');
        }
    }

    /// Ends a code span. Its fence is one backtick longer than the longest run of backticks
    /// inside (CommonMark closes a span at the first run as long as its opening), and a
    /// space pads content that starts or ends with a backtick. Spaces at its ends stand
    /// outside it, parting it from the words beside it as the page shows them; an empty
    /// span is taken back.
    fn close_code(&mut self, start: usize, content_at: usize) {
        self.code = self.code.saturating_sub(1);
        let Some(lead) = self.move_spaces_out(start, content_at) else {
            return;
        };
        let content = &self.out[content_at..];
        if !self.hrefs.is_empty() && content.contains(['[', ']']) {
            // Inside a link's text a bracket in code could still end the link's label (a
            // line `` [`]:`](x) `` reads as a reference definition): written as escaped text.
            let mut text = self.out.split_off(content_at);
            if self.cells > 0 {
                text = text.replace("\\|", "|");
            }
            self.out.truncate(start);
            escape_md(&text, None, self.cells > 0, &mut self.out);
            if lead {
                self.insert_space_before(start);
            }
            return;
        }
        let longest = content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let pad = if content.starts_with('`') || content.ends_with('`') {
            " "
        } else {
            ""
        };
        let len = content.len();
        let fence = "`".repeat(longest + 1);
        self.out.push_str(pad);
        self.out.push_str(&fence);
        self.out
            .replace_range(start..content_at, &format!("{fence}{pad}"));
        let start = start + usize::from(lead && self.insert_space_before(start));
        let content_at = start + fence.len() + pad.len();
        self.last_code = Some(Written {
            start,
            content_at,
            content_end: content_at + len,
            end: self.out.len(),
        });
    }

    fn close_link(&mut self, start: usize, content_at: usize, href_at: usize) {
        let href = self.hrefs.get(href_at).cloned().unwrap_or_default();
        self.hrefs.truncate(href_at);
        // The link text runs from its first word to its last; a space its markup began with
        // goes before the `[`, where it still parts the link from the word before.
        let Some(lead) = self.move_spaces_out(start, content_at) else {
            return;
        };
        self.out.push_str("](");
        destination(&href, &mut self.out);
        self.out.push(')');
        if lead {
            self.insert_space_before(start);
        }
    }

    fn close_row(&mut self) {
        if self.row_is_first {
            let cells = self.row_cells.max(1);
            self.out.push('\n');
            self.out.push_str(&self.prefixes.concat());
            self.out.push('|');
            for _ in 0..cells {
                self.out.push_str(" --- |");
            }
            self.row_is_first = false;
        }
        self.block(1);
    }

    fn finish(mut self) -> String {
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        let start = self.out.len() - self.out.trim_start().len();
        self.out.drain(..start);
        self.out
    }
}

fn is_heading(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// What a link wraps besides inline content.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wraps {
    Inline,
    Blocks,
    Heading,
}

/// Whether a link wraps blocks, and a heading among them. Links do not nest in parsed
/// HTML, so the scans of all links together read each node once at most.
fn link_wraps(doc: &Document, link: NodeId) -> Wraps {
    let mut wraps = Wraps::Inline;
    for i in link.0 + 1..doc.subtree_end(link).0 {
        let id = NodeId(i);
        if !doc.is_element(id) {
            continue;
        }
        let tag = doc.tag(id);
        if is_heading(tag) {
            return Wraps::Heading;
        }
        if is_block(tag) {
            wraps = Wraps::Blocks;
        }
    }
    wraps
}

/// Whether every item of a list is nothing but a heading: a list of titles (products,
/// tools, chapters) with nothing under them to lay out, written as a list.
fn items_are_titles(doc: &Document, list: NodeId) -> bool {
    let mut items = doc
        .element_children(list)
        .filter(|&li| doc.tag(li) == "li")
        .peekable();
    items.peek().is_some()
        && items.all(|li| {
            doc.descendants(li)
                .find(|&h| doc.is_element(h) && is_heading(doc.tag(h)))
                .is_some_and(|h| is_all_of(doc, h, li) && !is_blank(doc, h))
        })
}

/// Whether all the text of `outer` is inside `inner` (one of its descendants): every text
/// node outside `inner` is white space.
fn is_all_of(doc: &Document, inner: NodeId, outer: NodeId) -> bool {
    let inside = inner.0..doc.subtree_end(inner).0;
    doc.contains(outer, inner)
        && doc
            .descendants(outer)
            .all(|d| inside.contains(&d.0) || !doc.is_text(d) || blank_text(doc, d))
}

/// Whether the text under `id` is all white space (or there is none), read without
/// gathering it.
fn is_blank(doc: &Document, id: NodeId) -> bool {
    doc.descendants(id)
        .all(|d| !doc.is_text(d) || blank_text(doc, d))
}

/// Whether a text node is all white space.
fn blank_text(doc: &Document, text: NodeId) -> bool {
    doc.text(text).chars().all(char::is_whitespace)
}

/// Whether a list's own items hold a heading (a list of cards) and are not all
/// titles (`items_are_titles`). Nested lists are skipped
/// (they decide for themselves), so every node is scanned by one list at most.
fn items_hold_headings(doc: &Document, list: NodeId) -> bool {
    let end = doc.subtree_end(list).0;
    let mut i = list.0 + 1;
    while i < end {
        let id = NodeId(i);
        if doc.is_element(id) {
            let tag = doc.tag(id);
            if is_heading(tag) {
                return !items_are_titles(doc, list);
            }
            if matches!(tag, "ul" | "ol" | "menu") {
                i = doc.subtree_end(id).0;
                continue;
            }
        }
        i += 1;
    }
    false
}

/// Whether an element marks navigation: `<nav>`, `<footer>`, or a `navigation`, `menu` or
/// `menubar` role.
fn is_navigation(doc: &Document, id: NodeId, tag: &str) -> bool {
    matches!(tag, "nav" | "footer")
        || doc
            .attr_atom(id, &local_name!("role"))
            .is_some_and(|role| matches!(role.trim(), "navigation" | "menu" | "menubar"))
}

/// Whether more than half of a list's own items have a `<div>` child (items that lay out
/// boxes rather than hold a line of text). Only the list's `<li>` children and their
/// children are read, so every node is read by one list at most.
fn items_wrap_divs(doc: &Document, list: NodeId) -> bool {
    let (mut items, mut div_items) = (0usize, 0usize);
    for li in doc.element_children(list).filter(|&c| doc.tag(c) == "li") {
        items += 1;
        if doc.element_children(li).any(|c| doc.tag(c) == "div") {
            div_items += 1;
        }
    }
    div_items * 2 > items
}

/// Whether a table holds data (a pipe table) rather than laying out the page. Layout: it
/// says so with its role, it holds another table, or it has fewer than two rows or two
/// columns. Rows of nested tables are not counted; the scan stops at the first nested
/// table, so every node is scanned by one table at most.
pub(crate) fn is_data_table(doc: &Document, table: NodeId) -> bool {
    if let Some(role) = doc.attr_atom(table, &local_name!("role"))
        && matches!(role.trim(), "presentation" | "none")
    {
        return false;
    }
    let (mut rows, mut columns) = (0usize, 0usize);
    let end = doc.subtree_end(table).0;
    for i in table.0 + 1..end {
        let id = NodeId(i);
        if !doc.is_element(id) {
            continue;
        }
        match doc.tag(id) {
            "table" => return false,
            "tr" => {
                rows += 1;
                let cells = doc
                    .element_children(id)
                    .filter(|&c| matches!(doc.tag(c), "td" | "th"))
                    .count();
                columns = columns.max(cells);
            }
            _ => {}
        }
    }
    rows >= 2 && columns >= 2
}

/// The language a code block declares: a `language-*`, `lang-*` or `highlight-*` class on
/// the `<pre>` or on the `<code>` that opens it, or a `highlight-*` class on the `<pre>`'s
/// parent or grandparent (Sphinx and Pygments write `<div class="highlight-python"><div
/// class="highlight"><pre>`, GitHub `<div class="highlight highlight-source-rust"><pre>`;
/// an ancestor's `lang-en` names the language of its prose, not of code). A lexer that
/// names no language (`highlight-default`, `-none`, `-text`) declares code without one:
/// `Some("")`.
pub(crate) fn code_language(doc: &Document, pre: NodeId) -> Option<&str> {
    let end = doc.subtree_end(pre).0;
    let first_code = (pre.0 + 1..end.min(pre.0 + 3))
        .map(NodeId)
        .find(|&c| doc.is_element(c) && doc.tag(c) == "code");
    let parent = doc.parent(pre);
    let grandparent = parent.and_then(|p| doc.parent(p));
    let own: &[&str] = &["language-", "lang-", "highlight-"];
    let ancestors: &[&str] = &["highlight-"];
    [
        (Some(pre), own),
        (first_code, own),
        (parent, ancestors),
        (grandparent, ancestors),
    ]
    .into_iter()
    .filter_map(|(id, prefixes)| Some((doc.attr_atom(id?, &local_name!("class"))?, prefixes)))
    .flat_map(|(class, prefixes)| class.split_ascii_whitespace().map(move |c| (c, prefixes)))
    .find_map(|(class, prefixes)| {
        prefixes
            .iter()
            .find_map(|p| class.strip_prefix(p))
            .filter(|l| {
                !l.is_empty()
                    && l.len() <= 32
                    && l.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'#' | b'.')
                    })
            })
    })
    .map(|l| l.strip_prefix("source-").unwrap_or(l))
    .map(|l| match l {
        "default" | "none" | "text" | "plain" | "plaintext" => "",
        l => l,
    })
}

/// Where an image is: its `src`, unless that is missing or inline data (`data:`, as lazy
/// loaders' placeholders are: a blank GIF or SVG, often kilobytes of base64), then the
/// address a lazy loader would put there (`data-src`, `data-lazy-src`, `data-original`),
/// then the first candidate of `srcset` or `data-srcset`. `None` when no attribute names
/// an address: the image is left out, and inline data never reaches the output.
pub(crate) fn image_source(doc: &Document, img: NodeId) -> Option<&str> {
    let address = |name: &str| {
        doc.attr(img, name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !starts_with_ignore_case(v, "data:"))
    };
    let first_candidate = |name: &str| {
        address(name)?
            .split(',')
            .next()?
            .split_ascii_whitespace()
            .next()
            .filter(|v| !starts_with_ignore_case(v, "data:"))
    };
    ["src", "data-src", "data-lazy-src", "data-original"]
        .into_iter()
        .find_map(address)
        .or_else(|| {
            ["srcset", "data-srcset"]
                .into_iter()
                .find_map(first_candidate)
        })
}

/// Writes an address as a CommonMark link destination: the characters that would end it or
/// unbalance it (whitespace, controls, `(`, `)`, `<`, `>`) percent-encoded, which a browser
/// reads as the same address.
///
/// The runs between such characters are copied whole, and an address of printable ASCII
/// without them (nearly every one) in one copy: pushing it a character at a time was a
/// sixth of the Markdown's time.
fn destination(address: &str, out: &mut String) {
    use std::fmt::Write;
    let plain = |b: u8| (b'!'..=b'~').contains(&b) && !matches!(b, b'(' | b')' | b'<' | b'>');
    if address.bytes().all(plain) {
        out.push_str(address);
        return;
    }
    let mut from = 0;
    for (at, c) in address.char_indices() {
        if matches!(c, ' ' | '(' | ')' | '<' | '>') || c.is_control() {
            out.push_str(&address[from..at]);
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                // Writing to a String cannot fail.
                let _ = write!(out, "%{b:02X}");
            }
            from = at + c.len_utf8();
        }
    }
    out.push_str(&address[from..]);
}

/// Whether `s` starts with the ASCII `prefix`, in any case, without lower-casing a copy.
pub(crate) fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// Whether a `<pre>` sits in Pygments' wrapper (`<div class="highlight"><pre>`), which
/// highlights only code.
fn in_highlighter(doc: &Document, pre: NodeId) -> bool {
    doc.parent(pre)
        .and_then(|p| doc.attr_atom(p, &local_name!("class")))
        .is_some_and(|c| c.split_ascii_whitespace().any(|c| c == "highlight"))
}

/// Escapes characters Markdown would read as formatting (and `|` inside a table cell).
///
/// A run of `_` inside a word (`is_eligible_search`, `__init__` between letters) is left as
/// it is: CommonMark (and GFM) never read an underscore run with a letter or digit on both
/// sides as emphasis, so its backslashes would only make identifiers harder to read (and
/// WCXB's gold Markdown writes them bare). Only neighbours within `s` count: at either end
/// of `s` the run is escaped, since what stands beside it in the output is not known here.
/// `*` is escaped even inside a word, where it can open emphasis (`a*b*c`). `<` and `&` are
/// escaped only where a reader would take them for markup ([`opens_markup`],
/// [`names_a_character`]).
fn escape_md(s: &str, line_mark: Option<usize>, in_cell: bool, out: &mut String) {
    // The characters escaped are ASCII, so no byte of them falls inside another character:
    // the runs between them are copied whole.
    let b = s.as_bytes();
    let mark = line_mark.unwrap_or(usize::MAX);
    let mut from = 0;
    let mut i = 0;
    // Byte by byte up to here; from here on, a block is first tested whole.
    let mut scanned = 0;
    while i < b.len() {
        if i >= scanned {
            scanned = i + SKIP_BLOCK;
            if let Some(block) = b[i..].first_chunk::<SKIP_BLOCK>()
                && !(i..scanned).contains(&mark)
                && block
                    .iter()
                    .fold(0u8, |any, &c| any | u8::from(may_escape(c)))
                    == 0
            {
                i = scanned;
                continue;
            }
        }
        let c = b[i];
        // Most bytes are none of the characters below: passed over with one table look-up.
        if !MAY_ESCAPE[usize::from(c)] && i != mark {
            i += 1;
            continue;
        }
        if c == b'_' {
            let end = i + b[i..].iter().take_while(|&&u| u == b'_').count();
            if !is_intraword(s, i, end) {
                for k in i..end {
                    out.push_str(&s[from..k]);
                    out.push('\\');
                    from = k;
                }
            }
            i = end;
            continue;
        }
        if matches!(c, b'\\' | b'*' | b'`' | b'[' | b']')
            || (in_cell && c == b'|')
            || line_mark == Some(i)
            || (c == b'<' && opens_markup(&b[i + 1..]))
            || (c == b'&' && names_a_character(&b[i + 1..]))
        {
            out.push_str(&s[from..i]);
            out.push('\\');
            from = i;
        }
        i += 1;
    }
    out.push_str(&s[from..]);
}

/// The most bytes [`markdown_for`] reserves for its output before it writes.
const MAX_RESERVED: usize = 4 << 20;

/// Bytes [`escape_md`] tests at once before it looks at them one by one. Most blocks of
/// prose have none of the bytes it escapes; testing a block's bytes with comparisons and no
/// branch lets the compiler test many at a time, where the byte-by-byte table look-up
/// took 5% of the instructions of a page's metadata and Markdown (callgrind, 200 wcxb-dev
/// pages).
const SKIP_BLOCK: usize = 32;

/// Whether `c` may be one of [`MAY_ESCAPE`]'s bytes, by comparisons without a branch: the
/// run `[` to `` ` `` (which also holds `^`, never escaped, so a block holding one is
/// merely looked at byte by byte), `*`, `|`, `<` and `&`.
fn may_escape(c: u8) -> bool {
    (c.wrapping_sub(b'[') <= b'`' - b'[') | (c == b'*') | (c == b'|') | (c == b'<') | (c == b'&')
}

/// The bytes [`escape_md`] may escape (`|` only inside a table cell).
const MAY_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"_\\*`[]|<&";
    let mut k = 0;
    while k < bytes.len() {
        table[bytes[k] as usize] = true;
        k += 1;
    }
    table
};

/// Text inside a code span: as it is, but for line breaks (spaces) and `|` inside a table
/// cell (escaped).
fn write_code_span_text(s: &str, in_cell: bool, out: &mut String) {
    let mut from = 0;
    for (i, c) in s.bytes().enumerate() {
        match c {
            // CommonMark reads a line ending in a span as a space; written as one, it
            // cannot end a table's row or start a block.
            b'\n' | b'\r' => {
                out.push_str(&s[from..i]);
                out.push(' ');
                from = i + 1;
            }
            b'|' if in_cell => {
                out.push_str(&s[from..i]);
                out.push('\\');
                from = i;
            }
            _ => {}
        }
    }
    out.push_str(&s[from..]);
}

/// `s`, already escaped, with a backslash at `mark` (a line's marker it now starts).
fn escape_md_marked_only(s: &str, mark: Option<usize>, out: &mut String) {
    match mark {
        Some(at) => {
            out.push_str(&s[..at]);
            out.push('\\');
            out.push_str(&s[at..]);
        }
        None => out.push_str(s),
    }
}

/// Whether `s` ends in a backslash that escapes what follows it: an odd run of them.
fn ends_escaping(s: &str) -> bool {
    (s.len() - s.trim_end_matches('\\').len()) % 2 == 1
}

/// A sign as CommonMark's emphasis rules read one (a punctuation or symbol character):
/// neither a letter or digit nor a space.
fn is_sign(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace()
}

/// Neither a sign nor a space: a character an emphasis marker cannot stand between a sign
/// and.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// The page's first character after `id`'s element, as the reader meets it: `None` when a
/// space, a line break or a block's edge comes first, or nothing does within a few nodes.
fn next_char(doc: &Document, id: NodeId) -> Option<char> {
    let from = doc.subtree_end(id).0;
    let to = (from + 16).min(doc.len() as u32);
    for i in from..to {
        let n = NodeId(i);
        if doc.is_text(n) {
            if let Some(c) = doc.text(n).chars().next() {
                return (!c.is_whitespace()).then_some(c);
            }
        } else if doc.is_element(n) && (is_block(doc.tag(n)) || doc.tag(n) == "br") {
            return None;
        }
    }
    None
}

/// Whether a `<` followed by `rest` could open inline HTML (`<div>`, `</p>`, `<!--`, `<?`)
/// or an autolink (`<https://…>`): a letter, `/`, `!` or `?` next. At the end of the text
/// it could: what follows in the output is not known here.
fn opens_markup(rest: &[u8]) -> bool {
    rest.first()
        .is_none_or(|&b| b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?'))
}

/// Whether a `&` followed by `rest` reads as a character reference: `name;`, `#digits;` or
/// `#xhex;` (`&amp;`, `&#38;`, `&#x26;`), which a reader would turn into the character.
/// A `&` before a space or a word without its `;` (`R&D`, `AT&T`) is plain text.
fn names_a_character(rest: &[u8]) -> bool {
    let (body, digit): (&[u8], fn(&u8) -> bool) = match rest {
        [b'#', b'x' | b'X', tail @ ..] => (tail, u8::is_ascii_hexdigit),
        [b'#', tail @ ..] => (tail, u8::is_ascii_digit),
        _ => (rest, u8::is_ascii_alphanumeric),
    };
    let n = body.iter().take_while(|b| digit(b)).count();
    n > 0 && body.get(n) == Some(&b';')
}

/// Whether the bytes `start..end` of `s` (ASCII, so on character boundaries) have a letter
/// or digit (any script) right before and right after them.
fn is_intraword(s: &str, start: usize, end: usize) -> bool {
    let before = s[..start].chars().next_back();
    let after = s[end..].chars().next();
    matches!((before, after), (Some(x), Some(y)) if x.is_alphanumeric() && y.is_alphanumeric())
}

/// Where a line starting with `s` needs a backslash (a byte offset into `s`) so that
/// Markdown does not read it as a heading, quote, list item, rule, table row or code
/// fence: before its first sign (`#`, `>`, `-`, `+`, `=`, `|`, `~`), or, for an ordered
/// list's marker (`1. `, `2)`), before the `.` or `)` after the number (a backslash before a
/// digit would be shown).
fn line_start_escape(s: &str) -> Option<usize> {
    let lead = s.len() - s.trim_start().len();
    let t = &s[lead..];
    if t.starts_with(['#', '>', '-', '+', '=', '|', '~']) {
        return Some(lead);
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let after = t.get(digits + 1..).unwrap_or("x");
    ((1..=9).contains(&digits)
        && t[digits..].starts_with(['.', ')'])
        && (after.is_empty() || after.starts_with([' ', '\t', '\n', '\r'])))
    .then_some(lead + digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block test passes over no byte that escaping looks at.
    #[test]
    fn the_block_test_flags_every_byte_that_may_be_escaped() {
        for c in 0..=255u8 {
            assert!(!MAY_ESCAPE[usize::from(c)] || may_escape(c), "{c:#x}");
        }
        // And it flags few others: `^` only.
        let extra: Vec<u8> = (0..=255u8)
            .filter(|&c| may_escape(c) && !MAY_ESCAPE[usize::from(c)])
            .collect();
        assert_eq!(extra, b"^");
    }

    proptest::proptest! {
        /// Escaping copies runs whole and gives what escaping character by character gives.
        #[test]
        fn escaping_is_that_of_each_character(
            s in proptest::prop_oneof![
                "[a-zA-F é\\\\*_`\\[\\]|#>0-9.)<&;/!?~+=\t\n-]{0,40}",
                // Long runs with no byte to escape, which are passed over a block at a time,
                // between a few that are escaped.
                "([a-zA-Z é^.]{0,70}[\\\\*_`\\[\\]|<&;#x0-9]{0,3}){0,5}",
            ],
            line_start: bool,
            in_cell: bool,
        ) {
            let mut want = String::new();
            let chars: Vec<char> = s.chars().collect();
            // The line's marker: its first sign, or the `.` or `)` after a number of 1 to 9
            // digits that a space, a tab or the end follows.
            let first = chars.iter().position(|c| !c.is_whitespace());
            let line_mark = first.filter(|_| line_start).and_then(|f| {
                if "#>-+=|~".contains(chars[f]) {
                    return Some(f);
                }
                let n = chars[f..].iter().take_while(|c| c.is_ascii_digit()).count();
                let sign = f + n;
                let ends = chars.get(sign + 1).is_none_or(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
                ((1..=9).contains(&n) && matches!(chars.get(sign), Some('.' | ')')) && ends).then_some(sign)
            });
            for (k, &c) in chars.iter().enumerate() {
                // An underscore run with a letter or digit on both sides is left bare.
                let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
                let run_start = chars[..k].iter().rposition(|&x| x != '_').map_or(0, |p| p + 1);
                let run_end = chars[k..].iter().position(|&x| x != '_').map_or(chars.len(), |p| k + p);
                let bare = c == '_'
                    && word(run_start.checked_sub(1).and_then(|p| chars.get(p)))
                    && word(chars.get(run_end));
                let markup = match c {
                    '<' => chars.get(k + 1).is_none_or(|n| n.is_ascii_alphabetic() || "/!?".contains(*n)),
                    '&' => {
                        // a character reference: `&name;`, `&#digits;` or `&#xhex;`
                        let rest: String = chars[k + 1..].iter().collect();
                        let named = rest.split(';').next().is_some_and(|n| {
                            !n.is_empty() && n.len() < rest.len() && n.chars().all(|c| c.is_ascii_alphanumeric())
                        });
                        let numeric = rest.strip_prefix('#').is_some_and(|r| {
                            let (r, hex) = match r.strip_prefix(['x', 'X']) {
                                Some(h) => (h, true),
                                None => (r, false),
                            };
                            let n = r.chars().take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }).count();
                            n > 0 && r[n..].starts_with(';')
                        });
                        named || numeric
                    }
                    _ => false,
                };
                if (matches!(c, '\\' | '*' | '_' | '`' | '[' | ']') && !bare)
                    || (in_cell && c == '|')
                    || markup
                    || line_mark == Some(k)
                {
                    want.push('\\');
                }
                want.push(c);
            }
            let mut got = String::new();
            escape_md(&s, line_start.then(|| line_start_escape(&s)).flatten(), in_cell, &mut got);
            proptest::prop_assert_eq!(got, want);
        }

        /// A CommonMark reader (pulldown-cmark) reads an escaped text back as that text and
        /// nothing else: no emphasis, code, link, inline HTML, autolink, character reference
        /// or other structure.
        #[test]
        fn a_commonmark_reader_reads_the_escaped_text_back(
            s in "[a-zé][a-zé0-9_*`\\[\\]\\\\ .!#>()<&;/:?x-]{0,30}",
        ) {
            let mut escaped = String::new();
            escape_md(&s, line_start_escape(&s), false, &mut escaped);
            let (text, structure) = read_commonmark(&escaped);
            proptest::prop_assert_eq!(text, s.trim_end(), "{} read as {:?}", escaped, structure);
            proptest::prop_assert!(structure.is_empty(), "{} read as {:?}", escaped, structure);
        }
    }

    proptest::proptest! {
        /// Whatever a `<code>` holds, a CommonMark reader reads the Markdown back as one
        /// code span holding that text (spaces squeezed, as the page's text is).
        #[test]
        fn a_code_span_is_read_back_as_its_text(s in "[a-z`*_\\\\<>&;#\\[\\]| ]{1,20}") {
            let html = format!("<p>x <code>{}</code></p>", s.replace('&', "&amp;").replace('<', "&lt;"));
            let markdown = md(&html);
            let want = s.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut spans = Vec::new();
            for event in pulldown_cmark::Parser::new(&markdown) {
                if let pulldown_cmark::Event::Code(c) = event {
                    spans.push(c.to_string());
                }
            }
            let want: Vec<String> = if want.is_empty() { vec![] } else { vec![want] };
            proptest::prop_assert_eq!(spans, want, "{}", markdown);
        }
    }

    proptest::proptest! {
        // Cheap (about 0.1 ms a case), and each mended case was rare: more than the default.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// Any text, in any block the writer makes (paragraph, heading, list item, table
        /// cell, link, emphasis, quote), is what a CommonMark reader (pulldown-cmark, with
        /// GFM tables) reads back: nothing of it is taken for structure or lost.
        #[test]
        fn text_in_every_context_reads_back(
            t in "[a-zA-Z0-9 *_`\\[\\]\\\\<>&#|!()~+.=:;-]{0,24}[a-zA-Z0-9*_`\\[\\]\\\\<>&#|!()~+.=:;-]",
            context in 0usize..12,
        ) {
            let esc = t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
            let html = match context {
                0 => format!("<p>{esc}</p>"),
                1 => format!("<h2>{esc}</h2>"),
                2 => format!("<ul><li>{esc}</li><li>zz</li></ul>"),
                3 => format!("<table><tr><th>aa</th><th>bb</th></tr><tr><td>{esc}</td><td>zz</td></tr></table>"),
                4 => format!("<p><a href=\"/u\">{esc}</a></p>"),
                5 => format!("<p>q <em>{esc}</em> q</p>"),
                6 => format!("<blockquote><p>{esc}</p></blockquote>"),
                7 => format!("<ol><li>{esc}</li></ol>"),
                8 => format!("<p>a<em>{esc}</em>b</p>"),
                9 => format!("<ul><li><p>{esc}</p><p>{esc}</p></li></ul>"),
                10 => format!("<h3><a href=\"/x\">{esc}</a></h3>"),
                _ => format!("<p><strong>{esc}</strong></p>"),
            };
            let markdown = md(&html);
            let text = read_back(&markdown);
            let norm = |s: &str| s.split_whitespace().collect::<String>();
            let mut want = norm(&t);
            if context == 3 { want = format!("aabb{want}zz"); }
            if context == 2 { want.push_str("zz"); }
            if context == 5 { want = format!("q{want}q"); }
            if context == 8 { want = format!("a{want}b"); }
            if context == 9 { want = format!("{want}{want}"); }
            proptest::prop_assert_eq!(norm(&text), want, "{}", markdown);
        }
    }

    proptest::proptest! {
        // Cheap (about 0.1 ms a case), and each mended case was rare: more than the default.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// Texts split by inline elements (side by side or nested: spans, emphasis, code,
        /// links, line breaks) read back as the whole text: where the pieces meet, no
        /// marker, reference, list marker or fence forms that none of them held alone.
        #[test]
        fn split_text_reads_back(
            a in "[a-zA-Z0-9 *_`\\[\\]\\\\<>&#|!()~+.=:;-]{0,8}",
            b in "[a-zA-Z0-9 *_`\\[\\]\\\\<>&#|!()~+.=:;-]{0,8}",
            c in "[a-zA-Z0-9 *_`\\[\\]\\\\<>&#|!()~+.=:;-]{0,8}",
            tag in proptest::sample::select(vec!["span", "b", "em", "code", "a"]),
            tag2 in proptest::sample::select(vec!["span", "b", "em", "code", "a", "br"]),
            shape in 0usize..3,
            block in proptest::sample::select(vec!["p", "h2", "li", "td", "blockquote"]),
        ) {
            let esc = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
            let open = |t: &str| if t == "a" { "<a href=\"/x\">".to_string() } else { format!("<{t}>") };
            let close = |t: &str| if t == "br" { String::new() } else { format!("</{t}>") };
            let (a, b, c) = (esc(&a), esc(&b), esc(&c));
            let inner = match shape {
                0 => format!("{a}{}{b}{}{c}", open(tag), close(tag)),
                1 => format!("{}{a}{}{}{b}{}", open(tag), close(tag), open(tag2), close(tag2)) + &c,
                _ => format!("{}{a}{}{b}{}{}{c}", open(tag), open(tag2), close(tag2), close(tag)),
            };
            let html = match block {
                "li" => format!("<ul><li>{inner}</li><li>zz</li></ul>"),
                "td" => format!("<table><tr><th>aa</th><th>bb</th></tr><tr><td>{inner}</td><td>zz</td></tr></table>"),
                _ => format!("<{block}>{inner}</{block}>"),
            };
            let markdown = md(&html);
            let text = read_back(&markdown);
            let norm = |s: &str| s.split_whitespace().collect::<String>();
            let unesc = |t: &str| t.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
            let mut want = norm(&unesc(&format!("{a}{b}{c}")));
            if block == "td" { want = format!("aabb{want}zz"); }
            if block == "li" { want.push_str("zz"); }
            proptest::prop_assert_eq!(norm(&text), want, "{}", markdown);
        }
    }

    /// The text a CommonMark reader with GFM tables finds in `md` (code spans' too, and any
    /// HTML it finds marked as such), for the read-back tests, which compare it without
    /// spaces.
    fn read_back(md: &str) -> String {
        use pulldown_cmark::{Event, Options, Parser};
        let mut text = String::new();
        for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
            match event {
                Event::Text(x) | Event::Code(x) => text.push_str(&x),
                Event::Html(x) | Event::InlineHtml(x) => {
                    text.push_str("<<HTML:");
                    text.push_str(&x);
                }
                _ => text.push(' '),
            }
        }
        text
    }

    /// The text a CommonMark reader finds in `md`, and every tag it opens besides the
    /// paragraph's.
    fn read_commonmark(md: &str) -> (String, Vec<String>) {
        use pulldown_cmark::{Event, Parser, Tag};
        let (mut text, mut structure) = (String::new(), Vec::new());
        for event in Parser::new(md) {
            match event {
                Event::Text(t) => text.push_str(&t),
                Event::Start(Tag::Paragraph) | Event::End(_) => {}
                other => structure.push(format!("{other:?}")),
            }
        }
        (text, structure)
    }

    #[test]
    fn an_underscore_inside_a_word_is_left_bare() {
        let escaped = |s: &str, in_cell: bool| {
            let mut out = String::new();
            escape_md(s, None, in_cell, &mut out);
            out
        };
        assert_eq!(escaped("is_eligible_search", false), "is_eligible_search");
        assert_eq!(escaped("a__b café_ü 2_3", false), "a__b café_ü 2_3");
        // At a word's edge or the text's end, a run could open or close emphasis.
        assert_eq!(escaped("_init_ x_ _y", false), "\\_init\\_ x\\_ \\_y");
        assert_eq!(escaped("__init__", false), "\\_\\_init\\_\\_");
        assert_eq!(escaped("a_*b*", false), "a\\_\\*b\\*");
        assert_eq!(escaped("max_len | n", true), "max_len \\| n");
        // `*` inside a word still opens emphasis.
        assert_eq!(escaped("a*b*c", false), "a\\*b\\*c");
        for s in ["is_eligible_search", "a__b café_ü", "_init_ x_ _y", "a*b*c"] {
            assert_eq!(read_commonmark(&escaped(s, false)), (s.to_string(), vec![]));
        }
    }

    /// The whole body of `html` rendered, nothing removed.
    fn md(html: &str) -> String {
        let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
        let view = TextView::new(&doc);
        markdown(&doc, &view, &Labels::all_content(doc.len()))
    }

    fn md_at(html: &str, url: &str) -> String {
        let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
        let view = TextView::new(&doc);
        let meta = PageMeta {
            url: Some(url),
            ..PageMeta::default()
        };
        markdown_for(&doc, &view, &Labels::all_content(doc.len()), &meta)
    }

    #[test]
    fn addresses_are_made_absolute_against_the_page() {
        let page = "https://example.org/blog/post.html";
        assert_eq!(
            md_at(
                "<p><a href='/about'>About</a> <a href='next.html'>Next</a> \
                 <a href='https://other.example/x'>Other</a></p><img src='img/a.png' alt='A'>",
                page
            ),
            "[About](https://example.org/about) [Next](https://example.org/blog/next.html) \
             [Other](https://other.example/x)\n\n![A](https://example.org/blog/img/a.png)"
        );
        // A <base href> is the base; without a URL the page's addresses stay as written.
        assert_eq!(
            md_at(
                "<head><base href='/docs/'></head><p><a href='x'>X</a></p>",
                page
            ),
            "[X](https://example.org/docs/x)"
        );
        assert_eq!(md("<p><a href='x'>X</a></p>"), "[X](x)");
    }

    proptest::proptest! {
        /// A destination is the address with each character that would end or unbalance
        /// it encoded, character by character, whichever way it is copied.
        #[test]
        fn a_destination_encodes_exactly_the_characters_that_end_it(
            address in "([a-z/:.?=&%~!]|[ ()<>]|\\t|\n|\u{7f}|\u{85}|\u{a0}|é|\u{1f}){0,24}",
        ) {
            let mut want = String::new();
            for c in address.chars() {
                if matches!(c, ' ' | '(' | ')' | '<' | '>') || c.is_control() {
                    for b in c.to_string().bytes() {
                        want.push_str(&format!("%{b:02X}"));
                    }
                } else {
                    want.push(c);
                }
            }
            let mut got = String::new();
            destination(&address, &mut got);
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn destinations_stay_one_destination() {
        // Spaces, parentheses, angle brackets and controls would end or unbalance a
        // CommonMark destination: each is percent-encoded.
        assert_eq!(
            md("<p><a href='a b(c)<d>\te'>x</a><img src='i (1).png' alt=i></p>"),
            "[x](a%20b%28c%29%3Cd%3E%09e)![i](i%20%281%29.png)"
        );
        let out = md("<p><a href='/a b(c'>link text</a></p>");
        let parser = pulldown_cmark::Parser::new(&out);
        let dest: Vec<String> = parser
            .filter_map(|e| match e {
                pulldown_cmark::Event::Start(pulldown_cmark::Tag::Link { dest_url, .. }) => {
                    Some(dest_url.to_string())
                }
                _ => None,
            })
            .collect();
        assert_eq!(dest, ["/a%20b%28c"]);
    }

    #[test]
    fn an_items_first_block_starts_on_its_marker_line() {
        assert_eq!(
            md("<ul><li><p>one</p><p>more</p></li><li><div><p>two</p></div></li></ul>"),
            "- one\n\n  more\n\n- two"
        );
        assert_eq!(
            md("<ol start=3><li><p>Pros</p></li><li>plain<br>next</li></ol>"),
            "3. Pros\n\n4. plain\n  next"
        );
    }

    #[test]
    fn a_heading_is_one_line() {
        assert_eq!(
            md("<h3><div><a href=\"#h\"></a></div><span>Automations</span></h3><p>x</p>"),
            "### Automations\n\nx"
        );
        assert_eq!(
            md("<h2>One<br>Two<ul><li>three</li></ul></h2>"),
            "## One Two three"
        );
    }

    #[test]
    fn a_list_of_cards_is_written_as_blocks() {
        assert_eq!(
            md("<ul><li><h3>A</h3><p>x</p></li><li><h3>B</h3></li></ul>"),
            "### A\n\nx\n\n### B"
        );
        // A list inside a card is still a list, and a list whose headings sit only in a
        // nested list is still a list too.
        assert_eq!(
            md("<ul><li><h3>A</h3><ul><li>p</li><li>q</li></ul></li></ul>"),
            "### A\n\n- p\n- q"
        );
        assert_eq!(
            md("<ul><li>one<ul><li><h4>x</h4>y</li></ul></li><li>two</li></ul>"),
            "- one\n\n  #### x\n\n  y\n\n- two"
        );
    }

    #[test]
    fn a_list_of_titles_is_a_list() {
        // Every item is nothing but a heading: a list, each heading its item's text.
        assert_eq!(
            md(
                "<ul><li><h2><a href=\"/a\">Alpha</a></h2></li><li> <h3>Beta</h3> </li></ul><p>x</p>"
            ),
            "- [Alpha](/a)\n- Beta\n\nx"
        );
        assert_eq!(
            md("<ol><li><h3>One</h3></li><li><h3>Two</h3></li></ol>"),
            "1. One\n2. Two"
        );
        // One item with more than its heading makes the list a list of cards.
        assert_eq!(
            md("<ul><li><h3>A</h3></li><li><h3>B</h3>more</li></ul>"),
            "### A\n\n### B\n\nmore"
        );
        // Empty headings make no list of empty items.
        assert_eq!(md("<ul><li><h3> </h3></li><li><h3></h3></li></ul>x"), "x");
    }

    #[test]
    fn script_and_fragment_links_are_their_text() {
        assert_eq!(
            md(
                "<p><a href=\"JavaScript:void(0)\">a</a> <a href=\"#x\">b</a> <a href=\"/c\">c</a></p>"
            ),
            "a b [c](/c)"
        );
        // A prefix that ends inside a character is no match, and no panic.
        assert!(!starts_with_ignore_case("javascrip\u{20ac}", "javascript:"));
        assert!(!starts_with_ignore_case("java", "javascript:"));
    }

    #[test]
    fn an_image_is_where_its_address_is_never_inline_data() {
        let gif = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP";
        assert_eq!(
            md(&format!(
                "<p>a <img src=\"{gif}\" data-src=\"/a.jpg\" alt=\"A\"></p>"
            )),
            "a ![A](/a.jpg)"
        );
        assert_eq!(md(&format!("<p>a<img src=\"{gif}\" alt=\"A\"></p>")), "a");
        assert_eq!(md("<p><img src=\"DATA:x\">b</p>"), "b");
        assert_eq!(
            md(&format!(
                "<img src=\"{gif}\" data-srcset=\"/s.jpg 1x, /l.jpg 2x\">"
            )),
            "![](/s.jpg)"
        );
        assert_eq!(
            md("<img srcset=\" /s.jpg 480w,/l.jpg 800w\">"),
            "![](/s.jpg)"
        );
        // A real `src` wins over the lazy loader's attributes.
        assert_eq!(
            md("<img src=\" /b.png \" data-src=\"/c.png\">"),
            "![](/b.png)"
        );
    }

    #[test]
    fn a_heading_without_a_word_heads_nothing() {
        assert_eq!(md("<h2></h2><p>a</p><h3>\u{a0} </h3><p>b</p>"), "a\n\nb");
        assert_eq!(
            md("<p>a</p><h2><img src=\"x.png\"></h2>"),
            "a\n\n![](x.png)"
        );
        assert_eq!(md("<h3>+</h3><h3>-</h3>"), "\\+\n\n\\-");
        // A digit is a word.
        assert_eq!(md("<h3>1.</h3>"), "### 1.");
        // In a quote the empty heading leaves the quote's first line to what follows.
        assert_eq!(md("<blockquote><h2> </h2>q</blockquote>"), "> q");
    }

    #[test]
    fn a_link_around_blocks_stays_whole() {
        // Around a heading: the card's blocks stay blocks and the link goes.
        assert_eq!(
            md("<a href=\"/p\"><h3>Title</h3><p>Desc</p></a>"),
            "### Title\n\nDesc"
        );
        // Around other blocks: one line of link text.
        assert_eq!(
            md("<div>See <a href=\"/p\"><div>Read</div><div>more</div></a> now</div>"),
            "See [Read more](/p) now"
        );
        let out = md("<ul><li><a href=\"/j\"><h3>Job</h3><div>Place</div></a></li></ul>");
        assert_eq!(out, "### Job\n\nPlace");
        // A space that began the link's text parts it from the word before.
        assert_eq!(md("<p>word<a href=\"/l\"> link</a></p>"), "word [link](/l)");
    }

    #[test]
    fn pipe_table_cells_stay_on_one_line() {
        let out = md("<table><tr><th>a</th><th>b</th></tr>\
             <tr><td><p>x</p><p>y|z</p></td><td><ul><li>p</li><li>q</li></ul></td></tr></table>");
        assert_eq!(out, "| a | b |\n| --- | --- |\n| x y\\|z | p q |");
    }

    #[test]
    fn layout_tables_are_blocks() {
        // One column, a declared role, a table inside a table: none is a data table.
        assert_eq!(
            md("<table><tr><td><p>Para one</p></td></tr><tr><td>Para two</td></tr></table>"),
            "Para one\n\nPara two"
        );
        assert_eq!(
            md("<table role=presentation><tr><td>a</td><td>b</td></tr>\
                <tr><td>c</td><td>d</td></tr></table>"),
            "a\n\nb\n\nc\n\nd"
        );
        let nested = md(
            "<table><tr><td>menu</td><td><table><tr><td>k</td><td>v</td></tr>\
             <tr><td>1</td><td>2</td></tr></table></td></tr><tr><td>x</td><td>y</td></tr></table>",
        );
        assert!(nested.starts_with("menu\n\n| k | v |"), "{nested}");
    }

    #[test]
    fn markers_that_would_not_read_as_structure_are_not_written() {
        // Emphasis between a letter and a sign cannot open or close: its text is kept.
        assert_eq!(md("<p>a<em>(b)</em>c</p>"), "a(b)c");
        assert_eq!(md("<p><b>Note:</b> x</p>"), "**Note:** x");
        assert_eq!(md("<p><b>B</b><b>reakfast</b></p>"), "**Breakfast**");
        assert_eq!(md("<p><b> Lead</b></p>"), "**Lead**");
        // Code spans side by side join.
        assert_eq!(md("<p><code>a</code><code>b</code></p>"), "`ab`");
        // A `!` before a link would make it an image.
        assert_eq!(
            md("<p>Wow!<a href=\"https://x.example/\">y</a></p>"),
            "Wow\\![y](https://x.example/)"
        );
        // A heading's last `#` after a space is no closing sequence.
        assert_eq!(md("<h2>Learn C #</h2>"), "## Learn C \\#");
        // A number and a dot that start a line are no ordered list, even in two texts.
        assert_eq!(md("<p>1. one</p>"), "1\\. one");
        assert_eq!(md("<p>1.5 million</p>"), "1.5 million");
        assert_eq!(md("<p>7<span>. seven</span></p>"), "7\\. seven");
        assert_eq!(
            md("<ul><li>&gt; not a quote</li></ul>"),
            "- \\> not a quote"
        );
    }

    #[test]
    fn code_spans_are_literal() {
        // Nothing escaped inside: a backslash would be read as itself.
        assert_eq!(
            md("<p>Call <code>is_ok(*p) [0]</code> or <code>&lt;div&gt;</code>.</p>"),
            "Call `is_ok(*p) [0]` or `<div>`."
        );
        // Markup inside is its text; a block or break inside is a space.
        assert_eq!(
            md("<p><code><b>let</b> <a href=\"/x\">x</a><br>= 1</code></p>"),
            "`let x = 1`"
        );
        // Backticks inside lengthen the fence; one at an end is padded.
        assert_eq!(md("<p><code>a`b</code></p>"), "``a`b``");
        assert_eq!(md("<p><code>``x``</code></p>"), "``` ``x`` ```");
        // An empty span is left out, its space kept.
        assert_eq!(md("<p>a<code> </code>b</p>"), "a b");
        // In a pipe table a `|` is still escaped: GFM splits the row first.
        let table = md("<table><tr><th>op</th><th>is</th></tr>\
                        <tr><td><code>a|b</code></td><td>or</td></tr></table>");
        assert!(table.contains("| `a\\|b` | or |"), "{table}");
        // A line break inside a span is a space (a table's row stays on its line).
        let table = md("<table><tr><th>a</th><th>b</th></tr><tr><td>\
                        <pre><span><code>x_ *y*\n- z</code></span></pre></td><td>w</td></tr></table>");
        assert!(table.contains("| `x_ *y* - z` | w |"), "{table}");
        // In a <pre> written as plain lines a <code> is text, escaped line by line.
        assert_eq!(
            md("<pre><span><code>x_ *y*\n- z</code></span></pre>"),
            "x\\_ \\*y\\*\n\\- z"
        );
        // A space the span begins with stands before it.
        assert_eq!(md("<p>x<code> y</code></p>"), "x `y`");
    }

    #[test]
    fn code_blocks_are_literal_and_name_their_language() {
        assert_eq!(
            md(
                "<pre><code class=\"language-rust\">let <b>x</b> = <a href=\"/y\">1</a>;\n\
                x *= 2;</code></pre>"
            ),
            "```rust\nlet x = 1;\nx *= 2;\n```"
        );
        assert_eq!(
            md("<pre class=\"highlight-python notranslate\">print(1)</pre>"),
            "```python\nprint(1)\n```"
        );
        // A class that is not a plain language name is not written into the fence.
        assert_eq!(
            md("<pre class=\"lang-a`b\"><code>x</code></pre>"),
            "```\nx\n```"
        );
    }

    #[test]
    fn navigation_lists_are_plain_lines() {
        assert_eq!(
            md("<nav><ul><li><a href=\"/\">Home</a></li><li>About</li></ul></nav><p>x</p>"),
            "[Home](/)\nAbout\n\nx"
        );
        assert_eq!(
            md("<footer><div><ol><li>Terms</li><li>Privacy</li></ol></div></footer>"),
            "Terms\nPrivacy"
        );
        assert_eq!(
            md("<div role=\"navigation\"><ul><li>a</li><li>b</li></ul></div>"),
            "a\nb"
        );
        assert_eq!(md("<ul role=\"menu\"><li>a</li><li>b</li></ul>"), "a\nb");
        // A heading that is all of a navigation item is the line's text: navigation holds
        // no sections.
        assert_eq!(
            md("<nav><ul><li><h3>Docs</h3></li><li><h3>Blog</h3></li></ul></nav>"),
            "Docs\nBlog"
        );
        // A list after the navigation element closes is a list again.
        assert_eq!(
            md("<nav><ul><li>a</li></ul></nav><ul><li>b</li><li>c</li></ul>"),
            "a\n\n- b\n- c"
        );
    }

    #[test]
    fn a_list_whose_items_wrap_divs_is_plain_lines() {
        assert_eq!(
            md("<ul><li><div>a</div></li><li><div>b</div></li><li>c</li></ul>"),
            "a\n\nb\n\nc"
        );
        // Half the items or fewer: still a list.
        assert_eq!(md("<ul><li><div>a</div></li><li>b</li></ul>"), "- a\n\n- b");
    }

    #[test]
    fn code_in_a_table_is_not_fenced() {
        // A one-row table is layout: its cells are blocks, and the code in them plain lines.
        assert_eq!(
            md(
                "<table><tr><td><pre class=\"language-sh\">make\nmake test</pre></td>\
                <td>x</td></tr></table>"
            ),
            "make\nmake test\n\nx"
        );
    }

    #[test]
    fn a_pre_that_declares_no_code_is_plain_lines() {
        assert_eq!(
            md("<pre>Roses are red,\n   violets *blue*.\n\nThe end</pre>"),
            "Roses are red,\nviolets \\*blue\\*.\nThe end"
        );
        // A `<code>` child or a language class declares code.
        assert_eq!(md("<pre><code>a  b</code></pre>"), "```\na  b\n```");
        assert_eq!(md("<pre class=\"lang-c\">a  b</pre>"), "```c\na  b\n```");
    }

    #[test]
    fn a_highlighter_s_wrapper_declares_code() {
        // Sphinx: the language on the grandparent, Pygments' wrapper on the parent.
        assert_eq!(
            md(
                "<div class=\"highlight-python3 notranslate\"><div class=\"highlight\">\
                <pre><span></span><span class=\"kn\">import</span> json\n    x = 1</pre>\
                </div></div>"
            ),
            "```python3\nimport json\n    x = 1\n```"
        );
        // GitHub's `highlight-source-*`; a lexer that names no language gives a bare fence.
        assert_eq!(
            md("<div class=\"highlight highlight-source-rust\"><pre>fn f() {}</pre></div>"),
            "```rust\nfn f() {}\n```"
        );
        assert_eq!(
            md(
                "<div class=\"highlight-default\"><div class=\"highlight\"><pre>$ ls</pre></div></div>"
            ),
            "```\n$ ls\n```"
        );
        // Pygments' wrapper alone declares code; a class merely containing the word does not.
        assert_eq!(
            md("<div class=\"highlight\"><pre>a  b</pre></div>"),
            "```\na  b\n```"
        );
        assert_eq!(
            md("<div class=\"highlighted\"><pre>a  b</pre></div>"),
            "a  b"
        );
        // An ancestor's `lang-*` names its prose's language.
        assert_eq!(md("<div class=\"lang-en\"><pre>a  b</pre></div>"), "a  b");
    }
}
