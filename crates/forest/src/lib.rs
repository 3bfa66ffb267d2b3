//! `chaff-forest`: the main content of a site's pages by significant tag paths (Oita &
//! Senellart, "FOREST: Focused Object Retrieval by Exploiting Significant Tag Paths").
//!
//! What it is for: finding, from a few sample pages of a site, the one generic XPath that
//! selects the article on every page. This crate is being built up; it holds so far the
//! measures of section 3.3 to 3.5 ([`measures`]), which rank structural patterns. Signifier
//! extraction, terminal paths, structural patterns and the wrapper come next.
//!
//! What it must not know: profiles, file formats, the command line, other methods.

pub mod measures;
