//! Smoothing speed on random page-shaped trees: wide lists, tens of levels, templateness
//! scores that come in regions (menus, footers, content) with classifier noise, and areas
//! that add up from the leaves. Targets: 50,000 nodes in at most 100 ms.

use std::hint::black_box;
use std::time::Duration;

use chaff_smooth::{Problem, SmoothConfig, SmoothInput, contract, smooth, solve, solve_naive};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// SplitMix64, so the bench needs no extra dependency and every run sees the same trees.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A page-shaped tree in pre-order with scores and areas.
struct Page {
    parent: Vec<u32>,
    score: Vec<f32>,
    size: Vec<f64>,
}

fn page(n: usize, seed: u64) -> Page {
    let mut rng = Rng(seed);
    let mut parent = vec![0u32];
    let mut path = vec![0u32];
    // Templateness of the region each node is in: inherited, sometimes restarted.
    let mut region = vec![0.2f64];
    for i in 1..n {
        // Deeper with probability 0.35 (up to 40 levels), else a sibling of `i − 1` or of
        // one of its ancestors (each further level up with probability 0.3).
        if !(path.len() < 40 && rng.unit() < 0.35) {
            path.pop();
            while path.len() > 1 && rng.unit() < 0.3 {
                path.pop();
            }
        }
        let p = path.last().copied().unwrap_or(0);
        parent.push(p);
        path.push(i as u32);
        let inherited = region[p as usize];
        region.push(if rng.unit() < 0.08 {
            if rng.unit() < 0.5 {
                0.7 + 0.3 * rng.unit()
            } else {
                0.3 * rng.unit()
            }
        } else {
            inherited
        });
    }
    let score = region
        .iter()
        .map(|&r| (r + 0.3 * (rng.unit() - 0.5)).clamp(0.0, 1.0) as f32)
        .collect();
    let mut size: Vec<f64> = (0..n).map(|_| 50.0 + 20_000.0 * rng.unit()).collect();
    let mut is_leaf = vec![true; n];
    for &p in &parent[1..] {
        is_leaf[p as usize] = false;
    }
    for (s, &leaf) in size.iter_mut().zip(&is_leaf) {
        if !leaf {
            *s *= 0.05;
        }
    }
    for i in (1..n).rev() {
        let p = parent[i] as usize;
        size[p] += size[i];
    }
    Page {
        parent,
        score,
        size,
    }
}

fn bench_paper(c: &mut Criterion) {
    let mut group = c.benchmark_group("smooth");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    for n in [5_000usize, 50_000] {
        let pg = page(n, n as u64);
        let input = SmoothInput {
            parent: &pg.parent,
            score: &pg.score,
            size: &pg.size,
        };
        // Nothing hidden: every node smoothed, the hardest instance of the paper's penalty.
        let all = SmoothConfig {
            c: 0.01,
            min_size: 0.0,
            ..SmoothConfig::PAPER
        };
        group.bench_with_input(BenchmarkId::new("paper-no-hiding", n), &input, |b, i| {
            b.iter(|| smooth(black_box(i), &all).map(|s| s.cost))
        });
        group.bench_with_input(BenchmarkId::new("paper", n), &input, |b, i| {
            b.iter(|| smooth(black_box(i), &SmoothConfig::PAPER).map(|s| s.cost))
        });
        // A flat penalty opens many segments everywhere: the functions stay rich.
        let multiplicity = vec![1u32; n];
        let penalty = vec![0.05f64; n];
        let problem = Problem {
            parent: &pg.parent,
            score: &pg.score,
            multiplicity: &multiplicity,
            penalty: &penalty,
        };
        group.bench_with_input(BenchmarkId::new("flat-penalty", n), &problem, |b, p| {
            b.iter(|| solve(black_box(p)).map(|s| s.cost))
        });
    }
    group.finish();
}

fn bench_naive_vs_fast(c: &mut Criterion) {
    let mut group = c.benchmark_group("naive-vs-fast");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let n = 2_000;
    let pg = page(n, 99);
    let input = SmoothInput {
        parent: &pg.parent,
        score: &pg.score,
        size: &pg.size,
    };
    let all = SmoothConfig {
        c: 0.01,
        min_size: 0.0,
        ..SmoothConfig::PAPER
    };
    let Ok(contracted) = contract(&input, &all) else {
        return;
    };
    let problem = contracted.problem();
    group.bench_function(BenchmarkId::new("naive", n), |b| {
        b.iter(|| solve_naive(black_box(&problem)).map(|s| s.cost))
    });
    group.bench_function(BenchmarkId::new("fast", n), |b| {
        b.iter(|| solve(black_box(&problem)).map(|s| s.cost))
    });
    group.finish();
}

/// The worst shape: a path with distinct scores keeps about half the grid as bends at every
/// level, so time grows with n² (pages are at most 512 deep after the parser's flattening).
fn bench_path(c: &mut Criterion) {
    let mut group = c.benchmark_group("path-distinct");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for n in [3_000usize, 10_000] {
        let parent: Vec<u32> = (0..n as u32).map(|i| i.saturating_sub(1)).collect();
        let mut rng = Rng(5);
        let score: Vec<f32> = (0..n).map(|_| rng.unit() as f32).collect();
        let multiplicity = vec![1u32; n];
        let penalty = vec![0.05f64; n];
        let problem = Problem {
            parent: &parent,
            score: &score,
            multiplicity: &multiplicity,
            penalty: &penalty,
        };
        group.bench_with_input(BenchmarkId::from_parameter(n), &problem, |b, p| {
            b.iter(|| solve(black_box(p)).map(|s| s.cost))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_paper, bench_naive_vs_fast, bench_path);
criterion_main!(benches);
