//! The site plan: everything shared by the pages of one site (its template data, layout choices
//! and the list of its articles), drawn once from the site's random stream.
//!
//! Pages are then built independently from the plan and their own stream, so page `i` is the
//! same whatever order pages are built in.

use crate::Style;
use crate::dates::{DateFmt, DateTime};
use crate::rng::Rng;
use crate::words::{SiteWords, TextGen, Vocab, cap};

/// Stream keys, so that adding a new draw somewhere never shifts another part's stream.
pub(crate) const STREAM_SITE: u64 = 1;
pub(crate) const STREAM_ARTICLE: u64 = 2;
pub(crate) const STREAM_PAGE: u64 = 3;
pub(crate) const STREAM_STYLE: u64 = 4;

const SECTIONS: &[&str] = &[
    "News",
    "World",
    "Politics",
    "Business",
    "Money",
    "Sport",
    "Opinion",
    "Culture",
    "Arts",
    "Books",
    "Travel",
    "Science",
    "Health",
    "Technology",
    "Education",
    "Environment",
    "Food",
    "Motoring",
    "Property",
    "Life",
    "Style",
    "Local",
    "Weather",
    "Video",
    "Music",
    "Film",
    "Jobs",
    "Obituaries",
];

const UTILITY: &[&str] = &[
    "Subscribe",
    "Advertise",
    "Archive",
    "RSS feeds",
    "Contact us",
    "Help",
    "Mobile",
    "E-paper",
    "Events",
    "Classifieds",
    "Newsletters",
    "Puzzles",
];

const FOOTER_LINKS: &[&str] = &[
    "About us",
    "Contact",
    "Privacy policy",
    "Terms of use",
    "Cookie settings",
    "Careers",
    "Sitemap",
    "Accessibility",
    "Corrections",
    "Complaints",
];

const SLOGAN_FRAMES: &[&str] = &[
    "Save up to {n}% on {x} today",
    "Discover the new {X} range",
    "Compare {x} prices in seconds",
    "Free delivery on all {x} orders",
    "{X} made simple - start now",
    "Your {x} expert since 19{y}",
    "Book your {x} break with {S}",
    "Why pay more for {x}?",
    "{S}: trusted by {n},000 customers",
    "Get a free {x} quote",
    "The smarter way to buy {x}",
    "Limited offer: {x} from {n} pounds",
];

/// Where the breadcrumbs sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CrumbPos {
    /// Between the menu and the columns.
    AboveLayout,
    /// Inside the article, above the headline.
    AboveTitle,
    /// Inside the article, below the headline and byline.
    BelowTitle,
}

/// How session ids are put into internal links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Session {
    None,
    /// `?sid=<hex>` (or `&sid=` after an existing query).
    QuerySid,
    /// `;jsessionid=<HEX>` before any query.
    JSessionId,
}

/// What the last sidebar box is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SideBox {
    TagCloud,
    Newsletter,
    Both,
}

/// Per-site layout choices.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub(crate) sidebar_left: bool,
    pub(crate) crumbs: CrumbPos,
    pub(crate) session: Session,
    pub(crate) pub_fmt: DateFmt,
    pub(crate) upd_fmt: Option<DateFmt>,
    pub(crate) date_above_title: bool,
    pub(crate) has_login: bool,
    pub(crate) has_secondary: bool,
    pub(crate) show_views: bool,
    pub(crate) side_box: SideBox,
    /// Table style: the menu is a vertical list in the left column rather than a bar.
    pub(crate) menu_vertical: bool,
    /// Div-soup style: an ad may sit between the article's paragraphs.
    pub(crate) inline_ad: bool,
    pub(crate) top_banner: bool,
    pub(crate) upper_case: bool,
    pub(crate) unquoted: bool,
    pub(crate) indent: &'static str,
    /// Div-soup style: the headline element.
    pub(crate) headline_tag: &'static str,
    /// Percentage of normal articles with a standfirst.
    pub(crate) standfirst_pct: u64,
    pub(crate) crumb_sep: &'static str,
}

/// A menu or link entry.
#[derive(Clone, Debug)]
pub(crate) struct Link {
    pub(crate) text: String,
    pub(crate) path: String,
}

/// One ad slogan of the site's sponsor pool.
#[derive(Clone, Debug)]
pub(crate) struct Slogan {
    pub(crate) text: String,
    pub(crate) sponsor: String,
}

/// An article's metadata, known to every page (titles appear in other pages' lists).
#[derive(Clone, Debug)]
pub(crate) struct ArticleMeta {
    pub(crate) id: u32,
    pub(crate) title: String,
    pub(crate) section: usize,
    pub(crate) path: String,
    pub(crate) published: DateTime,
    pub(crate) updated: Option<DateTime>,
    pub(crate) author: String,
    pub(crate) short: bool,
    pub(crate) target_words: usize,
    pub(crate) key_nouns: Vec<String>,
    pub(crate) key_people: Vec<String>,
}

/// Class names by role. Some are meaningful, some obfuscated, so that no method can key on
/// them.
#[derive(Clone, Debug)]
pub(crate) struct Classes {
    names: Vec<(&'static str, String)>,
}

impl Classes {
    fn new(rng: &mut Rng, obfuscate_pct: u64) -> Classes {
        const ROLES: &[(&str, &[&str])] = &[
            ("wrapper", &["wrapper", "page", "outer", "site-wrap"]),
            ("header", &["header", "masthead", "top", "branding"]),
            ("logo", &["logo", "site-logo", "brand"]),
            ("tagline", &["tagline", "slogan", "site-description"]),
            ("search", &["search", "searchform", "search-box"]),
            (
                "toplinks",
                &["toplinks", "utility", "top-links", "quicklinks"],
            ),
            (
                "nav",
                &["nav", "menu", "navigation", "mainmenu", "primary-nav"],
            ),
            (
                "container",
                &["container", "content-wrap", "columns", "main-wrap"],
            ),
            ("content", &["content", "main", "primary", "col-main"]),
            (
                "crumbs",
                &["breadcrumbs", "crumbs", "trail", "you-are-here"],
            ),
            ("post", &["post", "story", "entry-wrap", "article"]),
            (
                "title",
                &["title", "entry-title", "headline", "story-title"],
            ),
            ("postinfo", &["post-info", "meta", "postmeta", "story-meta"]),
            ("date", &["date", "posted", "timestamp", "published"]),
            ("author", &["author", "byline", "writer"]),
            ("entry", &["entry", "story-body", "post-content", "text"]),
            (
                "postfooter",
                &["post-footer", "postmetadata", "story-tools"],
            ),
            ("share", &["share", "sharing", "social"]),
            ("sidebar", &["sidebar", "side", "col-right", "secondary"]),
            ("widget", &["widget", "box", "module", "panel"]),
            ("ad", &["ad", "advert", "sponsor", "promo", "banner"]),
            ("footer", &["footer", "bottom", "site-info", "colophon"]),
            ("clear", &["clear", "clearfix", "cb"]),
            (
                "navigation",
                &["navigation", "prevnext", "pager", "post-nav"],
            ),
            ("intro", &["intro", "standfirst", "lead", "summary"]),
        ];
        let mut names = Vec::with_capacity(ROLES.len());
        for (role, choices) in ROLES {
            let name = if rng.chance(obfuscate_pct) {
                match rng.index(3) {
                    0 => format!("c-{}", rng.base36(3)),
                    1 => format!("x{}", rng.hex(4)),
                    _ => format!("_{}{}", rng.base36(2), rng.index(100)),
                }
            } else {
                rng.pick(choices).to_string()
            };
            names.push((*role, name));
        }
        Classes { names }
    }

    /// The class name for `role` (the role itself if unknown, which is still valid HTML).
    pub(crate) fn get<'a>(&'a self, role: &'a str) -> &'a str {
        self.names
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, n)| n.as_str())
            .unwrap_or(role)
    }
}

/// Everything shared by the pages of one site.
#[derive(Clone, Debug)]
pub(crate) struct SitePlan {
    pub(crate) seed: u64,
    pub(crate) site_index: u32,
    pub(crate) style: Style,
    pub(crate) domain: String,
    pub(crate) name: String,
    pub(crate) tagline: String,
    pub(crate) sections: Vec<Link>,
    pub(crate) secondary: Vec<Link>,
    pub(crate) footer_links: Vec<Link>,
    pub(crate) address: String,
    pub(crate) year: i64,
    pub(crate) slogans: Vec<Slogan>,
    pub(crate) tags: Vec<String>,
    pub(crate) newsletter_text: String,
    pub(crate) words: SiteWords,
    pub(crate) layout: Layout,
    pub(crate) classes: Classes,
    pub(crate) articles: Vec<ArticleMeta>,
}

/// The style a site gets when none is asked for: consecutive site indices cycle through all
/// styles from a seed-dependent start, so any three consecutive sites cover every style.
pub(crate) fn default_style(seed: u64, site_index: u32) -> Style {
    let offset = Rng::derive(seed, &[STREAM_STYLE]).index(Style::ALL.len());
    Style::ALL[(offset + site_index as usize) % Style::ALL.len()]
}

fn letters(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A URL path segment from words.
pub(crate) fn slugify(s: &str) -> String {
    let mut out = String::new();
    for w in s.split_whitespace() {
        let w = letters(w);
        if w.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&w);
        if out.len() > 60 {
            break;
        }
    }
    out
}

/// The site's name and the domain derived from it.
pub(crate) fn site_name(rng: &mut Rng, words: &SiteWords) -> (String, String) {
    let v = Vocab::get();
    let place = rng.pick(&words.places).clone();
    let (name, tld) = match rng.index(5) {
        0 | 1 => {
            let kind = rng.pick(&[
                "Gazette",
                "Herald",
                "Times",
                "Chronicle",
                "Post",
                "Observer",
                "Courier",
                "Mercury",
                "Echo",
                "Tribune",
            ]);
            (format!("The {place} {kind}"), ".co.uk")
        }
        2 => (
            format!("{} Daily", cap(rng.pick(&v.nouns).as_str())),
            ".com",
        ),
        3 => (format!("{}Wire", cap(rng.pick(&v.nouns).as_str())), ".net"),
        _ => (format!("{place} Online"), ".org"),
    };
    let base = letters(name.strip_prefix("The ").unwrap_or(&name));
    (name, format!("www.{base}{tld}"))
}

impl SitePlan {
    /// `sample` are the archive positions of the generated pages (sorted); `archive` is the
    /// number of articles the site has published.
    pub(crate) fn new(
        seed: u64,
        site_index: u32,
        sample: &[usize],
        archive: usize,
        style: Style,
        domain: Option<&str>,
    ) -> SitePlan {
        let mut rng = Rng::derive(seed, &[STREAM_SITE, u64::from(site_index)]);
        let words = SiteWords::new(&mut rng);
        let (name, default_domain) = site_name(&mut rng, &words);
        let domain = domain.map(str::to_string).unwrap_or(default_domain);
        let tagline = match rng.index(3) {
            0 => format!("News and views from {}", rng.pick(&words.places)),
            1 => format!("Your daily {} briefing", rng.pick(&words.topic_nouns)),
            _ => format!(
                "Independent {} since {}",
                rng.pick(&["journalism", "reporting", "news"]),
                1950 + rng.index(50)
            ),
        };

        let mut pool: Vec<&str> = SECTIONS.to_vec();
        rng.shuffle(&mut pool);
        let n_sections = rng.range(5, 10);
        let layout = Layout::new(&mut rng, style);
        let url_kind = rng.index(2);

        let sections: Vec<Link> = pool[..n_sections]
            .iter()
            .map(|s| Link {
                text: (*s).to_string(),
                path: match style {
                    Style::Tables => format!("/section.php?s={}", slugify(s)),
                    _ => format!("/{}/", slugify(s)),
                },
            })
            .collect();
        let mut util: Vec<&str> = UTILITY.to_vec();
        rng.shuffle(&mut util);
        let secondary = util[..rng.range(3, 6)]
            .iter()
            .map(|s| Link {
                text: (*s).to_string(),
                path: format!("/{}", slugify(s)),
            })
            .collect();
        let mut foot: Vec<&str> = FOOTER_LINKS.to_vec();
        rng.shuffle(&mut foot);
        let footer_links = foot[..rng.range(4, 7)]
            .iter()
            .map(|s| Link {
                text: (*s).to_string(),
                path: format!("/{}.html", slugify(s)),
            })
            .collect();
        let v = Vocab::get();
        let address = format!(
            "{} {} {}, {}, {}{} {}{}{}",
            1 + rng.index(240),
            rng.pick(&v.names),
            rng.pick(&["Street", "Road", "Lane", "Avenue", "Square", "Place"]),
            rng.pick(&words.places),
            ["KT", "NW", "BR", "LS", "EH", "CF"][rng.index(6)],
            1 + rng.index(20),
            rng.index(10),
            (b'A' + rng.index(26) as u8) as char,
            (b'A' + rng.index(26) as u8) as char,
        );
        let sponsors: Vec<String> = (0..rng.range(3, 6))
            .map(|_| {
                format!(
                    "{}{}",
                    cap(rng.pick(&v.names).as_str()),
                    rng.pick(&["", "ly", "Co", "Direct"])
                )
            })
            .collect();
        let slogans = (0..rng.range(6, 12))
            .map(|_| {
                let sponsor = rng.pick(&sponsors).clone();
                let x = v.noun(&mut rng).to_string();
                let text = rng
                    .pick(SLOGAN_FRAMES)
                    .replace("{n}", &(10 + rng.index(60)).to_string())
                    .replace("{y}", &(50 + rng.index(49)).to_string())
                    .replace("{X}", &cap(&x))
                    .replace("{x}", &x)
                    .replace("{S}", &sponsor);
                Slogan { text, sponsor }
            })
            .collect();
        // Distinct tags: a cloud never lists a topic twice.
        let n_tags = rng.range(10, 18);
        let mut tags: Vec<String> = Vec::with_capacity(n_tags);
        for _ in 0..n_tags * 4 {
            if tags.len() == n_tags {
                break;
            }
            let t = if rng.chance(50) {
                rng.pick(&words.topic_nouns).clone()
            } else {
                rng.pick(&words.places).clone()
            };
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        let newsletter_text = format!(
            "Get the best of {name} in your inbox every {}",
            rng.pick(&["morning", "evening", "week", "Friday"])
        );
        let classes = Classes::new(
            &mut rng,
            match style {
                Style::DivSoup => 45,
                Style::Html5 => 10,
                Style::Tables => 0,
            },
        );

        // Articles: publication order is page order; dates advance by irregular gaps.
        let start_year = 2003 + rng.index(14) as i64;
        let start = DateTime::new(
            start_year,
            1 + rng.index(12) as u32,
            1 + rng.index(28) as u32,
            0,
        )
        .add_minutes(6 * 60 + rng.below(12 * 60));
        let short_phase = rng.index(10);
        let mut when = start;
        let mut articles: Vec<ArticleMeta> = Vec::with_capacity(archive);
        let mut titles = std::collections::HashSet::new();
        for i in 0..archive {
            let mut ar = Rng::derive(seed, &[STREAM_ARTICLE, u64::from(site_index), i as u64]);
            when = when.add_minutes(60 + ar.below(40 * 60));
            let published = when;
            let updated = ar
                .chance(45)
                .then(|| published.add_minutes(20 + ar.below(30 * 60)));
            let tg = TextGen::new(&words, &mut ar);
            let mut title = tg.headline(&mut ar);
            // Titles are unique within a site (slugs and file names derive from them).
            let mut n = 2;
            while !titles.insert(title.clone()) {
                title = format!("{} {n}", tg.headline(&mut ar));
                n += 1;
            }
            let section = ar.index(sections.len());
            let id = 1000 + (i as u32) * 7 + ar.index(7) as u32;
            let slug = slugify(&title);
            let (y, m, d) = crate::dates::civil_from_days(published.day);
            let path = match (style, url_kind) {
                (Style::Html5, 0) => format!(
                    "/{}/{y:04}/{m:02}/{d:02}/{slug}",
                    slugify(&sections[section].text)
                ),
                (Style::Html5, _) => format!("/{}/{slug}-{id}", slugify(&sections[section].text)),
                (Style::DivSoup, 0) => format!("/{y:04}/{m:02}/{slug}.html"),
                (Style::DivSoup, _) => format!("/archives/{id}/{slug}"),
                (Style::Tables, 0) => format!("/news/article.php?id={id}"),
                (Style::Tables, _) => format!("/cgi-bin/story.pl?id={id}&s={}", section + 1),
            };
            // One sampled page in ten is very short (whatever the archive spacing).
            let short = sample
                .binary_search(&i)
                .is_ok_and(|pos| pos % 10 == short_phase);
            // Article lengths spread over 100..=1500 words, skewed towards shorter ones.
            let u = ar.below(1000);
            let target_words = if short {
                15 + ar.index(45)
            } else {
                100 + (u * u * 1400 / 1_000_000) as usize
            };
            articles.push(ArticleMeta {
                id,
                title,
                section,
                path,
                published,
                updated,
                author: TextGen::author(&words, &mut ar),
                short,
                target_words,
                key_nouns: tg.key_nouns().to_vec(),
                key_people: tg.key_people().to_vec(),
            });
        }
        let year = articles.last().map_or(start_year, |a| a.published.year());

        SitePlan {
            seed,
            site_index,
            style,
            domain,
            name,
            tagline,
            sections,
            secondary,
            footer_links,
            address,
            year,
            slogans,
            tags,
            newsletter_text,
            words,
            layout,
            classes,
            articles,
        }
    }
}

impl Layout {
    fn new(rng: &mut Rng, style: Style) -> Layout {
        let fmts = DateFmt::DATE_FORMATS;
        let pub_fmt = fmts[rng.index(fmts.len())];
        let upd_fmt = match rng.index(3) {
            0 => None,
            1 => Some(DateFmt::TimeOnly),
            _ => Some(fmts[rng.index(fmts.len())]),
        };
        let crumbs = match rng.index(3) {
            0 => CrumbPos::AboveLayout,
            1 => CrumbPos::AboveTitle,
            _ => CrumbPos::BelowTitle,
        };
        let session = match style {
            Style::Html5 => Session::None,
            Style::DivSoup => {
                if rng.chance(50) {
                    Session::JSessionId
                } else {
                    Session::None
                }
            }
            Style::Tables => {
                if rng.chance(75) {
                    Session::QuerySid
                } else {
                    Session::None
                }
            }
        };
        Layout {
            sidebar_left: rng.chance(35),
            crumbs,
            session,
            pub_fmt,
            upd_fmt,
            date_above_title: rng.chance(30),
            has_login: rng.chance(50),
            has_secondary: rng.chance(60),
            show_views: rng.chance(40),
            side_box: match rng.index(3) {
                0 => SideBox::TagCloud,
                1 => SideBox::Newsletter,
                _ => SideBox::Both,
            },
            menu_vertical: style == Style::Tables && rng.chance(50),
            inline_ad: style == Style::DivSoup && rng.chance(60),
            top_banner: rng.chance(50),
            upper_case: style == Style::Tables && rng.chance(50),
            unquoted: style == Style::Tables && rng.chance(70),
            indent: match style {
                Style::Html5 => "  ",
                Style::DivSoup => "\t",
                Style::Tables => "",
            },
            headline_tag: rng.pick_str(&["h1", "h2", "div"]),
            standfirst_pct: [0, 40, 80][rng.index(3)],
            crumb_sep: rng.pick_str(&[" \u{203a} ", " \u{bb} ", " / ", " > "]),
        }
    }
}
