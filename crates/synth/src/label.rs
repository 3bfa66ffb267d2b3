//! Per-node labels and regions, and the word-count measure used by acceptance tests.

use std::collections::BTreeMap;

use chaff_dom::{Document, NodeId, NodeKind};

/// What a node is, from the point of view of template detection.
///
/// `Menu` is a kind of template: measures that ask "how much template was removed" count menu
/// words as template words too (see [`WordCounts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    /// Containers above the regions (root, doctype, `html`, `body`, page wrappers, columns
    /// that hold both content and template) and everything in `head`.
    Structure,
    /// The article: headline, standfirst, byline, body text, its lists, quotes and figures.
    Content,
    /// Every template region other than the main menu.
    Template,
    /// The main menu: its container element and everything inside it.
    Menu,
}

impl Label {
    /// All labels, in the order of their sidecar codes.
    pub const ALL: [Label; 4] = [
        Label::Structure,
        Label::Content,
        Label::Template,
        Label::Menu,
    ];

    /// The small integer the sidecar stores for this label (its index in [`Label::ALL`]).
    pub fn code(self) -> u8 {
        match self {
            Label::Structure => 0,
            Label::Content => 1,
            Label::Template => 2,
            Label::Menu => 3,
        }
    }

    /// The label with the given sidecar code.
    pub fn from_code(code: u8) -> Option<Label> {
        Label::ALL.get(usize::from(code)).copied()
    }

    /// A lower-case name, as used in the sidecar legend.
    pub fn name(self) -> &'static str {
        match self {
            Label::Structure => "structure",
            Label::Content => "content",
            Label::Template => "template",
            Label::Menu => "menu",
        }
    }

    /// True for template and menu nodes.
    pub fn is_template(self) -> bool {
        matches!(self, Label::Template | Label::Menu)
    }
}

/// Where a node comes from: the site's layout, which every page repeats, or the page's own
/// data. This is the template "known token by token" of template-sequence methods (Geraci &
/// Maggini's template is the tag and text sequence the site's pages share): a token is a
/// template token when its node is [`Origin::Layout`], whatever the node's [`Label`].
///
/// The two views differ in both directions. Layout inside the content region: the article's
/// wrapper elements, its headline and byline elements, the word "By" — the same on every
/// page, but content by [`Label`] because nothing else is in their subtrees. Page data
/// inside template regions ("slot data"): the headlines of the "Latest" and "Related" lists,
/// dates, comment counts, ad blocks (present on some pages only), the previous and next
/// links, the page title — template by [`Label`], but no single sequence can hold them.
///
/// A node is page data when its text differs from page to page or when only some pages
/// have it; an element whose attributes differ (session ids in links, a per-page `id`) but
/// which every page has at that place is layout, as the paper's hand-made templates keep
/// such tags. So the five items of a "Latest" list are layout elements holding page-data
/// text, while a "Related" list, three or four alike items long, is page data item by item
/// (which item is the extra one no alignment can tell). Text is judged as written, before
/// any normalisation: "5 comments" is page data although a method that masks digits reads
/// it as "0 comments" on most pages. Whitespace and comments carry no tokens; they are
/// marked as built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Emitted by the site's layout on every page.
    Layout,
    /// This page's data.
    PageData,
}

macro_rules! regions {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $name:literal, $label:ident; )*) => {
        /// The part of the page a node belongs to; finer than [`Label`].
        ///
        /// Regions nest: a `Latest` list sits inside the `Sidebar`, a `Menu` may sit inside the
        /// `Header`. A node's region is the innermost one. Every region has one [`Label`]
        /// ([`Region::label`]); a region never contains a region with a different label,
        /// except that template regions may contain the main menu.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Region {
            $( $(#[$doc])* $variant, )*
        }

        impl Region {
            /// All regions, in the order of their sidecar codes.
            pub const ALL: &'static [Region] = &[ $( Region::$variant, )* ];

            /// The small integer the sidecar stores for this region.
            pub fn code(self) -> u8 {
                match self { $( Region::$variant => $code, )* }
            }

            /// A lower-case name, as used in the sidecar legend.
            pub fn name(self) -> &'static str {
                match self { $( Region::$variant => $name, )* }
            }

            /// The label of every node of this region.
            pub fn label(self) -> Label {
                match self { $( Region::$variant => Label::$label, )* }
            }
        }
    };
}

regions! {
    /// Containers above the regions, and the `head`.
    Structure = 0, "structure", Structure;
    /// The article content.
    Content = 1, "content", Content;
    /// Site header: logo, site name, tagline, search box, login link.
    Header = 2, "header", Template;
    /// The main menu of section links.
    Menu = 3, "menu", Menu;
    /// Utility links (subscribe, archive, contact ...): template but not the main menu.
    SecondaryMenu = 4, "secondary_menu", Template;
    /// Home › Section › Title.
    Breadcrumbs = 5, "breadcrumbs", Template;
    /// The sidebar column and its boxes without a region of their own.
    Sidebar = 6, "sidebar", Template;
    /// The "Latest" list of links to recent articles.
    Latest = 7, "latest", Template;
    /// The "Related" list of links chosen per page.
    Related = 8, "related", Template;
    /// An advertisement block.
    Ad = 9, "ad", Template;
    /// Publication and update dates of the article.
    Date = 10, "date", Template;
    /// Comment counts, view counts, reading time.
    ArticleMeta = 11, "article_meta", Template;
    /// The site footer.
    Footer = 12, "footer", Template;
    /// A tag cloud box.
    TagCloud = 13, "tag_cloud", Template;
    /// A newsletter sign-up box.
    Newsletter = 14, "newsletter", Template;
    /// Share links under the article.
    Share = 15, "share", Template;
    /// Previous / next article links.
    PrevNext = 16, "prev_next", Template;
    /// Layout-only elements that hold no text (spacer `<br>`s, clearing `<div>`s) placed
    /// between regions.
    Layout = 17, "layout", Template;
}

impl Region {
    /// The region with the given sidecar code.
    pub fn from_code(code: u8) -> Option<Region> {
        Region::ALL.iter().copied().find(|r| r.code() == code)
    }
}

/// Word totals and removals by label, from [`word_counts`].
///
/// Menu words are counted in both `template_*` and `menu_*`: the menu is template, and the
/// menu fields let a measure report it separately. Structure words (the `<title>`) are not
/// counted anywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordCounts {
    /// Words in template (including menu) text nodes.
    pub template_total: u64,
    /// Of those, words in removed text nodes.
    pub template_removed: u64,
    /// Words in content text nodes.
    pub content_total: u64,
    /// Of those, words in removed text nodes.
    pub content_removed: u64,
    /// Words in main-menu text nodes.
    pub menu_total: u64,
    /// Of those, words in removed text nodes.
    pub menu_removed: u64,
}

impl WordCounts {
    /// Template words not removed.
    pub fn template_kept(&self) -> u64 {
        self.template_total - self.template_removed
    }

    /// Fraction of template words removed (1.0 when there are none).
    pub fn template_removed_fraction(&self) -> f64 {
        fraction(self.template_removed, self.template_total, 1.0)
    }

    /// Fraction of content words removed (0.0 when there are none).
    pub fn content_removed_fraction(&self) -> f64 {
        fraction(self.content_removed, self.content_total, 0.0)
    }

    /// Fraction of menu words removed (1.0 when there are none).
    pub fn menu_removed_fraction(&self) -> f64 {
        fraction(self.menu_removed, self.menu_total, 1.0)
    }

    /// The project's acceptance criterion: at least 99% of template words and at most 1% of
    /// content words removed.
    pub fn meets_acceptance(&self) -> bool {
        // Integer form of the two inequalities, so no rounding decides a borderline case.
        self.template_removed * 100 >= self.template_total * 99
            && self.content_removed * 100 <= self.content_total
    }
}

fn fraction(part: u64, total: u64, empty: f64) -> f64 {
    if total == 0 {
        empty
    } else {
        part as f64 / total as f64
    }
}

impl std::ops::Add for WordCounts {
    type Output = WordCounts;
    fn add(self, o: WordCounts) -> WordCounts {
        WordCounts {
            template_total: self.template_total + o.template_total,
            template_removed: self.template_removed + o.template_removed,
            content_total: self.content_total + o.content_total,
            content_removed: self.content_removed + o.content_removed,
            menu_total: self.menu_total + o.menu_total,
            menu_removed: self.menu_removed + o.menu_removed,
        }
    }
}

impl std::ops::AddAssign for WordCounts {
    fn add_assign(&mut self, o: WordCounts) {
        *self = *self + o;
    }
}

impl std::iter::Sum for WordCounts {
    fn sum<I: Iterator<Item = WordCounts>>(iter: I) -> WordCounts {
        iter.fold(WordCounts::default(), |a, b| a + b)
    }
}

/// Counts template, content and menu words of `doc` and how many of them lie in text nodes
/// for which `removed` is true.
///
/// A word is a whitespace-separated token of a text node's data. Text inside `script` and
/// `style` is not counted (a reader never sees it). `labels` is indexed by node id; nodes
/// beyond its end (a document that does not match its labels) are ignored rather than
/// guessed at.
pub fn word_counts(
    doc: &Document,
    labels: &[Label],
    removed: &dyn Fn(NodeId) -> bool,
) -> WordCounts {
    word_counts_by(doc, labels, &|id, text| {
        if removed(id) {
            text.split_whitespace().count() as u64
        } else {
            0
        }
    })
}

/// Like [`word_counts`], for methods that remove parts of text nodes (string mining cuts
/// ranges out of a node's text): `removed_words(id, text)` says how many of the words of text
/// node `id` were removed. Answers above the node's word count are clamped to it.
pub fn word_counts_by(
    doc: &Document,
    labels: &[Label],
    removed_words: &dyn Fn(NodeId, &str) -> u64,
) -> WordCounts {
    let mut wc = WordCounts::default();
    for node in counted_nodes(doc, labels) {
        node.add_to(&mut wc, removed_words);
    }
    wc
}

/// [`word_counts_by`] per region: where a method's misses lie. `regions` is indexed by node
/// id like `labels`; a node beyond either's end is not counted, so for a page whose labels
/// and regions cover its document the counts sum to [`word_counts_by`]'s.
pub fn word_counts_by_region(
    doc: &Document,
    labels: &[Label],
    regions: &[Region],
    removed_words: &dyn Fn(NodeId, &str) -> u64,
) -> BTreeMap<Region, WordCounts> {
    let mut out: BTreeMap<Region, WordCounts> = BTreeMap::new();
    for node in counted_nodes(doc, labels) {
        if let Some(&region) = regions.get(node.id.index()) {
            node.add_to(out.entry(region).or_default(), removed_words);
        }
    }
    out
}

/// A text node the word counts cover, with its label and words.
struct CountedNode<'d> {
    id: NodeId,
    label: Label,
    text: &'d str,
    words: u64,
}

impl CountedNode<'_> {
    /// Adds the node's words, and those `removed_words` says were removed (at most all of
    /// them), to the totals of its label.
    fn add_to(&self, wc: &mut WordCounts, removed_words: &dyn Fn(NodeId, &str) -> u64) {
        let gone = removed_words(self.id, self.text).min(self.words);
        match self.label {
            Label::Content => {
                wc.content_total += self.words;
                wc.content_removed += gone;
            }
            Label::Template | Label::Menu => {
                wc.template_total += self.words;
                wc.template_removed += gone;
                if self.label == Label::Menu {
                    wc.menu_total += self.words;
                    wc.menu_removed += gone;
                }
            }
            Label::Structure => {}
        }
    }
}

/// The text nodes the word counts cover: labelled (within `labels`), not structure, not
/// inside `script` or `style`, with at least one word.
fn counted_nodes<'d>(
    doc: &'d Document,
    labels: &'d [Label],
) -> impl Iterator<Item = CountedNode<'d>> + 'd {
    doc.ids().filter_map(move |id| {
        if doc.kind(id) != NodeKind::Text {
            return None;
        }
        let label = *labels.get(id.index())?;
        if label == Label::Structure {
            return None;
        }
        if let Some(p) = doc.parent(id)
            && (doc.is_tag(p, "script") || doc.is_tag(p, "style"))
        {
            return None;
        }
        let text = doc.text(id);
        let words = text.split_whitespace().count() as u64;
        (words > 0).then_some(CountedNode {
            id,
            label,
            text,
            words,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for &r in Region::ALL {
            assert_eq!(Region::from_code(r.code()), Some(r));
        }
        for (i, &r) in Region::ALL.iter().enumerate() {
            assert_eq!(usize::from(r.code()), i);
        }
        for l in Label::ALL {
            assert_eq!(Label::from_code(l.code()), Some(l));
        }
        assert_eq!(Region::from_code(200), None);
    }

    /// A page of a date (3 words), a footer (2) and an article paragraph (4), with a
    /// script whose text is never counted: the date's first word cut, the footer removed.
    #[test]
    fn words_are_counted_by_region() {
        let doc = chaff_dom::parse(
            b"<body><p>May 4 2024</p><div>About us</div><p>Words of the article</p>\
              <script>var x = 1;</script></body>",
        )
        .unwrap();
        let mut labels = vec![Label::Structure; doc.len()];
        let mut regions = vec![Region::Structure; doc.len()];
        let texts: Vec<NodeId> = doc.ids().filter(|&id| doc.is_text(id)).collect();
        assert_eq!(texts.len(), 4);
        let kinds = [
            (Label::Template, Region::Date),
            (Label::Template, Region::Footer),
            (Label::Content, Region::Content),
            (Label::Template, Region::Footer),
        ];
        for (&id, &(label, region)) in texts.iter().zip(&kinds) {
            labels[id.index()] = label;
            regions[id.index()] = region;
        }
        let removed = |id: NodeId, text: &str| match doc.text(id) {
            "May 4 2024" => 1,
            "About us" => 9,
            _ => text.len() as u64,
        };
        let by = word_counts_by_region(&doc, &labels, &regions, &removed);
        let template = |total, removed| WordCounts {
            template_total: total,
            template_removed: removed,
            ..Default::default()
        };
        let content = WordCounts {
            content_total: 4,
            content_removed: 4,
            ..Default::default()
        };
        let expected = BTreeMap::from([
            (Region::Date, template(3, 1)),
            (Region::Footer, template(2, 2)),
            (Region::Content, content),
        ]);
        assert_eq!(by, expected);
        assert_eq!(by[&Region::Date].template_kept(), 2);
        // The regions sum to the page's totals.
        let wc = word_counts_by(&doc, &labels, &removed);
        assert_eq!(wc.template_total, 5);
        assert_eq!(wc.template_removed, 3);
        assert_eq!(wc.content_total, 4);
        assert_eq!(by.values().copied().sum::<WordCounts>(), wc);
    }

    #[test]
    fn acceptance_is_exact_at_the_border() {
        let wc = WordCounts {
            template_total: 100,
            template_removed: 99,
            content_total: 100,
            content_removed: 1,
            ..Default::default()
        };
        assert!(wc.meets_acceptance());
        let wc2 = WordCounts {
            content_removed: 2,
            ..wc
        };
        assert!(!wc2.meets_acceptance());
    }
}
