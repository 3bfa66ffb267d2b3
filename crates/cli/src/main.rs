//! The `chaff` command: argument parsing, progress and exit codes over the `chaff` library.
//! Exit status: 0 success, 1 finished but some inputs failed (each reported on stderr), 2
//! nothing could be done (usage, unreadable profile, no pages...).

mod extract;
mod learn;

use std::process::ExitCode;

use chaff_cli::{common, crawl};
use clap::{Parser, Subcommand};

/// Separate what a web page says from the template it is wrapped in, learning each site's
/// template from many of its pages.
#[derive(Parser)]
#[command(name = "chaff", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Output each page's main content: with its site's profile when there is one
    /// (--profiles, --profile, or --learn), by the page-level classifier otherwise.
    Extract(Box<extract::ExtractArgs>),
    /// Learn a site's template from its pages and write a site profile (or one per site).
    Learn(Box<learn::LearnArgs>),
    /// Crawl sites politely into a WARC file (seeds, sitemaps or feeds).
    Crawl(Box<crawl::CrawlArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract(args) => extract::run(*args),
        Command::Learn(args) => learn::run(*args),
        Command::Crawl(args) => crawl::run(*args),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            if common::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("chaff: error: {}", common::error_line(&e));
            ExitCode::from(2)
        }
    }
}
