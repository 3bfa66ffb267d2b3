//! Everything but JSON-LD: `<meta>` names and properties (OpenGraph, Twitter, Dublin Core,
//! citation and publisher conventions), microdata `itemprop`s, `<html lang>`, links
//! (`rel=canonical`, `rel=license`, `rel=author`), `<time>` elements and bylines.

use chaff_dom::{ClassMemo, Document, NodeId};
use markup5ever::local_name;
use memchr::memmem;
use std::collections::HashMap;
use std::sync::LazyLock;

use crate::{Candidates, Source};

/// `<meta>` keys (lower case) by field and source.
const META: &[(&str, &str, Source)] = &[
    ("og:title", "title", Source::OpenGraph),
    ("og:site_name", "site_name", Source::OpenGraph),
    ("og:description", "description", Source::OpenGraph),
    ("og:image", "image", Source::OpenGraph),
    ("og:image:url", "image", Source::OpenGraph),
    ("og:url", "canonical_url", Source::OpenGraph),
    ("og:locale", "language", Source::OpenGraph),
    ("article:published_time", "published", Source::OpenGraph),
    ("og:published_time", "published", Source::OpenGraph),
    ("article:modified_time", "modified", Source::OpenGraph),
    ("og:updated_time", "modified", Source::OpenGraph),
    ("twitter:title", "title", Source::Twitter),
    ("twitter:description", "description", Source::Twitter),
    ("twitter:image", "image", Source::Twitter),
    ("dc.title", "title", Source::DublinCore),
    ("dcterms.title", "title", Source::DublinCore),
    ("dc.date", "published", Source::DublinCore),
    ("dc.date.issued", "published", Source::DublinCore),
    ("dcterms.date", "published", Source::DublinCore),
    ("dcterms.issued", "published", Source::DublinCore),
    ("dcterms.created", "published", Source::DublinCore),
    ("dcterms.modified", "modified", Source::DublinCore),
    ("dc.language", "language", Source::DublinCore),
    ("dcterms.language", "language", Source::DublinCore),
    ("dc.description", "description", Source::DublinCore),
    ("dc.rights", "license", Source::DublinCore),
    ("dcterms.license", "license", Source::DublinCore),
    ("dc.publisher", "site_name", Source::DublinCore),
    ("description", "description", Source::Meta),
    ("citation_title", "title", Source::Meta),
    ("citation_publication_date", "published", Source::Meta),
    ("citation_date", "published", Source::Meta),
    ("article.published", "published", Source::Meta),
    ("pubdate", "published", Source::Meta),
    ("publishdate", "published", Source::Meta),
    ("publish-date", "published", Source::Meta),
    ("publish_date", "published", Source::Meta),
    ("published", "published", Source::Meta),
    ("date", "published", Source::Meta),
    ("sailthru.date", "published", Source::Meta),
    ("parsely-pub-date", "published", Source::Meta),
    ("application-name", "site_name", Source::Meta),
    ("datepublished", "published", Source::Microdata),
    ("datemodified", "modified", Source::Microdata),
    ("headline", "title", Source::Microdata),
];

/// `<meta>` keys holding authors, and keys holding tags or sections.
const META_LISTS: &[(&str, &str, Source)] = &[
    ("article:author", "authors", Source::OpenGraph),
    ("dc.creator", "authors", Source::DublinCore),
    ("dcterms.creator", "authors", Source::DublinCore),
    ("author", "authors", Source::Meta),
    ("citation_author", "authors", Source::Meta),
    ("parsely-author", "authors", Source::Meta),
    ("sailthru.author", "authors", Source::Meta),
    ("article:tag", "tags", Source::OpenGraph),
    ("keywords", "tags", Source::Meta),
    ("news_keywords", "tags", Source::Meta),
    ("article:section", "categories", Source::OpenGraph),
];

/// What [`read`]'s walk over the elements found for the readers after it.
pub(crate) struct Found {
    /// The page's `<h1>`s in document order.
    pub(crate) h1s: Vec<NodeId>,
    /// The `<script type="application/ld+json">` elements in document order, for
    /// [`crate::jsonld::read`] (which adds only its own source's candidates, so reading
    /// them after the markup ranks every field as before). A walk of its own over every
    /// node took about 50 of the metadata's 1,500 perf samples on wcxb-dev.
    pub(crate) ld_json: Vec<NodeId>,
}

/// Reads everything but JSON-LD into `c`: every element's markup, in one walk.
pub(crate) fn read(doc: &Document, c: &mut Candidates) -> Found {
    let mut found = Found {
        h1s: Vec::new(),
        ld_json: Vec::new(),
    };
    let mut lists: Vec<(&'static str, Source, Vec<String>)> = Vec::new();
    let mut push = |field: &'static str, source: Source, value: String| match lists
        .iter_mut()
        .find(|(f, s, _)| *f == field && *s == source)
    {
        Some((_, _, v)) => v.push(value),
        None => lists.push((field, source, vec![value])),
    };
    if let Some(html) = doc.find_tag("html")
        && let Some(lang) = doc
            .attr_atom(html, &local_name!("lang"))
            .or_else(|| doc.attr(html, "xml:lang"))
    {
        c.add("language", Source::Html, lang);
    }
    let mut time_seen = false;
    let mut author_item = None;
    let mut written_by = None;
    let mut bylines: Vec<(NodeId, String)> = Vec::new();
    // [`names_a_byline`] of each distinct class value, asked once per value.
    let mut byline_classes = ClassMemo::new(doc);
    // The tag is read once per element, and compared as an interned atom (an integer):
    // this loop sees every element of every page.
    for id in doc.ids().filter(|&id| doc.is_element(id)) {
        let tag = doc.tag_atom(id);
        let is_link = *tag == local_name!("a");
        if *tag == local_name!("script") {
            if doc
                .attr_atom(id, &local_name!("type"))
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
            {
                found.ld_json.push(id);
            }
        } else if *tag == local_name!("meta") {
            // A `<meta>` has no text, so it is neither an item's property nor a byline.
            read_meta(doc, id, c, &mut push, &mut written_by);
            continue;
        } else if is_link || *tag == local_name!("link") {
            if let Some(name) = read_link(doc, id, c) {
                bylines.push((id, name));
            }
        } else if *tag == local_name!("time") {
            time_seen |= read_time(doc, id, c, time_seen);
        } else if *tag == local_name!("h1") {
            found.h1s.push(id);
        }
        read_itemprop(doc, id, c, &mut push, &mut author_item);
        if let Some(name) = byline(doc, id, is_link, &mut byline_classes) {
            bylines.push((id, name));
        }
    }
    let names = page_bylines(doc, &bylines, &found.h1s);
    if !names.is_empty() {
        lists.push(("authors", Source::Html, names));
    }
    for (field, source, values) in lists {
        let values = if field == "tags" && source == Source::Meta {
            values
                .iter()
                .flat_map(|v| v.split(','))
                .map(str::to_string)
                .collect()
        } else {
            values
        };
        c.add_list(field, source, values);
    }
    found
}

/// The page's authors among the bylines found (element, name; in document order).
/// - A marked element that holds another (`<div class="author">` around `<span
///   class="author-name">`) gives way to the inner one: its text runs on into a job title
///   or a date.
/// - A name that is another found name and more words ("Ann Lee Founder at Shop") is that
///   name.
/// - Bylines of more than two people are a listing's, or the comments', not the page's:
///   then the page's author is the first byline after one of its first four `<h1>`s, if no
///   more than [`NEAR_H1`] texts lie between them.
fn page_bylines(doc: &Document, bylines: &[(NodeId, String)], h1s: &[NodeId]) -> Vec<String> {
    // Ids are in pre-order, so an element's marked descendants come right after it.
    let inner: Vec<&(NodeId, String)> = bylines
        .iter()
        .enumerate()
        .filter(|(k, (id, _))| {
            bylines
                .get(k + 1)
                .is_none_or(|(next, _)| !doc.contains(*id, *next))
        })
        .map(|(_, b)| b)
        .collect();
    let lower: Vec<String> = inner.iter().map(|(_, n)| n.to_lowercase()).collect();
    // Each distinct name (lower case) with the text it was first found as.
    let mut first: HashMap<&str, &str> = HashMap::new();
    for (l, (_, name)) in lower.iter().zip(&inner) {
        first.entry(l.as_str()).or_insert(name.as_str());
    }
    // The shortest other name a name goes on from ("Ann Lee" of "Ann Lee Senior Writer").
    let fold = |name: &'_ str| -> String {
        let name = first
            .keys()
            .filter(|o| {
                name.len() > o.len() && name.starts_with(**o) && name.as_bytes()[o.len()] == b' '
            })
            .min_by_key(|o| o.len())
            .copied()
            .unwrap_or(name);
        first.get(name).map_or_else(String::new, |n| n.to_string())
    };
    // Telling how many people the bylines name folds every two distinct names: a page of
    // more than a few is a listing's or a thread's, whatever the folding gives.
    if first.len() <= MAX_DISTINCT_BYLINES {
        let mut people: Vec<String> = first.keys().map(|n| fold(n)).collect();
        people.sort_unstable();
        people.dedup();
        if people.len() <= 2 {
            return lower.iter().map(|l| fold(l)).collect();
        }
    }
    // The first byline after one of the first four `<h1>`s (a logo's, a section's, then
    // the article's), close to it.
    h1s.iter()
        .take(4)
        .find_map(|&h1| {
            let k = inner.iter().position(|(id, _)| *id > h1)?;
            let from = doc.subtree_end(h1).index();
            let ids = doc
                .ids()
                .skip(from)
                .take(inner[k].0.index().saturating_sub(from));
            (texts(doc, ids).count() <= NEAR_H1).then(|| vec![fold(&lower[k])])
        })
        .unwrap_or_default()
}

/// How many distinct names [`page_bylines`] folds onto each other at most.
const MAX_DISTINCT_BYLINES: usize = 16;

/// How many texts may stand between the headline and the byline [`page_bylines`] takes on
/// a page of many bylines.
const NEAR_H1: usize = 12;

/// Reads one `<meta>`. `written_by` remembers which Twitter card label says "Written by"
/// (`twitter:label1`), so that the matching `twitter:data1` is read as the author.
fn read_meta(
    doc: &Document,
    id: NodeId,
    c: &mut Candidates,
    push: &mut impl FnMut(&'static str, Source, String),
    written_by: &mut Option<String>,
) {
    let Some(content) = doc
        .attr_atom(id, &local_name!("content"))
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        if doc
            .attr_atom(id, &local_name!("http-equiv"))
            .is_some_and(|h| h.eq_ignore_ascii_case("content-language"))
            && let Some(l) = doc.attr_atom(id, &local_name!("content"))
        {
            c.add("language", Source::Meta, l);
        }
        return;
    };
    if doc
        .attr_atom(id, &local_name!("http-equiv"))
        .is_some_and(|h| h.eq_ignore_ascii_case("content-language"))
    {
        c.add("language", Source::Meta, content);
        return;
    }
    for key in ["property", "name", "itemprop"] {
        let Some(k) = doc.attr(id, key) else { continue };
        let k = k.trim().to_ascii_lowercase();
        if let Some((_, field, source)) = META.iter().find(|(m, _, _)| *m == k) {
            c.add(field, *source, content);
        }
        if let Some((_, field, source)) = META_LISTS.iter().find(|(m, _, _)| *m == k) {
            // Profile URLs are not names.
            if *field != "authors" || !looks_like_url(content) {
                push(field, *source, content.to_string());
            }
        }
        if let Some(n) = k.strip_prefix("twitter:label")
            && content.eq_ignore_ascii_case("written by")
        {
            *written_by = Some(n.to_string());
        }
        if let Some(n) = k.strip_prefix("twitter:data")
            && written_by.as_deref() == Some(n)
            && is_name(content)
        {
            push("authors", Source::Twitter, content.to_string());
        }
        if k == "author" && key == "itemprop" && !looks_like_url(content) {
            push("authors", Source::Microdata, content.to_string());
        }
    }
}

/// Reads a link's `rel`: the canonical URL and the license into `c`; a `rel=author` link's
/// name is returned, a byline like the others ([`page_bylines`]).
fn read_link(doc: &Document, id: NodeId, c: &mut Candidates) -> Option<String> {
    // Most links have no `rel`; they are passed over without lower-casing anything.
    let rel = doc.attr_atom(id, &local_name!("rel"))?;
    let rel = rel.to_ascii_lowercase();
    let rels: Vec<&str> = rel.split_ascii_whitespace().collect();
    let href = doc
        .attr_atom(id, &local_name!("href"))
        .map(str::trim)
        .filter(|h| !h.is_empty());
    if doc.is_tag(id, "link")
        && rels.contains(&"canonical")
        && let Some(h) = href
    {
        c.add("canonical_url", Source::Html, h);
    }
    if rels.contains(&"license")
        && let Some(h) = href
    {
        c.add("license", Source::Html, h);
    }
    if doc.is_tag(id, "a") && rels.contains(&"author") {
        let name = doc.subtree_text(id);
        if is_name(&name) {
            return Some(name.trim().to_string());
        }
    }
    None
}

/// A `<time>`: `itemprop=datePublished|dateModified` (microdata), else the first `<time
/// datetime>` inside an `<article>` or `<header>`, carrying `pubdate`, or outside links,
/// `<nav>`, `<aside>` and `<footer>` (where a listing's or a sidebar's dates are). Returns
/// whether it gave the page's first document date. Taking times outside `<article>` took
/// wcxb-dev's same-day dates from 76.6% to 78.8%, and dates given where the gold has none
/// from 5.9% to 6.7% (6.9% with the times in links and sidebars).
fn read_time(doc: &Document, id: NodeId, c: &mut Candidates, seen: bool) -> bool {
    let value = doc
        .attr_atom(id, &local_name!("datetime"))
        .map(str::to_string)
        .unwrap_or_else(|| doc.subtree_text(id));
    match doc
        .attr_atom(id, &local_name!("itemprop"))
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("datepublished") => c.add("published", Source::Microdata, &value),
        Some("datemodified") => c.add("modified", Source::Microdata, &value),
        _ => {}
    }
    let in_article = doc
        .ancestors(id)
        .any(|a| doc.is_tag(a, "article") || doc.is_tag(a, "header"));
    let outside_template = || {
        !doc.ancestors(id)
            .any(|a| doc.is_element(a) && matches!(doc.tag(a), "a" | "nav" | "aside" | "footer"))
    };
    let stated = doc.attr_atom(id, &local_name!("datetime")).is_some()
        && (in_article || doc.attr(id, "pubdate").is_some() || outside_template());
    if !seen && stated {
        c.add("published", Source::Html, &value);
        return true;
    }
    false
}

/// Microdata on other elements: a headline, an author (its `name` inside, or its text).
/// Reads an element's microdata properties. Authors count only in the first item that
/// names one (`author_item`, set here): on a forum thread or under an article, every reply,
/// comment and review is an item with its own author, and the page's author is the first
/// post's or the article's, not everyone who answered.
fn read_itemprop(
    doc: &Document,
    id: NodeId,
    c: &mut Candidates,
    push: &mut impl FnMut(&'static str, Source, String),
    author_item: &mut Option<Option<NodeId>>,
) {
    let Some(prop) = doc
        .attrs(id)
        .iter()
        .find(|a| a.name == local_name!("itemprop"))
        .map(|a| &*a.value)
    else {
        return;
    };
    let prop = prop.to_ascii_lowercase();
    let props: Vec<&str> = prop.split_ascii_whitespace().collect();
    if props.contains(&"headline") {
        c.add("title", Source::Microdata, &doc.subtree_text(id));
    }
    if props.contains(&"author") || props.contains(&"creator") {
        let named = doc.descendants(id).find(|&d| {
            doc.attr_atom(d, &local_name!("itemprop"))
                .is_some_and(|p| p.eq_ignore_ascii_case("name"))
        });
        let name = match named {
            Some(n) => doc
                .attr_atom(n, &local_name!("content"))
                .map(str::to_string)
                .unwrap_or_else(|| doc.subtree_text(n)),
            None => doc.subtree_text(id),
        };
        let name = strip_by(&name);
        let item = owning_item(doc, id);
        // An `itemprop=name` says what it holds: a forum's handle ("JWoodguy13") is a name
        // there, though a byline's digits are most often its date.
        let named_ok = named.is_some() && is_handle(&name);
        if (named_ok || is_name(&name)) && *author_item.get_or_insert(item) == item {
            push("authors", Source::Microdata, name);
        }
    }
    if (props.contains(&"datepublished") || props.contains(&"datemodified"))
        && !doc.is_tag(id, "time")
    {
        let field = if props.contains(&"datepublished") {
            "published"
        } else {
            "modified"
        };
        if let Some(v) = doc
            .attr_atom(id, &local_name!("content"))
            .or_else(|| doc.attr_atom(id, &local_name!("datetime")))
        {
            c.add(field, Source::Microdata, v);
        }
    }
}

/// The item a property belongs to: its nearest ancestor with `itemscope` (within 64 levels;
/// beyond, the property is taken as the page's own).
fn owning_item(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.ancestors(id)
        .take(64)
        .find(|&a| doc.attr_atom(a, &local_name!("itemscope")).is_some())
}

/// A byline's author: a link to an author page (`/author/...`), or an element whose class or
/// id says `byline` or `author` and whose text is a short name ("By Jane Doe").
fn byline(
    doc: &Document,
    id: NodeId,
    is_link: bool,
    classes: &mut ClassMemo<bool>,
) -> Option<String> {
    let author_link = is_link
        && doc
            .attr_atom(id, &local_name!("href"))
            .is_some_and(links_to_an_author_page);
    let marked = author_link
        || classes.get(doc, id, names_a_byline)
        // Found by its interned name: this runs on every element of every page.
        || doc
            .attr_atom(id, &local_name!("id"))
            .is_some_and(names_a_byline);
    // A marked element may wrap a whole article (`<div class="author-page">`): its text is
    // not gathered when it surely has more words than "written by" and a name.
    if !marked || surely_more_words(doc, id, BYLINE_WORDS) {
        return None;
    }
    // The texts apart, as a reader sees them (`<span>Ann Lee</span><span>May 5</span>`).
    let text: Vec<&str> = doc
        .descendants(id)
        .filter(|&d| doc.is_text(d))
        .map(|d| doc.text(d))
        .collect();
    let name = strip_by(&text.join(" "));
    // A joint left of a list of names ("& Ann Lee" in its own element, ": Ann Lee" after
    // "Posted by").
    let name = before_a_link_word(name.trim_start_matches(['&', ':', ',']).trim_start());
    let named = |n: &str| {
        if author_link {
            is_linked_name(n)
        } else {
            is_name(n)
        }
    };
    let name = if named(name) {
        name
    } else {
        before_a_date(up_to(name, &NAME_ENDS))
    };
    named(name).then(|| name.to_string())
}

/// The links an author's box or a share bar sets beside a name: never a name themselves
/// ([`is_label`]), and where a byline's name ends ([`before_a_link_word`]).
const AUTHOR_BOX_LINKS: [&str; 10] = [
    "rss",
    "feed",
    "email",
    "e-mail",
    "twitter",
    "facebook",
    "linkedin",
    "website",
    "profile",
    "subscribe",
];

/// A byline's text up to the first of its box's links ("Ann Lee View Profile Email RSS").
fn before_a_link_word(s: &str) -> &str {
    let mut end = s.len();
    let mut at = 0;
    for word in s.split(' ') {
        let link_word = AUTHOR_BOX_LINKS
            .iter()
            .chain(&["view", "follow"])
            .any(|w| word.eq_ignore_ascii_case(w));
        if at > 0 && link_word {
            end = at - 1;
            break;
        }
        at += word.len() + 1;
    }
    s[..end].trim_end()
}

/// A byline's text up to the date it goes on to ("Ann Lee 4 August 2010", "Ann Lee March
/// 5, 2024"): the words before the first that starts with a digit, less a month's name at
/// their end.
fn before_a_date(s: &str) -> &str {
    // The first digit at a word's start.
    let digit = s
        .char_indices()
        .find(|&(i, c)| c.is_ascii_digit() && (i == 0 || s[..i].ends_with(char::is_whitespace)))
        .map_or(s.len(), |(i, _)| i);
    let mut head = s[..digit].trim_end();
    // "March" of "March 5", "Sat" of "Sat, 20 Dec".
    while let Some(last) = head.split_whitespace().next_back()
        && crate::dates::is_month_or_weekday(last.trim_end_matches(['.', ',']))
    {
        head = head[..head.len() - last.len()].trim_end();
    }
    head.trim_end_matches([',', '·', '|', '-', '–', '—'])
        .trim_end()
}

/// Whether a link's `href` has `/author/` or `/authors/` in it: one search for `/author`,
/// the byte after each hit looked at (two searches per link of every page cost a fifth of
/// the byline test).
fn links_to_an_author_page(href: &str) -> bool {
    static FINDER: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(b"/author"));
    let b = href.as_bytes();
    FINDER.find_iter(b).any(|k| {
        let after = &b[k + b"/author".len()..];
        after.starts_with(b"/") || after.starts_with(b"s/")
    })
}

/// The most words a byline has: a prefix of two ("written by") and a name of six.
const BYLINE_WORDS: usize = 8;

/// Whether the text under `id` surely has more than `max` words, told without gathering it:
/// the words of its text nodes counted apart, less one at each joint between two nodes
/// (where a word may run on from one node into the next), is a bound from below.
fn surely_more_words(doc: &Document, id: NodeId, max: usize) -> bool {
    let mut least = 0usize;
    let mut nodes = 0usize;
    for d in doc.descendants(id).filter(|&d| doc.is_text(d)) {
        let words = doc.text(d).split_ascii_whitespace().count();
        if words == 0 {
            continue;
        }
        least += words - usize::from(nodes > 0);
        nodes += 1;
        if least > max {
            return true;
        }
    }
    false
}

/// Whether a `class` or `id` value has a name with "byline" or "author" in it (any case),
/// and not "authority", "avatar" or "bio" (an author's picture or biography is no byline).
/// Read in one pass over the bytes, the names told apart by the blanks between them, and a
/// word compared only where its first letter is: it is asked of every element of every
/// page (splitting the value into names first took half its time).
fn names_a_byline(value: &str) -> bool {
    let b = value.as_bytes();
    // "author" has a "th" and "byline" a "yl": a value with neither pair (any case), most
    // of them, is turned down by one branch-free pass the compiler does many bytes at once.
    let pair = |x: u8, y: u8| {
        let (x, y) = (x | 0x20, y | 0x20);
        u8::from((x == b't') & (y == b'h')) | u8::from((x == b'y') & (y == b'l'))
    };
    if b.iter()
        .zip(b.iter().skip(1))
        .fold(0u8, |any, (&x, &y)| any | pair(x, y))
        == 0
    {
        return false;
    }
    let at = |k: usize, word: &[u8]| {
        b.get(k..k + word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word))
    };
    // Within the current name: whether a word was found, and whether one rules it out.
    let (mut hit, mut vetoed) = (false, false);
    for (k, &c) in b.iter().enumerate() {
        match c | 0x20 {
            // Blanks end a name (`| 0x20` maps none of the letters' cases onto them).
            _ if c.is_ascii_whitespace() => {
                if hit && !vetoed {
                    return true;
                }
                (hit, vetoed) = (false, false);
            }
            b'a' if at(k, b"authority") || at(k, b"avatar") => vetoed = true,
            b'a' => hit |= at(k, b"author"),
            b'b' if at(k, b"bio") => vetoed = true,
            b'b' => hit |= at(k, b"byline"),
            _ => {}
        }
    }
    hit && !vetoed
}

fn strip_by(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // A footnote's star too ("Ann Lee, MD*").
    let s = s
        .trim_end_matches(['-', '–', '—', '|', ',', '*'])
        .trim_end()
        .to_string();
    // "BySummer Swann": a byline whose markup left no space after "By".
    if let Some(rest) = s.strip_prefix("By")
        && rest.starts_with(|c: char| c.is_uppercase())
    {
        return rest.to_string();
    }
    let lower = s.to_lowercase();
    for p in [
        "view all posts by",
        "all posts by",
        "more posts by",
        "written by",
        "penned by",
        "text by",
        "words by",
        "story by",
        "recipe by",
        "reported by",
        "posted by",
        "published by",
        "author:",
        "by:",
        "by ",
        "von ",
        "par ",
        "por ",
        "di ",
        "door ",
    ] {
        if lower.starts_with(p) && s.is_char_boundary(p.len()) {
            return s[p.len()..].trim().to_string();
        }
    }
    s
}

/// A person's or a desk's name: one to six words, the first letter first (or a handle's
/// `@`), no digits, not a URL.
fn is_name(s: &str) -> bool {
    is_name_in_any_case(s)
        && (s.split_whitespace().nth(1).is_none() || s.split_whitespace().all(capitalised_or_short))
}

/// What a link to an author's page may hold: a name, or one or two words in lower case
/// ("crazy lennys" of `/author/crazylennys/`; a longer lower-case text is a link in a
/// sentence: "chances of victory to").
fn is_linked_name(s: &str) -> bool {
    is_name(s) || is_name_in_any_case(s) && s.split_whitespace().nth(2).is_none()
}

/// [`is_name`] but for its capitals.
fn is_name_in_any_case(s: &str) -> bool {
    let words = s.split_whitespace().count();
    (1..=6).contains(&words)
        && s.starts_with(|c: char| c.is_alphabetic() || c == '@')
        && !s
            .chars()
            .any(|c| c.is_ascii_digit() || matches!(c, '*' | '|' | ':' | '®' | '©' | '[' | ']'))
        && !looks_like_url(s)
        && !is_label(s)
        && !s.split_whitespace().next().is_some_and(|w| {
            // A link's call to action ("View more posts", "See profile").
            ["view", "see", "more", "read", "follow"]
                .iter()
                .any(|v| w.eq_ignore_ascii_case(v))
        })
}

/// A user's handle: one word of letters, digits and `_.-`, with a letter, at most 40
/// characters, not a label ([`is_label`]).
fn is_handle(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && !is_label(s)
        && s.chars().any(char::is_alphabetic)
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Words a form, a dateline or a board's buttons write where a name could stand ("Name",
/// "Updated", "Topic Author", "Sign Up").
fn is_label(s: &str) -> bool {
    const LABELS: [&str; 22] = [
        "on",
        "name",
        "updated",
        "published",
        "author",
        "by",
        "posted by",
        "written by",
        "topic author",
        "logged",
        "log in",
        "sign in",
        "sign up",
        "register",
        "reply",
        "quote",
        // An author box's and a share bar's links besides [`AUTHOR_BOX_LINKS`].
        "tweet",
        "google +",
        "google+",
        "about",
        "bio",
        "contact",
    ];
    LABELS
        .iter()
        .chain(&AUTHOR_BOX_LINKS)
        .any(|l| s.eq_ignore_ascii_case(l))
}

/// A word of a person's name: capitalised, or a short particle ("van", "de", "and"), or
/// the "with" between two authors, or a desk's word ("The Currency editors").
fn capitalised_or_short(word: &str) -> bool {
    word.chars().count() <= 3
        || matches!(word, "with" | "editors" | "staff" | "team")
        || !word.chars().next().is_some_and(char::is_lowercase)
}

fn looks_like_url(s: &str) -> bool {
    let s = s.trim();
    s.starts_with("http://")
        || s.starts_with("https://")
        || s.starts_with("//")
        || s.starts_with('/')
}

/// The headline the page shows: the first `<h1>` inside `<article>` or `<main>`, else the
/// page's only `<h1>`; two to forty words. With it, whether it is inside `<article>` or
/// `<main>`; and the first `<h1>` of the page, one to forty words, whichever it is.
pub(crate) fn headline(
    doc: &Document,
    h1s: &[NodeId],
    inside: Option<NodeId>,
) -> (Option<(String, bool)>, Option<String>) {
    let text_of = |h: NodeId| {
        shown_text(doc, h)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let first = h1s.first().map(|&h| text_of(h));
    let shown = inside
        .or_else(|| (h1s.len() == 1).then(|| h1s[0]))
        .map(|h| match (Some(h) == h1s.first().copied(), &first) {
            (true, Some(t)) => t.clone(),
            _ => text_of(h),
        })
        .filter(|t| (2..=40).contains(&t.split_whitespace().count()))
        .map(|t| (t, inside.is_some()));
    let first = first.filter(|t| (1..=40).contains(&t.split_whitespace().count()));
    (shown, first)
}

/// The text a reader sees of an element, as the visible-text view reads it
/// ([`chaff_dom::TextView`]: no `<style>`, no `<svg>` title, nothing its attributes hide, a
/// line between blocks), less its `<button>`s and permalink marks
/// ([`chaff_dom::text::is_permalink_mark`]). A page's script may put its style sheet inside
/// the `<h1>`, and a documentation page its "Copy item path" button or its "¶": none is the
/// headline.
fn shown_text(doc: &Document, root: NodeId) -> String {
    let mut keep = |id: NodeId| {
        !doc.is_element(id)
            || !(doc.is_tag(id, "button") || chaff_dom::text::is_permalink_mark(doc, id))
    };
    chaff_dom::TextView::filtered(doc, root, &mut keep)
        .text()
        .to_owned()
}

/// The author of a forum thread's first post: the first name after the headline that a
/// member link (`memberlist.php?mode=viewprofile`, `/members/`, `/u/`, `/user/`, `/users/`,
/// `/profile/`) or an element marked `username`, `poster` or `post-author` gives. On a thread
/// every reply names its author the same way, so bylines all over the page say nothing of
/// whose thread it is (`read` drops them); the first of them is the one who started it.
/// Callers ask only of pages they know to be threads.
pub fn first_poster(doc: &Document) -> Option<String> {
    let start = after_first_h1(doc);
    doc.ids()
        .skip(start)
        .filter(|&id| doc.is_element(id))
        .filter(|&id| is_member_link(doc, id) || marks_a_poster(doc, id))
        .take(8)
        .find_map(|id| {
            let name = doc.subtree_text(id);
            let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
            // A poster's element holds the handle alone, digits and all ("chunix64").
            (is_name(&name) || is_handle(&name)).then_some(name)
        })
}

/// How many texts after the headline [`first_post_date`] reads: a thread's first post sits
/// below its breadcrumbs, page links and buttons (the 16th to the 47th text on the boards
/// looked at: vBulletin, phpBB, FluxBB, MyBB, vBulletin's successors).
const FIRST_POST_TEXTS: usize = 60;

/// The date of a forum thread's first post: the first short text after the page's first
/// `<h1>` (or from the top, on boards that have none) within `FIRST_POST_TEXTS` that reads
/// as a whole date, a member's "Joined"/"Registered" line left out. On a thread every post
/// carries a date, and the first after the headline is the opening post's, the thread's
/// own. Callers ask only of pages they know to be threads, as for [`first_poster`].
pub fn first_post_date(doc: &Document) -> Option<String> {
    let start = after_first_h1(doc);
    texts(doc, doc.ids().skip(start))
        .take(FIRST_POST_TEXTS)
        .filter(|t| !names_a_membership(t))
        .find_map(|t| short_date(t.trim_end_matches([',', ';', '.', '|']), 10))
}

/// The node after the page's first `<h1>`, or the first node when it has none: where a
/// thread's posts are looked for.
fn after_first_h1(doc: &Document) -> usize {
    doc.ids()
        .find(|&id| doc.is_tag(id, "h1"))
        .map_or(0, |h1| doc.subtree_end(h1).index())
}

/// The date a short text (at most `max_words` words, a digit among them) reads as. A
/// word holds a letter or a digit: the bars between a byline's parts ("Aaron Ricadela |
/// Senior Writer | July 2, 2025") are not words.
fn short_date(t: &str, max_words: usize) -> Option<String> {
    // Most texts asked have no digit: that is looked for first, and their words are not
    // counted.
    let dated = t.bytes().any(|b| b.is_ascii_digit())
        && t.split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .count()
            <= max_words;
    if !dated {
        return None;
    }
    crate::dates::normalize_date(t).or_else(|| {
        // A label before a date in digits ("Updated: 10/31/2024", "Posted 2025-09-13"):
        // the words are read one by one, as they read alone.
        t.split_whitespace()
            .skip(1)
            .filter(|w| w.bytes().next().is_some_and(|b| b.is_ascii_digit()))
            .find_map(|w| crate::dates::normalize_date(w.trim_end_matches([',', '.', ';'])))
    })
}

/// Whether a text gives when a member joined rather than when something was posted.
fn names_a_membership(t: &str) -> bool {
    let head = t.chars().take(16).collect::<String>().to_lowercase();
    ["joined", "registered", "member since", "join date"]
        .iter()
        .any(|w| head.contains(w))
}

fn is_member_link(doc: &Document, id: NodeId) -> bool {
    doc.is_tag(id, "a")
        && doc.attr_atom(id, &local_name!("href")).is_some_and(|h| {
            h.contains("mode=viewprofile")
                || [
                    "/members/",
                    "/member/",
                    "/u/",
                    "/user/",
                    "/users/",
                    "/profile/",
                ]
                .iter()
                .any(|p| h.contains(p))
        })
}

fn marks_a_poster(doc: &Document, id: NodeId) -> bool {
    doc.attr_atom(id, &local_name!("class"))
        .is_some_and(|class| {
            class.split_ascii_whitespace().any(|c| {
                let c = c.to_ascii_lowercase();
                c.contains("username") || c.contains("poster") || c.contains("post-author")
            })
        })
}

/// A byline written near the headline the page shows, where no markup names an author:
/// within the headline's next twelve text nodes, a text that starts with a byline's word
/// and goes on with a name ("By Ann Lee", "Written by: Ann Lee"), or that word alone
/// followed by a name in the next text ("Written by" / "Ann Lee" in two elements). A page
/// with several `<h1>`s (a logo's, a section's, then the article's) is read after each of
/// four in turn, as [`date_near_headline`] reads them: the one inside `<article>` or
/// `<main>` first, so a masthead's "By The Editors" under a logo's `<h1>` does not sign the
/// article (on wcxb-dev that order changes no author). Failing that, an author line further
/// down ([`labelled_author`]).
pub(crate) fn byline_near_headline(
    doc: &Document,
    h1s: &[NodeId],
    inside: Option<NodeId>,
) -> Option<Vec<String>> {
    let first = *h1s.first()?;
    headlines_in_turn(h1s, inside)
        .find_map(|h1| byline_after(doc, h1))
        .map(|name| name.map(|n| vec![n]))
        .unwrap_or_else(|| labelled_author(doc, doc.subtree_end(first).index()))
}

/// The byline in the twelve text nodes after one `<h1>`: `Some` when they decide (a name,
/// or `None` for a byline's word followed by no name, which ends the search), `None` when
/// they hold no byline.
fn byline_after(doc: &Document, h1: NodeId) -> Option<Option<String>> {
    let after = doc.subtree_end(h1).index();
    let mut texts = texts(doc, doc.ids().skip(after)).take(12);
    while let Some(t) = texts.next() {
        if t.split_whitespace().count() > 8 {
            continue;
        }
        let lower = t.to_lowercase();
        let label = lower
            .trim_end_matches(':')
            .trim_end()
            .trim_start_matches(|c: char| !c.is_alphanumeric());
        if matches!(
            label,
            "by" | "written by" | "posted by" | "published by" | "author" | "started by"
        ) {
            let name = texts.next().map(strip_by);
            return Some(name.filter(|n| is_name(n)));
        }
        let stripped = strip_by(t);
        // Told apart by what is left besides blanks: a text broken over lines is no byline.
        let marks = |s: &str| s.chars().filter(|c| !c.is_whitespace()).count();
        if marks(&stripped) < marks(t) {
            let name = up_to(&stripped, &NAME_ENDS);
            if is_name(name) {
                return Some(Some(name.to_string()));
            }
        }
    }
    None
}

/// Where a byline's name ends and the line goes on to something else ("By Ann Lee | March
/// 5", "By Ann Lee on Monday").
const NAME_ENDS: [&str; 7] = [" | ", " · ", " • ", " on ", " - ", " – ", " — "];

/// `s` up to the first of `ends` in it, or all of it.
fn up_to<'s>(s: &'s str, ends: &[&str]) -> &'s str {
    let end = ends.iter().filter_map(|e| s.find(e)).min();
    end.map_or(s, |end| &s[..end])
}

/// Labels that say the name after them is the author's wherever they stand, unlike a bare
/// "By", which is only a byline next to the headline ("by the river").
const AUTHOR_LABELS: [&str; 8] = [
    "written by",
    "author:",
    "authors:",
    "author(s):",
    "article written by",
    "article by",
    "this post was written by",
    "contributors:",
];

/// The first letters (lower case) of [`AUTHOR_LABELS`] and of the "Author" headings.
const LABEL_STARTS: [u8; 4] = [b'a', b'c', b't', b'w'];

/// Whether `t` starts with one of `starts` (lower-case ASCII letters) in either case: the
/// first byte of every label a reader looks for, so most texts are turned down on it.
fn opens_with_one_of(t: &str, starts: &[u8]) -> bool {
    t.as_bytes()
        .first()
        .is_some_and(|&b| starts.contains(&(b | 0x20)))
}

/// The first of `labels` (ASCII) that `t` starts with, in any ASCII case.
fn label_at_start<'l>(t: &str, labels: &[&'l str]) -> Option<&'l str> {
    labels.iter().copied().find(|l| {
        t.as_bytes()
            .get(..l.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(l.as_bytes()))
    })
}

/// An author line anywhere after the headline (from node index `after`): a short text (at
/// most ten words) that starts with one of [`AUTHOR_LABELS`] and goes on with a name, or is
/// the label alone with the name in the next text ("Article written by:" / "Ann Lee" at the
/// article's end). The name ends at a separator or a comma ("Ann Lee, MD"). On wcxb-dev
/// this found the author on 8 more of the pages whose gold names one, all right, and on
/// none of the pages whose gold names none (author lenient 80.0% to 81.1% with each page
/// typed by the fold model that did not see its domain).
fn labelled_author(doc: &Document, after: usize) -> Option<Vec<String>> {
    let mut texts = texts(doc, doc.ids().skip(after));
    while let Some(t) = texts.next() {
        // Every label starts with one of four letters: most texts are passed over on
        // their first byte (this reads every text after the headline on pages that name
        // no author).
        if !opens_with_one_of(t, &LABEL_STARTS) {
            continue;
        }
        // "Author" alone, a heading over the name ("Author" / "Ann Lee").
        let alone = ["author", "authors", "author(s)"]
            .iter()
            .any(|l| t.eq_ignore_ascii_case(l));
        let Some(label) = label_at_start(t, &AUTHOR_LABELS).or(alone.then_some(t)) else {
            continue;
        };
        if t.split_whitespace().count() > 10 {
            continue;
        }
        // The labels are ASCII, so their length is a character boundary.
        let rest = t[label.len()..].trim_start().trim_start_matches(':').trim();
        let name = match rest {
            // A plural heading over a list of names, one per text.
            "" if label.len() > "author".len() && alone => {
                let first = strip_by(texts.next()?);
                if !is_name(&first) {
                    continue;
                }
                let mut names = vec![first];
                while names.len() < 6
                    && let Some(next) = texts.next()
                    && looks_like_a_person(next)
                {
                    names.push(next.to_string());
                }
                return Some(names);
            }
            "" => strip_by(texts.next()?),
            rest => rest.to_string(),
        };
        let name = up_to(up_to(&name, &NAME_ENDS), &[", "]).trim_end_matches('.');
        if is_name(name) {
            return Some(vec![name.to_string()]);
        }
    }
    None
}

/// A date written near the headline the page shows ("Updated March 5, 2021" in the lines
/// after the `<h1>`): the first short text within the headline's next twelve text nodes
/// that reads as a date, else the nearest within the four before it (a dateline above the
/// headline: "News · 14 March 2024"). On wcxb-dev the look before the headline took dates
/// on the same day from 78.8% to 80.6% (one to three nodes: 79.7%, 80.3%, 80.6%; four to
/// sixteen: 80.6%), with dates given where the gold has none unchanged at 6.7%. A page
/// with several `<h1>`s (a logo's, a section's) is read near each of its first four in
/// turn: 81.1% (two: 80.9%), given where the gold has none 7.0%. A date labelled as an
/// update gives way to another near the same headline (the dateline of a page that shows
/// both): one page more right to the day (81.6% to 81.7%), none where the gold has none.
/// A label before a date in digits ("Updated: 10/31/2024") no longer hides it: 81.7% to
/// 82.1%, given where the gold has none 6.9% to 7.1% (a report's "DATE: 2025-12-12 -
/// 2025-12-17").
/// Preferring the markup's `dateModified` wherever the page shows that day near its headline
/// was tried too, and dropped: WCXB's gold takes the shown update on some pages and the
/// stated publication on others (23 pages right against 31 made wrong; 16 against 17 when
/// the shown day also had to be labelled as an update).
///
/// The `<h1>` inside `<article>` or `<main>`, the headline [`headline`] reads, is asked
/// first: a logo's `<h1>` above it can be followed by the date a front page shows of the day
/// it is read ("Nov. 20, 2019" under a news site's masthead), which would otherwise win over
/// the article's own dateline and, a day from the markup's date, replace it (see
/// `dates::a_zone_apart`). On wcxb-dev the order changes no date; asking only the `<h1>`
/// inside `<article>` or `<main>` where there is one lost one page's date.
pub(crate) fn date_near_headline(
    doc: &Document,
    h1s: &[NodeId],
    inside: Option<NodeId>,
) -> Option<String> {
    headlines_in_turn(h1s, inside).find_map(|h1| date_near(doc, h1))
}

/// The `<h1>`s a byline or a dateline is looked for near, in turn: the one inside
/// `<article>` or `<main>` first ([`h1_inside_article`]), then the others in page order,
/// four at most.
fn headlines_in_turn(h1s: &[NodeId], inside: Option<NodeId>) -> impl Iterator<Item = NodeId> {
    inside
        .into_iter()
        .chain(h1s.iter().copied().filter(move |&h| Some(h) != inside))
        .take(4)
}

/// The first `<h1>` inside `<article>` or `<main>`: the page's headline where it has one
/// ([`headline`], [`date_near_headline`]; found once per page and handed to both).
pub(crate) fn h1_inside_article(doc: &Document, h1s: &[NodeId]) -> Option<NodeId> {
    h1s.iter().copied().find(|&h| {
        doc.ancestors(h)
            .any(|a| doc.is_tag(a, "article") || doc.is_tag(a, "main"))
    })
}

/// The date near one `<h1>`: after it first, then before it; a date the page labels as an
/// update ("Updated: January 2, 2026", or "Last updated" in the text before it) only when
/// no other date is near; a member's join date ("Joined" over "Nov 4, 2011" in a thread's
/// first post) never: on wcxb-dev one thread's join date, earlier than the day its markup
/// states, would otherwise have replaced that day ([`crate::dateline_over_stated`]).
fn date_near(doc: &Document, h1: NodeId) -> Option<String> {
    let end = doc.subtree_end(h1).index();
    let after: Vec<&str> = texts(doc, doc.ids().skip(end)).take(12).collect();
    let before: Vec<&str> = texts(doc, doc.ids().take(h1.index()).rev())
        .take(4)
        .collect();
    let mut update = None;
    for (list, reversed) in [(&after, false), (&before, true)] {
        for (k, t) in list.iter().enumerate() {
            let Some(date) = short_date(t, 8) else {
                continue;
            };
            // The text just before this one as the page reads, a label of its own.
            let label = if reversed {
                list.get(k + 1)
            } else {
                k.checked_sub(1).and_then(|j| list.get(j))
            };
            let short_label = label.filter(|l| l.split_whitespace().count() <= 3);
            // A member's join date ("Joined" over "Nov 4, 2011" beside a thread's first
            // post) dates the member, not the page.
            if names_a_membership(t) || short_label.is_some_and(|l| names_a_membership(l)) {
                continue;
            }
            let labelled = says_updated(t) || short_label.is_some_and(|l| says_updated(l));
            if !labelled {
                return Some(date);
            }
            update.get_or_insert(date);
        }
    }
    update
}

/// Labels that say the date after them is when the page was published, wherever they stand
/// ("Posted on April 13, 2023" under an article's last paragraph). Longer labels come first,
/// so a label is taken whole.
const DATE_LABELS: [&str; 6] = [
    "originally published",
    "date published",
    "publication date",
    "published",
    "posted",
    "written on",
];

/// The first letters (lower case) of [`DATE_LABELS`].
const DATE_LABEL_STARTS: [u8; 4] = [b'd', b'o', b'p', b'w'];

/// A labelled date anywhere after the first `<h1>`, asked where nothing nearer the headline
/// dates the page: a short text (at most ten words) that starts with one of
/// [`DATE_LABELS`] and goes on with a date ("Published on: 15 August 2025"), or is the label
/// alone with the date in the next text ("Published" / "July 8, 2025", a dateline written
/// out after a login dialog). An update's label is not among them: a page that shows only
/// "Last updated" keeps no date from it here. On wcxb-dev, with the page-type and title
/// fold models refitted on the facts it changes, it dated 5 more pages right (labels under
/// the article, "Published on: 15 August 2025", or after a dialog written out under the
/// `<h1>`), and gave a date on 3 pages whose gold has none: a mover's news item, a front
/// page whose posts below its headline share a day, and a page the gold lists twice, once
/// with this very date. Date same day 82.2% to 83.0%, given where the gold has none 6.7% to
/// 7.1%. A dateline of up to twelve words near the headline, as [`name_beside_date`] reads
/// it, was tried beside it and dropped: one page more right, three more dated where the gold
/// has none.
pub(crate) fn labelled_date(doc: &Document, h1s: &[NodeId]) -> Option<String> {
    let first = *h1s.first()?;
    let mut texts = texts(doc, doc.ids().skip(doc.subtree_end(first).index()));
    let mut found: Option<String> = None;
    while let Some(t) = texts.next() {
        // Most texts are passed over on their first byte.
        if !opens_with_one_of(t, &DATE_LABEL_STARTS) {
            continue;
        }
        let Some(label) = label_at_start(t, &DATE_LABELS) else {
            continue;
        };
        if t.split_whitespace().count() > 10 {
            continue;
        }
        // A label, and an "on" after it, are words of their own ("Posted" is no label of
        // "Postedit").
        let ends_a_word =
            |s: &str| s.is_empty() || s.starts_with(|c: char| c.is_whitespace() || c == ':');
        // The labels are ASCII, so their length is a character boundary.
        let rest = &t[label.len()..];
        if !ends_a_word(rest) {
            continue;
        }
        let rest = rest.trim_start();
        let rest = rest
            .strip_prefix("on")
            .filter(|r| ends_a_word(r))
            .map_or(rest, str::trim_start);
        let rest = rest.trim_start_matches(':').trim();
        let date = if rest.is_empty() {
            texts.next().and_then(|next| short_date(next, 8))
        } else {
            short_date(rest, 8)
        };
        let Some(date) = date else {
            continue;
        };
        // Labelled dates of different days are a list's (a front page's posts, a shop's
        // reviews), none of them the page's.
        match &found {
            Some(f) if crate::dates::day_of(f) != crate::dates::day_of(&date) => return None,
            Some(_) => {}
            None => found = Some(date),
        }
    }
    found
}

/// Whether a text of the page reads as a date of the day `day` (`YYYY-MM-DD`): texts of
/// up to twenty words, as a dateline or a "Published on ..." line is written, outside
/// scripts and styles. Asked only where the markup's date and the headline's disagree.
pub(crate) fn shows_day(doc: &Document, day: &str) -> bool {
    text_nodes(doc, doc.ids()).any(|(id, t)| {
        let in_code = doc
            .parent(id)
            .is_some_and(|p| doc.is_tag(p, "script") || doc.is_tag(p, "style"));
        !in_code && short_date(t, 20).is_some_and(|d| crate::dates::day_of(&d) == day)
    })
}

/// A name printed beside the date near the headline, with no byline's word ("Julian K.
/// Arni" over "Dec 17, 2025"; "2025-12-17 · Trond Teigen"): the text just before or just
/// after the date's (or a part of the date's own text, cut at a separator) that looks like
/// a person's name ([`looks_like_a_person`]). Read near four `<h1>`s in turn, as
/// [`date_near_headline`] reads them, and asked last, where no byline or author line names
/// anyone. On wcxb-dev it named the gold's author on 3 more pages (author lenient 83.6% to
/// 84.0%), and on one more once a dateline of up to twelve words counted ("Aaron Ricadela |
/// Senior Writer | July 2, 2025"). It gave a name on none of the pages whose gold has none
/// once a text in a link (a category's) was left out; before that it named two categories
/// ("Nonessential Thoughts", "All Insights").
pub(crate) fn name_beside_date(
    doc: &Document,
    h1s: &[NodeId],
    inside: Option<NodeId>,
) -> Option<String> {
    headlines_in_turn(h1s, inside).find_map(|h1| {
        let end = doc.subtree_end(h1).index();
        let after: Vec<(NodeId, &str)> = text_nodes(doc, doc.ids().skip(end)).take(12).collect();
        let before: Vec<(NodeId, &str)> = text_nodes(doc, doc.ids().take(h1.index()).rev())
            .take(4)
            .collect();
        [after, before].iter().find_map(|list| {
            // A dateline may hold a name and a role too ("Ann Lee | Senior Writer | July 2,
            // 2025"): twelve words, not the eight of a date alone.
            let k = list.iter().position(|(_, t)| short_date(t, 12).is_some())?;
            let own = list[k].1;
            let parts = SEPARATORS_OF_A_DATELINE
                .iter()
                .find(|sep| own.contains(**sep))
                .map(|sep| own.split(*sep).collect::<Vec<_>>())
                .unwrap_or_default();
            // A neighbour in a link is a category or a section, unless the link goes to a
            // person's page.
            // Separators in elements of their own ("2025-12-17", "·", "Ann Lee") are passed.
            let beside = |step: &dyn Fn(usize) -> Option<usize>| {
                let mut j = step(k)?;
                while list.get(j)?.1.chars().all(|c| !c.is_alphanumeric()) {
                    j = step(j)?;
                }
                list.get(j)
            };
            let near = [beside(&|j| j.checked_sub(1)), beside(&|j| Some(j + 1))]
                .into_iter()
                .flatten()
                .filter(|(id, _)| !in_a_link_elsewhere(doc, *id) && !in_a_heading(doc, *id))
                .map(|(_, t)| *t);
            parts
                .into_iter()
                .chain(near)
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
                .find_map(|t| {
                    // "Ann Lee in <a>Category</a>".
                    let name = up_to(&t, &[" on behalf", " | ", ", "]);
                    let name = name.strip_suffix(" in").unwrap_or(name).trim();
                    looks_like_a_person(name).then(|| name.to_string())
                })
        })
    })
}

/// Whether a text node lies in a heading (within three levels): a post's title beside its
/// date, not its author.
fn in_a_heading(doc: &Document, id: NodeId) -> bool {
    doc.ancestors(id)
        .take(3)
        .any(|a| chaff_dom::is_heading(doc.tag_atom(a)))
}

/// Whether a text node lies in a link (within three levels) that does not go to a
/// person's page.
fn in_a_link_elsewhere(doc: &Document, id: NodeId) -> bool {
    const PEOPLE: [&str; 8] = [
        "/author",
        "/reviewer",
        "/people/",
        "/team/",
        "/user",
        "/u/",
        "/members/",
        "/profile",
    ];
    doc.ancestors(id)
        .take(3)
        .find(|&a| doc.is_tag(a, "a"))
        .is_some_and(|a| {
            let href = doc
                .attr_atom(a, &local_name!("href"))
                .unwrap_or("")
                .to_ascii_lowercase();
            !PEOPLE.iter().any(|p| href.contains(p))
        })
}

/// What separates a date from a name in one text ("Dec. 19, 2025 · Ann Lee").
const SEPARATORS_OF_A_DATELINE: [&str; 4] = [" · ", " | ", " • ", " — "];

/// A stricter [`is_name`]: two to four words, each capitalised (or an initial, or a
/// particle such as "van"), no month or weekday, no word a page's furniture uses.
fn looks_like_a_person(s: &str) -> bool {
    const PARTICLES: [&str; 8] = ["van", "von", "de", "der", "da", "di", "la", "le"];
    const NOT_NAMES: [&str; 17] = [
        "with",
        "read",
        "share",
        "min",
        "minute",
        "minutes",
        "news",
        "home",
        "blog",
        "posted",
        "updated",
        "published",
        "comments",
        "by",
        "the",
        "and",
        "team",
    ];
    let words: Vec<&str> = s.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && is_name(s)
        && !s.contains(['&', '/', '(', ')', '@', '#', '!', '?'])
        && words.iter().all(|w| {
            let bare = w.trim_end_matches(['.', ',']);
            !crate::dates::is_month_or_weekday(bare)
                && !NOT_NAMES.iter().any(|n| n.eq_ignore_ascii_case(bare))
                && (PARTICLES.contains(&bare)
                    || bare.starts_with(|c: char| c.is_uppercase())
                        && bare.chars().skip(1).all(char::is_alphabetic)
                    || bare.len() == 1 && bare.starts_with(|c: char| c.is_uppercase()))
        })
}

/// Whether a text says that what follows is when the page was last changed.
fn says_updated(t: &str) -> bool {
    let lower = t.to_lowercase();
    ["updated", "modified", "revised", "reviewed"]
        .iter()
        .any(|w| lower.contains(w))
}

/// [`texts`] with the text nodes' ids.
fn text_nodes<'d>(
    doc: &'d Document,
    ids: impl Iterator<Item = NodeId> + 'd,
) -> impl Iterator<Item = (NodeId, &'d str)> + 'd {
    ids.filter(|&id| doc.is_text(id))
        .map(|id| (id, trim(doc.text(id))))
        .filter(|(_, t)| !t.is_empty())
}

/// `s` without white space at either end, as [`str::trim`] cuts it, but reading bytes
/// where the ends are ASCII, as nearly all are: the readers near the headline and further
/// down trim every text node they pass, and decoding characters for it was a fifth of
/// their time.
fn trim(s: &str) -> &str {
    let t = s.trim_ascii();
    match (t.as_bytes().first(), t.as_bytes().last()) {
        // `trim_ascii` keeps the vertical tab, and a character outside ASCII at an end may
        // be white space too (U+00A0, U+3000): those few are trimmed by characters.
        (Some(&a), Some(&b)) if a >= 0x80 || b >= 0x80 || a == 0x0b || b == 0x0b => t.trim(),
        _ => t,
    }
}

/// The texts of the text nodes among `ids`, in their order, trimmed, blank ones left out:
/// what the readers near the headline and further down look through.
fn texts<'d>(
    doc: &'d Document,
    ids: impl Iterator<Item = NodeId> + 'd,
) -> impl Iterator<Item = &'d str> + 'd {
    text_nodes(doc, ids).map(|(_, t)| t)
}

#[cfg(test)]
mod byline_tests {
    use super::{byline, links_to_an_author_page, names_a_byline, surely_more_words};
    use chaff_dom::NodeId;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn trimming_by_bytes_agrees_with_trimming_characters(s in "[ \t\n\x0b\x0c\ra\u{a0}\u{3000}\u{e9}\u{85}]{0,12}") {
            prop_assert_eq!(super::trim(&s), s.trim());
        }
    }

    /// The rule as written in words: lower-case every name, then look for the words.
    fn by_the_words(value: &str) -> bool {
        value
            .to_ascii_lowercase()
            .split_ascii_whitespace()
            .any(|c| {
                (c.contains("byline") || c.contains("author"))
                    && !c.contains("authority")
                    && !c.contains("avatar")
                    && !c.contains("bio")
            })
    }

    #[test]
    fn every_author_label_starts_with_a_letter_the_line_reader_looks_at() {
        for label in super::AUTHOR_LABELS
            .iter()
            .chain(&["author", "authors", "author(s)"])
        {
            assert!(
                super::LABEL_STARTS.contains(&label.as_bytes()[0]),
                "{label}"
            );
        }
    }

    #[test]
    fn class_names_that_mark_a_byline() {
        assert!(names_a_byline("post-byline"));
        assert!(names_a_byline("x Author-Name"));
        assert!(!names_a_byline("author-avatar"));
        assert!(!names_a_byline("authority"));
        assert!(!names_a_byline("author-bio"));
        assert!(names_a_byline("author-bio byline"));
        assert!(!names_a_byline("auth or"));
    }

    #[test]
    fn a_marked_wrapper_of_many_words_gives_no_name_and_is_not_read_through() {
        let doc = chaff_dom::parse(
            "<div class=author-page><p>Jane Doe writes</p><p>about many things, at length here</p></div>\
             <span class=byline>By <b>Jane</b> Doe</span>"
                .as_bytes(),
        )
        .expect("parses");
        let ids: Vec<NodeId> = doc.ids().filter(|&id| doc.is_element(id)).collect();
        let wrapper = ids
            .iter()
            .copied()
            .find(|&id| doc.is_tag(id, "div"))
            .unwrap();
        let span = ids
            .iter()
            .copied()
            .find(|&id| doc.is_tag(id, "span"))
            .unwrap();
        // Two nodes of 3 and 6 words: at least 8, not more than 8.
        assert!(!surely_more_words(&doc, wrapper, 8));
        assert!(surely_more_words(&doc, wrapper, 7));
        let mut classes = chaff_dom::ClassMemo::new(&doc);
        assert_eq!(byline(&doc, wrapper, false, &mut classes), None);
        // "By ", "Jane", " Doe": four words counted apart, two joints, at least two.
        assert!(!surely_more_words(&doc, span, 2));
        assert_eq!(
            byline(&doc, span, false, &mut classes).as_deref(),
            Some("Jane Doe")
        );
    }

    proptest! {
        #[test]
        fn the_byte_scan_agrees_with_the_rule(value in "((author|byline|authority|avatar|bio|AUTHOR|ByLine|[a-z \t-]{0,3}))*") {
            prop_assert_eq!(names_a_byline(&value), by_the_words(&value));
        }

        #[test]
        fn an_author_page_is_found_as_two_searches_find_it(href in "(/author|/authors|s/|/|a|x){0,8}") {
            let two_searches = href.contains("/author/") || href.contains("/authors/");
            prop_assert_eq!(links_to_an_author_page(&href), two_searches);
        }
    }
}
