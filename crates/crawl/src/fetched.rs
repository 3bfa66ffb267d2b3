//! Pages named by URL, fetched once into a temporary WARC that page readers then read like
//! any archive (this is how `chaff extract URL` reads a URL); the WARC is removed when the
//! [`Fetched`] is dropped.

use std::path::PathBuf;

use chaff_corpus::{CorpusError, Page, Pages, PagesOptions};

use crate::{CrawlConfig, Seed, Summary};

/// Pages fetched into a temporary WARC.
pub struct Fetched {
    _dir: tempfile::TempDir,
    /// The WARC.
    pub warc: PathBuf,
    /// Pages fetched with a 2xx status.
    pub pages: u64,
    /// Why each URL that gave no page gave none (`url: message`).
    pub errors: Vec<String>,
}

impl Fetched {
    /// Fetches `urls` into a new temporary WARC: `config` is given the WARC's path and
    /// returns the crawl's configuration (normally [`CrawlConfig::page_list`]), `crawl` runs
    /// it (with the caller's way of showing progress).
    pub fn page_list<E: From<std::io::Error>>(
        urls: Vec<String>,
        config: impl FnOnce(PathBuf) -> CrawlConfig,
        crawl: impl FnOnce(CrawlConfig, std::vec::IntoIter<Seed>) -> Result<Summary, E>,
    ) -> Result<Fetched, E> {
        let dir = tempfile::tempdir()?;
        let warc = dir.path().join("fetched.warc.gz");
        let seeds: Vec<Seed> = urls.into_iter().map(Seed::Page).collect();
        let summary = crawl(config(warc.clone()), seeds.into_iter())?;
        Ok(Fetched {
            _dir: dir,
            warc,
            pages: summary.pages_ok,
            errors: summary.first_errors,
        })
    }

    /// The fetched pages, each named by its final URL.
    pub fn pages(
        &self,
    ) -> Result<impl Iterator<Item = Result<Page, CorpusError>> + use<>, CorpusError> {
        let warc = [self.warc.display().to_string()];
        Ok(
            Pages::from_args(&warc, PagesOptions::default())?.map(|page| {
                page.map(|p| Page {
                    source: p.url.clone().unwrap_or_else(|| p.source.clone()),
                    ..p
                })
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warc_lives_as_long_as_the_fetched_pages() {
        let fetched = Fetched::page_list(
            vec!["http://127.0.0.1:9/a".to_string()],
            |out| CrawlConfig::page_list(out, 1 << 20),
            |config, seeds| {
                assert_eq!(seeds.len(), 1);
                std::fs::write(&config.out, b"")?;
                Ok::<_, std::io::Error>(Summary::default())
            },
        )
        .expect("fetched");
        let warc = fetched.warc.clone();
        assert!(warc.is_file());
        assert_eq!(fetched.pages().expect("pages").count(), 0);
        drop(fetched);
        assert!(!warc.exists());
    }
}
