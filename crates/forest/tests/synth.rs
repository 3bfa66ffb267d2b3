//! FOREST on `chaff-synth` sites, whose content is labelled exactly.
//!
//! The content node of a synthetic page is the smallest element holding all its content
//! (headline, standfirst, byline and body: the article the paper's gold standard asks for,
//! "title, fulltext, and metadata like author(s)"). The wrapper must select exactly that node,
//! alone, on every page of 27 sites (9 of each markup style, 12 pages each).
//!
//! The paper's ranking as printed does not: on the HTML5 and div-soup styles its level
//! factor prefers the article body one level below (see the `learn` module docs); the
//! second test checks that the strict test tells the two apart.

use chaff_core::PageInput;
use chaff_dom::{Document, TextView};
use chaff_forest::{ForestConfig, learn};
use chaff_synth::Style;

/// For every page of 9 sites per seed (3 of each style), a description of what went wrong
/// (none when the wrapper selects exactly the content node), and the number of pages per
/// style (HTML5, div soup, tables).
fn misses(config: &ForestConfig, seeds: u64) -> (Vec<String>, [usize; 3]) {
    let mut failures = Vec::new();
    let mut pages_per_style = [0usize; 3];
    for seed in 1..=seeds {
        for site in chaff_synth::generate_sites(seed, 9, 12) {
            let pages: Vec<(Document, TextView)> = site
                .pages
                .iter()
                .map(|p| {
                    let doc = p.parse().expect("synthetic pages parse");
                    let view = TextView::new(&doc);
                    (doc, view)
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
            let model = learn(&inputs, config, None)
                .expect("learning succeeds")
                .model;
            let compiled = model.compile().expect("the wrapper parses");
            let style = match site.style {
                Style::Html5 => 0,
                Style::DivSoup => 1,
                Style::Tables => 2,
            };
            for (i, ((doc, _), page)) in pages.iter().zip(&site.pages).enumerate() {
                pages_per_style[style] += 1;
                let selected = compiled.select(doc);
                if selected != [page.content_root] {
                    failures.push(format!(
                        "seed {seed} {} ({}) page {i}: {} selected {selected:?}, content node {:?}",
                        site.domain,
                        site.style.name(),
                        model.xpath,
                        page.content_root,
                    ));
                }
            }
        }
    }
    (failures, pages_per_style)
}

#[test]
fn the_wrapper_selects_exactly_the_content_node_on_every_synthetic_page() {
    let (failures, per_style) = misses(&ForestConfig::default(), 3);
    // Every style is there, with 9 sites of 12 pages.
    assert_eq!(per_style, [108, 108, 108]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_ranking_as_printed_picks_the_article_body_instead() {
    let printed = ForestConfig {
        informative_parent: false,
        ..ForestConfig::default()
    };
    // One seed is enough to show it (the default passes on it too: it is in the test above).
    let (failures, per_style) = misses(&printed, 1);
    let on = |style: &str| {
        failures
            .iter()
            .filter(|f| f.contains(&format!("({style})")))
            .count()
    };
    // Measured on three seeds: 96 of 108 pages missed on each of these styles, none on
    // table layouts.
    assert!(on("html5") * 2 >= per_style[0], "{}", on("html5"));
    assert!(on("divsoup") * 2 >= per_style[1], "{}", on("divsoup"));
    assert_eq!(on("tables"), 0);
}
