//! `chaff-pagelevel`: page-level template detection (Chakrabarti, Kumar & Punera, "Page-level
//! template detection via isotonic smoothing", WWW 2007).
//!
//! What it is for: cleaning a page from a site chaff has never seen. Multi-page sites label
//! their own nodes ([`sitelevel`]: a subtree on at least θ of a site's pages is template);
//! those labels train a classifier of DOM nodes ([`features`], [`logreg`], [`train`]: four
//! logistic regressions by node size); on a new page the classifier scores every node and
//! isotonic smoothing ([`smoothing`], by `chaff-smooth`) makes the scores monotone on the tree
//! (a node is no more template than its least template child), which also cuts the page into
//! segments ([`model`]). SiteLevel is also a site-level method of its own
//! ([`sitelevel::SubtreeModel`], `learn --method subtree`).
//!
//! What it must not know: profiles, file formats, the command line, other methods.

pub mod features;
pub mod logreg;
pub mod model;
pub mod sitelevel;
pub mod smoothing;
pub mod train;

pub use model::{
    ApplyOptions, PageLevel, PageModel, PageScores, Segment, SmoothWeights, score_page,
};
pub use sitelevel::{SiteLevelConfig, SubtreeModel};

/// Why a model cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model file is not a usable page-level model.
    #[error("page-level model: {0}")]
    Model(String),
}
