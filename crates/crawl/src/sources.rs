//! Seed sources: XML sitemaps (index and urlset, gzip or not) and RSS/Atom feeds.
//!
//! Both are parsed from bytes already fetched (politely) by the crawler; nothing here does
//! I/O. Feed items are kept with the page they link to ([`FeedItem`]), since FOREST learns
//! from a feed's items and their pages together.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use quick_xml::Reader;
use quick_xml::events::Event;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::urls::normalize;

/// A sitemap's decoded size cap: the protocol allows 50 MB uncompressed.
const MAX_SITEMAP_BYTES: u64 = 50 << 20;

/// Parses a robots.txt for chaff's agent ([`crate::ROBOTS_AGENT`]). `None` when the rules
/// cannot be parsed (or the parser panics on them): the crawler then treats the site as
/// having no robots.txt.
pub fn parse_robots(body: &[u8]) -> Option<texting_robots::Robot> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        texting_robots::Robot::new(crate::ROBOTS_AGENT, body)
    }))
    .ok()?
    .ok()
}

/// What a sitemap lists.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Sitemap {
    /// `<urlset>` locations: pages to crawl.
    pub pages: Vec<Url>,
    /// `<sitemapindex>` locations: further sitemaps.
    pub sitemaps: Vec<Url>,
}

/// Parses a sitemap (`urlset` or `sitemapindex`, gzip-compressed or not). Locations that
/// are not crawlable URLs are skipped; malformed XML ends the list where it breaks.
pub fn parse_sitemap(body: &[u8], sitemap_url: &Url) -> Sitemap {
    let mut inflated = Vec::new();
    let xml: &[u8] = if body.starts_with(&[0x1f, 0x8b]) {
        let mut dec = MultiGzDecoder::new(body).take(MAX_SITEMAP_BYTES);
        if dec.read_to_end(&mut inflated).is_err() && inflated.is_empty() {
            return Sitemap::default();
        }
        &inflated
    } else {
        body
    };
    let mut reader = Reader::from_reader(xml);
    let mut buf = Vec::new();
    let mut out = Sitemap::default();
    // The element whose <loc> we are in: url or sitemap.
    let mut parent: Option<bool> = None; // Some(true) = <sitemap>, Some(false) = <url>
    let mut in_loc = false;
    let mut text = String::new();
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => match e.local_name().as_ref() {
                b"url" => parent = Some(false),
                b"sitemap" => parent = Some(true),
                b"loc" => {
                    in_loc = true;
                    text.clear();
                }
                _ => {}
            },
            Ok(Event::Text(t)) if in_loc => {
                if let Ok(s) = t.unescape() {
                    text.push_str(&s);
                }
            }
            Ok(Event::CData(t)) if in_loc => {
                text.push_str(&String::from_utf8_lossy(&t));
            }
            Ok(Event::End(e)) => match e.local_name().as_ref() {
                b"loc" => {
                    in_loc = false;
                    if let (Some(is_index), Some(url)) =
                        (parent, normalize(&text, Some(sitemap_url)))
                    {
                        if is_index {
                            out.sitemaps.push(url);
                        } else {
                            out.pages.push(url);
                        }
                    }
                }
                b"url" | b"sitemap" => parent = None,
                _ => {}
            },
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
        buf.clear();
    }
    out
}

/// One item of a feed, kept with the page it links to and written to the WARC as a
/// `metadata` record (JSON) beside that page's response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedItem {
    /// The item's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its summary or description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The page it links to (normalised).
    pub link: String,
    /// The feed it came from.
    pub feed: String,
}

/// Parses an RSS or Atom feed into its items that link to crawlable pages. `None` when the
/// bytes are not a feed.
pub fn parse_feed(body: &[u8], feed_url: &Url) -> Option<Vec<(Url, FeedItem)>> {
    let feed = feed_rs::parser::parse(body).ok()?;
    let mut items = Vec::new();
    for entry in feed.entries {
        let Some(href) = entry
            .links
            .iter()
            .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
            .or_else(|| entry.links.first())
            .map(|l| l.href.clone())
        else {
            continue;
        };
        let Some(url) = normalize(&href, Some(feed_url)) else {
            continue;
        };
        let item = FeedItem {
            title: entry.title.map(|t| t.content),
            description: entry.summary.map(|t| t.content),
            link: url.to_string(),
            feed: feed_url.to_string(),
        };
        items.push((url, item));
    }
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn base() -> Url {
        Url::parse("http://example.org/sitemap.xml").unwrap()
    }

    #[test]
    fn urlset() {
        let xml = br#"<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.org/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc> /b </loc></url>
  <url><loc>mailto:x@y</loc></url>
</urlset>"#;
        let s = parse_sitemap(xml, &base());
        let pages: Vec<_> = s.pages.iter().map(Url::as_str).collect();
        assert_eq!(
            pages,
            ["http://example.org/a?x=1&y=2", "http://example.org/b"]
        );
        assert!(s.sitemaps.is_empty());
    }

    #[test]
    fn index_gzipped() {
        let xml = br#"<sitemapindex><sitemap><loc>http://example.org/s1.xml.gz</loc></sitemap>
<sitemap><loc><![CDATA[http://example.org/s2.xml]]></loc></sitemap></sitemapindex>"#;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(xml).unwrap();
        let gz = enc.finish().unwrap();
        let s = parse_sitemap(&gz, &base());
        let maps: Vec<_> = s.sitemaps.iter().map(Url::as_str).collect();
        assert_eq!(
            maps,
            ["http://example.org/s1.xml.gz", "http://example.org/s2.xml"]
        );
        assert!(s.pages.is_empty());
    }

    #[test]
    fn broken_xml_keeps_what_came_before() {
        let s = parse_sitemap(
            b"<urlset><url><loc>http://e.org/1</loc></url><url><loc",
            &base(),
        );
        assert_eq!(s.pages.len(), 1);
        assert_eq!(
            parse_sitemap(b"\x1f\x8bgarbage", &base()),
            Sitemap::default()
        );
    }

    #[test]
    fn rss_and_atom() {
        let feed_url = Url::parse("http://example.org/rss").unwrap();
        let rss = br#"<rss version="2.0"><channel><title>T</title>
<item><title>One</title><link>http://example.org/1#c</link><description>First</description></item>
<item><title>No link</title></item></channel></rss>"#;
        let items = parse_feed(rss, &feed_url).unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].0.as_str(), "http://example.org/1");
        assert_eq!(items[0].1.title.as_deref(), Some("One"));
        assert_eq!(items[0].1.description.as_deref(), Some("First"));

        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>x</id><updated>2024-01-01T00:00:00Z</updated>
<entry><title>E</title><id>e</id><updated>2024-01-01T00:00:00Z</updated><link rel="alternate" href="/e"/><summary>S</summary></entry></feed>"#;
        let items = parse_feed(atom, &feed_url).unwrap();
        assert_eq!(items[0].0.as_str(), "http://example.org/e");
        assert!(parse_feed(b"<html>not a feed</html>", &feed_url).is_none());
    }
}
