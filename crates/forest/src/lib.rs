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
    /// A feed file could not be read or parsed.
    #[error("{path}: {message}")]
    FeedFile {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A stored wrapper is not a valid XPath.
    #[error(transparent)]
    XPath(#[from] chaff_dom::XPathError),
    /// A stored wrapper is longer than [`model::MAX_XPATH_BYTES`].
    #[error("XPath of {bytes} bytes is longer than the {} KiB limit", model::MAX_XPATH_BYTES >> 10)]
    XPathTooLong {
        /// Its length in bytes.
        bytes: usize,
    },
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
/// page's terms before any page's paths can be weighed). The parse is shared with the
/// learner's, not copied ([`Document`] clones share one tree); the text view is copied.
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
            .map_err(|e| MethodError::new(format!("wrapper: {e}")))
    }

    fn evidence(&self, compiled: &CompiledForest, page: &PageInput<'_>) -> Verdict {
        let selected = match compiled.try_select(page.doc) {
            Ok(selected) => selected,
            Err(e) => return Verdict::Abstain(e.to_string()),
        };
        if selected.is_empty() {
            return Verdict::Abstain("the wrapper matches nothing on this page".into());
        }
        Verdict::Evidence(Evidence::new(
            labels_for_selection(page.doc, &selected),
            Meaning::Membership,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaff_core::{DynMethod, Erased, Role};
    use chaff_dom::Selector;

    const ARTICLES: [(&str, &str); 4] = [
        (
            "Halloween past and present",
            "<p>Halloween has pagan origins; the Celts celebrated Samhain.</p>\
             <p>On Samhain night spirits walked, the Celts believed, and Halloween grew.</p>",
        ),
        (
            "Oktoberfest then and now",
            "<p>Oktoberfest began with a royal wedding in Munich.</p>\
             <p>Munich still hosts Oktoberfest with beer tents every autumn.</p>",
        ),
        (
            "Storm chasers in Kansas",
            "<p>Chasers follow tornadoes across Kansas plains.</p>\
             <p>Kansas tornadoes draw chasers each spring; radar guides the chasers.</p>",
        ),
        (
            "Glaciers of Patagonia",
            "<p>Patagonian glaciers calve icebergs into turquoise lakes.</p>\
             <p>Glaciers retreat as Patagonia warms; icebergs drift south.</p>",
        ),
    ];

    /// One page of the test site: a menu, a sidebar, the story (when `story` is given) and a
    /// footer.
    fn page(i: usize, story: Option<(&str, &str)>) -> (Document, TextView) {
        let story = story.map_or(String::new(), |(title, body)| {
            format!("<div class='story wrapper-0{i}'><h1>{title}</h1>{body}</div>")
        });
        let html = format!(
            "<html><body><div id=nav><a>Home</a> <a>News</a> <a>Sport</a> <a>Weather</a></div>\
             <div class='side s{i}'><p>Latest: market report, cup final, storm warning</p></div>\
             {story}<div id=foot>Copyright the site, all rights reserved</div></body></html>"
        );
        let doc = chaff_dom::parse(html.as_bytes()).expect("test pages parse");
        let view = TextView::new(&doc);
        (doc, view)
    }

    fn input<'a>(p: &'a (Document, TextView), url: Option<&'a str>) -> PageInput<'a> {
        PageInput {
            doc: &p.0,
            view: &p.1,
            source: None,
            url,
        }
    }

    fn first(doc: &Document, css: &str) -> chaff_dom::NodeId {
        Selector::parse(css)
            .expect("selector")
            .select_first(doc, chaff_dom::NodeId(0))
            .expect("node")
    }

    /// Learns through the type-erased seam and compiles the model read back from its JSON.
    fn learn_round_trip(method: &ForestMethod, urls: [Option<&str>; 4]) -> (Erased, ForestModel) {
        let pages: Vec<_> = (0..4).map(|i| page(i, Some(ARTICLES[i]))).collect();
        let data = pages
            .iter()
            .zip(urls)
            .map(|(p, url)| DynMethod::page_data(method, &input(p, url)))
            .collect();
        let model = DynMethod::learn(method, data).expect("learns");
        let json = method.model_to_json(&model).expect("serialises");
        let compiled = DynMethod::compile(method, Some(&json)).expect("compiles");
        let model: ForestModel = serde_json::from_value(json).expect("a FOREST model");
        (compiled, model)
    }

    #[test]
    fn method_keeps_the_story_of_a_new_page_and_abstains_without_one() {
        let method = ForestMethod::default();
        assert_eq!(DynMethod::name(&method), "forest");
        assert_eq!(DynMethod::scope(&method), Scope::Site);
        let (compiled, model) = learn_round_trip(&method, [None; 4]);
        assert_eq!(model.signifiers, model::SignifierSource::TfIdf);
        let fresh = page(
            7,
            Some((
                "Lighthouses",
                "<p>Keepers tended lighthouses on rocky capes.</p>",
            )),
        );
        let verdict = DynMethod::evidence(&method, &compiled, &input(&fresh, None));
        let evidence = verdict.evidence().expect("the wrapper matches the story");
        assert_eq!(evidence.meaning(), Meaning::Membership);
        let doc = &fresh.0;
        let story = first(doc, ".story");
        // Exactly the labels of the selection, as before the seam.
        let selected = model.compile().expect("compiles").select(doc);
        assert_eq!(selected, [story]);
        assert_eq!(evidence.labels(), &labels_for_selection(doc, &selected));
        assert_eq!(evidence.role(story), Some(Role::Content));
        assert_eq!(evidence.score(story), Some(0.0));
        assert_eq!(evidence.role(first(doc, "h1")), Some(Role::Content));
        assert_eq!(
            evidence.role(doc.body().expect("body")),
            Some(Role::Content)
        );
        for template in ["#nav", ".side", "#foot"] {
            assert_eq!(evidence.role(first(doc, template)), Some(Role::Template));
            assert_eq!(evidence.score(first(doc, template)), Some(1.0));
        }
        // A page of the site without an article: no opinion, the page is not deleted.
        let index = page(8, None);
        let verdict = DynMethod::evidence(&method, &compiled, &input(&index, None));
        assert_eq!(
            verdict.abstained(),
            Some("the wrapper matches nothing on this page")
        );
    }

    #[test]
    fn feed_items_give_signifiers_through_the_pages_urls() {
        let rss = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>
            <item><title>Halloween past and present</title>
            <link>http://example.org/halloween</link>
            <description>The Celts celebrated Samhain</description></item>
            </channel></rss>"#;
        let mut feeds = FeedItems::new();
        assert_eq!(feeds.add_feed(rss).expect("a feed"), 1);
        let method = ForestMethod {
            feeds: Some(Arc::new(feeds)),
            ..ForestMethod::default()
        };
        let urls = [Some("https://example.org/halloween/"), None, None, None];
        let (_, model) = learn_round_trip(&method, urls);
        assert_eq!(model.signifiers, model::SignifierSource::Feeds);
        // Without the URL no item matches.
        let (_, model) = learn_round_trip(&method, [None; 4]);
        assert_eq!(model.signifiers, model::SignifierSource::TfIdf);
    }

    #[test]
    fn a_missing_or_unparsable_wrapper_is_a_compile_error() {
        let method = ForestMethod::default();
        let err = DynMethod::compile(&method, None).expect_err("needs a model");
        assert!(err.to_string().contains("learned wrapper"), "{err}");
        let (_, model) = learn_round_trip(&method, [None; 4]);
        let mut json = serde_json::to_value(ForestModel {
            xpath: "//div[".into(),
            relaxed_xpath: None,
            ..model
        })
        .expect("serialises");
        let err = DynMethod::compile(&method, Some(&json)).expect_err("bad XPath");
        // The expression is quoted once, by the XPath error (shortened when long).
        assert!(
            err.to_string()
                .contains("wrapper: invalid XPath \"//div[\""),
            "{err}"
        );
        json["xpath"] = serde_json::Value::from(7);
        let err = DynMethod::compile(&method, Some(&json)).expect_err("bad JSON");
        assert!(err.to_string().contains("invalid model"), "{err}");
    }
}
