//! The div-soup style of the blog era: `div`s with ids and classes (some meaningful, some
//! obfuscated), an XHTML doctype, comments marking blocks, ads between paragraphs.

use crate::label::Region;
use crate::page::{Ad, AdPos, Block, BuiltPage, PageCtx, write_inlines};
use crate::site::{CrumbPos, SideBox};
use crate::tree::{Builder, SerOptions};

pub(crate) fn build(c: &PageCtx<'_>) -> BuiltPage {
    let plan = c.plan;
    let lay = &plan.layout;
    let k = &plan.classes;
    let mut b = Builder::new(lay.indent);
    b.doctype(
        "DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \
         \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\"",
    );
    b.open(
        "html",
        &[("xmlns", "http://www.w3.org/1999/xhtml"), ("lang", "en")],
    );
    head(&mut b, c);
    b.text("\n");
    let body_class = format!("single postid-{}", c.art.id);
    b.open("body", &[("class", &body_class)]);
    b.nl();
    b.open("div", &[("id", k.get("wrapper"))]);
    b.nl();
    b.comment(" header ");
    header(&mut b, c);
    menu(&mut b, c);
    if lay.crumbs == CrumbPos::AboveLayout {
        crumbs(&mut b, c);
    }
    for ad in c.ads_at(AdPos::Banner) {
        b.page_data(|b| self::ad(b, c, ad));
    }
    b.nl();
    b.open("div", &[("id", k.get("container"))]);
    if lay.sidebar_left {
        sidebar(&mut b, c);
    }
    b.nl();
    b.open(
        "div",
        &[("id", k.get("content")), ("class", "narrowcolumn")],
    );
    post(&mut b, c);
    navigation(&mut b, c);
    b.end();
    if !lay.sidebar_left {
        sidebar(&mut b, c);
    }
    b.nl();
    b.open_in(Region::Layout, "div", &[("class", k.get("clear"))]);
    b.close();
    b.end();
    for ad in c.ads_at(AdPos::Bottom) {
        b.page_data(|b| self::ad(b, c, ad));
    }
    footer(&mut b, c);
    b.end();
    b.nl();
    b.comment(" page generated in 0.31 seconds ");
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
    b.void(
        "meta",
        &[
            ("http-equiv", "Content-Type"),
            ("content", "text/html; charset=UTF-8"),
        ],
    );
    b.nl();
    b.data_leaf(
        "title",
        &[],
        &format!("{} \u{bb} {}", c.plan.name, c.art.title),
    );
    b.nl();
    b.void(
        "link",
        &[
            ("rel", "stylesheet"),
            ("href", "/wp-content/themes/default/style.css"),
            ("type", "text/css"),
        ],
    );
    b.nl();
    b.void(
        "link",
        &[
            ("rel", "alternate"),
            ("type", "application/rss+xml"),
            ("href", "/feed/"),
        ],
    );
    b.nl();
    b.leaf(
        "script",
        &[("type", "text/javascript")],
        "var _gaq = _gaq || []; _gaq.push(['_trackPageview']);",
    );
    b.nl();
    b.close();
}

fn header(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    let k = &plan.classes;
    b.nl();
    b.open_in(
        Region::Header,
        "div",
        &[("id", k.get("header")), ("class", "clearfix")],
    );
    b.nl();
    b.open("div", &[("class", k.get("logo"))]);
    b.open("a", &[("href", &c.href("/")), ("title", &plan.name)]);
    b.void("img", &[("src", "/images/logo.gif"), ("alt", &plan.name)]);
    b.close();
    b.close();
    b.nl();
    b.leaf("div", &[("class", k.get("tagline"))], &plan.tagline);
    b.nl();
    b.open("div", &[("class", k.get("search"))]);
    b.open("form", &[("method", "get"), ("action", &c.href("/"))]);
    b.void(
        "input",
        &[
            ("type", "text"),
            ("name", "s"),
            ("value", ""),
            ("size", "18"),
        ],
    );
    b.void("input", &[("type", "submit"), ("value", "Search")]);
    b.close();
    b.close();
    if plan.layout.has_secondary {
        b.nl();
        b.open_in(
            Region::SecondaryMenu,
            "div",
            &[("class", k.get("toplinks"))],
        );
        for (i, l) in plan.secondary.iter().enumerate() {
            if i > 0 {
                b.text(" | ");
            }
            b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
        }
        b.close();
    }
    if plan.layout.has_login {
        b.nl();
        b.open("div", &[("class", "login")]);
        b.text("Welcome, guest! ");
        b.leaf("a", &[("href", &c.href("/wp-login.php"))], "Log in");
        b.text(" or ");
        b.leaf(
            "a",
            &[("href", &c.href("/wp-login.php?action=register"))],
            "register",
        );
        b.close();
    }
    b.end();
}

fn menu(b: &mut Builder, c: &PageCtx<'_>) {
    let k = &c.plan.classes;
    b.nl();
    b.open_in(Region::Menu, "div", &[("id", k.get("nav"))]);
    b.nl();
    b.open("ul", &[]);
    for (i, s) in c.plan.sections.iter().enumerate() {
        b.nl();
        let class = format!("page_item page-item-{}", i + 2);
        b.open("li", &[("class", &class)]);
        b.open("a", &[("href", &c.href(&s.path))]);
        b.leaf("span", &[], &s.text);
        b.close();
        b.close();
    }
    b.end();
    b.end();
}

fn crumbs(b: &mut Builder, c: &PageCtx<'_>) {
    let sep = c.plan.layout.crumb_sep;
    b.nl();
    b.open_in(
        Region::Breadcrumbs,
        "div",
        &[("class", c.plan.classes.get("crumbs"))],
    );
    b.text("You are here: ");
    b.leaf("a", &[("href", &c.href("/"))], "Home");
    b.text(sep);
    b.data_leaf(
        "a",
        &[("href", &c.href(&c.section().path))],
        &c.section().text,
    );
    b.text(sep);
    b.data_leaf("span", &[("class", "current")], &c.art.title);
    b.close();
}

fn ad(b: &mut Builder, c: &PageCtx<'_>, ad: &Ad) {
    let k = &c.plan.classes;
    b.nl();
    let id = match ad.pos {
        AdPos::Banner => "ad-top",
        AdPos::Sidebar => "ad-side",
        AdPos::InArticle => "ad-inline",
        AdPos::Bottom => "ad-bottom",
    };
    b.open_in(Region::Ad, "div", &[("class", k.get("ad")), ("id", id)]);
    b.leaf("span", &[("class", "small")], "Sponsored");
    b.void("br", &[]);
    b.leaf("a", &[("href", &ad.href), ("target", "_blank")], &ad.text);
    b.close();
}

fn post_info(b: &mut Builder, c: &PageCtx<'_>) {
    let k = &c.plan.classes;
    let lay = &c.plan.layout;
    b.nl();
    b.open("div", &[("class", k.get("postinfo"))]);
    b.open_in(Region::Date, "span", &[("class", k.get("date"))]);
    b.text("Posted on ");
    b.data_text(&c.art.published.format(lay.pub_fmt));
    if let (Some(u), Some(fmt)) = (c.art.updated, lay.upd_fmt) {
        b.text(" | Last updated ");
        b.data_text(&u.format(fmt));
    }
    b.close();
    b.text(" ");
    b.open_in(Region::Content, "span", &[("class", k.get("author"))]);
    b.text("by ");
    b.data_leaf("a", &[("href", &c.href("/author/"))], &c.art.author);
    b.close();
    b.close();
}

fn post(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    let k = &c.plan.classes;
    b.nl();
    let id = format!("post-{}", c.art.id);
    b.open("div", &[("class", k.get("post")), ("id", &id)]);
    if lay.crumbs == CrumbPos::AboveTitle {
        crumbs(b, c);
    }
    if lay.date_above_title {
        post_info(b, c);
    }
    b.nl();
    b.open_in(
        Region::Content,
        lay.headline_tag,
        &[("class", k.get("title"))],
    );
    b.open("a", &[("href", &c.href(&c.art.path)), ("rel", "bookmark")]);
    b.data_text(&c.art.title);
    b.close();
    b.close();
    if let Some(s) = &c.standfirst {
        b.nl();
        b.page_data(|b| {
            b.open_in(Region::Content, "div", &[("class", k.get("intro"))]);
            b.leaf("strong", &[], s);
            b.close();
        });
    }
    if !lay.date_above_title {
        post_info(b, c);
    }
    if lay.crumbs == CrumbPos::BelowTitle {
        crumbs(b, c);
    }
    // The entry is content unless an ad sits between its paragraphs, in which case it is a
    // structure container whose blocks are content one by one.
    let entry_region = if c.inline_ad_after.is_some() {
        Region::Structure
    } else {
        Region::Content
    };
    b.nl();
    b.open_in(entry_region, "div", &[("class", k.get("entry"))]);
    for (i, block) in c.blocks.iter().enumerate() {
        b.nl();
        b.page_data(|b| match block {
            Block::Para(runs) => {
                b.open_in(Region::Content, "p", &[]);
                write_inlines(b, c, runs);
                b.close();
            }
            Block::Subhead(t) => {
                b.open_in(Region::Content, "h3", &[]);
                b.text(t);
                b.close();
            }
            Block::List { ordered, items } => {
                b.open_in(Region::Content, if *ordered { "ol" } else { "ul" }, &[]);
                for it in items {
                    b.nl();
                    b.leaf("li", &[], it);
                }
                b.end();
            }
            Block::Quote(t) => {
                b.open_in(Region::Content, "blockquote", &[]);
                b.leaf("p", &[], t);
                b.close();
            }
            Block::Figure { src, caption } => {
                b.open_in(
                    Region::Content,
                    "div",
                    &[("class", "wp-caption aligncenter")],
                );
                b.void("img", &[("src", src), ("alt", caption), ("width", "450")]);
                b.leaf("p", &[("class", "wp-caption-text")], caption);
                b.close();
            }
        });
        if c.inline_ad_after == Some(i) {
            for ad in c.ads_at(AdPos::InArticle) {
                b.page_data(|b| self::ad(b, c, ad));
            }
        }
    }
    b.end();
    b.nl();
    b.open_in(
        Region::ArticleMeta,
        "div",
        &[("class", k.get("postfooter"))],
    );
    b.text("Filed under ");
    b.data_leaf(
        "a",
        &[
            ("href", &c.href(&c.section().path)),
            ("rel", "category tag"),
        ],
        &c.section().text,
    );
    b.text(" | ");
    b.data_leaf(
        "a",
        &[("href", &c.href(&format!("{}#comments", c.art.path)))],
        &c.comments_text(),
    );
    if lay.show_views {
        b.text(" | ");
        b.data_text(&c.views_text());
    }
    b.close();
    b.nl();
    b.open_in(Region::Share, "div", &[("class", k.get("share"))]);
    b.text("Share this: ");
    for (i, net) in ["Digg", "del.icio.us", "Facebook", "StumbleUpon"]
        .iter()
        .enumerate()
    {
        if i > 0 {
            b.text(" \u{b7} ");
        }
        let href = format!("http://share.example/submit?site={net}&id={}", c.art.id);
        b.leaf("a", &[("href", &href)], net);
    }
    b.close();
    b.end();
    b.nl();
    b.comment(" end post ");
}

fn navigation(b: &mut Builder, c: &PageCtx<'_>) {
    let n = c.plan.articles.len();
    if n < 2 {
        return;
    }
    b.nl();
    b.open_in(
        Region::PrevNext,
        "div",
        &[("class", c.plan.classes.get("navigation"))],
    );
    if c.index > 0 {
        let p = c.article(c.index - 1);
        b.open("div", &[("class", "alignleft")]);
        b.data_leaf(
            "a",
            &[("href", &c.href(&p.path))],
            &format!("\u{ab} {}", p.title),
        );
        b.close();
    }
    if c.index + 1 < n {
        let p = c.article(c.index + 1);
        b.open("div", &[("class", "alignright")]);
        b.data_leaf(
            "a",
            &[("href", &c.href(&p.path))],
            &format!("{} \u{bb}", p.title),
        );
        b.close();
    }
    b.close();
}

/// A widget listing other articles; the first `on_every_page` items are layout.
fn widget_list(
    b: &mut Builder,
    c: &PageCtx<'_>,
    region: Region,
    title: &str,
    items: &[usize],
    on_every_page: usize,
) {
    b.nl();
    b.open_in(region, "li", &[("class", c.plan.classes.get("widget"))]);
    b.leaf("h3", &[], title);
    b.nl();
    b.open("ul", &[]);
    for (n, &j) in items.iter().enumerate() {
        let a = c.article(j);
        b.nl();
        b.page_data_if(n >= on_every_page, |b| {
            b.open("li", &[]);
            b.data_leaf(
                "a",
                &[("href", &c.href(&a.path)), ("title", &a.title)],
                &a.title,
            );
            b.close();
        });
    }
    b.end();
    b.end();
}

fn sidebar(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    let k = &plan.classes;
    b.nl();
    b.open_in(Region::Sidebar, "div", &[("id", k.get("sidebar"))]);
    b.nl();
    b.open("ul", &[]);
    widget_list(
        b,
        c,
        Region::Latest,
        "Recent Posts",
        &c.latest,
        c.latest.len(),
    );
    for ad in c.ads_at(AdPos::Sidebar) {
        b.nl();
        b.page_data(|b| {
            b.open("li", &[]);
            self::ad(b, c, ad);
            b.close();
        });
    }
    widget_list(
        b,
        c,
        Region::Related,
        "You might also like",
        &c.related,
        super::RELATED_LAYOUT_ITEMS,
    );
    if matches!(plan.layout.side_box, SideBox::TagCloud | SideBox::Both) {
        b.nl();
        b.open_in(Region::TagCloud, "li", &[("class", k.get("widget"))]);
        b.leaf("h3", &[], "Tags");
        b.nl();
        b.open("div", &[("class", "tagcloud")]);
        for (i, t) in plan.tags.iter().enumerate() {
            let style = format!("font-size: {}pt;", 8 + (i * 7) % 14);
            let href = c.href(&format!("/tag/{}/", crate::site::slugify(t)));
            b.leaf("a", &[("href", &href), ("style", &style)], t);
            b.text(" ");
        }
        b.close();
        b.close();
    }
    if matches!(plan.layout.side_box, SideBox::Newsletter | SideBox::Both) {
        b.nl();
        b.open_in(Region::Newsletter, "li", &[("class", k.get("widget"))]);
        b.leaf("h3", &[], "Subscribe by email");
        b.open(
            "form",
            &[("action", &c.href("/subscribe")), ("method", "post")],
        );
        b.leaf("p", &[], &plan.newsletter_text);
        b.void(
            "input",
            &[("type", "text"), ("name", "email"), ("value", "")],
        );
        b.void("input", &[("type", "submit"), ("value", "Subscribe")]);
        b.close();
        b.close();
    }
    b.end();
    b.end();
}

fn footer(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.nl();
    b.open_in(Region::Footer, "div", &[("id", plan.classes.get("footer"))]);
    b.nl();
    b.open("p", &[]);
    for (i, l) in plan.footer_links.iter().enumerate() {
        if i > 0 {
            b.text(" | ");
        }
        b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
    }
    b.close();
    b.nl();
    b.leaf("p", &[], &c.copyright());
    b.nl();
    b.leaf("p", &[("class", "address")], &plan.address);
    b.end();
}
