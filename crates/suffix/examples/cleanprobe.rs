//! Times the suffix method's matching alone: compiling a profile's expressions and matching
//! them on the visible text of up to 100 pages, three rounds, with a checksum of the matches
//! (equal checksums, equal matches), then a fourth with 32 MB of other memory touched between
//! pages; once as regexes ([`Cleaner`]) and once as token strings ([`TokenMatcher`]), then
//! how far the two matches differ. The figures in `clean`'s and `tokenmatch`'s module docs
//! come from it.
//!
//! `cargo run --release -p chaff-suffix --example cleanprobe -- PROFILE.json PAGES_DIR`
//! (with `SHOW=1` in the environment, every stretch one matched and the other did not, in its
//! context)

use std::error::Error;
use std::io::Read;
use std::time::Instant;

use chaff_suffix::SuffixModel;
use chaff_suffix::clean::Cleaner;
use chaff_suffix::tokenmatch::TokenMatcher;

type Matches = Vec<Vec<std::ops::Range<usize>>>;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, profile, pages] = args.as_slice() else {
        return Err("usage: cleanprobe PROFILE.json PAGES_DIR".into());
    };
    let profile: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(profile)?)?;
    let model: SuffixModel = serde_json::from_value(profile["methods"]["suffix"].clone())?;
    let expressions: Vec<&str> = model.expressions.iter().map(|e| e.regex.as_str()).collect();
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
    let by_regex = rounds("regexes", &texts, || {
        let c = Cleaner::new(&expressions)?;
        Ok(Box::new(move |t: &str| c.matches(t)) as MatchFn)
    })?;
    let by_tokens = rounds("tokens", &texts, || {
        let m = TokenMatcher::new(&model).map_err(|e| e.0)?;
        Ok(Box::new(move |t: &str| m.matches(t)) as MatchFn)
    })?;
    let (mut both, mut regex_only, mut tokens_only, mut pages) = (0usize, 0usize, 0usize, 0usize);
    for ((text, r), t) in texts.iter().zip(&by_regex).zip(&by_tokens) {
        let mut covered = vec![0u8; text.len()];
        for x in r {
            covered[x.clone()].iter_mut().for_each(|c| *c |= 1);
        }
        for x in t {
            covered[x.clone()].iter_mut().for_each(|c| *c |= 2);
        }
        let count = |v: u8| covered.iter().filter(|&&c| c == v).count();
        if std::env::var_os("SHOW").is_some() {
            show_differences(text, &covered);
        }
        both += count(3);
        regex_only += count(1);
        tokens_only += count(2);
        pages += usize::from(r != t);
    }
    println!(
        "bytes matched by both {both}, by the regexes only {regex_only}, by the tokens only {tokens_only}; pages whose matches differ {pages} of {}",
        texts.len()
    );
    Ok(())
}

/// A matcher: a page's text to its unioned matches.
type MatchFn = Box<dyn Fn(&str) -> Vec<std::ops::Range<usize>>>;

/// Three rounds back to back, then one with 32 MB of other memory touched before each page,
/// as an extraction's other stages do between two pages' cleaning (the clock is stopped while
/// it is touched). Returns the last round's matches.
fn rounds(
    name: &str,
    texts: &[String],
    compile: impl Fn() -> Result<MatchFn, Box<dyn Error>>,
) -> Result<Matches, Box<dyn Error>> {
    let mut other = vec![0u8; 32 << 20];
    let mut last = Vec::new();
    for (round, between) in [false, false, false, true].into_iter().enumerate() {
        let t = Instant::now();
        let matcher = compile()?;
        let compiled = t.elapsed();
        let (mut matched, mut checksum) = (0usize, 0u64);
        let mut untimed = std::time::Duration::ZERO;
        last.clear();
        for (k, text) in texts.iter().enumerate() {
            if between {
                let touching = Instant::now();
                for i in (0..other.len()).step_by(64) {
                    other[i] = other[i].wrapping_add(k as u8);
                }
                std::hint::black_box(&other);
                untimed += touching.elapsed();
            }
            let found = matcher(text);
            for r in &found {
                matched += r.len();
                checksum = checksum
                    .wrapping_mul(31)
                    .wrapping_add(r.start as u64 * 7 + r.end as u64);
            }
            last.push(found);
        }
        println!(
            "{name}, round {round}{}: compiled in {compiled:.1?}, compiled and matched in {:.1?}; {matched} bytes matched, checksum {checksum:x}",
            if between {
                " (32 MB touched between pages)"
            } else {
                ""
            },
            t.elapsed() - untimed
        );
    }
    Ok(last)
}

/// Prints every stretch of `text` one matcher covered and the other did not (`covered`: bit 1
/// the regexes, bit 2 the tokens), with its context.
fn show_differences(text: &str, covered: &[u8]) {
    let mut i = 0;
    while i < covered.len() {
        if covered[i] != 1 && covered[i] != 2 {
            i += 1;
            continue;
        }
        let j = (i..covered.len())
            .find(|&j| covered[j] != covered[i])
            .unwrap_or(covered.len());
        let mut a = i.saturating_sub(60);
        while !text.is_char_boundary(a) {
            a -= 1;
        }
        let mut b = (j + 30).min(text.len());
        while !text.is_char_boundary(b) {
            b += 1;
        }
        println!("{} [{:?}] in {:?}", covered[i], &text[i..j], &text[a..b]);
        i = j;
    }
}
