//! Writes a few synthetic sites to a folder: one sub-folder per site (named by its domain)
//! holding `page-NNN.html` files and a `labels.json` sidecar.
//!
//! Usage: `cargo run -p chaff-synth --example synth -- OUT_DIR [SITES] [PAGES] [SEED]`
//! (defaults: 3 sites, 20 pages, seed 1).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().map(PathBuf::from) else {
        eprintln!("usage: synth OUT_DIR [SITES] [PAGES] [SEED]");
        return ExitCode::from(2);
    };
    let num = |i: usize, default: u64| -> Result<u64, String> {
        match args.get(i) {
            None => Ok(default),
            Some(s) => s.parse().map_err(|_| format!("not a number: {s:?}")),
        }
    };
    let (sites, pages, seed) = match (num(1, 3), num(2, 20), num(3, 1)) {
        (Ok(a), Ok(b), Ok(c)) => (a as usize, b as usize, c),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let sites = chaff_synth::generate_sites(seed, sites, pages);
    if let Err(e) = chaff_synth::write_sites(&sites, &out) {
        eprintln!("writing {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    for s in &sites {
        println!(
            "{}\t{}\t{} pages\t{}",
            s.domain,
            s.style,
            s.pages.len(),
            out.join(&s.domain).display()
        );
    }
    ExitCode::SUCCESS
}
