//! `chaff crawl`: a site's pages into a WARC file, politely (chaff-crawl does the work;
//! this is arguments, the progress bar and the summary).
//!
//! Exit status 1 when some URLs could not be fetched at all (network errors, timeouts, size
//! and redirect limits); responses with an HTTP error status are stored and only counted.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use chaff_crawl::{CrawlConfig, ScopeKind, Seed, Stats, Summary, parse_duration, seed_file};
use clap::Args;

use crate::common::{Progress, Status};

value_enum! {
    /// [`ScopeKind`] on the command line.
    enum ScopeArg => ScopeKind {
        /// The seed's host (and port).
        Host,
        /// Any host of the seed's registrable domain.
        Domain,
        /// URLs starting with the seed URL up to its last `/`.
        Prefix,
    }
}

/// How requests are made, by `chaff crawl` and by commands that fetch pages named by URL.
#[derive(Args, Clone, Debug)]
pub struct PoliteArgs {
    /// Pause between requests to one host (robots.txt's Crawl-delay wins when larger):
    /// `1s`, `200ms`, `2m`.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub delay: Duration,
    /// Time for a whole request and response.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Retries after a 429, 5xx, timeout or network error.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub retries: u8,
    /// The User-Agent sent (robots.txt is matched on the token `chaff`).
    #[arg(long, default_value = chaff_crawl::USER_AGENT)]
    pub user_agent: String,
}

/// The media types of HTML pages.
const HTML_TYPES: &str = "text/html,application/xhtml+xml";

/// Arguments of `chaff crawl`.
#[derive(Args)]
pub struct CrawlArgs {
    /// Seed page URLs.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
    /// A file of seed URLs, one per line (`#` comments; `-` for stdin); read as a stream.
    #[arg(long, value_name = "FILE")]
    seeds: Option<PathBuf>,
    /// A sitemap (index or urlset, gzip or not) whose pages are seeds.
    #[arg(long, value_name = "URL")]
    sitemap: Vec<String>,
    /// An RSS or Atom feed whose items' pages are seeds (items kept as metadata records).
    #[arg(long, value_name = "URL")]
    feed: Vec<String>,
    /// The WARC file to write (one gzip member per record).
    #[arg(long, short, value_name = "FILE.warc.gz")]
    out: PathBuf,
    /// Continue an interrupted crawl from its journal (FILE.warc.gz.journal).
    #[arg(long)]
    resume: bool,
    /// Page fetches per host, at most.
    #[arg(long, value_name = "N")]
    max_pages_per_site: Option<u64>,
    /// Page fetches in all, at most.
    #[arg(long, value_name = "N")]
    max_pages: Option<u64>,
    /// Links followed from a seed, at most.
    #[arg(long, default_value_t = 20, value_name = "N")]
    max_depth: u16,
    /// Which links are followed.
    #[arg(long, value_enum, default_value = "host")]
    scope: ScopeArg,
    /// Requests under way at once, over all hosts.
    #[arg(long, default_value_t = 16, value_name = "N")]
    concurrency: usize,
    /// Requests under way at once to one host, when --delay is 0 (else one).
    #[arg(long, default_value_t = 4, value_name = "N")]
    per_host_connections: u32,
    /// Time to connect.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    connect_timeout: Duration,
    /// Largest response body kept, in bytes (larger ones are abandoned).
    #[arg(long, default_value_t = 10 << 20, value_name = "BYTES")]
    max_size: u64,
    /// Redirects followed from one URL, at most.
    #[arg(long, default_value_t = 5, value_name = "N")]
    max_redirects: u8,
    /// First retry back-off, doubled at each retry (Retry-After overrides it).
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    retry_backoff: Duration,
    /// Media types of pages kept.
    #[arg(long, value_delimiter = ',', default_value = HTML_TYPES)]
    accept: Vec<String>,
    /// How requests are made.
    #[command(flatten)]
    polite: PoliteArgs,
    /// Do not show a progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `chaff crawl`.
pub fn run(args: CrawlArgs) -> anyhow::Result<Status> {
    if args.urls.is_empty()
        && args.seeds.is_none()
        && args.sitemap.is_empty()
        && args.feed.is_empty()
        && !args.resume
    {
        bail!("no seeds: give URLs, --seeds FILE, --sitemap URL or --feed URL");
    }
    let config = CrawlConfig {
        out: args.out.clone(),
        resume: args.resume,
        concurrency: args.concurrency.max(1),
        per_host_connections: args.per_host_connections.max(1),
        delay: args.polite.delay,
        scope: args.scope.into(),
        max_depth: args.max_depth,
        max_pages_per_site: args.max_pages_per_site,
        max_pages: args.max_pages,
        timeout: args.polite.timeout,
        connect_timeout: args.connect_timeout,
        max_body_bytes: args.max_size,
        max_redirects: args.max_redirects,
        max_retries: args.polite.retries,
        retry_backoff: args.retry_backoff,
        accept: args.accept.clone(),
        user_agent: args.polite.user_agent.clone(),
        ..CrawlConfig::default()
    };
    let fixed: Vec<Seed> = args
        .sitemap
        .iter()
        .cloned()
        .map(Seed::Sitemap)
        .chain(args.feed.iter().cloned().map(Seed::Feed))
        .chain(args.urls.iter().cloned().map(Seed::Page))
        .collect();
    let from_file = match &args.seeds {
        Some(p) => {
            Some(seed_file(p).with_context(|| format!("cannot open seeds {}", p.display()))?)
        }
        None => None,
    };
    let seeds = fixed.into_iter().chain(from_file.into_iter().flatten());
    let summary = crawl_with_progress(config, seeds, args.quiet, Arc::default())?;
    eprintln!("chaff: crawled {summary}; wrote {}", args.out.display());
    for e in &summary.first_errors {
        eprintln!("chaff:   {e}");
    }
    Ok(if summary.errors > 0 {
        Status::Partial
    } else {
        Status::Ok
    })
}

/// Runs a crawl with a progress bar (pages, bytes, errors, queue) on stderr, hidden when
/// stderr is not a terminal; `stats` are the live counters (others may watch them too).
pub fn crawl_with_progress(
    config: CrawlConfig,
    seeds: impl Iterator<Item = Seed> + Send + 'static,
    quiet: bool,
    stats: Arc<Stats>,
) -> anyhow::Result<Summary> {
    let line = Progress::status_line(quiet);
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                line.set_message(&stats.to_string());
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let result = chaff_crawl::crawl(config, seeds, Arc::clone(&stats));
        done.store(true, Ordering::Relaxed);
        result
    });
    line.finish();
    Ok(result?)
}
