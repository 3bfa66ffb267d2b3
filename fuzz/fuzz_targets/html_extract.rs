//! HTML bytes -> parse -> extract with the built-in methods -> every output format.
#![no_main]

use chaff::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(page) = chaff::extract(data, Some("https://example.org/fuzz/page.html")) else {
        return;
    };
    for format in Format::ALL {
        let _ = page.render(format);
        let _ = page.record(format);
    }
    let _ = page.record_with(Format::Json, true);
    let _ = page.metadata();
    let _ = page.language();
    let _ = page.confidence();
});
