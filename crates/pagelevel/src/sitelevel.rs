//! SiteLevel(θ) (section 3 and 5.1 of the paper): a DOM node is a site-level template when the
//! same subtree, by hash, occurs on at least θ of a site's pages; an internal node is also
//! template when more than 85% of its HTML lies inside such nodes.
//!
//! The hash of a node covers its tag, its whitespace-collapsed text and its children's hashes
//! in order: two nodes hash alike when their subtrees print the same text under the same tags.
//! Attributes are left out (the paper hashes "DOM nodes" without saying more; per-page ids in
//! `href`s and `id`s would otherwise make a site's menu differ from page to page), as are the
//! contents of `script`/`style`/`noscript` (they carry per-page values in templates) and
//! comments.
//!
//! Deviation: θ·n pages with n small rounds down to one page, which would make every node a
//! template; a node must occur on at least two pages ([`MIN_PAGES`]) whatever θ says.
//!
//! Nodes that carry nothing a reader sees (no visible text and no media below them) are never
//! template by hash: an empty `<div>` or a `<br>` repeats on every page of every site and says
//! nothing about the template.

use std::collections::{HashMap, HashSet};

use chaff_core::{Evidence, Labels, Meaning, Method, MethodError, PageInput, Role, Scope, Verdict};
use chaff_dom::{Document, NodeId, NodeKind};
use serde::{Deserialize, Serialize};

/// Share of pages a subtree must occur on (the paper's θ = 10%).
pub const DEFAULT_THETA: f64 = 0.1;
/// Share of an internal node's HTML that must lie in site-level templates (section 5.1).
pub const DEFAULT_COVER: f64 = 0.85;
/// Fewest pages a subtree must occur on, whatever θ gives.
pub const MIN_PAGES: usize = 2;

/// SiteLevel's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteLevelConfig {
    /// θ: share of the site's pages a subtree must occur on.
    pub theta: f64,
    /// Share of an internal node's HTML inside template subtrees that makes it template.
    pub cover: f64,
}

impl Default for SiteLevelConfig {
    fn default() -> Self {
        SiteLevelConfig {
            theta: DEFAULT_THETA,
            cover: DEFAULT_COVER,
        }
    }
}

/// Per-node subtree hashes of one page, with which nodes carry visible content.
#[derive(Clone, Debug)]
pub struct SubtreeHashes {
    /// Hash of every node's subtree, by node id.
    pub hash: Vec<u64>,
    /// Whether the subtree holds visible text or media.
    pub substantive: Vec<bool>,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// A strong 64-bit mix (the splitmix64 finaliser), so that combining child hashes in order
/// does not cancel out.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hashes collapsed, whitespace-trimmed text.
fn text_hash(s: &str) -> u64 {
    let mut h = FNV_OFFSET;
    let mut pending_space = false;
    let mut any = false;
    for w in s.split_ascii_whitespace() {
        if pending_space {
            h = fnv(h, b" ");
        }
        h = fnv(h, w.as_bytes());
        pending_space = true;
        any = true;
    }
    if any { mix(h) } else { 0 }
}

fn is_opaque(tag: &str) -> bool {
    matches!(tag, "script" | "style" | "noscript" | "template")
}

fn is_media(tag: &str) -> bool {
    matches!(
        tag,
        "img" | "video" | "audio" | "iframe" | "embed" | "object" | "svg" | "canvas" | "picture"
    )
}

/// Computes the subtree hashes of a document, bottom-up in one pass over the ids in reverse
/// (children have larger ids than their parent, so no recursion is needed).
pub fn subtree_hashes(doc: &Document) -> SubtreeHashes {
    let n = doc.len();
    let mut hash = vec![0u64; n];
    let mut substantive = vec![false; n];
    // Running combination of each node's children, filled as children are finished.
    let mut acc = vec![FNV_OFFSET; n];
    for id in doc.ids().rev() {
        let i = id.index();
        let own = match doc.kind(id) {
            NodeKind::Text => {
                let t = text_hash(doc.text(id));
                substantive[i] = t != 0;
                t
            }
            NodeKind::Element => {
                let tag = doc.tag(id);
                if is_media(tag) {
                    substantive[i] = true;
                }
                let tag_h = fnv(FNV_OFFSET, tag.as_bytes());
                if is_opaque(tag) {
                    substantive[i] = false;
                    mix(tag_h)
                } else {
                    mix(tag_h ^ mix(acc[i]))
                }
            }
            NodeKind::Comment => {
                hash[i] = 0;
                continue;
            }
            _ => mix(acc[i] ^ 0x5bd1_e995),
        };
        hash[i] = own;
        if let Some(p) = doc.parent(id) {
            let pi = p.index();
            // Empty text (whitespace between tags) is left out, so indentation does not matter.
            if own != 0 && (substantive[i] || !doc.is_text(id)) {
                acc[pi] = mix(acc[pi].rotate_left(5) ^ own);
            }
            if substantive[i] && !(doc.is_element(p) && is_opaque(doc.tag(p))) {
                substantive[pi] = true;
            }
        }
    }
    // Children were folded in reverse order; that is still an order-sensitive combination.
    SubtreeHashes { hash, substantive }
}

/// The template subtrees of one site: the hashes found on enough of its pages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubtreeModel {
    /// Parameters it was learned with.
    pub config: SiteLevelConfigSerde,
    /// Pages it was learned from.
    pub pages: u32,
    /// Template subtree hashes, as 16-digit hex strings, sorted.
    #[serde(with = "hex_set")]
    pub hashes: HashSet<u64>,
}

/// [`SiteLevelConfig`] as stored in a profile (a plain copy, so `Default` can be derived).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteLevelConfigSerde {
    /// θ.
    pub theta: f64,
    /// The cover share (85%).
    pub cover: f64,
}

impl Default for SiteLevelConfigSerde {
    fn default() -> Self {
        let c = SiteLevelConfig::default();
        SiteLevelConfigSerde {
            theta: c.theta,
            cover: c.cover,
        }
    }
}

mod hex_set {
    use std::collections::HashSet;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(set: &HashSet<u64>, s: S) -> Result<S::Ok, S::Error> {
        let mut v: Vec<u64> = set.iter().copied().collect();
        v.sort_unstable();
        s.collect_seq(v.iter().map(|h| format!("{h:016x}")))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<HashSet<u64>, D::Error> {
        let v: Vec<String> = Vec::deserialize(d)?;
        v.iter()
            .map(|s| {
                u64::from_str_radix(s, 16)
                    .map_err(|_| D::Error::custom(format!("not a 64-bit hex hash: {s:?}")))
            })
            .collect()
    }
}

/// How many pages must hold a subtree for `pages` pages at θ.
pub fn min_pages(pages: usize, theta: f64) -> usize {
    let need = (theta * pages as f64).ceil();
    let need = if need.is_finite() && need > 0.0 {
        need as usize
    } else {
        0
    };
    need.max(MIN_PAGES)
}

/// Learns the template subtrees from the pages' hashes.
pub fn learn(pages: &[SubtreeHashes], config: SiteLevelConfig) -> SubtreeModel {
    let mut df: HashMap<u64, u32> = HashMap::new();
    let mut seen: HashSet<u64> = HashSet::new();
    for p in pages {
        seen.clear();
        for (h, &sub) in p.hash.iter().zip(&p.substantive) {
            if sub && *h != 0 && seen.insert(*h) {
                *df.entry(*h).or_insert(0) += 1;
            }
        }
    }
    let need = min_pages(pages.len(), config.theta);
    let hashes = df
        .into_iter()
        .filter(|&(_, c)| c as usize >= need)
        .map(|(h, _)| h)
        .collect();
    SubtreeModel {
        config: SiteLevelConfigSerde {
            theta: config.theta,
            cover: config.cover,
        },
        pages: pages.len() as u32,
        hashes,
    }
}

/// What the 85% rule measures a node by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoverMeasure {
    /// Bytes of HTML, as the paper does when it builds training labels.
    Html,
    /// Bytes of text. Used when cleaning: a heavy menu's markup can outweigh a short
    /// article's HTML and would take the article's `<body>` with it; its text cannot.
    Text,
}

/// Length of a node by the measure: HTML (its source span when known, else the length of its
/// text) or, for text, a text node's trimmed data (elements count 0 of their own).
fn own_len(doc: &Document, id: NodeId, measure: CoverMeasure) -> u64 {
    match measure {
        CoverMeasure::Html => match doc.span(id) {
            Some(r) => r.len() as u64,
            None if doc.is_text(id) => doc.text(id).len() as u64,
            None => 0,
        },
        CoverMeasure::Text if doc.is_text(id) => doc.text(id).trim().len() as u64,
        CoverMeasure::Text => 0,
    }
}

impl SubtreeModel {
    /// Which nodes of a page are template: `direct` (their hash is a template hash) and those
    /// whose HTML lies more than `cover` inside direct template nodes.
    pub fn template_nodes(
        &self,
        doc: &Document,
        hashes: &SubtreeHashes,
        measure: CoverMeasure,
    ) -> Vec<bool> {
        if hashes.hash.len() != doc.len() || hashes.substantive.len() != doc.len() {
            // Hashes of another document: compute this one's rather than index past them.
            return self.template_nodes(doc, &subtree_hashes(doc), measure);
        }
        let n = doc.len();
        let template: Vec<bool> = hashes
            .substantive
            .iter()
            .zip(&hashes.hash)
            .map(|(&sub, h)| sub && self.hashes.contains(h))
            .collect();
        // covered[i]: the part of i inside direct template nodes; size[i]: all of i.
        let mut covered = vec![0u64; n];
        let mut size = vec![0u64; n];
        for id in doc.ids().rev() {
            let i = id.index();
            let own = own_len(doc, id, measure);
            size[i] = match measure {
                CoverMeasure::Html => own,
                CoverMeasure::Text => size[i] + own,
            };
            if template[i] {
                covered[i] = size[i];
            }
            if let Some(p) = doc.parent(id) {
                covered[p.index()] += covered[i];
                if measure == CoverMeasure::Text {
                    size[p.index()] += size[i];
                }
            }
        }
        // Spans of moved nodes can overlap, so clamp.
        let cover = self.config.cover;
        let mut out = template.clone();
        for id in doc.ids() {
            let i = id.index();
            if !out[i]
                && doc.is_element(id)
                && hashes.substantive[i]
                && size[i] > 0
                && covered[i].min(size[i]) as f64 > cover * size[i] as f64
            {
                out[i] = true;
            }
        }
        out
    }

    /// Labels a page for cleaning: template nodes (the 85% rule measured on text) and
    /// everything below them.
    pub fn label_doc(&self, doc: &Document) -> Labels {
        let hashes = subtree_hashes(doc);
        let template = self.template_nodes(doc, &hashes, CoverMeasure::Text);
        let mut labels = Labels::all_content(doc.len());
        let mut id = 0usize;
        while id < doc.len() {
            let node = NodeId(id as u32);
            if template[id] {
                labels.set_subtree(doc, node, 1.0, Role::Template);
                id = doc.subtree_end(node).index();
            } else {
                id += 1;
            }
        }
        labels
    }
}

/// SiteLevel behind chaff's method seam: learns the subtrees a site repeats on θ of its
/// pages and removes them ([`Meaning::Membership`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SubtreeMethod {
    /// θ and the other parameters.
    pub config: SiteLevelConfig,
}

impl Method for SubtreeMethod {
    type PageData = SubtreeHashes;
    type Model = SubtreeModel;
    type Compiled = SubtreeModel;

    fn name(&self) -> &'static str {
        "subtree"
    }

    fn scope(&self) -> Scope {
        Scope::Site
    }

    fn page_data(&self, page: &PageInput<'_>) -> SubtreeHashes {
        subtree_hashes(page.doc)
    }

    fn learn(&self, pages: Vec<SubtreeHashes>) -> Result<SubtreeModel, MethodError> {
        Ok(learn(&pages, self.config))
    }

    fn compile(&self, model: Option<SubtreeModel>) -> Result<SubtreeModel, MethodError> {
        model.ok_or_else(|| MethodError::new("SiteLevel needs a learned model"))
    }

    fn evidence(&self, model: &SubtreeModel, page: &PageInput<'_>) -> Verdict {
        Verdict::Evidence(Evidence::new(
            model.label_doc(page.doc),
            Meaning::Membership,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(html: &str) -> Document {
        chaff_dom::parse(html.as_bytes()).unwrap()
    }

    fn find(doc: &Document, tag: &str, nth: usize) -> NodeId {
        doc.ids().filter(|&i| doc.is_tag(i, tag)).nth(nth).unwrap()
    }

    #[test]
    fn equal_subtrees_hash_alike_and_different_ones_do_not() {
        let d = doc(
            "<ul><li>Home</li><li>News</li></ul><ul><li>Home</li>\n  <li>News</li></ul>\
             <ul><li>News</li><li>Home</li></ul><ol><li>Home</li><li>News</li></ol>",
        );
        let h = subtree_hashes(&d);
        let ul: Vec<u64> = (0..3).map(|k| h.hash[find(&d, "ul", k).index()]).collect();
        assert_eq!(ul[0], ul[1], "whitespace between tags does not matter");
        assert_ne!(ul[0], ul[2], "child order matters");
        assert_ne!(ul[0], h.hash[find(&d, "ol", 0).index()], "the tag matters");
    }

    #[test]
    fn attributes_and_scripts_do_not_change_the_hash() {
        let d = doc(
            "<div id=a1 class=x><p>Hi</p><script>var id=1</script></div>\
             <div id=a2><p>Hi</p><script>var id=2</script></div>",
        );
        let h = subtree_hashes(&d);
        assert_eq!(
            h.hash[find(&d, "div", 0).index()],
            h.hash[find(&d, "div", 1).index()]
        );
    }

    #[test]
    fn empty_nodes_are_not_substantive() {
        let d = doc("<div><br><span> </span></div><div><img src=x></div>");
        let h = subtree_hashes(&d);
        assert!(!h.substantive[find(&d, "div", 0).index()]);
        assert!(h.substantive[find(&d, "div", 1).index()]);
    }

    #[test]
    fn theta_counts_pages_with_a_floor_of_two() {
        assert_eq!(min_pages(10, 0.1), 2);
        assert_eq!(min_pages(40, 0.1), 4);
        assert_eq!(min_pages(41, 0.1), 5);
        assert_eq!(min_pages(1, 0.1), 2);
        assert_eq!(min_pages(5, f64::NAN), 2);
    }

    #[test]
    fn repeated_nav_is_template_and_the_article_is_not() {
        let page = |body: &str| {
            format!(
                "<html><body><div id=nav><a href=/>Home</a> <a href=/n>News</a></div>\
                 <div id=main><p>{body}</p></div><div id=foot><p>(c) Site</p></div></body></html>"
            )
        };
        let docs: Vec<Document> = ["alpha beta", "gamma delta", "epsilon zeta"]
            .iter()
            .map(|b| doc(&page(b)))
            .collect();
        let hashes: Vec<SubtreeHashes> = docs.iter().map(subtree_hashes).collect();
        let model = learn(&hashes, SiteLevelConfig::default());
        let d = &docs[1];
        let t = model.template_nodes(d, &hashes[1], CoverMeasure::Html);
        let div = |k| find(d, "div", k).index();
        assert!(t[div(0)], "nav");
        assert!(!t[div(1)], "article");
        assert!(t[div(2)], "footer");
        assert!(!t[find(d, "body", 0).index()], "body holds the article");
        let labels = model.label_doc(d);
        assert!(labels.is_removed(find(d, "a", 0)));
        assert!(!labels.is_removed(find(d, "p", 0)));
    }

    #[test]
    fn the_85_percent_rule_marks_mostly_template_parents() {
        // The wrapper holds a repeated block and a little page-specific text.
        let long = "x".repeat(400);
        let page = |extra: &str| {
            format!(
                "<body><section><div><p>{long}</p></div><b>{extra}</b></section><p>body {extra}</p></body>"
            )
        };
        let docs: Vec<Document> = ["1", "2"].iter().map(|e| doc(&page(e))).collect();
        let hashes: Vec<SubtreeHashes> = docs.iter().map(subtree_hashes).collect();
        let model = learn(&hashes, SiteLevelConfig::default());
        let t = model.template_nodes(&docs[0], &hashes[0], CoverMeasure::Html);
        assert!(t[find(&docs[0], "section", 0).index()]);
        assert!(!t[find(&docs[0], "b", 0).index()]);
        let strict = SubtreeModel {
            config: SiteLevelConfigSerde {
                theta: 0.1,
                cover: 0.999,
            },
            ..model
        };
        let t = strict.template_nodes(&docs[0], &hashes[0], CoverMeasure::Html);
        assert!(!t[find(&docs[0], "section", 0).index()]);
    }

    #[test]
    fn the_model_round_trips_through_json() {
        let hashes = [1u64, 0xdead_beef_0000_0001].into_iter().collect();
        let m = SubtreeModel {
            config: SiteLevelConfigSerde::default(),
            pages: 3,
            hashes,
        };
        let s = serde_json::to_string(&m).unwrap();
        assert!(s.contains("deadbeef00000001"));
        let back: SubtreeModel = serde_json::from_str(&s).unwrap();
        assert_eq!(back, m);
        assert!(
            serde_json::from_str::<SubtreeModel>(
                r#"{"config":{"theta":0.1,"cover":0.85},"pages":1,"hashes":["zz"]}"#
            )
            .is_err()
        );
    }
}
