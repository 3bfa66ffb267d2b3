//! The scrapinghub article-extraction-benchmark (AEB) set.
//!
//! Layout (`scrapinghub-aeb/MANIFEST.md`): `ground-truth.json` maps each page id (a SHA-256)
//! to `{"articleBody": <plain text>, "url": <page url>}`; the page itself is
//! `html/<id>.html.gz`. The gold is `articleBody`, the human-checked article text without
//! its title — the same field the upstream `evaluate.py` scores against.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::{DatasetError, GoldPage, host_of, read_maybe_gz, require_file};

#[derive(Deserialize)]
struct Entry {
    /// Upstream reads a missing body as empty, so do we.
    #[serde(rename = "articleBody", default)]
    article_body: String,
    #[serde(default)]
    url: Option<String>,
}

/// Reads the AEB set in `dir` (the folder holding `ground-truth.json` and `html/`).
///
/// Pages come sorted by id. The site is the URL's host (without `www.`): AEB has at most
/// two pages per domain, so it is for bookkeeping rather than site-level methods.
pub fn scrapinghub_aeb(dir: &Path) -> Result<Vec<GoldPage>, DatasetError> {
    let truth_path = dir.join("ground-truth.json");
    let bytes = read_maybe_gz(&truth_path)
        .map_err(|e| DatasetError::io("AEB ground truth", &truth_path, e))?;
    let truth: BTreeMap<String, Entry> =
        serde_json::from_slice(&bytes).map_err(|source| DatasetError::Json {
            path: truth_path.clone(),
            line: None,
            source,
        })?;
    let html_dir = dir.join("html");
    let mut pages = Vec::with_capacity(truth.len());
    for (id, entry) in truth {
        let html_path = html_dir.join(format!("{id}.html.gz"));
        require_file("AEB page HTML", &html_path)?;
        pages.push(GoldPage {
            site: entry.url.as_deref().and_then(host_of),
            gold_text: entry.article_body,
            url: entry.url,
            html_path,
            id,
            split: None,
            kind: None,
        });
    }
    Ok(pages)
}
