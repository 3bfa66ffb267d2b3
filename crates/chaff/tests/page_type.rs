//! The page type in the metadata: the built-in classifier's, for every page, with source
//! `model`, whatever the markup states; authors and publication dates only for articles and
//! forum threads.

use chaff::{MetadataSource, PageType};

fn page_type(html: &str, url: &str) -> (Option<PageType>, Option<MetadataSource>) {
    let page = chaff::extract(html.as_bytes(), Some(url)).unwrap();
    let m = page.metadata();
    (m.page_type, m.sources.get("page_type").copied())
}

const PRODUCT: &str = "<html><head><title>Oak desk, 120 cm | Woodshop</title>\
    <meta property='og:type' content='product'>\
    <script type='application/ld+json'>{\"@type\":\"Product\",\"name\":\"Oak desk\",\
    \"offers\":{\"@type\":\"Offer\",\"price\":\"349.00\"},\"datePublished\":\"2019-01-02\",\
    \"author\":{\"@type\":\"Person\",\"name\":\"Shop Admin\"}}</script></head><body>\
    <nav><a href=/>Home</a> <a href=/desks>Desks</a></nav><div class=product>\
    <h1>Oak desk, 120 cm</h1><p class=price>$349.00</p><p>In stock. Solid oak top, steel legs, \
    120 by 60 cm.</p><button class=add-to-cart>Add to cart</button>\
    <div class=reviews><div class=review>Sturdy and handsome.</div></div></div></body></html>";

const ARTICLE: &str = "<html><head><title>Council votes to close the old bridge - Town News</title>\
    <meta property='og:type' content='article'>\
    <meta property='article:published_time' content='2024-03-04T09:00:00Z'></head><body>\
    <article><h1>Council votes to close the old bridge</h1><p class=byline>By Ann Lee, \
    March 4, 2024</p><p>The council voted on Monday to close the old bridge for repairs. \
    Engineers found cracks in two of its arches last spring, and the work is expected to \
    take most of the coming year.</p><p>Traffic will be sent over the ring road, which the \
    council says can carry the extra load. Residents of the east bank asked for a ferry in \
    the meantime; the council said it would look at the cost.</p></article></body></html>";

#[test]
fn an_obvious_product_page_is_a_product() {
    assert_eq!(
        page_type(PRODUCT, "https://woodshop.example/products/oak-desk-120"),
        (Some(PageType::Product), Some(MetadataSource::Model))
    );
}

#[test]
fn a_news_story_is_an_article() {
    assert_eq!(
        page_type(
            ARTICLE,
            "https://town.example/news/2024/03/04/bridge-closes"
        ),
        (Some(PageType::Article), Some(MetadataSource::Model))
    );
}

#[test]
fn a_page_with_nothing_to_go_on_still_gets_a_type() {
    let (t, source) = page_type("<p>Hello.</p>", "https://a.example/");
    assert!(t.is_some());
    assert_eq!(source, Some(MetadataSource::Model));
}

#[test]
fn a_product_keeps_no_author_or_date_and_an_article_keeps_both() {
    let product = chaff::extract(
        PRODUCT.as_bytes(),
        Some("https://woodshop.example/products/oak-desk-120"),
    )
    .unwrap();
    let m = product.metadata();
    assert!(PRODUCT.contains("datePublished") && PRODUCT.contains("Shop Admin"));
    assert_eq!(
        (m.published.as_deref(), m.authors.len()),
        (None, 0),
        "{m:?}"
    );
    assert!(!m.sources.contains_key("published") && !m.sources.contains_key("authors"));
    let article = chaff::extract(
        ARTICLE.as_bytes(),
        Some("https://town.example/news/2024/03/04/bridge-closes"),
    )
    .unwrap();
    let m = article.metadata();
    assert_eq!(m.published.as_deref(), Some("2024-03-04T09:00:00Z"));
}

#[test]
fn the_classifiers_types_are_the_metadatas_in_the_same_order() {
    let names: Vec<&str> = PageType::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(names, chaff_content::pagetype::TYPES);
    assert_eq!((names[0], names[3]), ("article", "forum"));
}

/// A phpBB thread: breadcrumbs, page links and buttons between the headline and the first
/// post, a post date on every post, a member's join date in the profile beside it.
fn thread() -> String {
    let post = |who: &str, when: &str, text: &str| {
        format!(
            "<div class=\"post\"><div class=\"postbody\"><p class=\"author\">by \
             <a href=\"./memberlist.php?mode=viewprofile&amp;u=7\" class=\"username\">{who}</a> \
             &raquo; </p><p class=\"date\">{when}</p><div class=\"content\">{text}</div></div>\
             <dl class=\"postprofile\"><dd>Posts: 112</dd><dd>Joined: Mon Mar 04, 2019 8:00 pm</dd>\
             </dl><a href=\"#\">Quote</a> <a href=\"#\">Reply</a></div>"
        )
    };
    let crumbs: String = [
        "Board index",
        "Hardware",
        "Raspberry Pi 5",
        "Troubleshooting",
    ]
    .iter()
    .map(|c| format!("<li><a href=\"./viewforum.php?f=1\">{c}</a></li>"))
    .collect();
    let pages: String = (1..=4)
        .map(|k| format!("<a href=\"./viewtopic.php?t=361697&amp;start={k}\">{k}</a> "))
        .collect();
    format!(
        "<html><head><title>Turning off all LEDs of a Pi 5 - Raspberry Pi Forums</title></head>\
         <body><ul class=\"breadcrumbs\">{crumbs}</ul><h1><a href=\"./viewtopic.php?t=361697\">\
         Turning off all LEDs of a Pi 5</a></h1><div class=\"action-bar\"><a href=\"#\">Post Reply</a>\
         <a href=\"#\">Search this topic</a> <span>16 posts</span> Page <strong>1</strong> of 4 {pages}\
         </div>{}{}{}</body></html>",
        post(
            "b.scherer",
            "Sun Dec 17, 2023 11:18 am",
            "How do I turn off every LED on the board, the Ethernet ones too? I tried the \
             config.txt settings from the documentation and two of them stay lit."
        ),
        post(
            "helper",
            "Sun Dec 17, 2023 11:23 am",
            "The Ethernet LEDs are driven by the PHY; set eth_led0=4 in the EEPROM config."
        ),
        post(
            "b.scherer",
            "Sun Dec 17, 2023 12:02 pm",
            "That worked, thank you."
        )
    )
}

#[test]
fn a_thread_is_dated_and_signed_by_its_first_post() {
    let html = thread();
    let page = chaff::extract(
        html.as_bytes(),
        Some("https://forums.raspberrypi.com/viewtopic.php?t=361697"),
    )
    .unwrap();
    let m = page.metadata();
    assert_eq!(m.page_type, Some(PageType::Forum), "{m:?}");
    assert_eq!(m.published.as_deref(), Some("2023-12-17"), "{m:?}");
    assert_eq!(m.authors, ["b.scherer"], "{m:?}");
    assert_eq!(m.sources.get("published"), Some(&MetadataSource::Html));
}
