//! Inputs the fuzz targets found, kept as they were minimised by libFuzzer.

use chaff_dom::{ParseOptions, TokenizerKind, parse_with};

/// `html_extract`: past the depth limit a `<script>` start tag is dropped and its name
/// counted; after some closing tags bring the insertion point back above the limit, a second
/// `<script>` puts the tree builder in its text mode, and the depth guard took that script's
/// `</script>` for the dropped one's and swallowed it. The tree builder stayed in text mode
/// while the tokenizer read markup again, and html5ever panicked on the next start tag
/// ("impossible case in Text mode").
#[test]
fn an_end_tag_that_ends_text_mode_always_reaches_the_tree_builder() {
    let page = include_bytes!("fuzz/text_mode_desync.html");
    for tokenizer in [TokenizerKind::Fast, TokenizerKind::Html5ever] {
        let opts = ParseOptions {
            tokenizer,
            ..ParseOptions::default()
        };
        let doc = parse_with(page, &opts).expect("the page parses");
        assert!(doc.find_tag("script").is_some(), "{tokenizer:?}");
    }
}
