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
