//! Pages out of WARC files.
//!
//! fastwarc splits the archive into records; everything above the record
//! layer (which records are pages, HTTP parsing, codings, charsets) is ours.
//! A page is a `response` record with a successful (2xx) HTTP status and an
//! HTML payload, or a `resource` record with an HTML content type. Other
//! records are skipped silently: they are not pages, and not errors.
//!
//! Damage (a truncated file, a corrupt gzip member, an unparsable header)
//! yields every record before it, then one [`CorpusError::WarcDamaged`]
//! naming the file and byte offset, then nothing: past damage, record
//! boundaries cannot be trusted.

use std::fs::File;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fastwarc::warc::header::WarcHeader;
use fastwarc::warc::iter::{ArchiveIteratorOptions, ArchiveIteratorThreadSafe};
use fastwarc::warc::record::{SharedWarcRecord, WarcRecord, WarcRecordType};

use super::stream::{ArchiveStream, StreamMap};
use crate::error::CorpusError;
use crate::http::{self, HttpResponse};
use crate::input::{DEFAULT_MAX_PAGE_BYTES, Media, Page};

/// Room for the HTTP head on top of the page cap when reading a record.
const HEAD_ALLOWANCE: u64 = 1 << 20;

/// A streaming iterator over the HTML pages of one WARC file (plain or
/// gzip, one member per record or one for all).
///
/// Page sources read `path#offset`, the file offset of the record (for gzip
/// files, of its gzip member; `member+inner` when several records share one).
pub struct WarcPages {
    path: PathBuf,
    folder: Option<PathBuf>,
    records: ArchiveIteratorThreadSafe,
    map: Arc<StreamMap>,
    max_page_bytes: u64,
    done: bool,
    /// The HTTP headers of the page last yielded.
    headers: Vec<(String, String)>,
}

/// What one record turned into.
enum Outcome {
    Page(Page),
    Skip,
    Error(CorpusError),
    Damaged { offset: String, detail: String },
}

impl WarcPages {
    /// Opens a WARC file; pages are capped at the default size.
    pub fn open(path: &Path) -> Result<Self, CorpusError> {
        let file = File::open(path).map_err(|source| CorpusError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_reader(Box::new(file), path.to_path_buf())
    }

    /// Reads a WARC stream from any reader; `name` is used in page sources
    /// and messages.
    pub fn from_reader(reader: Box<dyn Read + Send>, name: PathBuf) -> Result<Self, CorpusError> {
        let (stream, map) =
            ArchiveStream::new(reader).map_err(|source| CorpusError::Unreadable {
                path: name.clone(),
                source,
            })?;
        let options = ArchiveIteratorOptions {
            stream_detect: false,
            parse_http: false,
            ..ArchiveIteratorOptions::default()
        };
        Ok(WarcPages {
            folder: name.parent().map(Path::to_path_buf),
            path: name,
            records: ArchiveIteratorThreadSafe::with_options(stream, options),
            map,
            max_page_bytes: DEFAULT_MAX_PAGE_BYTES,
            done: false,
            headers: Vec::new(),
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

    fn damaged(&mut self, offset: String, detail: String) -> Option<Result<Page, CorpusError>> {
        self.done = true;
        Some(Err(CorpusError::WarcDamaged {
            path: self.path.clone(),
            offset,
            detail,
        }))
    }

    /// Reads one record whole (checking it is as long as it claims) and
    /// decides what it is.
    fn take_record(&mut self, record: &mut WarcRecord) -> Outcome {
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
        let Some(reader) = record.reader_mut() else {
            return Outcome::Damaged {
                offset,
                detail: "record has no content stream".into(),
            };
        };
        let (block, total) = match drain(reader, keep) {
            Ok(r) => r,
            Err(e) => {
                return Outcome::Damaged {
                    offset,
                    detail: format!("record cannot be read: {e}"),
                };
            }
        };
        let declared = match declared {
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                return Outcome::Damaged {
                    offset,
                    detail: "record has an unreadable Content-Length".into(),
                };
            }
            None => {
                return Outcome::Damaged {
                    offset,
                    detail: "record header is incomplete (no Content-Length)".into(),
                };
            }
        };
        if total < declared {
            return Outcome::Damaged {
                offset,
                detail: format!(
                    "record declares {declared} bytes but only {total} are present (file truncated?)"
                ),
            };
        }
        self.map.record_done();
        if !wanted {
            return Outcome::Skip;
        }
        let Some(block) = block else {
            return Outcome::Error(CorpusError::TooLarge {
                source_name: source,
                limit: self.max_page_bytes,
            });
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
        let page = match kind {
            WarcRecordType::Response => self.response_page(&block, record.is_http(), source, url),
            _ => {
                if let Some(t) = &block_type {
                    self.headers.push(("Content-Type".into(), t.clone()));
                }
                self.resource_page(block, block_type.as_deref(), source, url)
            }
        };
        match page {
            Ok(Some(page)) => Outcome::Page(page),
            Ok(None) => Outcome::Skip,
            Err(e) => Outcome::Error(e),
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

/// Reads a record's block to its end, keeping at most `keep` bytes (`None`
/// if there were more), and counts every byte so truncation is noticed
/// even in records we skip.
fn drain(reader: &mut impl Read, keep: u64) -> io::Result<(Option<Vec<u8>>, u64)> {
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
        while !self.done {
            // fastwarc is a third-party parser fed with untrusted bytes: a panic
            // in it is turned into damage of this one file, not of the run.
            let next = catch_unwind(AssertUnwindSafe(|| self.records.next()));
            let record = match next {
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Ok(Some(Ok(record))) => record,
                Ok(Some(Err(e))) => {
                    let offset = self.map.damage_offset();
                    let detail = match e.to_string() {
                        m if m == "Invalid WARC header" => {
                            "no WARC/1.0 or WARC/1.1 record starts here".into()
                        }
                        m => m,
                    };
                    return self.damaged(offset, detail);
                }
                Err(_) => {
                    let offset = self.map.damage_offset();
                    return self.damaged(offset, "the WARC parser failed on malformed data".into());
                }
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                record.with_mut(|r| self.take_record(r))
            }));
            match outcome {
                Ok(Outcome::Page(page)) => return Some(Ok(page)),
                Ok(Outcome::Skip) => {}
                Ok(Outcome::Error(e)) => return Some(Err(e)),
                Ok(Outcome::Damaged { offset, detail }) => return self.damaged(offset, detail),
                Err(_) => {
                    let offset = self.map.damage_offset();
                    return self.damaged(offset, "the WARC parser failed on malformed data".into());
                }
            }
        }
        None
    }
}
