//! `chaff-cli`: the `chaff` command, and the parts of it the research harness (`chaff-lab`)
//! shares, so that each flag is defined once: the flags that configure methods and outputs
//! ([`flags`]), inputs, progress and exit status ([`common`]), and the crawl command
//! ([`crawl`]).
//!
//! What it must not know: how methods learn or extract (the `chaff` facade does), data sets
//! and evaluation (the research harness does).

pub mod common;
pub mod crawl;
pub mod fetch;
pub mod flags;
