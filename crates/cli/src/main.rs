//! The `chaff` command: argument parsing, progress and exit codes over the `chaff` library.
//! Exit status: 0 success, 1 finished but some inputs failed (each reported on stderr), 2
//! nothing could be done (usage, unreadable profile, no pages...).

/// `println!` that returns the write error instead of panicking: a closed stdout
/// (`chaff extract ... | head`) then ends the command quietly in `main`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod extract;
mod learn;
mod menu;
mod segment;
mod xpath;

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
    /// Print each page's segments with their templateness (no profile needed).
    Segment(segment::SegmentArgs),
    /// Print each page's main menu: its selector and links.
    Menu(menu::MenuArgs),
    /// Evaluate an XPath expression on pages (to check or edit a wrapper).
    Xpath(xpath::XPathArgs),
    /// Crawl sites politely into a WARC file (seeds, sitemaps or feeds).
    Crawl(crawl::CrawlArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract(args) => extract::run(*args),
        Command::Learn(args) => learn::run(*args),
        Command::Segment(args) => segment::run(args),
        Command::Menu(args) => menu::run(args),
        Command::Xpath(args) => xpath::run(args),
        Command::Crawl(args) => crawl::run(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            if common::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("chaff: error: {}", common::one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}
