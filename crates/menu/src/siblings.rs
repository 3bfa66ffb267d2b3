//! Definition 5 across the pages of a site: a menu recurs on another page.
//!
//! Definition 5 asks three things of a menu node `n` of page `P` in site `S`: (1) it holds at
//! least two hyperlinks to pages of `S`; (2) no node strictly between `n` and two of them
//! (`n` is their lowest common ancestor); (3) `n` also appears in another page `P'` of `S`.
//!
//! Made concrete without a crawl of `S`:
//! * (1) `n` holds at least two hyperlinks ([`MIN_LINKS`]); whether their targets are in `S`
//!   is not checked (menus link to sister subdomains, and a page's URL is often unknown);
//! * (2) is read as "the smallest subtree that contains the menu's links", which the root
//!   selection of Algorithm 1 already provides; it is not checked again;
//! * (3) "the same node in another page" is the same *link set*: some element of a sibling
//!   page whose links, identified by [`crate::links::link_key`] (their text, or their `href`
//!   without query for links without text), overlap `n`'s with a Jaccard similarity of at
//!   least [`MIN_JACCARD`]. Link sets are compared rather than selectors because ids and
//!   classes drift between pages of one site while the menu's entries do not, and session ids
//!   make `href`s differ per page.

use std::collections::HashSet;

use chaff_dom::{Document, NodeId};

use crate::links::{keyed_links, link_key};

/// Definition 5's "at least two hyperlinks".
pub const MIN_LINKS: usize = 2;

/// The Jaccard similarity of link sets above which a sibling element is "the same node".
pub const MIN_JACCARD: f64 = 0.5;

/// A sibling page prepared for recurrence tests: its hyperlinks and their keys.
pub struct SiblingPage<'d> {
    doc: &'d Document,
    links: Vec<(NodeId, u64)>,
}

impl<'d> SiblingPage<'d> {
    /// Indexes the hyperlinks of a sibling page (one pass).
    pub fn new(doc: &'d Document) -> SiblingPage<'d> {
        SiblingPage {
            doc,
            links: keyed_links(doc),
        }
    }

    /// The best Jaccard similarity between `keys` (a link multiset, as sorted keys) and the
    /// links of any element of this page.
    pub fn best_jaccard(&self, keys: &[u64], marked: &mut Vec<u32>, total: &mut Vec<u32>) -> f64 {
        if keys.is_empty() || self.links.is_empty() {
            return 0.0;
        }
        let set: HashSet<u64> = keys.iter().copied().collect();
        let doc = self.doc;
        let n = doc.len();
        marked.clear();
        marked.resize(n, 0);
        total.clear();
        total.resize(n, 0);
        for &(a, k) in &self.links {
            total[a.index()] = 1;
            if set.contains(&k) {
                marked[a.index()] = 1;
            }
        }
        // Subtree sums, children before parents.
        for i in (1..n).rev() {
            if let Some(p) = doc.parent(NodeId(i as u32)) {
                total[p.index()] += total[i];
                marked[p.index()] += marked[i];
            }
        }
        let l = keys.len() as f64;
        let mut best = 0f64;
        for i in 0..n {
            if marked[i] == 0 {
                continue;
            }
            let inter = f64::from(marked[i]).min(l);
            let union = l + f64::from(total[i]) - inter;
            best = best.max(inter / union);
        }
        best
    }
}

/// The sorted link keys of the hyperlinks in the subtree of `node`.
pub fn subtree_keys(doc: &Document, node: NodeId) -> Vec<u64> {
    let mut keys: Vec<u64> = doc
        .subtree(node)
        .filter(|&a| doc.is_tag(a, "a") && doc.attr(a, "href").is_some())
        .map(|a| link_key(doc, a))
        .collect();
    keys.sort_unstable();
    keys
}

/// Whether `node` of `doc` satisfies Definition 5 against `siblings` (see the module docs).
pub fn recurs(doc: &Document, node: NodeId, siblings: &[SiblingPage<'_>]) -> bool {
    if node.index() >= doc.len() {
        return false;
    }
    let keys = subtree_keys(doc, node);
    if keys.len() < MIN_LINKS {
        return false;
    }
    let (mut marked, mut total) = (Vec::new(), Vec::new());
    siblings
        .iter()
        .filter(|s| !std::ptr::eq(s.doc, doc))
        .any(|s| s.best_jaccard(&keys, &mut marked, &mut total) >= MIN_JACCARD)
}
