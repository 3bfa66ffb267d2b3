//! Each source on hand-made pages, precedence between them, dates, and the rule that a field
//! the page does not give is absent.

use super::*;

fn meta(html: &str, url: Option<&str>) -> Metadata {
    let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
    extract(&doc, url)
}

#[test]
fn json_ld_graph_with_nested_authors_and_publisher() {
    let m = meta(
        r#"<html lang="en-gb"><head><title>Rain floods the square | The Example Times</title>
        <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
          {"@type":"WebSite","name":"Example Times Online"},
          {"@type":"NewsArticle","headline":"Rain floods the square",
           "datePublished":"2021-03-05T10:00:00+01:00","dateModified":"2021-03-06",
           "author":[{"@type":"Person","name":"Jane Doe"},{"@type":"Person","name":"Sam Roe"},
                     {"@type":"Organization","name":"Example Desk"}],
           "publisher":{"@type":"Organization","name":"The Example Times"},
           "keywords":"rain, floods","articleSection":"Weather",
           "image":{"@type":"ImageObject","url":"/img/rain.jpg"}}]}
        </script></head><body><p>x</p></body></html>"#,
        Some("https://news.example.org/a"),
    );
    assert_eq!(m.title.as_deref(), Some("Rain floods the square"));
    assert_eq!(
        m.page_title.as_deref(),
        Some("Rain floods the square | The Example Times")
    );
    assert_eq!(m.authors, ["Jane Doe", "Sam Roe"]);
    assert_eq!(m.published.as_deref(), Some("2021-03-05T10:00:00+01:00"));
    assert_eq!(m.modified.as_deref(), Some("2021-03-06"));
    assert_eq!(m.site_name.as_deref(), Some("The Example Times"));
    assert_eq!(m.tags, ["rain", "floods"]);
    assert_eq!(m.categories, ["Weather"]);
    assert_eq!(
        m.image.as_deref(),
        Some("https://news.example.org/img/rain.jpg")
    );
    assert_eq!(m.language.as_deref(), Some("en-GB"));
    assert_eq!(m.page_type, Some(PageType::Article));
    assert_eq!(m.sources["authors"], Source::JsonLd);
    assert_eq!(m.sources["language"], Source::Html);
}

#[test]
fn broken_json_ld_is_skipped_and_other_sources_answer() {
    let m = meta(
        r#"<html><head><script type="application/ld+json">{"@type": "Article", "headline": </script>
        <meta property="og:title" content="Headline from OpenGraph - Example">
        <meta property="og:site_name" content="Example">
        <meta name="author" content="Jane Doe">
        <meta property="article:published_time" content="2020-01-02">
        </head><body></body></html>"#,
        None,
    );
    assert_eq!(m.title.as_deref(), Some("Headline from OpenGraph"));
    assert_eq!(m.authors, ["Jane Doe"]);
    assert_eq!(m.published.as_deref(), Some("2020-01-02"));
    assert_eq!(m.sources["title"], Source::OpenGraph);
    assert_eq!(m.sources["authors"], Source::Meta);
    assert!(m.page_type.is_none());
}

/// A date the page labels as its publication's, far from the headline: after the article,
/// in one text or with the label in a text of its own. Labelled dates of different days are
/// a list's, an update's label dates nothing here, and a label must be a word of its own.
#[test]
fn a_labelled_date_further_down_dates_the_page() {
    // Twelve paragraphs: past the texts a dateline near the headline is looked for in.
    let article =
        "<p>A paragraph of the article that says nothing of when it was written.</p>".repeat(12);
    let page = |after: &str| {
        format!(
            r#"<html><body><h1>Index types for academic journals</h1>{article}{after}</body></html>"#
        )
    };
    let published = |after: &str| meta(&page(after), None).published;
    assert_eq!(
        published("<p>Posted on April 13, 2023</p>").as_deref(),
        Some("2023-04-13")
    );
    assert_eq!(
        published("<p>Posted on: January 14 2026</p>").as_deref(),
        Some("2026-01-14")
    );
    assert_eq!(
        published("<span>Published</span> <span>July 8, 2025</span>").as_deref(),
        Some("2025-07-08")
    );
    // The same day twice (above and below the article) is still one date.
    assert_eq!(
        published("<p>Published 15 August 2025</p><p>Published 15 August 2025</p>").as_deref(),
        Some("2025-08-15")
    );
    // A front page's posts, each with its own day.
    assert_eq!(
        published("<p>Posted Mar 6, 2026 by jzb</p><p>Posted Mar 5, 2026 by corbet</p>"),
        None
    );
    assert_eq!(published("<p>Last updated: March 12, 2026</p>"), None);
    assert_eq!(published("<p>Published in Science, 2019</p>"), None);
    assert_eq!(published("<p>Postedit 12 May 2024</p>"), None);
    // A long sentence that happens to start with the word is no label.
    assert_eq!(
        published(
            "<p>Posted on a wall in the old town, the notice of 12 May 2024 told everyone \
             where the market would be held that year</p>"
        ),
        None
    );
    // Nearer the headline, the dateline wins.
    let m = meta(
        r#"<html><body><h1>Title</h1><p>March 3, 2024</p><p>Text of the article.</p>
        <p>Posted on April 13, 2023</p></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2024-03-03"));
    assert_eq!(m.sources["published"], Source::Html);
}

/// A `<meta name="published">` in words, as a blog's template writes it (Splunk's), is read
/// and normalised like the other `<meta>` dates; without it the page states no date.
#[test]
fn a_meta_named_published_dates_the_page() {
    let page = |head: &str| {
        format!(
            r#"<html><head>{head}<meta name="category" content="Learn"></head>
            <body><h1>Data analysis tools</h1><p>Some words of the article.</p></body></html>"#
        )
    };
    let m = meta(
        &page(r#"<meta name="published" content="July 17, 2025">"#),
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2025-07-17"));
    assert_eq!(m.sources["published"], Source::Meta);
    assert!(meta(&page(""), None).published.is_none());
}

#[test]
fn structured_markup_wins_over_meta_names_and_the_document() {
    let m = meta(
        r#"<html><head>
        <meta name="date" content="2019-12-31"><meta name="author" content="Web Team">
        <script type="application/ld+json">[{"@type":"BlogPosting","headline":"Real headline",
          "datePublished":"2020-06-01","author":"Ann Author"}]</script>
        </head><body><article><time datetime="2018-01-01">old</time>
        <span class="byline">By Someone Else</span></article></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2020-06-01"));
    assert_eq!(m.authors, ["Ann Author"]);
    assert_eq!(m.sources["published"], Source::JsonLd);
}

#[test]
fn addresses_resolve_against_the_base_element() {
    let m = meta(
        r#"<html><head><base href="/en/"><link rel="canonical" href="story/1">
        <meta property="og:image" content="../img/a.png"></head><body><p>x</p></body></html>"#,
        Some("https://example.org/a/b"),
    );
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://example.org/en/story/1")
    );
    assert_eq!(m.image.as_deref(), Some("https://example.org/img/a.png"));
}

#[test]
fn microdata_time_bylines_and_links() {
    let m = meta(
        r#"<html><head><link rel="canonical" href="/story/1"></head><body>
        <article itemscope itemtype="https://schema.org/Article">
          <h1 itemprop="headline">Microdata headline</h1>
          <span itemprop="author" itemscope><span itemprop="name">Max Muster</span></span>
          <time itemprop="datePublished" datetime="2022-02-03">3 Feb</time>
        </article></body></html>"#,
        Some("https://example.de/x"),
    );
    assert_eq!(m.title.as_deref(), Some("Microdata headline"));
    assert_eq!(m.authors, ["Max Muster"]);
    assert_eq!(m.published.as_deref(), Some("2022-02-03"));
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://example.de/story/1")
    );
    let m = meta(
        r#"<html><body><header><time datetime="2023-04-05T08:00">5 April</time></header>
        <div class="post-byline">By Lee Writer</div><p>text</p></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2023-04-05T08:00"));
    assert_eq!(m.authors, ["Lee Writer"]);
    assert_eq!(m.sources["published"], Source::Html);
}

#[test]
fn what_the_page_does_not_give_is_absent() {
    let m = meta(
        "<html><body><aside class=comments><time datetime=\"2020-01-01\">in a comment</time>\
         </aside><p>Some text by nobody in particular.</p></body></html>",
        None,
    );
    assert_eq!(m, Metadata::default());
    // A profile URL is not an author's name.
    let m = meta(
        r#"<html><head><meta property="article:author" content="https://facebook.com/someone"></head></html>"#,
        None,
    );
    assert!(m.authors.is_empty());
}

#[test]
fn titles_lose_the_site_name_only() {
    let strip = |t, s, u| strip_site_name(t, s, u);
    assert_eq!(strip("Rain | BBC News", Some("BBC News"), None), "Rain");
    assert_eq!(
        strip("BBC News - Rain today", Some("BBC News"), None),
        "Rain today"
    );
    assert_eq!(
        strip(
            "Rain — example.org",
            None,
            Some("https://www.example.org/a")
        ),
        "Rain"
    );
    assert_eq!(strip("Rain | Sun", Some("BBC"), None), "Rain | Sun");
    // A part holding the site's name (of four letters or more) is the site's.
    assert_eq!(
        strip(
            "Best GPUs | Tom's Hardware Forum",
            None,
            Some("https://forums.tomshardware.com/t/1")
        ),
        "Best GPUs | Tom's Hardware Forum"
    );
    assert_eq!(
        strip(
            "Best GPUs | Tom's Hardware Forum",
            None,
            Some("https://tomshardware.com/t/1")
        ),
        "Best GPUs"
    );
    assert_eq!(
        strip("Lambda | AWS", Some("Amazon Web Services"), None),
        "Lambda | AWS"
    );
    assert_eq!(strip("Q&A: rain", Some("Example"), None), "Q&A: rain");
}

#[test]
fn dates_across_formats_and_languages() {
    let cases = [
        (
            "2021-03-05T10:00:00+01:00",
            Some("2021-03-05T10:00:00+01:00"),
        ),
        ("2021-03-05", Some("2021-03-05")),
        ("20210305", Some("2021-03-05")),
        ("2021/03/05", Some("2021-03-05")),
        ("05.03.2021", Some("2021-03-05")),
        ("25/12/2020", Some("2020-12-25")),
        ("12/25/2020", Some("2020-12-25")),
        ("03/05/2021", None),
        ("March 5, 2021", Some("2021-03-05")),
        ("Tuesday, 5th March 2021, 10:00", Some("2021-03-05")),
        ("5. März 2021", Some("2021-03-05")),
        ("5 mars 2021", Some("2021-03-05")),
        ("5 de marzo de 2021", Some("2021-03-05")),
        // A four-digit time before the date is no year; a year before the month counts
        // where none follows it.
        (
            "Updated 1909 GMT (0309 HKT) November 18, 2019",
            Some("2019-11-18"),
        ),
        ("2019, 18 November", Some("2019-11-18")),
        ("2021-02-30", None),
        ("yesterday", None),
    ];
    for (input, want) in cases {
        assert_eq!(normalize_date(input).as_deref(), want, "{input}");
    }
}

#[test]
fn language_tags_are_bcp47() {
    assert_eq!(bcp47("en_US").as_deref(), Some("en-US"));
    assert_eq!(bcp47("ZH-hant-tw").as_deref(), Some("zh-Hant-TW"));
    assert_eq!(bcp47("english"), None);
}

#[test]
fn the_shown_headline_wins_and_references_are_decoded() {
    let m = meta(
        r#"<html><head><meta property="og:title" content="Budget Traveler&amp;#8217;s Guide &#8211; Example">
        </head><body><header><h1>Site logo</h1></header>
        <main><h1>Budget Traveler’s Guide To Insurance</h1></main></body></html>"#,
        None,
    );
    assert_eq!(
        m.title.as_deref(),
        Some("Budget Traveler’s Guide To Insurance")
    );
    assert_eq!(m.sources["title"], Source::Html);
    let m = meta(
        r#"<html><head><meta property="og:title" content="Guide &#8211; A &amp; B"></head></html>"#,
        None,
    );
    assert_eq!(m.title.as_deref(), Some("Guide – A & B"));
}

#[test]
fn people_before_organisations_and_listings_have_no_author() {
    let m = meta(
        r#"<html><head><script type="application/ld+json">{"@type":"Article","headline":"H",
        "author":{"@type":"Organization","name":"Clinic"}}</script></head>
        <body><article><a href="/author/holly-wilgus">Holly Wilgus</a><p>t</p></article></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Holly Wilgus"]);
    let m = meta(
        r#"<html><body><a href="/author/a">Ann A</a><a href="/author/b">Bob B</a>
        <a href="/author/c">Cy C</a></body></html>"#,
        None,
    );
    assert!(m.authors.is_empty(), "{:?}", m.authors);
    let m = meta(
        r#"<html><head><script type="application/ld+json">{"@type":"Article","headline":"H",
        "author":{"@type":"Organization","name":"Clinic"}}</script></head><body></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Clinic"]);
}

#[test]
fn microdata_authors_are_the_first_item_s_not_every_reply_s() {
    let m = meta(
        r#"<html><body><div itemscope itemtype="https://schema.org/DiscussionForumPosting">
          <h1 itemprop="headline">Fan noise after the update</h1>
          <span itemprop="author" itemscope><span itemprop="name">first_poster</span></span>
          <span itemprop="author">co_author</span>
          <div itemprop="comment" itemscope itemtype="https://schema.org/Comment">
            <span itemprop="author">replier_one</span></div>
          <div itemprop="comment" itemscope itemtype="https://schema.org/Comment">
            <span itemprop="author">replier_two</span></div>
        </div></body></html>"#,
        None,
    );
    // Two authors of the post itself stay; the replies' authors are not the page's.
    assert_eq!(m.authors, ["first_poster", "co_author"]);
    assert_eq!(m.sources["authors"], Source::Microdata);
}

#[test]
fn byline_words_and_stray_marks_are_not_part_of_the_name() {
    let byline = |text: &str| {
        meta(
            &format!("<html><body><p>x</p><div class=\"byline\">{text}</div></body></html>"),
            None,
        )
        .authors
    };
    assert_eq!(byline("Text by Hunter Dukes"), ["Hunter Dukes"]);
    assert_eq!(byline("Recipe by PJ Hamel"), ["PJ Hamel"]);
    assert_eq!(byline("BySummer Swann-"), ["Summer Swann"]);
    // A name that starts with "By" is a name.
    assert_eq!(byline("Byron Katie"), ["Byron Katie"]);
}

#[test]
fn a_thread_s_date_is_its_first_post_s() {
    let doc = |body: &str| {
        chaff_dom::parse(format!("<html><body>{body}</body></html>").as_bytes()).expect("parses")
    };
    // phpBB: the page count and a member's join date come first; the first post's date wins
    // over the reply's, and a trailing comma (vBulletin's "11-29-2024,") is no obstacle.
    let page = doc(
        "<p>Today is Mon Jan 01, 2024</p><h1>Pi 5 LEDs</h1><p>16 posts</p><p>Page 1 of 2</p>\
         <p>Joined: Mon Mar 04, 2019</p><p>Sun Dec 17, 2023 11:18 am</p><p>How do I?</p>\
         <p>Sun Dec 17, 2023 11:23 am</p>",
    );
    assert_eq!(first_post_date(&page).as_deref(), Some("2023-12-17"));
    let page = doc("<h1>T</h1><p>#1</p><p>11-29-2024,</p><p>09:03 AM</p>");
    assert_eq!(first_post_date(&page).as_deref(), Some("2024-11-29"));
    // A board without an `<h1>` is read from the top; FluxBB writes ISO date-times.
    let page = doc("<p>#1</p><p>2025-11-01 15:14:37</p><p>Registered: 2025-11-01</p>");
    assert_eq!(
        first_post_date(&page).as_deref(),
        Some("2025-11-01 15:14:37")
    );
    // A date beyond the first sixty texts, or none at all: no date.
    let far = format!("<h1>T</h1>{}<p>Sun Dec 17, 2023</p>", "<p>x</p>".repeat(60));
    assert_eq!(first_post_date(&doc(&far)), None);
    assert_eq!(
        first_post_date(&doc("<h1>T</h1><p>Posted 3 days ago</p>")),
        None
    );
}

#[test]
fn the_url_dates_a_page_that_markup_does_not() {
    let page = "<html><head><title>T</title></head><body><h1>T</h1><p>text</p></body></html>";
    let m = meta(
        page,
        Some("https://blog.example.org/2025/12/19/what-people-love/"),
    );
    assert_eq!(m.published.as_deref(), Some("2025-12-19"));
    assert_eq!(m.sources.get("published"), Some(&Source::Url));
    // Markup wins over the URL, even a day apart.
    let dated = "<html><head><meta property=\"article:published_time\" \
                 content=\"2025-12-20T02:41:41+00:00\"></head><body><p>x</p></body></html>";
    let m = meta(dated, Some("https://example.org/2025/12/19/late-post"));
    assert_eq!(m.published.as_deref(), Some("2025-12-20T02:41:41+00:00"));
    assert_eq!(m.sources.get("published"), Some(&Source::OpenGraph));
    // So does a date written near the headline lose to the URL: the URL is where the site
    // filed the post; a line under the headline is as often its last update.
    let shown = "<html><body><h1>T</h1><p>Updated March 5, 2026</p></body></html>";
    let m = meta(shown, Some("https://example.org/2025/12/19/post"));
    assert_eq!(m.published.as_deref(), Some("2025-12-19"));
    // No URL, no day in it: nothing.
    assert_eq!(meta(page, None).published, None);
    assert_eq!(
        meta(page, Some("https://example.org/2025/12/")).published,
        None
    );
}

#[test]
fn a_thread_s_author_is_its_first_poster() {
    let doc = |body: &str| {
        chaff_dom::parse(format!("<html><body>{body}</body></html>").as_bytes()).expect("parses")
    };
    // phpBB: member links; the one above the headline (the logged-in user's) is not read.
    let page = doc(
        "<a href=\"./memberlist.php?mode=viewprofile&u=9\">Moderator Max</a>\
         <h1>Pi 5 LEDs</h1>\
         <dl><dt><a href=\"./memberlist.php?mode=viewprofile&u=1\" class=\"username\">b.scherer</a></dt></dl>\
         <p>How do I turn off the LEDs?</p>\
         <dl><dt><a href=\"./memberlist.php?mode=viewprofile&u=2\" class=\"username\">helper</a></dt></dl>",
    );
    assert_eq!(first_poster(&page).as_deref(), Some("b.scherer"));
    // A marked poster element without a link.
    let page = doc("<h1>Pepper</h1><span class=\"forum-post-author\">Pepper Pot</span>");
    assert_eq!(first_poster(&page).as_deref(), Some("Pepper Pot"));
    // Nothing marks a poster: no author.
    assert_eq!(first_poster(&doc("<h1>T</h1><p>text</p>")), None);
}

#[test]
fn a_twitter_card_s_written_by_names_the_author() {
    let m = meta(
        r#"<html><head><meta name="twitter:label1" content="Written by">
        <meta name="twitter:data1" content="Tyler Brown">
        <meta name="twitter:label2" content="Est. reading time">
        <meta name="twitter:data2" content="5 minutes"></head><body></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Tyler Brown"]);
    assert_eq!(m.sources["authors"], Source::Twitter);
    // Another label's data is not an author.
    let m = meta(
        r#"<html><head><meta name="twitter:label1" content="Est. reading time">
        <meta name="twitter:data1" content="Five Minutes"></head><body></body></html>"#,
        None,
    );
    assert!(m.authors.is_empty());
}

#[test]
fn an_author_without_a_letter_is_an_account_number_not_a_name() {
    let m = meta(
        r#"<html><head><meta property="article:author" content="262588213843476">
        </head><body><h1>A headline of some words</h1></body></html>"#,
        None,
    );
    assert!(m.authors.is_empty(), "{:?}", m.authors);
    // The next source's name is taken instead.
    let m = meta(
        r#"<html><head><meta property="article:author" content="262588213843476">
        <meta name="author" content="Jane Doe"></head><body></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Jane Doe"]);
}

#[test]
fn a_byline_under_the_headline_when_markup_names_no_author() {
    let under = |byline: &str| {
        meta(
            &format!(
                "<html><body><h1>Rain floods the square</h1>{byline}\
                 <p>Text of the story, long enough not to be a byline at all.</p></body></html>"
            ),
            None,
        )
        .authors
    };
    assert_eq!(under("<p>By Ann Lee | March 5</p>"), ["Ann Lee"]);
    assert_eq!(under("<p>Written by</p><p>Ann Lee</p>"), ["Ann Lee"]);
    assert_eq!(
        under("<p>Posted by <a href=\"/u/ann\">ann_lee</a> on Monday</p>"),
        ["ann_lee"]
    );
    // Not names: a form's label, words of a sentence, a date.
    assert!(under("<p>Written by</p><p>Name *</p>").is_empty());
    assert!(under("<p>By</p><p>Please review our terms</p>").is_empty());
    assert!(under("<p>By March 5, 2021</p>").is_empty());
    // Markup's author comes first.
    let m = meta(
        r#"<html><head><meta name="author" content="Web Desk"></head><body>
        <h1>Rain floods the square</h1><p>By Ann Lee</p></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Web Desk"]);
}

#[test]
fn a_byline_under_a_later_headline_when_the_first_is_a_logo() {
    let page = |logo_after: &str, byline: &str| {
        let menu = "<p>Eat and drink</p>".repeat(12);
        meta(
            &format!(
                "<html><body><h1>Town Magazine</h1>{logo_after}{menu}\
                 <h1>Rain floods the square</h1>{byline}\
                 <p>Text of the story, long enough not to be a byline at all.</p></body></html>"
            ),
            None,
        )
        .authors
    };
    // Twelve texts after the logo's `<h1>` hold no byline: the next `<h1>`'s are read.
    assert_eq!(page("", "<p>By</p><p>Ann Lee</p>"), ["Ann Lee"]);
    assert_eq!(page("", "<p>By Ann Lee | March 5</p>"), ["Ann Lee"]);
    // A byline's word after the first with no name after it ends the search, as it did
    // when only the first was read.
    assert!(
        page(
            "<p>By</p><p>please review our terms</p>",
            "<p>By Ann Lee</p>"
        )
        .is_empty()
    );
}

#[test]
fn an_author_line_further_down_when_none_is_near_the_headline() {
    let story = "<p>Text of the story, long enough not to be a byline at all.</p>".repeat(14);
    let page = |line: &str| {
        meta(
            &format!("<html><body><h1>Rain floods the square</h1>{story}{line}</body></html>"),
            None,
        )
        .authors
    };
    // Fourteen paragraphs down: past the byline's twelve texts, found by its label.
    assert_eq!(page("<p>Article written by: Ann Lee, MD</p>"), ["Ann Lee"]);
    assert_eq!(page("<p>AUTHORS:</p><p>Ann Lee</p>"), ["Ann Lee"]);
    assert_eq!(
        page("<p>This post was written by Ann Lee.</p>"),
        ["Ann Lee"]
    );
    // A bare "By" so far from the headline is not a byline; a label in a sentence is no
    // author line; a label followed by no name gives none.
    assert!(page("<p>By Ann Lee</p>").is_empty());
    assert!(
        page("<p>Written by hand in the old days, the ledgers of the town hall were lost in the flood.</p>")
            .is_empty()
    );
    assert!(page("<p>Author:</p><p>Please review our terms</p>").is_empty());
    // Before the headline it is not read.
    let m = meta(
        &format!(
            "<html><body><p>Written by Ann Lee</p><h1>Rain floods the square</h1>{story}</body></html>"
        ),
        None,
    );
    assert!(m.authors.is_empty());
}

#[test]
fn a_date_written_under_the_headline_when_markup_states_none() {
    let m = meta(
        "<html><body><h1>Rain floods the square</h1><p>By Ann</p><p>Updated March 5, 2021</p>\
         <p>Text of the story.</p></body></html>",
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2021-03-05"));
    assert_eq!(m.sources["published"], Source::Html);
    // Far below the headline, a date is not the page's.
    let far = format!(
        "<html><body><h1>Rain floods the square</h1>{}<p>March 5, 2021</p></body></html>",
        "<p>paragraph</p>".repeat(20)
    );
    assert!(meta(&far, None).published.is_none());
}

#[test]
fn a_date_labelled_as_an_update_only_when_no_other_is_near() {
    let page = |near: &str| {
        meta(
            &format!("<html><body>{near}<p>Text of the story.</p></body></html>"),
            None,
        )
        .published
    };
    // The dateline above the headline wins over the update line beside it.
    let both = "<p>DECEMBER 22, 2022</p><p>Updated: JANUARY 02, 2026</p><h1>Ten ways</h1>";
    assert_eq!(page(both).as_deref(), Some("2022-12-22"));
    // The label in a text of its own before the date; the date after it is the first
    // unlabelled one, below the headline.
    let split = "<h1>Ten ways</h1><span>Last updated</span><span>Jan 2, 2026</span>\
                 <p>Published March 5, 2021</p>";
    assert_eq!(page(split).as_deref(), Some("2021-03-05"));
    // An update line alone is still the page's date.
    let alone = "<h1>Ten ways</h1><p>Updated on November 20, 2025</p>";
    assert_eq!(page(alone).as_deref(), Some("2025-11-20"));
    // A long text before a date labels nothing.
    let long = "<h1>Ten ways</h1><p>We reviewed every one of these, and here they are</p>\
                <p>Jan 2, 2026</p><p>March 5, 2021</p>";
    assert_eq!(page(long).as_deref(), Some("2026-01-02"));
    // A member's join date beside a thread's first post, labelled in a text of its own or
    // in its own: passed over for the post's date.
    let joined = "<h1>Ten ways</h1><dl><dt>Joined</dt><dd>Nov 4, 2011</dd></dl>\
                  <p>Member since March 5, 2021</p><p>Dec 18, 2025</p>";
    assert_eq!(page(joined).as_deref(), Some("2025-12-18"));
}

#[test]
fn a_label_before_a_date_in_digits() {
    let near = |line: &str| {
        meta(
            &format!("<html><body><h1>Movers</h1><p>{line}</p><p>Text.</p></body></html>"),
            None,
        )
        .published
    };
    assert_eq!(near("Updated: 10/31/2024").as_deref(), Some("2024-10-31"));
    assert_eq!(
        near("by Jon Foster - Updated: 2025-09-13").as_deref(),
        Some("2025-09-13")
    );
    assert_eq!(
        near("Posted 2025-12-17, 09:14").as_deref(),
        Some("2025-12-17")
    );
    // Still no guess where day and month could be either, and no date from a count.
    assert_eq!(near("Updated: 3/4/2025"), None);
    assert_eq!(near("Read in 5 minutes"), None);
    // The bars between a byline's parts are not words: seven words and a date...
    assert_eq!(
        near("Aaron Ricadela | Senior Writer | July 2, 2025").as_deref(),
        Some("2025-07-02")
    );
    // ...while nine words of a sentence are more than a dateline holds.
    assert_eq!(near("The fleet sailed at dawn on July 2, 2025"), None);
}

#[test]
fn the_headline_is_what_a_reader_sees_of_the_h1() {
    let title = |h1: &str| {
        meta(
            &format!("<html><body><main><h1>{h1}</h1><p>Text.</p></main></body></html>"),
            None,
        )
        .title
    };
    // A documentation page's button, a style sheet a script put in the heading, an icon's
    // title and a hidden span are no part of it.
    assert_eq!(
        title("Crate tokio<button>Copy item path</button>").as_deref(),
        Some("Crate tokio")
    );
    assert_eq!(
        title("<style>.c{font-weight:700}</style>The Cream <span>Face Moisturizer</span>")
            .as_deref(),
        Some("The Cream Face Moisturizer")
    );
    assert_eq!(
        title("<svg><title>Logo</title></svg>Tide tables <span hidden>(print)</span>").as_deref(),
        Some("Tide tables")
    );
    // A line break or a block inside the heading parts words as the page shows them; a
    // span does not.
    assert_eq!(
        title("Data Analytics<br>Agency").as_deref(),
        Some("Data Analytics Agency")
    );
    assert_eq!(
        title("Cosmetic Packaging<div>Design</div>").as_deref(),
        Some("Cosmetic Packaging Design")
    );
    assert_eq!(
        title("Tide<span>tables</span> today").as_deref(),
        Some("Tidetables today")
    );
}

#[test]
fn a_dateline_above_the_headline_when_none_follows_it() {
    let above = |between: &str| {
        meta(
            &format!(
                "<html><body><p>News</p><p>14 March 2024</p>{between}                 <h1>Rain floods the square</h1><p>Text of the story.</p></body></html>"
            ),
            None,
        )
        .published
    };
    assert_eq!(above("").as_deref(), Some("2024-03-14"));
    // Within four text nodes before the headline, and no further.
    assert_eq!(above(&"<p>x</p>".repeat(3)).as_deref(), Some("2024-03-14"));
    assert!(above(&"<p>x</p>".repeat(4)).is_none());
    // A date after the headline comes first.
    let both = meta(
        "<html><body><p>1 January 2020</p><h1>Rain floods the square</h1>         <p>March 5, 2021</p></body></html>",
        None,
    );
    assert_eq!(both.published.as_deref(), Some("2021-03-05"));
    // A logo's `<h1>` with nothing dated near it: the next `<h1>`'s date is the page's.
    let second = format!(
        "<html><body><h1>Example Times</h1>{}<h1>Rain floods the square</h1>\
         <p>March 5, 2021</p></body></html>",
        "<p>paragraph</p>".repeat(20)
    );
    assert_eq!(meta(&second, None).published.as_deref(), Some("2021-03-05"));
}

#[test]
fn a_slogan_headline_gives_way_to_the_stated_title_where_the_page_is_no_article() {
    let html = r#"<html><head><title>Business Text Messaging | Twilio</title>
        <meta property="og:title" content="Business Text Messaging | Twilio">
        </head><body><h1>Messaging that scales without slowing you down</h1></body></html>"#;
    let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
    let url = Some("https://www.twilio.com/messaging");
    let mut asked = 0;
    let rules = TitleModel::rules();
    let landing = crate::extract_with(
        &doc,
        url,
        |m| {
            asked += 1;
            // Everything but the title is read when the question is asked.
            assert!(m.title.is_none() && m.page_title.is_some());
            A_SERVICE
        },
        &rules,
    );
    assert_eq!(asked, 1);
    assert_eq!(landing.title.as_deref(), Some("Business Text Messaging"));
    assert_eq!(landing.sources["title"], Source::OpenGraph);
    let article = crate::extract_with(&doc, url, |_| AN_ARTICLE, &rules);
    assert_eq!(
        article.title.as_deref(),
        Some("Messaging that scales without slowing you down")
    );
    assert_eq!(article.sources["title"], Source::Html);
    let built_in = crate::extract_with(&doc, url, |_| AN_ARTICLE, TitleModel::builtin());
    assert_eq!(extract(&doc, url), built_in);
}

/// Page-type probabilities of a page surely a service's.
const A_SERVICE: [f32; 7] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];

#[test]
fn a_headline_the_stated_title_contains_stays_and_a_lone_headline_is_kept() {
    let contained = meta_with(
        r#"<html><head><title>Plausible Analytics | Simple, privacy-friendly analytics</title>
        </head><body><h1>Plausible Analytics</h1></body></html>"#,
    );
    assert_eq!(contained.title.as_deref(), Some("Plausible Analytics"));
    let lone = meta_with("<html><body><h1>Only a headline here</h1></body></html>");
    assert_eq!(lone.title.as_deref(), Some("Only a headline here"));
    assert_eq!(lone.sources["title"], Source::Html);
    let none = meta_with("<html><body><p>No title at all</p></body></html>");
    assert_eq!(none.title, None);
    assert!(!none.sources.contains_key("title"));
}

/// The metadata of a page read as no article's.
fn meta_with(html: &str) -> Metadata {
    let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
    crate::extract_with(&doc, None, |_| A_SERVICE, &TitleModel::rules())
}

#[test]
fn a_time_outside_articles_is_the_page_s_unless_a_link_or_sidebar_holds_it() {
    let m = meta(
        r#"<html><body><nav><time datetime="2020-01-01">menu</time></nav>
        <a href="/older"><time datetime="2020-02-02">older post</time></a>
        <div class="meta"><time datetime="2024-09-17T06:16:41Z">Last updated</time></div>
        <footer><time datetime="2020-03-03">footer</time></footer></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2024-09-17T06:16:41Z"));
    assert_eq!(m.sources["published"], Source::Html);
}

#[test]
fn a_date_that_does_not_read_gives_way_to_the_next_source_s() {
    let m = meta(
        r#"<html><head><script type="application/ld+json">{"@type":"Article",
          "datePublished":"\"2025-12-17T13:22:47Z\"", "dateModified":"soon"}</script>
        <meta property="article:modified_time" content="2025-12-18"></head></html>"#,
        None,
    );
    // Doubled quotes are taken off; a value that is no date is passed over.
    assert_eq!(m.published.as_deref(), Some("2025-12-17T13:22:47Z"));
    assert_eq!(m.sources["published"], Source::JsonLd);
    assert_eq!(m.modified.as_deref(), Some("2025-12-18"));
    assert_eq!(m.sources["modified"], Source::OpenGraph);
}

#[test]
fn the_built_in_title_model_loads_and_round_trips() {
    let m = TitleModel::builtin();
    let again = TitleModel::from_json(&m.to_json()).expect("its own JSON reads");
    assert_eq!(&again, m);
    let rules = TitleModel::rules();
    assert_eq!(
        TitleModel::from_json(&rules.to_json()).expect("reads"),
        rules
    );
}

#[test]
fn a_corrupt_title_model_is_a_clear_error() {
    let good = TitleModel::rules().to_json();
    let err = |json: &str| {
        TitleModel::from_json(json)
            .expect_err("refused")
            .to_string()
    };
    assert!(err("{not json").starts_with("title model: "));
    assert!(
        err(&good.replace("chaff-title-chooser", "chaff-page-type"))
            .contains("expected chaff-title-chooser v1")
    );
    assert!(err(&good.replace("\"headline\"", "\"h1\"")).contains("facts"));
    let short = good.replacen("1.0,", "", 1).replacen("0.0,", "", 1);
    assert!(err(&short).contains("weights"), "{}", err(&short));
    let missing = std::path::Path::new("/nonexistent/title.json");
    let e = TitleModel::load(missing).expect_err("no file").to_string();
    assert!(e.contains("/nonexistent/title.json"), "{e}");
}

fn candidates(html: &str, url: Option<&str>, types: [f32; 7]) -> Vec<TitleCandidate> {
    let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
    crate::title_candidates(&doc, url, |_| types)
}

fn fact(c: &TitleCandidate, name: &str) -> f32 {
    c.facts[title::FACTS
        .iter()
        .position(|f| *f == name)
        .expect("a fact")]
}

#[test]
fn a_stated_title_gives_itself_its_parts_and_itself_without_the_site() {
    let cs = candidates(
        r#"<html><head><title>Rain floods the square - City | Example Times</title>
        <meta property="og:site_name" content="Example Times"></head>
        <body><h1>Flood</h1><article><h1>Rain floods the square</h1></article></body></html>"#,
        Some("https://example.com/news/rain-floods-square"),
        AN_ARTICLE,
    );
    let texts: Vec<&str> = cs.iter().map(|c| c.text.as_str()).collect();
    // The headline in <article>, the first <h1>, the whole title; cut at " | " (the first
    // separator found in the list): its two parts (the first is the title without the site).
    assert_eq!(
        texts,
        [
            "Rain floods the square",
            "Flood",
            "Rain floods the square - City | Example Times",
            "Rain floods the square - City",
            "Example Times"
        ]
    );
    let by = |t: &str| cs.iter().find(|c| c.text == t).expect("a candidate");
    let headline = by("Rain floods the square");
    assert_eq!(fact(headline, "headline"), 1.0);
    assert_eq!(fact(headline, "headline_in_main"), 1.0);
    assert_eq!(fact(headline, "rules_pick"), 1.0);
    assert_eq!(fact(headline, "inside_title"), 1.0);
    // "rain", "floods", "square" of four words are in the URL.
    assert_eq!(fact(headline, "url_words"), 0.75);
    assert_eq!(fact(by("Flood"), "first_h1"), 1.0);
    assert_eq!(fact(by("Flood"), "one_word"), 1.0);
    let site = by("Example Times");
    assert_eq!(fact(site, "is_site_name"), 1.0);
    assert_eq!(fact(site, "title_last_part"), 1.0);
    assert_eq!(fact(site, "title_part_at_bar"), 1.0);
    let first = by("Rain floods the square - City");
    assert_eq!(fact(first, "title_first_part"), 1.0);
    assert_eq!(fact(first, "title_without_site"), 1.0);
    assert_eq!(
        fact(
            by("Rain floods the square - City | Example Times"),
            "holds_site_name"
        ),
        1.0
    );
    // The chooser that weighs only the rules' pick picks it; the built-in one agrees here.
    let doc_title = |m: &TitleModel| {
        m.best(cs.iter().map(|c| c.facts.as_slice()))
            .map(|i| cs[i].text.as_str())
    };
    assert_eq!(
        doc_title(&TitleModel::rules()),
        Some("Rain floods the square")
    );
    assert_eq!(
        doc_title(TitleModel::builtin()),
        Some("Rain floods the square")
    );
}

#[test]
fn candidates_equal_after_normalising_are_one_with_the_facts_of_each() {
    let cs = candidates(
        r#"<html><head><title>“Quoted” headline here</title>
        <meta property="og:title" content="&quot;quoted&quot; HEADLINE here.">
        </head></html>"#,
        None,
        A_SERVICE,
    );
    assert_eq!(cs.len(), 1, "{cs:?}");
    assert_eq!(fact(&cs[0], "og_whole"), 1.0);
    assert_eq!(fact(&cs[0], "title_whole"), 1.0);
    // Stated whole by two sources of four counted.
    assert_eq!(fact(&cs[0], "stated_whole_by"), 0.5);
    assert_eq!(cs[0].text, "\"quoted\" HEADLINE here.");
    assert!(candidates("<html><body><p>nothing</p></body></html>", None, AN_ARTICLE).is_empty());
}

#[test]
fn products_of_two_facts_sit_after_the_facts_pair_by_pair() {
    let n = title::FACTS.len();
    let mut x = vec![0.0; n];
    x[0] = 2.0;
    x[2] = 3.0;
    x[n - 1] = 0.5;
    let e = title::expand(&x);
    // Pairs of 0: (0,1) at n ... (0,n-1) at 2n-2; pairs of 2 start after those of 0 and 1.
    let pairs_of_2 = n + (n - 1) + (n - 2);
    assert_eq!(
        e,
        vec![
            (0, 2.0),
            (2, 3.0),
            (n - 1, 0.5),
            (n + 1, 6.0),
            (2 * n - 2, 1.0),
            (pairs_of_2 + (n - 1 - 2 - 1), 1.5)
        ]
    );
    // The last pair, (n-2, n-1), is the last of n + n(n-1)/2 values.
    let mut y = vec![0.0; n];
    y[n - 2] = 1.0;
    y[n - 1] = 1.0;
    assert_eq!(
        title::expand(&y).last(),
        Some(&(n + n * (n - 1) / 2 - 1, 1.0))
    );
}

#[test]
fn fitting_learns_the_fact_that_marks_the_right_candidate() {
    let at = |name: &str| {
        title::FACTS
            .iter()
            .position(|f| *f == name)
            .expect("a fact")
    };
    let row = |marked: &[&str]| {
        let mut x = vec![0.0; title::FACTS.len()];
        for m in marked {
            x[at(m)] = 1.0;
        }
        x
    };
    // The right one is the OpenGraph title, the rules' pick (the headline) is wrong.
    let page = vec![
        (row(&["headline", "rules_pick"]), false),
        (row(&["og_whole"]), true),
        (row(&["title_last_part", "is_site_name"]), false),
    ];
    for pairs in [false, true] {
        let m = TitleModel::fit(&vec![page.clone(); 20], 0.001, pairs, "toy".into());
        assert_eq!(m.best(page.iter().map(|(x, _)| x.as_slice())), Some(1));
        assert_eq!(TitleModel::from_json(&m.to_json()).expect("reads"), m);
    }
}

/// `title::title_key` as first written: map, lower-case, split on blanks, join, trim. The
/// one-pass version must give the same key.
fn title_key_in_steps(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{2033}' => '"',
            '\u{2010}'..='\u{2014}' | '\u{2212}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    let spaced = mapped.split_whitespace().collect::<Vec<_>>().join(" ");
    spaced
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

#[test]
fn a_title_key_folds_case_quotes_dashes_and_blanks() {
    assert_eq!(
        title::title_key("  \u{201c}Ça Va\u{201d} \u{2014}\tThe  İSTANBUL\u{a0}Times! "),
        "ça va\" - the i\u{307}stanbul times"
    );
    assert_eq!(title::title_key(" -- | "), "");
    assert_eq!(title::title_key(""), "");
}

#[test]
fn single_spacing_trims_and_collapses_every_kind_of_whitespace() {
    assert_eq!(single_spaced("  a \t\n b\x0B\x0Cc\r "), "a b c");
    assert_eq!(single_spaced("\u{a0}Ça\u{2003} va "), "Ça va");
    assert_eq!(single_spaced(" \t "), "");
    assert_eq!(single_spaced(""), "");
    // A control that is no whitespace stays.
    assert_eq!(single_spaced("a\x1Fb"), "a\x1Fb");
}

proptest::proptest! {
    #[test]
    fn single_spacing_is_splitting_and_joining(
        s in "[ \t\n\r\x0B\x0C\x1C\x1FaZ9.-]{0,40}|[ \t\n\r\x0B\x0C\x1C\x1F\u{85}\u{a0}\u{2003}\u{3000}aZ9.é-]{0,40}"
    ) {
        proptest::prop_assert_eq!(
            single_spaced(&s),
            s.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }

    #[test]
    fn a_title_key_is_made_as_in_steps(
        s in "[ \t\n\u{a0}\u{2003}aZ9.!|\u{2018}\u{2019}\u{201c}\u{2014}\u{2212}\u{130}\u{c9}ß-]{0,40}"
    ) {
        proptest::prop_assert_eq!(title::title_key(&s), title_key_in_steps(&s));
    }
}

#[test]
fn an_inner_byline_wins_over_the_box_around_it_and_longer_names_fold_onto_it() {
    // The box's text runs on into a job title; the name's own element says the name.
    let m = meta(
        r#"<html><body><h1>Desk setup</h1><div class="author-box"><span class="author-name">Ann
        Lee</span> <span class="role">Founder at Shop</span></div><p>Text.</p></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Ann Lee"]);
    // Apart, a name and the same name with a title are one author.
    let m = meta(
        r#"<html><body><h1>Desk setup</h1><span class="byline">Ann Lee</span><p>Text.</p>
        <div class="author-card">Ann Lee Senior Writer</div></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Ann Lee"]);
}

#[test]
fn among_many_bylines_the_one_under_the_headline() {
    let comments = r#"<ol><li><span class="comment-author">Greg Knight</span><p>Thanks.</p></li>
        <li><span class="comment-author">Sam Poe</span><p>Which one?</p></li>
        <li><span class="comment-author">Ida Bell</span><p>The left.</p></li></ol>"#;
    let m = meta(
        &format!(
            r#"<html><body><h1>Standing desks tested</h1><p class="post-meta"><span
            class="author"><a href="/blog/author/ryan/">Ryan Bald</a></span> 02 Feb 2026</p>
            <p>Text.</p>{comments}</body></html>"#
        ),
        None,
    );
    assert_eq!(m.authors, ["Ryan Bald"]);
    // The first byline far below the headline is a comment's: no author.
    let story = "<p>Text of the story, long enough not to be a byline at all.</p>".repeat(14);
    let m = meta(
        &format!("<html><body><h1>Standing desks tested</h1>{story}{comments}</body></html>"),
        None,
    );
    assert!(m.authors.is_empty(), "{:?}", m.authors);
}

#[test]
fn a_byline_that_goes_on_to_its_date_gives_the_name_before_it() {
    let byline = |inner: &str| {
        meta(
            &format!("<html><body><h1>Defer, panic</h1>{inner}<p>Text.</p></body></html>"),
            None,
        )
        .authors
    };
    assert_eq!(
        byline(r#"<p class="author">Andrew Gerrand<br>4 August 2010</p>"#),
        ["Andrew Gerrand"]
    );
    assert_eq!(
        byline(
            r#"<div class="author"><span>Luke Kim</span><small>December 17, 2025</small></div>"#
        ),
        ["Luke Kim"]
    );
    assert_eq!(
        byline(r#"<p class="byline">Ann Lee March 5, 2024</p>"#),
        ["Ann Lee"]
    );
    // A date alone, or its weekday, is no name.
    assert!(byline(r#"<p class="byline">February 3, 2025</p>"#).is_empty());
    assert!(byline(r#"<p class="byline">Sat, 20 Dec 2025</p>"#).is_empty());
    // A byline's own word is no name, and a footnote's star is dropped.
    assert_eq!(
        byline(
            r#"<span class="byline"><span class="byline__by">By</span> <a href="/people/ann">Ann Lee</a></span>"#
        ),
        ["Ann Lee"]
    );
    assert_eq!(
        byline(r#"<p class="article_author">Written By Ann Lee, MD*</p>"#),
        ["Ann Lee, MD"]
    );
}

#[test]
fn an_author_page_link_names_in_any_case_and_not_its_call_to_action() {
    let link = |text: &str| {
        meta(
            &format!(
                "<html><body><h1>Best e-bikes</h1><a href=\"/author/x/\">{text}</a><p>Text.</p></body></html>"
            ),
            None,
        )
        .authors
    };
    assert_eq!(link("crazy lennys"), ["crazy lennys"]);
    // A link in a sentence to an author's page.
    assert!(link("chances of victory to").is_empty());
    assert_eq!(link("View all posts by Ray Ansari"), ["Ray Ansari"]);
    assert!(link("View more posts").is_empty());
    // An author box's feed and share links.
    assert!(link("RSS").is_empty());
    assert!(link("Twitter").is_empty());
    // An author box's name with its links after it.
    let m = meta(
        r#"<html><body><h1>T</h1><div class="author"><span>Cord Jefferson</span><ul><li><a
        href="/people/cj">View Profile</a></li><li><a href="/people/cj.xml">RSS</a></li></ul></div>
        </body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["Cord Jefferson"]);
    // Outside such a link, a lower-case pair is no name.
    let m = meta(
        "<html><body><h1>Best e-bikes</h1><span class=\"author\">crazy lennys</span></body></html>",
        None,
    );
    assert!(m.authors.is_empty());
}

#[test]
fn a_forum_handle_is_a_name_where_markup_says_it_is_one() {
    let m = meta(
        r#"<html><body><div itemscope itemtype="https://schema.org/DiscussionForumPosting">
        <div itemprop="author" itemscope><span itemprop="name">JWoodguy13</span></div>
        <div itemprop="comment" itemscope><div itemprop="author" itemscope><meta itemprop="name"
        content="Tony B"></div></div></div></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["JWoodguy13"]);
    // In a byline, digits are most often a date's: no name.
    let m = meta(
        "<html><body><h1>T</h1><span class=\"author\">JWoodguy13</span></body></html>",
        None,
    );
    assert!(m.authors.is_empty());
    // A poster's element with a handle; a badge's words are passed over.
    let doc = chaff_dom::parse(
        b"<html><body><h1>ISO size</h1><span class=\"username\">Topic Author</span>\
          <span class=\"username\">chunix64</span><p>Why?</p></body></html>",
    )
    .expect("parses");
    assert_eq!(first_poster(&doc).as_deref(), Some("chunix64"));
}

#[test]
fn a_thread_started_by_a_member() {
    let m = meta(
        r#"<html><body><h1>Best server hosts</h1><p>Discussion in '<a href="forums/x/">Hosting
        Advice</a>' started by <a href="members/pelex.1/" class="username">pelex</a>, Jan 2</p>
        <p>Hello, I wanted to share a list.</p></body></html>"#,
        None,
    );
    assert_eq!(m.authors, ["pelex"], "{:?}", m.sources);
}

#[test]
fn a_name_printed_beside_the_date_near_the_headline() {
    let page = |html: &str| meta(&format!("<html><body>{html}</body></html>"), None).authors;
    // Above the headline, in elements of their own.
    assert_eq!(
        page(
            "<div><span>Dec 17, 2025</span><span>Julian K. Arni</span></div><h1>Attested builds</h1><p>Text.</p>"
        ),
        ["Julian K. Arni"]
    );
    // Separated by a mark in an element of its own, and a name and a role in the dateline.
    assert_eq!(
        page(
            "<h1>The pilot has landed</h1><span>2025-12-17</span><span>·</span><span>Trond Teigen</span>"
        ),
        ["Trond Teigen"]
    );
    assert_eq!(
        page(
            "<h1>How AI is changing care</h1><p>Aaron Ricadela | Senior Writer | July 2, 2025</p>"
        ),
        ["Aaron Ricadela"]
    );
    assert_eq!(
        page(
            "<h1>Pricing guide</h1><p>Dec 26, 2025 <span>&bull;</span> Mahua Das\n in <a href=\"blog/pm\">Project management</a></p>"
        ),
        ["Mahua Das"]
    );
    // A category's link beside the date, a month, a furniture word: no author.
    assert!(page(
        "<h1>Are evangelists in heat</h1><a href=\"/category/nonessential-thoughts/\">Nonessential Thoughts</a><span>December 18, 2025</span>"
    )
    .is_empty());
    assert!(page("<h1>Rain</h1><span>December 18, 2025</span><span>Read More</span>").is_empty());
    // A post's title in a heading beside its date (under a logo's `<h1>`), a sponsor's line.
    assert!(page(
        "<h1><a href=\"/\">Logo</a></h1><h2>Subscription Option Now Available</h2><p>July 17, 2012</p>"
    )
    .is_empty());
    assert!(
        page("<h1>Rain</h1><span>| 17 July 2012</span><span>IN ASSOCIATION WITH</span>").is_empty()
    );
    // No date near the headline: a name-like text is not read as its author.
    assert!(page("<h1>Rain</h1><span>Ann Lee</span><p>Text.</p>").is_empty());
}

#[test]
fn an_author_heading_over_the_names() {
    let story = "<p>Text of the story, long enough not to be a byline at all.</p>".repeat(14);
    let page = |line: &str| {
        meta(
            &format!("<html><body><h1>Policies</h1>{story}{line}</body></html>"),
            None,
        )
        .authors
    };
    assert_eq!(
        page("<h3>Author</h3><p>Lisa D. Ellis</p>"),
        ["Lisa D. Ellis"]
    );
    assert_eq!(
        page(
            "<h6>Author(s)</h6><ul><li><a>John A. Alic</a></li><li><a>David C. Mowery</a></li>\
             </ul><a>Download pdf</a>"
        ),
        ["John A. Alic", "David C. Mowery"]
    );
}

#[test]
fn a_stated_date_that_does_not_read_leaves_the_text_to_date_the_page() {
    // Month or day first? The markup's value reads as no date, so the headline's does.
    let m = meta(
        r#"<html><head><meta property="article:published_time" content="03-09-2026"></head>
        <body><h1>Fasting and the brain</h1><p>By Dee Writer</p><p>Published March 9, 2026</p>
        <p>Text of the article.</p></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2026-03-09"));
    assert_eq!(m.sources["published"], Source::Html);
    // A stated date that reads keeps its place before the text's.
    let m = meta(
        r#"<html><head><meta property="article:published_time" content="2026-03-01"></head>
        <body><h1>Fasting and the brain</h1><p>Published March 9, 2026</p></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2026-03-01"));
}

/// A moment the markup states in UTC can fall on the day after the one the page shows (a post
/// written in the evening, west of Greenwich): the page's own day is the date.
#[test]
fn the_day_the_page_shows_wins_over_the_same_moment_in_another_zone() {
    let published = |stated: &str, shown: &str| {
        meta(
            &format!(
                r#"<html><head><meta property="article:published_time" content="{stated}">
                </head><body><h1>The December comfort watches</h1><p>{shown}</p>
                <p>Text of the post.</p></body></html>"#
            ),
            None,
        )
        .published
    };
    assert_eq!(
        published("2025-12-19T02:41:41+00:00", "December 18, 2025").as_deref(),
        Some("2025-12-18")
    );
    // The same day shown, or a day after a stated day two apart or without its time: the
    // markup's value as it stands.
    for stated in [
        "2025-12-18T22:41:41+00:00",
        "2025-12-16T02:41:41+00:00",
        "2025-12-17",
    ] {
        assert_eq!(
            published(stated, "December 18, 2025").as_deref(),
            Some(stated)
        );
    }
}

/// A publication the markup states later than the dateline under the headline, and that
/// the page shows nowhere, is a day the page was saved again: the dateline is the date.
/// Where the page shows the stated day too, or its dateline is later (an update), or gives
/// a month only, the markup's day stands.
#[test]
fn an_earlier_dateline_wins_over_a_stated_day_the_page_does_not_show() {
    let published = |stated: &str, body: &str| {
        let m = meta(
            &format!(
                r#"<html><head><script type="application/ld+json">{{"@type":"BlogPosting",
                "datePublished":"{stated}"}}</script></head><body><h1>How much to charge
                for a yoga class</h1>{body}<p>Text of the post.</p></body></html>"#
            ),
            None,
        );
        (m.published, m.sources.get("published").copied())
    };
    assert_eq!(
        published("2025-06-24", "<p>August 25, 2024</p>"),
        (Some("2024-08-25".to_string()), Some(Source::Html))
    );
    assert_eq!(
        published("2025-06-24T09:00:00Z", "<p>Aug 25, 2024</p>"),
        (Some("2024-08-25".to_string()), Some(Source::Html))
    );
    for (stated, body) in [
        // The stated day shown further down, in a line of its own.
        (
            "2025-06-24",
            "<p>August 25, 2024</p><p>Text.</p><p>Published on June 24, 2025 in Yoga</p>",
        ),
        // A later dateline: an update.
        ("2024-08-25", "<p>Updated June 24, 2025</p>"),
        // A month only.
        ("2025-06-24", "<p>August 2024</p>"),
    ] {
        assert_eq!(
            published(stated, body),
            (Some(stated.to_string()), Some(Source::JsonLd)),
            "{body}"
        );
    }
}

/// UTF-8 that a program read as Latin-1 before the page was written is read again; text
/// that only looks alike is left as it is.
#[test]
fn utf8_read_as_latin1_is_read_again() {
    let description = |value: &str| {
        meta(
            &format!(
                r#"<html><head><meta property="og:description" content="{value}"></head>
                <body><p>Text.</p></body></html>"#
            ),
            None,
        )
        .description
    };
    assert_eq!(
        description("itertools \u{e2}\u{80}\u{94} Functions").as_deref(),
        Some("itertools \u{2014} Functions")
    );
    assert_eq!(
        description("JOHNSON\u{e2}\u{80}\u{99}S\u{c2}\u{ae}").as_deref(),
        Some("JOHNSON\u{2019}S\u{ae}")
    );
    // No C1 control: Latin-1 text as meant, and text whose bytes would be UTF-8 but that
    // no C1 control proves misread ("naÃ¯ve" could be meant: left, as a guess would be);
    // Windows-1252's reading of the same bytes (a character beyond U+00FF); C1 controls
    // whose bytes are not UTF-8.
    assert_eq!(
        description("Caf\u{e9} cr\u{e8}me").as_deref(),
        Some("Caf\u{e9} cr\u{e8}me")
    );
    assert_eq!(
        description("na\u{c3}\u{af}ve").as_deref(),
        Some("na\u{c3}\u{af}ve")
    );
    assert_eq!(
        description("it\u{e2}\u{20ac}\u{2122}s").as_deref(),
        Some("it\u{e2}\u{20ac}\u{2122}s")
    );
    assert_eq!(description("a\u{81}b").as_deref(), Some("a\u{81}b"));
}

/// A `<title>` and a headline written as UTF-8 read as Latin-1 are read again with the
/// page's text (chaff-dom's decoding), so the title and the `<title>` are mended alike.
#[test]
fn a_misread_title_and_headline_are_read_again() {
    let m = meta(
        "<html><head><title>A DIY Investor\u{e2}\u{80}\u{99}s Guide to Calculators</title>\
         </head><body><p>Text.</p></body></html>",
        None,
    );
    let mended = "A DIY Investor\u{2019}s Guide to Calculators";
    assert_eq!(m.title.as_deref(), Some(mended));
    assert_eq!(m.page_title.as_deref(), Some(mended));
    let m = meta(
        "<html><body><main><h1>itertools \u{e2}\u{80}\u{94} Functions</h1><p>Text.</p></main>\
         </body></html>",
        None,
    );
    assert_eq!(m.title.as_deref(), Some("itertools \u{2014} Functions"));
}

/// A front page's date of the day under a logo's `<h1>` is not the article's: the headline
/// inside `<article>` is asked first, and its dateline agrees with the markup (the menu keeps
/// the masthead out of the four texts read above it).
#[test]
fn a_masthead_date_does_not_date_the_article() {
    let m = meta(
        r#"<html><head><meta property="article:published_time" content="2019-11-19T06:30:42-05:00">
        </head><body><header><h1>The Daily Example</h1><span>Nov. 20, 2019</span></header>
        <nav><a href="/">News</a><a href="/s">Sport</a><a href="/b">Business</a>
        <a href="/c">Culture</a><a href="/w">Weather</a></nav>
        <article><h1>Council votes on the budget</h1><p>November 19, 2019</p>
        <p>Text of the story.</p>
        <p>More text of the story.</p></article></body></html>"#,
        None,
    );
    assert_eq!(m.published.as_deref(), Some("2019-11-19T06:30:42-05:00"));
}

/// A masthead's line under a logo's `<h1>` does not sign the article either: the byline and
/// the name beside the date are looked for near the `<h1>` inside `<article>` first, as the
/// date is.
#[test]
fn a_masthead_line_does_not_sign_the_article() {
    let page = |masthead: &str, under_headline: &str| {
        meta(
            &format!(
                r#"<html><body><header><h1>The Daily Example</h1>{masthead}
                <span>Nov. 20, 2019</span></header>
                <article><h1>Council votes on the budget</h1>{under_headline}
                <p>Text of the story, long enough to be one.</p></article></body></html>"#
            ),
            None,
        )
        .authors
    };
    assert_eq!(
        page("<span>By The Editors</span>", "<p>By Ann Lee</p>"),
        ["Ann Lee"]
    );
    assert_eq!(
        page(
            "<span>Jane Roe</span>",
            "<p>Ann Lee</p><p>Nov. 19, 2019</p>"
        ),
        ["Ann Lee"]
    );
}
