use super::*;

fn view(html: &str) -> (Document, TextView) {
    let doc = chaff_dom::parse(html.as_bytes()).unwrap();
    let view = TextView::new(&doc);
    (doc, view)
}

/// (text of the node, aligned words) for every node, in order.
fn outcome(doc: &Document, a: &Alignment) -> Vec<(String, u32)> {
    a.nodes
        .iter()
        .map(|n| (doc.text(n.node).trim().to_owned(), n.aligned))
        .collect()
}

#[test]
fn words_are_the_scorers_tokens() {
    assert_eq!(
        words("Don't  STOP—now_ok 3.5"),
        ["don", "t", "stop", "now_ok", "3", "5"]
    );
    assert_eq!(words("  "), Vec::<String>::new());
    assert_eq!(words("Café über"), ["café", "über"]);
}

#[test]
fn entities_case_and_whitespace_do_not_matter() {
    let (doc, v) = view(
        "<body><nav>Home News Sport</nav><p>Tom &amp; Jerry   met at\nthe CAFÉ today.</p></body>",
    );
    let a = align(&v, "tom & jerry met at the café today");
    assert_eq!(
        outcome(&doc, &a),
        [
            ("Home News Sport".into(), 0),
            ("Tom & Jerry   met at\nthe CAFÉ today.".into(), 7)
        ]
    );
    assert_eq!(a.gold_words, 7);
    assert_eq!(a.gold_aligned, 7);
    assert_eq!(a.page_words, 10);
    assert!((a.page_content_share() - 0.7).abs() < 1e-9);
}

#[test]
fn reordered_blocks_align() {
    let (doc, v) = view(
        "<body><p>first paragraph has five words</p><p>second paragraph also five words</p></body>",
    );
    let a = align(
        &v,
        "second paragraph also five words\n\nfirst paragraph has five words",
    );
    assert_eq!(
        outcome(&doc, &a).iter().map(|o| o.1).collect::<Vec<_>>(),
        [5, 5]
    );
}

#[test]
fn a_repeated_sentence_is_taken_once_where_its_context_is() {
    // The headline is in a "related" box and at the top of the article; the gold holds it
    // once, followed by the article's first sentence.
    let (doc, v) = view(
        "<body><aside><p>Storm hits the coast</p></aside>\
         <article><h1>Storm hits the coast</h1><p>Winds of a hundred miles an hour</p></article></body>",
    );
    let a = align(&v, "Storm hits the coast\nWinds of a hundred miles an hour");
    let got: Vec<u32> = outcome(&doc, &a).iter().map(|o| o.1).collect();
    assert_eq!(got, [0, 4, 7]);
    // Twice in the gold: both copies align.
    let a = align(
        &v,
        "Storm hits the coast\nStorm hits the coast\nWinds of a hundred miles an hour",
    );
    let got: Vec<u32> = outcome(&doc, &a).iter().map(|o| o.1).collect();
    assert_eq!(got, [4, 4, 7]);
}

#[test]
fn short_nodes_align_only_between_their_neighbours() {
    let (doc, v) = view(
        "<body><ul><li>Introduction</li><li>Methods</li></ul>\
         <p>We begin with a long first paragraph.</p><h2>Methods</h2>\
         <p>Then a second paragraph follows here.</p></body>",
    );
    let a = align(
        &v,
        "We begin with a long first paragraph.\nMethods\nThen a second paragraph follows here.",
    );
    let got: Vec<u32> = outcome(&doc, &a).iter().map(|o| o.1).collect();
    // The menu's "Methods" lies before every aligned run: its gap is the gold before the
    // first paragraph, which is empty, so only the heading aligns.
    assert_eq!(got, [0, 0, 7, 1, 6]);
    let labels = a.node_labels(&doc);
    assert_eq!(labels.iter().filter(|l| **l == Some(true)).count(), 3);
}

#[test]
fn empty_gold_or_page() {
    let (_, v) = view("<body><p>some words here</p></body>");
    let a = align(&v, "");
    assert_eq!(a.gold_aligned, 0);
    assert_eq!(a.gold_coverage(), 1.0);
    assert_eq!(a.page_content_share(), 0.0);
    let (_, v) = view("<body></body>");
    let a = align(&v, "gold words without a page");
    assert!(a.nodes.is_empty());
    assert_eq!(a.gold_coverage(), 0.0);
}

mod brute {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every matched page word equals a distinct gold word (one gold word, one page
        /// word), and a page identical to the gold aligns completely.
        #[test]
        fn matches_are_one_to_one(
            page in proptest::collection::vec(0u8..6, 0..60),
            gold in proptest::collection::vec(0u8..6, 0..60),
            unit_len in 1usize..6,
        ) {
            let p: Vec<String> = page.iter().map(|w| format!("w{w}")).collect();
            let g: Vec<String> = gold.iter().map(|w| format!("w{w}")).collect();
            let owner: Vec<usize> = (0..p.len()).map(|k| k / unit_len).collect();
            let m = align_words(&p, &g, &owner);
            let matched = m.iter().filter(|x| **x).count();
            prop_assert!(matched <= g.len());
            // Multiset bound: no word matched more often than the gold has it.
            for w in 0u8..6 {
                let name = format!("w{w}");
                let in_gold = g.iter().filter(|x| **x == name).count();
                let hits = p.iter().zip(&m).filter(|(x, hit)| **hit && **x == name).count();
                prop_assert!(hits <= in_gold, "{name}: {hits} > {in_gold}");
            }
            let all = align_words(&p, &p, &owner);
            if p.len() >= ANCHOR {
                prop_assert!(all.iter().all(|x| *x));
            }
        }
    }
}
