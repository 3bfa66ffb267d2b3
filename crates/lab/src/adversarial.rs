//! `chaff-lab adversarial`: writes the hostile inputs of `chaff_synth::adversarial` into a
//! folder (for `scripts/adversarial.py`, which times chaff and the other extractors on them).

use std::path::PathBuf;

use chaff_cli::common::Status;
use chaff_synth::adversarial::{Scale, write_all};
use clap::Args;

/// Arguments of `chaff-lab adversarial`.
#[derive(Args)]
pub struct AdversarialArgs {
    /// The folder to write into.
    #[arg(long, short)]
    out: PathBuf,
    /// Every count divided by 100.
    #[arg(long)]
    small: bool,
}

/// Runs `chaff-lab adversarial`: one line per input, `name<TAB>path<TAB>what`.
pub fn run(args: AdversarialArgs) -> anyhow::Result<Status> {
    let scale = if args.small {
        Scale::Small
    } else {
        Scale::Full
    };
    for a in write_all(&args.out, scale)? {
        outln!("{}\t{}\t{}", a.name, a.path.display(), a.what)?;
    }
    Ok(Status::Ok)
}
