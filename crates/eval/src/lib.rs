//! `chaff-eval`: how good is an extraction, measured against gold text.
//!
//! What it is for:
//! * [`metrics`] scores an extracted text against a gold text, per page and over a set, with
//!   three word-level measures — the article-extraction-benchmark's 4-gram shingles, the
//!   FOREST paper's word-bigram sets, and bags of words — plus the "of the words removed, how
//!   many were gold" check that guards against over-eager template removal;
//! * [`datasets`] reads the gold formats of the shared evaluation sets (scrapinghub AEB,
//!   CleanEval, CleanPortalEval, Dragnet, and a generic JSON Lines format) into one
//!   [`GoldPage`] shape, and finds the shared data folder;
//! * [`synthetic`] scores per-node labels against the synthetic sites' exact labels (words of
//!   template, menu and content removed).
//!
//! What it must not know: how extraction works — it sees extracted *text*, or a method's
//! labels on a parsed page, never the method — and HTML beyond what a gold format needs: the
//! data-set adapters never parse a page; they hand back the path of its HTML. The only markup it touches is the
//! CleanEval block markers (`<p>`, `<h>`, `<l>`) and character references that annotators
//! left in gold text files.

pub mod datasets;
pub mod metrics;
pub mod synthetic;

pub use datasets::{
    BlockGold, BlockPage, BlockScheme, CleanEvalGold, CleanEvalSplit, DatasetError, DragnetGold,
    DragnetText, GoldPage, PortalGrouping, WcxbGold, canola, cleaneval, cleanportaleval,
    datasets_dir, dragnet, jsonl, l3s_gn1, read_maybe_gz, readability_testpages, scrapinghub_aeb,
    shared_dir, wcxb,
};
pub use metrics::{
    Counts, MeanScores, PageScore, RemovalScore, RemovalSummary, Scores, SetReport, aggregate,
    bag_of_words, bigram_set, removal_score, score_page, score_page_with_full, shingle4, tokenize,
};
