//! `chaff-lab fuzz-seeds`: writes the seed corpora of every fuzz target of `fuzz/` into
//! `OUT/<target>/`: pages from `../shared/datasets` (or `$CHAFF_SHARED/datasets`) when
//! present, synthetic sites, profiles learned from them, WARC and JSON Lines streams of their
//! pages, the small hostile inputs, selectors, XPaths, robots.txt files, sitemaps, feeds and
//! raw HTTP requests to the server.
//! Built at run time (by `.ci/fuzz.sh`), never committed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use chaff_cli::common::Status;
use chaff_corpus::{Media, Page, WarcCompression, WarcWriter};
use clap::Args;

/// Seeds longer than this are cut (the targets run with `-max_len` of the same size).
const MAX_SEED: usize = 64 << 10;

/// Arguments of `chaff-lab fuzz-seeds`.
#[derive(Args)]
pub struct FuzzSeedsArgs {
    /// The folder to write into (one subfolder per fuzz target).
    #[arg(long, short)]
    out: PathBuf,
    /// How many pages to take from the shared data sets.
    #[arg(long, default_value_t = 300)]
    pages: usize,
}

/// Runs `chaff-lab fuzz-seeds`: one line per target, `target<TAB>seeds`.
pub fn run(args: FuzzSeedsArgs) -> anyhow::Result<Status> {
    let dir = args.out;
    let wanted = args.pages;
    let put = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let d = dir.join(target);
        std::fs::create_dir_all(&d)?;
        std::fs::write(d.join(name), &bytes[..bytes.len().min(MAX_SEED)])
    };

    // Pages: the shared data sets (a spread over several), then synthetic sites.
    let mut pages: Vec<(String, Vec<u8>)> = shared_pages(wanted);
    let sites = chaff_synth::generate_sites(11, 4, 6);
    for site in &sites {
        for p in &site.pages {
            pages.push((p.url.clone(), p.html.clone().into_bytes()));
        }
    }
    eprintln!("seeds: {} pages", pages.len());
    for (i, (_, html)) in pages.iter().enumerate() {
        put("html_extract", &format!("page-{i:04}"), html)?;
        put(
            "crawl_sources",
            &format!("page-{i:04}"),
            &[&[3u8][..], html].concat(),
        )?;
    }

    // Profiles learned from the synthetic sites, with every site method.
    let registry = chaff::Registry::builtin()?;
    let learner = chaff::Learner::new(&registry, &["suffix", "align", "forest", "subtree"])?;
    for (k, site) in sites.iter().enumerate() {
        let loaded: Vec<chaff::LoadedPage> = site
            .pages
            .iter()
            .filter_map(|p| {
                let page = Page {
                    source: p.file.clone(),
                    url: Some(p.url.clone()),
                    bytes: p.html.clone().into_bytes(),
                    charset: None,
                    folder: None,
                    media: Media::Html,
                };
                chaff::load_page(page, learner.load_options()).ok()
            })
            .collect();
        match learner.learn_pages(&site.domain, &loaded) {
            Ok(profile) => {
                let json = profile.to_json();
                // Profiles are small; keep them whole even past the page cut.
                let d = dir.join("profile_apply");
                std::fs::create_dir_all(&d)?;
                std::fs::write(d.join(format!("profile-{k}.json")), json)?;
            }
            Err(e) => eprintln!("seeds: {}: {e}", site.domain),
        }
    }

    // WARC streams, plain and gzip, of a few pages each; JSON Lines of the same pages.
    for (k, chunk) in pages.chunks(8).take(12).enumerate() {
        for (c, compression) in [WarcCompression::None, WarcCompression::Gzip]
            .into_iter()
            .enumerate()
        {
            let mut w = WarcWriter::new(Vec::new(), compression);
            w.write_warcinfo(Some("seed.warc"), &[("software", "chaff-fuzz seeds")])?;
            for (url, html) in chunk {
                let html = &html[..html.len().min(8 << 10)];
                let resp = chaff_corpus::http::build_response(
                    200,
                    "OK",
                    &[("Content-Type", "text/html; charset=utf-8")],
                    html,
                );
                w.write_response(url, &resp)?;
            }
            let bytes = w.into_inner()?;
            put("warc_reader", &format!("warc-{k}-{c}"), &bytes)?;
            put("jsonl_reader", &format!("warc-{k}-{c}"), &bytes)?;
        }
        let mut lines = Vec::new();
        for (i, (url, html)) in chunk.iter().enumerate() {
            let html = String::from_utf8_lossy(&html[..html.len().min(4 << 10)]).into_owned();
            let line = if i % 3 == 2 {
                serde_json::json!({"url": url, "text": html})
            } else {
                serde_json::json!({"url": url, "html": html})
            };
            writeln!(lines, "{line}")?;
        }
        put("jsonl_reader", &format!("lines-{k}"), &lines)?;
    }
    let dir_a = std::env::temp_dir().join(format!("chaff-fuzz-adv-{}", std::process::id()));
    for a in chaff_synth::adversarial::write_all(&dir_a, chaff_synth::adversarial::Scale::Small)? {
        if a.path.extension().is_some_and(|e| e == "warc") {
            let bytes = std::fs::read(&a.path)?;
            put("warc_reader", &a.name, &bytes)?;
            put("jsonl_reader", &a.name, &bytes)?;
        } else if std::fs::metadata(&a.path)?.len() <= MAX_SEED as u64 {
            put("html_extract", &a.name, &std::fs::read(&a.path)?)?;
        }
    }
    let _ = std::fs::remove_dir_all(&dir_a);

    // Selectors and XPaths: hand-written ones, then unique selectors of page elements.
    for (i, s) in SELECTORS.iter().enumerate() {
        put("css_selector", &format!("sel-{i:03}"), s.as_bytes())?;
    }
    for (i, (_, html)) in pages.iter().take(20).enumerate() {
        let Ok(doc) = chaff_dom::parse(html) else {
            continue;
        };
        let loc = chaff_dom::Locator::new(&doc);
        for (j, id) in doc
            .ids()
            .filter(|&id| doc.is_element(id))
            .step_by(37)
            .take(5)
            .enumerate()
        {
            if let Some(sel) = loc.unique_selector(id) {
                put("css_selector", &format!("uniq-{i:03}-{j}"), sel.as_bytes())?;
            }
        }
    }
    for (i, x) in XPATHS.iter().enumerate() {
        put("xpath", &format!("xp-{i:03}"), x.as_bytes())?;
    }

    // Requests to the server: every route, pages raw and as JSON, chunked bodies, a learn.
    for (i, raw) in server_requests(&pages, &sites).iter().enumerate() {
        put("server_request", &format!("req-{i:03}"), raw)?;
    }

    // Robots files, sitemaps and feeds (the first byte picks the parser).
    for (i, r) in ROBOTS.iter().enumerate() {
        put(
            "crawl_sources",
            &format!("robots-{i}"),
            &[&[0u8], r.as_bytes()].concat(),
        )?;
    }
    let sitemap = sitemap(&pages);
    put(
        "crawl_sources",
        "sitemap",
        &[&[1u8][..], sitemap.as_bytes()].concat(),
    )?;
    put(
        "crawl_sources",
        "sitemap-gz",
        &[&[1u8][..], &gzip(sitemap.as_bytes())].concat(),
    )?;
    put(
        "crawl_sources",
        "sitemap-index",
        &[&[1u8][..], SITEMAP_INDEX.as_bytes()].concat(),
    )?;
    put(
        "crawl_sources",
        "rss",
        &[&[2u8][..], RSS.as_bytes()].concat(),
    )?;
    put(
        "crawl_sources",
        "atom",
        &[&[2u8][..], ATOM.as_bytes()].concat(),
    )?;
    let mut targets: Vec<_> = std::fs::read_dir(&dir)?.flatten().collect();
    targets.sort_by_key(|e| e.file_name());
    for t in targets {
        let n = std::fs::read_dir(t.path())?.count();
        outln!("{}\t{n}", t.file_name().to_string_lossy())?;
    }
    Ok(Status::Ok)
}

/// Up to `wanted` pages from the shared data sets, decompressed, spread over the sets.
fn shared_pages(wanted: usize) -> Vec<(String, Vec<u8>)> {
    let root = std::env::var_os("CHAFF_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let sets = [
        "dragnet/html",
        "wcxb-dev/html",
        "cleaneval",
        "mozilla-readability-testpages/test-pages",
        "l3s-gn1",
        "trafilatura-eval",
        "canola-krdwrd",
    ];
    let mut files: Vec<Vec<PathBuf>> = Vec::new();
    for set in sets {
        let mut found = Vec::new();
        let mut stack = vec![root.join("datasets").join(set)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    stack.push(p);
                } else if p.to_string_lossy().ends_with(".html.gz")
                    || p.to_string_lossy().ends_with(".html")
                {
                    found.push(p);
                }
            }
        }
        if !found.is_empty() {
            files.push(found);
        }
    }
    if files.is_empty() {
        eprintln!(
            "seeds: no shared data sets under {}; synthetic pages only",
            root.display()
        );
        return Vec::new();
    }
    let per_set = wanted.div_ceil(files.len());
    let mut out = Vec::new();
    for set in files {
        let step = (set.len() / per_set).max(1);
        for p in set.iter().step_by(step).take(per_set) {
            let Ok(raw) = std::fs::read(p) else {
                continue;
            };
            let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
                let mut out = Vec::new();
                let dec = flate2::read::MultiGzDecoder::new(&raw[..]);
                if dec.take(8 << 20).read_to_end(&mut out).is_err() {
                    continue;
                }
                out
            } else {
                raw
            };
            out.push((format!("https://seed.example/{}", out.len()), bytes));
        }
    }
    out
}

/// Raw HTTP/1.1 requests of every kind `chaff serve` answers.
fn server_requests(pages: &[(String, Vec<u8>)], sites: &[chaff_synth::SynthSite]) -> Vec<Vec<u8>> {
    let request = |method: &str, target: &str, kind: Option<&str>, body: &[u8]| {
        let mut r = format!("{method} {target} HTTP/1.1\r\nHost: localhost\r\n");
        if let Some(kind) = kind {
            r += &format!("Content-Type: {kind}\r\nContent-Length: {}\r\n", body.len());
        }
        r += "\r\n";
        [r.as_bytes(), body].concat()
    };
    let mut out = Vec::new();
    for target in [
        "/healthz",
        "/metrics",
        "/openapi.json",
        "/v1/sites",
        "/v1/pages",
        "/",
        "/x",
    ] {
        out.push(request("GET", target, None, b""));
    }
    for (i, (url, html)) in pages.iter().take(12).enumerate() {
        let html = &html[..html.len().min(16 << 10)];
        let format = ["text", "markdown", "html", "json", "xml", "tei"][i % 6];
        let target = format!(
            "/v1/extract?url={url}&format={format}&labels={}",
            i % 2 == 0
        );
        out.push(request("POST", &target, Some("text/html"), html));
        let text = String::from_utf8_lossy(html);
        let json = serde_json::json!({"html": text, "url": url, "format": format, "menu": i % 3 == 0,
            "threshold": 0.5, "classifier": if i % 4 == 0 { "pagelevel" } else { "content" }});
        let route = ["/v1/extract", "/v1/segment", "/v1/inspect"][i % 3];
        out.push(request(
            "POST",
            route,
            Some("application/json"),
            json.to_string().as_bytes(),
        ));
    }
    if let Some((url, html)) = pages.first() {
        let html = &html[..html.len().min(4 << 10)];
        let mut chunked = format!(
            "POST /v1/extract?url={url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/html\r\n\
             Transfer-Encoding: chunked\r\n\r\n{:x}\r\n",
            html.len()
        )
        .into_bytes();
        chunked.extend_from_slice(html);
        chunked.extend_from_slice(b"\r\n0\r\n\r\n");
        out.push(chunked);
    }
    if let Some(site) = sites.first() {
        let learn: Vec<serde_json::Value> = site
            .pages
            .iter()
            .take(4)
            .map(|p| serde_json::json!({"url": p.url, "html": p.html.chars().take(6000).collect::<String>()}))
            .collect();
        let body = serde_json::Value::from(learn).to_string();
        out.push(request(
            "POST",
            "/v1/learn",
            Some("application/json"),
            body.as_bytes(),
        ));
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

fn sitemap(pages: &[(String, Vec<u8>)]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (url, _) in pages.iter().take(20) {
        s.push_str(&format!(
            "<url><loc>{url}</loc><lastmod>2026-01-01</lastmod></url>\n"
        ));
    }
    s.push_str("<url><loc>/relative/page?a=1&amp;b=2</loc></url>\n</urlset>\n");
    s
}

const SELECTORS: &[&str] = &[
    "div",
    "*",
    "div#nav ul.nav-list",
    "body > table:nth-of-type(2) td",
    "html:root > body > div:nth-of-type(3) > ul",
    "td[class=\"nav\"]",
    "a[href^='http' i]",
    "a[rel~=next s], p + ul ~ div",
    "li:nth-child(2n+1):not(.x, :first-child)",
    ":nth-last-of-type(-n+3)",
    "p:empty, :only-child, :last-of-type, :first-of-type",
    "#\\31 23 .\\:weird\\\"",
    "svg clipPath[viewBox$=\"1\"]",
    "div[data-k|=v]",
    "ul>li>a[href*=\"/\"]",
];

const XPATHS: &[&str] = &[
    "/html/body/div[1]",
    "//div[@id='main']//p",
    "//p/text()",
    "//a/@href",
    "//div[contains(@class,'post')]/h1",
    "//ul/li[position()>1 and position()<=last()]",
    "//*[not(self::div)][count(*)=0]",
    "(//p)[2]/following-sibling::*",
    "//li[starts-with(normalize-space(.),'A')]/..",
    "//div[@class='foot']/preceding::p | //title",
    "//h1/ancestor-or-self::div[string-length(@id) > 0]",
    "//*[local-name()='b' or name()='i']/parent::*/descendant::text()",
    "sum(//li/@x) + 1 div 3 mod 2",
    "//p[translate(., 'abc', 'ABC') != substring-after('x-y', '-')]",
];

const ROBOTS: &[&str] = &[
    "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nCrawl-delay: 2\n",
    "User-agent: chaff\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://example.org/sitemap.xml\n",
    "# comment\nuser-agent: *\ndisallow: /*.php$\ndisallow: /dir/*?q=\n",
    "User-agent: *\nDisallow:\n",
];

const SITEMAP_INDEX: &str = "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>https://example.org/s1.xml.gz</loc></sitemap><sitemap><loc>s2.xml</loc></sitemap></sitemapindex>";

const RSS: &str = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>News</title><link>https://example.org/</link><item><title>One</title><link>https://example.org/one</link><description>First &amp; best</description></item><item><title>Two</title><link>/two</link></item></channel></rss>";

const ATOM: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Blog</title><id>urn:x</id><updated>2026-01-01T00:00:00Z</updated><entry><title>A post</title><id>urn:y</id><updated>2026-01-01T00:00:00Z</updated><link rel=\"alternate\" href=\"https://example.org/post\"/><summary>Words</summary></entry></feed>";
