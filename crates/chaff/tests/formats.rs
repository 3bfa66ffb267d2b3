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
