//! The index: kept texts' signatures and their LSH band tables, laid out flat.
//!
//! Per kept text: its signature (64 16-bit slots and a word count, 132 bytes) and id (8);
//! in the table of all kept texts, 16 band entries: a 4-byte link to the previous entry
//! with the same band key, and a share of the open-addressing table of band keys (one 8-byte
//! cell per distinct key, at most three quarters full, so 11 to 21 bytes per entry). A
//! million texts (980,005 kept) hold 487 MB of heap and peak about 560 MB while the key
//! table doubles (`chaff-lab bench dedup`). The first layout, a `HashMap<u64, Vec<u32>>`
//! per band key (a vector header and an allocation for every key) and 32-bit slots, peaked
//! at 2.3 GB for a million distinct texts.

use crate::{Config, HASHES, Signature, mix};

/// No entry (end of a chain).
const NONE: u32 = u32::MAX;

/// Chain steps one search walks at most. Candidates are kept texts only, so chains are long
/// only where many texts that are *not* near-duplicates of each other share bands (say
/// thousands of 12-word "please log in to read <title>" pages); past this many steps the
/// oldest candidates of a search are skipped rather than making the run quadratic.
const MAX_STEPS: usize = 50_000;

/// One family of band tables: every kept text of the family in `bands` bands of `rows`
/// slots.
#[derive(Debug)]
struct Family {
    rows: usize,
    bands: usize,
    salt: u64,
    /// Open addressing with linear probing, a power-of-two length: per band key, a cell
    /// holding a 26-bit fingerprint of the key, its band (6 bits) and its newest entry + 1
    /// (the low 32 bits); 0 is an empty cell. The band lets a cell's key be computed again
    /// from its entry's slots when the table grows.
    cells: Vec<u64>,
    used: usize,
    /// Per entry and band (`entry * bands + band`): the previous entry with the same band
    /// key, or [`NONE`].
    next: Vec<u32>,
    /// Per entry: the kept text it is (its index among the index's kept texts).
    kept: Vec<u32>,
}

/// Low bits of a key kept in its cell to tell keys that probe the same cells apart.
const FINGERPRINT_BITS: u32 = 26;

fn pack(key: u64, band: usize, head: u32) -> u64 {
    ((key & ((1 << FINGERPRINT_BITS) - 1)) << 38) | ((band as u64 & 63) << 32) | u64::from(head)
}

fn same_key(cell: u64, key: u64, band: usize) -> bool {
    cell >> 32 == pack(key, band, 0) >> 32
}

impl Family {
    fn new(rows: usize, bands: usize, salt: u64) -> Family {
        Family {
            rows,
            bands,
            salt,
            cells: Vec::new(),
            used: 0,
            next: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// The key of band `band` of `slots`: the band's slots packed into 64 bits (exactly, for
    /// up to four 16-bit slots), salted by the band and mixed (a bijection, so two different
    /// bands of one band number never share a key).
    fn key(&self, slots: &[u16; HASHES], band: usize) -> u64 {
        let start = band * self.rows;
        let packed = slots[start..start + self.rows]
            .iter()
            .fold(0u64, |p, &s| p.rotate_left(16) ^ u64::from(s));
        mix(packed ^ mix(self.salt.wrapping_add(band as u64)))
    }

    fn slot_of(&self, key: u64) -> usize {
        let bits = self.cells.len().trailing_zeros();
        (key >> (64 - bits)) as usize
    }

    /// The newest entry with this band key.
    fn head(&self, key: u64, band: usize) -> Option<u32> {
        if self.cells.is_empty() {
            return None;
        }
        let mask = self.cells.len() - 1;
        let mut at = self.slot_of(key);
        loop {
            let cell = self.cells[at];
            if cell == 0 {
                return None;
            }
            if same_key(cell, key, band) {
                return Some((cell as u32).wrapping_sub(1));
            }
            at = (at + 1) & mask;
        }
    }

    /// Calls `check` with the kept text of every entry sharing a band with `slots`, newest
    /// first within a band, until `steps` runs out.
    fn candidates(&self, slots: &[u16; HASHES], steps: &mut usize, check: &mut impl FnMut(u32)) {
        for band in 0..self.bands {
            let mut entry = self.head(self.key(slots, band), band).unwrap_or(NONE);
            while entry != NONE && *steps > 0 {
                *steps -= 1;
                let e = entry as usize;
                if let Some(&k) = self.kept.get(e) {
                    check(k);
                }
                entry = self
                    .next
                    .get(e * self.bands + band)
                    .copied()
                    .unwrap_or(NONE);
            }
        }
    }

    /// Makes `head` the newest entry of `key`'s chain in `cells` (which has room). Returns
    /// the previous head ([`NONE`] if none) and whether the key is new to the table.
    fn put(cells: &mut [u64], key: u64, band: usize, head: u32) -> (u32, bool) {
        let mask = cells.len() - 1;
        let bits = cells.len().trailing_zeros();
        let mut at = (key >> (64 - bits)) as usize;
        loop {
            let cell = cells[at];
            if cell == 0 {
                cells[at] = pack(key, band, head + 1);
                return (NONE, true);
            }
            if same_key(cell, key, band) {
                cells[at] = pack(key, band, head + 1);
                return ((cell as u32).wrapping_sub(1), false);
            }
            at = (at + 1) & mask;
        }
    }

    /// Room for `more` new keys, keeping the table at most three quarters full.
    fn reserve(&mut self, more: usize, sigs: &[Signature]) {
        let need = (self.used + more) * 4 / 3 + 1;
        if need <= self.cells.len() {
            return;
        }
        let len = need.next_power_of_two().max(1024);
        let mut cells = vec![0u64; len];
        for &cell in &self.cells {
            if cell == 0 {
                continue;
            }
            let entry = (cell as u32).wrapping_sub(1);
            let band = ((cell >> 32) & 63) as usize;
            let Some(sig) = self
                .kept
                .get(entry as usize)
                .and_then(|&k| sigs.get(k as usize))
            else {
                continue;
            };
            Family::put(&mut cells, self.key(sig.slots(), band), band, entry);
        }
        self.cells = cells;
    }

    /// Adds kept text `kept` (whose signature is `sigs[kept]`) to every band.
    fn add(&mut self, kept: u32, sigs: &[Signature]) {
        let Some(sig) = sigs.get(kept as usize) else {
            return;
        };
        self.reserve(self.bands, sigs);
        let entry = self.kept.len() as u32;
        self.kept.push(kept);
        for band in 0..self.bands {
            let key = self.key(sig.slots(), band);
            let (previous, new) = Family::put(&mut self.cells, key, band, entry);
            self.used += usize::from(new);
            self.next.push(previous);
        }
    }

    fn reserve_entries(&mut self, n: usize, sigs: &[Signature]) {
        self.kept.reserve(n);
        self.next.reserve(n * self.bands);
        self.reserve(n * self.bands, sigs);
    }

    fn heap_bytes(&self) -> usize {
        self.cells.capacity() * 8 + self.next.capacity() * 4 + self.kept.capacity() * 4
    }
}

/// What adding a signature did.
pub(crate) enum Added {
    /// It nearly repeats the kept text at this position.
    Near(usize),
    /// It was kept.
    Kept,
    /// It repeats nothing but the index cannot keep more texts.
    Full,
}

/// Signatures seen so far, and which earlier kept text each near-duplicate repeats.
#[derive(Debug)]
pub struct Index {
    config: Config,
    inserted: u64,
    /// Kept texts (those that repeat no earlier text): signatures and ids.
    sigs: Vec<Signature>,
    ids: Vec<u64>,
    /// Every kept text, in 16 bands of 4 slots.
    all: Family,
    /// Kept short texts ([`Config::is_short`]), also in 32 bands of 2 slots.
    short: Family,
}

impl Default for Index {
    fn default() -> Index {
        Index::new(Config::default())
    }
}

impl Index {
    /// An empty index.
    pub fn new(config: Config) -> Index {
        Index {
            config,
            inserted: 0,
            sigs: Vec::new(),
            ids: Vec::new(),
            all: Family::new(4, 16, 0x0a11),
            short: Family::new(2, 32, 0x5407),
        }
    }

    /// An empty index with room for `kept` kept texts (none of them short) before it grows:
    /// growing doubles the key table, so for a known size this lowers the peak memory.
    pub fn with_capacity(config: Config, kept: usize) -> Index {
        let mut index = Index::new(config);
        index.sigs.reserve(kept);
        index.ids.reserve(kept);
        index.all.reserve_entries(kept, &[]);
        index
    }

    /// How texts are compared.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// How many signatures have been inserted (the next id).
    pub fn len(&self) -> usize {
        self.inserted as usize
    }

    /// True when none has been inserted.
    pub fn is_empty(&self) -> bool {
        self.inserted == 0
    }

    /// How many of them were kept (repeat no earlier text).
    pub fn kept(&self) -> usize {
        self.sigs.len()
    }

    /// Adds a signature; returns its id (0, 1, 2, … in insertion order) and, when it nearly
    /// repeats an earlier kept text, that text's id (the earliest, if it repeats several).
    /// A near-duplicate is not kept: later texts are compared with kept texts only.
    pub fn insert(&mut self, signature: Signature) -> (u64, Option<u64>) {
        let id = self.inserted;
        match self.add(signature) {
            Added::Near(k) => (id, self.ids.get(k).copied()),
            Added::Kept | Added::Full => (id, None),
        }
    }

    /// Adds a signature under the next id: near an earlier kept text, or kept.
    pub(crate) fn add(&mut self, signature: Signature) -> Added {
        let id = self.inserted;
        self.inserted += 1;
        match self.nearest_kept(&signature) {
            Some(k) => Added::Near(k),
            None => self
                .keep(id, signature)
                .map_or(Added::Full, |_| Added::Kept),
        }
    }

    /// The id of the earliest kept text that `signature` nearly repeats, without adding it.
    pub fn nearest(&self, signature: &Signature) -> Option<u64> {
        self.nearest_kept(signature)
            .and_then(|k| self.ids.get(k).copied())
    }

    /// Heap memory held, in bytes (allocated capacity, not only what is used).
    pub fn heap_bytes(&self) -> usize {
        self.sigs.capacity() * std::mem::size_of::<Signature>()
            + self.ids.capacity() * 8
            + self.all.heap_bytes()
            + self.short.heap_bytes()
    }

    /// The position among kept texts of the earliest kept text `signature` nearly repeats.
    pub(crate) fn nearest_kept(&self, signature: &Signature) -> Option<usize> {
        let mut best: Option<u32> = None;
        let mut check = |k: u32| {
            if best.is_some_and(|b| b <= k) {
                return;
            }
            if self
                .sigs
                .get(k as usize)
                .is_some_and(|s| signature.is_near(s, &self.config))
            {
                best = Some(k);
            }
        };
        let mut steps = MAX_STEPS;
        self.all
            .candidates(signature.slots(), &mut steps, &mut check);
        if self.config.is_short(signature.words()) {
            self.short
                .candidates(signature.slots(), &mut steps, &mut check);
        }
        best.map(|b| b as usize)
    }

    /// Keeps a text under `id`; returns its position among kept texts, or `None` when the
    /// index already holds as many kept texts as its 32-bit entry numbers allow (over four
    /// thousand million: some 550 GB), when it stays unindexed.
    pub(crate) fn keep(&mut self, id: u64, signature: Signature) -> Option<usize> {
        let k = u32::try_from(self.sigs.len())
            .ok()
            .filter(|&k| k < NONE - 1)?;
        let short = self.config.is_short(signature.words());
        self.sigs.push(signature);
        self.ids.push(id);
        self.all.add(k, &self.sigs);
        if short {
            self.short.add(k, &self.sigs);
        }
        Some(k as usize)
    }

    /// Kept texts' signatures, in the order they were kept.
    pub(crate) fn kept_signatures(&self) -> &[Signature] {
        &self.sigs
    }

    /// Sets the next id (a loaded index continues after its kept texts).
    pub(crate) fn set_inserted(&mut self, n: u64) {
        self.inserted = self.inserted.max(n);
    }
}
