//! What the lab's tests share: running `chaff-lab` for research commands and the `chaff`
//! binary for user commands, and finding the shared data.

use std::path::PathBuf;
use std::process::Command;

/// Commands of `chaff-lab`; every other command is the user's `chaff`.
const LAB: [&str; 10] = [
    "train-content",
    "eval",
    "bench",
    "train",
    "train-menu",
    "synth",
    "plot-histogram",
    "segment",
    "menu",
    "xpath",
];

/// The `chaff` binary, built beside `chaff-lab` by `cargo test --workspace`.
fn chaff_bin() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_chaff-lab")).with_file_name("chaff");
    assert!(
        path.exists(),
        "{} is missing: run the tests with --workspace (or cargo build -p chaff-cli first)",
        path.display()
    );
    path
}

/// A command for `args`: `chaff-lab` for research commands, `chaff` otherwise.
pub fn command(args: &[&str]) -> Command {
    let mut c = if args.first().is_some_and(|a| LAB.contains(a)) {
        Command::new(env!("CARGO_BIN_EXE_chaff-lab"))
    } else {
        Command::new(chaff_bin())
    };
    c.args(args);
    c
}

/// Runs `c` and returns its output, failing the test (with its output) if it fails.
#[allow(dead_code)]
pub fn succeeds(mut c: Command) -> std::process::Output {
    let out = c.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The shared data sets, or `None` (with the reason printed) when they are absent outside
/// CI. In CI (`CI` set) their absence is a failure, so a green run always means they were
/// used.
#[allow(dead_code)]
pub fn datasets() -> Option<PathBuf> {
    match chaff_eval::datasets_dir() {
        Some(dir) => Some(dir),
        None if std::env::var_os("CI").is_some() => {
            panic!("../shared/datasets is missing, and CI must run the tests that need it")
        }
        None => {
            eprintln!("skipping: ../shared/datasets not found (set CHAFF_SHARED)");
            None
        }
    }
}
