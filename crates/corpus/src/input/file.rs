//! One file: is it a page or a WARC archive, and its bytes.
//!
//! Gzip is recognised by its magic bytes, whatever the name (a `.gz` file
//! that is not gzip is read as it is); WARC by its name (`.warc`,
//! `.warc.gz`) or by starting with `WARC/1.` once decompressed.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::decode;
use crate::error::CorpusError;
use crate::input::{Media, Page};
use crate::warc::{WarcPages, is_warc_name};

/// What a file turned out to be.
pub(crate) enum Opened {
    Page(Page),
    Warc(Box<WarcPages>),
}

/// Opens a file found or named, and reads it as a page or starts reading it
/// as a WARC archive.
pub(crate) fn open_input(
    path: &Path,
    folder: Option<PathBuf>,
    url: Option<String>,
    max_page_bytes: u64,
) -> Result<Opened, CorpusError> {
    let file = File::open(path).map_err(|source| CorpusError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    let expected = file.metadata().map_or(0, |m| m.len());
    let reader = BufReader::with_capacity(64 << 10, Box::new(file) as Box<dyn Read + Send>);
    open_stream(reader, path, folder, url, max_page_bytes, expected)
}

/// Reads a stream named `path` (a file, or `stdin`) as a page, or starts reading it as a
/// WARC archive: gzip by its magic bytes, WARC by the name or by its first bytes.
/// `expected` is the stream's length when it is known (0 otherwise): a page's buffer is
/// sized for it.
pub(crate) fn open_stream(
    mut reader: BufReader<Box<dyn Read + Send>>,
    path: &Path,
    folder: Option<PathBuf>,
    url: Option<String>,
    max_page_bytes: u64,
    expected: u64,
) -> Result<Opened, CorpusError> {
    let unreadable = |source| CorpusError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let head = reader.fill_buf().map_err(unreadable)?;
    let gzip = decode::is_gzip(head);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if is_warc_name(&name) || starts_like_warc(head, gzip) {
        let pages = WarcPages::from_reader(Box::new(reader), path.to_path_buf())?
            .with_max_page_bytes(max_page_bytes)
            .with_folder(folder);
        return Ok(Opened::Warc(Box::new(pages)));
    }

    let source = path.display().to_string();
    let too_large = || CorpusError::TooLarge {
        source_name: source.clone(),
        limit: max_page_bytes,
    };
    let bytes = if gzip {
        decode::read_capped(flate2::bufread::MultiGzDecoder::new(reader), max_page_bytes).map_err(
            |source| CorpusError::Gzip {
                path: path.to_path_buf(),
                source,
            },
        )?
    } else {
        decode::read_capped_sized(reader, max_page_bytes, expected).map_err(unreadable)?
    };
    let bytes = bytes.ok_or_else(too_large)?;
    let lower = name.to_ascii_lowercase();
    let stem = lower.strip_suffix(".gz").unwrap_or(&lower);
    let media = if stem.ends_with(".txt") {
        Media::Text
    } else {
        Media::Html
    };
    Ok(Opened::Page(Page {
        source,
        url,
        bytes,
        charset: None,
        folder,
        media,
    }))
}

/// `WARC/1.0` or `WARC/1.1` at the start, looking through gzip if needed.
fn starts_like_warc(head: &[u8], gzip: bool) -> bool {
    const MAGIC: &[u8] = b"WARC/1.";
    if !gzip {
        return head.starts_with(MAGIC);
    }
    let mut first = [0u8; 7];
    flate2::bufread::GzDecoder::new(head)
        .read_exact(&mut first)
        .is_ok_and(|()| first == MAGIC)
}
