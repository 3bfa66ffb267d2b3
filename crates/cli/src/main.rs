//! The `chaff` command: argument parsing, progress and exit codes over the `chaff` library.
//! Exit status: 0 success, 1 finished but some inputs failed (each reported on stderr), 2
//! nothing could be done (usage, unreadable profile, no pages...).

mod extract;
mod learn;
mod serve;

use std::process::ExitCode;

use chaff_cli::{common, crawl};
use clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand as NoCommandGiven;
use clap::{CommandFactory, Parser, Subcommand};

/// jemalloc rather than the C library's allocator: a page's extraction makes and frees many
/// short-lived buffers (tendrils, rows, strings), and site learning holds many pages' parses
/// at once. Measured at fdfdaba on one thread, the same output, alternating with the same
/// code on glibc's allocator: `chaff extract` over the 181 scrapinghub-aeb pages 0.455 to
/// 0.421 s (least of 8; mean 0.480 to 0.428), full records 0.547 to 0.516 s; over wcxb-dev
/// 7.10 to 6.58 s (least of 3), peak 176 to 165 MB; `chaff extract --learn` over Dragnet and
/// trafilatura-eval (2,371 pages, two threads) 15.4 to 13.7 s, peak 1.44 to 1.30 GB; every
/// hostile input of `chaff-lab bench adversarial` within its bounds. mimalloc was as fast
/// but held freed memory: a 64 MiB page peaked at 750 MB against 628 MB (past the hardening
/// bound of ten times the page), and made to give memory back at once it was no faster
/// than glibc's. jemalloc is built from source, which needs `make`.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
    /// Serve the HTTP API and the inspector (see /openapi.json once running).
    Serve(Box<serve::ServeArgs>),
    /// Crawl sites politely into a WARC file (seeds, sitemaps or feeds).
    Crawl(Box<crawl::CrawlArgs>),
    /// Print a shell completion script (`chaff completions zsh > _chaff`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page, in roff (`chaff man > chaff.1; man ./chaff.1`).
    Man {
        /// A command's own page (`chaff man extract` for chaff-extract(1)).
        command: Option<String>,
    },
}

/// Writes the manual page of `chaff` or of one of its commands to stdout.
fn man(command: Option<&str>) -> anyhow::Result<common::Status> {
    let mut cli = Cli::command();
    cli.build();
    let page = match command {
        None => clap_mangen::Man::new(cli),
        Some(name) => cli
            .find_subcommand(name)
            .map(|c| clap_mangen::Man::new(c.clone()).title(format!("chaff-{name}")))
            .ok_or_else(|| anyhow::anyhow!("no command '{name}': see chaff --help"))?,
    };
    page.render(&mut std::io::stdout().lock())?;
    Ok(common::Status::Ok)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() || e.kind() == NoCommandGiven => e.exit(),
        Err(e) => {
            // Usage errors on one line, like every other error: the message's first
            // paragraph, without clap's usage block.
            let text = e.to_string();
            let first = text.split("\n\n").next().unwrap_or_default();
            let why = common::one_line(&first.strip_prefix("error: ").unwrap_or(first));
            eprintln!("chaff: error: {why} (see --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Extract(args) => extract::run(*args),
        Command::Learn(args) => learn::run(*args),
        Command::Crawl(args) => crawl::run(*args),
        Command::Serve(args) => serve::run(*args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "chaff", &mut std::io::stdout());
            Ok(common::Status::Ok)
        }
        Command::Man { command } => man(command.as_deref()),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) if common::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chaff: error: {}", common::error_line(&e));
            ExitCode::from(2)
        }
    }
}
