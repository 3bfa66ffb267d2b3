//! FOREST on `chaff-synth` sites, whose content is labelled exactly.
//!
//! What the paper's method finds there, measured: on every page the wrapper selects exactly
//! one element; on the table-layout style it is exactly the content root, while on the other
//! two styles it is the article body one level below it (the content root adds the headline,
//! standfirst and byline, whose few words hold almost none of the page's tf-idf signifiers,
//! and the relevance's level factor favours the deeper body). The test checks just that, and
//! that the selection holds at least 80% of each page's content words and, beside them, less
//! than 5% template words (the few of an inline box inside the body).

use chaff_core::PageInput;
use chaff_dom::{Document, NodeId, TextView};
use chaff_forest::{ForestConfig, learn};
use chaff_synth::Label;

fn words(doc: &Document, root: NodeId, keep: &dyn Fn(NodeId) -> bool) -> usize {
    doc.subtree(root)
        .filter(|&n| doc.is_text(n) && keep(n))
        .map(|n| doc.text(n).split_whitespace().count())
        .sum()
}

#[test]
fn the_wrapper_selects_the_content_node_or_the_article_body_on_every_synthetic_page() {
    let mut failures = Vec::new();
    let mut exact = 0;
    let mut pages_seen = 0;
    for seed in 1..=3 {
        for site in chaff_synth::generate_sites(seed, 3, 12) {
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
                    source: "",
                    url: None,
                })
                .collect();
            let model = learn(&inputs, &ForestConfig::default(), None)
                .expect("learning succeeds")
                .model;
            let compiled = model.compile().expect("the wrapper parses");
            for (i, ((doc, _), page)) in pages.iter().zip(&site.pages).enumerate() {
                pages_seen += 1;
                let root = page.content_root;
                let selected = compiled.select(doc);
                let label = |n: NodeId| page.labels.get(n.index()).copied();
                let problem = match selected.as_slice() {
                    [one] if *one == root => {
                        exact += 1;
                        None
                    }
                    [one] if doc.contains(root, *one) => {
                        let content = |n: NodeId| label(n) == Some(Label::Content);
                        let (got, all) = (words(doc, *one, &content), words(doc, root, &content));
                        let other = words(doc, *one, &|n| !content(n));
                        (got * 5 < all * 4 || other * 20 > got)
                            .then(|| format!("{got} of {all} content words, {other} others"))
                    }
                    _ => Some("not one node inside the content root".to_string()),
                };
                if let Some(why) = problem {
                    failures.push(format!(
                        "seed {seed} {} ({}) page {i}: {} selected {selected:?}, content root {root:?}: {why}",
                        site.domain,
                        site.style.name(),
                        model.xpath,
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The table-layout sites (a third of them) are matched exactly.
    assert!(exact * 3 >= pages_seen, "{exact} of {pages_seen}");
}
