//! `chaff-dedup`: near-duplicate detection of texts — meant for the cleaned text of pages,
//! where a shared template no longer makes two different articles look alike, and where
//! the template's per-page parts (other headlines, dates, ads) no longer make two copies of
//! one article look different.
//!
//! What it is for: a [`Signature`] per text (MinHash over the text's word shingles: for each
//! of [`HASHES`] hash functions the least hash over the shingles, so that the share of equal
//! slots estimates the Jaccard similarity of the two shingle sets, plus the text's word
//! count), a rule saying when two signatures are near-duplicates ([`Config`]), an [`Index`]
//! that finds, for a new signature, an earlier kept text it nearly repeats, and [`Seen`],
//! which names texts by a key (a page's source) and can be saved to a file and loaded in a
//! later run ([`Seen::save`], [`Seen::load`]).
//!
//! What it must not know: HTML, pages, sites, templates.
//!
//! # When two texts are near-duplicates
//!
//! A fixed Jaccard threshold on shingles means "at most a fixed *share* of the words
//! changed": one changed word alters up to `k` shingles of each text, so `c` changes in `n`
//! words leave a Jaccard similarity near `(n − ck) / (n + ck)`. With 5-word shingles and
//! 0.8, that is about one word in 45 — so a 50-word text with three words changed (a
//! corrected name, a figure) is no longer a near-duplicate of itself, while the same three
//! changes in a 500-word page are. Short cleaned texts are common (a news brief, a product
//! blurb), so the rule here inverts the estimate instead: from the estimated similarity `J`
//! and the two texts' shingle counts `a`, `b`, the shingles that differ are `(a + b)(1 − J) /
//! (1 + J)` and the words that differ about that over `2k`; two texts are near-duplicates when
//! that is at most [`Config::tolerance`] of their mean length: [`Config::words`] words (a
//! few), or [`Config::share`] of the words for long texts, but never more than
//! [`Config::most`] of the words (so that two unrelated texts of a dozen words are not
//! "a few words apart"). Shingles of [`Config::shingle`] = 3 words keep one change from
//! touching much of a short text while unrelated texts still share almost no shingle.
//!
//! The defaults (3-word shingles, 5 words, 5 %, at most 20 %) were chosen on synthetic sites
//! of seeds 201–210 (`chaff-lab dedup --first-seed 201 --seeds 10`), never on the seeds whose
//! figures are reported (1–3): there the exact shingle sets put every planted copy at most
//! 3.7 changed words from its original and every pair of different articles at least 10.7
//! apart, so 5 leaves room for the estimate's noise on either side (its standard deviation is
//! about 0.6 words for a 50-word text).
//!
//! # Finding candidates
//!
//! Comparing a text with every earlier one would cost the whole index per text; LSH banding
//! finds the few worth comparing: signatures are cut into bands of consecutive slots, and two
//! texts whose slots agree on a whole band are candidates. A band of `r` slots agrees with
//! probability `J^r`, so over `b` bands a pair is found with probability `1 − (1 − J^r)^b`.
//! Every kept text is in 16 bands of 4 slots (found at `J` = 0.74, the long-text threshold,
//! with probability 0.996, while unrelated texts, sharing a shingle or two, almost never
//! meet); texts short enough that their tolerance is the fixed word count (under `words /
//! share` = 100 words) are also in 32 bands of 2 slots, since their threshold falls to
//! `J` ≈ 0.25 (a 25-word text with three words changed is at `J` ≈ 0.44 and is found with
//! probability 0.999). Every candidate is then checked by the rule, so a reported duplicate
//! is never a hashing accident.
//!
//! A duplicate points at a *kept* text (one that repeats no earlier text) that it nearly
//! repeats — the earliest such — and is not indexed itself: a thousand copies of one error
//! page cost one entry, and `duplicate_of` always names a text the duplicate is near (no
//! chains drifting from A to B to C).
//!
//! # Example
//!
//! ```
//! use chaff_dedup::{Config, Seen};
//!
//! let story = "The council voted on Monday to close the old bridge for repairs after \
//!              engineers found cracks in two of its arches last spring.";
//! let mut seen = Seen::new(Config::default());
//! assert_eq!(seen.duplicate_of("a.html".to_string(), story), None);
//! let edited = story.replace("Monday", "Tuesday");
//! assert_eq!(seen.duplicate_of("b.html".to_string(), &edited), Some("a.html".to_string()));
//! ```

mod error;
mod index;
mod seen;
mod store;

pub use error::DedupError;
pub use index::Index;
pub use seen::Seen;

/// Hash functions (slots) per signature.
pub const HASHES: usize = 64;

/// The longest shingle [`Signature::of`] uses; a longer [`Config::shingle`] is cut to it.
pub const MAX_SHINGLE: usize = 16;

/// How texts are compared: shingle size and how many words near-duplicates may differ in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Words per shingle (1 to [`MAX_SHINGLE`]).
    pub shingle: usize,
    /// Words two near-duplicates may differ in, whatever their length ("a few").
    pub words: f64,
    /// The share of their words two long near-duplicates may differ in.
    pub share: f64,
    /// The largest share of their words two near-duplicates may differ in, however short.
    pub most: f64,
}

impl Default for Config {
    /// 3-word shingles; near-duplicates differ in at most 5 words or 5 % of the words,
    /// whichever is more, and never in more than 20 % (see the crate documentation).
    fn default() -> Config {
        Config {
            shingle: 3,
            words: 5.0,
            share: 0.05,
            most: 0.2,
        }
    }
}

impl Config {
    /// How many words two texts of mean length `words` may differ in and still be
    /// near-duplicates: [`Config::words`] or [`Config::share`] of them, whichever is more,
    /// but at most [`Config::most`] of them.
    pub fn tolerance(&self, words: f64) -> f64 {
        (self.share * words).max(self.words).min(self.most * words)
    }

    /// True for a text whose tolerance is the fixed word count rather than a share of its
    /// length: its similarity threshold is lower, so it is also indexed in shorter bands.
    pub fn is_short(&self, words: u32) -> bool {
        f64::from(words) * self.share < self.words
    }

    /// The shingle size in effect.
    fn k(&self) -> usize {
        self.shingle.clamp(1, MAX_SHINGLE)
    }
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}-word shingles, at most {} words or {}% of the words differ, never over {}%",
            self.shingle,
            self.words,
            self.share * 100.0,
            self.most * 100.0
        )
    }
}

/// A text's MinHash signature: the low 16 bits of each slot's least hash (b-bit MinHash:
/// two different least hashes agree in them with probability 2⁻¹⁶, which raises the
/// estimated similarity by at most 0.00002 and halves the memory of 32-bit slots), and the
/// text's word count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    slots: [u16; HASHES],
    words: u32,
}

/// SplitMix64's finaliser: a fast, well-mixed 64-bit permutation.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The slots' hash functions: slot `i` of a shingle hashed to `h` is the high half of
/// `A[i]·h + B[i]` (multiply-add-shift, a universal family; `h` is already well mixed, so
/// one multiplication per slot suffices), with odd multipliers drawn from SplitMix64.
const PARAMS: ([u64; HASHES], [u64; HASHES]) = {
    let mut a = [0u64; HASHES];
    let mut b = [0u64; HASHES];
    let mut i = 0;
    while i < HASHES {
        a[i] = mix(0x5eed_0000_0000_0000 ^ (2 * i as u64)) | 1;
        b[i] = mix(0x5eed_0000_0000_0000 ^ (2 * i as u64 + 1));
        i += 1;
    }
    (a, b)
};

/// FNV-1a's offset basis and prime, for hashing a word's bytes as they are read.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Calls `word` with the hash of every word of `text` (a run of letters and digits,
/// lower-cased character by character), in order, without allocating: ASCII is lower-cased
/// in place, other characters through `char::to_lowercase`. Returns the number of words.
fn for_each_word(text: &str, mut word: impl FnMut(u64)) -> usize {
    let bytes = text.as_bytes();
    let mut h = FNV_START;
    let mut inside = false;
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let letter = if b < 0x80 {
            i += 1;
            if b.is_ascii_alphanumeric() {
                h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME);
                true
            } else {
                false
            }
        } else {
            // A multi-byte character: `i` is on a character boundary, as every byte before it
            // was ASCII or a whole character.
            let c = text[i..]
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            i += c.len_utf8().max(1);
            if c.is_alphanumeric() {
                let mut buf = [0u8; 4];
                for l in c.to_lowercase() {
                    for &x in l.encode_utf8(&mut buf).as_bytes() {
                        h = (h ^ u64::from(x)).wrapping_mul(FNV_PRIME);
                    }
                }
                true
            } else {
                false
            }
        };
        if letter {
            inside = true;
        } else if inside {
            word(mix(h));
            count += 1;
            h = FNV_START;
            inside = false;
        }
    }
    if inside {
        word(mix(h));
        count += 1;
    }
    count
}

/// The hash of a shingle: its words' hashes folded in order (so "a b c" and "c b a" differ).
fn shingle_hash(words: impl Iterator<Item = u64>) -> u64 {
    words.fold(0x243f_6a88_85a3_08d3, |s, w| mix(s ^ w))
}

/// Lowers each slot to the shingle's value where that is less.
#[inline]
fn add_shingle(mins: &mut [u32; HASHES], h: u64) {
    let (a, b) = &PARAMS;
    for ((m, &a), &b) in mins.iter_mut().zip(a).zip(b) {
        let v = (h.wrapping_mul(a).wrapping_add(b) >> 32) as u32;
        *m = (*m).min(v);
    }
}

impl Signature {
    /// The signature of `text`: its words (runs of letters and digits, lower-cased) in
    /// shingles of `config.shingle`; a text shorter than one shingle is one shingle. `None`
    /// for a text without words.
    pub fn of(text: &str, config: &Config) -> Option<Signature> {
        let k = config.k();
        let mut window = [0u64; MAX_SHINGLE];
        let mut mins = [u32::MAX; HASHES];
        let mut seen = 0usize;
        let words = for_each_word(text, |w| {
            window[seen % k] = w;
            seen += 1;
            if seen >= k {
                // The last k words, oldest first.
                let h = shingle_hash((seen - k..seen).map(|j| window[j % k]));
                add_shingle(&mut mins, h);
            }
        });
        if words == 0 {
            return None;
        }
        if words < k {
            add_shingle(&mut mins, shingle_hash(window[..words].iter().copied()));
        }
        Some(Signature {
            slots: mins.map(|m| m as u16),
            words: u32::try_from(words).unwrap_or(u32::MAX),
        })
    }

    /// The estimated Jaccard similarity of two texts' shingle sets: the share of equal slots.
    pub fn similarity(&self, other: &Signature) -> f64 {
        let same = self
            .slots
            .iter()
            .zip(&other.slots)
            .filter(|(a, b)| a == b)
            .count();
        same as f64 / HASHES as f64
    }

    /// The text's number of words.
    pub fn words(&self) -> u32 {
        self.words
    }

    /// The estimated number of words in which two texts differ: the shingles in one set but
    /// not the other, from the estimated similarity and the shingle counts, over the `2k`
    /// shingles one changed word alters. Exact for scattered changes of equal-length texts
    /// when the estimate is; a run of changed, added or dropped words counts as less than
    /// its length (a sentence added counts about as one changed word per `2k` words of it,
    /// plus one), so that a line kept by one extraction and not another weighs little.
    pub fn changed_words(&self, other: &Signature, config: &Config) -> f64 {
        let k = config.k().min(self.words.min(other.words) as usize).max(1);
        let (a, b) = (self.shingles(config), other.shingles(config));
        let j = self.similarity(other);
        (a + b) * (1.0 - j) / (1.0 + j) / (2 * k) as f64
    }

    /// True when two texts are near-duplicates under `config`: they differ in at most
    /// [`Config::tolerance`] of their mean length, counted in shingles (words − k + 1, so
    /// that for a text of a dozen words "a fifth" is not more than a fifth of what the
    /// signature sees).
    pub fn is_near(&self, other: &Signature, config: &Config) -> bool {
        let mean = (self.shingles(config) + other.shingles(config)) / 2.0;
        self.changed_words(other, config) <= config.tolerance(mean)
    }

    /// The number of shingles of the text (at least one).
    fn shingles(&self, config: &Config) -> f64 {
        (self.words as usize).saturating_sub(config.k()) as f64 + 1.0
    }

    /// The 16-bit slots.
    pub(crate) fn slots(&self) -> &[u16; HASHES] {
        &self.slots
    }

    /// A signature from stored parts (a loaded index).
    pub(crate) fn from_parts(slots: [u16; HASHES], words: u32) -> Signature {
        Signature { slots, words }
    }
}

#[cfg(test)]
mod tests;
