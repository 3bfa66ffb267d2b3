//! `chaff-eval`: how good is an extraction, measured against gold text.
//!
//! What it is for:
//! * [`metrics`] scores an extracted text against a gold text, per page and over a set, with
//!   three word-level measures — the article-extraction-benchmark's 4-gram shingles, the
//!   FOREST paper's word-bigram sets, and bags of words — plus the "of the words removed, how
//!   many were gold" check that guards against over-eager template removal;
//! * [`datasets`] reads the gold formats of the shared evaluation sets (scrapinghub AEB,
//!   CleanEval, CleanPortalEval, Dragnet, and a generic JSON Lines format) into one
//!   [`GoldPage`] shape, and finds the shared data folder.
//!
//! What it must not know: how extraction works (it only ever sees the extracted *text*), and
//! HTML beyond what a gold format needs — it never parses a page; it hands back the path of
//! the page's HTML and leaves reading it to the caller. The only markup it touches is the
//! CleanEval block markers (`<p>`, `<h>`, `<l>`) and character references that annotators
//! left in gold text files.

pub mod datasets;
pub mod metrics;

pub use datasets::{
    CleanEvalGold, CleanEvalSplit, DatasetError, DragnetGold, DragnetText, GoldPage,
    PortalGrouping, cleaneval, cleanportaleval, datasets_dir, dragnet, jsonl, read_maybe_gz,
    scrapinghub_aeb, shared_dir,
};
pub use metrics::{
    Counts, MeanScores, PageScore, RemovalScore, RemovalSummary, Scores, SetReport, aggregate,
    bag_of_words, bigram_set, removal_score, score_page, score_page_with_full, shingle4, tokenize,
};
