//! Signifiers: the few terms per page that point at its article (section 3.1).
//!
//! * `tf_idf`: per page, the top-k terms by tf-idf over the sample pages, `tf` being the
//!   term's count on the page and `idf = ln(n / df)`. Terms found on every sample page get
//!   weight 0 (the site's template vocabulary): with a single page every weight is 0, which is
//!   why the paper finds FOREST (tf-idf) imprecise on one page. Ties are broken by the higher
//!   count, then the smaller term id (first seen), so results are deterministic.
//! * [`FeedItems`]: the title and description of the web-feed item (RSS or Atom, parsed with
//!   `feed-rs`) whose link is the page; every distinct term of them is a signifier of weight 1.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use crate::ForestError;
use crate::page::PageTerms;
use crate::terms::Vocabulary;

/// One page's signifiers: term ids with their weights, best first.
pub type Signifiers = Vec<(u32, f64)>;

/// The top-`k` tf-idf terms of each page.
pub(crate) fn tf_idf(pages: &[PageTerms], vocab_len: usize, k: usize) -> Vec<Signifiers> {
    let mut df = vec![0u32; vocab_len];
    let mut counts: Vec<FxHashMap<u32, u32>> = Vec::with_capacity(pages.len());
    for page in pages {
        let mut tf: FxHashMap<u32, u32> = FxHashMap::default();
        for &t in &page.terms {
            *tf.entry(t).or_default() += 1;
        }
        for &t in tf.keys() {
            if let Some(d) = df.get_mut(t as usize) {
                *d += 1;
            }
        }
        counts.push(tf);
    }
    let n = pages.len() as f64;
    counts
        .into_iter()
        .map(|tf| {
            let mut scored: Vec<(u32, f64, u32)> = tf
                .into_iter()
                .map(|(t, c)| {
                    let d = f64::from(df.get(t as usize).copied().unwrap_or(1).max(1));
                    (t, f64::from(c) * (n / d).ln(), c)
                })
                .collect();
            scored.sort_by(|a, b| {
                b.1.total_cmp(&a.1)
                    .then_with(|| b.2.cmp(&a.2))
                    .then_with(|| a.0.cmp(&b.0))
            });
            scored.truncate(k);
            scored.into_iter().map(|(t, w, _)| (t, w)).collect()
        })
        .collect()
}

/// The items of one or more web feeds: link and text (title and description).
#[derive(Clone, Debug, Default)]
pub struct FeedItems {
    items: HashMap<String, String>,
}

/// A URL reduced for matching a page to a feed item: no scheme, no `www.`, no fragment, no
/// trailing slash.
fn url_key(url: &str) -> String {
    let url = url.trim();
    let url = url.split('#').next().unwrap_or(url);
    let url = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    let url = url.strip_prefix("www.").unwrap_or(url);
    url.trim_end_matches('/').to_ascii_lowercase()
}

/// Visible text of an HTML fragment (feed descriptions often hold markup).
fn fragment_text(html: &str) -> String {
    match chaff_dom::parse(html.as_bytes()) {
        Ok(doc) => chaff_dom::TextView::new(&doc).text().to_string(),
        Err(_) => html.to_string(),
    }
}

impl FeedItems {
    /// No items.
    pub fn new() -> FeedItems {
        FeedItems::default()
    }

    /// The items of feed files; `None` for no file.
    pub fn from_files(
        paths: &[impl AsRef<std::path::Path>],
    ) -> Result<Option<FeedItems>, ForestError> {
        if paths.is_empty() {
            return Ok(None);
        }
        let mut items = FeedItems::new();
        for path in paths {
            let path = path.as_ref();
            let err = |message: String| ForestError::FeedFile {
                path: path.display().to_string(),
                message,
            };
            let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
            items.add_feed(&bytes).map_err(|e| err(e.to_string()))?;
        }
        Ok(Some(items))
    }

    /// Adds the items of a feed document (RSS 0.x/1.0/2.0, Atom or JSON Feed).
    pub fn add_feed(&mut self, bytes: &[u8]) -> Result<usize, ForestError> {
        let feed = feed_rs::parser::parse(bytes).map_err(|e| ForestError::Feed(e.to_string()))?;
        let mut added = 0;
        for entry in feed.entries {
            let mut text = entry.title.map(|t| t.content).unwrap_or_default();
            if let Some(summary) = entry.summary {
                text.push('\n');
                text.push_str(&fragment_text(&summary.content));
            }
            for link in &entry.links {
                self.items.insert(url_key(&link.href), text.clone());
                added += 1;
            }
        }
        Ok(added)
    }

    /// Number of items with a link.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when no item has a link.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The title and description of the item linking to `url`.
    pub fn text_for(&self, url: &str) -> Option<&str> {
        self.items.get(&url_key(url)).map(String::as_str)
    }

    /// The signifiers of the page at `url`: the distinct terms of its item's text, weight 1,
    /// at most 64 (the most the counting keeps apart).
    pub(crate) fn signifiers(&self, url: &str, vocab: &mut Vocabulary) -> Option<Signifiers> {
        let text = self.text_for(url)?;
        let mut terms = Vec::new();
        vocab.analyze(text, crate::terms::detect_language(text), &mut terms);
        let mut seen = std::collections::HashSet::new();
        terms.retain(|t| seen.insert(*t));
        terms.truncate(64);
        Some(terms.into_iter().map(|t| (t, 1.0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tf_idf_ranks_page_specific_frequent_terms_first() {
        let pages = vec![
            PageTerms {
                leaves: vec![],
                terms: vec![0, 1, 1, 1, 2, 2],
            },
            PageTerms {
                leaves: vec![],
                terms: vec![0, 3],
            },
        ];
        let s = tf_idf(&pages, 4, 2);
        // Page 0: term 1 (3 × ln 2) then term 2 (2 × ln 2); term 0 is on both pages.
        assert_eq!(s[0].iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2]);
        assert!((s[0][0].1 - 3.0 * 2f64.ln()).abs() < 1e-12);
        assert_eq!(s[1].iter().map(|p| p.0).collect::<Vec<_>>(), [3, 0]);
        assert_eq!(s[1][1].1, 0.0);
    }

    #[test]
    fn feed_items_give_their_title_and_description_terms() {
        let rss = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>
            <item><title>Halloween past and present</title>
            <link>http://www.example.org/travel/halloween/</link>
            <description>&lt;p&gt;The &lt;b&gt;Celts&lt;/b&gt; believed&lt;/p&gt;</description></item>
            </channel></rss>"#;
        let mut feeds = FeedItems::new();
        assert_eq!(feeds.add_feed(rss).unwrap(), 1);
        let mut vocab = Vocabulary::new();
        let s = feeds
            .signifiers("https://example.org/travel/halloween#top", &mut vocab)
            .unwrap();
        let terms: Vec<&str> = s.iter().map(|(t, _)| vocab.term(*t)).collect();
        assert_eq!(terms, ["halloween", "past", "present", "celt", "believ"]);
        assert!(
            feeds
                .signifiers("http://example.org/other", &mut vocab)
                .is_none()
        );
        assert!(FeedItems::new().add_feed(b"not a feed").is_err());
    }
}
