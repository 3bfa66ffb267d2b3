//! Errors of saving and loading an index.

use std::path::PathBuf;

/// Why a saved index could not be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DedupError {
    /// The file could not be opened or read (see [`DedupError::is_not_found`]).
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file (or its temporary neighbour) could not be written or renamed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file does not start like a near-duplicate index.
    #[error("{} is not a chaff near-duplicate index", path.display())]
    NotAnIndex {
        /// The file.
        path: PathBuf,
    },
    /// The file is an index of another format version.
    #[error(
        "{} is a near-duplicate index of format version {found}; this version of chaff reads version {supported}",
        path.display()
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The version this crate reads and writes.
        supported: u32,
    },
    /// The file was written with another comparison configuration, so its signatures do not
    /// compare with this run's.
    #[error("{} was written with other settings ({found}); this run uses {wanted}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// The file's configuration.
        found: String,
        /// The configuration asked for.
        wanted: String,
    },
    /// The file ends before its last entry does.
    #[error("{} is truncated", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
    },
    /// The file's content is damaged.
    #[error("{} is corrupt: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: &'static str,
    },
}

impl DedupError {
    /// True when the file to load does not exist (a first run may then start empty).
    pub fn is_not_found(&self) -> bool {
        matches!(self, DedupError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}
