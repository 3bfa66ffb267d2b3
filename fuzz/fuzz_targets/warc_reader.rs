//! Bytes as a WARC stream (plain or gzip): every record read, damaged ones reported.
#![no_main]

use std::io::Cursor;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(pages) = chaff_corpus::WarcPages::from_reader(
        Box::new(Cursor::new(data.to_vec())),
        PathBuf::from("fuzz.warc"),
    ) else {
        return;
    };
    // A stream can hold at most one record per few bytes; more items than bytes is a loop.
    for (n, item) in pages.with_max_page_bytes(1 << 20).enumerate() {
        assert!(n <= data.len() + 1, "more items than input bytes");
        if let Err(e) = item {
            let _ = e.to_string();
        }
    }
    // The HTTP layer on its own, as a WARC record's block.
    if let Ok(resp) = chaff_corpus::http::HttpResponse::parse(data) {
        let _ = resp.decoded_body(1 << 20);
        let _ = resp.content_type();
    }
    let _ = chaff_corpus::http::dechunk(data, 1 << 20);
});
