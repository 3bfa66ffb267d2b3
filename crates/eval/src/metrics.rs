//! Word-overlap measures between an extracted ("predicted") text and a gold text.
//!
//! Three measures are computed for every page, all over the same tokens (see [`tokenize`]):
//!
//! 1. **4-gram shingles** ([`shingle4`]) — the convention of the article-extraction-benchmark
//!    (AEB, `scrapinghub/article-extraction-benchmark`, script `evaluate.py`, read at commits
//!    `11b407d` and `7d95432`, whose scoring code is the same). Reproduced exactly:
//!    * tokens are the matches of Python's `\w+` (with `re.UNICODE`; the `IGNORECASE` flag it
//!      also sets has no effect on what `findall` returns), so there is **no lower-casing**:
//!      `The` and `the` differ. In Python's `str` regexes `\w` is any Unicode letter (L*) or
//!      numeric (N*) character or `_`; combining marks (M*), joiners and connector punctuation
//!      other than `_` are not word characters, so NFD accents and Indic vowel signs split
//!      tokens. [`tokenize`] uses the class `[\p{L}\p{N}_]`, which is that set (the Rust
//!      `\w` would not be: it also takes marks and joiners);
//!    * shingles are a **multiset** (`Counter`) of runs of 4 consecutive tokens; a text with
//!      1–3 tokens yields exactly one shorter shingle made of all its tokens, an empty text
//!      (no tokens) yields none;
//!    * `tp = Σ min(pred, gold)`, `fp = Σ max(0, pred − gold)`, `fn = Σ max(0, gold − pred)`
//!      over shingle counts, then each is divided by `tp + fp + fn` (when positive) "so that
//!      longer texts do not have more weight";
//!    * per page, precision is 1 when `fp = fn = 0` (which includes both texts empty), 0 when
//!      `tp = fp = 0`, else `tp / (tp + fp)`; recall symmetrically with `fn`;
//!    * over a set, precision is the mean over the pages whose prediction has at least one
//!      shingle (`tp + fp > 0`), recall the mean over the pages whose gold has at least one
//!      (`tp + fn > 0`), and F1 is the harmonic mean of those two means (not a mean of F1s);
//!    * the later script version also reports "accuracy": the share of pages whose token
//!      sequences are identical ([`PageScore::exact_match`], [`SetReport::accuracy`]).
//!
//!    Where the script would raise (no page qualifies for a mean, or both means are 0) we
//!    return 0 and report how many pages each mean covers ([`MeanScores`]).
//! 2. **Word-bigram sets** ([`bigram_set`]) — the FOREST paper's (Oita & Senellart) measure:
//!    precision and recall of the *set* of word 2-grams, so repeated phrases count once. The
//!    tokens, the short-text rule (a one-token text is one 1-gram) and the per-page and
//!    averaging rules are AEB's, so the three measures differ only in what is counted.
//! 3. **Bags of words** ([`bag_of_words`]) — multiset intersection of single tokens; the
//!    most forgiving measure, insensitive to order.
//!
//! [`removal_score`] answers a different question, the one a template remover must pass:
//! of the words it *removed* from the full page text, what share belonged to the gold main
//! text.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// Python's Unicode `\w`: letters, numerics and the underscore (not marks, not joiners).
static TOKEN_RE: LazyLock<Regex> = LazyLock::new(|| {
    // The pattern is a constant; failing to compile it is a programming error.
    Regex::new(r"[\p{L}\p{N}_]+").expect("constant token regex compiles")
});

/// Splits `text` into word tokens exactly as the AEB `evaluate.py` does (`\w+` in a Python
/// `str` regex): maximal runs of Unicode letters, numerics and `_`, case preserved.
///
/// Punctuation, whitespace, symbols and emoji separate tokens and are dropped; so are
/// combining marks, which means `"don't"` is `don`, `t` and a decomposed `"cafe\u{301}"` is
/// `cafe`.
pub fn tokenize(text: &str) -> Vec<&str> {
    TOKEN_RE.find_iter(text).map(|m| m.as_str()).collect()
}

/// AEB's n-grams of a token sequence: every run of `n` consecutive tokens, or — when the
/// text is shorter than `n` but not empty — the single run of all its tokens.
fn ngrams<'t, 'a>(tokens: &'t [&'a str], n: usize) -> impl Iterator<Item = &'t [&'a str]> {
    let count = if tokens.is_empty() || n == 0 {
        0
    } else {
        (tokens.len() + 1).saturating_sub(n).max(1)
    };
    (0..count).map(move |i| &tokens[i..(i + n).min(tokens.len())])
}

fn multiset<T: Eq + Hash>(items: impl Iterator<Item = T>) -> HashMap<T, u64> {
    let mut bag = HashMap::new();
    for item in items {
        *bag.entry(item).or_insert(0) += 1;
    }
    bag
}

/// True positives, false positives and false negatives of one page under one measure, as
/// raw counts (shingles, bigrams or words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Counts {
    /// Units in both the prediction and the gold.
    pub tp: u64,
    /// Units in the prediction only.
    pub fp: u64,
    /// Units in the gold only.
    #[serde(rename = "fn")]
    pub fn_: u64,
}

impl Counts {
    /// Whether the prediction has any unit; only such pages enter a set's mean precision.
    pub fn has_prediction(&self) -> bool {
        self.tp + self.fp > 0
    }

    /// Whether the gold has any unit; only such pages enter a set's mean recall.
    pub fn has_gold(&self) -> bool {
        self.tp + self.fn_ > 0
    }

    /// The counts divided by their sum, as AEB does before computing ratios. Kept so that
    /// the ratios are the same floating-point values the script computes.
    fn normalised(&self) -> [f64; 3] {
        let (tp, fp, fn_) = (self.tp as f64, self.fp as f64, self.fn_ as f64);
        let sum = tp + fp + fn_;
        if sum > 0.0 {
            [tp / sum, fp / sum, fn_ / sum]
        } else {
            [tp, fp, fn_]
        }
    }

    /// AEB per-page precision: 1 when nothing is wrong (`fp = fn = 0`, including two empty
    /// texts), 0 when nothing was predicted right (`tp = fp = 0`), else `tp / (tp + fp)`.
    pub fn precision(&self) -> f64 {
        let [tp, fp, _] = self.normalised();
        if self.fp == 0 && self.fn_ == 0 {
            1.0
        } else if self.tp == 0 && self.fp == 0 {
            0.0
        } else {
            tp / (tp + fp)
        }
    }

    /// AEB per-page recall: 1 when nothing is wrong, 0 when `tp = fn = 0`, else
    /// `tp / (tp + fn)`.
    pub fn recall(&self) -> f64 {
        let [tp, _, fn_] = self.normalised();
        if self.fp == 0 && self.fn_ == 0 {
            1.0
        } else if self.tp == 0 && self.fn_ == 0 {
            0.0
        } else {
            tp / (tp + fn_)
        }
    }
}

/// Harmonic mean, written as AEB writes it (`2 * p * r / (p + r)`), 0 when both are 0.
fn harmonic(precision: f64, recall: f64) -> f64 {
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

/// One measure on one page: the ratios and the counts they came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// Share of predicted units that are in the gold (see [`Counts::precision`]).
    pub precision: f64,
    /// Share of gold units that were predicted (see [`Counts::recall`]).
    pub recall: f64,
    /// Harmonic mean of this page's precision and recall (0 when both are 0).
    pub f1: f64,
    /// The raw counts; they decide which set-level means the page enters.
    pub counts: Counts,
}

impl Scores {
    /// Scores from counts under AEB's per-page rules.
    pub fn from_counts(counts: Counts) -> Self {
        let precision = counts.precision();
        let recall = counts.recall();
        Scores {
            precision,
            recall,
            f1: harmonic(precision, recall),
            counts,
        }
    }
}

/// Multiset overlap of AEB n-grams (n = 4 gives AEB shingles, n = 1 a bag of words).
fn multiset_counts(predicted: &[&str], gold: &[&str], n: usize) -> Counts {
    let pred = multiset(ngrams(predicted, n));
    let gold = multiset(ngrams(gold, n));
    let mut counts = Counts::default();
    for (gram, &p) in &pred {
        let g = gold.get(gram).copied().unwrap_or(0);
        counts.tp += p.min(g);
        counts.fp += p.saturating_sub(g);
    }
    for (gram, &g) in &gold {
        let p = pred.get(gram).copied().unwrap_or(0);
        counts.fn_ += g.saturating_sub(p);
    }
    counts
}

/// Set overlap of AEB n-grams: each distinct n-gram counts once.
fn set_counts(predicted: &[&str], gold: &[&str], n: usize) -> Counts {
    let pred: HashSet<&[&str]> = ngrams(predicted, n).collect();
    let gold: HashSet<&[&str]> = ngrams(gold, n).collect();
    let tp = pred.intersection(&gold).count() as u64;
    Counts {
        tp,
        fp: pred.len() as u64 - tp,
        fn_: gold.len() as u64 - tp,
    }
}

/// AEB 4-gram shingle scores of `predicted` against `gold` (see the module docs for the
/// exact convention).
pub fn shingle4(predicted: &str, gold: &str) -> Scores {
    Scores::from_counts(multiset_counts(&tokenize(predicted), &tokenize(gold), 4))
}

/// FOREST-style scores over the *sets* of word bigrams of `predicted` and `gold`.
pub fn bigram_set(predicted: &str, gold: &str) -> Scores {
    Scores::from_counts(set_counts(&tokenize(predicted), &tokenize(gold), 2))
}

/// Bag-of-words scores: multiset intersection of the tokens of `predicted` and `gold`.
pub fn bag_of_words(predicted: &str, gold: &str) -> Scores {
    Scores::from_counts(multiset_counts(&tokenize(predicted), &tokenize(gold), 1))
}

/// What removing words from a page cost the gold text.
///
/// Which words were removed, and which of those belong to the gold text, is decided by
/// *aligning* word sequences (a Myers diff on the [`tokenize`] tokens): a word of the full
/// text is kept if it aligns with a word of the extracted text, and belongs to the gold text
/// if it aligns with a word of the gold text. Counting on bags of words instead would charge
/// every removed template "the" or "News" as a false removal whenever the article also
/// contains that word; on CleanPortalEval that inflates the share about fifty-fold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RemovalScore {
    /// Words of the full text that are not in the extracted text.
    pub removed_words: u64,
    /// Of those, words aligned to the gold text ("false removals").
    pub removed_gold_words: u64,
    /// `removed_gold_words / removed_words`, 0 when nothing was removed.
    pub share: f64,
}

/// Scores a removal: see [`RemovalScore`].
pub fn removal_score(full: &str, extracted: &str, gold: &str) -> RemovalScore {
    let full = tokenize(full);
    let kept = aligned(&full, &tokenize(extracted));
    let in_gold = aligned(&full, &tokenize(gold));
    let mut removed_words = 0;
    let mut removed_gold_words = 0;
    for (k, g) in kept.iter().zip(&in_gold) {
        if !k {
            removed_words += 1;
            removed_gold_words += u64::from(*g);
        }
    }
    RemovalScore {
        removed_words,
        removed_gold_words,
        share: ratio(removed_gold_words, removed_words),
    }
}

/// For each token of `a`, whether a longest-common-subsequence-style alignment (Myers diff)
/// pairs it with a token of `b`.
pub fn aligned(a: &[&str], b: &[&str]) -> Vec<bool> {
    let mut mask = vec![false; a.len()];
    let deadline = std::time::Instant::now().checked_add(std::time::Duration::from_secs(5));
    for op in similar::capture_diff_slices_deadline(similar::Algorithm::Myers, a, b, deadline) {
        if let similar::DiffOp::Equal { old_index, len, .. } = op {
            mask[old_index..old_index + len]
                .iter_mut()
                .for_each(|m| *m = true);
        }
    }
    mask
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// All measures for one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageScore {
    /// The page's id in its data set.
    pub id: String,
    /// AEB 4-gram shingles.
    pub shingle4: Scores,
    /// FOREST word-bigram sets.
    pub bigram: Scores,
    /// Bags of words.
    pub bag: Scores,
    /// Whether the token sequences are identical (AEB "accuracy").
    pub exact_match: bool,
    /// Number of tokens in the prediction.
    pub predicted_tokens: usize,
    /// Number of tokens in the gold.
    pub gold_tokens: usize,
    /// The removal check, when the page's full text was given ([`score_page_with_full`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<RemovalScore>,
}

/// Scores one page with all three measures.
pub fn score_page(id: impl Into<String>, predicted: &str, gold: &str) -> PageScore {
    let pred = tokenize(predicted);
    let gold = tokenize(gold);
    PageScore {
        id: id.into(),
        shingle4: Scores::from_counts(multiset_counts(&pred, &gold, 4)),
        bigram: Scores::from_counts(set_counts(&pred, &gold, 2)),
        bag: Scores::from_counts(multiset_counts(&pred, &gold, 1)),
        exact_match: pred == gold,
        predicted_tokens: pred.len(),
        gold_tokens: gold.len(),
        removal: None,
    }
}

/// Scores one page and also checks what the removal from `full` (the page's whole visible
/// text) cost the gold.
pub fn score_page_with_full(
    id: impl Into<String>,
    full: &str,
    predicted: &str,
    gold: &str,
) -> PageScore {
    PageScore {
        removal: Some(removal_score(full, predicted, gold)),
        ..score_page(id, predicted, gold)
    }
}

/// One measure averaged over a set of pages, AEB style.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanScores {
    /// Mean per-page precision over pages with a non-empty prediction.
    pub precision: f64,
    /// Mean per-page recall over pages with a non-empty gold.
    pub recall: f64,
    /// Harmonic mean of `precision` and `recall` — the headline number AEB reports.
    pub f1_of_means: f64,
    /// Mean of per-page F1 over pages where either side is non-empty (not an AEB number;
    /// kept because it punishes pages that fail completely more directly).
    pub mean_f1: f64,
    /// How many pages entered `precision`.
    pub precision_pages: usize,
    /// How many pages entered `recall`.
    pub recall_pages: usize,
    /// How many pages entered `mean_f1`.
    pub f1_pages: usize,
}

/// Mean with compensated summation, so long sets average as Python's exact
/// `statistics.mean` does (to the last bit in practice). `None` for no values.
fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut compensation, mut n) = (0.0f64, 0.0f64, 0usize);
    for v in values {
        let t = sum + v;
        compensation += if sum.abs() >= v.abs() {
            (sum - t) + v
        } else {
            (v - t) + sum
        };
        sum = t;
        n += 1;
    }
    (n > 0).then(|| (sum + compensation) / n as f64)
}

impl MeanScores {
    /// Averages one measure over pages (AEB rules; see the module docs).
    pub fn from_pages<'a>(scores: impl IntoIterator<Item = &'a Scores>) -> Self {
        let scores: Vec<&Scores> = scores.into_iter().collect();
        let with_pred = || scores.iter().filter(|s| s.counts.has_prediction());
        let with_gold = || scores.iter().filter(|s| s.counts.has_gold());
        let with_any = || {
            scores
                .iter()
                .filter(|s| s.counts.has_prediction() || s.counts.has_gold())
        };
        let precision = mean(with_pred().map(|s| s.precision)).unwrap_or(0.0);
        let recall = mean(with_gold().map(|s| s.recall)).unwrap_or(0.0);
        MeanScores {
            precision,
            recall,
            f1_of_means: harmonic(precision, recall),
            mean_f1: mean(with_any().map(|s| s.f1)).unwrap_or(0.0),
            precision_pages: with_pred().count(),
            recall_pages: with_gold().count(),
            f1_pages: with_any().count(),
        }
    }
}

/// The removal check over a set of pages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RemovalSummary {
    /// Pages that carried a removal score.
    pub pages: usize,
    /// Words removed, summed over pages.
    pub removed_words: u64,
    /// Gold words removed, summed over pages.
    pub removed_gold_words: u64,
    /// Pooled share `removed_gold_words / removed_words` — the number the "at most 3%"
    /// target is stated in.
    pub share: f64,
    /// Mean of per-page shares over pages that removed something.
    pub mean_share: f64,
    /// Worst page's share.
    pub max_share: f64,
}

impl RemovalSummary {
    /// Sums per-page removal scores.
    pub fn from_scores<'a>(scores: impl IntoIterator<Item = &'a RemovalScore>) -> Self {
        let scores: Vec<&RemovalScore> = scores.into_iter().collect();
        let removed_words = scores.iter().map(|s| s.removed_words).sum();
        let removed_gold_words = scores.iter().map(|s| s.removed_gold_words).sum();
        let removing = || scores.iter().filter(|s| s.removed_words > 0);
        RemovalSummary {
            pages: scores.len(),
            removed_words,
            removed_gold_words,
            share: ratio(removed_gold_words, removed_words),
            mean_share: mean(removing().map(|s| s.share)).unwrap_or(0.0),
            max_share: removing().map(|s| s.share).fold(0.0, f64::max),
        }
    }
}

/// All measures over a set of pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetReport {
    /// The per-page scores, in the order given.
    pub pages: Vec<PageScore>,
    /// AEB 4-gram shingles, averaged.
    pub shingle4: MeanScores,
    /// FOREST word-bigram sets, averaged.
    pub bigram: MeanScores,
    /// Bags of words, averaged.
    pub bag: MeanScores,
    /// Share of pages whose token sequences match exactly (AEB "accuracy"), over all pages.
    pub accuracy: f64,
    /// The removal check, over the pages that carry one (`None` if none does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<RemovalSummary>,
}

/// Averages per-page scores into a set report.
pub fn aggregate(pages: Vec<PageScore>) -> SetReport {
    let removals: Vec<&RemovalScore> = pages.iter().filter_map(|p| p.removal.as_ref()).collect();
    SetReport {
        shingle4: MeanScores::from_pages(pages.iter().map(|p| &p.shingle4)),
        bigram: MeanScores::from_pages(pages.iter().map(|p| &p.bigram)),
        bag: MeanScores::from_pages(pages.iter().map(|p| &p.bag)),
        accuracy: mean(pages.iter().map(|p| f64::from(u8::from(p.exact_match)))).unwrap_or(0.0),
        removal: (!removals.is_empty()).then(|| RemovalSummary::from_scores(removals)),
        pages,
    }
}

#[cfg(test)]
mod tests;
