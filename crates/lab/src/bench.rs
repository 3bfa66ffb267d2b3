//! `chaff bench`: the speed figures the project promises, measured end to end in one run.
//!
//! * `bench learn`: the inputs, in order, up to a byte budget (default 220 MB of decoded
//!   HTML, the thesis's Business Week collection), learned as one collection; or a synthetic
//!   single-site collection of that size. Reports reading, parsing and mining times, total
//!   wall time, MB/s and the process's peak resident memory.
//! * `bench extract`: extraction throughput with a profile (`chaff::Extractor`, as `chaff
//!   extract --profile` runs), single-threaded (per core) and with all threads.
//! * `bench forest`: FOREST's learning time for 20 pages and its wrapper's time per page
//!   beside the parse time per page.
//! * `bench dedup`: near-duplicate signatures of a million synthetic texts, their index and
//!   `Seen` with URL keys: time per stage and peak memory (`crate::dedup_bench`).
//! * `bench output`: what metadata and structured output (Markdown with front matter) add
//!   to extraction on one thread, in thread CPU time.
//!
//! Timing lives here, never in tests.

use std::time::Instant;

use anyhow::{Context, bail};
use chaff::corpus::{Media, Page, Pages, PagesOptions};
use chaff::{
    Extractor, Learner, LoadOptions, LoadedPage, Parsed, Profile, SiteChoice, SiteFrom, load_page,
};
use clap::{Args, Subcommand};
use rayon::prelude::*;

use chaff_cli::common::Status;
use chaff_cli::flags::{AlignArgs, MethodArgs};

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand)]
enum What {
    /// Time `learn` on a collection of pages treated as one site.
    Learn(LearnBench),
    /// Time `extract` with a profile.
    Extract(CleanBench),
    /// Time the alignment method's learning per site for several sample sizes.
    Align(AlignBench),
    /// Crawl a local synthetic site with no delay: pages/s and resident memory.
    Crawl(crate::crawl_bench::CrawlBench),
    /// Time FOREST: learning from 20 pages of a site, and applying the wrapper to a page
    /// beside parsing it.
    Forest(crate::forest_eval::ForestBench),
    /// Time the page-level method on one core: parse, classify, smooth and extract each
    /// page, and smoothing alone.
    Pagelevel(crate::pagelevel::PagelevelBench),
    /// Sign a million synthetic texts and index them for near-duplicates: time per stage
    /// and peak memory.
    Dedup(crate::dedup_bench::DedupBench),
    /// What site learning costs on one core: a site's pages extracted page by page, against
    /// the same pages learned (the default site methods) and extracted with the profile (each
    /// page timed both ways side by side).
    Site(SiteBench),
    /// The hostile inputs of the hardening issue through the shipping `chaff extract`, one
    /// child process each: time and peak memory against the bounds, with a verdict.
    Adversarial(crate::adversarial::AdversarialBench),
    /// What metadata and structure add on one core: pages extracted to plain text, against
    /// the same pages with their metadata read and Markdown with front matter rendered (each
    /// page timed both ways side by side).
    Output(TimedPages),
}

#[derive(Args)]
struct SiteBench {
    /// One site's pages (files, folders, globs, WARCs), all treated as one site.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Use the first N pages.
    #[arg(long, default_value_t = 100)]
    pages: usize,
    /// Repeat learning and each page's two extractions this many times and keep the best
    /// of each.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    #[command(flatten)]
    methods: MethodArgs,
}

#[derive(Args)]
struct AlignBench {
    /// Pages to read (grouped into sites by their site keys).
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Sample sizes t to time.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "2,4,8,16,32",
        value_name = "T,..."
    )]
    sweep: Vec<usize>,
    /// Repeat each learning this many times and keep the best time.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Align just these two pages (time, tokens and peak memory) instead.
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "inputs")]
    pair: Vec<String>,
    #[command(flatten)]
    align: AlignArgs,
}

#[derive(Args)]
struct LearnBench {
    /// Pages to read, in order (files, folders, globs, WARCs).
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Stop reading once this many bytes of pages are in (decoded size).
    #[arg(long, default_value = "220MB", value_parser = parse_bytes)]
    budget: u64,
    /// Generate a synthetic single-site collection of --budget bytes instead of reading.
    #[arg(long, conflicts_with = "inputs")]
    synthetic: bool,
    #[command(flatten)]
    methods: MethodArgs,
}

#[derive(Args)]
struct CleanBench {
    /// The profile to extract with.
    #[arg(long, short)]
    profile: std::path::PathBuf,
    #[command(flatten)]
    pages: TimedPages,
}

/// The pages a timing bench extracts, and how often.
#[derive(Args)]
struct TimedPages {
    /// Pages to extract (files, folders, WARCs; `.gz` pages are read).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Stop reading once this many bytes of pages are in.
    #[arg(long, default_value = "220MB", value_parser = parse_bytes)]
    budget: u64,
    /// Repeat each single-threaded pass this many times and keep the best (`bench output`:
    /// each page's best).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
}

fn parse_bytes(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.to_ascii_uppercase() {
        u if u.ends_with("GB") => (&s[..s.len() - 2], 1_000_000_000),
        u if u.ends_with("MB") => (&s[..s.len() - 2], 1_000_000),
        u if u.ends_with("KB") => (&s[..s.len() - 2], 1_000),
        _ => (s, 1),
    };
    num.trim()
        .parse::<f64>()
        .map(|n| (n * mult as f64) as u64)
        .map_err(|_| format!("not a size: {s:?} (use e.g. 220MB)"))
}

pub fn run(args: BenchArgs) -> anyhow::Result<Status> {
    match args.what {
        What::Learn(b) => learn(b),
        What::Extract(b) => extract(b),
        What::Align(b) => align(b),
        What::Crawl(b) => crate::crawl_bench::bench(b),
        What::Forest(b) => crate::forest_eval::bench(b),
        What::Pagelevel(b) => crate::pagelevel::bench(b),
        What::Site(b) => site(b),
        What::Dedup(b) => crate::dedup_bench::bench(b),
        What::Adversarial(b) => crate::adversarial::bench(b),
        What::Output(b) => output(b),
    }
}

/// Reads pages from the inputs, in order, until `budget` bytes are in.
fn read_pages(inputs: &[String], budget: u64) -> anyhow::Result<Vec<Page>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for page in Pages::from_args(inputs, PagesOptions::default())? {
        let Ok(page) = page else { continue };
        total += page.bytes.len() as u64;
        out.push(page);
        if total >= budget {
            break;
        }
    }
    if out.is_empty() {
        bail!("no pages in the inputs");
    }
    Ok(out)
}

fn synthetic_pages(budget: u64) -> Vec<Page> {
    // Pages of one site; generate in batches until the budget is reached.
    let mut out = Vec::new();
    let mut total = 0u64;
    let mut batch = 0u64;
    while total < budget {
        let site = chaff_synth::generate_site(&chaff_synth::SiteConfig {
            seed: 7,
            site_index: 0,
            pages: 2000,
            archive: Some(10_000),
            style: None,
            domain: None,
        });
        for p in site.pages {
            total += p.html.len() as u64;
            out.push(Page {
                source: format!("synthetic/{batch}/{}", p.file),
                url: Some(p.url),
                bytes: p.html.into_bytes(),
                charset: None,
                folder: None,
                media: Media::Html,
            });
            if total >= budget {
                break;
            }
        }
        batch += 1;
    }
    out
}

/// `chaff learn` on a collection in memory, through `chaff::Learner` as one site.
fn learn(b: LearnBench) -> anyhow::Result<Status> {
    let registry = b.methods.registry()?;
    let learner =
        Learner::new(&registry, &b.methods.names_or(&["suffix"]))?.site_from(SiteFrom::Folder);
    let t0 = Instant::now();
    let mut pages = if b.synthetic {
        synthetic_pages(b.budget)
    } else {
        read_pages(&b.inputs, b.budget)?
    };
    // One collection: every page in one folder, named by it.
    for p in &mut pages {
        p.folder = Some("collection".into());
    }
    let bytes: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let n = pages.len();
    let read = t0.elapsed();
    let t1 = Instant::now();
    let learned = learner.learn(pages.into_iter().map(Ok), &SiteChoice::Single, &|_| {})?;
    let wall = t1.elapsed().as_secs_f64();
    let total = t0.elapsed();
    let mb = bytes as f64 / 1e6;
    let summary = learned
        .profiles
        .first()
        .map(crate::profile_summary)
        .unwrap_or_default();
    outln!("learn: {n} pages, {mb:.1} MB of HTML; {summary}")?;
    outln!(
        "  read {:.2} s; learn wall (parse + mine) {wall:.2} s ({:.1} MB/s), with reading {:.2} s",
        read.as_secs_f64(),
        mb / wall,
        total.as_secs_f64()
    )?;
    outln!(
        "  peak memory {}, threads {}",
        peak_memory(),
        rayon::current_num_threads()
    )?;
    Ok(Status::Ok)
}

/// Site learning's cost on one core against page-level extraction, pages in memory, three
/// ways: through the calls `chaff extract --learn` makes (learning keeps its parses within
/// the default budget, extraction reads them), the same keeping none (every page parsed
/// twice, as pages past the budget are), and parsed once by a library caller holding the
/// site's pages. All learn the same profile and extract the same text (checked every round;
/// the bench fails if not).
fn site(b: SiteBench) -> anyhow::Result<Status> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let registry = b.methods.registry()?;
    let mut pages = read_pages(&b.inputs, u64::MAX)?;
    pages.truncate(b.pages);
    for p in &mut pages {
        p.folder = Some("site".into());
    }
    let mb = pages.iter().map(|p| p.bytes.len() as f64).sum::<f64>() / 1e6;
    let page_level = Extractor::builder()
        .registry(registry.clone())
        .site_from(SiteFrom::Folder)
        .build()?;
    let methods = b.methods.names_or(chaff::DEFAULT_SITE_METHODS);
    let learner = Learner::new(&registry, &methods)?.site_from(SiteFrom::Folder);
    let with_profile = |profile: Profile| -> anyhow::Result<Extractor> {
        Ok(Extractor::builder()
            .registry(registry.clone())
            .site_from(SiteFrom::Folder)
            .profile_for_every_page(profile)
            .build()?)
    };
    // Three ways a site is learned and extracted. As `chaff extract --learn` does: the
    // learner reads the stream (a counting pass, then the pages), keeping the parses of the
    // pages within the command's default budget, and each page is extracted from its kept
    // parse; the same with no parse kept (every page parsed again, as pages past the budget
    // are); and as a library caller holding a site's pages does: `Learner::learn_pages` on
    // their parses, then `Extractor::extract_loaded` on the same parses.
    let learn_streaming = |count: Vec<Page>,
                           batch: Vec<Page>,
                           budget: u64|
     -> anyhow::Result<(Profile, Extractor, Parsed)> {
        let (l, parsed) = learner.learn_sites_keeping(
            count.into_iter().map(Ok),
            batch.into_iter().map(Ok),
            budget,
            &|_| {},
        )?;
        let profile = l.profiles.into_iter().next().context("nothing learned")?;
        Ok((profile.clone(), with_profile(profile)?, parsed))
    };
    let mut load = learner.load_options().clone();
    load.keep_source |= page_level.load_options().keep_source;
    let learn_parsed = |batch: Vec<Page>| -> anyhow::Result<(Profile, Extractor, Vec<LoadedPage>)> {
        let loaded = batch
            .into_iter()
            .map(|p| load_page(p, &load))
            .collect::<Result<Vec<_>, _>>()?;
        let profile = learner.learn_pages("site", &loaded)?;
        let ex = with_profile(profile.clone())?;
        Ok((profile, ex, loaded))
    };
    // Thread CPU time on the pool's one thread. Learning is one block, timed alone; then each
    // page is extracted the four ways side by side, the order rotating from page to page,
    // and each page keeps its least time of each kind over the rounds. This machine's
    // virtual CPU loses time to its host in bursts: whole passes timed apart (even taking
    // turns) moved the ratio by a third from run to run, while extractions a millisecond
    // apart see the same weather.
    let timed = pool.install(|| -> anyhow::Result<SiteTimes> {
        let mut t = SiteTimes::new(pages.len());
        for round in 0..b.rounds.max(1) {
            // What each way takes owned is copied before its clock starts, so no way times a
            // copy.
            let (count, batch) = (pages.clone(), pages.clone());
            let clock = thread_cpu_seconds();
            let (kept_profile, kept, mut parses) =
                learn_streaming(count, batch, Parsed::DEFAULT_BUDGET)?;
            t.learn[0] = t.learn[0].min(thread_cpu_seconds() - clock);
            let (count, batch) = (pages.clone(), pages.clone());
            let clock = thread_cpu_seconds();
            let (twice_profile, twice, _) = learn_streaming(count, batch, 0)?;
            t.learn[1] = t.learn[1].min(thread_cpu_seconds() - clock);
            let batch = pages.clone();
            let clock = thread_cpu_seconds();
            let (once_profile, once, loaded) = learn_parsed(batch)?;
            t.learn[2] = t.learn[2].min(thread_cpu_seconds() - clock);
            if kept_profile != once_profile || twice_profile != once_profile {
                bail!("the ways of learning the site gave different profiles");
            }
            t.summary = crate::profile_summary(&once_profile);
            for (k, (p, l)) in pages.iter().zip(loaded).enumerate() {
                let mut texts: [Option<String>; 4] = Default::default();
                let mut from_learning = parses.take(&p.source);
                let mut from_library = Some(l);
                for i in 0..4 {
                    let kind = (k + round + i) % 4;
                    let page = p.clone();
                    let (kept_parse, library_parse) = match kind {
                        1 => (from_learning.take(), None),
                        3 => (None, from_library.take()),
                        _ => (None, None),
                    };
                    let clock = thread_cpu_seconds();
                    let text = match kind {
                        0 => page_level.extract_page(page).ok(),
                        1 => kept
                            .extract_page_parsed(page, kept_parse, parses.load_options())
                            .ok(),
                        2 => twice.extract_page(page).ok(),
                        _ => library_parse.map(|parse| once.extract_loaded(parse)),
                    }
                    .map(|e| e.text().to_string());
                    let slot = &mut t.least[k][kind];
                    *slot = slot.min(thread_cpu_seconds() - clock);
                    texts[kind] = text;
                }
                if texts[1] != texts[3] || texts[2] != texts[3] {
                    bail!(
                        "{}: the ways of extracting with the profile gave different texts",
                        p.source
                    );
                }
            }
        }
        Ok(t)
    })?;
    outln!(
        "site: {} pages, {mb:.1} MB of HTML; {}",
        pages.len(),
        timed.summary
    )?;
    let alone = timed.sum(0);
    outln!(
        "  one core (thread CPU time; learning least of {} rounds, each page extracted the four ways side by side, least per page): page by page {alone:.3} s ({:.2} ms/page)",
        b.rounds.max(1),
        alone * 1e3 / pages.len().max(1) as f64,
    )?;
    for (what, learning, kind) in [
        (
            "as `chaff extract --learn` (learning's parses kept and extracted from)",
            timed.learn[0],
            1,
        ),
        (
            "`chaff extract --learn --keep-parses 0` (every page parsed again)",
            timed.learn[1],
            2,
        ),
        (
            "parsed once by a library caller (`Learner::learn_pages`, `Extractor::extract_loaded`)",
            timed.learn[2],
            3,
        ),
    ] {
        let extracting = timed.sum(kind);
        outln!(
            "  {what}: learned {learning:.3} s, extracted {extracting:.3} s, together {:.3} s; ratio {:.2}",
            learning + extracting,
            (learning + extracting) / alone
        )?;
    }
    Ok(Status::Ok)
}

/// The least thread CPU times of `bench site`: learning each way (kept parses, none kept,
/// parsed once by the caller), and per page its extraction page by page (0), from the parse
/// learning kept (1), from its bytes with the profile (2) and from the caller's parse (3);
/// and the learned profile's summary.
struct SiteTimes {
    learn: [f64; 3],
    least: Vec<[f64; 4]>,
    summary: String,
}

impl SiteTimes {
    fn new(pages: usize) -> SiteTimes {
        SiteTimes {
            learn: [f64::INFINITY; 3],
            least: vec![[f64::INFINITY; 4]; pages],
            summary: String::new(),
        }
    }

    fn sum(&self, kind: usize) -> f64 {
        self.least.iter().map(|t| t[kind]).sum()
    }
}

/// `chaff extract --profile` on pages in memory: one thread, then all threads.
fn extract(b: CleanBench) -> anyhow::Result<Status> {
    let profile = Profile::load(&b.profile)?;
    let summary = crate::profile_summary(&profile);
    let ex = Extractor::builder()
        .profile_for_every_page(profile)
        .build()?;
    let pages = read_pages(&b.pages.inputs, b.pages.budget)?;
    let bytes: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let mb = bytes as f64 / 1e6;
    let one = |p: &Page| -> anyhow::Result<usize> {
        Ok(ex.extract(&p.bytes, p.url.as_deref())?.text().len())
    };
    let mut best = f64::INFINITY;
    for _ in 0..b.pages.rounds.max(1) {
        let t = Instant::now();
        let mut out = 0usize;
        for p in &pages {
            out += one(p).with_context(|| p.source.clone()).unwrap_or(0);
        }
        std::hint::black_box(out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let t = Instant::now();
    let out: usize = pages.par_iter().map(|p| one(p).unwrap_or(0)).sum();
    std::hint::black_box(out);
    let all = t.elapsed().as_secs_f64();
    outln!(
        "extract: {} pages, {mb:.1} MB of HTML; {summary}",
        pages.len()
    )?;
    outln!(
        "  one thread: {best:.2} s = {:.1} MB/s per core; {} threads: {all:.2} s = {:.1} MB/s",
        mb / best,
        rayon::current_num_threads(),
        mb / all
    )?;
    outln!("  peak memory {}", peak_memory())?;
    Ok(Status::Ok)
}

/// The CPU time this thread has used, in seconds: unlike wall time, untouched by other
/// processes sharing the machine.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec it is given, which lives on this stack.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
    } else {
        f64::NAN
    }
}

/// `chaff-lab bench output`: on one thread, each page extracted to its plain text (what
/// every extraction computes) and, right beside it, extracted again with the metadata read
/// and Markdown with YAML front matter rendered (headings, lists, tables, code); the share
/// the second adds, in thread CPU time.
///
/// The two are measured as a pair, page by page, and the order within a pair alternates
/// from page to page (so neither always finds the page warm in the caches); each page keeps
/// the least time of each kind over the rounds. This machine's virtual CPU loses time to
/// its host in bursts of seconds: two whole passes timed apart, least of seven rounds each,
/// printed anything from +4.7% to +25.3% on one build in one morning (the metadata and
/// Markdown clocked alone: 13.1% and 15.2%), while pairs a few milliseconds apart see the
/// same weather.
fn output(b: TimedPages) -> anyhow::Result<Status> {
    let ex = Extractor::builder().front_matter(true).build()?;
    let pages = read_pages(&b.inputs, b.budget)?;
    let mb = pages.iter().map(|p| p.bytes.len() as f64).sum::<f64>() / 1e6;
    // Per page, the least seconds of: plain text; the full record; its metadata; its
    // Markdown (the last two clocked around their calls, so each share can be told apart).
    let mut least = vec![[f64::INFINITY; 4]; pages.len()];
    let mut failed = 0usize;
    let mut out = 0usize;
    for round in 0..b.rounds.max(1) {
        for (k, p) in pages.iter().enumerate() {
            let plain_first = (k + round) % 2 == 0;
            let mut times = [f64::INFINITY; 4];
            for full in [!plain_first, plain_first] {
                let start = thread_cpu_seconds();
                let Ok(e) = ex.extract(&p.bytes, p.url.as_deref()) else {
                    failed += usize::from(round == 0);
                    break;
                };
                out += e.text().len();
                if full {
                    let t0 = thread_cpu_seconds();
                    out += std::hint::black_box(e.metadata()).authors.len();
                    let t1 = thread_cpu_seconds();
                    out += e.markdown().len();
                    let t2 = thread_cpu_seconds();
                    drop(e);
                    times[1] = thread_cpu_seconds() - start;
                    times[2] = t1 - t0;
                    times[3] = t2 - t1;
                } else {
                    drop(e);
                    times[0] = thread_cpu_seconds() - start;
                }
            }
            for (l, t) in least[k].iter_mut().zip(times) {
                *l = l.min(t);
            }
        }
    }
    std::hint::black_box(out);
    let extracted: Vec<&[f64; 4]> = least
        .iter()
        .filter(|t| t[0].is_finite() && t[1].is_finite())
        .collect();
    let sum = |i: usize| extracted.iter().map(|t| t[i]).sum::<f64>();
    let (text, full, meta, markdown) = (sum(0), sum(1), sum(2), sum(3));
    outln!(
        "output: {} pages ({} not extracted), {mb:.1} MB of HTML, one thread (thread CPU time; each page timed both ways side by side, order alternating, least of {} rounds)",
        pages.len(),
        failed,
        b.rounds.max(1)
    )?;
    outln!(
        "  plain text: {text:.2} s; with metadata and Markdown + front matter: {full:.2} s; added {:.1}%",
        (full / text - 1.0) * 100.0
    )?;
    outln!(
        "  of which metadata {meta:.2} s ({:.1}% of plain text), Markdown + front matter {markdown:.2} s ({:.1}%)",
        meta / text * 100.0,
        markdown / text * 100.0
    )?;
    Ok(Status::Ok)
}

/// The process's peak resident memory (Linux `VmHWM`), or "unknown".
fn peak_memory() -> String {
    crate::crawl_bench::proc_status_kib("VmHWM:").map_or_else(
        || "unknown".into(),
        |kb| format!("{:.2} GB", kb as f64 / 1e6),
    )
}

/// Per site and sample size: template tokens and learning time (the paper's Figure 2b and
/// the tokens of Table 2), from token sequences already in memory.
fn align(b: AlignBench) -> anyhow::Result<Status> {
    let tokens_of = |page: Page| -> anyhow::Result<(String, chaff_align::PageTokens)> {
        let config = b.align.config(2)?;
        let loaded = load_page(page, &LoadOptions::default())?;
        let t = chaff_align::tokenize(&loaded.doc, &config.tokens);
        Ok((loaded.site.as_str().to_string(), t))
    };
    if !b.pair.is_empty() {
        let pages = read_pages(&b.pair, u64::MAX)?;
        let toks: Vec<chaff_align::PageTokens> = pages
            .into_iter()
            .map(|p| tokens_of(p).map(|(_, t)| t))
            .collect::<anyhow::Result<_>>()?;
        let (Some(x), Some(y)) = (toks.first(), toks.get(1)) else {
            bail!("--pair needs two readable pages");
        };
        let mut vocab = std::collections::HashMap::new();
        let mut ids = |t: &chaff_align::PageTokens| -> Vec<u32> {
            t.iter()
                .map(|s| {
                    let next = vocab.len() as u32;
                    *vocab.entry(s.to_string()).or_insert(next)
                })
                .collect()
        };
        let (a, c) = (ids(x), ids(y));
        let start = Instant::now();
        let fast = chaff_align::nw::align(&a, &c);
        let fast_s = start.elapsed().as_secs_f64();
        outln!(
            "pair: {} x {} tokens; fast path score {} in {:.3} s; peak memory {}",
            a.len(),
            c.len(),
            fast.score,
            fast_s,
            peak_memory()
        )?;
        let start = Instant::now();
        let exact = chaff_align::nw::align_exact(&a, &c);
        outln!(
            "exact (Hirschberg) score {} in {:.3} s; peak memory {}",
            exact.score,
            start.elapsed().as_secs_f64(),
            peak_memory()
        )?;
        return Ok(Status::Ok);
    }
    if b.inputs.is_empty() {
        bail!("name the pages to read, or two pages with --pair");
    }
    let pages = read_pages(&b.inputs, u64::MAX)?;
    let parsed: Vec<anyhow::Result<(String, chaff_align::PageTokens)>> =
        pages.into_par_iter().map(tokens_of).collect();
    let mut sites: std::collections::BTreeMap<String, Vec<chaff_align::PageTokens>> =
        Default::default();
    for p in parsed {
        match p {
            Ok((site, t)) => sites.entry(site).or_default().push(t),
            Err(e) => crate::common::warn(format!("{e:#}")),
        }
    }
    outln!(
        "{:<28} {:>6} {:>8} {:>4} {:>8} {:>10} {:>10}",
        "site",
        "pages",
        "tokens",
        "t",
        "sampled",
        "template",
        "learn ms"
    )?;
    for (site, toks) in &sites {
        if toks.len() < 2 {
            continue;
        }
        let mean = toks.iter().map(|t| t.len()).sum::<usize>() as f64 / toks.len() as f64;
        for &t in &b.sweep {
            let config = b.align.config(t)?;
            let mut best = f64::INFINITY;
            let mut learned = None;
            for _ in 0..b.rounds.max(1) {
                let start = Instant::now();
                let l = chaff_align::learn(toks, &config)?;
                best = best.min(start.elapsed().as_secs_f64() * 1000.0);
                learned = Some(l);
            }
            let Some(l) = learned else { continue };
            outln!(
                "{:<28} {:>6} {:>8.0} {:>4} {:>8} {:>10} {:>10.1}",
                site.chars().take(28).collect::<String>(),
                toks.len(),
                mean,
                t,
                l.model.sample_pages,
                l.model.template.len(),
                best
            )?;
        }
    }
    outln!(
        "peak memory {}, threads {}",
        peak_memory(),
        rayon::current_num_threads()
    )?;
    Ok(Status::Ok)
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("220MB"), Ok(220_000_000));
        assert_eq!(parse_bytes("1.5gb"), Ok(1_500_000_000));
        assert_eq!(parse_bytes("512"), Ok(512));
        assert!(parse_bytes("lots").is_err());
    }
}
