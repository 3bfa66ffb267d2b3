//! Scoring menu predictions against hand labels, as the `menu-labels` data set's MANIFEST
//! prescribes.
//!
//! * **Labels**: a JSON array of [`LabelEntry`] (`dataset`, `page`, `site`, `menu` selector or
//!   null, `menu_link_texts`, optional `alt_menu`). Page paths are resolved by
//!   [`resolve_page`]; pages may be gzipped.
//! * **Gold element**: the `menu` selector in our parse, accepted when it matches exactly one
//!   element whose link texts equal `menu_link_texts` (90% of them, for decoder differences);
//!   otherwise (a parser difference) the
//!   element whose link texts equal them, as the MANIFEST's fallback says ([`Gold`]).
//! * **Leaf units** of an element: every `<a>` in its subtree plus every non-whitespace text
//!   node in it that is not inside an `<a>`, identified by node. Per page, with `G` the gold
//!   leaves and `P` the predicted ones: precision `|P∩G|/|P|`, recall `|P∩G|/|G|`, F1 their
//!   harmonic mean; a null prediction scores 0. A null gold scores 1 for a null prediction and
//!   0 otherwise, in all three.
//! * **Report**: macro averages over pages, over non-null pages, the null accuracy, and the
//!   share of perfect pages (F1 = 1) ([`Summary`]).
//!
//! Both subtrees are contiguous id ranges, so `|P∩G|` is the leaf count of the inner one when
//! one contains the other and 0 otherwise: scoring is O(1) per page once the per-subtree leaf
//! counts are known ([`LeafCounts`]).

use std::io::Read;
use std::path::{Path, PathBuf};

use chaff_dom::{Document, NodeId, Selector};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::MenuError;
use crate::features::universe_root;
use crate::links::anchor_texts;

/// One labelled page (an element of `labels.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelEntry {
    /// The data set directory the page belongs to (may be empty: `page` is then relative to
    /// the labels file's directory).
    #[serde(default)]
    pub dataset: String,
    /// The page's path inside the data set directory.
    pub page: String,
    /// The site the page belongs to (cross-validation keeps a site's pages in one fold).
    #[serde(default)]
    pub site: String,
    /// The menu element's CSS selector, or null when the page has no main menu.
    #[serde(default)]
    pub menu: Option<String>,
    /// The visible texts of the `<a>` elements in the menu, in document order.
    #[serde(default)]
    pub menu_link_texts: Vec<String>,
    /// A defensible alternative menu element.
    #[serde(default)]
    pub alt_menu: Option<String>,
    /// The labeller's notes.
    #[serde(default)]
    pub notes: String,
}

/// Reads a labels file.
pub fn read_labels(path: &Path) -> Result<Vec<LabelEntry>, MenuError> {
    let text = std::fs::read_to_string(path).map_err(|source| MenuError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| MenuError::Json {
        path: path.display().to_string(),
        source,
    })
}

/// Where a labelled page lives: `<labels dir>/<dataset>/<page>` if that exists, else
/// `<labels dir>/../<dataset>/<page>` (the layout of `shared/datasets/menu-labels`, whose pages
/// are in sibling data set directories), else the first.
pub fn resolve_page(labels_path: &Path, entry: &LabelEntry) -> PathBuf {
    let dir = labels_path.parent().unwrap_or(Path::new("."));
    let here = dir.join(&entry.dataset).join(&entry.page);
    if here.exists() {
        return here;
    }
    if let Some(up) = dir.parent() {
        let there = up.join(&entry.dataset).join(&entry.page);
        if there.exists() {
            return there;
        }
    }
    here
}

/// Reads and parses a page file, gunzipping it when it starts with the gzip magic.
pub fn read_page(path: &Path) -> Result<Document, MenuError> {
    let io = |source| MenuError::Io {
        path: path.display().to_string(),
        source,
    };
    let raw = std::fs::read(path).map_err(io)?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(io)?;
        out
    } else {
        raw
    };
    chaff_dom::parse(&bytes).map_err(|source| MenuError::Dom {
        path: path.display().to_string(),
        source,
    })
}

/// The gold menu of a page in our parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gold {
    /// The page has no main menu.
    Null,
    /// The selector matched exactly one element with the recorded link texts (see
    /// [`resolve_gold`]).
    Selector(NodeId),
    /// The selector did not (parser difference); the element with the recorded link texts.
    LinkTexts(NodeId),
    /// Neither worked: every prediction scores 0.
    Unresolved,
}

impl Gold {
    /// The gold element, if resolved.
    pub fn node(self) -> Option<NodeId> {
        match self {
            Gold::Selector(n) | Gold::LinkTexts(n) => Some(n),
            _ => None,
        }
    }

    /// True for a page labelled as having no main menu.
    pub fn is_null(self) -> bool {
        self == Gold::Null
    }
}

/// Finds the gold element of `selector` with link texts `texts` (see the module docs).
pub fn resolve_gold(doc: &Document, selector: Option<&str>, texts: &[String]) -> Gold {
    let Some(sel) = selector else {
        return Gold::Null;
    };
    if let Ok(s) = Selector::parse(sel) {
        let mut it = s.select(doc, NodeId::ROOT);
        if let (Some(n), None) = (it.next(), it.next())
            && texts_agree(&anchor_texts(doc, n), texts)
        {
            return Gold::Selector(n);
        }
    }
    match by_link_texts(doc, texts) {
        Some(n) => Gold::LinkTexts(n),
        None => Gold::Unresolved,
    }
}

/// Whether the link texts of our parse agree with the recorded ones: equal, or as many with
/// at least 90% equal (decoders differ on a few characters: the MANIFEST's WaPo pages have
/// cp1252 quotes that lxml decodes as C1 controls).
fn texts_agree(ours: &[String], recorded: &[String]) -> bool {
    if ours == recorded {
        return true;
    }
    if ours.len() != recorded.len() || ours.is_empty() {
        return false;
    }
    let same = ours.iter().zip(recorded).filter(|(a, b)| a == b).count();
    same * 10 >= ours.len() * 9
}

/// The deepest element, in the first chain of nested matches, whose anchor texts are `texts`.
fn by_link_texts(doc: &Document, texts: &[String]) -> Option<NodeId> {
    if texts.is_empty() {
        return None;
    }
    let mut hit = doc
        .ids()
        .find(|&n| doc.is_element(n) && anchor_texts(doc, n) == texts)?;
    // Descend while a child element still has exactly these links.
    'down: loop {
        for c in doc.element_children(hit) {
            if anchor_texts(doc, c) == texts {
                hit = c;
                continue 'down;
            }
        }
        return Some(hit);
    }
}

/// Per-node counts of leaf units (links, and non-whitespace text outside links) in each
/// subtree.
#[derive(Clone, Debug)]
pub struct LeafCounts {
    count: Vec<u32>,
}

impl LeafCounts {
    /// One forward pass (which text is inside a link) and one reverse pass (subtree sums).
    pub fn new(doc: &Document) -> LeafCounts {
        let n = doc.len();
        let mut count = vec![0u32; n];
        let mut link_end = 0usize;
        for (i, c) in count.iter_mut().enumerate() {
            let id = NodeId(i as u32);
            if doc.is_tag(id, "a") {
                *c = 1;
                link_end = link_end.max(doc.subtree_end(id).index());
            } else if i >= link_end && doc.is_text(id) && !doc.text(id).trim().is_empty() {
                *c = 1;
            }
        }
        for i in (1..n).rev() {
            if let Some(p) = doc.parent(NodeId(i as u32)) {
                count[p.index()] += count[i];
            }
        }
        LeafCounts { count }
    }

    /// Leaf units in the subtree of `node`.
    pub fn get(&self, node: NodeId) -> u32 {
        self.count.get(node.index()).copied().unwrap_or(0)
    }
}

/// One page's precision, recall and F1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PageScore {
    /// `|P∩G| / |P|`.
    pub precision: f64,
    /// `|P∩G| / |G|`.
    pub recall: f64,
    /// Harmonic mean of the two.
    pub f1: f64,
}

impl PageScore {
    /// All three equal to `v` (null gold).
    pub fn all(v: f64) -> PageScore {
        PageScore {
            precision: v,
            recall: v,
            f1: v,
        }
    }

    /// From the intersection and the two leaf counts.
    pub fn from_counts(inter: u32, pred: u32, gold: u32) -> PageScore {
        let p = if pred == 0 {
            0.0
        } else {
            f64::from(inter) / f64::from(pred)
        };
        let r = if gold == 0 {
            0.0
        } else {
            f64::from(inter) / f64::from(gold)
        };
        let f1 = if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        };
        PageScore {
            precision: p,
            recall: r,
            f1,
        }
    }

    /// True when F1 is 1.
    pub fn perfect(&self) -> bool {
        self.f1 >= 1.0 - 1e-9
    }
}

/// Scores a prediction against a gold element (see the module docs).
pub fn score(doc: &Document, leaves: &LeafCounts, gold: Gold, pred: Option<NodeId>) -> PageScore {
    match (gold, pred) {
        (Gold::Null, None) => PageScore::all(1.0),
        (Gold::Null, Some(_)) => PageScore::all(0.0),
        (_, None) | (Gold::Unresolved, _) => PageScore::default(),
        (Gold::Selector(g) | Gold::LinkTexts(g), Some(p)) => {
            if p.index() >= doc.len() {
                return PageScore::default();
            }
            let inter = if doc.contains(p, g) {
                leaves.get(g)
            } else if doc.contains(g, p) {
                leaves.get(p)
            } else {
                0
            };
            PageScore::from_counts(inter, leaves.get(p), leaves.get(g))
        }
    }
}

/// Macro averages over a set of pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Pages scored.
    pub pages: usize,
    /// Mean precision over all pages.
    pub precision: f64,
    /// Mean recall over all pages.
    pub recall: f64,
    /// Mean F1 over all pages.
    pub f1: f64,
    /// Share of pages with F1 = 1.
    pub perfect: f64,
    /// Pages with a gold menu.
    pub nonnull_pages: usize,
    /// Mean precision over pages with a gold menu.
    pub nonnull_precision: f64,
    /// Mean recall over pages with a gold menu.
    pub nonnull_recall: f64,
    /// Mean F1 over pages with a gold menu.
    pub nonnull_f1: f64,
    /// Pages whose gold is null.
    pub null_pages: usize,
    /// Share of them predicted null.
    pub null_accuracy: f64,
}

/// Summarises per-page scores; `null[i]` says whether page `i`'s gold is null.
pub fn summarize(scores: &[PageScore], null: &[bool]) -> Summary {
    let mut s = Summary {
        pages: scores.len(),
        ..Summary::default()
    };
    if scores.is_empty() {
        return s;
    }
    let mut perfect = 0usize;
    let mut null_hits = 0usize;
    for (sc, &is_null) in scores.iter().zip(null) {
        s.precision += sc.precision;
        s.recall += sc.recall;
        s.f1 += sc.f1;
        perfect += usize::from(sc.perfect());
        if is_null {
            s.null_pages += 1;
            null_hits += usize::from(sc.perfect());
        } else {
            s.nonnull_pages += 1;
            s.nonnull_precision += sc.precision;
            s.nonnull_recall += sc.recall;
            s.nonnull_f1 += sc.f1;
        }
    }
    let n = scores.len() as f64;
    s.precision /= n;
    s.recall /= n;
    s.f1 /= n;
    s.perfect = perfect as f64 / n;
    if s.nonnull_pages > 0 {
        let m = s.nonnull_pages as f64;
        s.nonnull_precision /= m;
        s.nonnull_recall /= m;
        s.nonnull_f1 /= m;
    }
    if s.null_pages > 0 {
        s.null_accuracy = null_hits as f64 / s.null_pages as f64;
    }
    s
}

/// A labelled page, parsed, with its gold element resolved.
pub struct LabelledPage {
    /// The label entry.
    pub entry: LabelEntry,
    /// The page file.
    pub path: PathBuf,
    /// The parsed page.
    pub doc: Document,
    /// The gold menu.
    pub gold: Gold,
    /// The alternative menu, if labelled and found.
    pub alt: Option<NodeId>,
    /// Leaf counts for scoring.
    pub leaves: LeafCounts,
}

impl LabelledPage {
    /// Scores a prediction (strict: against `menu` only).
    pub fn score(&self, pred: Option<NodeId>) -> PageScore {
        score(&self.doc, &self.leaves, self.gold, pred)
    }

    /// The MANIFEST's lenient variant: the better of the scores against `menu` and against
    /// `alt_menu` (a prediction of the alternative of a null-gold page scores its F1 against
    /// it).
    pub fn score_lenient(&self, pred: Option<NodeId>) -> PageScore {
        let strict = self.score(pred);
        let Some(alt) = self.alt else {
            return strict;
        };
        let other = score(&self.doc, &self.leaves, Gold::Selector(alt), pred);
        if other.f1 > strict.f1 { other } else { strict }
    }
}

/// Loads and parses every page of a labels file (in parallel), resolving gold elements.
pub fn load_labelled(labels_path: &Path) -> Result<Vec<LabelledPage>, MenuError> {
    let entries = read_labels(labels_path)?;
    entries
        .into_par_iter()
        .map(|entry| {
            let path = resolve_page(labels_path, &entry);
            let doc = read_page(&path)?;
            let gold = resolve_gold(&doc, entry.menu.as_deref(), &entry.menu_link_texts);
            let alt = entry.alt_menu.as_deref().and_then(|sel| {
                let s = Selector::parse(sel).ok()?;
                let mut it = s.select(&doc, NodeId::ROOT);
                match (it.next(), it.next()) {
                    (Some(n), None) => Some(n),
                    _ => None,
                }
            });
            let leaves = LeafCounts::new(&doc);
            Ok(LabelledPage {
                entry,
                path,
                doc,
                gold,
                alt,
                leaves,
            })
        })
        .collect()
}

/// Whether a gold element lies in the part of the page the detector rates (the body).
pub fn gold_in_universe(doc: &Document, gold: Gold) -> bool {
    match (gold.node(), universe_root(doc)) {
        (Some(g), Some(r)) => doc.contains(r, g),
        _ => gold.is_null(),
    }
}
