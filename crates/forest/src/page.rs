//! One sample page as FOREST reads it: its text leaves with their terms, the depth-first
//! (`dfs`) index and level of every element, and, once the page's signifiers are known, the
//! signifier and other-term counts of every node's text.
//!
//! The paper cleans pages with HTMLCleaner, which drops scripts, styles and `noscript`, and
//! numbers nodes in depth-first order. Here the leaves are the segments of the page's visible
//! text view (which already leaves out those elements and hidden ones), and the `dfs` index
//! counts elements in document order skipping the subtrees of `script`, `style`, `noscript`
//! and `template`, so it does not move when a page's scripts change.

use chaff_dom::{Document, NodeId, TextView};

use crate::terms::Vocabulary;

/// Elements whose subtrees are removed before numbering.
fn is_removed_element(tag: &str) -> bool {
    matches!(tag, "script" | "style" | "noscript" | "template")
}

/// The dfs index of every element (`u32::MAX` for other nodes and removed elements) and the
/// level of every node: the number of element ancestors, so `html` has level 0 and `body`
/// level 1, as in the paper's Figure 3.
pub(crate) fn dfs_and_levels(doc: &Document) -> (Vec<u32>, Vec<u32>) {
    let n = doc.len();
    let mut dfs = vec![u32::MAX; n];
    let mut level = vec![0u32; n];
    let mut next = 0u32;
    let mut skip_until = 0usize;
    for id in doc.ids() {
        let i = id.index();
        let parent = doc.parent(id);
        if let Some(p) = parent {
            let pl = level.get(p.index()).copied().unwrap_or(0);
            level[i] = if doc.is_element(p) { pl + 1 } else { pl };
        }
        if i < skip_until || !doc.is_element(id) {
            continue;
        }
        if is_removed_element(doc.tag(id)) {
            skip_until = doc.subtree_end(id).index();
            continue;
        }
        dfs[i] = next;
        next += 1;
    }
    (dfs, level)
}

/// A text leaf: its node and its terms (a range of [`PageTerms::terms`]).
#[derive(Clone, Debug)]
pub(crate) struct Leaf {
    pub node: NodeId,
    pub terms: std::ops::Range<usize>,
}

/// The terms of one page's text leaves.
#[derive(Clone, Debug, Default)]
pub(crate) struct PageTerms {
    pub leaves: Vec<Leaf>,
    pub terms: Vec<u32>,
}

impl PageTerms {
    /// Analyses the visible text of a page (its language detected from the view's text).
    pub fn new(view: &TextView, vocab: &mut Vocabulary) -> PageTerms {
        let lang = crate::terms::detect_language(view.text());
        let mut out = PageTerms::default();
        for seg in view.segments() {
            let text = view.text().get(seg.range()).unwrap_or("");
            let start = out.terms.len();
            vocab.analyze(text, lang, &mut out.terms);
            if out.terms.len() > start {
                out.leaves.push(Leaf {
                    node: seg.node,
                    terms: start..out.terms.len(),
                });
            }
        }
        out
    }
}

/// Signifier counts of every node's text on one page.
pub(crate) struct Counts {
    /// Signifier occurrences per node (`x`).
    pub sig: Vec<u32>,
    /// Other terms per node (`y`).
    pub other: Vec<u32>,
    /// Which signifiers occur in the node's text (bit `i` for the page's `i`-th signifier).
    pub present: Vec<u64>,
}

impl Counts {
    /// Counts per node, summed up the tree in one reverse pass. `signifier_of(term)` gives
    /// the index of a term among the page's signifiers (below 64), if it is one.
    pub fn new(
        doc: &Document,
        page: &PageTerms,
        signifier_of: &dyn Fn(u32) -> Option<u32>,
    ) -> Counts {
        let n = doc.len();
        let mut c = Counts {
            sig: vec![0; n],
            other: vec![0; n],
            present: vec![0; n],
        };
        for leaf in &page.leaves {
            let i = leaf.node.index();
            if i >= n {
                continue;
            }
            for &t in page.terms.get(leaf.terms.clone()).unwrap_or(&[]) {
                match signifier_of(t) {
                    Some(s) => {
                        c.sig[i] += 1;
                        c.present[i] |= 1u64 << s.min(63);
                    }
                    None => c.other[i] += 1,
                }
            }
        }
        for id in doc.ids().rev() {
            if let Some(p) = doc.parent(id) {
                let (i, p) = (id.index(), p.index());
                c.sig[p] += c.sig[i];
                c.other[p] += c.other[i];
                c.present[p] |= c.present[i];
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dfs_skips_scripts_and_levels_count_element_ancestors() {
        let doc = chaff_dom::parse(
            b"<html><head><script>x</script><title>t</title></head>\
              <body><noscript><p>n</p></noscript><div><p>a</p></div></body></html>",
        )
        .unwrap();
        let (dfs, level) = dfs_and_levels(&doc);
        let body = doc.find_tag("body").unwrap();
        let div = doc.find_tag("div").unwrap();
        let p = doc.children(div).next().unwrap();
        // html 0, head 1, title 2, body 3, div 4, p 5.
        assert_eq!(dfs[body.index()], 3);
        assert_eq!(dfs[div.index()], 4);
        assert_eq!(dfs[p.index()], 5);
        assert_eq!(dfs[doc.find_tag("script").unwrap().index()], u32::MAX);
        assert_eq!(level[doc.find_tag("html").unwrap().index()], 0);
        assert_eq!(level[body.index()], 1);
        assert_eq!(level[p.index()], 3);
    }

    #[test]
    fn counts_sum_up_the_tree() {
        let doc = chaff_dom::parse(b"<body><div><p>walking dogs</p><p>cats sleep</p></div></body>")
            .unwrap();
        let view = TextView::new(&doc);
        let mut vocab = Vocabulary::new();
        let page = PageTerms::new(&view, &mut vocab);
        assert_eq!(page.terms.len(), 4);
        let dog = page.terms[1];
        let c = Counts::new(&doc, &page, &|t| (t == dog).then_some(2));
        let div = doc.find_tag("div").unwrap().index();
        assert_eq!((c.sig[div], c.other[div], c.present[div]), (1, 3, 0b100));
        assert_eq!((c.sig[0], c.other[0]), (1, 3));
    }
}
