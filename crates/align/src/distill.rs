//! The template distillation tree of Geraci & Maggini, section 2.2: the pages' token
//! sequences are aligned pairwise, level by level, each pair merged into the union of its two
//! sequences, until one sequence — the template — remains.
//!
//! Confidence is kept as an integer *support*: a merged token seen on `c` of the `t` pages has
//! confidence `c/t`, so every threshold is an exact integer comparison. Because a match only
//! merges tokens of disjoint page sets and every page token lands in exactly one merged
//! position, a token's support never exceeds the number of pages containing its id, nor `t`.
//!
//! Pruning follows the paper: after step `r` (the `r`-th level of merges) tokens of confidence
//! below `2^(r−2)/t` are removed, so steps 1 and 2 remove nothing and step 3 drops tokens seen
//! on one page only. The paper assumes `t = 2^k`; here `t` is any number ≥ 1, sequences are
//! paired in order `(0, 1), (2, 3), …` and an odd one out is carried unchanged to the next
//! level. The rule is therefore stated per merged node: a node covering `m` pages drops tokens
//! with `support · 4 < m`, which is exactly the paper's `support/t < 2^(r−2)/t` when
//! `m = 2^r`. The root is finally pruned with [`DistillOptions::keep`]: a token stays iff
//! `support ≥ keep · t` (the paper's 1/2: supported by at least half of the pages).
//!
//! Pairs of one level are aligned in parallel; the result does not depend on the number of
//! threads because pairs and their merges are deterministic and collected in order. Shuffling
//! the pages (the paper pairs them at random) is the caller's business.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::nw::{Alignment, Step, align};

/// A token sequence whose tokens carry their support (number of pages they were seen on).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weighted {
    /// Interned token ids.
    pub tokens: Vec<u32>,
    /// Same length as `tokens`.
    pub support: Vec<u32>,
}

impl Weighted {
    /// One page: every token supported once.
    #[must_use]
    pub fn page(tokens: Vec<u32>) -> Self {
        let support = vec![1; tokens.len()];
        Weighted { tokens, support }
    }

    /// Number of tokens.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True when there is no token.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Support of token `k`; a missing entry (a malformed value with a short `support`) counts
    /// as 0 rather than panicking.
    fn support_at(&self, k: usize) -> u32 {
        self.support.get(k).copied().unwrap_or(0)
    }

    fn push(&mut self, token: u32, support: u32) {
        self.tokens.push(token);
        self.support.push(support);
    }

    /// Keeps the tokens whose support satisfies `keep`, in place.
    fn retain(&mut self, keep: impl Fn(u32) -> bool) {
        let mut kept = 0;
        for k in 0..self.tokens.len() {
            let s = self.support_at(k);
            if keep(s) {
                self.tokens[kept] = self.tokens[k];
                if kept < self.support.len() {
                    self.support[kept] = s;
                }
                kept += 1;
            }
        }
        self.tokens.truncate(kept);
        // Past the end of a short `support`, every kept token had support 0.
        self.support.resize(kept, 0);
    }
}

/// The union of `a` and `b` in alignment order: a match yields one token with the supports
/// summed, a mismatch `a`'s token then `b`'s, a gap the token present, supports unchanged.
///
/// `alignment` should align `a.tokens` with `b.tokens`. If it does not fit (it runs out of
/// tokens or leaves some over), no panic: steps without a token to consume are skipped and
/// leftover tokens are appended, `a`'s then `b`'s, so no token is lost.
#[must_use]
pub fn merge(a: &Weighted, b: &Weighted, alignment: &Alignment) -> Weighted {
    let mut out = Weighted {
        tokens: Vec::with_capacity(a.len() + b.len()),
        support: Vec::with_capacity(a.len() + b.len()),
    };
    let (mut i, mut j) = (0usize, 0usize);
    for &step in &alignment.steps {
        let ta = a.tokens.get(i).filter(|_| step.consumes_a());
        let tb = b.tokens.get(j).filter(|_| step.consumes_b());
        match (step, ta, tb) {
            (Step::Match, Some(&x), Some(&y)) if x == y => {
                out.push(x, a.support_at(i).saturating_add(b.support_at(j)));
            }
            // A "match" of different tokens (a foreign alignment) keeps both, like a mismatch.
            (Step::Match | Step::Mismatch, Some(&x), Some(&y)) => {
                out.push(x, a.support_at(i));
                out.push(y, b.support_at(j));
            }
            (Step::GapA, Some(&x), _) => out.push(x, a.support_at(i)),
            (Step::GapB, _, Some(&y)) => out.push(y, b.support_at(j)),
            _ => continue, // a step that does not fit the sequences
        }
        if step.consumes_a() {
            i += 1;
        }
        if step.consumes_b() {
            j += 1;
        }
    }
    for k in i..a.len() {
        out.push(a.tokens[k], a.support_at(k));
    }
    for k in j..b.len() {
        out.push(b.tokens[k], b.support_at(k));
    }
    out
}

/// Options of [`distill`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistillOptions {
    /// Root threshold: a template token needs support `≥ keep · t`. The paper uses 1/2.
    pub keep: f64,
    /// Prune after every merge (`support · 4 < pages covered`). Off, only the root is pruned,
    /// which keeps every alignment maximal (and slower).
    pub prune: bool,
}

impl Default for DistillOptions {
    fn default() -> Self {
        DistillOptions {
            keep: 0.5,
            prune: true,
        }
    }
}

/// What one level (step `r`) of the tree did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelStats {
    /// The step, from 1.
    pub step: u32,
    /// Sequences entering the level.
    pub sequences: usize,
    /// Tokens of the level's output before pruning (carried sequences included).
    pub tokens_before: usize,
    /// Tokens of the level's output after pruning.
    pub tokens_after: usize,
    /// The paper's confidence threshold `2^(r−2)/t` for this step. It is exact for nodes
    /// covering `2^r` pages; every node actually uses `support · 4 < pages covered`.
    pub threshold: f64,
}

/// The distilled template of a set of pages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distilled {
    /// The root sequence after pruning with [`DistillOptions::keep`].
    pub template: Weighted,
    /// `t`, the number of pages.
    pub pages: u32,
    /// What each level of the consensus tree kept and pruned.
    pub levels: Vec<LevelStats>,
}

/// A node of the tree: its sequence and the number of pages below it.
struct Node {
    seq: Weighted,
    covers: u32,
}

/// Distils the template of `pages` (token sequences, already in the order to be paired).
/// No pages give an empty template; one page gives the page itself with support 1.
#[must_use]
pub fn distill(pages: Vec<Vec<u32>>, opts: &DistillOptions) -> Distilled {
    // Supports are `u32`: pages beyond `u32::MAX` (never seen in practice) are ignored.
    let t = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    let mut nodes: Vec<Node> = pages
        .into_iter()
        .take(t as usize)
        .map(|p| Node {
            seq: Weighted::page(p),
            covers: 1,
        })
        .collect();
    let mut levels = Vec::new();
    let mut step = 0u32;
    while nodes.len() > 1 {
        step += 1;
        let sequences = nodes.len();
        let mut carried = None;
        if nodes.len() % 2 == 1 {
            carried = nodes.pop();
        }
        // `collect` keeps the pairs' order, so the tree is the same on any number of threads.
        let merged: Vec<(Node, usize)> = nodes
            .par_chunks_exact(2)
            .map(|pair| merge_pair(&pair[0], &pair[1], opts.prune))
            .collect();
        let mut tokens_before = 0;
        let mut next = Vec::with_capacity(merged.len() + 1);
        for (node, before) in merged {
            tokens_before += before;
            next.push(node);
        }
        if let Some(odd) = carried {
            tokens_before += odd.seq.len();
            next.push(odd);
        }
        let tokens_after = next.iter().map(|n| n.seq.len()).sum();
        levels.push(LevelStats {
            step,
            sequences,
            tokens_before,
            tokens_after,
            threshold: 2f64.powi(step as i32 - 2) / f64::from(t.max(1)),
        });
        nodes = next;
    }

    let mut template = nodes.pop().map(|n| n.seq).unwrap_or_default();
    let need = opts.keep * f64::from(t);
    template.retain(|s| f64::from(s) >= need);
    Distilled {
        template,
        pages: t,
        levels,
    }
}

/// Aligns and merges two nodes, then prunes the result if asked; also returns the merged
/// length before pruning.
fn merge_pair(a: &Node, b: &Node, prune: bool) -> (Node, usize) {
    let alignment = align(&a.seq.tokens, &b.seq.tokens);
    let mut seq = merge(&a.seq, &b.seq, &alignment);
    let covers = a.covers.saturating_add(b.covers);
    let before = seq.len();
    if prune {
        seq.retain(|s| u64::from(s) * 4 >= u64::from(covers));
    }
    (Node { seq, covers }, before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_tolerates_short_support() {
        let mut w = Weighted {
            tokens: vec![1, 2, 3],
            support: vec![5],
        };
        w.retain(|s| s > 0);
        assert_eq!(
            w,
            Weighted {
                tokens: vec![1],
                support: vec![5]
            }
        );
    }

    #[test]
    fn merge_with_a_foreign_alignment_loses_nothing() {
        let a = Weighted::page(vec![1, 2]);
        let b = Weighted::page(vec![3]);
        let bogus = Alignment {
            steps: vec![Step::Match, Step::GapB, Step::GapB, Step::GapA],
            score: 0,
        };
        let m = merge(&a, &b, &bogus);
        assert_eq!(m.len(), 3);
        let mut tokens = m.tokens.clone();
        tokens.sort_unstable();
        assert_eq!(tokens, vec![1, 2, 3]);
    }
}
