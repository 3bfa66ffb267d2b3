//! Pages parsed while learning, kept for extraction so that `extract --learn` parses each
//! page once rather than twice.
//!
//! Learning a stream ([`crate::Learner::learn_sites_keeping`]) parses every page and keeps
//! of it only each method's material; the extraction pass that follows reads the pages
//! again. Parsing is about a third of page-level extraction, so parsing twice was a large
//! share of what site learning costs. The parses are kept up to a budget in bytes of the
//! pages' HTML (a page's parse is within about 10 times its size, see
//! [`crate::LoadOptions`]), the first pages read first; past the budget the rest are parsed
//! again, so memory stays bounded on any input.

use std::collections::HashMap;

use crate::load::{LoadOptions, LoadedPage};

/// Parses kept for extraction, by page source, with the options they were made with.
#[derive(Clone, Debug)]
pub struct Parsed {
    pages: HashMap<String, LoadedPage>,
    held: u64,
    budget: u64,
    load: LoadOptions,
}

impl Parsed {
    /// The budget `chaff extract --learn` keeps parses within unless told otherwise: 64 MiB
    /// of HTML, a site of a few hundred pages.
    pub const DEFAULT_BUDGET: u64 = 64 << 20;

    /// An empty store that keeps parses of pages of at most `budget` bytes in all, parsed
    /// with `load`.
    pub fn new(budget: u64, load: LoadOptions) -> Parsed {
        Parsed {
            pages: HashMap::new(),
            held: 0,
            budget,
            load,
        }
    }

    /// Keeps `page` (of `size` bytes of HTML) if the budget has room and no page of the same
    /// source is kept (a source read twice is parsed again the second time). Returns whether
    /// it was kept.
    pub fn offer(&mut self, size: u64, page: LoadedPage) -> bool {
        if self.held.saturating_add(size) > self.budget || self.pages.contains_key(&page.source) {
            return false;
        }
        self.held += size;
        self.pages.insert(page.source.clone(), page);
        true
    }

    /// Takes out the parse of the page read from `source`, if one is kept.
    pub fn take(&mut self, source: &str) -> Option<LoadedPage> {
        self.pages.remove(source)
    }

    /// How the kept pages were parsed.
    pub fn load_options(&self) -> &LoadOptions {
        &self.load
    }

    /// Number of parses kept.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// True when none is kept.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Bytes of HTML of the pages whose parses were kept (taking one out does not lower it:
    /// the budget counts what was kept, not what is left).
    pub fn kept_bytes(&self) -> u64 {
        self.held
    }
}
