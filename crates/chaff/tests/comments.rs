//! Readers' comments: found by the default page methods, kept out of the main text unless
//! asked for, always given apart.

use chaff::{Extractor, Format};

const PAGE: &str = "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
    <article><h1>Council votes to close the old bridge</h1><p>The council voted on Monday to \
    close the old bridge for repairs. Engineers found cracks in two of its arches last spring, \
    and the work is expected to take most of the coming year.</p><p>Traffic will be sent over \
    the ring road, which the council says can carry the extra load.</p></article>\
    <div id=comments><h3>2 comments</h3><ol class=commentlist>\
    <li class=comment><p>I drive over that bridge every day and it did feel shaky to me.</p></li>\
    <li class=comment><p>About time they did something, the cracks have been there for years.</p>\
    </li></ol><form class=comment-form><textarea>Your reply</textarea><button>Post</button>\
    </form></div></body></html>";

#[test]
fn comments_are_kept_out_of_the_main_text_and_given_apart() {
    let page = chaff::extract(PAGE.as_bytes(), Some("https://news.example.org/bridge")).unwrap();
    assert!(page.text().contains("cracks in two of its arches"));
    assert!(!page.text().contains("feel shaky"), "{}", page.text());
    let comments = page.comments().expect("a thread");
    assert!(comments.contains("feel shaky") && comments.contains("for years"));
    assert!(
        !comments.contains("Your reply") && !comments.contains("Post"),
        "{comments}"
    );
    assert!(!page.markdown().contains("feel shaky"));
    let record = page.record(Format::Json);
    assert_eq!(record["comments"], comments);
    assert!(
        record["methods"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["method"] == "comments")
    );
}

#[test]
fn include_comments_keeps_them_in_every_format() {
    let ex = Extractor::builder().include_comments(true).build().unwrap();
    let page = ex.extract(PAGE.as_bytes(), None).unwrap();
    assert!(page.text().contains("cracks in two of its arches"));
    assert!(page.text().contains("feel shaky"));
    assert!(page.markdown().contains("feel shaky") && page.html().contains("feel shaky"));
    assert!(page.comments().is_some_and(|c| c.contains("feel shaky")));
}

#[test]
fn a_page_without_a_thread_has_no_comments() {
    let page = chaff::extract(b"<p>Nothing but a short note without readers.</p>", None).unwrap();
    assert_eq!(page.comments(), None);
    assert!(page.record(Format::Json).get("comments").is_none());
}

/// A thread whose forum software marks every post as a comment, the first one too, and wraps
/// the posts in a form (Invision Community, for quoting and moderation); its JSON-LD says it
/// is a thread.
const THREAD_PAGE: &str = "<html><head><script type=application/ld+json>\
    {\"@context\": \"https://schema.org\", \"@type\": \"DiscussionForumPosting\"}</script>\
    </head><body><nav><a href=/>Forums</a> <a href=/hw>Hardware</a></nav>\
    <h1>New 2500X case</h1><div id=comments><form action=/multimod><div class=feed>\
    <div class=pager>Prev 1 2 Next</div>\
    <article><p>Does anyone know what the two small ports at the back of the case are for? \
    The manual says nothing about them, and both look very deliberate.</p></article>\
    <article><p>I heard they are for the lighting hub, but nobody from the company has \
    confirmed that as far as I know.</p></article>\
    <article><p>Same question here, the one on the bottom panel where the intake fans go \
    puzzles me most of all.</p></article></div></form>\
    <form class=reply><textarea>Reply to this topic</textarea><button>Submit</button></form>\
    </div></body></html>";

#[test]
fn a_thread_marked_as_comments_throughout_keeps_its_first_post_as_the_main_text() {
    let page = chaff::extract(THREAD_PAGE.as_bytes(), None).unwrap();
    assert!(page.text().contains("two small ports"), "{}", page.text());
    assert!(!page.text().contains("lighting hub"), "{}", page.text());
    assert_eq!(page.no_content(), None);
    // The replies are the comments; the form around the posts is no reply form, the one
    // with the box to write in is.
    let comments = page.comments().expect("replies");
    assert!(comments.contains("lighting hub") && comments.contains("bottom panel"));
    assert!(!comments.contains("two small ports"), "{comments}");
    assert!(!comments.contains("Reply to this topic"), "{comments}");
}

#[test]
fn with_comments_included_every_post_of_such_a_thread_is_main_text() {
    let ex = Extractor::builder().include_comments(true).build().unwrap();
    let page = ex.extract(THREAD_PAGE.as_bytes(), None).unwrap();
    for post in ["two small ports", "lighting hub", "bottom panel"] {
        assert!(page.text().contains(post), "{post}: {}", page.text());
    }
}

#[test]
fn without_the_statement_of_a_thread_the_first_comment_stays_a_comment() {
    // A photo post of few words under which readers comment: its first comment is no post.
    let (_, page) = THREAD_PAGE
        .split_once("</head>")
        .expect("the page has a head");
    let page = chaff::extract(format!("<html>{page}").as_bytes(), None).unwrap();
    assert!(!page.text().contains("two small ports"), "{}", page.text());
    assert!(
        page.comments()
            .is_some_and(|c| c.contains("two small ports"))
    );
}
