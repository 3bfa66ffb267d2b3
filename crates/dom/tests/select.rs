//! `chaff_dom::select`: every supported feature on hand-written documents, the parse errors,
//! property tests against a brute-force reference matcher, `unique_selector` on random and
//! real pages, and the hand-written selectors of the shared menu-labels data set.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chaff_dom::select::{escape_ident, escape_string};
use chaff_dom::{
    Document, ElementNs, Locator, MatchContext, NodeId, ParseOptions, Selector, parse_str,
    parse_with, unique_selector,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn doc(html: &str) -> Document {
    parse_str(html, &ParseOptions::default()).expect("within limits")
}

/// The `n` labels (or tag names) of the elements `selector` selects in the whole document.
fn sel(d: &Document, selector: &str) -> Vec<String> {
    let s = Selector::parse(selector).unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<NodeId> = s.select(d, NodeId::ROOT).collect();
    // `matches` (no caches, no memo) must agree with `select` everywhere.
    let by_matches: Vec<NodeId> = d.ids().filter(|&n| s.matches(d, n)).collect();
    assert_eq!(got, by_matches, "select vs matches for {selector:?}");
    got.into_iter().map(|n| label(d, n)).collect()
}

fn label(d: &Document, n: NodeId) -> String {
    d.attr(n, "n").unwrap_or(d.tag(n)).to_owned()
}

fn err(selector: &str) -> chaff_dom::SelectorError {
    match Selector::parse(selector) {
        Ok(_) => panic!("{selector:?} should not parse"),
        Err(e) => e,
    }
}

fn by_label(d: &Document, l: &str) -> NodeId {
    d.ids()
        .find(|&n| d.attr(n, "n") == Some(l))
        .unwrap_or_else(|| panic!("no element n={l}"))
}

// ---------------------------------------------------------------------------------------------
// Simple selectors
// ---------------------------------------------------------------------------------------------

#[test]
fn type_and_universal() {
    let d = doc("<div n=1><P n=2>x</P><span n=3></span></div>");
    assert_eq!(sel(&d, "p"), ["2"]);
    assert_eq!(sel(&d, "P"), ["2"]);
    assert_eq!(sel(&d, "dIv"), ["1"]);
    assert_eq!(sel(&d, "div *"), ["2", "3"]);
    assert_eq!(sel(&d, "*").len(), 6); // html head body div p span
    assert!(sel(&d, "article").is_empty());
}

#[test]
fn id_and_class() {
    let d = doc(
        "<p n=1 id=main class='a  b\tc'></p><p n=2 id=Main class='ab'></p>\
         <p n=3 class='b\na'></p><p n=4 id='x y'></p>",
    );
    assert_eq!(sel(&d, "#main"), ["1"]);
    assert_eq!(sel(&d, "#Main"), ["2"]);
    assert_eq!(sel(&d, ".a"), ["1", "3"]);
    assert_eq!(sel(&d, ".a.b"), ["1", "3"]);
    assert_eq!(sel(&d, ".a.c"), ["1"]);
    assert_eq!(sel(&d, ".ab"), ["2"]);
    assert_eq!(sel(&d, ".A"), Vec::<String>::new());
    assert_eq!(sel(&d, "p.b#main"), ["1"]);
    assert_eq!(sel(&d, "#x\\ y"), ["4"]);
    assert_eq!(sel(&d, "#x"), Vec::<String>::new());
}

#[test]
fn attribute_operators() {
    let d = doc(
        r#"<a n=1 class="nav main" lang="en-US" href="https://x.org/a.pdf" title=""></a>
           <a n=2 class="navigation" lang="en" href="/b.PDF"></a>
           <a n=3 class="main-nav" lang="english" data-x="Nav Bar"></a>"#,
    );
    assert_eq!(sel(&d, "[title]"), ["1"]);
    assert_eq!(sel(&d, "[TITLE]"), ["1"]);
    assert_eq!(sel(&d, "[title='']"), ["1"]);
    assert_eq!(sel(&d, "[class=nav]"), Vec::<String>::new());
    assert_eq!(sel(&d, "[class='nav main']"), ["1"]);
    // ~= is one whitespace-separated word; *= is any substring.
    assert_eq!(sel(&d, "[class~=nav]"), ["1"]);
    assert_eq!(sel(&d, "[class*=nav]"), ["1", "2", "3"]);
    assert_eq!(sel(&d, "[class~='nav main']"), Vec::<String>::new());
    assert_eq!(sel(&d, "[class~='']"), Vec::<String>::new());
    assert_eq!(sel(&d, "[lang|=en]"), ["1", "2"]);
    assert_eq!(sel(&d, "[class^=nav]"), ["1", "2"]);
    assert_eq!(sel(&d, "[class$=nav]"), ["3"]);
    assert_eq!(sel(&d, "[href$='.pdf']"), ["1"]);
    assert_eq!(sel(&d, "[href$='.pdf' i]"), ["1", "2"]);
    assert_eq!(sel(&d, "[href$=\".PDF\"I]"), ["1", "2"]);
    assert_eq!(sel(&d, "[href^='']"), Vec::<String>::new());
    assert_eq!(sel(&d, "[href*='']"), Vec::<String>::new());
    assert_eq!(sel(&d, "[data-x='nav bar']"), Vec::<String>::new());
    assert_eq!(sel(&d, "[data-x='nav bar' i]"), ["3"]);
    assert_eq!(sel(&d, "[data-x*='V B' i]"), ["3"]);
    assert_eq!(sel(&d, "[ data-x = \"Nav Bar\" ]"), ["3"]);
    assert_eq!(
        sel(&d, "a[lang=EN]"),
        ["2"],
        "lang is case-insensitive in HTML"
    );
    assert_eq!(sel(&d, "a[lang=EN s]"), Vec::<String>::new());
}

#[test]
fn escapes() {
    let d = doc(
        r#"<p n=1 id="a:b"></p><p n=2 class="123 x.y"></p><p n=3 class="o-nav_drawer@tp-__main"></p>
           <p n=4 title='say "hi"' data-v="A"></p><p n=5 id="-1"></p><p n=6 class="é"></p>"#,
    );
    assert_eq!(sel(&d, "#a\\:b"), ["1"]);
    assert_eq!(sel(&d, "#a\\3a b"), ["1"]);
    assert_eq!(sel(&d, "#a\\00003Ab"), ["1"]); // six hex digits, no space needed
    assert_eq!(sel(&d, ".\\31 23"), ["2"]);
    assert_eq!(sel(&d, ".\\31 23.x\\.y"), ["2"]);
    assert_eq!(sel(&d, ".o-nav_drawer\\@tp-__main"), ["3"]);
    assert_eq!(sel(&d, "[class~=\"o-nav_drawer@tp-__main\"]"), ["3"]);
    assert_eq!(sel(&d, r#"[title="say \"hi\""]"#), ["4"]);
    assert_eq!(sel(&d, r#"[title='say \22hi\22']"#), ["4"]);
    assert_eq!(sel(&d, "[data-v=\\41]"), ["4"]);
    assert_eq!(
        sel(&d, "[title='say \\\n\"hi\"']"),
        ["4"],
        "escaped newline"
    );
    assert_eq!(sel(&d, "#\\-1"), ["5"]);
    assert_eq!(sel(&d, ".é, .\\e9"), ["6"]);
    // Lenient: `#123`-style ids (a hash token that is not an identifier).
    let d = doc("<p n=1 id=123></p>");
    assert_eq!(sel(&d, "#123"), ["1"]);
    assert_eq!(sel(&d, "#\\31 23"), ["1"]);
}

#[test]
fn escape_functions_round_trip_through_matching() {
    let d = doc(
        r#"<p n=1 id="1st" class="a:b -2 é ---"></p><p n=2 id="x]&quot;y" data-q="a&quot;b\c"></p>"#,
    );
    for (n, v) in [("1", "1st"), ("2", "x]\"y")] {
        assert_eq!(sel(&d, &format!("#{}", escape_ident(v))), [n]);
        assert_eq!(sel(&d, &format!("[id={}]", escape_string(v))), [n]);
    }
    for c in ["a:b", "-2", "é", "---"] {
        assert_eq!(sel(&d, &format!(".{}", escape_ident(c))), ["1"], "{c}");
    }
    assert_eq!(
        sel(&d, &format!("[data-q={}]", escape_string("a\"b\\c"))),
        ["2"]
    );
}

#[test]
fn svg_names_keep_their_case() {
    let d = doc(
        "<svg n=s viewBox='0 0 1 1'><clipPath n=c></clipPath><foreignObject n=f>\
         <div n=d></div></foreignObject></svg><clippath n=h></clippath>",
    );
    assert_eq!(sel(&d, "clipPath"), ["c", "h"]);
    assert_eq!(
        sel(&d, "clippath"),
        ["h"],
        "lower case only matches the HTML element"
    );
    assert_eq!(sel(&d, "foreignObject div"), ["d"]);
    assert_eq!(sel(&d, "[viewBox]"), ["s"]);
    assert_eq!(sel(&d, "[viewbox]"), Vec::<String>::new());
    let s = by_label(&d, "s");
    assert_eq!(d.namespace(s), ElementNs::Svg);
}

// ---------------------------------------------------------------------------------------------
// Pseudo-classes
// ---------------------------------------------------------------------------------------------

/// `<ul>` of seven items with text and comments between them, mixed `li`/`p` types.
const LIST: &str = "<ul n=ul> <li n=1></li> <!--c--> <li n=2></li> <p n=p1></p> <li n=3></li> \
                    <li n=4></li> <p n=p2></p> <li n=5></li> text </ul>";

#[test]
fn child_position_pseudos() {
    let d = doc(LIST);
    assert_eq!(sel(&d, "ul > :first-child"), ["1"]);
    assert_eq!(sel(&d, "ul > :last-child"), ["5"]);
    assert_eq!(sel(&d, "li:first-child, li:last-child"), ["1", "5"]);
    assert_eq!(sel(&d, "p:first-child"), Vec::<String>::new());
    assert_eq!(sel(&d, "ul > :nth-child(odd)"), ["1", "p1", "4", "5"]);
    assert_eq!(sel(&d, "ul > :nth-child(even)"), ["2", "3", "p2"]);
    assert_eq!(sel(&d, "ul > :nth-child(-n+3)"), ["1", "2", "p1"]);
    assert_eq!(sel(&d, "ul > :nth-child(3)"), ["p1"]);
    assert_eq!(sel(&d, "ul > :nth-child(3n)"), ["p1", "p2"]);
    assert_eq!(sel(&d, "ul > :nth-child(n+6)"), ["p2", "5"]);
    assert_eq!(sel(&d, "ul > :nth-child(0)"), Vec::<String>::new());
    assert_eq!(sel(&d, "ul > :nth-last-child(1)"), ["5"]);
    assert_eq!(sel(&d, "ul > :nth-last-child(-n+2)"), ["p2", "5"]);
    assert_eq!(sel(&d, "li:nth-child(2n+1)"), ["1", "4", "5"]);
}

#[test]
fn type_position_pseudos() {
    let d = doc(LIST);
    assert_eq!(sel(&d, "li:first-of-type"), ["1"]);
    assert_eq!(sel(&d, "ul > :first-of-type"), ["1", "p1"]);
    assert_eq!(sel(&d, "ul > :last-of-type"), ["p2", "5"]);
    assert_eq!(sel(&d, "li:nth-of-type(2n+1)"), ["1", "3", "5"]);
    assert_eq!(sel(&d, "li:nth-of-type(2)"), ["2"]);
    assert_eq!(sel(&d, "p:nth-of-type(2)"), ["p2"]);
    assert_eq!(sel(&d, "li:nth-last-of-type(2)"), ["4"]);
    assert_eq!(sel(&d, "li:nth-last-of-type(-n+2)"), ["4", "5"]);
    assert_eq!(
        sel(&d, ":nth-of-type(-2n+3)"),
        ["html", "head", "body", "ul", "1", "p1", "3"]
    );
    let d =
        doc("<div n=a><span n=s></span></div><div n=b><i n=i1></i><i n=i2></i><b n=x></b></div>");
    assert_eq!(sel(&d, ":only-child"), ["html", "s"]);
    assert_eq!(sel(&d, "div :only-of-type"), ["s", "x"]);
    assert_eq!(sel(&d, "div:nth-of-type(2) > i:last-of-type"), ["i2"]);
}

#[test]
fn root_empty_not() {
    let d = doc(
        "<div n=1><p n=2 class=x></p><p n=3><!--c--></p><p n=4> </p><p n=5 class='x y'>t</p>\
         <p n=6><b></b></p></div>",
    );
    assert_eq!(sel(&d, ":root"), ["html"]);
    assert_eq!(sel(&d, "html:root > body"), ["body"]);
    assert_eq!(sel(&d, "p:empty"), ["2", "3"]);
    assert_eq!(sel(&d, "p:not(.x)"), ["3", "4", "6"]);
    assert_eq!(sel(&d, "p:not(.x, :empty)"), ["4", "6"]);
    assert_eq!(sel(&d, "p:not(.x.y)"), ["2", "3", "4", "6"]);
    assert_eq!(sel(&d, "div > :not(p)"), Vec::<String>::new());
    assert_eq!(
        sel(&d, "p:not(:first-child):not(:last-child)"),
        ["3", "4", "5"]
    );
    assert_eq!(sel(&d, "p:not( :only-child )").len(), 5);
    assert_eq!(
        sel(&d, "p:NOT(.X)"),
        ["2", "3", "4", "5", "6"],
        "class is case-sensitive"
    );
    assert_eq!(sel(&d, ":First-Child"), ["html", "head", "1", "2", "b"]);
}

// ---------------------------------------------------------------------------------------------
// Combinators
// ---------------------------------------------------------------------------------------------

#[test]
fn combinators() {
    let d = doc(
        "<div n=d1><p n=p1></p><span n=s1><a n=a1></a></span><p n=p2></p><span n=s2><a n=a2></a>\
         </span></div><span n=s3><a n=a3></a></span>",
    );
    assert_eq!(sel(&d, "div a"), ["a1", "a2"]);
    assert_eq!(sel(&d, "div > a"), Vec::<String>::new());
    assert_eq!(sel(&d, "div > span > a"), ["a1", "a2"]);
    assert_eq!(sel(&d, "p + span"), ["s1", "s2"]);
    assert_eq!(sel(&d, "p ~ span"), ["s1", "s2"]);
    assert_eq!(sel(&d, "p ~ p"), ["p2"]);
    assert_eq!(sel(&d, "span + p"), ["p2"]);
    assert_eq!(sel(&d, "div + span"), ["s3"]);
    assert_eq!(sel(&d, "div ~ * a"), ["a3"]);
    assert_eq!(sel(&d, "p+span>a"), ["a1", "a2"]);
    assert_eq!(sel(&d, "body > div > p ~ span a"), ["a1", "a2"]);
    assert_eq!(sel(&d, "p ~ p + span a"), ["a2"]);
    assert_eq!(sel(&d, "p ~ span ~ p + span > a"), ["a2"]);
    assert_eq!(sel(&d, "p\n\t~\n span \t a"), ["a1", "a2"]);
}

/// Chains where the nearest candidate fails and the matcher has to back up.
#[test]
fn backtracking() {
    // `div > p ~ span a`: the nearest span (s2) has no earlier p sibling under a div, the
    // outer span (s1) does.
    let d =
        doc("<div><p></p><span n=s1><section><span n=s2><a n=a></a></span></section></span></div>");
    assert_eq!(sel(&d, "div > p ~ span a"), ["a"]);
    assert_eq!(sel(&d, "div > p ~ span > a"), Vec::<String>::new());
    // The nearest `.x` ancestor is not a child of `.y`; a higher one is.
    let d = doc(
        "<div class=y><div class=x><div class=z><div class=x><b n=b></b></div></div></div></div>",
    );
    assert_eq!(sel(&d, ".y > .x b"), ["b"]);
    assert_eq!(sel(&d, ".y > .x > b"), Vec::<String>::new());
    assert_eq!(sel(&d, ".y > .x .z > .x > b"), ["b"]);
    // `~` needs the earlier of two candidates.
    let d = doc("<i class=a></i><i class=b></i><i class=c></i><i class=b></i><i class=d n=t></i>");
    assert_eq!(sel(&d, ".a + .b ~ .d"), ["t"]);
    assert_eq!(sel(&d, ".a ~ .b + .c ~ .d"), ["t"]);
    assert_eq!(sel(&d, ".c + .b ~ .d"), ["t"]);
    assert_eq!(sel(&d, ".b + .b ~ .d"), Vec::<String>::new());
    // Sibling runs at two levels.
    let d = doc(
        "<section><h2></h2><div><em></em></div><div n=x><p></p><p><b n=b></b></p></div></section>",
    );
    assert_eq!(sel(&d, "h2 ~ div > p + p > b"), ["b"]);
    assert_eq!(sel(&d, "h2 + div > p + p > b"), Vec::<String>::new());
    assert_eq!(sel(&d, "h2 ~ div > p ~ p b, em"), ["em", "b"]);
}

#[test]
fn select_within_a_subtree() {
    let d = doc("<div n=d1><div n=d2><p n=p1></p></div></div><p n=p2></p>");
    let s = Selector::parse("div p").unwrap();
    let d2 = by_label(&d, "d2");
    let got: Vec<String> = s.select(&d, d2).map(|n| label(&d, n)).collect();
    assert_eq!(got, ["p1"], "ancestors outside the subtree count");
    let divs = Selector::parse("div").unwrap();
    let got: Vec<String> = divs.select(&d, d2).map(|n| label(&d, n)).collect();
    assert_eq!(got, ["d2"], "the root itself is included");
    assert_eq!(
        divs.select_first(&d, NodeId::ROOT),
        Some(by_label(&d, "d1"))
    );
    assert_eq!(
        Selector::parse("p").unwrap().select_first(&d, d2),
        Some(by_label(&d, "p1"))
    );
    assert_eq!(
        Selector::parse("span")
            .unwrap()
            .select_first(&d, NodeId::ROOT),
        None
    );
    // Lists select each element once, in document order.
    assert_eq!(sel(&d, "p, div, #nope, p"), ["d1", "d2", "p1", "p2"]);
    // Non-elements never match.
    assert!(!divs.matches(&d, NodeId::ROOT));
    // A shared context gives the same answers.
    let mut cx = MatchContext::new(&d);
    let nth = Selector::parse(":nth-child(2)").unwrap();
    let got: Vec<String> = d
        .ids()
        .filter(|&n| nth.matches_in(&mut cx, n) || divs.matches_in(&mut cx, n))
        .map(|n| label(&d, n))
        .collect();
    assert_eq!(got, ["body", "d1", "d2", "p2"]);
}

#[test]
fn display_and_from_str() {
    let s: Selector = "ul#nav > li".parse().unwrap();
    assert_eq!(s.to_string(), "ul#nav > li");
    assert_eq!(s.as_str(), "ul#nav > li");
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

#[test]
fn parse_errors_say_where_and_why() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "empty selector"),
        ("   ", 0, "empty selector"),
        ("a:hover", 1, "unsupported pseudo-class :hover"),
        ("a::before", 1, "pseudo-elements"),
        ("a:before", 1, "pseudo-elements"),
        ("p:is(.a)", 1, "unsupported pseudo-class :is()"),
        ("p:has(> a)", 1, "unsupported pseudo-class :has()"),
        ("svg|a", 3, "namespace"),
        ("*|a", 1, "namespace"),
        ("|a", 0, "namespace"),
        ("[*|href]", 1, "namespace"),
        ("[xlink|href]", 6, "namespace"),
        ("a >", 3, "expected a selector"),
        ("a > > b", 4, "expected a selector"),
        ("a,", 2, "expected a selector"),
        (", a", 0, "expected a selector"),
        ("a, , b", 3, "expected a selector"),
        ("a)", 1, "unexpected ')'"),
        ("a.", 2, "expected a class name"),
        ("a.1x", 2, "expected a class name"),
        ("#", 1, "expected an id"),
        ("a#b*", 3, "unexpected '*'"),
        ("[href", 0, "unclosed ["),
        ("[href=", 6, "attribute value must be"),
        ("[href=x", 0, "unclosed ["),
        ("[data-id=123]", 9, "attribute value must be"),
        ("[a=b c]", 5, "unknown attribute flag"),
        ("[a=b i x]", 7, "expected ]"),
        ("[a!=b]", 2, "expected ], =, ~="),
        ("[a='b]", 3, "unterminated string"),
        ("[a='b\nc']", 5, "newline in string"),
        ("[]", 1, "expected an attribute name"),
        (":nth-child(2n+)", 11, "expected odd, even or An+B"),
        (":nth-child(foo)", 11, "expected odd, even or An+B"),
        (":nth-child(2n+1 of .x)", 11, "of S) is not supported"),
        (":nth-child(2", 10, "unclosed ("),
        (":nth-of-type(99999999999)", 13, "number out of range"),
        (":not(a b)", 7, "only compound selectors"),
        (":not(a > b)", 7, "only compound selectors"),
        (":not(:not(a))", 5, ":not() inside :not()"),
        (":not(.a", 4, "unclosed ( of :not"),
        (":not()", 5, "expected a selector"),
        ("a || b", 2, "column combinator"),
        ("a /* c */", 2, "comments are not supported"),
        ("a\\", 1, "backslash must escape"),
        (".a\\\nb", 2, "backslash must escape"),
        ("p:", 2, "expected a pseudo-class name"),
        (
            "p:first-child()",
            1,
            "unsupported pseudo-class :first-child()",
        ),
        ("@media", 0, "expected a selector"),
    ];
    for &(s, offset, reason) in cases {
        let e = err(s);
        assert_eq!(e.offset, offset, "{s:?}: {e}");
        assert!(e.reason.contains(reason), "{s:?}: {e}");
        assert_eq!(e.selector, s);
        let msg = e.to_string();
        assert!(msg.contains("at byte"), "{msg}");
    }
    let e = err("div > ul:hover li");
    assert_eq!(
        e.to_string(),
        "invalid selector \"div > ul:hover li\": unsupported pseudo-class :hover at byte 8 \
         (near \":hover li\")"
    );
}

// ---------------------------------------------------------------------------------------------
// unique_selector on hand-written pages
// ---------------------------------------------------------------------------------------------

fn assert_unique(d: &Document, n: NodeId) -> String {
    let s = unique_selector(d, n).expect("element");
    let got: Vec<NodeId> = Selector::parse(&s)
        .unwrap_or_else(|e| panic!("{e}"))
        .select(d, NodeId::ROOT)
        .collect();
    assert_eq!(got, [n], "{s:?} for node {n:?}");
    s
}

#[test]
fn unique_selector_forms() {
    let d = doc(
        "<div id=top><ul class='menu main'><li n=l1>a</li><li n=l2 class=on>b</li><li n=l3>c</li>\
         </ul><ul class=menu><li n=l4 class=on>d</li></ul></div><div id=dup><p n=p1></p></div>\
         <div id=dup><p n=p2></p><p n=p3 class='a:b'></p></div><nav n=nav></nav><div n=odd \
         id='1 st'></div>",
    );
    let u = |l: &str| assert_unique(&d, by_label(&d, l));
    assert_eq!(assert_unique(&d, d.find_tag("div").unwrap()), "#top");
    assert_eq!(u("nav"), "nav");
    assert_eq!(u("odd"), "#\\31 \\ st");
    assert_eq!(assert_unique(&d, d.find_tag("ul").unwrap()), "ul.main");
    assert_eq!(u("l2"), "ul.main li.on");
    assert_eq!(u("l4"), "#top > ul:nth-of-type(2) > li");
    assert_eq!(u("l3"), "ul.main > li:nth-of-type(3)");
    assert_eq!(u("p3"), "p.a\\:b");
    assert_eq!(u("p1"), "body > div:nth-of-type(2) > p");
    assert_eq!(u("p2"), "body > div:nth-of-type(3) > p:nth-of-type(1)");
    assert_eq!(assert_unique(&d, d.find_tag("html").unwrap()), "html");
    for n in d.ids().filter(|&n| d.is_element(n)) {
        assert_unique(&d, n);
    }
    assert_eq!(unique_selector(&d, NodeId::ROOT), None);
    let text = d.ids().find(|&n| d.is_text(n)).unwrap();
    assert_eq!(unique_selector(&d, text), None);
}

#[test]
fn unique_selector_in_foreign_content_and_templates() {
    let d = doc(
        "<svg><clipPath></clipPath><clipPath><rect></rect></clipPath></svg><clippath></clippath>\
         <svg><html></html><body></body></svg><template><p></p><p class=x></p></template><p></p>\
         <math><mi></mi></math>",
    );
    for n in d.ids().filter(|&n| d.is_element(n)) {
        assert_unique(&d, n);
    }
}

// ---------------------------------------------------------------------------------------------
// Large documents: no quadratic sibling work
// ---------------------------------------------------------------------------------------------

#[test]
fn fifty_thousand_nodes_stay_fast() {
    let mut html = String::from("<ul>");
    for i in 0..25_000 {
        html.push_str(if i % 1000 == 999 {
            "<li class=k>x"
        } else {
            "<li>x"
        });
    }
    html.push_str("</ul>");
    let d = doc(&html);
    assert!(d.len() > 50_000);
    let count = |s: &str| Selector::parse(s).unwrap().select(&d, NodeId::ROOT).count();
    let t = Instant::now();
    assert_eq!(count("li:nth-child(2n+1)"), 12_500);
    assert_eq!(count("li:nth-last-of-type(-n+3)"), 3);
    assert_eq!(count("li:last-child"), 1);
    assert_eq!(count("li:first-child"), 1);
    assert_eq!(count("li + li"), 24_999);
    assert_eq!(count("li ~ li"), 24_999);
    assert_eq!(count(".k ~ li"), 24_000);
    assert_eq!(count("b ~ li"), 0); // every li would scan all earlier siblings without the memo
    assert_eq!(count("b ~ li + li ~ li"), 0);
    assert_eq!(count("ul > li.k ~ li.k"), 24);
    assert_eq!(count("li:not(:nth-child(3n)):not(.k)"), 16_650);
    // Deep: 500 nested divs, each level has an earlier sibling.
    let mut deep = String::new();
    for _ in 0..500 {
        deep.push_str("<i></i><div>");
    }
    deep.push_str("<b>x</b>");
    let d2 = doc(&deep);
    let count2 = |s: &str| {
        Selector::parse(s)
            .unwrap()
            .select(&d2, NodeId::ROOT)
            .count()
    };
    assert_eq!(count2("section div b"), 0);
    assert_eq!(count2("i + div > div b"), 1);
    assert_eq!(count2("em ~ div b"), 0);
    assert_eq!(count2("div:first-child b"), 0);
    assert_eq!(count2("div div div div div"), 496);
    // Reported, not asserted (speed belongs in benchmarks); quadratic work would make this
    // test take minutes.
    println!("large-document selects took {:?}", t.elapsed());
}

// ---------------------------------------------------------------------------------------------
// Property tests: random documents, random selectors, a brute-force reference
// ---------------------------------------------------------------------------------------------

const TAGS: &[&str] = &[
    "div", "p", "span", "ul", "li", "a", "b", "section", "svg", "clipPath", "table", "td",
];
const IDS: &[&str] = &["x", "y", "z", "a:b", "1x"];
const CLASSES: &[&str] = &["a", "b", "c", "o@p", "-1", "x y"];

#[derive(Clone, Debug)]
enum Tok {
    Open(usize, Option<usize>, Vec<usize>),
    Close,
    Text,
    Comment,
}

fn tok() -> impl Strategy<Value = Tok> {
    tok_weighted(3)
}

/// Tokens; a larger `close` weight gives flatter documents with longer sibling lists.
fn tok_weighted(close: u32) -> impl Strategy<Value = Tok> {
    prop_oneof![
        4 => (
            0..TAGS.len(),
            proptest::option::weighted(0.3, 0..IDS.len()),
            proptest::collection::vec(0..CLASSES.len(), 0..3),
        )
            .prop_map(|(t, i, c)| Tok::Open(t, i, c)),
        close => Just(Tok::Close),
        1 => Just(Tok::Text),
        1 => Just(Tok::Comment),
    ]
}

fn render(toks: &[Tok]) -> String {
    let mut out = String::new();
    let mut open = Vec::new();
    for t in toks {
        match t {
            Tok::Open(tag, id, classes) => {
                out.push('<');
                out.push_str(TAGS[*tag]);
                if let Some(i) = id {
                    out.push_str(&format!(" id=\"{}\"", IDS[*i]));
                }
                if !classes.is_empty() {
                    let c: Vec<&str> = classes.iter().map(|&c| CLASSES[c]).collect();
                    out.push_str(&format!(" class=\"{}\"", c.join(" ")));
                }
                out.push('>');
                open.push(*tag);
            }
            Tok::Close => {
                if let Some(t) = open.pop() {
                    out.push_str(&format!("</{}>", TAGS[t]));
                }
            }
            Tok::Text => out.push_str("t "),
            Tok::Comment => out.push_str("<!--c-->"),
        }
    }
    out
}

/// A random compound, kept as data so the reference can evaluate it without the parser.
#[derive(Clone, Debug)]
struct RCompound {
    tag: Option<usize>,
    class: Option<usize>,
    id: Option<usize>,
    /// (kind, a, b): kind 0 nth-child, 1 nth-last-child, 2 nth-of-type, 3 nth-last-of-type.
    nth: Option<(u8, i32, i32)>,
    not_class: Option<usize>,
    /// (operator index, value index) on the class attribute.
    attr: Option<(usize, usize)>,
}

const OPS: &[&str] = &["=", "~=", "|=", "^=", "$=", "*="];
const VALUES: &[&str] = &["a", "b", "", "a b", "-1", "o@p"];
const NTH: &[&str] = &[
    "nth-child",
    "nth-last-child",
    "nth-of-type",
    "nth-last-of-type",
];
const COMBS: &[&str] = &[" ", " > ", " + ", " ~ "];

fn rcompound() -> impl Strategy<Value = RCompound> {
    (
        proptest::option::weighted(0.5, 0..TAGS.len()),
        proptest::option::weighted(0.3, 0..CLASSES.len() - 1),
        proptest::option::weighted(0.1, 0..IDS.len()),
        proptest::option::weighted(0.3, (0u8..4, -3i32..=3, -2i32..=5)),
        proptest::option::weighted(0.15, 0..CLASSES.len() - 1),
        proptest::option::weighted(0.15, (0..OPS.len(), 0..VALUES.len())),
    )
        .prop_map(|(tag, class, id, nth, not_class, attr)| RCompound {
            tag,
            class,
            id,
            nth,
            not_class,
            attr,
        })
}

impl RCompound {
    fn text(&self) -> String {
        let mut s = String::new();
        if let Some(t) = self.tag {
            s.push_str(TAGS[t]);
        }
        if let Some(c) = self.class {
            s.push('.');
            s.push_str(&escape_ident(CLASSES[c]));
        }
        if let Some(i) = self.id {
            s.push('#');
            s.push_str(&escape_ident(IDS[i]));
        }
        if let Some((k, a, b)) = self.nth {
            s.push_str(&format!(":{}({a}n{b:+})", NTH[k as usize]));
        }
        if let Some(c) = self.not_class {
            s.push_str(&format!(":not(.{})", escape_ident(CLASSES[c])));
        }
        if let Some((o, v)) = self.attr {
            s.push_str(&format!("[class{}{}]", OPS[o], escape_string(VALUES[v])));
        }
        if s.is_empty() {
            s.push('*');
        }
        s
    }

    fn matches(&self, d: &Document, n: NodeId) -> bool {
        let classes: Vec<&str> = d
            .attr(n, "class")
            .unwrap_or("")
            .split_ascii_whitespace()
            .collect();
        if let Some(t) = self.tag {
            let want = TAGS[t];
            let ok = if d.namespace(n) == ElementNs::Html {
                d.tag(n) == want.to_ascii_lowercase()
            } else {
                d.tag(n) == want
            };
            if !ok {
                return false;
            }
        }
        if let Some(c) = self.class
            && !classes.contains(&CLASSES[c])
        {
            return false;
        }
        if let Some(i) = self.id
            && d.attr(n, "id") != Some(IDS[i])
        {
            return false;
        }
        if let Some(c) = self.not_class
            && classes.contains(&CLASSES[c])
        {
            return false;
        }
        if let Some((o, v)) = self.attr {
            let Some(val) = d.attr(n, "class") else {
                return false;
            };
            let w = VALUES[v];
            let ok = match OPS[o] {
                "=" => val == w,
                "~=" => classes.contains(&w),
                "|=" => val == w || val.starts_with(&format!("{w}-")),
                "^=" => !w.is_empty() && val.starts_with(w),
                "$=" => !w.is_empty() && val.ends_with(w),
                _ => !w.is_empty() && val.contains(w),
            };
            if !ok {
                return false;
            }
        }
        if let Some((k, a, b)) = self.nth {
            let parent = d.parent(n).unwrap();
            let mut sibs: Vec<NodeId> = d
                .element_children(parent)
                .filter(|&s| k < 2 || (d.tag(s) == d.tag(n) && d.namespace(s) == d.namespace(n)))
                .collect();
            if k % 2 == 1 {
                sibs.reverse();
            }
            let idx = sibs.iter().position(|&s| s == n).unwrap() as i32 + 1;
            if !(0..=idx + 10).any(|m| a * m + b == idx) {
                return false;
            }
        }
        true
    }
}

/// Exhaustive, recursive reference: `parts` left to right, `combs[i]` between parts i, i+1.
fn reference(d: &Document, parts: &[RCompound], combs: &[usize], k: usize, n: NodeId) -> bool {
    if !parts[k].matches(d, n) {
        return false;
    }
    if k == 0 {
        return true;
    }
    let is_el = |x: &NodeId| d.is_element(*x);
    let prev_siblings: Vec<NodeId> = match d.parent(n) {
        Some(p) => d
            .children(p)
            .take_while(|&c| c != n)
            .filter(is_el)
            .collect(),
        None => Vec::new(),
    };
    let candidates: Vec<NodeId> = match combs[k - 1] {
        0 => d.ancestors(n).filter(is_el).collect(),
        1 => d.parent(n).filter(is_el).into_iter().collect(),
        2 => prev_siblings.last().copied().into_iter().collect(),
        _ => prev_siblings,
    };
    candidates
        .into_iter()
        .any(|c| reference(d, parts, combs, k - 1, c))
}

fn rselector() -> impl Strategy<Value = (Vec<RCompound>, Vec<usize>)> {
    rselector_with(&[1, 1, 1, 1])
}

/// Random selectors; `weights` are those of the four combinators in `COMBS`.
fn rselector_with(weights: &[u32; 4]) -> impl Strategy<Value = (Vec<RCompound>, Vec<usize>)> {
    let comb = proptest::sample::select(
        (0..COMBS.len())
            .flat_map(|c| std::iter::repeat_n(c, weights[c] as usize))
            .collect::<Vec<_>>(),
    );
    (1usize..=4).prop_flat_map(move |len| {
        (
            proptest::collection::vec(rcompound(), len),
            proptest::collection::vec(comb.clone(), len - 1),
        )
    })
}

/// `select` (caches and `~` memo), `matches` and a shared context against the reference.
fn check_against_reference(
    toks: &[Tok],
    sels: &[(Vec<RCompound>, Vec<usize>)],
) -> Result<(), TestCaseError> {
    let d = doc(&render(toks));
    let mut cx = MatchContext::new(&d);
    for (parts, combs) in sels {
        let text = selector_text(parts, combs);
        let s = Selector::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let want: Vec<NodeId> = d
            .ids()
            .filter(|&n| d.is_element(n) && reference(&d, parts, combs, parts.len() - 1, n))
            .collect();
        let got: Vec<NodeId> = s.select(&d, NodeId::ROOT).collect();
        prop_assert_eq!(&got, &want, "{} on {}", text, render(toks));
        let one_by_one: Vec<NodeId> = d.ids().filter(|&n| s.matches(&d, n)).collect();
        prop_assert_eq!(&one_by_one, &want, "matches: {}", text);
        let shared: Vec<NodeId> = d.ids().filter(|&n| s.matches_in(&mut cx, n)).collect();
        prop_assert_eq!(&shared, &want, "matches_in: {}", text);
        // Selecting in a subtree is the full result restricted to it.
        if let Some(&root) = want.first().or(d.ids().nth(d.len() / 2).as_ref()) {
            let sub: Vec<NodeId> = s.select(&d, root).collect();
            let end = d.subtree_end(root);
            let expect: Vec<NodeId> = want
                .iter()
                .copied()
                .filter(|&n| n >= root && n < end)
                .collect();
            prop_assert_eq!(sub, expect);
        }
    }
    Ok(())
}

fn selector_text(parts: &[RCompound], combs: &[usize]) -> String {
    let mut s = parts[0].text();
    for (p, &c) in parts[1..].iter().zip(combs) {
        s.push_str(COMBS[c]);
        s.push_str(&p.text());
    }
    s
}

proptest! {
    /// `select`, `matches` and a shared `MatchContext` agree with the exhaustive reference.
    #[test]
    fn matcher_agrees_with_reference(
        toks in proptest::collection::vec(tok(), 0..60),
        sels in proptest::collection::vec(rselector(), 1..4),
    ) {
        check_against_reference(&toks, &sels)?;
    }

    /// The same on flat documents with long sibling lists and mostly `+`/`~` combinators,
    /// where the `~` memo and the sibling-run pruning do their work.
    #[test]
    fn sibling_combinators_agree_with_reference(
        toks in proptest::collection::vec(tok_weighted(7), 0..80),
        sels in proptest::collection::vec(rselector_with(&[1, 1, 3, 4]), 1..4),
    ) {
        check_against_reference(&toks, &sels)?;
    }

    /// The selector list `a, b` is the union of `a` and `b` in document order.
    #[test]
    fn lists_are_unions(
        toks in proptest::collection::vec(tok(), 0..40),
        a in rselector(),
        b in rselector(),
    ) {
        let d = doc(&render(&toks));
        let (ta, tb) = (selector_text(&a.0, &a.1), selector_text(&b.0, &b.1));
        let both = Selector::parse(&format!("{ta}, {tb}")).unwrap();
        let (sa, sb) = (Selector::parse(&ta).unwrap(), Selector::parse(&tb).unwrap());
        let want: Vec<NodeId> = d
            .ids()
            .filter(|&n| sa.matches(&d, n) || sb.matches(&d, n))
            .collect();
        prop_assert_eq!(both.select(&d, NodeId::ROOT).collect::<Vec<_>>(), want);
    }

    /// `unique_selector` selects exactly its element, for every element.
    #[test]
    fn unique_selector_selects_exactly_its_element(
        toks in proptest::collection::vec(tok(), 0..80),
    ) {
        let d = doc(&render(&toks));
        let loc = Locator::new(&d);
        for n in d.ids() {
            let s = loc.unique_selector(n);
            prop_assert_eq!(s.is_some(), d.is_element(n));
            if let Some(s) = s {
                let got: Vec<NodeId> = Selector::parse(&s)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .select(&d, NodeId::ROOT)
                    .collect();
                prop_assert_eq!(got, vec![n], "{} in {}", s, render(&toks));
            }
        }
    }

    /// Parsing arbitrary text never panics.
    #[test]
    fn parse_never_panics(s in "\\PC{0,40}") {
        let _ = Selector::parse(&s);
    }

    /// ... nor does text made of selector punctuation, and what parses can be matched.
    #[test]
    fn punctuation_soup(s in "[a-z0-9#.:>+~ ,()\\[\\]=|^$*\"'\\\\-]{0,30}") {
        if let Ok(sel) = Selector::parse(&s) {
            let d = doc("<div class=a><p id=b>x</p></div>");
            let _ = sel.select(&d, NodeId::ROOT).count();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Real pages: the shared menu-labels data set
// ---------------------------------------------------------------------------------------------

fn shared_datasets() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    if p.is_dir() {
        Some(p)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the shared data sets are missing, and CI must run the tests that need them"
        );
        println!(
            "skipping: {} is absent (no shared data sets here)",
            p.display()
        );
        None
    }
}

fn load_page(path: &Path) -> Option<Document> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut bytes)
        .ok()?;
    let opts = ParseOptions {
        reject_binary: false,
        ..ParseOptions::default()
    };
    parse_with(&bytes, &opts).ok()
}

/// Just enough JSON for the label files (this crate has no JSON dependency).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn parse(text: &str) -> Json {
        let mut p = JsonParser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value();
        p.ws();
        assert_eq!(p.i, p.s.len(), "trailing JSON");
        v
    }
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn lit(&mut self, word: &str, v: Json) -> Json {
        assert!(
            self.s[self.i..].starts_with(word.as_bytes()),
            "bad JSON at {}",
            self.i
        );
        self.i += word.len();
        v
    }

    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b'}' {
                        self.i += 1;
                        return Json::Obj(fields);
                    }
                    let Json::Str(k) = self.value() else {
                        panic!("JSON key at {}", self.i)
                    };
                    self.ws();
                    assert_eq!(self.s[self.i], b':');
                    self.i += 1;
                    fields.push((k, self.value()));
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b']' {
                        self.i += 1;
                        return Json::Arr(items);
                    }
                    items.push(self.value());
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b'n' => self.lit("null", Json::Null),
            b't' => self.lit("true", Json::Bool(true)),
            b'f' => self.lit("false", Json::Bool(false)),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-.eE0123456789".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                Json::Num(
                    t.parse()
                        .unwrap_or_else(|_| panic!("bad JSON number {t:?}")),
                )
            }
        }
    }

    fn hex4(&mut self) -> u32 {
        let t = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
        self.i += 4;
        u32::from_str_radix(t, 16).unwrap()
    }

    fn string(&mut self) -> String {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let b = self.s[self.i];
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).unwrap(),
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    let c = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hi = self.hex4();
                            let cp = if (0xd800..0xdc00).contains(&hi)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4();
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else {
                                hi
                            };
                            char::from_u32(cp).unwrap_or('\u{fffd}')
                        }
                        other => other as char,
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(b),
            }
        }
    }
}

/// `' '.join(a.text_content().split())` for each `<a>` under `root`, empties dropped.
fn link_texts(d: &Document, root: NodeId) -> Vec<String> {
    d.subtree(root)
        .filter(|&n| d.is_tag(n, "a"))
        .map(|a| {
            d.subtree_text(a)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| !t.is_empty())
        .collect()
}

struct Label {
    page: PathBuf,
    menu: Option<String>,
    alt_menu: Option<String>,
    link_texts: Vec<String>,
}

fn menu_labels(datasets: &Path) -> Vec<Label> {
    let text = std::fs::read_to_string(datasets.join("menu-labels/labels.json"))
        .expect("labels.json readable");
    let Json::Arr(entries) = Json::parse(&text) else {
        panic!("labels.json is not an array")
    };
    entries
        .iter()
        .map(|e| {
            let s = |k: &str| e.get(k).and_then(Json::str).map(str::to_owned);
            Label {
                page: datasets
                    .join(s("dataset").expect("dataset"))
                    .join(s("page").expect("page")),
                menu: s("menu"),
                alt_menu: s("alt_menu"),
                link_texts: match e.get("menu_link_texts") {
                    Some(Json::Arr(a)) => {
                        a.iter().filter_map(Json::str).map(str::to_owned).collect()
                    }
                    _ => Vec::new(),
                },
            }
        })
        .collect()
}

#[test]
fn json_reader() {
    let v = Json::parse(r#"[{"a": "x\"\u00e9\ud83d\ude00", "b": null, "c": [1, -2.5e1, true]}]"#);
    let Json::Arr(items) = v else { panic!() };
    assert_eq!(items[0].get("a").and_then(Json::str), Some("x\"é😀"));
    assert_eq!(items[0].get("b"), Some(&Json::Null));
    assert_eq!(
        items[0].get("c"),
        Some(&Json::Arr(vec![
            Json::Num(1.0),
            Json::Num(-25.0),
            Json::Bool(true)
        ]))
    );
}

/// Every `menu`/`alt_menu` selector parses with this module and matches on its page (the
/// labels were made with lxml + cssselect; html5ever inserts `<tbody>`, which the labeller
/// avoided with descendant combinators). The menu's link texts are compared with the labels.
#[test]
fn menu_label_selectors_parse_and_match() {
    let Some(datasets) = shared_datasets() else {
        return;
    };
    let labels = menu_labels(&datasets);
    assert!(labels.len() >= 60, "{} labels", labels.len());
    let mut unparsable = Vec::new();
    let mut unmatched = Vec::new();
    let (mut checked, mut text_mismatch) = (0, 0);
    for l in &labels {
        let Some(d) = load_page(&l.page) else {
            panic!("cannot read {}", l.page.display());
        };
        for (field, s) in [("menu", &l.menu), ("alt_menu", &l.alt_menu)] {
            let Some(s) = s else { continue };
            let sel = match Selector::parse(s) {
                Ok(sel) => sel,
                Err(e) => {
                    println!("UNSUPPORTED {field} of {}: {e}", l.page.display());
                    unparsable.push(s.clone());
                    continue;
                }
            };
            let found: Vec<NodeId> = sel.select(&d, NodeId::ROOT).collect();
            checked += 1;
            if found.is_empty() {
                println!("NO MATCH {field} {s:?} on {}", l.page.display());
                unmatched.push(s.clone());
                continue;
            }
            if found.len() != 1 {
                println!(
                    "{} matches for {field} {s:?} on {}",
                    found.len(),
                    l.page.display()
                );
            }
            // The labelled element round-trips through unique_selector.
            let u = unique_selector(&d, found[0]).unwrap();
            let again: Vec<NodeId> = Selector::parse(&u)
                .unwrap()
                .select(&d, NodeId::ROOT)
                .collect();
            assert_eq!(again, [found[0]], "{u:?}");
            if field == "menu" {
                println!("{s:<40} -> {u}");
                let texts = link_texts(&d, found[0]);
                if texts != l.link_texts {
                    text_mismatch += 1;
                    let diff = texts
                        .iter()
                        .zip(&l.link_texts)
                        .find(|(a, b)| a != b)
                        .map(|(a, b)| format!("{a:?} vs {b:?}"))
                        .unwrap_or_default();
                    println!(
                        "link texts differ on {} ({} vs {} labelled): {diff}",
                        l.page.display(),
                        texts.len(),
                        l.link_texts.len()
                    );
                }
            }
        }
    }
    println!(
        "{checked} selectors matched, {} unsupported, {} unmatched, {text_mismatch} menus with \
         different link texts",
        unparsable.len(),
        unmatched.len()
    );
    assert!(
        unparsable.is_empty(),
        "unsupported selectors: {unparsable:?}"
    );
    assert!(
        unmatched.is_empty(),
        "selectors without a match: {unmatched:?}"
    );
}

/// The crater-nav-labels selectors (browser-generated, on scrapinghub pages) all parse.
#[test]
fn crater_nav_label_selectors_parse() {
    let Some(datasets) = shared_datasets() else {
        return;
    };
    let dir = datasets.join("crater-nav-labels/labels");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipping: {} is absent", dir.display());
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap();
        let Some(Json::Arr(regions)) = Json::parse(&text).get("nav_regions").cloned() else {
            continue;
        };
        for r in regions {
            if let Some(s) = r.get("selector").and_then(Json::str) {
                Selector::parse(s).unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
                n += 1;
            }
        }
    }
    println!("{n} crater-nav-labels selectors parse");
}

/// `unique_selector` selects exactly its element for every element of a few real pages.
#[test]
fn unique_selector_on_real_pages() {
    let Some(datasets) = shared_datasets() else {
        return;
    };
    let pages = [
        "l3s-gn1/original/f70d2b06-2e15-4383-9bfb-5b2052de8452.html.gz",
        "l3s-gn1/original/721afb1f-ed4d-4139-995b-5dcbf9e99351.html.gz",
        "dragnet/html/R141.html.gz",
        "cleanportaleval/input/bbc.co.uk_news_01.html.gz",
        "mozilla-readability-testpages/test-pages/engadget/source.html.gz",
    ];
    for page in pages {
        let path = datasets.join(page);
        let Some(d) = load_page(&path) else {
            println!("skipping {}: unreadable", path.display());
            continue;
        };
        let t = Instant::now();
        let loc = Locator::new(&d);
        let (mut n, mut total_len, mut longest) = (0, 0, String::new());
        for id in d.ids().filter(|&id| d.is_element(id)) {
            let s = loc.unique_selector(id).expect("element");
            let got: Vec<NodeId> = Selector::parse(&s)
                .unwrap_or_else(|e| panic!("{e}"))
                .select(&d, NodeId::ROOT)
                .collect();
            assert_eq!(got, [id], "{s:?} on {page}");
            n += 1;
            total_len += s.len();
            if s.len() > longest.len() {
                longest = s;
            }
        }
        println!(
            "{page}: {n} elements, mean selector length {:.1}, longest {longest:?}, {:?}",
            total_len as f64 / n.max(1) as f64,
            t.elapsed()
        );
    }
}
