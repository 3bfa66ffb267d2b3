//! One page: its per-page draws (article body, lists, ads, session id) and the parts every
//! style shares; the markup itself is in [`crate::styles`].

use chaff_dom::NodeId;

use crate::Style;
use crate::label::{Label, Origin, Region};
use crate::rng::Rng;
use crate::site::{ArticleMeta, STREAM_PAGE, Session, SitePlan};
use crate::tree::{Builder, SerOptions, TKind, Tree};
use crate::words::TextGen;

/// A run of inline content inside a paragraph.
#[derive(Clone, Debug)]
pub(crate) enum Inline {
    Text(String),
    /// A link to another article of the site (an internal link, so it carries the session id).
    Link {
        path: String,
        text: String,
    },
    Em(String),
    Strong(String),
}

/// A block of the article body.
#[derive(Clone, Debug)]
pub(crate) enum Block {
    Para(Vec<Inline>),
    Subhead(String),
    List { ordered: bool, items: Vec<String> },
    Quote(String),
    Figure { src: String, caption: String },
}

/// Where an ad may sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AdPos {
    Banner,
    Sidebar,
    InArticle,
    Bottom,
}

#[derive(Clone, Debug)]
pub(crate) struct Ad {
    pub(crate) pos: AdPos,
    pub(crate) text: String,
    pub(crate) href: String,
}

/// Everything one page needs beyond the site plan.
pub(crate) struct PageCtx<'a> {
    pub(crate) plan: &'a SitePlan,
    pub(crate) index: usize,
    pub(crate) art: &'a ArticleMeta,
    pub(crate) standfirst: Option<String>,
    pub(crate) blocks: Vec<Block>,
    /// After which block (index) the in-article ad goes, if any.
    pub(crate) inline_ad_after: Option<usize>,
    pub(crate) sid: Option<String>,
    pub(crate) latest: Vec<usize>,
    pub(crate) related: Vec<usize>,
    pub(crate) ads: Vec<Ad>,
    pub(crate) comments: u32,
    pub(crate) views: u32,
}

impl<'a> PageCtx<'a> {
    pub(crate) fn new(plan: &'a SitePlan, index: usize) -> Option<PageCtx<'a>> {
        let art = plan.articles.get(index)?;
        let mut rng = Rng::derive(
            plan.seed,
            &[STREAM_PAGE, u64::from(plan.site_index), index as u64],
        );
        let tg = TextGen::with_keys(&plan.words, art.key_nouns.clone(), art.key_people.clone());
        let (standfirst, blocks) = article_body(plan, art, index, &tg, &mut rng);
        let sid = match plan.layout.session {
            Session::None => None,
            Session::QuerySid => Some(rng.hex(32)),
            Session::JSessionId => Some(rng.hex(32).to_ascii_uppercase()),
        };
        let n = plan.articles.len();
        let latest = latest_window(n, index);
        let mut others: Vec<usize> = (0..n).filter(|&j| j != index).collect();
        // Related: prefer the same section, then anything, as real "related" widgets do.
        rng.shuffle(&mut others);
        others.sort_by_key(|&j| plan.articles[j].section != art.section);
        let related: Vec<usize> = others.into_iter().take(rng.range(3, 5)).collect();

        let paras = blocks
            .iter()
            .filter(|b| matches!(b, Block::Para(_)))
            .count();
        let inline_ad_after = (plan.layout.inline_ad && paras >= 4 && rng.chance(70))
            .then(|| 1 + rng.index(blocks.len().saturating_sub(2).max(1)));
        let mut positions = vec![AdPos::Sidebar, AdPos::Bottom];
        if plan.layout.top_banner {
            positions.push(AdPos::Banner);
        }
        rng.shuffle(&mut positions);
        // One to three ads in all, the in-article one included.
        let max_ads = if inline_ad_after.is_some() { 2 } else { 3 };
        let n_ads = rng.range(1, max_ads).min(positions.len());
        let mut positions: Vec<AdPos> = positions[..n_ads].to_vec();
        if inline_ad_after.is_some() {
            positions.push(AdPos::InArticle);
        }
        let ads = positions
            .into_iter()
            .map(|pos| {
                let s = rng.pick(&plan.slogans);
                let sponsor: String = s
                    .sponsor
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                Ad {
                    pos,
                    text: s.text.clone(),
                    href: format!(
                        "https://ads.{sponsor}.com/click?c={}&p={}",
                        rng.hex(10),
                        rng.index(1000)
                    ),
                }
            })
            .collect();
        let comments = if rng.chance(20) {
            0
        } else {
            rng.range(1, 240) as u32
        };
        let views = 100 + rng.below(50_000) as u32;
        Some(PageCtx {
            plan,
            index,
            art,
            standfirst,
            blocks,
            inline_ad_after,
            sid,
            latest,
            related,
            ads,
            comments,
            views,
        })
    }

    /// An internal link with this page's session id, if the site uses them.
    pub(crate) fn href(&self, path: &str) -> String {
        match (&self.sid, self.plan.layout.session) {
            (Some(sid), Session::QuerySid) => {
                let sep = if path.contains('?') { '&' } else { '?' };
                format!("{path}{sep}sid={sid}")
            }
            (Some(sid), Session::JSessionId) => match path.find('?') {
                Some(q) => format!("{};jsessionid={sid}{}", &path[..q], &path[q..]),
                None => format!("{path};jsessionid={sid}"),
            },
            _ => path.to_string(),
        }
    }

    pub(crate) fn url(&self) -> String {
        page_url(self.plan, self.art)
    }

    pub(crate) fn section(&self) -> &crate::site::Link {
        &self.plan.sections[self.art.section]
    }

    pub(crate) fn ads_at(&self, pos: AdPos) -> impl Iterator<Item = &Ad> {
        self.ads.iter().filter(move |a| a.pos == pos)
    }

    pub(crate) fn article(&self, j: usize) -> &ArticleMeta {
        &self.plan.articles[j]
    }

    /// "5 comments", "1 comment", "No comments".
    pub(crate) fn comments_text(&self) -> String {
        match self.comments {
            0 => "No comments yet".to_string(),
            1 => "1 comment".to_string(),
            n => format!("{n} comments"),
        }
    }

    pub(crate) fn views_text(&self) -> String {
        let v = self.views;
        if v >= 1000 {
            format!("{},{:03} views", v / 1000, v % 1000)
        } else {
            format!("{v} views")
        }
    }

    pub(crate) fn copyright(&self) -> String {
        format!(
            "\u{a9} {} {}. All rights reserved.",
            self.plan.year, self.plan.name
        )
    }
}

/// The page's canonical URL (without session id).
pub(crate) fn page_url(plan: &SitePlan, art: &ArticleMeta) -> String {
    let scheme = if plan.style == Style::Html5 {
        "https"
    } else {
        "http"
    };
    format!("{scheme}://{}{}", plan.domain, art.path)
}

/// Up to five other articles nearest in publication order, newest first: the articles
/// published just before this one, or just after it for the first pages of the site. Pages
/// next to each other in publication order therefore share most of their list.
pub(crate) fn latest_window(n: usize, index: usize) -> Vec<usize> {
    let want = 5.min(n.saturating_sub(1));
    let start = index.saturating_sub(want).min(n.saturating_sub(want + 1));
    let mut v: Vec<usize> = (start..n).filter(|&j| j != index).take(want).collect();
    v.reverse();
    v
}

/// Splits paragraph text into inline runs, sometimes wrapping a few words in a link to another
/// article or in emphasis.
fn inlines(text: String, plan: &SitePlan, index: usize, rng: &mut Rng) -> Vec<Inline> {
    let words: Vec<&str> = text.split(' ').collect();
    let n = words.len();
    let kind = rng.index(100);
    if n < 8 || kind >= 40 {
        return vec![Inline::Text(text)];
    }
    let len = rng.range(1, 4).min(n - 1);
    let at = rng.index(n - len);
    let span = words[at..at + len].join(" ");
    let mut out = Vec::new();
    if at > 0 {
        out.push(Inline::Text(format!("{} ", words[..at].join(" "))));
    }
    // Links point to earlier articles (follow-ups cite older coverage), which also keeps the
    // page independent of how many pages come after it.
    out.push(match kind {
        0..=24 if index > 0 => {
            let j = rng.index(index);
            Inline::Link {
                path: plan.articles[j].path.clone(),
                text: span,
            }
        }
        0..=31 => Inline::Em(span),
        _ => Inline::Strong(span),
    });
    if at + len < n {
        out.push(Inline::Text(format!(" {}", words[at + len..].join(" "))));
    }
    out
}

/// The standfirst and body blocks of an article.
fn article_body(
    plan: &SitePlan,
    art: &ArticleMeta,
    index: usize,
    tg: &TextGen<'_>,
    rng: &mut Rng,
) -> (Option<String>, Vec<Block>) {
    if art.short {
        // A very short page: a single paragraph and nothing else.
        let p = tg.paragraph(rng, art.target_words);
        return (None, vec![Block::Para(vec![Inline::Text(p)])]);
    }
    let standfirst = rng
        .chance(plan.layout.standfirst_pct)
        .then(|| tg.sentence(rng));
    let total = art.target_words;
    let n_paras = (total / 75).clamp(3, 15);
    let mut blocks = Vec::with_capacity(n_paras + 4);
    let list_at = rng.chance(25).then(|| 1 + rng.index(n_paras - 1));
    let quote_at = rng.chance(25).then(|| 1 + rng.index(n_paras - 1));
    let figure_at = rng.chance(20).then(|| rng.index(n_paras));
    let subheads = total > 600 && rng.chance(50);
    let mut remaining = total;
    for i in 0..n_paras {
        if subheads && i > 0 && i % 4 == 0 {
            blocks.push(Block::Subhead(tg.headline(rng)));
        }
        if figure_at == Some(i) {
            blocks.push(Block::Figure {
                src: format!("/media/{}/{}.jpg", art.id, rng.hex(8)),
                caption: tg.short_phrase(rng),
            });
        }
        // Some paragraphs are a single sentence, as news paragraphs often are; the last one
        // makes up what is missing, so the body has at least the planned length.
        let left = n_paras - i;
        let target = if left == 1 {
            remaining.max(1)
        } else if rng.chance(20) {
            1
        } else {
            let base = (remaining / left).max(1);
            base / 2 + rng.index(base)
        };
        let text = tg.paragraph(rng, target);
        remaining = remaining.saturating_sub(text.split_whitespace().count());
        blocks.push(Block::Para(inlines(text, plan, index, rng)));
        if list_at == Some(i) {
            let items = (0..rng.range(3, 6)).map(|_| tg.short_phrase(rng)).collect();
            blocks.push(Block::List {
                ordered: rng.chance(30),
                items,
            });
        }
        if quote_at == Some(i) {
            blocks.push(Block::Quote(tg.sentence(rng)));
        }
    }
    (standfirst, blocks)
}

/// Writes inline runs into the builder in the current region.
pub(crate) fn write_inlines(b: &mut Builder, c: &PageCtx<'_>, runs: &[Inline]) {
    for r in runs {
        match r {
            Inline::Text(t) => b.text(t),
            Inline::Link { path, text } => b.leaf("a", &[("href", &c.href(path))], text),
            Inline::Em(t) => b.leaf("em", &[], t),
            Inline::Strong(t) => b.leaf("strong", &[], t),
        }
    }
}

/// A built page: its tree and how to spell it.
pub(crate) struct BuiltPage {
    pub(crate) tree: Tree,
    pub(crate) ser: SerOptions,
}

/// Builds page `index` of the plan, or `None` if there is no such page.
pub(crate) fn build_page(plan: &SitePlan, index: usize) -> Option<(PageCtx<'_>, BuiltPage)> {
    let ctx = PageCtx::new(plan, index)?;
    let built = match plan.style {
        Style::Html5 => crate::styles::html5::build(&ctx),
        Style::DivSoup => crate::styles::divsoup::build(&ctx),
        Style::Tables => crate::styles::tables::build(&ctx),
    };
    Some((ctx, built))
}

/// Labels, regions, content root and menu root read off a built tree.
pub(crate) struct TreeLabels {
    pub(crate) labels: Vec<Label>,
    pub(crate) regions: Vec<Region>,
    pub(crate) origins: Vec<Origin>,
    pub(crate) content_root: NodeId,
    pub(crate) menu_root: NodeId,
}

pub(crate) fn tree_labels(tree: &Tree) -> TreeLabels {
    let regions: Vec<Region> = tree.nodes.iter().map(|n| n.region).collect();
    let labels: Vec<Label> = regions.iter().map(|r| r.label()).collect();
    let origins: Vec<Origin> = tree
        .nodes
        .iter()
        .map(|n| {
            if n.page_data {
                Origin::PageData
            } else {
                Origin::Layout
            }
        })
        .collect();
    // Content root: the deepest element containing every content node.
    let mut root: Option<usize> = None;
    for (i, l) in labels.iter().enumerate() {
        if *l == Label::Content {
            root = Some(match root {
                None => i,
                Some(r) => tree.common_ancestor(r, i),
            });
        }
    }
    let mut content_root = root.unwrap_or(0);
    while content_root != 0 && !matches!(tree.nodes[content_root].kind, TKind::Element { .. }) {
        content_root = tree.nodes[content_root].parent;
    }
    let menu_root = (0..tree.len())
        .find(|&i| regions[i] == Region::Menu)
        .unwrap_or(0);
    TreeLabels {
        labels,
        regions,
        origins,
        content_root: NodeId(content_root as u32),
        menu_root: NodeId(menu_root as u32),
    }
}
