//! `chaff-align`: a site's template by multiple alignment of its pages' tag sequences
//! (Geraci & Maggini, "A multi-sequence alignment algorithm for web template detection",
//! KDIR 2011).
//!
//! What it is for: the paper's method end to end. [`tokens`] turns a parsed page into its
//! sequence of normalised tags and text snippets, each keeping its DOM node; [`nw`] aligns two
//! sequences globally (Needleman–Wunsch with the paper's scores, in linear memory, fast on
//! pages of one site); [`distill`] merges sample pages in the binary consensus tree with
//! per-token support and the paper's pruning; [`model`] learns, stores and applies the
//! template, turning a page's aligned tokens into per-node [`chaff_core::Labels`].
//!
//! What it must not know: profiles, file formats, the command line, other methods.

pub mod distill;
pub mod model;
pub mod nw;
pub mod tokens;

pub use model::{
    AlignConfig, AlignError, AlignMethod, AlignModel, CompiledAlign, Learned, TemplateToken, learn,
    learn_sampled,
};
pub use tokens::{PageTokens, TokenKind, TokenOptions, tokenize};
