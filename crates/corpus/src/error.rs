//! The one error type of the crate.
//!
//! Every variant carries the context a user needs to find the problem (which
//! path, which byte offset, which line), and every `Display` is a single line,
//! so a command-line caller can print `error: {e}` and move on to the next page.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// Everything that can go wrong while reading pages or writing outputs.
///
/// Per-page problems are yielded as items of [`crate::Pages`] rather than
/// ending the iteration: a caller reports them and continues.
#[derive(Debug, Error)]
pub enum CorpusError {
    /// A path named on the command line (or found while walking) cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        /// The path as given or found.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },

    /// A folder met during a walk cannot be listed.
    #[error("cannot list folder {}: {source}", path.display())]
    Unlistable {
        /// The folder.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },

    /// A glob pattern matched no file or folder.
    #[error("no file or folder matches the pattern '{pattern}'")]
    NoGlobMatch {
        /// The pattern as given.
        pattern: String,
    },

    /// A glob pattern could not be compiled.
    #[error("invalid glob pattern '{pattern}': {message}")]
    BadGlob {
        /// The pattern as given.
        pattern: String,
        /// Why it is invalid.
        message: String,
    },

    /// `-` (standard input) was named more than once.
    #[error("'-' (standard input) can be given only once")]
    StdinTwice,

    /// A page is larger than the configured cap (after decompression).
    #[error("{source_name}: page larger than the {} limit, skipped", size_limit(*limit))]
    TooLarge {
        /// Provenance of the page (path, `path#offset`, `stdin:17`).
        source_name: String,
        /// The cap in bytes.
        limit: u64,
    },

    /// A gzip-compressed file is corrupt or truncated.
    #[error("{}: corrupt or truncated gzip data: {source}", path.display())]
    Gzip {
        /// The compressed file.
        path: PathBuf,
        /// What the decoder said.
        #[source]
        source: io::Error,
    },

    /// A WARC file is damaged: every record before the damage has been
    /// yielded; reading goes on at the next record start after it when one
    /// is found (`resume`).
    #[error("{}: WARC damaged at byte offset {offset}: {detail}; {resume}", path.display())]
    WarcDamaged {
        /// The WARC file.
        path: PathBuf,
        /// Where the damage is: the byte offset in the file (for gzip WARCs,
        /// of the gzip member that holds the broken record), rendered as
        /// `member+inner` when a record does not start its own member.
        offset: String,
        /// What is wrong.
        detail: String,
        /// Where reading goes on, if it does.
        resume: WarcResume,
    },

    /// One WARC record could not be turned into a page; the next records are
    /// still read.
    #[error("{source_name}: {detail}")]
    WarcRecord {
        /// `path#offset` of the record.
        source_name: String,
        /// What is wrong.
        detail: String,
    },

    /// A line of JSON Lines input is not usable; the next lines are still read.
    #[error("{source_name}:{line}: {message}")]
    JsonLine {
        /// The stream (`stdin`).
        source_name: String,
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        message: String,
    },

    /// Reading the JSON Lines input itself failed (not just one line).
    #[error("{source_name}: read error after line {line}: {source}")]
    JsonRead {
        /// The stream (`stdin`).
        source_name: String,
        /// Last line read successfully.
        line: u64,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },

    /// An output could not be written.
    #[error("cannot write {target}: {source}")]
    Write {
        /// The file, or a name for the stream (`standard output`).
        target: String,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },

    /// A value could not be serialised to JSON.
    #[error("cannot serialise output as JSON: {0}")]
    Serialize(#[from] serde_json::Error),
}

/// `64 MiB`, `512 KiB`, `1000-byte`: a limit as a person would write it.
fn size_limit(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    match bytes {
        b if b >= MIB && b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b >= KIB && b % KIB == 0 => format!("{} KiB", b / KIB),
        b => format!("{b}-byte"),
    }
}

/// What reading a WARC file does after damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarcResume {
    /// Reading resumes at this byte offset: the next record start (for gzip
    /// WARCs, the next gzip member that begins a record).
    At(u64),
    /// No record starts after the damage: the rest of the file is not read.
    Nothing,
    /// The damage is inside a gzip member that holds many records (a WARC
    /// compressed whole, not one member per record), and no member starts
    /// after it: the rest of the file cannot be read.
    WholeGzip,
}

impl std::fmt::Display for WarcResume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WarcResume::At(offset) => write!(f, "reading resumes at byte offset {offset}"),
            WarcResume::Nothing => f.write_str("no record starts after it, nothing more was read"),
            WarcResume::WholeGzip => f.write_str(
                "the file is one gzip stream, not one member per record, so reading cannot resume",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        let e = CorpusError::TooLarge {
            source_name: "a.html".into(),
            limit: 64 << 20,
        };
        assert_eq!(
            e.to_string(),
            "a.html: page larger than the 64 MiB limit, skipped"
        );
        assert_eq!(size_limit(1000), "1000-byte");
        assert_eq!(size_limit(2048), "2 KiB");
        let e = CorpusError::WarcDamaged {
            path: "x.warc.gz".into(),
            offset: "1234".into(),
            detail: "record declares 10 bytes but only 4 are present".into(),
            resume: WarcResume::At(2000),
        };
        assert_eq!(
            e.to_string(),
            "x.warc.gz: WARC damaged at byte offset 1234: record declares 10 bytes but only 4 \
             are present; reading resumes at byte offset 2000"
        );
    }
}
