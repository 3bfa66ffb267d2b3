//! The `chaff` command end to end: the workflows of the README, every output mode, and bad
//! input — which must end in one clear line on stderr and a non-zero exit, never a panic.
//! Fixtures are generated here (synthetic sites, hand-made pages, WARCs written by our own
//! writer); no shared data is needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use chaff_corpus::http::build_response;
use chaff_corpus::{WarcCompression, WarcWriter};

fn chaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chaff"))
}

fn run(args: &[&str]) -> Output {
    chaff().args(args).output().expect("chaff runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every line of stderr is a chaff message, and nothing panicked.
fn assert_clean_stderr(o: &Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "panic: {e}");
    for line in e.lines() {
        assert!(
            line.starts_with("chaff: "),
            "unexpected stderr line: {line:?}"
        );
    }
}

/// A synthetic site of `pages` pages written to `dir/<domain>/`; returns that folder.
fn synthetic_site(dir: &Path, pages: usize, seed: u64) -> PathBuf {
    synthetic_site_styled(dir, pages, seed, chaff_synth::Style::Html5)
}

/// [`synthetic_site`] in another markup style.
fn synthetic_site_styled(
    dir: &Path,
    pages: usize,
    seed: u64,
    style: chaff_synth::Style,
) -> PathBuf {
    let site = chaff_synth::generate_site(&chaff_synth::SiteConfig {
        seed,
        site_index: 0,
        pages,
        archive: None,
        style: Some(style),
        domain: None,
    });
    let out = dir.join(&site.domain);
    chaff_synth::write_site(&site, &out).expect("write site");
    // The sidecar is not a page.
    std::fs::remove_file(out.join("labels.json")).expect("remove sidecar");
    out
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn learn_then_clean_a_site() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 12, 3);
    let profile = tmp.path().join("site.profile.json");
    let o = run(&["learn", "-q", "-o", path(&profile), path(&site)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_clean_stderr(&o);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
    assert_eq!(json["format"], "chaff-profile");
    assert_eq!(json["pages"], 12);
    assert!(
        json["methods"]["suffix"]["expressions"]
            .as_array()
            .unwrap()
            .len()
            > 5
    );

    // One page: its text, without the footer the site repeats everywhere.
    let page = site.join("page-003.html");
    let o = run(&["extract", "--profile", path(&profile), path(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("All rights reserved") && !text.contains("All rights reserved"),
        "{text}"
    );
    assert!(text.split_whitespace().count() > 15);

    // Several pages: JSON Lines, one object per page in input order.
    let o = run(&["extract", "--profile", path(&profile), path(&site)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 12);
    assert!(
        lines[0]["source"]
            .as_str()
            .unwrap()
            .ends_with("page-000.html")
    );
    assert!(
        lines
            .iter()
            .all(|l| l["text"].is_string() && l["site"].is_string())
    );

    // The JSON record carries the per-node labels when asked for.
    let json = ["extract", "--profile", path(&profile), "--format", "json"];
    let o = run(&[&json[..], &[path(&page)]].concat());
    let record: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(record.get("nodes").is_none(), "{record}");
    assert!(record["text"].is_string());
    let o = run(&[&json[..], &["--labels", path(&page)]].concat());
    let record: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let nodes = record["nodes"].as_array().unwrap();
    assert!(nodes.iter().any(|n| n["role"] == "template"));
    assert!(nodes.iter().any(|n| n["role"] == "content"));

    // Files per page, in every format, named safely.
    for format in ["text", "markdown", "html", "json"] {
        let out = tmp.path().join(format!("out-{format}"));
        let o = run(&[
            "extract",
            "--profile",
            path(&profile),
            "--format",
            format,
            "-o",
            path(&out),
            path(&site),
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != chaff_corpus::PAGES_JOURNAL)
            .collect();
        assert_eq!(names.len(), 12, "{format}: {names:?}");
        assert!(
            names
                .iter()
                .all(|n| !n.contains('/') && !n.starts_with('.'))
        );
    }

    // The expressions, one per line.
    let o = run(&["learn", "-q", "--print-regexes", path(&site)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let regexes: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert!(regexes.len() > 5);
    assert!(regexes.iter().all(|r| regex::Regex::new(r).is_ok()));
}

#[test]
fn alignment_method_alone_and_beside_the_suffix_method() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 12, 5);
    let both = tmp.path().join("both.profile.json");
    let o = run(&[
        "learn",
        "-q",
        "--method",
        "suffix,align",
        "--align-pages",
        "8",
        "-o",
        path(&both),
        path(&site),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_clean_stderr(&o);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&both).unwrap()).unwrap();
    let align = &json["methods"]["align"];
    assert_eq!(align["sample_pages"], 8);
    let template = align["template"].as_array().unwrap();
    assert!(template.len() > 50, "{}", template.len());
    assert!(template.iter().all(|t| t["support"].as_u64().unwrap() >= 4));
    assert!(json["methods"]["suffix"].is_object());

    let page = site.join("page-004.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("All rights reserved"));
    // Each method alone, and both: the footer goes, the article stays.
    for method in ["align", "suffix", "suffix,align"] {
        let o = run(&[
            "extract",
            "--profile",
            path(&both),
            "--method",
            method,
            path(&page),
        ]);
        assert!(o.status.success(), "{method}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(!text.contains("All rights reserved"), "{method}: {text}");
        assert!(text.split_whitespace().count() > 15, "{method}: {text}");
    }

    // An align-only profile has no suffix model to select.
    let only = tmp.path().join("align.profile.json");
    let o = run(&[
        "learn",
        "-q",
        "--method",
        "align",
        "-o",
        path(&only),
        path(&site),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "extract",
        "--profile",
        path(&only),
        "--method",
        "suffix",
        path(&page),
    ]);
    assert!(!o.status.success());
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("no suffix model"), "{}", stderr(&o));

    // Bad parameters are one clear line.
    for args in [["--align-pages", "1"], ["--keep", "1.5"]] {
        let o = run(&[
            "learn",
            "-q",
            "--method",
            "align",
            args[0],
            args[1],
            "-o",
            path(&only),
            path(&site),
        ]);
        assert!(!o.status.success());
        assert_clean_stderr(&o);
    }
}

/// The suffix method matches its strings on tokens unless asked for the thesis's regexes
/// (`--regex-matching`, implied by `--plain`); the profile records the choice, and on a
/// synthetic site both give the same extraction.
#[test]
fn suffix_regex_matching_is_recorded_and_agrees() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 6, 5);
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    let page = pages[3].clone();
    let mut outputs = Vec::new();
    for flags in [&[][..], &["--regex-matching"][..], &["--plain"][..]] {
        let profile = tmp.path().join(format!("p{}.json", outputs.len()));
        let mut args = vec!["learn", "-q", "--method", "suffix", "-o", path(&profile)];
        args.extend_from_slice(flags);
        args.push(path(&site));
        let o = run(&args);
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
        let recorded = &json["methods"]["suffix"]["clean"]["regex_matching"];
        assert_eq!(
            recorded.as_bool().unwrap_or(false),
            !flags.is_empty(),
            "{flags:?}"
        );
        let o = run(&[
            "extract",
            "--profile",
            path(&profile),
            "--method",
            "suffix",
            path(&page),
        ]);
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        outputs.push(stdout(&o));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert!(outputs[0].split_whitespace().count() > 15, "{}", outputs[0]);
}

#[test]
fn raw_view_and_plain_text_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let news = tmp.path().join("news");
    std::fs::create_dir(&news).unwrap();
    let stories = [
        "The council voted to close the old bridge for repairs next spring.",
        "Heavy rain flooded the market square and several shops closed early.",
        "A local choir won the regional contest with a hymn nobody had heard.",
        "Volunteers planted four hundred trees along the northern ring road.",
    ];
    for (i, s) in stories.iter().enumerate() {
        let text = format!(
            "# Permanent link | no responses | Published on: Tuesday, {}th February, 2007\n{s}\nPlease login to leave a reply. read more\n",
            10 + i
        );
        std::fs::write(news.join(format!("{i}.txt")), text).unwrap();
    }
    let profile = tmp.path().join("feed.profile.json");
    let o = run(&[
        "learn",
        "-q",
        "--view",
        "raw",
        "-o",
        path(&profile),
        path(&news),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "extract",
        "--profile",
        path(&profile),
        path(&news.join("2.txt")),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("choir won the regional contest"), "{text}");
    assert!(
        !text.contains("Permanent link") && !text.contains("Please login"),
        "{text}"
    );
}

#[test]
fn stdin_json_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 6, 5);
    let profile = tmp.path().join("p.json");
    assert!(
        run(&["learn", "-q", "-o", path(&profile), path(&site)])
            .status
            .success()
    );
    let html = std::fs::read_to_string(site.join("page-001.html")).unwrap();
    let input = format!(
        "{}\n{}\n",
        serde_json::json!({"url": "https://example.org/a", "html": html}),
        serde_json::json!({"path": site.join("page-002.html")})
    );
    let mut child = chaff()
        .args(["extract", "--profile", path(&profile), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["url"], "https://example.org/a");
}

#[test]
fn mixed_sites_need_a_choice() {
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all");
    synthetic_site(&all, 4, 11);
    synthetic_site(&all, 4, 12);
    let o = run(&[
        "learn",
        "-q",
        "-o",
        path(&tmp.path().join("p.json")),
        path(&all),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("--per-site"), "{}", stderr(&o));

    let dir = tmp.path().join("profiles");
    let o = run(&["learn", "-q", "--per-site", "-o", path(&dir), path(&all)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    let o = run(&[
        "learn",
        "-q",
        "--site",
        "no-such.example",
        "-o",
        path(&tmp.path().join("q.json")),
        path(&all),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no page belongs to the site no-such.example"));
}

#[test]
fn bad_inputs_fail_with_one_clear_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p.json");

    // An empty folder.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = run(&["learn", "-q", "-o", path(&out), path(&empty)]);
    assert_eq!(o.status.code(), Some(2));
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("no pages"), "{}", stderr(&o));

    // One page only.
    let site = synthetic_site(tmp.path(), 1, 21);
    let o = run(&["learn", "-q", "-o", path(&out), path(&site)]);
    assert_eq!(o.status.code(), Some(2));
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("at least 2 pages"), "{}", stderr(&o));

    // An unreadable path.
    let o = run(&["learn", "-q", "-o", path(&out), "/no/such/folder"]);
    assert_eq!(o.status.code(), Some(2));
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("/no/such/folder"), "{}", stderr(&o));

    // A binary file among good pages: reported, skipped, the rest learned, exit 1.
    let site = synthetic_site(tmp.path(), 5, 22);
    std::fs::write(
        site.join("logo.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10",
    )
    .unwrap();
    let o = run(&["learn", "-q", "-o", path(&out), path(&site)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_clean_stderr(&o);
    assert!(
        stderr(&o).contains("logo.png") && stderr(&o).contains("binary"),
        "{}",
        stderr(&o)
    );
    assert!(out.exists());

    // Only a binary file to clean: nothing could be cleaned.
    let o = run(&[
        "extract",
        "--profile",
        path(&out),
        path(&site.join("logo.png")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_clean_stderr(&o);

    // Corrupt, foreign and future-version profiles.
    let page = site.join("page-000.html");
    let cases = [
        ("{ not json", "not valid JSON"),
        (
            "{\"format\": \"something\", \"version\": 1}",
            "not a chaff profile",
        ),
        (
            "{\"format\": \"chaff-profile\", \"version\": 99, \"methods\": {}}",
            "newer than this chaff",
        ),
        (
            "{\"format\": \"chaff-profile\", \"version\": 1, \"site\": 3}",
            "invalid profile",
        ),
    ];
    for (i, (text, expect)) in cases.iter().enumerate() {
        let bad = tmp.path().join(format!("bad{i}.json"));
        std::fs::write(&bad, text).unwrap();
        let o = run(&["extract", "--profile", path(&bad), path(&page)]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert_clean_stderr(&o);
        assert_eq!(stderr(&o).lines().count(), 1);
        assert!(stderr(&o).contains(expect), "{text}: {}", stderr(&o));
    }
    let o = run(&["extract", "--profile", "/no/such/profile.json", path(&page)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/no/such/profile.json"));
}

#[test]
fn truncated_warc_keeps_the_records_before_the_damage() {
    let tmp = tempfile::tempdir().unwrap();
    let site = chaff_synth::generate_site(&chaff_synth::SiteConfig {
        seed: 31,
        site_index: 0,
        pages: 5,
        archive: None,
        style: Some(chaff_synth::Style::DivSoup),
        domain: Some("www.example.org".into()),
    });
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    {
        let mut w = WarcWriter::new(&mut bytes, WarcCompression::Gzip);
        for p in &site.pages {
            let http = build_response(
                200,
                "OK",
                &[("Content-Type", "text/html; charset=utf-8")],
                p.html.as_bytes(),
            );
            offsets.push(w.write_response(&p.url, &http).unwrap().offset);
        }
    }
    // Cut in the middle of the last record.
    let cut = (offsets[4] as usize + bytes.len()) / 2;
    let warc = tmp.path().join("crawl.warc.gz");
    std::fs::write(&warc, &bytes[..cut]).unwrap();
    let profile = tmp.path().join("p.json");
    let o = run(&["learn", "-q", "-o", path(&profile), path(&warc)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_clean_stderr(&o);
    assert!(stderr(&o).contains("crawl.warc.gz"), "{}", stderr(&o));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
    assert_eq!(json["pages"], 4);
    assert_eq!(json["site"], "example.org");
}

#[test]
fn junk_and_hostile_pages_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 4, 41);
    let mut deep = String::from("<html><body>");
    for _ in 0..100_000 {
        deep.push_str("<div>");
    }
    deep.push_str("deep text");
    std::fs::write(site.join("deep.html"), deep).unwrap();
    std::fs::write(
        site.join("junk.html"),
        (0..=255u8).cycle().take(5000).collect::<Vec<u8>>(),
    )
    .unwrap();
    std::fs::write(
        site.join("latin1.html"),
        // Sentences of prose here and below: the test is of the decoding, and the text of a
        // two-word page beside a learned site hangs on a refit of the content model.
        b"<meta charset=iso-8859-1><p>The caf\xe9 cr\xe8me is served every morning in the \
          small room of the village inn, with fresh bread and butter.</p>",
    )
    .unwrap();
    // Saved again as UTF-8 under its old declaration: read as UTF-8.
    std::fs::write(
        site.join("resaved.html"),
        "<meta charset=iso-8859-1><p>It’s a brûlée that the cook of the village inn makes \
         every Sunday for the guests who stay the night.</p>",
    )
    .unwrap();
    std::fs::write(site.join("empty.html"), b"").unwrap();
    let profile = tmp.path().join("p.json");
    let o = run(&["learn", "-q", "-o", path(&profile), path(&site)]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert_clean_stderr(&o);
    let o = run(&[
        "extract",
        "--profile",
        path(&profile),
        "--format",
        "markdown",
        path(&site),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert_clean_stderr(&o);
    assert!(stdout(&o).contains("café crème"));
    assert!(stdout(&o).contains("It’s a brûlée"), "{}", stdout(&o));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let site = synthetic_site(tmp.path(), 30, 51);
    let profile = tmp.path().join("p.json");
    assert!(
        run(&["learn", "-q", "-o", path(&profile), path(&site)])
            .status
            .success()
    );
    let mut child = chaff()
        .args(["extract", "--profile", path(&profile), path(&site)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then close our end.
    {
        use std::io::Read;
        let mut out = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        out.read_exact(&mut one).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?} {}", o.status, stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// The content model's knobs: favoring precision keeps no more than the default, favoring
/// recall no less, the site guard changes nothing without a site; options of one classifier
/// are refused with the other.
#[test]
fn favor_precision_and_recall_move_the_content_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    std::fs::write(
        &page,
        "<html><body><nav><a href=/a>Home</a> <a href=/b>News</a></nav><article><h1>Bridge \
         reopens</h1><p>The old stone bridge reopened on Monday after two years of repairs, the \
         council said, and traffic is expected to return to normal within a week.</p>\
         <p>Share this story</p></article><footer>Contact us</footer></body></html>",
    )
    .unwrap();
    let text = |extra: &[&str]| {
        let mut args = vec!["extract", "--format", "text"];
        args.extend_from_slice(extra);
        args.push(path(&page));
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let words = |extra: &[&str]| text(extra).split_whitespace().count();
    let default = words(&[]);
    assert!(default > 0);
    assert!(words(&["--favor-precision"]) <= default);
    assert!(words(&["--favor-recall"]) >= default);
    // Favoring recall keeps what the default keeps (its threshold is the default's, the
    // hysteresis only adds), line for line.
    let recall = text(&["--favor-recall"]);
    for line in text(&[]).lines() {
        assert!(
            recall.lines().any(|l| l == line),
            "{line:?} not in {recall:?}"
        );
    }
    // The site guard weighs site evidence only: without a profile it changes nothing.
    assert_eq!(text(&["--site-guard", "off"]), text(&[]));
    assert_eq!(text(&["--site-guard", "0.5"]), text(&[]));
    for bad in [
        vec!["--favor-precision", "--favor-recall"],
        vec!["--favor-recall", "--content-threshold", "0.3"],
        vec!["--site-guard", "1.5"],
        vec!["--site-guard", "sometimes"],
        vec!["--classifier", "pagelevel", "--site-guard", "0.5"],
        vec!["--classifier", "pagelevel", "--favor-precision"],
        vec!["--classifier", "content", "--no-smooth"],
    ] {
        let mut args = vec!["extract"];
        args.extend(bad.iter().copied());
        args.push(path(&page));
        assert_eq!(run(&args).status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn comments_stay_apart_unless_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("story.html");
    std::fs::write(
        &page,
        "<html><body><h1>Council closes the old bridge</h1><p>The council voted on Monday to \
         close the old bridge for repairs after engineers found cracks in two arches.</p>\
         <div id=comments><ol class=commentlist><li class=comment><p>I drive over that \
         bridge every day and it did feel shaky to me.</p></li><li class=comment><p>About \
         time, the cracks have been there for years.</p></li></ol></div></body></html>",
    )
    .unwrap();
    let plain = run(&["extract", path(&page)]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(stdout(&plain).contains("cracks in two arches"));
    assert!(!stdout(&plain).contains("feel shaky"), "{}", stdout(&plain));
    let with = run(&["extract", "--comments", path(&page)]);
    assert!(stdout(&with).contains("cracks in two arches") && stdout(&with).contains("feel shaky"));
    let json = run(&["extract", "--format", "json", path(&page)]);
    let record: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(record["comments"].as_str().unwrap().contains("for years"));
    assert!(!record["text"].as_str().unwrap().contains("for years"));
}

/// `--no-metadata`: the same text, a record without `metadata` and `language` whose title
/// is the page's `<title>`; it cannot be asked for beside front matter.
#[test]
fn records_without_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("story.html");
    std::fs::write(
        &page,
        "<html lang=en><head><title>Bridge closed | The Town Paper</title>\
         <meta property=og:title content='Council closes the old bridge'></head><body>\
         <h1>Council closes the old bridge</h1><p>The council voted on Monday to close the \
         old bridge for repairs after engineers found cracks in two arches.</p></body></html>",
    )
    .unwrap();
    let record = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["extract", "-f", "json"];
        args.extend_from_slice(extra);
        args.push(path(&page));
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let full = record(&[]);
    let lean = record(&["--no-metadata"]);
    assert_eq!(lean["text"], full["text"]);
    assert!(
        full["metadata"].is_object() && full["language"].is_object(),
        "{full}"
    );
    assert!(
        lean.get("metadata").is_none() && lean.get("language").is_none(),
        "{lean}"
    );
    assert_eq!(full["title"], "Council closes the old bridge");
    assert_eq!(lean["title"], "Bridge closed | The Town Paper");
    let both = run(&["extract", "--no-metadata", "--front-matter", path(&page)]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}

/// `--no-links` and `--no-images`: Markdown keeps a link's text and drops its target, and
/// leaves images out; plain text is the same either way.
#[test]
fn markdown_without_links_or_images() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("story.html");
    std::fs::write(
        &page,
        "<html><head><title>Bridge closed</title></head><body><article>\
         <h1>Council closes the old bridge</h1><p>The council voted on Monday to close the \
         <a href='/bridge'>old bridge</a> for repairs after engineers found cracks in two \
         arches. <img src='/arches.jpg' alt='The arches'></p></article></body></html>",
    )
    .unwrap();
    let out = |extra: &[&str]| -> String {
        let mut args = vec!["extract", "-f", "markdown"];
        args.extend_from_slice(extra);
        args.push(path(&page));
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let full = out(&[]);
    assert!(full.contains("[old bridge](/bridge)") && full.contains("![The arches](/arches.jpg)"));
    let bare = out(&["--no-links", "--no-images"]);
    assert!(bare.contains("close the old bridge for repairs"), "{bare}");
    assert!(
        !bare.contains("](") && !bare.contains("arches.jpg"),
        "{bare}"
    );
    let text = |extra: &[&str]| {
        let mut args = vec!["extract"];
        args.extend_from_slice(extra);
        args.push(path(&page));
        stdout(&run(&args))
    };
    assert_eq!(text(&["--no-links", "--no-images"]), text(&[]));
}

#[test]
fn continuations_are_mined_unless_the_thesis_s_mining_is_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = synthetic_site_styled(tmp.path(), 20, 4, chaff_synth::Style::DivSoup);
    let learn = |name: &str, extra: &[&str]| {
        let profile = tmp.path().join(name);
        let mut args = vec!["learn", "-q", "--method", "suffix", "-o", path(&profile)];
        args.extend_from_slice(extra);
        args.push(path(&dir));
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
        let suffix = json["methods"]["suffix"].clone();
        let texts: Vec<String> = suffix["expressions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect();
        (suffix["mining"]["line_continuations"].as_bool(), texts)
    };
    let (on, with) = learn("default.json", &[]);
    let (off, without) = learn("thesis.json", &["--no-continuations"]);
    let (plain, plain_texts) = learn("plain.json", &["--plain"]);
    assert_eq!((on, off, plain), (Some(true), Some(false), Some(false)));
    assert_eq!(plain_texts, without);
    // The thesis's strings are all kept; the continuations come on top of them.
    assert!(without.iter().all(|t| with.contains(t)));
    let extra: Vec<&String> = with.iter().filter(|t| !without.contains(t)).collect();
    assert!(!extra.is_empty());
    // Each continues one of the thesis's strings, on that string's line.
    for t in extra {
        let prefix = without
            .iter()
            .filter(|w| t.starts_with(w.as_str()) && w.len() < t.len())
            .max_by_key(|w| w.len())
            .unwrap_or_else(|| panic!("{t:?} continues no template string"));
        assert!(!t[prefix.len()..].contains('\n'), "{t:?}");
    }
}
