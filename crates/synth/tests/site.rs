//! Properties of generated sites, checked through the public API and `chaff_dom`.

use std::collections::{BTreeSet, HashSet};

use chaff_dom::{Document, NodeId, NodeKind};
use chaff_synth::{
    Label, Region, SiteConfig, Style, SynthPage, SynthSite, generate_site, generate_sites,
    read_labels, word_counts, write_site,
};

fn site(seed: u64, index: u32, style: Style) -> SynthSite {
    generate_site(&SiteConfig {
        seed,
        site_index: index,
        style: Some(style),
        ..SiteConfig::default()
    })
}

fn parse(p: &SynthPage) -> Document {
    p.parse().expect("generated pages parse")
}

/// Text of the nodes of `region` (or nested in it), in document order, one entry per text
/// node, whitespace-collapsed.
fn region_texts(doc: &Document, p: &SynthPage, region: Region) -> Vec<String> {
    doc.ids()
        .filter(|&id| doc.is_text(id) && p.regions[id.index()] == region)
        .map(|id| {
            doc.text(id)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// Link hrefs inside the subtree of `root`.
fn hrefs(doc: &Document, root: NodeId) -> Vec<String> {
    doc.subtree(root)
        .filter(|&id| doc.is_tag(id, "a") || doc.is_tag(id, "form"))
        .filter_map(|id| doc.attr(id, "href").or(doc.attr(id, "action")))
        .map(str::to_string)
        .collect()
}

fn strip_session(href: &str) -> String {
    let mut s = href.to_string();
    if let Some(i) = s.find(";jsessionid=") {
        let end = s[i..].find('?').map_or(s.len(), |j| i + j);
        s.replace_range(i..end, "");
    }
    for key in ["?sid=", "&sid="] {
        if let Some(i) = s.find(key) {
            s.truncate(i);
        }
    }
    s
}

fn content_words(doc: &Document, p: &SynthPage) -> usize {
    doc.ids()
        .filter(|&id| doc.is_text(id) && p.labels[id.index()] == Label::Content)
        .map(|id| doc.text(id).split_whitespace().count())
        .sum()
}

#[test]
fn same_seed_same_bytes_different_seed_different_bytes() {
    for style in Style::ALL {
        let a = site(42, 3, style);
        let b = site(42, 3, style);
        assert_eq!(a, b);
        let c = site(43, 3, style);
        assert_ne!(a.pages[0].html, c.pages[0].html);
        let d = site(42, 4, style);
        assert_ne!(a.pages[0].html, d.pages[0].html);
        assert_ne!(a.domain, d.domain);
    }
    // A page does not depend on how many pages follow it, except through lists.
    let small = generate_site(&SiteConfig {
        pages: 8,
        ..SiteConfig::new(5, 0)
    });
    let large = generate_site(&SiteConfig {
        pages: 20,
        ..SiteConfig::new(5, 0)
    });
    assert_eq!(small.pages[2].title, large.pages[2].title);
    for i in [0, 2, 7] {
        let (a, b) = (&small.pages[i], &large.pages[i]);
        assert_eq!(
            region_texts(&parse(a), a, Region::Content),
            region_texts(&parse(b), b, Region::Content)
        );
    }
    assert_eq!(small.domain, large.domain);
}

#[test]
fn default_styles_cycle_and_generate_sites_has_distinct_domains() {
    let sites = generate_sites(11, 9, 3);
    let domains: HashSet<&str> = sites.iter().map(|s| s.domain.as_str()).collect();
    assert_eq!(domains.len(), sites.len());
    for w in sites.windows(3) {
        let styles: HashSet<Style> = w.iter().map(|s| s.style).collect();
        assert_eq!(styles.len(), 3);
    }
    for s in &sites {
        assert_eq!(s.pages.len(), 3);
        assert!(s.domain.starts_with("www."), "{}", s.domain);
    }
}

#[test]
fn labels_cover_the_parsed_tree_and_keep_their_invariants() {
    for style in Style::ALL {
        for seed in 0..3 {
            let s = site(seed, 2, style);
            for p in &s.pages {
                let doc = parse(p);
                assert_eq!(doc.len(), p.labels.len(), "{} {}", style, p.file);
                assert_eq!(doc.len(), p.regions.len());
                check_invariants(&doc, p);
            }
        }
    }
}

fn check_invariants(doc: &Document, p: &SynthPage) {
    let head = doc.head().expect("head");
    let body = doc.body().expect("body");
    let mut content_below = vec![0usize; doc.len()];
    let mut template_below = vec![0usize; doc.len()];
    for id in doc.ids().rev() {
        let i = id.index();
        if doc.is_text(id) {
            let words = doc.text(id).split_whitespace().count();
            match p.labels[i] {
                Label::Content => content_below[i] += words,
                Label::Template | Label::Menu => template_below[i] += words,
                Label::Structure => {}
            }
        }
        if let Some(parent) = doc.parent(id) {
            content_below[parent.index()] += content_below[i];
            template_below[parent.index()] += template_below[i];
        }
    }
    for id in doc.ids() {
        let i = id.index();
        let label = p.labels[i];
        assert_eq!(
            label,
            p.regions[i].label(),
            "node {i}: label is its region's"
        );
        let in_head = doc.contains(head, id);
        if in_head {
            assert_eq!(label, Label::Structure, "node {i} in head");
            continue;
        }
        let parent_label = doc.parent(id).map(|q| p.labels[q.index()]);
        let blank = doc.is_text(id) && doc.text(id).trim_matches(char::is_whitespace).is_empty();
        if blank || doc.kind(id) == NodeKind::Comment {
            assert_eq!(
                Some(label),
                parent_label,
                "whitespace node {i} takes its parent's label"
            );
            continue;
        }
        if label == Label::Structure {
            // Structure only above regions: its parent is structure too, and an element
            // in the body holds both content and template words.
            assert!(
                parent_label.is_none() || parent_label == Some(Label::Structure),
                "node {i}"
            );
            assert!(!doc.is_text(id), "text node {i} labelled structure");
            if doc.contains(body, id) && doc.is_element(id) {
                assert!(
                    content_below[i] > 0 && template_below[i] > 0,
                    "{}: structure element {i} <{}> holds content {} and template {}",
                    p.file,
                    doc.tag(id),
                    content_below[i],
                    template_below[i]
                );
            }
        }
        if parent_label == Some(Label::Content) {
            assert_eq!(label, Label::Content, "node {i} inside content");
        }
    }
    // Roots.
    let cr = p.content_root;
    assert!(doc.is_element(cr));
    for id in doc.ids() {
        if p.labels[id.index()] == Label::Content {
            assert!(
                doc.contains(cr, id),
                "content node {} outside content root",
                id.0
            );
        }
        if p.labels[id.index()] == Label::Menu {
            assert!(doc.contains(p.menu_root, id));
        }
    }
    // The content root is the smallest such element: no child holds all content.
    let total = content_below[cr.index()];
    assert!(total > 0);
    for c in doc.element_children(cr) {
        assert!(
            content_below[c.index()] < total,
            "{}: content root not minimal",
            p.file
        );
    }
    assert!(doc.is_element(p.menu_root));
    assert_eq!(p.regions[p.menu_root.index()], Region::Menu);
}

#[test]
fn menus_are_identical_across_pages_up_to_session_ids() {
    for style in Style::ALL {
        for index in 0..3 {
            let s = site(7, index, style);
            let mut first: Option<(Vec<String>, Vec<String>, Vec<String>)> = None;
            for p in &s.pages {
                let doc = parse(p);
                let root = p.menu_root;
                let tags: Vec<String> = doc
                    .subtree(root)
                    .map(|id| doc.tag(id).to_string())
                    .collect();
                let texts = region_texts(&doc, p, Region::Menu);
                let links: Vec<String> =
                    hrefs(&doc, root).iter().map(|h| strip_session(h)).collect();
                assert!((5..=10).contains(&links.len()), "{} links", links.len());
                let got = (tags, texts, links);
                match &first {
                    None => first = Some(got),
                    Some(f) => assert_eq!(f, &got, "{style} {}", p.file),
                }
            }
        }
    }
}

fn latest_lists(s: &SynthSite) -> Vec<Vec<String>> {
    s.pages
        .iter()
        .map(|p| {
            let doc = parse(p);
            doc.ids()
                .filter(|&id| doc.is_tag(id, "a") && p.regions[id.index()] == Region::Latest)
                .map(|id| doc.subtree_text(id))
                .collect()
        })
        .collect()
}

#[test]
fn latest_lists_in_a_closed_world_overlap_between_neighbouring_pages() {
    for style in Style::ALL {
        let s = generate_site(&SiteConfig {
            seed: 3,
            site_index: 0,
            pages: 20,
            archive: Some(20),
            style: Some(style),
            domain: None,
        });
        for (i, w) in latest_lists(&s).windows(2).enumerate() {
            assert_eq!(w[0].len(), 5);
            let a: HashSet<&String> = w[0].iter().collect();
            let shared = w[1].iter().filter(|t| a.contains(t)).count();
            assert!(shared >= 3, "{style} pages {i},{}: {shared} shared", i + 1);
            assert!(!w[0].contains(&s.pages[i].title));
        }
    }
}

#[test]
fn latest_lists_in_an_archive_sample_point_mostly_outside_the_sample() {
    for style in Style::ALL {
        let s = site(3, 0, style);
        let lists = latest_lists(&s);
        let sampled: HashSet<&String> = s.pages.iter().map(|p| &p.title).collect();
        for (i, list) in lists.iter().enumerate() {
            assert_eq!(list.len(), 5);
            assert!(!list.contains(&s.pages[i].title), "never links to itself");
            // The previous sampled page is among the five newest before this one.
            if i > 0 {
                assert!(list.contains(&s.pages[i - 1].title), "{style} page {i}");
            }
            let inside = list.iter().filter(|t| sampled.contains(t)).count();
            assert!(inside <= 2, "{style} page {i}: {inside} of 5 in the sample");
        }
    }
}

#[test]
fn related_lists_vary() {
    for style in Style::ALL {
        let s = site(3, 0, style);
        // Related lists are chosen per page, so they are not all the same.
        let related: HashSet<Vec<String>> = s
            .pages
            .iter()
            .map(|p| region_texts(&parse(p), p, Region::Related))
            .collect();
        assert!(related.len() > s.pages.len() / 2);
    }
}

#[test]
fn session_ids_differ_per_page_and_are_constant_within_a_page() {
    let mut seen_styles = BTreeSet::new();
    for index in 0..12 {
        let s = generate_site(&SiteConfig::new(21, index));
        let sids: Vec<Option<String>> = s
            .pages
            .iter()
            .map(|p| {
                let doc = parse(p);
                let ids: BTreeSet<String> = hrefs(&doc, NodeId::ROOT)
                    .iter()
                    .filter(|h| h.starts_with('/'))
                    .filter_map(|h| {
                        let i = h.find("sid=").or_else(|| h.find("jsessionid="))?;
                        let v = &h[i..];
                        let v = &v[v.find('=')? + 1..];
                        Some(v[..v.find(['&', '?', '#']).unwrap_or(v.len())].to_string())
                    })
                    .collect();
                assert!(ids.len() <= 1, "one session id per page: {ids:?}");
                ids.into_iter().next()
            })
            .collect();
        if sids[0].is_some() {
            seen_styles.insert(s.style.name());
            assert!(sids.iter().all(Option::is_some));
            let distinct: HashSet<&Option<String>> = sids.iter().collect();
            assert_eq!(distinct.len(), sids.len(), "session ids differ per page");
            // Every internal link carries it.
            let doc = parse(&s.pages[0]);
            for h in hrefs(&doc, NodeId::ROOT) {
                if h.starts_with('/') {
                    assert!(h.contains("sid=") || h.contains(";jsessionid="), "{h}");
                }
            }
        } else {
            assert!(sids.iter().all(Option::is_none));
        }
        assert!(
            !s.pages[0].url.contains("sid"),
            "canonical URLs carry no session"
        );
    }
    assert!(seen_styles.contains("tables") || seen_styles.contains("divsoup"));
}

#[test]
fn content_differs_between_pages_and_lengths_vary() {
    for style in Style::ALL {
        for seed in 0..5 {
            let s = site(seed, 0, style);
            let mut contents = HashSet::new();
            let mut lengths = Vec::new();
            let mut short = 0;
            for p in &s.pages {
                let doc = parse(p);
                let text: Vec<String> = region_texts(&doc, p, Region::Content);
                assert!(contents.insert(text), "duplicate content");
                let words = content_words(&doc, p);
                if p.short {
                    short += 1;
                    assert!(words < 90, "short page has {words} words");
                    let paras = doc
                        .ids()
                        .filter(|&id| {
                            doc.is_tag(id, "p")
                                && p.labels[id.index()] == Label::Content
                                && doc.attr(id, "class") != Some("byline")
                        })
                        .count();
                    assert!(
                        paras <= 1,
                        "{style} {seed} {}: {paras} paragraphs on a short page",
                        p.file
                    );
                } else {
                    lengths.push(words);
                }
            }
            assert!(short >= 1, "{style} seed {seed}: no very short page");
            let min = lengths.iter().min().copied().unwrap_or(0);
            let max = lengths.iter().max().copied().unwrap_or(0);
            assert!(
                min >= 100,
                "{style} seed {seed}: shortest normal article {min}"
            );
            assert!(max <= 1900, "{style} seed {seed}: longest article {max}");
            assert!(max > 2 * min, "lengths vary: {min}..{max}");
        }
    }
}

#[test]
fn content_text_also_appears_inside_the_template() {
    // The headline repeats in the breadcrumbs or in other pages' lists: template text that
    // equals content text, which is what makes naive string matching fail.
    for style in Style::ALL {
        let s = site(9, 1, style);
        let p = &s.pages[5];
        let elsewhere = s.pages.iter().filter(|q| q.file != p.file).any(|q| {
            let doc = parse(q);
            doc.ids().any(|id| {
                doc.is_text(id)
                    && q.labels[id.index()].is_template()
                    && doc.text(id).contains(&p.title)
            })
        });
        assert!(
            elsewhere,
            "{style}: title of page 5 is in no other page's template"
        );
    }
}

#[test]
fn frequent_phrases_recur_across_pages() {
    let s = site(1, 0, Style::Html5);
    let idioms = [
        "according to",
        "on the other hand",
        "in the wake of",
        "as much as",
        "more than",
    ];
    let mut pages_with = vec![0; idioms.len()];
    for p in &s.pages {
        let doc = parse(p);
        let content: String = region_texts(&doc, p, Region::Content)
            .join(" ")
            .to_lowercase();
        for (k, idiom) in idioms.iter().enumerate() {
            if content.contains(idiom) {
                pages_with[k] += 1;
            }
        }
    }
    let recurring = pages_with.iter().filter(|&&n| n >= 3).count();
    assert!(recurring >= 3, "{pages_with:?}");
}

#[test]
fn styles_differ_in_markup() {
    let semantic = ["header", "nav", "main", "article", "aside", "footer"];
    let count = |s: &SynthSite, tag: &str| -> usize {
        s.pages
            .iter()
            .map(|p| {
                let doc = parse(p);
                doc.ids().filter(|&id| doc.is_tag(id, tag)).count()
            })
            .sum()
    };
    let html5 = site(2, 0, Style::Html5);
    let tables = site(2, 0, Style::Tables);
    let divs = site(2, 0, Style::DivSoup);
    for t in semantic {
        assert!(count(&html5, t) > 0, "html5 lacks {t}");
        assert_eq!(count(&tables, t), 0, "tables has {t}");
        assert_eq!(count(&divs, t), 0, "divsoup has {t}");
    }
    assert!(count(&tables, "table") > 5 * tables.pages.len());
    assert!(count(&tables, "font") > 0);
    assert_eq!(count(&html5, "table"), 0);
    // The table style leaves paragraphs and list items for the parser to close.
    let p = tables.pages.iter().find(|p| !p.short).expect("a long page");
    let lower = p.html.to_ascii_lowercase();
    assert!(lower.matches("<p>").count() > lower.matches("</p>").count() + 1);
}

#[test]
fn word_counts_measure_removals() {
    let s = site(4, 0, Style::DivSoup);
    let mut perfect = chaff_synth::WordCounts::default();
    let mut nothing = chaff_synth::WordCounts::default();
    let mut menu_only = chaff_synth::WordCounts::default();
    for p in &s.pages {
        let doc = parse(p);
        let labels = &p.labels;
        perfect += word_counts(&doc, labels, &|id| labels[id.index()].is_template());
        nothing += word_counts(&doc, labels, &|_| false);
        menu_only += word_counts(&doc, labels, &|id| labels[id.index()] == Label::Menu);
    }
    assert!(perfect.meets_acceptance());
    assert_eq!(perfect.template_removed, perfect.template_total);
    assert_eq!(perfect.content_removed, 0);
    assert!(!nothing.meets_acceptance());
    assert!(nothing.template_total > 0 && nothing.content_total > nothing.template_total / 4);
    assert_eq!(menu_only.menu_removed, menu_only.menu_total);
    assert_eq!(menu_only.template_removed, menu_only.menu_total);
    assert!(menu_only.menu_total > 0);
    assert!(menu_only.template_removed_fraction() < 0.5);
    // Partial removals: one word of every content text node.
    let p = &s.pages[3];
    let doc = parse(p);
    let half = chaff_synth::word_counts_by(&doc, &p.labels, &|_, _| 1);
    let texts = doc
        .ids()
        .filter(|&id| {
            p.labels[id.index()] == Label::Content
                && doc.is_text(id)
                && !doc.text(id).trim().is_empty()
        })
        .count() as u64;
    assert_eq!(half.content_removed, texts);
    let all = chaff_synth::word_counts_by(&doc, &p.labels, &|_, _| u64::MAX);
    assert_eq!(all.content_removed, all.content_total);
}

#[test]
fn sidecar_round_trips() {
    let s = site(8, 1, Style::Tables);
    let dir = tempfile::tempdir().expect("tempdir");
    write_site(&s, dir.path()).expect("write");
    let back = read_labels(dir.path()).expect("read");
    assert_eq!(back.domain, s.domain);
    assert_eq!(back.style, s.style);
    assert_eq!(back.pages.len(), s.pages.len());
    for (a, b) in s.pages.iter().zip(&back.pages) {
        assert_eq!(a.labels, b.labels);
        assert_eq!(a.regions, b.regions);
        assert_eq!(a.content_root, b.content_root);
        assert_eq!(a.menu_root, b.menu_root);
        assert_eq!(a.url, b.url);
        let html = std::fs::read_to_string(dir.path().join(&b.file)).expect("page file");
        assert_eq!(html, a.html);
    }
    // Corrupt sidecars are refused, not misread.
    let path = dir.path().join(chaff_synth::LABELS_FILE);
    let text = std::fs::read_to_string(&path).expect("sidecar");
    std::fs::write(&path, text.replacen("\"nodes\":", "\"nodes\":1", 1)).expect("write");
    assert!(read_labels(dir.path()).is_err());
}
