//! Near-duplicates in a stream of texts named by keys.

use crate::index::Added;
use crate::{Config, Index, Signature};

/// Near-duplicates in a stream of texts, each named by a key (a page's source): for every
/// text, the key of an earlier kept text it nearly repeats. Only kept texts' keys are held;
/// [`Seen::save`] and [`Seen::load`] carry them to a later run.
#[derive(Debug)]
pub struct Seen<K> {
    pub(crate) index: Index,
    /// Per kept text of the index, in order: its key.
    pub(crate) keys: Vec<K>,
}

impl<K> Seen<K> {
    /// Nothing seen yet.
    pub fn new(config: Config) -> Seen<K> {
        Seen {
            index: Index::new(config),
            keys: Vec::new(),
        }
    }

    /// How texts are compared.
    pub fn config(&self) -> &Config {
        self.index.config()
    }

    /// How many texts with a signature have been recorded (including those of a loaded
    /// index's earlier runs).
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True when none has.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The keys of the kept texts (those that repeat no earlier text), in order.
    pub fn kept(&self) -> &[K] {
        &self.keys
    }

    /// Heap memory held by the index, in bytes (the keys not counted).
    pub fn index_heap_bytes(&self) -> usize {
        self.index.heap_bytes()
    }
}

impl<K: Clone> Seen<K> {
    /// Records `text` under `key`; returns the key of the earlier kept text it nearly
    /// repeats (the earliest, if several), if any. A text without words repeats nothing and
    /// is not recorded.
    pub fn duplicate_of(&mut self, key: K, text: &str) -> Option<K> {
        let sig = Signature::of(text, self.index.config())?;
        self.duplicate_of_signature(key, sig)
    }

    /// As [`Seen::duplicate_of`] with the text's signature already computed (with this
    /// index's [`Config`]), so that signatures can be computed in parallel.
    pub fn duplicate_of_signature(&mut self, key: K, signature: Signature) -> Option<K> {
        match self.index.add(signature) {
            Added::Near(k) => self.keys.get(k).cloned(),
            Added::Kept => {
                self.keys.push(key);
                None
            }
            Added::Full => None,
        }
    }
}
