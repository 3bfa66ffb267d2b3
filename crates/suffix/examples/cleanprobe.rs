//! Times the suffix cleaner alone: compiling a profile's expressions and matching them on
//! the visible text of up to 100 pages, three rounds, with a checksum of the matches (equal
//! checksums, equal matches), then a fourth with 32 MB of other memory touched between pages.
//! The figures in `clean`'s module docs come from it.
//!
//! `cargo run --release -p chaff-suffix --example cleanprobe -- PROFILE.json PAGES_DIR`

use std::error::Error;
use std::io::Read;
use std::time::Instant;

use chaff_suffix::clean::Cleaner;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, profile, pages] = args.as_slice() else {
        return Err("usage: cleanprobe PROFILE.json PAGES_DIR".into());
    };
    let profile: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(profile)?)?;
    let expressions: Vec<&str> = profile["methods"]["suffix"]["expressions"]
        .as_array()
        .ok_or("the profile has no suffix expressions")?
        .iter()
        .filter_map(|e| e["regex"].as_str())
        .collect();
    let mut files: Vec<_> = std::fs::read_dir(pages)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut texts = Vec::new();
    for f in files.iter().take(100) {
        let raw = std::fs::read(f)?;
        let bytes = if f.extension().is_some_and(|e| e == "gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
            out
        } else {
            raw
        };
        let doc = chaff_dom::parse(&bytes)?;
        texts.push(chaff_dom::TextView::new(&doc).text().to_string());
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "{} expressions, {} pages, {bytes} bytes of text",
        expressions.len(),
        texts.len()
    );
    // Three rounds back to back, then one with 32 MB of other memory touched before each
    // page, as an extraction's other stages do between two pages' cleaning (the clock is
    // stopped while it is touched).
    let mut other = vec![0u8; 32 << 20];
    for (round, between) in [false, false, false, true].into_iter().enumerate() {
        let t = Instant::now();
        let cleaner = Cleaner::new(&expressions)?;
        let compiled = t.elapsed();
        let (mut matched, mut checksum) = (0usize, 0u64);
        let mut untimed = std::time::Duration::ZERO;
        for (k, text) in texts.iter().enumerate() {
            if between {
                let touching = Instant::now();
                for i in (0..other.len()).step_by(64) {
                    other[i] = other[i].wrapping_add(k as u8);
                }
                std::hint::black_box(&other);
                untimed += touching.elapsed();
            }
            for r in cleaner.matches(text) {
                matched += r.len();
                checksum = checksum
                    .wrapping_mul(31)
                    .wrapping_add(r.start as u64 * 7 + r.end as u64);
            }
        }
        println!(
            "round {round}{}: compiled in {compiled:.1?}, compiled and matched in {:.1?}; {matched} bytes matched, checksum {checksum:x}",
            if between {
                " (32 MB touched between pages)"
            } else {
                ""
            },
            t.elapsed() - untimed
        );
    }
    Ok(())
}
