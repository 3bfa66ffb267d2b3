//! `chaff-cli`: the `chaff` command, and the flag definitions it shares with the research
//! harness (`chaff-lab`), so that each flag is defined once.
//!
//! What it must not know: how methods learn or extract (the `chaff` facade does), data sets
//! and evaluation (the research harness does).

pub mod common;
pub mod flags;
