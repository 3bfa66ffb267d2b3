//! Errors of the DOM crate.

/// Why a page could not be turned into a document.
#[derive(Debug, thiserror::Error)]
pub enum DomError {
    /// The input is larger than the configured limit.
    #[error("page is {len} bytes, over the {limit}-byte limit (raise it with --max-page-size)")]
    TooLarge {
        /// Input length in bytes.
        len: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The input looks like a binary file (an image, an archive, an executable).
    #[error("not an HTML or text page: the bytes look binary")]
    Binary,
}
