//! The numbering of `class` values ([`ClassId`]): by hand on a small page, and against the
//! attribute values themselves on random markup.

use chaff_dom::{ClassId, Document, NodeId, parse};
use proptest::prelude::*;

fn element(doc: &Document, tag: &str, nth: usize) -> NodeId {
    doc.ids()
        .filter(|&id| doc.is_tag(id, tag))
        .nth(nth)
        .expect("the element is on the page")
}

#[test]
fn equal_values_share_a_number_in_order_of_first_appearance() {
    let doc = parse(
        br#"<div class="a b"><p class="a b">x</p><span class="">y</span>
        <i class=c>z</i><b>w</b><em CLASS="a b" class="c">v</em><p class="A b">u</p></div>"#,
    )
    .unwrap();
    let id = |tag, nth| doc.class_id(element(&doc, tag, nth));
    assert_eq!(id("div", 0), ClassId(1));
    assert_eq!(id("p", 0), ClassId(1));
    // Empty and absent are both none.
    assert_eq!(id("span", 0), ClassId::NONE);
    assert_eq!(id("b", 0), ClassId::NONE);
    assert_eq!(id("i", 0), ClassId(2));
    // The parser keeps the first of two `class` attributes (names are lower-cased).
    assert_eq!(id("em", 0), ClassId(1));
    // Values compare as written: case counts.
    assert_eq!(id("p", 1), ClassId(3));
    assert_eq!(doc.class_table_len(), 4);
    assert_eq!(doc.class_value(ClassId(1)), "a b");
    assert_eq!(doc.class_value(ClassId(3)), "A b");
    assert_eq!(doc.class_value(ClassId::NONE), "");
    assert_eq!(doc.class_value(ClassId(4)), "");
    // Text nodes and the root have none.
    assert_eq!(doc.class_id(NodeId::ROOT), ClassId::NONE);
    let text = doc.ids().find(|&n| doc.is_text(n)).unwrap();
    assert_eq!(doc.class_id(text), ClassId::NONE);
}

/// Markup of nested elements whose classes come from a small pool, so values repeat.
fn markup() -> impl Strategy<Value = String> {
    let class = prop::sample::select(vec![
        "", " ", "a", "a b", "b a", "A", "a&amp;b", "a&b", "é", "x y z",
    ]);
    let open = (
        prop::sample::select(vec!["div", "p", "span", "li", "svg", "td", "a"]),
        prop::option::of(class),
        prop::bool::ANY,
    )
        .prop_map(|(tag, class, close)| {
            let attr = class.map_or(String::new(), |c| format!(" class=\"{c}\""));
            let end = if close {
                format!("</{tag}>")
            } else {
                String::new()
            };
            format!("<{tag}{attr}>t{end}")
        });
    prop::collection::vec(open, 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    /// Two elements share a number exactly when their `class` values are the same text
    /// (absent and empty being none), each number's value is the elements' value, and new
    /// numbers come in document order.
    #[test]
    fn numbers_follow_the_values(html in markup()) {
        let doc = parse(html.as_bytes()).unwrap();
        let elements: Vec<NodeId> = doc.ids().filter(|&id| doc.is_element(id)).collect();
        let value = |id| doc.attr(id, "class").unwrap_or("");
        let mut next = 1u32;
        for &x in &elements {
            let n = doc.class_id(x);
            prop_assert!(n.index() < doc.class_table_len());
            prop_assert_eq!(doc.class_value(n), value(x));
            prop_assert_eq!(n == ClassId::NONE, value(x).is_empty());
            if n.0 == next {
                next += 1;
            } else {
                prop_assert!(n.0 < next, "{:?} comes before {}", n, next);
            }
            for &y in &elements {
                prop_assert_eq!(n == doc.class_id(y), value(x) == value(y));
            }
        }
        prop_assert_eq!(next as usize, doc.class_table_len());
    }
}
