//! Every page of the shared datasets must give the same document with both tokenizers.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use chaff_dom::{ParseOptions, TokenizerKind, parse_with};

fn pages(root: &Path) -> Vec<PathBuf> {
    // Iterative walk: no recursion, as everywhere in this crate.
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.to_string_lossy().ends_with(".html.gz") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn gunzip(path: &Path) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// `None` if the page parses to the same document both ways.
fn compare(path: &Path) -> Option<String> {
    let bytes = gunzip(path)?;
    let opts = |tokenizer| ParseOptions {
        tokenizer,
        reject_binary: false,
        ..ParseOptions::default()
    };
    let fast = parse_with(&bytes, &opts(TokenizerKind::Fast)).ok()?;
    let reference = parse_with(&bytes, &opts(TokenizerKind::Html5ever)).ok()?;
    if common::same_document(&fast, &reference) {
        return None;
    }
    let text = String::from_utf8_lossy(&bytes);
    // Re-run on the decoded text for a readable first difference.
    Some(format!(
        "{}: {}",
        path.display(),
        common::difference(&text).unwrap_or_else(|| "differs (after decoding)".into())
    ))
}

/// Compares `pages` on a few threads; returns the failures.
fn compare_all(pages: &[PathBuf]) -> Vec<String> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let chunk = pages.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = pages
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().filter_map(|p| compare(p)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec!["a comparison panicked".into()])
            })
            .collect()
    })
}

fn run(every: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    if !root.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the shared data sets are missing, and CI must run the tests that need them"
        );
        println!("skipped: no datasets at {}", root.display());
        return;
    }
    let pages: Vec<PathBuf> = pages(&root).into_iter().step_by(every).collect();
    let failures = compare_all(&pages);
    println!("compared {} pages, {} differ", pages.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} pages differ; first:\n{}",
        failures.len(),
        pages.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// Every 16th page: a few seconds in a debug build, so it runs with every `cargo test`.
#[test]
fn sampled_dataset_pages_parse_identically() {
    run(16);
}

/// All 5,131 pages. Ignored because a debug build needs 1-1.5 minutes on two cores (the
/// html5ever reference is monomorphised into this crate, at opt-level 0); in release it takes
/// about 15 s: `cargo test --release -p chaff-dom --test datasets_diff -- --ignored`.
#[test]
#[ignore]
fn every_dataset_page_parses_identically() {
    run(1);
}
