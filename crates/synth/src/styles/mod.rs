//! The markup styles. Each builds the same parts (header, menu, breadcrumbs, article, sidebar,
//! ads, footer) with different tags, class names, nesting and order, so that no method can
//! pass by keying on tag or class names.

pub(crate) mod divsoup;
pub(crate) mod html5;
pub(crate) mod tables;

use crate::label::Region;
use crate::page::Ad;
use crate::tree::Builder;

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
