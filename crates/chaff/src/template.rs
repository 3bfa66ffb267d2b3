//! Telling a site's page templates apart, so that each is learned from its own pages and a
//! page is read with the template it was made from, or with none.
//!
//! A site often serves several templates: articles, section fronts, galleries, a blog beside
//! the newsroom. The site methods assume one (the alignment paper's single template most of
//! all), so learning them from a mix teaches each a blur, and applying that to a page of a
//! rarer template removes its content. So learning splits a site's pages into templates,
//! learns each template with enough pages on its own, and extraction reads a page with the
//! template it resembles most, or page by page when it resembles none.
//!
//! # How pages are compared
//!
//! A page's shape is the set of its element paths: for every element, its tag and first
//! class name and those of up to three ancestors (`div.post/div.entry/article/body`). Two
//! pages of one template share most paths whatever they say; pages of different templates
//! share the outer frame only. [`Sketch`] keeps a one-permutation MinHash of that set
//! ([`SKETCH_BINS`] bins, one hash per path), so the Jaccard similarity of two pages'
//! path sets is estimated in [`SKETCH_BINS`] comparisons and a template's representatives
//! are stored in the profile in about a kilobyte each.
//!
//! # How templates are found
//!
//! [`split`]: average-linkage agglomerative clustering of the first [`CLUSTER_SAMPLE`] pages,
//! merging while the two closest clusters' mean similarity is at least
//! [`MIN_SIMILARITY`]; each cluster keeps its first [`REPRESENTATIVES`] pages as
//! representatives. Then every page of the site (sampled or not) is routed as extraction
//! will route it ([`route`]: the template whose representatives it resembles most on
//! average, if that mean reaches [`MIN_SIMILARITY`]); templates left with fewer pages than
//! the learner's minimum are dropped and their pages routed again among the rest. So the
//! pages a template learns from are exactly the pages of the site extraction reads with it.
//!
//! # What was measured
//!
//! On held-out Dragnet training sites (`crates/lab/scripts/site_cv.py`: 59 sites, 414 pages,
//! 5 folds, each fold's content model trained without its sites), against one template per
//! site: 4-gram F1 0.945 against 0.944, and the sites where site-aware is within 0.01 of
//! page-level or better from 51 to 52 (bbc.co.uk 0.791 to 0.849, page-level 0.846: its six
//! training pages are four templates, and the three alike are read with theirs). Before this
//! was written, a script clustering exact path sets the same way gave the same sites at
//! similarities 0.3 to 0.6; 0.5 is the middle, and the templates' least page count (the
//! learner's minimum, 2 to 5) changed nothing. On Dragnet's test split (94 sites of 5 or
//! more pages) it is neutral: 4-gram F1 0.953 both ways, 87 sites within 0.01 both ways (not
//! the same 87). Sites of one template are untouched but for the routing: a page that
//! resembles none of its site's pages (an index page on a blog) is read page by page. Some
//! sites' figures move by about 0.01 with nothing but the order their pages are learned in
//! (the suffix and alignment methods read pages in order), which is the noise of the
//! per-site count.
//!
//! Cost: a sketch is one hash per distinct path and one pass over the elements, on every
//! page learned and every page extracted with a profile of sketches; clustering is
//! quadratic in the sample (at most [`CLUSTER_SAMPLE`] pages), routing linear in the
//! templates' representatives.

use std::fmt;

use chaff_dom::Document;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// MinHash bins per sketch.
pub const SKETCH_BINS: usize = 128;
/// The least mean similarity of a page to a template's representatives for the page to be
/// read with it, and of two clusters for them to merge.
pub const MIN_SIMILARITY: f32 = 0.5;
/// Representatives kept per template.
pub const REPRESENTATIVES: usize = 8;
/// Pages of a site clustered (the first this many); the rest are routed.
pub const CLUSTER_SAMPLE: usize = 256;

/// Elements above an element that its path names.
const PATH_ANCESTORS: usize = 3;
/// An empty bin.
const EMPTY: u32 = u32::MAX;

/// A page's shape: a MinHash of its set of element paths. See the module docs.
#[derive(Clone, PartialEq, Eq)]
pub struct Sketch {
    bins: Box<[u32; SKETCH_BINS]>,
}

impl fmt::Debug for Sketch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let filled = self.bins.iter().filter(|b| **b != EMPTY).count();
        write!(f, "Sketch({filled} of {SKETCH_BINS} bins filled)")
    }
}

/// FNV-1a: a hash fixed by its definition, since sketches are stored in profiles.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64's finaliser: spreads a combined hash over every bit.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

impl Sketch {
    /// The sketch of a parsed page.
    pub fn of(doc: &Document) -> Sketch {
        let mut sketch = Sketch::empty();
        let mut label = vec![0u64; doc.len()];
        for id in doc.ids().filter(|&id| doc.is_element(id)) {
            let mut h = fnv(FNV_OFFSET, doc.tag(id).as_bytes());
            if let Some(class) = doc
                .attr(id, "class")
                .and_then(|c| c.split_whitespace().next())
            {
                h = fnv(fnv(h, b"."), class.as_bytes());
            }
            label[id.index()] = h;
            let mut path = h;
            let mut up = doc.parent(id);
            for _ in 0..PATH_ANCESTORS {
                match up {
                    Some(p) if doc.is_element(p) => {
                        path = mix(path ^ label[p.index()].rotate_left(17));
                        up = doc.parent(p);
                    }
                    _ => break,
                }
            }
            // A path seen before changes no bin's minimum: no set of paths is needed.
            sketch.add(path);
        }
        sketch
    }

    fn empty() -> Sketch {
        Sketch {
            bins: Box::new([EMPTY; SKETCH_BINS]),
        }
    }

    /// Adds a hash (one-permutation MinHash: the mixed hash's low bits pick its bin, its
    /// high bits compete for the bin's minimum).
    fn add(&mut self, hash: u64) {
        let h = mix(hash);
        let bin = (h % SKETCH_BINS as u64) as usize;
        let value = ((h >> 32) as u32).min(EMPTY - 1);
        self.bins[bin] = self.bins[bin].min(value);
    }

    /// The sketch of a set of 64-bit hashes.
    #[cfg(test)]
    fn of_hashes(hashes: impl IntoIterator<Item = u64>) -> Sketch {
        let mut sketch = Sketch::empty();
        for h in hashes {
            sketch.add(h);
        }
        sketch
    }

    /// The estimated Jaccard similarity of the two pages' path sets: of the bins either
    /// fills, the share both fill with the same minimum (0 for two empty pages).
    pub fn similarity(&self, other: &Sketch) -> f32 {
        let mut same = 0u32;
        let mut either = 0u32;
        for (a, b) in self.bins.iter().zip(other.bins.iter()) {
            if *a != EMPTY || *b != EMPTY {
                either += 1;
                same += u32::from(a == b);
            }
        }
        if either == 0 {
            0.0
        } else {
            same as f32 / either as f32
        }
    }

    /// The mean similarity to a template's representatives (1 when it has none: a profile
    /// written before templates were told apart applies to every page of its site).
    pub fn mean_similarity(&self, representatives: &[Sketch]) -> f32 {
        if representatives.is_empty() {
            return 1.0;
        }
        let sum: f32 = representatives.iter().map(|r| self.similarity(r)).sum();
        sum / representatives.len() as f32
    }

    fn to_hex(&self) -> String {
        use std::fmt::Write;
        let mut s = String::with_capacity(SKETCH_BINS * 8);
        for b in self.bins.iter() {
            // Writing to a String cannot fail.
            let _ = write!(s, "{b:08x}");
        }
        s
    }

    fn from_hex(s: &str) -> Result<Sketch, String> {
        if s.len() != SKETCH_BINS * 8 || !s.is_ascii() {
            return Err(format!(
                "a template sketch must be {} hexadecimal digits, not {} characters",
                SKETCH_BINS * 8,
                s.chars().count()
            ));
        }
        let mut bins = Box::new([EMPTY; SKETCH_BINS]);
        for (i, bin) in bins.iter_mut().enumerate() {
            *bin = u32::from_str_radix(&s[i * 8..i * 8 + 8], 16).map_err(|_| {
                format!(
                    "a template sketch has a non-hexadecimal digit near {}",
                    i * 8
                )
            })?;
        }
        Ok(Sketch { bins })
    }
}

impl Serialize for Sketch {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Sketch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sketch, D::Error> {
        let s = String::deserialize(d)?;
        Sketch::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// The template a page is read with: of `templates` (each given by its representatives),
/// the one whose representatives the page resembles most on average, if that mean is at
/// least `min`; the first wins a tie. Returns its index and the mean.
pub fn route<'a>(
    page: &Sketch,
    templates: impl IntoIterator<Item = &'a [Sketch]>,
    min: f32,
) -> (Option<usize>, f32) {
    let mut best: Option<(usize, f32)> = None;
    for (i, reps) in templates.into_iter().enumerate() {
        let s = page.mean_similarity(reps);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    match best {
        Some((i, s)) if s >= min => (Some(i), s),
        Some((_, s)) => (None, s),
        None => (None, 0.0),
    }
}

/// Average-linkage agglomerative clustering: merges the two clusters of the highest mean
/// pairwise similarity while it is at least `min`; the lower-numbered cluster wins a tie.
/// Clusters come back as sorted page indices, in the order of their first page.
pub fn cluster(sketches: &[Sketch], min: f32) -> Vec<Vec<usize>> {
    let n = sketches.len();
    // Sums of pairwise similarities between clusters (Lance-Williams for average linkage:
    // a merged cluster's sum to another is the sum of its parts' sums).
    let mut sum = vec![0f64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let s = f64::from(sketches[i].similarity(&sketches[j]));
            sum[i * n + j] = s;
            sum[j * n + i] = s;
        }
    }
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut alive: Vec<usize> = (0..n).collect();
    loop {
        let mut best: Option<(f64, usize, usize)> = None;
        for (x, &i) in alive.iter().enumerate() {
            for &j in &alive[x + 1..] {
                let mean = sum[i * n + j] / (members[i].len() * members[j].len()) as f64;
                if best.is_none_or(|(b, _, _)| mean > b) {
                    best = Some((mean, i, j));
                }
            }
        }
        let Some((_, i, j)) = best.filter(|(m, _, _)| *m >= f64::from(min)) else {
            break;
        };
        for &k in &alive {
            if k != i && k != j {
                let s = sum[i * n + k] + sum[j * n + k];
                sum[i * n + k] = s;
                sum[k * n + i] = s;
            }
        }
        let moved = std::mem::take(&mut members[j]);
        members[i].extend(moved);
        members[i].sort_unstable();
        alive.retain(|&k| k != j);
    }
    alive
        .into_iter()
        .map(|i| std::mem::take(&mut members[i]))
        .collect()
}

/// A site's pages split into templates.
#[derive(Debug, Default, PartialEq)]
pub struct Split {
    /// Each template's representatives and pages (indices into the site's pages, sorted),
    /// in the order of their clusters' sizes in the sample, largest first (routing breaks a
    /// tie by this order).
    pub templates: Vec<(Vec<Sketch>, Vec<usize>)>,
    /// Pages that match no template kept.
    pub unmatched: Vec<usize>,
}

/// Splits a site's pages into templates of at least `min_pages` pages. See the module docs.
pub fn split(sketches: &[Sketch], min_pages: usize, min: f32) -> Split {
    let sample = &sketches[..sketches.len().min(CLUSTER_SAMPLE)];
    let mut clusters = cluster(sample, min);
    clusters.sort_by_key(|c| std::cmp::Reverse(c.len()));
    let mut reps: Vec<Vec<Sketch>> = clusters
        .into_iter()
        .map(|c| {
            c.iter()
                .take(REPRESENTATIVES)
                .map(|&i| sketches[i].clone())
                .collect()
        })
        .collect();
    loop {
        let mut pages: Vec<Vec<usize>> = vec![Vec::new(); reps.len()];
        let mut unmatched = Vec::new();
        for (i, s) in sketches.iter().enumerate() {
            match route(s, reps.iter().map(Vec::as_slice), min).0 {
                Some(t) => pages[t].push(i),
                None => unmatched.push(i),
            }
        }
        if pages.iter().all(|p| p.len() >= min_pages) {
            return Split {
                templates: reps.into_iter().zip(pages).collect(),
                unmatched,
            };
        }
        let keep: Vec<bool> = pages.iter().map(|p| p.len() >= min_pages).collect();
        let mut k = keep.iter();
        reps.retain(|_| k.next().copied().unwrap_or(false));
    }
}

#[cfg(test)]
mod tests;
