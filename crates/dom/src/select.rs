//! CSS selectors over the arena document: a subset of Selectors Level 4, compiled once and
//! matched right to left.
//!
//! What it is for: finding nodes from hand-written selectors (data-set labels such as
//! `div#nav ul.nav-list` or `body > table:nth-of-type(2) td`), and the reverse, printing a
//! selector that identifies one element of a page ([`unique_selector`]) so a detected menu or
//! content root can be reported in a form people can paste into a browser console. Simple
//! XPaths have direct equivalents: `/html/body/div[3]/ul` is
//! `html:root > body > div:nth-of-type(3) > ul`, `//td[@class='nav']` is `td[class="nav"]`.
//!
//! # Supported grammar
//!
//! ```text
//! selector-list  = complex ( "," complex )*
//! complex        = compound ( combinator compound )*
//! combinator     = whitespace (descendant) | ">" (child) | "+" (next sibling)
//!                | "~" (subsequent sibling)
//! compound       = [ type | "*" ] subclass*      (at least one part)
//! type           = ident                          div, DIV (ASCII case-insensitive for HTML)
//! subclass       = "#" name                       id, exact and case-sensitive
//!                | "." ident                      one of the whitespace-separated classes
//!                | "[" ident "]"                  attribute present
//!                | "[" ident op value [ "i" | "s" ] "]"
//!                | pseudo
//! op             = "=" | "~=" | "|=" | "^=" | "$=" | "*="
//! value          = ident | quoted-string
//! pseudo         = ":root" | ":empty"
//!                | ":first-child" | ":last-child" | ":only-child"
//!                | ":first-of-type" | ":last-of-type" | ":only-of-type"
//!                | ":nth-child(" anb ")" | ":nth-last-child(" anb ")"
//!                | ":nth-of-type(" anb ")" | ":nth-last-of-type(" anb ")"
//!                | ":not(" compound ( "," compound )* ")"     (no :not inside :not)
//! anb            = "odd" | "even" | integer | [+-]? integer? "n" ( [+-] integer )?
//! ```
//!
//! Identifiers, names and strings take CSS escapes (`\:`, `\31 23`, `\"`), so every class or
//! id a page can contain can be written down. Pseudo-class names, `odd`/`even`, `n` and the
//! attribute flag are ASCII case-insensitive.
//!
//! Matching follows what browsers do in HTML documents (standards mode):
//! * type selectors and attribute names compare ASCII case-insensitively on HTML elements and
//!   exactly on SVG/MathML elements (`clipPath`, `viewBox`), and ignore namespaces;
//! * `#id` and `.class` are case-sensitive; attribute values are case-sensitive unless the
//!   `i` flag is given or the attribute is one HTML lists as case-insensitive in selectors
//!   (`type`, `lang`, `rel`, ...; the `s` flag turns that off);
//! * `[a~=v]` never matches an empty or whitespace-containing `v`; `^=`, `$=`, `*=` never
//!   match an empty value;
//! * `:nth-*` count element siblings; the root element counts as a child of the document;
//!   `:empty` allows only comments and empty text nodes; contents of `<template>` are part of
//!   the tree here and so are matched.
//!
//! Anything else — pseudo-elements, `:hover` and other pseudo-classes, `:is()`/`:has()`,
//! namespaces (`svg|a`, `[*|x]`), `:nth-child(... of S)`, comments, column combinators — is a
//! [`SelectorError`] naming the byte where parsing stopped. Silently ignoring unknown syntax
//! could only produce wrong matches. One leniency: `#123` is accepted as an id selector
//! (browsers want `#\31 23`), because its meaning is unambiguous and hand-written labels use it.
//!
//! # Matching
//!
//! Compounds are matched right to left: the rightmost (subject) compound against the
//! candidate, then each combinator moves to the parent, an ancestor, the previous element
//! sibling or an earlier sibling. Choices (ancestors for the descendant combinator, earlier
//! siblings for `~`) are explored nearest first with an explicit stack, never recursion, and
//! with the classic pruning rules: when a descendant search runs out of ancestors no other
//! choice can succeed, and when a `~` search runs out of siblings no other choice in the same
//! sibling run can. [`Selector::select`] also remembers, per `~` step, which earlier siblings
//! are already known to fail or to succeed, and caches sibling positions for `:nth-*` (one
//! walk per sibling list), so selecting over a 50,000-node page, or in a list of 50,000 items,
//! stays linear in practice.
//!
//! # API
//!
//! * [`Selector::parse`] (or `str::parse`), then [`Selector::select`] /
//!   [`Selector::select_first`] over a subtree, or [`Selector::matches`] for one node;
//!   [`MatchContext`] shares the position caches when testing many nodes one by one.
//! * [`unique_selector`] / [`Locator`]: a selector that picks out exactly one element.
//! * [`escape_ident`] / [`escape_string`]: write names and values into selector text.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use markup5ever::LocalName;
use thiserror::Error;

use crate::document::{Document, ElementNs, NodeId, NodeKind};

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// A parse error: where in the selector parsing stopped and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid selector {selector:?}: {reason} at byte {offset}{}", near(.selector, *.offset))]
pub struct SelectorError {
    /// The selector text as given.
    pub selector: String,
    /// Byte offset into `selector` where parsing failed.
    pub offset: usize,
    /// What was wrong there.
    pub reason: String,
}

/// ` (near "...")` or ` (end of input)`: where a parse error is, for selector and XPath
/// error messages.
pub(crate) fn near(selector: &str, offset: usize) -> String {
    match selector.get(offset..) {
        Some(rest) if !rest.is_empty() => {
            let snippet: String = rest.chars().take(16).collect();
            let more = if snippet.len() < rest.len() {
                "…"
            } else {
                ""
            };
            format!(" (near {snippet:?}{more})")
        }
        _ => " (end of input)".to_owned(),
    }
}

/// A compiled selector list: parse once, match against any number of documents.
#[derive(Clone, Debug)]
pub struct Selector {
    source: Box<str>,
    alternatives: Vec<Complex>,
    /// Number of combinator steps over all alternatives: the size of the `~` memo.
    steps: usize,
}

impl Selector {
    /// Parses a selector list. Errors name the byte offset where parsing stopped.
    pub fn parse(selector: &str) -> Result<Selector, SelectorError> {
        let mut p = Parser {
            src: selector,
            pos: 0,
        };
        let mut alternatives = p.selector_list()?;
        let mut steps = 0;
        for c in &mut alternatives {
            c.memo_base = steps;
            steps += c.combinators.len();
        }
        Ok(Selector {
            source: selector.into(),
            alternatives,
            steps,
        })
    }

    /// The text the selector was parsed from.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the node is an element matched by the selector. Relations to the left of the
    /// subject are looked up in the whole document.
    ///
    /// Each call computes sibling positions from scratch (one walk over the element's
    /// siblings); to test many elements use [`Selector::select`] or
    /// [`Selector::matches_in`], which cache them.
    pub fn matches(&self, doc: &Document, id: NodeId) -> bool {
        let mut cx = MatchContext::uncached(doc);
        self.matches_inner(&mut cx, None, id)
    }

    /// Like [`Selector::matches`], sharing sibling-position caches across calls (and across
    /// selectors) through `cx`.
    pub fn matches_in(&self, cx: &mut MatchContext<'_>, id: NodeId) -> bool {
        self.matches_inner(cx, None, id)
    }

    /// The matching elements of the subtree of `root` (including `root` itself), in document
    /// order. As with `querySelectorAll`, the compounds left of the subject may match outside
    /// the subtree: `select(doc, ul)` with `div ul li` finds the `li`s of a `ul` inside a `div`.
    pub fn select<'a>(&'a self, doc: &'a Document, root: NodeId) -> Select<'a> {
        Select {
            selector: self,
            cx: MatchContext::new(doc),
            memo: vec![SiblingMemo::EMPTY; self.steps],
            next: root.0,
            end: doc.subtree_end(root).0,
        }
    }

    /// The first match in the subtree of `root`, in document order.
    pub fn select_first(&self, doc: &Document, root: NodeId) -> Option<NodeId> {
        self.select(doc, root).next()
    }

    fn matches_inner(
        &self,
        cx: &mut MatchContext<'_>,
        mut memo: Option<&mut [SiblingMemo]>,
        id: NodeId,
    ) -> bool {
        if !cx.doc.is_element(id) {
            return false;
        }
        self.alternatives.iter().any(|c| {
            let memo = memo
                .as_deref_mut()
                .map(|m| &mut m[c.memo_base..c.memo_base + c.combinators.len()]);
            c.matches(cx, memo, id)
        })
    }
}

impl FromStr for Selector {
    type Err = SelectorError;

    fn from_str(s: &str) -> Result<Selector, SelectorError> {
        Selector::parse(s)
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Per-document caches for matching: the position of each element among its element siblings
/// (overall and among siblings of its type), computed for all children of a parent at once
/// the first time one of them is asked about. Shareable across selectors; tied to one
/// document by its lifetime.
pub struct MatchContext<'d> {
    doc: &'d Document,
    cached: bool,
    positions: Vec<Position>,
    type_counts: HashMap<(ElementNs, &'d str), u32>,
    stack: Vec<Frame>,
}

impl<'d> MatchContext<'d> {
    /// A context for `doc`. Allocates nothing until a `:nth-*`-like pseudo-class needs it.
    pub fn new(doc: &'d Document) -> MatchContext<'d> {
        MatchContext {
            doc,
            cached: true,
            positions: Vec::new(),
            type_counts: HashMap::new(),
            stack: Vec::new(),
        }
    }

    /// A context that computes positions on demand without keeping them: for one-off
    /// [`Selector::matches`] calls, where a document-sized table would cost more than a walk.
    fn uncached(doc: &'d Document) -> MatchContext<'d> {
        MatchContext {
            cached: false,
            ..MatchContext::new(doc)
        }
    }

    /// The document this context belongs to.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    fn position(&mut self, el: NodeId) -> Position {
        if !self.cached {
            return self.position_uncached(el);
        }
        if self.positions.is_empty() {
            // One document-sized table (16 bytes a node), filled a sibling list at a time.
            self.positions = vec![Position::default(); self.doc.len()];
        }
        if self.positions[el.index()].index == 0 {
            self.fill_positions(el);
        }
        self.positions[el.index()]
    }

    /// One walk over the siblings of `el` gives the positions of all of them.
    fn fill_positions(&mut self, el: NodeId) {
        let doc = self.doc;
        let Some(parent) = doc.parent(el) else {
            self.positions[el.index()] = Position::ALONE;
            return;
        };
        self.type_counts.clear();
        let mut n = 0;
        for c in doc.element_children(parent) {
            n += 1;
            let t = self
                .type_counts
                .entry((doc.namespace(c), doc.tag(c)))
                .or_insert(0);
            *t += 1;
            self.positions[c.index()] = Position {
                index: n,
                count: 0,
                type_index: *t,
                type_count: 0,
            };
        }
        for c in doc.element_children(parent) {
            let p = &mut self.positions[c.index()];
            p.count = n;
            p.type_count = self.type_counts[&(doc.namespace(c), doc.tag(c))];
        }
    }

    fn position_uncached(&self, el: NodeId) -> Position {
        let doc = self.doc;
        let Some(parent) = doc.parent(el) else {
            return Position::ALONE;
        };
        let (ns, tag) = (doc.namespace(el), doc.tag_atom(el));
        let mut p = Position::default();
        let mut before = true;
        for c in doc.element_children(parent) {
            let same_type = doc.namespace(c) == ns && doc.tag_atom(c) == tag;
            p.count += 1;
            p.type_count += u32::from(same_type);
            if before {
                p.index += 1;
                p.type_index += u32::from(same_type);
                before = c != el;
            }
        }
        p
    }
}

/// Iterator over the matches of [`Selector::select`].
pub struct Select<'a> {
    selector: &'a Selector,
    cx: MatchContext<'a>,
    memo: Vec<SiblingMemo>,
    next: u32,
    end: u32,
}

impl Iterator for Select<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        while self.next < self.end {
            let id = NodeId(self.next);
            self.next += 1;
            if self
                .selector
                .matches_inner(&mut self.cx, Some(&mut self.memo), id)
            {
                return Some(id);
            }
        }
        None
    }
}

/// A short selector that matches exactly `id` in `doc` (and nothing else), or `None` if `id`
/// is not an element.
///
/// For reporting a detected element (a menu, a content root) in a form people can paste into
/// a browser console or a label file. Candidates, in order, each verified with this module's
/// matcher before it is returned:
/// 1. the element's own `#id` when the id is unique in the page, else a page-unique `tag` or
///    `tag.class` (`ul.sections`);
/// 2. an anchor — the nearest ancestor with such a unique form — and the element's `tag` or
///    `tag.class` if that is unique below the anchor (`#nav ul`);
/// 3. the anchor (or the root element) and a `>` path whose steps are unique among their
///    siblings (`tag`, `tag.class`, `tag:nth-of-type(k)`), then shortened by dropping
///    intermediate steps while the result stays unique, bare wrappers such as `tbody` first
///    (`body > table:nth-of-type(2) tr:nth-of-type(4) > td`). Dropping `tbody` also keeps the
///    selector valid for parsers that insert none (lxml).
///
/// Ids, classes and tag names are escaped, so odd names (`o-nav@main`, `1col`) round-trip.
/// If a name-based form ever failed verification (namespace corner cases), a purely
/// structural `:root > :nth-child(i) > ...` path is returned, which is right by construction.
///
/// Builds a per-document index on each call; use [`Locator`] for many elements of one page.
/// Costs a few passes over the document per call (each verification is one `select`).
pub fn unique_selector(doc: &Document, id: NodeId) -> Option<String> {
    Locator::new(doc).unique_selector(id)
}

/// [`unique_selector`] with the page's id/tag/class counts computed once.
pub struct Locator<'d> {
    doc: &'d Document,
    ids: HashMap<&'d str, u32>,
    tags: HashMap<&'d str, u32>,
    tag_classes: HashMap<(&'d str, &'d str), u32>,
}

impl<'d> Locator<'d> {
    /// Indexes the ids, tags and `tag.class` pairs of `doc` (one pass).
    pub fn new(doc: &'d Document) -> Locator<'d> {
        let mut ids = HashMap::new();
        let mut tags = HashMap::new();
        let mut tag_classes = HashMap::new();
        let mut classes = Vec::new();
        for n in doc.ids().filter(|&n| doc.is_element(n)) {
            let tag = doc.tag(n);
            *tags.entry(tag).or_insert(0) += 1;
            if let Some(v) = doc.attr(n, "id").filter(|v| !v.is_empty()) {
                *ids.entry(v).or_insert(0) += 1;
            }
            distinct_classes(doc, n, &mut classes);
            for &c in &classes {
                *tag_classes.entry((tag, c)).or_insert(0) += 1;
            }
        }
        Locator {
            doc,
            ids,
            tags,
            tag_classes,
        }
    }

    /// See [`unique_selector`].
    pub fn unique_selector(&self, id: NodeId) -> Option<String> {
        let doc = self.doc;
        if id.index() >= doc.len() || !doc.is_element(id) {
            return None;
        }
        let verify = |s: &str| -> bool {
            Selector::parse(s).is_ok_and(|sel| {
                let mut it = sel.select(doc, NodeId::ROOT);
                it.next() == Some(id) && it.next().is_none()
            })
        };
        // 1. The element on its own.
        if let Some(own) = self.global_compound(id).filter(|s| verify(s)) {
            return Some(own);
        }
        // The nearest ancestor that has a page-unique compound.
        let anchor = doc
            .ancestors(id)
            .take_while(|&a| doc.is_element(a))
            .find_map(|a| self.global_compound(a).map(|s| (a, s)));
        // 2. Anchor, descendant combinator, the element's own tag or tag.class.
        if let Some((a, ref anchor_sel)) = anchor {
            for own in self.local_compounds(id) {
                let Ok(sel) = Selector::parse(&own) else {
                    continue;
                };
                let mut below = sel.select(doc, a).filter(|&n| n != a);
                if below.next() == Some(id) && below.next().is_none() {
                    let s = format!("{anchor_sel} {own}");
                    if verify(&s) {
                        return Some(s);
                    }
                }
            }
        }
        // 3. Anchor (or the top of the document) and a `>` path of sibling-unique steps.
        let mut steps = Vec::new();
        let mut cur = id;
        loop {
            match anchor {
                Some((a, ref s)) if a == cur => {
                    steps.push(s.clone());
                    break;
                }
                _ => {}
            }
            let parent = doc.parent(cur).unwrap_or(NodeId::ROOT);
            let step = self.sibling_compound(cur);
            if doc.kind(parent) != NodeKind::Element {
                steps.push(format!("{step}:root"));
                break;
            }
            steps.push(step);
            cur = parent;
        }
        steps.reverse();
        let render = |keep: &[bool]| {
            let mut out = String::new();
            let mut prev = None;
            for (i, s) in steps.iter().enumerate().filter(|&(i, _)| keep[i]) {
                if let Some(p) = prev {
                    out.push_str(if p + 1 == i { " > " } else { " " });
                }
                out.push_str(s);
                prev = Some(i);
            }
            out
        };
        let mut keep = vec![true; steps.len()];
        if !verify(&render(&keep)) {
            // 4. Purely structural; only reached if a name-based form fails verification
            //    (namespace corner cases), and correct by construction.
            return Some(self.structural_path(id));
        }
        // Shorten: drop intermediate steps while the selector stays unique, bare wrappers
        // (`div`, `tbody`, `td`) first, then the rest; the combinator around a dropped step
        // becomes a descendant one. `table > tbody > tr` becomes `table tr`, which also holds
        // in parsers that insert no `<tbody>`.
        let inner = 1..steps.len().saturating_sub(1);
        let bare = |s: &str| !s.contains(['.', ':', '#']);
        for pass_bare in [true, false] {
            for i in inner.clone() {
                if keep[i] && bare(&steps[i]) == pass_bare {
                    keep[i] = false;
                    keep[i] = !verify(&render(&keep));
                }
            }
        }
        Some(render(&keep))
    }

    /// `#id`, `tag` or `tag.class` if it matches only `n` in the whole page.
    fn global_compound(&self, n: NodeId) -> Option<String> {
        let doc = self.doc;
        if let Some(v) = doc.attr(n, "id").filter(|v| !v.is_empty())
            && self.ids.get(v) == Some(&1)
        {
            return Some(format!("#{}", escape_ident(v)));
        }
        let tag = doc.tag(n);
        if self.tags.get(tag) == Some(&1) {
            return Some(escape_ident(tag));
        }
        let mut classes = Vec::new();
        distinct_classes(doc, n, &mut classes);
        classes
            .iter()
            .find(|&&c| self.tag_classes.get(&(tag, c)) == Some(&1))
            .map(|c| format!("{}.{}", escape_ident(tag), escape_ident(c)))
    }

    /// The element's `tag` and `tag.class` forms, for uniqueness below an anchor.
    fn local_compounds(&self, n: NodeId) -> Vec<String> {
        let tag = escape_ident(self.doc.tag(n));
        let mut classes = Vec::new();
        distinct_classes(self.doc, n, &mut classes);
        let mut out = vec![tag.clone()];
        out.extend(classes.iter().map(|c| format!("{tag}.{}", escape_ident(c))));
        out
    }

    /// A compound that matches `n` and none of its element siblings.
    fn sibling_compound(&self, n: NodeId) -> String {
        let doc = self.doc;
        let tag = doc.tag(n);
        let tag_sel = TypeSel::new(tag);
        let parent = doc.parent(n).unwrap_or(NodeId::ROOT);
        let same: Vec<NodeId> = doc
            .element_children(parent)
            .filter(|&s| s != n && tag_sel.matches(doc, s))
            .collect();
        let esc_tag = escape_ident(tag);
        if same.is_empty() {
            return esc_tag;
        }
        let mut classes = Vec::new();
        distinct_classes(doc, n, &mut classes);
        let mut other = Vec::new();
        for &c in &classes {
            let taken = same.iter().any(|&s| {
                distinct_classes(doc, s, &mut other);
                other.contains(&c)
            });
            if !taken {
                return format!("{esc_tag}.{}", escape_ident(c));
            }
        }
        let k = MatchContext::uncached(doc).position(n).type_index;
        format!("{esc_tag}:nth-of-type({k})")
    }

    /// `:root > :nth-child(i) > ... > :nth-child(k)`: no names at all.
    fn structural_path(&self, id: NodeId) -> String {
        let doc = self.doc;
        let cx = MatchContext::uncached(doc);
        let mut chain = vec![id];
        chain.extend(doc.ancestors(id).take_while(|&a| doc.is_element(a)));
        let top = *chain.last().expect("non-empty");
        let mut out = String::from(":root");
        let top_pos = cx.position_uncached(top);
        if top_pos.count > 1 {
            let _ = write!(out, ":nth-child({})", top_pos.index);
        }
        for &n in chain.iter().rev().skip(1) {
            let _ = write!(out, " > :nth-child({})", cx.position_uncached(n).index);
        }
        out
    }
}

/// The distinct classes of an element, in source order.
fn distinct_classes<'d>(doc: &'d Document, n: NodeId, out: &mut Vec<&'d str>) {
    out.clear();
    for c in doc.attr(n, "class").unwrap_or("").split_ascii_whitespace() {
        if !out.contains(&c) {
            out.push(c);
        }
    }
}

/// Serialises an identifier so that the selector parser reads it back unchanged (the CSSOM
/// "serialize an identifier" rules): leading digits, controls and punctuation are escaped.
pub fn escape_ident(ident: &str) -> String {
    let mut out = String::with_capacity(ident.len());
    let first = ident.chars().next();
    if ident == "-" {
        return "\\-".to_owned();
    }
    for (i, c) in ident.chars().enumerate() {
        match c {
            '\0' => out.push('\u{fffd}'),
            '\u{1}'..='\u{1f}' | '\u{7f}' => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            '0'..='9' if i == 0 || (i == 1 && first == Some('-')) => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            c if c >= '\u{80}' || c == '-' || c == '_' || c.is_ascii_alphanumeric() => {
                out.push(c);
            }
            c => {
                out.push('\\');
                out.push(c);
            }
        }
    }
    out
}

/// Serialises a string as a double-quoted CSS string.
pub fn escape_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\0' => out.push('\u{fffd}'),
            '\u{1}'..='\u{1f}' | '\u{7f}' => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------------------------------------
// Compiled form
// ---------------------------------------------------------------------------------------------

/// One complex selector, stored right to left: `compounds[0]` is the subject and
/// `combinators[i]` relates `compounds[i]` to `compounds[i + 1]` on its left.
#[derive(Clone, Debug)]
struct Complex {
    compounds: Vec<Compound>,
    combinators: Vec<Combinator>,
    memo_base: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combinator {
    Descendant,
    Child,
    Adjacent,
    Sibling,
}

#[derive(Clone, Debug, Default)]
struct Compound {
    /// `None` is the universal selector (explicit `*` or implied).
    tag: Option<TypeSel>,
    /// Sorted cheapest first; all must match.
    simples: Vec<Simple>,
}

#[derive(Clone, Debug)]
struct TypeSel {
    /// Compared with HTML elements, whose names the parser lower-cased.
    lower: LocalName,
    /// Compared with foreign (SVG, MathML) elements, whose names keep their case.
    exact: LocalName,
}

impl TypeSel {
    fn new(name: &str) -> TypeSel {
        TypeSel {
            lower: LocalName::from(name.to_ascii_lowercase()),
            exact: LocalName::from(name),
        }
    }

    #[inline]
    fn matches(&self, doc: &Document, el: NodeId) -> bool {
        let t = doc.tag_atom(el);
        if doc.namespace(el) == ElementNs::Html {
            *t == self.lower
        } else {
            *t == self.exact
        }
    }
}

#[derive(Clone, Debug)]
enum Simple {
    Id(Box<str>),
    Class(Box<str>),
    Attr(AttrSel),
    Root,
    Empty,
    Nth(Nth),
    /// Matches if none of the compounds matches (they contain no `Not`).
    Not(Vec<Compound>),
}

impl Simple {
    /// Evaluation order inside a compound: cheap and selective first.
    fn cost(&self) -> u8 {
        match self {
            Simple::Id(_) => 0,
            Simple::Class(_) => 1,
            Simple::Attr(_) => 2,
            Simple::Root => 3,
            Simple::Empty => 4,
            Simple::Nth(_) => 5,
            Simple::Not(_) => 6,
        }
    }
}

#[derive(Clone, Debug)]
struct AttrSel {
    lower: LocalName,
    exact: LocalName,
    op: AttrOp,
    value: Box<str>,
    case: Case,
    /// The name is on HTML's list of attributes whose values selectors compare
    /// case-insensitively on HTML elements.
    html_legacy_ci: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AttrOp {
    Exists,
    Equals,
    Includes,
    DashMatch,
    Prefix,
    Suffix,
    Substring,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Default,
    Insensitive,
    Sensitive,
}

/// `:nth-*(an+b)`; `:first-child` is `0n+1`, `:last-child` the same from the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nth {
    a: i32,
    b: i32,
    of_type: bool,
    from_end: bool,
}

impl Nth {
    fn first(of_type: bool, from_end: bool) -> Nth {
        Nth {
            a: 0,
            b: 1,
            of_type,
            from_end,
        }
    }

    /// Whether some n >= 0 gives a*n + b == index.
    fn hits(&self, index: u32) -> bool {
        let (a, d) = (i64::from(self.a), i64::from(index) - i64::from(self.b));
        if a == 0 {
            d == 0
        } else {
            d % a == 0 && d / a >= 0
        }
    }
}

/// Where an element stands among its element siblings (1-based); `index == 0` is "not yet
/// computed" in the cache.
#[derive(Clone, Copy, Debug, Default)]
struct Position {
    index: u32,
    count: u32,
    type_index: u32,
    type_count: u32,
}

impl Position {
    const ALONE: Position = Position {
        index: 1,
        count: 1,
        type_index: 1,
        type_count: 1,
    };
}

/// HTML's "case-sensitivity of selectors" list: on HTML elements these attributes' values
/// compare ASCII case-insensitively unless the `s` flag says otherwise.
const HTML_CASE_INSENSITIVE_ATTRS: &[&str] = &[
    "accept",
    "accept-charset",
    "align",
    "alink",
    "axis",
    "bgcolor",
    "charset",
    "checked",
    "clear",
    "codetype",
    "color",
    "compact",
    "declare",
    "defer",
    "dir",
    "direction",
    "disabled",
    "enctype",
    "face",
    "frame",
    "hreflang",
    "http-equiv",
    "lang",
    "language",
    "link",
    "media",
    "method",
    "multiple",
    "nohref",
    "noresize",
    "noshade",
    "nowrap",
    "readonly",
    "rel",
    "rev",
    "rules",
    "scope",
    "scrolling",
    "selected",
    "shape",
    "target",
    "text",
    "type",
    "valign",
    "valuetype",
    "vlink",
];

// ---------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------

impl Compound {
    fn matches(&self, cx: &mut MatchContext<'_>, el: NodeId) -> bool {
        let doc = cx.doc;
        if let Some(t) = &self.tag
            && !t.matches(doc, el)
        {
            return false;
        }
        self.simples.iter().all(|s| s.matches(cx, el))
    }
}

impl Simple {
    fn matches(&self, cx: &mut MatchContext<'_>, el: NodeId) -> bool {
        let doc = cx.doc;
        match self {
            Simple::Id(id) => doc.attr(el, "id") == Some(&**id),
            Simple::Class(class) => doc
                .attr(el, "class")
                .is_some_and(|v| v.split_ascii_whitespace().any(|c| c == &**class)),
            Simple::Attr(a) => a.matches(doc, el),
            Simple::Root => doc
                .parent(el)
                .is_some_and(|p| doc.kind(p) == NodeKind::Document),
            Simple::Empty => doc.children(el).all(|c| match doc.kind(c) {
                NodeKind::Comment | NodeKind::ProcessingInstruction => true,
                NodeKind::Text => doc.text(c).is_empty(),
                _ => false,
            }),
            Simple::Nth(nth) => {
                let p = cx.position(el);
                let (index, count) = if nth.of_type {
                    (p.type_index, p.type_count)
                } else {
                    (p.index, p.count)
                };
                nth.hits(if nth.from_end {
                    count + 1 - index
                } else {
                    index
                })
            }
            Simple::Not(list) => !list.iter().any(|c| c.matches(cx, el)),
        }
    }
}

impl AttrSel {
    fn matches(&self, doc: &Document, el: NodeId) -> bool {
        let html = doc.namespace(el) == ElementNs::Html;
        let name = if html { &self.lower } else { &self.exact };
        let Some(attr) = doc.attrs(el).iter().find(|a| a.name == *name) else {
            return false;
        };
        let (v, want) = (&*attr.value, &*self.value);
        let ci = match self.case {
            Case::Insensitive => true,
            Case::Sensitive => false,
            Case::Default => html && self.html_legacy_ci,
        };
        let eq = |a: &str, b: &str| {
            if ci {
                a.eq_ignore_ascii_case(b)
            } else {
                a == b
            }
        };
        match self.op {
            AttrOp::Exists => true,
            AttrOp::Equals => eq(v, want),
            AttrOp::Includes => {
                !want.is_empty()
                    && !want.contains(|c: char| c.is_ascii_whitespace())
                    && v.split_ascii_whitespace().any(|w| eq(w, want))
            }
            AttrOp::DashMatch => {
                eq(v, want)
                    || (v.len() > want.len()
                        && v.as_bytes()[want.len()] == b'-'
                        && v.is_char_boundary(want.len())
                        && eq(&v[..want.len()], want))
            }
            AttrOp::Prefix => {
                !want.is_empty()
                    && v.len() >= want.len()
                    && v.is_char_boundary(want.len())
                    && eq(&v[..want.len()], want)
            }
            AttrOp::Suffix => {
                let start = v.len().wrapping_sub(want.len());
                !want.is_empty()
                    && v.len() >= want.len()
                    && v.is_char_boundary(start)
                    && eq(&v[start..], want)
            }
            AttrOp::Substring => {
                !want.is_empty()
                    && if ci {
                        v.as_bytes()
                            .windows(want.len())
                            .any(|w| w.eq_ignore_ascii_case(want.as_bytes()))
                    } else {
                        v.contains(want)
                    }
            }
        }
    }
}

/// A pending choice of the backtracking matcher: `step` is the index of the combinator being
/// searched (descendant or `~`), `origin` the element it started from, `cursor` the last
/// candidate tried.
#[derive(Clone, Copy, Debug)]
struct Frame {
    step: usize,
    origin: NodeId,
    cursor: NodeId,
}

/// What a failed step rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fail {
    /// Only the current candidate: try the next one of the innermost choice.
    Local,
    /// Every candidate in the current run of siblings (they share ancestors and, being
    /// earlier, have fewer preceding siblings): unwind to the enclosing descendant search.
    /// (The third case, a descendant search that runs out of ancestors, fails the whole
    /// match at once: every other choice would search a subset of those ancestors.)
    Siblings,
}

/// Per `~` step during one [`Select`], for one parent: element siblings before `boundary`
/// are known not to satisfy the part of the selector left of that step, and `good` (if not
/// `NONE`) is a sibling known to satisfy it. That part depends only on the sibling, not on
/// how the search reached it, so later searches among the same siblings (the next list items,
/// in document order) stop at `boundary` or succeed at once past `good`.
#[derive(Clone, Copy, Debug)]
struct SiblingMemo {
    parent: u32,
    boundary: u32,
    good: u32,
}

impl SiblingMemo {
    const NONE: u32 = u32::MAX;
    const EMPTY: SiblingMemo = SiblingMemo {
        parent: SiblingMemo::NONE,
        boundary: 0,
        good: SiblingMemo::NONE,
    };

    /// The entry for `parent`, reset if it held another parent's siblings.
    fn for_parent(&mut self, parent: u32) -> &mut SiblingMemo {
        if self.parent != parent {
            *self = SiblingMemo {
                parent,
                ..SiblingMemo::EMPTY
            };
        }
        self
    }
}

impl Complex {
    fn matches(
        &self,
        cx: &mut MatchContext<'_>,
        mut memo: Option<&mut [SiblingMemo]>,
        subject: NodeId,
    ) -> bool {
        if !self.compounds[0].matches(cx, subject) {
            return false;
        }
        if self.combinators.is_empty() {
            return true;
        }
        let mut stack = std::mem::take(&mut cx.stack);
        stack.clear();
        let found = self.search(cx, &mut memo, &mut stack, subject);
        cx.stack = stack;
        found
    }

    /// The right-to-left search once the subject matched; `stack` holds the open choices.
    fn search(
        &self,
        cx: &mut MatchContext<'_>,
        memo: &mut Option<&mut [SiblingMemo]>,
        stack: &mut Vec<Frame>,
        subject: NodeId,
    ) -> bool {
        let doc = cx.doc;
        let (comps, combs) = (&self.compounds, &self.combinators);
        let (mut i, mut el) = (0, subject);
        'forward: loop {
            // Invariant: `el` matches `comps[i]` and everything to its right is satisfied.
            if i == combs.len() {
                // Every open `~` choice is on the successful path: remember it.
                if let Some(m) = memo.as_deref_mut() {
                    for f in stack
                        .iter()
                        .filter(|f| combs[f.step] == Combinator::Sibling)
                    {
                        let parent = doc.parent(f.cursor).map_or(SiblingMemo::NONE, |p| p.0);
                        let e = m[f.step].for_parent(parent);
                        e.good = e.good.min(f.cursor.0);
                    }
                }
                return true;
            }
            let mut fail = match combs[i] {
                Combinator::Child => match parent_element(doc, el) {
                    Some(p) if comps[i + 1].matches(cx, p) => {
                        (i, el) = (i + 1, p);
                        continue 'forward;
                    }
                    // Siblings of `el` have the same parent.
                    _ => Fail::Siblings,
                },
                Combinator::Adjacent => match prev_element_sibling(doc, el) {
                    Some(s) if comps[i + 1].matches(cx, s) => {
                        (i, el) = (i + 1, s);
                        continue 'forward;
                    }
                    _ => Fail::Local,
                },
                Combinator::Descendant | Combinator::Sibling => {
                    stack.push(Frame {
                        step: i,
                        origin: el,
                        cursor: el,
                    });
                    Fail::Local
                }
            };
            // Backtrack: advance the innermost open choice that the failure leaves open.
            loop {
                let Some(top) = stack.last_mut() else {
                    return false;
                };
                let step = top.step;
                if fail == Fail::Siblings && combs[step] == Combinator::Sibling {
                    stack.pop();
                    continue;
                }
                if combs[step] == Combinator::Descendant {
                    while let Some(p) = parent_element(doc, top.cursor) {
                        top.cursor = p;
                        if comps[step + 1].matches(cx, p) {
                            (i, el) = (step + 1, p);
                            continue 'forward;
                        }
                    }
                    // Out of ancestors: no other choice can succeed (see `Fail`).
                    return false;
                }
                // `~`: earlier element siblings, nearest first, within what the memo leaves.
                let parent = doc.parent(top.origin).map_or(SiblingMemo::NONE, |p| p.0);
                let (known_bad, known_good) = match memo.as_deref() {
                    Some(m) if m[step].parent == parent => (m[step].boundary, m[step].good),
                    _ => (0, SiblingMemo::NONE),
                };
                if known_good < top.cursor.0 {
                    return true;
                }
                while let Some(s) = prev_element_sibling(doc, top.cursor) {
                    if s.0 < known_bad {
                        break;
                    }
                    top.cursor = s;
                    if comps[step + 1].matches(cx, s) {
                        (i, el) = (step + 1, s);
                        continue 'forward;
                    }
                }
                if let Some(m) = memo.as_deref_mut() {
                    let e = m[step].for_parent(parent);
                    e.boundary = e.boundary.max(top.origin.0);
                }
                stack.pop();
                fail = Fail::Siblings;
            }
        }
    }
}

#[inline]
fn parent_element(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.parent(id).filter(|&p| doc.is_element(p))
}

/// The previous sibling without scanning from the first child: node `id - 1` is the previous
/// sibling or the last node of its subtree, so climb from there to the shared parent. Costs
/// the depth of that last branch, not the number of earlier siblings.
#[inline]
fn prev_sibling(doc: &Document, id: NodeId) -> Option<NodeId> {
    let parent = doc.parent(id)?;
    if id.0 == parent.0 + 1 {
        return None;
    }
    let mut c = NodeId(id.0 - 1);
    loop {
        let p = doc.parent(c)?;
        if p == parent {
            return Some(c);
        }
        c = p;
    }
}

fn prev_element_sibling(doc: &Document, id: NodeId) -> Option<NodeId> {
    let mut c = prev_sibling(doc, id)?;
    while !doc.is_element(c) {
        c = prev_sibling(doc, c)?;
    }
    Some(c)
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

type PResult<T> = Result<T, SelectorError>;

struct Parser<'s> {
    src: &'s str,
    pos: usize,
}

/// CSS reads U+0000 as U+FFFD, a non-ASCII name character; [`nul_to_fffd`] maps it.
fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c >= '\u{80}' || c == '\0'
}

fn nul_to_fffd(c: char) -> char {
    if c == '\0' { '\u{fffd}' } else { c }
}

fn is_name(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '-'
}

fn is_newline(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{c}')
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}')
}

impl Parser<'_> {
    fn err<T>(&self, offset: usize, reason: impl Into<String>) -> PResult<T> {
        Err(SelectorError {
            selector: self.src.to_owned(),
            offset,
            reason: reason.into(),
        })
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(is_ws) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// "Found ..." for error messages.
    fn found(&self) -> String {
        match self.peek() {
            None => "end of input".to_owned(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn valid_escape_at(&self, pos: usize) -> bool {
        let mut it = self.src[pos..].chars();
        it.next() == Some('\\') && it.next().is_some_and(|c| !is_newline(c))
    }

    fn starts_ident(&self) -> bool {
        let mut it = self.src[self.pos..].chars();
        match it.next() {
            Some('-') => match it.next() {
                Some(c) if c == '-' || is_name_start(c) => true,
                Some('\\') => self.valid_escape_at(self.pos + 1),
                _ => false,
            },
            Some(c) if is_name_start(c) => true,
            Some('\\') => self.valid_escape_at(self.pos),
            _ => false,
        }
    }

    /// After a backslash: a hex escape (with one optional trailing whitespace) or a literal.
    fn escape(&mut self) -> PResult<char> {
        let start = self.pos;
        let mut value: u32 = 0;
        let mut digits = 0;
        while digits < 6 {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    value = value * 16 + d;
                    digits += 1;
                    self.pos += 1;
                }
                None => break,
            }
        }
        if digits > 0 {
            if self.src[self.pos..].starts_with("\r\n") {
                self.pos += 2;
            } else if self.peek().is_some_and(is_ws) {
                self.pos += 1;
            }
            return Ok(match value {
                0 => '\u{fffd}',
                v => char::from_u32(v).unwrap_or('\u{fffd}'),
            });
        }
        match self.bump() {
            Some(c) if !is_newline(c) => Ok(c),
            _ => self.err(start - 1, "backslash must escape a character"),
        }
    }

    /// Name characters and escapes; `what` names the construct for errors.
    fn name_chars(&mut self, what: &str) -> PResult<String> {
        let start = self.pos;
        let mut out = String::new();
        loop {
            match self.peek() {
                Some(c) if is_name(c) => {
                    out.push(nul_to_fffd(c));
                    self.pos += c.len_utf8();
                }
                Some('\\') if self.valid_escape_at(self.pos) => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some('\\') => return self.err(self.pos, "backslash must escape a character"),
                _ => break,
            }
        }
        if out.is_empty() {
            return self.err(start, format!("expected {what}, found {}", self.found()));
        }
        Ok(out)
    }

    fn ident(&mut self, what: &str) -> PResult<String> {
        if !self.starts_ident() {
            if self.peek() == Some('\\') {
                return self.err(self.pos, "backslash must escape a character");
            }
            return self.err(self.pos, format!("expected {what}, found {}", self.found()));
        }
        self.name_chars(what)
    }

    fn string(&mut self) -> PResult<String> {
        let start = self.pos;
        let quote = self.bump().expect("caller saw a quote");
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return self.err(start, "unterminated string"),
                Some(c) if c == quote => return Ok(out),
                Some(c) if is_newline(c) => {
                    return self.err(self.pos - 1, "newline in string (escape it as \\a)");
                }
                Some('\\') => match self.peek() {
                    None => return self.err(start, "unterminated string"),
                    Some('\r') => {
                        self.pos += 1;
                        self.eat('\n');
                    }
                    Some(c) if is_newline(c) => self.pos += 1,
                    Some(_) => out.push(self.escape()?),
                },
                Some(c) => out.push(nul_to_fffd(c)),
            }
        }
    }

    fn selector_list(&mut self) -> PResult<Vec<Complex>> {
        self.skip_ws();
        if self.peek().is_none() {
            return self.err(0, "empty selector");
        }
        let mut list = vec![self.complex()?];
        while self.eat(',') {
            self.skip_ws();
            list.push(self.complex()?);
        }
        if self.peek().is_some() {
            return self.err(self.pos, format!("unexpected {}", self.found()));
        }
        Ok(list)
    }

    fn complex(&mut self) -> PResult<Complex> {
        let mut compounds = vec![self.compound(false)?];
        let mut combinators = Vec::new();
        loop {
            let ws = self.skip_ws();
            let comb = match self.peek() {
                None | Some(',') => break,
                Some('>') => Combinator::Child,
                Some('+') => Combinator::Adjacent,
                Some('~') => Combinator::Sibling,
                Some('|') if self.peek2() == Some('|') => {
                    return self.err(self.pos, "the column combinator || is not supported");
                }
                Some('/') => return self.err(self.pos, "comments are not supported"),
                Some(_) if ws => Combinator::Descendant,
                Some(_) => return self.err(self.pos, format!("unexpected {}", self.found())),
            };
            if comb != Combinator::Descendant {
                self.pos += 1;
                self.skip_ws();
            }
            compounds.push(self.compound(false)?);
            combinators.push(comb);
        }
        compounds.reverse();
        combinators.reverse();
        Ok(Complex {
            compounds,
            combinators,
            memo_base: 0,
        })
    }

    fn compound(&mut self, in_not: bool) -> PResult<Compound> {
        let start = self.pos;
        let mut c = Compound::default();
        if self.eat('*') {
            if self.peek() == Some('|') {
                return self.err(self.pos, "namespace prefixes are not supported");
            }
        } else if self.starts_ident() {
            let name = self.ident("an element name")?;
            if self.peek() == Some('|') {
                return self.err(self.pos, "namespace prefixes are not supported");
            }
            c.tag = Some(TypeSel::new(&name));
        } else if self.peek() == Some('|') {
            return self.err(self.pos, "namespace prefixes are not supported");
        }
        loop {
            match self.peek() {
                Some('#') => {
                    self.pos += 1;
                    let id = self.name_chars("an id after #")?;
                    c.simples.push(Simple::Id(id.into()));
                }
                Some('.') => {
                    self.pos += 1;
                    let class = self.ident("a class name after .")?;
                    c.simples.push(Simple::Class(class.into()));
                }
                Some('[') => c.simples.push(Simple::Attr(self.attribute()?)),
                Some(':') => self.pseudo(in_not, &mut c)?,
                _ => break,
            }
        }
        if self.pos == start {
            let what = if self.peek() == Some('\\') {
                "backslash must escape a character".to_owned()
            } else {
                format!("expected a selector, found {}", self.found())
            };
            return self.err(start, what);
        }
        c.simples.sort_by_key(Simple::cost);
        Ok(c)
    }

    fn attribute(&mut self) -> PResult<AttrSel> {
        let open = self.pos;
        self.pos += 1; // '['
        self.skip_ws();
        if self.peek() == Some('|') || (self.peek() == Some('*') && self.peek2() == Some('|')) {
            return self.err(self.pos, "namespace prefixes are not supported");
        }
        let name = self.ident("an attribute name")?;
        if self.peek() == Some('|') && self.peek2() != Some('=') {
            return self.err(self.pos, "namespace prefixes are not supported");
        }
        self.skip_ws();
        let op_at = self.pos;
        let op = match self.bump() {
            Some(']') => AttrOp::Exists,
            Some('=') => AttrOp::Equals,
            Some(c @ ('~' | '|' | '^' | '$' | '*')) if self.eat('=') => match c {
                '~' => AttrOp::Includes,
                '|' => AttrOp::DashMatch,
                '^' => AttrOp::Prefix,
                '$' => AttrOp::Suffix,
                _ => AttrOp::Substring,
            },
            None => return self.err(open, "unclosed ["),
            Some(_) => {
                return self.err(
                    op_at,
                    "expected ], =, ~=, |=, ^=, $= or *= in attribute selector",
                );
            }
        };
        let mut value = String::new();
        let mut case = Case::Default;
        if op != AttrOp::Exists {
            self.skip_ws();
            value = match self.peek() {
                Some('"' | '\'') => self.string()?,
                _ if self.starts_ident() => self.ident("an attribute value")?,
                _ => {
                    return self.err(
                        self.pos,
                        "attribute value must be an identifier or a quoted string",
                    );
                }
            };
            self.skip_ws();
            if self.starts_ident() {
                let flag_at = self.pos;
                let flag = self.ident("a flag")?;
                case = match flag.to_ascii_lowercase().as_str() {
                    "i" => Case::Insensitive,
                    "s" => Case::Sensitive,
                    _ => return self.err(flag_at, format!("unknown attribute flag {flag:?}")),
                };
                self.skip_ws();
            }
            match self.peek() {
                Some(']') => self.pos += 1,
                None => return self.err(open, "unclosed ["),
                Some(_) => {
                    return self.err(
                        self.pos,
                        format!("expected ] in attribute selector, found {}", self.found()),
                    );
                }
            }
        }
        let lower = name.to_ascii_lowercase();
        Ok(AttrSel {
            html_legacy_ci: HTML_CASE_INSENSITIVE_ATTRS.contains(&lower.as_str()),
            lower: LocalName::from(lower),
            exact: LocalName::from(name),
            op,
            value: value.into(),
            case,
        })
    }

    fn pseudo(&mut self, in_not: bool, c: &mut Compound) -> PResult<()> {
        let colon = self.pos;
        self.pos += 1;
        if self.peek() == Some(':') {
            return self.err(colon, "pseudo-elements (::name) are not supported");
        }
        let name = self
            .ident("a pseudo-class name after :")?
            .to_ascii_lowercase();
        if self.eat('(') {
            let arg_at = self.pos;
            let nth = |of_type, from_end| (of_type, from_end);
            let kind = match name.as_str() {
                "nth-child" => nth(false, false),
                "nth-last-child" => nth(false, true),
                "nth-of-type" => nth(true, false),
                "nth-last-of-type" => nth(true, true),
                "not" => {
                    if in_not {
                        return self.err(colon, ":not() inside :not() is not supported");
                    }
                    let mut list = Vec::new();
                    loop {
                        self.skip_ws();
                        list.push(self.compound(true)?);
                        self.skip_ws();
                        match self.peek() {
                            Some(',') => self.pos += 1,
                            Some(')') => {
                                self.pos += 1;
                                break;
                            }
                            None => return self.err(arg_at - 1, "unclosed ( of :not"),
                            Some(_) => {
                                return self.err(
                                    self.pos,
                                    "only compound selectors (no combinators) are supported \
                                     inside :not()",
                                );
                            }
                        }
                    }
                    c.simples.push(Simple::Not(list));
                    return Ok(());
                }
                _ => {
                    return self.err(colon, format!("unsupported pseudo-class :{name}()"));
                }
            };
            let Some(len) = self.src[arg_at..].find(')') else {
                return self.err(arg_at - 1, format!("unclosed ( of :{name}"));
            };
            let arg = &self.src[arg_at..arg_at + len];
            let (a, b) = match parse_anb(arg) {
                Ok(ab) => ab,
                Err(AnbError::Of) => {
                    return self.err(arg_at, format!(":{name}(... of S) is not supported"));
                }
                Err(AnbError::Range) => return self.err(arg_at, "number out of range"),
                Err(AnbError::Syntax) => {
                    return self.err(
                        arg_at,
                        format!("expected odd, even or An+B in :{name}(), found {arg:?}"),
                    );
                }
            };
            self.pos = arg_at + len + 1;
            c.simples.push(Simple::Nth(Nth {
                a,
                b,
                of_type: kind.0,
                from_end: kind.1,
            }));
            return Ok(());
        }
        let first = |of_type, from_end| Simple::Nth(Nth::first(of_type, from_end));
        match name.as_str() {
            "root" => c.simples.push(Simple::Root),
            "empty" => c.simples.push(Simple::Empty),
            "first-child" => c.simples.push(first(false, false)),
            "last-child" => c.simples.push(first(false, true)),
            "only-child" => c.simples.extend([first(false, false), first(false, true)]),
            "first-of-type" => c.simples.push(first(true, false)),
            "last-of-type" => c.simples.push(first(true, true)),
            "only-of-type" => c.simples.extend([first(true, false), first(true, true)]),
            "before" | "after" | "first-line" | "first-letter" => {
                return self.err(
                    colon,
                    format!("pseudo-elements (:{name}) are not supported"),
                );
            }
            _ => return self.err(colon, format!("unsupported pseudo-class :{name}")),
        }
        Ok(())
    }
}

#[derive(Debug, PartialEq, Eq)]
enum AnbError {
    Syntax,
    Range,
    Of,
}

/// The An+B microsyntax: `odd`, `even`, `B`, `An`, `An+B`, `An - B`, `-n+B`, `+n`, ...
/// Whitespace may surround the sign between `An` and `B`, nowhere else inside a term.
fn parse_anb(arg: &str) -> Result<(i32, i32), AnbError> {
    let s = arg.trim_matches(is_ws).to_ascii_lowercase();
    match s.as_str() {
        "odd" => return Ok((2, 1)),
        "even" => return Ok((2, 0)),
        _ => {}
    }
    if s.split(is_ws).any(|w| w == "of") {
        return Err(AnbError::Of);
    }
    let int = |t: &str| -> Result<i32, AnbError> {
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(AnbError::Syntax);
        }
        t.parse::<i32>().map_err(|_| AnbError::Range)
    };
    let Some(n_at) = s.find('n') else {
        return Ok((0, int(&s)?));
    };
    let a = match &s[..n_at] {
        "" | "+" => 1,
        "-" => -1,
        t => int(t)?,
    };
    let rest = s[n_at + 1..].trim_start_matches(is_ws);
    if rest.is_empty() {
        return Ok((a, 0));
    }
    let negative = match rest.as_bytes()[0] {
        b'+' => false,
        b'-' => true,
        _ => return Err(AnbError::Syntax),
    };
    let digits = rest[1..].trim_start_matches(is_ws);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AnbError::Syntax);
    }
    let b = digits.parse::<i32>().map_err(|_| AnbError::Range)?;
    Ok((a, if negative { -b } else { b }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anb_forms() {
        let ok = |s: &str| parse_anb(s).unwrap();
        assert_eq!(ok("odd"), (2, 1));
        assert_eq!(ok(" EVEN "), (2, 0));
        assert_eq!(ok("3"), (0, 3));
        assert_eq!(ok("+3"), (0, 3));
        assert_eq!(ok("-3"), (0, -3));
        assert_eq!(ok("n"), (1, 0));
        assert_eq!(ok("+n"), (1, 0));
        assert_eq!(ok("-n+3"), (-1, 3));
        assert_eq!(ok("2n+1"), (2, 1));
        assert_eq!(ok("2N + 1"), (2, 1));
        assert_eq!(ok("2n- 1"), (2, -1));
        assert_eq!(ok("2n -1"), (2, -1));
        assert_eq!(ok("-2n-0"), (-2, 0));
        assert_eq!(ok("0n+5"), (0, 5));
        for bad in [
            "", "n+", "2n+-1", "2n 1", "- n", "+ 2n", "2 n", "1.5", "x", "2n+1n", "--n", "2n+b",
        ] {
            assert_eq!(parse_anb(bad), Err(AnbError::Syntax), "{bad:?}");
        }
        assert_eq!(parse_anb("2n+1 of .x"), Err(AnbError::Of));
        assert_eq!(parse_anb("99999999999"), Err(AnbError::Range));
    }

    #[test]
    fn nth_hits() {
        let n = |a, b| Nth {
            a,
            b,
            of_type: false,
            from_end: false,
        };
        let hits = |nth: Nth| (1..=10).filter(|&i| nth.hits(i)).collect::<Vec<_>>();
        assert_eq!(hits(n(-1, 3)), [1, 2, 3]);
        assert_eq!(hits(n(2, 1)), [1, 3, 5, 7, 9]);
        assert_eq!(hits(n(0, 4)), [4]);
        assert_eq!(hits(n(3, -1)), [2, 5, 8]);
        assert_eq!(hits(n(-2, 5)), [1, 3, 5]);
        assert_eq!(hits(n(0, 0)), Vec::<u32>::new());
        assert_eq!(hits(n(i32::MIN, i32::MAX)), Vec::<u32>::new());
    }

    proptest::proptest! {
        /// Any identifier survives `escape_ident` and the parser, any string `escape_string`.
        #[test]
        fn escaping_round_trips(s in "\\PC{1,12}|[-0-9\\\\ \"'.:#\\[\\]\u{1}\u{7f}]{1,6}") {
            let want = s.replace('\0', "\u{fffd}");
            let esc = escape_ident(&s);
            let mut p = Parser { src: &esc, pos: 0 };
            proptest::prop_assert_eq!(p.ident("x").ok(), Some(want.clone()), "{}", esc);
            proptest::prop_assert_eq!(p.pos, esc.len());
            let q = escape_string(&s);
            let mut p = Parser { src: &q, pos: 0 };
            proptest::prop_assert_eq!(p.string().ok(), Some(want), "{}", q);
        }
    }

    #[test]
    fn escapes_round_trip() {
        for s in [
            "a",
            "-",
            "--x",
            "-1",
            "1col",
            "o-nav_drawer@tp-__main",
            "a:b",
            "a b",
            "é",
            "x\u{1}y",
            "_",
            "a.b#c[d]",
            "\\",
            "\"",
        ] {
            let esc = escape_ident(s);
            let mut p = Parser { src: &esc, pos: 0 };
            assert_eq!(p.ident("x").unwrap(), s, "{esc}");
            assert_eq!(p.pos, esc.len(), "{esc}");
            let q = escape_string(s);
            let mut p = Parser { src: &q, pos: 0 };
            assert_eq!(p.string().unwrap(), s, "{q}");
        }
    }
}
