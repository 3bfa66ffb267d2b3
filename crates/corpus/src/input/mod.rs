//! Pages in: the [`Page`] type and the [`Pages`] iterator over all inputs.
//!
//! Inputs are read lazily and in a fixed order (arguments as given, folder
//! entries and glob matches sorted by name), so two runs over the same data
//! see the same pages in the same order. Problems with one page are items of
//! the iteration, never its end.

mod expand;
mod file;

use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::error::CorpusError;
use crate::jsonl::{JsonlItem, JsonlSource};
use crate::warc::WarcPages;

pub use expand::{InputSpec, expand_inputs, is_url};

/// Default cap on one page's size, after decompression: 64 MiB.
pub const DEFAULT_MAX_PAGE_BYTES: u64 = 64 << 20;

/// How a page's bytes are meant to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Media {
    /// An HTML (or XHTML) document.
    Html,
    /// Plain text: `.txt` files and JSON Lines `"text"` values.
    Text,
}

/// One page as bytes, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Human-readable provenance: a path, `path.warc.gz#offset`, `stdin:17`.
    pub source: String,
    /// The page's URL, when the input knows it (WARC, JSON Lines).
    pub url: Option<String>,
    /// The page, decompressed and transfer-decoded, in its own encoding.
    pub bytes: Vec<u8>,
    /// The charset the transport declared (HTTP header; `utf-8` for JSON).
    pub charset: Option<String>,
    /// The folder the file was found in, as a site-key fallback.
    pub folder: Option<PathBuf>,
    /// HTML or plain text.
    pub media: Media,
}

/// Options for [`Pages`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PagesOptions {
    /// Largest page accepted, in bytes after decompression; larger ones are
    /// an error item (and decompression stops there).
    pub max_page_bytes: u64,
}

impl Default for PagesOptions {
    fn default() -> Self {
        PagesOptions {
            max_page_bytes: DEFAULT_MAX_PAGE_BYTES,
        }
    }
}

/// Pending work, on a stack so that folders are walked without recursion
/// and in order.
enum Work {
    Spec(InputSpec),
    File {
        path: PathBuf,
        folder: Option<PathBuf>,
        url: Option<String>,
    },
    Dir(PathBuf),
    Warc(Box<WarcPages>),
    Jsonl(JsonlSource),
    Error(CorpusError),
}

/// A streaming iterator over every page of a list of inputs.
///
/// Items are `Err` for one page, record, line or folder that could not be
/// read; iteration goes on after them (a damaged WARC ends only that file).
pub struct Pages {
    options: PagesOptions,
    stack: Vec<Work>,
    stdin: Option<Box<dyn BufRead + Send>>,
    visited_dirs: HashSet<PathBuf>,
}

impl Pages {
    /// Pages of the given inputs, with default options; `-` reads the
    /// process's standard input.
    pub fn new(specs: Vec<InputSpec>) -> Self {
        Self::with_options(specs, PagesOptions::default())
    }

    /// Pages of the given inputs.
    pub fn with_options(specs: Vec<InputSpec>, options: PagesOptions) -> Self {
        Pages {
            options,
            stack: specs.into_iter().rev().map(Work::Spec).collect(),
            stdin: None,
            visited_dirs: HashSet::new(),
        }
    }

    /// Expands command-line arguments ([`expand_inputs`]) and reads them.
    pub fn from_args(args: &[String], options: PagesOptions) -> Result<Self, CorpusError> {
        Ok(Self::with_options(expand_inputs(args)?, options))
    }

    /// Reads [`InputSpec::Stdin`] from this reader instead of the process's
    /// standard input. What it holds is told by its first bytes: JSON Lines
    /// when the first character other than white space (and a byte-order
    /// mark) is `{`; otherwise one page (raw HTML, gzip or not) or a WARC
    /// stream, as a file would be read.
    pub fn with_stdin(mut self, reader: impl BufRead + Send + 'static) -> Self {
        self.stdin = Some(Box::new(reader));
        self
    }

    /// Turns one unit of pending work into an item, or into more work.
    fn step(&mut self, work: Work) -> Option<Result<Page, CorpusError>> {
        let cap = self.options.max_page_bytes;
        match work {
            Work::Spec(InputSpec::Stdin) => {
                let mut reader = self
                    .stdin
                    .take()
                    .unwrap_or_else(|| Box::new(BufReader::new(io::stdin())));
                let stdin = Path::new("stdin");
                match json_lines_start(&mut reader) {
                    Ok(Some(skipped)) => {
                        let lines = JsonlSource::new(reader, "stdin", cap).after_lines(skipped);
                        self.stack.push(Work::Jsonl(lines));
                        None
                    }
                    Ok(None) => {
                        let reader = BufReader::new(Box::new(reader) as Box<dyn io::Read + Send>);
                        self.opened(file::open_stream(reader, stdin, None, None, cap, 0))
                    }
                    Err(source) => Some(Err(CorpusError::Unreadable {
                        path: stdin.to_path_buf(),
                        source,
                    })),
                }
            }
            Work::Spec(InputSpec::Dir(path)) => self.step(Work::Dir(path)),
            Work::Spec(InputSpec::File(path)) => {
                let folder = folder_of(&path);
                self.step(Work::File {
                    path,
                    folder,
                    url: None,
                })
            }
            Work::File { path, folder, url } => {
                self.opened(file::open_input(&path, folder, url, cap))
            }
            Work::Dir(path) => self.list_dir(path),
            Work::Warc(mut pages) => {
                let item = pages.next();
                if item.is_some() {
                    self.stack.push(Work::Warc(pages));
                }
                item
            }
            Work::Jsonl(mut source) => {
                let item = source.next()?;
                self.stack.push(Work::Jsonl(source));
                match item {
                    JsonlItem::Page(page) => Some(Ok(page)),
                    JsonlItem::Error(e) => Some(Err(e)),
                    JsonlItem::Path { path, url, line } => self.jsonl_path(path, url, line),
                }
            }
            Work::Error(e) => Some(Err(e)),
        }
    }

    /// A file or stream opened: its page, or its WARC records as more work.
    fn opened(
        &mut self,
        opened: Result<file::Opened, CorpusError>,
    ) -> Option<Result<Page, CorpusError>> {
        match opened {
            Ok(file::Opened::Page(page)) => Some(Ok(page)),
            Ok(file::Opened::Warc(pages)) => {
                self.stack.push(Work::Warc(pages));
                None
            }
            Err(e) => Some(Err(e)),
        }
    }

    /// A `{"path": ...}` line: read it like an argument, but name the line
    /// if it cannot be.
    fn jsonl_path(
        &mut self,
        path: PathBuf,
        url: Option<String>,
        line: u64,
    ) -> Option<Result<Page, CorpusError>> {
        match fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => self.step(Work::Dir(path)),
            Ok(_) => {
                let folder = folder_of(&path);
                self.step(Work::File { path, folder, url })
            }
            Err(e) => Some(Err(CorpusError::JsonLine {
                source_name: "stdin".into(),
                line,
                message: format!("cannot read {}: {e}", path.display()),
            })),
        }
    }

    /// Lists a folder, queueing its entries (sorted, hidden ones skipped).
    /// Symbolic links are followed, each real folder is walked once, so a
    /// link loop ends.
    fn list_dir(&mut self, dir: PathBuf) -> Option<Result<Page, CorpusError>> {
        let unlistable = |source| CorpusError::Unlistable {
            path: dir.clone(),
            source,
        };
        match dir.canonicalize() {
            Ok(real) => {
                if !self.visited_dirs.insert(real) {
                    return None;
                }
            }
            Err(e) => return Some(Err(unlistable(e))),
        }
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => return Some(Err(unlistable(e))),
        };
        let mut found: Vec<(std::ffi::OsString, Work)> = Vec::new();
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.stack.push(Work::Error(unlistable(e)));
                    continue;
                }
            };
            let name = entry.file_name();
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let path = entry.path();
            let work = match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => Work::Dir(path),
                Ok(meta) if meta.is_file() => Work::File {
                    path,
                    folder: Some(dir.clone()),
                    url: None,
                },
                Ok(_) => continue, // sockets, pipes, devices: not pages
                Err(source) => Work::Error(CorpusError::Unreadable { path, source }),
            };
            found.push((name, work));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        self.stack.extend(found.into_iter().rev().map(|(_, w)| w));
        None
    }
}

/// Whether a stream holds JSON Lines: its first character past white space
/// and a UTF-8 byte-order mark is `{`; an empty stream is JSON Lines (no
/// lines). Then `Some(lines)`: the blank lines consumed (the mark is
/// consumed too). Otherwise nothing but white space is consumed, and a page
/// keeps its byte-order mark: it tells the decoder the encoding.
fn json_lines_start(reader: &mut dyn BufRead) -> io::Result<Option<u64>> {
    let mut at_start = true;
    let mut lines = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(Some(lines));
        }
        let bom = if at_start && buf.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        at_start = false;
        let skip = buf[bom..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        match buf.get(bom + skip) {
            Some(&b'{') => {
                reader.consume(bom);
                return Ok(Some(lines));
            }
            Some(_) => return Ok(None),
            None => {
                lines += buf[bom..].iter().filter(|&&b| b == b'\n').count() as u64;
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// The folder a named file is in; the current folder's real path when the
/// name has no folder part, so it still has a name to key on.
fn folder_of(path: &Path) -> Option<PathBuf> {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => Some(p.to_path_buf()),
        _ => std::env::current_dir().ok(),
    }
}

impl Iterator for Pages {
    type Item = Result<Page, CorpusError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(work) = self.stack.pop() {
            if let Some(item) = self.step(work) {
                return Some(item);
            }
        }
        None
    }
}
