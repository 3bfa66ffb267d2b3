//! A minimal WARC/1.1 writer.
//!
//! Enough for the tests' fixtures and for a crawler: `warcinfo`, `request`,
//! `response`, `resource` and `metadata` records, each optionally its own
//! gzip member (the layout indexers and replay tools expect, since a record
//! can then be decompressed alone from its offset). Blocks are written as
//! given; nothing is re-encoded. Every record carries WARC-Record-ID,
//! WARC-Date, Content-Length and a SHA-1 WARC-Block-Digest; responses also
//! carry WARC-Payload-Digest.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use data_encoding::BASE32;
use flate2::Compression;
use flate2::write::GzEncoder;
use sha1::{Digest, Sha1};

/// How records are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarcCompression {
    /// Plain `.warc`.
    None,
    /// `.warc.gz`: one gzip member per record.
    Gzip,
}

/// One record to write. Build it with [`RecordSpec::new`] and the `with_`
/// methods, or use the shorthands on [`WarcWriter`].
#[derive(Debug, Clone)]
pub struct RecordSpec<'a> {
    /// `WARC-Type`: `response`, `request`, `metadata`...
    pub warc_type: &'a str,
    /// `WARC-Target-URI`, if the record is about a URI.
    pub target_uri: Option<&'a str>,
    /// `Content-Type` of the block.
    pub content_type: Option<&'a str>,
    /// The block, written as is.
    pub block: &'a [u8],
    /// `WARC-Date`; now if `None`.
    pub date: Option<SystemTime>,
    /// `WARC-Record-ID` (`<urn:uuid:...>`); a fresh random one if `None`.
    pub record_id: Option<String>,
    /// Further header fields, written after the standard ones.
    pub extra_headers: Vec<(&'a str, String)>,
}

impl<'a> RecordSpec<'a> {
    /// A record of a type with a block.
    pub fn new(warc_type: &'a str, block: &'a [u8]) -> Self {
        RecordSpec {
            warc_type,
            target_uri: None,
            content_type: None,
            block,
            date: None,
            record_id: None,
            extra_headers: Vec::new(),
        }
    }

    /// Sets `WARC-Target-URI`.
    pub fn with_target_uri(mut self, uri: &'a str) -> Self {
        self.target_uri = Some(uri);
        self
    }

    /// Sets the block's `Content-Type`.
    pub fn with_content_type(mut self, content_type: &'a str) -> Self {
        self.content_type = Some(content_type);
        self
    }

    /// Sets `WARC-Date`.
    pub fn with_date(mut self, date: SystemTime) -> Self {
        self.date = Some(date);
        self
    }

    /// Sets `WARC-Record-ID` (written as given, so include `<urn:...>`).
    pub fn with_record_id(mut self, id: impl Into<String>) -> Self {
        self.record_id = Some(id.into());
        self
    }

    /// Adds a header field.
    pub fn with_header(mut self, name: &'a str, value: impl Into<String>) -> Self {
        self.extra_headers.push((name, value.into()));
        self
    }
}

/// Where a record went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenRecord {
    /// Byte offset of the record (its gzip member) in the output.
    pub offset: u64,
    /// Bytes written for it.
    pub length: u64,
    /// Its `WARC-Record-ID`, to refer to it (`WARC-Concurrent-To`).
    pub record_id: String,
}

/// Writes WARC/1.1 records to any `Write`.
#[derive(Debug)]
pub struct WarcWriter<W: Write> {
    out: W,
    compression: WarcCompression,
    offset: u64,
}

impl<W: Write> WarcWriter<W> {
    /// A writer starting at offset 0.
    pub fn new(out: W, compression: WarcCompression) -> Self {
        Self::starting_at(out, compression, 0)
    }

    /// A writer whose output already holds `offset` bytes (appending to a
    /// file), so reported offsets are file offsets.
    pub fn starting_at(out: W, compression: WarcCompression, offset: u64) -> Self {
        WarcWriter {
            out,
            compression,
            offset,
        }
    }

    /// Bytes written so far (plus the starting offset).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Writes one record.
    pub fn write_record(&mut self, spec: &RecordSpec<'_>) -> io::Result<WrittenRecord> {
        let record_id = spec
            .record_id
            .clone()
            .unwrap_or_else(|| format!("<urn:uuid:{}>", uuid::Uuid::new_v4()));
        let date = format_warc_date(spec.date.unwrap_or_else(SystemTime::now));
        let mut head = String::from("WARC/1.1\r\n");
        push_field(&mut head, "WARC-Type", spec.warc_type)?;
        push_field(&mut head, "WARC-Record-ID", &record_id)?;
        push_field(&mut head, "WARC-Date", &date)?;
        if let Some(uri) = spec.target_uri {
            if uri.is_empty() || uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(invalid(format!("WARC-Target-URI '{uri}' is not a URI")));
            }
            push_field(&mut head, "WARC-Target-URI", uri)?;
        }
        for (name, value) in &spec.extra_headers {
            push_field(&mut head, name, value)?;
        }
        push_field(&mut head, "WARC-Block-Digest", &sha1_digest(spec.block))?;
        if let Some(ct) = spec.content_type {
            push_field(&mut head, "Content-Type", ct)?;
        }
        push_field(&mut head, "Content-Length", &spec.block.len().to_string())?;
        head.push_str("\r\n");

        let mut record = Vec::with_capacity(head.len() + spec.block.len() + 4);
        record.extend_from_slice(head.as_bytes());
        record.extend_from_slice(spec.block);
        record.extend_from_slice(b"\r\n\r\n");
        let bytes = match self.compression {
            WarcCompression::None => record,
            WarcCompression::Gzip => {
                let mut enc = GzEncoder::new(Vec::new(), Compression::default());
                enc.write_all(&record)?;
                enc.finish()?
            }
        };
        self.out.write_all(&bytes)?;
        let written = WrittenRecord {
            offset: self.offset,
            length: bytes.len() as u64,
            record_id,
        };
        self.offset += bytes.len() as u64;
        Ok(written)
    }

    /// A `warcinfo` record describing the file, from `name: value` fields.
    pub fn write_warcinfo(
        &mut self,
        filename: Option<&str>,
        fields: &[(&str, &str)],
    ) -> io::Result<WrittenRecord> {
        let block = warc_fields(fields)?;
        let mut spec =
            RecordSpec::new("warcinfo", &block).with_content_type("application/warc-fields");
        if let Some(name) = filename {
            spec = spec.with_header("WARC-Filename", name);
        }
        self.write_record(&spec)
    }

    /// A `request` record holding a whole HTTP request message.
    pub fn write_request(
        &mut self,
        target_uri: &str,
        http_request: &[u8],
        concurrent_to: Option<&str>,
    ) -> io::Result<WrittenRecord> {
        let mut spec = RecordSpec::new("request", http_request)
            .with_target_uri(target_uri)
            .with_content_type("application/http;msgtype=request");
        if let Some(id) = concurrent_to {
            spec = spec.with_header("WARC-Concurrent-To", id);
        }
        self.write_record(&spec)
    }

    /// A `response` record holding a whole HTTP response message (status
    /// line, headers, blank line, payload as received).
    pub fn write_response(
        &mut self,
        target_uri: &str,
        http_response: &[u8],
    ) -> io::Result<WrittenRecord> {
        let mut spec = RecordSpec::new("response", http_response)
            .with_target_uri(target_uri)
            .with_content_type("application/http;msgtype=response");
        if let Some(payload) = http_payload(http_response) {
            spec = spec.with_header("WARC-Payload-Digest", sha1_digest(payload));
        }
        self.write_record(&spec)
    }

    /// A `resource` record: a document without HTTP framing.
    pub fn write_resource(
        &mut self,
        target_uri: &str,
        content_type: &str,
        block: &[u8],
    ) -> io::Result<WrittenRecord> {
        let spec = RecordSpec::new("resource", block)
            .with_target_uri(target_uri)
            .with_content_type(content_type);
        self.write_record(&spec)
    }

    /// A `metadata` record about `target_uri`, from `name: value` fields.
    pub fn write_metadata(
        &mut self,
        target_uri: &str,
        concurrent_to: Option<&str>,
        fields: &[(&str, &str)],
    ) -> io::Result<WrittenRecord> {
        let block = warc_fields(fields)?;
        let mut spec = RecordSpec::new("metadata", &block)
            .with_target_uri(target_uri)
            .with_content_type("application/warc-fields");
        if let Some(id) = concurrent_to {
            spec = spec.with_header("WARC-Concurrent-To", id);
        }
        self.write_record(&spec)
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Gives the output back (flushed).
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Appends `name: value`, refusing anything that would break the header.
fn push_field(head: &mut String, name: &str, value: &str) -> io::Result<()> {
    if name.is_empty() || name.bytes().any(|b| b <= b' ' || b == b':' || b >= 0x7f) {
        return Err(invalid(format!("bad WARC header name '{name}'")));
    }
    if value.contains(['\r', '\n']) {
        return Err(invalid(format!("WARC header {name} contains a line break")));
    }
    head.push_str(name);
    head.push_str(": ");
    head.push_str(value);
    head.push_str("\r\n");
    Ok(())
}

/// `application/warc-fields` block.
fn warc_fields(fields: &[(&str, &str)]) -> io::Result<Vec<u8>> {
    let mut block = String::new();
    for (name, value) in fields {
        push_field(&mut block, name, value)?;
    }
    Ok(block.into_bytes())
}

fn sha1_digest(bytes: &[u8]) -> String {
    format!("sha1:{}", BASE32.encode(&Sha1::digest(bytes)))
}

/// The payload of an HTTP message: what follows the first blank line.
fn http_payload(message: &[u8]) -> Option<&[u8]> {
    message
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| &message[i + 4..])
}

/// `2024-05-06T07:08:09Z`, the WARC-Date form (UTC, second precision).
pub fn format_warc_date(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01, using 400-year
/// eras of 146 097 days so that leap rules fall out of the arithmetic.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // shift the epoch to 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..=146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // year of era
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1st
    let mp = (5 * doy + 2) / 153; // month from March = 0
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        let at = |s: u64| format_warc_date(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn record_layout() {
        let mut w = WarcWriter::new(Vec::new(), WarcCompression::None);
        let spec = RecordSpec::new("resource", b"abc")
            .with_target_uri("http://example.com/")
            .with_content_type("text/html")
            .with_record_id("<urn:uuid:00000000-0000-4000-8000-000000000000>")
            .with_date(UNIX_EPOCH);
        let rec = w.write_record(&spec).unwrap();
        let out = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(rec.offset, 0);
        assert_eq!(rec.length, out.len() as u64);
        assert!(out.starts_with("WARC/1.1\r\nWARC-Type: resource\r\n"));
        assert!(out.contains("\r\nWARC-Date: 1970-01-01T00:00:00Z\r\n"));
        assert!(out.contains("\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"));
        assert!(out.contains("WARC-Block-Digest: sha1:"));
    }

    #[test]
    fn refuses_header_injection() {
        let mut w = WarcWriter::new(Vec::new(), WarcCompression::None);
        assert!(
            w.write_response("http://x/\r\nWARC-Type: evil", b"HTTP/1.1 200 OK\r\n\r\n")
                .is_err()
        );
        assert!(
            w.write_metadata("http://x/", None, &[("a", "b\nc")])
                .is_err()
        );
        assert!(
            w.write_record(&RecordSpec::new("resource", b"").with_header("Bad Name", "x"))
                .is_err()
        );
    }

    #[test]
    fn random_ids_differ() {
        let mut w = WarcWriter::new(Vec::new(), WarcCompression::Gzip);
        let a = w
            .write_request("http://x/", b"GET / HTTP/1.1\r\n\r\n", None)
            .unwrap();
        let b = w
            .write_response("http://x/", b"HTTP/1.1 200 OK\r\n\r\n")
            .unwrap();
        assert_ne!(a.record_id, b.record_id);
        assert!(a.record_id.starts_with("<urn:uuid:"));
        assert_eq!(b.offset, a.length);
    }
}
