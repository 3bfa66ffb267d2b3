//! The generator's own page tree: built in document order with a region on every node, then
//! serialised to HTML.
//!
//! The tree is built to be exactly the tree an HTML5 parser will build from the serialised
//! text, so that arena index = `chaff_dom` pre-order id and labels can be read straight off it.
//! Three things make that work:
//! * nodes are appended in document order, so arena order is pre-order;
//! * adjacent text is merged while building, as the parser merges character tokens;
//! * elements whose tags the serialiser leaves out (an implied `<tbody>`, the end tag of a
//!   `<p>` or `<li>` closed by the next block) are still nodes here, and the page builders put
//!   the whitespace that follows such an unclosed element *inside* it, where the parser puts it.
//!
//! The tests parse every generated page and compare node by node.

use crate::label::Region;

pub(crate) const NO_PARENT: usize = usize::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TKind {
    Document,
    /// The full text written between `<!` and `>`.
    Doctype(String),
    Element {
        tag: &'static str,
        attrs: Vec<(&'static str, String)>,
    },
    Text(String),
    Comment(String),
}

#[derive(Clone, Debug)]
pub(crate) struct TNode {
    pub(crate) kind: TKind,
    pub(crate) region: Region,
    pub(crate) parent: usize,
    pub(crate) children: Vec<usize>,
    /// The start tag is not written (implied by the parser, like `<tbody>`).
    pub(crate) omit_start: bool,
    /// The end tag is not written (implied by the next start tag or the parent's end tag).
    pub(crate) omit_end: bool,
    /// The node is this page's data, not the site's layout (see [`crate::Origin`]).
    pub(crate) page_data: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<TNode>,
}

impl Tree {
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn tag(&self, i: usize) -> Option<&'static str> {
        match &self.nodes[i].kind {
            TKind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// Whether `a` is `n` or an ancestor of `n`.
    pub(crate) fn contains(&self, a: usize, mut n: usize) -> bool {
        loop {
            if n == a {
                return true;
            }
            if n == NO_PARENT {
                return false;
            }
            n = self.nodes[n].parent;
        }
    }

    /// The deepest common ancestor of `a` and `b`.
    pub(crate) fn common_ancestor(&self, a: usize, b: usize) -> usize {
        let mut x = a;
        while x != NO_PARENT {
            if self.contains(x, b) {
                return x;
            }
            x = self.nodes[x].parent;
        }
        0
    }

    #[cfg(test)]
    pub(crate) fn is_ws_text(&self, i: usize) -> bool {
        matches!(&self.nodes[i].kind, TKind::Text(t) if t.chars().all(char::is_whitespace))
    }
}

/// How the serialiser spells things; none of it changes the parsed tree.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SerOptions {
    /// Write tag and attribute names in upper case (old hand-written pages).
    pub(crate) upper_case: bool,
    /// Write non-ASCII punctuation as named character references (`&copy;`, `&raquo;`).
    pub(crate) named_entities: bool,
    /// Leave simple attribute values unquoted (`width=180`).
    pub(crate) unquoted_attrs: bool,
}

/// Builds a [`Tree`] in document order.
pub(crate) struct Builder {
    tree: Tree,
    stack: Vec<usize>,
    indent_unit: &'static str,
    /// Whether nodes made now are page data ([`Builder::page_data`]).
    page_data: bool,
}

impl Builder {
    pub(crate) fn new(indent_unit: &'static str) -> Builder {
        Builder {
            tree: Tree {
                nodes: vec![TNode {
                    kind: TKind::Document,
                    region: Region::Structure,
                    parent: NO_PARENT,
                    children: Vec::new(),
                    omit_start: false,
                    omit_end: false,
                    page_data: false,
                }],
            },
            stack: vec![0],
            indent_unit,
            page_data: false,
        }
    }

    fn current(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    /// Region of the current open node, inherited by new children.
    pub(crate) fn region(&self) -> Region {
        self.tree.nodes[self.current()].region
    }

    fn push(&mut self, kind: TKind, region: Region) -> usize {
        let parent = self.current();
        let id = self.tree.nodes.len();
        self.tree.nodes.push(TNode {
            kind,
            region,
            parent,
            children: Vec::new(),
            omit_start: false,
            omit_end: false,
            page_data: self.page_data,
        });
        self.tree.nodes[parent].children.push(id);
        id
    }

    /// Builds with `f` the parts of the page that are this page's data rather than the
    /// site's layout: text that differs from page to page (titles, dates, list headlines, ad
    /// texts, the article) and elements that only some pages have (ads, an update date, a
    /// standfirst, the article's paragraphs). Only marks nodes; the HTML is the same.
    pub(crate) fn page_data<R>(&mut self, f: impl FnOnce(&mut Builder) -> R) -> R {
        let outer = std::mem::replace(&mut self.page_data, true);
        let r = f(self);
        self.page_data = outer;
        r
    }

    /// [`Builder::page_data`] when `on`, else plain `f`.
    pub(crate) fn page_data_if<R>(&mut self, on: bool, f: impl FnOnce(&mut Builder) -> R) -> R {
        let outer = self.page_data;
        self.page_data |= on;
        let r = f(self);
        self.page_data = outer;
        r
    }

    /// Text that is this page's data (see [`Builder::page_data`]).
    pub(crate) fn data_text(&mut self, text: &str) {
        self.page_data(|b| b.text(text));
    }

    /// An element of the layout holding only page data as text.
    pub(crate) fn data_leaf(
        &mut self,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
        text: &str,
    ) {
        self.open(tag, attrs);
        self.data_text(text);
        self.close();
    }

    pub(crate) fn doctype(&mut self, text: &str) {
        self.push(TKind::Doctype(text.to_string()), Region::Structure);
    }

    /// Opens an element in the current region.
    pub(crate) fn open(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> usize {
        let region = self.region();
        self.open_in(region, tag, attrs)
    }

    /// Opens an element that starts `region` (its subtree inherits it).
    pub(crate) fn open_in(
        &mut self,
        region: Region,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
    ) -> usize {
        let attrs = attrs.iter().map(|&(k, v)| (k, v.to_string())).collect();
        let id = self.push(TKind::Element { tag, attrs }, region);
        self.stack.push(id);
        id
    }

    /// Opens an element whose tags the parser implies (`<tbody>` between `<table>` and `<tr>`).
    pub(crate) fn open_implied(&mut self, tag: &'static str) -> usize {
        let id = self.open(tag, &[]);
        self.tree.nodes[id].omit_start = true;
        self.tree.nodes[id].omit_end = true;
        id
    }

    /// Closes the current element with an end tag (void elements get none anyway).
    pub(crate) fn close(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Closes the current element without writing its end tag: the caller guarantees that
    /// what comes next makes the parser close it at exactly this point.
    pub(crate) fn close_implied(&mut self) {
        let cur = self.current();
        if self.stack.len() > 1 {
            self.tree.nodes[cur].omit_end = true;
            self.stack.pop();
        }
    }

    /// A void element (`br`, `img`, `input`, ...).
    pub(crate) fn void(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) {
        self.open(tag, attrs);
        self.close();
    }

    /// A void element starting its own region.
    pub(crate) fn void_in(
        &mut self,
        region: Region,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
    ) {
        self.open_in(region, tag, attrs);
        self.close();
    }

    /// An element holding only `text`.
    pub(crate) fn leaf(&mut self, tag: &'static str, attrs: &[(&'static str, &str)], text: &str) {
        self.open(tag, attrs);
        self.text(text);
        self.close();
    }

    /// Text; merged into a preceding text sibling as the parser would merge it.
    pub(crate) fn text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let cur = self.current();
        if let Some(&last) = self.tree.nodes[cur].children.last()
            && let TKind::Text(t) = &mut self.tree.nodes[last].kind
        {
            t.push_str(text);
            // A text node that is partly page data is page data: its token differs.
            self.tree.nodes[last].page_data |= self.page_data;
            return;
        }
        let region = self.region();
        self.push(TKind::Text(text.to_string()), region);
    }

    /// A newline and indentation for the current depth: formatting whitespace, which the
    /// parser keeps as (whitespace-only) text nodes.
    pub(crate) fn nl(&mut self) {
        let depth = self.stack.len().saturating_sub(3);
        let mut s = String::with_capacity(1 + depth * self.indent_unit.len());
        s.push('\n');
        for _ in 0..depth {
            s.push_str(self.indent_unit);
        }
        self.text(&s);
    }

    /// A newline indented for the current element's own level, then its end tag.
    pub(crate) fn end(&mut self) {
        let depth = self.stack.len().saturating_sub(4);
        let mut s = String::with_capacity(1 + depth * self.indent_unit.len());
        s.push('\n');
        for _ in 0..depth {
            s.push_str(self.indent_unit);
        }
        self.text(&s);
        self.close();
    }

    pub(crate) fn comment(&mut self, text: &str) {
        let region = self.region();
        self.push(TKind::Comment(text.to_string()), region);
    }

    pub(crate) fn finish(self) -> Tree {
        self.tree
    }
}

fn is_void(tag: &str) -> bool {
    chaff_dom::serialize::is_void(tag)
}

fn is_raw_text(tag: &str) -> bool {
    matches!(tag, "script" | "style")
}

fn push_name(out: &mut String, name: &str, upper: bool) {
    if upper {
        out.extend(name.chars().map(|c| c.to_ascii_uppercase()));
    } else {
        out.push_str(name);
    }
}

fn escape_text(out: &mut String, text: &str, named: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            _ if named => match c {
                '©' => out.push_str("&copy;"),
                '»' => out.push_str("&raquo;"),
                '›' => out.push_str("&rsaquo;"),
                '·' => out.push_str("&middot;"),
                '–' => out.push_str("&ndash;"),
                '—' => out.push_str("&mdash;"),
                '…' => out.push_str("&hellip;"),
                '‘' => out.push_str("&lsquo;"),
                '’' => out.push_str("&rsquo;"),
                '“' => out.push_str("&ldquo;"),
                '”' => out.push_str("&rdquo;"),
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
}

fn write_attr(out: &mut String, name: &str, value: &str, opts: SerOptions) {
    out.push(' ');
    push_name(out, name, opts.upper_case);
    if value.is_empty() {
        return;
    }
    out.push('=');
    let simple = value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'#' | b'%' | b'-' | b'_' | b'.'));
    if opts.unquoted_attrs && simple {
        out.push_str(value);
        return;
    }
    out.push('"');
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

/// Serialises the tree without recursion (an explicit stack of (node, next child)).
///
/// The doctype is followed by a newline, which the parser drops (whitespace before `<html>` is
/// ignored), so it is not a node.
pub(crate) fn serialize(tree: &Tree, opts: SerOptions) -> String {
    let mut out = String::with_capacity(tree.len() * 24);
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    while let Some(top) = stack.last_mut() {
        let (id, child) = *top;
        let node = &tree.nodes[id];
        if child == 0 {
            // First visit: write the opening.
            match &node.kind {
                TKind::Document => {}
                TKind::Doctype(t) => {
                    out.push_str("<!");
                    out.push_str(t);
                    out.push_str(">\n");
                }
                TKind::Element { tag, attrs } => {
                    if !node.omit_start {
                        out.push('<');
                        push_name(&mut out, tag, opts.upper_case);
                        for (k, v) in attrs {
                            write_attr(&mut out, k, v, opts);
                        }
                        out.push('>');
                    }
                }
                TKind::Text(t) => {
                    let parent_tag = tree.tag(node.parent).unwrap_or("");
                    if is_raw_text(parent_tag) {
                        out.push_str(t);
                    } else {
                        escape_text(&mut out, t, opts.named_entities);
                    }
                }
                TKind::Comment(t) => {
                    out.push_str("<!--");
                    out.push_str(t);
                    out.push_str("-->");
                }
            }
        }
        if child < node.children.len() {
            top.1 += 1;
            stack.push((node.children[child], 0));
            continue;
        }
        if let TKind::Element { tag, .. } = &node.kind
            && !node.omit_end
            && !is_void(tag)
        {
            out.push_str("</");
            push_name(&mut out, tag, opts.upper_case);
            out.push('>');
        }
        stack.pop();
    }
    out
}
