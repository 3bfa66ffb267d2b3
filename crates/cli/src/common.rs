//! What the subcommands share: inputs, parser limits, progress, status and error display.

use std::io::IsTerminal;
use std::process::ExitCode;

use std::sync::atomic::{AtomicU64, Ordering};

use chaff::SiteFrom;
use chaff::corpus::{CorpusError, Page, is_url};
use chaff::corpus::{Pages, PagesOptions};
use chaff::dom::ParseOptions;
use clap::Args;

use crate::fetch::FetchArgs;
use chaff_crawl::Fetched;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How a command ended; the value is the exit status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Status {
    /// Everything worked.
    #[default]
    Ok = 0,
    /// Output was produced, but some inputs failed (reported on stderr).
    Partial = 1,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

/// Options every command that reads pages accepts.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// Pages: files, folders (recursive), glob patterns, .warc/.warc.gz archives, `.gz`
    /// files, or `-` for standard input: a page (raw HTML), a WARC, or JSON Lines
    /// ({"url","html"} or {"path"} per line).
    /// `http://` and `https://` URLs are fetched (see --urls).
    #[arg(required_unless_present = "urls", value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Refuse pages larger than this many bytes.
    #[arg(long, default_value_t = 64 << 20, value_name = "BYTES")]
    pub max_page_size: usize,
    /// Do not show a progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// What names a page's site: its URL (else its declared URL, else its folder) or the
    /// folder it was found in (for inputs laid out one folder per site).
    #[arg(long, value_enum, default_value = "url", value_name = "FROM")]
    pub site_from: SiteFromArg,
    /// How pages named by URL are fetched.
    #[command(flatten)]
    pub fetch: FetchArgs,
}

value_enum! {
    /// [`SiteFrom`] on the command line.
    pub enum SiteFromArg => SiteFrom {
        /// The page's URL, its canonical URL, else its folder.
        Url,
        /// The page's folder, else its URL.
        Folder,
    }
}

impl InputArgs {
    /// The parser options.
    pub fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            max_bytes: self.max_page_size,
            node_budget: chaff::dom::NodeBudget::FOR_EXTRACTION,
            ..ParseOptions::default()
        }
    }

    /// The page iterator over the inputs (`-`: standard input), URLs left out; fails up
    /// front on unreadable paths or globs that match nothing.
    pub fn pages(&self) -> anyhow::Result<Pages> {
        let paths: Vec<String> = self.inputs.iter().filter(|i| !is_url(i)).cloned().collect();
        let options = PagesOptions {
            max_page_bytes: self.max_page_size as u64,
        };
        Ok(Pages::from_args(&paths, options)?)
    }

    /// The inputs, with the pages named by URL fetched first (once, however often the
    /// pages are read).
    pub fn open(&self) -> anyhow::Result<Inputs<'_>> {
        let urls: Vec<String> = self.inputs.iter().filter(|i| is_url(i)).cloned().collect();
        let fetched = self
            .fetch
            .fetch(urls, self.max_page_size as u64, self.quiet)?;
        if fetched.as_ref().is_some_and(|f| f.pages == 0) && self.inputs.iter().all(|i| is_url(i)) {
            anyhow::bail!("no page could be fetched");
        }
        Ok(Inputs {
            args: self,
            fetched,
        })
    }
}

/// A page read, or why one could not be.
pub type PageItem = Result<Page, CorpusError>;

/// The inputs of a command, the fetched ones in a temporary WARC ([`InputArgs::open`]).
pub struct Inputs<'a> {
    args: &'a InputArgs,
    fetched: Option<Fetched>,
}

impl Inputs<'_> {
    /// Every page: the fetched ones first (named by their final URL), then the others.
    pub fn pages(&self) -> anyhow::Result<impl Iterator<Item = PageItem> + '_> {
        let fetched = self.fetched.as_ref().map(Fetched::pages).transpose()?;
        Ok(fetched.into_iter().flatten().chain(self.args.pages()?))
    }

    /// `Partial` when some URL gave no page.
    pub fn status(&self) -> Status {
        match &self.fetched {
            Some(f) if !f.errors.is_empty() => Status::Partial,
            _ => Status::Ok,
        }
    }
}

/// A progress line on stderr counting pages and their bytes; hidden when stderr is not a
/// terminal or with `--quiet`.
pub struct Progress {
    bar: ProgressBar,
    pages: AtomicU64,
}

impl Progress {
    /// A new progress line saying what is being done.
    pub fn new(quiet: bool, what: &str) -> Progress {
        let template =
            "{spinner} {msg} {prefix} pages, {binary_bytes} ({binary_bytes_per_sec}) {elapsed}";
        let progress = Progress::with_template(quiet, template);
        progress.bar.set_message(what.to_string());
        progress.bar.set_prefix("0");
        progress
    }

    /// A line whose message the caller keeps current ([`Progress::set_message`]).
    pub fn status_line(quiet: bool) -> Progress {
        let progress = Progress::with_template(quiet, "{spinner} {elapsed} {msg}");
        progress
            .bar
            .enable_steady_tick(std::time::Duration::from_millis(200));
        progress
    }

    fn with_template(quiet: bool, template: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let style = ProgressStyle::with_template(template);
        bar.set_style(style.unwrap_or_else(|_| ProgressStyle::default_spinner()));
        Progress {
            bar,
            pages: AtomicU64::new(0),
        }
    }

    /// One more page of `bytes` bytes done.
    pub fn page(&self, bytes: u64) {
        self.bar.inc(bytes);
        self.pages(1);
    }

    /// `n` more pages done whose bytes are not counted.
    pub fn pages(&self, n: u64) {
        let n = self.pages.fetch_add(n, Ordering::Relaxed) + n;
        self.bar.set_prefix(n.to_string());
    }

    /// Prints a warning without garbling the progress line.
    pub fn warn(&self, message: impl std::fmt::Display) {
        self.bar.suspend(|| warn(message));
    }

    /// Says what is being done now.
    pub fn set_message(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }

    /// Clears the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Reports a per-input problem on stderr.
pub fn warn(message: impl std::fmt::Display) {
    eprintln!("chaff: {}", one_line(&message));
}

/// An error or message on one line.
pub fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// An error and its causes on one line, each cause once: a cause whose words the message
/// already holds (a library error that prints its source) is not repeated.
pub fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = one_line(cause);
        if !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
    }
    line
}

/// Whether an error is a closed stdout (`chaff clean ... | head`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
