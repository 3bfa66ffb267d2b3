//! XPath text -> parse -> evaluate on a small fixed page (nodes and string values).
#![no_main]

use std::sync::OnceLock;

use chaff_dom::{Document, XPath};
use libfuzzer_sys::fuzz_target;

fn doc() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(|| {
        chaff_dom::parse(
            b"<!doctype html><html><head><title>T</title></head><body><div id=main \
              class='post body'><h1>Head</h1><p>one <b>two</b></p><p>three</p><ul><li><a \
              href=/a>A</a><li><a href=/b>B</a></ul></div><div class=foot>f</div></body></html>",
        )
        .expect("the fixed page parses")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(xp) = XPath::parse(text) {
        let doc = doc();
        let _ = xp.as_str();
        let _ = xp.select(doc);
        let _ = xp.select_values(doc);
    }
});
