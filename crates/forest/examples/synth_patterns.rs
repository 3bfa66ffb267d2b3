//! Diagnosis of FOREST on `chaff-synth` sites: per site, the top patterns and, on a few
//! pages, the signifier counts `x`, `y` and the measures `J`, `U`, `J × U` of the content
//! root, of the selected node and of the whole page, with the page's signifiers and which
//! headline terms are among them.
//!
//! Ends with, per markup style, the pages on which the wrapper selects exactly the content
//! node. The figures in the `learn` module docs come from it (27 sites: `3 2 9`).
//!
//! `cargo run --release -p chaff-forest --example synth_patterns [SEEDS] [PAGES_SHOWN] [SITES]`

use std::collections::HashSet;

use chaff_core::PageInput;
use chaff_dom::{Document, NodeId, TextView};
use chaff_forest::measures::{informativeness, jeffreys_density, unexpectedness};
use chaff_forest::terms::{Vocabulary, detect_language};
use chaff_forest::{ForestConfig, learn};

fn describe(doc: &Document, n: NodeId) -> String {
    let attrs: Vec<String> = doc
        .attrs(n)
        .iter()
        .map(|a| format!("{}={:?}", a.name, &*a.value))
        .collect();
    let depth = doc.ancestors(n).filter(|&a| doc.is_element(a)).count();
    format!(
        "<{} {}> level {}",
        doc.tag(n),
        attrs.join(" "),
        depth.saturating_sub(1)
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let shown: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let sites: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut tally: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for seed in 1..=seeds {
        for site in chaff_synth::generate_sites(seed, sites, 12) {
            let pages: Vec<(Document, TextView)> = site
                .pages
                .iter()
                .filter_map(|p| {
                    let doc = p.parse().ok()?;
                    let view = TextView::new(&doc);
                    Some((doc, view))
                })
                .collect();
            let inputs: Vec<PageInput<'_>> = pages
                .iter()
                .map(|(doc, view)| PageInput {
                    doc,
                    view,
                    source: None,
                    url: None,
                })
                .collect();
            let Ok(learned) = learn(&inputs, &ForestConfig::default(), None) else {
                continue;
            };
            let compiled = learned.model.compile().ok();
            println!(
                "== seed {seed} {} ({}): {}",
                site.domain,
                site.style.name(),
                learned.model.xpath
            );
            for r in learned.ranking.iter().take(6) {
                println!(
                    "   {:>10.1}  level {:>2} pages {:>2}  {}",
                    r.relevance, r.level, r.pages, r.element
                );
            }
            let mut site_exact = 0;
            for ((doc, _), page) in pages.iter().zip(&site.pages) {
                let t = tally.entry(site.style.name().to_string()).or_default();
                t.1 += 1;
                if compiled
                    .as_ref()
                    .is_some_and(|c| c.select(doc) == [page.content_root])
                {
                    t.0 += 1;
                    site_exact += 1;
                }
            }
            println!("   exact on {site_exact} of {} pages", pages.len());
            for (i, ((doc, view), page)) in pages.iter().zip(&site.pages).enumerate().take(shown) {
                let sigs: HashSet<&str> =
                    learned.signifiers[i].iter().map(String::as_str).collect();
                let lang = detect_language(view.text());
                let mut vocab = Vocabulary::new();
                // Per segment: node, signifier and other counts.
                let mut segs: Vec<(NodeId, u32, u32)> = Vec::new();
                for seg in view.segments() {
                    let mut out = Vec::new();
                    vocab.analyze(view.text().get(seg.range()).unwrap_or(""), lang, &mut out);
                    let x = out
                        .iter()
                        .filter(|&&t| sigs.contains(vocab.term(t)))
                        .count() as u32;
                    segs.push((seg.node, x, out.len() as u32 - x));
                }
                let count = |root: NodeId| {
                    segs.iter()
                        .filter(|s| doc.contains(root, s.0))
                        .fold((0, 0), |(x, y), s| (x + s.1, y + s.2))
                };
                let (bx, by) = count(NodeId::ROOT);
                let show = |name: &str, n: NodeId| {
                    let (x, y) = count(n);
                    println!(
                        "     {name:<9} x {x:>3} y {y:>4}  J {:.3} U {:>7.1} I {:>7.2}  {}",
                        jeffreys_density(x, y),
                        unexpectedness(x, y, bx, by),
                        informativeness(x, y, bx, by),
                        describe(doc, n)
                    );
                };
                let mut out = Vec::new();
                vocab.analyze(&page.title, lang, &mut out);
                let title: Vec<String> = out
                    .iter()
                    .map(|&t| {
                        let s = vocab.term(t);
                        if sigs.contains(s) {
                            format!("*{s}")
                        } else {
                            s.to_string()
                        }
                    })
                    .collect();
                println!(
                    "   page {i}: X {bx} Y {by}; signifiers {:?}; headline {:?}",
                    learned.signifiers[i], title
                );
                show("root", page.content_root);
                if let Some(c) = &compiled {
                    for s in c.select(doc) {
                        show("selected", s);
                    }
                }
            }
        }
    }
    for (style, (exact, all)) in &tally {
        println!("exact {style}: {exact} of {all}");
    }
}
