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
    /// The page has more nodes than its size allows ([`crate::ParseOptions::node_budget`]).
    #[error(
        "page has over {limit} nodes in {len} bytes, past the node budget (at least {}, else one per {} bytes)",
        budget.floor,
        budget.bytes_per_node
    )]
    TooManyNodes {
        /// Input length in bytes.
        len: usize,
        /// The most nodes allowed for that length.
        limit: usize,
        /// The budget.
        budget: crate::NodeBudget,
    },
    /// [`crate::ParseOptions::deadline`] passed before the tree was built.
    #[error("the deadline passed while the page was being parsed")]
    Deadline,
}
