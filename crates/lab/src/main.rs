//! `chaff-lab`: the research harness. Evaluation on the shared data sets, cross-validation,
//! training recipes for the built-in models, figures, synthetic sweeps and benchmarks; and
//! the inspection tools that look inside one method (`segment`, `menu`, `xpath`).
//!
//! It reaches learning and extraction only through the `chaff` facade (`chaff::Learner`,
//! `chaff::Extractor`), exactly as a user of the library does, so every figure it prints is a
//! figure of the code that ships. No shipping crate depends on it.

/// `println!` that returns the write error instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod adversarial;
mod align_sweep;
mod bench;
mod content;
mod content_site;
mod crawl_bench;
mod dedup_bench;
mod dedup_eval;
mod eval;
mod favor;
mod forest_eval;
mod fuzz_seeds;
mod language;
mod menu;
mod menu_cmd;
mod page_type;
mod pagelevel;
mod plot;
mod segment;
mod synth;
mod title;
mod xpath;

use std::process::ExitCode;

use chaff_cli::common;
use clap::{Parser, Subcommand};

/// The allocator the `chaff` binary uses (jemalloc; see its `main.rs` for why), so the
/// benchmarks here time what a user runs.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// chaff's research harness: evaluation, training recipes, figures and benchmarks.
#[derive(Parser)]
#[command(name = "chaff-lab", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Score against gold text: data sets, predictions, or synthetic sites.
    Eval(Box<eval::EvalArgs>),
    /// Measure learning and extraction speed and memory.
    Bench(bench::BenchArgs),
    /// Write labelled synthetic sites (the project's ground truth) to a folder.
    Synth(synth::SynthArgs),
    /// Fit the menu detector's weights and thresholds to labelled pages.
    TrainMenu(menu::TrainMenuArgs),
    /// Train the content model on human-labelled pages (the built-in model's recipe).
    TrainContent(content::TrainContentArgs),
    /// Train the page-type classifier on wcxb-dev, with its domain-disjoint CV accuracy.
    TrainPageType(page_type::TrainPageTypeArgs),
    /// Train the title chooser on wcxb-dev, with its domain-disjoint CV exact-title rate.
    TrainTitle(title::TrainTitleArgs),
    /// Train the page-level classifier on multi-page sites (labels from SiteLevel).
    Train(pagelevel::TrainArgs),
    /// Draw a suffix model's document-frequency histogram with its cutoff, as SVG.
    PlotHistogram(plot::HistogramArgs),
    /// Print each page's segments with their templateness by the page-level method.
    Segment(segment::SegmentArgs),
    /// Print each page's main menu: its selector and links.
    Menu(menu_cmd::MenuArgs),
    /// Evaluate an XPath expression on pages (to check or edit a FOREST wrapper).
    Xpath(xpath::XPathArgs),
    /// Near-duplicate detection on synthetic sites, on whole pages and on extracted text.
    Dedup(dedup_eval::DedupArgs),
    /// How `chaff extract --target-language` decides pages' languages, against whatlang on
    /// the whole extracted text.
    Language(language::LanguageArgs),
    /// Extract held-out Dragnet training pages under content-model settings (the favor points).
    Favor(favor::FavorArgs),
    /// Write the hostile inputs of the hardening benchmark into a folder.
    Adversarial(adversarial::AdversarialArgs),
    /// Write the seed corpora of the fuzz targets (`fuzz/`) into a folder.
    FuzzSeeds(fuzz_seeds::FuzzSeedsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Eval(args) => eval::run(*args),
        Command::Bench(args) => bench::run(args),
        Command::Synth(args) => synth::run(args),
        Command::TrainMenu(args) => menu::train(args),
        Command::Train(args) => pagelevel::train(args),
        Command::TrainContent(args) => content::run(args),
        Command::TrainPageType(args) => page_type::run(args),
        Command::TrainTitle(args) => title::run(args),
        Command::PlotHistogram(args) => plot::plot_histogram(args),
        Command::Segment(args) => segment::run(args),
        Command::Menu(args) => menu_cmd::run(args),
        Command::Xpath(args) => xpath::run(args),
        Command::Dedup(args) => dedup_eval::run(args),
        Command::Language(args) => language::run(args),
        Command::Favor(args) => favor::run(args),
        Command::Adversarial(args) => adversarial::run(args),
        Command::FuzzSeeds(args) => fuzz_seeds::run(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            if common::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("chaff-lab: error: {}", common::error_line(&e));
            ExitCode::from(2)
        }
    }
}

/// One line on what a profile holds (site, pages, models).
fn profile_summary(profile: &chaff::Profile) -> String {
    let models: Vec<String> = profile
        .methods
        .iter()
        .map(
            |(name, model)| match model.get("expressions").and_then(|e| e.as_array()) {
                Some(e) => format!("{name} ({} expressions)", e.len()),
                None => name.clone(),
            },
        )
        .collect();
    format!(
        "{}: {} pages; {}",
        profile.site,
        profile.pages,
        models.join(", ")
    )
}
