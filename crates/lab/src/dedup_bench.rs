//! `chaff-lab bench dedup`: the near-duplicate detector at scale — N synthetic texts (a
//! million by default) signed, then inserted into a `chaff_dedup::Index` and, separately,
//! through a `chaff_dedup::Seen` with URL keys (what `chaff extract --dedup` holds), which is
//! then saved and loaded again. Prints the wall time of each stage, the index's heap bytes
//! and the process's resident memory at the peak of each stage (`VmHWM`, reset between
//! stages where the kernel allows) and over the whole run.
//!
//! The texts: 150 to 500 words each (325 on average), drawn from a 50,000-word vocabulary
//! with Zipf-like frequencies (rank `⌊V^u⌋` for uniform `u`: the commonest word is about 6 %
//! of the words, as "the" is of English); one text in 50 is a planted near-duplicate of an
//! earlier text (0 to 4 words changed). Texts are made and signed in batches on every
//! thread and dropped once signed; the signatures (132 bytes each) are kept for both
//! insertion passes. Signing is also timed on one thread.

use std::time::Instant;

use chaff_cli::common::Status;
use chaff_dedup::{Config, Index, Seen, Signature};
use clap::Args;
use rayon::prelude::*;

use crate::crawl_bench::proc_status_kib;

/// Arguments of `chaff-lab bench dedup`.
#[derive(Args)]
pub struct DedupBench {
    /// Texts to make, sign and index.
    #[arg(long, default_value_t = 1_000_000)]
    pages: usize,
    /// Texts made and signed at a time.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Texts signed on one thread for the one-thread figure.
    #[arg(long, default_value_t = 50_000)]
    one_thread: usize,
}

/// Words in the vocabulary.
const VOCABULARY: usize = 50_000;

/// One text in this many is a planted near-duplicate.
const PLANT_EVERY: usize = 50;

/// SplitMix64: the bench's own deterministic random numbers.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A pronounceable word for each rank.
fn vocabulary() -> Vec<String> {
    const ONSETS: [&str; 16] = [
        "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "st", "tr",
    ];
    const VOWELS: [&str; 8] = ["a", "e", "i", "o", "u", "ai", "ou", "ea"];
    (0..VOCABULARY)
        .map(|r| {
            // Short words for frequent ranks, as in prose.
            let syllables = 1 + usize::from(r >= 100) + usize::from(r >= 5_000);
            let mut h = mix(r as u64);
            let mut w = String::new();
            for _ in 0..syllables {
                w.push_str(ONSETS[(h & 15) as usize]);
                w.push_str(VOWELS[((h >> 4) & 7) as usize]);
                h >>= 7;
            }
            w.push_str(&format!("{}", r % 10).repeat(usize::from(r >= 20_000)));
            w
        })
        .collect()
}

/// The words (vocabulary ranks) of base text `i`, made from its own seed.
fn base_words(i: usize) -> Vec<u32> {
    let mut s = mix(i as u64 ^ 0xbe_4c4d);
    let len = 150 + (s % 351) as usize;
    let ln_v = (VOCABULARY as f64).ln();
    (0..len)
        .map(|_| {
            s = mix(s);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            ((u * ln_v).exp() as usize).clamp(1, VOCABULARY) as u32 - 1
        })
        .collect()
}

/// What text `i` is: its own words, or a planted near-duplicate of an earlier text (the
/// earlier text's number and the number of words changed).
fn origin(i: usize) -> Option<(usize, usize)> {
    if i % PLANT_EVERY != PLANT_EVERY - 1 {
        return None;
    }
    let h = mix(i as u64 ^ 0x91a7);
    let back = 1 + (h as usize % i.min(200_000));
    Some((i - back, (h >> 32) as usize % 5))
}

/// The words of text `i` (a planted copy: its original's, with words changed).
fn words_of(i: usize) -> Vec<u32> {
    match origin(i) {
        None => base_words(i),
        Some((j, changes)) => {
            let mut w = words_of(j);
            let mut h = mix(i as u64 ^ 0xc4a6);
            let n = w.len();
            for _ in 0..changes {
                h = mix(h);
                w[h as usize % n] = ((h >> 32) % VOCABULARY as u64) as u32;
            }
            w
        }
    }
}

/// The text `i` goes back to through its planted copies.
fn root(i: usize) -> usize {
    match origin(i) {
        None => i,
        Some((j, _)) => root(j),
    }
}

/// Text `i` as a string of words.
fn text(i: usize, vocab: &[String]) -> String {
    let words = words_of(i);
    let mut t = String::with_capacity(words.len() * 7);
    for w in words {
        if !t.is_empty() {
            t.push(' ');
        }
        t.push_str(&vocab[w as usize]);
    }
    t
}

/// The process's peak resident memory since the last reset, in MB.
fn peak_mb() -> f64 {
    proc_status_kib("VmHWM:").map_or(f64::NAN, |kb| kb as f64 / 1024.0)
}

/// Resets the peak resident memory to the current (Linux: `5` to `/proc/self/clear_refs`);
/// false where that is not allowed, and then every peak is the run's.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Runs `chaff-lab bench dedup`.
pub fn bench(b: DedupBench) -> anyhow::Result<Status> {
    let n = b.pages;
    let config = Config::default();
    let vocab = vocabulary();
    let threads = rayon::current_num_threads();

    // One thread: signing alone, on texts made beforehand.
    let sample: Vec<String> = (0..b.one_thread.min(n))
        .into_par_iter()
        .map(|i| text(i, &vocab))
        .collect();
    let sample_words: usize = sample.iter().map(|t| t.split(' ').count()).sum();
    let t = Instant::now();
    let signed = sample
        .iter()
        .filter_map(|t| Signature::of(t, &config))
        .count();
    let one = t.elapsed().as_secs_f64();
    std::hint::black_box(signed);
    drop(sample);
    outln!(
        "one thread: {} texts signed in {one:.2} s ({:.1} µs a text, {:.0} M words/s)",
        b.one_thread.min(n),
        one * 1e6 / b.one_thread.min(n).max(1) as f64,
        sample_words as f64 / one / 1e6
    )?;

    // Make and sign every text, a batch at a time on every thread.
    let resettable = reset_peak();
    let (mut make, mut sign) = (0.0, 0.0);
    let mut sigs: Vec<Option<Signature>> = Vec::with_capacity(n);
    let start = Instant::now();
    for first in (0..n).step_by(b.batch.max(1)) {
        let last = (first + b.batch.max(1)).min(n);
        let t = Instant::now();
        let texts: Vec<String> = (first..last)
            .into_par_iter()
            .map(|i| text(i, &vocab))
            .collect();
        make += t.elapsed().as_secs_f64();
        let t = Instant::now();
        sigs.par_extend(texts.par_iter().map(|t| Signature::of(t, &config)));
        sign += t.elapsed().as_secs_f64();
    }
    let words: usize = sigs.iter().flatten().map(|s| s.words() as usize).sum();
    let all = start.elapsed().as_secs_f64();
    outln!(
        "{n} texts, {words} words ({:.0} a text), {threads} threads: made in {make:.2} s, signed in {sign:.2} s ({:.0} M words/s); {all:.2} s in all; signatures held: {:.0} MB; peak {:.0} MB",
        words as f64 / n.max(1) as f64,
        words as f64 / sign / 1e6,
        (sigs.capacity() * std::mem::size_of::<Option<Signature>>()) as f64 / 1e6,
        peak_mb()
    )?;
    let planted = (0..n).filter(|&i| origin(i).is_some()).count();

    // Insert into the index.
    reset_peak();
    let before = peak_mb();
    let t = Instant::now();
    let mut index = Index::new(config);
    let mut found = 0usize;
    let mut right = 0usize;
    for (i, s) in sigs.iter().enumerate() {
        let Some(s) = s else { continue };
        if let (_, Some(k)) = index.insert(s.clone()) {
            found += 1;
            right += usize::from(root(i) == root(k as usize));
        }
    }
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "Index: {n} inserted in {secs:.2} s ({:.2} µs each); {} kept; heap {:.0} MB; peak {:.0} MB (from {before:.0} MB before it)",
        secs * 1e6 / n.max(1) as f64,
        index.kept(),
        index.heap_bytes() as f64 / 1e6,
        peak_mb()
    )?;
    outln!(
        "  planted near-duplicates: {planted}; reported {found}, {right} of them right (recall {:.4}, precision {:.4})",
        right as f64 / planted.max(1) as f64,
        right as f64 / found.max(1) as f64
    )?;
    drop(index);

    // Through Seen with URL keys, as the CLI holds it; then saved and loaded.
    reset_peak();
    let before = peak_mb();
    let t = Instant::now();
    let mut seen: Seen<String> = Seen::new(config);
    let mut dups = 0usize;
    for (i, s) in sigs.iter().enumerate() {
        let Some(s) = s else { continue };
        let key = format!("https://www{}.example.com/news/{i:07}.html", i % 97);
        dups += usize::from(seen.duplicate_of_signature(key, s.clone()).is_some());
    }
    let secs = t.elapsed().as_secs_f64();
    let keys: usize = seen.kept().iter().map(String::len).sum();
    outln!(
        "Seen<String>: {n} recorded in {secs:.2} s, {dups} duplicates; index heap {:.0} MB, keys {:.0} MB of text; peak {:.0} MB (from {before:.0} MB before it)",
        seen.index_heap_bytes() as f64 / 1e6,
        keys as f64 / 1e6,
        peak_mb()
    )?;
    drop(sigs);
    let dir = std::env::temp_dir().join(format!("chaff-bench-dedup-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("seen.idx");
    let t = Instant::now();
    seen.save(&path)?;
    let save = t.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    drop(seen);
    reset_peak();
    let t = Instant::now();
    let loaded = Seen::<String>::load(&path, config)?;
    let load = t.elapsed().as_secs_f64();
    outln!(
        "  saved in {save:.2} s ({:.0} MB), loaded in {load:.2} s ({} kept; peak while loading {:.0} MB)",
        size as f64 / 1e6,
        loaded.kept().len(),
        peak_mb()
    )?;
    drop(loaded);
    let _ = std::fs::remove_dir_all(&dir);
    if !resettable {
        outln!("  (peaks are the whole run's: the kernel did not allow resetting them)")?;
    }
    Ok(Status::Ok)
}
