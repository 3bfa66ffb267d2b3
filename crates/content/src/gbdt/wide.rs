//! The complete trees walked sixteen rows at a time with AVX-512, where the machine has it.
//!
//! Why: the scalar walk ([`super::Complete::block_margins`]) spends about seven
//! instructions per row and level (load the split, load the row's value, compare, compute
//! the next place), and the content model's two ensembles of 100 trees six levels deep are
//! walked by every text unit of a page: on pages of many short text nodes the walk took as
//! long as parsing the page. Here a level of one tree is taken for sixteen rows by a few
//! vector instructions. A level of a complete tree has at most 32 splits, so the sixteen
//! rows' splits are picked out of registers by a permute (no load that waits on the
//! place), and only the sixteen row values are gathered from memory.
//!
//! The sums are the scalar walk's, bit for bit: the same leaves are reached (a row goes
//! right when `x >= threshold`, false for a missing value as in the scalar compare) and
//! added lane by lane in tree order from the same base. A property test holds the two walks
//! to each other.

use std::arch::x86_64::{
    __m512i, _CMP_GE_OQ, _mm512_add_epi32, _mm512_add_ps, _mm512_cmp_ps_mask, _mm512_i32gather_ps,
    _mm512_loadu_epi32, _mm512_loadu_ps, _mm512_mask_add_epi32, _mm512_permutex2var_epi32,
    _mm512_permutex2var_ps, _mm512_permutexvar_epi32, _mm512_permutexvar_ps, _mm512_set1_epi32,
    _mm512_set1_ps, _mm512_setzero_si512, _mm512_storeu_ps,
};

use super::{Complete, CompleteSplit, sigmoid};

/// Rows walked at once: the lanes of a 512-bit vector of `f32`.
const WIDE: usize = 16;

/// Trees walked level by level together. A level of one tree waits on its gather; with
/// eight trees' gathers in flight the walk is bound by how fast the core gathers, not by
/// how long one gather takes. Measured on scrapinghub-aeb's units (the content model's
/// prediction, least of 20 rounds): one tree at a time 50.5 ms, four 32.7 ms, eight
/// 32.2 ms, against the scalar walk's 45.0 ms.
const GROUP: usize = 8;

/// Deepest trees this walk takes: the splits of level 5 (32 of them) are the most two
/// vectors of sixteen can hold.
const MAX_DEPTH: usize = 6;

/// The complete trees' splits as two arrays (features, thresholds) instead of pairs, so
/// that sixteen consecutive splits load as one vector each; both padded past the last
/// tree so that a level's sixteen-wide load never reads outside them.
#[derive(Clone, Debug)]
pub(super) struct Levels {
    features: Vec<i32>,
    thresholds: Vec<f32>,
}

impl Levels {
    /// The wide form of the complete trees `depth` deep whose splits are `splits`, or
    /// `None` when they are deeper than [`MAX_DEPTH`] or shallower than one split (a forest
    /// of lone leaves).
    pub(super) fn of(depth: usize, splits: &[CompleteSplit]) -> Option<Levels> {
        if depth == 0 || depth > MAX_DEPTH {
            return None;
        }
        let features = (splits.iter())
            .map(|s| i32::try_from(s.feature).ok())
            .chain(std::iter::repeat_n(Some(0), 2 * WIDE))
            .collect::<Option<Vec<i32>>>()?;
        let thresholds = (splits.iter())
            .map(|s| s.threshold)
            .chain(std::iter::repeat_n(0.0, 2 * WIDE))
            .collect();
        Some(Levels {
            features,
            thresholds,
        })
    }
}

/// Whether this machine can take the wide walk.
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// As [`super::Gbdt::predict_rows`] for rows of `width` at least `complete.features`: the
/// probability of each row appended to `out`. Returns `false`, having appended nothing,
/// when the machine lacks AVX-512 or `width` is too narrow.
pub(super) fn predict_rows(
    complete: &Complete,
    levels: &Levels,
    base: f32,
    rows: &[f32],
    width: usize,
    out: &mut Vec<f32>,
) -> bool {
    if width < complete.features || width == 0 || !available() {
        return false;
    }
    // Offsets of the gathers are 32-bit: a block of sixteen rows must fit.
    if WIDE.saturating_mul(width) > i32::MAX as usize {
        return false;
    }
    // Whole rows only, as `chunks_exact(width)` reads them in the scalar walk.
    let rows = &rows[..rows.len() / width * width];
    for block in rows.chunks(WIDE * width) {
        // SAFETY: AVX-512F is present (checked above); `block` holds whole rows of
        // `width` at least `complete.features`, and the caller's `levels` were built
        // from `complete` (see `margins` for the reads).
        let sums = unsafe { margins(complete, levels, base, block, width) };
        let n = block.len() / width;
        out.extend(sums[..n].iter().map(|&m| sigmoid(m)));
    }
    true
}

/// The log-odds of the (one to sixteen) rows of `block`, `base` plus one leaf per tree in
/// tree order; lanes past the last row repeat it and are not read.
///
/// # Safety
/// AVX-512F must be present; `block` must hold at least one whole row of `width`, with
/// `width >= complete.features` and `16 * width` within `i32`; `levels` must be
/// `Levels::of(complete.depth, &complete.splits)`.
#[target_feature(enable = "avx512f")]
unsafe fn margins(
    complete: &Complete,
    levels: &Levels,
    base: f32,
    block: &[f32],
    width: usize,
) -> [f32; WIDE] {
    let n = block.len() / width;
    let inner = (1usize << complete.depth) - 1;
    let offsets: [i32; WIDE] = std::array::from_fn(|l| (l.min(n - 1) * width) as i32);
    // SAFETY: `offsets` holds sixteen i32 (and n >= 1 by the caller's contract).
    let offsets = unsafe { _mm512_loadu_epi32(offsets.as_ptr()) };
    let one = _mm512_set1_epi32(1);
    let mut sums = _mm512_set1_ps(base);
    let trees = complete.leaves.len() / (inner + 1);
    let mut t0 = 0;
    while t0 < trees {
        let g = GROUP.min(trees - t0);
        let mut place = [_mm512_setzero_si512(); GROUP];
        for level in 0..complete.depth {
            let first = (1usize << level) - 1;
            for (j, place) in place[..g].iter_mut().enumerate() {
                let t = t0 + j;
                // SAFETY: tree `t`'s splits start at t * inner, and `levels` has inner
                // splits per tree plus 32 of padding, so a level's loads (at most 32 values
                // from t * inner + 31, level 5 of six, where inner = 63) stay inside.
                let (feature, threshold) = unsafe {
                    level_splits(
                        levels.features.as_ptr().add(t * inner),
                        levels.thresholds.as_ptr().add(t * inner),
                        first,
                        *place,
                    )
                };
                // SAFETY: lane l reads row min(l, n - 1) of `block` at a feature below
                // `complete.features <= width` (`Complete::of` admits no other).
                let x = unsafe {
                    _mm512_i32gather_ps::<4>(_mm512_add_epi32(offsets, feature), block.as_ptr())
                };
                let right = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, threshold);
                let twice = _mm512_add_epi32(*place, *place);
                *place = _mm512_mask_add_epi32(twice, right, twice, one);
            }
        }
        for (j, &place) in place[..g].iter().enumerate() {
            let t = t0 + j;
            // SAFETY: after `depth` levels each lane's place is below 2^depth = inner + 1,
            // the number of leaves of tree `t`.
            let leaf = unsafe {
                _mm512_i32gather_ps::<4>(place, complete.leaves.as_ptr().add(t * (inner + 1)))
            };
            sums = _mm512_add_ps(sums, leaf);
        }
        t0 += g;
    }
    let mut out = [0.0f32; WIDE];
    // SAFETY: `out` holds sixteen f32.
    unsafe { _mm512_storeu_ps(out.as_mut_ptr(), sums) };
    out
}

/// The feature and threshold of each lane's split on the level whose splits start at
/// `first` (2^level - 1), `place` being each lane's place within the level.
///
/// # Safety
/// AVX-512F; `features` and `thresholds` readable for 32 values from `first` when
/// `first >= 31` (level 5), else for 16.
#[target_feature(enable = "avx512f")]
unsafe fn level_splits(
    features: *const i32,
    thresholds: *const f32,
    first: usize,
    place: __m512i,
) -> (__m512i, std::arch::x86_64::__m512) {
    // SAFETY: the caller's.
    unsafe {
        if first < WIDE {
            (
                _mm512_permutexvar_epi32(place, _mm512_loadu_epi32(features.add(first))),
                _mm512_permutexvar_ps(place, _mm512_loadu_ps(thresholds.add(first))),
            )
        } else {
            (
                _mm512_permutex2var_epi32(
                    _mm512_loadu_epi32(features.add(first)),
                    place,
                    _mm512_loadu_epi32(features.add(first + WIDE)),
                ),
                _mm512_permutex2var_ps(
                    _mm512_loadu_ps(thresholds.add(first)),
                    place,
                    _mm512_loadu_ps(thresholds.add(first + WIDE)),
                ),
            )
        }
    }
}
