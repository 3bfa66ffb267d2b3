//! The HTML5 semantic style: `header`, `nav`, `main`, `article`, `aside`, `footer`, `time`,
//! meaningful BEM-like class names, every element closed.

use crate::label::Region;
use crate::page::{AdPos, Block, BuiltPage, PageCtx, write_inlines};
use crate::site::{CrumbPos, SideBox};
use crate::tree::{Builder, SerOptions};

pub(crate) fn build(c: &PageCtx<'_>) -> BuiltPage {
    let plan = c.plan;
    let lay = &plan.layout;
    let mut b = Builder::new(lay.indent);
    b.doctype("DOCTYPE html");
    b.open("html", &[("lang", "en")]);
    head(&mut b, c);
    b.text("\n");
    let body_class = format!(
        "article-page section-{}",
        crate::site::slugify(&c.section().text)
    );
    b.open("body", &[("class", &body_class)]);
    b.nl();
    b.open("div", &[("class", plan.classes.get("wrapper"))]);
    site_header(&mut b, c);
    main_menu(&mut b, c);
    for ad in c.ads_at(AdPos::Banner) {
        b.page_data(|b| super::html5_ad(b, ad, "ad ad--banner"));
    }
    if lay.crumbs == CrumbPos::AboveLayout {
        crumbs(&mut b, c);
    }
    b.nl();
    b.open("div", &[("class", "layout")]);
    if lay.sidebar_left {
        sidebar(&mut b, c);
    }
    b.nl();
    b.open("main", &[("id", "main"), ("class", "layout__main")]);
    article(&mut b, c);
    prev_next(&mut b, c);
    b.end();
    if !lay.sidebar_left {
        sidebar(&mut b, c);
    }
    b.end();
    for ad in c.ads_at(AdPos::Bottom) {
        b.page_data(|b| super::html5_ad(b, ad, "ad ad--leaderboard"));
    }
    site_footer(&mut b, c);
    b.end();
    b.nl();
    b.close(); // body
    b.close(); // html
    BuiltPage {
        tree: b.finish(),
        ser: SerOptions::default(),
    }
}

fn head(b: &mut Builder, c: &PageCtx<'_>) {
    b.open("head", &[]);
    b.nl();
    b.void("meta", &[("charset", "utf-8")]);
    b.nl();
    b.data_leaf("title", &[], &format!("{} | {}", c.art.title, c.plan.name));
    b.nl();
    b.void(
        "meta",
        &[
            ("name", "viewport"),
            ("content", "width=device-width, initial-scale=1"),
        ],
    );
    if let Some(s) = &c.standfirst {
        b.nl();
        b.page_data(|b| b.void("meta", &[("name", "description"), ("content", s)]));
    }
    b.nl();
    b.void("link", &[("rel", "canonical"), ("href", &c.url())]);
    b.nl();
    b.void(
        "link",
        &[("rel", "stylesheet"), ("href", "/assets/site.css")],
    );
    b.nl();
    b.leaf(
        "script",
        &[],
        "window.dataLayer = window.dataLayer || []; dataLayer.push({page: 'article'});",
    );
    b.nl();
    b.close();
}

fn site_header(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.nl();
    b.open_in(Region::Header, "header", &[("class", "site-header")]);
    b.nl();
    b.open("div", &[("class", "site-header__brand")]);
    b.nl();
    b.open("a", &[("class", "logo"), ("href", &c.href("/"))]);
    b.void(
        "img",
        &[
            ("src", "/assets/logo.svg"),
            ("alt", &plan.name),
            ("width", "180"),
            ("height", "40"),
        ],
    );
    b.close();
    b.nl();
    b.leaf("p", &[("class", "tagline")], &plan.tagline);
    b.end();
    b.nl();
    b.open(
        "form",
        &[
            ("class", "search"),
            ("role", "search"),
            ("action", &c.href("/search")),
        ],
    );
    b.nl();
    b.leaf(
        "label",
        &[("for", "q"), ("class", "visually-hidden")],
        "Search the site",
    );
    b.nl();
    b.void(
        "input",
        &[
            ("type", "search"),
            ("id", "q"),
            ("name", "q"),
            ("placeholder", "Search"),
        ],
    );
    b.nl();
    b.leaf("button", &[("type", "submit")], "Search");
    b.end();
    if plan.layout.has_login {
        b.nl();
        b.open("div", &[("class", "account")]);
        b.leaf("a", &[("href", &c.href("/login"))], "Sign in");
        b.text(" ");
        b.leaf(
            "a",
            &[("href", &c.href("/register")), ("class", "button")],
            "Register",
        );
        b.close();
    }
    if plan.layout.has_secondary {
        b.nl();
        b.open_in(
            Region::SecondaryMenu,
            "nav",
            &[("class", "utility-nav"), ("aria-label", "Utility")],
        );
        b.nl();
        b.open("ul", &[]);
        for l in &plan.secondary {
            b.nl();
            b.open("li", &[]);
            b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
            b.close();
        }
        b.end();
        b.end();
    }
    b.end();
}

fn main_menu(b: &mut Builder, c: &PageCtx<'_>) {
    b.nl();
    b.open_in(
        Region::Menu,
        "nav",
        &[("class", "main-nav"), ("aria-label", "Sections")],
    );
    b.nl();
    b.open("ul", &[("class", "main-nav__list")]);
    for s in &c.plan.sections {
        b.nl();
        b.open("li", &[("class", "main-nav__item")]);
        b.leaf("a", &[("href", &c.href(&s.path))], &s.text);
        b.close();
    }
    b.end();
    b.end();
}

fn crumbs(b: &mut Builder, c: &PageCtx<'_>) {
    b.nl();
    b.open_in(
        Region::Breadcrumbs,
        "nav",
        &[("class", "breadcrumbs"), ("aria-label", "Breadcrumb")],
    );
    b.open("ol", &[]);
    b.open("li", &[]);
    b.leaf("a", &[("href", &c.href("/"))], "Home");
    b.close();
    b.open("li", &[]);
    b.data_leaf(
        "a",
        &[("href", &c.href(&c.section().path))],
        &c.section().text,
    );
    b.close();
    b.open("li", &[("aria-current", "page")]);
    b.data_text(&c.art.title);
    b.close();
    b.close();
    b.close();
}

fn dates(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    b.nl();
    b.open_in(Region::Date, "div", &[("class", "article-meta")]);
    b.data_leaf(
        "time",
        &[("datetime", &c.art.published.iso()), ("class", "published")],
        &c.art.published.format(lay.pub_fmt),
    );
    if let (Some(u), Some(fmt)) = (c.art.updated, lay.upd_fmt) {
        b.page_data(|b| {
            b.text(" \u{b7} ");
            b.open("span", &[("class", "updated")]);
            b.text("Updated ");
            b.leaf("time", &[("datetime", &u.iso())], &u.format(fmt));
            b.close();
        });
    }
    b.text(" \u{b7} ");
    b.open_in(
        Region::ArticleMeta,
        "span",
        &[("class", "article-meta__stats")],
    );
    b.data_leaf("a", &[("href", "#comments")], &c.comments_text());
    if lay.show_views {
        b.text(" \u{b7} ");
        b.data_text(&c.views_text());
    }
    b.close();
    b.close();
}

fn article(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    b.nl();
    let id = format!("article-{}", c.art.id);
    b.open("article", &[("id", &id), ("class", "article")]);
    b.nl();
    b.open("header", &[("class", "article__header")]);
    if lay.crumbs == CrumbPos::AboveTitle {
        crumbs(b, c);
    }
    if lay.date_above_title {
        dates(b, c);
    }
    b.nl();
    b.open_in(Region::Content, "h1", &[("class", "article__title")]);
    b.data_text(&c.art.title);
    b.close();
    if let Some(s) = &c.standfirst {
        b.nl();
        b.page_data(|b| {
            b.open_in(Region::Content, "p", &[("class", "standfirst")]);
            b.text(s);
            b.close();
        });
    }
    b.nl();
    b.open_in(Region::Content, "p", &[("class", "byline")]);
    b.text("By ");
    b.data_leaf(
        "a",
        &[("rel", "author"), ("href", &c.href("/authors/"))],
        &c.art.author,
    );
    b.close();
    if !lay.date_above_title {
        dates(b, c);
    }
    if lay.crumbs == CrumbPos::BelowTitle {
        crumbs(b, c);
    }
    b.end();
    b.nl();
    b.open_in(Region::Content, "div", &[("class", "article__body")]);
    for block in &c.blocks {
        b.nl();
        b.page_data(|b| match block {
            Block::Para(runs) => {
                b.open("p", &[]);
                write_inlines(b, c, runs);
                b.close();
            }
            Block::Subhead(t) => b.leaf("h2", &[], t),
            Block::List { ordered, items } => {
                b.open(if *ordered { "ol" } else { "ul" }, &[]);
                for it in items {
                    b.nl();
                    b.leaf("li", &[], it);
                }
                b.end();
            }
            Block::Quote(t) => {
                b.open("blockquote", &[]);
                b.leaf("p", &[], t);
                b.close();
            }
            Block::Figure { src, caption } => {
                b.open("figure", &[]);
                b.void("img", &[("src", src), ("alt", ""), ("loading", "lazy")]);
                b.leaf("figcaption", &[], caption);
                b.close();
            }
        });
    }
    b.end();
    b.nl();
    b.open_in(Region::Share, "footer", &[("class", "article__share")]);
    b.text("Share this article: ");
    for (i, net) in ["Facebook", "Twitter", "Email"].iter().enumerate() {
        if i > 0 {
            b.text(" ");
        }
        let href = format!(
            "https://share.example/{}?u={}",
            net.to_lowercase(),
            c.art.id
        );
        b.leaf("a", &[("href", &href)], net);
    }
    b.close();
    b.end();
}

fn prev_next(b: &mut Builder, c: &PageCtx<'_>) {
    let n = c.plan.articles.len();
    if n < 2 {
        return;
    }
    b.nl();
    b.open_in(Region::PrevNext, "nav", &[("class", "prev-next")]);
    if c.index > 0 {
        let p = c.article(c.index - 1);
        b.open("a", &[("rel", "prev"), ("href", &c.href(&p.path))]);
        b.leaf("span", &[], "Previous");
        b.text(" ");
        b.data_text(&p.title);
        b.close();
    }
    if c.index + 1 < n {
        let p = c.article(c.index + 1);
        b.open("a", &[("rel", "next"), ("href", &c.href(&p.path))]);
        b.leaf("span", &[], "Next");
        b.text(" ");
        b.data_text(&p.title);
        b.close();
    }
    b.close();
}

/// A list of links to other articles; the first `on_every_page` items are layout.
fn link_list(
    b: &mut Builder,
    c: &PageCtx<'_>,
    items: &[usize],
    on_every_page: usize,
    with_date: bool,
) {
    b.nl();
    b.open("ul", &[]);
    for (k, &j) in items.iter().enumerate() {
        let a = c.article(j);
        b.nl();
        b.page_data_if(k >= on_every_page, |b| {
            b.open("li", &[]);
            b.data_leaf("a", &[("href", &c.href(&a.path))], &a.title);
            if with_date {
                b.text(" ");
                b.data_leaf(
                    "time",
                    &[("datetime", &a.published.iso())],
                    &a.published.short_day(),
                );
            }
            b.close();
        });
    }
    b.end();
}

fn sidebar(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.nl();
    b.open_in(Region::Sidebar, "aside", &[("class", "sidebar")]);
    b.nl();
    b.open_in(
        Region::Latest,
        "section",
        &[("class", "widget widget--latest")],
    );
    b.nl();
    b.leaf("h2", &[], "Latest");
    link_list(b, c, &c.latest, c.latest.len(), true);
    b.end();
    for ad in c.ads_at(AdPos::Sidebar) {
        b.page_data(|b| super::html5_ad(b, ad, "ad ad--mpu"));
    }
    b.nl();
    b.open_in(
        Region::Related,
        "section",
        &[("class", "widget widget--related")],
    );
    b.nl();
    b.leaf("h2", &[], "Related stories");
    link_list(b, c, &c.related, super::RELATED_LAYOUT_ITEMS, false);
    b.end();
    if matches!(plan.layout.side_box, SideBox::TagCloud | SideBox::Both) {
        b.nl();
        b.open_in(
            Region::TagCloud,
            "section",
            &[("class", "widget widget--tags")],
        );
        b.nl();
        b.leaf("h2", &[], "Popular topics");
        b.nl();
        b.open("p", &[("class", "tag-cloud")]);
        for (i, t) in plan.tags.iter().enumerate() {
            if i > 0 {
                b.text(" ");
            }
            let href = c.href(&format!("/tag/{}", crate::site::slugify(t)));
            let class = format!("tag tag--{}", 1 + i % 4);
            b.leaf("a", &[("href", &href), ("class", &class)], t);
        }
        b.close();
        b.end();
    }
    if matches!(plan.layout.side_box, SideBox::Newsletter | SideBox::Both) {
        b.nl();
        b.open_in(
            Region::Newsletter,
            "section",
            &[("class", "widget widget--newsletter")],
        );
        b.nl();
        b.leaf("h2", &[], "Newsletter");
        b.nl();
        b.leaf("p", &[], &plan.newsletter_text);
        b.nl();
        b.open(
            "form",
            &[("action", &c.href("/newsletter")), ("method", "post")],
        );
        b.void(
            "input",
            &[
                ("type", "email"),
                ("name", "email"),
                ("placeholder", "Your email address"),
                ("required", ""),
            ],
        );
        b.leaf("button", &[("type", "submit")], "Sign up");
        b.close();
        b.end();
    }
    b.end();
}

fn site_footer(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.nl();
    b.open_in(Region::Footer, "footer", &[("class", "site-footer")]);
    b.nl();
    b.open("ul", &[("class", "site-footer__links")]);
    for l in &plan.footer_links {
        b.nl();
        b.open("li", &[]);
        b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
        b.close();
    }
    b.end();
    b.nl();
    b.leaf("p", &[("class", "copyright")], &c.copyright());
    b.nl();
    b.leaf("address", &[], &plan.address);
    b.end();
}
