//! `chaff learn --method forest`, `clean` with the learned wrapper, `xpath` with it, and a feed
//! as the source of signifiers: end to end on a generated site (no shared data needed).

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn run(args: &[&str]) -> Output {
    common::command(args).output().expect("chaff runs")
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "chaff failed: {err}");
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// A 10-page synthetic site in `dir`, with its pages' parsed labels.
fn site(dir: &Path) -> (PathBuf, chaff_synth::SynthSite) {
    let site = chaff_synth::generate_site(&chaff_synth::SiteConfig {
        seed: 7,
        site_index: 0,
        pages: 10,
        archive: None,
        style: Some(chaff_synth::Style::Html5),
        domain: None,
    });
    let out = dir.join(&site.domain);
    chaff_synth::write_site(&site, &out).expect("write site");
    std::fs::remove_file(out.join("labels.json")).expect("remove sidecar");
    (out, site)
}

/// The words of a page's nodes with a given label, in document order; with `outside_content`,
/// only those outside the content node (the smallest element holding all content).
fn words_labelled_where(
    page: &chaff_synth::SynthPage,
    label: chaff_synth::Label,
    outside_content: bool,
) -> Vec<String> {
    let doc = page.parse().expect("parses");
    doc.ids()
        .filter(|&n| doc.is_text(n) && page.labels.get(n.index()) == Some(&label))
        .filter(|&n| !outside_content || !doc.contains(page.content_root, n))
        .flat_map(|n| {
            doc.text(n)
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The words of a page's nodes with a given label, in document order.
fn words_labelled(page: &chaff_synth::SynthPage, label: chaff_synth::Label) -> Vec<String> {
    words_labelled_where(page, label, false)
}

#[test]
fn learn_a_wrapper_clean_with_it_and_check_it_with_xpath() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (dir, synth) = site(tmp.path());
    let profile = tmp.path().join("site.profile.json");
    let o = run(&[
        "learn",
        "--method",
        "forest",
        "-o",
        path(&profile),
        path(&dir),
    ]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("main content at"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).expect("profile")).expect("json");
    let xpath = json["methods"]["forest"]["xpath"]
        .as_str()
        .expect("the profile stores the wrapper")
        .to_string();
    assert!(json["methods"]["suffix"].is_null());

    let page = dir.join(&synth.pages[3].file);
    let text = ok(&run(&["extract", "--profile", path(&profile), path(&page)]));
    let content = words_labelled(&synth.pages[3], chaff_synth::Label::Content);
    // Template words outside the content node that never occur in the content (the
    // wrapper selects the content node, whose share links and dates are template too).
    let template: Vec<String> =
        words_labelled_where(&synth.pages[3], chaff_synth::Label::Template, true)
            .into_iter()
            .filter(|w| !content.contains(w))
            .collect();
    let kept: Vec<&str> = text.split_whitespace().collect();
    let kept_content = content
        .iter()
        .filter(|w| kept.contains(&w.as_str()))
        .count();
    assert!(kept_content * 10 >= content.len() * 8, "{text}");
    // The footer's, sidebar's and menu's own words are gone: fewer than a tenth stay.
    let kept_template = template
        .iter()
        .filter(|w| kept.contains(&w.as_str()))
        .count();
    assert!(
        kept_template * 10 < template.len(),
        "{kept_template} of {}",
        template.len()
    );

    // The stored wrapper is an XPath `chaff xpath` evaluates to the same text.
    let by_xpath = ok(&run(&["xpath", &xpath, path(&page)]));
    // Its first line of four words or more (a line of separators and a number, left of a
    // dateline whose date the content model dropped, is not a line of the xpath's output).
    let first_line = text
        .lines()
        .find(|l| {
            l.split_whitespace()
                .filter(|w| w.chars().all(char::is_alphabetic))
                .count()
                >= 4
        })
        .expect("some content");
    assert!(by_xpath.contains(first_line), "{by_xpath}\n---\n{text}");

    // With the suffix method beside it, FOREST picks the subtree and the suffix model still
    // removes inside it: the output is the FOREST-only output or less.
    let both = tmp.path().join("both.json");
    ok(&run(&[
        "learn",
        "--method",
        "suffix,forest",
        "-o",
        path(&both),
        path(&dir),
    ]));
    let combined = ok(&run(&["extract", "--profile", path(&both), path(&page)]));
    let forest_words: Vec<&str> = text.split_whitespace().collect();
    assert!(!combined.trim().is_empty());
    assert!(
        combined
            .split_whitespace()
            .all(|w| forest_words.contains(&w)),
        "{combined}"
    );
    let only = ok(&run(&[
        "extract",
        "--profile",
        path(&both),
        "--method",
        "forest",
        path(&page),
    ]));
    assert_eq!(only, text);

    // The baseline ranking and other options are accepted.
    let coverage = tmp.path().join("coverage.json");
    ok(&run(&[
        "learn",
        "--method",
        "forest",
        "--coverage",
        "--keywords",
        "5",
        "-o",
        path(&coverage),
        path(&dir),
    ]));
    let bad = run(&[
        "learn",
        "--method",
        "forest",
        "--keywords",
        "0",
        "-o",
        path(&coverage),
        path(&dir),
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--keywords"));
}

#[test]
fn a_feed_gives_the_signifiers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (dir, synth) = site(tmp.path());
    let mut rss =
        String::from("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>s</title>");
    for p in &synth.pages {
        rss.push_str(&format!(
            "<item><title>{}</title><link>{}</link><description>d</description></item>",
            p.title.replace('&', "&amp;").replace('<', "&lt;"),
            p.url
        ));
    }
    rss.push_str("</channel></rss>");
    let feed = tmp.path().join("feed.xml");
    std::fs::write(&feed, rss).expect("write feed");
    let profile = tmp.path().join("fed.json");
    ok(&run(&[
        "learn",
        "--method",
        "forest",
        "--feed",
        path(&feed),
        "-o",
        path(&profile),
        path(&dir),
    ]));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).expect("profile")).expect("json");
    assert_eq!(json["methods"]["forest"]["signifiers"], "feeds");
    let bad = run(&[
        "learn",
        "--method",
        "forest",
        "--feed",
        path(&profile),
        "-o",
        path(&profile),
        path(&dir),
    ]);
    assert!(!bad.status.success());
}

/// CleanPortalEval, learning a wrapper per portal on its pages and extracting through the
/// facade (as `chaff extract --learn` does): 4-gram shingle F1 of at least 0.89 and
/// word-bigram F1 of at least 0.90 (measured 0.898 and 0.913; the earlier 0.912 / 0.925 came
/// from a second copy of learning in the evaluation, where a page the wrapper misses was
/// emptied; through the shipping path such a page now falls back to page-level extraction),
/// and every portal better than its whole pages. Skips without the shared data.
#[test]
fn cleanportaleval_reaches_the_target() {
    if common::datasets().is_none() {
        return;
    }
    let o = run(&[
        "eval",
        "--dataset",
        "cleanportaleval",
        "--run",
        "forest",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&ok(&o)).expect("JSON report");
    let f = |v: &serde_json::Value, key: &str| v[key].as_f64().expect("a number");
    let all = &r["overall"];
    eprintln!("cleanportaleval, forest: {all}");
    assert!(f(all, "f1") >= 0.89, "{all}");
    assert!(f(all, "f1_bigram") >= 0.90, "{all}");
    for site in r["sites"].as_array().expect("sites") {
        assert!(f(site, "f1") > f(site, "f1_full"), "{site}");
    }
}
