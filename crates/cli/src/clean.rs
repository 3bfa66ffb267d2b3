//! `chaff clean`: a site's template removed from its pages.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use chaff::corpus::{JsonlWriter, OutputNames, WriteOutcome, atomic_write};
use chaff::{Cleaner, Format, Profile, load_page};
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use crate::common::{self, InputArgs, Status};

#[derive(Args)]
pub struct CleanArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The site profile learned by `chaff learn`.
    #[arg(long, short, value_name = "FILE")]
    profile: PathBuf,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: FormatArg,
    /// Clean with only these of the profile's methods (comma-separated; default: all it has).
    #[arg(long, value_enum, value_delimiter = ',')]
    method: Vec<crate::learn::Method>,
    /// Also remove each page's main menu, found by the menu detector (role `menu` in the
    /// labels).
    #[arg(long)]
    menu: bool,
    /// The menu detector's parameters, as written by `chaff train-menu` (implies --menu).
    #[arg(long, value_name = "FILE")]
    menu_params: Option<PathBuf>,
    /// Write one file per page into this directory instead of stdout (JSON Lines when there
    /// are several pages).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Pages processed in parallel per batch; output keeps input order.
const BATCH: usize = 64;

pub fn run(args: CleanArgs) -> anyhow::Result<Status> {
    let profile = Profile::load(&args.profile)?;
    let methods = (!args.method.is_empty()).then(|| crate::learn::method_set(&args.method));
    let mut cleaner = Cleaner::with_methods(profile, args.input.parse_options(), methods)?;
    if args.menu || args.menu_params.is_some() {
        cleaner = cleaner.with_menu(crate::menu::load_params(args.menu_params.as_ref())?);
    }
    let load = cleaner.load_options();
    write_cleaned(
        &args.input,
        args.format.into(),
        args.output.as_deref(),
        &|page| cleaner.clean(load_page(page, &load)?),
    )
}

/// Cleans every input page with `clean` (in parallel batches, output in input order) and
/// writes the results: one file per page into `output`, or to stdout (the bare output for a
/// single page, JSON Lines for several).
pub fn write_cleaned(
    input: &InputArgs,
    format: Format,
    output: Option<&std::path::Path>,
    clean: &(dyn Fn(chaff::corpus::Page) -> Result<chaff::CleanedPage, chaff::Error> + Sync),
) -> anyhow::Result<Status> {
    if let Some(dir) = output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut pages = input.pages()?.peekable();
    let bar = common::progress(input.quiet, "cleaning");
    let mut status = Status::Ok;
    let mut names = OutputNames::new();
    let mut index = 0usize;
    let mut seen = 0usize;
    let mut jsonl: Option<JsonlWriter<std::io::StdoutLock<'static>>> = None;
    let mut single: Option<String> = None;
    loop {
        let batch: Vec<_> = pages.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let first_batch = seen == 0;
        seen += batch.len();
        let only_one = first_batch && batch.len() == 1 && pages.peek().is_none();
        let results: Vec<_> = batch
            .into_par_iter()
            .map(|page| {
                let page = page.map_err(chaff::Error::from)?;
                let size = page.bytes.len() as u64;
                // The page's provenance, for output names; its bytes go to the parser.
                let meta = chaff::corpus::Page {
                    source: page.source.clone(),
                    url: page.url.clone(),
                    bytes: Vec::new(),
                    charset: None,
                    folder: page.folder.clone(),
                    media: page.media,
                };
                let cleaned = clean(page)?;
                bar.inc(1);
                bar.inc_length(size);
                Ok::<_, chaff::Error>((meta, cleaned))
            })
            .collect();
        for r in results {
            let (meta, cleaned) = match r {
                Ok(ok) => ok,
                Err(e) => {
                    bar.suspend(|| common::warn(&e));
                    status = Status::Partial;
                    continue;
                }
            };
            if let Some(dir) = output {
                let name = names.name(&meta, index, format.extension());
                atomic_write(dir.join(&name), cleaned.render(format).as_bytes())?;
            } else if only_one {
                single = Some(cleaned.render(format));
            } else {
                let w = jsonl
                    .get_or_insert_with(|| JsonlWriter::new(std::io::stdout().lock(), "stdout"));
                if w.write(&cleaned.record(format))? == WriteOutcome::Closed {
                    bar.finish_and_clear();
                    return Ok(status);
                }
            }
            index += 1;
        }
    }
    bar.finish_and_clear();
    if let Some(w) = jsonl.as_mut() {
        w.flush()?;
    }
    if let Some(text) = single {
        let mut out = std::io::stdout().lock();
        match out
            .write_all(text.as_bytes())
            .and_then(|_| out.write_all(b"\n"))
            .and_then(|_| out.flush())
        {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => other?,
        }
    }
    if seen == 0 {
        anyhow::bail!("no pages found in the inputs");
    }
    if index == 0 {
        anyhow::bail!("no page could be cleaned");
    }
    Ok(status)
}
