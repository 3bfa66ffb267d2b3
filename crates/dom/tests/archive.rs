//! Web-archive inserts (`chaff_dom::archive`, `ParseOptions::strip_archive_inserts`): a
//! captured page parses to the page without the archive's toolbar, scripts and notice, with
//! source spans and lines still those of the captured text; pages without the markers, or with
//! an unterminated toolbar, are parsed exactly as they are.

mod common;

use std::fmt::Write;

use chaff_dom::{Document, NodeKind, ParseOptions, TextView, TokenizerKind, parse_str, parse_with};
use proptest::prelude::*;

const DOCTYPE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n";

const HEAD_TAG: &str = "<head profile=\"http://gmpg.org/xfn/11\">";

/// What the Wayback Machine puts right after `<head>`.
const HEAD_INSERT: &str = "<script src=\"//archive.org/includes/athena.js\" type=\"text/javascript\"></script>\n\
<script type=\"text/javascript\">window.addEventListener('DOMContentLoaded',function(){var v=archive_analytics.values;v.service='wb';v.server_name='wwwb-app1.us.archive.org';v.server_ms=388;archive_analytics.send_pageview({});});</script>\n\
<script type=\"text/javascript\" src=\"/_static/js/bundle-playback.js?v=t1Bf4PY_\" charset=\"utf-8\"></script>\n\
<script type=\"text/javascript\" src=\"/_static/js/wombat.js?v=txqj7nKC\" charset=\"utf-8\"></script>\n\
<script>window.RufflePlayer=window.RufflePlayer||{};window.RufflePlayer.config={\"autoplay\":\"on\",\"unmuteOverlay\":\"hidden\"};</script>\n\
<script type=\"text/javascript\" src=\"/_static/js/ruffle/ruffle.js\"></script>\n\
<script type=\"text/javascript\">\n\
  __wm.init(\"https://web.archive.org/web\");\n\
  __wm.wombat(\"https://example.org/story\",\"20200101000000\",\"https://web.archive.org/\",\"web\",\"/_static/\",\n\
\t      \"1577836800\");\n\
</script>\n\
<link rel=\"stylesheet\" type=\"text/css\" href=\"/_static/css/banner-styles.css?v=S1zqJCYt\" />\n\
<link rel=\"stylesheet\" type=\"text/css\" href=\"/_static/css/iconochive.css?v=3PDvdIFv\" />\n\
<!-- End Wayback Rewrite JS Include -->";

/// The page's own head.
const HEAD_REST: &str = "\n<meta charset=\"utf-8\">\n<title>Caf\u{e9} notes</title>\n\
<link rel=\"canonical\" href=\"/web/20200101000000/https://example.org/story\">\n</head>\n";

const BODY_TAG: &str = "<body class=\"post\">";

/// The toolbar, with visible text of its own.
const TOOLBAR: &str = "<!-- BEGIN WAYBACK TOOLBAR INSERT -->\n\
<script>__wm.rw(0);</script>\n\
<div id=\"wm-ipp-base\" lang=\"en\" style=\"direction:ltr;\">\n\
<div id=\"wm-ipp\" style=\"position:fixed;left:0;top:0;right:0;\">\n\
<div id=\"wm-ipp-inside\">\n\
  <div id=\"wm-logo\"><a href=\"/web/\" title=\"Wayback Machine home page\"><img src=\"/_static/images/toolbar/wayback-toolbar-logo-200.png\" alt=\"Wayback Machine\"></a></div>\n\
  <form target=\"_top\" method=\"get\" action=\"/web/submit\" name=\"wmtb\" id=\"wmtb\"><input type=\"text\" name=\"url\" value=\"https://example.org/story\"><input type=\"submit\" value=\"Go\"></form>\n\
  <div id=\"wm-nav-captures\"><a class=\"t\" href=\"/web/20200101000000*/https://example.org/story\">26 captures</a>\n\
  <div class=\"r\">12 Jan 2004 - 3 Mar 2020</div></div>\n\
  <table class=\"c\"><tr><td class=\"f\">DEC</td><td class=\"c\">JAN</td><td class=\"f\">FEB</td></tr>\n\
  <tr><td>\u{b7}</td><td>01</td><td>\u{b7}</td></tr><tr><td>2019</td><td>2020</td><td>2021</td></tr></table>\n\
  <div id=\"wm-btns\"><a href=\"#close\" title=\"Close the toolbar\">success</a> <a>fail</a>\n\
  <a href=\"#expand\">About this capture</a></div>\n\
</div></div></div>\n\
<script type=\"text/javascript\">\n\
__wm.bt(675,27,25,2,\"web\",\"https://example.org/story\",\"20200101000000\",1996,\"/_static/\",[\"/_static/css/banner-styles.css?v=S1zqJCYt\",\"/_static/css/iconochive.css?v=3PDvdIFv\"], false);\n\
  __wm.rw(1);\n\
</script>\n\
<!-- END WAYBACK TOOLBAR INSERT -->";

/// The page's own body: an article with text right before and after the toolbar's place.
const BODY_REST: &str = "\n<header><nav><a href=\"/\">Home</a></nav></header>\n\
<article>\n<h1>Caf\u{e9} notes</h1>\n\
<p>The first paragraph of the story, with an <a href=\"/web/20200101000000/https://example.org/more\">inline link</a>.</p>\n\
<p>A second paragraph \u{2014} with a dash and an emoji \u{1F600}.</p>\n</article>\n</body>\n</html>";

const NOTICE: &str = "<!--\n     FILE ARCHIVED ON 00:00:00 Jan 01, 2020 AND RETRIEVED FROM THE\n     \
INTERNET ARCHIVE ON 12:00:00 Jun 01, 2021.\n     JAVASCRIPT APPENDED BY WAYBACK MACHINE, COPYRIGHT INTERNET ARCHIVE.\n\n     \
ALL OTHER CONTENT MAY ALSO BE PROTECTED BY COPYRIGHT (17 U.S.C.\n     SECTION 108(a)(3)).\n-->\n\
<!--\nplayback timings (ms):\n  captures_list: 0.563\n  exclusion.robots: 0.021\n  load_resource: 112.908\n-->";

/// The captured page, and the page as it was before the archive touched it.
fn captured() -> (String, String) {
    let capture = format!(
        "{DOCTYPE}{HEAD_TAG}{HEAD_INSERT}{HEAD_REST}{BODY_TAG}{TOOLBAR}{BODY_REST}\n{NOTICE}\n"
    );
    let original = format!("{DOCTYPE}{HEAD_TAG}{HEAD_REST}{BODY_TAG}{BODY_REST}\n\n");
    (capture, original)
}

fn parse(html: &str) -> Document {
    parse_str(html, &ParseOptions::default()).expect("within limits")
}

fn parse_unstripped(html: &str) -> Document {
    let opts = ParseOptions {
        strip_archive_inserts: false,
        ..ParseOptions::default()
    };
    parse_str(html, &opts).expect("within limits")
}

/// The tree without lines or spans: kinds, names, attributes, texts.
fn shape(doc: &Document) -> String {
    let mut out = String::new();
    for id in doc.ids() {
        let _ = write!(
            out,
            "{}{:?}",
            "  ".repeat(doc.depth(id) as usize),
            doc.kind(id)
        );
        match doc.kind(id) {
            NodeKind::Element => {
                let _ = write!(out, " {}", doc.tag(id));
                for a in doc.attrs(id) {
                    let _ = write!(out, " {}={:?}", &*a.name, &*a.value);
                }
            }
            _ => {
                let _ = write!(out, " {:?}", doc.text(id));
            }
        }
        out.push('\n');
    }
    out
}

fn all_text(doc: &Document) -> String {
    doc.ids()
        .filter(|&id| !doc.is_element(id))
        .map(|id| doc.text(id))
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn a_captured_page_parses_to_the_original_page() {
    let (capture, original) = captured();
    let doc = parse(&capture);
    let plain = parse(&original);
    // Nothing of the archive is left, and the page is the page before capture.
    assert_eq!(shape(&doc), shape(&plain));
    let text = TextView::new(&doc).text().to_string();
    assert_eq!(text, TextView::new(&plain).text());
    assert!(text.contains("The first paragraph of the story"));
    for archive_text in [
        "captures",
        "About this capture",
        "success",
        "JAN",
        "wombat",
        "FILE ARCHIVED",
        "playback timings",
        "__wm",
    ] {
        assert!(!all_text(&doc).contains(archive_text), "{archive_text}");
    }
    assert!(doc.ids().all(|id| {
        doc.attrs(id)
            .iter()
            .all(|a| !a.value.contains("_static") && !a.value.starts_with("wm-"))
    }));
    // The page's own parts are all there.
    assert_eq!(doc.title().as_deref(), Some("Caf\u{e9} notes"));
    assert_eq!(
        doc.declared_url(),
        Some("/web/20200101000000/https://example.org/story")
    );
    // Without stripping, the toolbar is visible text.
    let raw = TextView::new(&parse_unstripped(&capture))
        .text()
        .to_string();
    assert!(raw.contains("26 captures") && raw.contains("About this capture"));
}

#[test]
fn the_inserts_taken_out_are_reported() {
    let (capture, _) = captured();
    let doc = parse(&capture);
    let at = |s: &str| capture.find(s).expect("in the page");
    let head = at(HEAD_INSERT);
    let toolbar = at(TOOLBAR);
    let notice = at(NOTICE);
    assert_eq!(
        doc.archive_inserts(),
        [
            head..head + HEAD_INSERT.len(),
            toolbar..toolbar + TOOLBAR.len(),
            notice..notice + NOTICE.len(),
        ]
    );
    assert!(parse_unstripped(&capture).archive_inserts().is_empty());
    // The same through bytes, with a byte order mark in front (offsets index the decoded text).
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(capture.as_bytes());
    let doc = parse_with(&bytes, &ParseOptions::default()).expect("within limits");
    let decoded = chaff_dom::encoding::decode(&bytes, None).text;
    for r in doc.archive_inserts() {
        assert!(decoded[r.clone()].starts_with('<') && decoded[r.clone()].ends_with("-->"));
    }
    assert_eq!(doc.archive_inserts().len(), 3);
}

#[test]
fn spans_and_lines_index_the_captured_text() {
    let (capture, original) = captured();
    let doc = parse(&capture);
    let unstripped = parse_unstripped(&capture);
    let plain = parse(&original);
    assert_eq!(doc.span(chaff_dom::NodeId::ROOT), Some(0..capture.len()));
    let inserts = doc.archive_inserts().to_vec();
    let inside = |p: usize| inserts.iter().any(|r| r.start < p && p < r.end);
    for id in doc.ids().skip(1) {
        let Some(r) = doc.span(id) else {
            continue;
        };
        let covered = &capture[r.clone()];
        assert!(!inside(r.start) && !inside(r.end), "{id:?} {r:?}");
        match doc.kind(id) {
            NodeKind::Element if !["html", "head", "body", "tbody"].contains(&doc.tag(id)) => {
                assert!(covered.starts_with('<'), "{} {covered:?}", doc.tag(id));
            }
            NodeKind::Text => assert!(
                covered.contains(doc.text(id).trim()),
                "{:?} {covered:?}",
                doc.text(id)
            ),
            NodeKind::Comment | NodeKind::Doctype => {
                assert!(covered.starts_with('<') && covered.ends_with('>'));
            }
            _ => {}
        }
        if let Some(parent) = doc.parent(id)
            && let Some(pr) = doc.span(parent)
        {
            assert!(pr.start <= r.start && r.end <= pr.end);
        }
    }
    // Each element of the page has the span and line it has when nothing is stripped.
    let find = |d: &Document, tag: &str, n: usize| {
        d.ids().filter(|&i| d.is_tag(i, tag)).nth(n).expect("there")
    };
    for (tag, n) in [("title", 0), ("p", 0), ("p", 1), ("h1", 0), ("meta", 0)] {
        let (a, b) = (find(&doc, tag, n), find(&unstripped, tag, n));
        assert_eq!(doc.span(a), unstripped.span(b), "{tag}");
        assert_eq!(doc.source_line(a), unstripped.source_line(b), "{tag}");
        assert!(doc.source_line(a) > plain.source_line(find(&plain, tag, n)));
    }
    // The body and head still cover the inserts inside them.
    let body = doc.body().expect("a body");
    let body_span = doc.span(body).expect("a span");
    assert!(body_span.start <= inserts[1].start && inserts[1].end <= body_span.end);
}

#[test]
fn both_tokenizers_agree_on_captured_pages() {
    let (capture, _) = captured();
    assert_eq!(common::difference(&capture), None);
    let (fast, reference) = common::parse_both(&capture);
    assert!(reference.archive_inserts() == fast.archive_inserts());
    assert_eq!(fast.archive_inserts().len(), 3);
}

#[test]
fn text_around_a_toolbar_merges() {
    let page = format!("<p>before {TOOLBAR} after</p>");
    let doc = parse(&page);
    let texts: Vec<&str> = doc
        .ids()
        .filter(|&i| doc.is_text(i))
        .map(|i| doc.text(i))
        .collect();
    assert_eq!(texts, ["before  after"]);
    let text = doc.ids().find(|&i| doc.is_text(i)).expect("a text");
    assert_eq!(doc.span(text), Some(3..page.len() - 4));
    assert_eq!(shape(&doc), shape(&parse("<p>before  after</p>")));
}

#[test]
fn an_unterminated_toolbar_is_left_alone() {
    let open = TOOLBAR.replace("<!-- END WAYBACK TOOLBAR INSERT -->", "");
    let page = format!("{DOCTYPE}<head><title>T</title></head>{BODY_TAG}{open}{BODY_REST}");
    let doc = parse(&page);
    assert!(doc.archive_inserts().is_empty());
    assert!(common::same_document(&doc, &parse_unstripped(&page)));
    assert!(TextView::new(&doc).text().contains("About this capture"));
    assert_eq!(
        chaff_dom::archive::strip_inserts(page.as_bytes()),
        page.as_bytes()
    );
    // Its head scripts and notice still go when they are whole.
    let page =
        format!("{DOCTYPE}{HEAD_TAG}{HEAD_INSERT}{HEAD_REST}{BODY_TAG}{open}{BODY_REST}{NOTICE}");
    let doc = parse(&page);
    assert_eq!(doc.archive_inserts().len(), 2);
    assert!(TextView::new(&doc).text().contains("About this capture"));
}

#[test]
fn pages_without_markers_are_untouched() {
    let (_, original) = captured();
    let pages = [
        original.as_str(),
        "<p>BEGIN WAYBACK TOOLBAR INSERT is how the archive marks its toolbar.</p>",
        "<p>a</p><!-- END WAYBACK TOOLBAR INSERT --><p>b</p>",
        "<head><title>T</title><!-- End Wayback Rewrite JS Include --></head><p>x",
        "<head><script src=/app.js></script><!-- End Wayback Rewrite JS Include --><p>x",
        "<pre>FILE ARCHIVED ON 01 Jan 2020</pre><!-- FILE ARCHIVED ON",
        "<!-- \u{7f}\u{7f}\u{7f} --><p>x</p>",
        "",
    ];
    for page in pages {
        let doc = parse(page);
        let unstripped = parse_unstripped(page);
        assert!(doc.archive_inserts().is_empty(), "{page}");
        assert!(common::same_document(&doc, &unstripped), "{page}");
        assert_eq!(
            TextView::new(&doc).text(),
            TextView::new(&unstripped).text(),
            "{page}"
        );
        assert!(doc.ids().all(|id| doc.span(id) == unstripped.span(id)));
    }
}

#[test]
fn stripping_bytes_gives_the_original_page() {
    let (capture, original) = captured();
    let stripped = chaff_dom::archive::strip_inserts(capture.as_bytes());
    let stripped = std::str::from_utf8(&stripped).expect("utf-8");
    assert_eq!(shape(&parse_unstripped(stripped)), shape(&parse(&original)));
    assert_eq!(stripped, original);
}

#[test]
fn html5ever_tokenizer_strips_too() {
    let (capture, original) = captured();
    let opts = ParseOptions {
        tokenizer: TokenizerKind::Html5ever,
        ..ParseOptions::default()
    };
    let doc = parse_str(&capture, &opts).expect("within limits");
    assert!(!doc.has_spans());
    assert_eq!(shape(&doc), shape(&parse(&original)));
}

/// Pieces of markup, archive markers among them but never a whole insert.
const PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<head>",
    "<body>",
    "<table>",
    "<td>",
    "<script>",
    "</script>",
    "<script src=/_static/js/wombat.js>",
    "<link href=/_static/css/iconochive.css>",
    "<!--",
    "-->",
    "<!-- BEGIN WAYBACK TOOLBAR INSERT -->",
    "<!-- End Wayback Rewrite JS Include -->",
    "FILE ARCHIVED ON",
    "playback timings",
    "\u{7f}",
    "text",
    " ",
    "\n",
    "\r\n",
    "&amp;",
    "\u{e9}",
];

proptest! {
    /// With at most a BEGIN marker, or head scripts cut short, nothing is taken; when
    /// something is (a head insert or a notice formed by chance), spans and the tokenizers
    /// still agree.
    #[test]
    fn random_markup_parses_alike(parts in prop::collection::vec(prop::sample::select(PIECES), 0..40)) {
        let html: String = parts.concat();
        let doc = parse(&html);
        if doc.archive_inserts().is_empty() {
            prop_assert!(common::same_document(&doc, &parse_unstripped(&html)));
        }
        prop_assert_eq!(common::difference(&html), None);
        prop_assert_eq!(doc.span(chaff_dom::NodeId::ROOT), Some(0..html.len()));
        for id in doc.ids() {
            if let Some(r) = doc.span(id) {
                prop_assert!(html.is_char_boundary(r.start) && html.is_char_boundary(r.end));
                prop_assert!(r.start <= r.end && r.end <= html.len());
            }
        }
    }
}

/// The Wayback Machine captures among the shared datasets, if present: every insert found is
/// taken out, and no toolbar text or replay script is left.
#[test]
fn dataset_captures_lose_their_inserts() {
    use std::io::Read;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/datasets/trafilatura-eval/eval");
    let Ok(entries) = std::fs::read_dir(&root) else {
        println!("skipped: no datasets");
        return;
    };
    let mut checked = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.to_string_lossy().to_string();
        if !name.contains("/archive.") || !name.ends_with(".html.gz") {
            continue;
        }
        let mut bytes = Vec::new();
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        if flate2::read::MultiGzDecoder::new(file)
            .read_to_end(&mut bytes)
            .is_err()
        {
            continue;
        }
        let text = chaff_dom::encoding::decode(&bytes, None).text;
        if !text.contains("End Wayback Rewrite JS Include") {
            continue;
        }
        let Ok(doc) = parse_with(&bytes, &ParseOptions::default()) else {
            continue;
        };
        checked += 1;
        let kinds = doc.archive_inserts().len();
        let expected = usize::from(text.contains("BEGIN WAYBACK TOOLBAR INSERT"))
            + usize::from(text.contains("FILE ARCHIVED ON"))
            + 1;
        assert_eq!(kinds, expected, "{name}");
        for id in doc.ids() {
            let scripted = doc
                .attr(id, "src")
                .is_some_and(|s| s.starts_with("/_static/") || s.contains("archive.org/includes/"));
            assert!(!scripted, "{name}: {:?}", doc.attr(id, "src"));
            if !doc.is_element(id) {
                assert!(!doc.text(id).contains("FILE ARCHIVED ON"), "{name}");
                assert!(!doc.text(id).contains("__wm.bt("), "{name}");
            }
            assert!(doc.attr(id, "id") != Some("wm-ipp-base"), "{name}");
        }
    }
    println!("checked {checked} captures");
}
