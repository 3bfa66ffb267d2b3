//! Full-parse throughput (decode + tokenize + tree build + pre-order packing) with each
//! tokenizer, single-threaded, over the dragnet and scrapinghub-aeb pages.
//!
//! `cargo run --release -p chaff-dom --example parse_speed [ROUNDS] [fast|html5ever]`

use std::io::Read;
use std::path::Path;
use std::time::Instant;

use chaff_dom::{ParseOptions, TokenizerKind, parse_with};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let only = args.next();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    let mut pages: Vec<Vec<u8>> = Vec::new();
    for dir in ["dragnet/html", "scrapinghub-aeb/html"] {
        let Ok(entries) = std::fs::read_dir(shared.join(dir)) else {
            eprintln!("missing {}", shared.join(dir).display());
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if !p.to_string_lossy().ends_with(".html.gz") {
                continue;
            }
            let mut bytes = Vec::new();
            if let Ok(f) = std::fs::File::open(&p)
                && flate2::read::MultiGzDecoder::new(f)
                    .read_to_end(&mut bytes)
                    .is_ok()
            {
                pages.push(bytes);
            }
        }
    }
    let total: usize = pages.iter().map(Vec::len).sum();
    println!("{} pages, {:.1} MB", pages.len(), total as f64 / 1e6);
    for (label, kind) in [
        ("html5ever", TokenizerKind::Html5ever),
        ("fast", TokenizerKind::Fast),
    ] {
        if only.as_deref().is_some_and(|o| o != label) {
            continue;
        }
        let opts = ParseOptions {
            tokenizer: kind,
            reject_binary: false,
            ..ParseOptions::default()
        };
        let mut best = f64::INFINITY;
        let mut nodes = 0usize;
        for _ in 0..rounds {
            let start = Instant::now();
            nodes = 0;
            for p in &pages {
                if let Ok(doc) = parse_with(p, &opts) {
                    nodes += doc.len();
                }
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!(
            "{label:>9}: {:.3} s, {:.1} MB/s ({nodes} nodes)",
            best,
            total as f64 / 1e6 / best
        );
    }
}
