//! WARC in and out: [`WarcPages`] reads the HTML pages of an archive,
//! [`WarcWriter`] writes records (fixtures now, the crawler later).

mod reader;
mod stream;
mod writer;

pub use reader::WarcPages;
pub use writer::{RecordSpec, WarcCompression, WarcWriter, WrittenRecord, format_warc_date};

/// Whether a file name says WARC: `.warc` or `.warc.gz`, any case.
pub fn is_warc_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".warc") || lower.ends_with(".warc.gz")
}
