//! Alignment and distillation speed on synthetic pages of one site: a shared template with a
//! main content block and scattered page-specific tokens, as real pages of a site look.

use std::hint::black_box;
use std::time::Duration;

use chaff_align::distill::{DistillOptions, distill};
use chaff_align::nw::{align, align_exact};
use criterion::{Criterion, criterion_group, criterion_main};

/// SplitMix64, so the bench needs no extra dependency and every run sees the same pages.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Ids below this are markup repeated everywhere (`<p>`, `</p>`, `<a>`, ...).
const COMMON: u64 = 12;

/// A template of `len` tokens: a quarter common markup, the rest from a pool of `len / 2`
/// ids (template tags and texts repeat, but far less than markup).
fn template(rng: &mut Rng, len: usize) -> Vec<u32> {
    let pool = (len as u64 / 2).max(1);
    (0..len)
        .map(|_| {
            if rng.below(4) == 0 {
                rng.below(COMMON) as u32
            } else {
                (1_000 + rng.below(pool)) as u32
            }
        })
        .collect()
}

/// A page-specific token: markup or a fresh text.
fn noise(rng: &mut Rng, fresh: &mut u32) -> u32 {
    if rng.below(2) == 0 {
        rng.below(COMMON) as u32
    } else {
        *fresh += 1;
        *fresh
    }
}

/// One page: the template with a content block of about `content` tokens 40% in, small
/// insertions every ~60 template tokens, and 2% of template tokens deleted or replaced.
fn page(rng: &mut Rng, template: &[u32], content: usize, fresh: &mut u32) -> Vec<u32> {
    let mut out = Vec::with_capacity(template.len() + 2 * content);
    let at = template.len() * 2 / 5;
    for (k, &t) in template.iter().enumerate() {
        if k == at {
            let n = content / 2 + rng.below(content as u64 + 1) as usize;
            for _ in 0..n {
                out.push(noise(rng, fresh));
            }
        }
        match rng.below(100) {
            0 => {}                           // deleted
            1 => out.push(noise(rng, fresh)), // replaced
            2 => {
                out.push(t);
                for _ in 0..1 + rng.below(8) {
                    out.push(noise(rng, fresh)); // a small insertion
                }
            }
            _ => out.push(t),
        }
    }
    out
}

fn site(seed: u64, template_len: usize, content: usize, pages: usize) -> Vec<Vec<u32>> {
    let mut rng = Rng(seed);
    let t = template(&mut rng, template_len);
    let mut fresh = 1_000_000;
    (0..pages)
        .map(|_| page(&mut rng, &t, content, &mut fresh))
        .collect()
}

fn bench_3k(c: &mut Criterion) {
    let pages = site(1, 2_000, 800, 2);
    let (a, b) = (&pages[0], &pages[1]);
    let mut group = c.benchmark_group(format!("pair_{}x{}", a.len(), b.len()));
    group.bench_function("align", |bench| {
        bench.iter(|| align(black_box(a), black_box(b)).score)
    });
    group.bench_function("align_exact", |bench| {
        bench.iter(|| align_exact(black_box(a), black_box(b)).score)
    });
    group.finish();

    let pages = site(2, 2_000, 800, 16);
    let mut group = c.benchmark_group("distill");
    group.sample_size(20);
    group.bench_function("16_pages_3k", |bench| {
        bench.iter(|| {
            distill(black_box(pages.clone()), &DistillOptions::default())
                .template
                .len()
        })
    });
    group.finish();
}

/// Pages of 50,000 tokens: one alignment per iteration, for watching time and memory
/// (`/usr/bin/time -v` on the bench binary shows the peak, a few megabytes).
fn bench_50k(c: &mut Criterion) {
    let pages = site(3, 35_000, 12_000, 2);
    let (a, b) = (&pages[0], &pages[1]);
    let mut group = c.benchmark_group(format!("pair_{}x{}", a.len(), b.len()));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(1));
    group.bench_function("align", |bench| {
        bench.iter(|| align(black_box(a), black_box(b)).score)
    });
    group.bench_function("align_exact", |bench| {
        bench.iter(|| align_exact(black_box(a), black_box(b)).score)
    });
    group.finish();
}

criterion_group!(benches, bench_3k, bench_50k);
criterion_main!(benches);
