//! # chaff-crawl: a site's pages into WARC, politely
//!
//! The thesis behind chaff's suffix method gathers each site's "observation history" with a
//! multithreaded polite crawler (Foschini, section 4.1); FOREST samples pages from web
//! feeds. This crate is that crawler: seeds (pages, sitemaps, RSS/Atom feeds) in, a
//! WARC/1.1 file out (request and response records, feed items as metadata records), ready
//! for `chaff learn --per-site`.
//!
//! * **Politeness.** One request at a time per host (several only when the delay is zero),
//!   at least the delay (default 1 s, as in the thesis, or robots.txt's Crawl-delay when
//!   larger) between the end of one request and the start of the next; robots.txt fetched
//!   first and obeyed ([`frontier`]).
//! * **Scheduling.** A min-heap of hosts keyed on the earliest time each may be fetched
//!   from; the time is checked again when a host is popped, and the host rescheduled when
//!   it moved ([`frontier::Frontier::pop_ready`]). Seeds are a stream, read as the frontier
//!   drains.
//! * **Limits.** Scope (host, registrable domain or URL prefix), depth, pages per host,
//!   timeouts, a body size cap, a redirect limit (redirect targets go through the seen set,
//!   so loops end), retries with back-off on 429, 5xx and network errors, media types.
//! * **Durability.** Every record is its own gzip member, a fetch's records are one write,
//!   and an append-only journal ([`journal`]) follows each write, so a crawl killed at any
//!   point leaves a readable WARC and `--resume` continues without refetching what is stored
//!   ([`store`]).
//!
//! What it must not know: templates, methods, profiles, terminals. Progress is published as
//! atomic counters ([`Stats`]) for the caller to display.
//!
//! [`testsite`] is a small HTTP/1.1 server on 127.0.0.1 for tests and benchmarks.

pub mod duration;
pub mod fetch;
mod fetched;
pub mod frontier;
pub mod journal;
pub mod links;
pub mod sources;
pub mod store;
pub mod testsite;
pub mod urls;

mod crawler;

pub use crawler::{
    CrawlConfig, CrawlError, ROBOTS_AGENT, Seed, Stats, Summary, USER_AGENT, crawl, crawl_async,
    human_bytes, read_url_list, seed_file, url_lines,
};
pub use duration::parse_duration;
pub use fetched::Fetched;
pub use sources::FeedItem;
pub use store::journal_path_for;
pub use urls::ScopeKind;
