//! Unit tests: the paper's Example 1, each property on hand-computable nodes, Algorithm 2,
//! detection, Definition 5, labels, links, scoring, the grid, and pathological pages.

use chaff_core::{Method as _, PageInput, Role};
use chaff_dom::{Document, NodeId, TextView};

use crate::algo::{RootSelector, RootStep, candidates, drop_nested, select_menu};
use crate::eval::{Gold, LeafCounts, PageScore, resolve_gold, score, summarize};
use crate::features::{
    Characters, Children, Descendants, LinkRatio, MenuSelection, NONE, Representative, prop,
};
use crate::train::{Grid, Steps, TrainPage, cross_validate, site_folds, train};
use crate::*;

fn parse(html: &str) -> Document {
    chaff_dom::parse(html.as_bytes()).expect("test pages parse")
}

fn by_id(doc: &Document, id: &str) -> NodeId {
    doc.ids()
        .find(|&n| doc.attr(n, "id") == Some(id))
        .unwrap_or_else(|| panic!("no element #{id}"))
}

fn elem(f: &NodeFeatures, doc: &Document, id: &str) -> u32 {
    f.elem(by_id(doc, id)).expect("element in the body")
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

// ---------------------------------------------------------------------------------------------
// Example 1 / Figure 1

/// The tree of Figure 1: a candidate `UL` (dotted) inside an `LI` (grey) of the menu's `UL`
/// (black), wrapped by a single-child `DIV` (dashed), whose parent `DIV` also holds a `P`.
const FIGURE_1: &str = concat!(
    "<html><body><div id=top><div id=dashed><ul id=black>",
    "<li id=grey><ul id=dotted><li><a href=/a>A</a></li><li><a href=/b>B</a></li></ul></li>",
    "<li id=l2><a href=/c>C</a></li><li id=l3><a href=/d>D</a></li>",
    "</ul></div><p id=p>Some text</p></div></body></html>"
);

#[test]
fn example_1_walkthrough_of_algorithm_1() {
    let doc = parse(FIGURE_1);
    let f = NodeFeatures::compute(&doc, &Readings::default());
    // Hand-set weights, as in the example: the dotted UL is a candidate (above 0.85); the
    // other items of the black UL and the black UL itself weigh more than
    // root threshold x candidate = 0.7 x 0.9 = 0.63; the dashed DIV and the P weigh less.
    let mut w = vec![0.1f32; f.len()];
    let set = |w: &mut Vec<f32>, id: &str, v: f32| w[elem(&f, &doc, id) as usize] = v;
    set(&mut w, "dotted", 0.9);
    set(&mut w, "grey", 0.8);
    set(&mut w, "l2", 0.8);
    set(&mut w, "l3", 0.8);
    set(&mut w, "black", 0.75);
    set(&mut w, "dashed", 0.3);
    set(&mut w, "p", 0.2);
    let e = |id: &str| elem(&f, &doc, id);

    let mut cands = Vec::new();
    candidates(&f, &w, 0.85, &mut cands);
    assert_eq!(
        cands,
        vec![e("dotted")],
        "only the dotted UL is a candidate"
    );

    let mut trace = Vec::new();
    let root = RootSelector::new().root_traced(&f, &w, e("dotted"), 0.7, Some(&mut trace));
    let step = |parent, heavy, children, climbed, menu| RootStep {
        parent,
        heavy,
        children,
        climbed,
        menu,
    };
    assert_eq!(
        trace,
        vec![
            // The grey LI: its only child (the candidate) is heavy; one child, so the menu
            // node stays the candidate.
            step(e("grey"), 1, 1, true, e("dotted")),
            // The black UL: all three items are heavy; several children: menu node = black UL.
            step(e("black"), 3, 3, true, e("black")),
            // The dashed DIV: its only child is heavy, the walk goes on, but with one child it
            // keeps the black UL as the menu node.
            step(e("dashed"), 1, 1, true, e("black")),
            // The top DIV: neither the dashed DIV nor the P is heavy: stop.
            step(e("top"), 0, 2, false, e("black")),
        ]
    );
    assert_eq!(root, e("black"), "Algorithm 1 returns the black UL");
    assert_eq!(f.node(root), by_id(&doc, "black"));

    // Algorithm 2 on the single root: its heavy nodes are the black UL's subtree's.
    let menu = select_menu(&f, &w, &[root], 0.8, MenuSelection::Subtree);
    assert_eq!(menu, Some(e("black")));
}

#[test]
fn algorithm_1_stops_at_the_body() {
    let doc = parse(
        "<body><ul id=u><li><a href=/a>a</a></li><li><a href=/b>b</a></li></ul><p>x</p></body>",
    );
    let f = NodeFeatures::compute(&doc, &Readings::default());
    let w = vec![1.0f32; f.len()];
    // Every child of every ancestor is heavy: the walk climbs to the body (two children, so
    // it becomes the menu node) and stops there.
    let root = RootSelector::new().root(&f, &w, elem(&f, &doc, "u"), 0.7);
    assert_eq!(f.node(root), doc.body().unwrap());
    assert_eq!(f.parent(root), NONE);
}

// ---------------------------------------------------------------------------------------------
// Definition 6, property by property

/// Body: a UL of four `li > a` items and a P of 16 characters; no whitespace text.
/// Nodes in the body: body, ul, 4 x (li, a, text), p, text = 16.
const PROPS_PAGE: &str = concat!(
    "<html><body><ul id=m>",
    "<li><a href=/1>One</a></li><li><a href=/2>Two</a></li>",
    "<li><a href=/3>Three</a></li><li><a href=/4>Four</a></li>",
    "</ul><p id=t>abcdefghijklmnop</p></body></html>"
);

fn props_with(readings: Readings, id: &str) -> [f32; 6] {
    let doc = parse(PROPS_PAGE);
    let f = NodeFeatures::compute(&doc, &readings);
    *f.props(elem(&f, &doc, id))
}

#[test]
fn node_amplitude() {
    let r = Readings::default();
    assert!(close(props_with(r, "m")[prop::AMPLITUDE], 1.0 - 1.0 / 4.0));
    // A node whose only child is text: 0 element children, amplitude 0 (not -inf).
    assert!(close(props_with(r, "t")[prop::AMPLITUDE], 0.0));
    // Whitespace between items counts only when child nodes are counted.
    let doc = parse("<body><ul id=u> <li>a</li> <li>b</li> </ul></body>");
    let amp = |c: Children| {
        let f = NodeFeatures::compute(
            &doc,
            &Readings {
                amplitude_children: c,
                ..Readings::default()
            },
        );
        f.props(elem(&f, &doc, "u"))[prop::AMPLITUDE]
    };
    assert!(close(amp(Children::Elements), 0.5));
    assert!(close(amp(Children::NonBlank), 0.5));
    assert!(close(amp(Children::AllNodes), 1.0 - 1.0 / 5.0));
}

#[test]
fn link_ratio_readings() {
    let with = |lr, d| {
        props_with(
            Readings {
                link_ratio: lr,
                link_descendants: d,
                ..Readings::default()
            },
            "m",
        )[prop::LINK]
    };
    // h = 4 links; d = 8 descendant elements (li, a) or 12 descendant nodes (li, a, text).
    assert!(close(
        with(LinkRatio::DoubleDensity, Descendants::Elements),
        1.0
    ));
    assert!(close(
        with(LinkRatio::DoubleDensity, Descendants::AllNodes),
        8.0 / 12.0
    ));
    assert!(close(
        with(LinkRatio::HalfPlusDensity, Descendants::Elements),
        12.0 / 16.0
    ));
    assert!(close(
        with(LinkRatio::HalfPlusDensity, Descendants::AllNodes),
        16.0 / 24.0
    ));
    assert!(close(with(LinkRatio::Density, Descendants::Elements), 0.5));
    assert!(close(
        with(LinkRatio::Density, Descendants::AllNodes),
        4.0 / 12.0
    ));
    assert!(close(with(LinkRatio::Literal, Descendants::Elements), 4.5));
    // Fewer than two hyperlinks: 0. An <li> holds one link; the P none.
    let doc = parse(PROPS_PAGE);
    let f = NodeFeatures::compute(&doc, &Readings::default());
    let li = f.children(elem(&f, &doc, "m")).next().unwrap();
    assert_eq!(f.props(li)[prop::LINK], 0.0);
    assert_eq!(f.props(elem(&f, &doc, "t"))[prop::LINK], 0.0);
    // <a> without href is not a hyperlink.
    let doc = parse("<body><div id=d><a>x</a><a>y</a><a href=/z>z</a></div></body>");
    let f = NodeFeatures::compute(&doc, &Readings::default());
    assert_eq!(f.props(elem(&f, &doc, "d"))[prop::LINK], 0.0);
}

#[test]
fn text_ratio() {
    // characters(P) = 16 (link text excluded), sqrt = 4.
    let r = Readings::default();
    assert!(close(props_with(r, "m")[prop::TEXT], 1.0), "links only");
    assert!(close(props_with(r, "t")[prop::TEXT], 1.0 - 16.0 / 4.0));
    // Whitespace and script text do not count as characters by default; they do with `All`.
    let doc =
        parse("<body><div id=d>ab cd<script>var x;</script></div><p>efghijklmnopqr</p></body>");
    // Visible characters: "abcd" (4) + 14 = 18 in the page.
    let f = NodeFeatures::compute(&doc, &r);
    let got = f.props(elem(&f, &doc, "d"))[prop::TEXT];
    assert!(close(got, 1.0 - 4.0 / 18f32.sqrt()), "{got}");
    let all = Readings {
        characters: Characters::All,
        ..r
    };
    let f = NodeFeatures::compute(&doc, &all);
    let got = f.props(elem(&f, &doc, "d"))[prop::TEXT];
    // "ab cd" (5) + "var x;" (6) = 11 of 11 + 14 = 25.
    assert!(close(got, 1.0 - 11.0 / 5.0), "{got}");
}

#[test]
fn ul_ratio() {
    let r = Readings::default();
    assert_eq!(props_with(r, "m")[prop::UL], 1.0);
    assert_eq!(props_with(r, "t")[prop::UL], 0.0);
    let doc = parse("<body><ol id=o><li>a</li></ol></body>");
    let f = NodeFeatures::compute(&doc, &r);
    assert_eq!(f.props(elem(&f, &doc, "o"))[prop::UL], 0.0);
}

#[test]
fn representative_tag() {
    let doc = parse(concat!(
        "<body><nav id=a>x</nav><div id=b class='x menu'>x</div><div id=NAV>x</div>",
        "<div id=c class=navbar>x</div><div id=menu-main>x</div><div id=e class=content>x</div>",
        "</body>"
    ));
    let rep = |how, id: &str| {
        let f = NodeFeatures::compute(
            &doc,
            &Readings {
                representative: how,
                ..Readings::default()
            },
        );
        f.props(elem(&f, &doc, id))[prop::REPRESENTATIVE]
    };
    use Representative::{Exact, Substring};
    assert_eq!(rep(Exact, "a"), 1.0, "<nav>");
    assert_eq!(rep(Exact, "b"), 1.0, "class menu");
    assert_eq!(rep(Exact, "NAV"), 1.0, "id nav, any case");
    assert_eq!(rep(Exact, "c"), 0.0, "class navbar is not nav");
    assert_eq!(rep(Exact, "menu-main"), 0.0);
    assert_eq!(rep(Substring, "c"), 1.0);
    assert_eq!(rep(Substring, "menu-main"), 1.0);
    assert_eq!(rep(Substring, "e"), 0.0);
}

#[test]
fn node_position() {
    let r = Readings::default();
    // The UL is node 1 of 16 in the body, the P node 14.
    assert!(close(props_with(r, "m")[prop::POSITION], 1.0 - 1.0 / 16.0));
    assert!(close(props_with(r, "t")[prop::POSITION], 1.0 - 14.0 / 16.0));
    let doc = parse(PROPS_PAGE);
    let f = NodeFeatures::compute(&doc, &r);
    assert_eq!(f.node(0), doc.body().unwrap());
    assert!(close(f.props(0)[prop::POSITION], 1.0));
}

#[test]
fn only_elements_with_children_are_rated() {
    let doc = parse("<body><div id=e></div><br><p id=p>x</p><span id=s> </span></body>");
    let f = NodeFeatures::compute(&doc, &Readings::default());
    assert!(!f.rated(elem(&f, &doc, "e")));
    assert!(f.rated(elem(&f, &doc, "p")));
    assert!(
        f.rated(elem(&f, &doc, "s")),
        "a whitespace child is a descendant"
    );
    let w = f.weights(&Weights::PAPER);
    assert_eq!(w[elem(&f, &doc, "e") as usize], 0.0);
}

#[test]
fn weights_are_dot_products() {
    let doc = parse(PROPS_PAGE);
    let f = NodeFeatures::compute(&doc, &Readings::default());
    let m = elem(&f, &doc, "m");
    let w = f.weights(&Weights::PAPER);
    // 0.2 * 0.75 + 0.1 * 1 + 0.3 * 1 + 0.2 * 1 + 0.1 * 0 + 0.1 * 0.9375
    assert!(close(w[m as usize], 0.15 + 0.1 + 0.3 + 0.2 + 0.09375));
}

// ---------------------------------------------------------------------------------------------
// Algorithm 2

#[test]
fn algorithm_2_averages_heavy_nodes() {
    let doc = parse(concat!(
        "<body><div id=x><ul id=x1><li>a</li></ul><ul id=x2><li>b</li></ul></div>",
        "<div id=y><ul id=y1><li>c</li></ul><p id=y2>d</p></div><div id=z><p>e</p></div></body>"
    ));
    let f = NodeFeatures::compute(&doc, &Readings::default());
    let e = |id: &str| elem(&f, &doc, id);
    let mut w = vec![0.0f32; f.len()];
    w[e("x1") as usize] = 0.85;
    w[e("x2") as usize] = 0.95; // x: children average 0.90
    w[e("y1") as usize] = 0.92; // y: one heavy child, 0.92
    w[e("y2") as usize] = 0.5;
    let roots = [e("x"), e("y"), e("z")];
    assert_eq!(
        select_menu(&f, &w, &roots, 0.8, MenuSelection::Children),
        Some(e("y"))
    );
    // z has no heavy node (0/0 never wins); alone it gives no menu.
    assert_eq!(
        select_menu(&f, &w, &[e("z")], 0.8, MenuSelection::Children),
        None
    );
    // Ties keep the earlier root.
    w[e("y1") as usize] = 0.90;
    assert_eq!(
        select_menu(&f, &w, &roots, 0.8, MenuSelection::Children),
        Some(e("x"))
    );
    // Subtree: the node itself counts too.
    w[e("x") as usize] = 0.99;
    assert_eq!(
        select_menu(&f, &w, &[e("y"), e("x")], 0.8, MenuSelection::Subtree),
        Some(e("x"))
    );
    // Duplicates are ignored; an empty set gives no menu.
    assert_eq!(select_menu(&f, &w, &[], 0.8, MenuSelection::Subtree), None);
}

#[test]
fn nested_roots_reading() {
    let doc = parse("<body><div id=a><ul id=b><li>x</li></ul></div><p id=c>y</p></body>");
    let f = NodeFeatures::compute(&doc, &Readings::default());
    let e = |id: &str| elem(&f, &doc, id);
    let mut roots = vec![e("b"), e("c"), e("a")];
    drop_nested(&f, &mut roots, &mut Vec::new());
    assert_eq!(roots, vec![e("c"), e("a")]);
}

// ---------------------------------------------------------------------------------------------
// Detection

fn news_page(menu_links: &[&str], story: &str) -> String {
    let mut h = String::from(
        "<html><head><title>t</title></head><body><div id=header><h1>Daily</h1><ul id=menu>",
    );
    for l in menu_links {
        h.push_str(&format!(
            "<li><a href=\"/{}\">{l}</a></li>",
            l.to_lowercase()
        ));
    }
    h.push_str("</ul></div><div id=content><h2>");
    h.push_str(story);
    h.push_str("</h2>");
    for i in 0..12 {
        h.push_str(&format!(
            "<p>Paragraph {i} of the story about {story}, with enough words to be an article body \
             and not a menu at all, as any reader would agree.</p>"
        ));
    }
    h.push_str("</div><div id=sidebar><h3>Latest</h3><ul>");
    for i in 0..5 {
        h.push_str(&format!(
            "<li><a href=\"/story/{i}\">A rather long headline number {i}</a></li>"
        ));
    }
    h.push_str("</ul></div><div id=footer><p>Copyright Daily</p></div></body></html>");
    h
}

const SECTIONS: [&str; 6] = ["Home", "World", "Business", "Sport", "Culture", "Travel"];

#[test]
fn detects_the_menu_of_a_plain_page() {
    let doc = parse(&news_page(&SECTIONS, "Rain"));
    let menu = detect(&doc, &MenuParams::PAPER);
    assert_eq!(menu, Some(by_id(&doc, "menu")));
    let report = MenuReport::new(&doc, menu, Some("https://daily.example/news/x.html"));
    assert_eq!(report.selector.as_deref(), Some("#menu"));
    assert_eq!(report.links.len(), 6);
    assert_eq!(report.links[1].text, "World");
    assert_eq!(report.links[1].url, "https://daily.example/world");
}

#[test]
fn paper_params_and_defaults_round_trip() {
    let p = MenuParams::PAPER;
    assert_eq!(
        MenuParams::default(),
        MenuParams {
            method: Method::Model,
            ..MenuParams::PAPER
        }
    );
    assert_eq!(p.weights, Weights::PAPER);
    assert!(close(p.weights.sum(), 1.0));
    assert_eq!(
        (p.menu_threshold, p.root_threshold, p.candidate_threshold),
        (0.8, 0.7, 0.85)
    );
    assert_eq!(MenuParams::from_json("{}").unwrap(), MenuParams::default());
    assert_eq!(MenuParams::from_json(r#"{"method":"paper"}"#).unwrap(), p);
    assert_eq!(MenuParams::from_json(&p.to_json()).unwrap(), p);
    let d = MenuParams::default();
    assert_eq!(MenuParams::from_json(&d.to_json()).unwrap(), d);
    let q = MenuParams::from_json(r#"{"weights":{"ul":0.0},"readings":{"link_ratio":"density"}}"#)
        .unwrap();
    assert_eq!(q.weights.ul, 0.0);
    assert_eq!(q.weights.text, 0.30);
    assert_eq!(q.readings.link_ratio, LinkRatio::Density);
    assert!(
        MenuParams::from_json(r#"{"weight":{}}"#).is_err(),
        "unknown fields are refused"
    );
    let bad = MenuParams {
        menu_threshold: f32::NAN,
        ..p
    };
    assert!(bad.validate().is_err());
    assert!(p.validate().is_ok());
}

#[test]
fn definition_5_prefers_the_recurring_menu() {
    // Two menu-like lists: the first holds this page's own stories (it changes from page to
    // page), the second the site's sections.
    let page = |stories: &[&str]| {
        let mut h = String::from("<body><div><h1>The title</h1><ul class=menu id=first>");
        for s in stories {
            h.push_str(&format!("<li><a href='/s/{s}'>{s}</a></li>"));
        }
        h.push_str("</ul></div><div>");
        for _ in 0..10 {
            h.push_str("<p>Some text of the page that is not a menu at all.</p>");
        }
        h.push_str("</div><div><ul class=menu id=second>");
        for s in SECTIONS {
            h.push_str(&format!("<li><a href='/{s}'>{s}</a></li>"));
        }
        h.push_str("</ul><p>Copyright</p></div></body>");
        h
    };
    let a = parse(&page(&[
        "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta",
    ]));
    let b = parse(&page(&["Eta", "Theta", "Iota", "Kappa", "Lambda", "Mu"]));
    let p = MenuParams::PAPER;
    assert_eq!(
        detect(&a, &p),
        Some(by_id(&a, "first")),
        "page-level: the earlier list"
    );
    assert_eq!(
        detect_with_siblings(&a, &[&b], &p),
        Some(by_id(&a, "second")),
        "site-level: only the sections recur"
    );
    // The page itself is not its own sibling; no siblings means no recurring menu.
    assert_eq!(detect_with_siblings(&a, &[&a], &p), None);
    assert_eq!(detect_with_siblings(&a, &[], &p), None);

    // The model, with a null threshold low enough for these bare pages: page-level it takes
    // the first list too, with a sibling page the recurring one.
    let m = MenuParams {
        model: model::MenuModel {
            null_threshold: f32::NEG_INFINITY,
            ..model::MenuModel::DEFAULT
        },
        ..MenuParams::default()
    };
    assert_eq!(detect(&a, &m), Some(by_id(&a, "first")));
    let recurring = detect_with_siblings(&a, &[&b], &m).expect("a recurring menu");
    assert!(a.contains(recurring, by_id(&a, "second")));
    assert!(!a.contains(recurring, by_id(&a, "first")));
    assert_eq!(detect_with_siblings(&a, &[], &m), None);
}

// ---------------------------------------------------------------------------------------------
// Labels and links

#[test]
fn labeler_roles() {
    let doc = parse(&news_page(&SECTIONS, "Rain"));
    let view = TextView::new(&doc);
    let page = PageInput {
        doc: &doc,
        view: &view,
        source: None,
        url: None,
    };
    let method = MenuMethod::default();
    let verdict = method.evidence(&(), &page);
    let labels = verdict.evidence().expect("the menu is found").labels();
    assert_eq!(labels.len(), doc.len());
    let menu = by_id(&doc, "menu");
    for n in doc.ids() {
        if doc.contains(menu, n) {
            assert_eq!(labels.role(n), Role::Menu);
            assert_eq!(labels.score(n), 1.0);
            assert!(labels.is_removed(n));
        } else {
            assert_eq!(labels.role(n), Role::Content);
            assert_eq!(labels.score(n), 0.0);
        }
    }
    // No menu: all content, and the method abstains.
    let empty = parse("<p>just text</p>");
    let labels = menu_labels(&empty, detect(&empty, &MenuParams::PAPER));
    assert!(labels.roles().iter().all(|&r| r == Role::Content));
    let view = TextView::new(&empty);
    let page = PageInput {
        doc: &empty,
        view: &view,
        source: None,
        url: None,
    };
    assert!(method.evidence(&(), &page).abstained().is_some());
}

#[test]
fn links_resolve_against_base() {
    let doc = parse(concat!(
        "<html><head><base href='/sub/'></head><body><ul id=u>",
        "<li><a href='a.html'> Alpha\n  one </a></li>",
        "<li><a href='https://other.example/x'>Other</a></li>",
        "<li><a href='b'><img src=i.png alt='Bee'></a></li>",
        "<li><a title='Cee' href='#c'></a></li><li><a>no href</a></li>",
        "</ul></body></html>"
    ));
    let u = by_id(&doc, "u");
    let links = menu_links(&doc, u, Some("http://site.example/dir/page.html"));
    let got: Vec<(&str, &str)> = links
        .iter()
        .map(|l| (l.text.as_str(), l.url.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Alpha one", "http://site.example/sub/a.html"),
            ("Other", "https://other.example/x"),
            ("Bee", "http://site.example/sub/b"),
            ("Cee", "http://site.example/sub/#c"),
        ]
    );
    // Without a page URL, relative hrefs stay as written.
    let links = menu_links(&doc, u, None);
    assert_eq!(links[0].url, "a.html");
    assert_eq!(links[1].url, "https://other.example/x");
    // Out-of-range nodes give nothing.
    assert!(menu_links(&doc, NodeId(u32::MAX), None).is_empty());
}

#[test]
fn report_json_shape() {
    let doc = parse("<p>x</p>");
    let r = MenuReport::new(&doc, None, None);
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"selector":null,"links":[]}"#
    );
}

// ---------------------------------------------------------------------------------------------
// Scoring

#[test]
fn scoring_per_manifest() {
    let doc = parse(concat!(
        "<body><nav id=w><ul id=g><li><a href=/a>A</a></li>",
        "<li><a href=/b>B</a><ul id=sub><li><a href=/c>C</a></li></ul></li></ul></nav>",
        "<p id=o>other <a href=/d>D</a></p></body>"
    ));
    let leaves = LeafCounts::new(&doc);
    assert_eq!(
        leaves.get(by_id(&doc, "g")),
        3,
        "three links, no loose text"
    );
    assert_eq!(
        leaves.get(by_id(&doc, "o")),
        2,
        "one text node and one link"
    );
    let g = Gold::Selector(by_id(&doc, "g"));
    let s = |pred: Option<NodeId>| score(&doc, &leaves, g, pred);
    // A text-free wrapper of the gold scores exactly 1.
    assert!(s(Some(by_id(&doc, "w"))).perfect());
    assert!(s(Some(by_id(&doc, "g"))).perfect());
    // A submenu: precision 1, recall 1/3.
    let sub = s(Some(by_id(&doc, "sub")));
    assert!((sub.precision - 1.0).abs() < 1e-12 && (sub.recall - 1.0 / 3.0).abs() < 1e-12);
    // The body: recall 1, precision 3/5.
    let body = s(doc.body());
    assert!((body.recall - 1.0).abs() < 1e-12 && (body.precision - 0.6).abs() < 1e-12);
    // Disjoint and null predictions score 0; null gold scores 1 only for a null prediction.
    assert_eq!(s(Some(by_id(&doc, "o"))), PageScore::default());
    assert_eq!(s(None), PageScore::default());
    assert_eq!(score(&doc, &leaves, Gold::Null, None), PageScore::all(1.0));
    assert_eq!(
        score(&doc, &leaves, Gold::Null, Some(by_id(&doc, "g"))),
        PageScore::all(0.0)
    );
    let sum = summarize(
        &[PageScore::all(1.0), PageScore::all(0.0), sub],
        &[true, false, false],
    );
    assert_eq!((sum.pages, sum.null_pages, sum.nonnull_pages), (3, 1, 2));
    assert!((sum.perfect - 1.0 / 3.0).abs() < 1e-12);
    assert!((sum.null_accuracy - 1.0).abs() < 1e-12);
}

#[test]
fn gold_resolution() {
    let doc = parse(concat!(
        "<body><div id=nav><ul class=l><li><a href=/a>A  x</a></li><li><a href=/b>B</a></li>",
        "</ul></div><ul class=l><li><a href=/c>C</a></li></ul></body>"
    ));
    let texts = vec!["A x".to_string(), "B".to_string()];
    let ul = by_id(&doc, "nav");
    let inner = doc.element_children(ul).next().unwrap();
    assert_eq!(
        resolve_gold(&doc, Some("#nav ul.l"), &texts),
        Gold::Selector(inner)
    );
    // A selector that matches twice: fall back to the link texts (deepest element).
    assert_eq!(
        resolve_gold(&doc, Some("ul.l"), &texts),
        Gold::LinkTexts(inner)
    );
    assert_eq!(
        resolve_gold(&doc, Some("ul.l"), &["Z".into()]),
        Gold::Unresolved
    );
    assert_eq!(resolve_gold(&doc, None, &[]), Gold::Null);
}

// ---------------------------------------------------------------------------------------------
// Training

#[test]
fn paper_grid_size() {
    let g = Grid::paper();
    assert_eq!(
        Steps::new(0.0, 0.2, 0.05).values(),
        vec![0.0, 0.05, 0.1, 0.15, 0.2]
    );
    assert_eq!(Steps::new(0.7, 0.9, 0.1).values(), vec![0.7, 0.8, 0.9]);
    let w = g.weight_vectors();
    assert_eq!(w.len(), 3995, "weight vectors summing to 1");
    assert!(w.iter().all(|w| (w.sum() - 1.0).abs() < 1e-4));
    assert!(w.contains(&Weights::PAPER));
    assert_eq!(g.thresholds().len(), 9);
    assert_eq!(g.combinations().len(), 35_955);
    let free = Grid {
        sum_to_one: false,
        ..Grid::paper()
    };
    assert_eq!(free.weight_vectors().len(), 5 * 8 * 8 * 5 * 5 * 6);
}

fn train_pages() -> Vec<TrainPage> {
    let r = Readings::default();
    let mut out = Vec::new();
    for (site, story) in [
        ("a.example", "Rain"),
        ("a.example", "Snow"),
        ("b.example", "Sun"),
        ("c.example", "Fog"),
    ] {
        let doc = parse(&news_page(&SECTIONS, story));
        let gold = Gold::Selector(by_id(&doc, "menu"));
        out.push(TrainPage::new(&doc, gold, site, &r));
    }
    let doc = parse("<body><p>No menu here, only some text.</p></body>");
    out.push(TrainPage::new(&doc, Gold::Null, "d.example", &r));
    out
}

#[test]
fn training_fits_and_cross_validates() {
    let pages = train_pages();
    let grid = Grid::paper();
    let t = train(&pages, &grid).unwrap();
    assert_eq!(t.combinations, 35_955);
    assert!(t.summary.perfect > 0.999, "{:?}", t.summary);
    // Ties go to the combination nearest the paper's: here the paper's itself.
    assert_eq!(t.params.weights, Weights::PAPER);
    let cv = cross_validate(&pages, &grid, 3).unwrap();
    assert_eq!(cv.page_scores.len(), pages.len());
    assert!(cv.pooled.f1 > 0.999);
    // A site's pages share a fold.
    let folds = site_folds(&pages, 3);
    assert_eq!(folds[0], folds[1]);
    assert!(
        cross_validate(&pages[..2], &grid, 3).is_err(),
        "one site cannot be cross-validated"
    );
}

// ---------------------------------------------------------------------------------------------
// Pathological pages

#[test]
fn pathological_pages() {
    let p = MenuParams::PAPER;
    // Empty input, text only, no links.
    for html in [
        "",
        "   ",
        "just text",
        "<p>no <b>links</b> at all</p>",
        "<html></html>",
    ] {
        let doc = parse(html);
        assert_eq!(detect(&doc, &p), None, "{html:?}");
        let f = NodeFeatures::compute(&doc, &p.readings);
        assert!(detect_features(&f, &p).is_none());
    }
    // 100,000 nested elements (the parser flattens beyond its depth limit) with links inside.
    let mut deep = "<div>".repeat(100_000);
    deep.push_str(
        "<ul><li><a href=/a>a</a></li><li><a href=/b>b</a></li><li><a href=/c>c</a></li></ul>",
    );
    let doc = parse(&deep);
    let m = detect(&doc, &p);
    assert!(m.is_none_or(|m| doc.is_element(m)));
    let _ = detect_with_siblings(&doc, &[&doc], &p);
    // 100,000 nested unclosed list items and anchors.
    let doc = parse(&"<ul><li><a href=x>y".repeat(20_000));
    let _ = detect(&doc, &p);
    // A flat list of 50,000 links: every item a candidate's sibling.
    let mut flat = String::from("<body><ul id=big>");
    for i in 0..50_000 {
        flat.push_str(&format!("<li><a href=/{i}>{i}</a></li>"));
    }
    flat.push_str("</ul></body>");
    let doc = parse(&flat);
    assert_eq!(detect(&doc, &p), Some(by_id(&doc, "big")));
    // A frameset page has no body: the root element is the universe.
    let doc = parse("<html><frameset><frame src=a></frameset></html>");
    assert_eq!(detect(&doc, &p), None);
    // Nonsense parameters give no menu rather than a panic.
    let nan = MenuParams {
        weights: Weights::from_array([f32::NAN; 6]),
        ..p
    };
    assert_eq!(detect(&parse(&news_page(&SECTIONS, "x")), &nan), None);
    // Out-of-range nodes.
    let doc = parse("<p>x</p>");
    assert!(NodeFeatures::compute_in(&doc, NodeId(999), &p.readings).is_empty());
    assert!(
        MenuReport::new(&doc, Some(NodeId(999)), None)
            .selector
            .is_none()
    );
    assert!(
        menu_labels(&doc, Some(NodeId(999)))
            .roles()
            .iter()
            .all(|&r| r == Role::Content)
    );
}

mod props {
    use proptest::prelude::*;

    use super::*;

    fn soup() -> impl Strategy<Value = String> {
        use proptest::collection::vec;
        let piece = prop_oneof![
            Just("<ul>".to_string()),
            Just("</ul>".to_string()),
            Just("<li>".to_string()),
            Just("<nav id=menu>".to_string()),
            Just("</nav>".to_string()),
            Just("<div class=nav>".to_string()),
            Just("</div>".to_string()),
            Just("<table><tr><td>".to_string()),
            Just("<a href=/x>".to_string()),
            Just("</a>".to_string()),
            Just("<p>".to_string()),
            "[a-z ]{0,12}",
        ];
        vec(piece, 0..120).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn detection_never_panics_and_stays_in_the_body(html in soup()) {
            let doc = parse(&html);
            let p = MenuParams::PAPER;
            let f = NodeFeatures::compute(&doc, &p.readings);
            // The element tree mirrors the DOM.
            for e in 0..f.len() as u32 {
                let n = f.node(e);
                prop_assert!(doc.is_element(n));
                if f.parent(e) != NONE {
                    prop_assert_eq!(doc.parent(n), Some(f.node(f.parent(e))));
                }
                let end = f.end(e);
                prop_assert!(end as usize <= f.len());
                for c in f.children(e) {
                    prop_assert_eq!(f.parent(c), e);
                }
            }
            if let Some(m) = detect(&doc, &p) {
                prop_assert!(doc.is_element(m));
                let root = crate::features::universe_root(&doc).unwrap();
                prop_assert!(doc.contains(root, m));
                prop_assert!(MenuReport::new(&doc, Some(m), None).selector.is_some());
            }
        }
    }
}
