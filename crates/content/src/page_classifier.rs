//! The page's type as metadata: WCXB's seven kinds (article, collection, documentation,
//! forum, listing, product, service) for every page, whether or not its markup states one.
//!
//! Markup names a type on about a third of WCXB's pages and is right on three quarters of
//! those, so it is one input among many here, not the answer. Two models, stacked:
//!
//! - a naive Bayes over the words of the URL's path and host, the `<title>` and the
//!   description (binary counts, additive smoothing [`ALPHA`]): "docs", "forum", "shop",
//!   "services" in a URL or a title say much;
//! - per type, a small gradient-boosted tree ensemble (one against the rest) over numeric
//!   facts of the page ([`features`]: the URL's shape, schema.org and OpenGraph types,
//!   prices, counts of tags and class names, the main text's shape, which
//!   metadata fields the markup gave) and the naive Bayes's log-probabilities. When fitting,
//!   those log-probabilities come from naive Bayes models that did not see the row's domain
//!   ([`INNER_FOLDS`] domain-disjoint folds), so the trees learn how far to trust it on
//!   unseen sites.
//!
//! # What was compared, and what was kept
//!
//! Accuracy of `chaff-lab train-page-type`'s 5-fold domain-disjoint cross-validation on
//! wcxb-dev (1,497 pages, 1,300 domains; the markup alone states a type on 505 pages and is
//! right on 389, 26.0% of all pages). The same folds served every variant, so the kept
//! figure is the best of a small search on them and a little optimistic; WCXB's unseen pages
//! tell the rest.
//!
//! | variant | accuracy |
//! |---|---|
//! | numeric facts without sibling repeats and the main text's prose, years and months | 88.1% |
//! | those added; α 0.5, words of 2+ pages, 200 trees of depth 4 at rate 0.05 | 88.5% |
//! | the same, made cheaper (phrases and class words counted without overlaps, words as runs of non-blank bytes, sibling groups as runs of consecutive siblings) | 88.3% |
//! | phrases only in text nodes of 12 words or fewer (a third of the features' time) | 88.3% |
//! | month names by a byte check at word starts instead of an automaton | 88.2% |
//! | no month names at all | 87.8% |
//! | **kept**: sibling runs only under parents of 5+ children; 100 trees at rate 0.1 | **88.1%** |
//! | the same, class words in `class` only (not `id`) / matched in lower case only | 87.4% / 87.8% |
//! | plus the words of `h1`–`h3` in the naive Bayes | 87.6% |
//! | plus the first 100 words of the main text in the naive Bayes | 87.8% |
//! | α 1 / α 0.2 | 88.0% / 88.6% |
//! | words of 3+ / 5+ pages | 88.5% / 87.2% |
//! | 100 trees at 0.1 (half the model's size) / 400 at 0.05 / depth 6 | 87.6% / 88.0% / 88.0% |
//!
//! How far one deal of domains to folds is from another: the kept model scores 88.1%, 87.7%,
//! 88.6%, 87.9% and 88.3% under five deals, 88.14% on average (`chaff-lab train-page-type
//! --out M --deals 5`), so a difference of half a point on one deal is noise. Under the five
//! deals, α 0.2, 200 trees at rate 0.05, 200 trees of depth 3, λ 5 and a least child weight
//! of 5 all stay within 0.4 points of that mean. The figures above were measured before the
//! metadata read bylines and datelines from the page's text (`chaff_meta`): its facts
//! `has_authors` and `has_published` now say yes on more pages, and the model refitted on
//! them scores 87.9% on the usual deal, 87.88% on average over the five (87.2% to 88.2%).
//!
//! Later still (an author without a letter no longer counts), the same features score 88.2%
//! on the usual deal and 88.06% over the five. Three more groups were then added, each
//! measured over the five deals:
//!
//! | added | mean of five deals |
//! |---|---|
//! | none | 88.06% |
//! | headings `h1`–`h4` in or around a link (count, share of headings), `tel:`/`mailto:` links | 88.16% |
//! | those, and the rates of "we", "you" and "I" words in the main text (`pronouns`) | 88.26% |
//! | **kept**: those, and the share of the page's words the main text holds | **88.46%** (88.5% on the usual deal) |
//! | the kept features without the pronouns / without the links and headings | 88.14% / 88.18% |
//! | the kept features, 200 trees at rate 0.05 | 88.43% |
//!
//! The metadata then read more bylines, `<meta name="published">` and dates labelled as
//! published further down, so the facts `has_authors` and `has_published` say yes on more
//! pages; the built-in model was refitted by the recipe on them: 88.2% on the usual deal,
//! 88.31% over the five (88.1% to 88.6%). Refitted again when eight forum threads of
//! wcxb-dev gained their opening post as main text (their facts read that text): 87.9% on
//! the usual deal, 88.28% over the five.
//! Then tried on those facts, over the five deals, and not kept: the page's `class` names
//! (each name of letters, `-` and `_`, 3 to 30 bytes, once a page) as words of the naive
//! Bayes, 86.76% (they outnumber the URL's and the title's words and drown them); the same
//! names in a naive Bayes of their own whose seven log-probabilities join the trees' row,
//! 88.19% (both against 88.35%, measured before the labelled dates).
//!
//! Then the 43 stock phrases ("add to cart", "sort by", "reply", "table of contents"...)
//! counted in text nodes of 12 words or fewer were dropped: without them the five deals
//! score 88.26% against 88.28% (88.4% against 87.9% on the usual deal), while their
//! automaton's pass over about 12 MB of short texts on wcxb-dev's pages was a tenth of the
//! metadata's time. The kept model is that one, refitted by the recipe (its format version
//! 3 refuses the wider rows of version 2), and the title chooser was refitted on its types.
//!
//! Then the page's words, its link words and its prices were counted on the visible text
//! ([`PageFacts::view`], which the extraction has made already) instead of on every text
//! node outside scripts and styles: a whole string at a time instead of node by node, and
//! without the `<title>`, hidden elements and `noscript`'s links. The five deals score
//! 88.66% against 88.26% (88.3% against 88.4% on the usual deal), and the metadata's share
//! of plain-text time fell by about half a point (`chaff-lab bench output`, builds
//! alternated). The kept model is that one (format version 4: a version-3 model, fitted on
//! the old counts, is refused), and the title chooser was refitted on its types. Both were
//! refitted again when one wcxb-dev page stopped being hidden by its cover
//! (`chaff_dom::text::is_page_cover`): 88.2% on the usual deal, 88.64% over the five; and
//! again (2026-12-05) when a byline's bars stopped counting as words of a date line (so
//! `has_published` says yes on a few more pages): 88.4% on the usual deal, 88.63% over the
//! five; and once more when headings' permalink marks ("¶") left the main text: 88.6% on
//! the usual deal, 88.60% over the five (the usual deal's rise is the spread of a refit);
//! and when the metadata mended UTF-8 read as Latin-1 in six pages' descriptions and titles
//! (the naive Bayes reads their words): 88.1% on the usual deal, 88.48% over the five (88.1%
//! to 88.9%), the spread of a refit again. Then twice on 2026-12-06: when a page holding C1
//! controls came to be read again whole (`chaff_dom::mojibake`), 88.0% and 88.39%; and when
//! the content model was refitted on that text (the classifier reads the main text's share),
//! 88.3% and 88.43%; then when valid UTF-8 came to overrule a declared legacy encoding
//! (`chaff_dom::encoding`: four wcxb-dev pages read as UTF-8 instead of ISO-8859-1) and the
//! content model was refitted on it, 88.4% and 88.54%; and when the content model was refitted
//! on the suffix method's continuations (`chaff_suffix::mine`), 88.5% and 88.55%; and
//! (2026-12-07) when two store pages whose whole main region a lockdown app hides came to be
//! read (`chaff_dom::text::is_main_cover`) and the content model was refitted on them, 88.2%
//! and 88.60%.
//!
//! The first table's later rows trade a little accuracy for time. The walk is kept cheap
//! too (each distinct `class` value scanned once by stepping the words' automaton
//! byte by byte, runs of siblings compared by numbers,
//! children counted at their parent, tags compared as atoms, months and pronouns looked up
//! only where a word starts with one of their first letters, words counted in byte lanes).
//! Its share of the metadata's time is in MEASUREMENTS.md's cost row (`chaff-lab bench output`,
//! and a profile of it).
//!
//! Per type (recall, kept, usual deal): article 0.96, collection 0.78, documentation 0.84,
//! forum 0.88, listing 0.62, product 0.82, service 0.81. The misses are mostly service and
//! listing pages read as articles; several gold labels are debatable (a shop's terms and
//! conditions page is an "article", a buying guide a "collection").
//!
//! What it must not know: where the facts come from (the facade gathers them, see
//! [`PageFacts`]) or any data set; `chaff-lab train-page-type` is the recipe and prints the
//! domain-disjoint cross-validated accuracy.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use aho_corasick::Anchored;
use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use chaff_dom::{ClassMemo, Document, NodeId, NodeKind, SegmentCursor, TextView};
use markup5ever::{LocalName, local_name};
use rustc_hash::FxHasher;
use serde::{Deserialize, Serialize};

use crate::gbdt::{Gbdt, GbdtParams};
use crate::pagetype::{self, TYPES};

/// Additive smoothing of the naive Bayes.
pub const ALPHA: f32 = 0.5;
/// Folds (by domain) that give the trees out-of-domain naive Bayes inputs when fitting.
pub const INNER_FOLDS: usize = 5;
/// A word enters the naive Bayes when at least this many training pages have it.
pub const MIN_PAGES: usize = 2;
/// The floor of a naive Bayes log-probability (ln 1e-9).
const LOG_FLOOR: f32 = -20.723_267;

const FORMAT: &str = "chaff-page-type";
const VERSION: u32 = 4;
const BUILTIN_JSON: &str = include_str!("../model/page_type.json");

/// What the classifier reads of a page; the facade fills it from an extraction.
#[derive(Clone, Copy, Debug)]
pub struct PageFacts<'a> {
    /// The parsed page.
    pub doc: &'a Document,
    /// Its visible text ([`TextView::new`] of `doc`): the page's words, link words and
    /// prices are counted on it.
    pub view: &'a TextView,
    /// Its URL, when known.
    pub url: Option<&'a str>,
    /// The extracted main text.
    pub main_text: &'a str,
    /// The extraction's confidence.
    pub confidence: f32,
    /// Whether a comment section was found.
    pub has_comments: bool,
    /// The type the markup states, as a name of [`TYPES`].
    pub markup_type: Option<&'a str>,
    /// Whether the markup named authors, a publication date, a modification date, tags or
    /// categories.
    pub has_authors: bool,
    /// See `has_authors`.
    pub has_published: bool,
    /// See `has_authors`.
    pub has_modified: bool,
    /// See `has_authors`.
    pub has_tags: bool,
    /// The `<title>` as it is.
    pub page_title: Option<&'a str>,
    /// The markup's description.
    pub description: Option<&'a str>,
}

/// Path words of a URL that hint at a type.
const URL_WORDS: [&str; 71] = [
    "product",
    "products",
    "p",
    "dp",
    "item",
    "shop",
    "store",
    "buy",
    "forum",
    "forums",
    "thread",
    "threads",
    "t",
    "topic",
    "topics",
    "questions",
    "question",
    "q",
    "community",
    "discussion",
    "discussions",
    "docs",
    "doc",
    "documentation",
    "api",
    "reference",
    "guide",
    "guides",
    "manual",
    "learn",
    "tutorial",
    "wiki",
    "category",
    "categories",
    "collections",
    "collection",
    "c",
    "tag",
    "tags",
    "blog",
    "news",
    "article",
    "articles",
    "post",
    "posts",
    "services",
    "service",
    "solutions",
    "pricing",
    "about",
    "features",
    "list",
    "search",
    "jobs",
    "events",
    "recipes",
    "r",
    "comments",
    "library",
    "en",
    "en-us",
    "help",
    "support",
    "kb",
    "html",
    "php",
    "aspx",
    "index",
    "s",
    "shows",
    "watch",
];

/// schema.org types named by JSON-LD `@type`.
const LD_TYPES: [&str; 26] = [
    "product",
    "offer",
    "aggregaterating",
    "article",
    "newsarticle",
    "blogposting",
    "discussionforumposting",
    "qapage",
    "question",
    "itemlist",
    "collectionpage",
    "service",
    "organization",
    "faqpage",
    "techarticle",
    "breadcrumblist",
    "webpage",
    "localbusiness",
    "softwareapplication",
    "howto",
    "recipe",
    "event",
    "socialmediaposting",
    "searchresultspage",
    "apireference",
    "professionalservice",
];

const OG_TYPES: [&str; 7] = [
    "article", "product", "website", "blog", "video", "book", "profile",
];

/// Elements whose counts (log) and share of all elements are features.
const TAGS: [&str; 27] = [
    "article",
    "time",
    "pre",
    "code",
    "table",
    "form",
    "input",
    "button",
    "li",
    "a",
    "img",
    "h1",
    "h2",
    "h3",
    "p",
    "nav",
    "aside",
    "section",
    "select",
    "blockquote",
    "dl",
    "textarea",
    "iframe",
    "video",
    "figure",
    "ul",
    "ol",
];

/// The index of a tag in [`TAGS`], matched as an interned atom (an integer), so the compiler
/// can branch on it instead of comparing it with each of the 27 in turn (most elements, the
/// `div`s and `span`s, are none of them and went through all 27). The list is written twice,
/// here and in [`TAGS`]; a test holds them together.
fn tag_index(tag: &LocalName) -> Option<usize> {
    Some(match *tag {
        local_name!("article") => 0,
        local_name!("time") => 1,
        local_name!("pre") => 2,
        local_name!("code") => 3,
        local_name!("table") => 4,
        local_name!("form") => 5,
        local_name!("input") => 6,
        local_name!("button") => 7,
        local_name!("li") => 8,
        local_name!("a") => 9,
        local_name!("img") => 10,
        local_name!("h1") => 11,
        local_name!("h2") => 12,
        local_name!("h3") => 13,
        local_name!("p") => 14,
        local_name!("nav") => 15,
        local_name!("aside") => 16,
        local_name!("section") => 17,
        local_name!("select") => 18,
        local_name!("blockquote") => 19,
        local_name!("dl") => 20,
        local_name!("textarea") => 21,
        local_name!("iframe") => 22,
        local_name!("video") => 23,
        local_name!("figure") => 24,
        local_name!("ul") => 25,
        local_name!("ol") => 26,
        _ => return None,
    })
}

/// Substrings counted in the page's class and id attributes (any ASCII case).
// A class word's index is kept in a byte.
const _: () = assert!(CLASS_WORDS.len() <= 256);
const CLASS_WORDS: [&str; 47] = [
    "comment",
    "reply",
    "post",
    "thread",
    "forum",
    "product",
    "price",
    "cart",
    "basket",
    "sku",
    "rating",
    "review",
    "toc",
    "sidebar",
    "breadcrumb",
    "pagination",
    "card",
    "grid",
    "tile",
    "hero",
    "cta",
    "testimonial",
    "pricing",
    "author",
    "byline",
    "share",
    "related",
    "listing",
    "result",
    "filter",
    "facet",
    "sort",
    "docs",
    "api",
    "highlight",
    "code",
    "avatar",
    "vote",
    "answer",
    "question",
    "quote",
    "signature",
    "member",
    "user",
    "service",
    "feature",
    "contact",
];

const URL_FEATURES: usize = 9 + URL_WORDS.len();
const MARKUP_FEATURES: usize = LD_TYPES.len() + OG_TYPES.len() + 4;
const DOM_FEATURES: usize = 2 * TAGS.len() + 1 + CLASS_WORDS.len() + 7;
const MAIN_FEATURES: usize = 12;
const META_FEATURES: usize = 4 + TYPES.len() + 1 + 2 + 1;
const SHARE_FEATURES: usize = 1;

/// Width of the numeric row [`features`] writes.
pub const NUMERIC_WIDTH: usize =
    URL_FEATURES + MARKUP_FEATURES + DOM_FEATURES + MAIN_FEATURES + META_FEATURES + SHARE_FEATURES;

/// Width of a row of the trees: the numeric facts, then the naive Bayes's seven
/// log-probabilities.
pub const ROW_WIDTH: usize = NUMERIC_WIDTH + TYPES.len();

/// The numeric facts of a page, [`NUMERIC_WIDTH`] of them.
pub fn features(f: &PageFacts<'_>) -> Vec<f32> {
    let mut row = Vec::with_capacity(ROW_WIDTH);
    url_features(f.url.unwrap_or(""), &mut row);
    let dom = DomCounts::of(f.doc, f.view);
    markup_features(&dom, &mut row);
    dom_features(&dom, &mut row);
    let main_words = main_features(f.main_text, &mut row);
    meta_features(f, &mut row);
    // How much of the page's text the extraction kept: nearly all on an article, little
    // on a shop's front page.
    row.push(main_words as f32 / dom.words.max(1) as f32);
    debug_assert_eq!(row.len(), NUMERIC_WIDTH);
    row
}

fn flag(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

fn ln1p(n: usize) -> f32 {
    (n as f32).ln_1p()
}

/// The URL split by hand (no scheme needed): host, path, and whether it has a query.
fn url_parts(url: &str) -> (&str, &str, bool) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split('#').next().unwrap_or("");
    let (before_query, has_query) = match rest.split_once('?') {
        Some((b, q)) => (b, !q.is_empty()),
        None => (rest, false),
    };
    let (host, path) = match before_query.find('/') {
        Some(i) => (&before_query[..i], &before_query[i..]),
        None => (before_query, ""),
    };
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host);
    (host, path, has_query)
}

fn path_tokens(path: &str) -> impl Iterator<Item = &str> {
    path.split(['/', '-', '_', '.', '?', '=', '&'])
        .filter(|t| !t.is_empty())
}

fn url_features(url: &str, row: &mut Vec<f32>) {
    let (host, path, has_query) = url_parts(url);
    let host = host.to_ascii_lowercase();
    let path = path.to_ascii_lowercase();
    let trimmed = path.trim_end_matches('/');
    let last = trimmed.rsplit('/').next().unwrap_or("");
    let digit_runs = path
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .count();
    let year = path.split('/').any(|s| {
        s.len() == 4
            && (s.starts_with("19") || s.starts_with("20"))
            && s.bytes().all(|b| b.is_ascii_digit())
    }) && path.len() > 6;
    row.push(trimmed.matches('/').count() as f32);
    row.push(flag(has_query));
    row.push(digit_runs as f32);
    row.push(flag(year));
    row.push(path.len() as f32);
    row.push(last.len() as f32);
    row.push(last.split(['-', '_']).count() as f32);
    row.push(flag(
        [
            "docs.",
            "developer.",
            "dev.",
            "api.",
            "learn.",
            "help.",
            "support.",
        ]
        .iter()
        .any(|p| host.starts_with(p)),
    ));
    row.push(flag(
        [
            "forum",
            "community",
            "discuss",
            "stackexchange",
            "stackoverflow",
            "reddit",
        ]
        .iter()
        .any(|p| host.contains(p)),
    ));
    let tokens: HashSet<&str> = path_tokens(&path).collect();
    row.extend(URL_WORDS.iter().map(|w| flag(tokens.contains(w))));
}

/// What one walk over the document counts.
struct DomCounts {
    tags: [usize; TAGS.len()],
    elements: usize,
    classes: [usize; CLASS_WORDS.len()],
    /// Words of the visible text (runs of non-blank bytes).
    words: usize,
    /// Those of them inside links.
    link_words: usize,
    /// Prices in the visible text ([`prices`]).
    prices: usize,
    ld_types: HashSet<String>,
    og_type: String,
    product_itemtypes: usize,
    price_itemprops: usize,
    /// The longest run of siblings of one tag and class (under parents of five or more).
    max_repeat: usize,
    /// Groups of at least five such siblings.
    repeat_groups: usize,
    /// Headings (`h1`–`h4`) inside a link or holding one: the teasers of a listing.
    linked_headings: usize,
    /// Headings `h1`–`h4`.
    headings: usize,
    /// Links to `tel:` and `mailto:`.
    contact_links: usize,
}

/// The automaton of [`CLASS_WORDS`], built once. It matches ASCII letters in either case:
/// class names in upper case are rare, but matching them as written cost 0.3 points of
/// accuracy and saved no measurable time.
fn class_matcher() -> &'static DFA {
    static MATCHER: OnceLock<DFA> = OnceLock::new();
    MATCHER.get_or_init(|| {
        DFA::builder()
            .ascii_case_insensitive(true)
            .build(CLASS_WORDS)
            .expect("a fixed word list builds an automaton")
    })
}

/// Calls `hit` with the index into [`CLASS_WORDS`] of each class word in `text`, as
/// aho-corasick's standard non-overlapping search finds them (the match that ends first,
/// then the search starts afresh after it), stepping the automaton byte by byte.
///
/// Its searcher (`find_iter`) sets up and runs a search per match and one more per value,
/// a few hundred instructions each on class values of forty-odd bytes: over 200 wcxb-dev
/// pages the distinct class values' words took 32.8 M instructions that way, 6.5% of the
/// metadata's and Markdown's, and take 20.0 M this way. No class word ends another (a test
/// checks), so a match state names one word.
fn each_class_word(dfa: &DFA, text: &str, mut hit: impl FnMut(usize)) {
    let Ok(start) = dfa.start_state(Anchored::No) else {
        return;
    };
    let mut state = start;
    for &b in text.as_bytes() {
        state = dfa.next_state(Anchored::No, state, b);
        if dfa.is_special(state) {
            if dfa.is_match(state) {
                hit(dfa.match_pattern(state, 0).as_usize());
                state = start;
            } else if dfa.is_dead(state) {
                return;
            }
        }
    }
}

/// The class words in each distinct `class` value of a page, found once per value: a page
/// repeats its values (every item of a menu, every card of a listing), so a value's hits
/// are looked up by its number ([`chaff_dom::ClassId`]) instead of the automaton passing
/// over the same bytes again.
struct ClassHits {
    matcher: &'static DFA,
    /// Where each value's hits are in `hits`.
    ranges: ClassMemo<(u32, u32)>,
    /// The index into [`CLASS_WORDS`] of every hit, value after value.
    hits: Vec<u8>,
}

impl ClassHits {
    fn new(doc: &Document) -> ClassHits {
        ClassHits {
            matcher: class_matcher(),
            ranges: ClassMemo::new(doc),
            hits: Vec::new(),
        }
    }

    /// The indices into [`CLASS_WORDS`] of the words the `class` value of `id` contains,
    /// with repeats.
    fn of(&mut self, doc: &Document, id: NodeId) -> &[u8] {
        let (matcher, hits) = (self.matcher, &mut self.hits);
        let (start, end) = self.ranges.get(doc, id, |value| {
            let start = hits.len() as u32;
            each_class_word(matcher, value, |k| hits.push(k as u8));
            (start, hits.len() as u32)
        });
        &self.hits[start as usize..end as usize]
    }
}

impl DomCounts {
    /// Counts what one walk over `doc`'s elements shows; words, link words and prices are
    /// read off `view`, the page's visible text, a whole string at a time.
    fn of(doc: &Document, view: &TextView) -> DomCounts {
        let mut c = DomCounts {
            tags: [0; TAGS.len()],
            elements: 0,
            classes: [0; CLASS_WORDS.len()],
            words: 0,
            link_words: 0,
            prices: 0,
            ld_types: HashSet::new(),
            og_type: String::new(),
            product_itemtypes: 0,
            price_itemprops: 0,
            max_repeat: 0,
            repeat_groups: 0,
            linked_headings: 0,
            headings: 0,
            contact_links: 0,
        };
        let mut classes = ClassHits::new(doc);
        // Each node's element children (up to 255), for the runs of siblings. Counting each
        // element at its parent costs one write near the node just read; asking every
        // element whether it has five children chased sibling links through the node table,
        // a sixth of this walk's time.
        let mut children = vec![0u8; doc.len()];
        let mut link_segments = SegmentCursor::new(view, NodeId::ROOT);
        let mut open = OpenSpans::default();
        let mut i = 0u32;
        while (i as usize) < doc.len() {
            let id = NodeId(i);
            // Text is counted on the view, after the walk.
            if !matches!(doc.kind(id), NodeKind::Element) {
                i += 1;
                continue;
            }
            let tag = doc.tag_atom(id);
            if let Some(p) = doc.parent(id) {
                let n = &mut children[p.index()];
                *n = n.saturating_add(1);
            }
            if *tag == local_name!("script")
                || *tag == local_name!("style")
                || *tag == local_name!("template")
                || *tag == local_name!("noscript")
            {
                if *tag == local_name!("script")
                    && doc.attr(id, "type").is_some_and(|t| t.contains("ld+json"))
                {
                    for t in doc.descendants(id) {
                        ld_types(doc.text(t), &mut c.ld_types);
                    }
                }
                i = doc.subtree_end(id).0;
                continue;
            }
            c.element(doc, id, tag, &mut classes);
            if c.links_and_headings(doc, id, tag, &mut open) {
                // Outermost links come in document order, apart: the cursor moves along.
                c.link_words += words_under(doc, view, &mut link_segments, id);
            }
            i += 1;
        }
        c.words = ascii_words(view.text());
        c.prices = prices(view.text());
        // Only where a run of five could be are the children keyed.
        for (p, _) in children.iter().enumerate().filter(|(_, n)| **n >= 5) {
            c.repeats(doc, NodeId(p as u32));
        }
        c
    }

    /// Counts what one element's name and attributes show (one pass over the attributes,
    /// the class words of its `class` value looked up in `classes`).
    fn element(&mut self, doc: &Document, id: NodeId, tag: &LocalName, classes: &mut ClassHits) {
        self.elements += 1;
        if let Some(k) = tag_index(tag) {
            self.tags[k] += 1;
        }
        let mut og_type = false;
        for a in doc.attrs(id) {
            let value: &str = &a.value;
            if a.name == local_name!("id") {
                // An `id` is most often unique to its page: scanned, not remembered.
                each_class_word(classes.matcher, value, |k| self.classes[k] += 1);
            } else if a.name == local_name!("property") {
                og_type = value.eq_ignore_ascii_case("og:type");
            } else if a.name == local_name!("itemtype") {
                if contains_ignore_case(value, "schema.org/product") {
                    self.product_itemtypes += 1;
                }
            } else if a.name == local_name!("itemprop") && value.eq_ignore_ascii_case("price") {
                self.price_itemprops += 1;
            } else if a.name == local_name!("href")
                && *tag == local_name!("a")
                && is_contact_link(value)
            {
                self.contact_links += 1;
            }
        }
        if og_type && *tag == local_name!("meta") {
            self.og_type = doc.attr(id, "content").unwrap_or("").trim().to_lowercase();
        }
        for &k in classes.of(doc, id) {
            self.classes[usize::from(k)] += 1;
        }
    }

    /// Counts headings `h1`–`h4` inside a link or holding one (the teasers of a listing; an
    /// article's headings link nowhere). `open` is where the outermost link and heading
    /// around the walk end. (Links to `tel:` and `mailto:` are counted in [`Self::element`]'s
    /// pass over the attributes.) True when `id` opens an outermost link, whose words are
    /// then counted.
    fn links_and_headings(
        &mut self,
        doc: &Document,
        id: NodeId,
        tag: &LocalName,
        open: &mut OpenSpans,
    ) -> bool {
        let i = id.0;
        let mut opens_link = false;
        if *tag == local_name!("a") {
            if i >= open.link_end {
                open.link_end = doc.subtree_end(id).0;
                opens_link = true;
            }
            if i < open.heading_end && !open.heading_linked {
                open.heading_linked = true;
                self.linked_headings += 1;
            }
        } else if matches!(
            *tag,
            local_name!("h1") | local_name!("h2") | local_name!("h3") | local_name!("h4")
        ) && i >= open.heading_end
        {
            open.heading_end = doc.subtree_end(id).0;
            open.heading_linked = i < open.link_end;
            self.headings += 1;
            self.linked_headings += usize::from(open.heading_linked);
        }
        opens_link
    }

    /// Runs of consecutive element children of one tag and class under `id`, an element of
    /// five element children or more: the longest, and how many reach five (the cards of a
    /// listing, the posts of a thread). Tags compare as interned atoms and classes by their
    /// numbers ([`chaff_dom::ClassId`]).
    fn repeats(&mut self, doc: &Document, id: NodeId) {
        let mut last = None;
        let mut run = 0;
        for k in doc.element_children(id) {
            let key = (doc.tag_atom(k), doc.class_id(k));
            if last == Some(key) {
                run += 1;
            } else {
                self.close_run(run);
                last = Some(key);
                run = 1;
            }
        }
        self.close_run(run);
    }

    fn close_run(&mut self, run: usize) {
        self.max_repeat = self.max_repeat.max(run);
        if run >= 5 {
            self.repeat_groups += 1;
        }
    }
}

/// Where the outermost open link and heading of [`DomCounts::of`]'s walk end (node ids one
/// past their subtrees), and whether the open heading has been counted as linked.
#[derive(Default)]
struct OpenSpans {
    link_end: u32,
    heading_end: u32,
    heading_linked: bool,
}

/// The words of the visible text under `id` (a link): its text nodes' segments are side by
/// side in the view, so they are the words of one slice of it, the separators between the
/// segments included.
fn words_under(doc: &Document, view: &TextView, segments: &mut SegmentCursor, id: NodeId) -> usize {
    let segments = segments.under(doc, id);
    let (Some(a), Some(b)) = (segments.first(), segments.last()) else {
        return 0;
    };
    view.text()
        .get(a.start as usize..b.end as usize)
        .map_or(0, ascii_words)
}

/// Whether an `href` calls or mails (`tel:`, `mailto:`, any case).
fn is_contact_link(href: &str) -> bool {
    let h = href.trim_start().as_bytes();
    [&b"tel:"[..], b"mailto:"]
        .iter()
        .any(|p| h.len() > p.len() && h[..p.len()].eq_ignore_ascii_case(p))
}

/// Runs of bytes that are not ASCII blanks: words, without decoding the text. Counted as the
/// places where a blank is followed by something else (and a start that is not blank),
/// which needs no state from byte to byte, so the compiler does many bytes at once; it runs
/// over every text node of every page.
fn ascii_words(text: &str) -> usize {
    let b = text.as_bytes();
    let Some(&first) = b.first() else {
        return 0;
    };
    // Summed in byte lanes, 255 pairs at a time (no chunk's sum can overflow a byte):
    // widening every pair's flag to a `usize` took three times as long.
    let starts: usize = b
        .chunks(255)
        .zip(b[1..].chunks(255))
        .map(|(before, after)| {
            let n = before.iter().zip(after).fold(0u8, |n, (&x, &c)| {
                n.wrapping_add(u8::from(is_blank(x) & !is_blank(c)))
            });
            usize::from(n)
        })
        .sum();
    usize::from(!is_blank(first)) + starts
}

/// Whether `needle` (ASCII, lower case) occurs in `hay` regardless of ASCII case.
fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Currency signs (`$`, `€`, `£`, `¥`) followed by a digit, after at most one space; read
/// on bytes (the signs' UTF-8 sequences), so no text is decoded or copied, and only where a
/// sign's first byte is (found by `memchr`).
fn prices(text: &str) -> usize {
    let b = text.as_bytes();
    let digit_after = |k: usize| {
        b.get(k).is_some_and(u8::is_ascii_digit)
            || (b.get(k) == Some(&b' ') && b.get(k + 1).is_some_and(u8::is_ascii_digit))
    };
    let mut n = 0;
    for k in memchr::memchr3_iter(b'$', 0xC2, 0xE2, b) {
        let sign = match b[k] {
            b'$' => 1,
            0xC2 if matches!(b.get(k + 1), Some(0xA3 | 0xA5)) => 2,
            0xE2 if b.get(k + 1) == Some(&0x82) && b.get(k + 2) == Some(&0xAC) => 3,
            _ => 0,
        };
        n += usize::from(sign > 0 && digit_after(k + sign));
    }
    n
}

/// The values of every `"@type"` in a JSON-LD text (strings or arrays of strings), read
/// loosely so broken JSON still says what it names.
fn ld_types(text: &str, out: &mut HashSet<String>) {
    ld_type_names(text, type_key, str::to_lowercase, out);
}

/// [`ld_types`]' reading, with where the next key starts (`key`) and what becomes of a name
/// (`name`) given.
fn ld_type_names(
    text: &str,
    key: impl Fn(&str) -> Option<usize>,
    name: impl Fn(&str) -> String,
    out: &mut HashSet<String>,
) {
    let mut rest = text;
    while let Some(k) = key(rest) {
        rest = rest[k + 7..].trim_start();
        let Some(after) = rest.strip_prefix(':') else {
            continue;
        };
        let after = after.trim_start();
        let (body, tail) = if let Some(a) = after.strip_prefix('[') {
            a.split_once(']').unwrap_or((a, ""))
        } else if let Some(s) = after.strip_prefix('"') {
            s.split_once('"').unwrap_or((s, ""))
        } else {
            ("", after)
        };
        for raw in body.split(',') {
            let raw = raw.trim().trim_matches('"').trim();
            let kept = name(raw.rsplit('/').next().unwrap_or(raw));
            if !kept.is_empty() && kept.len() < 64 {
                out.insert(kept);
            }
        }
        rest = tail;
    }
}

/// Where the key `"@type"` starts in `text`, in any case of its ASCII letters: found from
/// the `@`s (`memchr`) rather than by lowercasing the whole script first. No character
/// lowercases into `"`, `@` or the letters of `type`, so this finds what a search of the
/// lowercased text would, at the same place relative to the delimiters around it.
fn type_key(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    memchr::memchr_iter(b'@', b).find_map(|i| {
        let key = i >= 1
            && b[i - 1] == b'"'
            && b.get(i + 1..i + 6)
                .is_some_and(|w| w.eq_ignore_ascii_case(b"type\""));
        key.then(|| i - 1)
    })
}

fn markup_features(dom: &DomCounts, row: &mut Vec<f32>) {
    row.extend(LD_TYPES.iter().map(|t| flag(dom.ld_types.contains(*t))));
    row.extend(OG_TYPES.iter().map(|t| flag(dom.og_type.starts_with(t))));
    row.push(dom.product_itemtypes as f32);
    row.push(dom.price_itemprops as f32);
    row.push(dom.prices as f32);
    row.push(ln1p(dom.prices));
}

fn dom_features(dom: &DomCounts, row: &mut Vec<f32>) {
    let all = dom.elements.max(1) as f32;
    for n in dom.tags {
        row.push(ln1p(n));
        row.push(n as f32 / all);
    }
    row.push(ln1p(dom.elements));
    row.extend(dom.classes.iter().map(|n| ln1p(*n)));
    row.push(ln1p(dom.words));
    row.push(dom.link_words as f32 / dom.words.max(1) as f32);
    row.push(ln1p(dom.max_repeat));
    row.push(ln1p(dom.repeat_groups));
    row.push(ln1p(dom.linked_headings));
    row.push(dom.linked_headings as f32 / dom.headings.max(1) as f32);
    row.push(ln1p(dom.contact_links));
}

/// The main text's shape: words (runs of non-blank bytes; ASCII blanks), non-blank lines,
/// mean words a line, share of short lines (under six words), question marks a line, share
/// of digits among characters, share of lines ending as sentences do, years (runs of four
/// digits from 19 or 20), words that start with a month's name.
///
/// Counts that need no state from byte to byte (characters, digits, question marks, each
/// line's words) are summed in byte lanes, years are looked for only where a `1` or a `2`
/// is (`memchr`) and months only where a blank precedes a month's first two letters
/// ([`month_words`]): one loop over every byte holding all of that state took a third
/// longer on wcxb-dev's whole-page texts and, within `chaff extract`, a tenth of reading
/// the metadata.
fn main_features(text: &str, row: &mut Vec<f32>) -> usize {
    let (mut words, mut lines, mut short, mut ended) = (0usize, 0usize, 0usize, 0usize);
    for line in text.split('\n') {
        let line_words = ascii_words(line);
        if line_words == 0 {
            continue;
        }
        words += line_words;
        lines += 1;
        short += usize::from(line_words < 6);
        let last = line.trim_end().as_bytes().last().copied();
        ended += usize::from(matches!(last, Some(b'.' | b'!' | b'?' | b':')));
    }
    let b = text.as_bytes();
    let (mut questions, mut digits, mut chars) = (0usize, 0usize, 0usize);
    for chunk in b.chunks(255) {
        let (q, d, c) = chunk.iter().fold((0u8, 0u8, 0u8), |(q, d, c), &x| {
            (
                q.wrapping_add(u8::from(x == b'?')),
                d.wrapping_add(u8::from(x.is_ascii_digit())),
                c.wrapping_add(u8::from(x & 0xC0 != 0x80)),
            )
        });
        questions += usize::from(q);
        digits += usize::from(d);
        chars += usize::from(c);
    }
    // A line break counted as a character, and the last line's end as one more.
    chars += 1;
    let digit_at = |k: usize| b.get(k).is_some_and(u8::is_ascii_digit);
    let years = memchr::memchr2_iter(b'1', b'2', b)
        .filter(|&k| {
            (k == 0 || !digit_at(k - 1))
                && matches!(&b[k..], [b'1', b'9', ..] | [b'2', b'0', ..])
                && digit_at(k + 2)
                && digit_at(k + 3)
                && !digit_at(k + 4)
        })
        .count();
    let n = lines.max(1) as f32;
    let months = month_words(b);
    row.push(ln1p(words));
    row.push(ln1p(lines));
    row.push(words as f32 / n);
    row.push(short as f32 / n);
    row.push(questions as f32 / n);
    row.push(digits as f32 / chars.max(1) as f32);
    row.push(ended as f32 / n);
    row.push(ln1p(years));
    row.push(ln1p(months));
    let per_word = 1.0 / words.max(1) as f32;
    row.extend(pronouns(text).map(|n| n as f32 * per_word));
    words
}

/// Words of `text` (runs of letters and digits, any byte outside ASCII taken as a letter:
/// "you'll" holds "you", "I'm" holds "I", "usé" is a word of its own) that are pronouns of
/// the first person plural (`we`, `our`, `ours`, `us`), the second person (`you`, `your`)
/// and the first person singular (`i`, `my`, `me`), any case.
/// A service page speaks as "we" to "you", a forum post and a blog as "I", a news story or
/// a manual mostly as none; on wcxb-dev's cross-validation the three rates add about 0.3
/// points of accuracy.
///
/// Read as [`month_words`] reads months: a branch-free pass flags, 64 bytes at a time, each
/// word start whose letter can begin a pronoun (`w`, `o`, `u`, `y`, `i`, `m`), and only those
/// are looked at. Splitting the text into trimmed words cost a sixth of the classifier's
/// time.
fn pronouns(text: &str) -> [usize; 3] {
    let b = text.as_bytes();
    let mut n = [0; 3];
    let opens = |x: u8| {
        let x = x | 0x20;
        (x == b'w') | (x == b'o') | (x == b'u') | (x == b'y') | (x == b'i') | (x == b'm')
    };
    let mut look = |k: usize| {
        if let Some(p) = pronoun_at(&b[k..]) {
            n[p] += 1;
        }
    };
    if b.first().is_some_and(|&x| opens(x)) {
        look(0);
    }
    if b.len() < 2 {
        return n;
    }
    // Flag k of a block: a word may start at byte 1 + 64 * block + k.
    let mut flags = [0u8; 64];
    for (block, (x, y)) in b[..b.len() - 1]
        .chunks(64)
        .zip(b[1..].chunks(64))
        .enumerate()
    {
        for (f, (&x, &y)) in flags.iter_mut().zip(x.iter().zip(y)) {
            *f = u8::from(!in_word(x) & opens(y));
        }
        flags[x.len()..].fill(0);
        for_each_flag(&flags, |k| look(1 + block * 64 + k));
    }
    n
}

/// Whether a byte continues a word for [`pronouns`]: an ASCII letter or digit, or any byte
/// of a character outside ASCII.
fn in_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() | (c >= 0x80)
}

/// Which of [`pronouns`]' three groups the word at the start of `rest` belongs to, if any.
/// The word's first four bytes are read as one number, folded to lower case (`| 0x20` turns
/// a byte into a lower-case ASCII letter only if it is a letter of either case) and cut to
/// the word's length, and compared with the pronouns' numbers. Copying and lowering the word
/// and comparing it as a slice took 136 instructions a candidate over 200 wcxb-dev pages'
/// 94,000 candidates (2.4% of the metadata's and Markdown's instructions); this way, 71.
fn pronoun_at(rest: &[u8]) -> Option<usize> {
    // Five bytes at once where the text has them (a copy of a fixed size, not a call).
    let head = match rest.first_chunk::<5>() {
        Some(five) => *five,
        None => {
            let mut head = [b' '; 5];
            for (h, &c) in head.iter_mut().zip(rest) {
                *h = c;
            }
            head
        }
    };
    let len = head.iter().position(|&c| !in_word(c)).unwrap_or(head.len());
    if !(1..=4).contains(&len) {
        return None;
    }
    let word = (u32::from_le_bytes([head[0], head[1], head[2], head[3]]) | 0x2020_2020)
        & (u32::MAX >> (8 * (4 - len)));
    // Each pronoun as the number its bytes make, zeros after them.
    const WE: u32 = u32::from_le_bytes(*b"we\0\0");
    const OUR: u32 = u32::from_le_bytes(*b"our\0");
    const OURS: u32 = u32::from_le_bytes(*b"ours");
    const US: u32 = u32::from_le_bytes(*b"us\0\0");
    const YOU: u32 = u32::from_le_bytes(*b"you\0");
    const YOUR: u32 = u32::from_le_bytes(*b"your");
    const I: u32 = u32::from_le_bytes(*b"i\0\0\0");
    const MY: u32 = u32::from_le_bytes(*b"my\0\0");
    const ME: u32 = u32::from_le_bytes(*b"me\0\0");
    match word {
        WE | OUR | OURS | US => Some(0),
        YOU | YOUR => Some(1),
        I | MY | ME => Some(2),
        _ => None,
    }
}

/// `u8::is_ascii_whitespace` as comparisons without a branch (space, tab, line feed, form
/// feed, return), so that loops over bytes calling it are done many bytes at once.
fn is_blank(c: u8) -> bool {
    (c == b' ') | ((c.wrapping_sub(b'\t') < 5) & (c != 0x0B))
}

/// Whether `x` and `y` are, in any case, the first two letters of a month's name (`ja`,
/// `fe`, `ma`, `ap`, `au`, `ju`, `se`, `oc`, `no`, `de`), by byte comparisons without a
/// branch: compared as arrays, the pairs
/// kept [`month_words`]' pass from being done many bytes at once (callgrind over 200
/// wcxb-dev pages: the metadata's and Markdown's instructions 1.2% fewer).
fn opens_month(x: u8, y: u8) -> bool {
    let (x, y) = (x | 0x20, y | 0x20);
    ((x == b'j') & ((y == b'a') | (y == b'u')))
        | ((x == b'f') & (y == b'e'))
        | ((x == b'm') & (y == b'a'))
        | ((x == b'a') & ((y == b'p') | (y == b'u')))
        | ((x == b's') & (y == b'e'))
        | ((x == b'o') & (y == b'c'))
        | ((x == b'n') & (y == b'o'))
        | ((x == b'd') & (y == b'e'))
}

/// Words of `b` that start with a month's name. A branch-free pass flags, 64 bytes at a
/// time, each blank followed by the first two letters of a month (`ja`, `fe`, `ma`, ...,
/// any case); only the few flagged places are looked up. Splitting the text into words to
/// look each one up took two and a half times as long, and so did an automaton over the
/// months' first three letters.
fn month_words(b: &[u8]) -> usize {
    let mut n = usize::from(starts_with_month(b));
    if b.len() < 3 {
        return n;
    }
    // Flag k of a block: a word may start at byte 1 + 64 * block + k.
    let (before, first, second) = (&b[..b.len() - 2], &b[1..b.len() - 1], &b[2..]);
    let mut flags = [0u8; 64];
    for (block, ((x, y), z)) in before
        .chunks(64)
        .zip(first.chunks(64))
        .zip(second.chunks(64))
        .enumerate()
    {
        for (f, ((&x, &y), &z)) in flags.iter_mut().zip(x.iter().zip(y).zip(z)) {
            *f = u8::from(is_blank(x) & opens_month(y, z));
        }
        flags[x.len()..].fill(0);
        for_each_flag(&flags, |k| {
            n += usize::from(starts_with_month(&b[1 + block * 64 + k..]));
        });
    }
    n
}

/// Calls `visit` with the index of every set flag (a byte other than 0) of a block, in
/// order. The flags are read eight at once: most blocks have none set.
fn for_each_flag(flags: &[u8; 64], mut visit: impl FnMut(usize)) {
    for (lane, eight) in flags.chunks_exact(8).enumerate() {
        let mut word = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
        while word != 0 {
            visit(lane * 8 + word.trailing_zeros() as usize / 8);
            word &= word - 1;
        }
    }
}

/// English month names (any ASCII case) a word may start with.
const MONTHS: [&[u8]; 12] = [
    b"january",
    b"february",
    b"march",
    b"april",
    b"may",
    b"june",
    b"july",
    b"august",
    b"september",
    b"october",
    b"november",
    b"december",
];

/// Whether a word starts with a month's name (checked only at word starts, on bytes): the
/// first three letters pick the month, so most words are turned down after one lookup.
fn starts_with_month(word: &[u8]) -> bool {
    let [a, b, c, ..] = word else {
        return false;
    };
    let month = match [a, b, c].map(u8::to_ascii_lowercase) {
        [b'j', b'a', b'n'] => 0,
        [b'f', b'e', b'b'] => 1,
        [b'm', b'a', b'r'] => 2,
        [b'a', b'p', b'r'] => 3,
        [b'm', b'a', b'y'] => 4,
        [b'j', b'u', b'n'] => 5,
        [b'j', b'u', b'l'] => 6,
        [b'a', b'u', b'g'] => 7,
        [b's', b'e', b'p'] => 8,
        [b'o', b'c', b't'] => 9,
        [b'n', b'o', b'v'] => 10,
        [b'd', b'e', b'c'] => 11,
        _ => return false,
    };
    let name = MONTHS[month];
    word.len() >= name.len() && word[..name.len()].eq_ignore_ascii_case(name)
}

fn meta_features(f: &PageFacts<'_>, row: &mut Vec<f32>) {
    row.push(flag(f.has_authors));
    row.push(flag(f.has_published));
    row.push(flag(f.has_modified));
    row.push(flag(f.has_tags));
    row.extend(TYPES.iter().map(|t| flag(f.markup_type == Some(*t))));
    row.push(flag(f.markup_type.is_none()));
    row.push(f.confidence);
    row.push(flag(f.has_comments));
    row.push(flag(f.page_title.is_some()));
}

/// The naive Bayes's words of a page: the URL's path words and host labels, and the words
/// of the `<title>` and the description, each once, tagged by where it was seen.
pub fn tokens(f: &PageFacts<'_>) -> Vec<String> {
    let (host, path, _) = url_parts(f.url.unwrap_or(""));
    let mut out: Vec<String> = Vec::new();
    // A word with its tag in front ("u:" + "docs"), in a string of the right size.
    let tagged = |tag: &str, word: &str| {
        let mut s = String::with_capacity(tag.len() + word.len());
        s.push_str(tag);
        s.push_str(word);
        s
    };
    let path = path.to_lowercase();
    out.extend(
        path_tokens(&path)
            .filter(|t| !t.bytes().all(|b| b.is_ascii_digit()))
            .map(|t| tagged("u:", t)),
    );
    out.extend(
        host.to_lowercase()
            .split('.')
            .filter(|t| !t.is_empty())
            .map(|t| tagged("h:", t)),
    );
    for (tag, text) in [("t:", f.page_title), ("d:", f.description)] {
        let text = text.unwrap_or("").to_lowercase();
        out.extend(
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(|w| tagged(tag, w)),
        );
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A multinomial naive Bayes over binary word counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NaiveBayes {
    /// Log prior of each type.
    pub log_prior: Vec<f32>,
    /// Per word, the log-probability of drawing it under each type (looked up by a fast
    /// hash, a few hundred times a page; written in word order, so a model file is the same
    /// for the same fit).
    #[serde(serialize_with = "in_word_order")]
    pub words: WordTable,
}

/// A word's log-probabilities under each type, by word.
pub type WordTable = HashMap<String, Vec<f32>, BuildHasherDefault<FxHasher>>;

fn in_word_order<S: serde::Serializer>(words: &WordTable, s: S) -> Result<S::Ok, S::Error> {
    words.iter().collect::<BTreeMap<_, _>>().serialize(s)
}

impl NaiveBayes {
    /// Fits on pages' word sets and types; words of fewer than [`MIN_PAGES`] pages are
    /// left out.
    pub fn fit(docs: &[&[String]], kinds: &[u8]) -> NaiveBayes {
        let k = TYPES.len();
        let mut pages_with: HashMap<&str, usize> = HashMap::new();
        for d in docs {
            for w in d.iter() {
                *pages_with.entry(w.as_str()).or_default() += 1;
            }
        }
        let vocab: BTreeMap<&str, usize> = {
            let mut v: Vec<&str> = pages_with
                .into_iter()
                .filter(|(_, n)| *n >= MIN_PAGES)
                .map(|(w, _)| w)
                .collect();
            v.sort_unstable();
            v.into_iter().enumerate().map(|(i, w)| (w, i)).collect()
        };
        let mut counts = vec![vec![0f32; vocab.len()]; k];
        let mut totals = vec![0f32; k];
        let mut class_pages = vec![0f32; k];
        for (d, &c) in docs.iter().zip(kinds) {
            class_pages[c as usize] += 1.0;
            for w in d.iter() {
                if let Some(&j) = vocab.get(w.as_str()) {
                    counts[c as usize][j] += 1.0;
                    totals[c as usize] += 1.0;
                }
            }
        }
        let n = docs.len().max(1) as f32;
        let v = vocab.len() as f32;
        let log_prior = class_pages.iter().map(|p| (p.max(1e-3) / n).ln()).collect();
        let words = vocab
            .iter()
            .map(|(w, &j)| {
                let logs = (0..k)
                    .map(|c| ((counts[c][j] + ALPHA) / (totals[c] + ALPHA * v)).ln())
                    .collect();
                ((*w).to_owned(), logs)
            })
            .collect();
        NaiveBayes { log_prior, words }
    }

    /// Normalised log-probabilities of each type, floored at ln 1e-9.
    pub fn log_proba(&self, words: &[String]) -> [f32; 7] {
        let mut out = [0f32; 7];
        if self.log_prior.len() != TYPES.len() {
            return out;
        }
        for (o, p) in out.iter_mut().zip(&self.log_prior) {
            *o = *p;
        }
        for w in words {
            if let Some(logs) = self.words.get(w) {
                for (o, l) in out.iter_mut().zip(logs) {
                    *o += *l;
                }
            }
        }
        let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let norm = max + out.iter().map(|x| (x - max).exp()).sum::<f32>().ln();
        for o in &mut out {
            *o = (*o - norm).max(LOG_FLOOR);
        }
        out
    }
}

/// One labelled page for fitting.
#[derive(Clone, Debug)]
pub struct Example {
    /// [`features`] of the page.
    pub numeric: Vec<f32>,
    /// [`tokens`] of the page.
    pub tokens: Vec<String>,
    /// Its type, an index of [`TYPES`].
    pub kind: u8,
    /// Its domain: rows of one domain never inform each other's naive Bayes inputs.
    pub domain: String,
}

/// A stable fold of a domain (FNV-1a of its name).
pub fn fold_of(domain: &str, folds: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in domain.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % folds.max(1) as u64) as usize
}

/// Parameters of the per-type ensembles.
pub fn params() -> GbdtParams {
    GbdtParams {
        trees: 100,
        max_depth: 4,
        learning_rate: 0.1,
        lambda: 1.0,
        min_child_weight: 2.0,
        min_gain: 0.0,
        bins: 64,
        subsample: 1.0,
        colsample: 1.0,
    }
}

/// The page-type classifier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageClassifier {
    /// File format tag.
    pub format: String,
    /// Format version.
    pub version: u32,
    /// The naive Bayes over words.
    pub words: NaiveBayes,
    /// Per type of [`TYPES`], the ensemble for "this type, not another".
    pub one_vs_rest: Vec<Gbdt>,
    /// Where the training rows came from.
    #[serde(default)]
    pub trained_on: String,
}

/// Why a page-type model was refused.
#[derive(Debug, thiserror::Error)]
#[error("page-type model: {0}")]
pub struct ModelError(String);

impl PageClassifier {
    /// The built-in model: fitted on all of wcxb-dev by `chaff-lab train-page-type`.
    pub fn builtin() -> &'static PageClassifier {
        static MODEL: OnceLock<PageClassifier> = OnceLock::new();
        MODEL.get_or_init(|| {
            PageClassifier::from_json(BUILTIN_JSON)
                .expect("the built-in page-type model is checked by a test")
        })
    }

    /// Reads and checks a model file (as `chaff-lab train-page-type` writes them; at most
    /// 64 MiB).
    pub fn load(path: &std::path::Path) -> Result<PageClassifier, ModelError> {
        const LIMIT: u64 = 64 << 20;
        let fail = |e: &dyn std::fmt::Display| ModelError(format!("{}: {e}", path.display()));
        let len = std::fs::metadata(path).map_err(|e| fail(&e))?.len();
        if len > LIMIT {
            return Err(fail(&format!(
                "{len} bytes, more than a model can be ({LIMIT})"
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| fail(&e))?;
        PageClassifier::from_json(&text).map_err(|e| fail(&e.0))
    }

    /// Reads and checks a model.
    pub fn from_json(json: &str) -> Result<PageClassifier, ModelError> {
        let m: PageClassifier =
            serde_json::from_str(json).map_err(|e| ModelError(e.to_string()))?;
        m.check()?;
        Ok(m)
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn check(&self) -> Result<(), ModelError> {
        if self.format != FORMAT || self.version != VERSION {
            return Err(ModelError(format!(
                "made as {} v{}, expected {FORMAT} v{VERSION}",
                self.format, self.version
            )));
        }
        if self.one_vs_rest.len() != TYPES.len() || self.words.log_prior.len() != TYPES.len() {
            return Err(ModelError("not one model per type".into()));
        }
        if self.words.words.values().any(|v| v.len() != TYPES.len()) {
            return Err(ModelError("a word without one probability per type".into()));
        }
        for m in &self.one_vs_rest {
            if m.features != ROW_WIDTH {
                return Err(ModelError("made for another row of features".into()));
            }
            m.check().map_err(ModelError)?;
        }
        Ok(())
    }

    /// Fits both models on labelled pages.
    pub fn fit(examples: &[Example], trained_on: &str) -> PageClassifier {
        let docs: Vec<&[String]> = examples.iter().map(|e| e.tokens.as_slice()).collect();
        let kinds: Vec<u8> = examples.iter().map(|e| e.kind).collect();
        let mut nb_inputs = vec![[0f32; 7]; examples.len()];
        for fold in 0..INNER_FOLDS {
            let (train, held): (Vec<usize>, Vec<usize>) = (0..examples.len())
                .partition(|&i| fold_of(&examples[i].domain, INNER_FOLDS) != fold);
            let nb = NaiveBayes::fit(
                &train.iter().map(|&i| docs[i]).collect::<Vec<_>>(),
                &train.iter().map(|&i| kinds[i]).collect::<Vec<_>>(),
            );
            for i in held {
                nb_inputs[i] = nb.log_proba(docs[i]);
            }
        }
        let mut rows = Vec::with_capacity(examples.len() * ROW_WIDTH);
        for (e, nb) in examples.iter().zip(&nb_inputs) {
            rows.extend_from_slice(&e.numeric);
            rows.extend_from_slice(nb);
        }
        let one_vs_rest = pagetype::fit_one_vs_rest(&rows, ROW_WIDTH, &kinds, &params());
        PageClassifier {
            format: FORMAT.into(),
            version: VERSION,
            words: NaiveBayes::fit(&docs, &kinds),
            one_vs_rest,
            trained_on: trained_on.into(),
        }
    }

    /// The probability of each type of [`TYPES`] (normalised to sum to one) from a page's
    /// numeric facts and words.
    pub fn probabilities(&self, numeric: &[f32], words: &[String]) -> [f32; 7] {
        let mut row = Vec::with_capacity(ROW_WIDTH);
        row.extend_from_slice(numeric);
        row.resize(NUMERIC_WIDTH, 0.0);
        row.extend_from_slice(&self.words.log_proba(words));
        pagetype::predict_one_vs_rest(&self.one_vs_rest, &row)
    }

    /// The most probable type of a page (an index of [`TYPES`]) and its probability.
    pub fn classify(&self, facts: &PageFacts<'_>) -> (u8, f32) {
        best(&self.probabilities(&features(facts), &tokens(facts)))
    }
}

/// The index and value of the largest probability (the first on ties).
pub fn best(p: &[f32; 7]) -> (u8, f32) {
    let mut k = 0;
    for (i, v) in p.iter().enumerate() {
        if *v > p[k] {
            k = i;
        }
    }
    (k as u8, p[k])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(html: &str) -> Document {
        chaff_dom::parse_str(html, &chaff_dom::ParseOptions::default()).unwrap()
    }

    fn counts_of(doc: &Document) -> DomCounts {
        DomCounts::of(doc, &TextView::new(doc))
    }

    fn facts<'a>(doc: &'a Document, view: &'a TextView, url: &'a str) -> PageFacts<'a> {
        PageFacts {
            doc,
            view,
            url: Some(url),
            main_text: "One line here?\nAnother line with six words in it",
            confidence: 0.5,
            has_comments: false,
            markup_type: Some("product"),
            has_authors: false,
            has_published: true,
            has_modified: false,
            has_tags: false,
            page_title: Some("Blue Widget | Shop"),
            description: None,
        }
    }

    #[test]
    fn the_row_has_its_width_and_counts_what_it_says() {
        let doc = parse(
            "<html><head><meta property='og:type' content='Product'>\
             <script type='application/ld+json'>{\"@type\": [\"Product\", \"Offer\"]}</script></head>\
             <body><div class='product-card price'><p>Add to cart for $ 12 or €3</p>\
             <a href=x>two words</a></div></body></html>",
        );
        let view = TextView::new(&doc);
        let f = facts(
            &doc,
            &view,
            "https://shop.example/products/blue-widget-2?x=1",
        );
        let row = features(&f);
        assert_eq!(row.len(), NUMERIC_WIDTH);
        // URL: depth 2, a query, one digit run, no year.
        assert_eq!(&row[..4], &[2.0, 1.0, 1.0, 0.0]);
        let words = URL_WORDS.iter().position(|w| *w == "products").unwrap();
        assert_eq!(row[9 + words], 1.0);
        let m = URL_FEATURES;
        assert_eq!(row[m], 1.0, "ld product");
        assert_eq!(row[m + 1], 1.0, "ld offer");
        assert_eq!(row[m + 3], 0.0, "ld article");
        assert_eq!(row[m + LD_TYPES.len() + 1], 1.0, "og product");
        assert_eq!(
            row[m + LD_TYPES.len() + OG_TYPES.len() + 2],
            2.0,
            "two prices"
        );
        // Main text: 2 lines, 10 words, one short line, one question mark.
        let t = URL_FEATURES + MARKUP_FEATURES + DOM_FEATURES;
        assert!((row[t + 2] - 5.0).abs() < 1e-6);
        assert!((row[t + 3] - 0.5).abs() < 1e-6);
        assert!((row[t + 4] - 0.5).abs() < 1e-6);
        // Link words: 2 of 10 visible words ("$" is one).
        let d = URL_FEATURES + MARKUP_FEATURES + DOM_FEATURES - 6;
        assert!((row[d] - 0.2).abs() < 1e-6, "{}", row[d]);
        // The main text's 10 words against the page's 10.
        assert_eq!(row[NUMERIC_WIDTH - 1], 1.0);
    }

    proptest::proptest! {
        #[test]
        fn a_month_is_found_as_a_plain_comparison_finds_it(word in "((jan|JUN|jul|may|Sep|dec|[a-z]{1,2})(uary|e|y|tember|ember|[a-z]{0,2}))") {
            let plain = MONTHS.iter().any(|m| {
                word.len() >= m.len() && word.as_bytes()[..m.len()].eq_ignore_ascii_case(m)
            });
            proptest::prop_assert_eq!(starts_with_month(word.as_bytes()), plain);
        }

        #[test]
        fn ld_types_are_those_a_search_of_the_lowercased_text_finds(text in "(\"@[tT][yY][pP][eE]\"|\"@type\" ?: ?|[\"\\[\\],:/ @a-zA-Z]|\u{130}|\u{3a3}|\u{391}|\u{212a}|'){0,40}") {
            let mut got = HashSet::new();
            ld_types(&text, &mut got);
            proptest::prop_assert_eq!(got, ld_types_of_lowercased(&text.to_lowercase()));
        }

        #[test]
        fn words_are_counted_as_splitting_counts_them(text in "[a \t\n\x0b\x0c\r\x08\x0e\u{e9}]{0,40}|[a \n]{250,800}") {
            proptest::prop_assert_eq!(ascii_words(&text), text.split_ascii_whitespace().count());
        }

        #[test]
        fn prices_are_counted_as_reading_the_characters_counts_them(text in "[$€£¥¢ 0-9a\u{e9}\u{2013}]{0,30}") {
            // Each sign, then a digit, or a space and a digit.
            let chars: Vec<char> = text.chars().collect();
            let digit = |k: usize| chars.get(k).is_some_and(char::is_ascii_digit);
            let plain = (0..chars.len())
                .filter(|&k| matches!(chars[k], '$' | '€' | '£' | '¥'))
                .filter(|&k| digit(k + 1) || (chars.get(k + 1) == Some(&' ') && digit(k + 2)))
                .count();
            proptest::prop_assert_eq!(prices(&text), plain);
        }

        #[test]
        fn class_words_memoised_are_the_automaton_s(values in proptest::collection::vec("(nav|menu|post|Post|PRODUCT|toc|sKu|comment|reply|card|cart|sort|docs|tile|postoc|carDocs|userating|[a-zA-Z0-9\u{e9}_-]{0,4}|product| ){0,8}", 1..12)) {
            let html: String = values
                .iter()
                .map(|v| format!("<div class=\"{v}\">x</div>"))
                .collect();
            let doc = chaff_dom::parse(html.as_bytes()).unwrap();
            let mut memo = ClassHits::new(&doc);
            let searcher = aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(CLASS_WORDS)
                .unwrap();
            let divs = doc.ids().filter(|&id| doc.is_tag(id, "div"));
            for (value, div) in values.iter().zip(divs) {
                let direct: Vec<u8> = searcher
                    .find_iter(value.as_str())
                    .map(|m| m.pattern().as_usize() as u8)
                    .collect();
                proptest::prop_assert_eq!(memo.of(&doc, div), &direct[..]);
                // An `id`'s words, stepped through the same way.
                let mut stepped = Vec::new();
                each_class_word(memo.matcher, value, |k| stepped.push(k as u8));
                proptest::prop_assert_eq!(stepped, direct);
            }
        }
    }

    /// The main text's shape as it was first counted, all state in one loop over the bytes:
    /// the reference [`main_features`] must agree with.
    fn main_features_byte_by_byte(text: &str) -> Vec<f32> {
        let is_year = |b: &[u8], start: usize, len: usize| {
            len == 4 && (b[start..].starts_with(b"19") || b[start..].starts_with(b"20"))
        };
        let (mut words, mut lines, mut short, mut ended) = (0usize, 0usize, 0usize, 0usize);
        let (mut questions, mut digits, mut chars, mut years) = (0usize, 0usize, 0usize, 0usize);
        let mut months = 0usize;
        for line in text.split('\n') {
            let b = line.as_bytes();
            let mut line_words = 0;
            let mut in_word = false;
            let mut digit_run = 0;
            let mut run_start = 0;
            for (k, &c) in b.iter().enumerate() {
                let blank = c.is_ascii_whitespace();
                if !blank && !in_word {
                    line_words += 1;
                    months += usize::from(starts_with_month(&b[k..]));
                }
                in_word = !blank;
                if c & 0xC0 != 0x80 {
                    chars += 1;
                }
                questions += usize::from(c == b'?');
                if c.is_ascii_digit() {
                    digits += 1;
                    if digit_run == 0 {
                        run_start = k;
                    }
                    digit_run += 1;
                } else {
                    years += usize::from(is_year(b, run_start, digit_run));
                    digit_run = 0;
                }
            }
            years += usize::from(is_year(b, run_start, digit_run));
            chars += 1;
            if line_words == 0 {
                continue;
            }
            words += line_words;
            lines += 1;
            short += usize::from(line_words < 6);
            let last = line.trim_end().as_bytes().last().copied();
            ended += usize::from(matches!(last, Some(b'.' | b'!' | b'?' | b':')));
        }
        let n = lines.max(1) as f32;
        vec![
            ln1p(words),
            ln1p(lines),
            words as f32 / n,
            short as f32 / n,
            questions as f32 / n,
            digits as f32 / chars.max(1) as f32,
            ended as f32 / n,
            ln1p(years),
            ln1p(months),
        ]
    }

    proptest::proptest! {
        #[test]
        fn the_main_text_shape_agrees_with_a_count_byte_by_byte(
            text in "((May|june|Dec|1999|2024|20245|x19|[a-z0-9 ?.:!\n\t\r\u{e9}\u{2019}]){0,60})|[a 1\n]{250,600}"
        ) {
            let mut row = Vec::new();
            main_features(&text, &mut row);
            // The pronoun rates after the shape are tested on their own.
            proptest::prop_assert_eq!(&row[..9], &main_features_byte_by_byte(&text)[..]);
        }
    }

    proptest::proptest! {
        #[test]
        fn the_main_text_shape_agrees_with_a_plain_count(text in "[a-z0-9 ?.\n\t]{0,200}") {
            let mut row = Vec::new();
            main_features(&text, &mut row);
            let lines: Vec<&str> = text
                .split('\n')
                .filter(|l| l.split_ascii_whitespace().next().is_some())
                .collect();
            let words: usize = lines.iter().map(|l| l.split_ascii_whitespace().count()).sum();
            let n = lines.len().max(1) as f32;
            proptest::prop_assert_eq!(row[0], ln1p(words));
            proptest::prop_assert_eq!(row[1], ln1p(lines.len()));
            let short = lines.iter().filter(|l| l.split_ascii_whitespace().count() < 6).count();
            proptest::prop_assert!((row[3] - short as f32 / n).abs() < 1e-6);
            let q = text.matches('?').count() as f32 / n;
            proptest::prop_assert!((row[4] - q).abs() < 1e-6);
            let years = text
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| t.len() == 4 && (t.starts_with("19") || t.starts_with("20")))
                .count();
            proptest::prop_assert_eq!(row[7], ln1p(years));
        }

        #[test]
        fn any_page_gives_a_full_finite_row(html in "(<[a-z]{1,6}( class=[a-z$ ]{0,8})?>|</[a-z]{1,6}>|[a-z $€0-9\"@:]{0,12}){0,40}") {
            let doc = parse(&html);
            let view = TextView::new(&doc);
            let row = features(&facts(&doc, &view, "https://x.example/a/b"));
            proptest::prop_assert_eq!(row.len(), NUMERIC_WIDTH);
            proptest::prop_assert!(row.iter().all(|x| x.is_finite()));
        }
    }

    #[test]
    fn words_across_the_byte_lanes_chunks_are_counted_once() {
        // Chunks of 255 pairs: a word starting at the last pair of a chunk, at the first
        // of the next, and one spanning the seam.
        for at in [253, 254, 255, 256, 509, 510] {
            let text = format!("{}w x", " ".repeat(at));
            assert_eq!(ascii_words(&text), 2, "a word after {at} blanks");
        }
        assert_eq!(ascii_words(&"a".repeat(600)), 1);
        assert_eq!(ascii_words(&"a ".repeat(300)), 300);
    }

    #[test]
    fn pronouns_are_whole_words_in_any_case() {
        // "We", "Our", "us": 3; "you", "Your", "you" of "you'll": 3; "I", "my", "ME", "I" of
        // "I'm": 4. "ourselves", "yours" and "x1we" are longer words, "use" and "mine" other
        // ones, and so is "usé".
        let text = "We think you know. Our team (and I) -- my view, \"ME\"! Your use of us; \
                    ourselves you'll yours mine I'm x1we usé";
        assert_eq!(pronouns(text), [3, 3, 4]);
        assert_eq!(pronouns(""), [0, 0, 0]);
        let mut row = Vec::new();
        let words = main_features("we you\nI x", &mut row);
        assert_eq!(words, 4);
        assert_eq!(&row[9..], &[0.25, 0.25, 0.25]);
    }

    #[test]
    fn no_class_word_ends_another() {
        // A match state of the automaton then names one word, the one `each_class_word`
        // reports.
        for w in CLASS_WORDS {
            for other in CLASS_WORDS.iter().filter(|o| **o != w) {
                assert!(!other.ends_with(w), "{w} ends {other}");
            }
        }
    }

    #[test]
    fn class_words_are_counted_without_overlaps_in_any_case() {
        let mut found = Vec::new();
        each_class_word(class_matcher(), "POSToc Sidebar-cartoon x-sku", |k| {
            found.push(CLASS_WORDS[k]);
        });
        // "post" ends before "toc" could, and the search starts afresh after it.
        assert_eq!(found, ["post", "sidebar", "cart", "sku"]);
    }

    proptest::proptest! {
        #[test]
        fn pronouns_agree_with_splitting_into_words(
            text in "((we|Our|ours|US|you|your|i|My|me|mine|é|x|WE|yOU|oUrS|[@`{~\\[\\]^_])[ .,'(\n1-]{0,2}){0,40}|[wI ]{100,300}"
        ) {
            let mut plain = [0; 3];
            for w in text.split(|c: char| c.is_ascii() && !c.is_ascii_alphanumeric()) {
                match w.to_ascii_lowercase().as_str() {
                    "we" | "our" | "ours" | "us" => plain[0] += 1,
                    "you" | "your" => plain[1] += 1,
                    "i" | "my" | "me" => plain[2] += 1,
                    _ => {}
                }
            }
            proptest::prop_assert_eq!(pronouns(&text), plain);
        }
    }

    #[test]
    fn words_links_and_prices_are_read_off_the_visible_text() {
        let c = counts_of(&parse(
            "<html><head><title>Not on the page</title></head><body>\
             <p>One <a href=/a>two <b>three</b> four</a> five</p>\
             <div style='display:none'><a href=/h>hidden link words</a> $5</div>\
             <a href=/b><span>six</span></a><p>costs $ 7 or €8</p></body></html>",
        ));
        // "One two three four five", "six", "costs $ 7 or €8"; of them "two three four"
        // and "six" in links; the hidden block and the title count for nothing.
        assert_eq!((c.words, c.link_words, c.prices), (11, 4, 2));
    }

    #[test]
    fn linked_headings_and_contact_links_are_counted() {
        let c = counts_of(&parse(
            "<html><body>\
             <h2><a href=/a>In a heading</a></h2>\
             <a href=/b><h3>Around a heading</h3></a>\
             <h2>Not linked</h2>\
             <h4><span><a href=/c>two links</a> <a href=/d>one heading</a></span></h4>\
             <h5><a href=/e>h5 is not counted</a></h5>\
             <a href=\"tel:+15550100\">call</a> <a href=\" MAILTO:x@example.org\">mail</a>\
             <a href=\"tel:\">no number</a> <a href=/telephone>page</a>\
             </body></html>",
        ));
        assert_eq!((c.headings, c.linked_headings, c.contact_links), (4, 3, 2));
        let mut row = Vec::new();
        dom_features(&c, &mut row);
        let k = DOM_FEATURES - 3;
        assert_eq!(row[k..], [ln1p(3), 0.75, ln1p(2)]);
    }

    #[test]
    fn runs_of_like_siblings_are_counted_under_parents_of_five_or_more() {
        let counts = |body: &str| {
            let c = counts_of(&parse(&format!("<html><body>{body}</body></html>")));
            (c.max_repeat, c.repeat_groups)
        };
        // Six cards of one class: a run of six, one group.
        let cards = "<div>".to_string() + &"<p class=c>x</p>".repeat(6) + "</div>";
        assert_eq!(counts(&cards), (6, 1));
        // Four like items and one of another class: runs of 4 and 1, no group.
        let items = "<ul>".to_string() + &"<li>x</li>".repeat(4) + "<li class=o>y</li></ul>";
        assert_eq!(counts(&items), (4, 0));
        // A script among the children is a child too, and breaks the run: 2, 1, 2.
        assert_eq!(
            counts("<div><i>1</i><i>2</i><script>s</script><i>3</i><i>4</i></div>"),
            (2, 0)
        );
        // A parent of four is not looked at; of five, it is.
        assert_eq!(
            counts(&("<div>".to_string() + &"<b>x</b>".repeat(4) + "</div>")),
            (0, 0)
        );
        assert_eq!(
            counts(&("<div>".to_string() + &"<b>x</b>".repeat(5) + "</div>")),
            (5, 1)
        );
        // Text between the siblings does not break a run.
        assert_eq!(
            counts(&("<div>".to_string() + &"<b>x</b> and ".repeat(5) + "</div>")),
            (5, 1)
        );
        // All on one page: the longest run and the groups over every parent.
        assert_eq!(counts(&format!("{cards}{items}{cards}")), (6, 2));
    }

    #[test]
    fn a_month_opens_with_one_of_the_pairs_in_any_case() {
        const MONTH_PAIRS: [[u8; 2]; 10] = [
            *b"ja", *b"fe", *b"ma", *b"ap", *b"au", *b"ju", *b"se", *b"oc", *b"no", *b"de",
        ];
        for x in 0..=255u8 {
            for y in 0..=255u8 {
                let listed = MONTH_PAIRS.contains(&[x | 0x20, y | 0x20]);
                assert_eq!(opens_month(x, y), listed, "{x:#x} {y:#x}");
            }
        }
    }

    #[test]
    fn tag_index_agrees_with_the_list() {
        for (k, t) in TAGS.iter().enumerate() {
            assert_eq!(tag_index(&LocalName::from(*t)), Some(k));
        }
        for other in [
            "div", "span", "h4", "main", "header", "footer", "b", "tr", "td", "svg",
        ] {
            assert_eq!(tag_index(&LocalName::from(other)), None, "{other}");
        }
    }

    /// The reading `ld_types` replaced: the whole script lowercased first, then searched for
    /// the key, names kept as they are. The reference of the property test.
    fn ld_types_of_lowercased(lower: &str) -> HashSet<String> {
        let mut out = HashSet::new();
        ld_type_names(lower, |s| s.find("\"@type\""), str::to_owned, &mut out);
        out
    }

    #[test]
    fn ld_types_are_read_from_strings_arrays_and_broken_json() {
        let mut out = HashSet::new();
        ld_types(
            r#"{"@type":"newsarticle","author":{"@type" : "person"}} {"@type": ["a","https://schema.org/b"] "#,
            &mut out,
        );
        ld_types(r#"{"@type": "unterminated"#, &mut out);
        ld_types(r#"{"@TYPE": "Schema.org/NewsArticle"}"#, &mut out);
        let mut v: Vec<_> = out.into_iter().collect();
        v.sort();
        assert_eq!(v, ["a", "b", "newsarticle", "person", "unterminated"]);
    }

    #[test]
    fn tokens_are_tagged_lowercased_and_unique() {
        let doc = parse("<p>x</p>");
        let view = TextView::new(&doc);
        let f = facts(&doc, &view, "http://Www.Shop.example:8080/Blue/blue-1/");
        assert_eq!(
            tokens(&f),
            [
                "h:example",
                "h:shop",
                "h:www",
                "t:blue",
                "t:shop",
                "t:widget",
                "u:blue"
            ]
        );
    }

    #[test]
    fn naive_bayes_matches_a_hand_computed_case() {
        // Two types seen: "a" pages of type 0, "b" of type 1; alpha 0.5, vocabulary {a, b}.
        let a = vec!["a".to_string()];
        let b = vec!["b".to_string()];
        let nb = NaiveBayes::fit(&[&a, &a, &b, &b], &[0, 0, 1, 1]);
        // P(a | 0) = (2 + .5) / (2 + 1) = 5/6; P(a | 1) = .5 / 3 = 1/6; priors equal.
        assert!((nb.words["a"][0] - (5f32 / 6.0).ln()).abs() < 1e-6);
        let p = nb.log_proba(&a);
        // The five unseen types keep a prior of 1e-3 / 4 pages each, and every type draws
        // "a" with probability 1/2 when it has no words. Posterior of type 0:
        // (1/2 · 1/2 · 5/6) / (1/2 · 1/2 · (5/6 + 1/6) + 5 · 1/4000 · 1/2) = (5/6) / 1.00125.
        assert!((p[0] - ((5f32 / 6.0) / 1.00125).ln()).abs() < 1e-4, "{p:?}");
        assert!((p[2] - (0.00025f32 / 1.00125).ln()).abs() < 1e-3, "{p:?}");
        assert_eq!(best(&p.map(f32::exp)).0, 0);
    }

    #[test]
    fn fitting_separates_two_kinds_and_the_model_round_trips() {
        let mut examples = Vec::new();
        for i in 0..40 {
            let kind = (i % 2) as u8 * 5; // article or product
            let mut numeric = vec![0.0; NUMERIC_WIDTH];
            numeric[0] = if kind == 5 { 3.0 } else { 1.0 };
            examples.push(Example {
                numeric,
                tokens: vec![if kind == 5 {
                    "u:shop".into()
                } else {
                    "u:blog".into()
                }],
                kind,
                domain: format!("d{i}.example"),
            });
        }
        let m = PageClassifier::fit(&examples, "test");
        let mut shop = vec![0.0; NUMERIC_WIDTH];
        shop[0] = 3.0;
        assert_eq!(best(&m.probabilities(&shop, &["u:shop".into()])).0, 5);
        assert_eq!(
            best(&m.probabilities(&vec![0.0; NUMERIC_WIDTH], &["u:blog".into()])).0,
            0
        );
        let back = PageClassifier::from_json(&m.to_json()).unwrap();
        assert_eq!(back.probabilities(&shop, &[]), m.probabilities(&shop, &[]));
    }

    #[test]
    fn a_wrong_model_is_refused() {
        assert!(PageClassifier::from_json("{}").is_err());
        let mut m = PageClassifier::builtin().clone();
        m.one_vs_rest.pop();
        assert!(PageClassifier::from_json(&m.to_json()).is_err());
        // A model of the third format (the same width, but the page's words counted on
        // every text node, not on the visible text) is refused by its version, not read
        // against rows that mean something else.
        let mut old = PageClassifier::builtin().clone();
        old.version = 3;
        let e = PageClassifier::from_json(&old.to_json())
            .unwrap_err()
            .to_string();
        assert!(e.contains("v3, expected chaff-page-type v4"), "{e}");
    }

    #[test]
    fn a_model_file_loads_and_a_bad_one_is_named() {
        let dir = std::env::temp_dir().join(format!("chaff-pt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.json");
        std::fs::write(&good, PageClassifier::builtin().to_json()).unwrap();
        assert_eq!(
            &PageClassifier::load(&good).unwrap(),
            PageClassifier::builtin()
        );
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{\"format\": 3").unwrap();
        let e = PageClassifier::load(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.json"), "{e}");
        assert!(PageClassifier::load(&dir.join("absent.json")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_builtin_model_loads() {
        assert_eq!(PageClassifier::builtin().one_vs_rest.len(), TYPES.len());
    }
}
