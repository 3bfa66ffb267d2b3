//! Labels from gold text: which of a page's text nodes hold the words a human kept.
//!
//! Sets such as WCXB, Dragnet, CleanEval or scrapinghub's give a page's main content as
//! plain text, with no tie to the page's nodes. To learn from them we align the gold words
//! onto the page's words and label each text node by the share of its words that aligned.
//!
//! Words are maximal runs of word characters (letters, digits, marks, `_`), lower-cased: the
//! reference scorer's tokens, so whitespace, punctuation, entities the parser decodes and
//! case do not matter. The alignment, in three passes:
//!
//! 1. **Anchors.** Every page position whose next [`ANCHOR`] words occur in the gold is
//!    extended to the longest common run with any gold occurrence of those words (a greedy
//!    scan, left to right: the run found at a position is taken and the scan goes on after
//!    it). Order between runs is not required, so gold text that lists blocks in another
//!    order than the page (a caption moved to the end, a sidebar box before the article)
//!    aligns as well as text in page order.
//! 2. **One gold word, one page word.** Runs are accepted longest first; a run whose gold
//!    words are already mostly (more than half) taken by longer runs is a repetition, such
//!    as a headline repeated in a "related" box or a sentence quoted in a pull quote, and is
//!    dropped. The longer copy, in context, is the one the annotator kept.
//! 3. **Short nodes.** A node of fewer than [`ANCHOR`] words (a heading, a one-word cell, a
//!    date) cannot hold an anchor. It is aligned when its words occur, still free, in the
//!    gold between the gold ends of the accepted runs just before and just after it on the
//!    page (in page order), so "Introduction" is content between two aligned paragraphs and
//!    not in a menu far from any.
//!
//! The work is linear in the page and gold length apart from repeated anchors, whose
//! candidate gold positions are capped at [`MAX_CANDIDATES`].

use std::collections::HashMap;

use chaff_dom::{Document, NodeId, TextView};

/// Words in an anchor: long enough that chance matches between unrelated text are rare,
/// short enough for two-sentence paragraphs.
pub const ANCHOR: usize = 3;

/// Gold positions tried per anchor (bounds the work on text with many repeats).
pub const MAX_CANDIDATES: usize = 16;

/// A node's words count as content when at least this share of them aligned.
pub const CONTENT_SHARE: f32 = 0.5;

/// The scorer's words of `text`: word-character runs, lower-cased.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || is_mark(c) {
            current.extend(c.to_lowercase());
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Combining marks, which Python's `\w` counts as word characters (Devanagari vowel signs
/// and the like).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0900..=0x0DFF | 0x1AB0..=0x1AFF | 0x20D0..=0x20FF)
        && !c.is_whitespace()
}

/// Where a page's gold words landed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Alignment {
    /// For every text node of the page (in document order, one per view segment with
    /// words): the node, its word count and how many of its words aligned.
    pub nodes: Vec<NodeAlignment>,
    /// Words of the gold text.
    pub gold_words: usize,
    /// Gold words that aligned to a page word.
    pub gold_aligned: usize,
    /// Words of the page's text.
    pub page_words: usize,
}

/// One text node's share of the gold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeAlignment {
    /// The text node.
    pub node: NodeId,
    /// Its words.
    pub words: u32,
    /// Those that aligned to gold words.
    pub aligned: u32,
}

impl NodeAlignment {
    /// Share of the node's words that aligned.
    pub fn share(&self) -> f32 {
        if self.words == 0 {
            0.0
        } else {
            self.aligned as f32 / self.words as f32
        }
    }

    /// Whether the node is content by the gold ([`CONTENT_SHARE`]).
    pub fn is_content(&self) -> bool {
        self.share() >= CONTENT_SHARE
    }
}

impl Alignment {
    /// Share of gold words found on the page (how well the gold fits the page).
    pub fn gold_coverage(&self) -> f64 {
        if self.gold_words == 0 {
            1.0
        } else {
            self.gold_aligned as f64 / self.gold_words as f64
        }
    }

    /// Share of the page's words in nodes labelled content.
    pub fn page_content_share(&self) -> f64 {
        let content: u64 = self
            .nodes
            .iter()
            .filter(|n| n.is_content())
            .map(|n| u64::from(n.words))
            .sum();
        if self.page_words == 0 {
            0.0
        } else {
            content as f64 / self.page_words as f64
        }
    }

    /// Per node id of `doc`: `Some(true)` for a content text node, `Some(false)` for a
    /// boilerplate one, `None` for nodes without words.
    pub fn node_labels(&self, doc: &Document) -> Vec<Option<bool>> {
        let mut out = vec![None; doc.len()];
        for n in &self.nodes {
            out[n.node.index()] = Some(n.is_content());
        }
        out
    }
}

/// A run of equal words: page words `page..page + len` equal gold words `gold..gold + len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    page: usize,
    gold: usize,
    len: usize,
}

/// Aligns `gold` onto the text nodes of a parsed page.
pub fn align(view: &TextView, gold: &str) -> Alignment {
    let mut page = Vec::new();
    let mut owner = Vec::new();
    let mut nodes = Vec::new();
    for seg in view.segments() {
        let w = words(&view.text()[seg.range()]);
        if w.is_empty() {
            continue;
        }
        nodes.push(NodeAlignment {
            node: seg.node,
            words: w.len() as u32,
            aligned: 0,
        });
        owner.extend(std::iter::repeat_n(nodes.len() - 1, w.len()));
        page.extend(w);
    }
    let gold = words(gold);
    let matched = align_words(&page, &gold, &owner);
    for (k, m) in matched.iter().enumerate() {
        if *m {
            nodes[owner[k]].aligned += 1;
        }
    }
    Alignment {
        gold_aligned: matched.iter().filter(|m| **m).count(),
        gold_words: gold.len(),
        page_words: page.len(),
        nodes,
    }
}

/// The word-level alignment: which page words are matched to a gold word. `owner[k]` is the
/// unit (text node) page word `k` belongs to, used by the short-node pass; when `owner` does
/// not have one entry per page word, that pass is skipped.
pub fn align_words(page: &[String], gold: &[String], owner: &[usize]) -> Vec<bool> {
    let mut matched = vec![false; page.len()];
    if page.is_empty() || gold.is_empty() {
        return matched;
    }
    let ids = word_ids(page, gold);
    let (p, g) = ids.split_at(page.len());
    let runs = anchor_runs(p, g);
    let mut gold_taken = vec![false; g.len()];
    // Accepted runs by page position, for the short-node pass.
    let mut accepted = accept_runs(runs, &mut gold_taken, &mut matched);
    accepted.sort_by_key(|r| r.page);
    if owner.len() != page.len() {
        return matched;
    }
    fill_short_units(p, g, owner, &accepted, &mut matched, &mut gold_taken);
    matched
}

/// Words as small integers, shared between page and gold (page words first).
fn word_ids(page: &[String], gold: &[String]) -> Vec<u32> {
    let mut map: HashMap<&str, u32> = HashMap::new();
    page.iter()
        .chain(gold)
        .map(|w| {
            let next = map.len() as u32;
            *map.entry(w.as_str()).or_insert(next)
        })
        .collect()
}

/// Pass 1: greedy longest runs from anchors, scanning the page left to right.
fn anchor_runs(p: &[u32], g: &[u32]) -> Vec<Run> {
    let mut runs = Vec::new();
    if p.len() < ANCHOR || g.len() < ANCHOR {
        return runs;
    }
    let mut index: HashMap<&[u32], Vec<usize>> = HashMap::new();
    for j in 0..=g.len() - ANCHOR {
        let slot = index.entry(&g[j..j + ANCHOR]).or_default();
        if slot.len() < MAX_CANDIDATES {
            slot.push(j);
        }
    }
    let mut i = 0;
    while i + ANCHOR <= p.len() {
        let Some(candidates) = index.get(&p[i..i + ANCHOR]) else {
            i += 1;
            continue;
        };
        let best = candidates
            .iter()
            .map(|&j| {
                let len = p[i..]
                    .iter()
                    .zip(&g[j..])
                    .take_while(|(a, b)| a == b)
                    .count();
                Run {
                    page: i,
                    gold: j,
                    len,
                }
            })
            .max_by_key(|r| (r.len, std::cmp::Reverse(r.gold)));
        match best {
            Some(run) => {
                runs.push(run);
                i += run.len;
            }
            None => i += 1,
        }
    }
    runs
}

/// Pass 2: longest runs first; a run whose gold words are mostly taken is a repeat and is
/// dropped; an accepted run matches only the page words whose gold words are still free.
fn accept_runs(mut runs: Vec<Run>, gold_taken: &mut [bool], matched: &mut [bool]) -> Vec<Run> {
    runs.sort_by_key(|r| (std::cmp::Reverse(r.len), r.page));
    let mut accepted = Vec::new();
    for r in runs {
        let taken = gold_taken[r.gold..r.gold + r.len]
            .iter()
            .filter(|t| **t)
            .count();
        if taken * 2 > r.len {
            continue;
        }
        for l in 0..r.len {
            if !gold_taken[r.gold + l] {
                gold_taken[r.gold + l] = true;
                matched[r.page + l] = true;
            }
        }
        accepted.push(r);
    }
    accepted
}

/// Pass 3: units with fewer than [`ANCHOR`] words, matched inside the gold gap between the
/// accepted runs around them.
fn fill_short_units(
    p: &[u32],
    g: &[u32],
    owner: &[usize],
    accepted: &[Run],
    matched: &mut [bool],
    gold_taken: &mut [bool],
) {
    let mut k = 0;
    let mut next_run = 0;
    while k < p.len() {
        let unit = owner[k];
        let end = k + owner[k..].iter().take_while(|&&o| o == unit).count();
        let len = end - k;
        while next_run < accepted.len() && accepted[next_run].page + accepted[next_run].len <= k {
            next_run += 1;
        }
        if len < ANCHOR && !matched[k..end].iter().any(|m| *m) {
            let lo = next_run
                .checked_sub(1)
                .map_or(0, |r| accepted[r].gold + accepted[r].len);
            let hi = accepted
                .get(next_run)
                .filter(|r| r.page >= end)
                .map_or(g.len(), |r| r.gold);
            if !accepted.is_empty() || g.len() < 2 * ANCHOR {
                let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
                if let Some(j) = find_free(&g[lo..hi.min(g.len())], &gold_taken[lo..], &p[k..end]) {
                    let j = lo + j;
                    gold_taken[j..j + len].fill(true);
                    matched[k..end].fill(true);
                }
            }
        }
        k = end;
    }
}

/// The first place `needle` occurs in `hay` on words not yet taken.
fn find_free(hay: &[u32], taken: &[bool], needle: &[u32]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).find(|&j| {
        hay[j..j + needle.len()] == *needle && !taken[j..j + needle.len()].iter().any(|t| *t)
    })
}

#[cfg(test)]
mod tests;
