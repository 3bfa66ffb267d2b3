//! `chaff-lab eval --write-gold`: the gold pages as chaff reads them, written out for another
//! scorer to check its own reading against (`crates/lab/scripts/gold_check.py`).

mod common;

fn records(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("the gold file is written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

/// A hand-made set in, the same pages out: ids, gold and sites as given, the HTML's path
/// resolved beside the set, and `--min-site-pages` applied before writing.
#[test]
fn a_jsonl_set_is_written_back_as_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["a.html", "b.html", "c.html"] {
        std::fs::write(dir.path().join(name), "<p>x</p>").expect("write page");
    }
    let set = dir.path().join("set.jsonl");
    std::fs::write(
        &set,
        concat!(
            r#"{"id":"a","html_path":"a.html","gold_text":"First page.","site":"s"}"#,
            "\n",
            r#"{"id":"b","html_path":"b.html","gold_text":"Second\npage.","site":"s"}"#,
            "\n",
            r#"{"id":"c","html_path":"c.html","gold_text":"Alone.","site":"t"}"#,
            "\n"
        ),
    )
    .expect("write set");
    let out = dir.path().join("gold.jsonl");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8").to_owned();
    common::succeeds(common::command(&[
        "eval",
        "--jsonl",
        &path(&set),
        "--min-site-pages",
        "2",
        "--write-gold",
        &path(&out),
    ]));
    let got = records(&out);
    let summary: Vec<(&str, &str, &str)> = got
        .iter()
        .map(|r| {
            (
                r["id"].as_str().expect("id"),
                r["gold_text"].as_str().expect("gold"),
                r["site"].as_str().expect("site"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [("a", "First page.", "s"), ("b", "Second\npage.", "s")]
    );
    assert_eq!(
        got[0]["html_path"].as_str(),
        Some(path(&dir.path().join("a.html")).as_str())
    );
}

/// CleanPortalEval's gold files open with blank lines, then the `URL:` header: it is the
/// page's address, not its text, and leaves the gold; character references are decoded.
#[test]
fn cleanportaleval_gold_has_no_url_header() {
    let Some(data) = common::datasets() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("gold.jsonl");
    common::succeeds(common::command(&[
        "eval",
        "--data",
        data.to_str().expect("utf-8"),
        "--dataset",
        "cleanportaleval",
        "--write-gold",
        out.to_str().expect("utf-8"),
    ]));
    let got = records(&out);
    assert_eq!(got.len(), 71);
    for r in &got {
        let gold = r["gold_text"].as_str().expect("gold");
        assert!(!gold.starts_with("URL:"), "{}", r["id"]);
        assert!(
            r["url"].as_str().is_some_and(|u| u.starts_with("http")),
            "{}",
            r["id"]
        );
    }
    let msnbc = got
        .iter()
        .find(|r| r["id"] == "tv.msnbc.com_news_12")
        .expect("the page");
    assert!(
        msnbc["gold_text"].as_str().expect("gold").starts_with(
            "What we\u{2019}re reading: Thursday, May 23, 2013\nPresident Barack Obama"
        ),
        "{}",
        msnbc["gold_text"]
    );
}
