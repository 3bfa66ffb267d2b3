//! # chaff-corpus: pages in, outputs out
//!
//! This crate delivers web pages to the rest of chaff as bytes with their
//! provenance, and writes results back safely. It reads files of any name
//! (gzip transparently), folders (walked without recursion, in sorted order,
//! hidden entries skipped), glob patterns, WARC archives (HTML `response` and
//! `resource` records, HTTP codings undone) and JSON Lines on standard input;
//! it names sites ([`site_key`]) so that pages sharing a template can be
//! grouped; and it writes files atomically, derives safe output names, and
//! streams JSON Lines that end quietly on a broken pipe.
//!
//! What it must **not** know: HTML parsing, DOMs, character decoding beyond
//! passing on a declared charset, templates, extraction methods or
//! evaluation. A page leaves this crate as undecoded bytes plus metadata;
//! the caller extracts anything that needs a DOM (such as a page's
//! `<link rel=canonical>`, passed back into [`site_key`]).
//!
//! Errors are values: one bad page, record or line is an `Err` item of the
//! [`Pages`] iterator, and iteration continues.
//!
//! ```no_run
//! use chaff_corpus::{Pages, PagesOptions, site_key};
//!
//! let args = vec!["crawl.warc.gz".to_string(), "saved-pages/".to_string()];
//! let pages = Pages::from_args(&args, PagesOptions::default())?; // fails if an input is missing
//! for item in pages {
//!     match item {
//!         Ok(page) => {
//!             let site = site_key(page.url.as_deref(), None, page.folder.as_deref());
//!             println!("{} {} ({} bytes)", site, page.source, page.bytes.len());
//!         }
//!         Err(e) => eprintln!("warning: {e}"),
//!     }
//! }
//! # Ok::<(), chaff_corpus::CorpusError>(())
//! ```

mod decode;
mod error;
pub mod http;
mod input;
mod jsonl;
pub mod sink;
pub mod site;
pub mod warc;

pub use error::{CorpusError, WarcResume};
pub use input::{
    DEFAULT_MAX_PAGE_BYTES, InputSpec, Media, Page, Pages, PagesOptions, expand_inputs, is_url,
};
pub use sink::{
    JsonlWriter, MAX_OUTPUT_NAME, OutputNames, PAGES_JOURNAL, PageSink, WriteOutcome, Written,
    atomic_write, output_name,
};
pub use site::{
    SiteKey, SiteKeySource, UNKNOWN_SITE, original_url, registrable_domain, site_file_stem,
    site_key,
};
pub use warc::{WarcCompression, WarcPages, WarcWriter};
