//! The learned model (what goes into a site profile), learning, cross-site filtering, and
//! turning cleaning intervals into per-node labels.

use std::collections::HashMap;
use std::ops::Range;

use chaff_core::{
    Evidence, Labels, Meaning, Method, MethodError, Needs, PageInput, Role, Scope, Verdict,
};
use chaff_dom::{Document, NodeId, NodeKind, TextView};
use serde::{Deserialize, Serialize};

use crate::SuffixError;
use crate::clean::{self, Cleaner};
use crate::cutoff::Histogram;
use crate::mine::{MiningParams, mine};
use crate::mutable::{self, MutablePattern, MutableSet, placeholder_index};
use crate::regexgen;
use crate::tokenmatch::{NotTokenMatchable, TokenMatcher};
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
///
/// The raw view applies the thesis's rule as it stands: intervals closer than `merge_gap`
/// characters are merged. The visible-text view knows where its lines (the page's blocks) and
/// links are, and applies the thesis's two future-work locality heuristics with them:
/// * "a few characters removed in the middle of a clean chunk of text are probably a false
///   positive": a line whose characters are covered by matches to less than `line_coverage`
///   keeps its text whole (an idiom such as "as much as" inside a paragraph);
/// * "a little chunk of good text in between two large templated strings is probably part of
///   the template too": after that decision, a run of kept text between two removed text nodes
///   is removed when it is shorter than `merge_gap` characters, or when it is all link text
///   and shorter than `link_gap` (a list of varying headlines between template headings).
///
/// Two more rules use the page's own text:
/// * a *template echo* is template: a partly covered line whose uncovered part is another line
///   of the page, or which contains the page's headline with little else (`Home > World >
///   <headline>`, `Filed under <a menu section>`), and a repeated line left alone in a list
///   whose other items are template (a breadcrumb's last item);
/// * the page's own headline — its `<title>` (or a part of it between separators) in a
///   heading, else the first such line outside links and lists, else the first `<h1>` line —
///   is never removed, however many other pages list it.
///
/// Merging after the line decision, rather than on the raw intervals, matters: merged raw
/// intervals chain through the idiom matches inside a page's article and delete it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CleanParams {
    /// Removals separated by fewer characters than this are merged.
    pub merge_gap: u32,
    /// Text view: kept runs of link text between removals shorter than this are removed.
    #[serde(default)]
    pub link_gap: u32,
    /// Text view: a line keeps its text whole when matches cover less than this share of it.
    pub line_coverage: f32,
    /// Text view: apply the locality rules (line coverage, gap merging after the line
    /// decision, template echoes, the page's own headline). Off, every match is removed and
    /// intervals are merged across `merge_gap` as in the raw view: the method as printed.
    #[serde(default = "yes")]
    pub locality: bool,
    /// Match the expressions as regexes on the text, as the thesis does, rather than their
    /// strings on the page's tokens ([`crate::tokenmatch`], which says where the two differ).
    #[serde(default, skip_serializing_if = "is_false")]
    pub regex_matching: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn yes() -> bool {
    true
}

impl CleanParams {
    /// The defaults for a view (see [`CleanParams`]; chosen by measurement, see the crate docs).
    pub fn for_view(view: View) -> CleanParams {
        match view {
            View::Text => CleanParams {
                merge_gap: 60,
                link_gap: 1000,
                line_coverage: 0.5,
                locality: true,
                regex_matching: false,
            },
            View::Raw => CleanParams {
                merge_gap: 0,
                link_gap: 0,
                line_coverage: 0.0,
                locality: false,
                regex_matching: false,
            },
        }
    }
}

impl Default for CleanParams {
    fn default() -> Self {
        CleanParams::for_view(View::Text)
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

impl SuffixConfig {
    /// The defaults for a view.
    pub fn for_view(view: View) -> SuffixConfig {
        SuffixConfig {
            view,
            clean: CleanParams::for_view(view),
            ..SuffixConfig::default()
        }
    }
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
    // The visible-text view keeps its lines (the page's blocks) as tokens.
    let spec = config
        .tokenizer
        .clone()
        .with_lines(config.view == View::Text);
    let tokenizer = spec.compile().map_err(SuffixError::Config)?;
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
            let regex = regexgen::expression(toks.clone(), &patterns, &spec);
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
        tokenizer: spec,
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
/// the models of at least `min_sites` sites — recurrent phrasing of the language rather than
/// any site's template. `site_of[i]` numbers the site of `models[i]` (a site learned as
/// several templates has several models, and one vote). Returns how many expressions were
/// dropped in total.
pub fn cross_site_filter(
    models: &mut [&mut SuffixModel],
    site_of: &[usize],
    min_sites: usize,
) -> usize {
    if min_sites < 2 {
        return 0;
    }
    let mut pairs: std::collections::HashSet<(&str, usize)> = std::collections::HashSet::new();
    for (m, s) in models.iter().zip(site_of) {
        for e in &m.expressions {
            pairs.insert((e.regex.as_str(), *s));
        }
    }
    let mut sites: HashMap<String, usize> = HashMap::new();
    for (r, _) in pairs {
        *sites.entry(r.to_string()).or_default() += 1;
    }
    if sites.values().all(|&n| n < min_sites) {
        return 0;
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
    matcher: Matcher,
}

/// How a compiled model finds its matches.
#[derive(Debug)]
enum Matcher {
    /// The mined strings on the page's tokens (the default where the model allows it).
    Tokens(Box<TokenMatcher>),
    /// The expressions as regexes on the text; with why the strings could not be matched
    /// on tokens, where the model did not ask for regexes ([`CompiledSuffix::regex_fallback`]).
    Regex(Box<Cleaner>, Option<NotTokenMatchable>),
}

impl CompiledSuffix {
    /// Compiles a model: its strings for matching on tokens where it can be
    /// ([`TokenMatcher::new`] says when) and [`CleanParams::regex_matching`] is off, else its
    /// expressions as regexes.
    pub fn new(model: SuffixModel) -> Result<CompiledSuffix, SuffixError> {
        let fallback = if model.clean.regex_matching {
            None
        } else {
            match TokenMatcher::new(&model) {
                Ok(t) => {
                    return Ok(CompiledSuffix {
                        model,
                        matcher: Matcher::Tokens(Box::new(t)),
                    });
                }
                Err(why) => Some(why),
            }
        };
        let regexes: Vec<&str> = model.expressions.iter().map(|e| e.regex.as_str()).collect();
        let cleaner = Cleaner::new(&regexes).map_err(SuffixError::Config)?;
        Ok(CompiledSuffix {
            model,
            matcher: Matcher::Regex(Box::new(cleaner), fallback),
        })
    }

    /// Why the model's strings are matched as regexes although it did not ask for them
    /// ([`CleanParams::regex_matching`]): a profile the tokens cannot read back (another
    /// tokeniser, an expression edited by hand, past the limits). `None` when matching runs
    /// on tokens or the model asked for regexes.
    pub fn regex_fallback(&self) -> Option<&str> {
        match &self.matcher {
            Matcher::Regex(_, Some(why)) => Some(why.0.as_str()),
            _ => None,
        }
    }

    /// The model.
    pub fn model(&self) -> &SuffixModel {
        &self.model
    }

    /// Whether matching runs on tokens ([`crate::tokenmatch`]) rather than regexes.
    pub fn matches_tokens(&self) -> bool {
        matches!(self.matcher, Matcher::Tokens(_))
    }

    /// The intervals of `text` to remove.
    pub fn intervals(&self, text: &str) -> Vec<Range<usize>> {
        clean::merge_gaps(
            text,
            self.matches(text),
            self.model.clean.merge_gap as usize,
        )
    }

    /// All match intervals of `text`, unioned but not merged.
    pub fn matches(&self, text: &str) -> Vec<Range<usize>> {
        match &self.matcher {
            Matcher::Tokens(t) => t.matches(text),
            Matcher::Regex(c, _) => c.matches(text),
        }
    }

    /// `text` without its template intervals (the raw view's output).
    pub fn clean_text(&self, text: &str) -> String {
        clean::remove(text, &self.intervals(text))
    }

    /// Labels a page from the matches on its visible-text view.
    pub fn label_view(&self, doc: &Document, view: &TextView) -> Labels {
        let clean = &self.model.clean;
        if clean.locality {
            labels_from_intervals(doc, view, &self.matches(view.text()), clean)
        } else {
            plain_labels(doc, view, &self.intervals(view.text()))
        }
    }
}

/// The suffix method behind chaff's method seam. Its evidence is the share of each node's
/// text the site's expressions matched ([`Meaning::Share`]).
///
/// A raw-view model (mined from the markup-blind source, as in the thesis) removes intervals
/// of the decoded source. They are mapped onto the page's own nodes through the parser's
/// source spans ([`raw_labels`]) instead of cleaning the source and parsing it again, so the
/// evidence refers to the same tree as every other method's. Where a text node's source is
/// not its text (character references, collapsed whitespace) the cut cannot be placed
/// exactly, and the node goes when more than half of its source is removed, where cleaning
/// the string would cut it at the interval's edge. Measured on CleanPortalEval (raw-view
/// profile per portal, `chaff learn --view raw` then extraction, scored by the shared
/// `score.py`): 4-gram F1 0.723 (P 0.643, R 0.827) against 0.176 (P 0.233, R 0.141) for
/// cleaning the source and parsing the rest again, which cuts tags apart and loses the text
/// they held (52,916 words kept against 23,485).
#[derive(Clone, Debug, Default)]
pub struct SuffixMethod {
    /// Its configuration.
    pub config: SuffixConfig,
    /// Cross-site filtering when several sites are learned together: expressions found in at
    /// least this many sites' templates are dropped. `None`: [`default_min_sites`] of the
    /// number of sites; below 2: off.
    pub cross_site_min: Option<usize>,
}

impl Method for SuffixMethod {
    type PageData = String;
    type Model = SuffixModel;
    type Compiled = CompiledSuffix;

    fn name(&self) -> &'static str {
        "suffix"
    }

    fn scope(&self) -> Scope {
        Scope::Site
    }

    fn needs(&self) -> Needs {
        Needs {
            source: self.config.view == View::Raw,
        }
    }

    fn compiled_needs(&self, compiled: &CompiledSuffix) -> Needs {
        Needs {
            source: compiled.model.view == View::Raw,
        }
    }

    fn compiled_notes(&self, compiled: &CompiledSuffix) -> Vec<String> {
        compiled
            .regex_fallback()
            .map(|why| {
                format!("its expressions are matched as regexes, more slowly than on tokens: {why}")
            })
            .into_iter()
            .collect()
    }

    /// The page's string in the configured view (the raw view reads the decoded source,
    /// present when the caller honours [`Method::needs`]; an empty string otherwise).
    fn page_data(&self, page: &PageInput<'_>) -> String {
        match self.config.view {
            View::Text => page.view.text().to_string(),
            View::Raw => page.source.unwrap_or("").to_string(),
        }
    }

    fn learn(&self, pages: Vec<String>) -> Result<SuffixModel, MethodError> {
        let docs: Vec<&str> = pages.iter().map(String::as_str).collect();
        learn(&docs, &self.config).map_err(MethodError::new)
    }

    fn refine_across_sites(&self, models: &mut [&mut SuffixModel], site_of: &[usize]) -> usize {
        let sites = site_of
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len();
        let min_sites = self
            .cross_site_min
            .unwrap_or_else(|| default_min_sites(sites));
        if min_sites < 2 {
            return 0;
        }
        cross_site_filter(models, site_of, min_sites)
    }

    fn compile(&self, model: Option<SuffixModel>) -> Result<CompiledSuffix, MethodError> {
        let model = model.ok_or_else(|| MethodError::new("the suffix method needs a model"))?;
        CompiledSuffix::new(model).map_err(MethodError::new)
    }

    fn evidence(&self, compiled: &CompiledSuffix, page: &PageInput<'_>) -> Verdict {
        let labels = match compiled.model.view {
            View::Text => compiled.label_view(page.doc, page.view),
            View::Raw => match page.source {
                Some(source) if page.doc.has_spans() => {
                    raw_labels(page.doc, page.view, source, &compiled.intervals(source))
                }
                Some(_) => {
                    return Verdict::Abstain(
                        "a raw-view model needs source spans, which this parse did not record"
                            .into(),
                    );
                }
                None => return Verdict::Abstain("a raw-view model needs the page source".into()),
            },
        };
        Verdict::Evidence(Evidence::new(labels, Meaning::Share))
    }
}

/// Maps intervals removed from the decoded source onto the page's nodes. A text node whose
/// source is its text byte for byte (no character references) and whose visible text is that
/// text trimmed at most (whitespace kept, as in `<pre>` and plain-text pages, or a single
/// line) loses exactly the removed ranges, and goes when no word
/// character is left; any other text node goes when more than half of its source span is
/// removed (its score is the removed share). An element goes when all its visible text does.
/// See [`SuffixMethod`].
pub fn raw_labels(
    doc: &Document,
    view: &TextView,
    source: &str,
    intervals: &[Range<usize>],
) -> Labels {
    let mut labels = Labels::all_content(doc.len());
    for seg in view.segments() {
        let Some(span) = doc.span(seg.node).filter(|s| !s.is_empty()) else {
            continue;
        };
        let first = intervals.partition_point(|r| r.end <= span.start);
        let inside: Vec<Range<usize>> = intervals[first..]
            .iter()
            .take_while(|r| r.start < span.end)
            .map(|r| r.start.max(span.start)..r.end.min(span.end))
            .collect();
        let removed: usize = inside.iter().map(|r| r.len()).sum();
        if removed == 0 {
            continue;
        }
        let share = removed as f32 / span.len() as f32;
        let text = &view.text()[seg.range()];
        // Where the visible text starts in the node's source, when the source is the node's
        // text byte for byte and the view only trimmed it.
        let node_text = doc.text(seg.node);
        let offset = (source.get(span.clone()) == Some(node_text))
            .then(|| node_text.find(text))
            .flatten();
        if let Some(offset) = offset {
            let start = span.start + offset;
            let cuts: Vec<Range<u32>> = inside
                .iter()
                .map(|r| {
                    let a = r.start.clamp(start, start + text.len()) - start;
                    let b = r.end.clamp(start, start + text.len()) - start;
                    a as u32..b as u32
                })
                .filter(|r| r.start < r.end)
                .collect();
            let mut kept = text.to_string();
            for c in cuts.iter().rev() {
                kept.replace_range(c.start as usize..c.end as usize, "");
            }
            if has_word_char(&kept) {
                labels.set(seg.node, share, Role::Content);
                labels.set_partial(seg.node, cuts);
            } else {
                labels.set(seg.node, share, Role::Template);
            }
        } else if share > 0.5 {
            labels.set(seg.node, share, Role::Template);
        } else {
            labels.set(seg.node, share, Role::Content);
        }
    }
    elements_from_text(doc, view, &mut labels);
    labels
}

/// Maps intervals to labels without locality rules: a text node is template when the
/// intervals cover all its word characters, and otherwise loses the covered ranges.
pub fn plain_labels(doc: &Document, view: &TextView, intervals: &[Range<usize>]) -> Labels {
    let text = view.text();
    let mut labels = Labels::all_content(doc.len());
    let mut first = 0usize;
    for seg in view.segments() {
        let r = seg.range();
        while first < intervals.len() && intervals[first].end <= r.start {
            first += 1;
        }
        let mut covered = Vec::new();
        let mut k = first;
        while k < intervals.len() && intervals[k].start < r.end {
            let (a, b) = (intervals[k].start.max(r.start), intervals[k].end.min(r.end));
            if a < b {
                covered.push((a - r.start) as u32..(b - r.start) as u32);
            }
            k += 1;
        }
        if covered.is_empty() {
            continue;
        }
        let s = &text[r.clone()];
        let mut pos = 0usize;
        let mut uncovered = false;
        for c in &covered {
            uncovered |= has_word_char(&s[pos..c.start as usize]);
            pos = c.end as usize;
        }
        uncovered |= has_word_char(&s[pos..]);
        if uncovered {
            labels.set_partial(seg.node, covered);
        } else {
            labels.set(seg.node, 1.0, Role::Template);
        }
    }
    elements_from_text(doc, view, &mut labels);
    labels
}

/// Maps match intervals on a page's text view to labels, applying the line and gap rules of
/// [`CleanParams`]. An element is template when it has visible text and all of it is in
/// template text nodes; an element without visible text follows its parent.
pub fn labels_from_intervals(
    doc: &Document,
    view: &TextView,
    intervals: &[Range<usize>],
    params: &CleanParams,
) -> Labels {
    let text = view.text();
    let segs = view.segments();
    let mut labels = Labels::all_content(doc.len());

    // Covered byte ranges of every segment, relative to the segment.
    let mut covered: Vec<Vec<Range<u32>>> = vec![Vec::new(); segs.len()];
    let mut first = 0usize;
    for (si, seg) in segs.iter().enumerate() {
        let r = seg.range();
        while first < intervals.len() && intervals[first].end <= r.start {
            first += 1;
        }
        let mut k = first;
        while k < intervals.len() && intervals[k].start < r.end {
            let (a, b) = (intervals[k].start.max(r.start), intervals[k].end.min(r.end));
            if a < b {
                covered[si].push((a - r.start) as u32..(b - r.start) as u32);
            }
            k += 1;
        }
    }

    // Lines of the page: runs of segments with no line break between them.
    let mut lines: Vec<Range<usize>> = Vec::new();
    let mut start = 0usize;
    while start < segs.len() {
        let mut end = start + 1;
        while end < segs.len()
            && !text[segs[end - 1].end as usize..segs[end].start as usize].contains('\n')
        {
            end += 1;
        }
        lines.push(start..end);
        start = end;
    }
    let line_text =
        |l: &Range<usize>| &text[segs[l.start].start as usize..segs[l.end - 1].end as usize];
    let page_lines: Vec<&str> = lines.iter().map(line_text).collect();
    // Built once per page: the echo rules below compare lines with each other.
    let norm_lines: Vec<std::borrow::Cow<'_, str>> =
        page_lines.iter().map(|l| normalize_line(l)).collect();
    let mut norm_counts: rustc_hash::FxHashMap<&str, u32> = rustc_hash::FxHashMap::default();
    for n in &norm_lines {
        *norm_counts.entry(n.as_ref()).or_default() += 1;
    }
    let mut line_counts: rustc_hash::FxHashMap<&str, u32> = rustc_hash::FxHashMap::default();
    for l in &page_lines {
        *line_counts.entry(l).or_default() += 1;
    }
    let title_parts = title_fragments(doc);
    let ctx = NodeContext::new(doc);
    // Headline-like lines of three words or more: the title, or lines in top headings. A
    // partly covered line containing one of them is a template echo (a breadcrumb).
    let headline_lines: Vec<(&str, memchr::memmem::Finder<'_>)> = lines
        .iter()
        .zip(&page_lines)
        .zip(&norm_lines)
        .filter(|((line, _), norm)| {
            norm.split(' ').count() >= 3
                && (title_parts.iter().any(|t| t == norm.as_ref())
                    || ctx.has(segs[line.start].node, NodeContext::TOP_HEADING))
        })
        .map(|((_, raw), _)| (*raw, memchr::memmem::Finder::new(raw.as_bytes())))
        .collect();
    let echo = EchoContext {
        norm_counts: &norm_counts,
        headline_lines: &headline_lines,
    };

    // Line decisions.
    let mut removed = vec![false; segs.len()];
    for line in &lines {
        let (start, end) = (line.start, line.end);
        let (mut total, mut cov, mut uncovered_word) = (0usize, 0usize, false);
        let mut segment_uncovered = vec![false; end - start];
        for si in start..end {
            let s = &text[segs[si].range()];
            total += non_space(s);
            let mut pos = 0usize;
            for c in &covered[si] {
                let (a, b) = (c.start as usize, c.end as usize);
                segment_uncovered[si - start] |= has_word_char(&s[pos..a]);
                cov += non_space(&s[a..b]);
                pos = b;
            }
            segment_uncovered[si - start] |= has_word_char(&s[pos..]);
            uncovered_word |= segment_uncovered[si - start];
        }
        let share = if total == 0 {
            0.0
        } else {
            cov as f32 / total as f32
        };
        if cov > 0
            && uncovered_word
            && share < params.line_coverage
            && echoes_page(line, segs, text, &covered, &echo)
        {
            // A template echo: the line's uncovered part is another line of this page (the
            // article's own headline after "Home > World >", a section after "Filed under").
            for si in start..end {
                labels.set(segs[si].node, 1.0, Role::Template);
                removed[si] = true;
            }
        } else if cov > 0 && (!uncovered_word || share >= params.line_coverage) {
            for si in start..end {
                if covered[si].is_empty() {
                    continue;
                }
                if segment_uncovered[si - start] {
                    labels.set(segs[si].node, share, Role::Content);
                    labels.set_partial(segs[si].node, std::mem::take(&mut covered[si]));
                } else {
                    labels.set(segs[si].node, 1.0, Role::Template);
                    removed[si] = true;
                }
            }
        } else {
            for seg in &segs[start..end] {
                labels.set(seg.node, share, Role::Content);
            }
        }
    }

    // Lines that are the page's own headline: its <title>, or a part of it between the usual
    // separators ("Headline | Site", "Site - Headline"), of three words or more.
    let is_title_line: Vec<bool> = {
        let mut v = vec![false; segs.len()];
        for (li, line) in lines.iter().enumerate() {
            let t = page_lines[li]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if title_parts.contains(&t) {
                v[line.clone()].iter_mut().for_each(|x| *x = true);
            }
        }
        v
    };

    // The page's own headline: the first title line in a heading, else the first title line
    // outside links and list items. It is never removed; its other copies (in breadcrumbs,
    // in lists of latest articles) are left to the rules.
    let headline: Option<usize> = {
        let candidates: Vec<usize> = (0..segs.len()).filter(|&i| is_title_line[i]).collect();
        candidates
            .iter()
            .copied()
            .find(|&i| ctx.has(segs[i].node, NodeContext::HEADING))
            .or_else(|| {
                candidates
                    .iter()
                    .copied()
                    .find(|&i| !ctx.has(segs[i].node, NodeContext::LINK | NodeContext::LIST_ITEM))
            })
            // No title to go by: the first line of the first <h1>.
            .or_else(|| {
                doc.find_tag("h1").and_then(|h| {
                    let under = chaff_dom::text::segments_under(segs, doc, h);
                    (!under.is_empty()).then_some(under.start)
                })
            })
    };

    // Segments that make up a whole line of at least three words repeated elsewhere on the page.
    let mut is_echo_line = vec![false; segs.len()];
    for (li, line) in lines.iter().enumerate() {
        let t = page_lines[li];
        if line.len() == 1
            && norm_lines[li].split(' ').count() >= 3
            && line_counts.get(t).copied().unwrap_or(0) >= 2
        {
            is_echo_line[line.start] = true;
        }
    }

    // Gap merging: kept runs between two removed segments.
    let merge_gap = params.merge_gap as usize;
    let link_gap = params.link_gap as usize;
    let mut i = 0usize;
    while i < segs.len() {
        if removed[i] {
            i += 1;
            continue;
        }
        let run = i;
        let (mut chars, mut words, mut link_words, mut echo_words, mut any_link) =
            (0usize, 0usize, 0usize, 0usize, false);
        let mut has_title = false;
        while i < segs.len() && !removed[i] {
            has_title |= is_title_line[i];
            let seg_text = &text[segs[i].range()];
            chars += seg_text.chars().count();
            // Word characters only: separators such as "»" or "|" neither help nor hurt.
            let w = seg_text.chars().filter(|c| c.is_alphanumeric()).count();
            words += w;
            if ctx.has(segs[i].node, NodeContext::LINK) {
                link_words += w;
                any_link = true;
            } else if is_echo_line[i] {
                echo_words += w;
            }
            i += 1;
        }
        // Among template links, a line repeating another line of the page (a breadcrumb's
        // last item, the current page's own headline) counts as link text; without any link
        // in the run it does not, which keeps the headline itself.
        let link_like = link_words + if any_link { echo_words } else { 0 };
        let links = words > 0 && link_like * 4 >= words * 3;
        // The page's own headline is never a "little chunk" between template strings.
        let bounded = run > 0 && i < segs.len() && !has_title;
        if bounded && (chars < merge_gap || (links && chars < link_gap)) {
            for seg in &segs[run..i] {
                labels.set(seg.node, 1.0, Role::Template);
                labels.set_partial(seg.node, Vec::new());
            }
        }
    }

    // An echo line left alone inside a container whose other text is all template (the
    // breadcrumb's last item) goes with its container.
    for (si, seg) in segs.iter().enumerate() {
        if !is_echo_line[si]
            || !ctx.has(seg.node, NodeContext::LIST_ITEM)
            || ctx.has(seg.node, NodeContext::HEADING)
            || removed[si]
            || labels.is_removed(seg.node)
        {
            continue;
        }
        if alone_in_template_container(doc, segs, &labels, si) {
            labels.set(seg.node, 1.0, Role::Template);
            labels.set_partial(seg.node, Vec::new());
        }
    }

    if let Some(h) = headline {
        let line = lines
            .iter()
            .find(|l| l.contains(&h))
            .cloned()
            .unwrap_or(h..h + 1);
        for seg in &segs[line] {
            labels.set(seg.node, 0.0, Role::Content);
            labels.set_partial(seg.node, Vec::new());
        }
    }

    elements_from_text(doc, view, &mut labels);
    labels
}

/// Word characters a template echo may leave unexplained (a section name in a breadcrumb).
const ECHO_SLACK: usize = 12;

/// Per-page lookups for [`echoes_page`].
struct EchoContext<'a> {
    /// Every line of the page, normalised, with its number of occurrences.
    norm_counts: &'a rustc_hash::FxHashMap<&'a str, u32>,
    /// The page's headline-like lines, with a substring finder for each.
    headline_lines: &'a [(&'a str, memchr::memmem::Finder<'a>)],
}

/// A line with whitespace collapsed and punctuation trimmed from both ends. Borrowed when the
/// line's whitespace is already collapsed, as the text view leaves it outside `<pre>`.
fn normalize_line(s: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = s.trim_matches(|c: char| !c.is_alphanumeric());
    let bytes = trimmed.as_bytes();
    let collapsed = !bytes.iter().any(|&b| b.is_ascii_whitespace() && b != b' ')
        && !bytes.windows(2).any(|w| w == b"  ");
    if collapsed {
        std::borrow::Cow::Borrowed(trimmed)
    } else {
        let words: Vec<&str> = s.split_whitespace().collect();
        std::borrow::Cow::Owned(
            words
                .join(" ")
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_string(),
        )
    }
}

/// Whether a partly covered line is a template echo of the page: its uncovered text is the
/// whole text of another line, or it contains one of the page's headline-like lines and
/// leaves at most [`ECHO_SLACK`] word characters outside that line and the matches.
fn echoes_page(
    line: &Range<usize>,
    segs: &[chaff_dom::Segment],
    text: &str,
    covered: &[Vec<Range<u32>>],
    echo: &EchoContext<'_>,
) -> bool {
    let line_start = segs[line.start].start as usize;
    let whole = &text[line_start..segs[line.end - 1].end as usize];
    // Covered byte ranges relative to the line.
    let mut cov: Vec<Range<usize>> = Vec::new();
    for si in line.clone() {
        let base = segs[si].start as usize - line_start;
        cov.extend(
            covered[si]
                .iter()
                .map(|c| base + c.start as usize..base + c.end as usize),
        );
    }
    let mut uncovered = String::new();
    let mut pos = 0;
    for c in &cov {
        uncovered.push_str(&whole[pos..c.start]);
        uncovered.push(' ');
        pos = c.end;
    }
    uncovered.push_str(&whole[pos..]);
    let rest = normalize_line(&uncovered).into_owned();
    if rest.is_empty() {
        return false;
    }
    // Another line of the page (not this one: when matches cover only punctuation at its
    // edges, the rest is the line itself).
    let others = echo.norm_counts.get(rest.as_str()).copied().unwrap_or(0);
    if others > u32::from(normalize_line(whole) == rest) {
        return true;
    }
    for (other, finder) in echo.headline_lines {
        if *other == whole {
            continue;
        }
        if let Some(at) = finder.find(whole.as_bytes()) {
            let inside = at..at + other.len();
            let left = whole
                .char_indices()
                .filter(|&(i, ch)| {
                    ch.is_alphanumeric()
                        && !inside.contains(&i)
                        && !cov.iter().any(|c| c.contains(&i))
                })
                .count();
            if left <= ECHO_SLACK {
                return true;
            }
        }
    }
    false
}

/// Whether segment `si`'s smallest enclosing element that holds other visible text holds
/// only removed text besides it.
fn alone_in_template_container(
    doc: &Document,
    segs: &[chaff_dom::Segment],
    labels: &Labels,
    si: usize,
) -> bool {
    let node = segs[si].node;
    for a in doc.ancestors(node) {
        let under = chaff_dom::text::segments_under(segs, doc, a);
        if under.len() < 2 {
            continue;
        }
        return under
            .filter(|&k| k != si)
            .all(|k| labels.is_removed(segs[k].node));
    }
    false
}

fn non_space(s: &str) -> usize {
    s.bytes().filter(|b| !b.is_ascii_whitespace()).count()
}

fn has_word_char(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_alphanumeric()) || has_non_ascii_letter(s)
}

/// Element labels from their text: template when all visible text in the subtree is removed;
/// an element without visible text follows its parent.
fn elements_from_text(doc: &Document, view: &TextView, labels: &mut Labels) {
    let segs = view.segments();
    let n = doc.len();
    let mut chars = vec![(0u32, 0u32); n];
    for seg in segs {
        let len = seg.end - seg.start;
        let gone = if labels.is_removed(seg.node) {
            len
        } else {
            labels
                .partial(seg.node)
                .map_or(0, |rs| rs.iter().map(|r| r.end - r.start).sum())
        };
        chars[seg.node.index()] = (len, gone);
    }
    for i in (1..n).rev() {
        if let Some(p) = doc.parent(NodeId(i as u32)) {
            let (a, b) = chars[i];
            chars[p.index()].0 += a;
            chars[p.index()].1 += b;
        }
    }
    for id in doc.ids().skip(1) {
        let (total, gone) = chars[id.index()];
        match doc.kind(id) {
            NodeKind::Element if total > 0 => {
                let role = if gone == total {
                    Role::Template
                } else {
                    Role::Content
                };
                labels.set(id, gone as f32 / total as f32, role);
            }
            NodeKind::Text if total > 0 => {}
            _ => {
                if let Some(p) = doc.parent(id) {
                    labels.set(id, labels.score(p), labels.role(p));
                }
            }
        }
    }
}

/// The page's title and its parts between common separators, of three words or more, with
/// whitespace collapsed.
fn title_fragments(doc: &Document) -> Vec<String> {
    let Some(title) = doc.title() else {
        return Vec::new();
    };
    let mut out = vec![title.clone()];
    for sep in [
        " | ", " - ", " – ", " — ", " :: ", " » ", " « ", " › ", " ‹ ", " · ", " • ", " / ", " ~ ",
        ": ",
    ] {
        for part in title.split(sep) {
            let part = part.trim();
            if part.split_whitespace().count() >= 3 && !out.iter().any(|o| o == part) {
                out.push(part.to_string());
            }
        }
    }
    // Compared with lines normalised the same way.
    let mut out: Vec<String> = out.iter().map(|f| normalize_line(f).into_owned()).collect();
    out.retain(|f| f.split(' ').count() >= 3);
    out.dedup();
    out
}

/// For every node, which kinds of element enclose it (itself included), computed in one
/// pre-order pass so the rules above never walk ancestors.
struct NodeContext(Vec<u8>);

impl NodeContext {
    const LINK: u8 = 1;
    /// Any of h1–h6.
    const HEADING: u8 = 2;
    /// h1–h3.
    const TOP_HEADING: u8 = 4;
    const LIST_ITEM: u8 = 8;

    fn new(doc: &Document) -> NodeContext {
        let mut flags = vec![0u8; doc.len()];
        for id in doc.ids().skip(1) {
            let inherited = doc.parent(id).map_or(0, |p| flags[p.index()]);
            let own = if doc.is_element(id) {
                match doc.tag(id) {
                    "a" => Self::LINK,
                    "h1" | "h2" | "h3" => Self::HEADING | Self::TOP_HEADING,
                    "h4" | "h5" | "h6" => Self::HEADING,
                    "li" => Self::LIST_ITEM,
                    _ => 0,
                }
            } else {
                0
            };
            flags[id.index()] = inherited | own;
        }
        NodeContext(flags)
    }

    fn has(&self, id: NodeId, any: u8) -> bool {
        self.0[id.index()] & any != 0
    }
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

    /// Labels of a page for hand-placed match intervals: every occurrence of the given
    /// strings in the view text.
    fn labels_for(
        html: &str,
        matched: &[&str],
        params: &CleanParams,
    ) -> (Document, TextView, Labels) {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let mut iv: Vec<Range<usize>> = Vec::new();
        for m in matched {
            let found: Vec<Range<usize>> = view
                .text()
                .match_indices(m)
                .map(|(at, _)| at..at + m.len())
                .collect();
            assert!(!found.is_empty(), "{m:?} not in {:?}", view.text());
            iv.extend(found);
        }
        let iv = crate::clean::union(iv);
        let labels = labels_from_intervals(&doc, &view, &iv, params);
        (doc, view, labels)
    }

    fn removed_texts(doc: &Document, view: &TextView, labels: &Labels) -> Vec<String> {
        view.segments()
            .iter()
            .filter(|s| labels.is_removed(s.node))
            .map(|s| view.text()[s.range()].to_string())
            .chain(doc.ids().filter_map(|id| {
                labels
                    .partial(id)
                    .map(|_| format!("~{}", doc.text(id).trim()))
            }))
            .collect()
    }

    #[test]
    fn an_idiom_inside_a_paragraph_is_kept() {
        let p = CleanParams::default();
        let html = "<p>Prices rose as much as ten percent in the first week of trading.</p><p>Home News</p>";
        let (d, v, l) = labels_for(html, &["as much as", "Home News"], &p);
        assert_eq!(removed_texts(&d, &v, &l), ["Home News"]);
        // With line coverage 0 every match goes, as the thesis prints it.
        let plain = CleanParams {
            line_coverage: 0.0,
            ..p
        };
        let (d, v, l) = labels_for(html, &["as much as"], &plain);
        assert_eq!(
            removed_texts(&d, &v, &l),
            ["~Prices rose as much as ten percent in the first week of trading."]
        );
    }

    #[test]
    fn short_kept_text_between_template_goes() {
        let p = CleanParams::default();
        // 11 characters between two removed lines: under the 60-character gap.
        let (d, v, l) = labels_for(
            "<p>Latest news</p><p>Sports desk</p><p>Newsletter signup</p>",
            &["Latest news", "Newsletter signup"],
            &p,
        );
        assert_eq!(removed_texts(&d, &v, &l).len(), 3);
        // A long paragraph between them stays.
        let long = "x ".repeat(60);
        let html = format!("<p>Latest news</p><p>{long}</p><p>Newsletter signup</p>");
        let (d, v, l) = labels_for(&html, &["Latest news", "Newsletter signup"], &p);
        assert_eq!(removed_texts(&d, &v, &l).len(), 2);
        // A long run of links between them goes (up to link_gap characters).
        let links: String = (0..8)
            .map(|i| format!("<li><a href=/{i}>A headline that varies from page {i}</a></li>"))
            .collect();
        let html = format!("<p>Latest news</p><ul>{links}</ul><p>Newsletter signup</p>");
        let (d, v, l) = labels_for(&html, &["Latest news", "Newsletter signup"], &p);
        assert_eq!(removed_texts(&d, &v, &l).len(), 10);
    }

    #[test]
    fn breadcrumb_echo_of_the_headline_goes_but_the_headline_stays() {
        let p = CleanParams::default();
        let html = "<title>Rain floods the market square | Daily</title><div>Home &gt; World &gt; Rain floods the market square</div>\
                    <h1>Rain floods the market square</h1><p>Shops closed early as the water rose in the old town.</p>";
        // Only the crumbs' start is template text; the headline is this page's own.
        let (d, v, l) = labels_for(html, &["Home > World >"], &p);
        let removed = removed_texts(&d, &v, &l);
        assert_eq!(
            removed,
            ["Home > World > Rain floods the market square"],
            "{removed:?}"
        );
        // The same match without the echo rule's evidence (no headline line) leaves the crumb.
        let no_h1 = html
            .replace("<h1>Rain floods the market square</h1>", "")
            .replace("<title>Rain floods the market square | Daily</title>", "");
        let (d, v, l) = labels_for(&no_h1, &["Home > World >"], &p);
        assert!(removed_texts(&d, &v, &l).is_empty());
        // And when the headline is matched everywhere (both copies here), the page's own stays
        // while its echo goes.
        let (d, v, l) = labels_for(
            html,
            &["Home > World >", "Rain floods the market square"],
            &p,
        );
        assert_eq!(
            removed_texts(&d, &v, &l),
            ["Home > World > Rain floods the market square"]
        );
        let h1 = d.find_tag("h1").unwrap();
        assert!(!l.is_removed(d.first_child(h1).unwrap()));
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
        let dropped = cross_site_filter(&mut [&mut a, &mut b, &mut c], &[0, 1, 2], 3);
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

    #[test]
    fn raw_view_removals_map_onto_the_pages_own_nodes() {
        let page = |story: &str| {
            format!(
                "<html><body><div id=nav><a href=/a>Home page</a> <a href=/b>World news</a></div>\
                 <p>{story}</p><p class=foot>Copyright Example &amp; Co, all rights</p></body></html>"
            )
        };
        let pages: Vec<String> = ["Rain fell on the plain today", "The sun came out at last"]
            .iter()
            .chain(&["Snow is expected tonight in the hills"])
            .map(|s| page(s))
            .collect();
        let method = SuffixMethod {
            config: SuffixConfig::for_view(View::Raw),
            cross_site_min: None,
        };
        assert!(method.needs().source);
        let model = Method::learn(&method, pages.clone()).unwrap();
        let compiled = method.compile(Some(model)).unwrap();
        assert!(method.compiled_needs(&compiled).source);
        let html = page("Wind and hail arrived unannounced");
        let doc = chaff_dom::parse_str(&html, &Default::default()).unwrap();
        let view = TextView::new(&doc);
        let input = PageInput {
            doc: &doc,
            view: &view,
            source: Some(&html),
            url: None,
        };
        let verdict = method.evidence(&compiled, &input);
        let labels = verdict.evidence().unwrap().labels();
        let kept: Vec<&str> = view
            .segments()
            .iter()
            .filter(|s| !labels.is_removed(s.node))
            .map(|s| view.text()[s.range()].trim())
            .collect();
        // The shared links and footer (with its entity) go, the story stays; of "World news"
        // only "World" goes, as cleaning the source string would cut it: the token of "news"
        // runs into the story's first word, which no other page shares.
        assert_eq!(
            kept,
            ["World news", "Wind and hail arrived unannounced"],
            "{kept:?}"
        );
        let world = view
            .segments()
            .iter()
            .find(|s| &view.text()[s.range()] == "World news")
            .unwrap();
        // "World" and the space after it (the expression ends in a separator).
        assert_eq!(
            labels.partial(world.node),
            Some(std::slice::from_ref(&(0..6)))
        );
        let home = doc
            .ids()
            .find(|&i| doc.attr(i, "href") == Some("/a"))
            .unwrap();
        assert!(labels.is_removed(home));
        // Without the source the raw model has no opinion.
        let blind = PageInput {
            source: None,
            ..input
        };
        assert!(method.evidence(&compiled, &blind).abstained().is_some());
    }
}
