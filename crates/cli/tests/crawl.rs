//! `chaff crawl` end to end against a site served on 127.0.0.1 by the test: a crawl killed
//! with SIGKILL mid-way and resumed fetches every page exactly once and leaves a WARC that
//! reads to the end, which `chaff learn --per-site` learns from.

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chaff_crawl::testsite::{Reply, TestServer};

const PAGES: usize = 20;

fn page(n: usize) -> Reply {
    let mut html = format!(
        "<!doctype html><html><head><title>Story {n}</title></head><body>\
         <nav><a href=\"/p/0\">Home</a> <a href=\"/about\">About us</a></nav>\
         <main><h1>Story number {n}</h1><p>This is the text of story {n}, {} words long.</p>",
        n * 37 % 101
    );
    for m in [n + 1, n + 2] {
        if m < PAGES {
            html.push_str(&format!("<a href=\"/p/{m}\">next {m}</a> "));
        }
    }
    html.push_str(
        "</main><footer>Copyright the test site, all rights reserved.</footer></body></html>",
    );
    Reply::html(html)
}

fn site() -> TestServer {
    TestServer::start(|path| {
        match path
            .strip_prefix("/p/")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) if n < PAGES => page(n),
            _ => Reply::not_found(),
        }
    })
    .expect("test server starts")
}

/// `chaff crawl --quiet OPTIONS --out OUT SEED [--resume]`, stdout discarded, stderr kept.
fn crawl_command(out: &std::path::Path, seed: &str, options: &[&str], resume: bool) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chaff"));
    cmd.args(["crawl", "--quiet"])
        .args(options)
        .arg("--out")
        .arg(out)
        .arg(seed)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if resume {
        cmd.arg("--resume");
    }
    cmd
}

fn page_hits(server: &TestServer) -> Vec<(String, Instant)> {
    server
        .hits()
        .into_iter()
        .filter(|h| h.path.starts_with("/p/"))
        .map(|h| (h.path, h.at))
        .collect()
}

#[test]
fn kill_then_resume_fetches_each_page_once() {
    let server = site();
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("crawl.warc.gz");
    let delay = "150ms";
    let seed = format!("{}/p/0", server.base());
    let args = |resume: bool| crawl_command(&out, &seed, &["--delay", delay], resume);
    let mut child = args(false).spawn().expect("chaff crawl starts");
    // Kill between two fetches: once the journal records every page the server has served
    // (so its records are written) and the next request is not due yet (the delay).
    let journal = chaff_crawl::journal_path_for(&out);
    let journaled = || {
        std::fs::read_to_string(&journal)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("D\t") && l.contains("/p/"))
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "crawl made no progress");
        let served = page_hits(&server).len();
        if served >= PAGES / 3 && journaled() == served {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("SIGKILL"); // Child::kill is SIGKILL on unix
    let _ = child.wait();
    let before_resume = page_hits(&server).len();
    assert!(before_resume < PAGES, "killed before the end");

    let resumed = args(true).output().expect("chaff crawl --resume runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "resume failed: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let mut counts: HashMap<String, usize> = HashMap::new();
    for (path, _) in page_hits(&server) {
        *counts.entry(path).or_default() += 1;
    }
    for n in 0..PAGES {
        assert_eq!(
            counts.get(&format!("/p/{n}")),
            Some(&1),
            "/p/{n}: {counts:?}"
        );
    }

    // The WARC reads to the end, every page exactly once.
    let mut urls: Vec<String> = chaff_corpus::WarcPages::open(&out)
        .expect("WARC opens")
        .map(|p| p.expect("no damaged record").url.unwrap_or_default())
        .collect();
    urls.sort();
    let stored = urls.len();
    urls.dedup();
    assert_eq!(stored, urls.len(), "a page stored twice");
    assert_eq!(stored, PAGES);

    // Starting again over it without --resume is refused, not a silent overwrite.
    let again = args(false).output().expect("chaff crawl runs");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));

    // chaff learn --per-site reads it.
    let profiles = dir.path().join("profiles");
    let learn = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["learn", "--per-site", "-q", "-o"])
        .arg(&profiles)
        .arg(&out)
        .output()
        .expect("chaff learn runs");
    assert!(
        learn.status.success(),
        "learn: {}",
        String::from_utf8_lossy(&learn.stderr)
    );
    let written = std::fs::read_dir(&profiles).expect("profiles dir").count();
    assert_eq!(written, 1, "one site, one profile");
}

#[test]
fn durations_and_usage_errors() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_chaff"))
            .args(args)
            .output()
            .expect("chaff runs")
    };
    let bad = run(&[
        "crawl",
        "--delay",
        "5 parsecs",
        "--out",
        "x.warc.gz",
        "http://127.0.0.1:9/",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown unit"));
    let none = run(&["crawl", "--out", "x.warc.gz"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no seeds"));
}

/// Killed with no delay, many requests under way and records being written: whatever the
/// moment, the resumed crawl's WARC reads to the end and stores every page once. (A page
/// whose fetch was under way at the kill is fetched again; it is stored once.)
#[test]
fn kill_at_any_moment_leaves_a_resumable_warc() {
    const MANY: usize = 300;
    let server = TestServer::start(|path| {
        match path
            .strip_prefix("/p/")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) if n < MANY => {
                let mut html = format!("<html><body><p>page {n}</p>");
                for m in [2 * n + 1, 2 * n + 2] {
                    if m < MANY {
                        html.push_str(&format!("<a href=\"/p/{m}\">{m}</a>"));
                    }
                }
                Reply::html(html + "</body></html>")
            }
            _ => Reply::not_found(),
        }
    })
    .expect("test server starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("crawl.warc.gz");
    let seed = format!("{}/p/0", server.base());
    let args =
        |resume: bool| crawl_command(&out, &seed, &["--delay", "0", "--concurrency", "8"], resume);
    let mut child = args(false).spawn().expect("chaff crawl starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.hit_count() < MANY / 3 {
        assert!(Instant::now() < deadline, "crawl made no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let killed_at = page_hits(&server).len();

    // Before resuming: every complete record reads; at most the last one is cut.
    let before: Vec<_> = chaff_corpus::WarcPages::open(&out)
        .expect("WARC opens")
        .collect();
    let damaged = before.iter().filter(|p| p.is_err()).count();
    assert!(damaged <= 1, "{damaged} damaged records");

    let resumed = args(true).output().expect("chaff crawl --resume runs");
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let mut urls: Vec<String> = chaff_corpus::WarcPages::open(&out)
        .expect("WARC opens")
        .map(|p| p.expect("no damaged record").url.unwrap_or_default())
        .collect();
    urls.sort();
    let stored = urls.len();
    urls.dedup();
    assert_eq!(stored, urls.len(), "a page stored twice");
    assert_eq!(stored, MANY);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (path, _) in page_hits(&server) {
        *counts.entry(path).or_default() += 1;
    }
    let refetched = counts.values().filter(|&&c| c > 1).count();
    assert_eq!(counts.len(), MANY);
    // Only requests under way at the kill (at most the concurrency) are made twice.
    assert!(
        refetched <= 8,
        "{refetched} pages fetched twice (killed after {killed_at})"
    );
}

#[test]
fn seeds_file_and_page_limit() {
    let server = site();
    let dir = tempfile::tempdir().expect("temp dir");
    let seeds = dir.path().join("urls.txt");
    std::fs::write(
        &seeds,
        format!(
            "# seeds\n\n{0}/p/0\n{0}/p/5\nmailto:nobody@example.org\n",
            server.base()
        ),
    )
    .expect("write seeds");
    let out = dir.path().join("site.warc.gz");
    let run = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args([
            "crawl",
            "--quiet",
            "--delay",
            "0ms",
            "--max-pages-per-site",
            "4",
        ])
        .arg("--seeds")
        .arg(&seeds)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("chaff crawl runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    // The mailto: seed is reported and makes the exit status 1; the rest is crawled.
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("mailto:nobody@example.org: not an http(s) URL"),
        "{stderr}"
    );
    // Four page fetches on the host (/about, linked from every page, is a 404 page fetch).
    let fetched = server
        .hits()
        .iter()
        .filter(|h| h.path != "/robots.txt")
        .count();
    assert_eq!(fetched, 4);
    let pages = chaff_corpus::WarcPages::open(&out)
        .expect("WARC opens")
        .filter(Result::is_ok)
        .count();
    assert_eq!(pages, page_hits(&server).len());
    let paths: Vec<String> = page_hits(&server).into_iter().map(|h| h.0).collect();
    assert!(paths.contains(&"/p/0".to_string()) && paths.contains(&"/p/5".to_string()));
}
