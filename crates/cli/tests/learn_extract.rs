//! `chaff extract --learn`: the sites of the input learned on the fly, then every page
//! extracted with its site's profile; on folders of sites, on a WARC, with web-archive URLs;
//! and a page without main content as an outcome, not an error.

use std::collections::HashSet;

use std::process::{Command, Output};

use chaff_corpus::http::build_response;
use chaff_corpus::{WarcCompression, WarcWriter};
use chaff_synth::{Label, SynthPage, SynthSite};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(args)
        .output()
        .expect("chaff runs")
}

fn records(o: &Output) -> Vec<serde_json::Value> {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON Lines record"))
        .collect()
}

fn site(seed: u64, index: u32, pages: usize, domain: Option<&str>) -> SynthSite {
    chaff_synth::generate_site(&chaff_synth::SiteConfig {
        seed,
        site_index: index,
        pages,
        archive: None,
        style: None,
        domain: domain.map(str::to_string),
    })
}

/// The page's words only its template holds (never in its content), and its content words.
fn words(page: &SynthPage) -> (Vec<String>, Vec<String>) {
    let doc = chaff_dom::parse(page.html.as_bytes()).expect("parses");
    let (mut template, mut content) = (Vec::new(), Vec::new());
    for id in doc.ids().filter(|&i| doc.is_text(i)) {
        let into = match page.labels[id.index()] {
            Label::Content => &mut content,
            Label::Template | Label::Menu => &mut template,
            Label::Structure => continue,
        };
        into.extend(doc.text(id).split_whitespace().map(str::to_lowercase));
    }
    let in_content: HashSet<&String> = content.iter().collect();
    let template = template
        .iter()
        .filter(|w| !in_content.contains(w))
        .cloned()
        .collect();
    (template, content)
}

/// Template-only words kept and content words kept, over all pages, by output text.
fn kept(sites: &[SynthSite], texts: &[String]) -> (f64, f64) {
    let pages = sites.iter().flat_map(|s| &s.pages);
    let (mut t, mut tk, mut c, mut ck) = (0, 0, 0, 0);
    for (page, text) in pages.zip(texts) {
        let out: HashSet<String> = text.split_whitespace().map(str::to_lowercase).collect();
        let (template, content) = words(page);
        t += template.len();
        tk += template.iter().filter(|w| out.contains(*w)).count();
        c += content.len();
        ck += content.iter().filter(|w| out.contains(*w)).count();
    }
    (tk as f64 / t as f64, ck as f64 / c as f64)
}

#[test]
fn a_folder_of_sites_is_learned_site_by_site_and_beats_page_level() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("sites");
    let sites: Vec<SynthSite> = (0..3).map(|i| site(17, i, 8, None)).collect();
    for s in &sites {
        let dir = root.join(&s.domain);
        chaff_synth::write_site(s, &dir).expect("write");
        std::fs::remove_file(dir.join("labels.json")).expect("no sidecar");
    }
    // A site with too few pages to learn from.
    let lone = site(18, 0, 2, Some("lone.example.net"));
    let dir = root.join(&lone.domain);
    chaff_synth::write_site(&lone, &dir).expect("write");
    std::fs::remove_file(dir.join("labels.json")).expect("no sidecar");

    let root_arg = root.to_str().expect("utf-8");
    let learned = records(&run(&["extract", "-q", "--learn", root_arg]));
    let page_level = records(&run(&["extract", "-q", root_arg]));
    assert_eq!(learned.len(), 3 * 8 + 2);
    for r in &learned {
        let site = r["site"].as_str().expect("site");
        if site == "example.net" {
            assert!(r["profile"].is_null(), "{r}");
        } else {
            assert_eq!(r["profile"].as_str(), Some(site), "{r}");
        }
    }
    let texts = |rs: &[serde_json::Value]| -> Vec<String> {
        let mut by_source: Vec<(String, String)> = rs
            .iter()
            .filter(|r| r["profile"] != serde_json::Value::Null || r["site"] != "example.net")
            .map(|r| {
                let src = r["source"].as_str().unwrap_or("").to_string();
                (src, r["text"].as_str().unwrap_or("").to_string())
            })
            .filter(|(src, _)| !src.contains("lone.example.net"))
            .collect();
        by_source.sort();
        by_source.into_iter().map(|(_, t)| t).collect()
    };
    // Sites in folder order (their domains sort as the folders do), pages in file order.
    let mut ordered = sites.clone();
    ordered.sort_by(|a, b| a.domain.cmp(&b.domain));
    let (t_learned, c_learned) = kept(&ordered, &texts(&learned));
    let (t_page, c_page) = kept(&ordered, &texts(&page_level));
    eprintln!(
        "template-only words kept: learned {t_learned:.3}, page-level {t_page:.3}; \
         content kept: learned {c_learned:.3}, page-level {c_page:.3}"
    );
    assert!(t_learned < t_page, "{t_learned} vs {t_page}");
    assert!(t_learned < 0.05, "{t_learned}");
    assert!(c_learned > 0.95, "{c_learned}");
}

#[test]
fn a_warc_with_archived_pages_is_learned_by_original_site() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let direct = site(23, 0, 6, Some("www.first.example.org"));
    let archived = site(23, 1, 6, Some("news.second.example.com"));
    let mut bytes = Vec::new();
    {
        let mut w = WarcWriter::new(&mut bytes, WarcCompression::Gzip);
        let pages = direct.pages.iter().map(|p| (p.url.clone(), p));
        let captures = archived.pages.iter().map(|p| {
            (
                format!("https://web.archive.org/web/20200101000000/{}", p.url),
                p,
            )
        });
        for (url, page) in pages.chain(captures) {
            let head = [("Content-Type", "text/html; charset=utf-8")];
            let http = build_response(200, "OK", &head, page.html.as_bytes());
            w.write_response(&url, &http).expect("write record");
        }
    }
    let warc = tmp.path().join("crawl.warc.gz");
    std::fs::write(&warc, &bytes).expect("write warc");
    let rs = records(&run(&[
        "extract",
        "-q",
        "--learn",
        warc.to_str().expect("utf-8"),
    ]));
    assert_eq!(rs.len(), 12);
    let sites: HashSet<&str> = rs.iter().filter_map(|r| r["site"].as_str()).collect();
    assert_eq!(sites, HashSet::from(["example.org", "example.com"]));
    assert!(rs.iter().all(|r| r["profile"] == r["site"]), "{rs:?}");
}

#[test]
fn a_page_without_main_content_is_an_outcome() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("app.html");
    std::fs::write(
        &page,
        "<html><body><div id=root></div><script>window.app = {start: true};</script></body></html>",
    )
    .expect("write");
    let empty = tmp.path().join("empty.html");
    std::fs::write(&empty, "<html><body></body></html>").expect("write");
    let o = run(&[
        "extract",
        "-q",
        "--format",
        "json",
        page.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(r["no_content"], "script-only");
    assert_eq!(r["confidence"], 0.0);
    let rs = records(&run(&[
        "extract",
        "-q",
        tmp.path().to_str().expect("utf-8"),
    ]));
    let reasons: Vec<&str> = rs.iter().filter_map(|r| r["no_content"].as_str()).collect();
    assert_eq!(reasons, ["script-only", "empty"]);
    assert!(rs.iter().all(|r| r["text"] == ""));
}

#[test]
fn dedup_points_near_copies_at_the_page_they_repeat() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let s = site(29, 0, 6, Some("www.copies.example.org"));
    let dir = tmp.path().join("site");
    chaff_synth::write_site(&s, &dir).expect("write");
    std::fs::remove_file(dir.join("labels.json")).expect("no sidecar");
    // A copy of page 2 whose article lost its last paragraph: the same article, published
    // again.
    let html = &s.pages[2].html;
    let cut = html.rfind("</p>").expect("a paragraph");
    let start = html[..cut].rfind("<p").expect("its start");
    let copy = format!("{}{}", &html[..start], &html[cut + 4..]);
    std::fs::write(dir.join("zz-copy.html"), copy).expect("write copy");
    let rs = records(&run(&[
        "extract",
        "-q",
        "--learn",
        "--dedup",
        dir.to_str().expect("utf-8"),
    ]));
    assert_eq!(rs.len(), 7);
    let dups: Vec<&serde_json::Value> = rs
        .iter()
        .filter(|r| r.get("duplicate_of").is_some())
        .collect();
    assert_eq!(dups.len(), 1, "{rs:?}");
    assert!(
        dups[0]["source"]
            .as_str()
            .unwrap_or("")
            .ends_with("zz-copy.html")
    );
    assert!(
        dups[0]["duplicate_of"]
            .as_str()
            .unwrap_or("")
            .ends_with(&s.pages[2].file)
    );
    assert!(dups[0].get("text").is_none());
}

#[test]
fn learning_s_parses_give_the_same_records_as_parsing_every_page_again() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("sites");
    for i in 0..2 {
        let s = site(23, i, 6, None);
        let dir = root.join(&s.domain);
        chaff_synth::write_site(&s, &dir).expect("write");
        std::fs::remove_file(dir.join("labels.json")).expect("no sidecar");
    }
    let root_arg = root.to_str().expect("utf-8");
    let kept = run(&["extract", "-q", "--learn", "-f", "json", root_arg]);
    let again = run(&[
        "extract",
        "-q",
        "--learn",
        "--keep-parses",
        "0",
        "-f",
        "json",
        root_arg,
    ]);
    let (kept_records, again_records) = (records(&kept), records(&again));
    assert_eq!(kept_records.len(), 12);
    assert!(kept_records.iter().all(|r| !r["profile"].is_null()));
    assert_eq!(kept.stdout, again.stdout);
    assert_eq!(again_records.len(), 12);
}
