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
    /// The page's shape for context features: the elements that hold units.
    pub skeleton: Skeleton,
    /// The page-level feature rows the unit rows are made of (rows are assembled on demand,
    /// so a page of many text nodes does not hold three copies of every row).
    features: Vec<[f32; features::COUNT]>,
    /// Per unit, the index in `features` of the node, its parent and its grandparent
    /// ([`NONE`] where there is none).
    links: Vec<[u32; 1 + ANCESTORS]>,
    /// Per unit, the place features.
    place: Vec<[f32; 3]>,
}

/// No row.
const NONE: u32 = u32::MAX;

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

    /// Writes the row of unit `k` ([`width`] features) into `out`, replacing its content.
    pub fn row_into(&self, k: usize, out: &mut Vec<f32>) {
        out.clear();
        self.append_row(k, out);
    }

    /// Appends the row of unit `k` ([`width`] features) to `out`: rows of many units go
    /// straight into one buffer, without a copy through a row of their own.
    pub fn append_row(&self, k: usize, out: &mut Vec<f32>) {
        for &link in &self.links[k] {
            match self.features.get(link as usize) {
                Some(row) => out.extend_from_slice(row),
                None => out.extend(std::iter::repeat_n(0.0, features::COUNT)),
            }
        }
        out.extend_from_slice(&self.place[k]);
    }

    /// The unit's own page-level features (zeros when it has no row).
    pub fn own(&self, k: usize) -> &[f32] {
        const ZERO: [f32; features::COUNT] = [0.0; features::COUNT];
        self.features
            .get(self.links[k][0] as usize)
            .map_or(&ZERO[..], |r| &r[..])
    }

    /// Every unit's row, flat (for training).
    pub fn rows(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.len() * width());
        for k in 0..self.len() {
            self.append_row(k, &mut out);
        }
        out
    }

    /// Frees the feature rows, keeping what the context features need (nodes, words,
    /// skeleton); [`Units::row_into`] and [`Units::own`] then give zeros.
    pub fn forget_rows(&mut self) {
        self.features = Vec::new();
    }

    /// Computes the units of a page and their rows.
    pub fn compute(doc: &Document, view: &TextView, url: Option<&str>) -> Units {
        Self::compute_with(doc, view, url, true)
    }

    /// As [`Units::compute`]; `sparse`: page-level rows only for the nodes the units read
    /// (each unit and its closest two ancestors that hold text or media) instead of every
    /// node that holds text or media. The units' rows are the same either way.
    fn compute_with(doc: &Document, view: &TextView, url: Option<&str>, sparse: bool) -> Units {
        let unit_nodes = |words: &[u32]| {
            view.segments()
                .iter()
                .map(|s| s.node)
                .filter(|id| words.get(id.index()).is_some_and(|w| *w > 0))
                .collect::<Vec<NodeId>>()
        };
        let wanted = |area: &[f64], words: &[u32]| {
            sparse.then(|| {
                let mut want = vec![false; doc.len()];
                for id in unit_nodes(words) {
                    want[id.index()] = true;
                    let mut up = doc.parent(id);
                    for _ in 0..ANCESTORS {
                        while let Some(a) = up.filter(|a| area[a.index()] <= 0.0) {
                            up = doc.parent(a);
                        }
                        let Some(a) = up else { break };
                        want[a.index()] = true;
                        up = doc.parent(a);
                    }
                }
                want
            })
        };
        let f = PageFeatures::compute_where(doc, view, url, None, &wanted);
        let mut row_of = vec![NONE; doc.len()];
        for (k, id) in f.nodes.iter().enumerate() {
            row_of[id.index()] = k as u32;
        }
        let nodes = unit_nodes(&f.words);
        let words: Vec<u32> = nodes.iter().map(|id| f.words[id.index()]).collect();
        let max_words = words.iter().copied().max().unwrap_or(1).max(1) as f32;
        let count = nodes.len();
        let mut links = Vec::with_capacity(count);
        let mut place = Vec::with_capacity(count);
        for (k, &id) in nodes.iter().enumerate() {
            let mut link = [NONE; 1 + ANCESTORS];
            link[0] = row_of[id.index()];
            let mut up = doc.parent(id);
            for slot in link.iter_mut().skip(1) {
                while let Some(a) = up.filter(|a| row_of[a.index()] == NONE) {
                    up = doc.parent(a);
                }
                *slot = up.map_or(NONE, |a| row_of[a.index()]);
                up = up.and_then(|a| doc.parent(a));
            }
            links.push(link);
            place.push([
                k as f32 / count.max(1) as f32,
                words[k] as f32 / max_words,
                (count as f32).ln_1p(),
            ]);
        }
        let skeleton = Skeleton::of(doc, &nodes);
        Units {
            nodes,
            words,
            skeleton,
            features: f.rows,
            links,
            place,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows only where the units read them give every unit the same row as rows for all.
    #[test]
    fn sparse_rows_are_the_rows_of_all() {
        let html = "<html><head><title>A title here</title></head><body><div><div><section>\
            <article><h1>Head line</h1><p>First <b>bold</b> words of a paragraph.</p><div>\
            <div><ul><li><a href=/x>link</a></li><li>item <i>two</i></li></ul></div></div>\
            </article></section><footer><p>(c) someone</p><img src=a.png></footer></div>\
            </div><table><tr><td>1.5</td><td><span>cell</span></td></tr></table></body></html>";
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let dense = Units::compute_with(&doc, &view, Some("https://example.org/"), false);
        let sparse = Units::compute_with(&doc, &view, Some("https://example.org/"), true);
        assert!(dense.len() >= 8);
        assert_eq!(dense.nodes, sparse.nodes);
        assert_eq!(dense.rows(), sparse.rows());
        assert!(sparse.features.len() < dense.features.len());
    }
}
