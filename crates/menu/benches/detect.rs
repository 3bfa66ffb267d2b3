//! Detection speed on synthetic pages: features + Algorithms 1 and 2, parsing excluded.

use chaff_menu::{MenuParams, NodeFeatures, detect_features};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let site = chaff_synth::generate_site(&chaff_synth::SiteConfig::new(7, 0));
    let docs: Vec<_> = site
        .pages
        .iter()
        .take(5)
        .map(|p| p.parse().expect("synthetic pages parse"))
        .collect();
    let params = MenuParams::default();
    c.bench_function("menu_detect_5_pages", |b| {
        b.iter(|| {
            docs.iter()
                .map(|d| {
                    let f = NodeFeatures::compute(d, &params.readings);
                    detect_features(&f, &params)
                })
                .count()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
