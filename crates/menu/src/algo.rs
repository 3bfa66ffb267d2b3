//! Candidate selection (section 3.2), Algorithm 1 (root selection, section 3.3) and
//! Algorithm 2 (menu selection, section 3.4), over the compact element tree of
//! [`NodeFeatures`] and a weight per element.
//!
//! All three are written as printed; the only reading to choose is which heavy nodes
//! Algorithm 2 averages ([`MenuSelection`]). "Children" are element children throughout (the
//! DOM's `children`, which the paper's Firefox add-on reads), so whitespace text between tags
//! does not count against "more than half of the children".

use std::collections::HashMap;

use crate::features::{MenuSelection, NONE, NodeFeatures};

/// Section 3.2: the rated elements whose weight is above `threshold`, in document order.
pub fn candidates(f: &NodeFeatures, weights: &[f32], threshold: f32, out: &mut Vec<u32>) {
    out.clear();
    out.extend((0..f.len() as u32).filter(|&e| f.rated(e) && weights[e as usize] > threshold));
}

/// Algorithm 1 for many candidates of one page, sharing the per-parent work.
///
/// Each step of Algorithm 1 counts the children of an ancestor whose weight is above
/// `t * baseWeight`. For parents with many children the children's weights are sorted once
/// (lazily) and counted by binary search, so a page with thousands of candidates under one wide
/// parent stays fast.
#[derive(Default)]
pub struct RootSelector {
    sorted: HashMap<u32, Vec<f32>>,
}

/// One step of Algorithm 1's walk (see [`RootSelector::root_traced`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootStep {
    /// The ancestor examined.
    pub parent: u32,
    /// Its children weighing more than `t * baseWeight`.
    pub heavy: usize,
    /// Its number of (element) children.
    pub children: usize,
    /// Whether more than half were heavy, so the walk went on from it.
    pub climbed: bool,
    /// `menuNode` after the step.
    pub menu: u32,
}

/// Parents with more children than this get a sorted weight cache.
const SORT_CHILDREN: usize = 16;

impl RootSelector {
    /// A selector with empty caches; call [`RootSelector::clear`] between weight vectors.
    pub fn new() -> RootSelector {
        RootSelector::default()
    }

    /// Forgets cached weights (they depend on the weight vector).
    pub fn clear(&mut self) {
        self.sorted.clear();
    }

    /// Algorithm 1: the root node of the menu that `candidate` is part of.
    ///
    /// ```text
    /// menuNode = n; currentNode = n; baseWeight = n.weight; found = false
    /// while (currentNode has a parent and not found)
    ///   parent = currentNode.parentNode
    ///   nodeCount = |{c in parent.children | c.weight > t * baseWeight}|
    ///   if (2 * nodeCount > |parent.children|)
    ///     currentNode = parent
    ///     if (|parent.children| > 1) menuNode = parent
    ///   else found = true
    /// return menuNode
    /// ```
    /// The walk stops at the root of the rated universe (the `<body>`, Definition 1's root).
    pub fn root(&mut self, f: &NodeFeatures, weights: &[f32], candidate: u32, t: f32) -> u32 {
        self.root_traced(f, weights, candidate, t, None)
    }

    /// [`RootSelector::root`], recording each step of the walk in `trace`.
    pub fn root_traced(
        &mut self,
        f: &NodeFeatures,
        weights: &[f32],
        candidate: u32,
        t: f32,
        mut trace: Option<&mut Vec<RootStep>>,
    ) -> u32 {
        let base = weights[candidate as usize];
        let limit = t * base;
        let mut menu = candidate;
        let mut current = candidate;
        loop {
            let parent = f.parent(current);
            if parent == NONE {
                break;
            }
            let (count, total) = self.count_above(f, weights, parent, limit);
            let climbed = 2 * count > total;
            if climbed {
                current = parent;
                if total > 1 {
                    menu = parent;
                }
            }
            if let Some(tr) = trace.as_deref_mut() {
                tr.push(RootStep {
                    parent,
                    heavy: count,
                    children: total,
                    climbed,
                    menu,
                });
            }
            if !climbed {
                break;
            }
        }
        menu
    }

    /// (children of `p` with weight above `limit`, number of children of `p`).
    fn count_above(
        &mut self,
        f: &NodeFeatures,
        weights: &[f32],
        p: u32,
        limit: f32,
    ) -> (usize, usize) {
        if let Some(sorted) = self.sorted.get(&p) {
            // Sorted descending: the count is the length of the prefix above `limit`.
            return (sorted.partition_point(|&w| w > limit), sorted.len());
        }
        let mut count = 0;
        let mut total = 0;
        for c in f.children(p) {
            total += 1;
            count += usize::from(weights[c as usize] > limit);
        }
        if total > SORT_CHILDREN {
            let mut v: Vec<f32> = f.children(p).map(|c| weights[c as usize]).collect();
            v.sort_by(|a, b| b.total_cmp(a));
            self.sorted.insert(p, v);
        }
        (count, total)
    }
}

/// Algorithm 1 for one candidate (see [`RootSelector::root`]).
pub fn select_root(f: &NodeFeatures, weights: &[f32], candidate: u32, t: f32) -> u32 {
    RootSelector::new().root(f, weights, candidate, t)
}

/// Algorithm 2 with reusable buffers: prefix sums of the heavy weights in document order, so
/// that the heavy nodes of any subtree are one subtraction away.
#[derive(Default)]
pub struct MenuSelector {
    count: Vec<u32>,
    sum: Vec<f64>,
    seen: Vec<bool>,
}

impl MenuSelector {
    /// A selector with empty buffers.
    pub fn new() -> MenuSelector {
        MenuSelector::default()
    }

    /// Algorithm 2: among `roots` (in order, duplicates ignored), the node whose heavy nodes
    /// (weight above `threshold`) have the highest average weight; `None` when no root has a
    /// heavy node.
    ///
    /// ```text
    /// max = 0; bestWeight = 0
    /// foreach n in N
    ///   heavy = {c in n.children | c.weight > weight}      (or the subtree of n)
    ///   nodeWeight = sum of their weights; nodeCount = |heavy|
    ///   if (nodeWeight / nodeCount > bestWeight) menuNode = n; bestWeight = nodeWeight / nodeCount
    /// return menuNode
    /// ```
    /// With no heavy node the printed division is 0/0, which compares false, so such a node is
    /// never chosen; ties keep the earlier node.
    pub fn select(
        &mut self,
        f: &NodeFeatures,
        weights: &[f32],
        roots: &[u32],
        threshold: f32,
        how: MenuSelection,
    ) -> Option<u32> {
        if how == MenuSelection::Subtree {
            self.count.clear();
            self.sum.clear();
            self.count.push(0);
            self.sum.push(0.0);
            let (mut c, mut s) = (0u32, 0f64);
            for &w in weights {
                if w > threshold {
                    c += 1;
                    s += f64::from(w);
                }
                self.count.push(c);
                self.sum.push(s);
            }
        }
        let mut best = 0f64;
        let mut menu = None;
        self.seen.clear();
        self.seen.resize(f.len(), false);
        for &n in roots {
            if std::mem::replace(&mut self.seen[n as usize], true) {
                continue;
            }
            let (count, sum) = match how {
                MenuSelection::Subtree => {
                    let (a, b) = (n as usize, f.end(n) as usize);
                    (self.count[b] - self.count[a], self.sum[b] - self.sum[a])
                }
                MenuSelection::Children => {
                    let mut c = 0u32;
                    let mut s = 0f64;
                    for ch in f.children(n) {
                        let w = weights[ch as usize];
                        if w > threshold {
                            c += 1;
                            s += f64::from(w);
                        }
                    }
                    (c, s)
                }
            };
            if count > 0 {
                let avg = sum / f64::from(count);
                if avg > best {
                    best = avg;
                    menu = Some(n);
                }
            }
        }
        menu
    }
}

/// Algorithm 2 with fresh buffers (see [`MenuSelector::select`]).
pub fn select_menu(
    f: &NodeFeatures,
    weights: &[f32],
    roots: &[u32],
    threshold: f32,
    how: MenuSelection,
) -> Option<u32> {
    MenuSelector::new().select(f, weights, roots, threshold, how)
}

/// Removes the roots that lie inside another root (the [`Roots::Outermost`] reading), keeping
/// the order of the others.
///
/// [`Roots::Outermost`]: crate::features::Roots::Outermost
pub fn drop_nested(f: &NodeFeatures, roots: &mut Vec<u32>, scratch: &mut Vec<u32>) {
    if roots.len() < 2 {
        return;
    }
    scratch.clear();
    scratch.extend_from_slice(roots);
    scratch.sort_unstable();
    scratch.dedup();
    // Sweep in document order: a root is nested when it starts before the end of an earlier
    // kept root.
    let mut nested = Vec::new();
    let mut open_end = 0u32;
    for &r in scratch.iter() {
        if r < open_end {
            nested.push(r);
        } else {
            open_end = f.end(r);
        }
    }
    if !nested.is_empty() {
        roots.retain(|r| nested.binary_search(r).is_err());
    }
}
