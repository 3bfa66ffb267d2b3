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

use std::sync::Arc;

use chaff_core::{Evidence, Meaning, Method, MethodError, PageInput, Scope, Verdict};
use chaff_dom::{Document, TextView};

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

/// FOREST behind chaff's method seam: learns the wrapper from a site's pages and keeps, on a
/// page, the subtrees it selects ([`Meaning::Membership`]). A wrapper that selects nothing on
/// a page abstains: the page is not declared all template.
#[derive(Clone, Debug, Default)]
pub struct ForestMethod {
    /// The learner's parameters.
    pub config: ForestConfig,
    /// Web-feed items giving signifiers to the pages they link to.
    pub feeds: Option<Arc<FeedItems>>,
}

/// What FOREST keeps of a page while learning: the page itself (signifiers need every
/// page's terms before any page's paths can be weighed).
#[derive(Clone, Debug)]
pub struct ForestPage {
    doc: Document,
    view: TextView,
    url: Option<String>,
}

impl Method for ForestMethod {
    type PageData = ForestPage;
    type Model = ForestModel;
    type Compiled = CompiledForest;

    fn name(&self) -> &'static str {
        "forest"
    }

    fn scope(&self) -> Scope {
        Scope::Site
    }

    fn page_data(&self, page: &PageInput<'_>) -> ForestPage {
        ForestPage {
            doc: Document::clone(page.doc),
            view: TextView::clone(page.view),
            url: page.url.map(str::to_string),
        }
    }

    fn learn(&self, pages: Vec<ForestPage>) -> Result<ForestModel, MethodError> {
        let inputs: Vec<PageInput<'_>> = pages
            .iter()
            .map(|p| PageInput {
                doc: &p.doc,
                view: &p.view,
                source: None,
                url: p.url.as_deref(),
            })
            .collect();
        let learned = learn::learn(&inputs, &self.config, self.feeds.as_deref());
        Ok(learned.map_err(MethodError::new)?.model)
    }

    fn compile(&self, model: Option<ForestModel>) -> Result<CompiledForest, MethodError> {
        let model = model.ok_or_else(|| MethodError::new("FOREST needs a learned wrapper"))?;
        model
            .compile()
            .map_err(|e| MethodError::new(format!("wrapper {}: {e}", model.xpath)))
    }

    fn evidence(&self, compiled: &CompiledForest, page: &PageInput<'_>) -> Verdict {
        let selected = compiled.select(page.doc);
        if selected.is_empty() {
            return Verdict::Abstain("the wrapper matches nothing on this page".into());
        }
        Verdict::Evidence(Evidence::new(
            labels_for_selection(page.doc, &selected),
            Meaning::Membership,
        ))
    }
}
