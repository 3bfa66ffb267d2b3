//! The content model's recipe from the command line: a user's own labelled pages in, a
//! model out that `chaff extract --content-model` applies; test sets refused.

mod common;

use common::command;

fn page(k: usize) -> (String, String) {
    let story = format!(
        "Report {k} opens with a sentence long enough to read as prose. A second sentence \
         tells what the committee decided about the harbour wall number {k}."
    );
    let html = format!(
        "<html><body><nav><a href=/a>Home</a> <a href=/b>Local</a> <a href=/c>Weather</a></nav>\
         <main><h1>Report {k}</h1><p>{story}</p></main>\
         <footer>Copyright The Harbour Times</footer></body></html>"
    );
    (html, format!("Report {k}\n{story}"))
}

#[test]
fn own_pages_train_a_model_that_extract_applies() {
    let dir = tempfile::tempdir().expect("tempdir");
    let jsonl = dir.path().join("mine.jsonl");
    let mut lines = String::new();
    for k in 0..10 {
        let (html, gold) = page(k);
        // Half inline, half by path (relative to the JSONL file).
        if k % 2 == 0 {
            lines += &serde_json::json!({"html": html, "gold_text": gold}).to_string();
        } else {
            let name = format!("p{k}.html");
            std::fs::write(dir.path().join(&name), html).expect("write page");
            lines += &serde_json::json!({"path": name, "gold_text": gold}).to_string();
        }
        lines.push('\n');
    }
    std::fs::write(&jsonl, lines).expect("write jsonl");
    let model = dir.path().join("model.json");
    let run = |out: &std::path::Path| {
        let o = command(&[
            "train-content",
            "--dataset",
            "",
            "--site-dataset",
            "",
            "--jsonl",
            jsonl.to_str().expect("utf-8"),
            "--trees",
            "10",
            "--min-child-weight",
            "1",
            "-o",
            out.to_str().expect("utf-8"),
        ])
        .output()
        .expect("run chaff-lab");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let log = run(&model);
    assert!(log.contains("10 pages"), "{log}");
    let again = dir.path().join("again.json");
    run(&again);
    assert_eq!(
        std::fs::read(&model).expect("model"),
        std::fs::read(&again).expect("model"),
        "the recipe gives the same bytes twice"
    );
    let (html, _) = page(42);
    let target = dir.path().join("new.html");
    std::fs::write(&target, html).expect("write");
    let o = command(&[
        "extract",
        "--format",
        "text",
        "--content-model",
        model.to_str().expect("utf-8"),
        target.to_str().expect("utf-8"),
    ])
    .output()
    .expect("run chaff");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("harbour wall number 42"), "{text}");
    assert!(!text.contains("Weather"), "{text}");
    assert!(!text.contains("Copyright"), "{text}");
}

#[test]
fn test_sets_and_broken_models_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("m.json");
    for set in ["aeb", "dragnet-test", "cleaneval-final", "cleanportaleval"] {
        // As a page-level set and as a set of sites to learn.
        for (pages, sites) in [(set, ""), ("", set)] {
            let o = command(&[
                "train-content",
                "--dataset",
                pages,
                "--site-dataset",
                sites,
                "-o",
                out.to_str().expect("utf-8"),
            ])
            .output()
            .expect("run");
            assert_eq!(o.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&o.stderr).contains("test set"));
        }
    }
    assert!(!out.exists());
    std::fs::write(&out, "{\"format\":\"chaff-content-model\",\"version\":9}").expect("write");
    let (html, _) = page(1);
    let page_path = dir.path().join("p.html");
    std::fs::write(&page_path, html).expect("write");
    let o = command(&[
        "extract",
        "--content-model",
        out.to_str().expect("utf-8"),
        page_path.to_str().expect("utf-8"),
    ])
    .output()
    .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("content model"), "{err}");
}

#[test]
fn synthetic_sites_train_with_their_site_evidence() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("m.json");
    let o = command(&[
        "train-content",
        "--dataset",
        "",
        "--site-dataset",
        "synthetic",
        "--trees",
        "5",
        "-o",
        model.to_str().expect("utf-8"),
    ])
    .output()
    .expect("run chaff-lab");
    let log = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{log}");
    // 5 seeds of 3 sites of 20 pages, every site learned with all four methods.
    assert!(
        log.contains("synthetic with site evidence (15 sites): 300 pages")
            && log.contains("0 site models not learned"),
        "{log}"
    );
    let json = std::fs::read_to_string(&model).expect("model");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["site"][0], "site_suffix_removed");
}

#[test]
fn sampling_shares_outside_zero_to_one_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("m.json");
    for (flag, value) in [
        ("--subsample", "0"),
        ("--colsample", "1.5"),
        ("--subsample", "NaN"),
    ] {
        let o = command(&[
            "train-content",
            "--dataset",
            "",
            "--site-dataset",
            "",
            flag,
            value,
            "-o",
            model.to_str().expect("utf-8"),
        ])
        .output()
        .expect("run chaff-lab");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{flag} {value}: {err}");
        assert!(err.contains(flag) && err.contains("at most 1"), "{err}");
        assert!(!model.exists(), "no model is written");
    }
}
