//! One small page per style, pinned: the HTML followed by an outline of its regions (every
//! element that starts a region, with its depth, tag and region). A change to the generator's
//! output shows up here as a readable diff.

use chaff_synth::{Region, SiteConfig, Style, generate_site};

fn snapshot(style: Style) -> String {
    let site = generate_site(&SiteConfig {
        seed: 2024,
        site_index: 0,
        pages: 10,
        archive: None,
        style: Some(style),
        domain: None,
    });
    // The site's single very short page keeps the snapshot small.
    let page = site
        .pages
        .iter()
        .find(|p| p.short)
        .expect("a 10-page site has a short page");
    let doc = page.parse().expect("parses");
    let mut out = page.html.clone();
    out.push_str("\n--- regions ---\n");
    for id in doc.ids() {
        let region = page.regions[id.index()];
        let parent_region = doc.parent(id).map(|p| page.regions[p.index()]);
        if doc.is_element(id) && parent_region != Some(region) && region != Region::Structure {
            let class = doc
                .attr(id, "class")
                .or(doc.attr(id, "id"))
                .map(|c| format!(".{c}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "{}{}{} -> {}\n",
                "  ".repeat(doc.depth(id) as usize),
                doc.tag(id),
                class,
                region.name()
            ));
        }
    }
    out.push_str(&format!(
        "content_root = {} <{}>, menu_root = {} <{}>\n",
        page.content_root.0,
        doc.tag(page.content_root),
        page.menu_root.0,
        doc.tag(page.menu_root)
    ));
    out
}

#[test]
fn html5_page() {
    insta::assert_snapshot!(snapshot(Style::Html5));
}

#[test]
fn divsoup_page() {
    insta::assert_snapshot!(snapshot(Style::DivSoup));
}

#[test]
fn tables_page() {
    insta::assert_snapshot!(snapshot(Style::Tables));
}
