//! Pages named by URL: fetched once, politely, into a temporary WARC that the inputs then
//! read. The crawler does the fetching (robots.txt, a delay per host, timeouts, a size cap,
//! redirects, retries), so a page arrives as a crawl would store it, with its final URL and
//! its declared charset. Only the command line fetches; the library never does.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use chaff_crawl::{CrawlConfig, Fetched, read_url_list};

use clap::Args;

use crate::{common::warn, crawl::PoliteArgs};

/// How pages named by URL are fetched.
#[derive(Args, Clone, Debug)]
pub struct FetchArgs {
    /// A file of page URLs to fetch, one per line (`#` lines are comments), besides any URL
    /// among the inputs.
    #[arg(long, value_name = "FILE")]
    pub urls: Option<PathBuf>,
    /// Fetch pages that robots.txt disallows (for your own sites).
    #[arg(long)]
    pub ignore_robots: bool,
    /// How requests are made.
    #[command(flatten)]
    pub polite: PoliteArgs,
}

impl FetchArgs {
    /// Fetches `urls` and those of `--urls` (none: `None`), reporting each URL that gives
    /// no page on stderr with its reason.
    pub fn fetch(
        &self,
        urls: Vec<String>,
        max_bytes: u64,
        quiet: bool,
    ) -> anyhow::Result<Option<Fetched>> {
        let listed = match &self.urls {
            None => Vec::new(),
            Some(path) => std::fs::File::open(path)
                .and_then(|f| read_url_list(std::io::BufReader::new(f)))
                .with_context(|| format!("cannot read the URL list {}", path.display()))?,
        };
        if urls.is_empty() && listed.is_empty() {
            return Ok(None);
        }
        let config = |out| CrawlConfig {
            delay: self.polite.delay,
            robots: !self.ignore_robots,
            timeout: self.polite.timeout,
            max_retries: self.polite.retries,
            user_agent: self.polite.user_agent.clone(),
            ..CrawlConfig::page_list(out, max_bytes)
        };
        let urls = urls.into_iter().chain(listed).collect();
        let fetched = Fetched::page_list(urls, config, |config, seeds| {
            crate::crawl::crawl_with_progress(config, seeds, quiet, Arc::default())
        })?;
        fetched.errors.iter().for_each(warn);
        Ok(Some(fetched))
    }
}
