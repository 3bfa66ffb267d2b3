//! `chaff`: a web page's main content, with what chaff learned of its site when it has.
//!
//! What it is for: the one entry point of every front end (the `chaff` command, the Python
//! bindings, the server, the research harness). [`extract`] turns one page into its
//! [`Extraction`] with the built-in methods; an [`Extractor`] does the same with site
//! profiles, chosen methods and a fuser; a [`Learner`] learns site [`Profile`]s from pages.
//! Methods are found by name in a [`Registry`]; the [`fuse::Fuser`] turns their evidence into
//! labels; `chaff-extract` renders what remains.
//!
//! What it must not know: command-line flags, terminals and progress bars, process exit
//! codes, HTTP, Python or async runtimes, evaluation data sets. It starts no thread pool of
//! its own (learning uses rayon's global pool, as the caller configured it).
//!
//! ```
//! use chaff::{Extractor, Learner, Registry, SiteChoice};
//!
//! // Learn a site's template from its pages, then extract a page with it.
//! let page = |story: &str, words: &str| format!(
//!     "<html><body><nav><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></nav>\
//!      <main><h1>{story}</h1><p>{words}</p></main>\
//!      <footer>Copyright Example News, all rights reserved</footer></body></html>");
//! let stories = [
//!     ("Rain", "Heavy rain flooded the market square and shops closed early."),
//!     ("Choir", "A local choir won the regional contest with an unknown hymn."),
//!     ("Herons", "Scientists counted more herons on the river than ever before."),
//!     ("Museum", "The museum reopened its east wing after a decade of restoration."),
//! ];
//! let pages = stories.map(|(s, w)| Ok(chaff::corpus::Page {
//!     source: format!("{s}.html"),
//!     url: Some(format!("https://news.example.org/{s}")),
//!     bytes: page(s, w).into_bytes(),
//!     charset: None,
//!     folder: None,
//!     media: chaff::corpus::Media::Html,
//! }));
//! let registry = Registry::builtin()?;
//! let learner = Learner::new(&registry, &["suffix"])?;
//! let learned = learner.learn(pages.into_iter(), &SiteChoice::Single, &|_| {})?;
//! let mut store = chaff::ProfileStore::new();
//! store.insert(learned.profiles.into_iter().next().unwrap());
//! let ex = Extractor::builder().registry(registry).store(store).build()?;
//! let hail = page("Hail", "Volunteers planted four hundred trees along the ring road.");
//! let out = ex.extract(hail.as_bytes(), Some("https://news.example.org/hail"))?;
//! assert_eq!(out.profile_site(), Some("example.org"));
//! assert!(out.text().contains("four hundred trees"));
//! assert!(!out.text().contains("Copyright"));
//! # Ok::<(), chaff::Error>(())
//! ```

mod batch;
mod error;
mod extraction;
mod extractor;
pub mod fuse;
mod in_order;
pub mod language;
mod learner;
mod load;
mod parsed;
pub mod profile;
mod registry;
mod store;
pub mod template;

pub use batch::{ExtractAll, Extracted};
pub use chaff_content::page_classifier::PageClassifier;
pub use chaff_core::{
    Evidence, Labels, Meaning, Method, MethodError, Role, Scope, SiteVerdict, Verdict,
};
pub use chaff_corpus as corpus;
pub use chaff_dom as dom;
pub use chaff_extract::Format;
pub use chaff_meta::TitleModel;
pub use chaff_meta::{Metadata, PageType, Source as MetadataSource};
pub use error::Error;
pub use extraction::{Extraction, MethodVerdict, NoContent, format_name};
pub use extractor::{Extractor, ExtractorBuilder, extract};
pub use in_order::{InOrder, JobLost};
pub use learner::{Learned, Learner, SiteChoice};
pub use load::{
    LoadOptions, LoadedPage, SiteFrom, load_page, page_site, site_without_parsing, text_document,
};
pub use parsed::Parsed;
pub use profile::Profile;
pub use registry::Registry;
pub use store::{CompiledProfile, ProfileStore};

/// The page-level methods an [`Extractor`] applies when none are named: the content model,
/// and the comment detector that keeps readers' comments out of the main text (see
/// [`ExtractorBuilder::include_comments`]).
pub const DEFAULT_PAGE_METHODS: &[&str] = &["content", "comments"];

/// The site methods learned when none are named: those whose evidence the built-in content
/// model weighs, so that every input it was trained with is there.
pub const DEFAULT_SITE_METHODS: &[&str] = &chaff_content::site::METHODS;

/// The built-in methods and the options front ends configure them with (each method is
/// registered with its options: see [`Registry::register`]).
pub mod methods {
    /// Suffix-array template mining (Foschini).
    pub mod suffix {
        pub use chaff_suffix::mutable;
        pub use chaff_suffix::tokens::TokenizerSpec;
        pub use chaff_suffix::{SuffixConfig, SuffixMethod, SuffixModel, View};
    }
    /// Multiple alignment of tag sequences (Geraci & Maggini).
    pub mod align {
        pub use chaff_align::model::{DEFAULT_KEEP, DEFAULT_PAGES};
        pub use chaff_align::{AlignConfig, AlignMethod, AlignModel, TokenOptions};
    }
    /// The main content by significant tag paths (Oita & Senellart).
    pub mod forest {
        pub use chaff_forest::{
            AttributeForm, DEFAULT_KEYWORDS, DEFAULT_MIN_TEMPLATE_SHARE, FeedItems, ForestConfig,
            ForestMethod, ForestModel, Ranking,
        };
    }
    /// Page-level template detection and SiteLevel (Chakrabarti, Kumar & Punera).
    pub mod pagelevel {
        pub use chaff_pagelevel::{
            ApplyOptions, PageLevelMethod, PageModel, PageScores, Segment, SiteLevelConfig,
            SmoothWeights, SubtreeMethod, score_page,
        };
    }
    /// The content model: a classifier of text nodes trained on human gold text.
    pub mod content {
        pub use chaff_content::{
            ContentMethod, ContentModel, Decide, FAVOR_PRECISION_THRESHOLD, FAVOR_RECALL_DECIDE,
            FAVOR_RECALL_THRESHOLD, FAVOR_RECALL_WIDEN, Favor, Units, Widen, labels,
        };
    }
    /// Main-menu detection (Alarte, Insa & Silva).
    pub mod menu {
        pub use chaff_menu::{
            MenuMethod, MenuParams, MenuReport, detect, detect_with_prepared_siblings, siblings,
        };
    }
}
