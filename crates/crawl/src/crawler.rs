//! The crawl loop: one coordinator task owns the frontier, the seen set, the robots rules
//! and the output; fetches run as separate tasks (up to the concurrency) and report back
//! over a channel. Only the coordinator touches shared state, so nothing is locked.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use url::Url;

use crate::fetch::{self, FetchError, FetchLimits, Fetched};
use crate::frontier::{Frontier, Pop, RobotsState};
use crate::journal::{Entry, Kind};
use crate::links::extract_links;
use crate::sources::{FeedItem, Sitemap, parse_feed, parse_sitemap};
use crate::store::{Exchange, Store, journal_path_for};
use crate::urls::{Scope, ScopeKind, SeenSet, host_key, normalize, url_hash};

/// The product token robots.txt groups are matched against.
pub const ROBOTS_AGENT: &str = "chaff";

/// The default `User-Agent`.
pub const USER_AGENT: &str = concat!(
    "chaff-crawl/",
    env!("CARGO_PKG_VERSION"),
    " (polite research crawler; robots.txt respected; +https://example.invalid/chaff)"
);

/// How to crawl.
#[derive(Debug, Clone)]
pub struct CrawlConfig {
    /// The WARC written (`.warc.gz`, one gzip member per record).
    pub out: PathBuf,
    /// The journal; `<out>.journal` if `None`.
    pub journal: Option<PathBuf>,
    /// Continue an interrupted crawl from its journal instead of starting afresh.
    pub resume: bool,
    /// Requests under way at once, over all hosts.
    pub concurrency: usize,
    /// Requests under way at once to one host when the delay is zero (else 1).
    pub per_host_connections: u32,
    /// Pause between the end of one request to a host and the start of the next.
    pub delay: Duration,
    /// robots.txt's Crawl-delay is honoured when larger than `delay`, up to this.
    pub max_crawl_delay: Duration,
    /// Fetch and obey robots.txt.
    pub robots: bool,
    /// Which links of a seed are followed.
    pub scope: ScopeKind,
    /// Links followed from a seed, at most.
    pub max_depth: u16,
    /// Page fetches per host, at most.
    pub max_pages_per_site: Option<u64>,
    /// Page fetches in all, at most.
    pub max_pages: Option<u64>,
    /// Time for a whole exchange.
    pub timeout: Duration,
    /// Time to connect.
    pub connect_timeout: Duration,
    /// Largest body kept.
    pub max_body_bytes: u64,
    /// Redirects followed from one URL, at most.
    pub max_redirects: u8,
    /// Retries after a 429, a 5xx, a timeout or a network error.
    pub max_retries: u8,
    /// First retry back-off; doubled at each retry (a `Retry-After` overrides it).
    pub retry_backoff: Duration,
    /// Media types of pages kept (others are dropped before their body is read), compared
    /// without case and surrounding spaces.
    pub accept: Vec<String>,
    /// `User-Agent` sent.
    pub user_agent: String,
    /// Whether the delay also follows a host's robots.txt request. A crawl waits; a list of
    /// pages asked for by name ([`CrawlConfig::page_list`]) fetches its first page of a host
    /// right after robots.txt, as a browser would, and spaces the next ones by the delay.
    pub wait_after_robots: bool,
    /// Problems kept, as `url: message`, for [`Summary::first_errors`] (a crawl of a
    /// list of pages wants every one; a site crawl the first few).
    pub max_reported_errors: usize,
}

impl Default for CrawlConfig {
    fn default() -> Self {
        CrawlConfig {
            out: PathBuf::from("crawl.warc.gz"),
            journal: None,
            resume: false,
            concurrency: 16,
            per_host_connections: 4,
            delay: Duration::from_secs(1),
            max_crawl_delay: Duration::from_secs(60),
            robots: true,
            scope: ScopeKind::Host,
            max_depth: 20,
            max_pages_per_site: None,
            max_pages: None,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_body_bytes: 10 << 20,
            max_redirects: 5,
            max_retries: 2,
            retry_backoff: Duration::from_secs(2),
            accept: vec!["text/html".into(), "application/xhtml+xml".into()],
            user_agent: USER_AGENT.into(),
            wait_after_robots: true,
            max_reported_errors: 20,
        }
    }
}

impl CrawlConfig {
    /// Fetches exactly the pages given, into `out`: no link followed (redirects still
    /// are), every URL that gives no page kept in [`Summary::first_errors`], and the body
    /// cap at `max_body_bytes`.
    pub fn page_list(out: PathBuf, max_body_bytes: u64) -> CrawlConfig {
        CrawlConfig {
            out,
            max_depth: 0,
            max_body_bytes,
            max_reported_errors: usize::MAX,
            wait_after_robots: false,
            ..CrawlConfig::default()
        }
    }
}

/// The URLs of a list: one per line, blank lines and `#` lines skipped, the rest trimmed.
pub fn read_url_list(reader: impl std::io::BufRead) -> std::io::Result<Vec<String>> {
    reader
        .lines()
        .filter_map(|line| line.map(url_of_line).transpose())
        .collect()
}

/// The seed pages listed in a file (`-`: standard input), read as needed ([`url_lines`]).
pub fn seed_file(path: &std::path::Path) -> std::io::Result<Box<dyn Iterator<Item = Seed> + Send>> {
    if path.as_os_str() == "-" {
        let stdin = std::io::BufReader::new(std::io::stdin());
        return Ok(Box::new(url_lines(stdin).map(Seed::Page)));
    }
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    Ok(Box::new(url_lines(file).map(Seed::Page)))
}

/// The URLs of a list as a stream, read as needed (a seed list of any length); reading
/// stops at the first read error.
pub fn url_lines(reader: impl std::io::BufRead) -> impl Iterator<Item = String> {
    reader.lines().map_while(Result::ok).filter_map(url_of_line)
}

fn url_of_line(line: String) -> Option<String> {
    let url = line.trim();
    (!url.is_empty() && !url.starts_with('#')).then(|| url.to_string())
}

impl std::fmt::Display for Stats {
    /// The live counters on one line, for a progress display.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        write!(
            f,
            "{} pages, {}, {} errors, {} HTTP 4xx/5xx, {} queued, {} in flight",
            get(&self.stored),
            human_bytes(get(&self.bytes)),
            get(&self.errors),
            get(&self.http_errors),
            get(&self.queued),
            get(&self.in_flight)
        )
    }
}

/// Where the crawl starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seed {
    /// A page; its scope is added to the crawl's.
    Page(String),
    /// A sitemap (index or urlset, gzip or not): its pages are seeds.
    Sitemap(String),
    /// An RSS or Atom feed: its items' pages are seeds, the items kept beside them.
    Feed(String),
}

/// Live counters, readable from another thread (the progress bar).
#[derive(Debug, Default)]
pub struct Stats {
    /// Responses stored (any status).
    pub stored: AtomicU64,
    /// Of those, pages with a 2xx status.
    pub pages_ok: AtomicU64,
    /// Body bytes received and stored.
    pub bytes: AtomicU64,
    /// URLs given up on without a stored response (network errors, timeouts, too large,
    /// redirect limits).
    pub errors: AtomicU64,
    /// Responses stored with a 4xx or 5xx status (after retries).
    pub http_errors: AtomicU64,
    /// Retries scheduled.
    pub retries: AtomicU64,
    /// URLs not fetched because robots.txt disallows them.
    pub robots_excluded: AtomicU64,
    /// URLs dropped by the per-site or overall page limit.
    pub limited: AtomicU64,
    /// Responses dropped for their media type.
    pub skipped_type: AtomicU64,
    /// URLs waiting.
    pub queued: AtomicU64,
    /// Requests under way.
    pub in_flight: AtomicU64,
}

impl Stats {
    fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// What a crawl did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Responses stored.
    pub stored: u64,
    /// Pages with a 2xx status stored.
    pub pages_ok: u64,
    /// Body bytes stored.
    pub bytes: u64,
    /// URLs given up on without a stored response.
    pub errors: u64,
    /// Responses stored with a 4xx or 5xx status.
    pub http_errors: u64,
    /// Retries.
    pub retries: u64,
    /// URLs excluded by robots.txt.
    pub robots_excluded: u64,
    /// URLs dropped by page limits.
    pub limited: u64,
    /// Responses dropped for their media type.
    pub skipped_type: u64,
    /// Hosts contacted.
    pub hosts: usize,
    /// URLs ever enqueued.
    pub seen: usize,
    /// URLs left in the frontier (a `max_pages` stop).
    pub left: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// The first errors (up to [`CrawlConfig::max_reported_errors`]), as `url: message`:
    /// URLs given up on, HTTP error statuses, seeds robots.txt disallows.
    pub first_errors: Vec<String>,
}

impl std::fmt::Display for Summary {
    /// What a crawl did, on one line: responses, hosts, bytes, rate and every kind of
    /// problem, counted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        write!(
            f,
            "{} responses ({} pages 2xx) from {} hosts, {} in {secs:.1} s ({:.0} responses/s); \
             {} errors, {} HTTP 4xx/5xx, {} retries, {} excluded by robots.txt, {} over limits, \
             {} of other types; {} URLs seen, {} left",
            self.stored,
            self.pages_ok,
            self.hosts,
            human_bytes(self.bytes),
            self.stored as f64 / secs,
            self.errors,
            self.http_errors,
            self.retries,
            self.robots_excluded,
            self.limited,
            self.skipped_type,
            self.seen,
            self.left,
        )
    }
}

/// A byte count for people: `512 B`, `3.2 KiB`, `1.5 MiB`, `2.0 GiB`.
pub fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / f64::from(1u32 << 30)),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}

/// Why a crawl could not run.
#[derive(Debug, thiserror::Error)]
pub enum CrawlError {
    /// The WARC or the journal could not be written or read.
    #[error("{path}: {source}")]
    Output {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The WARC exists and `resume` was not asked for.
    #[error("{0} exists: continue it with --resume, or remove it")]
    Exists(PathBuf),
    /// The HTTP client could not be built.
    #[error("HTTP client: {0}")]
    Client(String),
}

/// A fetch's result, sent back to the coordinator.
struct Done {
    host: usize,
    entry: Entry,
    finished: Instant,
    result: Result<Fetched, FetchError>,
    found: Found,
}

/// What a fetched body yielded, parsed in the fetch task.
#[derive(Default)]
enum Found {
    #[default]
    Nothing,
    Links(Vec<Url>),
    Sitemap(Sitemap),
    Feed(Vec<(Url, FeedItem)>),
}

/// A robots.txt fetch's result.
struct RobotsDone {
    host: usize,
    finished: Instant,
    result: Result<Fetched, FetchError>,
    url: String,
}

enum Msg {
    Fetch(Box<Done>),
    Robots(Box<RobotsDone>),
}

/// Seeds are taken from the stream only while fewer than this many URLs wait, so a long
/// seed list is never held in memory whole.
const ADMIT_SEEDS_BELOW: usize = 10_000;

/// Runs a crawl to its end on a new Tokio runtime. `seeds` is read lazily, on its own
/// thread, as the frontier drains.
pub fn crawl(
    config: CrawlConfig,
    seeds: impl Iterator<Item = Seed> + Send + 'static,
    stats: Arc<Stats>,
) -> Result<Summary, CrawlError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CrawlError::Client(e.to_string()))?;
    let (seed_tx, seed_rx) = mpsc::channel::<Seed>(256);
    std::thread::spawn(move || {
        for seed in seeds {
            if seed_tx.blocking_send(seed).is_err() {
                break;
            }
        }
    });
    runtime.block_on(crawl_async(config, seed_rx, stats))
}

/// Runs a crawl to its end on the current Tokio runtime, taking seeds from a channel until
/// it closes.
pub async fn crawl_async(
    config: CrawlConfig,
    seeds: mpsc::Receiver<Seed>,
    stats: Arc<Stats>,
) -> Result<Summary, CrawlError> {
    let mut crawler = Crawler::open(config, stats)?;
    crawler.run(seeds).await
}

struct Crawler {
    config: Arc<CrawlConfig>,
    client: reqwest::Client,
    robots_client: reqwest::Client,
    limits: Arc<FetchLimits>,
    frontier: Frontier,
    seen: SeenSet,
    scope: Scope,
    feed_items: HashMap<u64, FeedItem>,
    store: Store,
    warc_path: PathBuf,
    stats: Arc<Stats>,
    in_flight: usize,
    page_fetches: u64,
    first_errors: Vec<String>,
    started: Instant,
}

impl Crawler {
    fn open(config: CrawlConfig, stats: Arc<Stats>) -> Result<Self, CrawlError> {
        let journal_path = config
            .journal
            .clone()
            .unwrap_or_else(|| journal_path_for(&config.out));
        let out_err = |path: &PathBuf| {
            let path = path.clone();
            move |source| CrawlError::Output { path, source }
        };
        let client = build_client(&config, reqwest::redirect::Policy::none())?;
        let robots_client = build_client(&config, reqwest::redirect::Policy::limited(5))?;
        let per_host = if config.delay.is_zero() {
            config.per_host_connections.max(1)
        } else {
            1
        };
        let mut frontier = Frontier::new(per_host);
        let mut seen = SeenSet::new();
        let mut feed_items = HashMap::new();
        let mut page_fetches = 0;
        let mut scope = Scope::new(config.scope);
        let resumable = config.resume && journal_path.exists() && config.out.exists();
        let store = if resumable {
            let (store, replay) =
                Store::resume(&config.out, &journal_path).map_err(out_err(&journal_path))?;
            for h in &replay.seen {
                seen.insert_hash(*h);
            }
            page_fetches = replay.counted;
            feed_items = replay.feed_items;
            let mut counted = replay.counted_per_host;
            for seed in &replay.seed_pages {
                if let Ok(url) = Url::parse(seed) {
                    scope.add_seed(&url);
                }
            }
            for entry in replay.pending {
                let Ok(url) = Url::parse(&entry.url) else {
                    continue;
                };
                let id = host_for(&mut frontier, &config, &url);
                if let Some(n) = counted.remove(&host_key(&url))
                    && let Some(h) = frontier.host_mut(id)
                {
                    h.page_fetches = n;
                }
                frontier.push_back(id, entry);
            }
            store
        } else if config.out.exists() {
            return Err(CrawlError::Exists(config.out.clone()));
        } else {
            Store::create(&config.out, &journal_path, &config.user_agent)
                .map_err(out_err(&config.out))?
        };
        stats
            .queued
            .store(frontier.queued() as u64, Ordering::Relaxed);
        Ok(Crawler {
            limits: Arc::new(FetchLimits {
                timeout: config.timeout,
                max_body_bytes: config.max_body_bytes,
            }),
            warc_path: config.out.clone(),
            config: Arc::new(config),
            client,
            robots_client,
            frontier,
            seen,
            scope,
            feed_items,
            store,
            stats,
            in_flight: 0,
            page_fetches,
            first_errors: Vec::new(),
            started: Instant::now(),
        })
    }

    async fn run(&mut self, mut seeds: mpsc::Receiver<Seed>) -> Result<Summary, CrawlError> {
        let (tx, mut rx) = mpsc::channel::<Msg>(self.config.concurrency.max(1) * 2);
        let mut seeds_open = true;
        loop {
            // Take seeds while the frontier is short.
            while seeds_open && self.frontier.queued() < ADMIT_SEEDS_BELOW {
                match seeds.try_recv() {
                    Ok(seed) => self.admit_seed(seed)?,
                    Err(mpsc::error::TryRecvError::Empty) => break,
                    Err(mpsc::error::TryRecvError::Disconnected) => seeds_open = false,
                }
            }
            // Start what may start.
            let mut wake = None;
            while self.in_flight < self.config.concurrency.max(1) && !self.page_limit_reached() {
                match self.frontier.pop_ready(Instant::now()) {
                    Pop::Ready(id) => self.dispatch(id, &tx)?,
                    Pop::Wait(at) => {
                        wake = Some(at);
                        break;
                    }
                    Pop::Empty => break,
                }
            }
            self.publish();
            let idle = self.in_flight == 0;
            if idle
                && (self.page_limit_reached() || (!self.frontier.has_scheduled() && !seeds_open))
            {
                break;
            }
            let want_seeds = seeds_open && self.frontier.queued() < ADMIT_SEEDS_BELOW;
            let sleep_until = wake.map(tokio::time::Instant::from_std);
            tokio::select! {
                msg = rx.recv(), if !idle => {
                    if let Some(msg) = msg {
                        self.handle(msg)?;
                        // Take whatever else has finished before scheduling again.
                        while let Ok(msg) = rx.try_recv() {
                            self.handle(msg)?;
                        }
                    }
                }
                seed = seeds.recv(), if want_seeds => match seed {
                    Some(seed) => self.admit_seed(seed)?,
                    None => seeds_open = false,
                },
                () = sleep_opt(sleep_until), if sleep_until.is_some() => {}
                // Unreachable (idle with nothing scheduled and no seeds ends the loop above),
                // but never spin or panic.
                else => break,
            }
        }
        self.store.sync().map_err(|e| self.out_error(e))?;
        self.publish();
        Ok(self.summary())
    }

    fn page_limit_reached(&self) -> bool {
        self.config
            .max_pages
            .is_some_and(|max| self.page_fetches >= max)
    }

    fn publish(&self) {
        self.stats
            .queued
            .store(self.frontier.queued() as u64, Ordering::Relaxed);
        self.stats
            .in_flight
            .store(self.in_flight as u64, Ordering::Relaxed);
    }

    fn summary(&self) -> Summary {
        let s = &self.stats;
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Summary {
            stored: get(&s.stored),
            pages_ok: get(&s.pages_ok),
            bytes: get(&s.bytes),
            errors: get(&s.errors),
            http_errors: get(&s.http_errors),
            retries: get(&s.retries),
            robots_excluded: get(&s.robots_excluded),
            limited: get(&s.limited),
            skipped_type: get(&s.skipped_type),
            hosts: self.frontier.hosts(),
            seen: self.seen.len(),
            left: self.frontier.queued(),
            elapsed: self.started.elapsed(),
            first_errors: self.first_errors.clone(),
        }
    }

    fn out_error(&self, source: std::io::Error) -> CrawlError {
        CrawlError::Output {
            path: self.warc_path.clone(),
            source,
        }
    }

    fn note_error(&mut self, url: &str, message: &str) {
        Stats::add(&self.stats.errors, 1);
        self.remember_error(url, message);
    }

    fn remember_error(&mut self, url: &str, message: &str) {
        if self.first_errors.len() < self.config.max_reported_errors {
            self.first_errors.push(format!("{url}: {message}"));
        }
    }

    /// Adds a seed: widens the scope and enqueues it unless already seen.
    fn admit_seed(&mut self, seed: Seed) -> Result<(), CrawlError> {
        let (raw, kind) = match seed {
            Seed::Page(u) => (u, Kind::Page),
            Seed::Sitemap(u) => (u, Kind::Sitemap),
            Seed::Feed(u) => (u, Kind::Feed),
        };
        let Some(url) = normalize(&raw, None) else {
            self.note_error(&raw, "not an http(s) URL");
            return Ok(());
        };
        if kind == Kind::Page {
            self.scope.add_seed(&url);
        }
        self.enqueue(url, kind, 0, 0);
        self.store.commit().map_err(|e| self.out_error(e))
    }

    /// Enqueues a URL if new (journaling it); the caller commits the journal.
    fn enqueue(&mut self, url: Url, kind: Kind, depth: u16, hops: u8) -> bool {
        if !self.seen.insert(url.as_str()) {
            return false;
        }
        let entry = Entry {
            url: url.as_str().into(),
            kind,
            depth,
            hops,
            attempts: 0,
        };
        self.store.journal.enqueued(&entry);
        let id = host_for(&mut self.frontier, &self.config, &url);
        self.frontier.push_back(id, entry);
        true
    }

    /// Starts the next request of a host that may be fetched from now.
    fn dispatch(&mut self, id: usize, tx: &mpsc::Sender<Msg>) -> Result<(), CrawlError> {
        let now = Instant::now();
        let Some(host) = self.frontier.host_mut(id) else {
            return Ok(());
        };
        if matches!(host.robots, RobotsState::Unknown) {
            host.robots = RobotsState::Fetching;
            let url = format!("{}/robots.txt", host.origin);
            self.frontier.started(id, now);
            self.in_flight += 1;
            let client = self.robots_client.clone();
            let config = Arc::clone(&self.config);
            let limits = FetchLimits {
                timeout: self.limits.timeout,
                max_body_bytes: self.limits.max_body_bytes.min(500 << 10),
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let target = url.clone();
                let task = tokio::spawn(async move {
                    match Url::parse(&target) {
                        Ok(u) => fetch::fetch(&client, &u, &config.user_agent, None, &limits).await,
                        Err(e) => Err(FetchError::Network(e.to_string())),
                    }
                });
                // A task that panicked still reports, or the crawl would wait for it forever.
                let result = task
                    .await
                    .unwrap_or_else(|e| Err(FetchError::Internal(e.to_string())));
                let done = RobotsDone {
                    host: id,
                    finished: Instant::now(),
                    result,
                    url,
                };
                let _ = tx.send(Msg::Robots(Box::new(done))).await;
            });
            return Ok(());
        }
        let Some(entry) = self.frontier.take(id) else {
            return Ok(());
        };
        let Some(host) = self.frontier.host_mut(id) else {
            return Ok(());
        };
        if !host.allows(&entry.url) {
            Stats::add(&self.stats.robots_excluded, 1);
            if entry.depth == 0 && entry.kind == Kind::Page {
                // A page asked for by name, not a link found: say why it is missing.
                self.remember_error(&entry.url, "disallowed by robots.txt");
            }
            self.finish_without_fetch(id, &entry)?;
            return Ok(());
        }
        if entry.kind == Kind::Page {
            if self
                .config
                .max_pages_per_site
                .is_some_and(|max| host.page_fetches >= max)
            {
                Stats::add(&self.stats.limited, 1);
                self.finish_without_fetch(id, &entry)?;
                return Ok(());
            }
            host.page_fetches += 1;
            self.page_fetches += 1;
        }
        self.frontier.started(id, now);
        self.in_flight += 1;
        let client = self.client.clone();
        let config = Arc::clone(&self.config);
        let limits = Arc::clone(&self.limits);
        let tx = tx.clone();
        let fallback = entry.clone();
        tokio::spawn(async move {
            let task =
                tokio::spawn(
                    async move { fetch_entry(&client, &config, &limits, id, entry).await },
                );
            // A task that panicked still reports, or the crawl would wait for it forever.
            let done = task.await.unwrap_or_else(|e| Done {
                host: id,
                entry: fallback,
                finished: Instant::now(),
                result: Err(FetchError::Internal(e.to_string())),
                found: Found::Nothing,
            });
            let _ = tx.send(Msg::Fetch(Box::new(done))).await;
        });
        Ok(())
    }

    /// A URL leaves the frontier unfetched (robots, limits).
    fn finish_without_fetch(&mut self, id: usize, entry: &Entry) -> Result<(), CrawlError> {
        self.feed_items.remove(&url_hash(&entry.url));
        self.store
            .journal
            .done(&entry.url, self.store.warc_len(), false);
        self.store.commit().map_err(|e| self.out_error(e))?;
        self.frontier.schedule(id);
        Ok(())
    }

    fn handle(&mut self, msg: Msg) -> Result<(), CrawlError> {
        self.in_flight = self.in_flight.saturating_sub(1);
        match msg {
            Msg::Robots(done) => self.robots_done(*done),
            Msg::Fetch(done) => self.fetch_done(*done),
        }
    }

    fn robots_done(&mut self, done: RobotsDone) -> Result<(), CrawlError> {
        let RobotsDone {
            host: id,
            finished,
            result,
            url,
        } = done;
        let state = match &result {
            Ok(f) if (200..300).contains(&f.status) => {
                let body = fetch::decoded_body(f, 1 << 20).unwrap_or_default();
                // Unparsable rules allow everything, as a missing robots.txt does.
                RobotsState::Ready(crate::sources::parse_robots(&body).map(Box::new))
            }
            Ok(f) if (400..500).contains(&f.status) => RobotsState::Ready(None),
            Ok(_) | Err(_) => RobotsState::DisallowAll,
        };
        if let Ok(f) = &result {
            let ex = Exchange {
                url: &url,
                request: &f.request,
                response: &f.response,
                feed_item: None,
            };
            let end = self
                .store
                .write_exchange(&ex)
                .map_err(|e| self.out_error(e))?;
            self.store.journal.warc_written(end);
            self.store.commit().map_err(|e| self.out_error(e))?;
        } else if let Err(e) = &result {
            self.note_error(&url, &format!("robots.txt: {e}"));
        }
        let crawl_delay = match &state {
            RobotsState::Ready(Some(robot)) => robot
                .delay
                .filter(|d| d.is_finite() && *d > 0.0)
                // Clamped before converting: a huge Crawl-delay must not overflow a Duration.
                .map(|d| {
                    let max = self.config.max_crawl_delay;
                    Duration::from_secs_f64(f64::from(d).min(max.as_secs_f64()))
                }),
            _ => None,
        };
        if let Some(h) = self.frontier.host_mut(id) {
            h.robots = state;
            if let Some(cd) = crawl_delay {
                h.delay = h.delay.max(cd);
            }
        }
        if self.config.wait_after_robots {
            self.frontier.finished(id, finished, Duration::ZERO);
        } else {
            self.frontier.released(id);
        }
        Ok(())
    }

    fn fetch_done(&mut self, done: Done) -> Result<(), CrawlError> {
        let Done {
            host: id,
            mut entry,
            finished,
            result,
            found,
        } = done;
        let retry_wait = |attempts: u8, hint: Option<Duration>, base: Duration| {
            hint.unwrap_or_else(|| base.saturating_mul(1u32 << attempts.min(16)))
                .min(Duration::from_secs(600))
        };
        let retryable = match &result {
            Err(e) => e.is_transient(),
            Ok(f) => f.status == 429 || (500..600).contains(&f.status),
        };
        if retryable && entry.attempts < self.config.max_retries {
            let hint = result.as_ref().ok().and_then(|f| f.retry_after);
            let wait = retry_wait(entry.attempts, hint, self.config.retry_backoff);
            entry.attempts += 1;
            Stats::add(&self.stats.retries, 1);
            if entry.kind == Kind::Page
                && let Some(h) = self.frontier.host_mut(id)
            {
                // The retry is the same page: it was counted when first dispatched.
                h.page_fetches = h.page_fetches.saturating_sub(1);
                self.page_fetches = self.page_fetches.saturating_sub(1);
            }
            self.frontier.push_front(id, entry);
            self.frontier.finished(id, finished, wait);
            return Ok(());
        }
        self.frontier.finished(id, finished, Duration::ZERO);
        let counted = entry.kind == Kind::Page;
        let fetched = match result {
            Ok(f) => f,
            Err(e) => {
                if let FetchError::ContentType(_) = e {
                    Stats::add(&self.stats.skipped_type, 1);
                } else {
                    self.note_error(&entry.url, &e.to_string());
                }
                self.feed_items.remove(&url_hash(&entry.url));
                self.store
                    .journal
                    .done(&entry.url, self.store.warc_len(), counted);
                return self.store.commit().map_err(|e| self.out_error(e));
            }
        };
        let hash = url_hash(&entry.url);
        let item = self.feed_items.remove(&hash);
        let ex = Exchange {
            url: &entry.url,
            request: &fetched.request,
            response: &fetched.response,
            feed_item: item.as_ref(),
        };
        let end = self
            .store
            .write_exchange(&ex)
            .map_err(|e| self.out_error(e))?;
        Stats::add(&self.stats.stored, 1);
        Stats::add(&self.stats.bytes, fetched.body().len() as u64);
        let status = fetched.status;
        if (200..300).contains(&status) && entry.kind == Kind::Page {
            Stats::add(&self.stats.pages_ok, 1);
        }
        if (300..400).contains(&status) {
            self.follow_redirect(&entry, &fetched, item);
        } else if !(200..300).contains(&status) {
            Stats::add(&self.stats.http_errors, 1);
            self.remember_error(&entry.url, &format!("HTTP {status}"));
        }
        match found {
            Found::Nothing => {}
            Found::Links(links) => {
                if entry.depth < self.config.max_depth {
                    for link in links {
                        if self.scope.admits(&link) {
                            self.enqueue(link, Kind::Page, entry.depth + 1, 0);
                        }
                    }
                }
            }
            Found::Sitemap(map) => {
                for page in map.pages {
                    self.scope.add_seed(&page);
                    self.enqueue(page, Kind::Page, 0, 0);
                }
                for sub in map.sitemaps {
                    self.enqueue(sub, Kind::Sitemap, 0, 0);
                }
            }
            Found::Feed(items) => {
                for (url, item) in items {
                    self.scope.add_seed(&url);
                    let h = url_hash(url.as_str());
                    if !self.seen.contains(url.as_str()) {
                        self.store.journal.feed_item(&item);
                        self.feed_items.insert(h, item);
                    }
                    self.enqueue(url, Kind::Page, 0, 0);
                }
            }
        }
        self.store.journal.done(&entry.url, end, counted);
        self.store.commit().map_err(|e| self.out_error(e))
    }

    fn follow_redirect(&mut self, entry: &Entry, fetched: &Fetched, item: Option<FeedItem>) {
        let base = Url::parse(&entry.url).ok();
        let Some(target) = fetched
            .location
            .as_deref()
            .and_then(|loc| normalize(loc, base.as_ref()))
        else {
            self.note_error(&entry.url, "redirect without a usable Location");
            return;
        };
        if entry.hops >= self.config.max_redirects {
            self.note_error(&entry.url, "too many redirects");
            return;
        }
        if self.seen.contains(target.as_str()) {
            // A loop, or a page reached another way: either way fetched once.
            if target.as_str() == &*entry.url || entry.hops > 0 {
                self.note_error(&entry.url, &format!("redirect loop via {target}"));
            }
            return;
        }
        // Hops of a seed (a sitemap or feed redirecting, http to https) stay in scope.
        if entry.depth == 0 && entry.kind == Kind::Page {
            self.scope.add_seed(&target);
        }
        if !self.scope.admits(&target) && entry.kind == Kind::Page {
            return;
        }
        if let Some(mut item) = item {
            item.link = target.to_string();
            self.store.journal.feed_item(&item);
            self.feed_items.insert(url_hash(target.as_str()), item);
        }
        self.enqueue(target, entry.kind, entry.depth, entry.hops + 1);
    }
}

/// The host of a URL, created if new with the configured delay.
fn host_for(frontier: &mut Frontier, config: &CrawlConfig, url: &Url) -> usize {
    let key = host_key(url);
    let origin = url.origin().ascii_serialization();
    frontier.host_id(&key, &origin, config.delay, config.robots)
}

fn build_client(
    config: &CrawlConfig,
    redirects: reqwest::redirect::Policy,
) -> Result<reqwest::Client, CrawlError> {
    reqwest::Client::builder()
        .redirect(redirects)
        .connect_timeout(config.connect_timeout)
        .pool_max_idle_per_host(config.concurrency.max(1))
        .tcp_nodelay(true)
        .no_proxy()
        .build()
        .map_err(|e| CrawlError::Client(e.to_string()))
}

async fn sleep_opt(until: Option<tokio::time::Instant>) {
    match until {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// Fetches one frontier URL and parses what it yields (links, sitemap, feed).
async fn fetch_entry(
    client: &reqwest::Client,
    config: &CrawlConfig,
    limits: &FetchLimits,
    host: usize,
    entry: Entry,
) -> Done {
    let url = Url::parse(&entry.url);
    let result = match &url {
        Ok(u) => {
            let accept = (entry.kind == Kind::Page).then_some(config.accept.as_slice());
            fetch::fetch(client, u, &config.user_agent, accept, limits).await
        }
        Err(e) => Err(FetchError::Network(e.to_string())),
    };
    let finished = Instant::now();
    // Third-party parsers (html5ever, feed-rs, quick-xml) meet hostile bytes here; a panic
    // must cost this page its links, not hang the crawl waiting for this task's report.
    let found = match (&result, &url) {
        (Ok(f), Ok(u)) if (200..300).contains(&f.status) => {
            std::panic::catch_unwind(AssertUnwindSafe(|| parse_found(f, u, entry.kind, limits)))
                .unwrap_or_default()
        }
        _ => Found::Nothing,
    };
    Done {
        host,
        entry,
        finished,
        result,
        found,
    }
}

fn parse_found(f: &Fetched, url: &Url, kind: Kind, limits: &FetchLimits) -> Found {
    let Some(body) = fetch::decoded_body(f, limits.max_body_bytes) else {
        return Found::Nothing;
    };
    match kind {
        Kind::Page => {
            let html = match f.mime.as_deref() {
                Some(m) => chaff_corpus::http::is_html_type(m),
                None => chaff_corpus::http::sniff_html(&body),
            };
            if html {
                Found::Links(extract_links(&body, url, f.charset.as_deref()).links)
            } else {
                Found::Nothing
            }
        }
        Kind::Sitemap => Found::Sitemap(parse_sitemap(&body, url)),
        Kind::Feed => parse_feed(&body, url).map_or(Found::Nothing, Found::Feed),
    }
}
