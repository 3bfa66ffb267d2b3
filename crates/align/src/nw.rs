//! Pairwise global alignment of token-id sequences (Needleman–Wunsch) with the scores of
//! Geraci & Maggini, section 2.1: a match scores [`MATCH`] (+1), two different tokens aligned
//! together [`MISMATCH`] (0), a token against a gap [`GAP`] (−1).
//!
//! # Two entry points
//!
//! * [`align_exact`] is the reference: Hirschberg's divide and conquer (forward scores of the
//!   upper half of `a`, backward scores of the lower half, split at the column maximising the
//!   sum), driven by an explicit work stack, with a full table and 2-bit traceback for
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
//!    at most the size of the multiset intersection of the rests' ids,
//!    `Σ_id min(count in x, count in y)`, since every match pairs two tokens of one id and
//!    distinct matches use distinct tokens. (That count is kept up to date in constant time
//!    per row and per column step: the fill only asks about the two ends of each row's live
//!    range.) Every evaluated value is the score of a real path, so it never exceeds the true
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
//! # Constant factors
//!
//! The fill keeps rows as `i32` *shifted* by the column (`score + j`), so a gap in `b` keeps
//! the value and the recurrence along a row is a running maximum. Each row is three
//! bounds-check-free passes: diagonal and above (independent cells, vectorised), the running
//! maximum (the only dependency chain, four cells per step), and the traceback codes
//! (vectorised; two bits per cell). Liveness is only tested by scanning inwards from the ends
//! of the evaluated range, which is all the next row needs. On x86-64 the fill is also
//! compiled for AVX2 and picked at run time; the results are identical.
//!
//! # Tie-breaking
//!
//! A traceback prefers a diagonal match, then a gap consuming `b` ([`Step::GapB`]), then a gap
//! consuming `a` ([`Step::GapA`]), then a mismatch. (With equal tokens the diagonal is always
//! among the best moves, since adding one token to either sequence raises the optimum by at
//! most 1.) Hirschberg splits and pruning may settle exact ties differently; only the score is
//! guaranteed to agree.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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
    /// The columns, first to last.
    pub steps: Vec<Step>,
    /// The alignment's total score.
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
    /// Largest number of dynamic-programming cells solved with a stored traceback (two bits
    /// per cell, 16 Mi cells = 4 MiB by default); bigger sub-problems are split à la
    /// Hirschberg. This is the memory bound beyond the linear part.
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
            full_table_cells: 1 << 24,
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
    solve(a, b, None, None, opts, &mut Tally::new(0), &mut steps);
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
        solve(a, b, None, None, opts, &mut Tally::new(0), out);
        report.optimum = steps_score(&out[base..]);
        report.certified = true;
        return;
    }

    let runs = anchor_runs(a, b, opts.min_anchor_run.max(1));
    report.anchors = runs.len();
    report.anchored_tokens = runs.iter().map(|r| r.len).sum();
    let (a, b, ids) = dense_ids(a, b);
    let mut tally = Tally::new(ids);
    let lower = anchored_score(&a, &b, &runs, &mut tally);
    report.anchored_score = Some(lower);
    report.checked_cells = solve(&a, &b, Some(lower), None, opts, &mut tally, out);
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
    let mut seen: FastMap<u64, Seen> = FastMap::default();
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
    let mut run_end_on: FastMap<isize, usize> = FastMap::default();
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
fn anchored_score(a: &[u32], b: &[u32], runs: &[Run], tally: &mut Tally) -> i64 {
    let limit = cells(a.len(), b.len()) / 4;
    let (mut i, mut j) = (0usize, 0usize);
    let mut score = 0;
    for run in runs {
        score += segment_score(&a[i..run.a], &b[j..run.b], limit, tally) + run.len as i64;
        i = run.a + run.len;
        j = run.b + run.len;
    }
    score + segment_score(&a[i..], &b[j..], limit, tally)
}

/// Score of one stretch between anchors: optimal, by a forward pass pruned against the
/// better of the two trivial alignments (pair from the start or from the end, gap the
/// surplus), when its table has at most `limit` cells; else that trivial score.
fn segment_score(a: &[u32], b: &[u32], limit: usize, tally: &mut Tally) -> i64 {
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
    let mut bound = Bound::new(a, b, trivial, tally);
    match fill::<_, false>(a, b, a.len(), &mut bound, 0, false) {
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

/// Decides which cells may lie on a path worth keeping. [`fill`] announces each row (`0`,
/// `1`, … in order) before asking about its cells, and asks about the cells of a row from two
/// cursors that move by single columns (the left end of the live range only rightwards, the
/// right end both ways), so a pruner can keep per-cursor state up to date in constant time
/// per step.
trait Prune {
    fn set_row(&mut self, i: usize);
    /// Whether cell `(i, j)` of the current row, with forward score `value`, stays alive;
    /// asked from the left end of the live range.
    fn alive_left(&mut self, value: i32, j: usize) -> bool;
    /// The same, asked from the right end.
    fn alive_right(&mut self, value: i32, j: usize) -> bool;
}

/// Keeps every cell: the plain Needleman–Wunsch recurrence (every cell is reachable).
struct KeepAll;

impl Prune for KeepAll {
    #[inline(always)]
    fn set_row(&mut self, _: usize) {}
    #[inline(always)]
    fn alive_left(&mut self, _: i32, _: usize) -> bool {
        true
    }
    #[inline(always)]
    fn alive_right(&mut self, _: i32, _: usize) -> bool {
        true
    }
}

/// Per-id token counts of the rests, indexed by dense ids (see [`dense_ids`]): `a` holds the
/// counts of `a[i..]`, `left` and `right` those of `b[j..]` at the two cursors of a
/// [`Bound`]. All zero between uses, so one allocation serves every fill of an alignment.
struct Tally {
    a: Vec<i32>,
    left: Vec<i32>,
    right: Vec<i32>,
}

impl Tally {
    fn new(ids: usize) -> Self {
        Tally {
            a: vec![0; ids],
            left: vec![0; ids],
            right: vec![0; ids],
        }
    }
}

/// One cursor of a [`Bound`]: a column `j` and `Σ_id min(count in a[i..], count in b[j..])`.
#[derive(Clone, Copy)]
struct Cursor {
    j: usize,
    common: i32,
}

/// Keeps a cell `(i, j)` only if its forward score plus an upper bound on aligning the rests
/// `a[i..]`, `b[j..]` reaches `target`. The bound is `C − |(n − i) − (m − j)|`, `C` being the
/// size of the multiset intersection of the rests' ids (see the module docs for why it
/// holds): every match pairs two tokens of one id, distinct matches distinct tokens. `C` is
/// kept per cursor and updated in constant time per row and per column step.
struct Bound<'s> {
    target: i32,
    a: &'s [u32],
    b: &'s [u32],
    row: usize,
    tally: &'s mut Tally,
    left: Cursor,
    right: Cursor,
}

impl<'s> Bound<'s> {
    /// The bound of `a` against `b` (dense ids below the tally's size) with both cursors at
    /// `(0, 0)`.
    fn new(a: &'s [u32], b: &'s [u32], target: i64, tally: &'s mut Tally) -> Self {
        for &x in a {
            tally.a[x as usize] += 1;
        }
        let mut common = 0;
        for &y in b {
            let y = y as usize;
            tally.left[y] += 1;
            tally.right[y] += 1;
            if tally.left[y] <= tally.a[y] {
                common += 1;
            }
        }
        let cursor = Cursor { j: 0, common };
        Bound {
            target: target32(target),
            a,
            b,
            row: 0,
            tally,
            left: cursor,
            right: cursor,
        }
    }

    /// Moves a cursor (with its counts `cb`) to column `j`, one column at a time.
    #[inline]
    fn seek(b: &[u32], ca: &[i32], cb: &mut [i32], cursor: &mut Cursor, j: usize) {
        while cursor.j < j {
            let y = b[cursor.j] as usize;
            if cb[y] <= ca[y] {
                cursor.common -= 1;
            }
            cb[y] -= 1;
            cursor.j += 1;
        }
        while cursor.j > j {
            let y = b[cursor.j - 1] as usize;
            cb[y] += 1;
            if cb[y] <= ca[y] {
                cursor.common += 1;
            }
            cursor.j -= 1;
        }
    }

    #[inline]
    fn alive_at(&self, cursor: Cursor, value: i32, j: usize) -> bool {
        // Dead predecessors give values near `NEG32`, far below any target.
        let skew = (self.a.len() - self.row) as i32 - (self.b.len() - j) as i32;
        value + cursor.common - skew.abs() >= self.target
    }
}

impl Prune for Bound<'_> {
    fn set_row(&mut self, i: usize) {
        while self.row < i.min(self.a.len()) {
            let x = self.a[self.row] as usize;
            let t = &mut *self.tally;
            if t.a[x] <= t.left[x] {
                self.left.common -= 1;
            }
            if t.a[x] <= t.right[x] {
                self.right.common -= 1;
            }
            t.a[x] -= 1;
            self.row += 1;
        }
    }

    #[inline]
    fn alive_left(&mut self, value: i32, j: usize) -> bool {
        let t = &mut *self.tally;
        Self::seek(self.b, &t.a, &mut t.left, &mut self.left, j);
        self.alive_at(self.left, value, j)
    }

    #[inline]
    fn alive_right(&mut self, value: i32, j: usize) -> bool {
        let t = &mut *self.tally;
        Self::seek(self.b, &t.a, &mut t.right, &mut self.right, j);
        self.alive_at(self.right, value, j)
    }
}

impl Drop for Bound<'_> {
    /// Leaves the tally all zero for the next fill.
    fn drop(&mut self) {
        for &x in self.a {
            self.tally.a[x as usize] = 0;
        }
        for &y in self.b {
            self.tally.left[y as usize] = 0;
            self.tally.right[y as usize] = 0;
        }
    }
}

/// `a` and `b` with their ids renumbered densely (in order of first occurrence), and the
/// number of distinct ids. Equality, all an alignment looks at, is unchanged.
fn dense_ids(a: &[u32], b: &[u32]) -> (Vec<u32>, Vec<u32>, usize) {
    let mut ids: FastMap<u32, u32> =
        FastMap::with_capacity_and_hasher(a.len().max(b.len()), Default::default());
    let mut map = |seq: &[u32]| -> Vec<u32> {
        seq.iter()
            .map(|&t| {
                let next = ids.len() as u32;
                *ids.entry(t).or_insert(next)
            })
            .collect()
    };
    let (da, db) = (map(a), map(b));
    (da, db, ids.len())
}

/// A hash map for integer keys with a multiplicative hash: the keys are token ids, gram
/// hashes and diagonals, nothing adversarial, and SipHash showed in profiles.
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MulHasher>>;

/// Multiply-rotate hashing of integers (Fibonacci hashing), for [`FastMap`].
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        // The high bits are the well mixed ones; the table uses both ends.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
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

/// Traceback codes of the evaluated cells, row by row, packed four to a byte (two bits per
/// cell); every row starts on a byte boundary.
#[derive(Default)]
struct Trace {
    codes: Vec<u8>,
    /// Per row: first evaluated column, index of its first code (a multiple of 4), number of
    /// evaluated columns.
    rows: Vec<(usize, usize, usize)>,
    /// Codes stored (without the padding of the rows' last bytes).
    stored: usize,
}

impl Trace {
    /// Appends one row of codes (each `< 4`) starting at column `start`.
    #[inline(always)]
    fn push_row(&mut self, start: usize, row: &[u8]) {
        self.rows.push((start, self.codes.len() * 4, row.len()));
        self.stored += row.len();
        let words = row.chunks_exact(8);
        let tail = words.remainder();
        let old = self.codes.len();
        self.codes.resize(old + row.len() / 8 * 2, 0);
        for (pair, w) in self.codes[old..].chunks_exact_mut(2).zip(words) {
            // Code `k` sits at bit `8k` of the little-endian word; gather them at bit `2k`.
            let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            let x = (w | (w >> 6)) & 0x000F_000F_000F_000F;
            let y = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
            let z = (y | (y >> 24)) as u16;
            pair.copy_from_slice(&z.to_le_bytes());
        }
        let chunks = tail.chunks_exact(4);
        let rest = chunks.remainder();
        let old = self.codes.len();
        self.codes.resize(old + tail.len() / 4, 0);
        for (byte, c) in self.codes[old..].iter_mut().zip(chunks) {
            *byte = c[0] | (c[1] << 2) | (c[2] << 4) | (c[3] << 6);
        }
        if !rest.is_empty() {
            let byte = rest
                .iter()
                .enumerate()
                .fold(0u8, |acc, (k, &c)| acc | (c << (2 * k)));
            self.codes.push(byte);
        }
    }

    /// Code number `index`.
    fn get(&self, index: usize) -> Option<u8> {
        self.codes
            .get(index / 4)
            .map(|&byte| (byte >> (2 * (index % 4))) & 3)
    }
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
    if equal & (diag == best) {
        CODE_MATCH
    } else {
        c
    }
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
    prune: &mut P,
    budget: usize,
    want_spans: bool,
) -> Result<Filled, FillError> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, as just checked.
        return unsafe { fill_avx2::<P, TRACE>(a, b, rows, prune, budget, want_spans) };
    }
    fill_body::<P, TRACE>(a, b, rows, prune, budget, want_spans)
}

/// [`fill_body`] compiled for AVX2: the row passes of the fill vectorise twice as wide.
/// Same results, the code is the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fill_avx2<P: Prune, const TRACE: bool>(
    a: &[u32],
    b: &[u32],
    rows: usize,
    prune: &mut P,
    budget: usize,
    want_spans: bool,
) -> Result<Filled, FillError> {
    fill_body::<P, TRACE>(a, b, rows, prune, budget, want_spans)
}

/// The body of [`fill`].
#[inline(always)]
fn fill_body<P: Prune, const TRACE: bool>(
    a: &[u32],
    b: &[u32],
    rows: usize,
    prune: &mut P,
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
    let mut row_codes: Vec<u8> = Vec::new();
    let mut spans = Vec::new();
    let mut cells = 0u64;

    // Row 0: only gaps in `b` (shifted value 0 · LEFT accumulated).
    let mut hi = 0usize;
    let mut end = 0usize;
    {
        prune.set_row(0);
        let mut v = 0i32;
        for (j, cell) in cur.iter_mut().enumerate() {
            if j > 0 {
                v += LEFT;
            }
            cells += 1;
            end = j + 1;
            if !prune.alive_right(v - j as i32, j) {
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
        trace.push_row(0, &vec![CODE_GAP_B; end]);
    }
    if want_spans {
        spans.push((0, end));
    }

    for i in 1..=rows {
        std::mem::swap(&mut prev, &mut cur);
        prune.set_row(i);
        let x = a[i - 1];
        let (plo, phi) = (lo, hi);
        let upper = (phi + 1).min(m);
        start = plo;
        end = upper + 1;
        if TRACE {
            row_codes.clear();
            row_codes.resize(end - start, 0);
        }

        // j = plo: only from above (the cell to the left is outside the evaluated range).
        let mut left = prev[plo] + UP;
        cur[plo] = left;
        if TRACE {
            row_codes[0] = CODE_GAP_A;
        }

        // plo < j ≤ phi: from the diagonal, above and the left. Slices are cut to the exact
        // range so the loops run without bounds checks: first the diagonal and the cell above
        // (no dependency between cells, so it vectorises), then the running maximum along the
        // row (the only dependency chain), then the traceback codes (vectorises again).
        if phi > plo {
            let width = phi - plo;
            let p = &prev[plo..=phi];
            let bs = &b[plo..phi];
            let c = &mut cur[plo + 1..=phi];
            for (((c, &y), &d), &u) in c.iter_mut().zip(bs).zip(&p[..width]).zip(&p[1..]) {
                let diag = d + if x == y { DIAG_MATCH } else { DIAG_MISMATCH };
                *c = diag.max(u + UP);
            }
            // Blocks of four: the prefix maxima inside a block do not depend on `left`, so the
            // chain through `left` advances by one `max` per block.
            let mut blocks = c.chunks_exact_mut(4);
            for q in &mut blocks {
                let p1 = q[1].max(q[0] + LEFT);
                let p2 = q[2].max(p1 + LEFT);
                let p3 = q[3].max(p2 + LEFT);
                q[0] = q[0].max(left + LEFT);
                q[1] = p1.max(left + 2 * LEFT);
                q[2] = p2.max(left + 3 * LEFT);
                q[3] = p3.max(left + 4 * LEFT);
                left = q[3];
            }
            for c in blocks.into_remainder() {
                left = (*c).max(left + LEFT);
                *c = left;
            }
            if TRACE {
                let codes = &mut row_codes[1..=width];
                let row = &cur[plo..=phi];
                for (((((code, &y), &d), &u), &l), &best) in codes
                    .iter_mut()
                    .zip(bs)
                    .zip(&p[..width])
                    .zip(&p[1..])
                    .zip(&row[..width])
                    .zip(&row[1..])
                {
                    let equal = x == y;
                    let diag = d + if equal { DIAG_MATCH } else { DIAG_MISMATCH };
                    *code = code_of(equal, diag, l + LEFT, u + UP, best);
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
                row_codes[j - start] = code_of(equal, diag, from_left, NEG32, best);
            }
            cur[j] = best;
            left = best;
        }
        cells += (end - start) as u64;

        // The live range: its ends are found by scanning inwards.
        let Some(first_alive) = (start..end).find(|&j| prune.alive_left(cur[j] - j as i32, j))
        else {
            return Err(FillError::Dead);
        };
        let mut last_alive = (first_alive..end)
            .rev()
            .find(|&j| prune.alive_right(cur[j] - j as i32, j))
            .unwrap_or(first_alive);

        // Columns only reachable by gaps in `b` from the left, while they stay alive.
        if last_alive + 1 == end {
            while end <= m {
                let v = left + LEFT;
                if !prune.alive_right(v - end as i32, end) {
                    break;
                }
                cells += 1;
                if TRACE {
                    row_codes.push(CODE_GAP_B);
                }
                cur[end] = v;
                left = v;
                last_alive = end;
                end += 1;
            }
        }
        if TRACE {
            trace.push_row(start, &row_codes);
            if trace.stored > budget {
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
            match trace.get(offset + j - start) {
                Some(c) => c,
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
    tally: &mut Tally,
    out: &mut Vec<Step>,
) -> u64 {
    let budget = opts.full_table_cells.max(1);
    let mut evaluated = 0u64;
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
        let bound = task.target;

        // A bounded traced fill, when the survivors are expected to fit the budget (always
        // tried first: on a sub-problem that fits the budget unbounded it only saves work).
        if let Some(t) = bound
            && task.estimate.is_none_or(|e| e <= budget as u64)
        {
            let mut fwd = Bound::new(sa, sb, t, tally);
            let attempt = fill::<_, true>(sa, sb, n, &mut fwd, budget, false);
            drop(fwd);
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
            let full = fill::<_, true>(sa, sb, n, &mut KeepAll, usize::MAX, false);
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
            Some(t) => {
                let forward =
                    fill::<_, false>(sa, sb, mid, &mut Bound::new(sa, sb, t, tally), 0, true);
                forward.and_then(|f| {
                    let mut bwd = Bound::new(&rev_a, &rev_b, t, tally);
                    fill::<_, false>(&rev_a, &rev_b, n - mid, &mut bwd, 0, true).map(|r| (f, r))
                })
            }
            None => fill::<_, false>(sa, sb, mid, &mut KeepAll, 0, false).and_then(|f| {
                fill::<_, false>(&rev_a, &rev_b, n - mid, &mut KeepAll, 0, false).map(|r| (f, r))
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
            best.filter(|&(_, s)| bound.is_none_or(|t| s >= t))
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
        let plain = fill::<_, true>(&a, &b, a.len(), &mut KeepAll, usize::MAX, false).unwrap();
        let best = plain.last[b.len()];
        let mut tally = Tally::new(10);
        let mut bound = Bound::new(&a, &b, best, &mut tally);
        let pruned = fill::<_, true>(&a, &b, a.len(), &mut bound, usize::MAX, false).unwrap();
        drop(bound);
        assert!(
            tally
                .a
                .iter()
                .chain(&tally.left)
                .chain(&tally.right)
                .all(|&c| c == 0)
        );
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
        let mut tally = Tally::new(7);
        let mut bound = Bound::new(&a, &b, 1, &mut tally);
        assert!(matches!(
            fill::<_, false>(&a, &b, 3, &mut bound, 0, false),
            Err(FillError::Dead)
        ));
    }

    #[test]
    fn portable_fill_matches_the_dispatched_one() {
        // Whatever `fill` picks at run time (AVX2 or not), the portable body agrees with it.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k) as u32
        };
        for round in 0..20 {
            let n = 30 + round * 7;
            let a: Vec<u32> = (0..n).map(|_| next(12)).collect();
            let b: Vec<u32> = (0..n + round).map(|_| next(12)).collect();
            let best = fill::<_, false>(&a, &b, n, &mut KeepAll, 0, false)
                .unwrap()
                .last[b.len()];
            let mut tally = Tally::new(12);
            for target in [best, best - 3] {
                let one = fill::<_, true>(
                    &a,
                    &b,
                    n,
                    &mut Bound::new(&a, &b, target, &mut tally),
                    usize::MAX,
                    true,
                )
                .unwrap();
                let two = fill_body::<_, true>(
                    &a,
                    &b,
                    n,
                    &mut Bound::new(&a, &b, target, &mut tally),
                    usize::MAX,
                    true,
                )
                .unwrap();
                assert_eq!(one.last, two.last);
                assert_eq!(one.cells, two.cells);
                assert_eq!(one.spans, two.spans);
                assert_eq!(one.trace.codes, two.trace.codes);
                assert_eq!(one.last[b.len()], best);
            }
        }
    }

    #[test]
    fn over_budget_is_reported() {
        let a = [1u32; 20];
        let b = [2u32; 20];
        assert!(matches!(
            fill::<_, true>(&a, &b, 20, &mut KeepAll, 50, false),
            Err(FillError::OverBudget)
        ));
    }
}
