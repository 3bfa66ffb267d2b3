//! A measured deviation from the paper: every element with at least two hyperlinks is scored by
//! a linear model over the six properties of Definition 6 *and* properties a demanding user
//! would expect a menu detector to look at (navigation semantics, header/footer context, link
//! order, link-text shortness, sibling-item homogeneity, internal links, links to share,
//! social or feed endpoints), and the best-scoring element is the menu; below a threshold the
//! page has no main menu.
//!
//! Why: with the paper's six properties no combination of its grid separates the main menu
//! from the other link lists of real pages (mega-menu panels outweigh the bar that holds them,
//! network bars and utility strips precede the section bar, table layouts have no `ul`); the
//! best *in-sample* combination of the grid reaches F1 57 on `menu-labels`. The paper's method
//! stays available unchanged ([`crate::Method::Paper`], [`crate::MenuParams::PAPER`]).
//!
//! The model ([`MenuModel`]) is one weight per feature ([`FEATURE_NAMES`]) and a null
//! threshold. It is fitted ([`fit`]) by a listwise softmax loss: on each labelled page the
//! probability mass the softmax of the scores puts on the elements that score F1 = 1 against
//! the gold menu (the gold element and its text-free wrappers) is maximised, with an L2
//! penalty; "no menu" is one more option of every page's softmax, with a learned constant
//! score, the null threshold ([`FitOptions::tune_null`] replaces it by the threshold that
//! maximises the training pages' mean F1: measured worse, see the crate docs).
//! Accuracy is only ever reported under site-wise cross-validation ([`cross_validate`]); the
//! figures, the failures left and the trade-off with generated sites are in the crate docs.
//!
//! Why the link-target features: a page without a main menu still has link lists, and the
//! ones that won on the development set's null pages were a sharing list, an author's
//! profile/mail/feed links and a text-size switcher — lists of two or three links that point
//! at share endpoints, feeds or nowhere, with one-letter or icon texts. Each link is
//! classified once, in the forward pass: a share, social-network, feed or mail endpoint
//! (`SOCIAL_MARKS`); "tiny" text (fewer than two alphanumeric characters). Their shares per
//! element, and "at most three links" (no labelled menu has fewer), are the last three
//! features; what each adds under cross-validation is in the crate docs.
//!
//! Cost: one forward and one reverse pass over the body's nodes (as [`NodeFeatures`]), one pass
//! over the elements for the ancestor context, and a dot product per element with two or more
//! links.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use chaff_dom::{Document, NodeId, NodeKind};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::eval::{PageScore, Summary, summarize};
use crate::features::{NONE, NodeFeatures, Readings, prop};
use crate::train::{TrainPage, site_folds};

/// Number of model features.
pub const FEATURES: usize = 38;

/// The features, in row order. All are roughly in `[0, 1]`.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "amplitude",
    "link_ratio",
    "text_ratio",
    "ul",
    "representative",
    "position",
    "nav_semantics",
    "nav_word",
    "main_word",
    "not_main_word",
    "in_header",
    "in_footer",
    "in_aside",
    "in_nav",
    "link_leaf_share",
    "log_links",
    "link_words",
    "log_items",
    "homogeneity",
    "items_with_links",
    "first_link_order",
    "page_link_share",
    "internal_share",
    "script_link_share",
    "wrapper",
    "mobile_word",
    "links_per_item",
    "list_tag",
    "li_tag",
    "table_tag",
    "in_not_main",
    "in_main",
    "page_leaf_share",
    "separators_per_link",
    "in_list_item",
    "social_share",
    "tiny_text_share",
    "few_links",
];

/// The model: a weight per feature of [`FEATURE_NAMES`] and the score below which the page
/// has no main menu.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenuModel {
    /// One weight per feature.
    #[serde(with = "weight_list")]
    pub weights: [f32; FEATURES],
    /// The best element's score must exceed this for the page to have a menu.
    pub null_threshold: f32,
}

impl MenuModel {
    /// The model fitted by [`fit`] to all 68 pages of `shared/datasets/menu-labels` and
    /// [`DEFAULT_SYNTH_SITES`] generated sites of [`DEFAULT_SYNTH_SEED`], 3 pages each, weighted
    /// [`DEFAULT_SYNTH_WEIGHT`] (`cargo run --release -p chaff-menu --example menu_eval --
    /// --model` prints it). Its accuracy on the labelled pages is in-sample; the figures in the
    /// crate docs are site-wise cross-validated, and measured on other generated sites.
    pub const DEFAULT: MenuModel = MenuModel {
        weights: [
            1.7027501,
            -0.984383,
            0.7804907,
            1.5531403,
            2.1981976,
            0.8604083,
            -0.14403884,
            1.9882263,
            1.3879546,
            -2.2057996,
            0.008964243,
            -0.9639439,
            0.095573105,
            2.5782683,
            -0.10000315,
            2.072113,
            -2.89573,
            2.4495015,
            1.7029252,
            -0.04101585,
            -2.219306,
            0.58108157,
            1.2547805,
            -1.1802498,
            -0.14145307,
            -0.002672662,
            -0.39621025,
            1.0904099,
            -0.614532,
            -0.1949611,
            -1.8648329,
            0.038293317,
            -0.5986183,
            0.91370827,
            -3.4220922,
            -2.7520165,
            -1.4604505,
            -2.2665446,
        ],
        null_threshold: 5.8506,
    };

    /// The score of one feature row.
    pub fn score(&self, x: &[f32; FEATURES]) -> f32 {
        x.iter().zip(&self.weights).map(|(a, b)| a * b).sum()
    }
}

impl Default for MenuModel {
    fn default() -> MenuModel {
        MenuModel::DEFAULT
    }
}

/// The weights as a JSON list (serde's arrays stop at 32 elements).
mod weight_list {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use super::FEATURES;

    pub fn serialize<S: Serializer>(w: &[f32; FEATURES], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(w.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f32; FEATURES], D::Error> {
        let v = Vec::<f32>::deserialize(d)?;
        let n = v.len();
        v.try_into()
            .map_err(|_| D::Error::custom(format!("expected {FEATURES} weights, got {n}")))
    }
}

/// Generated sites (`chaff-synth`) among the built-in model's fitting pages, 3 pages each.
pub const DEFAULT_SYNTH_SITES: usize = 6;
/// The seed of those sites (evaluations use other seeds).
pub const DEFAULT_SYNTH_SEED: u64 = 7;
/// The weight of a generated page in the fitting loss (a labelled page weighs 1).
pub const DEFAULT_SYNTH_WEIGHT: f64 = 0.7;

/// The scored elements of one page: those with at least two hyperlinks, with their features.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// The page's element tree and the paper's properties.
    pub features: NodeFeatures,
    /// Element numbers (in `features`) of the candidates, in document order.
    pub elems: Vec<u32>,
    /// Their feature rows.
    pub rows: Vec<[f32; FEATURES]>,
}

/// Words in ids and classes that mark the site's navigation.
const NAV_WORDS: &[&str] = &["nav", "menu"];
/// Words that mark a primary element.
const MAIN_WORDS: &[&str] = &[
    "main", "primary", "global", "site", "top", "section", "header",
];
/// Words that mark a link list that is not the main menu.
const NOT_MAIN_WORDS: &[&str] = &[
    "foot",
    "social",
    "share",
    "crumb",
    "util",
    "tool",
    "account",
    "login",
    "user",
    "related",
    "popular",
    "tag",
    "lang",
    "edition",
    "skip",
    "pagin",
    "sub",
    "secondary",
    "hat",
    "ad",
    "promo",
    "follow",
    "search",
    "legal",
    "quick",
    "more",
    "sidebar",
    "widget",
    "trend",
    "latest",
    "story",
    "stories",
    "article",
    "comment",
    "archive",
];
/// Words that mark a mobile or off-canvas copy.
const MOBILE_WORDS: &[&str] = &["mobile", "offcanvas", "off-canvas", "drawer", "hamburger"];
/// Words of an ancestor that puts an element in the page header.
const HEADER_WORDS: &[&str] = &["header", "masthead", "banner", "branding"];
/// Words of an ancestor that puts an element in the footer.
const FOOTER_WORDS: &[&str] = &["footer"];
/// Words of an ancestor that puts an element in a side column.
const ASIDE_WORDS: &[&str] = &["sidebar", "aside", "rail"];

/// Word classes of [`word_bits`], one bit each.
mod word {
    pub const NAV: u8 = 1;
    pub const MAIN: u8 = 2;
    pub const NOT_MAIN: u8 = 4;
    pub const MOBILE: u8 = 8;
    pub const HEADER: u8 = 16;
    pub const FOOTER: u8 = 32;
    pub const ASIDE: u8 = 64;
    /// Not a word: the tag `li` (a list item), tracked among the ancestor bits.
    pub const LIST_ITEM: u8 = 128;
}

/// The words of every class in one automaton, and per word (by pattern number) its class bit
/// and [`Bound`].
type WordMatcher = (AhoCorasick, Vec<(u8, Bound)>);

/// The [`WordMatcher`] of all word classes, built once.
fn word_matcher() -> Option<&'static WordMatcher> {
    static MATCHER: OnceLock<Option<WordMatcher>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let classes: [(&[&str], u8); 7] = [
                (NAV_WORDS, word::NAV),
                (MAIN_WORDS, word::MAIN),
                (NOT_MAIN_WORDS, word::NOT_MAIN),
                (MOBILE_WORDS, word::MOBILE),
                (HEADER_WORDS, word::HEADER),
                (FOOTER_WORDS, word::FOOTER),
                (ASIDE_WORDS, word::ASIDE),
            ];
            let mut words = Vec::new();
            let mut bits = Vec::new();
            for (ws, bit) in classes {
                for w in ws {
                    words.push(*w);
                    bits.push((bit, bound_of(w)));
                }
            }
            // The words are a few fixed ASCII literals, so building does not fail; if it did, no
            // word would match.
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&words)
                .ok()
                .map(|ac| (ac, bits))
        })
        .as_ref()
}

/// Where a word of [`word_matcher`] may match inside an id or class value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// Anywhere: long stems (`pagin`, `crumb`, `sidebar`), the two navigation words and `sub`,
    /// which sites glue to other words in lower case (`mainmenu`, `megamenu`, `blacksubnav`),
    /// and `ad` (see [`bound_of`]).
    Substring,
    /// At a word start only: four-letter words and `top`, which are often prefixes of the
    /// name (`language`, `toolbar`, `username`, `topnav`, `topbar`) but also end longer words
    /// (`slang`, `domain`, `website`, `trail`, `desktop`).
    Start,
    /// As a whole word (or its plural in `s`): the other words of three letters, which hide
    /// inside unrelated names (`hat` in `chat` and `what`, `tag` in `stage`).
    Whole,
}

/// The [`Bound`] of a word: by its length, with exceptions measured on `menu-labels` under
/// site-wise cross-validation. `nav`, `menu` and `sub` match anywhere: their compounds
/// (`subnav`, `submenu`, `subscribe`) are what they look like. `top` matches at a word start:
/// as a whole word it loses `topnav`-style names, and musicomh.com's menu when fitted to the
/// labelled pages alone (`chaff train-menu` CV F1 97.06 -> 95.59). `ad` stays a substring
/// although it fires inside `header`, `masthead`, `headline`, `thread` and `loading`: as a
/// whole word (or at a word start) it costs two sites (built-in recipe CV F1 95.59 -> 89.71:
/// cbsnews.com picks its network strip `ul.siteNav`, poynter.org its `#menu-above-header`),
/// because the model leans on those accidental hits to turn down header strips; the
/// substring also catches `addthis`, `leaderboard`, `advertisement` and `adsense`.
fn bound_of(word: &str) -> Bound {
    if matches!(word, "ad" | "sub") || NAV_WORDS.contains(&word) {
        Bound::Substring
    } else if word == "top" || word.len() == 4 {
        Bound::Start
    } else if word.len() <= 3 {
        Bound::Whole
    } else {
        Bound::Substring
    }
}

/// Whether byte offset `at` of `v` is a word boundary: the start or end of the value, next to
/// a non-letter (`-`, `_`, a digit, a space), or a lower-case letter followed by an upper-case
/// one (`mainNav`, `adSlot`).
fn is_boundary(v: &[u8], at: usize) -> bool {
    let (Some(&before), Some(&after)) = (at.checked_sub(1).and_then(|i| v.get(i)), v.get(at))
    else {
        return true;
    };
    !before.is_ascii_alphabetic()
        || !after.is_ascii_alphabetic()
        || (before.is_ascii_lowercase() && after.is_ascii_uppercase())
}

/// Whether a word that ends at byte `end` of `v` ends a word there, or after one more `s`
/// (a plural: `hats`, `tags`).
fn ends_word(v: &[u8], end: usize) -> bool {
    is_boundary(v, end) || (matches!(v.get(end), Some(b's' | b'S')) && is_boundary(v, end + 1))
}

/// Which word classes the `id` and `class` of `id` contain (ASCII case-insensitive matches, at
/// word boundaries where the word's [`Bound`] asks for them; no word contains whitespace, so
/// matching the whole value is matching its tokens), as [`word`] bits.
fn word_bits(doc: &Document, id: NodeId) -> u8 {
    let Some((ac, words)) = word_matcher() else {
        return 0;
    };
    let mut out = 0u8;
    for name in ["id", "class"] {
        if let Some(v) = doc.attr(id, name) {
            let b = v.as_bytes();
            for m in ac.find_overlapping_iter(v) {
                let Some(&(bit, bound)) = words.get(m.pattern().as_usize()) else {
                    continue;
                };
                let fits = match bound {
                    Bound::Substring => true,
                    Bound::Start => is_boundary(b, m.start()),
                    Bound::Whole => is_boundary(b, m.start()) && ends_word(b, m.end()),
                };
                if fits {
                    out |= bit;
                }
            }
        }
    }
    out
}

/// The host of an absolute or scheme-relative URL, without `www.`, lower-cased.
fn host_of(href: &str) -> Option<String> {
    let h = href.trim();
    let rest = if let Some(r) = h.strip_prefix("//") {
        r
    } else {
        let (scheme, r) = h.split_once("://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        r
    };
    let end = rest.find(['/', '?', '#', ':']).unwrap_or(rest.len());
    let host = rest[..end].to_ascii_lowercase();
    Some(host.strip_prefix("www.").unwrap_or(&host).to_owned())
}

/// How a link points: inside the site, outside it, or nowhere (script or fragment).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Internal,
    External,
    Script,
}

fn target(href: &str, site: Option<&str>) -> Target {
    let h = href.trim();
    let lower = h.get(..11).unwrap_or(h).to_ascii_lowercase();
    if h.is_empty() || h.starts_with('#') || lower.starts_with("javascript:") {
        return Target::Script;
    }
    match host_of(h) {
        None => {
            if lower.starts_with("mailto:") || lower.contains(':') && !lower.starts_with('/') {
                Target::External
            } else {
                Target::Internal
            }
        }
        Some(host) => match site {
            Some(s) if host == s => Target::Internal,
            _ => Target::External,
        },
    }
}

/// Ends the open link: it has "tiny" text when fewer than two alphanumeric characters.
fn close_link(open: &mut Option<(usize, u32)>, tiny: &mut [u32]) {
    if let Some((li, chars)) = open.take()
        && let Some(t) = tiny.get_mut(li)
    {
        *t = u32::from(chars < 2);
    }
}

/// Substrings of a URL that mark a share, social-network, feed or mail endpoint.
const SOCIAL_MARKS: &[&str] = &[
    "facebook.",
    "twitter.",
    "linkedin.",
    "pinterest.",
    "reddit.",
    "tumblr.",
    "stumbleupon.",
    "digg.",
    "delicious.",
    "instagram.",
    "youtube.",
    "plus.google.",
    "addthis.",
    "sharethis.",
    "instapaper.",
    "whatsapp",
    "share=",
    "sharer",
    "/share",
    "mailto:",
    "feedburner.",
    "rss",
    ".xml",
];

/// Whether a link points at a share, social-network, feed or mail endpoint ([`SOCIAL_MARKS`],
/// ASCII case-insensitive).
fn is_social(href: &str) -> bool {
    static MATCHER: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(SOCIAL_MARKS)
                .ok()
        })
        .as_ref()
        .is_some_and(|ac| ac.is_match(href))
}

impl Candidates {
    /// Computes the candidates of a page and their features.
    pub fn compute(doc: &Document) -> Candidates {
        let features = NodeFeatures::compute(doc, &Readings::default());
        if features.is_empty() {
            return Candidates::default();
        }
        let root = features.node(0);
        let start = root.index();
        let stop = doc.subtree_end(root).index();
        let n = stop - start;

        // The site's host: the declared URL's, else the most frequent host of absolute links.
        let site = doc.declared_url().and_then(host_of).or_else(|| {
            let mut counts: std::collections::HashMap<String, u32> = Default::default();
            for i in start..stop {
                let id = NodeId(i as u32);
                if doc.is_tag(id, "a")
                    && let Some(h) = doc.attr(id, "href").and_then(host_of)
                {
                    *counts.entry(h).or_default() += 1;
                }
            }
            counts
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                .map(|(h, _)| h)
        });

        // Forward pass: per node, its own hyperlink, leaf unit, link words and link target.
        let mut links = vec![0u32; n];
        let mut leaves = vec![0u32; n];
        let mut words = vec![0u32; n];
        let mut internal = vec![0u32; n];
        let mut script = vec![0u32; n];
        let mut links_before = vec![0u32; n];
        let mut separators = vec![0u32; n];
        let mut social = vec![0u32; n];
        let mut tiny = vec![0u32; n];
        // The innermost open link (its index) and the alphanumeric characters of its text.
        let mut open_link: Option<(usize, u32)> = None;
        let mut seen_links = 0u32;
        let mut link_end = 0usize;
        for i in start..stop {
            let id = NodeId(i as u32);
            let li = i - start;
            links_before[li] = seen_links;
            match doc.kind(id) {
                NodeKind::Element if doc.is_tag(id, "a") => {
                    leaves[li] = 1;
                    link_end = link_end.max(doc.subtree_end(id).index());
                    close_link(&mut open_link, &mut tiny);
                    if let Some(href) = doc.attr(id, "href") {
                        links[li] = 1;
                        seen_links += 1;
                        open_link = Some((li, 0));
                        match target(href, site.as_deref()) {
                            Target::Internal => internal[li] = 1,
                            Target::Script => script[li] = 1,
                            Target::External => {}
                        }
                        social[li] = u32::from(is_social(href));
                    }
                }
                NodeKind::Text => {
                    let t = doc.text(id);
                    if i < link_end {
                        words[li] = u32::try_from(t.split_whitespace().count()).unwrap_or(0);
                        if let Some((_, chars)) = open_link.as_mut() {
                            let n = t.chars().filter(|c| c.is_alphanumeric()).count();
                            *chars = chars.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
                        }
                    } else if t.chars().any(char::is_alphanumeric) {
                        leaves[li] = 1;
                    } else if !t.trim().is_empty() {
                        // "|", "·", "»" between the links of a bar: not text.
                        separators[li] = 1;
                    }
                }
                _ => {}
            }
        }
        close_link(&mut open_link, &mut tiny);
        let total_links = seen_links.max(1);
        // Reverse pass: subtree sums.
        for i in (start + 1..stop).rev() {
            let Some(p) = doc.parent(NodeId(i as u32)) else {
                continue;
            };
            let (pi, li) = (p.index() - start, i - start);
            links[pi] += links[li];
            leaves[pi] += leaves[li];
            words[pi] += words[li];
            internal[pi] += internal[li];
            script[pi] += script[li];
            separators[pi] += separators[li];
            social[pi] += social[li];
            tiny[pi] += tiny[li];
        }
        let page_leaves = f64::from(leaves[0].max(1));

        // Ancestor context, in element numbering (parents come before children).
        let len = features.len();
        // `own`: the element's word bits; `ctx`: the union of its proper ancestors' bits, with
        // the tag-implied ones (`header`, `footer`, `aside`, `nav`).
        let mut ctx = vec![0u8; len];
        let mut own = vec![0u8; len];
        for e in 0..len as u32 {
            let id = features.node(e);
            let mut bits = word_bits(doc, id);
            match doc.tag(id) {
                "header" => bits |= word::HEADER,
                "footer" => bits |= word::FOOTER,
                "aside" => bits |= word::ASIDE,
                "li" => bits |= word::LIST_ITEM,
                _ => {}
            }
            if nav_semantics(doc, id) {
                bits |= word::NAV;
            }
            own[e as usize] = bits;
            let p = features.parent(e);
            if p != NONE {
                ctx[e as usize] = ctx[p as usize] | own[p as usize];
            }
        }

        let mut out = Candidates {
            features,
            elems: Vec::new(),
            rows: Vec::new(),
        };
        let f = &out.features;
        for e in 0..len as u32 {
            let id = f.node(e);
            let li = id.index() - start;
            let h = links[li];
            if h < 2 || !f.rated(e) {
                continue;
            }
            let p = f.props(e);
            let tag = doc.tag(id);
            // Element children: items, items holding links, homogeneity.
            let (mut kids, mut items, mut same_first, mut same_last) = (0u32, 0u32, 0u32, 0u32);
            let first_tag = f.children(e).next().map(|c| doc.tag(f.node(c)));
            let last_tag = f.children(e).last().map(|c| doc.tag(f.node(c)));
            for c in f.children(e) {
                let cid = f.node(c);
                kids += 1;
                if links[cid.index() - start] > 0 {
                    items += 1;
                }
                let t = doc.tag(cid);
                same_first += u32::from(Some(t) == first_tag);
                same_last += u32::from(Some(t) == last_tag);
            }
            let hf = f64::from(h);
            let ln = |v: f64, base: f64| ((1.0 + v).ln() / (1.0 + base).ln()).min(2.0);
            let c = ctx[e as usize];
            let o = own[e as usize];
            let flag = |b: bool| f64::from(u8::from(b));
            let row: [f64; FEATURES] = [
                f64::from(p[prop::AMPLITUDE]),
                f64::from(p[prop::LINK]),
                f64::from(p[prop::TEXT]).max(-2.0),
                f64::from(p[prop::UL]),
                f64::from(p[prop::REPRESENTATIVE]),
                f64::from(p[prop::POSITION]),
                flag(nav_semantics(doc, id)),
                flag(o & word::NAV != 0),
                flag(o & word::MAIN != 0),
                flag(o & word::NOT_MAIN != 0),
                flag(c & word::HEADER != 0),
                flag(c & word::FOOTER != 0),
                flag(c & word::ASIDE != 0),
                flag(c & word::NAV != 0),
                hf / f64::from(leaves[li].max(1)),
                ln(hf, 64.0),
                (f64::from(words[li]) / hf / 4.0).min(2.0),
                ln(f64::from(items), 16.0),
                if kids >= 2 {
                    f64::from(same_first.max(same_last)) / f64::from(kids)
                } else {
                    0.0
                },
                if kids > 0 {
                    f64::from(items) / f64::from(kids)
                } else {
                    0.0
                },
                f64::from(links_before[li]) / f64::from(total_links),
                hf / f64::from(total_links),
                f64::from(internal[li]) / hf,
                f64::from(script[li]) / hf,
                f64::from(u8::from(kids == 1)),
                flag((c | o) & word::MOBILE != 0),
                ln(hf / f64::from(items.max(1)), 16.0),
                f64::from(u8::from(tag == "ul" || tag == "ol")),
                f64::from(u8::from(tag == "li")),
                f64::from(u8::from(matches!(
                    tag,
                    "table" | "tbody" | "tr" | "td" | "th"
                ))),
                flag(c & word::NOT_MAIN != 0),
                flag(c & word::MAIN != 0),
                f64::from(leaves[li]) / page_leaves,
                (f64::from(separators[li]) / hf).min(2.0),
                flag(c & word::LIST_ITEM != 0),
                f64::from(social[li]) / hf,
                f64::from(tiny[li]) / hf,
                flag(h <= 3),
            ];
            let mut r = [0f32; FEATURES];
            for (a, b) in r.iter_mut().zip(row) {
                *a = if b.is_finite() { b as f32 } else { 0.0 };
            }
            out.elems.push(e);
            out.rows.push(r);
        }
        out
    }

    /// The best candidate under `model` (its index in [`Candidates::elems`]) and its score.
    pub fn best(&self, model: &MenuModel) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        for (i, r) in self.rows.iter().enumerate() {
            let s = model.score(r);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        best
    }

    /// The detected menu element (number in [`Candidates::features`]), or `None`.
    pub fn detect(&self, model: &MenuModel) -> Option<u32> {
        let (i, s) = self.best(model)?;
        (s > model.null_threshold).then(|| self.elems[i])
    }
}

/// `<nav>` or `role="navigation"`.
fn nav_semantics(doc: &Document, id: NodeId) -> bool {
    doc.tag(id) == "nav"
        || doc
            .attr(id, "role")
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("navigation"))
}

/// Detects the main menu of a page with `model`.
pub fn detect(doc: &Document, model: &MenuModel) -> Option<NodeId> {
    let c = Candidates::compute(doc);
    c.detect(model).map(|e| c.features.node(e))
}

/// [`detect`] with Definition 5: the best-scoring candidate above the null threshold for
/// which `recurs` holds (the menu appears on another page of the site); candidates are tried in
/// decreasing score, at most [`MAX_RECURRENCE_TESTS`] of them.
pub fn detect_recurring(
    doc: &Document,
    model: &MenuModel,
    mut recurs: impl FnMut(NodeId) -> bool,
) -> Option<NodeId> {
    let c = Candidates::compute(doc);
    let mut order: Vec<(f32, usize)> = c
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (model.score(r), i))
        .filter(|(s, _)| *s > model.null_threshold)
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    order
        .into_iter()
        .take(MAX_RECURRENCE_TESTS)
        .map(|(_, i)| c.features.node(c.elems[i]))
        .find(|&n| recurs(n))
}

/// How many of the best candidates [`detect_recurring`] tests against the sibling pages.
pub const MAX_RECURRENCE_TESTS: usize = 8;

/// A labelled page prepared for fitting: candidate features and each candidate's score.
#[derive(Clone, Debug)]
pub struct ModelPage {
    /// The page's site.
    pub site: String,
    /// Whether the gold is null.
    pub null: bool,
    /// Candidate feature rows.
    pub rows: Vec<[f32; FEATURES]>,
    /// Each candidate's score against the gold.
    pub scores: Vec<PageScore>,
    /// The page's weight in the fitting loss (1 for a labelled page).
    pub weight: f64,
    /// The page teaches which element is the menu but not how often pages have none (a
    /// generated page always has a menu): "no menu" is left out of its softmax.
    pub rank_only: bool,
}

impl ModelPage {
    /// Prepares a page from its [`TrainPage`] (gold and leaf counts) and its document.
    pub fn new(doc: &Document, page: &TrainPage) -> ModelPage {
        let c = Candidates::compute(doc);
        let scores = c.elems.iter().map(|&e| page.score(Some(e))).collect();
        ModelPage {
            site: page.site.clone(),
            null: page.gold_is_null(),
            rows: c.rows,
            scores,
            weight: 1.0,
            rank_only: false,
        }
    }

    /// The score of the model's prediction.
    pub fn score(&self, model: &MenuModel) -> PageScore {
        let mut best: Option<(usize, f32)> = None;
        for (i, r) in self.rows.iter().enumerate() {
            let s = model.score(r);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        match best {
            Some((i, s)) if s > model.null_threshold => {
                if self.null {
                    PageScore::all(0.0)
                } else {
                    self.scores[i]
                }
            }
            _ => {
                if self.null {
                    PageScore::all(1.0)
                } else {
                    PageScore::default()
                }
            }
        }
    }
}

/// Fitting options.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitOptions {
    /// L2 penalty on the weights (the null score excluded).
    pub l2: f64,
    /// Gradient steps (Adam).
    pub steps: usize,
    /// Adam's learning rate.
    pub rate: f64,
    /// Replace the fitted null score by the threshold that maximises the training pages'
    /// mean F1.
    pub tune_null: bool,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            l2: 0.003,
            steps: 400,
            rate: 0.05,
            tune_null: false,
        }
    }
}

/// Fits a model to `pages` (see the module docs).
///
/// "No menu" is one more option of every page's softmax, with a learned constant score (the
/// null threshold): its target is 1 on a page without a main menu and 0 elsewhere, so that the
/// threshold is fitted together with the weights.
pub fn fit(pages: &[&ModelPage], opts: &FitOptions) -> MenuModel {
    const P: usize = FEATURES + 1; // the weights, then the null score
    let mut w = [0f64; P];
    let (mut m, mut v) = ([0f64; P], [0f64; P]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let trainable: Vec<&ModelPage> = pages
        .iter()
        .copied()
        .filter(|p| p.null || p.scores.iter().any(|s| s.perfect()))
        .collect();
    let n: f64 = trainable.iter().map(|p| p.weight).sum::<f64>().max(1e-9);
    for step in 1..=opts.steps {
        let grads: Vec<[f64; P]> = trainable
            .par_iter()
            .map(|p| {
                let s: Vec<f64> = p
                    .rows
                    .iter()
                    .map(|r| r.iter().zip(&w).map(|(a, b)| f64::from(*a) * b).sum())
                    .collect();
                let null_score = if p.rank_only {
                    f64::NEG_INFINITY
                } else {
                    w[FEATURES]
                };
                let mx = s.iter().copied().fold(null_score, f64::max);
                let e: Vec<f64> = s.iter().map(|x| (x - mx).exp()).collect();
                let e_null = if p.rank_only {
                    0.0
                } else {
                    (null_score - mx).exp()
                };
                let z: f64 = e.iter().sum::<f64>() + e_null;
                let zg: f64 = e
                    .iter()
                    .zip(&p.scores)
                    .filter(|(_, sc)| sc.perfect())
                    .map(|(x, _)| x)
                    .sum();
                let mut g = [0f64; P];
                for ((r, x), sc) in p.rows.iter().zip(&e).zip(&p.scores) {
                    let pe = x / z;
                    let qe = if !p.null && sc.perfect() { x / zg } else { 0.0 };
                    for (gk, rk) in g.iter_mut().zip(r) {
                        *gk += (pe - qe) * f64::from(*rk);
                    }
                }
                g[FEATURES] = e_null / z - if p.null { 1.0 } else { 0.0 };
                g.map(|x| x * p.weight)
            })
            .collect();
        let mut g = [0f64; P];
        for pg in &grads {
            for (a, b) in g.iter_mut().zip(pg) {
                *a += b / n;
            }
        }
        for k in 0..FEATURES {
            g[k] += opts.l2 * w[k];
        }
        let t = step as i32;
        for k in 0..P {
            m[k] = b1 * m[k] + (1.0 - b1) * g[k];
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
            let mh = m[k] / (1.0 - b1.powi(t));
            let vh = v[k] / (1.0 - b2.powi(t));
            w[k] -= opts.rate * mh / (vh.sqrt() + eps);
        }
    }
    let mut weights = [0f32; FEATURES];
    for (a, b) in weights.iter_mut().zip(&w) {
        *a = *b as f32;
    }
    let mut model = MenuModel {
        weights,
        null_threshold: w[FEATURES] as f32,
    };
    if opts.tune_null {
        model.null_threshold = null_threshold(pages, &model);
    }
    model
}

/// The null threshold that maximises the mean F1 of `pages` under `model`'s weights.
fn null_threshold(pages: &[&ModelPage], model: &MenuModel) -> f32 {
    let m = MenuModel {
        null_threshold: f32::NEG_INFINITY,
        ..*model
    };
    // Each page's best score and the F1 of predicting its best element.
    let mut tops: Vec<(f32, f64, bool)> = pages
        .iter()
        .filter_map(|p| {
            let best = p
                .rows
                .iter()
                .map(|r| m.score(r))
                .fold(f32::NEG_INFINITY, f32::max);
            best.is_finite()
                .then(|| (best, if p.null { 0.0 } else { m_score(p, &m) }, p.null))
        })
        .collect();
    tops.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Threshold below every page: all predicted; raising it past page i nulls pages 0..=i.
    let mut gain: f64 = tops.iter().map(|t| t.1).sum();
    let mut best = (gain, f32::NEG_INFINITY);
    for (i, t) in tops.iter().enumerate() {
        gain += if t.2 { 1.0 } else { -t.1 };
        let next = tops.get(i + 1).map_or(t.0 + 1.0, |u| u.0);
        if gain > best.0 + 1e-9 {
            best = (gain, (t.0 + next) / 2.0);
        }
    }
    best.1
}

fn m_score(p: &ModelPage, m: &MenuModel) -> f64 {
    p.score(m).f1
}

/// The [`TrainPage`] (gold, leaf units) and the [`ModelPage`] (candidates, feature rows) of
/// every labelled page, in the pages' order; computed in parallel over pages.
pub fn prepare_labelled(
    pages: &[crate::eval::LabelledPage],
    readings: &Readings,
) -> (Vec<TrainPage>, Vec<ModelPage>) {
    let train_pages: Vec<TrainPage> = pages
        .par_iter()
        .map(|p| TrainPage::new(&p.doc, p.gold, &p.entry.site, readings))
        .collect();
    let model_pages: Vec<ModelPage> = pages
        .par_iter()
        .zip(&train_pages)
        .map(|(p, t)| ModelPage::new(&p.doc, t))
        .collect();
    (train_pages, model_pages)
}

/// A cross-validation of the model.
#[derive(Clone, Debug)]
pub struct ModelCv {
    /// Every page scored by the model fitted without its fold.
    pub pooled: Summary,
    /// The per-page scores behind it.
    pub page_scores: Vec<PageScore>,
    /// The model of each fold.
    pub models: Vec<MenuModel>,
    /// The fold of each page.
    pub page_fold: Vec<usize>,
}

/// Site-wise `k`-fold cross-validation of [`fit`] (the folds of [`site_folds`] over
/// `train_pages`, which are `pages`' [`TrainPage`]s); `extra` pages (other sites) join every
/// fold's training set and are never scored.
pub fn cross_validate(
    pages: &[ModelPage],
    train_pages: &[TrainPage],
    extra: &[ModelPage],
    k: usize,
    opts: &FitOptions,
) -> ModelCv {
    let folds = site_folds(train_pages, k);
    let k = folds.iter().max().map_or(1, |m| m + 1);
    let mut page_scores = vec![PageScore::default(); pages.len()];
    let mut models = Vec::new();
    for fold in 0..k {
        let train: Vec<&ModelPage> = pages
            .iter()
            .zip(&folds)
            .filter(|(_, f)| **f != fold)
            .map(|(p, _)| p)
            .chain(extra)
            .collect();
        let model = fit(&train, opts);
        for (i, p) in pages.iter().enumerate() {
            if folds[i] == fold {
                page_scores[i] = p.score(&model);
            }
        }
        models.push(model);
    }
    let null: Vec<bool> = pages.iter().map(|p| p.null).collect();
    ModelCv {
        pooled: summarize(&page_scores, &null),
        page_scores,
        models,
        page_fold: folds,
    }
}

/// `chaff train-menu --labels FILE` for the model: loads the labelled pages, fits the model
/// to all of them, and (with `folds >= 2`) cross-validates by site.
pub fn fit_from_labels(
    labels: &std::path::Path,
    folds: usize,
    opts: &FitOptions,
) -> Result<(MenuModel, Summary, Option<ModelCv>), crate::MenuError> {
    let pages = crate::eval::load_labelled(labels)?;
    if pages.is_empty() {
        return Err(crate::MenuError::Invalid(format!(
            "{}: no labelled pages",
            labels.display()
        )));
    }
    let (train_pages, model_pages) = prepare_labelled(&pages, &Readings::default());
    let all: Vec<&ModelPage> = model_pages.iter().collect();
    let model = fit(&all, opts);
    let scores: Vec<PageScore> = model_pages.iter().map(|p| p.score(&model)).collect();
    let null: Vec<bool> = model_pages.iter().map(|p| p.null).collect();
    let fitted = summarize(&scores, &null);
    let mut sites: Vec<&str> = train_pages.iter().map(|p| p.site.as_str()).collect();
    sites.sort_unstable();
    sites.dedup();
    let cv = (folds >= 2 && sites.len() >= 2)
        .then(|| cross_validate(&model_pages, &train_pages, &[], folds, opts));
    Ok((model, fitted, cv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Gold;

    fn parse(html: &str) -> Document {
        chaff_dom::parse(html.as_bytes()).expect("test pages parse")
    }

    fn by_id(doc: &Document, id: &str) -> NodeId {
        doc.ids()
            .find(|&n| doc.attr(n, "id") == Some(id))
            .unwrap_or_else(|| panic!("no element #{id}"))
    }

    fn row(doc: &Document, c: &Candidates, id: &str) -> [f32; FEATURES] {
        let e = c.features.elem(by_id(doc, id)).expect("in the body");
        let i = c.elems.iter().position(|&x| x == e).expect("a candidate");
        c.rows[i]
    }

    fn feature(r: &[f32; FEATURES], name: &str) -> f32 {
        let k = FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .expect("a feature");
        r[k]
    }

    const PAGE: &str = concat!(
        "<html><body><div id=top class=header><nav id=n><ul id=u>",
        "<li><a href=/a>Alpha</a></li><li><a href=/b>Beta</a></li>",
        "<li><a href=/c>Gamma Delta</a></li></ul></nav></div>",
        "<div id=main><p id=p>Some text here</p><ul id=foot class=footer-links>",
        "<li><a href=http://www.other.com/x>X</a></li><li><a href='#'>Y</a> | </li></ul>",
        "</div></body></html>"
    );

    #[test]
    fn features_by_hand() {
        let doc = parse(PAGE);
        let c = Candidates::compute(&doc);
        // Candidates: elements with two or more links (body, div#top, nav, ul#u, div#main,
        // ul#foot); the `li`s hold one link each.
        assert_eq!(c.elems.len(), 6);
        let u = row(&doc, &c, "u");
        let near = |name: &str, v: f64| {
            let got = f64::from(feature(&u, name));
            assert!((got - v).abs() < 1e-5, "{name}: {got} != {v}");
        };
        near("link_leaf_share", 1.0); // 3 links, no text outside them
        near("log_links", (4f64).ln() / (65f64).ln());
        near("link_words", (1.0 + 1.0 + 2.0) / 3.0 / 4.0);
        near("log_items", (4f64).ln() / (17f64).ln());
        near("homogeneity", 1.0);
        near("items_with_links", 1.0);
        near("first_link_order", 0.0);
        near("page_link_share", 3.0 / 5.0);
        // No declared URL: the site is the most frequent absolute host (other.com, once);
        // relative links are internal.
        near("internal_share", 1.0);
        near("script_link_share", 0.0);
        near("in_header", 1.0);
        near("in_nav", 1.0);
        near("nav_word", 0.0);
        near("list_tag", 1.0);
        near("ul", 1.0);
        near("wrapper", 0.0);
        // Leaves of the page: 5 links and "Some text here" ("|" is a separator, not text).
        near("page_leaf_share", 3.0 / 6.0);
        near("separators_per_link", 0.0);
        let f = row(&doc, &c, "foot");
        let near = |name: &str, v: f64| {
            let got = f64::from(feature(&f, name));
            assert!((got - v).abs() < 1e-5, "{name}: {got} != {v}");
        };
        near("not_main_word", 1.0); // "footer-links"
        near("internal_share", 0.5); // other.com is the site's host here
        near("script_link_share", 0.5); // "#"
        near("separators_per_link", 0.5);
        near("first_link_order", 3.0 / 5.0);
        near("in_header", 0.0);
        let n = row(&doc, &c, "n");
        assert_eq!(feature(&n, "nav_semantics"), 1.0);
        assert_eq!(feature(&n, "nav_word"), 1.0);
        assert_eq!(feature(&n, "wrapper"), 1.0);
    }

    #[test]
    fn link_target_features_by_hand() {
        let doc = parse(concat!(
            "<html><body><ul id=bc><li><a href=/>Home</a></li><li><a href=/world>World</a></li>",
            "<li><a href=/world/asia>Asia</a></li>",
            "<li><a href=/world/asia/korea>Korea</a></li></ul><p>text</p>",
            "<ul id=share><li><a href='/post/1?share=twitter'>Twitter</a></li>",
            "<li><a href='https://www.facebook.com/sharer.php?u=x'><img></a></li></ul>",
            "<ul id=size><li><a href='#'>A</a></li><li><a href='#'>A+</a></li>",
            "<li><a href='#'>A<b>++</b></a></li></ul></body></html>"
        ));
        let c = Candidates::compute(&doc);
        let check = |id: &str, want: [f64; 3]| {
            let r = row(&doc, &c, id);
            let names = ["social_share", "tiny_text_share", "few_links"];
            for (name, v) in names.iter().zip(want) {
                let got = f64::from(feature(&r, name));
                assert!((got - v).abs() < 1e-5, "#{id} {name}: {got} != {v}");
            }
        };
        // Four links to sections of the site.
        check("bc", [0.0, 0.0, 0.0]);
        // A sharing list: a `share=` query and a share host; the icon link has no text.
        check("share", [1.0, 0.5, 1.0]);
        // A text-size switcher: one letter per link ("A" + "++" has one alphanumeric).
        check("size", [0.0, 1.0, 1.0]);
    }

    #[test]
    fn share_and_social_marks() {
        assert!(is_social("https://twitter.com/intent/tweet?url=x"));
        assert!(is_social("MAILTO:a@b.c"));
        assert!(is_social("/feeds/news.xml"));
        assert!(!is_social("/news/world/"));
    }

    #[test]
    fn short_words_match_only_as_words() {
        use word::{ASIDE, HEADER, MAIN, NAV, NOT_MAIN};
        // Hand-checked: `hat` and `tag` match whole (or plural) words, bounded by the value's
        // ends, `-`, `_`, digits and camelCase changes; `top` and four-letter words match at a
        // word start; `nav`, `menu`, `sub`, `ad` and longer words anywhere.
        let cases: &[(&str, u8)] = &[
            ("top-nav", MAIN | NAV),
            ("topnav", MAIN | NAV),
            ("TopNav", MAIN | NAV),
            ("page_top2", MAIN),
            ("desktop", 0),
            ("desktopNav", NAV),
            ("stopwatch", 0),
            ("chat", 0),
            ("what", 0),
            ("hat", NOT_MAIN),
            ("hats", NOT_MAIN),
            ("hat-nav", NOT_MAIN | NAV),
            ("hatch", 0),
            ("stage", 0),
            ("tags", NOT_MAIN),
            ("tagsList", NOT_MAIN),
            ("tagCloud", NOT_MAIN),
            ("post_tag3", NOT_MAIN),
            ("sub-nav", NOT_MAIN | NAV),
            ("blacksubnav", NOT_MAIN | NAV),
            ("language", NOT_MAIN),
            ("slang", 0),
            ("toolbar", NOT_MAIN),
            ("domain", 0),
            ("website", 0),
            ("mainMenu", MAIN | NAV),
            ("left-rail", ASIDE),
            ("trail", 0),
            ("masthead", HEADER | NOT_MAIN),
        ];
        let html: String = cases
            .iter()
            .map(|(c, _)| format!("<div class='{c}'></div>"))
            .collect();
        let doc = parse(&html);
        let divs: Vec<NodeId> = doc.ids().filter(|&n| doc.is_tag(n, "div")).collect();
        assert_eq!(divs.len(), cases.len());
        for (&(name, want), &d) in cases.iter().zip(&divs) {
            assert_eq!(word_bits(&doc, d), want, "{name}");
        }
    }

    #[test]
    fn words_hosts_and_targets() {
        let doc = parse(concat!(
            "<div id=mainNav></div><div class='social-share'></div>",
            "<div class='OffCanvas x'></div><div id=plain></div>"
        ));
        let divs: Vec<NodeId> = doc.ids().filter(|&n| doc.is_tag(n, "div")).collect();
        assert_eq!(word_bits(&doc, divs[0]), word::NAV | word::MAIN);
        assert_eq!(word_bits(&doc, divs[1]), word::NOT_MAIN);
        assert_eq!(word_bits(&doc, divs[2]), word::MOBILE);
        assert_eq!(word_bits(&doc, divs[3]), 0);
        assert_eq!(
            host_of("https://WWW.Example.com:8080/a").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host_of("//cdn.example.com/x").as_deref(),
            Some("cdn.example.com")
        );
        assert_eq!(host_of("/a/b"), None);
        assert_eq!(host_of("ftp://x.org/"), None);
        let site = Some("example.com");
        assert!(target("/news/", site) == Target::Internal);
        assert!(target("http://example.com/x", site) == Target::Internal);
        assert!(target("http://other.org/x", site) == Target::External);
        assert!(target("mailto:a@b.c", site) == Target::External);
        assert!(target("#top", site) == Target::Script);
        assert!(target("JavaScript:void(0)", site) == Target::Script);
        assert!(target("", site) == Target::Script);
    }

    #[test]
    fn default_model_finds_the_header_menu() {
        let doc = parse(PAGE);
        let m = detect(&doc, &MenuModel::DEFAULT).expect("a menu");
        // The nav and its list hold the same leaves: either is the menu.
        assert!(m == by_id(&doc, "u") || m == by_id(&doc, "n"));
        // No links, no menu; a page of two lone links has no candidate but the body.
        assert_eq!(detect(&parse("<p>text</p>"), &MenuModel::DEFAULT), None);
    }

    /// A page with the menu `ul#m` and a look-alike list of `class` after it.
    fn toy(menu_first: bool, class: &str) -> String {
        let menu = "<ul id=m><li><a href=/a>A</a></li><li><a href=/b>B</a></li><li><a href=/c>C</a></li></ul>";
        let other = format!(
            "<ul class={class}><li><a href=/x>X</a></li><li><a href=/y>Y</a></li><li><a href=/z>Z</a></li></ul>"
        );
        let body = if menu_first {
            format!("{menu}<p>text</p>{other}")
        } else {
            format!("{other}<p>text</p>{menu}")
        };
        format!("<html><body>{body}</body></html>")
    }

    #[test]
    fn fitting_learns_the_menu_and_no_menu() {
        let mut pages = Vec::new();
        for (i, (first, class)) in [
            (true, "related"),
            (false, "share"),
            (true, "tags"),
            (false, "popular"),
        ]
        .into_iter()
        .enumerate()
        {
            let doc = parse(&toy(first, class));
            let gold = Gold::Selector(by_id(&doc, "m"));
            let t = TrainPage::new(&doc, gold, &format!("s{i}"), &Readings::default());
            pages.push(ModelPage::new(&doc, &t));
        }
        // A page without a main menu: only a "related" list.
        let doc = parse(
            "<html><body><p>text</p><ul class=related><li><a href=/x>X</a></li><li><a href=/y>Y</a></li></ul></body></html>",
        );
        let t = TrainPage::new(&doc, Gold::Null, "s9", &Readings::default());
        pages.push(ModelPage::new(&doc, &t));
        let refs: Vec<&ModelPage> = pages.iter().collect();
        let model = fit(&refs, &FitOptions::default());
        for (i, p) in pages.iter().enumerate() {
            assert!(p.score(&model).perfect(), "page {i}: {:?}", p.score(&model));
        }
        // The untrained model (all weights 0, no threshold) cannot tell the lists apart: the
        // first candidate wins.
        let zero = MenuModel {
            weights: [0.0; FEATURES],
            null_threshold: f32::NEG_INFINITY,
        };
        assert!(!pages[1].score(&zero).perfect());
    }

    #[test]
    fn model_json_round_trip() {
        let m = MenuModel::DEFAULT;
        let json = serde_json::to_string(&m).expect("serialises");
        let back: MenuModel = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, m);
        let short = r#"{"weights":[1.0,2.0],"null_threshold":0.0}"#;
        let err = serde_json::from_str::<MenuModel>(short).expect_err("two weights");
        assert!(
            err.to_string()
                .contains(&format!("expected {FEATURES} weights")),
            "{err}"
        );
    }
}
