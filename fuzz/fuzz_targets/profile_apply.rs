//! Profile JSON -> load -> compile -> apply to a few fixed pages. A profile is untrusted
//! input: its regexes, XPaths and selectors must be refused or run in bounded time.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// Pages of one synthetic site, the kind a learned profile is applied to.
fn pages() -> &'static Vec<(String, String)> {
    static PAGES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let site = chaff_synth::generate_sites(7, 1, 3).remove(0);
        site.pages.into_iter().map(|p| (p.url, p.html)).collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(profile) = chaff::Profile::from_json(text, "fuzz.json") else {
        return;
    };
    let _ = profile.summary();
    let _ = profile.to_json();
    let Ok(ex) = chaff::Extractor::builder()
        .profile_for_every_page(profile)
        .build()
    else {
        return;
    };
    for (url, html) in pages() {
        if let Ok(page) = ex.extract(html.as_bytes(), Some(url)) {
            let _ = page.text();
            let _ = page.site_verdicts();
        }
    }
});
