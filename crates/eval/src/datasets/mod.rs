//! Readers for the gold formats of the shared evaluation sets.
//!
//! Every adapter returns the same shape, [`GoldPage`]: where the page's HTML is (often
//! gzipped: read it with [`read_maybe_gz`]) and what text the annotators consider its main
//! content. Adapters check that every file they point to exists and fail with a
//! [`DatasetError`] naming the first missing or unreadable file, so that a broken data folder
//! is noticed before an evaluation run rather than as a silently smaller set.
//!
//! Gold files come in mixed encodings (UTF-8 with or without BOM, UTF-16 with BOM,
//! Windows-1252); they are decoded here so that callers only ever see `String`s with `\n`
//! line ends.
//!
//! The data sets are described by the `MANIFEST.md` files under `shared/datasets/`; the
//! adapters follow those layouts ([`scrapinghub_aeb`], [`cleaneval`], [`cleanportaleval`],
//! [`dragnet`]) plus one generic JSON Lines format ([`jsonl`]) for sets made elsewhere.

use std::cmp::Ordering;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod aeb;
mod blocks;
mod cleaneval;
mod dragnet;
mod jsonl;
mod readability;
mod wcxb;

pub use aeb::scrapinghub_aeb;
pub use blocks::{BlockGold, BlockPage, BlockScheme, canola, l3s_gn1};
pub use cleaneval::{CleanEvalGold, CleanEvalSplit, PortalGrouping, cleaneval, cleanportaleval};
pub use dragnet::{DragnetGold, DragnetText, dragnet};
pub use jsonl::jsonl;
pub use readability::readability_testpages;
pub use wcxb::{WcxbGold, wcxb};

/// One evaluation page: its HTML and its gold main text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldPage {
    /// Id unique within the data set (usually the file stem).
    pub id: String,
    /// The page's HTML; may end in `.gz` (see [`read_maybe_gz`]).
    pub html_path: PathBuf,
    /// The gold main text, plain (markers and the URL line of CleanEval files removed).
    pub gold_text: String,
    /// The site or portal the page belongs to, when the set says (or lets us infer) it;
    /// site-level methods group pages by it.
    pub site: Option<String>,
    /// The page's original URL, when known.
    pub url: Option<String>,
    /// The set's own split (`train`/`test`, `dev`/`final`), when it has one.
    pub split: Option<String>,
    /// The page's type, when the set labels it (WCXB: article, service, product, collection,
    /// forum, listing, documentation).
    #[serde(default)]
    pub kind: Option<String>,
}

/// Why a data set could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A file or folder the layout requires is absent.
    #[error("{what} not found: {}", path.display())]
    Missing {
        /// What the file is for, e.g. "AEB ground truth".
        what: &'static str,
        /// Where it was expected.
        path: PathBuf,
    },
    /// A file exists but could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// A JSON file, or one line of a JSON Lines file, is not what the format says.
    #[error("invalid JSON in {}{}: {source}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Json {
        /// The file.
        path: PathBuf,
        /// The 1-based line, for JSON Lines.
        line: Option<usize>,
        /// The parser's complaint.
        #[source]
        source: serde_json::Error,
    },
    /// A text file breaks its format.
    #[error("{}:{line}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl DatasetError {
    /// Maps an I/O error on `path` to [`DatasetError::Missing`] when the file is absent, so
    /// the message says what the file was for.
    fn io(what: &'static str, path: &Path, source: io::Error) -> Self {
        if source.kind() == io::ErrorKind::NotFound {
            DatasetError::Missing {
                what,
                path: path.to_path_buf(),
            }
        } else {
            DatasetError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

/// Reads a file, transparently gunzipping it when its name ends in `.gz` (the shared sets
/// store raw HTML as `gzip -n -9`). Concatenated gzip members are all read.
pub fn read_maybe_gz(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let path = path.as_ref();
    let is_gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    if !is_gz {
        return fs::read(path);
    }
    let file = fs::File::open(path)?;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(io::BufReader::new(file)).read_to_end(&mut out)?;
    Ok(out)
}

/// The shared folder (`shared/`, holding `datasets/`), or `None` when there is none.
///
/// Looked for, in order: the `CHAFF_SHARED` environment variable (when set and non-empty it
/// is the only candidate, so a wrong value is not silently replaced by another folder);
/// `../shared` beside the workspace root as seen when this crate was compiled; and, at run
/// time, a `shared/` folder containing `datasets/` beside the current directory or any of
/// its ancestors.
pub fn shared_dir() -> Option<PathBuf> {
    find_shared_dir(
        std::env::var_os("CHAFF_SHARED"),
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        std::env::current_dir().ok().as_deref(),
    )
}

/// [`shared_dir`] with its inputs explicit, so the search order can be tested without
/// touching the process environment.
fn find_shared_dir(
    from_env: Option<std::ffi::OsString>,
    compiled: &Path,
    cwd: Option<&Path>,
) -> Option<PathBuf> {
    if let Some(value) = from_env.filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        return path.is_dir().then_some(path);
    }
    if compiled.is_dir() {
        return Some(fs::canonicalize(compiled).unwrap_or_else(|_| compiled.to_path_buf()));
    }
    cwd?.ancestors()
        .map(|dir| dir.join("shared"))
        .find(|shared| shared.join("datasets").is_dir())
}

/// `shared_dir()/datasets`, when it exists.
pub fn datasets_dir() -> Option<PathBuf> {
    shared_dir()
        .map(|shared| shared.join("datasets"))
        .filter(|dir| dir.is_dir())
}

/// Decodes a gold text file whatever its encoding: a BOM decides when present (UTF-8,
/// UTF-16LE/BE — Dragnet has UTF-16 files), else UTF-8 if the bytes are valid UTF-8, else
/// Windows-1252 (the older CleanEval and Dragnet files). Line ends become `\n`.
pub(crate) fn decode_text(bytes: &[u8]) -> String {
    let text = match encoding_rs::Encoding::for_bom(bytes) {
        Some((encoding, bom_len)) => encoding
            .decode_without_bom_handling(&bytes[bom_len..])
            .0
            .into_owned(),
        None => match std::str::from_utf8(bytes) {
            Ok(text) => text.to_owned(),
            Err(_) => encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
        },
    };
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// Reads and decodes a gold text file (see [`decode_text`]).
pub(crate) fn read_text(what: &'static str, path: &Path) -> Result<String, DatasetError> {
    read_maybe_gz(path)
        .map(|bytes| decode_text(&bytes))
        .map_err(|e| DatasetError::io(what, path, e))
}

/// Fails with [`DatasetError::Missing`] unless `path` is an existing file.
pub(crate) fn require_file(what: &'static str, path: &Path) -> Result<(), DatasetError> {
    if path.is_file() {
        Ok(())
    } else {
        Err(DatasetError::Missing {
            what,
            path: path.to_path_buf(),
        })
    }
}

/// The names of the files in `dir` that end in `suffix`, with the suffix cut off, sorted
/// naturally (`2` before `10`).
pub(crate) fn stems_with_suffix(
    what: &'static str,
    dir: &Path,
    suffix: &str,
) -> Result<Vec<String>, DatasetError> {
    let entries = fs::read_dir(dir).map_err(|e| DatasetError::io(what, dir, e))?;
    let mut stems = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| DatasetError::io(what, dir, e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(stem) = name.strip_suffix(suffix)
            && !stem.is_empty()
        {
            stems.push(stem.to_owned());
        }
    }
    stems.sort_by(|a, b| natural_cmp(a, b));
    Ok(stems)
}

/// Compares strings treating runs of ASCII digits as numbers, so page lists read in the
/// order people number them.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    fn chunks(s: &str) -> impl Iterator<Item = (bool, &str)> {
        let mut rest = s;
        std::iter::from_fn(move || {
            let first = rest.chars().next()?;
            let digits = first.is_ascii_digit();
            let end = rest
                .find(|c: char| c.is_ascii_digit() != digits)
                .unwrap_or(rest.len());
            let (chunk, tail) = rest.split_at(end);
            rest = tail;
            Some((digits, chunk))
        })
    }
    let mut left = chunks(a);
    let mut right = chunks(b);
    loop {
        match (left.next(), right.next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some((true, x)), Some((true, y))) => {
                let (xt, yt) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                let order = xt.len().cmp(&yt.len()).then_with(|| xt.cmp(yt));
                if order != Ordering::Equal {
                    return order;
                }
            }
            (Some((_, x)), Some((_, y))) => {
                if x != y {
                    return x.cmp(y);
                }
            }
        }
    }
}

/// The host of a URL, lower-cased and without a leading `www.`, used as the site of sets
/// that give only URLs. `None` when the string has no `scheme://host`.
pub(crate) fn host_of(url: &str) -> Option<String> {
    let (_, rest) = url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?.split(':').next()?;
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    (!host.is_empty()).then(|| host.to_owned())
}

#[cfg(test)]
mod tests;
