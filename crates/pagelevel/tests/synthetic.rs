//! SiteLevel(θ) on generated sites, whose every node's label is known: the subtrees it finds
//! on θ of the pages must be the template, and the article must survive.

use chaff_pagelevel::sitelevel::{self, SiteLevelConfig};
use chaff_synth::{Label, SiteConfig, Style, generate_site};

/// Words of template (and menu) text removed, and of content text removed, over a site.
fn site_shares(seed: u64, style: Style) -> (f64, f64) {
    let site = generate_site(&SiteConfig {
        seed,
        site_index: 0,
        pages: 20,
        archive: None,
        style: Some(style),
        domain: None,
    });
    let docs: Vec<_> = site.pages.iter().map(|p| p.parse().unwrap()).collect();
    let hashes: Vec<_> = docs.iter().map(sitelevel::subtree_hashes).collect();
    let model = sitelevel::learn(&hashes, SiteLevelConfig::default());
    let (mut t_all, mut t_gone, mut c_all, mut c_gone) = (0usize, 0usize, 0usize, 0usize);
    for (page, doc) in site.pages.iter().zip(&docs) {
        let labels = model.label_doc(doc);
        for id in doc.ids().filter(|&id| doc.is_text(id)) {
            let words = doc.text(id).split_whitespace().count();
            let removed = labels.is_removed(id);
            match page.labels[id.index()] {
                Label::Template | Label::Menu => {
                    t_all += words;
                    t_gone += usize::from(removed) * words;
                }
                Label::Content => {
                    c_all += words;
                    c_gone += usize::from(removed) * words;
                }
                Label::Structure => {}
            }
        }
    }
    (t_gone as f64 / t_all as f64, c_gone as f64 / c_all as f64)
}

#[test]
fn sitelevel_recovers_the_template_of_synthetic_sites() {
    let mut worst_t: f64 = 1.0;
    let mut worst_c: f64 = 0.0;
    for seed in 1..=3 {
        for style in [Style::DivSoup, Style::Html5, Style::Tables] {
            let (t, c) = site_shares(seed, style);
            eprintln!("seed {seed} {style:?}: template removed {t:.3}, content removed {c:.3}");
            worst_t = worst_t.min(t);
            worst_c = worst_c.max(c);
        }
    }
    assert!(worst_t >= 0.80, "template words found: {worst_t:.3}");
    assert!(worst_c <= 0.05, "content words removed: {worst_c:.3}");
}
