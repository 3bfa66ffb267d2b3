//! `chaff-core`: what every template-detection method produces and consumes.
//!
//! What it is for: the small vocabulary shared by methods, the extractor and the outputs —
//! [`Labels`] (a templateness score and a [`Role`] per DOM node, plus sub-node removals for
//! methods that work on strings), the [`PageInput`] a method reads, [`Evidence`] and
//! [`Verdict`] (what a method says about a page, or why it says nothing), and the seam between
//! methods and the rest: the [`Method`] trait and its object-safe form [`DynMethod`].
//!
//! What it must not know: any particular method, profiles, file formats, fusion or
//! rendering. Methods depend on this crate; this crate depends only on the DOM.

pub mod deadline;
pub mod evidence;
pub mod method;

pub use evidence::{Evidence, Meaning, Verdict};
pub use method::{DynMethod, Erased, Method, MethodError, Needs, Scope, SiteVerdict};

use std::ops::Range;

use chaff_dom::{Document, NodeId, TextView};
use serde::{Deserialize, Serialize};

/// What a node is to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Part of what the page says.
    #[default]
    Content,
    /// Part of the site's template: navigation, header, footer, sidebars, ads, dates...
    Template,
    /// The site's main menu (a kind of template the menu detector singles out).
    Menu,
    /// What readers wrote under the page (a comment thread): left out of the main text and
    /// given apart.
    Comment,
}

impl Role {
    /// True for roles the extractor removes.
    pub fn is_template(self) -> bool {
        matches!(self, Role::Template | Role::Menu | Role::Comment)
    }
}

/// One page's labels: for every node a templateness score in `[0, 1]` and a role, plus, for
/// text nodes that a string-level method cut partly, the byte ranges removed from the node's
/// visible text (offsets into the node's [`chaff_dom::Segment`] of the page's [`TextView`]).
///
/// Invariant: `score.len() == role.len() == doc.len()`; `partial` is sorted by node and its
/// ranges are sorted, disjoint and non-empty. A node listed in `partial` has role `Content`
/// (it is kept, minus the ranges).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels {
    score: Vec<f32>,
    role: Vec<Role>,
    partial: Vec<(NodeId, Vec<Range<u32>>)>,
}

impl Labels {
    /// All nodes content, score 0.
    pub fn all_content(len: usize) -> Labels {
        Labels {
            score: vec![0.0; len],
            role: vec![Role::Content; len],
            partial: Vec::new(),
        }
    }

    /// Builds labels from per-node scores and roles.
    ///
    /// # Panics
    /// If the vectors differ in length (a programming error, not an input error).
    pub fn from_parts(score: Vec<f32>, role: Vec<Role>) -> Labels {
        assert_eq!(
            score.len(),
            role.len(),
            "labels: score and role lengths differ"
        );
        Labels {
            score,
            role,
            partial: Vec::new(),
        }
    }

    /// Number of nodes labelled.
    pub fn len(&self) -> usize {
        self.role.len()
    }

    /// True when no node is labelled.
    pub fn is_empty(&self) -> bool {
        self.role.is_empty()
    }

    /// The node's templateness score.
    pub fn score(&self, id: NodeId) -> f32 {
        self.score[id.index()]
    }

    /// The node's role.
    pub fn role(&self, id: NodeId) -> Role {
        self.role[id.index()]
    }

    /// All scores, indexed by node.
    pub fn scores(&self) -> &[f32] {
        &self.score
    }

    /// All roles, indexed by node.
    pub fn roles(&self) -> &[Role] {
        &self.role
    }

    /// Sets one node's score and role.
    pub fn set(&mut self, id: NodeId, score: f32, role: Role) {
        self.score[id.index()] = score;
        self.role[id.index()] = role;
    }

    /// Gives a whole subtree one role and score.
    pub fn set_subtree(&mut self, doc: &Document, id: NodeId, score: f32, role: Role) {
        for d in doc.subtree(id) {
            self.set(d, score, role);
        }
    }

    /// Records ranges removed from part of a text node's visible text. Ranges are normalised
    /// (sorted, merged, empty ones dropped); an empty list removes the entry.
    pub fn set_partial(&mut self, id: NodeId, mut ranges: Vec<Range<u32>>) {
        ranges.retain(|r| r.start < r.end);
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u32>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        let pos = self.partial.binary_search_by_key(&id, |(n, _)| *n);
        match (pos, merged.is_empty()) {
            (Ok(i), true) => {
                self.partial.remove(i);
            }
            (Ok(i), false) => self.partial[i].1 = merged,
            (Err(_), true) => {}
            (Err(i), false) => self.partial.insert(i, (id, merged)),
        }
    }

    /// The ranges removed inside a text node, if any.
    pub fn partial(&self, id: NodeId) -> Option<&[Range<u32>]> {
        self.partial
            .binary_search_by_key(&id, |(n, _)| *n)
            .ok()
            .map(|i| &*self.partial[i].1)
    }

    /// All partial removals, sorted by node.
    pub fn partials(&self) -> &[(NodeId, Vec<Range<u32>>)] {
        &self.partial
    }

    /// Folds another method's labels of the same document into these: a node is removed
    /// when either says so (`Menu` wins over `Comment`, `Comment` over `Template`, and
    /// `Template` over `Content`), its score is the larger of the two, and partial cuts are
    /// kept for nodes that stay content (those of `other` are added to these).
    ///
    /// # Panics
    /// If the two label different numbers of nodes (a programming error).
    pub fn union(&mut self, other: &Labels) {
        assert_eq!(self.len(), other.len(), "labels of different documents");
        for i in 0..self.role.len() {
            self.score[i] = self.score[i].max(other.score[i]);
            self.role[i] = match (self.role[i], other.role[i]) {
                (Role::Menu, _) | (_, Role::Menu) => Role::Menu,
                (Role::Comment, _) | (_, Role::Comment) => Role::Comment,
                (Role::Template, _) | (_, Role::Template) => Role::Template,
                _ => Role::Content,
            };
        }
        for (id, ranges) in &other.partial {
            let mut all = self.partial(*id).map(<[_]>::to_vec).unwrap_or_default();
            all.extend(ranges.iter().cloned());
            self.set_partial(*id, all);
        }
        let role = &self.role;
        self.partial
            .retain(|(id, _)| !role[id.index()].is_template());
    }

    /// Whether the extractor drops this node entirely.
    pub fn is_removed(&self, id: NodeId) -> bool {
        self.role[id.index()].is_template()
    }
}

/// A parsed page as methods see it.
#[derive(Clone, Copy)]
pub struct PageInput<'a> {
    /// The DOM.
    pub doc: &'a Document,
    /// Its visible-text view (built once per page and shared by all methods).
    pub view: &'a TextView,
    /// The decoded source (HTML, or the plain text of a text page), present when a method
    /// that [`Needs::source`] is in use.
    pub source: Option<&'a str>,
    /// The page's URL, if known.
    pub url: Option<&'a str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_ranges_are_normalised() {
        let mut l = Labels::all_content(5);
        l.set_partial(NodeId(3), vec![4..6, 0..2, 1..3, 7..7]);
        assert_eq!(l.partial(NodeId(3)), Some(&[0..3, 4..6][..]));
        l.set_partial(NodeId(1), std::iter::once(0..1).collect());
        assert_eq!(l.partials()[0].0, NodeId(1));
        l.set_partial(NodeId(3), vec![]);
        assert_eq!(l.partial(NodeId(3)), None);
    }

    #[test]
    fn a_comment_outranks_template_and_yields_to_the_menu() {
        let mut a = Labels::from_parts(
            vec![0.9, 0.9, 0.0],
            vec![Role::Template, Role::Menu, Role::Content],
        );
        let b = Labels::from_parts(vec![1.0; 3], vec![Role::Comment; 3]);
        a.union(&b);
        assert_eq!(a.roles(), [Role::Comment, Role::Menu, Role::Comment]);
        assert!((0..3).all(|i| a.is_removed(NodeId(i))));
    }

    #[test]
    fn union_removes_what_either_removes() {
        let mut a = Labels::from_parts(
            vec![0.0, 0.9, 0.1, 0.0],
            vec![Role::Content, Role::Template, Role::Content, Role::Content],
        );
        a.set_partial(NodeId(2), std::iter::once(0..2).collect());
        a.set_partial(NodeId(3), std::iter::once(1..2).collect());
        let mut b = Labels::from_parts(
            vec![0.5, 0.2, 0.0, 0.7],
            vec![Role::Content, Role::Menu, Role::Content, Role::Template],
        );
        b.set_partial(NodeId(2), std::iter::once(4..6).collect());
        a.union(&b);
        assert_eq!(
            a.roles(),
            [Role::Content, Role::Menu, Role::Content, Role::Template]
        );
        assert_eq!(a.scores(), [0.5, 0.9, 0.1, 0.7]);
        assert_eq!(a.partial(NodeId(2)), Some(&[0..2, 4..6][..]));
        assert_eq!(a.partial(NodeId(3)), None);
    }

    #[test]
    fn subtree_roles() {
        let doc = chaff_dom::parse(b"<div><p>a</p><p>b</p></div><p>c</p>").unwrap();
        let div = doc.find_tag("div").unwrap();
        let mut l = Labels::all_content(doc.len());
        l.set_subtree(&doc, div, 1.0, Role::Template);
        let removed: Vec<_> = doc.ids().filter(|&i| l.is_removed(i)).collect();
        assert_eq!(removed.len(), 5);
        assert!(!l.is_removed(doc.find_tag("body").unwrap()));
    }
}
