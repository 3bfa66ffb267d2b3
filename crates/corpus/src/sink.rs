//! Outputs: files written atomically, safe file names, JSON Lines, and the [`PageSink`]
//! that sends a run's pages to a folder or a stream.
//!
//! Output names are derived from URLs and file names, which come from the
//! web and are hostile until proven otherwise; [`output_name`] makes them
//! into plain, bounded file names that cannot climb out of the output folder.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::CorpusError;
use crate::input::Page;

/// Writes `bytes` to `path` so that readers see the old file or the whole new
/// one, never a part: the bytes go to a temporary file in the same folder,
/// are synced, and the file is renamed over `path`.
///
/// A new file gets the usual `rw-r--r--` mode (the temporary file is private
/// while written); an existing one keeps its mode.
pub fn atomic_write(path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), CorpusError> {
    atomic_write_then(path, bytes, || Ok(()))
}

/// [`atomic_write`], calling `before_rename` once the bytes are safely in the temporary
/// file and before it takes `path`'s place (an error there leaves `path` as it was).
fn atomic_write_then(
    path: impl AsRef<Path>,
    bytes: &[u8],
    before_rename: impl FnOnce() -> io::Result<()>,
) -> Result<(), CorpusError> {
    let path = path.as_ref();
    let fail = |source| CorpusError::Write {
        target: path.display().to_string(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".chaff-tmp-")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(p) = permissions {
        tmp.as_file().set_permissions(p).map_err(fail)?;
    }
    before_rename().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

/// Longest name [`output_name`] returns, in bytes, index suffix included.
pub const MAX_OUTPUT_NAME: usize = 100;

/// Room kept for `-` and an index (`usize` has at most 20 digits).
const INDEX_ROOM: usize = 21;

/// A safe file name for a page's output: from the URL path when there is a
/// URL (`/news/2024/story.html` → `news_2024_story.{ext}`), else from the
/// source file's stem.
///
/// The name holds only `[A-Za-z0-9._-]`, never starts with `.` or `-`, never
/// contains `..` or a path separator, and is at most [`MAX_OUTPUT_NAME`]
/// bytes. When nothing usable remains, or the name had to be cut or the URL
/// has a query (so that `?id=1` and `?id=2` differ), the index is appended.
/// Names can still collide between pages (two folders' `index.html`):
/// [`OutputNames`] appends the index on collision.
pub fn output_name(page: &Page, index: usize, ext: &str) -> String {
    let ext = clean_ext(ext);
    let (raw, needs_index) = raw_stem(page);
    let budget = MAX_OUTPUT_NAME - INDEX_ROOM - 1 - ext.len();
    let mut stem = sanitize(&raw);
    let cut = stem.len() > budget;
    if cut {
        stem.truncate(budget);
        stem = stem.trim_end_matches(['.', '_', '-']).to_string();
    }
    let add_index = if stem.is_empty() {
        stem = "page".into();
        true
    } else {
        needs_index || cut
    };
    if is_reserved_windows_name(&stem) {
        stem.insert(0, '_');
    }
    join(&stem, &ext, index, add_index)
}

fn join(stem: &str, ext: &str, index: usize, add_index: bool) -> String {
    let stem = if add_index {
        format!("{stem}-{index}")
    } else {
        stem.to_string()
    };
    if ext.is_empty() {
        stem
    } else {
        format!("{stem}.{ext}")
    }
}

/// The unsanitised stem, and whether it is weak enough to need the index.
fn raw_stem(page: &Page) -> (String, bool) {
    if let Some(url) = &page.url
        && let Ok(parsed) = url::Url::parse(url.trim())
        && parsed.has_host()
    {
        let segments: Vec<String> = parsed
            .path_segments()
            .map(|s| s.filter(|p| !p.is_empty()).map(percent_decode).collect())
            .unwrap_or_default();
        let mut joined = segments.join("_");
        strip_page_extension(&mut joined);
        let has_query = parsed.query().is_some_and(|q| !q.is_empty());
        if joined.is_empty() {
            joined = "index".into();
        }
        return (joined, has_query);
    }
    // `dir/name.html.gz`, `x.warc.gz#1234`, `stdin:17`.
    let source = page.source.as_str();
    let (file, record) = match source.rsplit_once('#') {
        Some((f, r)) if !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit() || b == b'+') => {
            (f, Some(r))
        }
        _ => (source, None),
    };
    let mut name = file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_string();
    if let Some(s) = name.strip_suffix(".gz") {
        name = s.to_string();
    }
    strip_page_extension(&mut name);
    if let Some(record) = record {
        name = format!("{name}-{record}");
    }
    (name, false)
}

/// Drops a final `.html`-like extension: the caller supplies its own.
fn strip_page_extension(name: &mut String) {
    const EXTS: [&str; 8] = [
        ".html", ".htm", ".xhtml", ".php", ".asp", ".aspx", ".txt", ".warc",
    ];
    let lower = name.to_ascii_lowercase();
    if let Some(ext) = EXTS.iter().find(|e| lower.ends_with(*e)) {
        name.truncate(name.len() - ext.len());
    }
}

fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = bytes.get(i + 1..i + 3)
            && let Ok(text) = std::str::from_utf8(hex)
            && let Ok(b) = u8::from_str_radix(text, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Keeps `[A-Za-z0-9._-]`, turns runs of anything else into one `_`, and
/// removes what could make the name special: leading dots and dashes, `..`,
/// trailing dots.
fn sanitize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len().min(256));
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
            c
        } else {
            '_'
        };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        if c == '.' && out.ends_with('.') {
            continue; // never `..`
        }
        out.push(c);
        if out.len() > 4 * MAX_OUTPUT_NAME {
            break; // long enough to be cut anyway
        }
    }
    let trimmed = out
        .trim_start_matches(['.', '-', '_'])
        .trim_end_matches(['.', '_']);
    trimmed.to_string()
}

fn clean_ext(ext: &str) -> String {
    ext.trim_start_matches('.')
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(16)
        .collect()
}

/// `CON`, `NUL`, `COM1`... cannot be file names on Windows, whatever the extension.
fn is_reserved_windows_name(stem: &str) -> bool {
    let base = stem
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_uppercase();
    matches!(base.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (base.len() == 4
            && (base.starts_with("COM") || base.starts_with("LPT"))
            && base.as_bytes()[3].is_ascii_digit())
}

/// Hands out [`output_name`]s that are unique (compared case-insensitively,
/// for case-insensitive file systems), appending the index on collision.
#[derive(Debug, Default)]
pub struct OutputNames {
    used: HashSet<String>,
}

impl OutputNames {
    /// Marks a name as taken (by a file written earlier).
    pub fn reserve(&mut self, name: &str) {
        self.used.insert(name.to_ascii_lowercase());
    }
}

impl OutputNames {
    /// An empty set of names.
    pub fn new() -> Self {
        Self::default()
    }

    /// A name for this page, different from every name given before.
    pub fn name(&mut self, page: &Page, index: usize, ext: &str) -> String {
        let name = output_name(page, index, ext);
        if self.used.insert(name.to_ascii_lowercase()) {
            return name;
        }
        let ext = clean_ext(ext);
        let stem = if ext.is_empty() {
            name.as_str()
        } else {
            name.strip_suffix(&format!(".{ext}")).unwrap_or(&name)
        };
        let mut attempt = 0usize;
        loop {
            let suffix = if attempt == 0 {
                format!("-{index}")
            } else {
                format!("-{index}-{attempt}")
            };
            let keep = MAX_OUTPUT_NAME
                .saturating_sub(suffix.len() + ext.len() + 1)
                .min(stem.len());
            let candidate = join(&format!("{}{suffix}", &stem[..keep]), &ext, index, false);
            if self.used.insert(candidate.to_ascii_lowercase()) {
                return candidate;
            }
            attempt += 1;
        }
    }
}

/// What a write to a JSON Lines stream did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOutcome {
    /// The line was written.
    Written,
    /// The reader went away (broken pipe, as in `chaff ... | head`): a
    /// normal end; stop producing output quietly.
    Closed,
}

/// Writes one JSON value per line to any `Write`.
///
/// A broken pipe is not an error: the first one turns the writer into
/// [`WriteOutcome::Closed`] for good, and further writes do nothing.
#[derive(Debug)]
pub struct JsonlWriter<W: Write> {
    out: W,
    name: String,
    closed: bool,
}

impl<W: Write> JsonlWriter<W> {
    /// A writer; `name` names the stream in errors (`standard output`).
    pub fn new(out: W, name: impl Into<String>) -> Self {
        JsonlWriter {
            out,
            name: name.into(),
            closed: false,
        }
    }

    /// Whether the reader has gone away.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Writes `value` as one line.
    pub fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<WriteOutcome, CorpusError> {
        if self.closed {
            return Ok(WriteOutcome::Closed);
        }
        let mut line = serde_json::to_vec(value)?;
        line.push(b'\n');
        let result = self.out.write_all(&line);
        self.outcome(result)
    }

    /// Writes `text` as it is, and a newline: a single page's content, not a record.
    pub fn write_text(&mut self, text: &str) -> Result<WriteOutcome, CorpusError> {
        if self.closed {
            return Ok(WriteOutcome::Closed);
        }
        let result = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"));
        self.outcome(result)
    }

    /// Flushes the stream.
    pub fn flush(&mut self) -> Result<WriteOutcome, CorpusError> {
        if self.closed {
            return Ok(WriteOutcome::Closed);
        }
        let result = self.out.flush();
        self.outcome(result)
    }

    /// Gives the stream back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn outcome(&mut self, result: io::Result<()>) -> Result<WriteOutcome, CorpusError> {
        match result {
            Ok(()) => Ok(WriteOutcome::Written),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(WriteOutcome::Closed)
            }
            Err(source) => Err(CorpusError::Write {
                target: self.name.clone(),
                source,
            }),
        }
    }
}

/// Where a run's pages go: one file per page into a folder (written atomically, named
/// after the page), or a stream: the content of a run's only page as it is, the records of
/// several as JSON Lines.
#[derive(Debug)]
pub struct PageSink<W: Write> {
    dir: Option<PathBuf>,
    names: OutputNames,
    stream: JsonlWriter<W>,
    single: Option<String>,
    pages: usize,
    journal: Option<std::fs::File>,
}

/// The journal of a folder of pages: a line `name<TAB>source` per page, appended once the
/// page's bytes are in a temporary file and before the file takes its name, so that every
/// file of the folder is in it and an interrupted run can go on ([`PageSink::resume_folder`]).
pub const PAGES_JOURNAL: &str = ".chaff-pages";

/// The pages an interrupted run wrote, by source, as [`PageSink::resume_folder`] found them.
#[derive(Debug, Default)]
pub struct Written(std::collections::HashMap<String, usize>);

impl Written {
    /// Whether a page of this source was written (each written page answers yes once, so
    /// that a source read twice is skipped only as often as it was written).
    pub fn take(&mut self, source: &str) -> bool {
        match self.0.get_mut(source) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
}

impl<W: Write> PageSink<W> {
    /// Pages into files of `dir` (created if missing); `stream` gets records only
    /// ([`PageSink::record_only`]).
    pub fn folder(dir: &Path, stream: W) -> Result<Self, CorpusError> {
        Ok(PageSink::resume(dir, stream, false)?.0)
    }

    /// [`PageSink::folder`] going on with an interrupted run into `dir`: the pages its
    /// journal names whose files are there are kept (their names stay taken), and returned
    /// so that they are not extracted again; temporary files of a write cut short are
    /// removed.
    pub fn resume_folder(dir: &Path, stream: W) -> Result<(Self, Written), CorpusError> {
        PageSink::resume(dir, stream, true)
    }

    /// [`PageSink::resume_folder`] when `keep` is set, else [`PageSink::folder`] (and no
    /// page written before).
    pub fn into_folder(dir: &Path, stream: W, keep: bool) -> Result<(Self, Written), CorpusError> {
        PageSink::resume(dir, stream, keep)
    }

    fn resume(dir: &Path, stream: W, keep: bool) -> Result<(Self, Written), CorpusError> {
        let fail = |source| CorpusError::Write {
            target: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(fail)?;
        let mut sink = PageSink::stream(stream, "standard output");
        let mut written = Written::default();
        let journal = dir.join(PAGES_JOURNAL);
        let mut kept = String::new();
        if keep {
            let old = match std::fs::read_to_string(&journal) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
                read => read.map_err(|source| CorpusError::Unreadable {
                    path: journal.clone(),
                    source,
                })?,
            };
            // A line without its newline was cut short: its page is written again. A name
            // is a plain file name, as [`OutputNames`] makes them; anything else is ignored.
            for line in old.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
                let Some((name, source)) = line.trim_end_matches('\n').split_once('\t') else {
                    continue;
                };
                let plain = !name.starts_with('.') && !name.contains(['/', '\\']);
                if plain && dir.join(name).is_file() {
                    sink.names.reserve(name);
                    *written.0.entry(source.to_string()).or_default() += 1;
                    kept.push_str(line);
                }
            }
            for entry in std::fs::read_dir(dir).map_err(fail)?.flatten() {
                if entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".chaff-tmp-")
                {
                    std::fs::remove_file(entry.path()).map_err(fail)?;
                }
            }
        }
        atomic_write(&journal, kept.as_bytes())?;
        let file = std::fs::OpenOptions::new().append(true).open(&journal);
        sink.journal = Some(file.map_err(fail)?);
        sink.dir = Some(dir.to_path_buf());
        Ok((sink, written))
    }

    /// Pages onto a stream named `name` in errors.
    pub fn stream(out: W, name: &str) -> Self {
        PageSink {
            dir: None,
            names: OutputNames::new(),
            stream: JsonlWriter::new(out, name),
            single: None,
            pages: 0,
            journal: None,
        }
    }

    /// Whether pages go into files.
    pub fn is_folder(&self) -> bool {
        self.dir.is_some()
    }

    /// One page: its `content` into a file named after it with extension `ext`; on the
    /// stream, its `record`, or, when it is the run's only page (`alone`), its `content`,
    /// held until [`PageSink::finish`].
    pub fn page(
        &mut self,
        page: &Page,
        ext: &str,
        alone: bool,
        content: impl FnOnce() -> String,
        record: impl FnOnce() -> serde_json::Value,
    ) -> Result<WriteOutcome, CorpusError> {
        self.pages += 1;
        if let Some(dir) = &self.dir {
            let name = self.names.name(page, self.pages - 1, ext);
            let line = format!("{name}\t{}\n", page.source.replace(['\t', '\n'], " "));
            let journal = self.journal.as_mut();
            atomic_write_then(dir.join(name), content().as_bytes(), || match journal {
                Some(j) => j.write_all(line.as_bytes()).and_then(|()| j.flush()),
                None => Ok(()),
            })?;
            Ok(WriteOutcome::Written)
        } else if alone {
            self.single = Some(content());
            Ok(WriteOutcome::Written)
        } else {
            self.stream.write(&record())
        }
    }

    /// A record that stands for a page without its content (a duplicate of another): on
    /// the stream only; a folder gets no file for it.
    pub fn record_only(&mut self, record: &serde_json::Value) -> Result<WriteOutcome, CorpusError> {
        self.pages += 1;
        if self.dir.is_some() {
            return Ok(WriteOutcome::Written);
        }
        self.stream.write(record)
    }

    /// Writes what was held and flushes.
    pub fn finish(mut self) -> Result<WriteOutcome, CorpusError> {
        if let Some(text) = self.single.take() {
            self.stream.write_text(&text)?;
        }
        self.stream.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Media;

    fn page(url: Option<&str>, source: &str) -> Page {
        Page {
            source: source.into(),
            url: url.map(Into::into),
            bytes: Vec::new(),
            charset: None,
            folder: None,
            media: Media::Html,
        }
    }

    fn assert_safe(name: &str) {
        assert!(!name.is_empty());
        assert!(
            name.len() <= MAX_OUTPUT_NAME,
            "{name} is {} bytes",
            name.len()
        );
        assert!(!name.starts_with('.') && !name.starts_with('-'), "{name}");
        assert!(!name.contains(".."), "{name}");
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
            "{name}"
        );
    }

    #[test]
    fn names_from_urls() {
        let n = |u: &str| output_name(&page(Some(u), "x"), 7, "html");
        assert_eq!(
            n("https://ex.com/news/2024/story.html"),
            "news_2024_story.html"
        );
        assert_eq!(n("https://ex.com/"), "index.html");
        assert_eq!(n("https://ex.com/a?id=1"), "a-7.html");
        assert_eq!(n("https://ex.com/caf%C3%A9/men%C3%BC"), "caf_men.html");
    }

    #[test]
    fn hostile_urls() {
        let long = format!("https://ex.com/{}", "a".repeat(5000));
        let hostile = [
            "http://ex.com/../../etc/passwd",
            "http://ex.com/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "http://ex.com/..%2f..%2f.ssh/id_rsa",
            "http://ex.com/.hidden",
            "http://ex.com/-rf",
            "http://ex.com/%00%0a%0d",
            "http://ex.com/CON",
            "http://ex.com/日本語/ページ",
            "http://ex.com/a/..../b",
            long.as_str(),
            "",
            "not a url at all/../..",
        ];
        for (i, url) in hostile.iter().enumerate() {
            for source in ["../../etc/passwd", "", "..", "/", "x.warc.gz#12+3"] {
                let name = output_name(&page(Some(url), source), i, "html");
                assert_safe(&name);
                assert!(name.ends_with(".html"), "{name}");
            }
        }
        assert_eq!(
            output_name(&page(Some("http://ex.com/CON"), "x"), 0, "txt"),
            "_CON.txt"
        );
        let long_name = output_name(&page(Some(&long), "x"), 3, "html");
        assert!(long_name.ends_with("-3.html"), "{long_name}");
    }

    #[test]
    fn names_from_sources() {
        let n = |s: &str, i| output_name(&page(None, s), i, ".html");
        assert_eq!(n("data/site/T12.html.gz", 0), "T12.html");
        assert_eq!(n("crawl.warc.gz#1234", 0), "crawl-1234.html");
        assert_eq!(n("stdin:17", 0), "stdin_17.html");
        assert_eq!(n("../../etc/passwd", 0), "passwd.html");
        assert_eq!(n("", 4), "page-4.html");
        assert_eq!(n("/", 5), "page-5.html");
        assert_eq!(n("..", 6), "page-6.html");
        assert_safe(&n(&"é".repeat(300), 1));
        assert_eq!(output_name(&page(None, "a.html"), 0, "../../x"), "a.x");
    }

    #[test]
    fn unique_names() {
        let mut names = OutputNames::new();
        let a = names.name(&page(None, "a/index.html"), 0, "html");
        let b = names.name(&page(None, "b/index.html"), 1, "html");
        let c = names.name(&page(None, "c/INDEX.html"), 2, "html");
        assert_eq!(a, "index.html");
        assert_eq!(b, "index-1.html");
        assert_eq!(c, "INDEX-2.html");
        let d = names.name(&page(None, "index-1.html"), 1, "html");
        assert_eq!(d, "index-1-1.html");
        let e = names.name(&page(None, "x/index.html"), 1, "html");
        assert_eq!(e, "index-1-2.html");
        for n in [&a, &b, &c, &d] {
            assert_safe(n);
        }
    }

    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn jsonl_writer() {
        let mut w = JsonlWriter::new(Vec::new(), "buffer");
        assert_eq!(
            w.write(&serde_json::json!({"a": 1})).unwrap(),
            WriteOutcome::Written
        );
        assert_eq!(w.write(&[1, 2]).unwrap(), WriteOutcome::Written);
        assert_eq!(w.into_inner(), b"{\"a\":1}\n[1,2]\n");

        let mut w = JsonlWriter::new(Broken, "standard output");
        assert_eq!(w.write(&1).unwrap(), WriteOutcome::Closed);
        assert!(w.is_closed());
        assert_eq!(w.write(&2).unwrap(), WriteOutcome::Closed);
        assert_eq!(w.flush().unwrap(), WriteOutcome::Closed);

        let mut w = JsonlWriter::new(Full, "out.jsonl");
        let err = w.write(&1).unwrap_err();
        assert_eq!(err.to_string(), "cannot write out.jsonl: disk full");
    }
}
