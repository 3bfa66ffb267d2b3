//! `chaff-lab eval --synthetic --run align --sweep T,...`: the alignment method's template
//! tokens against the generator's truth for several sample sizes (the paper's Table 2). A
//! diagnostic of the method's internals (what the template holds), not of extraction: it
//! calls `chaff_align` directly.

use std::time::Instant;

use chaff_cli::common::Status;
use rayon::prelude::*;
use serde::Serialize;

use crate::eval::EvalArgs;

/// Token counts: `[class][predicted]`, classes layout, slot data, article, and the label
/// truth (template, content).
#[derive(Default, Clone, Copy)]
struct Counts {
    origin: [[u64; 2]; 3],
    label: [[u64; 2]; 2],
}
impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        for c in 0..3 {
            for p in 0..2 {
                self.origin[c][p] += o.origin[c][p];
            }
        }
        for c in 0..2 {
            for p in 0..2 {
                self.label[c][p] += o.label[c][p];
            }
        }
    }
}
/// Precision and recall of one way of scoring.
#[derive(Default, Serialize)]
struct Pr {
    true_positive: u64,
    false_positive: u64,
    false_negative: u64,
    precision: f64,
    recall: f64,
}
impl Pr {
    fn new(tp: u64, fp: u64, fn_: u64) -> Pr {
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        Pr {
            true_positive: tp,
            false_positive: fp,
            false_negative: fn_,
            precision: ratio(tp, tp + fp),
            recall: ratio(tp, tp + fn_),
        }
    }
}
/// The three scorings of one set of counts.
#[derive(Default, Serialize)]
struct Scored {
    /// Layout tokens against article tokens; slot data not scored.
    main: Pr,
    /// Layout tokens against all page data.
    strict: Pr,
    /// Template, menu and structure nodes' tokens against content nodes' tokens.
    labels: Pr,
}
impl Scored {
    fn new(c: &Counts) -> Scored {
        let [layout, slot, article] = c.origin;
        Scored {
            main: Pr::new(layout[1], article[1], layout[0]),
            strict: Pr::new(layout[1], article[1] + slot[1], layout[0]),
            labels: Pr::new(c.label[0][1], c.label[1][1], c.label[0][0]),
        }
    }
}
#[derive(Default, Serialize)]
struct SweepRow {
    t: usize,
    sample_pages: u64,
    sites: u64,
    /// Scored on the tokens aligned to the template.
    tokens: Scored,
    /// Scored on the tokens of the nodes the labelling removes.
    removed: Scored,
    /// Tokens per class: layout, slot data, article.
    layout_tokens: u64,
    slot_tokens: u64,
    article_tokens: u64,
    template_tokens: f64,
    page_tokens: f64,
    learn_ms: f64,
    #[serde(skip)]
    matched: Counts,
    #[serde(skip)]
    labelled: Counts,
}

/// Synthetic sites, alignment method: for each sample size `t`, the precision and recall of
/// the page tokens the template removes against the generator's truth (the paper's Table 2,
/// measured on every page of every site), the template's length and the learning time.
///
/// The truth is the generator's [`chaff_synth::Origin`] of each token's node: a token is a
/// template token when the site's layout emits it on every page (the paper's template, the
/// tag and text sequence the pages share, with the tags of slots whose links change); a
/// token of the page's own data is not. Page data inside template regions ("slot data": the
/// headlines of "Latest" lists, dates, ads on some pages only) is a third class: the main
/// figures leave it out of both counts, as the paper's hand-made templates hold the slot's
/// tags but say nothing of its text; the `strict` figures count it as not template. The
/// `labels` figures are those of the node labels (every token of a template, menu or
/// structure node is template), which make the article's wrapper elements content and slot
/// data template.
///
/// Each is measured twice: on the tokens matched to the template (what the template holds)
/// and on the tokens whose node the labelling removes (what `clean` removes: a node goes only
/// when all its tokens are template, so a content paragraph whose `<p>` aligned stays).
pub fn run(args: &EvalArgs) -> anyhow::Result<Status> {
    let mut rows: Vec<SweepRow> = args
        .sweep
        .iter()
        .map(|&t| SweepRow {
            t,
            ..SweepRow::default()
        })
        .collect();
    let mut page_tokens = 0u64;
    let mut pages_seen = 0u64;
    for seed in 1..=args.seeds {
        let generated =
            chaff_synth::generate_sites_with(seed, args.sites, args.pages, args.archive);
        for site in &generated {
            let (tokens, pages) = sweep_site(args, site, &mut rows)?;
            page_tokens += tokens;
            pages_seen += pages;
        }
    }
    for row in &mut rows {
        row.tokens = Scored::new(&row.matched);
        row.removed = Scored::new(&row.labelled);
        let [layout, slot, article] = row.matched.origin;
        row.layout_tokens = layout[0] + layout[1];
        row.slot_tokens = slot[0] + slot[1];
        row.article_tokens = article[0] + article[1];
        let sites = row.sites.max(1) as f64;
        row.template_tokens /= sites;
        row.learn_ms /= sites;
        row.page_tokens = page_tokens as f64 / pages_seen.max(1) as f64;
    }
    print_sweep(args, &rows, page_tokens, pages_seen)
}

/// Learns one site's template for every sample size of the sweep and adds its token counts
/// to the rows; returns the site's tokens and pages.
fn sweep_site(
    args: &EvalArgs,
    site: &chaff_synth::SynthSite,
    rows: &mut [SweepRow],
) -> anyhow::Result<(u64, u64)> {
    let mut page_tokens = 0u64;
    let mut pages_seen = 0u64;
    let docs: Vec<chaff_dom::Document> = site
        .pages
        .par_iter()
        .map(|p| p.parse())
        .collect::<Result<_, _>>()?;
    let base = args.methods.align.config(2)?;
    let tokens: Vec<chaff_align::PageTokens> = docs
        .par_iter()
        .map(|d| chaff_align::tokenize(d, &base.tokens))
        .collect();
    page_tokens += tokens.iter().map(|t| t.len() as u64).sum::<u64>();
    // Per token: origin class (0 layout, 1 slot data, 2 article) and label truth
    // (0 template, 1 content).
    let class_of = |page: &chaff_synth::SynthPage, node: usize| -> (usize, usize) {
        let content = page
            .labels
            .get(node)
            .is_none_or(|l| *l == chaff_synth::Label::Content);
        let layout = page
            .origins
            .get(node)
            .is_some_and(|o| *o == chaff_synth::Origin::Layout);
        let class = match (layout, content) {
            (true, _) => 0,
            (false, false) => 1,
            (false, true) => 2,
        };
        (class, usize::from(content))
    };
    pages_seen += tokens.len() as u64;
    for row in rows.iter_mut() {
        let config = args.methods.align.config(row.t)?;
        let start = Instant::now();
        let learned = chaff_align::learn(&tokens, &config)?;
        row.learn_ms += start.elapsed().as_secs_f64() * 1000.0;
        row.sites += 1;
        row.sample_pages += u64::from(learned.model.sample_pages);
        row.template_tokens += learned.model.template.len() as f64;
        let compiled = chaff_align::CompiledAlign::new(learned.model);
        let counts: Vec<(Counts, Counts)> = docs
            .par_iter()
            .zip(&site.pages)
            .map(|(doc, page)| {
                let m = compiled.match_tokens(doc);
                let labels = compiled.label_doc(doc);
                let (mut matched, mut labelled) = (Counts::default(), Counts::default());
                for (k, hit) in m.matched.iter().enumerate() {
                    let node = m.tokens.node(k);
                    let (class, label) = class_of(page, node.index());
                    let removed = labels.role(node).is_template();
                    matched.origin[class][usize::from(hit.is_some())] += 1;
                    matched.label[label][usize::from(hit.is_some())] += 1;
                    labelled.origin[class][usize::from(removed)] += 1;
                    labelled.label[label][usize::from(removed)] += 1;
                }
                (matched, labelled)
            })
            .collect();
        for (matched, labelled) in counts {
            row.matched += matched;
            row.labelled += labelled;
        }
    }
    Ok((page_tokens, pages_seen))
}

/// Prints the sweep as JSON or as a table.
fn print_sweep(
    args: &EvalArgs,
    rows: &[SweepRow],
    page_tokens: u64,
    pages_seen: u64,
) -> anyhow::Result<Status> {
    if args.json {
        outln!("{}", serde_json::json!({ "sweep": rows }))?;
        return Ok(Status::Ok);
    }
    outln!(
        "{} seeds x {} sites x {} pages; {:.0} tokens per page on average",
        args.seeds,
        args.sites,
        args.pages,
        page_tokens as f64 / pages_seen.max(1) as f64
    )?;
    if let Some(r) = rows.first() {
        outln!(
            "tokens by origin (per page): layout {:.0}, slot data {:.0}, article {:.0}",
            r.layout_tokens as f64 / pages_seen.max(1) as f64,
            r.slot_tokens as f64 / pages_seen.max(1) as f64,
            r.article_tokens as f64 / pages_seen.max(1) as f64,
        )?;
    }
    outln!(
        "template tokens (aligned): P/R = layout vs article (slot data not scored); strict = \
         slot data counted as not template; labels = node labels as truth"
    )?;
    outln!(
        "{:>4} {:>7} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}",
        "t",
        "P",
        "R",
        "P strict",
        "R strict",
        "P labels",
        "R labels",
        "P removed",
        "R removed",
        "template",
        "learn ms"
    )?;
    for r in rows {
        outln!(
            "{:>4} {:>7.3} {:>7.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>10.0} {:>10.1}",
            r.t,
            r.tokens.main.precision,
            r.tokens.main.recall,
            r.tokens.strict.precision,
            r.tokens.strict.recall,
            r.tokens.labels.precision,
            r.tokens.labels.recall,
            r.removed.main.precision,
            r.removed.main.recall,
            r.template_tokens,
            r.learn_ms
        )?;
    }
    Ok(Status::Ok)
}
