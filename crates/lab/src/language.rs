//! `chaff-lab language`: how `chaff extract --target-language` decides a page's language
//! (`Extraction::language`: whatlang on the first characters of the extracted text, the
//! page's declaration when whatlang calls its guess unreliable), against a reference:
//! whatlang on the whole extracted text, whatever its reliability. For each language with
//! enough reference pages: the share of the pages kept whose reference is that language
//! (precision) and of the reference's pages that are kept (recall); beside it, the same for
//! a filter that reads only the page's declaration, which the reference does not share.

use std::collections::BTreeMap;

use chaff::Extractor;
use chaff_cli::common::{InputArgs, Status};
use clap::Args;
use rayon::prelude::*;

/// Arguments of `chaff-lab language`.
#[derive(Args)]
pub struct LanguageArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Languages with fewer reference pages are summed up under "others".
    #[arg(long, default_value_t = 20, value_name = "N")]
    min_pages: usize,
}

/// What one page said.
struct Judged {
    decided: Option<String>,
    declared: Option<String>,
    reference: Option<String>,
}

/// Runs `chaff-lab language`.
pub fn run(args: LanguageArgs) -> anyhow::Result<Status> {
    let ex = Extractor::builder()
        .parse_options(args.input.parse_options())
        .build()?;
    let pages: Vec<_> = args.input.pages()?.filter_map(Result::ok).collect();
    let judged: Vec<Judged> = pages
        .par_iter()
        .filter_map(|p| ex.extract(&p.bytes, p.url.as_deref()).ok())
        .map(|e| Judged {
            decided: e.language().map(|l| l.code.clone()),
            declared: e
                .metadata()
                .language
                .as_deref()
                .and_then(chaff::language::canonical),
            reference: whatlang::detect(e.text())
                .and_then(|i| chaff::language::canonical(i.lang().code())),
        })
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for j in &judged {
        *counts
            .entry(j.reference.as_deref().unwrap_or("none"))
            .or_default() += 1;
    }
    outln!(
        "{} pages; reference: whatlang on the whole extracted text; languages with at least {} pages",
        judged.len(),
        args.min_pages
    )?;
    outln!("lang   pages   --target-language P / R      declaration only P / R")?;
    let rate = |n: usize, d: usize| {
        if d == 0 {
            f64::NAN
        } else {
            n as f64 / d as f64
        }
    };
    for (&lang, &n) in counts
        .iter()
        .filter(|(l, n)| **n >= args.min_pages && **l != "none")
    {
        let is = |o: &Option<String>| o.as_deref() == Some(lang);
        let score = |pick: &dyn Fn(&Judged) -> &Option<String>| {
            let kept: Vec<&Judged> = judged.iter().filter(|j| is(pick(j))).collect();
            let right = kept.iter().filter(|j| is(&j.reference)).count();
            (rate(right, kept.len()), rate(right, n))
        };
        let (p, r) = score(&|j| &j.decided);
        let (dp, dr) = score(&|j| &j.declared);
        outln!("{lang:<6} {n:>5}   {p:>10.3} / {r:.3}      {dp:>10.3} / {dr:.3}")?;
    }
    let agree = judged.iter().filter(|j| j.decided == j.reference).count();
    outln!(
        "decision = reference on {agree} of {} pages ({:.1}%)",
        judged.len(),
        100.0 * rate(agree, judged.len())
    )?;
    Ok(Status::Ok)
}
