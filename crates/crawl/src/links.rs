//! Links of an HTML page, resolved and normalised.

use url::Url;

use crate::urls::normalize;

/// What a page says about following its links.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PageLinks {
    /// Normalised absolute links of `a[href]` and `area[href]`, in document order, without
    /// duplicates; empty when the page asks not to be followed (`<meta name=robots
    /// content=nofollow>`). `rel=nofollow` links are left out.
    pub links: Vec<Url>,
    /// The page's title, if any.
    pub title: Option<String>,
}

/// Parses a page with chaff-dom and collects its links, resolved against its `<base href>`
/// (when valid) or its own URL. Parse errors (binary input, oversized) give no links.
pub fn extract_links(body: &[u8], page_url: &Url, charset: Option<&str>) -> PageLinks {
    let opts = chaff_dom::ParseOptions {
        transport_charset: charset.map(str::to_string),
        ..chaff_dom::ParseOptions::default()
    };
    let Ok(doc) = chaff_dom::parse_with(body, &opts) else {
        return PageLinks::default();
    };
    let mut base = page_url.clone();
    let mut nofollow = false;
    let mut hrefs: Vec<&str> = Vec::new();
    for id in doc.ids() {
        if !doc.is_element(id) {
            continue;
        }
        match doc.tag(id) {
            "a" | "area" => {
                if let Some(href) = doc.attr(id, "href") {
                    let rel_nofollow = doc.attr(id, "rel").is_some_and(|rel| {
                        rel.split_ascii_whitespace()
                            .any(|r| r.eq_ignore_ascii_case("nofollow"))
                    });
                    if !rel_nofollow {
                        hrefs.push(href);
                    }
                }
            }
            "base" => {
                if let Some(b) = doc
                    .attr(id, "href")
                    .and_then(|h| page_url.join(h.trim()).ok())
                {
                    base = b;
                }
            }
            "meta" => {
                let is_robots = doc
                    .attr(id, "name")
                    .is_some_and(|n| n.eq_ignore_ascii_case("robots"));
                if is_robots
                    && doc.attr(id, "content").is_some_and(|c| {
                        c.split(',').any(|d| {
                            matches!(d.trim().to_ascii_lowercase().as_str(), "nofollow" | "none")
                        })
                    })
                {
                    nofollow = true;
                }
            }
            _ => {}
        }
    }
    let title = doc.title();
    if nofollow {
        return PageLinks {
            links: Vec::new(),
            title,
        };
    }
    let mut links = Vec::with_capacity(hrefs.len());
    let mut seen = std::collections::HashSet::new();
    for href in hrefs {
        if let Some(url) = normalize(href, Some(&base))
            && seen.insert(url.as_str().to_string())
        {
            links.push(url);
        }
    }
    PageLinks { links, title }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(html: &str) -> Vec<String> {
        let url = Url::parse("http://example.org/dir/page.html").unwrap();
        extract_links(html.as_bytes(), &url, None)
            .links
            .into_iter()
            .map(String::from)
            .collect()
    }

    #[test]
    fn resolves_and_dedups() {
        let got = links(
            r#"<a href="a.html">1</a><a href="/b#x">2</a><a href="a.html#y">3</a>
               <a href="mailto:x@y">m</a><a>no href</a><map><area href="c"></map>
               <a href="http://other.org/">o</a><a rel="nofollow ugc" href="/nf">nf</a>"#,
        );
        assert_eq!(
            got,
            [
                "http://example.org/dir/a.html",
                "http://example.org/b",
                "http://example.org/dir/c",
                "http://other.org/"
            ]
        );
    }

    #[test]
    fn base_href() {
        let got = links(r#"<head><base href="/other/"></head><a href="x">x</a>"#);
        assert_eq!(got, ["http://example.org/other/x"]);
    }

    #[test]
    fn meta_nofollow() {
        let html = r#"<meta name="ROBOTS" content="noindex, nofollow"><a href="x">x</a>"#;
        assert!(links(html).is_empty());
    }
}
