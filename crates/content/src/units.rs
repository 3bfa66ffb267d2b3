//! The units the content model classifies and their feature rows.
//!
//! A unit is a text node with at least one word: the smallest piece of a page a reader
//! sees, and the one a gold text labels directly ([`crate::gold`]). Its row is the
//! page-level classifier's features ([`chaff_pagelevel::features`]) of the node itself, of
//! its parent element and of its grandparent (the closest ancestors that hold text), so the
//! model reads the paragraph, its block and the block's container together; then where the
//! unit sits among the page's units.
//!
//! Measured against the alternatives (5-fold, domain-disjoint CV on wcxb-dev, WCXB word F1;
//! see the crate documentation): block-level units (one row per block element, text nodes
//! inheriting its label) and rows without ancestor context both score lower.

use chaff_dom::{Document, NodeId, TextView};
use chaff_pagelevel::features::{self, PageFeatures};

/// Feature rows of one page's units.
#[derive(Clone, Debug, Default)]
pub struct Units {
    /// The text nodes, in document order.
    pub nodes: Vec<NodeId>,
    /// Words of each unit.
    pub words: Vec<u32>,
    /// Rows, [`width`] features each, flat.
    pub rows: Vec<f32>,
    /// The page's shape for context features: the elements that hold units.
    pub skeleton: Skeleton,
}

/// The elements above a page's units, compactly: enough to sum unit scores over any
/// element's subtree without the document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skeleton {
    /// Per element (in document order), its parent's index, `u32::MAX` for the topmost.
    pub parent: Vec<u32>,
    /// Per element, its depth in the document.
    pub depth: Vec<u32>,
    /// Per unit, the index of its parent element.
    pub owner: Vec<u32>,
}

impl Skeleton {
    /// Builds the skeleton of `nodes` (text nodes in document order).
    pub fn of(doc: &Document, nodes: &[NodeId]) -> Skeleton {
        let mut index: Vec<u32> = vec![u32::MAX; doc.len()];
        let mut marked = vec![false; doc.len()];
        for &id in nodes {
            let mut up = doc.parent(id);
            while let Some(a) = up {
                if marked[a.index()] {
                    break;
                }
                marked[a.index()] = true;
                up = doc.parent(a);
            }
        }
        let mut sk = Skeleton::default();
        for (i, m) in marked.iter().enumerate() {
            if *m {
                let id = NodeId(i as u32);
                index[i] = sk.parent.len() as u32;
                let parent = doc.parent(id).map_or(u32::MAX, |p| index[p.index()]);
                sk.parent.push(parent);
                sk.depth.push(doc.depth(id));
            }
        }
        sk.owner = nodes
            .iter()
            .map(|&id| doc.parent(id).map_or(u32::MAX, |p| index[p.index()]))
            .collect();
        sk
    }
}

/// Ancestor levels read besides the node itself.
pub const ANCESTORS: usize = 2;

/// Features that say where a unit sits among the page's units.
const PLACE: &[&str] = &["unit_rank", "unit_words_over_max", "ln_units"];

/// Features per row.
pub fn width() -> usize {
    features::COUNT * (1 + ANCESTORS) + PLACE.len()
}

/// Feature names, in row order.
pub fn names() -> Vec<String> {
    let mut out = Vec::with_capacity(width());
    for level in ["", "parent_", "grand_"].iter().take(1 + ANCESTORS) {
        out.extend(features::NAMES.iter().map(|n| format!("{level}{n}")));
    }
    out.extend(PLACE.iter().map(|s| (*s).to_owned()));
    out
}

impl Units {
    /// Number of units.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the page has no unit.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The row of unit `k`.
    pub fn row(&self, k: usize) -> &[f32] {
        let w = width();
        &self.rows[k * w..(k + 1) * w]
    }

    /// Computes the units of a page and their rows.
    pub fn compute(doc: &Document, view: &TextView, url: Option<&str>) -> Units {
        let f = PageFeatures::compute(doc, view, url, None);
        let mut row_of = vec![u32::MAX; doc.len()];
        for (k, id) in f.nodes.iter().enumerate() {
            row_of[id.index()] = k as u32;
        }
        let nodes: Vec<NodeId> = view
            .segments()
            .iter()
            .map(|s| s.node)
            .filter(|id| f.words.get(id.index()).is_some_and(|w| *w > 0))
            .collect();
        let words: Vec<u32> = nodes.iter().map(|id| f.words[id.index()]).collect();
        let max_words = words.iter().copied().max().unwrap_or(1).max(1) as f32;
        let count = nodes.len();
        let mut rows = Vec::with_capacity(count * width());
        for (k, &id) in nodes.iter().enumerate() {
            push_row(&mut rows, &f, &row_of, Some(id));
            let mut up = doc.parent(id);
            for _ in 0..ANCESTORS {
                while let Some(a) = up.filter(|a| row_of[a.index()] == u32::MAX) {
                    up = doc.parent(a);
                }
                push_row(&mut rows, &f, &row_of, up);
                up = up.and_then(|a| doc.parent(a));
            }
            rows.push(k as f32 / count.max(1) as f32);
            rows.push(words[k] as f32 / max_words);
            rows.push((count as f32).ln_1p());
        }
        let skeleton = Skeleton::of(doc, &nodes);
        Units {
            nodes,
            words,
            rows,
            skeleton,
        }
    }
}

fn push_row(rows: &mut Vec<f32>, f: &PageFeatures, row_of: &[u32], id: Option<NodeId>) {
    match id.map(|id| row_of[id.index()]).filter(|k| *k != u32::MAX) {
        Some(k) => rows.extend_from_slice(&f.rows[k as usize]),
        None => rows.extend(std::iter::repeat_n(0.0, features::COUNT)),
    }
}
