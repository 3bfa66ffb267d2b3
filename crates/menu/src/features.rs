//! The six node properties of Definition 6, computed once per page for every element.
//!
//! A page's [`NodeFeatures`] is a compact element-only tree of the rated universe (the
//! `<body>` subtree, Definition 1's root; the root element when there is no body) with the six
//! property values of each element. Everything the algorithms need afterwards — node weights
//! for any [`Weights`], element children, parents, subtree ranges — is read from it, so that
//! the training grid computes features once per page and then only takes dot products.
//!
//! Cost: one forward pass (which text is inside a link or a non-rendered element) and one
//! reverse pass (per-subtree sums: descendants, links, characters, children) over the nodes of
//! the body, plus one pass over the elements. No recursion.
//!
//! The properties, as computed here (see the crate docs for the readings of the ambiguous
//! ones):
//! * **node amplitude** `1 - 1/children(n)`, children counted per
//!   [`Readings::amplitude_children`]; 0 for a node with no such children (the printed formula
//!   is undefined there);
//! * **link ratio** 0 below two hyperlinks, else per [`Readings::link_ratio`];
//! * **text ratio** `1 - characters(n) / sqrt(characters(P))`, characters outside links, per
//!   [`Readings::characters`]; as printed, it goes negative for large text blocks (only
//!   comparisons with positive thresholds use weights, so the sign needs no clamp);
//! * **UL ratio** 1 for `<ul>`;
//! * **representative tag** 1 for `<nav>`, a class `menu`/`nav`, an id `menu`/`nav`
//!   (per [`Readings::representative`]);
//! * **node position** `1 - position(n)/|N|`, the pre-order index inside the body over the
//!   number of nodes in the body.

use chaff_dom::{Document, NodeId, NodeKind};
use serde::{Deserialize, Serialize};

use crate::Weights;

/// Number of properties.
pub const PROPERTIES: usize = 6;

/// Index of each property in a [`NodeFeatures::props`] row.
pub mod prop {
    /// Node amplitude.
    pub const AMPLITUDE: usize = 0;
    /// Link ratio.
    pub const LINK: usize = 1;
    /// Text ratio.
    pub const TEXT: usize = 2;
    /// UL ratio.
    pub const UL: usize = 3;
    /// Representative tag.
    pub const REPRESENTATIVE: usize = 4;
    /// Node position.
    pub const POSITION: usize = 5;
    /// Their names, in row order.
    pub const NAMES: [&str; super::PROPERTIES] = [
        "amplitude",
        "link",
        "text",
        "ul",
        "representative",
        "position",
    ];
}

/// "No such element" in the compact tree.
pub const NONE: u32 = u32::MAX;

/// How the garbled link-ratio formula of Definition 6 is read. `h` is `|hyperlinks(n)|`, `d`
/// is `descendants(n)` counted per [`Readings::link_descendants`]; all are 0 when `h < 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LinkRatio {
    /// `(h + d) / (2 d)`: the printed terms with the fraction bar restored; in `[0.5, 1]`.
    HalfPlusDensity,
    /// `h / d`: plain link density; in `[0, 1]`.
    Density,
    /// `min(1, h / (d / 2))`: links against half the descendants (the default): 1 for a list
    /// of `li > a` items when `d` counts elements.
    #[default]
    DoubleDensity,
    /// `h + d / (2 d) = h + 1/2`: the formula exactly as printed (unbounded).
    Literal,
}

/// What `descendants(n)` counts in the link ratio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Descendants {
    /// Every node below `n` (elements, text, comments), as the DOM's node set of Definition 1.
    AllNodes,
    /// Element nodes below `n` only (the default).
    #[default]
    Elements,
}

/// What `children(n)` counts in the node amplitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Children {
    /// Element children (the DOM's `children`, which Algorithms 1 and 2 count too).
    #[default]
    Elements,
    /// Element children and text children with non-whitespace text.
    NonBlank,
    /// Every child node (the DOM's `childNodes`), whitespace text included.
    AllNodes,
}

/// What `characters(n)` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Characters {
    /// Non-whitespace characters of rendered text (not in `script`, `style`, `noscript`,
    /// `template`), outside links.
    #[default]
    Visible,
    /// Every character of every text node outside links, as `textContent.length` would count
    /// them (whitespace and script text included).
    All,
}

/// How the representative-tag property matches ids and classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Representative {
    /// `id` equal to `menu`/`nav`, or a class token equal to `menu`/`nav` (ASCII
    /// case-insensitive), or a `<nav>` element: the paper's list.
    #[default]
    Exact,
    /// As `Exact`, but any id or class token that contains `menu` or `nav` counts
    /// (`mainnav`, `menu-main-menu`).
    Substring,
}

/// Which heavy nodes Algorithm 2 averages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MenuSelection {
    /// The node's subtree, the node itself included (the prose of sections 3 and 3.4: "the
    /// number of descendants that have a weight over" the menu threshold, with the paper's
    /// `descendants(n)` = the subtree of `n`).
    #[default]
    Subtree,
    /// The node's element children (the pseudo-code of Algorithm 2 as printed).
    Children,
}

/// What Algorithm 2 chooses from when one root lies inside another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Roots {
    /// Every root of Algorithm 1 (as printed).
    #[default]
    All,
    /// Only roots not inside another root: a root inside another is part of that candidate
    /// menu (section 3.3: "the real menu is usually an ancestor of a candidate").
    Outermost,
}

/// The readings of the paper's ambiguous definitions. The defaults are the readings that
/// scored best on the labelled development set (see the crate docs for the figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Readings {
    /// The link-ratio formula.
    pub link_ratio: LinkRatio,
    /// What `descendants(n)` counts in it.
    pub link_descendants: Descendants,
    /// What the node amplitude counts as children.
    pub amplitude_children: Children,
    /// What the text ratio counts as characters.
    pub characters: Characters,
    /// How the representative tag matches.
    pub representative: Representative,
    /// What Algorithm 2 averages.
    pub menu_selection: MenuSelection,
    /// Which roots Algorithm 2 chooses from.
    pub roots: Roots,
}

/// The default readings ([`Readings::default`]).
pub const DEFAULT_READINGS: Readings = Readings {
    link_ratio: LinkRatio::DoubleDensity,
    link_descendants: Descendants::Elements,
    amplitude_children: Children::Elements,
    characters: Characters::Visible,
    representative: Representative::Exact,
    menu_selection: MenuSelection::Subtree,
    roots: Roots::All,
};

impl Default for Readings {
    fn default() -> Readings {
        DEFAULT_READINGS
    }
}

/// The six properties of every element of a page's body, in a compact element-only tree.
///
/// Elements are numbered `0..len()` in document order (`elem`); element `0` is the rated
/// universe's root (the `<body>`). The element tree keeps the DOM's parent relation: the first
/// element child of `e` (if any) is `e + 1`, the next sibling of `e` is `end(e)`.
#[derive(Clone, Debug, Default)]
pub struct NodeFeatures {
    nodes: Vec<NodeId>,
    parent: Vec<u32>,
    end: Vec<u32>,
    rated: Vec<bool>,
    props: Vec<[f32; PROPERTIES]>,
}

impl NodeFeatures {
    /// Computes the features of every element of the page's body.
    pub fn compute(doc: &Document, readings: &Readings) -> NodeFeatures {
        match universe_root(doc) {
            Some(root) => NodeFeatures::compute_in(doc, root, readings),
            None => NodeFeatures::default(),
        }
    }

    /// Computes the features of every element of the subtree of `root` (taken as the page).
    pub fn compute_in(doc: &Document, root: NodeId, readings: &Readings) -> NodeFeatures {
        if root.index() >= doc.len() {
            return NodeFeatures::default();
        }
        let start = root.index();
        let stop = doc.subtree_end(root).index();
        let n = stop - start;

        // Forward pass: the characters each text node contributes (0 inside a link or a
        // non-rendered element), and whether each element is a hyperlink.
        let mut own_chars = vec![0u32; n];
        let mut is_link = vec![false; n];
        let mut link_end = 0usize; // inside an <a> while id < link_end
        let mut hidden_end = 0usize; // inside script/style/... while id < hidden_end
        for i in start..stop {
            let id = NodeId(i as u32);
            match doc.kind(id) {
                NodeKind::Element => {
                    let tag = doc.tag(id);
                    if tag == "a" {
                        if doc.attr(id, "href").is_some() {
                            is_link[i - start] = true;
                        }
                        link_end = link_end.max(doc.subtree_end(id).index());
                    } else if readings.characters == Characters::Visible
                        && matches!(tag, "script" | "style" | "noscript" | "template")
                    {
                        hidden_end = hidden_end.max(doc.subtree_end(id).index());
                    }
                }
                NodeKind::Text if i >= link_end && i >= hidden_end => {
                    let t = doc.text(id);
                    let c = match readings.characters {
                        Characters::Visible => t.chars().filter(|c| !c.is_whitespace()).count(),
                        Characters::All => t.chars().count(),
                    };
                    own_chars[i - start] = u32::try_from(c).unwrap_or(u32::MAX);
                }
                _ => {}
            }
        }

        // Reverse pass: per-subtree sums (proper descendants) and child counts.
        let mut desc_all = vec![0u32; n];
        let mut desc_elem = vec![0u32; n];
        let mut links = vec![0u32; n];
        let mut chars = own_chars;
        let mut child_elem = vec![0u32; n];
        let mut child_nonblank = vec![0u32; n];
        let mut child_all = vec![0u32; n];
        for i in (start + 1..stop).rev() {
            let id = NodeId(i as u32);
            let Some(p) = doc.parent(id) else { continue };
            let (pi, li) = (p.index() - start, i - start);
            let kind = doc.kind(id);
            let elem = kind == NodeKind::Element;
            desc_all[pi] = desc_all[pi].saturating_add(1 + desc_all[li]);
            desc_elem[pi] = desc_elem[pi].saturating_add(u32::from(elem) + desc_elem[li]);
            links[pi] = links[pi].saturating_add(links[li] + u32::from(is_link[li]));
            chars[pi] = chars[pi].saturating_add(chars[li]);
            child_all[pi] += 1;
            if elem {
                child_elem[pi] += 1;
                child_nonblank[pi] += 1;
            } else if kind == NodeKind::Text && !doc.text(id).trim().is_empty() {
                child_nonblank[pi] += 1;
            }
        }

        let page_chars = f64::from(chars[0]);
        let sqrt_page = page_chars.sqrt();
        let total = n as f64;

        // The elements, with their compact parents and subtree ends.
        let mut out = NodeFeatures::default();
        let mut elem_of = vec![NONE; n];
        for i in start..stop {
            let id = NodeId(i as u32);
            if !doc.is_element(id) {
                continue;
            }
            let li = i - start;
            let e = out.nodes.len() as u32;
            elem_of[li] = e;
            let parent = if i == start {
                NONE
            } else {
                doc.parent(id)
                    .map(|p| elem_of[p.index() - start])
                    .unwrap_or(NONE)
            };
            out.nodes.push(id);
            out.parent.push(parent);
            out.end.push(e + 1); // fixed below
            let rated = doc.first_child(id).is_some();
            out.rated.push(rated);
            if !rated {
                out.props.push([0.0; PROPERTIES]);
                continue;
            }
            let children = match readings.amplitude_children {
                Children::Elements => child_elem[li],
                Children::NonBlank => child_nonblank[li],
                Children::AllNodes => child_all[li],
            };
            let amplitude = if children == 0 {
                0.0
            } else {
                1.0 - 1.0 / f64::from(children)
            };
            let h = f64::from(links[li]);
            let d = f64::from(match readings.link_descendants {
                Descendants::AllNodes => desc_all[li],
                Descendants::Elements => desc_elem[li],
            });
            let link = link_ratio(readings.link_ratio, h, d);
            let c = f64::from(chars[li]);
            let text = if c == 0.0 { 1.0 } else { 1.0 - c / sqrt_page };
            let tag = doc.tag(id);
            let ul = if tag == "ul" { 1.0 } else { 0.0 };
            let rep = if representative(doc, id, readings.representative) {
                1.0
            } else {
                0.0
            };
            let position = 1.0 - (li as f64) / total;
            out.props.push([
                amplitude as f32,
                link as f32,
                text as f32,
                ul,
                rep,
                position as f32,
            ]);
        }
        // Subtree ends in element numbering: one reverse scan, children before parents.
        let len = out.nodes.len();
        for e in (1..len).rev() {
            let p = out.parent[e];
            if p != NONE {
                let pe = p as usize;
                out.end[pe] = out.end[pe].max(out.end[e]);
            }
        }
        out
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True for a page without elements (nothing can be a menu).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The DOM node of element `e`.
    pub fn node(&self, e: u32) -> NodeId {
        self.nodes[e as usize]
    }

    /// The element number of a DOM node, if it is an element of the rated universe.
    pub fn elem(&self, node: NodeId) -> Option<u32> {
        self.nodes.binary_search(&node).ok().map(|e| e as u32)
    }

    /// The parent element of `e` ([`NONE`] for the root).
    pub fn parent(&self, e: u32) -> u32 {
        self.parent[e as usize]
    }

    /// One past the last element of the subtree of `e`.
    pub fn end(&self, e: u32) -> u32 {
        self.end[e as usize]
    }

    /// Whether `a` is `b` or an ancestor of `b`.
    pub fn contains(&self, a: u32, b: u32) -> bool {
        a <= b && b < self.end[a as usize]
    }

    /// Whether `e` is rated (an element with at least one child node).
    pub fn rated(&self, e: u32) -> bool {
        self.rated[e as usize]
    }

    /// The element children of `e`, in document order.
    pub fn children(&self, e: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.end[e as usize];
        let mut next = e + 1;
        std::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let c = next;
            next = self.end[c as usize];
            Some(c)
        })
    }

    /// The six property values of `e` (all 0 for unrated elements).
    pub fn props(&self, e: u32) -> &[f32; PROPERTIES] {
        &self.props[e as usize]
    }

    /// All property rows, indexed by element.
    pub fn all_props(&self) -> &[[f32; PROPERTIES]] {
        &self.props
    }

    /// The weight of every element under `w` (0 for unrated elements), into `out`.
    pub fn weights_into(&self, w: &Weights, out: &mut Vec<f32>) {
        let v = w.as_array();
        out.clear();
        out.extend(self.props.iter().zip(&self.rated).map(|(p, &r)| {
            if r {
                p.iter().zip(&v).map(|(a, b)| a * b).sum()
            } else {
                0.0
            }
        }));
    }

    /// The weight of every element under `w`.
    pub fn weights(&self, w: &Weights) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.len());
        self.weights_into(w, &mut out);
        out
    }
}

/// The root of the rated universe: `<body>`, else the root element, else nothing.
pub fn universe_root(doc: &Document) -> Option<NodeId> {
    doc.body()
        .or_else(|| doc.element_children(NodeId::ROOT).next())
}

fn link_ratio(reading: LinkRatio, h: f64, d: f64) -> f64 {
    if h < 2.0 || d <= 0.0 {
        return 0.0;
    }
    match reading {
        LinkRatio::HalfPlusDensity => (h + d) / (2.0 * d),
        LinkRatio::Density => h / d,
        LinkRatio::DoubleDensity => (2.0 * h / d).min(1.0),
        LinkRatio::Literal => h + 0.5,
    }
}

/// The representative-tag property: `<nav>`, or an id or class naming a menu.
pub fn representative(doc: &Document, id: NodeId, how: Representative) -> bool {
    if doc.tag(id) == "nav" {
        return true;
    }
    let hit = |v: &str| match how {
        Representative::Exact => v.eq_ignore_ascii_case("menu") || v.eq_ignore_ascii_case("nav"),
        Representative::Substring => {
            let l = v.to_ascii_lowercase();
            l.contains("menu") || l.contains("nav")
        }
    };
    if doc.attr(id, "id").is_some_and(|v| hit(v.trim())) {
        return true;
    }
    doc.attr(id, "class")
        .is_some_and(|c| c.split_ascii_whitespace().any(hit))
}
