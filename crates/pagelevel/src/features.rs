//! DOM-node features for the templateness classifier (section 5.2).
//!
//! The paper's most discriminative features were: closeness to the page's margins, links per
//! word, the fraction of text in anchors, anchor size, the fraction of intra-site links and
//! visible characters over HTML characters; plus words shared with the title. Its positions
//! and areas came from a rendering engine. We have none by default, so position and area are
//! read off the document: a node's place in the page is the span of the visible text it holds
//! (first and last character, over the page's visible text), and its area is its visible
//! characters plus a fixed allowance per image or embedded media. A [`Geometry`] from a real
//! browser can be plugged in: when it knows a node's box, the margin and area features use it.
//!
//! Beyond the paper we add structure the markup states outright (the node's own tag and the
//! HTML5 sectioning elements above it), words in `class`/`id` that designers use for templates
//! (`nav`, `footer`, `sidebar`...) or content (`article`, `post`...), and text-shape measures
//! (words per text node, sentence punctuation per word) that tell prose from link lists, and
//! the prose measures of corpus cleaners: the share of stop words (jusText's main signal; the
//! list of the language whatlang reads in the page's first 2 KB, English when unsure or when
//! its stop words leave no doubt),
//! digits, capitals and sentence ends, and the size, stop-word share and link status of the
//! text just before and just after the node (boilerpipe's neighbour features).
//!
//! Everything is computed in two linear passes over the node ids (top-down flags, bottom-up
//! sums), never recursively.

use std::collections::HashMap;
use std::sync::LazyLock;

use rustc_hash::{FxHashMap, FxHashSet};

use chaff_dom::{ClassMemo, Document, NodeId, NodeKind, TextView};
use markup5ever::local_name;

/// Visible characters an image or other media element counts for in a node's area.
pub const MEDIA_CHARS: f64 = 80.0;

/// A node's box from a rendering engine, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// Node geometry from a real browser (none by default).
pub trait Geometry {
    /// The page's full extent.
    fn page(&self) -> Rect;
    /// A node's box, if it was rendered.
    fn rect(&self, id: NodeId) -> Option<Rect>;
}

/// Names of the features, in vector order (also stored in the model, so that a model trained
/// with another feature set is refused rather than misapplied).
pub const NAMES: &[&str] = &[
    "ln_chars",
    "ln_words",
    "chars_share",
    "start",
    "end",
    "margin",
    "center_dist",
    "links_per_word",
    "anchor_text_frac",
    "ln_anchor_words",
    "intra_frac",
    "has_links",
    "visible_over_html",
    "title_overlap",
    "ln_words_per_text",
    "punct_per_word",
    "depth",
    "dfs_position",
    "ln_media",
    "li_frac",
    "ln_inputs",
    "tag_nav",
    "tag_header",
    "tag_footer",
    "tag_aside",
    "tag_list",
    "tag_li",
    "tag_a",
    "tag_p",
    "tag_div",
    "tag_table",
    "tag_form",
    "tag_article",
    "tag_section",
    "tag_heading",
    "tag_span",
    "tag_body",
    "in_nav",
    "in_header",
    "in_footer",
    "in_aside",
    "in_article",
    "in_a",
    "in_li",
    "in_form",
    "cls_template",
    "cls_content",
    "cls_comment",
    "anc_template",
    "anc_content",
    "anc_comment",
    "margin_sq",
    "long_text_frac",
    "ln_elements",
    "is_text",
    "blk_links_per_word",
    "blk_anchor_text_frac",
    "blk_ln_chars",
    "blk_punct_per_word",
    "blk_long_text_frac",
    "blk_chars_share",
    "stop_frac",
    "blk_stop_frac",
    "digit_frac",
    "sentence_end_frac",
    "prev_ln_words",
    "prev_stop_frac",
    "prev_in_a",
    "next_ln_words",
    "next_stop_frac",
    "next_in_a",
    "page_long_text_frac",
    "page_stop_frac",
    "cap_frac",
];

/// Number of features.
pub const COUNT: usize = NAMES.len();

const TEMPLATE_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "footer",
    "header",
    "masthead",
    "sidebar",
    "side",
    "widget",
    "related",
    "share",
    "sharing",
    "social",
    "ad",
    "ads",
    "advert",
    "advertisement",
    "banner",
    "breadcrumb",
    "breadcrumbs",
    "copyright",
    "promo",
    "sponsor",
    "sponsored",
    "subscribe",
    "newsletter",
    "login",
    "search",
    "tags",
    "toolbar",
    "popular",
    "trending",
    "more",
    "links",
    "skip",
    "cookie",
    "footnote",
    "utility",
    "topbar",
];
const CONTENT_WORDS: &[&str] = &[
    "article", "content", "post", "story", "entry", "body", "text", "main", "blog", "hentry",
    "prose", "single",
];
const COMMENT_WORDS: &[&str] = &["comment", "comments", "discussion", "replies", "respond"];

/// Which word lists a `class`/`id` value hits: bit 0 template, 1 content, 2 comment.
///
/// Runs for every element of every page, so a word is lower-cased into a stack buffer (the
/// words are ASCII: the value is split at every other character) and looked up once in a
/// table of the three lists, instead of an allocated copy compared with each list in turn.
fn class_hits(value: &str) -> u8 {
    static TABLE: LazyLock<FxHashMap<&'static [u8], u8>> = LazyLock::new(|| {
        let mut table = FxHashMap::default();
        for (bit, list) in [
            (1u8, TEMPLATE_WORDS),
            (2, CONTENT_WORDS),
            (4, COMMENT_WORDS),
        ] {
            for w in list {
                *table.entry(w.as_bytes()).or_insert(0) |= bit;
            }
        }
        table
    });
    let mut hits = 0u8;
    let mut lower = [0u8; 24];
    // Split by bytes: a character outside ASCII is a run of separators, leaving only empty
    // pieces between its bytes.
    for word in value.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
        let Some(buf) = lower.get_mut(..word.len()).filter(|_| !word.is_empty()) else {
            continue;
        };
        buf.copy_from_slice(word);
        buf.make_ascii_lowercase();
        hits |= TABLE.get(&*buf).copied().unwrap_or(0);
    }
    hits
}

/// [`class_hits`] of an element's `class` and `id`. A page repeats a few class values on
/// most of its elements, so each distinct one is split and looked up once (`seen`); ids are
/// mostly unique and looked up as they come.
fn node_class_hits(doc: &Document, id: NodeId, seen: &mut ClassMemo<u8>) -> u8 {
    seen.get(doc, id, class_hits) | doc.attr_atom(id, &local_name!("id")).map_or(0, class_hits)
}

/// `ln(1 + n)` for a count: most counts are small and repeat on every row, so those come
/// from a table (computed by the same expression, so the values are the same bits).
fn ln_1p_count(n: u32) -> f64 {
    static TABLE: LazyLock<Vec<f64>> =
        LazyLock::new(|| (0..LN_TABLE).map(|n| (1.0 + f64::from(n)).ln()).collect());
    match TABLE.get(n as usize) {
        Some(&v) => v,
        None => (1.0 + f64::from(n)).ln(),
    }
}

/// Counts below this have their `ln(1 + n)` in a table.
const LN_TABLE: u32 = 1024;

/// [`ln_1p_count`] of a character count held as a float (a whole number).
fn ln_1p_chars(chars: f64) -> f64 {
    if (0.0..f64::from(LN_TABLE)).contains(&chars) && chars.fract() == 0.0 {
        ln_1p_count(chars as u32)
    } else {
        (1.0 + chars).ln()
    }
}

fn is_media(tag: &str) -> bool {
    matches!(
        tag,
        "img" | "video" | "audio" | "iframe" | "embed" | "object" | "svg" | "canvas" | "picture"
    )
}

/// The features of one page: a row per element or text node that carries visible text or
/// media. Text nodes are classified too: article text often sits directly in a large wrapper
/// that also holds template, and only its own row can tell it apart.
#[derive(Clone, Debug, Default)]
pub struct PageFeatures {
    /// Element nodes that have a row, in document order.
    pub nodes: Vec<NodeId>,
    /// One row of [`COUNT`] features per entry of `nodes`.
    pub rows: Vec<[f32; COUNT]>,
    /// Area proxy of every node of the document (visible characters plus media allowance),
    /// by node id.
    pub area: Vec<f64>,
    /// Visible words under every node, by node id.
    pub words: Vec<u32>,
}

fn norm_word(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

fn host_of(url: &str) -> Option<String> {
    url::Url::parse(url).ok().and_then(|u| {
        u.host_str()
            .map(|h| h.trim_start_matches("www.").to_ascii_lowercase())
    })
}

/// The start of an absolute `http(s)` URL up to its host and port: the parser's work
/// grows with the path and query, which the host does not depend on. The authority ends
/// at the first `/`, `\\`, `?` or `#` after the slashes that follow the scheme; a URL with
/// a tab or line break (which the parser drops anywhere) is kept whole.
fn link_origin(abs: &str) -> &str {
    if abs.contains(['\t', '\n', '\r']) {
        return abs;
    }
    let Some(colon) = abs.find(':') else {
        return abs;
    };
    let rest = &abs[colon + 1..];
    let authority = rest.len() - rest.trim_start_matches(['/', '\\']).len();
    match rest[authority..].find(['/', '\\', '?', '#']) {
        Some(end) => &abs[..colon + 1 + authority + end],
        None => abs,
    }
}

/// Tells which links of a page stay on its site, remembering the answer for each origin
/// (scheme and authority): a page's absolute links mostly share a few hosts, and parsing a
/// URL costs more than the rest of a link's features.
struct SiteLinks<'a> {
    /// The page's host, `www.` dropped.
    page_host: Option<&'a str>,
    /// Whether each origin seen so far is on the site.
    origins: FxHashMap<Box<str>, bool>,
}

impl<'a> SiteLinks<'a> {
    fn new(page_host: Option<&'a str>) -> Self {
        SiteLinks {
            page_host,
            origins: FxHashMap::default(),
        }
    }

    /// Whether a link stays on the page's site: relative, or to the same host (ignoring
    /// `www.`) or one above or below it.
    fn is_intra(&mut self, href: &str) -> bool {
        let h = href.trim();
        if h.starts_with('#') || h.is_empty() {
            return true;
        }
        // The first 11 bytes (none when they end inside a character), compared without
        // case and without a lower-cased copy per link.
        let head = h.get(..h.len().min(11)).unwrap_or("").as_bytes();
        let scheme = |s: &str| {
            head.get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s.as_bytes()))
        };
        if scheme("javascript:") || scheme("mailto:") {
            return true;
        }
        if !(scheme("http:") || scheme("https:") || h.starts_with("//")) {
            return true;
        }
        // Only a scheme-relative link is copied (to give it a scheme); a remembered
        // origin is looked up without allocating.
        let abs: std::borrow::Cow<'_, str> = if h.starts_with("//") {
            format!("http:{h}").into()
        } else {
            h.into()
        };
        let origin = link_origin(&abs);
        if let Some(&known) = self.origins.get(origin) {
            return known;
        }
        let intra = match (host_of(origin), self.page_host) {
            (Some(a), Some(p)) => a == p || is_subdomain(&a, p) || is_subdomain(p, &a),
            _ => false,
        };
        self.origins.insert(origin.into(), intra);
        intra
    }
}

/// Whether `host` ends with `.` and `parent` (`news.example.com` of `example.com`).
fn is_subdomain(host: &str, parent: &str) -> bool {
    host.len() > parent.len()
        && host.ends_with(parent)
        && host.as_bytes()[host.len() - parent.len() - 1] == b'.'
}

#[derive(Clone, Copy, Default)]
struct Sums {
    chars: f64,
    words: u32,
    anchor_chars: f64,
    anchor_words: u32,
    links: u32,
    intra: u32,
    media: u32,
    title_hits: u32,
    text_nodes: u32,
    long_text_chars: f64,
    punct: u32,
    li: u32,
    elements: u32,
    inputs: u32,
    first: u32,
    last: u32,
    stop: u32,
    digit_words: u32,
    sentence_ends: u32,
    caps: u32,
}

/// The stop words of every language whatlang can name, by ISO 639-1 code: a language
/// without a list of its own takes English's. Built once, on first use, and read without a
/// lock.
static LISTS: LazyLock<HashMap<&'static str, FxHashSet<&'static str>>> = LazyLock::new(|| {
    let english = stop_words::lookup("en").unwrap_or(&[]);
    whatlang::Lang::all()
        .iter()
        .filter_map(|&l| iso639_1(l))
        .chain(std::iter::once("en"))
        .map(|code| {
            let words = stop_words::lookup(code).unwrap_or(english);
            (code, words.iter().copied().collect())
        })
        .collect()
});

/// The stop words of the page's language (English when it cannot be told), read from the
/// first 2 KB of its visible text.
fn stop_list(view: &TextView) -> &'static FxHashSet<&'static str> {
    static EMPTY: LazyLock<FxHashSet<&'static str>> = LazyLock::new(FxHashSet::default);
    let text = view.text();
    let mut cut = text.len().min(2048);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let sample = &text[..cut];
    let code = if plainly_english(sample) {
        "en"
    } else {
        whatlang_code(sample)
    };
    LISTS
        .get(code)
        .or_else(|| LISTS.get("en"))
        .unwrap_or(&EMPTY)
}

/// The list whatlang's reading of `sample` picks: its language's when it calls the guess
/// reliable, else English's.
fn whatlang_code(sample: &str) -> &'static str {
    whatlang::detect(sample)
        .filter(|i| i.is_reliable())
        .and_then(|i| iso639_1(i.lang()))
        .unwrap_or("en")
}

/// No stop word of any list is longer (checked by a test), so longer words are not looked up.
const STOP_WORD_MAX_BYTES: usize = 16;

/// `word` in lower case: itself when it has no capitals, else lower-cased into `buf`.
///
/// Most words are ASCII, whose lower case is `to_ascii_lowercase` byte by byte (the same
/// characters `char::to_lowercase` gives for them); decoding them as chars and lower-casing
/// char by char was about 2% of an extraction's instructions (callgrind, scrapinghub-aeb).
fn lowercase_in<'a>(word: &'a str, buf: &'a mut String) -> &'a str {
    if word.is_ascii() {
        if !word.bytes().any(|b| b.is_ascii_uppercase()) {
            return word;
        }
        buf.clear();
        buf.push_str(word);
        buf.make_ascii_lowercase();
        return buf;
    }
    if word.chars().any(char::is_uppercase) {
        buf.clear();
        buf.extend(word.chars().flat_map(char::to_lowercase));
        buf
    } else {
        word
    }
}

/// The word counts of one text segment, in one pass over its words (they were five).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WordCounts {
    /// Whitespace-separated words with a letter or digit.
    words: u32,
    /// Words starting with a capital.
    caps: u32,
    /// Words with an ASCII digit.
    digit_words: u32,
    /// Words (trimmed of what is not a letter or digit, lower-cased) of the `<title>`.
    title_hits: u32,
    /// Words (trimmed, lower-cased) of the stop list.
    stop: u32,
}

/// What a page's words are looked up in: the `<title>`'s words (lower-cased, 3+
/// characters) and the page's stop words.
struct WordLists<'a> {
    title: &'a FxHashSet<String>,
    stop: &'a FxHashSet<&'static str>,
}

impl WordCounts {
    /// Counts `text`'s words. A segment of ASCII (most of them) is split and tested byte by
    /// byte: the same words and the same counts as the char path, for a fraction of the
    /// decoding (a test compares the two paths on ASCII text).
    fn of(text: &str, lists: &WordLists<'_>, lower: &mut String) -> WordCounts {
        if text.is_ascii() {
            Self::of_ascii(text, lists, lower)
        } else {
            Self::of_chars(text, lists, lower)
        }
    }

    /// [`WordCounts::of`] an ASCII `text`, byte by byte.
    fn of_ascii(text: &str, lists: &WordLists<'_>, lower: &mut String) -> WordCounts {
        let mut counts = WordCounts::default();
        let mut start = 0;
        for w in text
            .as_bytes()
            .split(|&b| chaff_dom::text::is_ascii_blank(b))
        {
            let at = start;
            start += w.len() + 1;
            let Some(&head) = w.first() else { continue };
            let first = w.iter().position(u8::is_ascii_alphanumeric);
            let last = w.iter().rposition(u8::is_ascii_alphanumeric);
            counts.words += u32::from(first.is_some());
            counts.caps += u32::from(head.is_ascii_uppercase());
            counts.digit_words += u32::from(w.iter().any(u8::is_ascii_digit));
            let trimmed = match (first, last) {
                (Some(a), Some(b)) => text.get(at + a..=at + b).unwrap_or(""),
                _ => "",
            };
            counts.add_trimmed(trimmed, lists, lower);
        }
        counts
    }

    /// [`WordCounts::of`] any `text`, char by char.
    fn of_chars(text: &str, lists: &WordLists<'_>, lower: &mut String) -> WordCounts {
        let mut counts = WordCounts::default();
        for w in text.split_whitespace() {
            counts.words += u32::from(w.chars().any(char::is_alphanumeric));
            counts.caps += u32::from(w.chars().next().is_some_and(char::is_uppercase));
            counts.digit_words += u32::from(w.bytes().any(|b| b.is_ascii_digit()));
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            counts.add_trimmed(w, lists, lower);
        }
        counts
    }

    /// Counts a trimmed word's title and stop-word hits. An ASCII word is lower-cased once
    /// for both lookups (into the reused buffer, and only when it has capitals); another is
    /// lower-cased for the title as `norm_word` does and for the stop list char by char.
    fn add_trimmed(&mut self, w: &str, lists: &WordLists<'_>, lower: &mut String) {
        let ascii = w.is_ascii();
        // Title words have 3+ characters, so shorter ASCII words cannot be one; stop words
        // are short, so longer words are not looked up.
        let short = ascii && w.len() < 3;
        let may_be_title = !lists.title.is_empty() && !short;
        let may_be_stop = !w.is_empty() && w.len() <= STOP_WORD_MAX_BYTES;
        if ascii && (may_be_title || may_be_stop) {
            let folded = lowercase_in(w, lower);
            self.title_hits += u32::from(may_be_title && lists.title.contains(folded));
            self.stop += u32::from(may_be_stop && lists.stop.contains(folded));
            return;
        }
        if may_be_title {
            self.title_hits += u32::from(lists.title.contains(&w.to_lowercase()));
        }
        if may_be_stop {
            self.stop += u32::from(lists.stop.contains(lowercase_in(w, lower)));
        }
    }
}

/// Least words for [`plainly_english`] to decide.
const PLAIN_MIN_WORDS: u32 = 20;
/// Least share of English stop words for [`plainly_english`].
const PLAIN_MIN_ENGLISH: f32 = 0.1;
/// Share of other languages' stop words below which [`plainly_english`] may decide.
const PLAIN_MAX_OTHER: f32 = 0.05;

/// Whether a sample is English beyond doubt, so whatlang need not be asked: at least
/// [`PLAIN_MIN_WORDS`] words, at least [`PLAIN_MIN_ENGLISH`] of them English stop words and
/// fewer than [`PLAIN_MAX_OTHER`] stop words of the other languages with a list here (words
/// in no English list). English prose is a third to a half stop words, and a page's first
/// 2 KB, menus included, seldom under a tenth; another language's text quoting English, or
/// English beside another language, has that language's stop words too.
///
/// Why: whatlang scores the sample's trigrams against every profile of its script, about
/// 160 µs a page, a tenth of a scrapinghub-aeb page's extraction, and most pages chaff reads
/// are English. Only the list matters here, and every language but the thirteen of
/// `iso639_1` takes English's, so the rule has only to keep away from those thirteen. The
/// bounds were read off whatlang's answers on the training sets' pages (wcxb-dev, Dragnet,
/// CleanEval's development split, L3S-GN1, trafilatura-eval's 680 German and 105 other
/// non-English pages, KrdWrd CANOLA; 2026-12-07): every page whose list is another
/// language's has under 6% English stop words where it has under 5% of its own language's,
/// and at least 14% of its own where it has 10% English ones or more. Over all the shared
/// sets' pages (6,537, the test sets too) `chaff extract` writes the same records as with
/// whatlang alone. The first bounds tried, 20% and 10%, decided 3,904 of 4,891 English
/// pages of those sets; these decide 4,553.
fn plainly_english(sample: &str) -> bool {
    // Every list's words that are not English's (the languages without a list of their own
    // hold English's, which adds none).
    static OTHER: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
        let english = &LISTS["en"];
        LISTS
            .values()
            .flatten()
            .copied()
            .filter(|w| !english.contains(w))
            .collect()
    });
    let english = &LISTS["en"];
    let (mut words, mut en, mut other) = (0u32, 0u32, 0u32);
    let mut buf = String::new();
    for word in sample
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
    {
        words += 1;
        if word.len() > STOP_WORD_MAX_BYTES {
            continue;
        }
        let lower = lowercase_in(word, &mut buf);
        if english.contains(lower) {
            en += 1;
        } else if OTHER.contains(lower) {
            other += 1;
        }
    }
    words >= PLAIN_MIN_WORDS
        && en as f32 >= PLAIN_MIN_ENGLISH * words as f32
        && (other as f32) < PLAIN_MAX_OTHER * words as f32
}

fn iso639_1(lang: whatlang::Lang) -> Option<&'static str> {
    use whatlang::Lang::*;
    Some(match lang {
        Eng => "en",
        Deu => "de",
        Fra => "fr",
        Spa => "es",
        Ita => "it",
        Por => "pt",
        Nld => "nl",
        Rus => "ru",
        Swe => "sv",
        Dan => "da",
        Fin => "fi",
        Hun => "hu",
        Nob => "no",
        Tur => "tr",
        _ => return None,
    })
}

/// Which nodes get rows, given every node's area and words ([`PageFeatures::compute_where`]).
pub type Wanted<'a> = dyn Fn(&[f64], &[u32]) -> Option<Vec<bool>> + 'a;

impl PageFeatures {
    /// Computes the features of every element under `<body>` (the whole document when there
    /// is no body) that holds visible text or media.
    pub fn compute(
        doc: &Document,
        view: &TextView,
        url: Option<&str>,
        geometry: Option<&dyn Geometry>,
    ) -> PageFeatures {
        Self::compute_where(doc, view, url, geometry, &|_, _| None)
    }

    /// As [`PageFeatures::compute`], with rows only for the nodes `wanted` marks (by node
    /// id) given every node's area and words (`None`: every node that holds text or media).
    /// Rows take 74 floats each: a caller that reads a few nodes' rows need not hold all.
    pub fn compute_where(
        doc: &Document,
        view: &TextView,
        url: Option<&str>,
        geometry: Option<&dyn Geometry>,
        wanted: &Wanted<'_>,
    ) -> PageFeatures {
        let n = doc.len();
        let stop = stop_list(view);
        let mut lower = String::new();
        let total_chars = view.text().len().max(1) as f64;
        let page_host = url
            .and_then(host_of)
            .or_else(|| doc.declared_url().and_then(host_of));
        let mut links = SiteLinks::new(page_host.as_deref());
        let title_words: FxHashSet<String> = doc
            .title()
            .unwrap_or_default()
            .split_whitespace()
            .map(norm_word)
            .filter(|w| w.chars().count() >= 3)
            .collect();
        let lists = WordLists {
            title: &title_words,
            stop,
        };

        // Top-down flags: bit per ancestor context, and inherited class hits.
        const IN_NAV: u16 = 1;
        const IN_HEADER: u16 = 2;
        const IN_FOOTER: u16 = 4;
        const IN_ASIDE: u16 = 8;
        const IN_ARTICLE: u16 = 16;
        const IN_A: u16 = 32;
        const IN_LI: u16 = 64;
        const IN_FORM: u16 = 128;
        let mut ctx = vec![0u16; n];
        let mut anc_cls = vec![0u8; n];
        let mut own_cls = vec![0u8; n];
        let mut depth = vec![0u16; n];
        // Closest block-level element above each node (not the node itself).
        let mut block = vec![NodeId::ROOT; n];
        let mut max_depth = 1u16;
        let mut class_values = ClassMemo::new(doc);
        fn flag(b: bool) -> f64 {
            if b { 1.0 } else { 0.0 }
        }
        for id in doc.ids() {
            let i = id.index();
            if let Some(p) = doc.parent(id) {
                let pi = p.index();
                let mut c = ctx[pi];
                let mut a = anc_cls[pi] | own_cls[pi];
                if doc.is_element(p) {
                    c |= match doc.tag(p) {
                        "nav" => IN_NAV,
                        "header" => IN_HEADER,
                        "footer" => IN_FOOTER,
                        "aside" => IN_ASIDE,
                        "article" | "main" => IN_ARTICLE,
                        "a" => IN_A,
                        "li" => IN_LI,
                        "form" => IN_FORM,
                        _ => 0,
                    };
                    if doc.is_tag(p, "body") || doc.is_tag(p, "html") {
                        a = 0;
                    }
                }
                ctx[i] = c;
                anc_cls[i] = a;
                block[i] = if doc.is_element(p) && chaff_dom::text::is_block(doc.tag(p)) {
                    p
                } else {
                    block[pi]
                };
                depth[i] = depth[pi].saturating_add(1);
                max_depth = max_depth.max(depth[i]);
            }
            if doc.is_element(id) {
                own_cls[i] = node_class_hits(doc, id, &mut class_values);
            }
        }

        // Bottom-up sums.
        let mut sums = vec![
            Sums {
                first: u32::MAX,
                ..Sums::default()
            };
            n
        ];
        for seg in view.segments() {
            let i = seg.node.index();
            let Some(text) = view.text().get(seg.range()) else {
                continue;
            };
            let s = &mut sums[i];
            s.chars = text.len() as f64;
            s.text_nodes = 1;
            if text.len() >= 80 {
                s.long_text_chars = text.len() as f64;
            }
            s.punct = text
                .as_bytes()
                .windows(2)
                .filter(|w| matches!(w[0], b'.' | b'!' | b'?') && w[1] == b' ')
                .count() as u32
                + u32::from(text.ends_with(['.', '!', '?']));
            // As before, a node's last segment sets its words, capitals and title words,
            // while digit words and stop words add up over its segments.
            let counts = WordCounts::of(text, &lists, &mut lower);
            (s.words, s.caps, s.title_hits) = (counts.words, counts.caps, counts.title_hits);
            s.digit_words += counts.digit_words;
            s.stop += counts.stop;
            if ctx[i] & IN_A != 0 {
                s.anchor_chars = s.chars;
                s.anchor_words = s.words;
            }
            s.first = seg.start;
            s.last = seg.end;
            s.sentence_ends = u32::from(
                text.trim_end()
                    .ends_with(['.', '!', '?', ':', ';', '"', '\u{201d}']),
            );
        }
        for id in doc.ids().rev() {
            let i = id.index();
            if doc.is_element(id) {
                let tag = doc.tag(id);
                let s = &mut sums[i];
                s.elements += 1;
                if is_media(tag) {
                    s.media += 1;
                }
                match tag {
                    "a" => {
                        if let Some(h) = doc.attr(id, "href") {
                            s.links += 1;
                            if links.is_intra(h) {
                                s.intra += 1;
                            }
                        }
                    }
                    "li" => s.li += 1,
                    "input" | "select" | "textarea" | "button" => s.inputs += 1,
                    _ => {}
                }
            }
            if let Some(p) = doc.parent(id) {
                let c = sums[i];
                let s = &mut sums[p.index()];
                s.chars += c.chars;
                s.words += c.words;
                s.anchor_chars += c.anchor_chars;
                s.anchor_words += c.anchor_words;
                s.links += c.links;
                s.intra += c.intra;
                s.media += c.media;
                s.title_hits += c.title_hits;
                s.text_nodes += c.text_nodes;
                s.long_text_chars += c.long_text_chars;
                s.punct += c.punct;
                s.li += c.li;
                s.elements += c.elements;
                s.inputs += c.inputs;
                s.first = s.first.min(c.first);
                s.last = s.last.max(c.last);
                s.stop += c.stop;
                s.digit_words += c.digit_words;
                s.sentence_ends += c.sentence_ends;
                s.caps += c.caps;
            }
        }

        let area: Vec<f64> = sums
            .iter()
            .map(|s| s.chars + MEDIA_CHARS * f64::from(s.media))
            .collect();
        let words: Vec<u32> = sums.iter().map(|s| s.words).collect();

        let scope = doc.body().unwrap_or(NodeId::ROOT);
        let end = doc.subtree_end(scope);
        let segs = view.segments();
        let page = sums[scope.index()];
        let stop_frac = |s: &Sums| (f64::from(s.stop) / f64::from(s.words.max(1))).min(1.0);
        // The text segments just before and after a node's text, as boilerplate detectors
        // since boilerpipe read them: (ln words, stop-word share, in a link).
        let neighbour = |k: Option<usize>| -> [f64; 3] {
            match k.and_then(|k| segs.get(k)) {
                Some(seg) => {
                    let t = &sums[seg.node.index()];
                    [
                        ln_1p_count(t.words),
                        stop_frac(t),
                        flag(ctx[seg.node.index()] & IN_A != 0),
                    ]
                }
                None => [0.0, 0.0, 0.0],
            }
        };
        let page_rect = geometry.map(|g| g.page());
        let wanted = wanted(&area, &words);
        // Rows are 74 floats: sized once rather than grown by copying.
        let capacity = match &wanted {
            Some(w) => w.iter().filter(|&&x| x).count(),
            None => area.iter().filter(|&&a| a > 0.0).count(),
        };
        let mut nodes = Vec::with_capacity(capacity);
        let mut rows = Vec::with_capacity(capacity);
        for raw in scope.0..end.0 {
            let id = NodeId(raw);
            let kind = doc.kind(id);
            if !matches!(kind, NodeKind::Element | NodeKind::Text) || area[id.index()] <= 0.0 {
                continue;
            }
            if wanted.as_ref().is_some_and(|w| !w[id.index()]) {
                continue;
            }
            let i = id.index();
            let s = &sums[i];
            let b = &sums[block[i].index()];
            let (start, end_pos) = match (page_rect, geometry.and_then(|g| g.rect(id))) {
                (Some(pg), Some(r)) if pg.h > 0.0 => (
                    ((r.y - pg.y) / pg.h).clamp(0.0, 1.0),
                    ((r.y + r.h - pg.y) / pg.h).clamp(0.0, 1.0),
                ),
                _ if s.first != u32::MAX => (
                    f64::from(s.first) / total_chars,
                    f64::from(s.last) / total_chars,
                ),
                _ => (0.5, 0.5),
            };
            let margin = start.min(1.0 - end_pos).max(0.0);
            let wordsf = f64::from(s.words.max(1));
            let linksf = f64::from(s.links.max(1));
            let tag = if kind == NodeKind::Text {
                ""
            } else {
                doc.tag(id)
            };
            let html_len = doc
                .span(id)
                .map_or(s.chars.max(1.0), |r| r.len().max(1) as f64);
            let own = own_cls[i];
            let anc = anc_cls[i];
            let c = ctx[i];
            let (prev, next) = if s.first == u32::MAX {
                ([0.0; 3], [0.0; 3])
            } else {
                let a = segs.partition_point(|g| g.start < s.first);
                let b = segs.partition_point(|g| g.end <= s.last);
                (neighbour(a.checked_sub(1)), neighbour(Some(b)))
            };
            let v = [
                ln_1p_chars(s.chars),
                ln_1p_count(s.words),
                s.chars / total_chars,
                start,
                end_pos,
                margin,
                ((start + end_pos) / 2.0 - 0.5).abs(),
                (f64::from(s.links) / wordsf).min(2.0),
                if s.chars > 0.0 {
                    s.anchor_chars / s.chars
                } else {
                    0.0
                },
                (1.0 + f64::from(s.anchor_words) / linksf).ln(),
                if s.links > 0 {
                    f64::from(s.intra) / linksf
                } else {
                    0.5
                },
                flag(s.links > 0),
                (s.chars / html_len).min(1.0),
                (f64::from(s.title_hits) / wordsf).min(1.0),
                (1.0 + f64::from(s.words) / f64::from(s.text_nodes.max(1))).ln(),
                (f64::from(s.punct) / wordsf).min(1.0),
                f64::from(depth[i]) / f64::from(max_depth),
                f64::from(raw) / n.max(1) as f64,
                ln_1p_count(s.media),
                f64::from(s.li) / f64::from(s.elements.max(1)),
                ln_1p_count(s.inputs),
                flag(tag == "nav"),
                flag(tag == "header"),
                flag(tag == "footer"),
                flag(tag == "aside"),
                flag(matches!(tag, "ul" | "ol" | "dl" | "menu")),
                flag(tag == "li"),
                flag(tag == "a"),
                flag(tag == "p"),
                flag(tag == "div"),
                flag(matches!(tag, "table" | "tbody" | "tr" | "td" | "th")),
                flag(tag == "form"),
                flag(matches!(tag, "article" | "main")),
                flag(tag == "section"),
                flag(matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")),
                flag(matches!(tag, "span" | "b" | "i" | "em" | "strong" | "font")),
                flag(tag == "body"),
                flag(c & IN_NAV != 0),
                flag(c & IN_HEADER != 0),
                flag(c & IN_FOOTER != 0),
                flag(c & IN_ASIDE != 0),
                flag(c & IN_ARTICLE != 0),
                flag(c & IN_A != 0),
                flag(c & IN_LI != 0),
                flag(c & IN_FORM != 0),
                flag(own & 1 != 0),
                flag(own & 2 != 0),
                flag(own & 4 != 0),
                flag(anc & 1 != 0),
                flag(anc & 2 != 0),
                flag(anc & 4 != 0),
                margin * margin,
                if s.chars > 0.0 {
                    s.long_text_chars / s.chars
                } else {
                    0.0
                },
                ln_1p_count(s.elements),
                flag(kind == NodeKind::Text),
                (f64::from(b.links) / f64::from(b.words.max(1))).min(2.0),
                if b.chars > 0.0 {
                    b.anchor_chars / b.chars
                } else {
                    0.0
                },
                ln_1p_chars(b.chars),
                (f64::from(b.punct) / f64::from(b.words.max(1))).min(1.0),
                if b.chars > 0.0 {
                    b.long_text_chars / b.chars
                } else {
                    0.0
                },
                b.chars / total_chars,
                stop_frac(s),
                stop_frac(b),
                (f64::from(s.digit_words) / wordsf).min(1.0),
                f64::from(s.sentence_ends) / f64::from(s.text_nodes.max(1)),
                prev[0],
                prev[1],
                prev[2],
                next[0],
                next[1],
                next[2],
                if page.chars > 0.0 {
                    page.long_text_chars / page.chars
                } else {
                    0.0
                },
                stop_frac(&page),
                (f64::from(s.caps) / wordsf).min(1.0),
            ];
            let mut row = [0f32; COUNT];
            for (r, x) in row.iter_mut().zip(v) {
                *r = if x.is_finite() { x as f32 } else { 0.0 };
            }
            nodes.push(id);
            rows.push(row);
        }
        PageFeatures {
            nodes,
            rows,
            area,
            words,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn logs_from_the_table_are_the_computed_ones() {
        for n in (0..2 * LN_TABLE).chain([u32::MAX - 1, u32::MAX]) {
            let want = (1.0 + f64::from(n)).ln();
            assert_eq!(ln_1p_count(n).to_bits(), want.to_bits(), "{n}");
            assert_eq!(ln_1p_chars(f64::from(n)).to_bits(), want.to_bits(), "{n}");
        }
        for x in [0.5, 1023.5, 1e12, -0.5] {
            assert_eq!(ln_1p_chars(x).to_bits(), (1.0 + x).ln().to_bits(), "{x}");
        }
    }

    #[test]
    fn a_class_value_seen_before_has_the_same_hits() {
        let doc = chaff_dom::parse(
            br#"<div class="nav menu"></div><div class="nav menu" id="comments"></div><div class="nav menu"></div>"#,
        )
        .unwrap();
        let mut seen = ClassMemo::new(&doc);
        let divs: Vec<NodeId> = doc.ids().filter(|&id| doc.is_tag(id, "div")).collect();
        let hits: Vec<u8> = divs
            .iter()
            .map(|&d| node_class_hits(&doc, d, &mut seen))
            .collect();
        let nav = class_hits("nav menu");
        assert_eq!(hits, [nav, nav | class_hits("comments"), nav]);
        // The value was split once: a table that answers otherwise for it is believed.
        let first = divs[0];
        assert_eq!(seen.get(&doc, first, |_| 0xF0), nav);
    }

    use super::*;

    fn feats(html: &str, url: Option<&str>) -> (Document, PageFeatures) {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let f = PageFeatures::compute(&doc, &view, url, None);
        (doc, f)
    }

    fn row<'a>(doc: &Document, f: &'a PageFeatures, tag: &str) -> &'a [f32; COUNT] {
        let k = f.nodes.iter().position(|&n| doc.is_tag(n, tag)).unwrap();
        &f.rows[k]
    }

    fn get(r: &[f32; COUNT], name: &str) -> f32 {
        r[NAMES.iter().position(|&n| n == name).unwrap()]
    }

    #[test]
    fn no_stop_word_is_longer_than_the_bound() {
        let longest = LISTS.values().flatten().map(|w| w.len()).max();
        assert!(
            longest.is_some_and(|n| n <= STOP_WORD_MAX_BYTES),
            "{longest:?}"
        );
    }

    #[test]
    fn plainly_english_decides_english_prose_only() {
        let english = "The committee said on Tuesday that it would not be able to finish \
            the report before the end of the year, because most of the people who had \
            agreed to give evidence were still waiting for their documents.";
        let french = "Le comité a déclaré mardi qu'il ne pourrait pas terminer le rapport \
            avant la fin de l'année, parce que la plupart des personnes qui avaient accepté \
            de témoigner attendaient encore leurs documents. The end of the story.";
        let mixed = format!(
            "{english} Der Ausschuss sagte am Dienstag, dass er den Bericht nicht vor dem \
             Ende des Jahres fertigstellen könne, weil die meisten Zeugen noch auf ihre \
             Unterlagen warteten und nicht aussagen wollten."
        );
        let list = "Home News Sport Weather Contact Login Register Search Shop Cart Help";
        assert!(plainly_english(english));
        assert_eq!(whatlang_code(english), "en");
        assert!(!plainly_english(french));
        assert_eq!(whatlang_code(french), "fr");
        assert!(
            !plainly_english(&mixed),
            "German stop words: whatlang decides"
        );
        assert!(!plainly_english(list), "too few words and no stop words");
        assert!(!plainly_english(""));
    }

    #[test]
    fn plainly_english_counts_words_hand_computably() {
        // 20 words, 2 English stop words (the, of): exactly the least share.
        let two = "the w1 of w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18";
        assert!(plainly_english(two));
        // 1 of 20: below it.
        let one = two.replacen("the", "w0", 1);
        assert!(!plainly_english(&one));
        // 19 words: too few, whatever their share.
        assert!(!plainly_english(&two.replacen(" w18", "", 1)));
        // Case does not matter; one French stop word (le) of 20 is 5%, too many.
        let french = two.to_uppercase().replacen("W1", "le", 1);
        assert!(!plainly_english(&french));
        // Of 21 words, one French stop word is under 5%.
        assert!(plainly_english(
            &format!("{two} and").replacen("w1 ", "le ", 1)
        ));
    }

    #[test]
    fn stop_list_is_whatlangs_where_the_rule_decides() {
        let english = "<p>The committee said on Tuesday that it would not be able to finish \
            the report before the end of the year, because most of the people who had agreed \
            to give evidence were still waiting for their documents.</p>";
        let german = "<p>Der Ausschuss sagte am Dienstag, dass er den Bericht nicht vor dem \
            Ende des Jahres fertigstellen könne, weil die meisten Zeugen noch auf ihre \
            Unterlagen warteten und nicht aussagen wollten.</p>";
        for (html, code) in [(english, "en"), (german, "de")] {
            let doc = chaff_dom::parse(html.as_bytes()).expect("parses");
            let view = TextView::new(&doc);
            assert!(std::ptr::eq(stop_list(&view), &LISTS[code]), "{code}");
        }
    }

    #[test]
    fn the_vector_has_one_value_per_name() {
        assert_eq!(COUNT, 74);
    }

    #[test]
    fn link_features_of_a_menu_are_hand_computable() {
        let html = "<html><head><title>Big news today</title></head><body>\
            <ul><li><a href=/a>One two</a></li><li><a href=http://other.org/x>Three</a></li></ul>\
            <p>Big news arrived. It was big.</p></body></html>";
        let (doc, f) = feats(html, Some("http://www.site.com/p"));
        let ul = row(&doc, &f, "ul");
        // 2 links over 3 words; all of the text in anchors; one of two links intra-site.
        assert!((get(ul, "links_per_word") - 2.0 / 3.0).abs() < 1e-6);
        assert!((get(ul, "anchor_text_frac") - 1.0).abs() < 1e-6);
        assert!((get(ul, "intra_frac") - 0.5).abs() < 1e-6);
        assert!((get(ul, "ln_anchor_words") - (1.0f32 + 1.5).ln()).abs() < 1e-6);
        assert_eq!(get(ul, "tag_list"), 1.0);
        let p = row(&doc, &f, "p");
        assert_eq!(get(p, "links_per_word"), 0.0);
        // "Big", "news", "big." match title words (big, news, today): 3 of 6 words.
        assert!((get(p, "title_overlap") - 0.5).abs() < 1e-6);
        // Two sentence ends over six words.
        assert!((get(p, "punct_per_word") - 2.0 / 6.0).abs() < 1e-6);
        // The paragraph ends the page: no bottom margin.
        assert!(get(p, "margin") < 1e-6);
        assert!(get(p, "end") > 0.99);
    }

    #[test]
    fn class_words_and_context_flags() {
        let html = "<body><div class='site-footer'><nav><p>x y</p></nav></div>\
             <div id=main-content><p>z</p></div></body>";
        let (doc, f) = feats(html, None);
        let footer = row(&doc, &f, "div");
        assert_eq!(get(footer, "cls_template"), 1.0);
        let p = row(&doc, &f, "p");
        assert_eq!(get(p, "anc_template"), 1.0);
        assert_eq!(get(p, "in_nav"), 1.0);
        assert_eq!(class_hits("main-content"), 2);
        assert_eq!(class_hits("comment-list sidebar"), 5);
    }

    #[test]
    fn empty_nodes_have_no_row_and_media_has_area() {
        let (doc, f) = feats("<body><div></div><div><img src=a></div></body>", None);
        assert_eq!(f.nodes.iter().filter(|&&n| doc.is_tag(n, "div")).count(), 1);
        assert!(
            f.nodes.iter().all(|&n| doc.is_element(n)),
            "no text, no text rows"
        );
        let img = doc.ids().find(|&i| doc.is_tag(i, "img")).unwrap();
        assert_eq!(f.area[img.index()], MEDIA_CHARS);
    }

    #[test]
    fn prose_features_are_hand_computable() {
        let html = "<html><body><ul><li><a href=/a>Home</a></li><li>Rates 2024</li></ul>\
            <p>The cat sat on the mat. It was Tuesday.</p><div>Buy Now</div></body></html>";
        let (doc, f) = feats(html, None);
        let p = row(&doc, &f, "p");
        // Nine words, of which "the", "on", "the", "it", "was" are English stop words; one
        // of one text nodes ends a sentence; "The", "It", "Tuesday." start with capitals.
        assert!((get(p, "stop_frac") - 5.0 / 9.0).abs() < 1e-6);
        assert_eq!(get(p, "sentence_end_frac"), 1.0);
        assert!((get(p, "cap_frac") - 3.0 / 9.0).abs() < 1e-6);
        assert_eq!(get(p, "digit_frac"), 0.0);
        // The text before the paragraph is "Rates 2024" (two words, no stop word, not a
        // link); after it "Buy Now".
        assert!((get(p, "prev_ln_words") - 3f32.ln()).abs() < 1e-6);
        assert_eq!(get(p, "prev_stop_frac"), 0.0);
        assert_eq!(get(p, "prev_in_a"), 0.0);
        assert!((get(p, "next_ln_words") - 3f32.ln()).abs() < 1e-6);
        let ul = row(&doc, &f, "ul");
        // "Home" is the first text: nothing before; the list holds one digit word of three.
        assert_eq!(get(ul, "prev_ln_words"), 0.0);
        assert!((get(ul, "digit_frac") - 1.0 / 3.0).abs() < 1e-6);
        assert_eq!(get(ul, "sentence_end_frac"), 0.0);
        // The item after the link sees the link as its previous text.
        let li2 = (0..f.nodes.len())
            .filter(|&k| doc.is_tag(f.nodes[k], "li"))
            .nth(1)
            .unwrap();
        assert_eq!(get(&f.rows[li2], "prev_in_a"), 1.0);
        // "Now" is one of NLTK's English stop words: half of the next text.
        assert!((get(p, "next_stop_frac") - 0.5).abs() < 1e-6);
        // Page-wide: 6 stop words over 14 words; no text reaches 80 characters.
        assert!((get(p, "page_stop_frac") - 6.0 / 14.0).abs() < 1e-6);
        assert_eq!(get(p, "page_long_text_frac"), 0.0);
    }

    #[test]
    fn intra_site_links() {
        let intra = |href: &str, host: Option<&str>| SiteLinks::new(host).is_intra(href);
        assert!(intra("/x", Some("a.com")));
        assert!(intra("https://www.a.com/x", Some("a.com")));
        assert!(intra("//news.a.com/x", Some("a.com")));
        assert!(!intra("https://b.com/x", Some("a.com")));
        assert!(!intra("https://b.com/x", None));
        // A host that only ends with the page's host's letters is another site.
        assert!(!intra("https://pa.com/x", Some("a.com")));
        assert!(intra("https://a.com/x", Some("news.a.com")));
        assert!(!intra("https://a.com/x", Some("newsa.com")));
        // Schemes in any case; scripts, mail and other schemes stay on the site.
        assert!(!intra("HTTPS://b.com/x", Some("a.com")));
        assert!(!intra(" Http://b.com/x", Some("a.com")));
        assert!(intra("JavaScript:go()", Some("a.com")));
        assert!(intra("MAILTO:x@b.com", Some("a.com")));
        assert!(intra("ftp://b.com/x", Some("a.com")));
        assert!(intra("http", Some("a.com")));
        // The first 11 bytes end inside "é": no scheme is read.
        assert!(intra("https://bbé.com/x", Some("a.com")));
        // The remembered answer for an origin is the answer.
        let mut links = SiteLinks::new(Some("a.com"));
        for href in [
            "https://b.com/1",
            "https://a.com/2",
            "https://b.com/3?x",
            "https://a.com",
        ] {
            assert_eq!(links.is_intra(href), intra(href, Some("a.com")), "{href}");
        }
        assert_eq!(links.origins.len(), 2);
    }

    /// The lists as first written: each word lower-cased into a new string and looked up
    /// in each list.
    fn class_hits_by_lists(value: &str) -> u8 {
        let mut hits = 0u8;
        for word in value.split(|c: char| !c.is_ascii_alphanumeric()) {
            if word.is_empty() || word.len() > 24 {
                continue;
            }
            let w = word.to_ascii_lowercase();
            for (bit, list) in [
                (1u8, TEMPLATE_WORDS),
                (2, CONTENT_WORDS),
                (4, COMMENT_WORDS),
            ] {
                if list.contains(&w.as_str()) {
                    hits |= bit;
                }
            }
        }
        hits
    }

    use proptest::strategy::Strategy;

    proptest::proptest! {
        /// The host read from a link's origin is the host read from the whole link.
        #[test]
        fn a_links_origin_has_its_host(
            scheme in proptest::sample::select(vec!["http:", "https:", "HTTP:", "http:/", ""]),
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "http:", "https:", "HTTP:", "/", "//", "\\", "?", "#", "@", ":", ":8080",
                    "a.com", "www.B.org", "[::1]", "user", "%41", "x y", "\t", "\n", "é", ".",
                    "..", "path", "q=1",
                ]),
                0..10,
            )
        ) {
            let url = format!("{scheme}{}", pieces.concat());
            proptest::prop_assert_eq!(host_of(link_origin(&url)), host_of(&url), "{:?}", url);
        }

        /// The table gives what the lists give, for values made of list words in any case,
        /// other words, separators and non-ASCII letters.
        #[test]
        fn class_hits_are_those_of_the_lists(
            pieces in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        proptest::sample::select(TEMPLATE_WORDS.to_vec()).prop_map(String::from),
                        proptest::sample::select(CONTENT_WORDS.to_vec()).prop_map(String::from),
                        proptest::sample::select(COMMENT_WORDS.to_vec()).prop_map(String::from),
                        "[a-zA-Z0-9]{0,30}",
                        proptest::sample::select(vec!["-", "_", " ", "é", "ß"]).prop_map(String::from),
                    ],
                    proptest::bool::ANY,
                )
                    .prop_map(|(w, upper)| if upper { w.to_uppercase() } else { w }),
                0..8,
            )
        ) {
            let value = pieces.concat();
            proptest::prop_assert_eq!(class_hits(&value), class_hits_by_lists(&value));
        }

        /// Lower case char by char (`char::to_lowercase`; unlike `str::to_lowercase`, a
        /// final Σ stays σ), whether the word takes the ASCII path or has other letters (Σ,
        /// İ, ẞ, whose lower case is longer or shorter).
        #[test]
        fn lowercase_in_is_char_by_char(word in "[a-zA-Z0-9'@_-]{0,12}|[a-zA-ZΣσİıẞßÉé'-]{0,12}") {
            let mut buf = String::from("left over");
            let want: String = word.chars().flat_map(char::to_lowercase).collect();
            proptest::prop_assert_eq!(lowercase_in(&word, &mut buf), want);
        }
    }

    proptest::proptest! {
        /// On ASCII text the byte path counts what the char path counts, whatever the
        /// blanks (vertical tab and form feed too), punctuation, capitals and digits.
        #[test]
        fn ascii_word_counts_are_the_char_paths(
            text in "[ a-zA-Z0-9.,'!?()\\-\t\n\r\x0b\x0c]{0,80}",
            title in proptest::collection::vec("[a-z]{3,6}", 0..3),
        ) {
            let mut title_words: FxHashSet<String> = title.into_iter().collect();
            title_words.insert("the".into());
            let lists = WordLists { title: &title_words, stop: &LISTS["en"] };
            let mut lower = String::new();
            proptest::prop_assert_eq!(
                WordCounts::of_ascii(&text, &lists, &mut lower),
                WordCounts::of_chars(&text, &lists, &mut lower)
            );
        }
    }

    #[test]
    fn word_counts_by_hand() {
        let title_words: FxHashSet<String> = ["budget".to_string()].into_iter().collect();
        let mut lower = String::new();
        let counts = |t: &str, lower: &mut String| {
            let lists = WordLists {
                title: &title_words,
                stop: &LISTS["en"],
            };
            WordCounts::of(t, &lists, lower)
        };
        // "The", "(2024)", "Budget:", "--", "of", "it": six words, five with a letter or
        // digit; "The" and "Budget:" capitalised; one with a digit; one title word; "The",
        // "of", "it" stop words.
        let want = WordCounts {
            words: 5,
            caps: 2,
            digit_words: 1,
            title_hits: 1,
            stop: 3,
        };
        assert_eq!(
            counts(" The (2024)\tBudget:\x0b-- of\x0cit ", &mut lower),
            want
        );
        // The same words with an accent take the char path and count the same.
        let accented = counts("The (2024)\tBudget: -- of it été", &mut lower);
        assert_eq!(accented, WordCounts { words: 6, ..want });
    }

    #[test]
    fn lowercase_in_borrows_a_word_without_capitals() {
        let mut buf = String::from("left over");
        assert_eq!(lowercase_in("The", &mut buf), "the");
        assert_eq!(lowercase_in("ÉTÉ", &mut buf), "été");
        let plain = "plain";
        assert!(std::ptr::eq(lowercase_in(plain, &mut buf), plain));
    }
}
