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
//!    rest by document share in 100 bins, and cut it where eq. 3.1 says ([`cutoff`]);
//! 5. [`model`]: cross-site filtering of strings common to many sites, and synthesis of the
//!    cleaning expressions ([`regexgen`]);
//! 6. [`clean`]: all expressions matched in one pass, their intervals unioned and merged.
//!
//! What it must not know: file formats, profiles, output rendering, other methods. It reads
//! documents through `chaff-dom` views and reports through `chaff-core` labels.
//!
//! Deviations from the thesis, each explained where it is made: whole-token scope for
//! mutable patterns plus an inside-token scope for raw HTML ([`mutable`]); token boundaries in
//! the expressions ([`regexgen`]); maximal repeats in the standard left- and right-maximal
//! sense ([`repeats`]); a tie rule and a one-mode fallback for the cutoff ([`cutoff`]); and,
//! in the text view, the node-coverage rule the thesis proposes as future work
//! ([`model::CleanParams`]).

pub mod clean;
pub mod cutoff;
pub mod mine;
pub mod model;
pub mod mutable;
pub mod regexgen;
pub mod repeats;
pub mod sa;
pub mod tokens;

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
