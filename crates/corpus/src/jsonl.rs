//! JSON Lines input: one page per line, for pipelines.
//!
//! A line is `{"url": ..., "html": ...}`, `{"url": ..., "text": ...}` (plain
//! text), or `{"path": ...}` (a file, folder or WARC to read as if named on
//! the command line; a `"url"` beside a page file becomes its URL, and is
//! ignored for folders and WARC files, whose pages have their own). A bad
//! line is one error item naming its number; the next lines are still read.

use std::io::{BufRead, Read};
use std::path::PathBuf;

use serde::Deserialize;

use crate::error::CorpusError;
use crate::input::{Media, Page};

/// What one line gave.
pub(crate) enum JsonlItem {
    Page(Page),
    Path {
        path: PathBuf,
        url: Option<String>,
        line: u64,
    },
    Error(CorpusError),
}

#[derive(Deserialize)]
struct Line {
    url: Option<String>,
    html: Option<String>,
    text: Option<String>,
    path: Option<String>,
}

/// Reads JSON Lines from any buffered reader.
pub(crate) struct JsonlSource {
    reader: Box<dyn BufRead + Send>,
    name: String,
    line: u64,
    max_page_bytes: u64,
    /// Longest line accepted: room for a page at the cap with JSON escaping.
    max_line: u64,
    done: bool,
}

impl JsonlSource {
    pub(crate) fn new(reader: Box<dyn BufRead + Send>, name: &str, max_page_bytes: u64) -> Self {
        JsonlSource {
            reader,
            name: name.to_string(),
            line: 0,
            max_page_bytes,
            max_line: max_page_bytes.saturating_mul(2).saturating_add(1 << 20),
            done: false,
        }
    }

    /// Numbers lines as if `lines` lines had been read before (blank lines
    /// consumed while telling what the stream holds).
    pub(crate) fn after_lines(mut self, lines: u64) -> Self {
        self.line = lines;
        self
    }

    fn line_error(&self, message: String) -> JsonlItem {
        JsonlItem::Error(CorpusError::JsonLine {
            source_name: self.name.clone(),
            line: self.line,
            message,
        })
    }

    /// Skips to the end of an over-long line.
    fn skip_rest_of_line(&mut self) -> std::io::Result<()> {
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
                self.reader.consume(i + 1);
                return Ok(());
            }
            let n = chunk.len();
            self.reader.consume(n);
        }
    }

    fn parse(&self, raw: &[u8]) -> Option<JsonlItem> {
        let mut raw = raw.trim_ascii();
        if self.line == 1 {
            raw = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw);
        }
        if raw.is_empty() {
            return None;
        }
        let line: Line = match serde_json::from_slice(raw) {
            Ok(line) => line,
            Err(e) => {
                return Some(self.line_error(format!(
                    "not a JSON object with \"html\", \"text\" or \"path\": {e}"
                )));
            }
        };
        let (content, media) = match (line.html, line.text, line.path) {
            (Some(html), None, None) => (html, Media::Html),
            (None, Some(text), None) => (text, Media::Text),
            (None, None, Some(path)) => {
                return Some(JsonlItem::Path {
                    path: PathBuf::from(path),
                    url: line.url,
                    line: self.line,
                });
            }
            (None, None, None) => {
                return Some(self.line_error("needs one of \"html\", \"text\" or \"path\"".into()));
            }
            _ => {
                return Some(
                    self.line_error("has more than one of \"html\", \"text\" and \"path\"".into()),
                );
            }
        };
        let source = format!("{}:{}", self.name, self.line);
        if content.len() as u64 > self.max_page_bytes {
            return Some(JsonlItem::Error(CorpusError::TooLarge {
                source_name: source,
                limit: self.max_page_bytes,
            }));
        }
        Some(JsonlItem::Page(Page {
            source,
            url: line.url.filter(|u| !u.trim().is_empty()),
            bytes: content.into_bytes(),
            charset: Some("utf-8".into()),
            folder: None,
            media,
        }))
    }
}

impl Iterator for JsonlSource {
    type Item = JsonlItem;

    fn next(&mut self) -> Option<JsonlItem> {
        let mut buf = Vec::new();
        while !self.done {
            buf.clear();
            let read = (&mut self.reader)
                .take(self.max_line.saturating_add(1))
                .read_until(b'\n', &mut buf);
            match read {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.line += 1;
                    if buf.len() as u64 > self.max_line && !buf.ends_with(b"\n") {
                        if let Err(e) = self.skip_rest_of_line() {
                            self.done = true;
                            return Some(self.read_error(e));
                        }
                        return Some(self.line_error(format!(
                            "line longer than {} bytes, skipped",
                            self.max_line
                        )));
                    }
                    if let Some(item) = self.parse(&buf) {
                        return Some(item);
                    }
                }
                Err(e) => {
                    self.done = true;
                    return Some(self.read_error(e));
                }
            }
        }
        None
    }
}

impl JsonlSource {
    fn read_error(&self, source: std::io::Error) -> JsonlItem {
        JsonlItem::Error(CorpusError::JsonRead {
            source_name: self.name.clone(),
            line: self.line,
            source,
        })
    }
}
