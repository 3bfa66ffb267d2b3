//! Site keys: which pages share a template.
//!
//! Pages of one site usually share one template, and a site is best named by
//! its registrable domain (`news.bbc.co.uk` and `www.bbc.co.uk` are one site;
//! `foo.blogspot.com` and `bar.blogspot.com` are two, because the public
//! suffix list's private section makes `blogspot.com` a suffix). Pages without
//! a usable URL fall back to the folder they were found in, which is how
//! evaluation sets are usually laid out.
//!
//! A page captured by a web archive belongs to the site it was captured from: a capture URL
//! (`https://web.archive.org/web/20200101000000/https://example.org/a`) names the original
//! page's site ([`original_url`]). The rule: on a known archive host, or in a path with a
//! `wayback` segment, a segment of 8 to 14 digits (the capture time, optionally followed by
//! a playback flag such as `id_` or `if_`, or `*`) followed by an absolute URL or a
//! `host.tld/...` is a capture. A date in an ordinary URL's path
//! (`news.example.com/20190512/story`) is not: its host is no archive and what follows is
//! no host.

use std::fmt;
use std::path::Path;

use url::{Host, Url};

/// Where a [`SiteKey`] came from, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SiteKeySource {
    /// The page's own URL.
    Url,
    /// The URL the page declares (`<link rel=canonical>`, `og:url`).
    DeclaredUrl,
    /// The name of the folder the page was found in.
    Folder,
    /// Nothing usable: every such page shares one key.
    Unknown,
}

/// The name of a site, and where it came from.
///
/// Displays as the plain key (`bbc.co.uk`). Two keys are equal only when
/// both the string and the source agree, so a folder that happens to be
/// called `unknown` never merges with the pages that have no key at all.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SiteKey {
    key: String,
    source: SiteKeySource,
}

/// The key shared by pages with no URL, no declared URL and no folder.
pub const UNKNOWN_SITE: &str = "unknown";

impl SiteKey {
    /// The key as a string.
    pub fn as_str(&self) -> &str {
        &self.key
    }

    /// Which source gave the key.
    pub fn source(&self) -> SiteKeySource {
        self.source
    }
}

impl fmt::Display for SiteKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key)
    }
}

/// The site key of a page: registrable domain of its URL, else of its
/// declared URL (resolved against the page URL when relative, ignored when
/// relative with nothing to resolve against), else the name of its folder,
/// else [`UNKNOWN_SITE`].
///
/// Keys are lower-case; IP addresses and single-label hosts such as
/// `localhost` are kept whole; ports are dropped.
pub fn site_key(url: Option<&str>, declared_url: Option<&str>, folder: Option<&Path>) -> SiteKey {
    let base = url.and_then(parse_page_url);
    let original = base.as_ref().and_then(unwrap_capture);
    if let Some(key) = original.as_ref().or(base.as_ref()).and_then(host_key) {
        return SiteKey {
            key,
            source: SiteKeySource::Url,
        };
    }
    if let Some(key) = declared_url
        .and_then(|d| resolve_declared(d, base.as_ref()))
        .map(|d| unwrap_capture(&d).unwrap_or(d))
        .as_ref()
        .and_then(host_key)
    {
        return SiteKey {
            key,
            source: SiteKeySource::DeclaredUrl,
        };
    }
    if let Some(key) = folder.and_then(folder_key) {
        return SiteKey {
            key,
            source: SiteKeySource::Folder,
        };
    }
    SiteKey {
        key: UNKNOWN_SITE.to_string(),
        source: SiteKeySource::Unknown,
    }
}

/// The registrable domain of an absolute URL (`https://news.bbc.co.uk/x` →
/// `bbc.co.uk`), or `None` if it has no host.
pub fn registrable_domain(url: &str) -> Option<String> {
    parse_page_url(url).as_ref().and_then(host_key)
}

/// Hosts of web archives whose capture URLs embed the original URL after a timestamp.
const ARCHIVE_HOSTS: [&str; 9] = [
    "web.archive.org",
    "wayback.archive.org",
    "wayback.archive-it.org",
    "arquivo.pt",
    "www.webarchive.org.uk",
    "webarchive.org.uk",
    "webarchive.nationalarchives.gov.uk",
    "webarchive.loc.gov",
    "archive.org",
];

/// The original URL of a web-archive capture URL (see the module docs), or `None` when `url`
/// is not one.
pub fn original_url(url: &str) -> Option<String> {
    unwrap_capture(&parse_page_url(url)?).map(|u| u.to_string())
}

fn unwrap_capture(url: &Url) -> Option<Url> {
    let host = url.host_str()?.to_ascii_lowercase();
    let known = ARCHIVE_HOSTS.contains(&host.as_str());
    let whole = url.as_str();
    // The path as written (the URL crate keeps the embedded URL's `//`).
    let path_start = whole.find(&host).map(|i| i + host.len())?;
    let path = &whole[path_start..];
    let path = path.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
    let mut rest = path.strip_prefix('/')?;
    let mut wayback = false;
    while let Some((segment, after)) = rest.split_once('/') {
        if is_capture_time(segment) {
            if !(known || wayback) {
                return None;
            }
            return embedded_url(after);
        }
        wayback |= segment.eq_ignore_ascii_case("wayback");
        rest = after;
    }
    None
}

/// A capture time: 8 to 14 digits, then at most a playback flag (`id_`, `if_`...) or `*`.
fn is_capture_time(segment: &str) -> bool {
    let digits = segment.bytes().take_while(u8::is_ascii_digit).count();
    let flag = &segment[digits..];
    (8..=14).contains(&digits)
        && (flag.is_empty()
            || flag == "*"
            || (flag.len() == 3
                && flag.ends_with('_')
                && flag[..2].bytes().all(|b| b.is_ascii_lowercase())))
}

/// The URL that follows a capture time: absolute (`https://`, or `http:/` with the slash a
/// proxy collapsed), or a bare `host.tld/...`.
fn embedded_url(s: &str) -> Option<Url> {
    let lower = s.to_ascii_lowercase();
    let fixed = if lower.starts_with("http://") || lower.starts_with("https://") {
        s.to_string()
    } else if let Some(rest) = lower
        .strip_prefix("http:/")
        .or_else(|| lower.strip_prefix("https:/"))
    {
        let scheme = if lower.starts_with("https") {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", &s[s.len() - rest.len()..])
    } else {
        let host = s.split(['/', '?', '#']).next().unwrap_or("");
        if !host.contains('.') || host.starts_with('.') {
            return None;
        }
        format!("http://{s}")
    };
    let url = Url::parse(&fixed).ok()?;
    url.host_str()
        .is_some_and(|h| h.contains('.') || h == "localhost")
        .then_some(url)
}

/// Parses a page URL, accepting a bare `host/path` (no scheme) as `http://`,
/// since hand-written JSON Lines often omit it.
fn parse_page_url(url: &str) -> Option<Url> {
    let url = url.trim();
    match Url::parse(url) {
        Ok(u) => Some(u),
        Err(url::ParseError::RelativeUrlWithoutBase)
            if !url.is_empty() && !url.starts_with('/') =>
        {
            Url::parse(&format!("http://{url}")).ok()
        }
        Err(_) => None,
    }
}

fn resolve_declared(declared: &str, base: Option<&Url>) -> Option<Url> {
    let declared = declared.trim();
    if declared.is_empty() {
        return None;
    }
    match Url::parse(declared) {
        Ok(u) => Some(u),
        Err(url::ParseError::RelativeUrlWithoutBase) => base?.join(declared).ok(),
        Err(_) => None,
    }
}

fn host_key(url: &Url) -> Option<String> {
    match url.host()? {
        Host::Ipv4(ip) => Some(ip.to_string()),
        Host::Ipv6(ip) => Some(ip.to_string()),
        Host::Domain(domain) => {
            let domain = domain.trim_end_matches('.').to_ascii_lowercase();
            if domain.is_empty() {
                return None;
            }
            let registrable = psl::domain_str(&domain).unwrap_or(&domain);
            Some(registrable.to_string())
        }
    }
}

fn folder_key(folder: &Path) -> Option<String> {
    let name = match folder.file_name() {
        Some(n) => n.to_os_string(),
        // `.`, `..`, `/`, `` : name the folder they stand for.
        None => std::path::absolute(folder)
            .ok()
            .and_then(|p| p.canonicalize().ok().or(Some(p)))
            .and_then(|p| p.file_name().map(|n| n.to_os_string()))?,
    };
    let name = name.to_string_lossy().trim().to_lowercase();
    if name.is_empty() {
        return None;
    }
    // A folder named after a host ("www.bbc.co.uk") stands for that site: key it like a
    // URL would be, so its pages without URLs join their siblings that have one.
    if name.contains('.')
        && !name.contains(|c: char| c.is_whitespace() || c == '/')
        && psl::suffix_str(&name)
            .is_some_and(|s| s.contains('.') || psl::domain_str(&name).is_some())
        && let Some(domain) = psl::domain_str(&name)
    {
        return Some(domain.to_string());
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn archive_captures_name_the_original_site() {
        let cases = [
            (
                "https://web.archive.org/web/20200101000000/https://news.example.org/a",
                Some("https://news.example.org/a"),
            ),
            (
                "http://web.archive.org/web/20191231235959id_/http://www.bbc.co.uk/news",
                Some("http://www.bbc.co.uk/news"),
            ),
            (
                "https://web.archive.org/web/2019123123*/http:/example.com/x?q=1",
                Some("http://example.com/x?q=1"),
            ),
            (
                "https://web.archive.org/web/20191231if_/example.com/x?q=1",
                Some("http://example.com/x?q=1"),
            ),
            (
                "https://arquivo.pt/wayback/20100101000000/http://www.publico.pt/",
                Some("http://www.publico.pt/"),
            ),
            (
                "https://wayback.archive-it.org/1234/20150101000000/https://a.example.net/p",
                Some("https://a.example.net/p"),
            ),
            (
                "https://archive.example.edu/wayback/20150101000000/https://b.example.net/",
                Some("https://b.example.net/"),
            ),
            // Not captures: a date in an ordinary path, the archive's own pages.
            ("https://news.example.com/20190512/story", None),
            (
                "https://news.example.com/20190512/other.example.org/x",
                None,
            ),
            ("https://web.archive.org/about/", None),
            ("https://web.archive.org/web/20200101000000/notahost", None),
        ];
        for (url, original) in cases {
            assert_eq!(original_url(url).as_deref(), original, "{url}");
        }
        let k = key(
            Some("https://web.archive.org/web/20200101000000/https://news.example.org/a"),
            None,
            None,
        );
        assert_eq!(k, ("example.org".into(), SiteKeySource::Url));
        assert_eq!(
            key(Some("https://web.archive.org/about/"), None, None).0,
            "archive.org"
        );
        // A relative canonical link on a captured page resolves, then unwraps.
        let k = key(
            None,
            Some("/web/20200101000000/https://www.example.co.uk/b"),
            None,
        );
        assert_eq!(k.0, "unknown");
        let k = key(
            Some("https://web.archive.org/web/20200101000000/https://x.example.com/"),
            Some("/web/20200101000000/https://www.example.co.uk/b"),
            None,
        );
        assert_eq!(k.0, "example.com");
    }

    #[test]
    fn folders_named_after_hosts_key_like_urls() {
        assert_eq!(
            site_key(None, None, Some(Path::new("/x/www.bbc.co.uk"))).as_str(),
            "bbc.co.uk"
        );
        assert_eq!(
            site_key(None, None, Some(Path::new("/x/pages.v2"))).as_str(),
            "pages.v2"
        );
        assert_eq!(
            site_key(None, None, Some(Path::new("/x/bbc"))).as_str(),
            "bbc"
        );
    }

    fn key(
        url: Option<&str>,
        declared: Option<&str>,
        folder: Option<&str>,
    ) -> (String, SiteKeySource) {
        let folder = folder.map(PathBuf::from);
        let k = site_key(url, declared, folder.as_deref());
        (k.to_string(), k.source())
    }

    #[test]
    fn registrable_domains() {
        use SiteKeySource::Url as U;
        assert_eq!(
            key(Some("http://news.bbc.co.uk/a"), None, None),
            ("bbc.co.uk".into(), U)
        );
        assert_eq!(
            key(Some("https://www.example.com:8080/x?y"), None, None),
            ("example.com".into(), U)
        );
        assert_eq!(
            key(Some("https://foo.blogspot.com/p"), None, None),
            ("foo.blogspot.com".into(), U)
        );
        assert_eq!(
            key(Some("HTTP://WWW.Example.COM./"), None, None),
            ("example.com".into(), U)
        );
        assert_eq!(
            key(Some("http://127.0.0.1:8000/a"), None, None),
            ("127.0.0.1".into(), U)
        );
        assert_eq!(key(Some("http://[::1]:80/"), None, None), ("::1".into(), U));
        assert_eq!(
            key(Some("http://localhost:3000/"), None, None),
            ("localhost".into(), U)
        );
        assert_eq!(
            key(Some("www.example.org/page"), None, None),
            ("example.org".into(), U)
        );
        assert_eq!(
            key(Some("http://bücher.de/"), None, None),
            ("xn--bcher-kva.de".into(), U)
        );
        // A host that is itself a public suffix stays whole.
        assert_eq!(
            key(Some("http://blogspot.com/"), None, None),
            ("blogspot.com".into(), U)
        );
    }

    #[test]
    fn declared_url_fallback() {
        use SiteKeySource::DeclaredUrl as D;
        assert_eq!(
            key(None, Some("https://m.example.co.uk/a"), None),
            ("example.co.uk".into(), D)
        );
        // No page URL: a relative declared URL means nothing.
        assert_eq!(
            key(None, Some("/story/1"), Some("data/site-a")),
            ("site-a".into(), SiteKeySource::Folder)
        );
        // A page URL without a host still resolves a protocol-relative one.
        assert_eq!(
            key(
                Some("file:///tmp/x.html"),
                Some("//www.Example.net/a"),
                None
            ),
            ("example.net".into(), D)
        );
        // The page URL wins over the declared one.
        assert_eq!(
            key(
                Some("http://a.example.com/"),
                Some("http://other.org/"),
                None
            ),
            ("example.com".into(), SiteKeySource::Url)
        );
    }

    #[test]
    fn folder_and_unknown() {
        assert_eq!(
            key(None, None, Some("/data/Site-A")),
            ("site-a".into(), SiteKeySource::Folder)
        );
        assert_eq!(
            key(Some("not a url"), None, None),
            ("unknown".into(), SiteKeySource::Unknown)
        );
        assert_eq!(
            key(None, Some(""), None),
            ("unknown".into(), SiteKeySource::Unknown)
        );
        let dot = site_key(None, None, Some(Path::new(".")));
        assert_eq!(dot.source(), SiteKeySource::Folder);
        assert!(!dot.as_str().is_empty());
        assert_ne!(
            site_key(None, None, Some(Path::new("x/unknown"))),
            site_key(None, None, None)
        );
    }

    #[test]
    fn registrable_domain_helper() {
        assert_eq!(
            registrable_domain("https://a.b.example.com/").as_deref(),
            Some("example.com")
        );
        assert_eq!(registrable_domain("mailto:x@example.com"), None);
    }
}
