//! The learned model (what goes into a site profile), learning, cross-site filtering, and
//! turning cleaning intervals into per-node labels.

use std::collections::HashMap;
use std::ops::Range;

use chaff_core::{Labeler, Labels, PageInput, Role, SiteMethod};
use chaff_dom::{Document, NodeId, NodeKind, TextView};
use serde::{Deserialize, Serialize};

use crate::SuffixError;
use crate::clean::Cleaner;
use crate::cutoff::Histogram;
use crate::mine::{MiningParams, mine};
use crate::mutable::{self, MutablePattern, MutableSet, placeholder_index};
use crate::regexgen;
use crate::tokens::{TokenizerSpec, build_corpus};

/// What string of a page the method mines and cleans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// The visible text (see [`chaff_dom::TextView`]); removals map back to text nodes, so
    /// every output format works.
    #[default]
    Text,
    /// The raw decoded source, as the thesis did: markup included.
    Raw,
}

/// How cleaning intervals become removals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CleanParams {
    /// Intervals separated by fewer characters than this are merged (thesis §3.4.1).
    pub merge_gap: u32,
    /// Text view only: a text node whose visible characters are covered by matches to less
    /// than this share keeps its text whole. The thesis's future-work heuristic: "a few
    /// characters removed in the middle of a clean chunk of text are probably a false
    /// positive". 0 removes every match, as the plain method does.
    pub node_coverage: f32,
}

impl Default for CleanParams {
    fn default() -> Self {
        CleanParams {
            merge_gap: 0,
            node_coverage: 0.5,
        }
    }
}

/// Everything the method is configured with.
#[derive(Clone, Debug, Default)]
pub struct SuffixConfig {
    /// Which string to mine.
    pub view: View,
    /// The tokenisation parameter.
    pub tokenizer: TokenizerSpec,
    /// Mutable patterns (default: [`mutable::builtin`]).
    pub mutable: Option<Vec<MutablePattern>>,
    /// Mining parameters.
    pub mining: MiningParams,
    /// Cleaning parameters stored in the model.
    pub clean: CleanParams,
}

/// One cleaning expression with the statistics of the string it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expression {
    /// The regex (Rust `regex` syntax).
    pub regex: String,
    /// The mined string, tokens joined by spaces, mutable patterns shown as `«regex»`.
    pub text: String,
    /// Length in tokens.
    pub tokens: u32,
    /// Documents of the learning collection it occurred in.
    pub docs: u32,
    /// Occurrences in the learning collection.
    pub occurrences: u32,
}

/// A learned suffix-array model: the site's cleaning expressions and how they were found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuffixModel {
    /// The view the expressions apply to.
    pub view: View,
    /// The tokenisation used.
    pub tokenizer: TokenizerSpec,
    /// The mutable patterns used.
    pub mutable: Vec<MutablePattern>,
    /// The mining parameters used.
    pub mining: MiningParams,
    /// Cleaning parameters.
    pub clean: CleanParams,
    /// Number of documents learned from.
    pub documents: u32,
    /// Number of tokens learned from.
    pub tokens: u64,
    /// Number of candidate strings before the cutoff.
    pub candidates: u64,
    /// The document-frequency histogram and its cutoff.
    pub histogram: Histogram,
    /// Expressions dropped by cross-site filtering.
    #[serde(default)]
    pub dropped_cross_site: u32,
    /// The cleaning expressions, longest string first.
    pub expressions: Vec<Expression>,
}

/// Learns a model from the documents of one collection (already in the chosen view).
pub fn learn(docs: &[&str], config: &SuffixConfig) -> Result<SuffixModel, SuffixError> {
    if docs.len() < 2 {
        return Err(SuffixError::TooFewDocuments(docs.len()));
    }
    let tokenizer = config.tokenizer.compile().map_err(SuffixError::Config)?;
    let patterns = config.mutable.clone().unwrap_or_else(mutable::builtin);
    let set = MutableSet::new(patterns.clone()).map_err(SuffixError::Config)?;
    let mut corpus = build_corpus(docs, &tokenizer, &set);
    let tokens = corpus.tokens() as u64;
    let mined = mine(&mut corpus, &config.mining)?;
    let mut seen = std::collections::HashSet::new();
    let expressions = mined
        .template
        .iter()
        .filter_map(|s| {
            let toks = s.tokens.iter().map(|&t| corpus.vocab[t as usize].as_str());
            let regex = regexgen::expression(toks.clone(), &patterns, &config.tokenizer);
            seen.insert(regex.clone()).then(|| Expression {
                regex,
                text: display_tokens(toks, &patterns),
                tokens: s.tokens.len() as u32,
                docs: s.docs,
                occurrences: s.occurrences,
            })
        })
        .collect();
    Ok(SuffixModel {
        view: config.view,
        tokenizer: config.tokenizer.clone(),
        mutable: patterns,
        mining: config.mining.clone(),
        clean: config.clean.clone(),
        documents: docs.len() as u32,
        tokens,
        candidates: mined.candidates as u64,
        histogram: mined.histogram,
        dropped_cross_site: 0,
        expressions,
    })
}

fn display_tokens<'a>(
    tokens: impl Iterator<Item = &'a str>,
    patterns: &[MutablePattern],
) -> String {
    let mut out = String::new();
    for (i, t) in tokens.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for c in t.chars() {
            match placeholder_index(c).and_then(|k| patterns.get(k)) {
                Some(p) => {
                    out.push('«');
                    out.push_str(&p.regex);
                    out.push('»');
                }
                None => out.push(c),
            }
        }
    }
    out
}

/// Cross-site filtering (thesis §3.3): drops from every model the expressions that occur in
/// at least `min_sites` models — recurrent phrasing of the language rather than any site's
/// template. Returns how many expressions were dropped in total.
pub fn cross_site_filter(models: &mut [&mut SuffixModel], min_sites: usize) -> usize {
    if min_sites < 2 || models.len() < min_sites {
        return 0;
    }
    let mut sites: HashMap<String, usize> = HashMap::new();
    for m in models.iter() {
        let unique: std::collections::HashSet<&str> =
            m.expressions.iter().map(|e| e.regex.as_str()).collect();
        for r in unique {
            *sites.entry(r.to_string()).or_default() += 1;
        }
    }
    let mut dropped = 0;
    for m in models.iter_mut() {
        let before = m.expressions.len();
        m.expressions
            .retain(|e| sites.get(&e.regex).copied().unwrap_or(0) < min_sites);
        let d = before - m.expressions.len();
        m.dropped_cross_site += d as u32;
        dropped += d;
    }
    dropped
}

/// The default cross-site threshold: a string in at least half of the sites, and at least
/// three, is the language's, not a site's.
pub fn default_min_sites(sites: usize) -> usize {
    sites.div_ceil(2).max(3)
}

/// A model ready to clean: its expressions compiled.
#[derive(Debug)]
pub struct CompiledSuffix {
    model: SuffixModel,
    cleaner: Cleaner,
}

impl CompiledSuffix {
    /// Compiles a model's expressions.
    pub fn new(model: SuffixModel) -> Result<CompiledSuffix, SuffixError> {
        let regexes: Vec<&str> = model.expressions.iter().map(|e| e.regex.as_str()).collect();
        let cleaner = Cleaner::new(&regexes).map_err(SuffixError::Config)?;
        Ok(CompiledSuffix { model, cleaner })
    }

    /// The model.
    pub fn model(&self) -> &SuffixModel {
        &self.model
    }

    /// The intervals of `text` to remove.
    pub fn intervals(&self, text: &str) -> Vec<Range<usize>> {
        self.cleaner
            .intervals(text, self.model.clean.merge_gap as usize)
    }

    /// `text` without its template intervals (the raw view's output).
    pub fn clean_text(&self, text: &str) -> String {
        self.cleaner
            .clean(text, self.model.clean.merge_gap as usize)
    }

    /// Labels a page from the matches on its visible-text view.
    pub fn label_view(&self, doc: &Document, view: &TextView) -> Labels {
        let intervals = self.intervals(view.text());
        labels_from_intervals(doc, view, &intervals, self.model.clean.node_coverage)
    }
}

impl Labeler for CompiledSuffix {
    /// In the text view, labels from the view's matches. A raw-view model cannot map its
    /// intervals to nodes (html5ever gives no byte offsets); callers clean the source with
    /// [`CompiledSuffix::clean_text`] instead, and get all-content labels here.
    fn label(&self, page: &PageInput<'_>) -> Labels {
        match self.model.view {
            View::Text => self.label_view(page.doc, page.view),
            View::Raw => Labels::all_content(page.doc.len()),
        }
    }
}

/// The suffix method as a [`SiteMethod`].
#[derive(Clone, Debug, Default)]
pub struct SuffixMethod {
    /// Its configuration.
    pub config: SuffixConfig,
}

impl SiteMethod for SuffixMethod {
    type Model = CompiledSuffix;
    type Error = SuffixError;

    fn learn(&self, pages: &[PageInput<'_>]) -> Result<CompiledSuffix, SuffixError> {
        let docs: Vec<&str> = pages
            .iter()
            .map(|p| match self.config.view {
                View::Text => p.view.text(),
                View::Raw => p.source,
            })
            .collect();
        CompiledSuffix::new(learn(&docs, &self.config)?)
    }
}

fn is_word_byte(b: u8) -> bool {
    !b.is_ascii_whitespace()
}

/// Maps removal intervals on a page's text view to labels.
///
/// A text node is template when matches cover all of its visible text (or all but
/// whitespace and punctuation); it keeps its text minus the covered ranges when they cover
/// at least `node_coverage` of it; otherwise the matches inside it are ignored. An element is
/// template when it has visible text and all of it is in template text nodes; an element
/// without visible text follows its parent.
pub fn labels_from_intervals(
    doc: &Document,
    view: &TextView,
    intervals: &[Range<usize>],
    node_coverage: f32,
) -> Labels {
    let n = doc.len();
    let mut labels = Labels::all_content(n);
    let text = view.text().as_bytes();
    // Per node: (visible chars, template chars) summed over the subtree.
    let mut chars = vec![(0u32, 0u32); n];
    let mut next = 0usize;
    for seg in view.segments() {
        let r = seg.range();
        while next < intervals.len() && intervals[next].end <= r.start {
            next += 1;
        }
        let mut covered: Vec<Range<u32>> = Vec::new();
        let mut k = next;
        while k < intervals.len() && intervals[k].start < r.end {
            let s = intervals[k].start.max(r.start);
            let e = intervals[k].end.min(r.end);
            if s < e {
                covered.push((s - r.start) as u32..(e - r.start) as u32);
            }
            k += 1;
        }
        let total = text[r.clone()].iter().filter(|&&b| is_word_byte(b)).count() as u32;
        let mut cov = 0u32;
        let mut uncovered_alnum = false;
        let mut pos = r.start;
        for c in &covered {
            let (cs, ce) = (r.start + c.start as usize, r.start + c.end as usize);
            uncovered_alnum |= text[pos..cs].iter().any(u8::is_ascii_alphanumeric)
                || has_non_ascii_letter(&view.text()[pos..cs]);
            cov += text[cs..ce].iter().filter(|&&b| is_word_byte(b)).count() as u32;
            pos = ce;
        }
        uncovered_alnum |= text[pos..r.end].iter().any(u8::is_ascii_alphanumeric)
            || has_non_ascii_letter(&view.text()[pos..r.end]);
        let share = if total == 0 {
            0.0
        } else {
            cov as f32 / total as f32
        };
        let node = seg.node;
        if !covered.is_empty() && !uncovered_alnum {
            labels.set(node, 1.0, Role::Template);
            chars[node.index()] = (total, total);
        } else if !covered.is_empty() && share >= node_coverage {
            labels.set(node, share, Role::Content);
            labels.set_partial(node, covered);
            chars[node.index()] = (total, cov);
        } else {
            labels.set(node, share, Role::Content);
            chars[node.index()] = (total, 0);
        }
    }
    // Bottom-up sums (children have larger ids than their parents).
    for i in (1..n).rev() {
        if let Some(p) = doc.parent(NodeId(i as u32)) {
            let (a, b) = chars[i];
            chars[p.index()].0 += a;
            chars[p.index()].1 += b;
        }
    }
    // Elements: template if all their visible text is template; without text, as parent.
    for id in doc.ids().skip(1) {
        let (total, tmpl) = chars[id.index()];
        match doc.kind(id) {
            NodeKind::Element if total > 0 => {
                let score = tmpl as f32 / total as f32;
                let role = if tmpl == total {
                    Role::Template
                } else {
                    Role::Content
                };
                labels.set(id, score, role);
            }
            NodeKind::Text if total > 0 => {}
            _ => {
                if let Some(p) = doc.parent(id) {
                    labels.set(id, labels.score(p), labels.role(p));
                }
            }
        }
    }
    labels
}

fn has_non_ascii_letter(s: &str) -> bool {
    !s.is_ascii() && s.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!(
            "<html><body><div id=top><a href=/>Home</a> <a href=/news>News</a> <a href=/sport>Sport</a> \
             <a href=/weather>Weather</a></div><p>Published on Tuesday, 27th February 2007</p>\
             <div class=story>{body}</div><div id=foot>Copyright 2007 The Example Times. All rights reserved.</div></body></html>"
        )
    }

    const STORIES: [&str; 6] = [
        "<p>The council voted on Monday to close the old bridge for repairs.</p>",
        "<p>Heavy rain flooded the market square and several shops closed early.</p>",
        "<p>A local choir won the regional contest with a hymn nobody had heard.</p>",
        "<p>Scientists counted more herons on the river than in any year before.</p>",
        "<p>The museum reopened its east wing after a decade of slow restoration.</p>",
        "<p>Volunteers planted four hundred trees along the northern ring road.</p>",
    ];

    fn docs() -> Vec<(Document, TextView)> {
        STORIES
            .iter()
            .map(|s| {
                let d = chaff_dom::parse(page(s).as_bytes()).unwrap();
                let v = TextView::new(&d);
                (d, v)
            })
            .collect()
    }

    #[test]
    fn learns_the_template_and_keeps_the_stories() {
        let pages = docs();
        let texts: Vec<&str> = pages.iter().map(|(_, v)| v.text()).collect();
        let model = learn(&texts, &SuffixConfig::default()).unwrap();
        assert!(!model.expressions.is_empty());
        let compiled = CompiledSuffix::new(model).unwrap();
        for ((doc, view), story) in pages.iter().zip(STORIES) {
            let labels = compiled.label_view(doc, view);
            let kept = TextView::filtered(doc, NodeId::ROOT, &mut |id| !labels.is_removed(id));
            let story_text = chaff_dom::TextView::new(&chaff_dom::parse(story.as_bytes()).unwrap())
                .text()
                .to_string();
            assert_eq!(kept.text(), story_text);
        }
    }

    #[test]
    fn one_page_is_an_error() {
        assert!(matches!(
            learn(&["just one"], &SuffixConfig::default()),
            Err(SuffixError::TooFewDocuments(1))
        ));
    }

    #[test]
    fn cross_site_filter_drops_shared_strings() {
        let mk = |regexes: &[&str]| SuffixModel {
            view: View::Text,
            tokenizer: TokenizerSpec::default(),
            mutable: vec![],
            mining: MiningParams::default(),
            clean: CleanParams::default(),
            documents: 2,
            tokens: 0,
            candidates: 0,
            histogram: Histogram {
                counts: vec![],
                documents: 2,
                cutoff: 0,
                centres: (0, 0),
            },
            dropped_cross_site: 0,
            expressions: regexes
                .iter()
                .map(|r| Expression {
                    regex: r.to_string(),
                    text: r.to_string(),
                    tokens: 2,
                    docs: 2,
                    occurrences: 2,
                })
                .collect(),
        };
        let (mut a, mut b, mut c) = (
            mk(&["x", "as much as"]),
            mk(&["y", "as much as"]),
            mk(&["z", "as much as", "y"]),
        );
        let dropped = cross_site_filter(&mut [&mut a, &mut b, &mut c], 3);
        assert_eq!(dropped, 3);
        assert_eq!(a.expressions.len(), 1);
        assert_eq!(
            c.expressions
                .iter()
                .map(|e| e.regex.as_str())
                .collect::<Vec<_>>(),
            ["z", "y"]
        );
        assert_eq!(default_min_sites(4), 3);
        assert_eq!(default_min_sites(36), 18);
    }
}
