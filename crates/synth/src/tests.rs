//! Tests that need the generator's own tree: every page parses to exactly that tree.

use chaff_dom::{Document, NodeId, NodeKind};

use crate::page::{build_page, tree_labels};
use crate::site::{SitePlan, default_style};
use crate::tree::{NO_PARENT, TKind, Tree, serialize};
use crate::{Label, Region, Style};

/// Compares the parsed document with the tree node by node: kind, tag, attributes, text and
/// parent. Returns a description of the first difference.
fn compare(tree: &Tree, doc: &Document) -> Result<(), String> {
    let n = tree.len().min(doc.len());
    for i in 0..n {
        let id = NodeId(i as u32);
        let node = &tree.nodes[i];
        let ctx = || {
            let mut s = String::new();
            let mut p = doc.parent(id);
            while let Some(pp) = p {
                s.push_str(doc.tag(pp));
                s.push('<');
                p = doc.parent(pp);
            }
            s
        };
        let ok = match (&node.kind, doc.kind(id)) {
            (TKind::Document, NodeKind::Document) | (TKind::Doctype(_), NodeKind::Doctype) => true,
            (TKind::Element { tag, attrs }, NodeKind::Element) => {
                if doc.tag(id) != *tag {
                    return Err(format!(
                        "node {i}: tag {} != {tag} (in {})",
                        doc.tag(id),
                        ctx()
                    ));
                }
                let got: Vec<(&str, &str)> = doc
                    .attrs(id)
                    .iter()
                    .map(|a| (&*a.name, &*a.value))
                    .collect();
                let want: Vec<(&str, &str)> = attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
                if got != want {
                    return Err(format!("node {i} <{tag}>: attrs {got:?} != {want:?}"));
                }
                true
            }
            (TKind::Text(t), NodeKind::Text) | (TKind::Comment(t), NodeKind::Comment) => {
                if doc.text(id) != t {
                    return Err(format!(
                        "node {i}: text {:?} != {:?} (in {})",
                        doc.text(id),
                        t,
                        ctx()
                    ));
                }
                true
            }
            _ => false,
        };
        if !ok {
            return Err(format!(
                "node {i}: kind {:?} != {:?} (tag {:?}, text {:?}, in {})",
                doc.kind(id),
                node.kind,
                doc.tag(id),
                doc.text(id),
                ctx()
            ));
        }
        let parent = doc.parent(id).map_or(NO_PARENT, |p| p.index());
        if parent != node.parent {
            return Err(format!("node {i}: parent {parent} != {}", node.parent));
        }
    }
    if tree.len() != doc.len() {
        return Err(format!(
            "{} nodes in tree, {} parsed",
            tree.len(),
            doc.len()
        ));
    }
    Ok(())
}

fn check_site(seed: u64, site_index: u32, pages: usize, style: Style) {
    let sample: Vec<usize> = (0..pages).collect();
    let plan = SitePlan::new(seed, site_index, &sample, pages, style, None);
    for i in 0..pages {
        let (_, built) = build_page(&plan, i).expect("page exists");
        let html = serialize(&built.tree, built.ser);
        let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
        if let Err(e) = compare(&built.tree, &doc) {
            panic!("seed {seed} site {site_index} {style} page {i}: {e}\n{html}");
        }
    }
}

#[test]
fn every_style_parses_to_exactly_the_built_tree() {
    for style in Style::ALL {
        for seed in 0..4u64 {
            for site in 0..3u32 {
                check_site(seed, site, 12, style);
            }
        }
    }
}

#[test]
fn tiny_sites_parse_to_the_built_tree() {
    // One or two pages: empty "Latest" and "Related" lists, no previous/next links.
    for style in Style::ALL {
        for pages in 1..=2 {
            check_site(5, 0, pages, style);
        }
    }
}

#[test]
fn default_styles_parse_to_the_built_tree_over_many_sites() {
    // Many layouts (sidebar side, breadcrumbs position, vertical menus, upper-case tags ...).
    for site in 0..24u32 {
        check_site(99, site, 6, default_style(99, site));
    }
}

#[test]
fn labels_from_tree_satisfy_invariants() {
    for style in Style::ALL {
        for seed in 0..3 {
            let plan = SitePlan::new(seed, 1, &[0, 1, 2, 3, 4, 5, 6, 7], 8, style, None);
            for i in 0..8 {
                let (_, built) = build_page(&plan, i).expect("page exists");
                let tree = &built.tree;
                let tl = tree_labels(tree);
                // Region nesting: no region inside a content region other than content, and
                // no content inside a template region.
                for (j, node) in tree.nodes.iter().enumerate().skip(1) {
                    let p = node.parent;
                    let (pr, r) = (tl.regions[p], tl.regions[j]);
                    match pr.label() {
                        Label::Content => assert_eq!(r, Region::Content, "node {j}"),
                        Label::Template => assert!(
                            r.label() == Label::Template || r == Region::Menu,
                            "node {j}: {r:?} inside {pr:?}"
                        ),
                        Label::Menu => assert_eq!(r, Region::Menu, "node {j}"),
                        Label::Structure => {}
                    }
                    if tree.is_ws_text(j) || matches!(node.kind, TKind::Comment(_)) {
                        assert_eq!(r, pr, "whitespace node {j} must take its parent's region");
                    }
                }
                // The content root contains all content and the menu root all the menu.
                let cr = tl.content_root.index();
                let mr = tl.menu_root.index();
                for j in 0..tree.len() {
                    if tl.labels[j] == Label::Content {
                        assert!(tree.contains(cr, j));
                    }
                    if tl.labels[j] == Label::Menu {
                        assert!(tree.contains(mr, j));
                    }
                }
                assert!(matches!(tree.nodes[cr].kind, TKind::Element { .. }));
                assert_eq!(tl.regions[mr], Region::Menu);
                assert_ne!(tl.regions[tree.nodes[mr].parent], Region::Menu);
            }
        }
    }
}

/// The comparison must notice when the parser would build a different tree: an unclosed
/// `<p>` followed by inline markup swallows it, and in quirks mode `<table>` does not close a
/// `<p>`. These are the mistakes the table style must avoid.
#[test]
fn comparison_catches_trees_the_parser_would_build_differently() {
    use crate::tree::{Builder, SerOptions};
    let build = |next: &'static str, quirks: bool| {
        let mut b = Builder::new("");
        b.doctype(if quirks {
            "DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\""
        } else {
            "DOCTYPE html"
        });
        b.open("html", &[]);
        b.open("head", &[]);
        b.close();
        b.open("body", &[]);
        b.open("div", &[]);
        b.open("p", &[]);
        b.text("para");
        b.nl();
        b.close_implied();
        b.open(next, &[]);
        if next != "table" {
            b.text("after");
        }
        b.close();
        b.close();
        b.close();
        b.close();
        b.finish()
    };
    let check = |tree: &Tree| {
        let html = serialize(tree, SerOptions::default());
        compare(tree, &chaff_dom::parse(html.as_bytes()).expect("parses"))
    };
    assert!(check(&build("p", true)).is_ok());
    assert!(check(&build("ul", true)).is_ok());
    assert!(check(&build("font", true)).is_err());
    assert!(check(&build("table", true)).is_err());
    assert!(check(&build("table", false)).is_ok());
}

/// Origins: the texts marked as layout are the site's own, on (almost) every page; what is
/// marked as page data and sits on every page is an ad's label (ads move from place to place
/// and are missing from some places on every page) or the marker of a "Related" item (whose
/// items are page data, see `styles::RELATED_LAYOUT_ITEMS`).
#[test]
fn layout_text_is_on_every_page_and_page_data_is_not() {
    use std::collections::{HashMap, HashSet};
    for style in Style::ALL {
        for seed in 0..3 {
            let pages = 12;
            let sample: Vec<usize> = (0..pages).collect();
            let plan = SitePlan::new(seed, 0, &sample, pages, style, None);
            let mut layout_on: HashMap<String, usize> = HashMap::new();
            let mut data_on: HashMap<(String, Region), usize> = HashMap::new();
            let mut layout_elements = Vec::new();
            for i in 0..pages {
                let (_, built) = build_page(&plan, i).expect("page exists");
                let tree = &built.tree;
                let tl = tree_labels(tree);
                let mut seen = HashSet::new();
                let mut elements = 0usize;
                for (j, node) in tree.nodes.iter().enumerate() {
                    if let TKind::Element { .. } = node.kind
                        && !node.page_data
                    {
                        elements += 1;
                    }
                    let TKind::Text(t) = &node.kind else { continue };
                    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
                    if t.is_empty() || !seen.insert((t.clone(), node.page_data)) {
                        continue;
                    }
                    if node.page_data {
                        *data_on.entry((t, tl.regions[j])).or_default() += 1;
                    } else {
                        *layout_on.entry(t).or_default() += 1;
                    }
                }
                layout_elements.push(elements);
            }
            for (t, n) in &layout_on {
                // The first and last pages lack the previous or next link.
                assert!(
                    *n + 1 >= pages,
                    "{style} seed {seed}: layout text {t:?} on {n} of {pages} pages"
                );
            }
            for ((t, region), n) in &data_on {
                if *n == pages {
                    assert!(
                        matches!(region, Region::Ad | Region::Related),
                        "{style} seed {seed}: page data {t:?} in {region:?} on every page"
                    );
                }
            }
            // Every page has the same layout elements but for the previous or next link
            // missing on the first and last pages.
            let (lo, hi) = (
                layout_elements.iter().min().copied().unwrap_or(0),
                layout_elements.iter().max().copied().unwrap_or(0),
            );
            assert!(hi - lo <= 4, "{style} seed {seed}: {layout_elements:?}");
        }
    }
}
