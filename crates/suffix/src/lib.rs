//! `chaff-suffix`: site templates as frequent token strings, mined with a suffix array
//! (Foschini, "A fast and parameter-free template detection method for web pages and online
//! newspapers", chapters 3–5).
//!
//! What it is for: given the pages of one site (as strings: their visible text, or their raw
//! source as in the thesis), find the token strings the pages share, keep those above an
//! automatic document-frequency cutoff, and turn them into regular expressions that remove
//! the template from any page of the site.
//!
//! The pipeline, module by module:
//! 1. [`tokens`]: tokenise (default `\S+`), replacing [`mutable`] patterns (dates, numbers,
//!    URLs...) by placeholders first; intern tokens as integer ids; concatenate the documents
//!    with a unique separator id each;
//! 2. [`sa`]: suffix array and LCP array with libsais (linear time, integer alphabet);
//! 3. [`repeats`]: every maximal repeated string with its number of occurrences and of
//!    distinct documents, in one pass over the LCP array;
//! 4. [`mine`]: drop strings shorter than two tokens or in too few documents, histogram the
//!    rest by document share in 100 bins, and cut it where eq. 3.1 says ([`cutoff`]); in the
//!    visible-text view, also keep the rarer strings that continue a template string on its
//!    line;
//! 5. [`model`]: cross-site filtering of strings common to many sites, and synthesis of the
//!    cleaning expressions ([`regexgen`]);
//! 6. [`tokenmatch`]: the mined strings matched on a page's tokens in one pass (an
//!    Aho–Corasick automaton over token ids), their intervals unioned; [`clean`] matches the
//!    expressions as regexes instead, as the thesis does, for profiles the tokens cannot read
//!    and on request ([`CleanParams::regex_matching`]); then the intervals are merged.
//!
//! What it must not know: file formats, profiles, output rendering, other methods. It reads
//! documents through `chaff-dom` views and reports through `chaff-core` labels.
//!
//! # Where this departs from the thesis, and why
//!
//! Each point is explained where it is made:
//! * mutable patterns apply to whole tokens (the thesis's own wording), plus an inside-token
//!   scope for raw HTML; built-in classes are ASCII ([`mutable`]);
//! * expressions carry token boundaries, as the thesis's printed expressions do ([`regexgen`]);
//! * "maximal" is the standard left- and right-maximal repeat ([`repeats`]);
//! * the cutoff breaks ties towards the conservative side and needs two non-empty modes
//!   ([`cutoff`]);
//! * the visible-text view keeps its lines as tokens, so that one-word blocks (a "Latest"
//!   heading) can be mined ([`tokens`]);
//! * a page is matched against the mined token strings, not their regexes: the same
//!   intervals but where mutable patterns overlap, at a third to a fifth of the cost
//!   ([`tokenmatch`]);
//! * in that view, a string under the cutoff that starts with a template string and stays on
//!   its line is kept too: a template's variant on a few pages ("| Last updated «date»" after
//!   "Posted on «date»") ([`mine`]; `--no-continuations` or `--plain` mine as the thesis does);
//! * in the text view, matches become removals through locality rules
//!   ([`model::CleanParams`], [`model::labels_from_intervals`]): the thesis's two future-work
//!   heuristics made concrete with the view's lines and links (line coverage; gap merging after
//!   the line decision, link-aware), template echoes of the page's own lines (breadcrumbs), and
//!   protection of the page's own headline. `--plain` turns them off.
//!
//! Measured with `chaff eval` (text view, defaults against `--plain`, which removes every
//! match): synthetic sites (20 pages, 5 seeds, 3 markup styles) 99.1% of template words and
//! 0.5% of content words removed, against 62.1% and 12.9%; CleanPortalEval 4-gram F1 0.835
//! with 0.3% of the removed words in the gold text, against 0.772 and 4.1%; Dragnet sites of at
//! least ten pages 0.850 and 2.8%, against 0.739 and 9.8%. The page's whole text scores 0.645
//! and 0.615.

pub mod clean;
pub mod cutoff;
pub mod mine;
pub mod model;
pub mod mutable;
pub mod regexgen;
pub mod repeats;
pub mod sa;
pub mod tokenmatch;
pub mod tokens;
mod trie;

pub use model::{
    CleanParams, CompiledSuffix, Expression, SuffixConfig, SuffixMethod, SuffixModel, View,
    cross_site_filter, default_min_sites, labels_from_intervals, learn,
};

/// Why mining or cleaning failed.
#[derive(Debug, thiserror::Error)]
pub enum SuffixError {
    /// The corpus does not fit the 32-bit suffix array.
    #[error("corpus of {0} tokens is too large for one suffix array (limit ~1 billion)")]
    TooLarge(usize),
    /// libsais reported an error.
    #[error("suffix array construction failed: {0}")]
    Libsais(String),
    /// Learning needs several pages.
    #[error("need at least 2 pages of a site to learn its template, got {0}")]
    TooFewDocuments(usize),
    /// A tokeniser, mutable pattern or expression does not compile.
    #[error("{0}")]
    Config(String),
}
