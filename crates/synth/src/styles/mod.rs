//! The markup styles. Each builds the same parts (header, menu, breadcrumbs, article, sidebar,
//! ads, footer) with different tags, class names, nesting and order, so that no method can
//! pass by keying on tag or class names.

pub(crate) mod divsoup;
pub(crate) mod html5;
pub(crate) mod tables;

use crate::label::Region;
use crate::page::Ad;
use crate::tree::Builder;

/// How many items of a "Related" list are layout: none. Pages have three or four related
/// links (see `PageCtx::new`); the items look alike, so which one is the extra is a matter of
/// where an alignment puts its gap, and the whole list is page data.
pub(crate) const RELATED_LAYOUT_ITEMS: usize = 0;

/// An ad block in the HTML5 style.
fn html5_ad(b: &mut Builder, ad: &Ad, class: &str) {
    b.nl();
    b.open_in(
        Region::Ad,
        "div",
        &[("class", class), ("aria-label", "Advertisement")],
    );
    b.leaf("span", &[("class", "ad__label")], "Advertisement");
    b.text(" ");
    b.leaf(
        "a",
        &[("href", &ad.href), ("rel", "sponsored nofollow")],
        &ad.text,
    );
    b.close();
}
