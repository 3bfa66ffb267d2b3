//! The old table-layout style: nested tables, `<font>`, `<br>` separators, no semantic tags,
//! a quirks-mode doctype, upper-case tags on some sites, unquoted attributes, named character
//! references, and `<p>` / `<li>` elements left unclosed for the parser to close.
//!
//! Parser rules this style relies on (and the tests check):
//! * `<tbody>` is implied between `<table>` and `<tr>`; whitespace before the first `<tr>` is a
//!   child of the `<table>`, whitespace after it a child of the implied `<tbody>`;
//! * an unclosed `<p>` is closed by the next `<p>`, `<ul>`, `<blockquote>` or by `</td>`, and
//!   the newline after its text is still inside it; in quirks mode `<table>` does *not* close a
//!   `<p>`, so the last paragraph before template markup is always closed explicitly;
//! * an unclosed `<li>` is closed by the next `<li>` or by `</ul>`.

use crate::label::Region;
use crate::page::{Ad, AdPos, Block, BuiltPage, PageCtx, write_inlines};
use crate::site::{CrumbPos, SideBox};
use crate::tree::{Builder, SerOptions};

const FACE: &str = "Verdana,Arial,Helvetica,sans-serif";

pub(crate) fn build(c: &PageCtx<'_>) -> BuiltPage {
    let plan = c.plan;
    let lay = &plan.layout;
    let mut b = Builder::new(lay.indent);
    b.doctype("DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"");
    b.open("html", &[]);
    head(&mut b, c);
    b.text("\n");
    b.open(
        "body",
        &[
            ("bgcolor", "#FFFFFF"),
            ("text", "#000000"),
            ("link", "#003399"),
            ("vlink", "#663399"),
            ("topmargin", "0"),
            ("leftmargin", "0"),
        ],
    );
    b.nl();
    b.open(
        "table",
        &[
            ("width", "100%"),
            ("border", "0"),
            ("cellspacing", "0"),
            ("cellpadding", "0"),
        ],
    );
    b.nl();
    b.open_implied("tbody");
    header_row(&mut b, c);
    b.nl();
    if !lay.menu_vertical {
        menu_bar(&mut b, c);
        b.nl();
    }
    if lay.has_secondary {
        b.open_in(Region::SecondaryMenu, "tr", &[]);
        b.open("td", &[("align", "right"), ("bgcolor", "#DDDDDD")]);
        b.open("font", &[("size", "1"), ("face", FACE)]);
        for (i, l) in plan.secondary.iter().enumerate() {
            if i > 0 {
                b.text(" \u{b7} ");
            }
            b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
        }
        b.close();
        b.close();
        b.close();
        b.nl();
    }
    if lay.crumbs == CrumbPos::AboveLayout {
        b.open_in(Region::Breadcrumbs, "tr", &[]);
        b.open("td", &[]);
        crumbs(&mut b, c);
        b.close();
        b.close();
        b.nl();
    }
    ad_rows(&mut b, c, AdPos::Banner);
    b.open("tr", &[]);
    b.open("td", &[("valign", "top")]);
    b.nl();
    columns(&mut b, c);
    b.nl();
    b.close();
    b.close();
    b.nl();
    ad_rows(&mut b, c, AdPos::Bottom);
    footer_row(&mut b, c);
    b.nl();
    b.close(); // tbody (implied)
    b.close(); // table
    b.nl();
    b.close(); // body
    b.close(); // html
    BuiltPage {
        tree: b.finish(),
        ser: SerOptions {
            upper_case: lay.upper_case,
            named_entities: true,
            unquoted_attrs: lay.unquoted,
        },
    }
}

fn head(b: &mut Builder, c: &PageCtx<'_>) {
    b.open("head", &[]);
    b.nl();
    b.data_leaf("title", &[], &format!("{} - {}", c.plan.name, c.art.title));
    b.nl();
    b.void(
        "meta",
        &[
            ("http-equiv", "Content-Type"),
            ("content", "text/html; charset=utf-8"),
        ],
    );
    b.nl();
    b.void(
        "meta",
        &[("name", "keywords"), ("content", &c.plan.tags.join(", "))],
    );
    b.nl();
    b.leaf(
        "script",
        &[("language", "JavaScript")],
        "function popup(u) { window.open(u, 'win', 'width=400,height=300'); }",
    );
    b.nl();
    b.leaf(
        "style",
        &[("type", "text/css")],
        "body, td { font-family: Verdana, Arial; font-size: 12px; } a { text-decoration: none; }",
    );
    b.nl();
    b.close();
}

fn header_row(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.open_in(Region::Header, "tr", &[]);
    b.open("td", &[]);
    b.nl();
    b.open(
        "table",
        &[
            ("width", "100%"),
            ("border", "0"),
            ("cellpadding", "4"),
            ("cellspacing", "0"),
        ],
    );
    b.open_implied("tbody");
    b.open("tr", &[]);
    b.open("td", &[("width", "50%")]);
    b.open("a", &[("href", &c.href("/"))]);
    b.void(
        "img",
        &[
            ("src", "/images/logo.gif"),
            ("alt", &plan.name),
            ("border", "0"),
            ("width", "300"),
            ("height", "60"),
        ],
    );
    b.close();
    b.close();
    b.nl();
    b.open("td", &[("align", "right"), ("valign", "bottom")]);
    b.open("font", &[("size", "1"), ("face", FACE)]);
    b.text(&plan.tagline);
    b.close();
    b.void("br", &[]);
    b.open(
        "form",
        &[("action", &c.href("/search.php")), ("method", "get")],
    );
    b.void("input", &[("type", "text"), ("name", "q"), ("size", "15")]);
    b.void("input", &[("type", "submit"), ("value", "Search")]);
    b.close();
    if plan.layout.has_login {
        b.open("font", &[("size", "1")]);
        b.leaf("a", &[("href", &c.href("/login.php"))], "Login");
        b.text(" | ");
        b.leaf("a", &[("href", &c.href("/register.php"))], "Register");
        b.close();
    }
    b.close(); // td
    b.close(); // tr
    b.close(); // tbody
    b.close(); // table
    b.nl();
    b.close(); // td
    b.close(); // tr
}

fn menu_bar(b: &mut Builder, c: &PageCtx<'_>) {
    b.open_in(Region::Menu, "tr", &[]);
    b.open("td", &[("bgcolor", "#003366"), ("height", "22")]);
    b.open(
        "font",
        &[("face", FACE), ("size", "2"), ("color", "#FFFFFF")],
    );
    b.open("b", &[]);
    b.text("\u{a0}");
    for (i, s) in c.plan.sections.iter().enumerate() {
        if i > 0 {
            b.text("\u{a0}|\u{a0}");
        }
        b.open("a", &[("href", &c.href(&s.path))]);
        b.leaf("font", &[("color", "#FFFFFF")], &s.text);
        b.close();
    }
    b.close();
    b.close();
    b.close();
    b.close();
}

fn menu_table(b: &mut Builder, c: &PageCtx<'_>) {
    b.open_in(
        Region::Menu,
        "table",
        &[
            ("width", "100%"),
            ("border", "0"),
            ("cellpadding", "3"),
            ("cellspacing", "1"),
        ],
    );
    b.nl();
    b.open_implied("tbody");
    b.open("tr", &[]);
    b.open("td", &[("bgcolor", "#003366")]);
    b.open("font", &[("color", "#FFFFFF"), ("size", "2")]);
    b.leaf("b", &[], "Sections");
    b.close();
    b.close();
    b.close();
    for s in &c.plan.sections {
        b.nl();
        b.open("tr", &[]);
        b.open("td", &[("bgcolor", "#EEEEEE")]);
        b.open("font", &[("size", "2"), ("face", FACE)]);
        b.text("\u{bb} ");
        b.leaf("a", &[("href", &c.href(&s.path))], &s.text);
        b.close();
        b.close();
        b.close();
    }
    b.nl();
    b.close(); // tbody
    b.close(); // table
}

fn crumbs(b: &mut Builder, c: &PageCtx<'_>) {
    let sep = c.plan.layout.crumb_sep;
    b.open_in(
        Region::Breadcrumbs,
        "font",
        &[("size", "1"), ("face", FACE)],
    );
    b.leaf("a", &[("href", &c.href("/"))], "Home");
    b.text(sep);
    b.data_leaf(
        "a",
        &[("href", &c.href(&c.section().path))],
        &c.section().text,
    );
    b.text(sep);
    b.data_text(&c.art.title);
    b.close();
}

/// The page's ads at `pos`, each a centred table row of its own (page data: not every page
/// has them).
fn ad_rows(b: &mut Builder, c: &PageCtx<'_>, pos: AdPos) {
    for ad in c.ads_at(pos) {
        b.page_data(|b| {
            b.open_in(Region::Ad, "tr", &[]);
            b.open("td", &[("align", "center")]);
            self::ad(b, ad);
            b.close();
            b.close();
        });
        b.nl();
    }
}

fn ad(b: &mut Builder, ad: &Ad) {
    b.open_in(Region::Ad, "center", &[]);
    b.leaf(
        "font",
        &[("size", "1"), ("color", "#999999")],
        "ADVERTISEMENT",
    );
    b.void("br", &[]);
    b.open("a", &[("href", &ad.href), ("target", "_blank")]);
    b.leaf("font", &[("size", "2")], &ad.text);
    b.close();
    b.close();
}

fn columns(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    b.open(
        "table",
        &[
            ("width", "100%"),
            ("border", "0"),
            ("cellspacing", "0"),
            ("cellpadding", "6"),
        ],
    );
    b.nl();
    b.open_implied("tbody");
    b.open("tr", &[]);
    b.nl();
    if lay.sidebar_left {
        b.open_in(
            Region::Sidebar,
            "td",
            &[("width", "180"), ("valign", "top"), ("bgcolor", "#F4F4F4")],
        );
        if lay.menu_vertical {
            b.nl();
            menu_table(b, c);
            b.nl();
            b.void("br", &[]);
        }
        sidebar_boxes(b, c);
        b.nl();
        b.close();
        b.nl();
    } else if lay.menu_vertical {
        b.open_in(
            Region::Menu,
            "td",
            &[("width", "160"), ("valign", "top"), ("bgcolor", "#F4F4F4")],
        );
        b.nl();
        menu_table(b, c);
        b.nl();
        b.close();
        b.nl();
    }
    main_column(b, c);
    b.nl();
    if !lay.sidebar_left {
        b.open_in(
            Region::Sidebar,
            "td",
            &[("width", "180"), ("valign", "top")],
        );
        sidebar_boxes(b, c);
        b.nl();
        b.close();
        b.nl();
    }
    b.close(); // tr
    b.nl();
    b.close(); // tbody
    b.close(); // table
}

/// A line break between regions: template markup holding no text.
fn spacer(b: &mut Builder) {
    b.void_in(Region::Layout, "br", &[]);
    b.nl();
}

fn date_line(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    b.open_in(Region::Date, "font", &[("size", "1"), ("color", "#666666")]);
    b.data_text(&c.art.published.format(lay.pub_fmt));
    if let (Some(u), Some(fmt)) = (c.art.updated, lay.upd_fmt) {
        b.text(" - updated ");
        b.data_text(&u.format(fmt));
    }
    b.close();
    spacer(b);
}

fn main_column(b: &mut Builder, c: &PageCtx<'_>) {
    let lay = &c.plan.layout;
    b.open("td", &[("valign", "top")]);
    b.nl();
    b.comment(" BEGIN STORY ");
    b.nl();
    if lay.crumbs == CrumbPos::AboveTitle {
        crumbs(b, c);
        spacer(b);
        spacer(b);
    }
    if lay.date_above_title {
        date_line(b, c);
    }
    b.open_in(
        Region::Content,
        "font",
        &[("face", "Georgia,Times"), ("size", "5")],
    );
    b.data_leaf("b", &[], &c.art.title);
    b.close();
    spacer(b);
    if let Some(s) = &c.standfirst {
        b.page_data(|b| {
            b.open_in(Region::Content, "p", &[]);
            b.leaf("i", &[], s);
            b.close();
            b.nl();
        });
    }
    b.open_in(Region::Content, "font", &[("size", "2")]);
    b.text("By ");
    b.data_leaf("b", &[], &c.art.author);
    b.close();
    spacer(b);
    if !lay.date_above_title {
        date_line(b, c);
    }
    if lay.crumbs == CrumbPos::BelowTitle {
        crumbs(b, c);
        spacer(b);
    }
    let last = c.blocks.len().saturating_sub(1);
    for (i, block) in c.blocks.iter().enumerate() {
        // Every block here is followed either by another block, whose start tag closes an
        // open <p>, or (the last one) by template markup, so only the last is closed.
        let close_p = i == last;
        b.page_data(|b| match block {
            Block::Para(runs) => {
                b.open_in(Region::Content, "p", &[]);
                b.open("font", &[("face", FACE), ("size", "2")]);
                write_inlines(b, c, runs);
                b.close();
                end_p(b, close_p);
            }
            Block::Subhead(t) => {
                b.open_in(Region::Content, "p", &[]);
                b.leaf("b", &[], t);
                end_p(b, close_p);
            }
            Block::Figure { src, caption } => {
                b.open_in(Region::Content, "p", &[("align", "center")]);
                b.void("img", &[("src", src), ("border", "0"), ("alt", "")]);
                b.void("br", &[]);
                b.leaf("font", &[("size", "1")], caption);
                end_p(b, close_p);
            }
            Block::List { ordered, items } => {
                b.open_in(Region::Content, if *ordered { "ol" } else { "ul" }, &[]);
                b.nl();
                for it in items {
                    b.open("li", &[]);
                    b.text(it);
                    b.nl();
                    b.close_implied();
                }
                b.close();
                b.nl();
            }
            Block::Quote(t) => {
                b.open_in(Region::Content, "blockquote", &[]);
                b.leaf("i", &[], t);
                b.close();
                b.nl();
            }
        });
    }
    b.open_in(Region::ArticleMeta, "font", &[("size", "1")]);
    b.data_leaf(
        "a",
        &[("href", &c.href(&format!("/comments.php?id={}", c.art.id)))],
        &c.comments_text(),
    );
    if c.plan.layout.show_views {
        b.text(" | ");
        b.data_text(&c.views_text());
    }
    b.text(" | ");
    b.leaf(
        "a",
        &[(
            "href",
            &format!("javascript:popup('/print.php?id={}')", c.art.id),
        )],
        "Printer-friendly version",
    );
    b.text(" | ");
    b.leaf(
        "a",
        &[("href", &c.href(&format!("/email.php?id={}", c.art.id)))],
        "E-mail this story",
    );
    b.close();
    b.nl();
    prev_next(b, c);
    b.nl();
    b.comment(" END STORY ");
    b.nl();
    b.close();
}

/// Ends a `<p>`: with an end tag, or leaves it open with the following newline inside it
/// (where the parser puts that newline).
fn end_p(b: &mut Builder, close: bool) {
    if close {
        b.close();
        b.nl();
    } else {
        b.nl();
        b.close_implied();
    }
}

fn prev_next(b: &mut Builder, c: &PageCtx<'_>) {
    let n = c.plan.articles.len();
    if n < 2 {
        return;
    }
    b.open_in(
        Region::PrevNext,
        "table",
        &[("width", "100%"), ("border", "0"), ("cellpadding", "2")],
    );
    b.open_implied("tbody");
    b.open("tr", &[]);
    b.open("td", &[("align", "left")]);
    if c.index > 0 {
        let p = c.article(c.index - 1);
        b.open("font", &[("size", "1")]);
        b.text("\u{ab} ");
        b.data_leaf("a", &[("href", &c.href(&p.path))], &p.title);
        b.close();
    }
    b.close();
    b.open("td", &[("align", "right")]);
    if c.index + 1 < n {
        let p = c.article(c.index + 1);
        b.open("font", &[("size", "1")]);
        b.data_leaf("a", &[("href", &c.href(&p.path))], &p.title);
        b.text(" \u{bb}");
        b.close();
    }
    b.close();
    b.close(); // tr
    b.close(); // tbody
    b.close(); // table
}

/// A box of the sidebar: a two-row table with a coloured title row.
fn box_start(b: &mut Builder, region: Region, title: &str) {
    b.nl();
    b.open_in(
        region,
        "table",
        &[
            ("width", "100%"),
            ("border", "0"),
            ("cellpadding", "3"),
            ("cellspacing", "0"),
        ],
    );
    b.open_implied("tbody");
    b.open("tr", &[]);
    b.open("td", &[("bgcolor", "#336699")]);
    b.open(
        "font",
        &[("color", "#FFFFFF"), ("size", "2"), ("face", FACE)],
    );
    b.leaf("b", &[], title);
    b.close();
    b.close();
    b.close();
    b.open("tr", &[]);
    b.open("td", &[]);
}

fn box_end(b: &mut Builder) {
    b.close(); // td
    b.close(); // tr
    b.close(); // tbody
    b.close(); // table
}

/// Links to other articles; the first `on_every_page` are layout.
fn article_links(b: &mut Builder, c: &PageCtx<'_>, items: &[usize], on_every_page: usize) {
    b.open("font", &[("size", "1"), ("face", FACE)]);
    for (i, &j) in items.iter().enumerate() {
        let a = c.article(j);
        b.page_data_if(i >= on_every_page, |b| {
            if i > 0 {
                b.void("br", &[]);
            }
            b.text("\u{bb} ");
            b.data_leaf("a", &[("href", &c.href(&a.path))], &a.title);
        });
    }
    b.close();
}

fn sidebar_boxes(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    box_start(b, Region::Latest, "Latest News");
    article_links(b, c, &c.latest, c.latest.len());
    box_end(b);
    for ad in c.ads_at(AdPos::Sidebar) {
        b.nl();
        b.page_data(|b| {
            b.void("br", &[]);
            self::ad(b, ad);
        });
    }
    b.nl();
    b.void("br", &[]);
    box_start(b, Region::Related, "See Also");
    article_links(b, c, &c.related, super::RELATED_LAYOUT_ITEMS);
    box_end(b);
    if matches!(plan.layout.side_box, SideBox::TagCloud | SideBox::Both) {
        b.nl();
        b.void("br", &[]);
        box_start(b, Region::TagCloud, "Hot Topics");
        for (i, t) in plan.tags.iter().enumerate() {
            let size = (1 + i % 3).to_string();
            b.open("font", &[("size", &size)]);
            let href = c.href(&format!("/topic.php?t={}", crate::site::slugify(t)));
            b.leaf("a", &[("href", &href)], t);
            b.close();
            b.text(" ");
        }
        box_end(b);
    }
    if matches!(plan.layout.side_box, SideBox::Newsletter | SideBox::Both) {
        b.nl();
        b.void("br", &[]);
        box_start(b, Region::Newsletter, "Free Newsletter");
        b.open(
            "form",
            &[("action", &c.href("/newsletter.php")), ("method", "post")],
        );
        b.leaf("font", &[("size", "1")], &plan.newsletter_text);
        b.void("br", &[]);
        b.void(
            "input",
            &[("type", "text"), ("name", "email"), ("size", "12")],
        );
        b.void("input", &[("type", "submit"), ("value", "Subscribe")]);
        b.close();
        box_end(b);
    }
}

fn footer_row(b: &mut Builder, c: &PageCtx<'_>) {
    let plan = c.plan;
    b.open_in(Region::Footer, "tr", &[]);
    b.open("td", &[("align", "center"), ("bgcolor", "#EEEEEE")]);
    b.open("font", &[("size", "1"), ("face", FACE)]);
    for (i, l) in plan.footer_links.iter().enumerate() {
        if i > 0 {
            b.text(" | ");
        }
        b.leaf("a", &[("href", &c.href(&l.path))], &l.text);
    }
    b.void("br", &[]);
    b.text(&c.copyright());
    b.void("br", &[]);
    b.text(&plan.address);
    b.close();
    b.close();
    b.close();
}
