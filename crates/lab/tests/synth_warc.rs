//! `chaff-lab synth --warc --truth`: synthetic sites as one WARC of responses, with each
//! page's content and template words; what the Python package's Spark test reads.

mod common;

use chaff::corpus::WarcPages;

#[test]
fn sites_become_a_warc_with_the_truth_of_each_page() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("sites.warc.gz");
    let truth = dir.path().join("truth.jsonl");
    let mut synth = common::command(&["synth", "--seed", "3", "--site-pages", "4,2"]);
    synth.arg("--warc").arg(&warc).arg("--truth").arg(&truth);
    let out = common::succeeds(synth);
    assert!(String::from_utf8_lossy(&out.stdout).contains("6 pages"));
    let pages: Vec<_> = WarcPages::open(&warc)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&truth)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(pages.len(), 6);
    assert_eq!(lines.len(), 6);
    let sites: std::collections::BTreeSet<String> =
        lines.iter().map(|l| l["site"].to_string()).collect();
    assert_eq!(sites.len(), 2);
    for (page, gold) in pages.iter().zip(&lines) {
        assert_eq!(page.url.as_deref(), gold["url"].as_str());
        let html = String::from_utf8_lossy(&page.bytes);
        for key in ["content", "template"] {
            let words = gold[key].as_str().unwrap();
            assert!(words.split(' ').count() > 10, "{key}: {words}");
            let first = words.split(' ').next().unwrap();
            assert!(html.contains(first), "{key} word {first:?} not on the page");
        }
    }
    // A second run with the same seed writes the same pages.
    let again = dir.path().join("again.warc");
    let out = common::command(&["synth", "--seed", "3", "--site-pages", "4,2", "--warc"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success());
    let twice: Vec<_> = WarcPages::open(&again)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(pages.iter().zip(&twice).all(|(a, b)| a.bytes == b.bytes));
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| {
        let name = e.unwrap().file_name();
        !name.to_string_lossy().contains("tmp")
    }));
}
