//! Fixture-based tests: each adapter on a tiny data set built in a temporary folder, so the
//! parsing logic is tested whether or not the shared data is present.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::*;

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create fixture folder");
    }
    fs::write(path, bytes).expect("write fixture file");
}

fn write_gz(path: &Path, bytes: &[u8]) {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip fixture");
    write(path, &encoder.finish().expect("finish gzip fixture"));
}

fn missing_path(err: DatasetError) -> PathBuf {
    match err {
        DatasetError::Missing { path, .. } => path,
        other => panic!("expected a Missing error, got {other}"),
    }
}

#[test]
fn read_maybe_gz_reads_plain_and_gzipped() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(&dir.path().join("a.html"), b"<p>plain</p>");
    write_gz(&dir.path().join("b.html.gz"), b"<p>zipped</p>");
    assert_eq!(
        read_maybe_gz(dir.path().join("a.html")).expect("plain"),
        b"<p>plain</p>"
    );
    assert_eq!(
        read_maybe_gz(dir.path().join("b.html.gz")).expect("gz"),
        b"<p>zipped</p>"
    );
    write(&dir.path().join("bad.gz"), b"not gzip");
    assert!(read_maybe_gz(dir.path().join("bad.gz")).is_err());
    let err = read_maybe_gz(dir.path().join("none.gz")).expect_err("absent file");
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
}

#[test]
fn decodes_every_encoding_found_in_gold_files() {
    assert_eq!(
        decode_text("caf\u{e9}\r\nx\ry".as_bytes()),
        "caf\u{e9}\nx\ny"
    );
    assert_eq!(decode_text(b"\xef\xbb\xbfBOM"), "BOM");
    // Windows-1252 curly quote and e-acute.
    assert_eq!(decode_text(b"it\x92s caf\xe9"), "it\u{2019}s caf\u{e9}");
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain("Olá\r\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(decode_text(&utf16), "Olá\n");
}

#[test]
fn natural_order_and_hosts() {
    let mut ids = vec!["10", "2", "b_10", "b_9", "1", "a", "02"];
    ids.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(ids, ["1", "02", "2", "10", "a", "b_9", "b_10"]);
    assert_eq!(
        host_of("https://www.Example.com:8080/a?b").as_deref(),
        Some("example.com")
    );
    assert_eq!(
        host_of("http://user@news.bbc.co.uk").as_deref(),
        Some("news.bbc.co.uk")
    );
    assert_eq!(host_of("no scheme"), None);
    assert_eq!(host_of("http:///path"), None);
}

#[test]
fn shared_dir_search_order() {
    let root = tempfile::tempdir().expect("temp dir");
    let shared = root.path().join("shared");
    fs::create_dir_all(shared.join("datasets")).expect("mkdir");
    let work = root.path().join("main/crates/eval");
    fs::create_dir_all(&work).expect("mkdir");
    let nowhere = root.path().join("absent");

    // The environment variable wins, and a wrong value is not replaced by a guess.
    let env = Some(shared.clone().into_os_string());
    assert_eq!(find_shared_dir(env, &nowhere, None), Some(shared.clone()));
    let bad_env = Some(nowhere.clone().into_os_string());
    assert_eq!(find_shared_dir(bad_env, &shared, Some(&work)), None);
    // An empty variable counts as unset.
    let empty = Some(std::ffi::OsString::new());
    let found = find_shared_dir(empty, &shared, None).expect("compiled path");
    assert_eq!(fs::canonicalize(&shared).ok(), Some(found));
    // Else the compile-time path, else upward from the current folder.
    assert_eq!(
        find_shared_dir(None, &nowhere, Some(&work)),
        Some(shared.clone())
    );
    let unrelated = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        find_shared_dir(None, &nowhere, Some(unrelated.path())),
        None
    );
    assert_eq!(find_shared_dir(None, &nowhere, None), None);
}

#[test]
fn aeb_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        &root.join("ground-truth.json"),
        br#"{"bbb": {"articleBody": "Second body.", "url": "https://www.b.org/x"},
             "aaa": {"articleBody": "First body.\nMore.", "url": "http://a.com/1"},
             "ccc": {"url": "http://c.net/"}}"#,
    );
    for id in ["aaa", "bbb", "ccc"] {
        write_gz(&root.join(format!("html/{id}.html.gz")), b"<html></html>");
    }
    let pages = scrapinghub_aeb(root).expect("fixture reads");
    let ids: Vec<_> = pages.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["aaa", "bbb", "ccc"]);
    assert_eq!(pages[0].gold_text, "First body.\nMore.");
    assert_eq!(pages[0].url.as_deref(), Some("http://a.com/1"));
    assert_eq!(pages[1].site.as_deref(), Some("b.org"));
    assert_eq!(
        pages[2].gold_text, "",
        "a missing articleBody reads as empty, as upstream"
    );
    assert_eq!(pages[0].html_path, root.join("html/aaa.html.gz"));

    fs::remove_file(root.join("html/bbb.html.gz")).expect("remove");
    let err = scrapinghub_aeb(root).expect_err("missing html");
    assert!(err.to_string().contains("bbb.html.gz"), "{err}");
    assert_eq!(missing_path(err), root.join("html/bbb.html.gz"));

    write(&root.join("ground-truth.json"), b"{not json");
    let err = scrapinghub_aeb(root).expect_err("bad json");
    assert!(matches!(err, DatasetError::Json { .. }), "{err}");
    assert!(err.to_string().contains("ground-truth.json"), "{err}");

    let empty = tempfile::tempdir().expect("temp dir");
    let err = scrapinghub_aeb(empty.path()).expect_err("no ground truth");
    assert_eq!(missing_path(err), empty.path().join("ground-truth.json"));
}

#[test]
fn cleanportaleval_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let stems = [
        "bbc.co.uk_news_01",
        "bbc.co.uk_news_02",
        "washingtonpost.com_blog1_10",
        "washingtonpost.com_blog1_2",
        "washingtonpost.com_blog2_1",
    ];
    for stem in stems {
        write_gz(
            &root.join(format!("input/{stem}.html.gz")),
            b"<html></html>",
        );
        write(
            &root.join(format!("GoldStandard/{stem}.txt")),
            format!("\nURL: http://example.com/{stem}\n<h>Head {stem}\n \n<p>It&#8217;s text.\n")
                .as_bytes(),
        );
    }
    let merged = cleanportaleval(root, PortalGrouping::MergeWashingtonPost).expect("reads");
    let ids: Vec<_> = merged.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "bbc.co.uk_news_01",
            "bbc.co.uk_news_02",
            "washingtonpost.com_blog1_2",
            "washingtonpost.com_blog1_10",
            "washingtonpost.com_blog2_1"
        ]
    );
    assert_eq!(
        merged[0].gold_text,
        "Head bbc.co.uk_news_01\nIt\u{2019}s text."
    );
    assert_eq!(
        merged[0].url.as_deref(),
        Some("http://example.com/bbc.co.uk_news_01")
    );
    assert_eq!(merged[0].site.as_deref(), Some("bbc.co.uk_news"));
    assert_eq!(merged[4].site.as_deref(), Some("washingtonpost.com_blog"));
    let separate = cleanportaleval(root, PortalGrouping::SeparateBlogs).expect("reads");
    assert_eq!(
        separate[3].site.as_deref(),
        Some("washingtonpost.com_blog1")
    );
    assert_eq!(
        separate[4].site.as_deref(),
        Some("washingtonpost.com_blog2")
    );

    fs::remove_file(root.join("GoldStandard/bbc.co.uk_news_02.txt")).expect("remove");
    let err = cleanportaleval(root, PortalGrouping::default()).expect_err("missing gold");
    assert_eq!(
        missing_path(err),
        root.join("GoldStandard/bbc.co.uk_news_02.txt")
    );
    let err = cleanportaleval(&root.join("nope"), PortalGrouping::default()).expect_err("no dir");
    assert_eq!(missing_path(err), root.join("nope/input"));
}

#[test]
fn cleaneval_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    for (part, n) in [("dev", "1"), ("dev", "10"), ("final", "2"), ("final", "3")] {
        write_gz(
            &root.join(format!("cleaneval-{part}/input/{n}.html.gz")),
            b"<html></html>",
        );
    }
    write(
        &root.join("cleaneval-dev/GoldStandard/10.txt"),
        b"URL: http://www.site-ten.com/page\n<p>Ten\n",
    );
    write(
        &root.join("cleaneval-dev/GoldStandard/1.txt"),
        b"\xef\xbb\xbf<h>One caf\xc3\xa9",
    );
    // Final page 3 has no gold: it is not a page of the set.
    write(
        &root.join("cleaneval-final/GoldStandard/2.txt"),
        b"<l>Two caf\xe9",
    );

    let all = cleaneval(root, CleanEvalSplit::Both).expect("reads");
    let ids: Vec<_> = all.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["dev-1", "dev-10", "final-2"]);
    assert_eq!(all[0].gold_text, "One café");
    assert_eq!(all[0].url, None);
    assert_eq!(all[1].site.as_deref(), Some("site-ten.com"));
    assert_eq!(all[2].gold_text, "Two café", "Windows-1252 fallback");
    assert_eq!(all[2].split.as_deref(), Some("final"));
    assert_eq!(cleaneval(root, CleanEvalSplit::Dev).expect("dev").len(), 2);
    assert_eq!(
        cleaneval(root, CleanEvalSplit::Final).expect("final").len(),
        1
    );

    write(
        &root.join("cleaneval-final/GoldStandard/4.txt"),
        b"<p>orphan",
    );
    let err = cleaneval(root, CleanEvalSplit::Final).expect_err("gold without input");
    assert_eq!(
        missing_path(err),
        root.join("cleaneval-final/input/4.html.gz")
    );
}

#[test]
fn dragnet_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    for id in ["R1", "T2", "3"] {
        write_gz(&root.join(format!("html/{id}.html.gz")), b"<html></html>");
    }
    write(
        &root.join("corrected/R1.html.corrected.txt"),
        b"Article one.\r\n!@#$%^&*()  COMMENTS\r\nFirst!\r\n",
    );
    write(
        &root.join("corrected/T2.html.corrected.txt"),
        b"Article \x93two\x94.\n",
    );
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(
            "Três\n!@#$%^&*() COMMENTS\nok"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    write(&root.join("corrected/3.html.corrected.txt"), &utf16);
    write(
        &root.join("sites.tsv"),
        b"page_id\tsite_key\tsite_page_count\tsplit\thow_inferred\n\
          R1\tblogs.example.com\t2\ttrain\tcanonical\n\
          T2\tblogs.example.com\t2\ttest\tcanonical\n",
    );
    write(&root.join("training.txt"), b"R1\n3\n");
    write(&root.join("test.txt"), b"T2\n");

    let pages = dragnet(root, DragnetText::Article).expect("reads");
    let ids: Vec<_> = pages.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["3", "R1", "T2"]);
    assert_eq!(pages[0].gold_text, "Três");
    assert_eq!(pages[0].site, None, "not in sites.tsv");
    assert_eq!(
        pages[0].split.as_deref(),
        Some("train"),
        "from training.txt"
    );
    assert_eq!(pages[1].gold_text, "Article one.");
    assert_eq!(pages[1].site.as_deref(), Some("blogs.example.com"));
    assert_eq!(pages[2].gold_text, "Article \u{201c}two\u{201d}.");
    assert_eq!(pages[2].split.as_deref(), Some("test"));
    let comments = dragnet(root, DragnetText::Comments).expect("reads");
    assert_eq!(comments[1].gold_text, "First!");
    assert_eq!(comments[2].gold_text, "");
    let both = dragnet(root, DragnetText::ArticleAndComments).expect("reads");
    assert_eq!(both[0].gold_text, "Três\nok");

    // Without the upstream lists the split comes from sites.tsv.
    fs::remove_file(root.join("test.txt")).expect("remove");
    let pages = dragnet(root, DragnetText::Article).expect("reads");
    assert_eq!(pages[2].split.as_deref(), Some("test"));

    write(
        &root.join("sites.tsv"),
        b"page_id\tsite_key\nR1\tonly-two-fields\n",
    );
    let err = dragnet(root, DragnetText::Article).expect_err("malformed sites.tsv");
    assert!(matches!(err, DatasetError::Format { line: 2, .. }), "{err}");
    fs::remove_file(root.join("sites.tsv")).expect("remove");

    fs::remove_file(root.join("corrected/T2.html.corrected.txt")).expect("remove");
    let err = dragnet(root, DragnetText::Article).expect_err("missing gold");
    assert_eq!(
        missing_path(err),
        root.join("corrected/T2.html.corrected.txt")
    );
}

#[test]
fn jsonl_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(&root.join("set/pages/a.html"), b"<html></html>");
    write_gz(&root.join("set/pages/b.html.gz"), b"<html></html>");
    let absolute = root.join("elsewhere/c.html");
    write(&absolute, b"<html></html>");
    let lines = format!(
        "{}\n\n{}\n{}\n",
        r#"{"id": "a", "html_path": "pages/a.html", "gold_text": "Gold A", "site": "s1"}"#,
        r#"{"id": "b", "html_path": "pages/b.html.gz", "gold_text": "Gold B", "site": null, "extra": 1}"#,
        serde_json::json!({"id": "c", "html_path": absolute, "gold_text": "", "url": "http://c/", "split": "test"}),
    );
    let path = root.join("set/gold.jsonl");
    write(&path, lines.as_bytes());
    let pages = jsonl(&path).expect("reads");
    assert_eq!(pages.len(), 3);
    assert_eq!(pages[0].html_path, root.join("set/pages/a.html"));
    assert_eq!(pages[0].site.as_deref(), Some("s1"));
    assert_eq!(pages[1].site, None);
    assert_eq!(pages[2].html_path, absolute);
    assert_eq!(pages[2].split.as_deref(), Some("test"));

    write(&path, format!("{lines}{{\"id\": \"d\"}}\n").as_bytes());
    let err = jsonl(&path).expect_err("missing fields");
    assert!(
        matches!(err, DatasetError::Json { line: Some(5), .. }),
        "{err}"
    );
    assert!(err.to_string().contains("line 5"), "{err}");

    let dup = r#"{"id": "a", "html_path": "pages/a.html", "gold_text": "again"}"#;
    write(&path, format!("{lines}{dup}\n").as_bytes());
    let err = jsonl(&path).expect_err("duplicate id");
    assert!(matches!(err, DatasetError::Format { line: 5, .. }), "{err}");

    write(
        &path,
        br#"{"id": "x", "html_path": "pages/none.html", "gold_text": "g"}"#,
    );
    let err = jsonl(&path).expect_err("missing html");
    assert_eq!(missing_path(err), root.join("set/pages/none.html"));

    let err = jsonl(&root.join("set/absent.jsonl")).expect_err("missing file");
    assert_eq!(missing_path(err), root.join("set/absent.jsonl"));
}
