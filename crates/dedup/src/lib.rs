//! `chaff-dedup`: near-duplicate detection of texts — meant for the cleaned text of pages,
//! where a shared template no longer makes two different articles look alike.
//!
//! What it is for: a signature per text (MinHash: for each of [`HASHES`] seeded hash
//! functions, the least hash over the text's word shingles, so that the share of equal slots
//! estimates the Jaccard similarity of the two shingle sets) and an [`Index`] that finds,
//! for a new signature, an earlier one at least [`Config::threshold`] alike. Candidates come
//! from LSH banding (the signature cut into bands; two texts sharing one whole band are
//! compared), so the cost per insert does not grow with the index, and every candidate is
//! checked against the threshold, so a reported duplicate is never a hashing accident.
//!
//! What it must not know: HTML, pages, sites, templates.

use std::collections::HashMap;

/// Hash functions per signature.
pub const HASHES: usize = 64;

/// How texts are compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Words per shingle.
    pub shingle: usize,
    /// LSH bands (each of `HASHES / bands` slots); more bands find less alike pairs.
    pub bands: usize,
    /// Estimated Jaccard similarity of the shingle sets at or above which two texts are
    /// near-duplicates.
    pub threshold: f64,
}

impl Default for Config {
    /// 5-word shingles, 16 bands of 4 slots (a pair at similarity 0.8 shares a band with
    /// probability 1 − (1 − 0.8⁴)¹⁶ ≈ 0.9996), threshold 0.8.
    fn default() -> Config {
        Config {
            shingle: 5,
            bands: 16,
            threshold: 0.8,
        }
    }
}

/// A text's MinHash signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature([u32; HASHES]);

/// SplitMix64's finaliser: a fast, well-mixed 64-bit permutation.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a over bytes, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Signature {
    /// The signature of `text`: its words (runs of letters and digits, lower-cased) in
    /// shingles of `config.shingle`; a text shorter than one shingle is one shingle. `None`
    /// for a text without words.
    pub fn of(text: &str, config: &Config) -> Option<Signature> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if words.is_empty() {
            return None;
        }
        let k = config.shingle.max(1).min(words.len());
        let mut slots = [u32::MAX; HASHES];
        for shingle in words.windows(k) {
            let mut h = 0xcbf2_9ce4_8422_2325;
            for w in shingle {
                h = fnv(h, w.as_bytes());
                h = fnv(h, b" ");
            }
            for (i, slot) in slots.iter_mut().enumerate() {
                let v = (mix(h ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 32) as u32;
                *slot = (*slot).min(v);
            }
        }
        Some(Signature(slots))
    }

    /// The estimated Jaccard similarity of two texts' shingle sets: the share of equal slots.
    pub fn similarity(&self, other: &Signature) -> f64 {
        let same = self.0.iter().zip(&other.0).filter(|(a, b)| a == b).count();
        same as f64 / HASHES as f64
    }

    fn band_keys(&self, bands: usize) -> impl Iterator<Item = u64> + '_ {
        let bands = bands.clamp(1, HASHES);
        let rows = HASHES / bands;
        (0..bands).map(move |b| {
            let slots = &self.0[b * rows..(b + 1) * rows];
            let mut h = mix(b as u64 + 1);
            for &s in slots {
                h = mix(h ^ u64::from(s));
            }
            h
        })
    }
}

/// Signatures seen so far, and which earlier text each near-duplicate repeats.
#[derive(Debug, Default)]
pub struct Index {
    config: Config,
    signatures: Vec<Signature>,
    kept: Vec<u32>,
    buckets: HashMap<u64, Vec<u32>>,
}

impl Index {
    /// An empty index.
    pub fn new(config: Config) -> Index {
        Index {
            config,
            ..Index::default()
        }
    }

    /// How many signatures it holds.
    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }

    /// Adds a signature; returns its id and, when it nearly repeats an earlier one, the id of
    /// the text kept for that cluster (the first of it seen).
    pub fn insert(&mut self, signature: Signature) -> (u32, Option<u32>) {
        let id = self.signatures.len() as u32;
        let keys: Vec<u64> = signature.band_keys(self.config.bands).collect();
        let mut best: Option<u32> = None;
        for key in &keys {
            for &other in self.buckets.get(key).map(Vec::as_slice).unwrap_or(&[]) {
                let kept = self.kept[other as usize];
                if best.is_some_and(|b| b <= kept) {
                    continue;
                }
                if signature.similarity(&self.signatures[other as usize]) >= self.config.threshold {
                    best = Some(kept);
                }
            }
        }
        for key in keys {
            self.buckets.entry(key).or_default().push(id);
        }
        self.signatures.push(signature);
        self.kept.push(best.unwrap_or(id));
        (id, best)
    }
}

/// Near-duplicates in a stream of texts, each named by a key (a page's source): for every
/// text, the key of the first earlier text it nearly repeats.
#[derive(Debug)]
pub struct Seen<K> {
    index: Index,
    config: Config,
    keys: Vec<K>,
}

impl<K: Clone> Seen<K> {
    /// Nothing seen yet.
    pub fn new(config: Config) -> Seen<K> {
        Seen {
            index: Index::new(config),
            config,
            keys: Vec::new(),
        }
    }

    /// Records `text` under `key`; returns the key of the earlier text it nearly repeats
    /// (the first of its cluster), if any. A text too short for a signature repeats nothing.
    pub fn duplicate_of(&mut self, key: K, text: &str) -> Option<K> {
        let sig = Signature::of(text, &self.config)?;
        let (_, kept) = self.index.insert(sig);
        self.keys.push(key);
        kept.and_then(|k| self.keys.get(k as usize).cloned())
    }
}

#[cfg(test)]
mod tests;
