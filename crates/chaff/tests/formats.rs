//! Every output format of one page whose markup states its metadata, as a user gets it:
//! Markdown with front matter, HTML with its `<head>`, the JSON record with its fields, and
//! trafilatura's XML and TEI (metadata as `<doc>` attributes or in the `teiHeader`, the
//! comments in their own element).

use chaff::{Extractor, Format};

const PAGE: &str = r#"<html lang="en-GB"><head><title>Council closes the old bridge | Example News</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"Council closes the old bridge","datePublished":"2024-05-01T09:00:00+02:00",
"author":[{"@type":"Person","name":"Ann Lee"}],"keywords":"bridges, council"}</script>
<meta name="description" content="Repairs will take a year.">
<link rel="canonical" href="https://news.example.org/bridge"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Council closes the old bridge</h1><p>The council voted on Monday to close the old
bridge for repairs. Engineers found <em>cracks</em> in two of its arches last spring, and the
work is expected to take most of the coming year.</p><ul><li><p>Traffic goes over the ring
road.</p></li><li>Shops near the bridge asked for help.</li></ul></article>
<div id="comments"><ol class="commentlist"><li class="comment"><p>I drive over that bridge
every day and it did feel shaky to me, I am glad it is being fixed.</p></li></ol></div>
</body></html>"#;

fn page() -> chaff::Extraction {
    let ex = Extractor::builder().front_matter(true).build().unwrap();
    ex.extract(
        PAGE.as_bytes(),
        Some("https://news.example.org/bridge?ref=rss"),
    )
    .unwrap()
}

#[test]
fn every_format_with_its_metadata() {
    let page = page();
    insta::assert_snapshot!("text", page.render(Format::Text));
    insta::assert_snapshot!("markdown", page.render(Format::Markdown));
    insta::assert_snapshot!("html", page.render(Format::Html));
    insta::assert_snapshot!("xml", page.render(Format::Xml));
    insta::assert_snapshot!("tei", page.render(Format::Tei));
    let record = page.record(Format::Json);
    insta::assert_snapshot!("record", serde_json::to_string_pretty(&record).unwrap());
}

#[test]
fn markdown_has_no_front_matter_unless_asked_for() {
    let plain = chaff::extract(PAGE.as_bytes(), None).unwrap();
    assert!(!plain.markdown().starts_with("---"));
    assert!(
        page()
            .markdown()
            .starts_with("---\ntitle: \"Council closes the old bridge\"\n")
    );
}

/// A documentation page's permalink marks (Sphinx's "¶" after each heading) are in no
/// format's text and not in the title, whatever the content model thought of them.
#[test]
fn a_heading_s_permalink_mark_is_left_out() {
    let page = r##"<html><head><title>Quickstart - Flask Documentation</title></head><body>
<div class="body" role="main"><section id="quickstart"><h1>Quickstart<a class="headerlink"
href="#quickstart" title="Link to this heading">¶</a></h1><p>Eager to get started? This page
gives a good introduction to the framework and assumes you already have it installed on
your machine, with a project set up as the installation chapter shows.</p>
<section id="a-minimal-application"><h2>A Minimal Application<a class="headerlink"
href="#a-minimal-application" title="Link to this heading">¶</a></h2><p>A minimal
application looks something like this, and the lines below explain what each part does
when the server starts and the first request comes in.</p></section></section></div>
</body></html>"##;
    let ex = Extractor::builder().build().unwrap();
    let page = ex.extract(page.as_bytes(), None).unwrap();
    for format in [Format::Text, Format::Markdown, Format::Html, Format::Xml] {
        let out = page.render(format);
        assert!(out.contains("A Minimal Application"), "{format:?}: {out}");
        assert!(!out.contains('¶'), "{format:?}: {out}");
    }
    assert!(
        page.render(Format::Markdown)
            .contains("## A Minimal Application\n")
    );
    assert_eq!(page.metadata().title.as_deref(), Some("Quickstart"));
}
