//! `chaff`: learn a web site's template from many of its pages, and remove it.
//!
//! What it is for: the library behind the `chaff` command, and the entry point for programs
//! embedding chaff. It ties the focused crates together: pages come from `chaff-corpus`,
//! are parsed by `chaff-dom`, methods (`chaff-suffix`, `chaff-align`, ...) learn models that are stored in a
//! [`profile::Profile`], and `chaff-extract` renders what remains.
//!
//! What it must not know: command-line parsing, terminals and progress bars, process exit
//! codes. Those belong to the binary.

pub mod pipeline;
pub mod profile;

pub use chaff_corpus as corpus;
pub use chaff_dom as dom;
pub use chaff_extract::Format;
pub use pipeline::{
    CleanedPage, Cleaner, LearnOptions, Learned, LoadOptions, LoadedPage, MethodSet, SiteChoice,
    learn, learn_sites, load_page,
};
pub use profile::Profile;

/// Errors of the library, each one line a user can act on.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A profile could not be read or is invalid.
    #[error("{path}: {message}")]
    Profile {
        /// The profile's path.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Reading inputs or writing outputs failed.
    #[error(transparent)]
    Corpus(#[from] chaff_corpus::CorpusError),
    /// One page could not be parsed.
    #[error("{page}: {message}")]
    Page {
        /// The page's provenance.
        page: String,
        /// Why.
        message: String,
    },
    /// Learning failed.
    #[error(transparent)]
    Suffix(#[from] chaff_suffix::SuffixError),
    /// Learning a template by alignment failed.
    #[error(transparent)]
    Align(#[from] chaff_align::AlignError),
    /// Learning the main content's wrapper (FOREST) failed.
    #[error(transparent)]
    Forest(#[from] chaff_forest::ForestError),
    /// The profile lacks a method that was asked for.
    #[error("the profile has no {method} model (it has: {has})")]
    MissingMethod {
        /// The method asked for.
        method: &'static str,
        /// The methods the profile has.
        has: String,
    },
    /// The inputs held no usable page.
    #[error("no pages found in the inputs")]
    NoPages,
    /// `learn` was given pages of several sites without saying what to do.
    #[error(
        "the pages come from {count} sites: {sites}; name one with --site or learn one profile per site with --per-site"
    )]
    MixedSites {
        /// How many sites.
        count: usize,
        /// The sites with their page counts.
        sites: String,
    },
    /// `--site` named a site none of the pages belongs to.
    #[error("no page belongs to the site {site}; the pages' sites are: {sites}")]
    NoSuchSite {
        /// The requested site.
        site: String,
        /// The sites found.
        sites: String,
    },
}
