//! The crawler against fixture sites served on 127.0.0.1 by the test itself.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chaff_crawl::testsite::{Reply, TestServer};
use chaff_crawl::{CrawlConfig, Seed, Stats, Summary, crawl};

/// One WARC record, as our test reader splits them.
#[derive(Debug)]
struct Record {
    headers: HashMap<String, String>,
    block: Vec<u8>,
}

impl Record {
    fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
}

/// Splits a `.warc.gz` into records, checking the framing strictly (version line,
/// Content-Length, the closing CRLFCRLF). A reader independent of the one in chaff-corpus.
fn read_warc(path: &Path) -> Vec<Record> {
    let gz = std::fs::read(path).unwrap();
    let mut data = Vec::new();
    flate2::read::MultiGzDecoder::new(&gz[..])
        .read_to_end(&mut data)
        .unwrap();
    let mut records = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let head_end = data[pos..]
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("record head")
            + pos;
        let head = std::str::from_utf8(&data[pos..head_end]).unwrap();
        let mut lines = head.split("\r\n");
        assert_eq!(lines.next(), Some("WARC/1.1"));
        let headers: HashMap<String, String> = lines
            .map(|l| {
                let (n, v) = l.split_once(": ").unwrap();
                (n.to_ascii_lowercase(), v.to_string())
            })
            .collect();
        let len: usize = headers["content-length"].parse().unwrap();
        let start = head_end + 4;
        let block = data[start..start + len].to_vec();
        assert_eq!(&data[start + len..start + len + 4], b"\r\n\r\n");
        pos = start + len + 4;
        records.push(Record { headers, block });
    }
    records
}

fn responses(records: &[Record]) -> Vec<&Record> {
    records
        .iter()
        .filter(|r| r.get("WARC-Type") == Some("response"))
        .collect()
}

fn status_of(r: &Record) -> u16 {
    std::str::from_utf8(&r.block[9..12])
        .unwrap()
        .parse()
        .unwrap()
}

/// Checks the WARC with chaff-corpus's reader (all pages, no damage) and, when Python's
/// warcio is available (installed on demand), with warcio including digests.
fn validate(path: &Path, expected_pages: usize) {
    let pages: Vec<_> = chaff_corpus::WarcPages::open(path).unwrap().collect();
    assert!(pages.iter().all(Result::is_ok), "corpus reader: {pages:?}");
    assert_eq!(pages.len(), expected_pages, "pages read by chaff-corpus");

    let has_warcio = |_: ()| {
        std::process::Command::new("python3")
            .args(["-c", "import warcio"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has_warcio(()) {
        let _ = std::process::Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "warcio"])
            .output();
    }
    if !has_warcio(()) {
        println!("SKIP warcio validation: python3 with warcio is not available");
        return;
    }
    let script = r#"
import sys
from warcio.archiveiterator import ArchiveIterator
n = 0
with open(sys.argv[1], 'rb') as f:
    it = ArchiveIterator(f, check_digests=True)
    for r in it:
        r.content_stream().read()
        if r.digest_checker.passed is False:
            print('digest problem', r.rec_headers.get_header('WARC-Target-URI'), r.digest_checker.problems)
            sys.exit(1)
        n += 1
print(n)
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "warcio: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let n: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert_eq!(n, read_warc(path).len(), "warcio reads every record");
}

fn run(config: CrawlConfig, seeds: Vec<Seed>) -> Summary {
    crawl(config, seeds.into_iter(), Arc::new(Stats::default())).unwrap()
}

fn config(dir: &Path) -> CrawlConfig {
    CrawlConfig {
        out: dir.join("crawl.warc.gz"),
        delay: Duration::ZERO,
        retry_backoff: Duration::from_millis(10),
        timeout: Duration::from_millis(500),
        ..CrawlConfig::default()
    }
}

fn page(links: &[&str]) -> Reply {
    let mut html = String::from("<html><head><title>t</title></head><body><p>text</p>");
    for l in links {
        html.push_str(&format!("<a href=\"{l}\">{l}</a>"));
    }
    html.push_str("</body></html>");
    Reply::html(html)
}

#[test]
fn robots_and_crawl_delay_are_obeyed() {
    let server = TestServer::start(|path| match path {
        "/robots.txt" => Reply::new(
            200,
            "text/plain",
            "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.1\n",
        ),
        "/" => page(&["/a", "/b", "/private/secret", "/c#frag"]),
        "/a" => page(&["/private/x", "/d", "/"]),
        "/b" | "/c" | "/d" => page(&["/a"]),
        _ => Reply::not_found(),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        delay: Duration::from_millis(30),
        ..config(dir.path())
    };
    let summary = run(cfg.clone(), vec![Seed::Page(format!("{}/", server.base()))]);
    let hits = server.hits();
    let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths.first(), Some(&"/robots.txt"));
    assert!(
        paths.iter().all(|p| !p.starts_with("/private")),
        "{paths:?}"
    );
    let mut sorted = paths[1..].to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, ["/", "/a", "/b", "/c", "/d"]);
    assert_eq!(summary.robots_excluded, 2);
    // Consecutive requests at least the Crawl-delay apart (it is larger than --delay).
    for pair in hits.windows(2) {
        let gap = pair[1].at - pair[0].at;
        assert!(
            gap >= Duration::from_millis(100),
            "gap {gap:?} before {}",
            pair[1].path
        );
    }
    assert!(
        hits.iter()
            .all(|h| h.user_agent.starts_with("chaff-crawl/"))
    );
    validate(&cfg.out, 5);
    let records = read_warc(&cfg.out);
    assert_eq!(records[0].get("WARC-Type"), Some("warcinfo"));
    // Every response has its request, linked by WARC-Concurrent-To.
    for r in responses(&records) {
        let id = r.get("WARC-Record-ID").unwrap();
        assert!(records.iter().any(|q| q.get("WARC-Type") == Some("request")
            && q.get("WARC-Concurrent-To") == Some(id)
            && q.get("WARC-Target-URI") == r.get("WARC-Target-URI")));
    }
}

#[test]
fn configured_delay_spaces_requests() {
    let server = TestServer::start(|path| match path {
        "/" => page(&["/1", "/2", "/3"]),
        "/1" | "/2" | "/3" => page(&[]),
        _ => Reply::not_found(),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        delay: Duration::from_millis(120),
        ..config(dir.path())
    };
    run(cfg, vec![Seed::Page(format!("{}/", server.base()))]);
    let hits = server.hits();
    assert_eq!(hits.len(), 5); // robots.txt (404) and four pages
    for pair in hits.windows(2) {
        assert!(pair[1].at - pair[0].at >= Duration::from_millis(120));
    }
}

#[test]
fn failures_redirects_and_limits() {
    let flaky = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let flaky_server = Arc::clone(&flaky);
    let busy_server = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let server = TestServer::start(move |path| {
        if let Some(rest) = path.strip_prefix("/chain/") {
            let n: u32 = rest.parse().unwrap_or(0);
            return Reply::redirect(302, &format!("/chain/{}", n + 1));
        }
        if let Some(rest) = path.strip_prefix("/cal/") {
            // An endless calendar: every month links to the next.
            let n: u32 = rest.parse().unwrap_or(0);
            return page(&[&format!("/cal/{}", n + 1)]);
        }
        match path {
            "/" => page(&[
                "/slow", "/missing", "/error", "/flaky", "/loop1", "/chain/0", "/big", "/pdf",
                "/cal/0", "/moved", "/busy",
            ]),
            "/slow" => page(&[]).with_delay(Duration::from_secs(2)),
            "/missing" => Reply::not_found(),
            "/error" => Reply::new(500, "text/plain", "oops"),
            "/busy" => {
                if busy_server.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 2 {
                    Reply::new(429, "text/plain", "slow down")
                } else {
                    page(&[])
                }
            }
            "/flaky" => {
                if flaky_server.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                    Reply::new(503, "text/plain", "busy").with_header("Retry-After", "0")
                } else {
                    page(&[])
                }
            }
            "/loop1" => Reply::redirect(301, "/loop2"),
            "/loop2" => Reply::redirect(301, "/loop1"),
            "/moved" => Reply::redirect(301, "/target"),
            "/target" => page(&[]),
            "/big" => Reply::html(vec![b'x'; 300_000]),
            "/pdf" => Reply::new(200, "application/pdf", "%PDF-1.4"),
            _ => Reply::not_found(),
        }
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        max_body_bytes: 100_000,
        max_depth: 3,
        max_redirects: 3,
        max_retries: 2,
        timeout: Duration::from_millis(300),
        ..config(dir.path())
    };
    let summary = run(cfg.clone(), vec![Seed::Page(format!("{}/", server.base()))]);
    let mut count: HashMap<String, usize> = HashMap::new();
    for h in server.hits() {
        *count.entry(h.path).or_default() += 1;
    }
    let c = |p: &str| count.get(p).copied().unwrap_or(0);
    assert_eq!(c("/slow"), 3, "a timeout is retried twice");
    assert_eq!(c("/missing"), 1, "a 404 is not retried");
    assert_eq!(c("/error"), 3, "a 500 is retried twice");
    assert_eq!(c("/flaky"), 2, "a 503 then a 200");
    assert_eq!(c("/busy"), 3, "two 429s then a 200");
    assert_eq!((c("/loop1"), c("/loop2")), (1, 1), "a redirect loop ends");
    // /chain/0 plus three redirects followed.
    assert_eq!(
        (0..10)
            .map(|i| c(&format!("/chain/{i}")))
            .collect::<Vec<_>>(),
        [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    );
    // Depth 3 stops the calendar: /cal/0 at depth 1, /cal/2 at depth 3.
    assert_eq!(
        (0..6).map(|i| c(&format!("/cal/{i}"))).collect::<Vec<_>>(),
        [1, 1, 1, 0, 0, 0]
    );
    assert_eq!((c("/moved"), c("/target")), (1, 1));
    assert_eq!(c("/big"), 1);
    assert_eq!(c("/pdf"), 1);

    let records = read_warc(&cfg.out);
    let stored: HashMap<String, u16> = responses(&records)
        .iter()
        .map(|r| {
            let uri = r.get("WARC-Target-URI").unwrap();
            (
                uri.split_once("0.1:")
                    .unwrap()
                    .1
                    .split_once('/')
                    .map_or("/".into(), |x| format!("/{}", x.1)),
                status_of(r),
            )
        })
        .collect();
    assert!(
        !stored.contains_key("/big"),
        "oversized bodies are not stored"
    );
    assert!(
        !stored.contains_key("/pdf"),
        "other media types are not stored"
    );
    assert!(!stored.contains_key("/slow"));
    assert_eq!(
        stored.get("/error"),
        Some(&500),
        "the last answer is stored"
    );
    assert_eq!(stored.get("/flaky"), Some(&200));
    assert_eq!(stored.get("/moved"), Some(&301));
    assert_eq!(summary.skipped_type, 1);
    assert_eq!(summary.http_errors, 2, "/missing and /error");
    // Given up without a response: /slow (timeouts), /big, /chain (limit), the loop.
    assert_eq!(summary.errors, 4, "{:?}", summary.first_errors);
    assert!(summary.retries >= 5);
    // Pages: /, /flaky, /busy, /target, three calendar months.
    validate(&cfg.out, 7);
}

#[test]
fn page_limit_bounds_a_trap() {
    let server = TestServer::start(|path| {
        match path
            .strip_prefix("/cal/")
            .and_then(|n| n.parse::<u32>().ok())
        {
            Some(n) => page(&[&format!("/cal/{}", n + 1), &format!("/cal/{}?view=week", n)]),
            None => Reply::not_found(),
        }
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        max_pages_per_site: Some(25),
        max_depth: 10_000,
        ..config(dir.path())
    };
    let summary = run(
        cfg.clone(),
        vec![Seed::Page(format!("{}/cal/0", server.base()))],
    );
    let pages = server
        .hits()
        .iter()
        .filter(|h| h.path != "/robots.txt")
        .count();
    assert_eq!(pages, 25);
    assert!(summary.limited >= 1);
    assert_eq!(responses(&read_warc(&cfg.out)).len(), 26); // with robots.txt's 404
}

const SITEMAP_INDEX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>/sitemap-pages.xml.gz</loc></sitemap></sitemapindex>"#;

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn sitemaps_and_feeds_seed_the_crawl() {
    let server = TestServer::start(|path| match path {
        "/sitemap.xml" => Reply::new(200, "application/xml", SITEMAP_INDEX),
        "/sitemap-pages.xml.gz" => Reply::new(
            200,
            "application/gzip",
            gzip(br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/s1</loc></url><url><loc>/s2</loc></url></urlset>"#),
        ),
        "/rss" => Reply::new(
            200,
            "application/rss+xml",
            r#"<rss version="2.0"><channel><title>News</title>
<item><title>First story</title><link>/f1</link><description>The first</description></item>
<item><title>Second story</title><link>/f2</link></item></channel></rss>"#,
        ),
        "/s1" | "/s2" | "/f2" => page(&[]),
        "/f1" => page(&["/f1-more"]),
        "/f1-more" => page(&[]),
        _ => Reply::not_found(),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    run(
        cfg.clone(),
        vec![
            Seed::Sitemap(format!("{}/sitemap.xml", server.base())),
            Seed::Feed(format!("{}/rss", server.base())),
        ],
    );
    let records = read_warc(&cfg.out);
    let uris: Vec<String> = responses(&records)
        .iter()
        .map(|r| {
            r.get("WARC-Target-URI")
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    for p in [
        "sitemap.xml",
        "sitemap-pages.xml.gz",
        "s1",
        "s2",
        "rss",
        "f1",
        "f2",
        "f1-more",
    ] {
        assert!(uris.iter().any(|u| u == p), "{p} in {uris:?}");
    }
    // Feed items are kept beside their pages as JSON metadata records.
    let meta: Vec<&Record> = records
        .iter()
        .filter(|r| r.get("WARC-Type") == Some("metadata"))
        .collect();
    assert_eq!(meta.len(), 2);
    for m in &meta {
        let json: serde_json::Value = serde_json::from_slice(&m.block).unwrap();
        let target = m.get("WARC-Target-URI").unwrap();
        assert_eq!(json["link"], target);
        let response = records
            .iter()
            .find(|r| r.get("WARC-Record-ID") == m.get("WARC-Concurrent-To"))
            .unwrap();
        assert_eq!(response.get("WARC-Target-URI"), Some(target));
        if target.ends_with("/f1") {
            assert_eq!(json["title"], "First story");
            assert_eq!(json["description"], "The first");
        }
    }
    validate(&cfg.out, 5);
}

#[test]
fn resume_continues_without_refetching() {
    let server = TestServer::start(|path| {
        match path.strip_prefix("/p/").and_then(|n| n.parse::<u32>().ok()) {
            Some(n) if n < 30 => page(&[&format!("/p/{}", n + 1), &format!("/p/{}", (n + 7) % 30)]),
            _ => Reply::not_found(),
        }
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let seed = format!("{}/p/0", server.base());
    let cfg = CrawlConfig {
        max_pages: Some(10),
        ..config(dir.path())
    };
    let first = run(cfg.clone(), vec![Seed::Page(seed.clone())]);
    assert_eq!(first.pages_ok, 10);
    assert!(first.left > 0);
    // Damage the tail as a kill would: half a gzip member, half a journal line.
    let mut warc = std::fs::read(&cfg.out).unwrap();
    warc.extend_from_slice(&gzip(b"WARC/1.1\r\nWARC-Type: response")[..10]);
    std::fs::write(&cfg.out, &warc).unwrap();
    let journal = chaff_crawl::journal_path_for(&cfg.out);
    let mut j = std::fs::read(&journal).unwrap();
    j.extend_from_slice(b"D\t12");
    std::fs::write(&journal, &j).unwrap();

    let resumed = CrawlConfig {
        max_pages: None,
        resume: true,
        ..cfg.clone()
    };
    run(resumed, vec![Seed::Page(seed)]);
    let mut count: HashMap<String, usize> = HashMap::new();
    for h in server.hits() {
        *count.entry(h.path).or_default() += 1;
    }
    for n in 0..30 {
        assert_eq!(
            count.get(&format!("/p/{n}")),
            Some(&1),
            "/p/{n} fetched once"
        );
    }
    let records = read_warc(&cfg.out);
    let mut stored: Vec<&str> = responses(&records)
        .iter()
        .filter(|r| status_of(r) == 200)
        .filter_map(|r| r.get("WARC-Target-URI"))
        .collect();
    stored.sort_unstable();
    let before = stored.len();
    stored.dedup();
    assert_eq!(before, stored.len(), "no page stored twice");
    assert_eq!(stored.len(), 30);
    validate(&cfg.out, 30);
}

#[test]
fn huge_crawl_delay_is_capped() {
    let server = TestServer::start(|path| match path {
        "/robots.txt" => Reply::new(200, "text/plain", "User-agent: *\nCrawl-delay: 1e30\n"),
        "/" => page(&["/a"]),
        "/a" => page(&[]),
        _ => Reply::not_found(),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        max_crawl_delay: Duration::from_millis(80),
        ..config(dir.path())
    };
    let summary = run(cfg, vec![Seed::Page(format!("{}/", server.base()))]);
    assert_eq!(summary.pages_ok, 2);
    let hits = server.hits();
    for pair in hits.windows(2) {
        assert!(pair[1].at - pair[0].at >= Duration::from_millis(80));
    }
}

/// A list of pages fetched as `chaff extract URL...` does: no links followed, redirects
/// followed, and every URL that gives no page named with its reason.
#[test]
fn a_list_of_pages_names_every_failure() {
    let server = TestServer::start(|path| match path {
        "/robots.txt" => Reply::new(200, "text/plain", "User-agent: *\nDisallow: /private/\n"),
        "/a" => page(&["/linked"]),
        "/moved" => Reply::redirect(301, "/b"),
        "/b" => page(&[]),
        _ => Reply::not_found(),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CrawlConfig {
        max_depth: 0,
        max_reported_errors: usize::MAX,
        ..config(dir.path())
    };
    let base = server.base();
    let seeds = ["/a", "/moved", "/missing", "/private/x"]
        .iter()
        .map(|p| Seed::Page(format!("{base}{p}")))
        .collect();
    let summary = run(cfg.clone(), seeds);
    let mut errors = summary.first_errors.clone();
    errors.sort();
    assert_eq!(
        errors,
        [
            format!("{base}/missing: HTTP 404"),
            format!("{base}/private/x: disallowed by robots.txt")
        ]
    );
    let mut fetched: Vec<String> = server.hits().into_iter().map(|h| h.path).collect();
    fetched.sort();
    assert_eq!(fetched, ["/a", "/b", "/missing", "/moved", "/robots.txt"]);
    assert_eq!(summary.pages_ok, 2);
}

#[test]
fn summaries_for_people() {
    use chaff_crawl::human_bytes;
    assert_eq!(human_bytes(512), "512 B");
    assert_eq!(human_bytes(3 << 10), "3.0 KiB");
    assert_eq!(human_bytes(3 << 19), "1.5 MiB");
    assert_eq!(human_bytes(2 << 30), "2.0 GiB");
    let s = Summary {
        stored: 7,
        pages_ok: 5,
        http_errors: 2,
        elapsed: Duration::from_secs(2),
        ..Summary::default()
    };
    let line = s.to_string();
    assert!(line.starts_with("7 responses (5 pages 2xx)"), "{line}");
    assert!(
        line.contains("(4 responses/s)") && line.contains("2 HTTP 4xx/5xx"),
        "{line}"
    );
    assert!(!line.contains('\n'));
}

/// A list of pages fetches a host's first page right after its robots.txt, and spaces the
/// next ones by the delay (that a crawl waits after robots.txt too is
/// `robots_and_crawl_delay_are_obeyed`). The delay is long so that only waiting, never a
/// slow machine, can make the first gap reach it.
#[test]
fn a_list_of_pages_does_not_wait_after_robots() {
    let server = TestServer::start(|path| match path {
        "/robots.txt" => Reply::new(200, "text/plain", "User-agent: *\nAllow: /\n"),
        _ => page(&[]),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let base = server.base();
    let delay = Duration::from_secs(3);
    let list = CrawlConfig {
        delay,
        ..CrawlConfig::page_list(dir.path().join("list.warc.gz"), 1 << 20)
    };
    run(
        list,
        vec![
            Seed::Page(format!("{base}/a")),
            Seed::Page(format!("{base}/b")),
        ],
    );
    let hits = server.hits();
    let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, ["/robots.txt", "/a", "/b"]);
    assert!(
        hits[1].at - hits[0].at < delay,
        "the first page waited after robots.txt"
    );
    assert!(
        hits[2].at - hits[1].at >= delay,
        "the second page did not wait"
    );
}
