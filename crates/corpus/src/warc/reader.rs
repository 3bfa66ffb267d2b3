//! Pages out of WARC files.
//!
//! fastwarc splits the archive into records; everything above the record
//! layer (which records are pages, HTTP parsing, codings, charsets) is ours.
//! A page is a `response` record with a successful (2xx) HTTP status and an
//! HTML payload, or a `resource` record with an HTML content type. Other
//! records are skipped silently: they are not pages, and not errors.
//!
//! A record is trusted once what follows it is a record boundary: its closing
//! blank line (`\r\n\r\n`, or `\n\n`) then the next record's `WARC/1.x`
//! header or the end of the file (for gzip WARCs, its member also decompressed
//! with a good checksum). When garbage follows the closing blank line, the
//! record's `WARC-Block-Digest` (SHA-1), if it has one, decides whether the
//! record or the garbage is damaged (a `Content-Length` too long can end at a
//! blank line of a later record). So a record whose `Content-Length` lies,
//! whose gzip member is corrupt, or which is cut short, yields no page; the one
//! case left is a `Content-Length` that ends exactly at a later record's
//! closing blank line, which only checking every block's digest would catch.
//!
//! Damage (a truncated file, a corrupt gzip member, an unparsable header, a
//! `Content-Length` that does not end at a record boundary) yields one
//! [`CorpusError::WarcDamaged`] naming the file, the byte offset of the
//! damaged record (for gzip, of its member) or of the garbage, and where
//! reading resumes. The reader then scans forward from just past the damaged
//! record for the next record start and goes on from there:
//!
//! - gzip WARCs written one member per record (the Common Crawl layout): the
//!   next gzip member header (`1f 8b 08`) whose first decoded bytes are a
//!   `WARC/1.0` or `WARC/1.1` line (each candidate decodes at most
//!   [`GZIP_PROBE`](super::stream::GZIP_PROBE) = 1 KiB);
//! - plain WARCs: the next `WARC/1.0` or `WARC/1.1` line (with CRLF) at a line
//!   start.
//!
//! The scan reads forward only and keeps no more than its read buffer, so
//! crossing 1 GB of garbage is linear and takes no memory for it. To start
//! just past a record whose `Content-Length` lied (the parser has then read
//! over the records after it), the bytes of the record being read are kept,
//! up to [`REWIND_LIMIT`](super::stream::REWIND_LIMIT) = 16 MiB; when more
//! than that lies between the damaged record and the point where the damage
//! was noticed, the scan starts at that point instead. A file cut short gives
//! one error and nothing more (no record starts after the damage); a WARC
//! gzipped whole (one member for many records) cannot resume after damage in
//! its member, and the message says so. Page sources after a resync are still
//! true file offsets. In a plain WARC, bytes changed inside a record's payload
//! cannot be noticed (its block digest is checked only in the case above).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use fastwarc::warc::header::WarcHeader;
use fastwarc::warc::iter::{ArchiveIteratorOptions, ArchiveIteratorThreadSafe};
use fastwarc::warc::record::{SharedWarcRecord, WarcRecord, WarcRecordType};
use sha1::{Digest, Sha1};

use super::stream::{self, ArchiveStream, Raw, RawSlot, StreamMap};
use crate::error::{CorpusError, WarcResume};
use crate::http::{self, HttpResponse};
use crate::input::{DEFAULT_MAX_PAGE_BYTES, Media, Page};

/// Room for the HTTP head on top of the page cap when reading a record.
const HEAD_ALLOWANCE: u64 = 1 << 20;

type Item = Result<Page, CorpusError>;
type Headers = Vec<(String, String)>;

/// A streaming iterator over the HTML pages of one WARC file (plain or
/// gzip, one member per record or one for all).
///
/// Page sources read `path#offset`, the file offset of the record (for gzip
/// files, of its gzip member; `member+inner` when several records share one).
pub struct WarcPages {
    path: PathBuf,
    folder: Option<PathBuf>,
    /// `None` once the file is done or while resynchronising.
    records: Option<ArchiveIteratorThreadSafe>,
    map: Arc<StreamMap>,
    /// Where the stream leaves the file's reader when it is dropped.
    slot: RawSlot,
    /// File offset from which the reader keeps bytes for a rewind.
    mark: Arc<AtomicU64>,
    max_page_bytes: u64,
    done: bool,
    /// The HTTP headers of the page last yielded.
    headers: Headers,
    /// The last record read, held back until what follows it is known to be
    /// a record boundary.
    held: Option<Held>,
    /// Items ready to yield, with their headers.
    ready: VecDeque<(Item, Headers)>,
    /// Largest the read buffer has been, in bytes.
    peak_buffer: usize,
}

/// A record read whole, not yet trusted.
struct Held {
    item: Option<Item>,
    /// How to check the record's `WARC-Block-Digest` (SHA-1) when what follows
    /// the record is in doubt.
    digest: Option<DigestCheck>,
    headers: Headers,
    /// Offset text of the record (as in page sources).
    offset: String,
    /// File offset of the record, or of its gzip member.
    unit: u64,
}

/// A record's `WARC-Block-Digest`, checked only when needed.
enum DigestCheck {
    /// The expected digest and the block.
    Block(String, Vec<u8>),
    /// The expected digest of the held page's bytes (a `resource` record's block).
    Page(String),
    /// Checked while reading the block (records that are not pages, whose
    /// blocks are not kept).
    Checked(bool),
}

/// What one record turned into.
enum Outcome {
    Held(Held),
    Damaged {
        offset: String,
        unit: u64,
        detail: String,
    },
}

fn iterator(stream: ArchiveStream) -> ArchiveIteratorThreadSafe {
    let options = ArchiveIteratorOptions {
        stream_detect: false,
        parse_http: false,
        ..ArchiveIteratorOptions::default()
    };
    ArchiveIteratorThreadSafe::with_options(stream, options)
}

impl WarcPages {
    /// Opens a WARC file; pages are capped at the default size.
    pub fn open(path: &Path) -> Result<Self, CorpusError> {
        let file = std::fs::File::open(path).map_err(|source| CorpusError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_reader(Box::new(file), path.to_path_buf())
    }

    /// Reads a WARC stream from any reader; `name` is used in page sources
    /// and messages.
    pub fn from_reader(reader: Box<dyn Read + Send>, name: PathBuf) -> Result<Self, CorpusError> {
        let mark = Arc::new(AtomicU64::new(0));
        let slot: RawSlot = Arc::new(Mutex::new(None));
        let raw = Raw::new(reader, Arc::clone(&mark));
        let (stream, map) = ArchiveStream::new(raw, Arc::clone(&slot)).map_err(|source| {
            CorpusError::Unreadable {
                path: name.clone(),
                source,
            }
        })?;
        Ok(WarcPages {
            folder: name.parent().map(Path::to_path_buf),
            path: name,
            records: Some(iterator(stream)),
            map,
            slot,
            mark,
            max_page_bytes: DEFAULT_MAX_PAGE_BYTES,
            done: false,
            headers: Vec::new(),
            held: None,
            ready: VecDeque::new(),
            peak_buffer: 0,
        })
    }

    /// Sets the largest page (decoded payload) accepted, in bytes.
    pub fn with_max_page_bytes(mut self, max: u64) -> Self {
        self.max_page_bytes = max;
        self
    }

    /// Sets the folder recorded in each page (default: the file's folder).
    pub fn with_folder(mut self, folder: Option<PathBuf>) -> Self {
        self.folder = folder;
        self
    }

    /// Takes the headers of the page last yielded: a `response` record's HTTP headers in
    /// order, names as written; a `resource` record's `Content-Type` when it has one. Empty
    /// before the first page, after an error item and when taken twice.
    pub fn take_headers(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.headers)
    }

    /// The largest the file's read buffer has been so far, in bytes, as of the
    /// last resynchronisation (for checking that scanning stays bounded).
    pub fn peak_buffer_bytes(&self) -> usize {
        self.peak_buffer
    }

    /// The held record is trusted: queue what it gave.
    fn release(&mut self) {
        if let Some(held) = self.held.take()
            && let Some(item) = held.item
        {
            self.ready.push_back((item, held.headers));
        }
    }

    /// Reads the next record (or meets damage) and queues what comes of it.
    fn step(&mut self) {
        let Some(records) = self.records.as_mut() else {
            self.release();
            self.done = true;
            return;
        };
        // fastwarc is a third-party parser fed with untrusted bytes: a panic
        // in it is turned into damage of this one record, not of the run.
        let next = catch_unwind(AssertUnwindSafe(|| records.next()));
        let record = match next {
            Ok(None) => {
                if self.held.is_some() && !self.map.separator_ok() {
                    let detail = "the file ends before the record's closing blank line \
                                  (file truncated, or a wrong Content-Length)";
                    return self.blame_held(detail.into());
                }
                self.release();
                self.records = None;
                self.done = true;
                return;
            }
            Ok(Some(Ok(record))) if self.held.is_some() && !self.map.separator_ok() => {
                // A record follows, but not after the held record's closing blank line:
                // the held record's Content-Length took some of it.
                drop(record);
                let detail = "the record's Content-Length does not end at its closing blank line";
                return self.blame_held(detail.into());
            }
            Ok(Some(Ok(record))) => record,
            Ok(Some(Err(e))) => {
                let detail = match e.to_string() {
                    m if m == "Invalid WARC header" => {
                        "no WARC/1.0 or WARC/1.1 record starts here".into()
                    }
                    m => m,
                };
                return self.parser_broke(detail);
            }
            Err(_) => return self.parser_broke("the WARC parser failed on malformed data".into()),
        };
        // A record header follows the held record: it ended where it said.
        self.release();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            record.with_mut(|r| {
                let unit = self.map.unit(r.stream_pos());
                self.mark.store(unit, Ordering::Relaxed);
                self.take_record(r, unit)
            })
        }));
        drop(record);
        match outcome {
            Ok(Outcome::Held(held)) => self.held = Some(held),
            Ok(Outcome::Damaged {
                offset,
                unit,
                detail,
            }) => self.recover(offset, unit, detail),
            Err(_) => {
                let (offset, unit) = self.map.damage();
                self.recover(
                    offset,
                    unit,
                    "the WARC parser failed on malformed data".into(),
                );
            }
        }
    }

    /// The parser could not read on after the held record: decides whether
    /// the held record or what follows it is to blame, then resynchronises.
    fn parser_broke(&mut self, detail: String) {
        if let Some(member) = self.map.failed_member() {
            // A record in the corrupt member is not trusted.
            if self.held.as_ref().is_some_and(|h| h.unit < member) {
                self.release();
            }
            self.held = None;
            return self.recover(member.to_string(), member, detail);
        }
        match self.held.take() {
            Some(held) if !self.map.separator_ok() => {
                // The held record's block did not end at a record boundary:
                // its Content-Length lied, and its page would be wrong.
                self.held = Some(held);
                let detail = "the record's Content-Length does not end at a record boundary";
                self.blame_held(detail.into());
            }
            held => {
                // Garbage after the held record's closing blank line: the garbage is
                // the damage, unless the record's Content-Length ran over what followed
                // it and happened to end at a blank line (its digest, when it has one,
                // tells).
                if held.as_ref().is_some_and(|h| !digest_matches(h)) {
                    self.held = held;
                    let detail = "the record's block does not match its WARC-Block-Digest";
                    return self.blame_held(detail.into());
                }
                self.held = held;
                self.release();
                let (offset, unit) = self.map.damage();
                self.recover(offset, unit, detail);
            }
        }
    }

    /// The held record is damaged: drops it and resynchronises after it.
    fn blame_held(&mut self, detail: String) {
        match self.held.take() {
            Some(held) => self.recover(held.offset, held.unit, detail),
            None => {
                let (offset, unit) = self.map.damage();
                self.recover(offset, unit, detail);
            }
        }
    }

    /// Reports damage at `unit` and looks for the next record after it.
    fn recover(&mut self, offset: String, unit: u64, mut detail: String) {
        self.held = None;
        self.records = None; // drops the stream, which hands back the reader
        let gzip = self.map.gzip();
        let resume = match stream::take_raw(&self.slot) {
            None => WarcResume::Nothing,
            Some(mut raw) => {
                let found = stream::resync(&mut raw, gzip, unit.saturating_add(1));
                self.peak_buffer = self.peak_buffer.max(raw.peak());
                match found {
                    Ok(Some(at)) => {
                        let (stream, map) =
                            ArchiveStream::resume(raw, gzip, Arc::clone(&self.slot));
                        self.records = Some(iterator(stream));
                        self.map = map;
                        WarcResume::At(at)
                    }
                    Ok(None) if gzip && self.map.shared_member() => WarcResume::WholeGzip,
                    Ok(None) => WarcResume::Nothing,
                    Err(e) => {
                        detail.push_str(&format!(" (and the file cannot be read after it: {e})"));
                        WarcResume::Nothing
                    }
                }
            }
        };
        if self.records.is_none() {
            self.done = true;
        }
        let error = CorpusError::WarcDamaged {
            path: self.path.clone(),
            offset,
            detail,
            resume,
        };
        self.ready.push_back((Err(error), Vec::new()));
    }

    /// Where damage found while reading the record at `start` is: the gzip
    /// member that failed, else the record.
    fn record_damage(&self, start: u64, unit: u64, detail: String) -> Outcome {
        let (offset, unit) = match self.map.failed_member() {
            Some(member) => (member.to_string(), member),
            None => (self.map.locate(start), unit),
        };
        Outcome::Damaged {
            offset,
            unit,
            detail,
        }
    }

    /// Reads one record whole (checking it is as long as it claims) and
    /// decides what it is.
    fn take_record(&mut self, record: &mut WarcRecord, unit: u64) -> Outcome {
        self.headers.clear();
        let start = record.stream_pos();
        let offset = self.map.locate(start);
        let source = format!("{}#{offset}", self.path.display());
        // Parsed here too: fastwarc reads a header cut mid-value as 0.
        let declared = record
            .headers()
            .get(WarcHeader::ContentLength)
            .map(|v| v.trim().parse::<u64>());
        let kind = record.record_type();
        let wanted = matches!(kind, WarcRecordType::Response | WarcRecordType::Resource);
        let keep = if wanted {
            self.max_page_bytes.saturating_add(HEAD_ALLOWANCE)
        } else {
            0
        };
        let digest = record
            .headers()
            .get(WarcHeader::WarcBlockDigest)
            .map(|d| d.trim().to_string())
            .filter(|d| d.len() > 5 && d.as_bytes()[..5].eq_ignore_ascii_case(b"sha1:"));
        // Blocks not kept are hashed as they are read (they are small: requests,
        // metadata); pages' blocks only when a check is needed.
        let mut hasher = (!wanted && digest.is_some()).then(Sha1::new);
        let Some(reader) = record.reader_mut() else {
            return self.record_damage(start, unit, "record has no content stream".into());
        };
        let (block, total) = match drain(reader, keep, hasher.as_mut()) {
            Ok(r) => r,
            Err(e) => {
                return self.record_damage(start, unit, format!("record cannot be read: {e}"));
            }
        };
        let declared = match declared {
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                let detail = "record has an unreadable Content-Length".into();
                return self.record_damage(start, unit, detail);
            }
            None => {
                let detail = "record header is incomplete (no Content-Length)".into();
                return self.record_damage(start, unit, detail);
            }
        };
        if total < declared {
            let detail = format!(
                "record declares {declared} bytes but only {total} follow (file truncated, or a wrong Content-Length)"
            );
            return self.record_damage(start, unit, detail);
        }
        self.map.record_done();
        let held = |item: Option<Item>, headers: Headers, digest: Option<DigestCheck>| {
            Outcome::Held(Held {
                item,
                digest,
                headers,
                offset: offset.clone(),
                unit,
            })
        };
        if !wanted {
            let checked = digest.zip(hasher).map(|(expected, hasher)| {
                DigestCheck::Checked(sha1_text(hasher.finalize()).eq_ignore_ascii_case(&expected))
            });
            return held(None, Vec::new(), checked);
        }
        let Some(block) = block else {
            let error = CorpusError::TooLarge {
                source_name: source,
                limit: self.max_page_bytes,
            };
            return held(Some(Err(error)), Vec::new(), None);
        };
        let url = record
            .headers()
            .get(WarcHeader::WarcTargetUri)
            .map(|u| {
                u.trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_string()
            })
            .filter(|u| !u.is_empty());
        let block_type = record
            .headers()
            .get(WarcHeader::ContentType)
            .map(|c| c.into_owned());
        // A resource page's bytes are its block; a response's block is kept for the check.
        let (page, digest) = match kind {
            WarcRecordType::Response => {
                let page = self.response_page(&block, record.is_http(), source, url);
                (page, digest.map(|d| DigestCheck::Block(d, block)))
            }
            _ => {
                if let Some(t) = &block_type {
                    self.headers.push(("Content-Type".into(), t.clone()));
                }
                let page = self.resource_page(block, block_type.as_deref(), source, url);
                let page_digest = match &page {
                    Ok(Some(_)) => digest.map(DigestCheck::Page),
                    _ => None,
                };
                (page, page_digest)
            }
        };
        let headers = std::mem::take(&mut self.headers);
        match page {
            Ok(Some(page)) => held(Some(Ok(page)), headers, digest),
            Ok(None) => held(None, Vec::new(), digest),
            Err(e) => held(Some(Err(e)), Vec::new(), digest),
        }
    }

    fn response_page(
        &mut self,
        block: &[u8],
        is_http: bool,
        source: String,
        url: Option<String>,
    ) -> Result<Option<Page>, CorpusError> {
        if !is_http && !block.starts_with(b"HTTP/") {
            return Ok(None); // e.g. dns: records
        }
        let record_error = |detail: String| CorpusError::WarcRecord {
            source_name: source.clone(),
            detail,
        };
        let response = HttpResponse::parse(block).map_err(record_error)?;
        if !(200..300).contains(&response.status) {
            return Ok(None);
        }
        let (mime, charset) = response.content_type();
        if mime.as_deref().is_some_and(|m| !http::is_html_type(m)) {
            return Ok(None);
        }
        let Some(body) = response
            .decoded_body(self.max_page_bytes)
            .map_err(record_error)?
        else {
            return Err(CorpusError::TooLarge {
                source_name: source,
                limit: self.max_page_bytes,
            });
        };
        if mime.is_none() && !http::sniff_html(&body) {
            return Ok(None);
        }
        self.headers = response.headers;
        Ok(Some(self.page(source, url, body, charset)))
    }

    fn resource_page(
        &self,
        block: Vec<u8>,
        content_type: Option<&str>,
        source: String,
        url: Option<String>,
    ) -> Result<Option<Page>, CorpusError> {
        let (mime, charset) = content_type
            .map(http::parse_content_type)
            .unwrap_or_default();
        let html = match mime {
            Some(m) => http::is_html_type(&m),
            None => http::sniff_html(&block),
        };
        if !html {
            return Ok(None);
        }
        if block.len() as u64 > self.max_page_bytes {
            return Err(CorpusError::TooLarge {
                source_name: source,
                limit: self.max_page_bytes,
            });
        }
        Ok(Some(self.page(source, url, block, charset)))
    }

    fn page(
        &self,
        source: String,
        url: Option<String>,
        bytes: Vec<u8>,
        charset: Option<String>,
    ) -> Page {
        Page {
            source,
            url,
            bytes,
            charset,
            folder: self.folder.clone(),
            media: Media::Html,
        }
    }
}

/// Whether a held record's block matches its `WARC-Block-Digest` (true without one).
fn digest_matches(held: &Held) -> bool {
    let (expected, bytes) = match (&held.digest, &held.item) {
        (None, _) => return true,
        (Some(DigestCheck::Checked(ok)), _) => return *ok,
        (Some(DigestCheck::Block(expected, block)), _) => (expected, block.as_slice()),
        (Some(DigestCheck::Page(expected)), Some(Ok(page))) => (expected, page.bytes.as_slice()),
        (Some(DigestCheck::Page(_)), _) => return true,
    };
    sha1_text(Sha1::digest(bytes)).eq_ignore_ascii_case(expected)
}

/// A SHA-1 as WARC writes it: `sha1:` and base 32.
fn sha1_text(digest: impl AsRef<[u8]>) -> String {
    format!("sha1:{}", data_encoding::BASE32.encode(digest.as_ref()))
}

/// Reads a record's block to its end, keeping at most `keep` bytes (`None`
/// if there were more), and counts every byte so truncation is noticed
/// even in records we skip.
fn drain(
    reader: &mut impl Read,
    keep: u64,
    mut hasher: Option<&mut Sha1>,
) -> io::Result<(Option<Vec<u8>>, u64)> {
    let mut kept = Vec::new();
    let mut total = 0u64;
    let mut over = false;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        if let Some(h) = hasher.as_deref_mut() {
            h.update(&buf[..n]);
        }
        if !over {
            if total <= keep {
                kept.extend_from_slice(&buf[..n]);
            } else {
                over = true;
                kept = Vec::new();
            }
        }
    }
    Ok(((!over).then_some(kept), total))
}

impl Iterator for WarcPages {
    type Item = Result<Page, CorpusError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((item, headers)) = self.ready.pop_front() {
                self.headers = headers;
                return Some(item);
            }
            if self.done {
                self.headers.clear();
                return None;
            }
            self.step();
        }
    }
}
