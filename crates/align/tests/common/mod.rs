//! Deterministic generators shared by the integration tests.

#![allow(dead_code)] // each test crate uses a different part

pub mod real;

/// SplitMix64: a tiny, well-mixed generator so tests need no extra dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// Token ids 0..COMMON are markup repeated everywhere (`<p>`, `</p>`, `<div>`, ...).
pub const COMMON: u32 = 8;

/// A site template: mostly distinct ids (as tags with attributes and fixed texts are), with
/// common markup sprinkled in.
pub fn template(rng: &mut Rng, len: usize) -> Vec<u32> {
    (0..len)
        .map(|k| {
            if rng.chance(0.35) {
                rng.below(u64::from(COMMON)) as u32
            } else {
                // A small pool so some template tokens repeat, as real ones do.
                1_000 + (k as u32 % 700) + rng.below(3) as u32 * 700
            }
        })
        .collect()
}

/// One page of the site: the template with deletions, substitutions and insertions of
/// page-specific tokens (fresh ids from `fresh`) and common markup.
pub fn page(rng: &mut Rng, template: &[u32], noise: f64, fresh: &mut u32) -> Vec<u32> {
    let mut out = Vec::with_capacity(template.len() * 2);
    let mut new_token = |rng: &mut Rng| {
        if rng.chance(0.4) {
            rng.below(u64::from(COMMON)) as u32
        } else {
            *fresh += 1;
            *fresh
        }
    };
    for &t in template {
        if rng.chance(noise / 3.0) {
            continue; // deleted
        }
        if rng.chance(noise / 3.0) {
            out.push(new_token(rng)); // substituted
        } else {
            out.push(t);
        }
        if rng.chance(noise / 3.0) {
            // a block of page content
            let n = 1 + rng.below(12);
            for _ in 0..n {
                out.push(new_token(rng));
            }
        }
    }
    out
}

/// Two pages of one site.
pub fn site_pair(seed: u64, template_len: usize, noise: f64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Rng::new(seed);
    let t = template(&mut rng, template_len);
    let mut fresh = 1_000_000;
    let a = page(&mut rng, &t, noise, &mut fresh);
    let b = page(&mut rng, &t, noise, &mut fresh);
    (a, b)
}
