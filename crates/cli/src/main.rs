//! The `chaff` command: a thin layer of argument parsing, progress and exit codes over the
//! `chaff` library. Exit status: 0 success, 1 finished but some inputs failed (each reported
//! on stderr), 2 nothing could be done (usage, unreadable profile, no pages...).

/// `println!` that returns the write error instead of panicking: a closed stdout
/// (`chaff eval ... | head`) then ends the command quietly in `main`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod bench;
mod clean;
mod common;
mod crawl;
mod eval;
mod forest_eval;
mod learn;
mod menu;
mod pagelevel;
mod plot;
mod synth;
mod xpath;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Separate what a web page says from the template it is wrapped in, by learning each site's
/// template from many of its pages.
#[derive(Parser)]
#[command(name = "chaff", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Learn a site's template from its pages and write a site profile.
    Learn(learn::LearnArgs),
    /// Remove a site's template from pages using its profile.
    Clean(clean::CleanArgs),
    /// Score against gold text: data sets, predictions, or synthetic sites.
    Eval(eval::EvalArgs),
    /// Measure learning and cleaning speed and memory.
    Bench(bench::BenchArgs),
    /// Write labelled synthetic sites (the project's ground truth) to a folder.
    Synth(synth::SynthArgs),
    /// Print each page's main menu: its selector and links.
    Menu(menu::MenuArgs),
    /// Fit the menu detector's weights and thresholds to labelled pages.
    TrainMenu(menu::TrainMenuArgs),
    /// Evaluate an XPath expression on pages (to check or edit a wrapper).
    Xpath(xpath::XPathArgs),
    /// Crawl sites politely into a WARC file (seeds, sitemaps or feeds).
    Crawl(crawl::CrawlArgs),
    /// Print each page's segments with their templateness (no profile needed).
    Segment(pagelevel::SegmentArgs),
    /// Output each page's non-template content, found by the page-level classifier (no
    /// profile needed).
    Extract(pagelevel::ExtractArgs),
    /// Train the page-level classifier on multi-page sites (labels from SiteLevel).
    Train(pagelevel::TrainArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Learn(args) => learn::run(args),
        Command::Clean(args) => clean::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Synth(args) => synth::run(args),
        Command::Menu(args) => menu::run(args),
        Command::TrainMenu(args) => menu::train(args),
        Command::Xpath(args) => xpath::run(args),
        Command::Crawl(args) => crawl::run(args),
        Command::Segment(args) => pagelevel::segment(args),
        Command::Extract(args) => pagelevel::extract(args),
        Command::Train(args) => pagelevel::train(args),
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
