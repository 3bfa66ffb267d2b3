//! `chaff learn`: pages of a site in, a site profile out (or one per site).

use std::io::Write;
use std::path::PathBuf;

use anyhow::bail;
use chaff::SiteChoice;
use clap::Args;

use chaff_cli::common::{self, InputArgs, Progress, Status};
use chaff_cli::flags::MethodArgs;

/// Arguments of `chaff learn`.
#[derive(Args)]
pub struct LearnArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    methods: MethodArgs,
    /// Where to write the profile (with --per-site: a folder, one profile per site).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Learn only the pages of this site (a registrable domain, or a folder name for pages
    /// without URLs).
    #[arg(long, conflicts_with = "per_site")]
    site: Option<String>,
    /// Learn one profile per site found in the inputs, with cross-site filtering.
    #[arg(long)]
    per_site: bool,
    /// With --per-site: sites with fewer pages are not learned.
    #[arg(long, default_value_t = 2, value_name = "N")]
    min_site_pages: usize,
    /// Print the suffix method's cleaning expressions, one per line, on stdout.
    #[arg(long)]
    print_regexes: bool,
}

/// Runs `chaff learn`.
pub fn run(args: LearnArgs) -> anyhow::Result<Status> {
    if args.output.is_none() && !args.print_regexes {
        bail!("say where to write the profile with -o (or use --print-regexes)");
    }
    let registry = args.methods.registry()?;
    let learner = args
        .methods
        .learner(&registry, &args.input, args.min_site_pages)?;
    let choice = match (&args.site, args.per_site) {
        (Some(site), _) => SiteChoice::Named(site.clone()),
        (None, true) => SiteChoice::PerSite,
        (None, false) => SiteChoice::Single,
    };
    let inputs = args.input.open()?;
    let progress = Progress::new(args.input.quiet, "learning");
    let learned = learner.learn(inputs.pages()?, &choice, &|b| progress.page(b));
    progress.finish();
    let learned = learned.map_err(|e| match e {
        chaff::Error::MixedSites { count, sites } => anyhow::anyhow!(
            "the pages come from {count} sites: {sites}; name one with --site, or learn one \
             profile per site with --per-site"
        ),
        other => other.into(),
    })?;
    for note in learned.notes() {
        common::warn(note);
    }
    let status = match learned.page_errors.is_empty() {
        true => inputs.status(),
        false => Status::Partial,
    };
    if learned.profiles.is_empty() {
        bail!("no site had enough pages to learn from");
    }
    for profile in &learned.profiles {
        if let Some(out) = &args.output {
            let path = match args.per_site {
                true => profile.save_in(out)?,
                false => profile.save(out).map(|()| out.clone())?,
            };
            eprintln!("chaff: {} -> {}", profile.summary(), path.display());
        }
        for re in profile.suffix_regexes().filter(|_| args.print_regexes) {
            writeln!(std::io::stdout().lock(), "{re}")?;
        }
    }
    Ok(status)
}
