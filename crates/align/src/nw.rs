//! Pairwise global alignment of token-id sequences (Needleman–Wunsch) with the scores of
//! Geraci & Maggini, section 2.1: a match scores [`MATCH`] (+1), two different tokens aligned
//! together [`MISMATCH`] (0), a token against a gap [`GAP`] (−1).
//!
//! # Two entry points
//!
//! * [`align_exact`] is the reference: Hirschberg's divide and conquer (forward scores of the
//!   upper half of `a`, backward scores of the lower half, split at the column maximising the
//!   sum), driven by an explicit work stack, with a full table and 1-byte traceback for
//!   sub-problems of at most [`AlignOptions::full_table_cells`] cells. Memory is linear in
//!   `n + m` plus that constant; time is about `2·n·m` cell updates.
//! * [`align`] is the fast path for the common case, two pages of one site. Its score is
//!   **always the exact optimum** — proven below, not merely observed — while the alignment
//!   itself may be another optimal one than [`align_exact`]'s. Same memory bound.
//!
//! # How the fast path stays exact
//!
//! 1. *Common ends.* The common prefix and suffix are matched outright. With these scores that
//!    is always optimal: take an optimal alignment where `a[0] == b[0]` are not aligned
//!    together. They cannot both be paired with other tokens (the pairs would cross), so one of
//!    them, say `b[0]`, is against a gap. If `a[0]` is against a gap too, replacing the two
//!    gaps by the match gains 3. Otherwise `a[0]` is paired with some `b[k]`, `k > 0`, with
//!    score `s ∈ {0, 1}`, and `b[0..k]` are all gaps; pairing `a[0]` with `b[0]` instead and
//!    putting `b[k]` against a gap changes the score by `1 − s ≥ 0`. Induction on the length
//!    (and the mirror argument for the suffix) completes it.
//! 2. *A lower bound from anchors.* Anchor candidates are the `k`-grams
//!    (`k =` [`AlignOptions::min_anchor_run`]) occurring exactly once in each sequence, grown
//!    to maximal runs of equal tokens. Rather than patience diff's longest chain, the chain
//!    maximising `Σ run length − Σ diagonal shift` is kept: on real pages the longest chain
//!    regularly contains a long run that sits far off its neighbours' diagonal (a moved
//!    block), which costs hundreds of points. Matching the chained runs and aligning the
//!    stretches between them optimally (scores only) gives the score `L` of a valid alignment:
//!    a lower bound on the optimum. Anchoring alone is *not* exact in general.
//! 3. *An exact solve pruned by `L`.* The dynamic programme then runs over the whole middle,
//!    skipping cells that provably lie on no alignment scoring `≥ L`: a cell `(i, j)` whose
//!    forward score plus an upper bound on aligning the rests `a[i..]`, `b[j..]` is below `L`
//!    does not extend the range evaluated in the next row. The bound: an alignment of `x` and
//!    `y` with `M` matches, `X` mismatches and `G` gaps has `2M + 2X + G = |x| + |y|` and
//!    `M + X ≤ min(|x|, |y|)`, hence score `3M + 2X − |x| − |y| ≤ M − ||x| − |y||`; and `M` is
//!    at most the number of tokens of either rest whose id occurs in the other sequence at
//!    all. Every evaluated value is the score of a real path, so it never exceeds the true
//!    forward score; and along an optimal path, by induction, each cell is evaluated with its
//!    true forward score, which plus its true rest score equals the optimum `≥ L`, so it stays
//!    alive. Hence the programme reaches `(n, m)` with the exact optimum, and its traceback
//!    is an optimal alignment. It is a traced table when the evaluated cells fit
//!    [`AlignOptions::full_table_cells`], else Hirschberg with both halves pruned the same
//!    way; the split column then fixes each half's exact optimum, which becomes the half's
//!    target, so every deeper level prunes with an exact target.
//!
//! # What it costs
//!
//! The bound is tight where the pages agree and where page-specific tokens (texts) occur in
//! one page only, so the evaluated cells are a band around the template plus the rectangles
//! where the two pages' contents face each other. Measured on crude tag/text token sequences
//! of real pages (`tests/real_pairs.rs`, and 36 pairs of 800–4,200 tokens from four news
//! portals and two shops): 1–30 % of the cells, typically 2–5 %; `L` was already optimal for
//! three pairs in four. It is weakest on long pages with many scattered page-specific
//! insertions (the bound charges them nothing for the gaps they force): about 25–65 % of the
//! cells on synthetic 36,000–46,000-token pairs with 5–25 % noise. On random sequences over a
//! tiny alphabet it degrades to about one unbounded pass more than [`align_exact`], never to
//! a wrong score. [`align_report`] tells what happened for one pair.
//!
//! Verified by property tests against exhaustive enumeration, the full table and
//! [`align_exact`] on random and template-like pairs, with Hirschberg forced down to 16-cell
//! leaves, and against [`align_exact`] on real page pairs.
//!
//! # Tie-breaking
//!
//! A traceback prefers a diagonal match, then a gap consuming `b` ([`Step::GapB`]), then a gap
//! consuming `a` ([`Step::GapA`]), then a mismatch. (With equal tokens the diagonal is always
//! among the best moves, since adding one token to either sequence raises the optimum by at
//! most 1.) Hirschberg splits and pruning may settle exact ties differently; only the score is
//! guaranteed to agree.

use std::collections::{HashMap, HashSet};
use std::iter;

/// Score of two equal tokens aligned together.
pub const MATCH: i32 = 1;
/// Score of two different tokens aligned together: neither rewarded nor penalised.
pub const MISMATCH: i32 = 0;
/// Score of a token aligned against a gap.
pub const GAP: i32 = -1;

/// One column of an alignment, read from the start of both sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `a[i] == b[j]` aligned together; consumes one token of each.
    Match,
    /// `a[i] != b[j]` aligned together; consumes one token of each.
    Mismatch,
    /// `a[i]` against a gap: consumes one token of `a`.
    GapA,
    /// `b[j]` against a gap: consumes one token of `b`.
    GapB,
}

impl Step {
    /// The step's contribution to the alignment score.
    #[must_use]
    pub const fn score(self) -> i32 {
        match self {
            Step::Match => MATCH,
            Step::Mismatch => MISMATCH,
            Step::GapA | Step::GapB => GAP,
        }
    }

    /// Whether the step consumes a token of `a`.
    #[must_use]
    pub const fn consumes_a(self) -> bool {
        !matches!(self, Step::GapB)
    }

    /// Whether the step consumes a token of `b`.
    #[must_use]
    pub const fn consumes_b(self) -> bool {
        !matches!(self, Step::GapA)
    }
}

/// A global alignment: its columns in order and its total score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alignment {
    pub steps: Vec<Step>,
    pub score: i64,
}

impl Alignment {
    /// Wraps steps, summing their scores.
    fn from_steps(steps: Vec<Step>) -> Self {
        let score = steps_score(&steps);
        Alignment { steps, score }
    }
}

/// Tuning of [`align_with`] and [`align_exact_with`]. Neither field changes a score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlignOptions {
    /// Largest number of dynamic-programming cells solved with a stored traceback (one byte
    /// per cell, 4 Mi by default); bigger sub-problems are split à la Hirschberg. This is the
    /// memory bound beyond the linear part.
    pub full_table_cells: usize,
    /// Length `k` of the grams that must be unique in both sequences to seed an anchor of the
    /// fast path, hence also its shortest anchor run. Anchors only provide the lower bound
    /// the exact solve prunes with: 1 finds the most anchors but more misplaced ones; 4 (the
    /// default) gave the best bounds for the same time on real pages.
    pub min_anchor_run: usize,
}

impl Default for AlignOptions {
    fn default() -> Self {
        AlignOptions {
            full_table_cells: 1 << 22,
            min_anchor_run: 4,
        }
    }
}

/// What [`align_report`] did, for measurements and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FastPathReport {
    /// Length of the common prefix matched outright.
    pub prefix: usize,
    /// Length of the common suffix matched outright.
    pub suffix: usize,
    /// Anchor runs used for the lower bound.
    pub anchors: usize,
    /// Tokens (of each sequence) inside anchor runs.
    pub anchored_tokens: usize,
    /// Score of the anchored alignment of the middle part (the lower bound), if computed.
    pub anchored_score: Option<i64>,
    /// Exact optimum of the middle part.
    pub optimum: i64,
    /// Whether the lower bound was already the optimum (or the middle was solved directly).
    pub certified: bool,
    /// Cells evaluated by the pruned exact solve (0 when the middle was solved directly).
    pub checked_cells: u64,
}

/// The fast path with default options: an alignment of optimal score (see the module docs).
#[must_use]
pub fn align(a: &[u32], b: &[u32]) -> Alignment {
    align_with(a, b, &AlignOptions::default())
}

/// The fast path with explicit options.
#[must_use]
pub fn align_with(a: &[u32], b: &[u32], opts: &AlignOptions) -> Alignment {
    align_report(a, b, opts).0
}

/// The reference alignment with default options: Hirschberg in linear memory, no anchors, no
/// pruning.
#[must_use]
pub fn align_exact(a: &[u32], b: &[u32]) -> Alignment {
    align_exact_with(a, b, &AlignOptions::default())
}

/// The reference alignment with explicit options (only `full_table_cells` matters).
#[must_use]
pub fn align_exact_with(a: &[u32], b: &[u32], opts: &AlignOptions) -> Alignment {
    let mut steps = Vec::with_capacity(a.len() + b.len());
    solve(a, b, None, None, opts, &mut steps);
    Alignment::from_steps(steps)
}

/// The fast path, also reporting how the result was obtained.
#[must_use]
pub fn align_report(a: &[u32], b: &[u32], opts: &AlignOptions) -> (Alignment, FastPathReport) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let suffix = ra
        .iter()
        .rev()
        .zip(rb.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&ra[..ra.len() - suffix], &rb[..rb.len() - suffix]);

    let mut report = FastPathReport {
        prefix,
        suffix,
        ..FastPathReport::default()
    };
    let mut steps = Vec::with_capacity(a.len() + b.len());
    steps.extend(iter::repeat_n(Step::Match, prefix));
    align_middle(ma, mb, opts, &mut steps, &mut report);
    steps.extend(iter::repeat_n(Step::Match, suffix));
    (Alignment::from_steps(steps), report)
}

/// Sub-problems this small are solved by one full table: anchoring would not pay.
const DIRECT_CELLS: usize = 1 << 16;

/// The fast path between the common ends: the anchored lower bound, then one exact solve
/// pruned by it.
fn align_middle(
    a: &[u32],
    b: &[u32],
    opts: &AlignOptions,
    out: &mut Vec<Step>,
    report: &mut FastPathReport,
) {
    let base = out.len();
    if cells(a.len(), b.len()) <= DIRECT_CELLS.min(opts.full_table_cells.max(1))
        || a.is_empty()
        || b.is_empty()
    {
        solve(a, b, None, None, opts, out);
        report.optimum = steps_score(&out[base..]);
        report.certified = true;
        return;
    }

    let runs = anchor_runs(a, b, opts.min_anchor_run.max(1));
    report.anchors = runs.len();
    report.anchored_tokens = runs.iter().map(|r| r.len).sum();
    let lower = anchored_score(a, b, &runs);
    report.anchored_score = Some(lower);
    report.checked_cells = solve(a, b, Some(lower), None, opts, out);
    report.optimum = steps_score(&out[base..]);
    report.certified = report.optimum == lower;
}

/// Checks that `steps` is an alignment of `a` and `b` — it consumes both exactly, `Match` only
/// on equal tokens and `Mismatch` only on different ones — and returns its score.
#[must_use]
pub fn score_of(a: &[u32], b: &[u32], steps: &[Step]) -> Option<i64> {
    let (mut i, mut j) = (0usize, 0usize);
    let mut score = 0i64;
    for &step in steps {
        match step {
            Step::Match | Step::Mismatch => {
                let (x, y) = (a.get(i)?, b.get(j)?);
                if (x == y) != (step == Step::Match) {
                    return None;
                }
                i += 1;
                j += 1;
            }
            Step::GapA => {
                a.get(i)?;
                i += 1;
            }
            Step::GapB => {
                b.get(j)?;
                j += 1;
            }
        }
        score += i64::from(step.score());
    }
    (i == a.len() && j == b.len()).then_some(score)
}

/// The full similarity matrix `S`, `(a.len() + 1) × (b.len() + 1)`, `S[i][j]` being the best
/// score of `a[..i]` against `b[..j]`. Quadratic memory: meant for tests and small inputs only
/// (values saturate rather than overflow on absurd sizes).
#[must_use]
pub fn score_table(a: &[u32], b: &[u32]) -> Vec<Vec<i32>> {
    let mut table: Vec<Vec<i32>> = Vec::with_capacity(a.len() + 1);
    let first: Vec<i32> = (0..=b.len())
        .map(|j| i32::try_from(j).map_or(i32::MIN, |j| -j))
        .collect();
    table.push(first);
    for (i, &x) in a.iter().enumerate() {
        let prev = &table[i];
        let mut row = Vec::with_capacity(b.len() + 1);
        row.push(prev[0].saturating_add(GAP));
        for (j, &y) in b.iter().enumerate() {
            let diag = prev[j].saturating_add(if x == y { MATCH } else { MISMATCH });
            let up = prev[j + 1].saturating_add(GAP);
            let left = row[j].saturating_add(GAP);
            row.push(diag.max(up).max(left));
        }
        table.push(row);
    }
    table
}

fn steps_score(steps: &[Step]) -> i64 {
    steps.iter().map(|s| i64::from(s.score())).sum()
}

/// `(n + 1) · (m + 1)`, saturating.
fn cells(n: usize, m: usize) -> usize {
    n.saturating_add(1).saturating_mul(m.saturating_add(1))
}

// ---------------------------------------------------------------------------------------------
// Anchors

/// A run of equal tokens `a[a..a + len] == b[b..b + len]` the anchored alignment matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    a: usize,
    b: usize,
    len: usize,
}

/// How many earlier runs (in order of `a`) [`chain_runs`] considers as predecessors of a run:
/// skipping hundreds of runs is never what a template alignment wants, and it keeps chaining
/// linear on huge pages.
const CHAIN_LOOKBACK: usize = 256;

/// Anchor runs, increasing and disjoint in both sequences: maximal diagonal runs of equal
/// tokens around the `k`-grams (`k = min_run`) that occur exactly once in each sequence,
/// chained by [`chain_runs`]. With `k = 1` these are patience diff's unique tokens; longer
/// grams still find anchors in long pages whose single tokens all repeat.
fn anchor_runs(a: &[u32], b: &[u32], min_run: usize) -> Vec<Run> {
    #[derive(Default)]
    struct Seen {
        in_a: u32,
        in_b: u32,
        at_b: usize,
    }
    let k = min_run.max(1);
    // Hash collisions only merge counts (losing candidates) or pair unequal grams, which the
    // check below rejects.
    let gram = gram_hash;
    let mut seen: HashMap<u64, Seen> = HashMap::new();
    for w in a.windows(k) {
        let s = seen.entry(gram(w)).or_default();
        s.in_a = s.in_a.saturating_add(1);
    }
    for (q, w) in b.windows(k).enumerate() {
        if let Some(s) = seen.get_mut(&gram(w)) {
            s.in_b = s.in_b.saturating_add(1);
            s.at_b = q;
        }
    }

    // Maximal runs through the unique pairs, in order of `a`. A pair inside the last run found
    // on its diagonal belongs to that run. Runs on one diagonal are disjoint and runs on
    // different diagonals can only overlap where their grams repeat, so extending is about
    // linear in practice, and never worse than the `n·m` of the solve that follows.
    let mut runs: Vec<Run> = Vec::new();
    let mut run_end_on: HashMap<isize, usize> = HashMap::new();
    for (p, w) in a.windows(k).enumerate() {
        let Some(s) = seen.get(&gram(w)) else {
            continue;
        };
        let q = s.at_b;
        if s.in_a != 1 || s.in_b != 1 || b.get(q..q + k) != Some(w) {
            continue;
        }
        let diagonal = q as isize - p as isize;
        if run_end_on.get(&diagonal).is_some_and(|&end| p < end) {
            continue;
        }
        let mut back = 0;
        while p > back && q > back && a[p - back - 1] == b[q - back - 1] {
            back += 1;
        }
        let mut fwd = k;
        while p + fwd < a.len() && q + fwd < b.len() && a[p + fwd] == b[q + fwd] {
            fwd += 1;
        }
        run_end_on.insert(diagonal, p + fwd);
        runs.push(Run {
            a: p - back,
            b: q - back,
            len: back + fwd,
        });
    }
    runs.sort_unstable_by_key(|r| (r.a, r.b));
    chain_runs(&runs, a.len(), b.len())
}

/// The chain of runs (increasing, disjoint in both sequences) maximising
/// `Σ len − Σ |diagonal shift|`, the shifts counted from the origin, between consecutive runs
/// and to the end `(n, m)`. That is a lower bound on the score of the anchored alignment
/// (mismatch the stretch between two runs diagonally and gap the surplus), so the chain is
/// the one whose trivial completion scores best. Unlike the longest chain of unique tokens
/// (patience diff), it refuses a long run that sits far off the diagonal of its neighbours —
/// on real pages a moved block — because reaching it costs more gaps than it matches.
fn chain_runs(runs: &[Run], n: usize, m: usize) -> Vec<Run> {
    let diagonal = |r: &Run| r.b as i64 - r.a as i64;
    let end_diagonal = m as i64 - n as i64;
    let mut best: Vec<i64> = Vec::with_capacity(runs.len());
    let mut pred: Vec<Option<usize>> = Vec::with_capacity(runs.len());
    for (j, run) in runs.iter().enumerate() {
        let d = diagonal(run);
        let mut score = run.len as i64 - d.abs();
        let mut from = None;
        for i in j.saturating_sub(CHAIN_LOOKBACK)..j {
            let r = &runs[i];
            if r.a + r.len <= run.a && r.b + r.len <= run.b {
                let s = best[i] + run.len as i64 - (d - diagonal(r)).abs();
                if s > score {
                    score = s;
                    from = Some(i);
                }
            }
        }
        best.push(score);
        pred.push(from);
    }
    let mut last = None;
    let mut top = -end_diagonal.abs(); // no anchor at all
    for (j, run) in runs.iter().enumerate() {
        let s = best[j] - (end_diagonal - diagonal(run)).abs();
        if s > top {
            top = s;
            last = Some(j);
        }
    }
    let mut chain = Vec::new();
    while let Some(j) = last {
        chain.push(runs[j]);
        last = pred[j];
    }
    chain.reverse();
    chain
}

/// Score of the anchored alignment: runs matched, the stretches between them aligned
/// optimally. Only the score is needed (it is the lower bound the exact solve prunes with),
/// so no traceback is kept. A stretch holding more than a quarter of the whole table gets the
/// trivial alignment's score instead: solving it exactly would cost about as much as the
/// bounded solve that follows.
fn anchored_score(a: &[u32], b: &[u32], runs: &[Run]) -> i64 {
    let limit = cells(a.len(), b.len()) / 4;
    let (mut i, mut j) = (0usize, 0usize);
    let mut score = 0;
    for run in runs {
        score += segment_score(&a[i..run.a], &b[j..run.b], limit) + run.len as i64;
        i = run.a + run.len;
        j = run.b + run.len;
    }
    score + segment_score(&a[i..], &b[j..], limit)
}

/// Score of one stretch between anchors: optimal, by a forward pass pruned against the
/// better of the two trivial alignments (pair from the start or from the end, gap the
/// surplus), when its table has at most `limit` cells; else that trivial score.
fn segment_score(a: &[u32], b: &[u32], limit: usize) -> i64 {
    let gaps = a.len().abs_diff(b.len()) as i64;
    if a.is_empty() || b.is_empty() {
        return -gaps;
    }
    let head = a.iter().zip(b).filter(|(x, y)| x == y).count() as i64;
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .filter(|(x, y)| x == y)
        .count() as i64;
    let trivial = head.max(tail) - gaps;
    if cells(a.len(), b.len()) > limit {
        return trivial;
    }
    let bound = RestCounts::new(a, b).forward(a.len(), b.len(), 0, 0, trivial);
    match fill::<_, false>(a, b, a.len(), &bound, 0, false) {
        Ok(f) if f.last[b.len()] >= trivial => f.last[b.len()],
        // Unreachable (the trivial alignment survives the pruning); its score is still valid.
        _ => trivial,
    }
}

// ---------------------------------------------------------------------------------------------
// The bounded dynamic programme

/// Score of an unreachable or pruned cell; far enough from `i64::MIN` that adding a few
/// unit scores cannot overflow.
const NEG: i64 = i64::MIN / 4;
/// Anything at or below this is dead.
const DEAD: i64 = NEG / 2;
/// [`NEG`] of the `i32` rows of [`fill`]. Scores are bounded by the lengths in absolute value,
/// and rows are shifted by at most `m`, so `i32` suffices for sequences of fewer than `2^28`
/// tokens (1 GiB each).
const NEG32: i32 = i32::MIN / 4;

/// A target for the `i32` pruning test: clamped, which keeps every comparison the same for
/// reachable scores.
fn target32(target: i64) -> i32 {
    target.clamp(i64::from(NEG32 / 2), i64::from(i32::MAX / 4)) as i32
}

/// Traceback codes, chosen at fill time in tie-break order.
const CODE_MATCH: u8 = 0;
const CODE_GAP_B: u8 = 1;
const CODE_GAP_A: u8 = 2;
const CODE_MISMATCH: u8 = 3;

/// Decides which cells may lie on a path worth keeping, one row at a time (so that per-row
/// quantities are computed once).
trait Prune {
    type Row<'p>: RowPrune
    where
        Self: 'p;
    fn row(&self, i: usize) -> Self::Row<'_>;
}

trait RowPrune {
    /// Whether cell `(i, j)` of this row, with forward score `value`, stays alive.
    fn alive(&self, value: i32, j: usize) -> bool;
}

/// Keeps every cell: the plain Needleman–Wunsch recurrence (every cell is reachable).
struct KeepAll;

impl Prune for KeepAll {
    type Row<'p> = KeepAll;
    #[inline(always)]
    fn row(&self, _: usize) -> KeepAll {
        KeepAll
    }
}

impl RowPrune for KeepAll {
    #[inline(always)]
    fn alive(&self, _: i32, _: usize) -> bool {
        true
    }
}

/// Keeps a cell only if its forward score plus an upper bound on the rest reaches `target`
/// (see the module docs for why the bound holds).
struct Bound {
    target: i32,
    n: usize,
    m: usize,
    /// `rest_a[i]`: tokens of `a[i..n]` whose id occurs in the other sequence.
    rest_a: Vec<i32>,
    /// `rest_b[j]`: tokens of `b[j..m]` whose id occurs in the other sequence.
    rest_b: Vec<i32>,
}

/// [`Bound`] specialised to one row `i`.
struct BoundRow<'p> {
    target: i32,
    /// `rest_a[i]`.
    rest_a: i32,
    /// `(n − i) − m`: the length difference of the rests is `skew + j`.
    skew: i32,
    rest_b: &'p [i32],
}

impl Prune for Bound {
    type Row<'p> = BoundRow<'p>;
    #[inline(always)]
    fn row(&self, i: usize) -> BoundRow<'_> {
        BoundRow {
            target: self.target,
            rest_a: self.rest_a.get(i).copied().unwrap_or(0),
            skew: (self.n as i32 - i as i32) - self.m as i32,
            rest_b: &self.rest_b,
        }
    }
}

impl RowPrune for BoundRow<'_> {
    #[inline(always)]
    fn alive(&self, value: i32, j: usize) -> bool {
        // Dead predecessors give values near `NEG32`, far below any target.
        let matchable = self.rest_a.min(self.rest_b.get(j).copied().unwrap_or(0));
        value + matchable - (self.skew + j as i32).abs() >= self.target
    }
}

/// Prefix counts of the tokens that cannot match anything, for cutting [`Bound`]s of any
/// sub-problem in linear time: a token whose id does not occur in the other sequence at all
/// can match nothing in any part of it.
struct RestCounts {
    /// `unmatched_a[k]`: tokens of `a[..k]` whose id does not occur in `b`.
    unmatched_a: Vec<u32>,
    unmatched_b: Vec<u32>,
}

impl RestCounts {
    fn new(a: &[u32], b: &[u32]) -> Self {
        let ids_a: HashSet<u32> = a.iter().copied().collect();
        let ids_b: HashSet<u32> = b.iter().copied().collect();
        RestCounts {
            unmatched_a: prefix_counts(a, &ids_b),
            unmatched_b: prefix_counts(b, &ids_a),
        }
    }

    /// Unmatchable tokens of `a[from..to]` / `b[from..to]`.
    fn in_a(&self, from: usize, to: usize) -> i32 {
        (self.unmatched_a[to] - self.unmatched_a[from]) as i32
    }

    fn in_b(&self, from: usize, to: usize) -> i32 {
        (self.unmatched_b[to] - self.unmatched_b[from]) as i32
    }

    /// Bound for the forward direction of the sub-problem `a[i0..i0 + n]`, `b[j0..j0 + m]`.
    fn forward(&self, n: usize, m: usize, i0: usize, j0: usize, target: i64) -> Bound {
        let end_a = i0 + n;
        let end_b = j0 + m;
        Bound {
            target: target32(target),
            n,
            m,
            rest_a: (0..=n)
                .map(|i| (n - i) as i32 - self.in_a(i0 + i, end_a))
                .collect(),
            rest_b: (0..=m)
                .map(|j| (m - j) as i32 - self.in_b(j0 + j, end_b))
                .collect(),
        }
    }

    /// Bound for the same sub-problem read backwards (both sequences reversed), whose "rests"
    /// are the original prefixes.
    fn backward(&self, n: usize, m: usize, i0: usize, j0: usize, target: i64) -> Bound {
        Bound {
            target: target32(target),
            n,
            m,
            rest_a: (0..=n)
                .map(|i| (n - i) as i32 - self.in_a(i0, i0 + n - i))
                .collect(),
            rest_b: (0..=m)
                .map(|j| (m - j) as i32 - self.in_b(j0, j0 + m - j))
                .collect(),
        }
    }
}

fn prefix_counts(seq: &[u32], other: &HashSet<u32>) -> Vec<u32> {
    let mut counts = Vec::with_capacity(seq.len() + 1);
    let mut c = 0u32;
    counts.push(c);
    for t in seq {
        if !other.contains(t) {
            c = c.saturating_add(1);
        }
        counts.push(c);
    }
    counts
}

/// FNV-1a over token ids.
fn gram_hash(gram: &[u32]) -> u64 {
    gram.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &t| {
        (h ^ u64::from(t)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// Why a fill produced no usable result.
#[derive(Debug)]
enum FillError {
    /// The bound pruned every path: the target exceeded the optimum.
    Dead,
    /// A traced fill needed more than its cell budget.
    OverBudget,
}

/// Traceback codes of the evaluated cells, row by row.
#[derive(Default)]
struct Trace {
    codes: Vec<u8>,
    /// Per row: first evaluated column, offset into `codes`, number of evaluated columns.
    rows: Vec<(usize, usize, usize)>,
}

struct Filled {
    /// Scores of the last computed row, `NEG` where not evaluated.
    last: Vec<i64>,
    /// Cells evaluated.
    cells: u64,
    /// Per row, the evaluated column range `[start, end)` (when asked for).
    spans: Vec<(usize, usize)>,
    trace: Trace,
}

/// Traceback code of a cell, in tie-break order: a diagonal match, a gap consuming `b`, a gap
/// consuming `a`, a mismatch. Written as selects so the fill loop stays branch-free.
#[inline(always)]
fn code_of(equal: bool, diag: i32, from_left: i32, up: i32, best: i32) -> u8 {
    let mut c = CODE_MISMATCH;
    c = if up == best { CODE_GAP_A } else { c };
    c = if from_left == best { CODE_GAP_B } else { c };
    if equal && diag == best { CODE_MATCH } else { c }
}

/// Fills rows `0..=rows` of the table of `a` against `b` (all of `b`) and returns the last
/// row. Row `i` evaluates the columns from the first to one past the last cell the pruner kept
/// alive in row `i − 1`, then continues rightwards by gaps in `b` while cells stay alive
/// (along such a run the score drops by 1 per cell and the bound rises by at most 1, so after
/// the first dead cell all are dead). Dead cells inside the range keep their value: it is the
/// score of a real path, so using it is safe. `TRACE` also stores a traceback code per
/// evaluated cell, failing with [`FillError::OverBudget`] past `budget` cells.
///
/// Rows are held *shifted*: entry `j` is `score + j` (in `i32`), so a gap in `b` keeps the
/// value and the recurrence is `max(diagonal + 1 + s, up + GAP, left + GAP + 1)` — one `max`
/// on the dependency chain through `left`. Liveness is tested after a row is computed, by
/// scanning its ends only (the first and the last live cell are all the next row needs), so
/// the inner loop is branch-free.
fn fill<P: Prune, const TRACE: bool>(
    a: &[u32],
    b: &[u32],
    rows: usize,
    prune: &P,
    budget: usize,
    want_spans: bool,
) -> Result<Filled, FillError> {
    // Shifted steps: a diagonal step adds `1 + score`, a gap in `a` adds `GAP`, a gap in `b`
    // adds `GAP + 1`.
    const DIAG_MATCH: i32 = 1 + MATCH;
    const DIAG_MISMATCH: i32 = 1 + MISMATCH;
    const UP: i32 = GAP;
    const LEFT: i32 = GAP + 1;
    let rows = rows.min(a.len());
    let m = b.len();
    let mut prev = vec![NEG32; m + 1];
    let mut cur = vec![NEG32; m + 1];
    let mut trace = Trace::default();
    let mut spans = Vec::new();
    let mut cells = 0u64;

    // Row 0: only gaps in `b` (shifted value 0 · LEFT accumulated).
    let mut hi = 0usize;
    let mut end = 0usize;
    {
        let row = prune.row(0);
        let mut v = 0i32;
        for (j, cell) in cur.iter_mut().enumerate() {
            if j > 0 {
                v += LEFT;
            }
            cells += 1;
            end = j + 1;
            if !row.alive(v - j as i32, j) {
                if j == 0 {
                    return Err(FillError::Dead);
                }
                break;
            }
            *cell = v;
            hi = j;
        }
    }
    let mut lo = 0usize;
    let mut start = 0usize;
    if TRACE {
        trace.rows.push((0, 0, end));
        trace.codes.resize(end, CODE_GAP_B);
    }
    if want_spans {
        spans.push((0, end));
    }

    for i in 1..=rows {
        std::mem::swap(&mut prev, &mut cur);
        let row = prune.row(i);
        let x = a[i - 1];
        let (plo, phi) = (lo, hi);
        let upper = (phi + 1).min(m);
        start = plo;
        end = upper + 1;
        let offset = trace.codes.len();
        if TRACE {
            trace.codes.resize(offset + (end - start), 0);
        }

        // j = plo: only from above (the cell to the left is outside the evaluated range).
        let mut left = prev[plo] + UP;
        cur[plo] = left;
        if TRACE {
            trace.codes[offset] = CODE_GAP_A;
        }

        // plo < j ≤ phi: from the diagonal, above and the left. Slices are cut to the exact
        // range so the loop runs without bounds checks.
        if phi > plo {
            let width = phi - plo;
            let p = &prev[plo..=phi];
            let bs = &b[plo..phi];
            let c = &mut cur[plo + 1..=phi];
            if TRACE {
                let codes = &mut trace.codes[offset + 1..offset + 1 + width];
                for ((((c, code), &y), &d), &u) in c
                    .iter_mut()
                    .zip(codes.iter_mut())
                    .zip(bs)
                    .zip(&p[..width])
                    .zip(&p[1..])
                {
                    let equal = x == y;
                    let diag = d + if equal { DIAG_MATCH } else { DIAG_MISMATCH };
                    let up = u + UP;
                    let from_left = left + LEFT;
                    let best = diag.max(up).max(from_left);
                    *code = code_of(equal, diag, from_left, up, best);
                    *c = best;
                    left = best;
                }
            } else {
                for (((c, &y), &d), &u) in c.iter_mut().zip(bs).zip(&p[..width]).zip(&p[1..]) {
                    let diag = d + if x == y { DIAG_MATCH } else { DIAG_MISMATCH };
                    let best = diag.max(u + UP).max(left + LEFT);
                    *c = best;
                    left = best;
                }
            }
        }

        // j = phi + 1: from the diagonal or the left (nothing evaluated above).
        if upper > phi {
            let j = upper;
            let equal = x == b[j - 1];
            let diag = prev[phi] + if equal { DIAG_MATCH } else { DIAG_MISMATCH };
            let from_left = left + LEFT;
            let best = diag.max(from_left);
            if TRACE {
                trace.codes[offset + (j - start)] = code_of(equal, diag, from_left, NEG32, best);
            }
            cur[j] = best;
            left = best;
        }
        cells += (end - start) as u64;

        // The live range: its ends are found by scanning inwards.
        let alive = |j: usize| row.alive(cur[j] - j as i32, j);
        let Some(first_alive) = (start..end).find(|&j| alive(j)) else {
            return Err(FillError::Dead);
        };
        let mut last_alive = (first_alive..end)
            .rev()
            .find(|&j| alive(j))
            .unwrap_or(first_alive);

        // Columns only reachable by gaps in `b` from the left, while they stay alive.
        if last_alive + 1 == end {
            while end <= m {
                let v = left + LEFT;
                if !row.alive(v - end as i32, end) {
                    break;
                }
                cells += 1;
                if TRACE {
                    trace.codes.push(CODE_GAP_B);
                }
                cur[end] = v;
                left = v;
                last_alive = end;
                end += 1;
            }
        }
        if TRACE {
            trace.rows.push((start, offset, end - start));
            if trace.codes.len() > budget {
                return Err(FillError::OverBudget);
            }
        }
        if want_spans {
            spans.push((start, end));
        }
        lo = first_alive;
        hi = last_alive;
    }

    // Only `cur[start..end]` belongs to the last row; the rest is stale.
    let mut last = vec![NEG; m + 1];
    for (j, (out, &v)) in last[start..end]
        .iter_mut()
        .zip(&cur[start..end])
        .enumerate()
    {
        *out = i64::from(v) - (start + j) as i64;
    }
    Ok(Filled {
        last,
        cells,
        spans,
        trace,
    })
}

/// Appends the traceback of a traced fill of all of `a` against `b`. `false` when the trace
/// does not lead back to the origin (a bug; the caller then solves without pruning).
fn traceback(trace: &Trace, n: usize, m: usize, out: &mut Vec<Step>) -> bool {
    let base = out.len();
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let code = if i == 0 {
            CODE_GAP_B
        } else {
            let Some(&(start, offset, len)) = trace.rows.get(i) else {
                return false;
            };
            if j < start || j >= start + len {
                return false;
            }
            match trace.codes.get(offset + j - start) {
                Some(&c) => c,
                None => return false,
            }
        };
        let step = match code {
            CODE_MATCH => Step::Match,
            CODE_GAP_B => Step::GapB,
            CODE_GAP_A => Step::GapA,
            _ => Step::Mismatch,
        };
        if step.consumes_a() {
            if i == 0 {
                return false;
            }
            i -= 1;
        }
        if step.consumes_b() {
            if j == 0 {
                return false;
            }
            j -= 1;
        }
        out.push(step);
    }
    out[base..].reverse();
    true
}

/// One pending sub-problem of [`solve`]: `a[i0..i1]` against `b[j0..j1]`.
struct Task {
    i0: usize,
    i1: usize,
    j0: usize,
    j1: usize,
    /// Exact optimum of the sub-problem (or, at the top, a lower bound on it); `None` disables
    /// pruning.
    target: Option<i64>,
    /// Expected number of cells a bounded fill of it evaluates, when known.
    estimate: Option<u64>,
}

/// Exact alignment of `a` against `b`, appended to `out`. With a `target` (a lower bound on
/// the optimum, typically the optimum itself) every fill is bounded by it; without, this is
/// plain Hirschberg. Sub-problems are processed from an explicit stack, left part first, so
/// their steps come out in order.
fn solve(
    a: &[u32],
    b: &[u32],
    target: Option<i64>,
    estimate: Option<u64>,
    opts: &AlignOptions,
    out: &mut Vec<Step>,
) -> u64 {
    let budget = opts.full_table_cells.max(1);
    let mut evaluated = 0u64;
    let counts = target.map(|_| RestCounts::new(a, b));
    let mut stack = vec![Task {
        i0: 0,
        i1: a.len(),
        j0: 0,
        j1: b.len(),
        target,
        estimate,
    }];
    while let Some(task) = stack.pop() {
        let (sa, sb) = (&a[task.i0..task.i1], &b[task.j0..task.j1]);
        let (n, m) = (sa.len(), sb.len());
        if n == 0 || m == 0 {
            out.extend(iter::repeat_n(Step::GapA, n));
            out.extend(iter::repeat_n(Step::GapB, m));
            continue;
        }
        let bound = match (task.target, &counts) {
            (Some(t), Some(c)) => Some((t, c)),
            _ => None,
        };

        // A bounded traced fill, when the survivors are expected to fit the budget (always
        // tried first: on a sub-problem that fits the budget unbounded it only saves work).
        if let Some((t, c)) = bound
            && task.estimate.is_none_or(|e| e <= budget as u64)
        {
            let fwd = c.forward(n, m, task.i0, task.j0, t);
            let attempt = fill::<_, true>(sa, sb, n, &fwd, budget, false);
            if let Ok(f) = attempt {
                evaluated += f.cells;
                let mark = out.len();
                // Below the target means the target was not a valid bound: solve unbounded.
                if f.last[m] >= t && traceback(&f.trace, n, m, out) {
                    continue;
                }
                out.truncate(mark);
            }
        }

        if cells(n, m) <= budget || n.min(m) <= 1 {
            // Plain full table; with a dimension of 1 it is linear anyway.
            let full = fill::<_, true>(sa, sb, n, &KeepAll, usize::MAX, false);
            if let Ok(full) = full {
                evaluated += full.cells;
                if traceback(&full.trace, n, m, out) {
                    continue;
                }
            }
            // A plain fill always succeeds; stay total regardless by gapping everything.
            out.extend(iter::repeat_n(Step::GapA, n));
            out.extend(iter::repeat_n(Step::GapB, m));
            continue;
        }

        // Hirschberg split at the middle row of `a`.
        let mid = n / 2;
        let rev_a: Vec<u32> = sa.iter().rev().copied().collect();
        let rev_b: Vec<u32> = sb.iter().rev().copied().collect();
        let halves = match bound {
            Some((t, c)) => {
                let fwd = c.forward(n, m, task.i0, task.j0, t);
                let bwd = c.backward(n, m, task.i0, task.j0, t);
                fill::<_, false>(sa, sb, mid, &fwd, 0, true).and_then(|f| {
                    fill::<_, false>(&rev_a, &rev_b, n - mid, &bwd, 0, true).map(|r| (f, r))
                })
            }
            None => fill::<_, false>(sa, sb, mid, &KeepAll, 0, false).and_then(|f| {
                fill::<_, false>(&rev_a, &rev_b, n - mid, &KeepAll, 0, false).map(|r| (f, r))
            }),
        };
        if let Ok((f, r)) = &halves {
            evaluated += f.cells + r.cells;
        }
        let split = halves.ok().and_then(|(f, r)| {
            let mut best: Option<(usize, i64)> = None;
            for j in 0..=m {
                let (x, y) = (f.last[j], r.last[m - j]);
                if x > DEAD && y > DEAD && best.is_none_or(|(_, s)| x + y > s) {
                    best = Some((j, x + y));
                }
            }
            // Below the target means the target was not a valid bound.
            best.filter(|&(_, s)| bound.is_none_or(|(t, _)| s >= t))
                .map(|(j, _)| (j, f, r))
        });
        let Some((j, f, r)) = split else {
            // The target was above the optimum; redo this sub-problem unbounded.
            stack.push(Task {
                target: None,
                estimate: None,
                ..task
            });
            continue;
        };
        let bounded = bound.is_some();
        let upper = Task {
            i0: task.i0,
            i1: task.i0 + mid,
            j0: task.j0,
            j1: task.j0 + j,
            target: bounded.then_some(f.last[j]),
            estimate: bounded.then(|| spans_within(&f.spans, j)),
        };
        let lower = Task {
            i0: task.i0 + mid,
            i1: task.i1,
            j0: task.j0 + j,
            j1: task.j1,
            target: bounded.then_some(r.last[m - j]),
            estimate: bounded.then(|| spans_within(&r.spans, m - j)),
        };
        stack.push(lower);
        stack.push(upper);
    }
    evaluated
}

/// Evaluated cells of a fill lying in columns `0..=limit`: the estimate for the half of a
/// split that ends at column `limit`.
fn spans_within(spans: &[(usize, usize)], limit: usize) -> u64 {
    spans
        .iter()
        .map(|&(s, e)| e.min(limit + 1).saturating_sub(s) as u64)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_ordered_and_disjoint() {
        let a = [1, 2, 3, 9, 9, 4, 5, 6, 7];
        let b = [1, 2, 3, 8, 4, 5, 6, 7, 7];
        let runs = anchor_runs(&a, &b, 1);
        assert_eq!(
            runs,
            vec![Run { a: 0, b: 0, len: 3 }, Run { a: 5, b: 4, len: 4 }]
        );
    }

    #[test]
    fn crossing_unique_tokens_keep_the_longer_chain() {
        // 5 is unique in both but crosses the chain 1 2 3 4.
        let a = [1, 2, 3, 4, 5];
        let b = [5, 1, 2, 3, 4];
        let runs = anchor_runs(&a, &b, 1);
        assert_eq!(runs, vec![Run { a: 0, b: 1, len: 4 }]);
    }

    #[test]
    fn traced_bounded_fill_matches_plain_fill() {
        let a = [1, 2, 3, 4, 5, 6, 7, 8, 2, 3];
        let b = [1, 3, 4, 9, 5, 6, 8, 2, 2, 3];
        let plain = fill::<_, true>(&a, &b, a.len(), &KeepAll, usize::MAX, false).unwrap();
        let best = plain.last[b.len()];
        let counts = RestCounts::new(&a, &b);
        let bound = counts.forward(a.len(), b.len(), 0, 0, best);
        let pruned = fill::<_, true>(&a, &b, a.len(), &bound, usize::MAX, false).unwrap();
        assert_eq!(pruned.last[b.len()], best);
        assert!(pruned.cells < plain.cells);
        let mut steps = Vec::new();
        assert!(traceback(&pruned.trace, a.len(), b.len(), &mut steps));
        assert_eq!(score_of(&a, &b, &steps), Some(best));
    }

    #[test]
    fn too_high_a_target_is_reported_dead() {
        let a = [1, 2, 3];
        let b = [4, 5, 6];
        let counts = RestCounts::new(&a, &b);
        let bound = counts.forward(3, 3, 0, 0, 1);
        assert!(matches!(
            fill::<_, false>(&a, &b, 3, &bound, 0, false),
            Err(FillError::Dead)
        ));
    }

    #[test]
    fn over_budget_is_reported() {
        let a = [1u32; 20];
        let b = [2u32; 20];
        assert!(matches!(
            fill::<_, true>(&a, &b, 20, &KeepAll, 50, false),
            Err(FillError::OverBudget)
        ));
    }
}
