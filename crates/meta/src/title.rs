//! The title chooser: every name the page gives itself is a candidate, described by cheap
//! facts, and a learned linear model picks one.
//!
//! Candidates: the headline the page shows (`<h1>`), and each title the page states (JSON-LD
//! `headline`, microdata, OpenGraph, Twitter, Dublin Core, `citation_title`, `<title>`) whole,
//! without the site's name, and cut at its separators (`A | B | Site`: each part, all but the
//! last, all but the first). Candidates equal after the scorer's normalisation (case, quotes,
//! dashes, spaces, punctuation at the ends) are one candidate with the facts of each. Facts:
//! where it came from and in what position, how many sources state it whole, whether it is the
//! site's name or holds it, its length in words, how many of its words the URL has, whether it
//! lies inside the `<title>` or `og:title` or holds the headline, what the hand-written rules
//! pick, and the source facts weighed by how likely the page is an article or a thread (from
//! the page-type classifier).
//!
//! The model is a conditional logit: a candidate's score is the dot product of its facts, and
//! of the products of every two of them ([`expand`]; a model may also weigh the facts alone),
//! with the weights; the best score wins (the first found on ties). It is fitted (see
//! [`TitleModel::fit`]) by gradient descent on the log-likelihood of the candidates that match
//! the gold title, pages with none left out. `chaff-lab train-title` fits it on wcxb-dev
//! (1,497 pages, 1,452 of them with a right candidate) and prints its domain-disjoint
//! cross-validated exact-title rate: 80.8% (1,210 pages) with the products, 80.0% on the facts
//! alone, against 76.2% for the hand-written rules counted the same way; through `chaff
//! extract` with fold models, `meta_eval.py --page-type-folds` scores 80.9% (76.3% before).
//! Refitted with the page type's and the metadata's later changes, the CV rate is 80.7%
//! (1,208) and `meta_eval.py` scores 80.8%; refitted again when the page-type classifier
//! gained headings in links, pronouns and the main text's share, 81.0% (1,212) and 81.0%;
//! refitted once more on the page types of the later bylines and dates, 81.0% (1,212), and
//! on those of forum threads whose opening post became their main text, 81.1% (1,214); on
//! those of the page-type classifier without its stock phrases, 80.7% (1,208), and
//! `meta_eval.py` 80.8% (81.2% before); on those of the page-type classifier that counts
//! the page's words on its visible text, 80.6% (1,207) and `meta_eval.py` 80.7%, and once
//! more when a page's cover stopped hiding it, 80.7% (1,208); and once more when the
//! headline became what a reader sees of the `<h1>` (no buttons, style sheets or hidden
//! parts) and the page types were refitted, 81.0% (1,213) and `meta_eval.py` 81.1%; with a
//! heading's permalink mark ("¶") left out of the headline and both models refitted, 81.1%
//! (1,214) and 81.1% (on the same fold models, before the title model's refit, one page
//! fewer: the gold title of wcxb-dev 0687 keeps the icon glyph, U+F0C1, its heading's
//! mark shows); and when the headline's text came from the visible-text view, so a line
//! break or a block inside the `<h1>` parts its words ("Data Analytics<br>Agency" was
//! "Data AnalyticsAgency"), 81.2% (1,216) and `meta_eval.py` 81.2% (exact or lenient, 84.6%);
//! and when UTF-8 read as Latin-1 was mended in markup's values and the page types were
//! refitted on them, 81.1% (1,214) and `meta_eval.py` 81.1% (84.4%); and when it was mended
//! in the headline and the title read from the `<title>` too, 81.2% (1,215) and
//! `meta_eval.py` 81.2% (84.5%); refitted on the page types of the content model refitted
//! on mended pages, 81.2% and 81.2% (84.4%); and on those of the next refit, once valid
//! UTF-8 overruled a declared legacy encoding (four wcxb-dev pages), 81.0% (1,213) and
//! `meta_eval.py` 81.0% (84.4%); and (2026-12-07) on those of the content model refitted once
//! two store pages whose main region a lockdown app hides came to be read
//! (`chaff_dom::text::is_main_cover`), 81.1% (1,214) and `meta_eval.py` 81.1% (84.4%).
//! The form of the model is not what holds it there: a tree ensemble over the same facts
//! (scikit-learn's histogram gradient boosting, each candidate scored alone, 200 trees of
//! depth 4; five folds by domain), run once on the candidates `train-title --candidates` writes,
//! chose the gold's title on 80.4% of pages, against the 97.0% (1,452) that have it among
//! their candidates.
//! The built-in model (`model/title.json`) is fitted on every page:
//! `chaff-lab train-title --out crates/meta/model/title.json --pairs --page-type-folds F`,
//! `F` the folder of `chaff-lab train-page-type --fold-models F`, so each page is typed in
//! training as it is by the classifier that did not see its domain.
//!
//! Nothing here walks the document: the facts are read off what the metadata reader has
//! gathered.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::{fold, is_site, site_names, strip_names};

/// Separators of the parts of a stated title, in the order they are tried.
const SEPARATORS: [&str; 9] = [
    " | ", " - ", " – ", " — ", " :: ", " · ", " • ", " / ", ": ",
];

/// The facts of a candidate, by name, in the order of [`TitleCandidate::facts`].
pub const FACTS: &[&str] = &[
    "headline",
    "headline_in_main",
    "title_whole",
    "title_without_site",
    "title_first_part",
    "title_last_part",
    "title_middle_part",
    "title_all_but_last",
    "title_all_but_first",
    "og_whole",
    "og_without_site",
    "og_part",
    "twitter",
    "jsonld",
    "microdata",
    "dublin_core_or_citation",
    "stated_whole_by",
    "is_site_name",
    "holds_site_name",
    "log_words",
    "one_word",
    "over_twelve_words",
    "url_words",
    "rules_pick",
    "inside_title",
    "inside_og",
    "holds_headline",
    "parts_of_title",
    "headline_x_article",
    "title_without_site_x_article",
    "title_first_part_x_article",
    "og_whole_x_article",
    "jsonld_x_article",
    "rules_pick_x_article",
    "title_whole_x_article",
    "first_h1",
    "first_h1_x_article",
    "stated_part",
    "title_part_at_colon",
    "title_part_at_dash",
    "title_part_at_bar",
    "part_by",
    "share_of_title",
];

const FORMAT: &str = "chaff-title-chooser";
const VERSION: u32 = 1;
const BUILTIN_JSON: &str = include_str!("../model/title.json");

/// A model file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("title model: {0}")]
pub struct TitleModelError(String);

/// The title chooser's weights, one per fact of [`FACTS`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TitleModel {
    format: String,
    version: u32,
    /// What it was fitted on.
    pub description: String,
    facts: Vec<String>,
    weights: Vec<f32>,
}

/// A title the page may have, with its facts.
#[derive(Clone, Debug, PartialEq)]
pub struct TitleCandidate {
    /// The text, as the page gives it.
    pub text: String,
    /// One value per name of [`FACTS`].
    pub facts: Vec<f32>,
    /// Where the first source that gave it is (for [`crate::Metadata::sources`]).
    pub(crate) source: crate::Source,
}

impl TitleModel {
    /// The built-in model (fitted on wcxb-dev by `chaff-lab train-title`).
    pub fn builtin() -> &'static TitleModel {
        static MODEL: OnceLock<TitleModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            TitleModel::from_json(BUILTIN_JSON)
                .expect("the built-in title model is checked by a test")
        })
    }

    /// Reads and checks a model file (at most 1 MiB).
    pub fn load(path: &std::path::Path) -> Result<TitleModel, TitleModelError> {
        const LIMIT: u64 = 1 << 20;
        let fail = |e: &dyn std::fmt::Display| TitleModelError(format!("{}: {e}", path.display()));
        let len = std::fs::metadata(path).map_err(|e| fail(&e))?.len();
        if len > LIMIT {
            return Err(fail(&format!(
                "{len} bytes, more than a model can be ({LIMIT})"
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| fail(&e))?;
        TitleModel::from_json(&text).map_err(|e| fail(&e.0))
    }

    /// A model from its JSON, checked.
    pub fn from_json(json: &str) -> Result<TitleModel, TitleModelError> {
        let m: TitleModel =
            serde_json::from_str(json).map_err(|e| TitleModelError(e.to_string()))?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(TitleModelError(format!(
                "made as {} v{}, expected {FORMAT} v{VERSION}",
                m.format, m.version
            )));
        }
        if m.facts.iter().map(String::as_str).ne(FACTS.iter().copied()) {
            return Err(TitleModelError(
                "its facts are not the ones this version reads".into(),
            ));
        }
        let lens = [FACTS.len(), expanded_len()];
        if !lens.contains(&m.weights.len()) || m.weights.iter().any(|w| !w.is_finite()) {
            return Err(TitleModelError(format!(
                "{} weights, expected {} or {} finite ones",
                m.weights.len(),
                lens[0],
                lens[1]
            )));
        }
        Ok(m)
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The model that picks what the hand-written rules pick.
    pub fn rules() -> TitleModel {
        let weights = FACTS
            .iter()
            .map(|f| if *f == "rules_pick" { 1.0 } else { 0.0 })
            .collect();
        TitleModel::with_weights("the hand-written rules".into(), weights)
    }

    fn with_weights(description: String, weights: Vec<f32>) -> TitleModel {
        TitleModel {
            format: FORMAT.into(),
            version: VERSION,
            description,
            facts: FACTS.iter().map(|f| f.to_string()).collect(),
            weights,
        }
    }

    /// A candidate's score: its facts, and with a model of pairs the products of every two
    /// of them ([`expand`]), weighed.
    pub fn score(&self, facts: &[f32]) -> f32 {
        if self.weights.len() == FACTS.len() {
            return self.weights.iter().zip(facts).map(|(w, x)| w * x).sum();
        }
        // Summed in `expand`'s order from -0.0, as `Iterator::sum` does, without the vector
        // (its growth was a third of choosing the title).
        let mut sum = -0.0f32;
        for_each_expanded(facts, |k, x| {
            sum += self.weights.get(k).map_or(0.0, |w| w * x);
        });
        sum
    }

    /// The index of the best of candidates given by their facts (the first of the best on
    /// ties), if there is one.
    pub fn best<'a>(&self, facts: impl IntoIterator<Item = &'a [f32]>) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, x) in facts.into_iter().enumerate() {
            let s = self.score(x);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Fits the weights to pages, each its candidates' facts and whether each matches the
    /// gold title: maximum conditional likelihood of the matching candidates (their summed
    /// probability under a softmax of the scores), with an L2 penalty of `l2` per weight;
    /// full-batch gradient descent with Adam steps, a fixed number of rounds, so the fit is
    /// deterministic. Pages with no matching candidate teach nothing and are left out.
    pub fn fit(
        pages: &[Vec<(Vec<f32>, bool)>],
        l2: f32,
        pairs: bool,
        description: String,
    ) -> TitleModel {
        let n = if pairs { expanded_len() } else { FACTS.len() };
        // Sparse rows: most facts, and most products of two, are zero.
        let pages: Vec<Vec<(Sparse, bool)>> = pages
            .iter()
            .filter(|p| p.iter().any(|(_, g)| *g) && p.iter().any(|(_, g)| !*g))
            .map(|p| {
                p.iter()
                    .map(|(x, g)| {
                        let row = if pairs {
                            expand(x)
                        } else {
                            x.iter()
                                .copied()
                                .enumerate()
                                .filter(|(_, v)| *v != 0.0)
                                .collect()
                        };
                        (row, *g)
                    })
                    .collect()
            })
            .collect();
        let mut w = vec![0f64; n];
        let (mut m1, mut m2) = (vec![0f64; n], vec![0f64; n]);
        let (b1, b2, rate) = (0.9f64, 0.999f64, 0.05f64);
        let count = pages.len().max(1) as f64;
        for round in 1..=ROUNDS {
            let mut grad: Vec<f64> = w.iter().map(|wi| 2.0 * f64::from(l2) * wi).collect();
            for page in &pages {
                let scores: Vec<f64> = page
                    .iter()
                    .map(|(x, _)| x.iter().map(|&(k, v)| f64::from(v) * w[k]).sum())
                    .collect();
                let top = scores.iter().copied().fold(f64::MIN, f64::max);
                let e: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
                let all: f64 = e.iter().sum();
                let gold: f64 = e
                    .iter()
                    .zip(page.iter())
                    .filter(|(_, c)| c.1)
                    .map(|(v, _)| v)
                    .sum();
                for ((x, g), ei) in page.iter().zip(&e) {
                    let p = ei / all;
                    let q = if *g { ei / gold } else { 0.0 };
                    for &(k, v) in x {
                        grad[k] += (p - q) * f64::from(v) / count;
                    }
                }
            }
            for k in 0..n {
                m1[k] = b1 * m1[k] + (1.0 - b1) * grad[k];
                m2[k] = b2 * m2[k] + (1.0 - b2) * grad[k] * grad[k];
                let h1 = m1[k] / (1.0 - b1.powi(round));
                let h2 = m2[k] / (1.0 - b2.powi(round));
                w[k] -= rate * h1 / (h2.sqrt() + 1e-8);
            }
        }
        TitleModel::with_weights(description, w.iter().map(|v| *v as f32).collect())
    }
}

/// A candidate's non-zero values by index.
type Sparse = Vec<(usize, f32)>;

/// Rounds of gradient descent in [`TitleModel::fit`].
const ROUNDS: i32 = 1500;

/// How many values [`expand`] gives at most: the facts and the products of every two.
fn expanded_len() -> usize {
    let n = FACTS.len();
    n + n * (n - 1) / 2
}

/// The non-zero values of a candidate's facts followed by the products of every two of
/// them, by index (fact `i` at `i`; the product of `i < j` after all facts, pairs of `i`
/// before those of `i + 1`).
pub fn expand(facts: &[f32]) -> Vec<(usize, f32)> {
    let mut out = Vec::new();
    for_each_expanded(facts, |k, x| out.push((k, x)));
    out
}

/// Calls `f` with each of [`expand`]'s values, in its order, without gathering them.
fn for_each_expanded(facts: &[f32], mut f: impl FnMut(usize, f32)) {
    let n = FACTS.len();
    let mut nz = [(0usize, 0f32); FACTS.len()];
    let mut len = 0;
    for (i, &v) in facts.iter().enumerate().take(n) {
        if v != 0.0 {
            nz[len] = (i, v);
            len += 1;
        }
    }
    let nz = &nz[..len];
    for &(i, x) in nz {
        f(i, x);
    }
    for (a, &(i, x)) in nz.iter().enumerate() {
        // Pairs (i, j) for j > i start at n + i*n - i*(i+1)/2.
        let base = n + i * n - i * (i + 1) / 2;
        for &(j, y) in &nz[a + 1..] {
            f(base + (j - i - 1), x * y);
        }
    }
}

/// What the title is chosen from, as the metadata reader gathered it.
pub(crate) struct TitleInputs<'a> {
    /// The headline the page shows, and whether it is inside `<article>` or `<main>`.
    pub headline: Option<(String, bool)>,
    /// The page's first `<h1>`, whichever it is.
    pub first_h1: Option<String>,
    /// Titles stated in markup, best source first.
    pub stated: Vec<(crate::Source, &'a str)>,
    /// The `<title>`.
    pub page_title: Option<&'a str>,
    pub site_name: Option<&'a str>,
    pub url: Option<&'a str>,
    /// The page-type probabilities (in [`crate::PageType::ALL`]'s order).
    pub page_types: [f32; 7],
}

/// The text candidates are compared on: as WCXB's scorer normalises titles (case, typographic
/// quotes and dashes, runs of spaces, punctuation at either end).
pub fn title_key(s: &str) -> String {
    // One pass into one string: folded, lower-cased, blanks collapsed to one space, none
    // at the start; the punctuation at either end is cut off after. (Mapping, splitting,
    // joining and trimming into four strings was a twentieth of reading the metadata.)
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for c in s.chars() {
        if c.is_whitespace() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push(' ');
            blank = false;
        }
        match fold_title_char(c) {
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
    let end = out
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    out.truncate(end);
    let start = out
        .char_indices()
        .find(|(_, c)| c.is_alphanumeric())
        .map_or(out.len(), |(i, _)| i);
    out.drain(..start);
    out
}

/// Typographic quotes and dashes as WCXB's scorer folds them.
fn fold_title_char(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{2033}' => '"',
        '\u{2010}'..='\u{2014}' | '\u{2212}' => '-',
        c => c,
    }
}

/// The index of a fact, by name; a name not in [`FACTS`] stops compilation where it is
/// evaluated as a constant ([`k!`]).
const fn at(name: &str) -> usize {
    let (name, mut i) = (name.as_bytes(), 0);
    while i < FACTS.len() {
        let f = FACTS[i].as_bytes();
        if f.len() == name.len() {
            let mut j = 0;
            while j < f.len() && f[j] == name[j] {
                j += 1;
            }
            if j == f.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such fact")
}

/// The index of a fact, found when compiling.
macro_rules! k {
    ($name:literal) => {
        const { at($name) }
    };
}

struct Builder {
    out: Vec<TitleCandidate>,
    keys: Vec<String>,
    /// The sources giving each candidate as a part of a stated title.
    parts: Vec<Vec<crate::Source>>,
    /// The site's names ([`site_names`]), read once.
    names: Vec<String>,
}

impl Builder {
    /// Sets `fact` on the candidate `text` (added if new).
    fn mark(
        &mut self,
        text: &str,
        source: crate::Source,
        fact: usize,
        value: f32,
    ) -> Option<usize> {
        let text = text.trim();
        // Told before the key is made: a long text (a headline element holding a whole
        // teaser) is dropped after its 61st word, not normalised whole.
        if text.split_whitespace().nth(60).is_some() {
            return None;
        }
        let key = title_key(text);
        if key.is_empty() {
            return None;
        }
        let i = match self.keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.keys.push(key);
                self.parts.push(Vec::new());
                self.out.push(TitleCandidate {
                    text: text.to_string(),
                    facts: vec![0.0; FACTS.len()],
                    source,
                });
                self.out.len() - 1
            }
        };
        let k = fact;
        if let Some(slot) = self.out[i].facts.get_mut(k) {
            *slot = slot.max(value);
        }
        Some(i)
    }

    /// A stated title: whole, without the site's name, and its parts.
    fn stated(&mut self, t: &str, source: crate::Source, kind: Stated) {
        let (whole, without, first, last, middle, but_last, but_first) = match kind {
            Stated::Title => (
                k!("title_whole"),
                k!("title_without_site"),
                k!("title_first_part"),
                k!("title_last_part"),
                k!("title_middle_part"),
                k!("title_all_but_last"),
                k!("title_all_but_first"),
            ),
            Stated::Og => (
                k!("og_whole"),
                k!("og_without_site"),
                k!("og_part"),
                k!("og_part"),
                k!("og_part"),
                k!("og_part"),
                k!("og_part"),
            ),
            Stated::Other(name) => (
                name,
                name,
                k!("stated_part"),
                k!("stated_part"),
                k!("stated_part"),
                k!("stated_part"),
                k!("stated_part"),
            ),
        };
        self.mark(t, source, whole, 1.0);
        let stripped = strip_names(t, &self.names);
        self.mark(&stripped, source, without, 1.0);
        let Some(sep) = SEPARATORS.iter().find(|s| t.contains(**s)) else {
            return;
        };
        let parts: Vec<&str> = t.split(sep).collect();
        let n = parts.len();
        let at_sep = match sep.trim() {
            ":" => k!("title_part_at_colon"),
            "-" | "–" | "—" => k!("title_part_at_dash"),
            _ => k!("title_part_at_bar"),
        };
        let part = |b: &mut Builder, text: &str, fact: usize| {
            if let Some(i) = b.mark(text, source, fact, 1.0) {
                b.parts[i].push(source);
                if kind == Stated::Title {
                    b.mark(text, source, at_sep, 1.0);
                }
            }
        };
        for (i, p) in parts.iter().enumerate() {
            let fact = match i {
                0 => first,
                _ if i + 1 == n => last,
                _ => middle,
            };
            part(self, p, fact);
        }
        if n >= 3 {
            part(self, &parts[..n - 1].join(sep), but_last);
            part(self, &parts[1..].join(sep), but_first);
        }
        if kind == Stated::Title {
            self.mark(t, source, k!("parts_of_title"), (n as f32).ln() / 2.0);
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Stated {
    Title,
    Og,
    Other(usize),
}

/// Every candidate of the page, with its facts; `rules` is what the hand-written rules pick.
pub(crate) fn candidates(inputs: &TitleInputs, rules: Option<&str>) -> Vec<TitleCandidate> {
    use crate::Source;
    let mut b = Builder {
        out: Vec::new(),
        keys: Vec::new(),
        parts: Vec::new(),
        names: site_names(inputs.site_name, inputs.url),
    };
    if let Some((h, in_main)) = &inputs.headline {
        b.mark(h, Source::Html, k!("headline"), 1.0);
        b.mark(
            h,
            Source::Html,
            k!("headline_in_main"),
            f32::from(u8::from(*in_main)),
        );
    }
    if let Some(h) = &inputs.first_h1 {
        b.mark(h, Source::Html, k!("first_h1"), 1.0);
    }
    let mut whole_by: Vec<(String, Source)> = Vec::new();
    for (source, t) in &inputs.stated {
        let kind = match source {
            Source::OpenGraph => Stated::Og,
            Source::Twitter => Stated::Other(k!("twitter")),
            Source::JsonLd => Stated::Other(k!("jsonld")),
            Source::Microdata => Stated::Other(k!("microdata")),
            _ => Stated::Other(k!("dublin_core_or_citation")),
        };
        b.stated(t, *source, kind);
        whole_by.push((title_key(t), *source));
    }
    if let Some(t) = inputs.page_title {
        b.stated(t, Source::Html, Stated::Title);
        whole_by.push((title_key(t), Source::Html));
    }
    if let Some((h, _)) = &inputs.headline {
        whole_by.push((title_key(h), Source::Html));
    }
    if let Some(r) = rules {
        b.mark(r, Source::Html, k!("rules_pick"), 1.0);
    }
    let names = std::mem::take(&mut b.names);
    let url_words = url_words(inputs.url);
    let headline_key = inputs.headline.as_ref().map(|(h, _)| fold(h));
    let title_fold = inputs.page_title.map(fold);
    let og_fold = inputs
        .stated
        .iter()
        .find(|(s, _)| *s == Source::OpenGraph)
        .map(|(_, t)| fold(t));
    let article = inputs.page_types[0] + inputs.page_types[3];
    let title_words = inputs
        .page_title
        .map_or(0, |t| t.split_whitespace().count());
    for ((c, key), parts) in b.out.iter_mut().zip(&b.keys).zip(&mut b.parts) {
        let f = &mut c.facts;
        parts.sort();
        parts.dedup();
        f[k!("part_by")] = (parts.len() as f32).min(4.0) / 4.0;
        if title_words > 0 {
            let words = c.text.split_whitespace().count();
            f[k!("share_of_title")] = (words as f32 / title_words as f32).min(2.0) / 2.0;
        }
        let mut by: Vec<Source> = whole_by
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, s)| *s)
            .collect();
        by.sort();
        by.dedup();
        f[k!("stated_whole_by")] = (by.len() as f32).min(4.0) / 4.0;
        let folded = fold(&c.text);
        let exact_site = names.contains(&folded);
        f[k!("is_site_name")] = f32::from(u8::from(exact_site));
        f[k!("holds_site_name")] = f32::from(u8::from(!exact_site && is_site(&c.text, &names)));
        let words: Vec<String> = c
            .text
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let n = words.len();
        f[k!("log_words")] = ((1 + n) as f32).ln() / 4.0;
        f[k!("one_word")] = f32::from(u8::from(n == 1));
        f[k!("over_twelve_words")] = f32::from(u8::from(n > 12));
        if n > 0 && !url_words.is_empty() {
            let hit = words.iter().filter(|w| url_words.contains(w)).count();
            f[k!("url_words")] = hit as f32 / n as f32;
        }
        let inside = |outer: &Option<String>| {
            outer
                .as_ref()
                .is_some_and(|o| *o != folded && !folded.is_empty() && o.contains(&folded))
        };
        f[k!("inside_title")] = f32::from(u8::from(inside(&title_fold)));
        f[k!("inside_og")] = f32::from(u8::from(inside(&og_fold)));
        f[k!("holds_headline")] =
            f32::from(u8::from(headline_key.as_ref().is_some_and(|h| {
                !h.is_empty() && *h != folded && folded.contains(h.as_str())
            })));
        for (fact, cross) in [
            (k!("headline"), k!("headline_x_article")),
            (k!("title_without_site"), k!("title_without_site_x_article")),
            (k!("title_first_part"), k!("title_first_part_x_article")),
            (k!("og_whole"), k!("og_whole_x_article")),
            (k!("jsonld"), k!("jsonld_x_article")),
            (k!("rules_pick"), k!("rules_pick_x_article")),
            (k!("title_whole"), k!("title_whole_x_article")),
            (k!("first_h1"), k!("first_h1_x_article")),
        ] {
            f[cross] = f[fact] * article;
        }
    }
    b.out
}

/// The lower-cased words of a URL's path (its slug), numbers left out.
fn url_words(url: Option<&str>) -> Vec<String> {
    let Some(path) = url
        .and_then(|u| u.split_once("://"))
        .map(|(_, r)| r.split_once('/').map_or("", |(_, p)| p))
    else {
        return Vec::new();
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod score_tests {
    use super::{FACTS, TitleModel, expanded_len};
    use proptest::prelude::*;

    /// The expanded values as the definition reads, by brute force: the non-zero facts, then
    /// the product of every two non-zero facts `i < j`, each pair numbered by counting all
    /// pairs in order from `FACTS.len()`.
    fn expanded_by_counting(facts: &[f32]) -> Vec<(usize, f32)> {
        let n = FACTS.len();
        let mut out: Vec<(usize, f32)> = (0..n)
            .filter(|&i| facts[i] != 0.0)
            .map(|i| (i, facts[i]))
            .collect();
        let mut k = n;
        for i in 0..n {
            for j in i + 1..n {
                if facts[i] != 0.0 && facts[j] != 0.0 {
                    out.push((k, facts[i] * facts[j]));
                }
                k += 1;
            }
        }
        out
    }

    fn facts() -> impl Strategy<Value = Vec<f32>> {
        prop_oneof![
            // No fact at all: the sum of nothing, -0.0 as `Iterator::sum` gives it.
            Just(vec![0.0f32; FACTS.len()]),
            proptest::collection::vec(prop_oneof![Just(0.0f32), -3.0f32..3.0], FACTS.len()),
        ]
    }

    proptest! {
        /// A score summed as the values come is, bit for bit, the sum over the expanded
        /// values written out by the definition.
        #[test]
        fn a_score_is_the_sum_over_the_expanded_values(
            facts in facts(),
            weights in proptest::collection::vec(-2.0f32..2.0, expanded_len()),
        ) {
            let model = TitleModel {
                format: String::new(),
                version: 0,
                description: String::new(),
                facts: Vec::new(),
                weights: weights.clone(),
            };
            let summed: f32 = expanded_by_counting(&facts)
                .iter()
                .map(|&(k, x)| weights.get(k).map_or(0.0, |w| w * x))
                .sum();
            prop_assert_eq!(model.score(&facts).to_bits(), summed.to_bits());
        }
    }
}
