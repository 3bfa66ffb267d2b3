//! `chaff-forest`: the main content of a site's pages by significant tag paths (Oita &
//! Senellart, "FOREST: Focused Object Retrieval by Exploiting Significant Tag Paths").
//!
//! What it is for: finding, from a few sample pages of a site, the one generic XPath that
//! selects the article on every page, and labelling pages with it. The steps follow the
//! paper:
//!
//! 1. signifiers ([`signifiers`]): per page, the top-k (k = 10) terms by tf-idf over the
//!    sample pages after tokenisation, stop-word removal and stemming in the page's detected
//!    language ([`terms`]); or the title and description of the web-feed item linking to the
//!    page ([`FeedItems`]);
//! 2. significant text leaves and their terminal tag paths, element types in tolerant form or
//!    by `dfs` index, structural patterns (type, level) ([`learn`](mod@learn));
//! 3. ranking by relevance built on Jeffreys' density and unexpectedness ([`measures`]), or by
//!    the COVERAGE baseline;
//! 4. the top pattern as a generic XPath with its `dfs` alternatives, and a CSS selector where
//!    one is equivalent ([`model`]); [`ForestModel`] labels pages: everything outside the
//!    selected subtrees is template.
//!
//! What it must not know: profiles, file formats, the command line, other methods.

pub mod learn;
pub mod measures;
pub mod model;
mod page;
pub mod signifiers;
pub mod terms;

use chaff_core::{PageInput, SiteMethod};

pub use learn::{
    AttributeForm, DEFAULT_KEYWORDS, DEFAULT_MIN_TEMPLATE_SHARE, ElementType, ForestConfig,
    Learned, RankedPattern, learn, tolerant_form,
};
pub use model::{CompiledForest, ForestModel, Ranking, SignifierSource, labels_for_selection};
pub use signifiers::FeedItems;

/// Why learning failed.
#[derive(Debug, thiserror::Error)]
pub enum ForestError {
    /// No page to learn from.
    #[error("FOREST needs at least one page")]
    NoPages,
    /// No text leaf of any page held a signifier (pages without text).
    #[error("FOREST found no text holding a signifier on the pages")]
    NoSignificantNodes,
    /// A web feed could not be parsed.
    #[error("not a web feed: {0}")]
    Feed(String),
    /// A stored wrapper is not a valid XPath.
    #[error(transparent)]
    XPath(#[from] chaff_dom::XPathError),
}

/// FOREST as a [`SiteMethod`]: a configuration and optional feeds.
#[derive(Clone, Debug, Default)]
pub struct Forest {
    /// The learner's parameters.
    pub config: ForestConfig,
    /// Web-feed items giving signifiers to the pages they link to.
    pub feeds: Option<FeedItems>,
}

impl SiteMethod for Forest {
    type Model = ForestModel;
    type Error = ForestError;

    fn learn(&self, pages: &[PageInput<'_>]) -> Result<ForestModel, ForestError> {
        Ok(learn::learn(pages, &self.config, self.feeds.as_ref())?.model)
    }
}
