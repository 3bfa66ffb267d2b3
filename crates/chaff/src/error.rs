//! The facade's errors: one line each, naming the file, page, site or method concerned and
//! what to do. They name no command-line flag; front ends add their own hints.

/// Errors of the library.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// A page was still being worked on when the extractor's deadline passed.
    #[error("{page}: page took longer than {limit:?}: stopped at {stage}")]
    Deadline {
        /// The page's provenance.
        page: String,
        /// The deadline.
        limit: std::time::Duration,
        /// The stage it was stopped at (`parse`, a method's name, `fuse`).
        stage: String,
    },
    /// A method could not learn or compile a model.
    #[error("{method}{}: {message}", site.as_ref().map(|s| format!(" on {s}")).unwrap_or_default())]
    Method {
        /// The method's name.
        method: String,
        /// The site, when one was concerned.
        site: Option<String>,
        /// What went wrong.
        message: String,
    },
    /// No method of that name is registered.
    #[error("no method named {name} (known: {known})")]
    UnknownMethod {
        /// The name asked for.
        name: String,
        /// The registered names.
        known: String,
    },
    /// A page-level method was asked to learn from a site.
    #[error("{name} is a page-level method: it learns nothing from a site")]
    NotSiteMethod {
        /// The method's name.
        name: String,
    },
    /// A site-level method was asked to run without a profile.
    #[error("{name} is a site-level method: it needs a site profile")]
    NotPageMethod {
        /// The method's name.
        name: String,
    },
    /// No method was chosen.
    #[error("no method chosen")]
    NoMethod,
    /// A profile lacks a method that was asked for.
    #[error("the profile has no {method} model (it has: {has})")]
    MissingMethod {
        /// The method asked for.
        method: String,
        /// The methods the profile has.
        has: String,
    },
    /// The inputs held no usable page.
    #[error("no pages found in the inputs")]
    NoPages,
    /// No template of a site has enough pages to learn from.
    #[error(
        "no template of {site} is shared by {min} of its {pages} pages (its pages differ too much to learn from)"
    )]
    NoTemplate {
        /// The site.
        site: String,
        /// Its pages.
        pages: usize,
        /// The pages a template needs.
        min: usize,
    },
    /// Single-site learning was given pages of several sites.
    #[error(
        "the pages come from {count} sites: {sites}; name one site or learn one profile per site"
    )]
    MixedSites {
        /// How many sites.
        count: usize,
        /// The sites with their page counts.
        sites: String,
    },
    /// A site was named that none of the pages belongs to.
    #[error("no page belongs to the site {site}; the pages' sites are: {sites}")]
    NoSuchSite {
        /// The requested site.
        site: String,
        /// The sites found.
        sites: String,
    },
}
