//! What a user coming from trafilatura types (issue 21): pages fetched by URL from a
//! loopback server the test starts (one URL, a list, redirects, robots.txt, a 404, a
//! timeout), raw HTML on standard input, the JSON record, errors on one line, shell
//! completions and manual pages.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use chaff_crawl::testsite::{Reply, TestServer};

fn chaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chaff"))
}

fn run(args: &[&str]) -> Output {
    chaff().args(args).output().expect("chaff runs")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const ARTICLE: &str = "The harbour authority confirmed on Tuesday that the old lighthouse will be \
    restored over the coming winter, with volunteers repainting the tower and engineers \
    replacing the lamp that has been dark since the storm of last spring.";

fn page(title: &str) -> String {
    format!(
        "<!doctype html><html lang=en><head><title>{title}</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About us</a></nav>\
         <article><h1>{title}</h1><p>{ARTICLE}</p><p>{ARTICLE}</p></article>\
         <footer>Copyright Harbour News, all rights reserved</footer></body></html>"
    )
}

fn site() -> TestServer {
    TestServer::start(|path| match path {
        "/robots.txt" => Reply::new(200, "text/plain", "User-agent: *\nDisallow: /private/\n"),
        "/a" | "/b" | "/private/x" => Reply::html(page(path)),
        "/latin1" => Reply::new(
            200,
            "text/html; charset=iso-8859-1",
            b"<html><body><article><p>Caf\xe9 cr\xe8me, the harbour's own, is served \
              every morning from seven until the boats come back in.</p></article></body></html>"
                .to_vec(),
        ),
        "/moved" => Reply::redirect(301, "/b"),
        "/slow" => Reply::html(page("slow")).with_delay(Duration::from_secs(3)),
        _ => Reply::not_found(),
    })
    .expect("test server")
}

#[test]
fn one_url_is_fetched_politely_and_extracted() {
    let server = site();
    let o = run(&["extract", "--delay", "0", &format!("{}/a", server.base())]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("lighthouse will be restored"));
    assert!(!out(&o).contains("Copyright"));
    let hits = server.hits();
    assert_eq!(hits[0].path, "/robots.txt", "robots.txt first");
    assert!(
        hits.iter()
            .all(|h| h.user_agent.starts_with("chaff-crawl/"))
    );
}

#[test]
fn a_list_with_redirects_robots_404_and_a_timeout() {
    let server = site();
    let dir = tempfile::tempdir().unwrap();
    let base = server.base();
    let list = dir.path().join("urls.txt");
    let urls = ["/a", "/moved", "/missing", "/private/x", "/slow", "/latin1"];
    let mut text = String::from("# pages to read\n\n");
    for u in urls {
        text.push_str(&format!("{base}{u}\n"));
    }
    std::fs::write(&list, text).unwrap();
    let outdir = dir.path().join("out");
    let fetch = ["--delay", "0", "--timeout", "1s", "--retries", "0", "-q"];
    let o = run(&[
        &[
            "extract",
            "--urls",
            list.to_str().unwrap(),
            "-f",
            "json",
            "-o",
        ][..],
        &[outdir.to_str().unwrap()],
        &fetch[..],
    ]
    .concat());
    assert_eq!(
        o.status.code(),
        Some(1),
        "some URLs gave no page: {}",
        err(&o)
    );
    let e = err(&o);
    for (url, why) in [
        ("/missing", "HTTP 404"),
        ("/private/x", "robots.txt"),
        ("/slow", ""),
    ] {
        let line = e.lines().find(|l| l.contains(&format!("{base}{url}:")));
        assert!(
            line.is_some_and(|l| l.contains(why)),
            "{url} not reported: {e}"
        );
    }
    assert_eq!(e.lines().count(), 3, "one line per failure: {e}");
    let mut records: Vec<serde_json::Value> = std::fs::read_dir(&outdir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| !p.ends_with(chaff_corpus::PAGES_JOURNAL))
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        .collect();
    records.sort_by_key(|r| r["url"].as_str().unwrap_or("").to_string());
    let got: Vec<&str> = records.iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert_eq!(
        got,
        [
            format!("{base}/a"),
            format!("{base}/b"),
            format!("{base}/latin1")
        ]
    );
    assert_eq!(
        records[1]["source"],
        format!("{base}/b"),
        "named by the final URL"
    );
    let latin = records[2]["text"].as_str().unwrap();
    assert!(
        latin.contains("Café crème"),
        "the response's charset is used: {latin}"
    );

    // --ignore-robots reads what robots.txt disallows (for one's own sites).
    let private = format!("{base}/private/x");
    let o = run(&[&["extract", "--ignore-robots", &private][..], &fetch[..]].concat());
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("lighthouse"));
}

#[test]
fn nothing_fetched_is_a_one_line_error() {
    let server = site();
    let o = run(&[
        "extract",
        "--delay",
        "0",
        "-q",
        &format!("{}/missing", server.base()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert_eq!(e.lines().count(), 2, "{e}");
    assert!(e.contains("/missing: HTTP 404") && e.contains("no page could be fetched"));
}

#[test]
fn raw_html_on_standard_input() {
    let mut child = chaff()
        .args(["extract", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let html = page("Piped");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(html.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(out(&o).contains("lighthouse will be restored"));
    assert!(!out(&o).contains("About us"));
}

/// The record a user parses: provenance and text first, labels only with --labels.
#[test]
fn json_record_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lighthouse.html");
    std::fs::write(&file, page("Lighthouse to shine again")).unwrap();
    let o = run(&["extract", "-f", "json", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let mut record: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    record["source"] = "lighthouse.html".into();
    record["site"] = "(folder)".into();
    insta::assert_snapshot!(serde_json::to_string_pretty(&record).unwrap());
    let o = run(&["extract", "-f", "json", "--labels", file.to_str().unwrap()]);
    let labelled: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let nodes = labelled["nodes"].as_array().unwrap();
    assert!(
        nodes
            .iter()
            .any(|n| n["tag"] == "nav" && n["role"] == "template")
    );
}

#[test]
fn errors_say_each_cause_once() {
    let o = run(&["extract", "/no/such/page.html"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("/no/such/page.html"));
    assert_eq!(e.matches("No such file").count(), 1, "{e}");
    let o = run(&["extract", "--target-language", "klingon", "x.html"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("not a language code"));
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("types.json");
    std::fs::write(&model, "{\"format\": \"chaff-page-type\"").unwrap();
    let o = run(&[
        "extract",
        "--page-type-model",
        model.to_str().unwrap(),
        "x.html",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("types.json") && e.contains("page-type model"),
        "{e}"
    );
}

#[test]
fn completions_and_manual_pages() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let script = out(&o);
        assert!(
            script.contains("extract") && script.contains("target-language"),
            "{shell}"
        );
    }
    assert!(out(&run(&["completions", "zsh"])).starts_with("#compdef chaff"));
    let o = run(&["man"]);
    assert!(out(&o).contains(".TH chaff 1"));
    let o = run(&["man", "extract"]);
    assert!(out(&o).contains(".TH chaff-extract 1") && out(&o).contains("favor\\-precision"));
    let o = run(&["man", "nonesuch"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--target-language de crawl.warc.gz`: only the German page is written; the others are
/// counted on stderr.
#[test]
fn target_language_keeps_one_language() {
    use chaff_corpus::http::build_response;
    use chaff_corpus::{WarcCompression, WarcWriter};
    let pages = [
        (
            "https://de.example.org/a",
            "Die Stadt hat am Montag beschlossen, die alte Brücke über den Fluss abzureißen und im nächsten Jahr eine neue zu bauen, die auch für Radfahrer sicher ist. Die Bürger können bis zum Sommer ihre Einwände vorbringen.",
        ),
        ("https://en.example.org/b", ARTICLE),
        (
            "https://fr.example.org/c",
            "La mairie a décidé lundi de démolir le vieux pont sur la rivière et d'en construire un nouveau l'année prochaine, plus sûr pour les cyclistes. Les habitants pourront donner leur avis jusqu'à l'été.",
        ),
    ];
    let mut bytes = Vec::new();
    {
        let mut w = WarcWriter::new(&mut bytes, WarcCompression::Gzip);
        for (url, text) in pages {
            // Each page declares English: the text decides.
            let html = format!(
                "<html lang=en><body><nav><a href=/>Home</a></nav><article><p>{text}</p><p>{text}</p></article></body></html>"
            );
            let http = build_response(
                200,
                "OK",
                &[("Content-Type", "text/html; charset=utf-8")],
                html.as_bytes(),
            );
            w.write_response(url, &http).unwrap();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc.gz");
    std::fs::write(&warc, bytes).unwrap();
    let o = run(&[
        "extract",
        "-q",
        "-f",
        "json",
        "--target-language",
        "de",
        warc.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let records: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 1, "{}", out(&o));
    assert_eq!(records[0]["url"], "https://de.example.org/a");
    assert_eq!(records[0]["language"]["code"], "de");
    assert!(err(&o).contains("2 pages left out"), "{}", err(&o));
}

/// `--dedup` within a run, and `--dedup-index` across runs: a copy of a page, its template
/// changed, names the page it repeats; a damaged index is a one-line error.
#[test]
fn near_duplicates_within_and_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let story = |title: &str, words: &str, date: &str| {
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/n>News</a></nav><p class=date>{date}</p>\
             <article><h1>{title}</h1><p>{words}</p><p>{words}</p></article></body></html>"
        )
    };
    let other = "Volunteers planted four hundred trees along the ring road on Saturday, \
        and the parks department promised to water them through the first dry summer.";
    let write = |name: &str, html: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, html).unwrap();
        p.to_str().unwrap().to_string()
    };
    let a = write("a.html", story("Lighthouse", ARTICLE, "Monday 3 May"));
    let b = write("b.html", story("Trees", other, "Tuesday 4 May"));
    let a2 = write("c.html", story("Lighthouse", ARTICLE, "Friday 7 May"));
    let index = dir.path().join("seen.idx");
    let idx = index.to_str().unwrap();
    let records = |o: &Output| -> Vec<serde_json::Value> {
        out(o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let o = run(&["extract", "-q", "--dedup-index", idx, &a, &b, &a2]);
    assert!(o.status.success(), "{}", err(&o));
    let got = records(&o);
    assert_eq!(got.len(), 3);
    assert!(got[0].get("duplicate_of").is_none() && got[1].get("duplicate_of").is_none());
    assert_eq!(got[2]["duplicate_of"], a.as_str());
    assert!(got[2].get("text").is_none(), "a duplicate carries no text");

    // A later run knows the earlier run's pages.
    let a3 = write("d.html", story("Lighthouse", ARTICLE, "Sunday 9 May"));
    let o = run(&["extract", "-q", "--dedup-index", idx, &a3, &b]);
    let got = records(&o);
    assert_eq!(got[0]["duplicate_of"], a.as_str(), "{}", out(&o));
    assert_eq!(got[1]["duplicate_of"], b.as_str());

    // --dedup alone remembers nothing between runs.
    let o = run(&["extract", "-q", "--dedup", &a3, &b]);
    assert!(records(&o).iter().all(|r| r.get("duplicate_of").is_none()));

    std::fs::write(&index, b"not an index at all").unwrap();
    let o = run(&["extract", "-q", "--dedup-index", idx, &a]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    assert!(err(&o).contains("seen.idx"));
}

/// `-f xml` and `-f tei` are trafilatura's XML and TEI; an unknown format names the ones
/// there are.
#[test]
fn xml_and_tei_as_trafilatura_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lighthouse.html");
    std::fs::write(&file, page("Lighthouse to shine again")).unwrap();
    let path = file.to_str().unwrap();
    let xml = out(&run(&["extract", "-f", "xml", path]));
    assert!(
        xml.starts_with("<doc title=\"Lighthouse to shine again\""),
        "{xml}"
    );
    assert!(xml.contains("<head rend=\"h1\">Lighthouse to shine again</head>\n<p>The harbour"));
    assert!(!xml.contains("About us") && xml.ends_with("</main>\n</doc>\n"));
    let tei = out(&run(&["extract", "-f", "tei", path]));
    assert!(tei.starts_with("<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">\n<teiHeader>"));
    assert!(tei.contains("<div type=\"entry\">\n<head rend=\"h1\">"));
    let o = run(&["extract", "-f", "yaml", path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("[possible values: text, markdown, html, json, xml, tei]"));
}
