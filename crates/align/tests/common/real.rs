//! Real pages of the shared data sets, crudely tokenised, for tests that skip without them.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// `<repo>/../shared/datasets`, if present.
pub fn datasets() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    assert!(
        dir.is_dir() || std::env::var_os("CI").is_none(),
        "the shared data sets are missing, and CI must run the tests that need them"
    );
    dir.is_dir().then_some(dir)
}

/// Reads a gzipped page, lossily decoded as UTF-8.
pub fn read_gz(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Interns token strings as dense ids.
#[derive(Default)]
pub struct Interner(HashMap<String, u32>);

impl Interner {
    pub fn id(&mut self, token: String) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(token).or_insert(next)
    }
}

/// Splits HTML on tags: every tag `<...>` lower-cased is one token, every non-empty text
/// between tags (trimmed, whitespace collapsed) another.
pub fn tokenize(html: &str, interner: &mut Interner) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = html;
    let push_text = |text: &str, out: &mut Vec<u32>, interner: &mut Interner| {
        let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !collapsed.is_empty() {
            out.push(interner.id(collapsed));
        }
    };
    while let Some(open) = rest.find('<') {
        push_text(&rest[..open], &mut out, interner);
        match rest[open..].find('>') {
            Some(close) => {
                let tag = &rest[open..open + close + 1];
                out.push(interner.id(tag.to_lowercase()));
                rest = &rest[open + close + 1..];
            }
            None => {
                push_text(&rest[open..], &mut out, interner);
                rest = "";
            }
        }
    }
    push_text(rest, &mut out, interner);
    out
}

/// Pairs of pages from one site: consecutive pages of the multi-page sites of
/// `cleanportaleval` and `swde-books-subset`, at most `per_site` pairs per site, each page
/// cut to its first `max_tokens` tokens. Empty when the data sets are absent.
pub fn site_pairs(per_site: usize, max_tokens: usize) -> Vec<(String, Vec<u32>, Vec<u32>)> {
    let Some(root) = datasets() else {
        return Vec::new();
    };
    let mut groups: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let portal = root.join("cleanportaleval/input");
    for site in [
        "bbc.co.uk_news",
        "blogs.wsj.com_brussels",
        "tv.msnbc.com_news",
        "washingtonpost.com_blog1",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&portal)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(site))
            })
            .collect();
        files.sort();
        groups.push((site.to_string(), files));
    }
    for site in ["book-booksamillion", "book-christianbook"] {
        let dir = root.join("swde-books-subset/html").join(site);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        files.truncate(2 * per_site);
        groups.push((site.to_string(), files));
    }
    let mut pairs = Vec::new();
    for (site, files) in groups {
        let mut interner = Interner::default();
        for (k, pair) in files.chunks_exact(2).take(per_site).enumerate() {
            let (Some(x), Some(y)) = (read_gz(&pair[0]), read_gz(&pair[1])) else {
                continue;
            };
            let mut a = tokenize(&x, &mut interner);
            let mut b = tokenize(&y, &mut interner);
            a.truncate(max_tokens);
            b.truncate(max_tokens);
            pairs.push((format!("{site}#{k}"), a, b));
        }
    }
    pairs
}
