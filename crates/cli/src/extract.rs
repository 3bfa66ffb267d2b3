//! `chaff extract`: pages in, their main content out; with the profiles of their sites when
//! there are any (`--profiles`, `--profile`, or learned on the fly with `--learn`), page by
//! page otherwise.

use std::io::Write;
use std::path::{Path, PathBuf};

use chaff::corpus::{Page, PageSink, WriteOutcome};
use chaff::{Extractor, Format, PageClassifier, Profile, TitleModel};
use clap::Args;

use chaff_cli::common::{self, InputArgs, PageItem, Progress, Status};
use chaff_cli::flags::{self, MethodArgs, PageMethodArgs};

/// Pages read and not yet written, per thread of the pool ([`Extractor::extract_all`]): a
/// few each keep every thread busy while the main thread reads and writes.
const IN_FLIGHT_PER_THREAD: usize = 4;

/// Arguments of `chaff extract`.
#[derive(Args)]
pub struct ExtractArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Profiles by site, as `learn --per-site` writes them: each page gets its own site's
    /// profile, and page-level extraction when its site has none.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["profile", "learn"])]
    profiles: Option<PathBuf>,
    /// One profile applied to every page, whatever its site.
    #[arg(long, short, value_name = "FILE", conflicts_with = "learn")]
    profile: Option<PathBuf>,
    /// Learn the sites of the input first (each with at least --min-site-pages pages), then
    /// extract every page with its site's profile. Reads the input twice (three times to
    /// count pages per site when their sites show without parsing) and parses the pages
    /// past --keep-parses twice; standard input is buffered in memory.
    #[arg(long)]
    learn: bool,
    /// With --learn: sites with fewer pages are extracted page by page.
    #[arg(long, default_value_t = 5, value_name = "N")]
    min_site_pages: usize,
    /// With --learn: keep what learning parsed of the first pages read, up to this many MB
    /// of their HTML, and extract those pages from it instead of parsing them again (0:
    /// parse every page twice). A page's parse takes up to about ten times its size.
    #[arg(long, default_value_t = chaff::Parsed::DEFAULT_BUDGET >> 20, value_name = "MB")]
    keep_parses: u64,
    #[command(flatten)]
    methods: MethodArgs,
    #[command(flatten)]
    page_methods: PageMethodArgs,
    /// Output format (xml and tei: trafilatura's element names).
    #[arg(long, short, default_value = "text", value_parser = flags::format_parser())]
    format: Format,
    /// Write one file per page into this folder instead of stdout (JSON Lines when there are
    /// several pages).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// Keep only pages whose main text is in this language (ISO 639-1 or 639-3 code: `de`,
    /// `deu`), identified from the extracted text, else as the page declares it.
    #[arg(long, value_name = "LANG", value_parser = chaff::language::parse_code)]
    target_language: Option<String>,
    /// Stop a page still being worked on after this long (`2s`, `500ms`): it is reported on
    /// one line, like an unreadable page, and the run goes on.
    #[arg(long, value_name = "TIME", value_parser = chaff_crawl::parse_duration)]
    deadline: Option<std::time::Duration>,
    /// With -o: go on with a run that was cut short, skipping the pages it wrote (the
    /// folder's journal names them).
    #[arg(long, requires = "output")]
    resume: bool,
    /// Add every node's label and score to JSON records (`nodes`).
    #[arg(long)]
    labels: bool,
    /// Start Markdown with YAML front matter: the page's title, authors, dates, site...
    #[arg(long)]
    front_matter: bool,
    /// JSON records without `metadata` and `language` (the title is the page's `<title>`):
    /// neither is worked out, which saves about a seventh of the time per page.
    #[arg(long, conflicts_with = "front_matter")]
    no_metadata: bool,
    /// Markdown, HTML, XML and TEI without links: each link is written as its text.
    #[arg(long)]
    no_links: bool,
    /// Markdown, HTML, XML and TEI without images.
    #[arg(long)]
    no_images: bool,
    /// A page-type model written by `chaff-lab train-page-type` (default: the built-in one).
    #[arg(long, value_name = "FILE")]
    page_type_model: Option<PathBuf>,
    /// A title chooser written by `chaff-lab train-title` (default: the built-in one).
    #[arg(long, value_name = "FILE")]
    title_model: Option<PathBuf>,
    /// Drop near-duplicates of an earlier page, compared on their extracted texts (at most 5
    /// words or 5% of them apart, by MinHash): a duplicate's record names the page it
    /// repeats (`duplicate_of`) instead of carrying the text; no file is written for it.
    #[arg(long)]
    dedup: bool,
    /// Near-duplicates across runs (implies --dedup): earlier runs' kept pages are read from
    /// this file when it exists, and this run's are added to it at the end.
    #[arg(long, value_name = "FILE")]
    dedup_index: Option<PathBuf>,
}

/// Runs `chaff extract`.
pub fn run(args: ExtractArgs) -> anyhow::Result<Status> {
    let mut registry = args.methods.registry()?;
    let page_methods = args.page_methods.register(&mut registry)?;
    let mut builder = Extractor::builder()
        .registry(registry.clone())
        .page_methods(page_methods)
        .include_comments(args.page_methods.comments)
        .front_matter(args.front_matter)
        .record_metadata(!args.no_metadata)
        .links(!args.no_links)
        .images(!args.no_images)
        .parse_options(args.input.parse_options())
        .site_from(args.input.site_from.into())
        .deadline(args.deadline);
    if !args.methods.method.is_empty() {
        builder = builder.site_methods(args.methods.method.iter().cloned());
    }
    if let Some(file) = &args.page_type_model {
        builder = builder.page_type_model(PageClassifier::load(file)?);
    }
    if let Some(file) = &args.title_model {
        builder = builder.title_model(TitleModel::load(file)?);
    }
    if let Some(dir) = &args.profiles {
        builder = builder.profiles(dir)?;
    }
    if let Some(file) = &args.profile {
        builder = builder.profile_for_every_page(Profile::load(file)?);
    }
    let inputs = args.input.open()?;
    // Standard input cannot be read twice: with --learn it is kept in memory.
    let buffered = args.learn && args.input.inputs.iter().any(|i| i == "-");
    let (kept, kept_errors): (Vec<PageItem>, Vec<PageItem>) = if buffered {
        inputs.pages()?.partition(Result::is_ok)
    } else {
        Default::default()
    };
    let kept: Vec<Page> = kept.into_iter().flatten().collect();
    let again = || -> anyhow::Result<Box<dyn Iterator<Item = PageItem> + '_>> {
        Ok(if buffered {
            Box::new(kept.iter().cloned().map(Ok))
        } else {
            Box::new(inputs.pages()?)
        })
    };
    let mut parsed = None;
    if args.learn {
        let learner = args
            .methods
            .learner(&registry, &args.input, args.min_site_pages)?;
        let progress = Progress::new(args.input.quiet, "learning");
        let budget = args.keep_parses.saturating_mul(1 << 20);
        let learned =
            learner.learn_sites_keeping(again()?, again()?, budget, &|b| progress.page(b));
        progress.finish();
        let (learned, kept) = learned?;
        parsed = Some(kept);
        for w in &learned.warnings {
            common::warn(w);
        }
        for profile in &learned.profiles {
            eprintln!("chaff: learned {}", profile.summary());
        }
        builder = builder.store(learned.profiles.into_iter().collect());
    }
    let extractor = builder.build()?;
    for w in extractor.warnings() {
        common::warn(w);
    }
    let dedup = chaff_dedup::Seen::for_run(args.dedup, args.dedup_index.as_deref())?;
    let mut sink = Sink {
        format: args.format,
        labels: args.labels,
        language: args.target_language.clone(),
        dedup,
        status: Status::Ok,
        written: 0,
        seen: 0,
        off_language: 0,
    };
    let pages = again()?.chain(kept_errors);
    let dir = args.output.as_deref().map(|d| (d, args.resume));
    let status = sink.run(&extractor, pages, parsed, dir, args.input.quiet)?;
    if let (Some(file), Some(seen)) = (&args.dedup_index, &sink.dedup) {
        seen.save(file)?;
    }
    Ok(status.max(inputs.status()))
}

/// What `extract` filters and counts on the way out.
struct Sink {
    format: Format,
    labels: bool,
    status: Status,
    written: usize,
    seen: usize,
    dedup: Option<chaff_dedup::Seen<String>>,
    language: Option<String>,
    off_language: usize,
}

impl Sink {
    /// Extracts every page (in parallel, output in input order) and writes the results:
    /// one file per page into the output folder, or to stdout (the bare content for a single
    /// page, JSON Lines for several).
    fn run(
        &mut self,
        ex: &Extractor,
        pages: impl Iterator<Item = PageItem>,
        parsed: Option<chaff::Parsed>,
        dir: Option<(&Path, bool)>,
        quiet: bool,
    ) -> anyhow::Result<Status> {
        let stdout = std::io::stdout().lock();
        let (mut dest, mut done) = match dir {
            Some((dir, resume)) => PageSink::into_folder(dir, stdout, resume)?,
            None => (
                PageSink::stream(stdout, "standard output"),
                Default::default(),
            ),
        };
        let pages = pages.filter(|p| !p.as_ref().is_ok_and(|p| done.take(&p.source)));
        let progress = Progress::new(quiet, "extracting");
        let window = IN_FLIGHT_PER_THREAD * rayon::current_num_threads();
        // Records on the stream, and every file format but plain text, carry the metadata.
        let prepare = dir.is_none() || self.format != Format::Text;
        let mut results = match parsed {
            Some(parsed) => ex.extract_all_parsed(pages, window, parsed),
            None => ex.extract_all(pages, window),
        }
        .prepare_records(prepare);
        while let Some(done) = results.next() {
            // Whether another page follows, told without waiting for its result.
            let alone = self.seen == 0 && !results.has_more();
            self.seen += 1;
            progress.page(done.size);
            let e = match done.result {
                Ok(e) => e,
                Err(e) => {
                    progress.warn(&e);
                    self.status = Status::Partial;
                    continue;
                }
            };
            for w in e.warnings() {
                progress.warn(format!("{}: {w}", e.source()));
            }
            if self.write(&mut dest, alone, &done.page, &e)? == WriteOutcome::Closed {
                progress.finish();
                return Ok(self.status);
            }
        }
        progress.finish();
        dest.finish()?;
        if let (Some(lang), n @ 1..) = (&self.language, self.off_language) {
            common::warn(format!("{n} pages left out: main text not in '{lang}'"));
        }
        if self.seen == 0 {
            anyhow::bail!("no pages found in the inputs");
        }
        if self.written == 0 {
            anyhow::bail!("no page could be extracted");
        }
        Ok(self.status)
    }

    fn write<W: Write>(
        &mut self,
        dest: &mut PageSink<W>,
        alone: bool,
        page: &Page,
        e: &chaff::Extraction,
    ) -> anyhow::Result<WriteOutcome> {
        self.written += 1;
        if self.language.as_ref().is_some_and(|l| !e.in_language(l)) {
            self.off_language += 1;
            return Ok(WriteOutcome::Written);
        }
        let duplicate_of = self
            .dedup
            .as_mut()
            .and_then(|d| d.duplicate_of(e.source().to_string(), e.text()));
        if let Some(kept) = duplicate_of {
            let record = e.duplicate_record(self.format, self.labels, &kept);
            return Ok(dest.record_only(&record)?);
        }
        let (format, labels) = (self.format, self.labels);
        let content = || e.output(format, labels);
        let record = || e.record_with(format, labels);
        Ok(dest.page(page, format.extension(), alone, content, record)?)
    }
}
