//! Bytes as standard input (JSON Lines, a page or a WARC stream, told apart by the first
//! bytes), read through `Pages` as `chaff extract -` reads them.
#![no_main]

use std::io::Cursor;

use chaff_corpus::{InputSpec, Pages, PagesOptions};
use libfuzzer_sys::fuzz_target;

/// `{"path": ...}` lines name files to read; the fuzzer must not walk the machine's disk.
fn names_a_path(data: &[u8]) -> bool {
    data.split(|&b| b == b'\n').any(|line| {
        serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.as_object().map(|o| o.contains_key("path")))
            .unwrap_or(false)
    })
}

fuzz_target!(|data: &[u8]| {
    if names_a_path(data) {
        return;
    }
    let pages = Pages::with_options(
        vec![InputSpec::Stdin],
        PagesOptions {
            max_page_bytes: 1 << 20,
        },
    )
    .with_stdin(Cursor::new(data.to_vec()));
    for (n, item) in pages.enumerate() {
        assert!(n <= data.len() + 1, "more items than input bytes");
        match item {
            Ok(page) => assert!(page.bytes.len() <= 1 << 20),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
