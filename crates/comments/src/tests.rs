use super::*;
use chaff_core::Method;
use proptest::prelude::*;

const THREAD: &str = "<ol class=\"commentlist\">\
    <li class=\"comment\"><p>I drive over that bridge every day and it did feel shaky.</p></li>\
    <li class=\"comment\"><p>About time, the cracks have been there for years now.</p></li></ol>";

fn page(body: &str) -> (Document, TextView) {
    let doc =
        chaff_dom::parse(format!("<html><body>{body}</body></html>").as_bytes()).expect("parses");
    let view = TextView::new(&doc);
    (doc, view)
}

fn region_tags(body: &str) -> Vec<String> {
    let (doc, view) = page(body);
    regions(&doc, &view)
        .into_iter()
        .map(|r| {
            let id = doc.attr(r, "id").or(doc.attr(r, "class")).unwrap_or("");
            format!("{}#{id}", doc.tag(r))
        })
        .collect()
}

#[test]
fn the_outermost_element_naming_comments_is_the_region() {
    let body = format!("<h1>Bridge</h1><p>Story.</p><div id=\"comments\">{THREAD}</div>");
    assert_eq!(region_tags(&body), ["div#comments"]);
}

#[test]
fn counters_links_forms_and_popular_lists_are_not_threads() {
    let many = "one two three four five six seven eight nine ten eleven twelve thirteen \
                fourteen fifteen sixteen";
    for body in [
        format!("<a class=\"comment-count\" href=\"#c\">{many}</a>"),
        format!("<div class=\"most-commented\"><ul><li>{many}</li></ul></div>"),
        format!("<div class=\"comment-form\"><p>{many}</p></div>"),
        format!("<div class=\"post-footer-comments\"><p>{many}</p></div>"),
        format!("<div class=\"commentary\"><p>{many}</p></div>"),
        format!("<div id=\"http://example.org/commentaries/x.htm\"><p>{many}</p></div>"),
        format!("<p class=\"MsoCommentText\">{many}</p>"),
        format!("<form id=\"commentform\"><p>{many}</p></form>"),
    ] {
        assert_eq!(region_tags(&body), Vec::<String>::new(), "{body}");
    }
}

#[test]
fn a_wrapper_holding_the_headline_is_not_the_thread() {
    let body = format!(
        "<div class=\"post comments-open\"><h1>Bridge</h1><p>Story.</p>\
         <section class=\"comments-area\">{THREAD}</section></div>"
    );
    assert_eq!(region_tags(&body), ["section#comments-area"]);
}

#[test]
fn microdata_and_comment_systems_name_threads() {
    let words = "<p>I drive over that bridge every day and it did feel shaky to me, \
                 and the cracks have been there for years.</p>";
    assert_eq!(
        region_tags(&format!(
            "<section itemscope itemtype=\"https://schema.org/Comment\">{words}</section>"
        )),
        ["section#"]
    );
    assert_eq!(
        region_tags(&format!("<div id=\"disqus_thread\">{words}</div>")),
        ["div#disqus_thread"]
    );
}

#[test]
fn a_thread_of_fewer_words_than_the_minimum_is_left_alone() {
    // 14 words: one short of MIN_WORDS.
    let body = "<div id=\"comments\"><p>one two three four five six seven eight nine ten \
                eleven twelve thirteen fourteen</p></div>";
    assert_eq!(region_tags(body), Vec::<String>::new());
    let body = body.replace("fourteen", "fourteen fifteen");
    assert_eq!(region_tags(&body), ["div#comments"]);
}

#[test]
fn the_method_marks_regions_as_comments_or_abstains() {
    let (doc, view) = page(&format!("<p>Story.</p><div id=\"comments\">{THREAD}</div>"));
    let input = PageInput {
        doc: &doc,
        view: &view,
        source: None,
        url: None,
    };
    let Verdict::Evidence(e) = CommentsMethod.evidence(&(), &input) else {
        panic!("a thread was expected");
    };
    let region = regions(&doc, &view)[0];
    for id in doc.ids() {
        let inside = doc.contains(region, id);
        assert_eq!(e.labels().role(id) == Role::Comment, inside, "{id:?}");
    }
    let (doc, view) = page("<p>Story without readers.</p>");
    let input = PageInput {
        doc: &doc,
        view: &view,
        source: None,
        url: None,
    };
    assert!(matches!(
        CommentsMethod.evidence(&(), &input),
        Verdict::Abstain(_)
    ));
}

/// Random nests of divs whose classes come from a small vocabulary, each with some words.
fn nest() -> impl Strategy<Value = String> {
    let class = prop::sample::select(vec![
        "comments",
        "comment-count",
        "content",
        "most-commented",
        "reply",
        "comment",
    ]);
    let leaf = (class.clone(), 0usize..12)
        .prop_map(|(c, n)| format!("<div class=\"{c}\">{}</div>", "word ".repeat(n)));
    leaf.prop_recursive(4, 40, 4, move |inner| {
        (class.clone(), prop::collection::vec(inner, 1..4), 0usize..6).prop_map(|(c, kids, n)| {
            format!(
                "<div class=\"{c}\">{}{}</div>",
                "word ".repeat(n),
                kids.concat()
            )
        })
    })
}

proptest! {
    /// The scan equals the definition: an element is a region when it qualifies and no
    /// ancestor is one.
    #[test]
    fn regions_are_the_outermost_qualifying_elements(body in nest()) {
        let (doc, view) = page(&body);
        let found = regions(&doc, &view);
        let words = subtree_words(&doc, &view);
        // A fresh table each time: every class value is read from its attribute.
        let qualifies = |id: NodeId| {
            doc.is_element(id)
                && names_comments(&doc, id, &mut ClassMemo::new(&doc))
                && is_container(doc.tag(id))
                && words[id.index()] >= MIN_WORDS
        };
        let mut expected = Vec::new();
        for id in doc.ids() {
            if qualifies(id) && !doc.ancestors(id).any(|a| a != id && qualifies(a)) {
                expected.push(id);
            }
        }
        prop_assert_eq!(found, expected);
    }
}

proptest! {
    /// The pre-filter never passes over a value one of whose tokens names a thread: tokens
    /// made of pieces of the words the test looks for, in mixed case.
    #[test]
    fn a_value_passed_over_names_no_thread(
        pieces in prop::collection::vec(
            prop::sample::select(vec![
                "Comment", "comMENTS", "disQus", "LiveFyre", "fb-", "_", "-", "com", "ment",
                "list", "count", "mso", "/", "x", " ", "Disq", "us",
            ]),
            0..8,
        )
    ) {
        let value = pieces.concat();
        let named = value
            .split_ascii_whitespace()
            .any(|t| names_a_thread(&t.to_ascii_lowercase()));
        prop_assert!(!named || may_name_a_thread(&value), "{value:?}");
        // And the words themselves are found in any case.
        prop_assert_eq!(
            may_name_a_thread(&value),
            THREAD_WORDS.iter().any(|w| value.to_ascii_lowercase().contains(w))
        );
    }
}

/// A forum thread as Invision Community writes it: every post inside `#comments`, the posts
/// wrapped in a form and a feed, a pager before them.
const WHOLE_THREAD: &str = "<div id=\"comments\"><form action=\"/multimod\"><div class=\"feed\">\
    <div class=\"pager\">Prev 1 2 Next</div>\
    <article id=\"p1\"><p>Does anyone know what the two small ports at the back of the case are \
    for? The manual says nothing about them at all.</p></article>\
    <article id=\"p2\"><p>I heard they are for the lighting hub, but nobody has confirmed that \
    as far as I know.</p></article>\
    <article id=\"p3\"><p>Same question here, the one on the bottom panel puzzles me most of \
    all.</p></article></div></form></div>";

#[test]
fn words_under_counts_the_visible_words_of_a_subtree() {
    let (doc, view) = page("<div id=\"a\"><p>one two</p><p>three</p></div><p>four five</p>");
    let a = doc.find_tag("div").expect("a div");
    assert_eq!(words_under(&doc, &view, a), 3);
    assert_eq!(words_under(&doc, &view, NodeId(0)), 5);
}

#[test]
fn the_first_post_of_a_whole_thread_is_found_through_its_wrappers() {
    let (doc, view) = page(WHOLE_THREAD);
    let region = regions(&doc, &view);
    assert_eq!(region.len(), 1, "the thread is one region");
    let post = first_post(&doc, &view, region[0]).expect("a first post");
    assert_eq!(doc.attr(post, "id"), Some("p1"));
}

#[test]
fn a_region_of_one_text_has_no_first_post() {
    let long = "one two three four five six seven eight nine ten eleven twelve thirteen \
                fourteen fifteen sixteen";
    let (doc, view) = page(&format!("<div class=\"comments\">{long}</div>"));
    let region = regions(&doc, &view);
    assert_eq!(region.len(), 1);
    assert_eq!(first_post(&doc, &view, region[0]), None);
    // Items that are all shorter than a post hold no first post either.
    let (doc, view) = page(
        "<div class=\"comments\"><p>one two three</p><p>four five six</p><p>seven eight \
         nine</p><p>ten eleven twelve</p><p>thirteen fourteen fifteen sixteen</p></div>",
    );
    let region = regions(&doc, &view);
    assert_eq!(first_post(&doc, &view, region[0]), None);
}

proptest! {
    /// The binary search over the view's segments counts what the reverse scan over every
    /// node counts, for every node of generated pages.
    #[test]
    fn words_under_equals_the_subtree_sums(body in nest()) {
        let (doc, view) = page(&body);
        let words = subtree_words(&doc, &view);
        for id in doc.ids() {
            prop_assert_eq!(words_under(&doc, &view, id), words[id.index()], "node {:?}", id);
        }
    }
}

#[test]
fn a_thread_is_stated_by_json_ld_or_microdata() {
    let stated = |html: &str| {
        let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
        states_a_thread(&doc)
    };
    assert!(stated(
        "<script type=\"application/ld+json\">{\"@type\": \"DiscussionForumPosting\"}</script>"
    ));
    assert!(stated(
        "<div itemscope itemtype=\"https://schema.org/QAPage\"><p>Why?</p></div>"
    ));
    // An article, a type named outside JSON-LD, or a thread's comments alone are not.
    assert!(!stated(
        "<script type=\"application/ld+json\">{\"@type\": \"NewsArticle\"}</script>"
    ));
    assert!(!stated(
        "<p>A DiscussionForumPosting is a schema.org type.</p>"
    ));
    assert!(!stated(
        "<div itemscope itemtype=\"http://schema.org/UserComments\"><p>Nice.</p></div>"
    ));
}

/// What [`names_comments`] answered when it looked each attribute up by name as text, and
/// the class value afresh: the reference for its one pass and its table.
fn names_comments_by_lookup(doc: &Document, id: NodeId) -> bool {
    if let Some(t) = doc.attr(id, "itemtype") {
        let t = t.to_ascii_lowercase();
        if t.contains("schema.org/comment") || t.contains("schema.org/usercomments") {
            return true;
        }
    }
    if doc.attr(id, "itemprop").is_some_and(|p| {
        p.split_ascii_whitespace()
            .any(|p| p.eq_ignore_ascii_case("comment"))
    }) {
        return true;
    }
    doc.attr(id, "id").is_some_and(value_names_a_thread)
        || doc.attr(id, "class").is_some_and(value_names_a_thread)
}

proptest! {
    /// One pass over the attributes, with the class answers kept by number, says what the
    /// lookups by name say, on elements with any of the four attributes.
    #[test]
    fn one_pass_over_the_attributes_answers_as_the_lookups(
        elements in prop::collection::vec(
            (
                prop::option::of(prop::sample::select(vec![
                    "https://schema.org/Comment", "http://SCHEMA.org/UserComments",
                    "https://schema.org/Article", "",
                ])),
                prop::option::of(prop::sample::select(vec!["comment", "text COMMENT", "commentCount", ""])),
                prop::option::of(prop::sample::select(vec!["comments", "disqus_thread", "comment-count", "main", ""])),
                prop::option::of(prop::sample::select(vec!["comments", "fb-comments x", "commentary", "nav", ""])),
            ),
            1..12,
        )
    ) {
        let body: String = elements
            .iter()
            .map(|(itemtype, itemprop, id, class)| {
                let attr = |name: &str, v: &Option<&str>| {
                    v.map_or(String::new(), |v| format!(" {name}=\"{v}\""))
                };
                format!(
                    "<div{}{}{}{}>x</div>",
                    attr("itemtype", itemtype),
                    attr("itemprop", itemprop),
                    attr("id", id),
                    attr("class", class)
                )
            })
            .collect();
        let (doc, _) = page(&body);
        let mut classes = ClassMemo::new(&doc);
        for id in doc.ids().filter(|&id| doc.is_tag(id, "div")) {
            prop_assert_eq!(
                names_comments(&doc, id, &mut classes),
                names_comments_by_lookup(&doc, id)
            );
        }
    }
}
