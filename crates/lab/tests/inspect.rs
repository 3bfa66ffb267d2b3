//! The inspection tools of the lab (`menu`, `xpath`), and the menu role in `chaff extract
//! --menu`, end to end on generated pages (no shared data needed).

mod common;

use std::path::Path;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    common::command(args).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every line of stderr is a chaff or chaff-lab message, and nothing panicked.
fn assert_clean_stderr(o: &Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "panic: {e}");
    for line in e.lines() {
        assert!(
            line.starts_with("chaff: ") || line.starts_with("chaff-lab: "),
            "unexpected stderr line: {line:?}"
        );
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn menu_command_and_menu_role() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("page.html");
    let items: String = ["Home", "World", "Business", "Sport", "Science", "Culture"]
        .iter()
        .map(|s| format!("<li><a href='/{}/'>{s}</a></li>", s.to_lowercase()))
        .collect();
    let body = "<p>Some article text that is long enough to be read as prose.</p>".repeat(8);
    std::fs::write(
        &page,
        format!(
            "<html><head><link rel=canonical href='https://news.example.org/story'></head>\
             <body><div id=top><ul id=nav>{items}</ul></div><main>{body}</main></body></html>"
        ),
    )
    .unwrap();
    let o = run(&["menu", "--format", "json", path(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(record["source"].as_str().unwrap().ends_with("page.html"));
    assert_eq!(record["selector"], "#nav");
    let links = record["links"].as_array().unwrap();
    assert_eq!(links.len(), 6);
    assert_eq!(links[1]["text"], "World");
    assert_eq!(links[1]["url"], "https://news.example.org/world/");
    let o = run(&["menu", path(&page)]);
    assert!(stdout(&o).starts_with(&format!("{}\t#nav\n  Home <https://", path(&page))));

    // Cleaning with --menu gives the menu its role and removes it.
    let other = tmp.path().join("other.html");
    std::fs::write(
        &other,
        std::fs::read_to_string(&page)
            .unwrap()
            .replace("article", "story"),
    )
    .unwrap();
    let profile = tmp.path().join("p.json");
    let o = run(&[
        "learn",
        "-q",
        "-o",
        path(&profile),
        path(&page),
        path(&other),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "extract",
        "--profile",
        path(&profile),
        "--menu",
        "--format",
        "json",
        "--labels",
        path(&page),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(
        record["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["role"] == "menu")
    );
    assert!(!record["text"].as_str().unwrap().contains("Business"));

    // Bad parameter files and label files are one clear line.
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "{\"menu_threshold\": \"high\"}").unwrap();
    for args in [
        vec!["menu", "--params", path(&bad), path(&page)],
        vec!["extract", "--menu-params", path(&bad), path(&page)],
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?}");
        assert_clean_stderr(&o);
    }
}

#[test]
fn xpath_command() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("p.html");
    std::fs::write(
        &page,
        "<div class='story main'><p>One</p><p>Two <b>bold</b></p></div>\
         <div id=side><p>Side</p><a href='/x'>X</a></div>",
    )
    .unwrap();
    let o = run(&["xpath", "//div[contains(@class,'story')]/p[2]", path(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Two bold\n");
    let o = run(&["xpath", "//a/@href | //div[@id='side']/p", path(&page)]);
    assert_eq!(stdout(&o), "Side\n/x\n");
    let o = run(&["xpath", "--format", "json", "count(//p)", path(&page)]);
    let record: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(record["values"][0], "3");
    let o = run(&["xpath", "--format", "json", "//p[last()]", path(&page)]);
    let record: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let matches = record["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2);
    assert_eq!(matches[1]["text"], "Side");
    assert_eq!(matches[1]["selector"], "#side p");
    let o = run(&["xpath", "//div[", path(&page)]);
    assert!(!o.status.success());
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("at byte 6"), "{}", stderr(&o));
}
