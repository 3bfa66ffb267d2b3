//! `chaff-dom`: bytes in, an arena HTML document out.
//!
//! What it is for: turning a page's bytes into a [`Document`] any method can read cheaply —
//! encoding sniffing ([`encoding`]), web-archive inserts taken out ([`archive`]: the Wayback
//! Machine's toolbar, replay scripts and notice; on by default, spans unaffected), text that
//! was UTF-8 misread as Latin-1 before the page was served read again ([`mojibake`]), a fast
//! whole-input tokenizer (`tokenize.rs`) feeding html5ever's standards-compliant tree builder
//! (html5ever's own tokenizer stays selectable with [`TokenizerKind`]), nodes numbered in
//! depth-first pre-order ([`NodeId`]), source spans ([`Document::span`]: byte ranges of the
//! decoded text each node was parsed from), the visible-text view ([`TextView`]), CSS selectors
//! ([`select`]), XPath 1.0 expressions ([`xpath`]) and serialisation ([`serialize`]).
//!
//! What it must not know: templates, sites, labels, methods or output formats. Nothing here
//! decides what is content; it only describes the page faithfully.
//!
//! Invariants every consumer may rely on:
//! * ids are pre-order: the subtree of `n` is `n..doc.subtree_end(n)`, the parent of `n` is
//!   smaller than `n`, and the root is [`NodeId::ROOT`];
//! * no traversal in this crate recurses, and depth is capped at
//!   [`ParseOptions::max_depth`], so hostile nesting cannot exhaust the stack;
//! * parsing never panics on input bytes: invalid encodings decode with U+FFFD, and the only
//!   errors are the size limit and binary input ([`DomError`]).

pub mod archive;
pub mod document;
pub mod encoding;
mod error;
pub mod mojibake;
mod parse;
pub mod select;
pub mod serialize;
pub mod text;
mod tokenize;
pub mod xpath;

pub use document::{Attr, ClassId, ClassMemo, Document, ElementNs, NodeId, NodeKind};
pub use encoding::{EncodingSource, looks_binary};
pub use error::DomError;
pub use parse::{
    DEFAULT_BYTES_PER_NODE, DEFAULT_NODE_FLOOR, NodeBudget, ParseOptions, TokenizerKind,
    is_heading, parse, parse_str, parse_with,
};
pub use select::{Locator, MatchContext, Select, Selector, SelectorError, unique_selector};
pub use text::{Segment, SegmentCursor, TextView};
pub use xpath::{XPath, XPathBudgetError, XPathError, work_budget};
