//! URL normalisation, crawl scopes and the seen set.
//!
//! Two spellings of one resource must be fetched once, so every URL is normalised before it
//! is compared: the `url` crate already lowercases scheme and host, removes default ports,
//! resolves dot segments and percent-encodes what must be; here the fragment is dropped (it
//! never reaches the server) and an empty query (`?`) is removed. Nothing fancier (no query
//! sorting, no `www.` folding): those change meaning on some sites.

use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};

use url::Url;

/// Parses `raw` (resolved against `base` when given) into a normalised crawlable URL:
/// `http` or `https`, with a host, no fragment, no empty query. `None` for anything else
/// (`mailto:`, `javascript:`, unparsable text).
pub fn normalize(raw: &str, base: Option<&Url>) -> Option<Url> {
    let raw = raw.trim();
    if raw.is_empty() {
        return None;
    }
    let mut url = match base {
        Some(base) => base.join(raw).ok()?,
        None => Url::parse(raw).ok()?,
    };
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    url.set_fragment(None);
    if url.query() == Some("") {
        url.set_query(None);
    }
    // Credentials in URLs are never sent by a polite crawler.
    if !url.username().is_empty() || url.password().is_some() {
        let _ = url.set_username("");
        let _ = url.set_password(None);
    }
    Some(url)
}

/// The host a URL's politeness is counted against: host and explicit port
/// (`example.org`, `127.0.0.1:8080`).
pub fn host_key(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        _ => String::new(),
    }
}

/// Which links of a seed are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScopeKind {
    /// The seed's host and port only.
    #[default]
    Host,
    /// Any host of the seed's registrable domain (`news.example.co.uk` and
    /// `www.example.co.uk`); hosts without one (IP addresses) fall back to the host.
    Domain,
    /// URLs that start with the seed URL up to its last `/`.
    Prefix,
}

/// The union of the scopes of all seeds seen so far: a link is followed when some seed's
/// scope admits it. Seeds arrive as a stream, so scopes grow as they do.
#[derive(Debug, Default)]
pub struct Scope {
    kind: ScopeKind,
    hosts: HashSet<String>,
    domains: HashSet<String>,
    prefixes: Vec<String>,
}

impl Scope {
    /// An empty scope of a kind.
    pub fn new(kind: ScopeKind) -> Self {
        Scope {
            kind,
            ..Scope::default()
        }
    }

    /// Widens the scope by a seed's.
    pub fn add_seed(&mut self, seed: &Url) {
        match self.kind {
            ScopeKind::Host => {
                self.hosts.insert(host_key(seed));
            }
            ScopeKind::Domain => match domain_of(seed) {
                Some(d) => {
                    self.domains.insert(d);
                }
                None => {
                    self.hosts.insert(host_key(seed));
                }
            },
            ScopeKind::Prefix => {
                let s = seed.as_str();
                let cut = s.rfind('/').map_or(s.len(), |i| i + 1);
                let prefix = s.get(..cut).unwrap_or(s).to_string();
                // The authority's own slashes ("http://") are not a path prefix.
                let prefix = if prefix.len() <= seed.scheme().len() + 3 {
                    s.to_string()
                } else {
                    prefix
                };
                if !self.prefixes.contains(&prefix) {
                    self.prefixes.push(prefix);
                }
            }
        }
    }

    /// Whether a URL is inside the scope.
    pub fn admits(&self, url: &Url) -> bool {
        match self.kind {
            ScopeKind::Host => self.hosts.contains(&host_key(url)),
            ScopeKind::Domain => {
                domain_of(url).is_some_and(|d| self.domains.contains(&d))
                    || self.hosts.contains(&host_key(url))
            }
            ScopeKind::Prefix => self.prefixes.iter().any(|p| url.as_str().starts_with(p)),
        }
    }
}

fn domain_of(url: &Url) -> Option<String> {
    match url.host() {
        Some(url::Host::Domain(_)) => chaff_corpus::registrable_domain(url.as_str()),
        _ => None,
    }
}

/// URLs already enqueued, as 64-bit hashes of their normalised text: 8 bytes (plus the
/// table's slack) per URL instead of the URL itself. Two URLs colliding (probability about
/// n²/2⁶⁵, 10⁻¹⁰ for 50,000 URLs) would make the second look seen and be skipped.
#[derive(Debug, Default)]
pub struct SeenSet {
    hashes: HashSet<u64, IdentityBuild>,
}

impl SeenSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a URL; `true` if it was not there yet.
    pub fn insert(&mut self, url: &str) -> bool {
        self.hashes.insert(url_hash(url))
    }

    /// Adds a URL by its [`url_hash`] (replaying a journal).
    pub fn insert_hash(&mut self, hash: u64) -> bool {
        self.hashes.insert(hash)
    }

    /// Whether a URL was added.
    pub fn contains(&self, url: &str) -> bool {
        self.hashes.contains(&url_hash(url))
    }

    /// How many URLs were added.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }
}

/// A stable 64-bit hash of a URL's text (FNV-1a folded through a 64-bit finaliser, so the
/// table's low bits are well mixed). Stable across runs, which `--resume` relies on.
pub fn url_hash(url: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // splitmix64 finaliser
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The set's keys are already hashes: use them as they are.
#[derive(Debug, Default, Clone, Copy)]
struct IdentityBuild;

impl BuildHasher for IdentityBuild {
    type Hasher = IdentityHasher;
    fn build_hasher(&self) -> IdentityHasher {
        IdentityHasher(0)
    }
}

#[derive(Debug, Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(raw: &str) -> Option<String> {
        normalize(raw, None).map(|u| u.to_string())
    }

    #[test]
    fn normalises() {
        assert_eq!(
            n("HTTP://Example.ORG:80/a/./b/../c#frag").as_deref(),
            Some("http://example.org/a/c")
        );
        assert_eq!(
            n("https://example.org:443").as_deref(),
            Some("https://example.org/")
        );
        assert_eq!(
            n("http://example.org:8080/x?").as_deref(),
            Some("http://example.org:8080/x")
        );
        assert_eq!(
            n("http://u:p@example.org/").as_deref(),
            Some("http://example.org/")
        );
        assert_eq!(
            n("http://example.org/?b=1&a=2").as_deref(),
            Some("http://example.org/?b=1&a=2")
        );
        assert_eq!(n("mailto:a@example.org"), None);
        assert_eq!(n("javascript:void(0)"), None);
        assert_eq!(n("ftp://example.org/"), None);
        assert_eq!(n("not a url"), None);
    }

    #[test]
    fn resolves_against_base() {
        let base = Url::parse("http://example.org/a/b.html").ok();
        let r = |s: &str| normalize(s, base.as_ref()).map(|u| u.to_string());
        assert_eq!(r("c.html").as_deref(), Some("http://example.org/a/c.html"));
        assert_eq!(r("/d").as_deref(), Some("http://example.org/d"));
        assert_eq!(r("#top").as_deref(), Some("http://example.org/a/b.html"));
        assert_eq!(r("//other.org/x").as_deref(), Some("http://other.org/x"));
        assert_eq!(r("  ../e  ").as_deref(), Some("http://example.org/e"));
    }

    #[test]
    fn scopes() {
        let u = |s: &str| Url::parse(s).unwrap();
        let mut host = Scope::new(ScopeKind::Host);
        host.add_seed(&u("http://www.example.co.uk/news/"));
        assert!(host.admits(&u("http://www.example.co.uk/other")));
        assert!(!host.admits(&u("http://news.example.co.uk/")));
        assert!(!host.admits(&u("http://www.example.co.uk:8080/")));

        let mut domain = Scope::new(ScopeKind::Domain);
        domain.add_seed(&u("http://www.example.co.uk/news/"));
        domain.add_seed(&u("http://127.0.0.1:9/"));
        assert!(domain.admits(&u("https://news.example.co.uk/x")));
        assert!(!domain.admits(&u("http://example.com/")));
        assert!(domain.admits(&u("http://127.0.0.1:9/a")));
        assert!(!domain.admits(&u("http://127.0.0.2:9/a")));

        let mut prefix = Scope::new(ScopeKind::Prefix);
        prefix.add_seed(&u("http://example.org/blog/index.html"));
        assert!(prefix.admits(&u("http://example.org/blog/2024/x")));
        assert!(!prefix.admits(&u("http://example.org/shop/")));
        let mut root = Scope::new(ScopeKind::Prefix);
        root.add_seed(&u("http://example.org"));
        assert!(root.admits(&u("http://example.org/any")));
    }

    proptest::proptest! {
        /// Normalising is idempotent, and a normalised URL has no fragment.
        #[test]
        fn normalize_is_idempotent(path in "[a-zA-Z0-9/._~%#?&=: -]{0,40}", host in "[a-zA-Z0-9.-]{1,20}") {
            let raw = format!("http://{host}/{path}");
            if let Some(once) = normalize(&raw, None) {
                let twice = normalize(once.as_str(), None);
                proptest::prop_assert_eq!(twice.as_ref(), Some(&once));
                proptest::prop_assert!(once.fragment().is_none());
            }
        }
    }

    #[test]
    fn seen_set() {
        let mut seen = SeenSet::new();
        assert!(seen.insert("http://a/"));
        assert!(!seen.insert("http://a/"));
        assert!(seen.contains("http://a/"));
        assert!(!seen.contains("http://b/"));
        assert_eq!(seen.len(), 1);
        assert_ne!(url_hash("http://a/1"), url_hash("http://a/2"));
    }
}
