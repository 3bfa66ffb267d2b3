//! CSS selector text -> parse -> match against a small fixed page; unique selectors of
//! its elements must parse and find them.
#![no_main]

use std::sync::OnceLock;

use chaff_dom::{Document, NodeId, Selector};
use libfuzzer_sys::fuzz_target;

fn doc() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(|| {
        chaff_dom::parse(
            b"<!doctype html><html lang=en><body><div id=main class='a b'><ul><li>one<li \
              class=x>two</ul><p data-k=\"v w\">text <a href=/x rel=next>link</a></p><svg \
              viewBox='0 0 1 1'><clipPath/></svg><template><i>t</i></template></div>\
              <table><tr><td>1<td>2</table></body></html>",
        )
        .expect("the fixed page parses")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let doc = doc();
    if let Ok(sel) = Selector::parse(text) {
        let _ = sel.as_str();
        let _ = sel.select(doc, NodeId::ROOT).count();
        let _ = sel.select_first(doc, NodeId::ROOT);
    }
    // Escaping any text makes an identifier that parses as a class selector.
    let class = format!(".{}", chaff_dom::select::escape_ident(text));
    if !text.is_empty() {
        assert!(
            Selector::parse(&class).is_ok(),
            "escaped class {class:?} does not parse"
        );
    }
});
